package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/sched"
)

// boomHandler explores the tree of treeHandler and panics with value at the
// 1000th item it handles.
func boomHandler(n int, value any) sched.Handler[int] {
	var handled atomic.Int64
	return func(_ context.Context, v int, w *sched.Worker[int]) error {
		if handled.Add(1) == 1000 {
			panic(value)
		}
		var kids [3]int
		k := 0
		for c := 3*v + 1; c <= 3*v+3 && c < n; c++ {
			kids[k] = c
			k++
		}
		w.Spawn(kids[:k]...)
		return nil
	}
}

// TestHandlerPanic checks that a panic in a handler reaches Run's caller as
// a *PanicError with the original value and the handler's stack, after
// every goroutine of the run has returned (TestMain checks for leaks), with
// every queue and both modes.
func TestHandlerPanic(t *testing.T) {
	for kind, newQueue := range kinds() {
		for _, mode := range sched.Modes() {
			cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: 4}
			t.Run("queue="+kind+"/"+name(cfg), func(t *testing.T) {
				e := schedtest.CallInGoroutine(t, func() {
					_, _ = sched.Run(context.Background(), cfg, []int{0}, boomHandler(30_000, schedtest.ErrBoom))
				})
				require.False(t, e.Returned, "Run returned")
				pe, ok := e.Recovered.(*sched.PanicError)
				require.True(t, ok, "Run panicked with %T %v, want a *sched.PanicError", e.Recovered, e.Recovered)
				assert.Equal(t, schedtest.ErrBoom, pe.Value)
				require.ErrorIs(t, pe, schedtest.ErrBoom, "Unwrap gives the panic's error")
				assert.Contains(t, string(pe.Stack), "boomHandler", "the stack is the handler's")
				assert.True(t, strings.HasPrefix(pe.Error(), "sched: task panicked: boom\n"), pe.Error())
				assert.Contains(t, pe.Error(), "panic_test.go:", "the message holds the stack")
			})
		}
	}
}

// TestHandlerPanicValues checks values that are not errors, and panic(nil).
func TestHandlerPanicValues(t *testing.T) {
	for _, value := range []any{"a string", 42, nil} {
		cfg := sched.Config[int]{Workers: 2}
		e := schedtest.CallInGoroutine(t, func() {
			_, _ = sched.Run(context.Background(), cfg, []int{0}, boomHandler(30_000, value))
		})
		pe, ok := e.Recovered.(*sched.PanicError)
		require.True(t, ok, "%v: Run panicked with %T", value, e.Recovered)
		if value == nil {
			var pn *runtime.PanicNilError
			assert.ErrorAs(t, pe, &pn)
			continue
		}
		assert.Equal(t, value, pe.Value)
		assert.NoError(t, pe.Unwrap(), "a value that is not an error unwraps to nil")
	}
}

// TestHandlerGoexit checks that a handler that calls runtime.Goexit (as
// t.FailNow does) ends the run, in both modes with four workers: Run calls
// runtime.Goexit in its caller, rather than waiting forever for the item
// that was never finished.
func TestHandlerGoexit(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			cfg := sched.Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.New[int]() }, Mode: mode, Workers: 4}
			var handled atomic.Int64
			e := schedtest.CallInGoroutine(t, func() {
				_, _ = sched.Run(context.Background(), cfg, []int{0}, func(_ context.Context, v int, w *sched.Worker[int]) error {
					if handled.Add(1) == 100 {
						runtime.Goexit()
					}
					if v < 3000 {
						w.Spawn(3*v+1, 3*v+2, 3*v+3)
					}
					return nil
				})
			})
			assert.False(t, e.Returned, "Run returned")
			assert.Nil(t, e.Recovered, "Run panicked")
		})
	}
}

// TestFailureAccounting checks that a run stopped by a panic or a Goexit
// leaves every item accounted for: handled (and counted in Stats.Processed
// only then), failed, or still in a queue; none lost, none counted twice.
func TestFailureAccounting(t *testing.T) {
	parents := testenv.Size(20_000, 2_000, 20_000) // items below this spawn three children
	for _, goexit := range []bool{false, true} {
		for kind, newQueue := range kinds() {
			for _, mode := range sched.Modes() {
				cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: 4}
				t.Run(fmt.Sprintf("goexit=%v/queue=%s/%s", goexit, kind, name(cfg)), func(t *testing.T) {
					var spawned, returned, failed atomic.Int64
					var st sched.Stats
					var left int
					e := schedtest.CallInGoroutine(t, func() {
						_ = sched.RunCounting(context.Background(), cfg, []int{0}, func(_ context.Context, v int, w *sched.Worker[int]) error {
							if v == 500 {
								failed.Add(1)
								if goexit {
									runtime.Goexit()
								}
								panic(schedtest.ErrBoom)
							}
							if v < parents {
								w.Spawn(3*v+1, 3*v+2, 3*v+3)
								spawned.Add(3)
							}
							returned.Add(1)
							return nil
						}, &st, &left)
					})
					require.False(t, e.Returned)
					assert.Equal(t, int64(1), failed.Load())
					assert.Equal(t, returned.Load(), st.Processed, "Stats.Processed counts the calls that returned")
					assert.Equal(t, 1+spawned.Load(), returned.Load()+failed.Load()+int64(left), "roots and spawned items = handled + failed + left")
				})
			}
		}
	}
}
