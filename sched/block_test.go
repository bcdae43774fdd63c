package sched_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/internal/schedstats"
	"github.com/worksteal/wsq/sched"
)

// computeMeanwhile starts 50 tasks that compute in g, and waits until they
// are all done (what names the wait): the workers must be free to run them.
func computeMeanwhile(t *testing.T, g *sched.Group, what string) {
	t.Helper()
	const computers = 50
	var computed atomic.Int64
	for range computers {
		g.Go(nil, func(t *sched.Task) error {
			if fib(t, 12) == fibValue(12) {
				computed.Add(1)
			}
			return nil
		})
	}
	testenv.Eventually(t, what, func() bool { return computed.Load() == computers })
}

// blockTree returns a task function that visits the node v of the tree of
// nodes 0..n-1 in which v has the children 3v+1 .. 3v+3 below n: it
// blocks in Task.Block, records v in tl, and then forks its first child,
// starts the others in a group, and joins them, so that blocking calls
// happen inside nested helping joins. It returns the size of v's subtree,
// and counts in moved the tasks whose worker changed across the call
// (none may).
func blockTree(n int, tl *tally, moved *atomic.Int64) func(*sched.Task, int) int {
	var visit func(t *sched.Task, v int) int
	visit = func(t *sched.Task, v int) int {
		id := t.WorkerID()
		t.Block(func() {
			tl.add(v)
			time.Sleep(time.Duration(v%3) * time.Microsecond)
		})
		if t.WorkerID() != id {
			moved.Add(1)
		}
		size := 1
		if c := 3*v + 1; c < n {
			f := sched.Fork(t, visit, c)
			var rest atomic.Int64
			g := t.NewGroup()
			for c := 3*v + 2; c <= 3*v+3 && c < n; c++ {
				g.Go(t, func(t *sched.Task) error {
					rest.Add(int64(visit(t, c)))
					return nil
				})
			}
			if err := g.Wait(t); err != nil {
				panic(err)
			}
			size += f.Join(t) + int(rest.Load())
		}
		return size
	}
	return visit
}

// TestBlockExactlyOnce runs a tree of tasks that each block once, with
// every queue, both modes, several worker counts and limits (1 leaves most
// calls uncompensated), and checks that each node ran exactly once, on one
// worker from start to end, and what Stats counts.
func TestBlockExactlyOnce(t *testing.T) {
	n := testenv.Size(400, 200, 3_000) // quick: a tree of six levels, 200 blocking calls a pool
	for kind, newQueue := range poolKinds() {
		for _, mode := range sched.Modes() {
			for _, workers := range []int{1, 2, 4} {
				for _, limit := range []int{0, 1} {
					t.Run(fmt.Sprintf("queue=%s/mode=%v/workers=%d/max=%d", kind, mode, workers, limit), func(t *testing.T) {
						p, err := sched.NewPool(sched.PoolConfig{NewQueue: newQueue, Mode: mode, Workers: workers, MaxBlocked: limit})
						require.NoError(t, err)
						tl := newTally(n)
						var moved atomic.Int64
						visit := blockTree(n, tl, &moved)
						var got int
						require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
							got = visit(t, 0)
							return nil
						}))
						st := p.Close()
						assert.Equal(t, n, got, "subtree sizes")
						assert.Zero(t, moved.Load(), "tasks that changed workers across Block")
						tl.check(t, st) // Do's task is node 0's
						assert.Equal(t, int64(n), st.Blocks)
						max := sched.DefaultMaxBlocked
						if limit > 0 {
							max = limit
						}
						assert.Positive(t, st.PeakBlocked, "some call lent its worker")
						if limit == 0 && n < sched.DefaultMaxBlocked {
							assert.Zero(t, st.BlockWaits)
							assert.LessOrEqual(t, int64(st.PeakBlocked), int64(max)+schedstats.Of(st).Compensations, "the joins' lends count too")
						}
					})
				}
			}
		}
	}
}

// TestBlockKeepsWorkersBusy blocks twice as many tasks as there are
// workers, all at once, and runs other tasks while they block: without
// compensation, the blocked tasks would hold every worker, the others
// would never run, and the test would hang. The other tasks' joins may
// lend their worker too, when they find nothing they may run: the peak
// counts them.
func TestBlockKeepsWorkersBusy(t *testing.T) {
	for _, mode := range sched.Modes() {
		for _, workers := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%v/workers=%d", mode, workers), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: workers})
				g := p.NewGroup(context.Background())
				release := make(chan struct{})
				var entered atomic.Int64
				blockers := 2 * workers
				for range blockers {
					g.Go(nil, func(t *sched.Task) error {
						t.Block(func() {
							entered.Add(1)
							<-release
						})
						return nil
					})
				}
				testenv.Eventually(t, "every blocker in Block", func() bool { return entered.Load() == int64(blockers) })
				computeMeanwhile(t, g, "the other tasks done while the blockers block")
				close(release)
				require.NoError(t, g.Wait(nil))
				st := p.Close()
				assert.Equal(t, int64(blockers), st.Blocks)
				assert.Zero(t, st.BlockWaits)
				assert.GreaterOrEqual(t, st.PeakBlocked, blockers)
				assert.LessOrEqual(t, int64(st.PeakBlocked), int64(blockers)+schedstats.Of(st).Compensations)
			})
		}
	}
}

// TestBlockBeyondLimit blocks more tasks at once than the limit: the
// limit's worth of them run their functions, the others wait for a slot,
// and the workers go on running other tasks meanwhile (without that, every
// worker would wait and the test would hang). No more functions than the
// limit run at once. Then many more calls than the limit, each short, all
// run.
func TestBlockBeyondLimit(t *testing.T) {
	const workers, limit = 2, 3
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: workers, MaxBlocked: limit})
			g := p.NewGroup(context.Background())
			release := make(chan struct{})
			var entered, running, most atomic.Int64
			call := func(f func()) {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				f()
				running.Add(-1)
			}
			const blockers = workers + limit
			for range blockers {
				g.Go(nil, func(t *sched.Task) error {
					t.Block(func() {
						call(func() {
							entered.Add(1)
							<-release
						})
					})
					return nil
				})
			}
			testenv.Eventually(t, "limit tasks in Block's function", func() bool { return entered.Load() == limit })
			computeMeanwhile(t, g, "the other tasks done while calls wait for a slot")
			assert.Equal(t, int64(limit), entered.Load(), "functions running beyond the limit")
			close(release)
			require.NoError(t, g.Wait(nil))
			assert.Equal(t, int64(blockers), entered.Load())

			const many = 200
			var ran atomic.Int64
			g = p.NewGroup(context.Background())
			for range many {
				g.Go(nil, func(t *sched.Task) error {
					t.Block(func() { call(func() { time.Sleep(10 * time.Microsecond) }) })
					ran.Add(1)
					return nil
				})
			}
			require.NoError(t, g.Wait(nil))
			assert.Equal(t, int64(many), ran.Load())

			st := p.Close()
			assert.Equal(t, int64(blockers+many), st.Blocks)
			assert.GreaterOrEqual(t, st.BlockWaits, int64(blockers-limit), "the calls beyond the limit wait")
			assert.LessOrEqual(t, most.Load(), int64(limit), "functions running at once")
			assert.GreaterOrEqual(t, st.PeakBlocked, blockers, "the waiting calls lent their workers")
		})
	}
}

// TestBlockGoroutinesReturn checks that after a burst of blocking calls
// and two garbage collections, the pool is back to one goroutine per
// worker, plus at most one parked spare per worker, with no goroutine
// blocked; Close ends them all (TestMain checks for leaks).
func TestBlockGoroutinesReturn(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			const workers, tasks = 3, 300
			p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
			require.NoError(t, err)
			for range 3 {
				g := p.NewGroup(context.Background())
				for range tasks {
					g.Go(nil, func(t *sched.Task) error {
						t.Block(func() { time.Sleep(100 * time.Microsecond) })
						return nil
					})
				}
				require.NoError(t, g.Wait(nil))
				testenv.Eventually(t, "the blocked goroutines retired", func() bool {
					all, spares, blocked, _ := p.Goroutines()
					return blocked == 0 && all-spares == workers
				})
				testenv.Eventually(t, "the spares beyond one per worker ended", func() bool {
					runtime.GC() // the second collection after the burst ends them
					_, spares, _, maxSpares := p.Goroutines()
					return spares <= maxSpares
				})
				_, spares, _, maxSpares := p.Goroutines()
				assert.Equal(t, workers, maxSpares)
				assert.LessOrEqual(t, spares, maxSpares)
			}
			st := p.Close()
			assert.Equal(t, int64(3*tasks), st.Blocks)
			assert.Greater(t, st.PeakBlocked, 1)
			all, spares, _, _ := p.Goroutines()
			assert.Zero(t, all, "goroutines after Close")
			assert.Zero(t, spares)
		})
	}
}

// TestBlockReusesGoroutines checks that a goroutine whose Block is over
// parks as a spare while other Blocks go on, that the next Blocks take
// those spares rather than start goroutines, and that the spares beyond
// one per worker end once no Block runs, at the garbage collections.
func TestBlockReusesGoroutines(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			const workers, half = 2, 50
			p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
			require.NoError(t, err)
			g := p.NewGroup(context.Background())
			var in atomic.Int64 // Block functions running
			blockOn := func(ch chan struct{}) {
				for range half {
					g.Go(nil, func(t *sched.Task) error {
						t.Block(func() { in.Add(1); <-ch; in.Add(-1) })
						return nil
					})
				}
			}
			first, second, third := make(chan struct{}), make(chan struct{}), make(chan struct{})
			blockOn(first)
			blockOn(second)
			testenv.Eventually(t, "every Block runs", func() bool { return in.Load() == 2*half })
			testenv.Eventually(t, "goroutines: the workers' and the blocked ones", func() bool {
				all, _, _, _ := p.Goroutines()
				return all == workers+2*half
			})
			close(first)
			testenv.Eventually(t, "the first half parked as spares", func() bool {
				_, spares, blocked, _ := p.Goroutines()
				return blocked == half && spares == half
			})
			blockOn(third)
			testenv.Eventually(t, "the third half blocks", func() bool { return in.Load() == 2*half })
			all, spares, blocked, _ := p.Goroutines()
			assert.Equal(t, workers+2*half, all, "goroutines: the new Blocks took the spares")
			assert.Zero(t, spares)
			assert.Equal(t, 2*half, blocked)
			close(second)
			close(third)
			require.NoError(t, g.Wait(nil))
			testenv.Eventually(t, "one goroutine per worker, and its spare", func() bool {
				runtime.GC()
				all, spares, blocked, maxSpares := p.Goroutines()
				return blocked == 0 && all-spares == workers && spares <= maxSpares
			})
			st := p.Close()
			assert.Equal(t, int64(3*half), st.Blocks)
			all, spares, _, _ = p.Goroutines()
			assert.Zero(t, all, "goroutines after Close")
			assert.Zero(t, spares)
		})
	}
}

// TestBlockPanic checks that a panic in Block's function is the task's:
// it reaches Do's caller as a *PanicError with the panic's stack, or the
// task recovers it itself and goes on with its worker.
func TestBlockPanic(t *testing.T) {
	for _, limit := range []int{0, 1} {
		for _, mode := range sched.Modes() {
			t.Run(fmt.Sprintf("%v/max=%d", mode, limit), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 2, MaxBlocked: limit})
				if limit == 1 {
					// Take the one slot a while, so that the first panic
					// below may come from a call that waited for it.
					hold := make(chan struct{})
					g := p.NewGroup(context.Background())
					entered := make(chan struct{})
					g.Go(nil, func(t *sched.Task) error {
						t.Block(func() { close(entered); <-hold })
						return nil
					})
					<-entered
					go func() {
						time.Sleep(time.Millisecond)
						close(hold)
					}()
					defer func() { assert.NoError(t, g.Wait(nil)) }()
				}
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						t.Block(func() { panic(schedtest.ErrBoom) })
						return nil
					})
				})
				require.False(t, e.Returned)
				pe, ok := e.Recovered.(*sched.PanicError)
				require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
				assert.Equal(t, schedtest.ErrBoom, pe.Value)
				assert.Contains(t, string(pe.Stack), "TestBlockPanic", "the stack is the panic's")

				var got, r any
				require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
					id := t.WorkerID()
					r = func() (r any) {
						defer func() { r = recover() }()
						t.Block(func() { panic(schedtest.ErrBoom) })
						return nil
					}()
					if t.WorkerID() != id {
						return errors.New("the task changed workers")
					}
					got = sched.Fork(t, double, 21).Join(t)
					return nil
				}))
				assert.Equal(t, schedtest.ErrBoom, r, "the task recovers the panic of its Block's function as it is")
				assert.Equal(t, 42, got, "the task goes on with its worker")
			})
		}
	}
}

// TestBlockGoexit checks runtime.Goexit in Block's function (t.FailNow in a
// test): it ends the task, Do's caller ends by Goexit, and the pool goes on
// with one goroutine per worker.
func TestBlockGoexit(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			const workers = 2
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: workers})
			for range 5 {
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						x := sched.Fork(t, func(t *sched.Task, n int) int {
							t.Block(func() { runtime.Goexit() })
							return n
						}, 1)
						return errors.New("not reached: " + fmt.Sprint(x.Join(t)))
					})
				})
				assert.False(t, e.Returned, "Do returned")
				assert.Nil(t, e.Recovered, "Do panicked")
				requireFib(t, p, fib)
			}
			testenv.Eventually(t, "one goroutine per worker", func() bool {
				all, spares, blocked, _ := p.Goroutines()
				return blocked == 0 && all-spares == workers
			})
		})
	}
}

// TestBlockMisuse checks that Block's function cannot use a Task, and the
// other misuses of Block.
func TestBlockMisuse(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	inside := func(op string, use func(t *sched.Task)) {
		got := schedtest.PanicValue(t, func() {
			_ = p.Do(ctx, func(t *sched.Task) error {
				t.Block(func() { use(t) })
				return nil
			})
		})
		assert.Equal(t, "sched: "+op+" in the function of a Task.Block: its goroutine runs no task while it blocks; use the Task before or after the call", got)
	}
	inside("Fork", func(t *sched.Task) { sched.Fork(t, double, 1) })
	inside("Task.Block", func(t *sched.Task) { t.Block(func() {}) })
	inside("Task.Context", func(t *sched.Task) { t.Context() })
	inside("Task.WorkerID", func(t *sched.Task) { t.WorkerID() })
	inside("Group.Wait", func(t *sched.Task) { _ = p.NewGroup(ctx).Wait(t) })

	assert.Equal(t, "sched: Task.Block with a nil function", schedtest.PanicValue(t, func() {
		_ = p.Do(ctx, func(t *sched.Task) error { t.Block(nil); return nil })
	}))
	assert.Contains(t, schedtest.PanicValue(t, func() { (*sched.Task)(nil).Block(func() {}) }), "sched: Task.Block with a nil Task")
	var saved *sched.Task
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { saved = t; return nil }))
	assert.Contains(t, schedtest.PanicValue(t, func() { saved.Block(func() {}) }), "sched: Task.Block with a Task of another goroutine")
	assert.Equal(t, "sched: Pool.Close called by a task, which would wait for itself", schedtest.PanicValue(t, func() {
		_ = p.Do(ctx, func(t *sched.Task) error { t.Block(func() { p.Close() }); return nil })
	}), "Close in Block's function would wait for the task")
}

// TestBlockUsesPoolFromOutside checks that Block's function may use the
// pool as a goroutine outside it would, even with one worker: the worker
// runs the tasks it starts while it blocks.
func TestBlockUsesPoolFromOutside(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 1})
			var got, inner int
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
				t.Block(func() {
					if err := p.Do(ctx, func(t *sched.Task) error { inner = fib(t, 12); return nil }); err != nil {
						panic(err)
					}
				})
				got = fib(t, 10)
				return nil
			}))
			assert.Equal(t, fibValue(12), inner)
			assert.Equal(t, fibValue(10), got)
		})
	}
}

// TestBlockCancel checks that a blocking call that watches its task's
// context ends when the group is cancelled by another task's error.
func TestBlockCancel(t *testing.T) {
	errStop := errors.New("stop")
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 1})
			g := p.NewGroup(context.Background())
			entered := make(chan struct{})
			var cause error
			g.Go(nil, func(t *sched.Task) error {
				ctx := t.Context()
				t.Block(func() {
					close(entered)
					<-ctx.Done()
				})
				cause = context.Cause(ctx)
				return ctx.Err()
			})
			<-entered
			g.Go(nil, func(*sched.Task) error { return errStop })
			assert.ErrorIs(t, g.Wait(nil), errStop)
			assert.ErrorIs(t, cause, errStop)
		})
	}
}

// TestBlockSpace checks the space bound of the package documentation for
// a run with blocking calls: the queued tasks stay within S_1·(P+B), where
// S_1 is the longest queue of the serial run (n/2 for fib(n)) and B is
// Stats.PeakBlocked. Every call of the recursion blocks, before it forks.
func TestBlockSpace(t *testing.T) {
	const n = 16
	var fibBlock func(t *sched.Task, n int) int
	fibBlock = func(t *sched.Task, n int) int {
		t.Block(func() { time.Sleep(time.Microsecond) })
		if n < 2 {
			return n
		}
		x := sched.Fork(t, fibBlock, n-1)
		y := fibBlock(t, n-2)
		return x.Join(t) + y
	}
	for _, mode := range sched.Modes() {
		for _, workers := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%v/workers=%d", mode, workers), func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
				require.NoError(t, err)
				var got int
				require.NoError(t, p.Do(ctx, func(t *sched.Task) error { got = fibBlock(t, n); return nil }))
				st := p.Close()
				require.Equal(t, fibValue(n), got)
				sum := 0
				for _, ws := range st.PerWorker {
					sum += ws.MaxLen
				}
				assert.LessOrEqual(t, sum, n/2*(workers+st.PeakBlocked), "S_P <= S_1·(P+B), B = %d", st.PeakBlocked)
			})
		}
	}
}

// TestBlockEndsUnseated runs tasks at depth zero that end in each way
// after a Block whose function returned, while the goroutine that took
// the worker runs other tasks. Those that need no worker to end (return,
// panic) end without taking it back; those that do (a fork or a group
// left to wait for, a Goexit, a use of t) take it back first. Each task is
// in a group of its own, so that a failure stops no other. Each task runs
// once, Stats counts each, each failure reaches its group's Wait, and the
// pool is back to one goroutine per worker.
func TestBlockEndsUnseated(t *testing.T) {
	ends := []string{"return", "panic", "goexit", "fork left", "group left", "use of t"}
	for _, mode := range sched.Modes() {
		for _, end := range ends {
			t.Run(fmt.Sprintf("%v/%s", mode, end), func(t *testing.T) {
				const workers, tasks = 2, 200
				p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
				require.NoError(t, err)
				var ran, forked, moved atomic.Int64
				groups := make([]*sched.Group, tasks)
				for i := range tasks {
					groups[i] = p.NewGroup(context.Background())
					groups[i].Go(nil, func(t *sched.Task) error {
						switch end {
						case "fork left":
							sched.Fork(t, func(*sched.Task, int) int { forked.Add(1); return 0 }, 0)
						case "group left":
							t.NewGroup().Go(t, func(*sched.Task) error { forked.Add(1); return nil })
						}
						id := t.WorkerID()
						t.Block(func() { time.Sleep(time.Duration(i%3) * 10 * time.Microsecond) })
						ran.Add(1)
						switch end {
						case "panic":
							if i%2 == 0 {
								panic(schedtest.ErrBoom)
							}
						case "goexit":
							if i%2 == 0 {
								runtime.Goexit()
							}
						case "use of t":
							if t.WorkerID() != id {
								moved.Add(1)
							}
							forked.Add(int64(sched.Fork(t, double, 1).Join(t) / 2))
							g := t.NewGroup() // its task goes into the worker's queue
							g.Go(t, func(*sched.Task) error { forked.Add(1); return nil })
							return g.Wait(t)
						}
						return nil
					})
				}
				for i, g := range groups {
					e := schedtest.CallInGoroutine(t, func() { require.NoError(t, g.Wait(nil)) })
					switch {
					case end == "panic" && i%2 == 0:
						pe, ok := e.Recovered.(*sched.PanicError)
						require.True(t, ok, "task %d: Wait panicked with %T %v", i, e.Recovered, e.Recovered)
						assert.Equal(t, schedtest.ErrBoom, pe.Value)
					case end == "goexit" && i%2 == 0:
						assert.False(t, e.Returned, "task %d: Wait returned", i)
						assert.Nil(t, e.Recovered, "task %d: Wait panicked", i)
					default:
						assert.True(t, e.Returned, "task %d: Wait did not return", i)
					}
				}
				assert.Equal(t, int64(tasks), ran.Load(), "tasks past their Block")
				switch end {
				case "fork left", "group left":
					assert.Equal(t, int64(tasks), forked.Load(), "forks and group tasks")
				case "use of t":
					assert.Equal(t, int64(2*tasks), forked.Load(), "forks and group tasks")
				}
				assert.Zero(t, moved.Load(), "tasks that changed workers across Block")
				testenv.Eventually(t, "one goroutine per worker", func() bool {
					all, spares, blocked, _ := p.Goroutines()
					return blocked == 0 && all-spares == workers
				})
				st := p.Close()
				per := int64(0)
				for _, ws := range st.PerWorker {
					per += ws.Processed
				}
				switch end {
				case "return", "panic":
					assert.Equal(t, int64(tasks), st.Processed, "Stats counts every task")
				case "goexit":
					assert.Equal(t, int64(tasks/2), st.Processed, "Stats counts every task but those a Goexit ended")
				case "group left":
					assert.Equal(t, int64(2*tasks), st.Processed, "Stats counts every task")
				case "fork left":
					assert.GreaterOrEqual(t, st.Processed, int64(2*tasks), "Stats counts every task")
				default: // a fork its join takes back counts once more than its task
					assert.GreaterOrEqual(t, st.Processed, int64(3*tasks), "Stats counts every task")
				}
				assert.Equal(t, st.Processed, per, "sum of PerWorker.Processed")
				assert.Equal(t, int64(tasks), st.Blocks)
			})
		}
	}
}

// TestBlockKeepsNoFunction: Block does not keep its function, so a
// closure over the caller's variables stays on the caller's stack, seated
// or unseated. A closure costs what a function of no variables costs.
// Other goroutines allocate meanwhile too (the worker's, the runtime's),
// and a seated Block's count varies with what its lent worker finds.
// Each figure is the least mean of a few measures, and a closure may
// cost up to half an allocation more per Block; one that escaped would
// cost a whole one more.
func TestBlockKeepsNoFunction(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
		n := 0
		const runs, measures = 100, 5
		least := func(f func()) float64 {
			f() // as testing.AllocsPerRun does: a first call that is not counted
			m := math.Inf(1)
			for range measures {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range runs {
					f()
				}
				runtime.ReadMemStats(&after)
				m = min(m, float64(after.Mallocs-before.Mallocs)/runs)
			}
			return m
		}
		for _, seated := range []bool{true, false} {
			blocks := func(f func()) func() {
				return func() {
					if seated {
						tk.WorkerID() // takes the worker back: the next Block lends it
					}
					tk.Block(f)
				}
			}
			none := least(blocks(func() {}))
			closure := least(func() {
				if seated {
					tk.WorkerID()
				}
				tk.Block(func() { n++ })
			})
			assert.Less(t, closure, none+0.5, "allocations per Block of a closure, seated %v", seated)
		}
		assert.Equal(t, 2*(1+measures*runs), n)
		return nil
	}))
}

// TestBlockSparesOutlastBurst checks that the goroutines of a burst of
// Blocks stay parked for the next burst, whose Blocks run on them rather
// than on new goroutines, while no garbage collection runs; and that the
// collections after the bursts end the spares beyond one per worker.
func TestBlockSparesOutlastBurst(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection but ours
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			const workers, n = 2, 40
			p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: workers})
			require.NoError(t, err)
			runtime.GC()
			runtime.GC() // the collections of the pools before are over
			burst := func() map[int64]bool {
				g := p.NewGroup(context.Background())
				release := make(chan struct{})
				var mu sync.Mutex
				ran := map[int64]bool{} // the goroutines of the Blocks
				for range n {
					g.Go(nil, func(t *sched.Task) error {
						t.Block(func() {
							mu.Lock()
							ran[goid()] = true
							mu.Unlock()
							<-release
						})
						return nil
					})
				}
				testenv.Eventually(t, "every Block runs", func() bool {
					mu.Lock()
					defer mu.Unlock()
					return len(ran) == n
				})
				close(release)
				require.NoError(t, g.Wait(nil))
				testenv.Eventually(t, "the burst's goroutines parked", func() bool {
					all, spares, blocked, _ := p.Goroutines()
					return blocked == 0 && all-spares == workers
				})
				return ran
			}
			first := burst()
			_, spares, _, maxSpares := p.Goroutines()
			assert.GreaterOrEqual(t, spares, n-workers, "the first burst's goroutines, parked")
			second := burst()
			fresh := 0
			for id := range second {
				if !first[id] {
					fresh++
				}
			}
			// A Block of the second burst may run on a goroutine that held
			// a worker in the first, and one of the first may hold a worker
			// now: at most one per worker is not a spare of the first.
			assert.LessOrEqual(t, fresh, workers, "Blocks of the second burst on goroutines the first did not leave")
			testenv.Eventually(t, "the spares beyond one per worker ended", func() bool {
				runtime.GC() // each collection's cleanup arms the next one's, after it
				_, spares, _, _ := p.Goroutines()
				return spares <= maxSpares
			})
			p.Close()
		})
	}
}

// goid returns the calling goroutine's number, which the runtime never
// gives another goroutine, from its stack's first line.
func goid() int64 {
	var buf [64]byte
	line := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	id, err := strconv.ParseInt(line[:strings.IndexByte(line, ' ')], 10, 64)
	if err != nil {
		panic(err)
	}
	return id
}
