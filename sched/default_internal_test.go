package sched

import (
	"bytes"
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultPoolParks checks that the default pool, idle after some work,
// parks every goroutine it runs: each worker waits for the master, which
// sleeps, and each of their goroutines is blocked. Nothing spins, so the
// idle pool costs no processor time.
func TestDefaultPoolParks(t *testing.T) {
	p := Default()
	sum := Reduce(nil, 10_000, 0, func(_ *Task, i int) int { return i }, func(a, b int) int { return a + b })
	require.Equal(t, 10_000*9_999/2, sum)
	require.NoError(t, waitFor(func() bool { return poolParked(p) }), "the idle default pool's goroutines did not all park")
}

// poolParked reports whether p looks for work on every worker with its
// masters asleep, and every goroutine of a scheduler in the process (one
// that serves a worker, a spare, or a master) is blocked. The tests close
// their other pools, so these are p's.
func poolParked(p *Pool) bool {
	ms, ok := p.s.mode.(*masters[Job])
	// sleepers may count a master twice: a stale wake token leaves it
	// counted while it runs (see masters.unwait).
	if !ok || int(ms.waiting.Load()) != p.Workers() || int(atomic.LoadInt32(&ms.sleepers)) < len(ms.all) {
		return false
	}
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if !bytes.Contains(g, []byte("sched.(*crew).serve")) && !bytes.Contains(g, []byte("sched.(*master[")) {
			continue
		}
		n++
		// "goroutine 18 [select]:": a goroutine that runs, or could, is
		// not parked.
		_, state, _ := bytes.Cut(g, []byte(" ["))
		if bytes.HasPrefix(state, []byte("running")) || bytes.HasPrefix(state, []byte("runnable")) {
			return false
		}
	}
	return n >= p.Workers()+len(ms.all)
}

// TestRunDefault checks the function that Join and JoinFunc call with a
// nil Task: from plain code, and from a Task.Block function, it runs f as
// a task of the default pool; from a task of any pool it panics, naming
// the call.
func TestRunDefault(t *testing.T) {
	var ran *Pool
	runDefault("Join", func(t *Task) { ran = t.runner.p })
	assert.Same(t, Default(), ran, "the pool that ran f")

	p, err := NewPool(PoolConfig{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	want := "sched: Join with a nil Task, called by a task: pass the task's own t, so that its worker runs other tasks while it waits; nil is for goroutines that are not tasks"
	for _, do := range []func(ctx context.Context, f func(t *Task) error) error{p.Do, Do} {
		got := func() (v any) {
			defer func() { v = recover() }()
			_ = do(context.Background(), func(*Task) error {
				runDefault("Join", func(*Task) {})
				return nil
			})
			return nil
		}()
		pe, ok := got.(*PanicError)
		require.True(t, ok, "a *PanicError, not %#v", got)
		assert.Equal(t, want, pe.Value)
	}
	ran = nil
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		t.Block(func() { runDefault("Join", func(t *Task) { ran = t.runner.p }) })
		return nil
	}))
	assert.Same(t, Default(), ran, "the pool that ran f, from a Block function")
}

// TestPoolSlot checks the default pool's start on a slot of its own: an
// invalid PoolConfig is refused and starts nothing, a valid one starts
// the pool once, and a second set is refused; a get starts a slot with
// the zero PoolConfig.
func TestPoolSlot(t *testing.T) {
	var ps poolSlot
	require.Error(t, ps.set(PoolConfig{Workers: -1}))
	assert.Nil(t, ps.p.Load(), "a refused PoolConfig starts nothing")
	require.NoError(t, ps.set(PoolConfig{Workers: 3, Mode: Random}))
	p := ps.get()
	defer p.Close()
	assert.Equal(t, 3, p.Workers())
	assert.Equal(t, errDefaultStarted, ps.set(PoolConfig{}))
	assert.Same(t, p, ps.get())

	var fresh poolSlot
	q := fresh.get()
	defer q.Close()
	assert.Equal(t, runtime.GOMAXPROCS(0), q.Workers())
	assert.Same(t, q, fresh.get())
}
