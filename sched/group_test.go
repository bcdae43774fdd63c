package sched_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"

	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// TestZeroGroup uses a zero Group as errgroup's zero value is used: from
// a goroutine that is not a task (on the default pool), and from a task
// (on its pool). Every task runs, Wait returns the first error, and the
// context is cancelled once Wait returns.
func TestZeroGroup(t *testing.T) {
	var g sched.Group
	var sum atomic.Int64
	errFirst := errors.New("first")
	for i := range 100 {
		g.Go(nil, func(*sched.Task) error {
			sum.Add(int64(i))
			if i == 50 {
				return errFirst
			}
			return nil
		})
	}
	assert.ErrorIs(t, g.Wait(nil), errFirst)
	assert.Equal(t, int64(4950), sum.Load())
	assert.Error(t, g.Context().Err(), "the context after Wait")

	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
		var g sched.Group
		var n atomic.Int64
		for range 10 {
			g.Go(t, func(*sched.Task) error { n.Add(1); return nil })
		}
		if err := g.Wait(t); err != nil {
			return err
		}
		if n.Load() != 10 {
			return fmt.Errorf("%d tasks ran, want 10", n.Load())
		}
		return nil
	}))

	var empty sched.Group
	assert.NoError(t, empty.Wait(nil), "Wait of a zero Group that started nothing")
}

// TestGroupSetLimit checks that a group with a limit never has more tasks
// active than the limit, from outside the pool and from a task, that
// every task runs once, and that tasks that block in Task.Block at a
// limit of n hold at most n goroutines, and one for the task that waits in
// Go (Stats.PeakBlocked).
func TestGroupSetLimit(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		for _, limit := range []int{1, 3} {
			t.Run(fmt.Sprintf("%v/limit=%d", mode, limit), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
				var active, peak, ran atomic.Int64
				task := func(t *sched.Task) error {
					n := active.Add(1)
					for m := peak.Load(); n > m && !peak.CompareAndSwap(m, n); m = peak.Load() {
					}
					t.Block(func() { time.Sleep(100 * time.Microsecond) })
					active.Add(-1)
					ran.Add(1)
					return nil
				}
				const n = 200
				g := p.NewGroup(context.Background())
				g.SetLimit(limit)
				for range n {
					g.Go(nil, task)
				}
				require.NoError(t, g.Wait(nil))
				require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
					g := t.NewGroup()
					g.SetLimit(limit)
					for range n {
						g.Go(t, task)
					}
					return g.Wait(t)
				}))
				assert.Equal(t, int64(2*n), ran.Load(), "tasks run")
				assert.LessOrEqual(t, peak.Load(), int64(limit), "tasks active at once")
				// The limit's tasks in Block, and the task that waits in Go
				// for a token: it lends its worker while it waits.
				st := p.Close()
				assert.LessOrEqual(t, st.PeakBlocked, limit+1, "goroutines blocked at once")
			})
		}
	}
}

// TestGroupTryGo checks that TryGo starts a task only while the limit
// allows it, and never waits.
func TestGroupTryGo(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	g := p.NewGroup(context.Background())
	g.SetLimit(1)
	release := make(chan struct{})
	var ran atomic.Int64
	block := func(t *sched.Task) error {
		t.Block(func() { <-release })
		ran.Add(1)
		return nil
	}
	require.True(t, g.TryGo(nil, block), "the first TryGo, under the limit")
	assert.False(t, g.TryGo(nil, block), "a TryGo at the limit")
	close(release)
	require.NoError(t, g.Wait(nil))
	assert.Equal(t, int64(1), ran.Load())

	g = p.NewGroup(context.Background())
	for range 5 {
		assert.True(t, g.TryGo(nil, func(*sched.Task) error { ran.Add(1); return nil }), "TryGo without a limit")
	}
	require.NoError(t, g.Wait(nil))
	assert.Equal(t, int64(6), ran.Load())
}

// TestGroupSetLimitWhileActive checks that SetLimit panics while tasks of
// the group are active, as errgroup's does.
func TestGroupSetLimitWhileActive(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	g := p.NewGroup(context.Background())
	g.SetLimit(2)
	release := make(chan struct{})
	started := make(chan struct{})
	g.Go(nil, func(t *sched.Task) error {
		close(started)
		t.Block(func() { <-release })
		return nil
	})
	<-started
	assert.Equal(t, "sched: Group.SetLimit while 1 tasks of the group are active", schedtest.PanicValue(t, func() { g.SetLimit(5) }))
	close(release)
	require.NoError(t, g.Wait(nil))
}

// TestGroupOrderFromOutside checks that the tasks one goroutine starts
// from outside the pool start in the order it gave them, on a pool of one
// worker, where no thief takes any first.
func TestGroupOrderFromOutside(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1, Mode: mode})
		g := p.NewGroup(context.Background())
		var mu sync.Mutex
		var order []int
		const n = 3000 // more than a take of the entry
		for i := range n {
			g.Go(nil, func(*sched.Task) error {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				return nil
			})
		}
		require.NoError(t, g.Wait(nil))
		require.Len(t, order, n)
		for i, v := range order {
			require.Equal(t, i, v, "%v: the %dth task to start", mode, i)
		}
	}
}

// TestGroupLimitHandsOn checks that a Go outside tasks that waits for a
// token of its group's limit starts its task on the goroutine of the task
// whose token it takes, when that task ended after its Block without its
// worker. The task started there blocks without lending a worker, uses
// its Task (which takes a worker back), and ends. So one goroutine blocks
// at a time.
func TestGroupLimitHandsOn(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			g := p.NewGroup(context.Background())
			g.SetLimit(1)
			release := make(chan struct{})
			inBlock := make(chan struct{})
			var first, second atomic.Uint64
			g.Go(nil, func(t *sched.Task) error {
				t.Block(func() { close(inBlock); <-release })
				first.Store(atomicx.Goroutine())
				return nil
			})
			<-inBlock
			went := make(chan int)
			go func() {
				g.Go(nil, func(t *sched.Task) error {
					second.Store(atomicx.Goroutine())
					t.Block(func() {})
					x, y := sched.Join(t, double, 20, double, 21) // takes a worker back
					went <- x + y
					return nil
				})
			}()
			testenv.Eventually(t, "the second Go waits for the token", func() bool { return g.LimitWaiters() == 1 })
			close(release)
			assert.Equal(t, 82, <-went)
			require.NoError(t, g.Wait(nil))
			assert.Equal(t, first.Load(), second.Load(), "the goroutine of the second task")
			st := p.Close()
			assert.Equal(t, int64(2), st.Blocks)
			assert.Equal(t, 1, st.PeakBlocked, "goroutines blocked at once")
			assert.Equal(t, int64(3), st.Processed, "the two tasks and Join's g")
		})
	}
}

// TestGroupLimitHandsOnInOrder checks that the tasks one goroutine starts
// from outside the pool, at a limit of one, run one at a time in the
// order given, each handed on by the one before, and that a failing one
// stops the group as any task's failure does.
func TestGroupLimitHandsOnInOrder(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			g := p.NewGroup(context.Background())
			g.SetLimit(1)
			var order []int // one task at a time: no lock
			const n = 500
			for i := range n {
				g.Go(nil, func(t *sched.Task) error {
					t.Block(func() { order = append(order, i) })
					return nil
				})
			}
			require.NoError(t, g.Wait(nil))
			require.Len(t, order, n)
			for i, v := range order {
				require.Equal(t, i, v, "the %dth task to run", i)
			}

			g = p.NewGroup(context.Background())
			g.SetLimit(1)
			var ran atomic.Int64
			for i := range 100 {
				g.Go(nil, func(t *sched.Task) error {
					t.Block(func() {})
					ran.Add(1)
					if i == 10 {
						panic(schedtest.ErrBoom)
					}
					return nil
				})
			}
			assert.Equal(t, schedtest.ErrBoom, schedtest.PanicValue(t, func() { g.Wait(nil) }))
			assert.Equal(t, int64(11), ran.Load(), "the tasks after the panic do not run their function")
		})
	}
}

// TestGroupLimitQueues checks that a Go from outside tasks beyond the
// limit queues its task and returns, while fewer than the limit are
// queued, and that Wait waits for the queued tasks.
func TestGroupLimitQueues(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	g := p.NewGroup(context.Background())
	g.SetLimit(2)
	release := make(chan struct{})
	var in, ran atomic.Int64
	for range 2 {
		g.Go(nil, func(t *sched.Task) error {
			t.Block(func() { in.Add(1); <-release })
			return nil
		})
	}
	testenv.Eventually(t, "two tasks block", func() bool { return in.Load() == 2 })
	queued := make(chan struct{})
	go func() {
		for range 2 {
			g.Go(nil, func(*sched.Task) error { ran.Add(1); return nil })
		}
		close(queued)
	}()
	<-queued // the Gos returned while the limit's tasks still block
	assert.Equal(t, 2, g.LimitWaiters())
	assert.Zero(t, ran.Load())
	close(release)
	require.NoError(t, g.Wait(nil))
	assert.Equal(t, int64(2), ran.Load())
}

// TestGroupLimitRoomWakesAll: Gos from several goroutines outside tasks
// that wait for room among a limit's queued jobs all wake, however many
// wait at once, and every task runs once.
func TestGroupLimitRoomWakesAll(t *testing.T) {
	const submitters, each = 8, 50
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	g := p.NewGroup(context.Background())
	g.SetLimit(2) // two tasks run, two jobs queue, the rest wait for room
	release := make(chan struct{})
	var in atomic.Int64
	for range 2 {
		g.Go(nil, func(t *sched.Task) error {
			t.Block(func() { in.Add(1); <-release })
			return nil
		})
	}
	testenv.Eventually(t, "two tasks block", func() bool { return in.Load() == 2 })
	var ran [submitters * each]atomic.Int32
	var wg sync.WaitGroup
	wg.Add(submitters)
	for s := range submitters {
		go func() {
			defer wg.Done()
			for i := range each {
				g.Go(nil, func(*sched.Task) error { ran[s*each+i].Add(1); return nil })
			}
		}()
	}
	close(release)
	wg.Wait()
	require.NoError(t, g.Wait(nil))
	for i := range ran {
		require.Equal(t, int32(1), ran[i].Load(), "task %d", i)
	}
}
