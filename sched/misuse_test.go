package sched_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// The misuses of a Pool that the package documentation lists (Misuse):
// each is named by a panic, never a nil-pointer crash or a silent hang.

var ctx = context.Background()

func double(_ *sched.Task, x int) int { return 2 * x }

// A Go refused by a closed pool is not counted: Wait returns.
func TestGoAfterCloseNotCounted(t *testing.T) {
	p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
	require.NoError(t, err)
	p.Close()
	g := p.NewGroup(ctx)
	assert.Equal(t, "sched: a task started from outside a closed Pool",
		schedtest.PanicValue(t, func() { g.Go(nil, func(*sched.Task) error { return nil }) }))
	e := schedtest.CallInGoroutine(t, func() { assert.NoError(t, g.Wait(nil)) })
	assert.True(t, e.Returned, "Wait after a refused Go")
}

func TestForkNilTask(t *testing.T) {
	assert.Equal(t, "sched: Fork with a nil Task: only a task, with its own Task, may call it; outside the pool, run it in a task: sched.Do, Pool.Do, or a Group's Go",
		schedtest.PanicValue(t, func() { sched.Fork(nil, double, 1) }))
	assert.Contains(t, schedtest.PanicValue(t, func() { (*sched.Task)(nil).NewGroup() }), "sched: Task.NewGroup with a nil Task")
}

// Do and Close called by a task, with nobody else to run anything, panic
// instead of waiting forever.
func TestDoInTask(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1, Mode: mode})
			got := schedtest.PanicValue(t, func() {
				_ = p.Do(ctx, func(t *sched.Task) error {
					return p.Do(t.Context(), func(*sched.Task) error { return nil })
				})
			})
			assert.Equal(t, "sched: Pool.Do called by a task, while every worker runs a task: nobody could run it; a task starts tasks with Fork or a Group (Task.NewGroup) and waits for them with Join or Wait", got)
			got = schedtest.PanicValue(t, func() {
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

// TestDoFromEveryWorker has every worker's task call Do at once: nobody is
// left to run the Do's, so at least one call panics (Do's check stores its
// own flag before it loads the others'), its task ends, and its worker
// then runs the others'. Nothing waits for ever.
func TestDoFromEveryWorker(t *testing.T) {
	const workers = 2
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers, Mode: mode})
			var started, panicked, returned atomic.Int64
			g := p.NewGroup(ctx)
			for range workers {
				g.Go(nil, func(t *sched.Task) error {
					started.Add(1)
					for deadline := time.Now().Add(time.Minute); started.Load() < workers; runtime.Gosched() {
						if time.Now().After(deadline) {
							return errors.New("the tasks did not run at once in a minute")
						}
					}
					defer func() {
						if recover() != nil {
							panicked.Add(1)
						}
					}()
					_ = p.Do(ctx, func(*sched.Task) error { return nil })
					returned.Add(1)
					return nil
				})
			}
			e := schedtest.CallInGoroutine(t, func() { require.NoError(t, g.Wait(nil)) })
			require.True(t, e.Returned, "Wait returned")
			assert.Positive(t, panicked.Load(), "Do calls that panicked")
			assert.Equal(t, int64(workers), panicked.Load()+returned.Load())
		})
	}
}

// A Group serves one round: Go after Wait returned panics, from outside and
// from a task, also after the implicit wait of the task that made it.
func TestGroupGoAfterWait(t *testing.T) {
	const want = "sched: Group.Go after Wait returned: a Group serves one round of Go calls and one Wait; make a new Group"
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	noop := func(*sched.Task) error { return nil }
	g := p.NewGroup(ctx)
	g.Go(nil, noop)
	require.NoError(t, g.Wait(nil))
	assert.Equal(t, want, schedtest.PanicValue(t, func() { g.Go(nil, noop) }))

	var inner *sched.Group
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		inner = t.NewGroup()
		inner.Go(t, noop)
		return nil // waits for inner
	}))
	got := schedtest.PanicValue(t, func() {
		_ = p.Do(ctx, func(t *sched.Task) error { inner.Go(t, noop); return nil })
	})
	assert.Equal(t, want, got)
	require.NoError(t, g.Wait(nil), "a second Wait returns what the first did")
}

// anotherGoroutine ends the message of a Task used by a goroutine other
// than its task's.
const anotherGoroutine = " with a Task of another goroutine: a *Task is valid only in its task's function, during the call, in the goroutine that runs it; not in a goroutine the task starts"

// A Task used outside its own function, after it returned or in a task it
// started, is named as such; by another goroutine, as that.
func TestTaskUsedOutsideItsFunction(t *testing.T) {
	const outside = "with a Task used outside its own function: a *Task is valid only in its task's function, during the call, and not in the tasks it starts (each gets its own)"
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers})
			var saved *sched.Task
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error { saved = t; return nil }))
			for op, use := range map[string]func(){
				"Fork":          func() { sched.Fork(saved, double, 1) },
				"Task.NewGroup": func() { saved.NewGroup() },
				"Task.Context":  func() { saved.Context() },
				"Group.Go":      func() { p.NewGroup(ctx).Go(saved, func(*sched.Task) error { return nil }) },
			} {
				assert.Equal(t, "sched: "+op+anotherGoroutine, schedtest.PanicValue(t, use), op)
			}

			if workers > 1 {
				return // a task started on another worker may not be seen to misuse its parent's Task
			}
			// The enclosing task's Task, in a task it started, which runs
			// in the outer one's Wait.
			got := schedtest.PanicValue(t, func() {
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

// A task that waits with a nil Task would block its worker: Future.Join
// and Group.Wait, of a group made by the task or by the pool, panic
// instead. Two workers, so that the wait would otherwise end.
func TestNilTaskWaitInTask(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	noop := func(*sched.Task) error { return nil }
	for name, wait := range map[string]func(t *sched.Task){
		"Future.Join":        func(t *sched.Task) { sched.Fork(t, double, 1).Join(nil) },
		"Group.Wait (task)":  func(t *sched.Task) { g := t.NewGroup(); g.Go(t, noop); _ = g.Wait(nil) },
		"Group.Wait (pool)":  func(*sched.Task) { g := p.NewGroup(ctx); g.Go(nil, noop); _ = g.Wait(nil) },
		"Group.Wait (empty)": func(*sched.Task) { _ = p.NewGroup(ctx).Wait(nil) },
	} {
		op, _, _ := strings.Cut(name, " ")
		got := schedtest.PanicValue(t, func() {
			_ = p.Do(ctx, func(t *sched.Task) error { wait(t); return nil })
		})
		assert.Equal(t, schedtest.ByTask(op+" with a nil Task"), got, name)
	}
	// Outside the pool, and in the function of a Task.Block, nil is right.
	var r int
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		f := sched.Fork(t, double, 21)
		t.Block(func() { r = f.Join(nil) })
		return nil
	}))
	assert.Equal(t, 42, r)
}

// A nil function is named at the call, in the caller's goroutine, and
// nothing is started: the pool runs only the task that made the call.
func TestNilFunction(t *testing.T) {
	var (
		nilF  func(*sched.Task, int) int
		nilFn func(*sched.Task, int)
		nilG  func(*sched.Task) error
	)
	for want, call := range map[string]func(t *sched.Task){
		"sched: Fork with a nil function":       func(t *sched.Task) { sched.Fork(t, nilF, 1) },
		"sched: ForkFunc with a nil function":   func(t *sched.Task) { sched.ForkFunc(t, nilFn, 1) },
		"sched: Join with a nil function f":     func(t *sched.Task) { sched.Join(t, nilF, 1, double, 2) },
		"sched: Join with a nil function g":     func(t *sched.Task) { sched.Join(t, double, 1, nilF, 2) },
		"sched: Group.Go with a nil function":   func(t *sched.Task) { t.NewGroup().Go(t, nilG) },
		"sched: Task.Block with a nil function": func(t *sched.Task) { t.Block(nil) },
	} {
		p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
		require.NoError(t, err)
		var got any
		e := schedtest.CallInGoroutine(t, func() {
			_ = p.Do(ctx, func(t *sched.Task) error {
				defer func() { got = recover() }()
				call(t)
				return nil
			})
		})
		assert.True(t, e.Returned, "%s: Do panicked with %v", want, e.Recovered)
		assert.Equal(t, want, got)
		assert.Equal(t, int64(1), p.Close().Processed, "%s: tasks run", want)
	}

	p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, "sched: Pool.Do with a nil function", schedtest.PanicValue(t, func() { _ = p.Do(ctx, nil) }))
	g := p.NewGroup(ctx)
	assert.Equal(t, "sched: Group.Go with a nil function", schedtest.PanicValue(t, func() { g.Go(nil, nil) }))
	e := schedtest.CallInGoroutine(t, func() { assert.NoError(t, g.Wait(nil)) })
	assert.True(t, e.Returned, "Wait after a refused Go")
	assert.Zero(t, p.Close().Processed, "tasks run")
}

// A goroutine that a task starts must not use the task's Task, even while
// the task's function runs: it would be a second owner of the worker's
// queue. Under the race detector, every call that takes a Task checks its
// goroutine.
func TestTaskInAnotherGoroutine(t *testing.T) {
	if !sched.RaceEnabled {
		t.Skip("the check of the goroutine runs under the race detector")
	}
	noop := func(*sched.Task) error { return nil }
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	for op, use := range map[string]func(t *sched.Task) func(){
		"Fork":          func(t *sched.Task) func() { return func() { sched.Fork(t, double, 1) } },
		"ForkFunc":      func(t *sched.Task) func() { return func() { sched.ForkFunc(t, func(*sched.Task, int) {}, 1) } },
		"Join":          func(t *sched.Task) func() { return func() { sched.Join(t, double, 1, double, 2) } },
		"Future.Join":   func(t *sched.Task) func() { f := sched.Fork(t, double, 1); return func() { f.Join(t) } },
		"Task.NewGroup": func(t *sched.Task) func() { return func() { t.NewGroup() } },
		"Group.Go":      func(t *sched.Task) func() { g := t.NewGroup(); return func() { g.Go(t, noop) } },
		"Group.Wait":    func(t *sched.Task) func() { g := t.NewGroup(); return func() { _ = g.Wait(t) } },
		"Task.Context":  func(t *sched.Task) func() { return func() { t.Context() } },
		"Task.WorkerID": func(t *sched.Task) func() { return func() { t.WorkerID() } },
		"Task.Demand":   func(t *sched.Task) func() { return func() { t.Demand() } },
		"Task.Block":    func(t *sched.Task) func() { return func() { t.Block(func() {}) } },
	} {
		var got any
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			misuse := use(t)
			done := make(chan any)
			go func() {
				defer func() { done <- recover() }()
				misuse()
			}()
			got = <-done // t's function runs meanwhile: it waits here
			return nil
		}), op)
		assert.Equal(t, "sched: "+op+anotherGoroutine, got)
	}
}
