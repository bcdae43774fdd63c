package sched

import (
	"context"
	"slices"

	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// Task is the handle of a running task: its context, its worker, and the
// way to start and wait for other tasks. Fork, Task.NewGroup, Group.Go,
// Group.Wait and Future.Join all take the calling task, so that they use
// the queue of the worker that runs it.
//
// A Task is valid only during the call of the task's function, in the
// goroutine that runs it, and not in the function of a Task.Block. A
// function must not keep it, or use it in a task or goroutine it starts:
// each task gets its own. The Pool reuses Task values. The calls that take
// a Task panic when they see it used outside its function, or by another
// goroutine.
//
// A mistake in the use of a Pool panics, before it can corrupt anything,
// with a message that starts with "sched: " and says what was wrong:
//
//	mistake                                                    panics in
//	a nil Task, or another task's (kept, or an enclosing one)  the call that takes it
//	a Task used in a Task.Block's function                     the call that takes it
//	a Task used by another goroutine                           the call (-race: always; else when seen)
//	a nil Task given to Join or Wait by a task                 Future.Join, Group.Wait
//	a task that waits for a Group it belongs to                Group.Wait
//	a Future joined twice, or not made by Fork                 Future.Join
//	Group.Go after the group's Wait returned                   Group.Go
//	Pool.Do by a task while every worker runs a task           Pool.Do
//	Pool.Close by a task                                       Pool.Close
//	Do, or Go with a nil Task, after Close began               the call; the task is not counted
//	a nil function                                             Fork, ForkFunc, Join, Go, Do, Block
//
// Outside the race detector, a use by another goroutine is seen only when
// the task is not innermost on its worker: a check on every call costs too
// much. An invalid Config makes Run and NewPool return an error.
type Task struct {
	pw  *runner
	ctx context.Context
	l   *latch // the latch that counts this task
	// forks is the newest fork this task made and has not joined, and
	// groups the newest group it made and has not waited for. Each links
	// to the one before it (forkBase.prev, Group.older) and back, so that
	// a join or wait takes its own off in any order.
	forks  *forkBase
	groups *Group
	// below is the frame under this one on its goroutine's stack, nil for
	// the first: frames[d].below is frames[d-1], for the frame's life.
	below *Task
	_     pad.Line // the frames of different workers must not share a line
}

// Context returns the task's context: its Group's, or for a task started
// by Fork, that of the task that forked it. A long task should return
// early when it is done; a Group cancels it at its first error.
func (t *Task) Context() context.Context {
	t.use("Task.Context")
	return t.ctx
}

// WorkerID returns the ID of the worker running the task, from 0 to
// Pool.Workers()-1, for per-worker state (see PerWorker). A task runs on
// one worker from start to end.
func (t *Task) WorkerID() int {
	t.use("Task.WorkerID")
	return t.pw.w.id
}

// Demand returns how many of the pool's workers look for work that t's
// worker could give them, at this moment: those looking, when its queue
// shows no task for them; zero otherwise. A task that can split its work,
// such as a loop over a range, splits it when Demand is not zero, and
// forks the parts for the idle workers to take. Demand is a hint, stale
// as soon as it returns. It costs a few loads of shared words.
func (t *Task) Demand() int {
	t.use("Task.Demand")
	return t.pw.w.demand()
}

// NewGroup returns a new Group of t's pool with a context derived from
// t's. If t's function returns without waiting for the group, t waits for
// it then. It fails with the group's panic, if a task panicked; the
// group's error is lost, as it would be without a Wait.
func (t *Task) NewGroup() *Group {
	t.use("Task.NewGroup")
	g := t.pw.p.setUp(new(Group), t.ctx)
	g.owner.Store(t) // atomic: another task's Wait reads it (waited)
	if o := t.groups; o != nil {
		g.older, o.newer = o, g
	}
	t.groups = g
	return g
}

// Block runs f, a call that blocks (I/O, a system call, a lock, a channel,
// a sleep), while the task's worker goes on running other tasks. The
// task's goroutine lends the worker to another goroutine for the call: a
// parked spare, or a new one. So the pool keeps Workers goroutines
// running tasks. When f returns, the task goes on once its goroutine has
// the worker back. That happens when the goroutine that ran the worker
// meanwhile finishes its task, or blocks in turn. Task.WorkerID does not
// change.
//
// At most Config.MaxBlocked functions of Block run at once, as with a
// semaphore. A Block beyond that waits for one of them to return before it
// calls f; its worker goes on running other tasks meanwhile. Lending costs
// a few microseconds: Block is for calls that block longer, not for work
// that computes.
//
// f must not use t, or any other Task: its goroutine runs no task while it
// blocks. Such a use panics. Nor may f touch the worker's PerWorker
// state, which belongs to the goroutine that runs the worker meanwhile. A
// task that needs its context in f reads it before:
//
//	ctx := t.Context()
//	var entries []fs.DirEntry
//	var err error
//	t.Block(func() { entries, err = readDir(ctx, dir) })
//
// f may do what a goroutine outside the pool does, such as start tasks in
// a Group made by Pool.NewGroup and Wait(nil) for them. If those tasks
// call Block, MaxBlocked must leave them slots, as a semaphore must. A
// panic or Goexit in f is the task's, as if f had been called without
// Block: the goroutine takes its worker back first.
//
// Each goroutine blocked at once costs its stack. Once the blocking calls
// have returned, the extra goroutines end, except at most one parked spare
// per worker, kept for the next Block. Stats.Blocks, BlockWaits and
// PeakBlocked count the calls.
//
// Block must only be called by the task's function, with its own Task t;
// it panics otherwise, or if f is nil. What the task did before Block
// synchronizes before the call of f, and the return of f before the
// return of Block.
func (t *Task) Block(f func()) {
	t.use("Task.Block")
	if f == nil {
		panic(nilFunction("Task.Block", ""))
	}
	t.pw.p.crew.block(t, f)
}

// use panics unless t may start or wait for tasks here: t must be the
// innermost task on its goroutine. It is only in its own function, during
// the call; helping waits run other tasks above it, which return first. A
// Task kept after its function returned, or an enclosing task's Task,
// fails when the goroutine runs something else. Under the race detector
// the calling goroutine must also be t's; elsewhere that check costs too
// much for every call.
func (t *Task) use(op string) {
	if t == nil || raceEnabled && !t.pw.calling() || t.pw.top != t {
		panic(misuse(t, op))
	}
}

// misuse returns the message of use's panic. use panics itself, so that
// the compiler sees that the call does not return: the fast path then
// keeps its values in registers.
func misuse(t *Task, op string) string {
	switch {
	case t == nil:
		return "sched: " + op + " with a nil Task: only a task, with its own Task, may call it; outside the pool, use Pool.Do or a Group made by Pool.NewGroup"
	case !t.pw.calling():
		return "sched: " + op + " with a Task of another goroutine: a *Task is valid only in its task's function, during the call, in the goroutine that runs it; not in a goroutine the task starts"
	case t.pw.blocking:
		return "sched: " + op + " in the function of a Task.Block: its goroutine runs no task while it blocks; use the Task before or after the call"
	}
	return "sched: " + op + " with a Task used outside its own function: a *Task is valid only in its task's function, during the call, and not in the tasks it starts (each gets its own)"
}

// nilFunction returns the message of the panic for a nil function given
// to op; arg names it, if op takes more than one.
func nilFunction(op, arg string) string {
	if arg != "" {
		arg = " " + arg
	}
	return "sched: " + op + " with a nil function" + arg
}

// joined takes the fork b, which the task has joined, off its unjoined
// forks. It may be off already: sync took it when the forking task
// returned, and the frame now runs another task.
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

// waited takes g, which the task has waited for, off its groups, if it
// made g and has not waited for it before.
func (t *Task) waited(g *Group) {
	if g.owner.Load() == t { // atomic: the owner's goroutine writes it
		g.unlink(t)
	}
}

// sync waits for the futures and groups the task made and did not wait
// for, newest first, as a Cilk function syncs before it returns. It
// returns the first failure among them.
func (t *Task) sync() *failure {
	var first *failure
	keep := func(f *failure) {
		if first == nil {
			first = f
		}
	}
	for t.groups != nil {
		g := t.groups
		g.unlink(t)
		g.settle()
		t.pw.help(&g.l)
		keep(g.seal())
	}
	for t.forks != nil {
		b := t.forks
		t.joined(b)
		t.pw.help(&b.l)
		keep(b.l.failure())
	}
	return first
}

// runner is one goroutine of a Pool: in the Go runtime's terms, an M to
// the worker's P. It holds the stack of tasks running on it, each a
// helping wait's guest above the task that waits, and what it keeps to
// reuse. It runs one worker at a time. While a task of it blocks in
// Task.Block, it lends the worker to another runner (see block.go). Only
// the goroutine itself touches these fields, except where said.
type runner struct {
	p *Pool
	// w is the worker the goroutine runs; while its task is in
	// Task.Block, the worker it lent and will take back; nil while it is a
	// parked spare. bq is w's queue if it is a blockq, for direct calls.
	// The goroutine that hands this one a worker writes both, before it
	// does.
	w        *Worker[Job]
	bq       *blockq.Queue[Job]
	frames   []*Task     // frames[:depth] are running, innermost last
	depth    int         // the number of running frames
	top      *Task       // frames[depth-1], or nil: the only Task the goroutine may use
	blocking bool        // in Task.Block's function, for the message of misuse
	stealing int         // helping waits on the stack that take work from elsewhere
	free     []*forkBase // finished fork records to reuse (see forkBase)
	gid      uint64      // the goroutine's atomicx.Goroutine, written before it runs tasks
	// resume (capacity one) receives a token when another goroutine hands
	// this one a worker.
	resume chan struct{}
	_      pad.Line
}

// maxStealingJoins is the most helping waits, nested on one goroutine's
// stack, that take work from outside the worker's own queue. See Space and
// depth in the package documentation.
const maxStealingJoins = 16

// keptFrames is the most task frames a goroutine keeps for reuse once it
// is back at depth zero.
const keptFrames = 64

// setWorker makes w the worker the goroutine runs.
func (pw *runner) setWorker(w *Worker[Job]) {
	pw.w, pw.bq = w, nil
	if w != nil {
		pw.bq, _ = w.queue.(*blockq.Queue[Job])
	}
}

// calling reports whether pw is the calling goroutine.
func (pw *runner) calling() bool { return atomicx.Goroutine() == pw.gid }

// spawn pushes j into the worker's queue: the engine's pushOne, with a
// direct call when the queue is a blockq (the default queue). A call through
// wsq.Queue goes through a wrapper of the generic queue's method: every
// task pays for its push and pop.
func (pw *runner) spawn(j Job) {
	w := pw.w
	w.count(1)
	if bq := pw.bq; bq != nil && w.pushesDirect() {
		bq.Push(j)
		w.pushed(1)
		return
	}
	w.pushOne(j)
}

// next is the engine's next, with a direct call when the queue is a
// blockq (see spawn).
func (pw *runner) next() (Job, bool) {
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

// enter pushes a frame for a task about to run on this goroutine.
func (pw *runner) enter() *Task {
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

// enterFork pushes the frame of b's task.
func (pw *runner) enterFork(b *forkBase) *Task {
	t := pw.enter()
	t.ctx, t.l = b.parent.ctx, &b.l
	b.ranOn = pw
	return t
}

// drop takes the frame t of a finished task off the stack. The frame keeps
// nothing of the task: its context and latch would keep the task's record
// reachable. At depth zero the goroutine gives back the frames beyond
// keptFrames, so that a deep recursion does not keep them for the pool's
// life.
func (pw *runner) drop(t *Task) {
	t.ctx, t.l = nil, nil
	pw.depth--
	pw.top = t.below
	if t.below == nil && len(pw.frames) > keptFrames {
		pw.frames = slices.Clone(pw.frames[:keptFrames])
	}
}

// exec runs the task of j: it calls the task's function, waits for what
// the function left unjoined, and records the outcome. A panic stops at
// this frame and becomes the task's outcome. So does runtime.Goexit, which
// goes on to end the goroutine (see crew.serve).
func (pw *runner) exec(j Job) {
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

// leave is exec's deferred call: it recovers the task's panic and exits t.
func (pw *runner) leave(t *Task, x ender, ok *bool) {
	var f *failure
	if !*ok {
		f = recovered(recover())
	}
	pw.exit(t, x, f)
}

// ender is where a task's end is counted: its Group, or its fork record.
type ender interface {
	// arrive records the task's outcome (nil for success) and counts the
	// task as finished.
	arrive(f *failure)
}

// exit ends the task t of x, whose function returned (f nil) or failed
// with f. It waits for what the function left unjoined, drops the frame
// and records the outcome.
func (pw *runner) exit(t *Task, x ender, f *failure) {
	switch {
	case f != nil && f.goexit:
		// The goroutine ends, and the handler will not return to count
		// the task: count it here. Its children go on without it; running
		// them here could end in a Goexit of their own. They may still
		// read the frame's context, so the frame stays as it is, dropped
		// with the goroutine.
		pw.w.credit++
		pw.depth--
	case t.forks != nil || t.groups != nil:
		f = pw.syncFrame(t, x, f)
		fallthrough
	default:
		pw.drop(t)
	}
	x.arrive(f)
}

// syncFrame is t.sync for exit: it returns f, or if f is nil the first
// failure of t's children. A child that the wait runs may end the
// goroutine by Goexit; the deferred call then ends t too, as leave would.
func (pw *runner) syncFrame(t *Task, x ender, f *failure) *failure {
	synced := false
	defer func() {
		if !synced {
			pw.w.credit++
			pw.depth-- // the goroutine ends: see exit
			if f == nil {
				f = &failure{goexit: true}
			}
			x.arrive(f)
		}
	}()
	if g := t.sync(); f == nil {
		f = g
	}
	synced = true
	return f
}

// runFork runs the forked task of b, as exec runs a Group's task. A worker
// that took it from a queue passes byJoin false. The Join of the forking
// task, which took it back from its own queue, passes true.
// When such a call returns having waited for all it started, that Join is
// the only waiter, and the task ends without touching its latch. The
// deferred function is leave, written in place: one call fewer per task.
func (pw *runner) runFork(b *forkBase, byJoin bool) {
	t := pw.enterFork(b)
	ok := false
	defer func() {
		if ok && byJoin && t.forks == nil && t.groups == nil {
			pw.drop(t)
			return
		}
		var f *failure
		if !ok {
			f = recovered(recover())
		}
		pw.exit(t, b, f)
	}()
	b.task.call(t)
	ok = true
}

// runTask runs the task of j, taken from the worker's own items, and counts
// it as handled.
func (pw *runner) runTask(j Job) {
	pw.exec(j)
	pw.handled()
}

// handled counts a task of the worker's own items as handled, once it
// ended. After a Goexit, exit counts it instead.
func (pw *runner) handled() {
	pw.w.credit++
	pw.w.stats.Processed++
}

// help runs tasks on this worker until l is done: the helping wait of
// Future.Join, Join and Group.Wait. It runs the worker's own tasks first,
// then tasks from elsewhere, as an idle worker finds them, unless
// maxStealingJoins waits on the stack already do. It sleeps only when
// there is nothing to run. With nothing of its own to run, it lends the
// worker to a goroutine that waits to take it back, until l is done: the
// tasks l counts may be that goroutine's, or wait for it.
func (pw *runner) help(l *latch) {
	w := pw.w
	stole := false
	for !l.done() {
		if j, ok := pw.next(); ok {
			pw.runTask(j)
			continue
		}
		if pw.p.crew.lendUntil(pw, l) {
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

// checkWait panics if l counts a task that runs on this goroutine, below
// the wait: it could not finish before the wait does.
func (pw *runner) checkWait(l *latch) {
	for _, t := range pw.frames[:pw.depth] {
		if t.l == l {
			panic("sched: a task waits for itself: the Group or Future it waits for counts a task that is running below it on the same worker")
		}
	}
}

// sleep waits until l is done without running tasks (see help). It lends
// the worker meanwhile to a goroutine that waits to take it back.
func (pw *runner) sleep(l *latch) {
	w := pw.w
	for !l.done() {
		ch := l.channel()
		if pw.p.crew.lendUntil(pw, l) || l.done() {
			return
		}
		select {
		case <-ch:
		case <-w.recall: // see Worker.wanted
		}
	}
}
