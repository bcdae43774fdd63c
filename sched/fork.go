package sched

import (
	"sync/atomic"

	"github.com/worksteal/wsq/internal/pad"
)

// Future is the result of a task started by Fork, which Join waits for. It
// is a small value: copy it freely, but join it once.
type Future[R any] struct {
	rec *forkResult[R]
	gen uint32
}

// forkBase is the part of a fork record that does not depend on its types.
//
// A record is reused: its fork's slot keeps it for the next fork at the
// same depth, or a goroutine's free list does (see runner). gen tells the
// uses apart: a Future carries the gen of its fork, and Join claims it by
// moving gen on. A second Join of the same Future so panics, rather than
// read a record that may hold another fork.
//
// The forking task claims with a plain load and store, any other joiner
// with a compare-and-swap. The forking task's goroutine is the one that
// forked and reuses the record. A Join by another goroutine at the same
// moment is a second Join, which the contract forbids.
//
// The usual case costs no atomic operation at all: the forking task joins
// a fork nobody took, the newest of its goroutine's private forks. Join
// pops it and runs it as a call. A record that another goroutine saw is
// reused only after its join, by the goroutine its task ran on, if no
// waiter slept on it and it did not fail (release).
type forkBase struct {
	l   latch  // first: see latch. It counts the task, from the fork on
	gen uint32 // plain for the forking task, atomic for the others
	// shown says that the record went into the forking worker's queue,
	// until its join: see runner.shown. Only the forking goroutine
	// touches it.
	shown  bool
	parent *Task // the forking task, which outlives this one (it joins it)
	// counted says that the parent counts the record in Task.unjoined,
	// from its Fork to its join or sync. prev and next link it into the
	// parent's published forks (Task.forks), from its publish on. Only
	// the forking goroutine touches them.
	counted bool
	prev    *forkBase
	next    *forkBase
	ranOn   *runner // the goroutine that ran the task, written before l is done
	task    forkFn  // the whole record: to call its function, and to reuse it as its type
}

// base returns b, for own's type parameter.
func (b *forkBase) base() *forkBase { return b }

// forkResult is a fork record as Future sees it.
type forkResult[R any] struct {
	forkBase
	// callAs is the whole record, as forkBase.task is: Future.Join calls
	// the task's function through it, as a call. An interface, not a
	// function value: the value of a generic function would allocate for
	// each new record.
	callAs resultCall[R]
	r      R // the result, for a join after the task ran elsewhere
}

// forkTask is a whole fork record of Fork and Join: the function, its
// argument and the result, in one object.
type forkTask[A, R any] struct {
	forkResult[R] // first: see latch
	fn            func(*Task, A) R
	a             A
	// The records of different workers must not share a cache line: a
	// worker writes its records on every fork and join, and reuses them.
	_ pad.Line
}

// forkFunc is the fork record of ForkFunc and JoinFunc, whose function
// has no result. A record of its own keeps Fork's record and path as
// short as they can be; an adapter to Fork's would allocate.
type forkFunc[A any] struct {
	forkResult[struct{}] // first: see latch
	fn                   func(*Task, A)
	a                    A
	_                    pad.Line // see forkTask
}

// forkFn is the part of a fork record that depends on its types: the call
// of its function, which may panic, and the clearing of the function and
// its argument, which a record that waits for reuse must not keep
// reachable.
type forkFn interface {
	call(t *Task)
	clear()
}

// maxFree is the most finished fork records a goroutine keeps for reuse.
const maxFree = 64

// Fork starts f(t', a) as a new task, in which t' is the new task's handle,
// and returns the Future of its result. The new task is the worker's next
// one, unless another worker steals it first. The caller goes on at once,
// typically with the other half of the work, and then calls Join. The new
// task's context is t's.
//
// Fork takes the argument separately, so that f can be a function value
// made once rather than a new closure per call, which would allocate:
//
//	left := sched.Fork(t, sum, xs[:mid]) // sum is func(*sched.Task, []int) int
//	return sum(t, xs[mid:]) + left.Join(t)
//
// Fork writes nothing that other goroutines read, until a worker looks
// for work (see Load balancing in the package documentation). It
// allocates only when its goroutine has no finished record of the same
// types to reuse: fork-join code that joins what it forks allocates
// nothing per task in steady state.
//
// t is the calling task: Fork panics if t is nil or not the Task of the
// function that calls it (see Task), and if f is nil. If t's function
// returns without joining the Future, t waits for the forked task then,
// and fails with its panic if it panicked. The Future may still be joined
// later.
func Fork[A, R any](t *Task, f func(*Task, A) R, a A) Future[R] {
	t.use("Fork")
	if f == nil {
		panic(nilFunction("Fork", ""))
	}
	pw := t.pw
	rec, ok := pw.slot().(*forkTask[A, R])
	if !ok {
		rec = own[forkTask[A, R]](pw)
	}
	rec.fn, rec.a, rec.parent = f, a, t
	rec.counted = true
	t.unjoined++
	pw.forked(&rec.forkBase)
	pw.poll()
	return Future[R]{rec: &rec.forkResult, gen: rec.gen}
}

// ForkFunc starts f(t', a) as a new task, as Fork does, for a function
// with no result. The Future's Join only waits for it, and passes on its
// panic or Goexit. All that Fork says holds for ForkFunc:
//
//	left := sched.ForkFunc(t, sortSlice, xs[:mid]) // sortSlice is func(*sched.Task, []int)
//	sortSlice(t, xs[mid:])
//	left.Join(t)
func ForkFunc[A any](t *Task, f func(*Task, A), a A) Future[struct{}] {
	// Fork's body, with ForkFunc's record: a body shared through a second
	// function field costs Fork instructions on every call.
	// TestForkFuncAsFork runs both on the same scenarios.
	t.use("ForkFunc")
	if f == nil {
		panic(nilFunction("ForkFunc", ""))
	}
	pw := t.pw
	rec, ok := pw.slot().(*forkFunc[A])
	if !ok {
		rec = own[forkFunc[A]](pw)
	}
	rec.fn, rec.a, rec.parent = f, a, t
	rec.counted = true
	t.unjoined++
	pw.forked(&rec.forkBase)
	pw.poll()
	return Future[struct{}]{rec: &rec.forkResult, gen: rec.gen}
}

// link makes b the newest of t's published forks (Task.forks).
func (b *forkBase) link(t *Task) {
	if p := t.forks; p != nil {
		b.prev, p.next, t.forks = p, b, b
	} else {
		t.forks = b // b.prev is nil: see Task.joined
	}
}

// init makes a new record ready for its first fork (see own).
func (ft *forkTask[A, R]) init() { ft.task, ft.callAs = ft, ft }

// init makes a new record ready for its first fork (see own).
func (ft *forkFunc[A]) init() { ft.task, ft.callAs = ft, ft }

// clear lets go of the task's function and argument: the record may wait
// for reuse, or be kept by a Future that is never joined, and must not
// keep them reachable. A record that stays in its slot after a join that
// ran it as a call keeps them until the next fork there, or until its
// goroutine's outermost task returns (runner.drop).
func (ft *forkTask[A, R]) clear() {
	var zero A
	ft.fn, ft.a = nil, zero
}

// clear lets go of the task's function and argument, as forkTask's does.
func (ft *forkFunc[A]) clear() {
	var zero A
	ft.fn, ft.a = nil, zero
}

// call runs the task's function, which a thief or a wait took out of the
// slots, and keeps the result for the join.
func (ft *forkTask[A, R]) call(t *Task) {
	fn, a := ft.fn, ft.a
	ft.clear()
	ft.r = fn(t, a)
}

// call runs the task's function, as forkTask's does.
func (ft *forkFunc[A]) call(t *Task) {
	fn, a := ft.fn, ft.a
	ft.clear()
	fn(t, a)
}

// resultCall is the call of a fork record's function that returns its
// result: that of Future.Join, after which the record is free for reuse.
type resultCall[R any] interface {
	callResult(t *Task) R
}

// callResult runs the task's function as a call and returns its result.
func (ft *forkTask[A, R]) callResult(t *Task) R { return ft.fn(t, ft.a) }

// callResult runs the task's function as a call, as forkTask's does.
func (ft *forkFunc[A]) callResult(t *Task) struct{} {
	ft.fn(t, ft.a)
	return struct{}{}
}

// arrive is that of every fork record: see ender.
func (b *forkBase) arrive(f *failure) {
	if f != nil {
		b.l.getSlow().fail = f
	}
	b.l.arrive()
}

// Join waits for the forked task to finish and returns its result. If the
// task panicked, Join panics with a *PanicError that holds the task's
// panic value and stack. If the task called runtime.Goexit, Join calls
// runtime.Goexit. A Future may be joined once: Join panics if it, or a
// copy of it, was joined before, or if Fork did not make it.
//
// t is the calling task. While it waits, Join runs other tasks on t's
// worker: its own first, the forked task itself if nobody stole it. So the
// worker never sleeps while there is work it can do. With a nil t, Join
// blocks the calling goroutine, which must then not be a task's: Join
// panics if it is.
//
// The return of the forked task's function synchronizes before the return
// of Join.
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
	if pw.popOwn(&rec.forkBase) {
		rec.counted = false // it was never published: not on forks
		t.unjoined--
		// Nobody took the task: it is the newest of this goroutine's
		// private forks. Run it here as a call, as Join runs its g. The
		// record stays in its slot, free for the next fork there: the
		// call returns the result, and the Future is claimed.
		pw.poll()
		gt := pw.enterCall(t)
		js := joinState{gt: gt}
		defer func() {
			if !js.done {
				pw.joinFailed(&js, recover())
			}
		}()
		r := rec.callAs.callResult(gt)
		js.done = true
		pw.ran()
		pw.leaveCall(gt)
		return r
	}
	t.joined(&rec.forkBase)
	if !rec.l.done() {
		pw.help(&rec.l)
	}
	pw.unshow(&rec.forkBase)
	r := rec.r
	if rec.release(pw) {
		rec.reuse(pw)
	}
	return r
}

// joinOther is Join by a goroutine other than the forking task's: it claims
// the record with a compare-and-swap and waits for the latch, and never
// reuses the record.
func (f Future[R]) joinOther(t *Task) R {
	rec := f.rec
	if p := rec.parent; t == nil && p != nil { // nil once the record is reused: joined twice
		p.pw.p.nilWait("Future.Join")
	}
	// A CAS: two joiners at once must not both claim the record.
	if !atomic.CompareAndSwapUint32(&rec.gen, f.gen, f.gen+1) {
		panic("sched: a Future joined twice")
	}
	if t == nil {
		rec.l.wait()
	} else {
		t.use("Future.Join")
		if !rec.l.done() {
			t.pw.help(&rec.l)
		}
	}
	rec.l.raise()
	return rec.r
}

// release ends the forking task's use of a finished record. It repeats
// the task's failure, if it failed. Otherwise it reports whether pw may
// reuse the record: whether the task ran on pw. A failed or waited-for
// record is not reused.
func (b *forkBase) release(pw *runner) bool {
	if b.l.slow.Load() != nil { // made by a waiter that slept, or by a failure
		b.l.raise()
		return false
	}
	return b.ranOn == pw
}

// reuse puts the record on pw's free list, unless the list is full. The
// record is finished and its task ran on pw's goroutine: no other
// goroutine saw it, or one did and the latch ordered it before. Nobody
// waits for it and it did not fail.
func (rec *forkResult[R]) reuse(pw *runner) {
	var zero R
	rec.r, rec.parent, rec.ranOn = zero, nil, nil
	if len(pw.free) < maxFree {
		pw.free = append(pw.free, &rec.forkBase)
	}
}

// Join runs f(t, a) and g(t', b), in parallel when another worker is free
// to take g, and returns both results once both have returned. It is the
// fork-join of two halves in one call, as rayon's join is in Rust.
//
//	// fib is func(*sched.Task, int) int
//	x, y := sched.Join(t, fib, n-2, fib, n-1)
//	return x + y
//
// g is a task. Join forks it, as Fork does, where another worker may
// steal it. Then it calls f(t, a) on the calling task, as a plain call
// would. If nobody stole g by then, Join takes it back and runs it here,
// as a call with its own Task t'. Otherwise Join runs other tasks until
// the thief has finished g, as Future.Join does. A thief takes g, so a g
// at least as large as f makes each steal worth more.
//
// Join is Fork and Future.Join in one call, and costs less. The record
// never leaves Join, so there is no Future to claim, to join twice, or to
// forget. A g that ran here costs no atomic operation and no write to a
// word that another goroutine reads. Join allocates nothing per call in
// steady state.
//
// f is part of the calling task: what it forks and does not join belongs
// to t, which waits for it when its function returns. g is a task of its
// own: it waits for what it left unjoined before it counts as finished,
// wherever it ran. Join returns after that.
//
// Panics and Goexit:
//
//	what                   Join
//	g panics               panics with g's *PanicError, wherever g ran
//	f panics               waits for g (dropping its outcome), then panics with f's
//	f or g calls Goexit    calls runtime.Goexit at once; the other goes on, unjoined
//
// A panicking task that g leaves unjoined counts as g's panic.
//
// t is the calling task: Join panics if t is nil or not the Task of the
// function that calls it (see Task). It panics, starting nothing, if f or
// g is nil.
//
// The returns of f and g synchronize before the return of Join.
func Join[A, RA, B, RB any](t *Task, f func(*Task, A) RA, a A, g func(*Task, B) RB, b B) (ra RA, rb RB) {
	t.use("Join")
	if f == nil || g == nil {
		panic(joinNil("Join", f == nil))
	}
	pw := t.pw
	rec, ok := pw.slot().(*forkTask[B, RB])
	if !ok {
		rec = own[forkTask[B, RB]](pw)
	}
	rec.fn, rec.a, rec.parent = g, b, t
	// Not linked into t's unjoined forks: Join waits for g itself, also
	// when f panics (see joinFailed).
	pw.forked(&rec.forkBase)
	pw.poll()
	js := joinState{b: &rec.forkBase}
	defer func() {
		if !js.done {
			pw.joinFailed(&js, recover())
		}
	}()
	ra = f(t, a)
	if pw.popOwn(&rec.forkBase) {
		// Nobody took g, and f left nothing above it. Run it as a call, in
		// a frame of its own. The record stays in its slot, free for the
		// next fork there, g's own included: g's call needs nothing of it.
		pw.poll()
		gt := pw.enterCall(t)
		js.gt = gt
		rb = g(gt, b)
		js.done = true
		pw.ran()
		pw.leaveCall(gt)
		return ra, rb
	}
	pw.help(&rec.l) // f left a task unjoined, or g was published
	js.done = true
	pw.unshow(&rec.forkBase)
	rb = rec.r
	if rec.release(pw) {
		rec.reuse(pw)
	}
	return ra, rb
}

// JoinFunc is Join for functions without a result, as ForkFunc is to
// Fork. It runs f(t, a) and g(t', b), in parallel when another worker is
// free to take g, and returns once both have returned. All that Join says
// holds for it.
//
//	// sort is func(*sched.Task, []int)
//	sched.JoinFunc(t, sort, xs[:mid], sort, xs[mid:])
func JoinFunc[A, B any](t *Task, f func(*Task, A), a A, g func(*Task, B), b B) {
	// Join's body, with ForkFunc's record: an adapter to Join's would
	// allocate, and a shared body costs a call per Join.
	// TestJoinFuncAsJoin runs both on the same scenarios.
	t.use("JoinFunc")
	if f == nil || g == nil {
		panic(joinNil("JoinFunc", f == nil))
	}
	pw := t.pw
	rec, ok := pw.slot().(*forkFunc[B])
	if !ok {
		rec = own[forkFunc[B]](pw)
	}
	rec.fn, rec.a, rec.parent = g, b, t
	pw.forked(&rec.forkBase)
	pw.poll()
	js := joinState{b: &rec.forkBase}
	defer func() {
		if !js.done {
			pw.joinFailed(&js, recover())
		}
	}()
	f(t, a)
	if pw.popOwn(&rec.forkBase) {
		pw.poll()
		gt := pw.enterCall(t)
		js.gt = gt
		g(gt, b)
		js.done = true
		pw.ran()
		pw.leaveCall(gt)
		return
	}
	pw.help(&rec.l)
	js.done = true
	pw.unshow(&rec.forkBase)
	if rec.release(pw) {
		rec.reuse(pw)
	}
}

// joinNil returns the message of the panic for the nil f (fNil) or g of
// op.
func joinNil(op string, fNil bool) string {
	if fNil {
		return nilFunction(op, "f")
	}
	return nilFunction(op, "g")
}

// joinState is what the deferred call of a join that may run a task as
// a call needs (joinFailed): Join's record, the task's frame while it
// runs here, and whether the functions returned. The deferred closure
// captures one pointer: each captured variable costs a store per join.
type joinState struct {
	b    *forkBase
	gt   *Task
	done bool
}
