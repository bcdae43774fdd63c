package sched_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// poolKinds returns the queue factories of kinds for a Pool's items.
func poolKinds() map[string]func() wsq.Queue[sched.Job] {
	m := map[string]func() wsq.Queue[sched.Job]{}
	for name := range kinds() {
		if name == "handoff" || name == "mutex-cap4" {
			continue
		}
		m[name] = mustFactory[sched.Job](name)
	}
	m["default"] = nil
	return m
}

// fib is the fork-join Fibonacci of the package documentation, without a
// cutoff.
func fib(t *sched.Task, n int) int {
	if n < 2 {
		return n
	}
	x := sched.Fork(t, fib, n-1)
	y := fib(t, n-2)
	return x.Join(t) + y
}

// fibValue and fibCalls are fib(n) and the number of its calls with n >= 2,
// the calls that fork.
func fibValue(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}

func fibForks(n int) int64 { return int64(fibValue(n+1)) - 1 }

// requireFib computes fib(15) on p with fib (written with Fork or with
// Join) and stops the test unless Do returns the right value: the pool
// works.
func requireFib(t *testing.T, p *sched.Pool, fib func(*sched.Task, int) int) {
	t.Helper()
	var got int
	require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
		got = fib(tk, 15)
		return nil
	}))
	require.Equal(t, fibValue(15), got, "fib(15) on the pool")
}

// TestPoolFib computes fib on every queue, in both modes, with one to four
// workers, written with Fork and Future.Join and with Join (whose g is
// one task, stolen or not), and checks the result and that every forked
// task ran once (Stats.Processed).
func TestPoolFib(t *testing.T) {
	n := testenv.Size(14, 14, 18)
	styles := map[string]func(*sched.Task, int) int{"Fork": fib, "Join": fibJoin}
	for kind, newQueue := range poolKinds() {
		for _, mode := range sched.Modes() {
			for _, workers := range []int{1, 2, 4} {
				for style, fib := range styles {
					t.Run(fmt.Sprintf("queue=%s/mode=%v/workers=%d/%s", kind, mode, workers, style), func(t *testing.T) {
						p, err := sched.NewPool(sched.PoolConfig{NewQueue: newQueue, Mode: mode, Workers: workers})
						require.NoError(t, err)
						assert.Equal(t, workers, p.Workers())
						for range 3 {
							var got int
							require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
								got = fib(t, n)
								return nil
							}))
							assert.Equal(t, fibValue(n), got)
						}
						st := p.Close()
						assert.Equal(t, 3*(fibForks(n)+1), st.Processed, "every fork and every Do is one task")
						assert.Equal(t, st, p.Close(), "a second Close returns the same")
						var per int64
						for _, w := range st.PerWorker {
							per += w.Processed
						}
						assert.Equal(t, st.Processed, per)
					})
				}
			}
		}
	}
}

// TestPoolProducers starts tasks from many goroutines outside the pool at
// once, into one group, while the workers are busy with them.
func TestPoolProducers(t *testing.T) {
	const producers, each = 8, 500
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 3})
			g := p.NewGroup(context.Background())
			seen := make([]atomic.Int32, producers*each)
			var wg sync.WaitGroup
			for i := range producers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for j := range each {
						g.Go(nil, func(t *sched.Task) error {
							seen[i*each+j].Add(1)
							fib(t, 5) // some forks of its own
							return nil
						})
					}
				}()
			}
			wg.Wait()
			require.NoError(t, g.Wait(nil))
			for i := range seen {
				require.Equal(t, int32(1), seen[i].Load(), "task %d", i)
			}
		})
	}
}

// TestGroupGrows adds tasks to a group from its own tasks, as a directory
// walk adds a task per subdirectory: Wait waits for all of them.
func TestGroupGrows(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 4})
			var nodes atomic.Int64
			err := p.Do(context.Background(), func(t *sched.Task) error {
				g := t.NewGroup()
				var visit func(t *sched.Task, depth int) error
				visit = func(t *sched.Task, depth int) error {
					nodes.Add(1)
					if depth < 9 {
						for range 2 {
							g.Go(t, func(t *sched.Task) error { return visit(t, depth+1) })
						}
					}
					return nil
				}
				g.Go(t, func(t *sched.Task) error { return visit(t, 0) })
				return g.Wait(t)
			})
			require.NoError(t, err)
			assert.Equal(t, int64(1<<10-1), nodes.Load())
		})
	}
}

// TestGroupError checks errgroup's semantics: the first error cancels the
// group's context, the others still run, and Wait returns the first error
// and cancels the context.
func TestGroupError(t *testing.T) {
	errFirst := errors.New("first")
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 2})
			g := p.NewGroup(context.Background())
			var ran, sawCancel atomic.Int32
			g.Go(nil, func(*sched.Task) error { return errFirst })
			<-g.Context().Done() // the error cancelled the context
			for range 10 {
				g.Go(nil, func(t *sched.Task) error {
					ran.Add(1)
					if t.Context().Err() != nil {
						sawCancel.Add(1)
					}
					return errors.New("later")
				})
			}
			err := g.Wait(nil)
			require.ErrorIs(t, err, errFirst)
			assert.Equal(t, int32(10), ran.Load(), "errors do not stop the group")
			assert.Equal(t, int32(10), sawCancel.Load(), "the first error cancelled the context")
			assert.ErrorIs(t, context.Cause(g.Context()), errFirst)

			g = p.NewGroup(context.Background())
			g.Go(nil, func(*sched.Task) error { return nil })
			require.NoError(t, g.Wait(nil))
			assert.ErrorIs(t, g.Context().Err(), context.Canceled, "Wait cancels the context")
		})
	}
}

// TestPoolContext checks that tasks see the context of their group, and
// forked tasks that of their parent.
func TestPoolContext(t *testing.T) {
	type key struct{}
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	err := p.Do(ctx, func(tk *sched.Task) error {
		assert.Equal(t, "v", tk.Context().Value(key{}))
		f := sched.Fork(tk, func(tk *sched.Task, _ int) any { return tk.Context().Value(key{}) }, 0)
		assert.Equal(t, "v", f.Join(tk))
		cancel()
		f2 := sched.Fork(tk, func(tk *sched.Task, _ int) error { return tk.Context().Err() }, 0)
		assert.ErrorIs(t, f2.Join(tk), context.Canceled)
		return nil
	})
	require.NoError(t, err)
}

// TestForkPanic checks that a panic in a forked task reaches Join, then the
// task that joined and so on up to Do's caller, as the first *PanicError
// with the original value and stack, and that the pool works afterwards.
func TestForkPanic(t *testing.T) {
	for kind, newQueue := range poolKinds() {
		for _, mode := range sched.Modes() {
			t.Run(fmt.Sprintf("queue=%s/mode=%v", kind, mode), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{NewQueue: newQueue, Mode: mode, Workers: 4})
				var forks atomic.Int64
				var boom func(t *sched.Task, n int) int
				boom = func(t *sched.Task, n int) int {
					if n == 3 {
						panic(schedtest.ErrBoom)
					}
					if n < 2 {
						return n
					}
					forks.Add(1)
					x := sched.Fork(t, boom, n-1)
					y := boom(t, n-2)
					return x.Join(t) + y
				}
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						boom(t, 15)
						return nil
					})
				})
				require.False(t, e.Returned)
				pe, ok := e.Recovered.(*sched.PanicError)
				require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
				assert.Equal(t, schedtest.ErrBoom, pe.Value)
				assert.Contains(t, string(pe.Stack), "TestForkPanic", "the stack is the panicking task's")

				requireFib(t, p, fib) // the pool works after a panic
				st := p.Close()
				assert.Equal(t, forks.Load()+1+fibForks(15)+1, st.Processed, "every forked task ran once, none was lost")
			})
		}
	}
}

// TestGroupPanic checks that a panic stops the group: tasks that have not
// started are not run, and Wait panics once the others have finished. With
// one worker the order is known: the newest task runs first and panics, and
// no other runs.
func TestGroupPanic(t *testing.T) {
	for _, mode := range sched.Modes() {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("mode=%v/workers=%d", mode, workers), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: workers})
				const tasks = 1000
				var ran atomic.Int32
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						g := t.NewGroup()
						for i := range tasks {
							g.Go(t, func(*sched.Task) error {
								ran.Add(1)
								if i == tasks-1 {
									panic("stop")
								}
								return nil
							})
						}
						return g.Wait(t)
					})
				})
				pe, ok := e.Recovered.(*sched.PanicError)
				require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
				assert.Equal(t, "stop", pe.Value)
				if workers == 1 {
					assert.Equal(t, int32(1), ran.Load(), "only the task that panicked ran")
				}
			})
		}
	}
}

// TestPoolGoexit checks runtime.Goexit in a task (t.FailNow, t.Fatal): Do
// calls runtime.Goexit in its caller rather than waiting forever, in both
// modes, with four workers, from a task nested in helping waits; the pool
// goes on with a new goroutine for the worker, and Close waits for the
// tasks that the ended ones left running.
func TestPoolGoexit(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := sched.NewPool(sched.PoolConfig{Mode: mode, Workers: 4})
			require.NoError(t, err)
			var exit func(t *sched.Task, n int) int
			exit = func(t *sched.Task, n int) int {
				if n == 4 {
					runtime.Goexit()
				}
				if n < 2 {
					return n
				}
				x := sched.Fork(t, exit, n-1)
				y := exit(t, n-2)
				return x.Join(t) + y
			}
			for range 3 {
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						exit(t, 16)
						return nil
					})
				})
				assert.False(t, e.Returned, "Do returned")
				assert.Nil(t, e.Recovered, "Do panicked")
			}
			st := p.Close()
			assert.Len(t, st.PerWorker, 4)
			assert.Positive(t, st.Processed)
		})
	}
}

// TestPoolAfterGoexit checks that the workers whose goroutines a Goexit
// ended work on: a task alone on its worker calls runtime.Goexit, and a
// computation after it runs as it should, many times over.
func TestPoolAfterGoexit(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Mode: mode, Workers: 4})
			for range 20 {
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(*sched.Task) error {
						runtime.Goexit()
						return nil
					})
				})
				require.False(t, e.Returned, "Do returned")
				require.Nil(t, e.Recovered, "Do panicked")
				requireFib(t, p, fib)
			}
		})
	}
}

// TestImplicitJoin checks that a task that returns without joining what it
// forked, or waiting for a group it made, waits for them then, and fails
// with their panic.
func TestImplicitJoin(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	var forked, grouped atomic.Bool
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
		sched.Fork(t, func(t *sched.Task, n int) int {
			forked.Store(true)
			return fib(t, n)
		}, 18)
		g := t.NewGroup()
		g.Go(t, func(t *sched.Task) error {
			fib(t, 18)
			grouped.Store(true)
			return errors.New("lost, as without Wait")
		})
		return nil
	}))
	assert.True(t, forked.Load(), "the forked task ran before Do returned")
	assert.True(t, grouped.Load(), "the group's task ran before Do returned")

	e := schedtest.CallInGoroutine(t, func() {
		_ = p.Do(context.Background(), func(t *sched.Task) error {
			sched.Fork(t, func(*sched.Task, int) int { panic("unjoined") }, 0)
			return nil
		})
	})
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
	assert.Equal(t, "unjoined", pe.Value)
}

// TestImplicitJoinForksFirst: a task returns without waiting, while a fork
// of it still starts tasks in the task's group, which it may do until the
// group's Wait. The implicit wait joins the forks before it waits for the
// groups, as if the task had called Join and then Wait: every Go counts.
func TestImplicitJoinForksFirst(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			for range 20 {
				var ran atomic.Int32
				require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
					g := t.NewGroup()
					sched.ForkFunc(t, func(tk *sched.Task, _ int) {
						for range 100 {
							runtime.Gosched() // while the parent returns
						}
						g.Go(tk, func(*sched.Task) error { ran.Add(1); return nil })
					}, 0)
					return nil
				}))
				require.Equal(t, int32(1), ran.Load(), "the task the fork started in its parent's group")
			}
		})
	}
}

// TestImplicitJoinInJoin is TestImplicitJoin for a task that its forker's
// Join runs as a call (one worker in Random mode: nobody steals it), on
// every queue: the Join returns once what the task left unjoined has
// finished, and panics with its panic.
func TestImplicitJoinInJoin(t *testing.T) {
	for name, newQueue := range poolKinds() {
		t.Run(name, func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1, Mode: sched.Random, NewQueue: newQueue})
			var forked, grouped atomic.Bool
			require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
				f := sched.Fork(tk, func(tk *sched.Task, n int) int {
					sched.ForkFunc(tk, func(*sched.Task, int) { forked.Store(true) }, 0)
					tk.NewGroup().Go(tk, func(*sched.Task) error {
						grouped.Store(true)
						return nil
					})
					return n
				}, 7)
				assert.Equal(t, 7, f.Join(tk))
				assert.True(t, forked.Load(), "Join returned before the task's unjoined fork ran")
				assert.True(t, grouped.Load(), "Join returned before the task's group ran")
				return nil
			}))

			e := schedtest.CallInGoroutine(t, func() {
				_ = p.Do(context.Background(), func(tk *sched.Task) error {
					f := sched.Fork(tk, func(tk *sched.Task, n int) int {
						sched.Fork(tk, func(*sched.Task, int) int { panic("unjoined") }, 0)
						return n
					}, 7)
					f.Join(tk)
					t.Error("Join returned")
					return nil
				})
			})
			pe, ok := e.Recovered.(*sched.PanicError)
			require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
			assert.Equal(t, "unjoined", pe.Value)
		})
	}
}

// TestJoinOnce joins a future from outside the pool after the task that
// forked it has ended (which waited for it), and checks that a second Join,
// of the Future or of a copy, and a Join of a zero Future panic.
func TestJoinOnce(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	var f, g sched.Future[int]
	require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
		f = sched.Fork(tk, fib, 10)
		g = sched.Fork(tk, fib, 11)
		assert.Equal(t, 89, g.Join(tk))
		return nil
	}))
	assert.Equal(t, 55, f.Join(nil), "joined after the forking task ended")
	for _, join := range []func(){
		func() { f.Join(nil) },
		func() { g.Join(nil) },
		func() { sched.Future[int]{}.Join(nil) },
	} {
		e := schedtest.CallInGoroutine(t, join)
		assert.False(t, e.Returned)
		assert.Contains(t, []any{"sched: a Future joined twice", "sched: Join of a Future that Fork did not make"}, e.Recovered)
	}
	require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
		f := sched.Fork(tk, fib, 12)
		copied := f
		assert.Equal(t, 144, f.Join(tk))
		e := schedtest.CallInGoroutine(t, func() { copied.Join(nil) })
		assert.Equal(t, "sched: a Future joined twice", e.Recovered)
		return nil
	}))
}

// TestForkReuse checks that fork records are reused: after a first run has
// filled the workers' free lists, fork-join code that joins what it forks
// (with Fork and Future.Join, or with Join) allocates almost nothing per
// task.
func TestForkReuse(t *testing.T) {
	for name, fib := range map[string]func(*sched.Task, int) int{"Fork": fib, "Join": fibJoin} {
		t.Run(name, func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
			run := func() {
				require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
					fib(t, 18)
					return nil
				}))
			}
			run()
			allocs := testing.AllocsPerRun(10, run)
			assert.Less(t, allocs, float64(fibForks(18))/100, "allocations per run of %d forks", fibForks(18))
		})
	}
}

// TestWideForkAllocs checks what a wide fork allocates: a task that forks
// more tasks than a goroutine keeps records for needs a new record for
// each, and one allocation makes it, for Fork and ForkFunc alike.
func TestWideForkAllocs(t *testing.T) {
	const n = 4096
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	fs := make([]sched.Future[int], n)
	gs := make([]sched.Future[struct{}], n)
	run := func() {
		require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
			for i := range fs {
				fs[i] = sched.Fork(t, func(_ *sched.Task, i int) int { return i }, i)
				gs[i] = sched.ForkFunc(t, func(*sched.Task, int) {}, i)
			}
			for i := n - 1; i >= 0; i-- {
				gs[i].Join(t)
				if fs[i].Join(t) != i {
					panic("wrong result")
				}
			}
			return nil
		}))
	}
	run()
	allocs := testing.AllocsPerRun(10, run)
	assert.LessOrEqual(t, allocs, float64(2*n)*1.05, "allocations per run of %d forks", 2*n)
	assert.GreaterOrEqual(t, allocs, float64(2*n)*0.95, "allocations per run of %d forks: a record each", 2*n)
}

// TestWaitForItself checks that a task waiting for its own group panics
// instead of waiting forever.
func TestWaitForItself(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	g := p.NewGroup(context.Background())
	g.Go(nil, func(t *sched.Task) error { return g.Wait(t) })
	e := schedtest.CallInGoroutine(t, func() { _ = g.Wait(nil) })
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "Wait panicked with %T %v", e.Recovered, e.Recovered)
	assert.Contains(t, pe.Value, "a task waits for itself")
}

// TestCloseStatsCopy: the Stats that Close returns are the caller's: a
// change to their PerWorker leaves what later Close and Stats calls return.
func TestCloseStatsCopy(t *testing.T) {
	p, err := sched.NewPool(sched.PoolConfig{Workers: 2})
	require.NoError(t, err)
	require.NoError(t, p.Do(context.Background(), func(*sched.Task) error { return nil }))
	st := p.Close()
	want := st.PerWorker[0]
	st.PerWorker[0].Processed = -1
	assert.Equal(t, want, p.Close().PerWorker[0], "a later Close")
	assert.Equal(t, want, p.Stats().PerWorker[0], "Stats after Close")
}

// TestPoolClosed checks Close: it waits for running tasks, which may still
// start more, and starting tasks from outside afterwards panics.
func TestPoolClosed(t *testing.T) {
	p, err := sched.NewPool(sched.PoolConfig{Workers: 2})
	require.NoError(t, err)
	g := p.NewGroup(context.Background())
	release := make(chan struct{})
	var got atomic.Int64
	g.Go(nil, func(t *sched.Task) error {
		<-release
		got.Store(int64(fib(t, 15)))
		return nil
	})
	closed := make(chan sched.Stats)
	go func() { closed <- p.Close() }()
	close(release)
	st := <-closed
	assert.Equal(t, int64(fibValue(15)), got.Load(), "Close waited for the task and its forks")
	assert.Equal(t, fibForks(15)+1, st.Processed)
	require.NoError(t, g.Wait(nil))
	e := schedtest.CallInGoroutine(t, func() { _ = p.Do(context.Background(), func(*sched.Task) error { return nil }) })
	assert.Equal(t, "sched: a task started from outside a closed Pool", e.Recovered)
}

func TestPoolConfigErrors(t *testing.T) {
	_, err := sched.NewPool(sched.PoolConfig{Workers: -1})
	assert.ErrorContains(t, err, "negative worker count")
	_, err = sched.NewPool(sched.PoolConfig{Mode: sched.Mode(5)})
	assert.ErrorContains(t, err, "unknown mode")
}

// TestPerWorker sums per-worker counts after a run.
func TestPerWorker(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 3})
	counts := sched.NewPerWorker[int64](p.Workers())
	var count func(t *sched.Task, n int) int
	count = func(t *sched.Task, n int) int {
		*counts.Get(t.WorkerID())++
		if n < 2 {
			return n
		}
		x := sched.Fork(t, count, n-1)
		return count(t, n-2) + x.Join(t)
	}
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error { count(t, 15); return nil }))
	var total int64
	for id, c := range counts.All() {
		assert.Equal(t, counts.Get(id), c)
		total += *c
	}
	assert.Equal(t, 2*fibForks(15)+1, total, "every call")
}

// TestGoexitInImplicitJoin calls runtime.Goexit in a task that runs in the
// implicit join of a task that returned (or panicked) without joining it:
// the Goexit ends the joining task too, and Do ends by Goexit rather than
// waiting forever.
func TestGoexitInImplicitJoin(t *testing.T) {
	for _, panics := range []bool{false, true} {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
		e := schedtest.CallInGoroutine(t, func() {
			_ = p.Do(context.Background(), func(t *sched.Task) error {
				sched.Fork(t, func(*sched.Task, int) int { runtime.Goexit(); return 0 }, 0)
				if panics {
					panic("the task panics first")
				}
				return nil
			})
		})
		assert.False(t, e.Returned, "Do returned")
		if panics {
			assert.IsType(t, (*sched.PanicError)(nil), e.Recovered, "the task's own panic comes first")
		} else {
			assert.Nil(t, e.Recovered, "Do panicked")
		}
	}
}

// TestPoolIdleSteals checks the steals of an idle worker of a Pool, in
// both modes. A task keeps the other worker busy with a first task until
// it has forked eight more, and then spins until the other worker has run
// them all. That worker, idle and alone, steals its share each time: half
// of eight, four, two, one, one (the default), or one at a time
// (Proportion wsq.OneItem). TestStealChooses*
// check a steal from a helping wait.
func TestPoolIdleSteals(t *testing.T) {
	const forks = 8
	for _, mode := range sched.Modes() {
		for _, proportion := range []float64{0, wsq.OneItem} {
			t.Run(fmt.Sprintf("%v/proportion=%v", mode, proportion), func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode, Proportion: proportion})
				require.NoError(t, err)
				var ran atomic.Int32
				var busy atomic.Bool
				release := make(chan struct{})
				require.NoError(t, p.Do(ctx, func(tk *sched.Task) error {
					sched.ForkFunc(tk, func(*sched.Task, int) { busy.Store(true); <-release }, 0)
					for !busy.Load() {
						runtime.Gosched()
					}
					for range forks {
						sched.ForkFunc(tk, func(*sched.Task, int) { ran.Add(1) }, 0)
					}
					close(release)
					for ran.Load() < forks {
						runtime.Gosched()
					}
					return nil
				}))
				st := p.Close()
				assert.Equal(t, int64(1+forks), st.Moved)
				if proportion == 0 {
					assert.Equal(t, int64(1+4), st.Steals, "shares of 4, 2, 1 and 1 tasks")
				} else {
					assert.Equal(t, int64(1+forks), st.Steals, "a steal took more than one task")
				}
			})
		}
	}
}

// TestPoolDemand checks Task.Demand in a pool: a worker alone has none; of
// two, the idle one shows up, in both modes.
func TestPoolDemand(t *testing.T) {
	one := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	require.NoError(t, one.Do(ctx, func(t *sched.Task) error {
		if d := t.Demand(); d != 0 {
			return fmt.Errorf("Demand() = %d with one worker", d)
		}
		return nil
	}))
	for _, mode := range sched.Modes() {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			// The other worker looks, or waits, for work. (While it parks,
			// it may count twice for an instant: see random.park.)
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); runtime.Gosched() {
				if t.Demand() > 0 {
					return nil
				}
			}
			return fmt.Errorf("%v: no demand from an idle worker in a minute", mode)
		}), mode)
	}
}
