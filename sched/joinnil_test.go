package sched_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// TestJoinNilTask checks Join and JoinFunc with a nil Task from plain
// code: both functions run, on the default pool, and Join returns their
// results; a panic comes out as a *PanicError, a Goexit passes on.
func TestJoinNilTask(t *testing.T) {
	x, y := sched.Join(nil, double, 1, fib, 20)
	assert.Equal(t, 2, x)
	assert.Equal(t, 6765, y)

	var ran atomic.Int64
	add := func(_ *sched.Task, n int) { ran.Add(int64(n)) }
	sched.JoinFunc(nil, add, 1, add, 2)
	assert.Equal(t, int64(3), ran.Load())

	boom := func(*sched.Task, int) int { panic(schedtest.ErrBoom) }
	e := schedtest.CallInGoroutine(t, func() { sched.Join(nil, double, 1, boom, 2) })
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "a *PanicError, not %#v", e.Recovered)
	assert.Equal(t, schedtest.ErrBoom, pe.Value)
	e = schedtest.CallInGoroutine(t, func() { sched.JoinFunc(nil, add, 1, func(*sched.Task, int) { runtime.Goexit() }, 2) })
	assert.False(t, e.Returned)
	assert.Nil(t, e.Recovered, "a Goexit is no panic")
}

// TestJoinNilTaskFromTask checks that Join and JoinFunc with a nil Task
// panic when a task calls them, of any pool, and naming the call; and
// that a Task.Block function may pass nil.
func TestJoinNilTaskFromTask(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	nop := func(*sched.Task, int) {}
	for name, call := range map[string]func(){
		"Join":     func() { sched.Join(nil, double, 1, double, 2) },
		"JoinFunc": func() { sched.JoinFunc(nil, nop, 1, nop, 2) },
	} {
		got := schedtest.PanicValue(t, func() { _ = p.Do(ctx, func(*sched.Task) error { call(); return nil }) })
		assert.Equal(t, schedtest.ByTask(name+" with a nil Task"), got, "by a task of a pool")
		got = schedtest.PanicValue(t, func() { _ = sched.Do(ctx, func(*sched.Task) error { call(); return nil }) })
		assert.Equal(t, schedtest.ByTask(name+" with a nil Task"), got, "by a task of the default pool")
	}
	var x, y int
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		t.Block(func() { x, y = sched.Join(nil, double, 1, double, 2) })
		return nil
	}))
	assert.Equal(t, [2]int{2, 4}, [2]int{x, y})
}

// TestJoinNilFunctionNilTask checks that Join and JoinFunc with a nil
// Task and a nil f or g panic in the caller, starting nothing: with the
// plain message, not a task's *PanicError.
func TestJoinNilFunctionNilTask(t *testing.T) {
	nop := func(*sched.Task, int) {}
	for want, call := range map[string]func(){
		"sched: Join with a nil function f":     func() { sched.Join[int, int, int, int](nil, nil, 1, double, 2) },
		"sched: Join with a nil function g":     func() { sched.Join[int, int, int, int](nil, double, 1, nil, 2) },
		"sched: JoinFunc with a nil function f": func() { sched.JoinFunc[int, int](nil, nil, 1, nop, 2) },
		"sched: JoinFunc with a nil function g": func() { sched.JoinFunc[int, int](nil, nop, 1, nil, 2) },
	} {
		e := schedtest.CallInGoroutine(t, call)
		assert.Equal(t, want, e.Recovered, "a plain panic, not a task's")
	}
}

// TestNilTaskAfterBlock checks that a task's misuses are caught as well
// after its Task.Block returned as before it: a nil Task, sched.Do, and
// Pool.Do while every worker runs a task. A task at depth zero goes on
// unseated after its Block (without its worker), and the checks must
// see it as the task it is.
func TestNilTaskAfterBlock(t *testing.T) {
	nop := func(*sched.Task, int) {}
	for _, workers := range []int{1, 2} {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers})
		for _, c := range []struct {
			want string
			call func()
		}{
			{schedtest.ByTask("Join with a nil Task"), func() { sched.Join(nil, double, 1, double, 2) }},
			{schedtest.ByTask("JoinFunc with a nil Task"), func() { sched.JoinFunc(nil, nop, 1, nop, 2) }},
			{schedtest.ByTask("Group.Wait with a nil Task"), func() { _ = p.NewGroup(ctx).Wait(nil) }},
			{schedtest.ByTask("Do, or a call with a nil Task"), func() { _ = sched.Do(ctx, func(*sched.Task) error { return nil }) }},
		} {
			for _, block := range []bool{false, true} {
				got := schedtest.PanicValue(t, func() {
					_ = p.Do(ctx, func(t *sched.Task) error {
						if block {
							t.Block(func() {})
						}
						c.call()
						return nil
					})
				})
				assert.Equal(t, c.want, got, "workers=%d, after a Block: %v", workers, block)
			}
		}
	}
	// Pool.Do by a task while every worker runs a task.
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	for _, block := range []bool{false, true} {
		got := schedtest.PanicValue(t, func() {
			_ = p.Do(ctx, func(t *sched.Task) error {
				if block {
					t.Block(func() {})
				}
				return p.Do(ctx, func(*sched.Task) error { return nil })
			})
		})
		assert.Equal(t, "sched: Pool.Do called by a task, while every worker runs a task: nobody could run it; a task starts tasks with Fork or a Group (Task.NewGroup) and waits for them with Join or Wait", got, "after a Block: %v", block)
	}
}
