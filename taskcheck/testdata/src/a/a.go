// Package a holds the programs of taskcheck's tests: each finding is
// marked with the diagnostic it must get, and the rest must get none.
package a

import (
	"context"

	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

var ctx = context.Background()

func fib(t *sched.Task, n int) int {
	if n < 2 {
		return n
	}
	x := sched.Fork(t, fib, n-1)
	y := fib(t, n-2)
	return x.Join(t) + y
}

// Good code gets no finding.
func good(p *sched.Pool, xs []int) {
	_ = p.Do(ctx, func(t *sched.Task) error {
		par.For(t, len(xs), func(t *sched.Task, i int) { xs[i] = fib(t, i) })
		g := t.NewGroup()
		g.Go(t, func(t *sched.Task) error { return nil })
		t.Block(func() { par.For(nil, 3, func(*sched.Task, int) {}) }) // nil is right in Block
		f := sched.Fork(t, fib, 10)
		g.Go(t, func(t *sched.Task) error { f.Join(t); return nil })  // a task may join any Future
		helper := func() { par.For(t, 2, func(*sched.Task, int) {}) } // called in place
		helper()
		done := make(chan struct{})
		go func() {
			par.For(nil, 3, func(*sched.Task, int) {}) // a goroutine is no task
			close(done)
		}()
		t.Block(func() { <-done })
		return g.Wait(t)
	})
	par.For(nil, len(xs), func(t *sched.Task, i int) {})
	_ = sched.Do(ctx, func(t *sched.Task) error { return nil })
}

// each runs f as a task: on the default pool when its caller is not a
// task (a nil t), a pattern that gets no finding.
func each(t *sched.Task, f func(*sched.Task)) {
	if t == nil {
		_ = sched.Do(ctx, func(t *sched.Task) error { f(t); return nil })
		return
	}
	f(t)
}

// eachEarly is each with an early return on the path where t is not nil.
func eachEarly(t *sched.Task, f func(*sched.Task)) {
	if t != nil {
		f(t)
		return
	}
	par.For(nil, 1, func(t *sched.Task, _ int) { f(t) })
}

var kept *sched.Task

type holder struct{ t *sched.Task }

// Each finding once.
func bad(p *sched.Pool, h *holder, ch chan *sched.Task) {
	var outer *sched.Task
	_ = p.Do(ctx, func(t *sched.Task) error {
		par.For(nil, 3, func(*sched.Task, int) {})                // want `a nil Task passed by a task function`
		_ = sched.Fork(t, fib, 3).Join(nil)                       // want `a nil Task passed by a task function`
		_ = sched.Do(ctx, func(*sched.Task) error { return nil }) // want `sched.Do called by a task`
		_ = p.Do(ctx, func(*sched.Task) error { return nil })     // want `Pool.Do called by a task`
		g := t.NewGroup()
		g.Go(t, func(_ *sched.Task) error {
			par.For(t, 3, func(*sched.Task, int) {}) // want `t is the Task of an enclosing function`
			return nil
		})
		t.Block(func() { _ = t.Context() }) // want `t is used in the function of Task.Block`
		go func() { _ = t.Context() }()     // want `t is used by a goroutine that the task starts`
		f := sched.Fork(t, fib, 3)
		go func() { _ = f.Join(nil) }() // want `the Future f is used by a goroutine`
		kept = t                        // want `a Task stored in kept`
		h.t = t                         // want `a Task stored beyond its function`
		outer = t                       // want `a Task stored in outer`
		ch <- t                         // want `a Task sent on a channel`
		return g.Wait(t)
	})
	_ = outer
}
