package sched

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/worksteal/wsq/internal/pad"
)

// Group is a set of tasks that a program starts with Go and waits for with
// Wait, as with golang.org/x/sync/errgroup, but run by a Pool's workers.
// The first task that returns an error cancels the group's context, and
// Wait returns that error. Wait run by a task runs other tasks while it
// waits. Pool.NewGroup makes a Group for tasks started from outside the
// pool, Task.NewGroup one inside a task. A Group serves one round of Go
// calls and one Wait. SetLimit bounds the tasks active at once, and TryGo
// starts one only if the limit allows it, as errgroup's do.
//
// The zero Group is ready to use, as errgroup's is: at its first use it
// becomes a group of the default pool (or, used first by a task, of that
// task's pool) with the background context, as Pool.NewGroup would make.
// Its tasks do not belong to the task that started them: that task does
// not wait for them when it returns. A Group must not be copied after its
// first use.
//
// A panic in a task of the group stops the group. Its tasks that have not
// started by then are not run: each finishes at once. Once every task has
// finished, Wait panics with a *PanicError that holds the first panic's
// value and stack. A task that calls runtime.Goexit stops the group in the
// same way, and Wait then calls runtime.Goexit. Errors do not stop the
// group: its tasks run, and should watch their context.
type Group struct {
	l latch // first: see latch

	// The latch's count changes with every task, and every task reads the
	// fields from parent on. So the fields between, which change rarely, fill
	// the latch's line: a Group is 16-byte aligned, so a field at offset
	// 64 or more is on another 64-byte line (with 64-bit words;
	// TestGroupLayout).
	mu     sync.Mutex // guards err and the latch's failure until it is done
	err    error
	cancel context.CancelCauseFunc

	// parent is the task that made the group, which waits for its tasks,
	// or nil for a Pool's group: the up of its tasks (see runner). It
	// never changes. Until parent waits for the group, the group is on
	// its list (Task.groups), linked by older and newer, which only
	// parent's goroutine touches.
	older, newer *Group
	parent       *Task

	s   *scheduler[Job] // the pool's: see setUp
	ctx context.Context

	// ext is the group's rarer state, on a line of its own: its credit
	// and its limit. A Pool's groups have one (outsideGroup); a task's,
	// rarely fed from outside, get one from SetLimit, or not at all.
	ext *groupExt

	// flags holds the bits below, on any goroutine: each set once, but
	// groupLimited, which SetLimit sets and clears while no task is active.
	flags atomic.Uint32
}

// The bits of Group.flags.
const (
	groupStopped = 1 << iota // set at the first panic or Goexit
	groupEnded               // set when Wait (or the implicit wait of the task that made the group) returns
	groupReady               // the group has its pool and context: NewGroup, or a zero Group's first use (setUpZero)
	groupLimited             // the group has a limit (SetLimit), in ext
)

// is reports whether the flag bit is set. Atomic: any goroutine sets them.
func (g *Group) is(bit uint32) bool { return g.flags.Load()&bit != 0 }

// groupExt is a Group's rarer state.
type groupExt struct {
	// credit is how many tasks the latch counts ahead, for Go calls with
	// a nil t, or noCredit once a wait has begun, or for a group that
	// keeps none. Such calls count themselves from it, on a line their
	// goroutines keep, instead of on the latch's, which the workers write:
	// see count.
	credit atomic.Int64
	// limit is the group's limit on its active tasks, or nil for none:
	// SetLimit sets it before the Go calls, and every task reads it when
	// it ends (arrive).
	limit *groupLimit
}

// groupLimit is the limit of a Group on its active tasks (SetLimit): a
// token in sem for each task started and not finished, at most cap(sem).
// A Go that finds no token free:
//
//	whose Go             does                                       a finishing task
//	a task's             waits: runs other tasks (help)             gives its token back, arrives on the task's latch
//	from outside tasks   queues its job and returns; while cap(sem)  passes its token to the job, which starts
//	                     jobs are queued, it first waits for room   where the task ended (runner.handOn)
//
// Both wait in waiters, oldest first. The Gos from outside tasks that
// wait for room wake once half the queued jobs have started. So the
// token goes from task to task with no wake-up in between, and a stream
// of Gos wakes its caller about once per cap(sem)/2 tasks.
type groupLimit struct {
	sem chan struct{}
	mu  sync.Mutex // guards the rest, and the tokens given back while a job waits
	// waiters[head:] wait, oldest first (add, takeOldest). A release moves
	// head past the oldest; an add that finds the array full moves the
	// rest to its front once head is half its length. So a stream of Gos
	// reuses one array rather than growing a new one as the front empties.
	waiters []limitWaiter
	head    int
	jobs    int // the jobs among waiters
	// room is closed when there is room again among the jobs, for the Gos
	// from outside tasks that wait for it: one channel for all of them,
	// made by the first, nil while none waits.
	room chan struct{}
}

// add queues w behind the other waiters. The caller holds mu.
func (gl *groupLimit) add(w limitWaiter) {
	if len(gl.waiters) == cap(gl.waiters) && gl.head > 0 && 2*gl.head >= len(gl.waiters) {
		n := copy(gl.waiters, gl.waiters[gl.head:])
		clear(gl.waiters[n:])
		gl.waiters, gl.head = gl.waiters[:n], 0
	}
	gl.waiters = append(gl.waiters, w)
}

// takeOldest takes the oldest waiter off, if there is one. The caller
// holds mu.
func (gl *groupLimit) takeOldest() (limitWaiter, bool) {
	if gl.head == len(gl.waiters) {
		return limitWaiter{}, false
	}
	w := gl.waiters[gl.head]
	gl.waiters[gl.head] = limitWaiter{}
	if gl.head++; gl.head == len(gl.waiters) {
		gl.waiters, gl.head = gl.waiters[:0], 0
	}
	return w, true
}

// limitWaiter is a Go that waits for a token: a task's, which may go on
// once l is done, or a job queued by a Go from outside tasks (l nil).
type limitWaiter struct {
	l   *latch
	job Job
}

// acquire takes a token, and reports whether it did. Without wait it
// gives up at once when every token is taken. With wait, a task runs
// other tasks until a token comes back, as a join does. A Go from outside
// tasks calls queue instead.
func (gl *groupLimit) acquire(t *Task, wait bool) bool {
	for {
		select {
		case gl.sem <- struct{}{}:
			return true
		default:
		}
		if !wait {
			return false
		}
		// A latch of its own, registered before the second try: a
		// finishing task after the try arrives on it, one before leaves
		// a token for the try.
		l := &latch{n: 1}
		gl.mu.Lock()
		gl.add(limitWaiter{l: l})
		gl.mu.Unlock()
		select {
		case gl.sem <- struct{}{}:
			gl.forget(l)
			return true
		default:
		}
		t.runner.help(l)
	}
}

// queue is the limit's part of a Go from outside tasks. If a token is
// free, it takes it and reports false. Otherwise it queues j, which
// counts in the group already, to start with the token of a task that
// finishes, and reports true; while cap(sem) jobs are queued, it first
// waits until half of them have started. The try and a release's choice
// both run under mu: a token given back before the try is the try's, and
// a release after it sees the job.
func (gl *groupLimit) queue(j Job) bool {
	for {
		gl.mu.Lock()
		select {
		case gl.sem <- struct{}{}:
			gl.mu.Unlock()
			return false
		default:
		}
		if gl.jobs < cap(gl.sem) {
			gl.add(limitWaiter{job: j})
			gl.jobs++
			gl.mu.Unlock()
			return true
		}
		if gl.room == nil {
			gl.room = make(chan struct{})
		}
		room := gl.room
		gl.mu.Unlock()
		<-room
	}
}

// release is the end of a task that holds a token. If the oldest waiter
// is a queued job, the job takes the token: release returns it, to start
// where the task ended (runner.handOn). Otherwise the token goes back,
// and the oldest waiter, a task, may take it.
func (gl *groupLimit) release() (Job, bool) {
	gl.mu.Lock()
	w, waited := gl.takeOldest()
	var room chan struct{}
	handOn := waited && w.l == nil
	if handOn {
		gl.jobs--
		if gl.jobs <= cap(gl.sem)/2 {
			room, gl.room = gl.room, nil
		}
	} else {
		<-gl.sem
	}
	gl.mu.Unlock()
	if room != nil {
		close(room)
	}
	if w.l != nil {
		w.l.arrive()
	}
	return w.job, handOn
}

// forget takes l off the waiters, unless a release took it off already.
func (gl *groupLimit) forget(l *latch) {
	gl.mu.Lock()
	if i := slices.IndexFunc(gl.waiters[gl.head:], func(w limitWaiter) bool { return w.l == l }); i >= 0 {
		gl.waiters = slices.Delete(gl.waiters, gl.head+i, gl.head+i+1)
		if gl.head == len(gl.waiters) {
			gl.waiters, gl.head = gl.waiters[:0], 0
		}
	}
	gl.mu.Unlock()
}

// SetLimit limits the number of active tasks in the group to at most n:
// tasks started and not finished. A negative n means no limit, the
// default. A Go beyond the limit does not start its task at once:
//
//	whose Go                what it does beyond the limit
//	a task's                waits, running other tasks meanwhile, as a join does
//	from outside tasks      queues the task and returns; with n tasks queued, it blocks until n/2 have started
//	TryGo                   starts nothing and reports false
//
// A queued task starts when an active one finishes, which passes its
// slot on. Queued tasks start in the order of their Gos. The new task
// starts where the old one ended. After a Task.Block, that is the
// goroutine that blocked, which no longer holds a worker. The new task
// runs there, and its Block lends no worker. It takes a worker when it
// uses its Task for anything else. So tasks that block, fed from outside
// at a limit of n, run on about n goroutines. Wait waits for the queued
// tasks too. If the pool is closed before a queued task can start, Wait
// panics with a *PanicError that says so, as Go would have.
//
// With a limit of zero no task starts. As with errgroup, SetLimit must
// not be called while tasks of the group are active: it panics then.
//
// A task that Go waits for may itself wait for a token, as a goroutine of
// an errgroup may: a program whose n active tasks all wait in Go for the
// group waits for ever.
func (g *Group) SetLimit(n int) {
	g.setUpZero(nil)
	if gl := g.limitOf(); gl != nil && len(gl.sem) != 0 {
		panic(fmt.Sprintf("sched: Group.SetLimit while %d tasks of the group are active", len(gl.sem)))
	}
	if g.ext == nil {
		if n < 0 {
			return
		}
		g.ext = new(groupExt)
		g.ext.credit.Store(noCredit) // a task's group keeps no credit
	}
	if n < 0 {
		g.ext.limit = nil
		g.flags.And(^uint32(groupLimited))
		return
	}
	g.ext.limit = &groupLimit{sem: make(chan struct{}, n)}
	g.flags.Or(groupLimited) // after the limit: a Go that sees the bit sees the limit
}

// limitOf returns the group's limit, or nil. The bit keeps a finishing
// task from reading ext: an outside group's credit shares its line, which
// the goroutines that call Go write.
func (g *Group) limitOf() *groupLimit {
	if g.is(groupLimited) {
		return g.ext.limit
	}
	return nil
}

// setUpZero sets a zero Group up at its first use: as a group of t's pool,
// or of the default pool for a caller that is not a task, with the
// background context, as Pool.NewGroup(context.Background()) would. The
// tasks it starts do not belong to t.
func (g *Group) setUpZero(t *Task) {
	if g.is(groupReady) { // the first use may race with others
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.is(groupReady) {
		return
	}
	if t != nil {
		g.setUp(t.runner.c.s, context.Background())
	} else {
		g.setUp(Default().s, context.Background())
	}
}

// setUp makes g a new group of the pool that runs s, with a context
// derived from ctx, and returns it: for Pool.NewGroup, a group with
// credit; for Task.NewGroup, a plain one.
func (g *Group) setUp(s *scheduler[Job], ctx context.Context) *Group {
	g.s = s
	g.ctx, g.cancel = context.WithCancelCause(ctx)
	g.flags.Or(groupReady) // after the fields: a use that sees it sees them (setUpZero)
	return g
}

// NewGroup returns a new Group of t's pool with a context derived from
// t's. If t's function returns without waiting for the group, t waits for
// it then. It fails with the group's panic, if a task panicked; the
// group's error is lost, as it would be without a Wait.
func (t *Task) NewGroup() *Group {
	t.use("Task.NewGroup")
	g := new(Group).setUp(t.runner.c.s, t.ctxOf.ctx)
	g.parent = t
	if t.groups != nil {
		o := t.groups.(*Group) // Groups are the only kind
		g.older, o.newer = o, g
	}
	t.groups = g
	return g
}

// waitedBy takes g, which t has waited for, off t's groups, if t made g
// and has not waited for it before.
func (g *Group) waitedBy(t *Task) {
	if g.parent == t && (t.groups == unwaited(g) || g.newer != nil) { // linked: see Group.parent
		g.unlink(t)
	}
}

// unlink takes g, the group of the owner t, off t's groups.
func (g *Group) unlink(t *Task) {
	o, n := g.older, g.newer
	if n != nil {
		n.older = o
	} else if o != nil {
		t.groups = o
	} else {
		t.groups = nil // not a nil *Group: the interface must be nil
	}
	if o != nil {
		o.newer = n
	}
	g.older, g.newer = nil, nil
}

// Context returns the group's context, the context of its tasks. It is
// cancelled when a task of the group returns an error, panics or calls
// runtime.Goexit, and when Wait returns.
func (g *Group) Context() context.Context {
	g.setUpZero(nil)
	return g.ctx
}

// Go starts f(t') as a new task of the group, in which t' is the new task's
// handle. t is the calling task: the new task goes into the queue of t's
// worker, whose next task it is unless another worker steals it first.
// With a nil t, for a caller that is not a task, the new task goes to the
// pool's shared entry, where an idle worker takes it; tasks from one
// goroutine start in the order it gave them, unless thieves take some
// first. Go does not block, but to wait for the group's limit (SetLimit).
//
// Go panics, starting nothing, if f is nil, or if t is not the calling
// task's own Task (see Task). It panics after Wait returned: make a new
// Group for the next round. With a nil t, it panics if the pool is closed.
//
// Go allocates the closure f if it captures variables, and nothing else
// once the worker's buffers have grown; Fork starts a function with an
// argument without a closure. With a nil t, Go takes no lock while the
// pool's entry, a ring of 1024 tasks, has room.
func (g *Group) Go(t *Task, f func(*Task) error) { g.start(t, f, "Group.Go", true) }

// TryGo starts f(t') as Go does, if the group's limit allows it now, and
// reports whether it did: it never waits for a task to finish.
func (g *Group) TryGo(t *Task, f func(*Task) error) bool { return g.start(t, f, "Group.TryGo", false) }

// start is Go (wait) and TryGo: op names the call for its panics.
func (g *Group) start(t *Task, f func(*Task) error, op string, wait bool) bool {
	if f == nil {
		panic(nilFunction(op, ""))
	}
	if t != nil {
		t.use(op)
	}
	bits := g.flags.Load() // one load: the line is the latch's, which workers write
	if bits&groupReady == 0 {
		g.setUpZero(t)
		bits = g.flags.Load()
	}
	if bits&groupEnded != 0 { // Wait may return on another goroutine
		panic("sched: " + op + " after Wait returned: a Group serves one round of Go calls and one Wait; make a new Group")
	}
	j := Job{kind: g, fn: f}
	var gl *groupLimit
	if bits&groupLimited != 0 {
		gl = g.ext.limit
		if t == nil && wait {
			nilWait(op)
			g.count() // before the queue: a task that hands j on may end at once
			if gl.queue(j) {
				return true // a finishing task starts it with its token
			}
			g.l.arrive() // a token was free: counted again below
		} else if !gl.acquire(t, wait) {
			return false
		}
	}
	if t == nil {
		// Counted first, so that the task cannot finish before it is
		// counted; a refused task is uncounted again, so that Wait does
		// not wait for it.
		g.count()
		if !g.s.inject(j) {
			g.l.arrive()
			if gl != nil {
				for _, ok := gl.release(); ok; _, ok = gl.release() {
					// A job queued meanwhile would start with this
					// token, and the pool refuses it too: it fails the
					// group, as a task's panic would.
					g.refuse()
				}
			}
			panic(errClosed)
		}
		g.s.notify()
		return true
	}
	if t.meas != nil {
		j.fn = t.meas.goTask(t, g, f) // a measured run: stops t's strand
	}
	g.l.add(1)
	t.runner.spawn(j)
	if t.meas != nil {
		t.meas.resume(t)
	}
	return true
}

// outsideGroup is a Group made by Pool.NewGroup, with its credit.
type outsideGroup struct {
	g   Group
	_   pad.Line
	ext groupExt
	_   pad.Line
}

// newOutsideGroup returns a Group with a credit line of its own, not yet
// set up (see Pool.setUp).
func newOutsideGroup() *Group {
	og := new(outsideGroup)
	og.g.ext = &og.ext
	return &og.g
}

// creditChunk is how many tasks a Go call with a nil t counts at once on
// the latch, when the group's credit is spent.
const creditChunk = 64

// noCredit is groupExt.credit once a wait has begun, or for a group that
// keeps no credit.
const noCredit = -1

// count counts one more task in the latch, from the credit while it lasts.
// The credit never falls below zero, so the latch never counts fewer
// tasks than have not finished: a Wait never ends early. A wait gives the
// credit back (settle); calls after that count on the latch alone.
func (g *Group) count() {
	if g.ext == nil {
		g.l.add(1)
		return
	}
	credit := &g.ext.credit
	for {
		c := credit.Load()
		switch {
		case c > 0:
			if credit.CompareAndSwap(c, c-1) { // a CAS: other goroutines may call Go
				return
			}
		case c == noCredit:
			g.l.add(1)
			return
		default:
			g.refill()
			return
		}
	}
}

// refill is count with the credit spent: it counts a chunk, one for the
// caller and the rest as credit.
func (g *Group) refill() {
	g.l.add(creditChunk)
	if !g.ext.credit.CompareAndSwap(0, creditChunk-1) {
		// A wait began, or another call refilled first: give the
		// rest back.
		g.l.arriveN(creditChunk - 1)
	}
}

// settle gives back the credit, before a wait: the latch then counts only
// tasks that have not finished.
func (g *Group) settle() {
	if g.ext == nil {
		return
	}
	if c := g.ext.credit.Swap(noCredit); c > 0 {
		g.l.arriveN(c)
	}
}

// Wait waits for every task of the group to finish: those that Go started
// before Wait, and those they started in the group meanwhile. Then it
// cancels the group's context, and returns the first error a task
// returned, or nil. If a task panicked, Wait panics with a *PanicError
// that holds the first panic's value and stack. If a task called
// runtime.Goexit, Wait calls runtime.Goexit.
//
// t is the calling task. While it waits, Wait runs other tasks on t's
// worker, its own queue first: the worker never sleeps while there is
// work it can do. With a nil t, for a caller that is not a task, Wait
// blocks the calling goroutine; Wait panics if a task passes nil. A task
// must not wait for a group it belongs to, which would wait for itself.
//
// The return of every task's function synchronizes before the return of
// Wait.
func (g *Group) Wait(t *Task) error {
	if t == nil {
		nilWait("Group.Wait")
	}
	return g.wait(t)
}

// wait is Wait without the check of a nil t, which Pool.Do makes its own.
func (g *Group) wait(t *Task) error {
	g.setUpZero(t)
	g.settle()
	if t != nil {
		t.use("Group.Wait")
		if !g.l.done() {
			t.runner.help(&g.l)
		}
		if t.meas != nil {
			t.meas.joinGroup(t, g) // a measured run: see meterHooks
		}
		g.waitedBy(t)
	} else {
		g.l.wait()
	}
	g.seal().raise()
	return g.err
}

// seal cancels the context, as Wait does once the tasks have finished,
// refuses later calls of Go, and returns the first panic or Goexit.
func (g *Group) seal() *failure {
	g.flags.Or(groupEnded) // atomic: Go may be called from any goroutine
	g.cancel(g.err)
	return g.l.failure()
}

// call runs f unless the group has stopped, and records its error.
func (g *Group) call(t *Task, f func(*Task) error) {
	if g.is(groupStopped) { // set by the first failure, on any worker
		return
	}
	if err := f(t); err != nil {
		g.mu.Lock()
		if g.err == nil {
			g.err = err
			g.cancel(err)
		}
		g.mu.Unlock()
	}
}

// refuse counts a job queued for the limit as finished, and fails the
// group with errClosed: the pool was closed before the job could start.
func (g *Group) refuse() {
	g.fail(&failure{panic: &PanicError{Value: errClosed, Stack: debug.Stack()}})
	g.l.arrive()
}

// arrive records a task's failure, which stops the group, and counts the
// task as finished, as a fork record's arrive does. It returns the job
// queued for the limit that takes the task's token, to start where the
// task ended (runner.handOn).
func (g *Group) arrive(f *failure) (Job, bool) {
	if f != nil {
		g.fail(f)
	}
	var j Job
	var handOn bool
	if gl := g.limitOf(); gl != nil {
		j, handOn = gl.release() // before the arrival: Wait's return means every token is back
	}
	g.l.arrive()
	return j, handOn
}

// fail records f, unless the group failed before, and stops the group.
func (g *Group) fail(f *failure) {
	g.mu.Lock()
	if s := g.l.getSlow(); s.fail == nil {
		s.fail = f
		g.flags.Or(groupStopped) // atomic: read by tasks on other workers (call)
		if f.panic != nil {
			g.cancel(f.panic)
		} else {
			g.cancel(context.Canceled)
		}
	}
	g.mu.Unlock()
}

// The Group's calls as a job kind (jobKind): the core runs its tasks and
// waits for it through them.
var (
	_ jobKind  = (*Group)(nil)
	_ unwaited = (*Group)(nil)
)

// origin returns the context of the group's tasks, and the task that
// waits for them: the task that made the group, or nil.
func (g *Group) origin() (context.Context, *Task) { return g.ctx, g.parent }

// latch returns the latch that counts the group's tasks.
func (g *Group) latch() *latch { return &g.l }

// sync is the implicit wait of t, which made g and did not wait for it
// (Task.sync): it takes g off t's groups, waits for its tasks, and seals
// it. It returns the group's first panic or Goexit; the error is lost,
// as it would be without a Wait.
func (g *Group) sync(t *Task) *failure {
	g.unlink(t)
	g.settle()
	if !g.l.done() {
		t.runner.help(&g.l)
	}
	if t.meas != nil {
		t.meas.joinGroup(t, g)
	}
	return g.seal()
}
