package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// idleStats returns p.Stats once it counts want tasks: a worker publishes
// its figures when it next looks for work, just after its last task.
func idleStats(t *testing.T, p *sched.Pool, want int64) sched.Stats {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := p.Stats()
		if st.Processed == want {
			return st
		}
		require.Less(t, st.Processed, want, "Stats counts more tasks than ran")
		require.True(t, time.Now().Before(deadline), "Stats counts %d of %d tasks, 10 s after the last returned", st.Processed, want)
		time.Sleep(100 * time.Microsecond)
	}
}

// withoutIdleWait returns st without its wall-clock waits and without
// what only Close counts (the mode's own figures).
func withoutIdleWait(st sched.Stats) sched.Stats {
	c := sched.Stats{WorkerStats: st.WorkerStats, Blocks: st.Blocks, BlockWaits: st.BlockWaits, PeakBlocked: st.PeakBlocked}
	c.IdleWait = 0
	for _, w := range st.PerWorker {
		w.IdleWait = 0
		c.PerWorker = append(c.PerWorker, w)
	}
	return c
}

// TestPoolStatsExactOnceIdle runs fork-join work and blocking tasks, and
// checks that the snapshot of the idle pool is what Close returns: every
// figure equal, but IdleWait, which counts only the waits that ended.
// After Close, Stats returns Close's Stats.
func TestPoolStatsExactOnceIdle(t *testing.T) {
	n := testenv.Size(14, 14, 18)
	for _, mode := range sched.Modes() {
		for _, workers := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("mode=%v/workers=%d", mode, workers), func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
				require.NoError(t, err)
				assert.Zero(t, p.Stats().Processed, "a new pool ran nothing")
				want := int64(0)
				for round := range 3 {
					require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
						fibJoin(tk, n)
						tk.Block(func() {})
						return nil
					}))
					want += fibForks(n) + 1
					st := idleStats(t, p, want)
					assert.Equal(t, int64(round+1), st.Blocks, "Blocks")
				}
				live := p.Stats()
				closed := p.Close()
				assert.Equal(t, withoutIdleWait(closed), withoutIdleWait(live), "the idle pool's snapshot is exact")
				assert.LessOrEqual(t, live.IdleWait, closed.IdleWait, "IdleWait")
				for i, w := range live.PerWorker {
					assert.LessOrEqual(t, w.IdleWait, closed.PerWorker[i].IdleWait, "worker %d's IdleWait", i)
				}
				assert.Equal(t, closed, p.Stats(), "Stats after Close")
			})
		}
	}
}

// TestPoolStatsWhileRunning reads the Stats from several goroutines while
// the pool runs tasks that fork, join and block, as a service that
// watches its pool does. Under the race detector, a read of a figure that
// a worker writes is reported. No figure a worker publishes may fall, and
// none may pass what ran.
func TestPoolStatsWhileRunning(t *testing.T) {
	n := testenv.Size(12, 12, 16)
	rounds := testenv.Size(20, 20, 100)
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: 3})
			require.NoError(t, err)
			var ran atomic.Int64 // tasks that returned, counted before they return
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					last := p.Stats()
					for {
						select {
						case <-stop:
							return
						default:
						}
						st := p.Stats()
						assert.LessOrEqual(t, st.Processed, ran.Load(), "Processed passes the tasks that returned")
						assert.GreaterOrEqual(t, st.Blocks, last.Blocks, "Blocks fell")
						for i, w := range st.PerWorker {
							was := last.PerWorker[i]
							assert.GreaterOrEqual(t, w.Processed, was.Processed, "worker %d: Processed fell", i)
							assert.GreaterOrEqual(t, w.Steals, was.Steals, "worker %d: Steals fell", i)
							assert.GreaterOrEqual(t, w.Moved, was.Moved, "worker %d: Moved fell", i)
							assert.GreaterOrEqual(t, w.MaxLen, was.MaxLen, "worker %d: MaxLen fell", i)
							assert.GreaterOrEqual(t, w.IdleWait, was.IdleWait, "worker %d: IdleWait fell", i)
						}
						last = st
						runtime.Gosched()
					}
				}()
			}
			var fib func(tk *sched.Task, n int) int
			fib = func(tk *sched.Task, n int) int {
				defer ran.Add(1)
				if n < 2 {
					return n
				}
				if n%5 == 0 {
					tk.Block(func() {})
				}
				x := sched.Fork(tk, fib, n-1)
				return fib(tk, n-2) + x.Join(tk)
			}
			for range rounds {
				require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
					defer ran.Add(1)
					assert.Equal(t, fibValue(n), fib(tk, n))
					return nil
				}))
			}
			close(stop)
			wg.Wait()
			st := p.Close()
			assert.Equal(t, int64(rounds)*(fibForks(n)+1), st.Processed, "every fork and every Do is one task")
		})
	}
}
