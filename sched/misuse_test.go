package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/sched"
)

// The misuses of a Pool that the package documentation lists (Misuse):
// each is named by a panic, never a nil-pointer crash or a silent hang.

var ctx = context.Background()

// panicValue returns the value f panicked with, unwrapping the
// *sched.PanicError a task's panic reaches its waiter in, or nil if f
// returned. It fails the test if f neither returns nor panics in time.
func panicValue(t *testing.T, f func()) any {
	t.Helper()
	e := callInGoroutine(t, f)
	if pe, ok := e.recovered.(*sched.PanicError); ok {
		return pe.Value
	}
	return e.recovered
}

func double(_ *sched.Task, x int) int { return 2 * x }

// A Go refused by a closed pool is not counted: Wait returns.
func TestGoAfterCloseNotCounted(t *testing.T) {
	p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
	require.NoError(t, err)
	p.Close()
	g := p.NewGroup(ctx)
	assert.Equal(t, "sched: a task started from outside a closed Pool",
		panicValue(t, func() { g.Go(nil, func(*sched.Task) error { return nil }) }))
	e := callInGoroutine(t, func() { assert.NoError(t, g.Wait(nil)) })
	assert.True(t, e.returned, "Wait after a refused Go")
}

func TestForkNilTask(t *testing.T) {
	assert.Equal(t, "sched: Fork with a nil Task: only a task, with its own Task, may call it; outside the pool, use Pool.Do or a Group made by Pool.NewGroup",
		panicValue(t, func() { sched.Fork(nil, double, 1) }))
	assert.Contains(t, panicValue(t, func() { (*sched.Task)(nil).NewGroup() }), "sched: Task.NewGroup with a nil Task")
}

// Do and Close called by a task, with nobody else to run anything, panic
// instead of waiting forever.
func TestDoInTask(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := newPool(t, sched.PoolConfig{Workers: 1, Mode: mode})
			got := panicValue(t, func() {
				_ = p.Do(ctx, func(t *sched.Task) error {
					return p.Do(t.Context(), func(*sched.Task) error { return nil })
				})
			})
			assert.Equal(t, "sched: Pool.Do called by a task, while every worker runs a task: nobody could run it; a task starts tasks with Fork or a Group (Task.NewGroup) and waits for them with Join or Wait", got)
			got = panicValue(t, func() {
				_ = p.Do(ctx, func(*sched.Task) error { p.Close(); return nil })
			})
			assert.Equal(t, "sched: Pool.Close called by a task, which would wait for itself", got)
			// The pool is unharmed.
			var r int
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error { r = sched.Fork(t, double, 21).Join(t); return nil }))
			assert.Equal(t, 42, r)
		})
	}
}

// A Group serves one round: Go after Wait returned panics, from outside and
// from a task, also after the implicit wait of the task that made it.
func TestGroupGoAfterWait(t *testing.T) {
	const want = "sched: Group.Go after Wait returned: a Group serves one round of Go calls and one Wait; make a new Group"
	p := newPool(t, sched.PoolConfig{Workers: 2})
	noop := func(*sched.Task) error { return nil }
	g := p.NewGroup(ctx)
	g.Go(nil, noop)
	require.NoError(t, g.Wait(nil))
	assert.Equal(t, want, panicValue(t, func() { g.Go(nil, noop) }))

	var inner *sched.Group
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		inner = t.NewGroup()
		inner.Go(t, noop)
		return nil // waits for inner
	}))
	got := panicValue(t, func() {
		_ = p.Do(ctx, func(t *sched.Task) error { inner.Go(t, noop); return nil })
	})
	assert.Equal(t, want, got)
	require.NoError(t, g.Wait(nil), "a second Wait returns what the first did")
}

// A Task used outside its own function, after it returned or in a task it
// started, is named as such.
func TestTaskUsedOutsideItsFunction(t *testing.T) {
	const outside = "with a Task used outside its own function: a *Task is valid only in its task's function, during the call, and not in the tasks it starts (each gets its own)"
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			p := newPool(t, sched.PoolConfig{Workers: workers})
			var saved *sched.Task
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error { saved = t; return nil }))
			for op, use := range map[string]func(){
				"Fork":          func() { sched.Fork(saved, double, 1) },
				"Task.NewGroup": func() { saved.NewGroup() },
				"Task.Context":  func() { saved.Context() },
				"Group.Go":      func() { p.NewGroup(ctx).Go(saved, func(*sched.Task) error { return nil }) },
			} {
				assert.Equal(t, "sched: "+op+" "+outside, panicValue(t, use), op)
			}

			if workers > 1 {
				return // a task started on another worker may not be seen to misuse its parent's Task
			}
			// The enclosing task's Task, in a task it started, which runs
			// in the outer one's Wait.
			got := panicValue(t, func() {
				_ = p.Do(ctx, func(t *sched.Task) error {
					g := t.NewGroup()
					g.Go(t, func(*sched.Task) error {
						sched.Fork(t, double, 1).Join(t) // the outer t
						return nil
					})
					return g.Wait(t)
				})
			})
			assert.Equal(t, "sched: Fork "+outside, got)
		})
	}
}
