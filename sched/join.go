package sched

// Join runs f(t, a) and g(t', b), in parallel when another worker is free
// to take g, and returns both results once both have returned: the
// fork-join of two halves in one call, as rayon's join is in Rust.
//
//	// fib is func(*sched.Task, int) int
//	x, y := sched.Join(t, fib, n-2, fib, n-1)
//	return x + y
//
// g is a task: Join puts it into the queue of t's worker, where another
// worker may steal it, and then calls f(t, a) on the calling task, as a
// plain call would. If nobody stole g by the time f returns, Join takes it
// back and runs it here, as a call with its own Task t'; otherwise Join
// runs other tasks until the worker that stole g has finished it (as
// Future.Join does). A thief takes g, so a g at least as large as f makes
// each steal worth more.
//
// Join is Fork and Future.Join in one call, which costs less: the task's
// record never leaves Join, so there is no Future to claim (and none to
// join twice, or to forget), and a g that ran here costs no atomic
// operation beyond the queue's push and pop. Join allocates nothing per
// call in steady state.
//
// f is part of the calling task: what it forks and does not join belongs
// to t (t waits for it when its function returns). g is a task of its own,
// which waits for what it forked and did not join before it counts as
// finished, wherever it ran; Join returns after that.
//
// Panics and Goexit: if g panics (or leaves a panicking task unjoined),
// Join panics with a *PanicError that holds the panic's value and stack,
// wherever g ran. If f panics, Join first waits for g (running it here if
// nobody stole it, and dropping its outcome), then panics with a
// *PanicError that holds f's panic. If f or g calls runtime.Goexit, Join
// calls runtime.Goexit without waiting for the other, whose task goes on,
// as a Future left unjoined would.
//
// t is the calling task: Join panics if t is nil, or is not the Task of
// the function that calls it (see Task), and, starting nothing, if f or g
// is nil.
//
// In the terms of the Go memory model, the returns of f and g synchronize
// before the return of Join.
func Join[A, RA, B, RB any](t *Task, f func(*Task, A) RA, a A, g func(*Task, B) RB, b B) (ra RA, rb RB) {
	t.use("Join")
	if f == nil || g == nil {
		joinNil(f == nil)
	}
	pw := t.pw
	rec, ok := reused[*forkTask[B, RB]](pw)
	if !ok {
		rec = newForkTask[B, RB]()
	}
	rec.fn, rec.a = g, b
	// Not linked into t's unjoined forks: Join waits for g itself, also
	// when f panics (see joinFailed).
	rec.push(t)
	js := joinState{b: &rec.forkBase}
	defer func() {
		if !js.done {
			pw.joinFailed(js.b, js.gt, recover())
		}
	}()
	ra = f(t, a)
	if j, ok := pw.next(); ok && j.fork == &rec.forkBase {
		// Nobody stole g, and f left nothing above it in the queue: run
		// it as a call, in a frame of its own (its Task, the misuse checks
		// and the wait for what it leaves unjoined), as runFork would,
		// but with this function's deferred call for its failures.
		var zero B
		rec.fn, rec.a = nil, zero
		gt := pw.enterFork(&rec.forkBase)
		js.gt = gt
		rb = g(gt, b)
		js.gt = nil
		if gt.forks == nil && gt.groups == nil {
			pw.pop(gt)
			pw.handled()
			js.done = true
			pw.giveBack(&rec.forkBase)
			return ra, rb
		}
		// g left tasks unjoined: its frame ends as every task's does,
		// waiting for them and arriving at the latch with their outcome.
		pw.end(gt, &rec.forkBase, nil)
		pw.handled()
	} else {
		if ok {
			pw.runTask(j) // f left a task unjoined, or the worker holds a stolen one
		}
		pw.join(&rec.l)
		rb = rec.r
	}
	js.done = true
	if rec.settle(pw) {
		rec.reuse(pw)
	}
	return ra, rb
}

// joinNil panics for Join's nil f (fNil) or g.
func joinNil(fNil bool) {
	if fNil {
		nilFunction("Join", "f")
	}
	nilFunction("Join", "g")
}

// JoinFunc is Join for functions without a result, as ForkFunc is to Fork:
// it runs f(t, a) and g(t', b), in parallel when another worker is free to
// take g, and returns once both have returned. Everything Join says holds
// for it: g is the task another worker may steal, panics and Goexit take
// the same course, and it allocates nothing per call in steady state.
//
//	// sort is func(*sched.Task, []int)
//	sched.JoinFunc(t, sort, xs[:mid], sort, xs[mid:])
//
// JoinFunc panics if t is nil or not the calling task's own, and,
// starting nothing, if f or g is nil.
func JoinFunc[A, B any](t *Task, f func(*Task, A), a A, g func(*Task, B), b B) {
	// Join's body, with ForkFunc's record: g's record keeps g as it is, a
	// function without a result (an adapter to Join's would allocate).
	// TestJoinFuncAsJoin runs both on the same scenarios.
	t.use("JoinFunc")
	if f == nil || g == nil {
		arg := "g"
		if f == nil {
			arg = "f"
		}
		nilFunction("JoinFunc", arg)
	}
	pw := t.pw
	rec, ok := reused[*forkFunc[B]](pw)
	if !ok {
		rec = &forkFunc[B]{}
		rec.task = rec
	}
	rec.fn, rec.a = g, b
	rec.push(t)
	js := joinState{b: &rec.forkBase}
	defer func() {
		if !js.done {
			pw.joinFailed(js.b, js.gt, recover())
		}
	}()
	f(t, a)
	if j, ok := pw.next(); ok && j.fork == &rec.forkBase {
		var zero B
		rec.fn, rec.a = nil, zero
		gt := pw.enterFork(&rec.forkBase)
		js.gt = gt
		g(gt, b)
		js.gt = nil
		if gt.forks == nil && gt.groups == nil {
			pw.pop(gt)
			pw.handled()
			js.done = true
			pw.giveBack(&rec.forkBase)
			return
		}
		pw.end(gt, &rec.forkBase, nil)
		pw.handled()
	} else {
		if ok {
			pw.runTask(j)
		}
		pw.join(&rec.l)
	}
	js.done = true
	if rec.settle(pw) {
		rec.reuse(pw)
	}
}

// joinState is what Join's deferred call needs to know: g's record, g's
// frame while g runs here as a call, and whether both functions have
// returned (from then on, a failure is read from the latch and raised by
// Join itself). The record is here too so that the deferred closure
// captures one pointer: each captured variable costs a store on every
// Join.
type joinState struct {
	b    *forkBase
	gt   *Task
	done bool
}

// joinFailed ends a Join whose f or g did not return: gt is g's frame if
// g was running here as a call, and v what recover returned. It ends g's
// frame as a task's, or when f failed, waits for g, and then repeats the
// failure: g's if g failed, f's otherwise. A Goexit goes on at once (see
// Join).
func (pw *poolWorker) joinFailed(b *forkBase, gt *Task, v any) {
	f := recovered(v)
	if gt != nil {
		pw.end(gt, b, f) // waits for what g left unjoined, unless f is a Goexit
	}
	if f.goexit {
		return // the Goexit goes on by itself when this call returns
	}
	if gt != nil {
		pw.handled()
		f = b.l.failure()
	} else {
		pw.join(&b.l)
	}
	f.raise()
}
