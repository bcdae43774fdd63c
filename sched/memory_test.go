package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// The memory tests measure the live heap (after full collections) of a
// pool that has finished its work and is still referenced: a long-running
// program's pool must keep what its next tasks need, not what its past
// tasks made.

// heapGrowth returns by how many bytes the live heap grew since before.
func heapGrowth(before uint64) int64 { return int64(queuetest.LiveHeap()) - int64(before) }

// TestJoinedForksReleased: the results and arguments of forks that ran on
// another worker are not kept by the pool once they are joined, neither
// after Do returns nor after Close. A chaselev ring keeps the items that
// thieves took until its owner's next operation: a joined fork's record
// holds nothing then.
func TestJoinedForksReleased(t *testing.T) {
	const forks, size = 8, 4 << 20
	for _, mode := range sched.Modes() {
		for _, queue := range []string{"bq", "cl-ub"} {
			t.Run(fmt.Sprintf("%v/%s", mode, queue), func(t *testing.T) {
				testJoinedForksReleased(t, mode, queue, forks, size)
			})
		}
	}
}

func testJoinedForksReleased(t *testing.T, mode sched.Mode, queue string, forks int32, size int) {
	before := queuetest.LiveHeap()
	newQueue, err := catalog.Factory[sched.Job](queue)
	require.NoError(t, err)
	p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode, NewQueue: newQueue})
	require.NoError(t, err)
	var finished atomic.Int32
	alloc := func(t *sched.Task, arg []byte) []byte {
		defer finished.Add(1)
		return append(make([]byte, 0, size), arg[:1]...)
	}
	var total int
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
		fs := make([]sched.Future[[]byte], forks)
		for i := range fs {
			fs[i] = sched.Fork(t, alloc, make([]byte, size))
		}
		// This worker spins until all forks have finished, so
		// the other worker runs them, and the joins find them
		// finished: this worker's queue sees no operation of its
		// owner after the thief's.
		for finished.Load() < forks {
			runtime.Gosched()
		}
		for _, f := range fs {
			total += cap(f.Join(t))
		}
		return nil
	}))
	require.Equal(t, int(forks)*size, total)
	assert.Less(t, heapGrowth(before), int64(size), "live heap after Do returned: the pool keeps joined forks' results or arguments")
	p.Close()
	assert.Less(t, heapGrowth(before), int64(size), "live heap after Close")
	runtime.KeepAlive(p)
}

// TestDeepRecursionReleased: a worker gives back the task frames a deep
// fork chain made it grow, once it is back at depth zero.
func TestDeepRecursionReleased(t *testing.T) {
	const depth = 20_000
	before := queuetest.LiveHeap()
	p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
	require.NoError(t, err)
	var chain func(t *sched.Task, n int) int
	chain = func(t *sched.Task, n int) int {
		if n == 0 {
			return 0
		}
		return sched.Fork(t, chain, n-1).Join(t) + 1
	}
	var got int
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error { got = chain(t, depth); return nil }))
	require.Equal(t, depth, got)
	assert.Less(t, heapGrowth(before), int64(256<<10), "live heap after a fork chain %d deep", depth)
	p.Close()
	runtime.KeepAlive(p)
}

// TestIdleBuffersReleased: what a worker keeps to steal, receive and take
// tasks from outside into is bounded once it is idle, however large the
// fan-out it served, and a closed pool lets go of it all, queues included.
func TestIdleBuffersReleased(t *testing.T) {
	// The quick size, 50,000 tasks, fills a dozen blocks of 4096 tasks
	// (about 100 KB each): kept, they would be several times the bound.
	tasks := testenv.Size(200_000, 50_000, 200_000)
	noop := func(*sched.Task) error { return nil }
	for _, mode := range sched.Modes() {
		for _, from := range []string{"task", "outside"} {
			t.Run(fmt.Sprintf("%v/from=%s", mode, from), func(t *testing.T) {
				before := queuetest.LiveHeap()
				p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode})
				require.NoError(t, err)
				var ran atomic.Int64
				count := func(*sched.Task) error { ran.Add(1); return nil }
				if from == "task" {
					require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
						// The other worker is held in a task while this
						// one queues the fan-out, and then steals, or is
						// handed, half of it at once.
						g := t.NewGroup()
						var held atomic.Bool
						release := make(chan struct{})
						g.Go(t, func(*sched.Task) error { held.Store(true); <-release; return nil })
						for !held.Load() {
							runtime.Gosched()
						}
						for range tasks {
							g.Go(t, count)
						}
						close(release)
						return g.Wait(t)
					}))
				} else {
					g := p.NewGroup(context.Background())
					for range tasks {
						g.Go(nil, count)
					}
					require.NoError(t, g.Wait(nil))
				}
				require.Equal(t, int64(tasks), ran.Load())
				require.NoError(t, p.Do(context.Background(), noop))
				p.Close()
				// Closed, the pool keeps neither buffers nor queues (an
				// empty blockq queue alone keeps a block or two of 4096
				// tasks, about 100 KB each).
				assert.Less(t, heapGrowth(before), int64(256<<10), "live heap of a closed pool after a fan-out of %d tasks", tasks)
				runtime.KeepAlive(p)
			})
		}
	}
}

// TestJoinArgumentsReleased: a Join's record, reused for the next Join,
// keeps neither g's argument nor its result once Join returned, whether g
// ran as a call or on another worker.
func TestJoinArgumentsReleased(t *testing.T) {
	const size = 4 << 20
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			before := queuetest.LiveHeap()
			p, err := sched.NewPool(sched.PoolConfig{Workers: workers, Mode: sched.Random})
			require.NoError(t, err)
			var started atomic.Bool
			first := func(*sched.Task, []byte) int {
				for workers > 1 && !started.Load() {
					runtime.Gosched() // so that the other worker runs g
				}
				return 0
			}
			g := func(_ *sched.Task, arg []byte) []byte {
				started.Store(true)
				return append(make([]byte, 0, size), arg[:1]...)
			}
			var total int
			require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
				_, r := sched.Join(t, first, nil, g, make([]byte, size))
				total = cap(r)
				return nil
			}))
			require.Equal(t, size, total)
			assert.Less(t, heapGrowth(before), int64(size), "live heap after Do returned: the pool keeps a Join's argument or result")
			p.Close()
			runtime.KeepAlive(p)
		})
	}
}
