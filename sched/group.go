package sched

import (
	"context"
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
// calls and one Wait.
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

	p   *Pool
	ctx context.Context

	// credit is how many tasks the latch counts ahead, for Go calls with
	// a nil t, or noCredit once a wait has begun. Such calls count
	// themselves from it, on a line their goroutines keep, instead of on
	// the latch's, which the workers write: see count. A Pool's groups
	// have one (outsideGroup); a task's, rarely fed from outside, do not.
	credit *atomic.Int64

	stopped atomic.Bool // set at the first panic or Goexit
	ended   atomic.Bool // set when Wait (or the implicit wait of the task that made the group) returns
}

// unlink takes g, the group of the owner t, off t's groups.
func (g *Group) unlink(t *Task) {
	o, n := g.older, g.newer
	if n != nil {
		n.older = o
	} else {
		t.groups = o
	}
	if o != nil {
		o.newer = n
	}
	g.older, g.newer = nil, nil
}

// Context returns the group's context, the context of its tasks. It is
// cancelled when a task of the group returns an error, panics or calls
// runtime.Goexit, and when Wait returns.
func (g *Group) Context() context.Context { return g.ctx }

// Go starts f(t') as a new task of the group, in which t' is the new task's
// handle. t is the calling task: the new task goes into the queue of t's
// worker, whose next task it is unless another worker steals it first.
// With a nil t, for a caller that is not a task, the new task goes to the
// pool's shared entry, where an idle worker takes it. Go does not block.
//
// Go panics, starting nothing, if f is nil, or if t is not the calling
// task's own Task (see Task). It panics after Wait returned: make a new
// Group for the next round. With a nil t, it panics if the pool is closed.
//
// Go allocates the closure f if it captures variables, and nothing else
// once the worker's buffers have grown; Fork starts a function with an
// argument without a closure. With a nil t, Go takes no lock while the
// pool's entry, a ring of 1024 tasks, has room.
func (g *Group) Go(t *Task, f func(*Task) error) {
	if f == nil {
		panic(nilFunction("Group.Go", ""))
	}
	if g.ended.Load() { // atomic: Wait may return on another goroutine
		panic("sched: Group.Go after Wait returned: a Group serves one round of Go calls and one Wait; make a new Group")
	}
	j := Job{group: g, fn: f}
	if t == nil {
		// Counted first, so that the task cannot finish before it is
		// counted; a refused task is uncounted again, so that Wait does
		// not wait for it.
		g.count()
		if !g.p.s.inject(j) {
			g.l.arrive()
			panic(errClosed)
		}
		g.p.s.notify()
		return
	}
	t.use("Group.Go")
	if t.meas != nil {
		j.fn = measureGo(t, g, f) // a measured run: stops t's strand
	}
	g.l.add(1)
	t.runner.spawn(j)
	if t.meas != nil {
		resumeStrand(t)
	}
}

// outsideGroup is a Group made by Pool.NewGroup, with its credit.
type outsideGroup struct {
	g      Group
	_      pad.Line
	credit atomic.Int64
	_      pad.Line
}

// newOutsideGroup returns a Group with a credit line of its own, not yet
// set up (see Pool.setUp).
func newOutsideGroup() *Group {
	og := new(outsideGroup)
	og.g.credit = &og.credit
	return &og.g
}

// creditChunk is how many tasks a Go call with a nil t counts at once on
// the latch, when the group's credit is spent.
const creditChunk = 64

// noCredit is Group.credit once a wait has begun.
const noCredit = -1

// count counts one more task in the latch, from the credit while it lasts.
// The credit never falls below zero, so the latch never counts fewer
// tasks than have not finished: a Wait never ends early. A wait gives the
// credit back (settle); calls after that count on the latch alone.
func (g *Group) count() {
	if g.credit == nil {
		g.l.add(1)
		return
	}
	for {
		c := g.credit.Load()
		switch {
		case c > 0:
			if g.credit.CompareAndSwap(c, c-1) { // a CAS: other goroutines may call Go
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
	if !g.credit.CompareAndSwap(0, creditChunk-1) {
		// A wait began, or another call refilled first: give the
		// rest back.
		g.l.arriveN(creditChunk - 1)
	}
}

// settle gives back the credit, before a wait: the latch then counts only
// tasks that have not finished.
func (g *Group) settle() {
	if g.credit == nil {
		return
	}
	if c := g.credit.Swap(noCredit); c > 0 {
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
	g.settle()
	if t != nil {
		t.use("Group.Wait")
		if !g.l.done() {
			t.runner.help(&g.l)
		}
		if t.meas != nil {
			joinGroup(t, g) // a measured run: see measure.go
		}
		t.waited(g)
	} else {
		g.l.wait()
	}
	g.seal().raise()
	return g.err
}

// seal cancels the context, as Wait does once the tasks have finished,
// refuses later calls of Go, and returns the first panic or Goexit.
func (g *Group) seal() *failure {
	g.ended.Store(true) // atomic: Go may be called from any goroutine
	g.cancel(g.err)
	return g.l.failure()
}

// call runs f unless the group has stopped, and records its error.
func (g *Group) call(t *Task, f func(*Task) error) {
	if g.stopped.Load() { // atomic: set by the first failure, on any worker
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

// arrive records a task's failure, which stops the group, and counts the
// task as finished, as a fork record's arrive does.
func (g *Group) arrive(f *failure) {
	if f != nil {
		g.mu.Lock()
		if s := g.l.getSlow(); s.fail == nil {
			s.fail = f
			g.stopped.Store(true) // atomic: read by tasks on other workers (call)
			if f.panic != nil {
				g.cancel(f.panic)
			} else {
				g.cancel(context.Canceled)
			}
		}
		g.mu.Unlock()
	}
	g.l.arrive()
}
