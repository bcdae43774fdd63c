package sched

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// maxStealingJoins is the most helping waits, nested on one worker's stack,
// that take work from outside the worker's own queue; see the package
// documentation (Space and depth).
const maxStealingJoins = 16

// keptFrames is the most task frames a worker keeps for reuse once it is
// back at depth zero: what a deep recursion made a worker grow beyond it is
// given back when the recursion ends (see the package documentation,
// Memory).
const keptFrames = 64

// Pool is a set of worker goroutines that run fork-join tasks: functions
// that take a *Task and may start more tasks (Fork, Group.Go) and wait for
// them (Future.Join, Group.Wait). The workers, their queues and the load
// balancing (Config.Mode) are those of Run; a task is one item of a worker's
// queue, a Job.
//
// Make a Pool once with NewPool and use it for many computations, from any
// number of goroutines: Do runs a function as a task and waits for it, and a
// Group made with NewGroup collects tasks started from outside the pool.
// Close stops the workers. A Pool's methods may be called from any
// goroutine, except that Close must not be called by a task.
type Pool struct {
	s       *scheduler[Job]
	slots   []slot // indexed by Worker.ID
	started time.Time

	// The goroutines of the pool and the blocking calls: see block.go.
	goroutines
	closeOnce sync.Once
	stats     Stats
}

// PoolConfig describes a Pool: its workers, their queues and how they
// balance load, as Config does for Run. The zero PoolConfig is valid:
// GOMAXPROCS workers, each with a DefaultQueue, in Master mode.
//
// One difference: a Pool whose Proportion is zero steals one task at a
// time, in both modes (in Random mode as StealOne does), where Run takes
// DefaultProportion of the victim's queue. The oldest task of a fork-join
// queue is the largest piece of work in it (the other half of the
// outermost split), so one task is enough to keep a thief busy; half of
// the queue would be several such pieces, which the thief then runs one
// after another, and a thief in a helping join (Future.Join, Join,
// Group.Wait) returns to the task that waits only when it has finished
// them. Measured on 16 cores (fib(34) with a serial cutoff at 17, tasks of
// about 8 µs, 16 workers): 3.1 ms in Master mode and 3.8 ms in Random mode
// with one task a steal, against 5.1 and 12.3 ms with half the queue, 3.2
// ms with a goroutine per task and 34-45 ms on one worker
// (BenchmarkForkJoinSteal, and BENCHMARKS.md, "On 16 cores"). A
// Proportion set explicitly is honoured.
type PoolConfig = Config[Job]

// oneTask is the steal proportion of a Pool whose PoolConfig.Proportion
// is zero: wsq.StealCount takes at least one item, and with this
// proportion never more, for any queue length below 10^11.
const oneTask = 1e-12

// Job is an item of a Pool's queues: one task waiting to run. Its fields are
// not exported; a program names the type only to make queues for a Pool, as
// in
//
//	newQueue, err := catalog.Factory[sched.Job]("cl-ub")
//	pool, err := sched.NewPool(sched.PoolConfig{NewQueue: newQueue})
//
// A Job is a Fork's task (fork set) or a Group's (group and fn set). The
// fields are concrete pointers rather than an interface, so that a Join
// recognizes its own fork's Job by comparing one word.
type Job struct {
	fork  *forkBase         // the record of a Fork's task, or nil
	group *Group            // the group of a Group's task
	fn    func(*Task) error // the function of a Group's task
}

// ender is where a task records its outcome: its Group, or its fork record.
type ender interface {
	// finish records the task's outcome (a nil failure for success) and
	// counts the task as finished.
	finish(f *failure)
}

// Task is the handle of a running task: its context, its worker, and the
// way to start and wait for other tasks (Fork, Task.NewGroup, Group.Go,
// Group.Wait, Future.Join all take the calling task, so that they use the
// queue of the worker that runs it).
//
// A Task is valid only during the call of the task's function, in the
// goroutine that runs it, and not in the function of a Task.Block; a
// function must not keep it, or use it in a task or goroutine it starts
// (each task gets its own). The Pool reuses Task values. The methods and
// functions that take a Task panic when they see it used outside its
// function, or by another goroutine (see Misuse in the package
// documentation).
type Task struct {
	pw  *poolWorker
	ctx context.Context
	l   *latch // the latch that counts this task
	// forks is the newest fork this task made and has not joined, and
	// groups the newest group it made and has not waited for: each links
	// to the one before it (forkBase.prev, Group.older) and back, so that
	// a join or wait takes its own off in any order.
	forks  *forkBase
	groups *Group
	// below is the frame under this one on its worker's stack, nil for
	// the first: frames[d].below is frames[d-1], for the frame's life.
	below *Task
	_     pad.Line // the frames of different workers must not share a cache line
}

// poolWorker is one goroutine of a Pool (in the Go runtime's terms, an M
// to the worker's P): the stack of tasks running on it, each a helping
// wait's guest above the task that waits, and what it keeps to reuse. It
// runs one worker's loop at a time. A worker usually keeps its goroutine
// for the life of the pool; while a task blocks in Task.Block, its
// goroutine lends the worker to another one, and takes it back before the
// task goes on (see block.go). Only the goroutine itself touches these
// fields, except where said.
type poolWorker struct {
	p *Pool
	// w is the worker the goroutine runs, and while its task is in
	// Task.Block, the worker it lent and will take back. Nil while the
	// goroutine is a parked spare. Written by the goroutine that hands the
	// goroutine a worker, before it does.
	w        *Worker[Job]
	bq       *blockq.Queue[Job] // w's queue, if it is a blockq; else nil
	frames   []*Task            // frames[:depth] are running, innermost last
	depth    int
	top      *Task       // frames[depth-1], or nil at depth zero and in Task.Block's function: the only Task its goroutine may use
	blocking bool        // in Task.Block's function, for the message of misuse
	stealing int         // helping waits on the stack that take work from elsewhere
	free     []*forkBase // finished fork records to reuse (see forkBase)
	gid      uint64      // the goroutine's atomicx.Goroutine, written before it runs tasks
	// resume (capacity one) receives a token when another goroutine
	// hands this one a worker: a parked spare, or a goroutine waiting to
	// take its worker back after Task.Block.
	resume chan struct{}
	_      pad.Line
}

// slot is the Pool's part of one worker: the goroutine running it and
// those waiting to take it back.
type slot struct {
	// gid is the atomicx.Goroutine of the goroutine running the worker,
	// or zero while it is handed over: each goroutine that takes the
	// worker stores its own, and one that lends it clears it first.
	gid atomic.Uint64
	// cur is the goroutine running the worker. It is written by the
	// goroutine that hands the worker over, before it does (a channel send
	// or a go statement), and read by cur.
	cur *poolWorker
	// busy is set while the worker runs a task (at any depth), for
	// Pool.Do's check that it is not called by a task (see allBusy).
	// Written by the goroutine running the worker (or handing it over),
	// read by any goroutine that calls Do. The stores are sequentially
	// consistent, not release stores: when every worker calls Do at once,
	// each stores its flag and then loads the others', so the last of
	// them sees them all set.
	busy atomic.Bool
	// waiting holds the goroutines whose Task.Block call returned and that
	// wait to take the worker back, oldest first; Worker.wanted counts
	// them.
	mu      sync.Mutex
	waiting []*poolWorker
	_       pad.Line
}

// NewPool starts a Pool of workers, as cfg describes, and returns it:
// NewPool() with GOMAXPROCS workers, each with a DefaultQueue, in Master
// mode, the choice for most programs, and NewPool(cfg) with
// cfg.WorkerCount() workers, each with a queue made by cfg.NewQueue
// (DefaultQueue when nil), balanced as cfg.Mode says. It returns an error,
// and starts nothing, if cfg is invalid or there is more than one. The
// workers park when there is nothing to run, so an idle Pool costs no
// processor time; Close stops them.
func NewPool(cfg ...PoolConfig) (*Pool, error) {
	var c PoolConfig
	switch len(cfg) {
	case 0:
	case 1:
		c = cfg[0]
	default:
		return nil, fmt.Errorf("sched: NewPool takes at most one PoolConfig, not %d", len(cfg))
	}
	if c.Proportion == 0 {
		// One task a steal, in both modes: see PoolConfig.
		c.StealOne, c.Proportion = true, oneTask
	}
	p := &Pool{}
	s, err := newScheduler[Job](c, p)
	if err != nil {
		return nil, err
	}
	p.s = s
	p.slots = make([]slot, len(s.workers))
	p.ids = map[uint64]bool{}
	p.maxSpares = len(s.workers)
	p.calls = make(chan struct{}, s.cfg.MaxBlocked)
	for i, w := range s.workers {
		p.slots[i].cur = p.newGoroutine(w)
	}
	s.hold() // the Pool's own count, until Close
	p.started = time.Now()
	s.start(context.Background())
	return p, nil
}

// Workers returns the number of workers: Task.WorkerID is below it.
func (p *Pool) Workers() int { return len(p.slots) }

// Do runs f as a task of the pool with context ctx, and waits for it and
// every task it started: it is NewGroup, Go and Wait of a group of one. It
// returns f's error, panics with a *PanicError if a task panicked, and calls
// runtime.Goexit if a task did (see Group.Wait). It panics if f is nil or
// the pool is closed.
//
// Do blocks its goroutine, so a task must not call it: a task forks (Fork,
// Task.NewGroup and Group.Go) and waits with Future.Join or Group.Wait,
// which run other tasks while they wait. A task that calls Do anyway
// blocks its worker; when every worker is running a task at that moment,
// which would leave nobody to run f, Do panics with a message that says
// so instead of waiting forever.
func (p *Pool) Do(ctx context.Context, f func(*Task) error) error {
	if f == nil {
		nilFunction("Pool.Do", "")
	}
	if p.allBusy() && p.caller() != nil {
		panic("sched: Pool.Do called by a task, while every worker runs a task: nobody could run it; a task starts tasks with Fork or a Group (Task.NewGroup) and waits for them with Join or Wait")
	}
	g := p.NewGroup(ctx)
	g.Go(nil, f)
	return g.wait(nil)
}

// allBusy reports whether every worker runs a task at this moment: then
// Do's wait would be a deadlock if a worker called it (with one worker,
// always). With a worker idle, Do is called by a goroutine outside the
// pool, or by a task that blocks its worker but does not stop the pool.
func (p *Pool) allBusy() bool {
	for i := range p.slots {
		if !p.slots[i].busy.Load() {
			return false
		}
	}
	return true
}

// caller returns the goroutine of the pool that runs a worker and calls
// it, or nil if the calling goroutine runs no worker (it is not the
// pool's, or it lent its worker in Task.Block).
func (p *Pool) caller() *poolWorker {
	id := atomicx.Goroutine()
	for i := range p.slots {
		if p.slots[i].gid.Load() == id {
			return p.slots[i].cur // the caller's own: written before it was handed the worker
		}
	}
	return nil
}

// nilWait panics if a task of the pool calls op with a nil Task: the wait
// would block its worker, and on a pool of one worker never end.
func (p *Pool) nilWait(op string) {
	if pw := p.caller(); pw != nil && pw.top != nil { // top is nil in Task.Block's function
		panic("sched: " + op + " with a nil Task, called by a task: pass the task's own t, so that its worker runs other tasks while it waits")
	}
}

// Close waits for every task to finish, stops the workers, and returns the
// statistics of the pool's whole life (Stats.Processed counts the tasks).
// Starting a task from outside the pool (Do, or Group.Go with a nil Task)
// after Close has begun panics; tasks that are still running may start
// more. Close panics if a task calls it: it would wait for itself. Later
// calls return the same Stats.
func (p *Pool) Close() Stats {
	if p.onPool() {
		panic("sched: Pool.Close called by a task, which would wait for itself")
	}
	p.closeOnce.Do(func() {
		p.stats = p.s.shutdown(func() time.Duration { return time.Since(p.started) })
		p.stats.Blocks = p.blocks.Load()
		p.stats.BlockWaits = p.waits.Load()
		p.stats.PeakBlocked = int(p.peak.Load())
	})
	return p.stats
}

// errClosed is the panic of a task started from outside a closed Pool.
const errClosed = "sched: a task started from outside a closed Pool"

// serve is the body of w's first goroutine (see host).
func (p *Pool) serve(w *Worker[Job]) { p.slots[w.id].cur.run() }

// handle is the Pool's Handler: it runs one task, on the goroutine that
// runs w (which has w back when exec returns, if the task blocked).
func (p *Pool) handle(_ context.Context, j Job, w *Worker[Job]) error {
	sl := &p.slots[w.id]
	sl.busy.Store(true)
	sl.cur.exec(j)
	sl.busy.Store(false)
	return nil
}

// exec runs the task of j on this worker: it calls the task's function,
// waits for the futures and groups the function did not wait for, and
// records the outcome. A panic stops at this frame, and becomes the task's
// outcome; so does runtime.Goexit, which goes on to end the worker's
// goroutine (see runWorker).
func (pw *poolWorker) exec(j Job) {
	if j.fork != nil {
		pw.runFork(j.fork, false)
		return
	}
	g := j.group
	t := pw.enter()
	t.ctx, t.l = g.ctx, &g.l
	ok := false
	defer pw.leave(t, g, &ok)
	g.call(t, j.fn)
	ok = true
}

// leave ends the task t of x; it is exec's deferred call, and recovers the
// task's panic.
func (pw *poolWorker) leave(t *Task, x ender, ok *bool) {
	var f *failure
	if !*ok {
		f = recovered(recover())
	}
	pw.end(t, x, f)
}

// end ends the task t of x, whose function returned (f nil) or failed
// with f: it waits for the futures and groups the function did not wait
// for, takes t off the worker's stack and records the outcome.
func (pw *poolWorker) end(t *Task, x ender, f *failure) {
	switch {
	case f != nil && f.goexit:
		// The goroutine ends: the handler will not return to count the
		// task as handled, so count it here. The task's children go on
		// without it: running them here could end in a Goexit of their
		// own, which would cut this call short. They may still start,
		// and read the frame's context: the frame is left as it is, and
		// dropped with the goroutine (see poolWorker.run).
		pw.w.credit++
		pw.depth--
	case t.forks != nil || t.groups != nil:
		f = pw.joinOwned(t, x, f)
		fallthrough
	default:
		pw.pop(t)
	}
	x.finish(f)
}

// runFork runs the forked task of b, as exec runs a Group's: for a worker
// that took it from a queue (byJoin false), or as a call for the Join of
// the task that forked it (byJoin true), which took it back from the
// worker's own queue. When such a call returns having waited for
// everything it started, as fork-join code does, that Join is the only
// one that waits for the task, and the task ends without touching its
// latch; otherwise it ends as every task does (the deferred function is
// leave, written in place: one call fewer on every task).
func (pw *poolWorker) runFork(b *forkBase, byJoin bool) {
	t := pw.enterFork(b)
	ok := false
	defer func() {
		if ok && byJoin && t.forks == nil && t.groups == nil {
			pw.pop(t)
			return
		}
		var f *failure
		if !ok {
			f = recovered(recover())
		}
		pw.end(t, b, f)
	}()
	b.task.call(t)
	ok = true
}

// joinOwned waits for the futures and groups that the task t of x made and
// did not wait for, and returns f, or if f is nil the first failure among
// them. A task that this wait runs may end the goroutine by Goexit; then
// the deferred call below ends t too, as leave would have, with f, or if f
// is nil that Goexit.
func (pw *poolWorker) joinOwned(t *Task, x ender, f *failure) *failure {
	joined := false
	defer func() {
		if !joined {
			pw.w.credit++
			pw.depth-- // the goroutine ends: see leave
			if f == nil {
				f = &failure{goexit: true}
			}
			x.finish(f)
		}
	}()
	if g := t.joinOwned(); f == nil {
		f = g
	}
	joined = true
	return f
}

// enterFork pushes the frame of b's task, about to run on this worker.
func (pw *poolWorker) enterFork(b *forkBase) *Task {
	t := pw.enter()
	t.ctx, t.l = b.parent.ctx, &b.l
	b.ranOn = pw
	return t
}

// enter pushes a frame on the worker's stack for a task about to run.
func (pw *poolWorker) enter() *Task {
	if pw.depth == len(pw.frames) {
		var below *Task
		if pw.depth > 0 {
			below = pw.frames[pw.depth-1]
		}
		pw.frames = append(pw.frames, &Task{pw: pw, below: below})
	}
	t := pw.frames[pw.depth]
	pw.depth++
	pw.top = t
	return t
}

// pop takes the frame t of a task that has finished off the worker's
// stack. The frame keeps nothing of the task (its context and latch would
// keep the task's record, with its argument and result, reachable until
// the frame is reused), and at depth zero the worker gives back the frames
// beyond keptFrames, so that a deep recursion does not keep its frames for
// the life of the pool.
func (pw *poolWorker) pop(t *Task) {
	t.ctx, t.l = nil, nil
	pw.depth--
	pw.top = t.below
	if t.below == nil && len(pw.frames) > keptFrames {
		pw.frames = slices.Clone(pw.frames[:keptFrames])
	}
}

// use panics unless t may start or wait for tasks in the calling code: t
// must be the task running innermost on its worker, which it is only in
// its own function, during the call (helping waits run other tasks above
// it, which return before the wait does). A Task kept after its function
// returned, or the Task of an enclosing task used in a task it started,
// fails the check when the worker runs something else at that moment;
// op names the call for the message. Under the race detector, the
// calling goroutine must also be t's, which it checks first (a goroutine
// that the task started must not read top); elsewhere that costs too
// much for every call.
func (t *Task) use(op string) {
	if t == nil || raceEnabled && !t.pw.calling() || t.pw.top != t {
		misuse(t, op)
	}
}

// calling reports whether pw is the calling goroutine.
func (pw *poolWorker) calling() bool { return atomicx.Goroutine() == pw.gid }

// misuse panics with the message of use.
func misuse(t *Task, op string) {
	if t == nil {
		panic("sched: " + op + " with a nil Task: only a task, with its own Task, may call it; outside the pool, use Pool.Do or a Group made by Pool.NewGroup")
	}
	if !t.pw.calling() {
		panic("sched: " + op + " with a Task of another goroutine: a *Task is valid only in its task's function, during the call, in the goroutine that runs it; not in a goroutine the task starts")
	}
	if t.pw.blocking {
		panic("sched: " + op + " in the function of a Task.Block: its goroutine runs no task while it blocks; use the Task before or after the call")
	}
	panic("sched: " + op + " with a Task used outside its own function: a *Task is valid only in its task's function, during the call, and not in the tasks it starts (each gets its own)")
}

// spawn pushes j into the worker's queue: the engine's pushOne, with a
// direct call when the queue is a blockq (DefaultQueue's). A call through
// wsq.Queue goes through a wrapper of the generic queue's method.
func (pw *poolWorker) spawn(j Job) {
	w := pw.w
	w.count(1)
	if bq := pw.bq; bq != nil && w.pushesDirect() {
		bq.Push(j)
		w.pushed(1)
		return
	}
	w.pushOne(j)
}

// runTask runs the task of j, taken from the worker's own items, and counts
// it as handled.
func (pw *poolWorker) runTask(j Job) {
	pw.exec(j)
	pw.handled()
}

// handled counts a task of the worker's own items as handled, once it
// ended (by a Goexit, end counts it instead).
func (pw *poolWorker) handled() {
	pw.w.credit++
	pw.w.stats.Processed++
}

// join runs tasks on this worker until l is done: the worker's own tasks
// first, then, unless maxStealingJoins waits on its stack already do, tasks
// from elsewhere, as an idle worker would find them. It sleeps only when
// there is nothing to run. When it has nothing to run of its own and a
// goroutine waits to take the worker back after Task.Block, it lends the
// worker to that goroutine until l is done: the tasks l counts may be
// that goroutine's, or wait for it.
func (pw *poolWorker) join(l *latch) {
	w := pw.w
	stole := false
	for !l.done() {
		if j, ok := pw.next(); ok {
			pw.runTask(j)
			continue
		}
		if pw.lendUntil(l) {
			continue
		}
		if !stole {
			pw.checkWait(l)
			if pw.stealing >= maxStealingJoins {
				pw.sleep(l) // only the worker's own tasks may nest deeper
				break
			}
			stole = true
			pw.stealing++
		}
		if _, err := w.findWork(w.s.ctx, l); err != nil {
			panic(err) // a queue returned a task twice: the results cannot be trusted
		}
	}
	if stole {
		pw.stealing--
	}
}

// checkWait panics if l counts a task that runs on this worker, below the
// wait: it could not finish before the wait does.
func (pw *poolWorker) checkWait(l *latch) {
	for _, t := range pw.frames[:pw.depth] {
		if t.l == l {
			panic("sched: a task waits for itself: the Group or Future it waits for counts a task that is running below it on the same worker")
		}
	}
}

// Context returns the task's context: the context of its Group, or for a
// task started by Fork, that of the task that forked it. A long task should
// return early when it is done (a Group cancels it at its first error).
func (t *Task) Context() context.Context {
	t.use("Task.Context")
	return t.ctx
}

// WorkerID returns the ID of the worker running the task, from 0 to
// Pool.Workers()-1, for per-worker state (see PerWorker). A task runs on one
// worker from start to end.
func (t *Task) WorkerID() int {
	t.use("Task.WorkerID")
	return t.pw.w.id
}

// joined takes the fork b, which the task has joined, off its unjoined
// forks, unless it is off already (joinOwned took it when the task that
// forked it returned, and the frame now runs another task).
func (t *Task) joined(b *forkBase) {
	p := b.prev
	if t.forks == b { // the newest, as fork-join code joins
		if p != nil {
			p.next, t.forks, b.prev = nil, p, nil
		} else {
			t.forks = nil
		}
	} else if n := b.next; n != nil {
		n.prev, b.next = p, nil
		if p != nil {
			p.next, b.prev = n, nil
		}
	}
}

// waited takes g, which the task has waited for, off its groups if it made
// g and has not waited for it before.
func (t *Task) waited(g *Group) {
	if g.owner.Load() == t {
		g.unlink(t)
	}
}

// joinOwned waits for the futures and groups the task made and did not
// wait for, newest first, and returns the first failure among them.
func (t *Task) joinOwned() *failure {
	var first *failure
	keep := func(f *failure) {
		if first == nil {
			first = f
		}
	}
	for t.groups != nil {
		g := t.groups
		g.unlink(t)
		t.pw.join(&g.l)
		keep(g.end())
	}
	for t.forks != nil {
		b := t.forks
		t.joined(b)
		t.pw.join(&b.l)
		keep(b.l.failure())
	}
	return first
}

// next is the engine's next, with a direct call when the queue is a
// blockq (see spawn).
func (pw *poolWorker) next() (Job, bool) {
	w := pw.w
	if bq := pw.bq; bq != nil && w.popsDirect() {
		j, ok := bq.Pop()
		if ok {
			w.popped()
		}
		return j, ok
	}
	return w.next()
}

// setWorker makes w the worker the goroutine runs.
func (pw *poolWorker) setWorker(w *Worker[Job]) {
	pw.w = w
	pw.bq = nil
	if w != nil {
		pw.bq, _ = w.queue.(*blockq.Queue[Job])
	}
}
