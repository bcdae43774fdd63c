package sched

import "sync/atomic"

// Future is the result of a task started by Fork, which Join waits for. It
// is a small value: copy it freely, but join it once.
type Future[R any] struct {
	rec *resultRecord[R]
	gen uint64
}

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
// for work (see Load balancing in INTERNALS.md). It
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
	s := &t.runner.forks
	rec, ok := s.slot().(*taskRecord[A, R])
	if !ok {
		rec = own[taskRecord[A, R]](s, t)
	}
	rec.fn, rec.a = f, a
	s.push(t, &rec.record, true)
	s.poll(t.runner.w)
	return Future[R]{rec: &rec.resultRecord, gen: rec.gen}
}

// ForkFunc starts f(t', a) as a new task, as Fork does, for a function
// with no result. The Future's Join only waits for it, and passes on its
// panic or Goexit. All that Fork says holds for ForkFunc:
//
//	left := sched.ForkFunc(t, sortSlice, xs[:mid]) // sortSlice is func(*sched.Task, []int)
//	sortSlice(t, xs[mid:])
//	left.Join(t)
func ForkFunc[A any](t *Task, f func(*Task, A), a A) Future[struct{}] {
	t.use("ForkFunc")
	if f == nil {
		panic(nilFunction("ForkFunc", ""))
	}
	// Fork's body, for a function without a result: see JoinFunc.
	s := &t.runner.forks
	rec, ok := s.slot().(*procRecord[A])
	if !ok {
		rec = own[procRecord[A]](s, t)
	}
	rec.proc, rec.a = f, a
	s.push(t, &rec.record, true)
	s.poll(t.runner.w)
	return Future[struct{}]{rec: rec.results(), gen: rec.gen}
}

// Join waits for the forked task to finish and returns its result. If the
// task panicked, Join panics with a *PanicError that holds the task's
// panic value and stack. If the task called runtime.Goexit, Join calls
// runtime.Goexit. A Future may be joined once: Join panics if it, or a
// copy of it, was joined before, or if Fork did not make it. Two joins of
// one Future by two goroutines at once are a data race, which the race
// detector reports.
//
// t is the calling task. While it waits, Join runs other tasks on t's
// worker: its own first, the forked task itself if nobody stole it. So the
// worker never sleeps while there is work it can do. With a nil t, Join
// blocks the calling goroutine, which must then not be a task's: Join
// panics if it is. A task may join any Future, not only those it forked:
// a sibling's, say, handed to it.
//
// The return of the forked task's function synchronizes before the return
// of Join.
func (f Future[R]) Join(t *Task) R {
	rec := f.rec
	if rec == nil {
		panic("sched: Join of a Future that Fork did not make")
	}
	// The forking task's own join, while the fork counts among its
	// unjoined forks. A frame outlives its task: once the forking task
	// has ended, which joined the fork (Task.sync), a later task in the
	// same frame is another joiner. Both fields are the frame's
	// goroutine's, the caller's when parent is t.
	if t == nil || rec.parent != t || !rec.tracked {
		return f.joinOther(t)
	}
	t.use("Future.Join")
	if rec.gen != f.gen {
		panic("sched: a Future joined twice")
	}
	rec.gen++
	r := t.runner
	if s := &r.forks; s.takeBack(&rec.record) {
		s.untrack(t, &rec.record)
		s.poll(r.w)
		gt := r.enterCall(t)
		js := joinState{gt: gt}
		defer func() {
			if !js.done {
				joinFailed(r, &js, recover())
			}
		}()
		res := rec.callAs.callResult(gt)
		js.done = true
		r.w.ran()
		r.leaveCall(gt)
		return res
	}
	return awaitFork(r, rec)
}

// awaitFork is the join of rec by its forking task, after the fork left
// the private stack: it runs other tasks until the fork has finished, and
// returns its result or repeats its failure. rec stays among its task's
// unjoined forks until its task has finished, so that a Goexit of a task
// run meanwhile still waits for it (Task.sync).
func awaitFork[R any](r *runner, rec *resultRecord[R]) R {
	if !rec.l.done() {
		r.help(&rec.l)
	}
	s := &r.forks
	s.joined(r.w, &rec.record)
	res := rec.r
	var zero R
	rec.r = zero
	f := rec.l.failure()
	s.reuse(r, &rec.record)
	f.raise()
	return res
}

// joinOther is Join by a goroutine other than the forking task's: it claims
// the record with a compare-and-swap and waits for the latch, and never
// reuses the record. It reads nothing else of the record before the claim:
// the forking goroutine may be reusing it.
func (f Future[R]) joinOther(t *Task) R {
	rec := f.rec
	if t == nil {
		nilWait("Future.Join")
	} else {
		t.use("Future.Join")
	}
	// A CAS: two joiners at once must not both claim the record.
	if !atomic.CompareAndSwapUint64(&rec.gen, f.gen, f.gen+1) {
		panic("sched: a Future joined twice")
	}
	if t == nil {
		rec.l.wait()
	} else if !rec.l.done() {
		t.runner.help(&rec.l)
	}
	if t != nil && t.meas != nil {
		t.meas.join(t, &rec.record, false) // a measured run: the forking task adds the work
	}
	rec.l.raise()
	r := rec.r
	var zero R
	rec.r = zero // the forking task does not reuse the record: see forkStack.reuse
	rec.letGo()
	return r
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
//	f or g calls Goexit    waits for the other (dropping its outcome), then calls runtime.Goexit
//
// A panicking task that g leaves unjoined counts as g's panic.
//
// t is the calling task: Join panics if t is not the Task of the function
// that calls it (see Task). A goroutine that is not a task passes nil:
// Join then runs on the default pool (see Default) and returns when both
// halves have; a task that passes nil panics. It panics, starting
// nothing, if f or g is nil.
//
// The returns of f and g synchronize before the return of Join.
func Join[A, RA, B, RB any](t *Task, f func(*Task, A) RA, a A, g func(*Task, B) RB, b B) (ra RA, rb RB) {
	if f == nil || g == nil {
		panic(joinNil("Join", f == nil)) // before anything starts, on the default pool too
	}
	if t == nil {
		return joinDefault(f, a, g, b)
	}
	t.use("Join")
	r := t.runner
	s := &r.forks
	rec, ok := s.slot().(*taskRecord[B, RB])
	if !ok {
		rec = own[taskRecord[B, RB]](s, t)
	}
	rec.fn, rec.a = g, b
	s.push(t, &rec.record, false)
	s.poll(r.w)
	js := joinState{b: &rec.record}
	defer func() {
		if !js.done {
			joinFailed(r, &js, recover())
		}
	}()
	ra = f(t, a)
	if s.takeBack(&rec.record) {
		s.poll(r.w)
		js.gt = r.enterCall(t)
		rb = g(js.gt, b)
		js.done = true
		r.w.ran()
		r.leaveCall(js.gt)
		return ra, rb
	}
	rb = awaitFork(r, &rec.resultRecord) // f left a task unjoined, or g left the stack
	js.done = true
	return ra, rb
}

// joinDefault is Join with a nil Task: on the default pool. A function of
// its own, so that Join's results do not escape for its closure.
func joinDefault[A, RA, B, RB any](f func(*Task, A) RA, a A, g func(*Task, B) RB, b B) (ra RA, rb RB) {
	runDefault("Join", func(t *Task) { ra, rb = Join(t, f, a, g, b) })
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
	if f == nil || g == nil {
		panic(joinNil("JoinFunc", f == nil)) // as in Join
	}
	if t == nil {
		runDefault("JoinFunc", func(t *Task) { JoinFunc(t, f, a, g, b) })
		return
	}
	t.use("JoinFunc")
	// Join's body, for functions without results. One generic body for
	// both would call the functions through its dictionary, or test
	// which of two was given at each call: either costs more per join
	// than this copy (bench/report/results/core-kinds-2026-12-07).
	r := t.runner
	s := &r.forks
	rec, ok := s.slot().(*procRecord[B])
	if !ok {
		rec = own[procRecord[B]](s, t)
	}
	rec.proc, rec.a = g, b
	s.push(t, &rec.record, false)
	s.poll(r.w)
	js := joinState{b: &rec.record}
	defer func() {
		if !js.done {
			joinFailed(r, &js, recover())
		}
	}()
	f(t, a)
	if s.takeBack(&rec.record) {
		s.poll(r.w)
		js.gt = r.enterCall(t)
		g(js.gt, b)
		js.done = true
		r.w.ran()
		r.leaveCall(js.gt)
		return
	}
	awaitFork(r, rec.results())
	js.done = true
}

// joinNil returns the message of the panic for the nil f (fNil) or g of
// op.
func joinNil(op string, fNil bool) string {
	if fNil {
		return nilFunction(op, "f")
	}
	return nilFunction(op, "g")
}

// joinState is what the deferred call of a join needs when its functions
// do not return (joinFailed): Join's record, the frame of the task
// taken back while it runs here, and whether the functions returned. The
// deferred closure captures one pointer: each captured variable costs a
// store per join.
type joinState struct {
	b    *record
	gt   *Task
	done bool
}

// joinFailed ends a join (Join, JoinFunc, Future.Join) whose functions did
// not return; v is what recover returned. Their deferred calls call it. If
// the task taken back was running here, it ends its frame as a task's and
// repeats its failure. Otherwise Join's f failed: it waits for g,
// dropping its outcome, and repeats f's failure. A Goexit goes on by
// itself once the wait is over.
func joinFailed(r *runner, js *joinState, v any) {
	f := recovered(v)
	if js.gt != nil {
		if !f.goexit {
			r.w.ran()
		}
		r.end(js.gt, f).raise()
		return
	}
	r.await(&js.b.l)
	r.forks.joined(r.w, js.b)
	f.raise()
}
