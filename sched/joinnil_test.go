package sched_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

	boom := func(*sched.Task, int) int { panic(errBoom) }
	e := callInGoroutine(t, func() { sched.Join(nil, double, 1, boom, 2) })
	pe, ok := e.recovered.(*sched.PanicError)
	require.True(t, ok, "a *PanicError, not %#v", e.recovered)
	assert.Equal(t, errBoom, pe.Value)
	e = callInGoroutine(t, func() { sched.JoinFunc(nil, add, 1, func(*sched.Task, int) { runtime.Goexit() }, 2) })
	assert.False(t, e.returned)
	assert.Nil(t, e.recovered, "a Goexit is no panic")
}

// TestJoinNilTaskFromTask checks that Join and JoinFunc with a nil Task
// panic when a task calls them, of any pool, and naming the call; and
// that a Task.Block function may pass nil.
func TestJoinNilTaskFromTask(t *testing.T) {
	p := newPool(t, sched.PoolConfig{Workers: 1})
	const advice = " with a nil Task, called by a task: pass the task's own t, so that its worker runs other tasks while it waits; nil is for goroutines that are not tasks"
	nop := func(*sched.Task, int) {}
	for name, call := range map[string]func(){
		"Join":     func() { sched.Join(nil, double, 1, double, 2) },
		"JoinFunc": func() { sched.JoinFunc(nil, nop, 1, nop, 2) },
	} {
		got := panicValue(t, func() { _ = p.Do(ctx, func(*sched.Task) error { call(); return nil }) })
		assert.Equal(t, "sched: "+name+advice, got, "by a task of a pool")
		got = panicValue(t, func() { _ = sched.Do(ctx, func(*sched.Task) error { call(); return nil }) })
		assert.Equal(t, "sched: "+name+advice, got, "by a task of the default pool")
	}
	var x, y int
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		t.Block(func() { x, y = sched.Join(nil, double, 1, double, 2) })
		return nil
	}))
	assert.Equal(t, [2]int{2, 4}, [2]int{x, y})
}
