package sched

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultPoolParks checks that the default pool, idle after some work,
// parks every goroutine it runs: each worker is parked (in Random mode,
// the default) or waits for the masters, which sleep (in Master mode, as
// TestMasterPoolParks checks), and each of their goroutines is blocked on
// a channel, a select or a lock, none in a sleep or a run queue. Nothing spins or polls, so
// the idle pool costs no processor time. The check reads the pool's own
// state and the goroutines' stacks, never a clock: the deadline of
// waitFor only turns a pool that never parks into a failure.
func TestDefaultPoolParks(t *testing.T) {
	p := Default()
	sum := 0
	require.NoError(t, Do(context.Background(), func(t *Task) error { sum = sumRange(t, 0, 10_000); return nil }))
	require.Equal(t, 10_000*9_999/2, sum)
	var why string
	require.NoError(t, waitFor(func() bool { why = poolParked(p); return why == "" }), "the idle default pool did not park: %s", why)
}

// TestMasterPoolParks is TestDefaultPoolParks for a pool in Master mode.
func TestMasterPoolParks(t *testing.T) {
	p, err := NewPool(PoolConfig{Mode: Master})
	require.NoError(t, err)
	defer p.Close()
	sum := 0
	require.NoError(t, p.Do(context.Background(), func(t *Task) error { sum = sumRange(t, 0, 10_000); return nil }))
	require.Equal(t, 10_000*9_999/2, sum)
	var why string
	require.NoError(t, waitFor(func() bool { why = poolParked(p); return why == "" }), "the idle pool did not park: %s", why)
}

// sumRange returns lo + ... + hi-1, split in halves by Join down to
// ranges of 64: some work for both workers before they park.
func sumRange(t *Task, lo, hi int) int {
	if hi-lo <= 64 {
		s := 0
		for i := lo; i < hi; i++ {
			s += i
		}
		return s
	}
	mid := (lo + hi) / 2
	a, b := Join(t, func(t *Task, lo int) int { return sumRange(t, lo, mid) }, lo, func(t *Task, hi int) int { return sumRange(t, mid, hi) }, hi)
	return a + b
}

// parkedState matches the wait reasons of a goroutine that runs only when
// another wakes it: a channel, a select, a lock, a condition variable.
// "sleep" (time.Sleep), "runnable", "running" and the like are not.
var parkedState = regexp.MustCompile(`^(chan receive|chan send|select|sync\.Mutex\.Lock|sync\.RWMutex\.R?Lock|sync\.Cond\.Wait|sync\.WaitGroup\.Wait|semacquire)(,|\]|$)`)

// poolParked returns "" if every worker of p is parked, or waits for
// work with its masters asleep, and every goroutine of a scheduler in the process (one
// that serves a worker, a spare, or a master) is parked; else what is not.
// The tests close their other pools, so these are p's; there are at least
// as many as p's crew has and p's masters.
func poolParked(p *Pool) string {
	nmasters := 0
	switch m := p.s.mode.(type) {
	case *masters[Job]:
		// sleepers may count a master twice: a stale wake token leaves it
		// counted while it runs (see masters.unwait); the stacks below
		// settle it.
		if w := int(m.waiting.Load()); w != p.Workers() {
			return fmt.Sprintf("%d of %d workers wait for work", w, p.Workers())
		}
		nmasters = len(m.all)
		if n := int(atomic.LoadInt32(&m.sleepers)); n < nmasters {
			return fmt.Sprintf("%d of %d masters asleep", n, nmasters)
		}
	case *random[Job]:
		if n := int(atomic.LoadInt32(&m.sleepers)); n != p.Workers() {
			return fmt.Sprintf("%d of %d workers parked", n, p.Workers())
		}
		if n := m.spinning.Load(); n != 0 {
			return fmt.Sprintf("%d workers search", n)
		}
	}
	c := p.crew
	c.mu.Lock()
	ids := len(c.ids)
	c.mu.Unlock()
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	crew, masters := 0, 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		// "goroutine 18 [select]:" or "goroutine 18 [chan receive, 2 minutes]:"
		head, _, _ := bytes.Cut(g, []byte("\n"))
		switch {
		case bytes.Contains(g, []byte("sched.(*crew).serve")):
			crew++
		case bytes.Contains(g, []byte("sched.(*master[")):
			masters++
		default:
			continue
		}
		_, state, _ := bytes.Cut(head, []byte(" ["))
		if !parkedState.Match(state) {
			return "a goroutine is not parked: " + string(head)
		}
	}
	if crew < ids || crew < p.Workers() {
		return fmt.Sprintf("%d goroutines serve workers, where the crew has %d, for %d workers", crew, ids, p.Workers())
	}
	if masters < nmasters {
		return fmt.Sprintf("%d master goroutines found, of %d", masters, nmasters)
	}
	return ""
}

// TestRunDefault checks the function that Join and JoinFunc call with a
// nil Task: from plain code, and from a Task.Block function, it runs f as
// a task of the default pool; from a task of any pool it panics, naming
// the call.
func TestRunDefault(t *testing.T) {
	var ran *crew
	runDefault("Join", func(t *Task) { ran = t.runner.c })
	assert.Same(t, Default().crew, ran, "the pool that ran f")

	p, err := NewPool(PoolConfig{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	want := "sched: Join with a nil Task, called by a task: a task passes its own t, so that its worker runs other tasks while it waits; a nil Task, Do and the Context forms are for goroutines that are not tasks"
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
		t.Block(func() { runDefault("Join", func(t *Task) { ran = t.runner.c }) })
		return nil
	}))
	assert.Same(t, Default().crew, ran, "the pool that ran f, from a Block function")
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
