package sched

// Future is the result of a task started by Fork, which Join waits for.
type Future[R any] struct {
	l      latch // first: see latch
	parent *Task // the forking task, which outlives this one (it joins it)
	r      R
}

// forkTask is the task of a Future: the function, its argument and the
// Future, in one allocation.
type forkTask[A, R any] struct {
	Future[R] // first: see latch
	fn        func(*Task, A) R
	a         A
}

// Fork starts f(t', a) as a new task, in which t' is the new task's handle,
// and returns the Future of its result. The new task goes into the queue of
// t's worker, whose next task it is unless another worker steals it first;
// the caller goes on at once, typically with the other half of the work,
// and then calls Join. The new task's context is t's.
//
// Fork allocates one object, the Future with f's argument in it. Passing the
// argument separately lets f be a function value made once (a top-level
// function, or a closure stored in a variable before the recursion starts)
// rather than a new closure per call, which would be a second allocation:
//
//	left := sched.Fork(t, sum, xs[:mid]) // sum is func(*sched.Task, []int) int
//	return sum(t, xs[mid:]) + left.Join(t)
//
// t is the calling task, and must not be nil. If t's function returns
// without joining the Future, t joins it then, and fails with the forked
// task's panic if it panicked.
func Fork[A, R any](t *Task, f func(*Task, A) R, a A) *Future[R] {
	ft := &forkTask[A, R]{Future: Future[R]{l: latch{n: 1}, parent: t}, fn: f, a: a}
	t.forks = append(t.forks, &ft.l)
	t.pw.spawn(Job{x: ft})
	return &ft.Future
}

// Join waits for the forked task to finish and returns its result. If the
// task panicked, Join panics with a *PanicError that holds the task's panic
// value and stack; if the task called runtime.Goexit, Join calls
// runtime.Goexit. Join may be called again, and returns the same.
//
// t is the calling task: while it waits, Join runs other tasks on t's worker
// (its own queue first, the forked task itself if nobody stole it), so the
// worker never sleeps while there is work it can do. With a nil t Join
// blocks the calling goroutine, which must then not be a task's.
//
// In the terms of the Go memory model, the return of the forked task's
// function synchronizes before the return of Join.
func (f *Future[R]) Join(t *Task) R {
	if t != nil {
		if !f.l.done() {
			t.pw.join(&f.l)
		}
		t.joined(&f.l)
	} else {
		f.l.wait()
	}
	f.l.failure().raise()
	return f.r
}

func (ft *forkTask[A, R]) start(t *Task) {
	t.ctx, t.l = ft.parent.ctx, &ft.l
}

func (ft *forkTask[A, R]) call(t *Task, _ func(*Task) error) { ft.r = ft.fn(t, ft.a) }

func (f *Future[R]) finish(fail *failure) {
	if fail != nil {
		f.l.getSlow().fail = fail
	}
	f.l.arrive()
}
