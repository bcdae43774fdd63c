package sched

import (
	"sync/atomic"

	"github.com/worksteal/wsq/internal/pad"
)

// maxFree is the most finished fork records a worker keeps for reuse.
const maxFree = 64

// Future is the result of a task started by Fork, which Join waits for. It
// is a small value: copy it freely, but join it once.
type Future[R any] struct {
	rec *forkResult[R]
	gen uint32
}

// forkBase is the part of a fork record that does not depend on its types.
//
// A record is reused: the worker that forked it takes it back when the task
// that forked it joins it, if the forked task ran on that same worker
// (nobody stole it, so no other goroutine ever saw the record), no waiter
// slept on it and it did not fail. gen tells the uses apart: a Future
// carries the gen of its fork, and Join claims it by moving gen on, so that
// a second Join of the same Future panics rather than read a record that
// may already hold another fork.
//
// The forking task claims with a plain load and store, every other joiner
// with a compare-and-swap: the forking task's goroutine is the one that
// forked and reuses the record, and a Join by another goroutine at the
// same moment is a second Join, which the contract forbids (and the race
// detector reports).
//
// The common case costs no atomic read-modify-write on the record: the
// forking task joins the task it forked, which nobody stole, so it is the
// newest of its worker's own tasks; Join takes it back and runs it as a
// call (runFork), which leaves the latch alone when the task succeeds and
// started nothing it did not wait for: nobody else waits for it (see Join).
type forkBase struct {
	l      latch       // first: see latch
	gen    uint32      // see above: plain for the forking task, atomic for the others
	parent *Task       // the forking task, which outlives this one (it joins it)
	prev   *forkBase   // the parent's unjoined fork before this one (see Task.forks); the forking task's goroutine alone touches prev and next
	next   *forkBase   // the one after it
	ranOn  *poolWorker // the worker that ran the task, written before l is done
	task   forkFn      // the whole record: to call its function, and to take it from the free list as its type
}

// forkResult is a fork record as Future sees it.
type forkResult[R any] struct {
	forkBase
	r R
}

// forkTask is a whole fork record: the function, its argument and the
// result, in one object.
type forkTask[A, R any] struct {
	forkResult[R] // first: see latch
	fn            func(*Task, A) R
	a             A
	// The records of different workers must not share a cache line: a
	// worker writes its records on every fork and join, and reuses them.
	_ pad.Line
}

// Fork starts f(t', a) as a new task, in which t' is the new task's handle,
// and returns the Future of its result. The new task goes into the queue of
// t's worker, whose next task it is unless another worker steals it first;
// the caller goes on at once, typically with the other half of the work,
// and then calls Join. The new task's context is t's.
//
// Fork takes the argument separately so that f can be a function value made
// once (a top-level function, or a closure stored in a variable before the
// recursion starts) rather than a new closure per call, which would
// allocate:
//
//	left := sched.Fork(t, sum, xs[:mid]) // sum is func(*sched.Task, []int) int
//	return sum(t, xs[mid:]) + left.Join(t)
//
// Fork itself allocates only when its worker has no finished record of the
// same types to reuse: in steady state, fork-join code that joins what it
// forks allocates nothing per task.
//
// t is the calling task: Fork panics if t is nil, or is not the Task of
// the function that calls it (see Task), and if f is nil. If t's function
// returns without joining the Future, t waits for the forked task then,
// and fails with its panic if it panicked; the Future may still be joined
// later.
func Fork[A, R any](t *Task, f func(*Task, A) R, a A) Future[R] {
	t.use("Fork")
	if f == nil {
		nilFunction("Fork", "")
	}
	rec, ok := reused[*forkTask[A, R]](t.pw)
	if !ok {
		rec = newForkTask[A, R]()
	}
	rec.fn, rec.a = f, a
	rec.link(t)
	rec.push(t)
	return Future[R]{rec: &rec.forkResult, gen: rec.gen}
}

// newForkTask makes a fork record of Fork's and Join's type, for a worker
// with none of that type to reuse (see reused). The pool's hot paths call
// reused themselves: a generic function called from generic code is
// compiled as a call with a dictionary, never inlined.
func newForkTask[A, R any]() *forkTask[A, R] {
	rec := &forkTask[A, R]{}
	rec.task = rec
	return rec
}

// reused takes a finished fork record of type F from the worker's free list,
// if the newest one is of that type.
func reused[F any](pw *poolWorker) (F, bool) {
	if n := len(pw.free); n > 0 {
		if r, ok := pw.free[n-1].task.(F); ok {
			pw.free = pw.free[:n-1]
			return r, true
		}
	}
	var none F
	return none, false
}

// link makes b the newest of t's unjoined forks.
func (b *forkBase) link(t *Task) {
	if p := t.forks; p != nil {
		b.prev, p.next, t.forks = p, b, b
	} else {
		t.forks = b // b.prev is nil: see Task.joined
	}
}

// nilFunction panics for a nil function given to op (arg names it, if op
// takes more than one).
func nilFunction(op, arg string) {
	if arg != "" {
		arg = " " + arg
	}
	panic("sched: " + op + " with a nil function" + arg)
}

// push pushes the fork record of b into the queue of t's worker, as a
// child of t.
func (b *forkBase) push(t *Task) {
	b.l.n = 1 // the record is this worker's alone until the push publishes it
	b.parent = t
	t.pw.spawn(Job{fork: b})
}

// ForkFunc starts f(t', a) as a new task, as Fork does, for a function
// with no result: the Future's Join only waits for it (and passes on its
// panic or Goexit). Everything Fork says holds for ForkFunc:
//
//	left := sched.ForkFunc(t, sortSlice, xs[:mid]) // sortSlice is func(*sched.Task, []int)
//	sortSlice(t, xs[mid:])
//	left.Join(t)
func ForkFunc[A any](t *Task, f func(*Task, A), a A) Future[struct{}] {
	t.use("ForkFunc")
	if f == nil {
		nilFunction("ForkFunc", "")
	}
	rec, ok := reused[*forkFunc[A]](t.pw)
	if !ok {
		rec = &forkFunc[A]{}
		rec.task = rec
	}
	rec.fn, rec.a = f, a
	rec.link(t)
	rec.push(t)
	return Future[struct{}]{rec: &rec.forkResult, gen: rec.gen}
}

// forkFunc is the fork record of ForkFunc: a forkTask whose function has
// no result.
type forkFunc[A any] struct {
	forkResult[struct{}] // first: see latch
	fn                   func(*Task, A)
	a                    A
	_                    pad.Line // see forkTask
}

// call runs the task's function. The record lets go of the function and its
// argument first: it may wait for reuse on a free list, or be kept by a
// Future that is never joined, and must not keep them reachable.
func (ft *forkFunc[A]) call(t *Task) {
	fn, a := ft.fn, ft.a
	var zero A
	ft.fn, ft.a = nil, zero
	fn(t, a)
}

// Join waits for the forked task to finish and returns its result. If the
// task panicked, Join panics with a *PanicError that holds the task's panic
// value and stack; if the task called runtime.Goexit, Join calls
// runtime.Goexit. A Future may be joined once: Join panics if it, or a copy
// of it, was joined before, or if it was not made by Fork.
//
// t is the calling task: while it waits, Join runs other tasks on t's worker
// (its own queue first, the forked task itself if nobody stole it), so the
// worker never sleeps while there is work it can do. With a nil t Join
// blocks the calling goroutine, which must then not be a task's: Join
// panics if it is.
//
// In the terms of the Go memory model, the return of the forked task's
// function synchronizes before the return of Join.
func (f Future[R]) Join(t *Task) R {
	rec := f.rec
	if rec == nil {
		panic("sched: Join of a Future that Fork did not make")
	}
	if t == nil || rec.parent != t {
		return f.joinOther(t)
	}
	t.use("Future.Join")
	if rec.gen != f.gen {
		panic("sched: a Future joined twice")
	}
	rec.gen++
	pw := t.pw
	if !rec.l.done() {
		// Nobody stole the task: it is the newest of this worker's own
		// tasks, unless the task forked more after it and has not joined
		// them, or the worker holds a stolen task to run first. Run it
		// here as a call.
		if j, ok := pw.next(); ok {
			if j.fork == &rec.forkBase {
				pw.runFork(j.fork, true)
				pw.handled()
			} else {
				pw.runTask(j)
				pw.join(&rec.l)
			}
		} else {
			pw.join(&rec.l)
		}
	}
	t.joined(&rec.forkBase)
	r := rec.r
	if rec.settle(pw) {
		rec.reuse(pw)
	}
	return r
}

// settle ends the use of a finished record by the task that forked it:
// it repeats the task's failure, if it failed, and otherwise reports
// whether the record may be reused, which it may if its task ran on pw. A
// failed or waited-for record is not reused.
func (b *forkBase) settle(pw *poolWorker) bool {
	if b.l.slow.Load() != nil {
		b.l.raise()
		return false
	}
	return b.ranOn == pw
}

// giveBack puts the record b, whose task ran here as a call of Join (so no
// other goroutine ever saw it), back on pw's free list. When reused took b
// from the list and nothing was taken or put since, as fork-join code
// leaves the list, the list's next slot still holds b, and the list grows
// back over it without writing it again; otherwise b is appended (see
// reuse). b's result was never written.
func (pw *poolWorker) giveBack(b *forkBase) {
	b.parent, b.ranOn = nil, nil
	if k := len(pw.free); k < cap(pw.free) && pw.free[:k+1][k] == b {
		pw.free = pw.free[:k+1]
	} else if k < maxFree {
		pw.free = append(pw.free, b)
	}
}

// reuse puts the record on pw's free list, unless the list is full: the
// record is finished, its task ran on pw's worker (so no other goroutine
// ever saw it, or one did and the latch ordered it before), nobody waits
// for it and it did not fail (see forkBase).
func (rec *forkResult[R]) reuse(pw *poolWorker) {
	if len(pw.free) < maxFree {
		pw.free = append(pw.free, &rec.forkBase)
		var zero R
		rec.r, rec.parent, rec.ranOn = zero, nil, nil
	}
}

// joinOther is Join by a goroutine other than the forking task's: it claims
// the record with a compare-and-swap and waits for the latch, and never
// reuses the record.
func (f Future[R]) joinOther(t *Task) R {
	rec := f.rec
	if p := rec.parent; t == nil && p != nil { // nil once the record is reused: joined twice
		p.pw.p.nilWait("Future.Join")
	}
	if !atomic.CompareAndSwapUint32(&rec.gen, f.gen, f.gen+1) {
		panic("sched: a Future joined twice")
	}
	if t == nil {
		rec.l.wait()
	} else {
		t.use("Future.Join")
		if !rec.l.done() {
			t.pw.join(&rec.l)
		}
	}
	rec.l.raise()
	return rec.r
}

// call runs the task's function, letting go of it and its argument first
// (see forkFunc.call).
func (ft *forkTask[A, R]) call(t *Task) {
	fn, a := ft.fn, ft.a
	var zero A
	ft.fn, ft.a = nil, zero
	ft.r = fn(t, a)
}

// forkFn is the part of a fork record that depends on its types: the call
// of its function, which may panic.
type forkFn interface{ call(t *Task) }

// finish is that of every fork record: see ender.
func (b *forkBase) finish(fail *failure) {
	if fail != nil {
		b.l.getSlow().fail = fail
	}
	b.l.arrive()
}
