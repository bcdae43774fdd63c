package sched_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// Tests of sched.Join, the fork-join of two functions in one call.

// fibJoin is fib written with sched.Join: each call with n >= 2 is one
// Join, whose g (fib(n-1)) is one task.
func fibJoin(t *sched.Task, n int) int {
	if n < 2 {
		return n
	}
	y, x := sched.Join(t, fibJoin, n-2, fibJoin, n-1)
	return x + y
}

// stolenJoin runs Join(t, f, g) on a pool of two workers so that the other
// worker runs g: f spins until g has started (and in Master mode, the
// master hands g over), and only then calls fn. It returns g's worker.
func stolenJoin(t *sched.Task, fn func(), g func(*sched.Task) int) (worker int) {
	var started atomic.Bool
	_, worker = sched.Join(t, func(*sched.Task, int) int {
		for !started.Load() {
			runtime.Gosched()
		}
		fn()
		return 0
	}, 0, func(t *sched.Task, _ int) int {
		started.Store(true)
		g(t)
		return t.WorkerID()
	}, 0)
	return worker
}

// TestJoinStolen checks Join whose g another worker runs: the results,
// g's context (that of the calling task), and that Join returns only after
// what g left unjoined has finished.
func TestJoinStolen(t *testing.T) {
	type key struct{}
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			ctx := context.WithValue(context.Background(), key{}, "v")
			for range 20 {
				var forked, grouped atomic.Bool
				require.NoError(t, p.Do(ctx, func(tk *sched.Task) error {
					var fromG any
					worker := stolenJoin(tk, func() {}, func(tk *sched.Task) int {
						fromG = tk.Context().Value(key{})
						sched.ForkFunc(tk, func(*sched.Task, int) { forked.Store(true) }, 0)
						tk.NewGroup().Go(tk, func(*sched.Task) error {
							grouped.Store(true)
							return nil
						})
						return 0
					})
					assert.NotEqual(t, tk.WorkerID(), worker, "g ran on the calling worker")
					assert.Equal(t, "v", fromG, "g's context is the calling task's")
					assert.True(t, forked.Load(), "Join returned before g's unjoined fork ran")
					assert.True(t, grouped.Load(), "Join returned before g's group ran")
					return nil
				}))
			}
		})
	}
}

// TestJoinCall checks Join whose g runs on the calling worker, as a call:
// on one worker, on every queue. g has a Task of its own, with the calling
// task's context, and Join returns after what g left unjoined has run,
// while what f leaves unjoined is the calling task's.
func TestJoinCall(t *testing.T) {
	type key struct{}
	for name, newQueue := range poolKinds() {
		t.Run(name, func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1, Mode: sched.Random, NewQueue: newQueue})
			ctx := context.WithValue(context.Background(), key{}, "v")
			var forked, grouped, fromF atomic.Bool
			require.NoError(t, p.Do(ctx, func(tk *sched.Task) error {
				x, y := sched.Join(tk, func(tk *sched.Task, n int) int {
					sched.ForkFunc(tk, func(*sched.Task, int) { fromF.Store(true) }, 0) // tk's: not waited for by Join
					return n
				}, 3, func(gt *sched.Task, n int) int {
					assert.NotSame(t, tk, gt, "g runs with a Task of its own")
					assert.Equal(t, "v", gt.Context().Value(key{}))
					sched.ForkFunc(gt, func(*sched.Task, int) { forked.Store(true) }, 0)
					gt.NewGroup().Go(gt, func(*sched.Task) error {
						grouped.Store(true)
						return nil
					})
					return n
				}, 4)
				assert.Equal(t, 3, x)
				assert.Equal(t, 4, y)
				assert.True(t, forked.Load(), "Join returned before g's unjoined fork ran")
				assert.True(t, grouped.Load(), "Join returned before g's group ran")
				return nil
			}))
			assert.True(t, fromF.Load(), "Do returned before f's unjoined fork ran")
			st := p.Close()
			assert.Equal(t, int64(5), st.Processed, "Do, g, and the three tasks f and g left")
		})
	}
}

// joinPanics are the ways TestJoinPanic makes a Join fail, and the value
// it must fail with.
var joinPanics = []struct {
	name         string
	fBoom        bool // f panics with "f"
	gBoom        bool // g panics with "g"
	gLeftBoom    bool // g leaves a fork that panics with "left"
	want         any
	gMustHaveRun bool
}{
	{name: "f", fBoom: true, want: "f", gMustHaveRun: true},
	{name: "g", gBoom: true, want: "g"},
	{name: "both", fBoom: true, gBoom: true, want: "f"},
	{name: "left-by-g", gLeftBoom: true, want: "left"},
}

// TestJoinPanic checks that a panic of f, of g or of a task g left
// unjoined reaches Join's caller as a *PanicError with the original value
// (f's when both panic), whether g ran as a call (one worker) or on
// another worker; that Join waits for g when f panics; that a task which
// recovers the panic goes on using its Task; and that the pool works
// afterwards, with every task counted once.
func TestJoinPanic(t *testing.T) {
	for _, c := range joinPanics {
		for _, stolen := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stolen=%v", c.name, stolen), func(t *testing.T) {
				workers := 1
				if stolen {
					workers = 2
				}
				p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers, Mode: sched.Random})
				var gRan atomic.Bool
				f := func() {
					if c.fBoom {
						panic("f")
					}
				}
				g := func(tk *sched.Task) int {
					if c.gLeftBoom {
						sched.ForkFunc(tk, func(*sched.Task, int) { panic("left") }, 0)
					}
					defer gRan.Store(true)
					if c.gBoom {
						panic("g")
					}
					return 0
				}
				var got any
				require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
					func() {
						defer func() { got = recover() }()
						if stolen {
							stolenJoin(tk, f, g)
						} else {
							sched.Join(tk, func(*sched.Task, int) int { f(); return 0 }, 0, func(tk *sched.Task, _ int) int { return g(tk) }, 0)
						}
					}()
					if c.gMustHaveRun {
						assert.True(t, gRan.Load(), "Join panicked before g ran")
					}
					// The task goes on with its Task after recovering.
					assert.Equal(t, fibValue(12), fibJoin(tk, 12))
					assert.Equal(t, fibValue(12), fib(tk, 12))
					return nil
				}))
				pe, ok := got.(*sched.PanicError)
				require.True(t, ok, "Join panicked with %T %v", got, got)
				assert.Equal(t, c.want, pe.Value)
				assert.Contains(t, string(pe.Stack), "TestJoinPanic", "the stack is the panicking function's")

				requireFib(t, p, fibJoin) // the pool works after a panic
				st := p.Close()
				left := int64(0)
				if c.gLeftBoom {
					left = 1
				}
				assert.Equal(t, 2+left+2*fibForks(12)+fibForks(15)+1, st.Processed, "every task ran once, none was lost")
			})
		}
	}
}

// TestJoinGoexit checks runtime.Goexit in f and in g, run as a call or on
// another worker: Do calls runtime.Goexit in its caller, Close waits for
// the g that f's Goexit left behind, and the pool works afterwards.
func TestJoinGoexit(t *testing.T) {
	for _, inG := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("in-g=%v/workers=%d", inG, workers), func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Workers: workers, Mode: sched.Random})
				require.NoError(t, err)
				var gRan atomic.Bool
				exit := func(*sched.Task, int) int { runtime.Goexit(); return 0 }
				other := func(*sched.Task, int) int { gRan.Store(true); return 0 }
				for range 3 {
					e := schedtest.CallInGoroutine(t, func() {
						_ = p.Do(context.Background(), func(tk *sched.Task) error {
							if inG {
								sched.Join(tk, other, 0, exit, 0)
							} else {
								sched.Join(tk, exit, 0, other, 0)
							}
							return nil
						})
					})
					assert.False(t, e.Returned, "Do returned")
					assert.Nil(t, e.Recovered, "Do panicked")
				}
				requireFib(t, p, fibJoin) // the pool works after a Goexit
				p.Close()
				assert.True(t, gRan.Load(), "the other function never ran")
			})
		}
	}
}

// TestJoinMisuse checks the misuses of Join that the package
// documentation lists: a Task kept after its function returned, and g
// using the Task of the task that called Join. (A nil Task is plain
// code's: TestJoinNilTask.)
func TestJoinMisuse(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	var saved *sched.Task
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { saved = t; return nil }))
	assert.Contains(t, schedtest.PanicValue(t, func() { sched.Join(saved, double, 1, double, 2) }), "sched: Join with a Task of another goroutine")
	got := schedtest.PanicValue(t, func() {
		_ = p.Do(ctx, func(tk *sched.Task) error {
			sched.Join(tk, double, 1, func(*sched.Task, int) int {
				return sched.Fork(tk, double, 1).Join(tk) // the outer task's Task, in g
			}, 2)
			return nil
		})
	})
	assert.Contains(t, got, "sched: Fork with a Task used outside its own function")
}

// TestJoinAfterRecoveredPanic checks that a record whose task failed is
// never reused, when a Join runs as a call after a nested Join failed and
// f recovered: the outer Join puts its own record back on the worker's
// free list, not the failed one, and the next fork of the same types runs
// as it should instead of repeating the old panic.
func TestJoinAfterRecoveredPanic(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	boom := func(*sched.Task, int) int { panic("boom") }
	require.NoError(t, p.Do(ctx, func(tk *sched.Task) error {
		// Two records of Join's types on the free list.
		a, b := sched.Fork(tk, double, 1), sched.Fork(tk, double, 2)
		assert.Equal(t, 4, b.Join(tk))
		assert.Equal(t, 2, a.Join(tk))
		x, y := sched.Join(tk, func(tk *sched.Task, _ int) int {
			func() {
				defer func() { assert.NotNil(t, recover()) }()
				sched.Join(tk, double, 1, boom, 2)
			}()
			return 1
		}, 0, double, 3)
		assert.Equal(t, 1, x)
		assert.Equal(t, 6, y)
		for i := range 4 {
			assert.Equal(t, 2*i, sched.Fork(tk, double, i).Join(tk))
			_, y := sched.Join(tk, double, i, double, i+1)
			assert.Equal(t, 2*(i+1), y)
		}
		return nil
	}))
}

// TestJoinErrorValue checks that g's panic with an error reaches the
// caller as a *PanicError that errors.Is sees through.
func TestJoinErrorValue(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	e := schedtest.CallInGoroutine(t, func() {
		_ = p.Do(ctx, func(tk *sched.Task) error {
			sched.Join(tk, double, 1, func(*sched.Task, int) int { panic(schedtest.ErrBoom) }, 2)
			return nil
		})
	})
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "Do panicked with %T %v", e.Recovered, e.Recovered)
	assert.True(t, errors.Is(pe, schedtest.ErrBoom))
}
