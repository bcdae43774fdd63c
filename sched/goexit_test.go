package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// The tests of a Goexit and of panics while one unwinds: a task that calls
// runtime.Goexit ends the tasks that wait for it, and only those, after
// the tasks it started; and the pool counts every task however it ends.

// TestPanicDuringGoexit: a task calls runtime.Goexit, and a deferred call
// of its own then panics. Go goes on with the Goexit once the pool has
// recovered the panic: the task ends by Goexit, Do calls Goexit, and the
// pool counts the task, so Close returns.
func TestPanicDuringGoexit(t *testing.T) {
	for _, mode := range sched.Modes() {
		for _, shape := range []string{"root", "fork", "join"} {
			t.Run(fmt.Sprintf("%v/%s", mode, shape), func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode})
				require.NoError(t, err)
				exit := func(*sched.Task, int) int {
					defer func() { panic("a deferred call panics during the Goexit") }()
					runtime.Goexit()
					return 0
				}
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						switch shape {
						case "root":
							exit(t, 0)
						case "fork":
							sched.Fork(t, exit, 0).Join(t)
						case "join":
							sched.Join(t, exit, 0, exit, 1)
						}
						return nil
					})
				})
				assert.False(t, e.Returned, "Do returned")
				assert.Nil(t, e.Recovered, "Do panicked: the task ended by Goexit")
				closed := schedtest.CallInGoroutine(t, func() { p.Close() })
				assert.True(t, closed.Returned, "Close")
			})
		}
	}
}

// TestDeferredWaitAfterGoexit: a task's deferred Group.Wait runs after a
// fork that its join ran as a call called runtime.Goexit. The frame of the
// call has ended by then, so the Wait is the task's own: it waits for the
// group, and Do ends by the Goexit, not by a misuse panic.
func TestDeferredWaitAfterGoexit(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	var waited atomic.Bool
	e := schedtest.CallInGoroutine(t, func() {
		_ = p.Do(context.Background(), func(t *sched.Task) error {
			g := t.NewGroup()
			g.Go(t, func(*sched.Task) error { return nil })
			defer func() {
				_ = g.Wait(t)
				waited.Store(true)
			}()
			sched.Fork(t, func(*sched.Task, int) int { runtime.Goexit(); return 0 }, 0).Join(t)
			return nil
		})
	})
	assert.False(t, e.Returned, "Do returned")
	assert.Nil(t, e.Recovered, "Do panicked instead of calling Goexit")
	assert.True(t, waited.Load(), "the deferred Wait did not return")
}

// TestGoexitStaysInItsDo: the root task of one Do waits for a fork that
// another worker runs, while the root task of a second Do, started then,
// calls runtime.Goexit. The only worker free to take the second root is
// the first root's helping wait. The Goexit ends the second Do and no
// other, in both modes, many times over.
func TestGoexitStaysInItsDo(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			for range 20 {
				var forkStarted, exited atomic.Bool
				second := make(chan schedtest.Ending, 1)
				first := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(tk *sched.Task) error {
						f := sched.ForkFunc(tk, func(*sched.Task, int) {
							forkStarted.Store(true)
							for !exited.Load() { // until the second root has run
								runtime.Gosched()
							}
						}, 0)
						for !forkStarted.Load() {
							tk.Demand() // publishes the fork for the idle worker
							runtime.Gosched()
						}
						go func() {
							second <- schedtest.CallInGoroutine(t, func() {
								_ = p.Do(context.Background(), func(*sched.Task) error {
									exited.Store(true)
									runtime.Goexit()
									return nil
								})
							})
						}()
						f.Join(tk)
						return nil
					})
				})
				require.True(t, first.Returned, "the first Do ended by a Goexit it did not call")
				e := <-second
				require.False(t, e.Returned, "the second Do returned")
				require.Nil(t, e.Recovered, "the second Do panicked")
			}
		})
	}
}

// TestGoexitWaitsForForks: a task calls runtime.Goexit while the other
// worker runs a task it started: g of its Join, or a fork it did not
// join. Do ends by the Goexit only once that task has returned.
func TestGoexitWaitsForForks(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		for _, shape := range []string{"Join", "Fork"} {
			t.Run(fmt.Sprintf("%v/%s", mode, shape), func(t *testing.T) {
				for range 10 {
					p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode})
					require.NoError(t, err)
					var running, finished atomic.Int32
					busy := func(*sched.Task, int) {
						running.Add(1)
						for range 2000 {
							runtime.Gosched()
						}
						running.Add(-1)
						finished.Add(1)
					}
					e := schedtest.CallInGoroutine(t, func() {
						_ = p.Do(context.Background(), func(t *sched.Task) error {
							switch shape {
							case "Join":
								sched.JoinFunc(t, func(*sched.Task, int) { runtime.Goexit() }, 0, busy, 0)
							case "Fork":
								sched.ForkFunc(t, busy, 0)
								runtime.Goexit()
							}
							return nil
						})
					})
					require.False(t, e.Returned, "Do returned")
					require.Zero(t, running.Load(), "Do ended while the other task still ran")
					require.Equal(t, int32(1), finished.Load(), "Do ended before the other task finished")
					p.Close()
				}
			})
		}
	}
}
