package par_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// TestGoexitWaitsForLoop: a body of a loop calls runtime.Goexit after the
// loop has split, while the other worker runs a part of it. Do ends by
// the Goexit only once every chunk that started has returned, as a loop
// that stops early does, and no chunk starts after; a Join whose f calls
// Goexit likewise waits for g.
func TestGoexitWaitsForLoop(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		for _, shape := range []string{"For", "Join"} {
			t.Run(fmt.Sprintf("%v/%s", mode, shape), func(t *testing.T) {
				for range 10 {
					p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode})
					require.NoError(t, err)
					var running, finished atomic.Int32
					var ended, late atomic.Bool
					busy := func() {
						running.Add(1)
						if ended.Load() {
							late.Store(true)
						}
						for range 2000 {
							runtime.Gosched()
						}
						running.Add(-1)
						finished.Add(1)
					}
					e := schedtest.CallInGoroutine(t, func() {
						_ = p.Do(context.Background(), func(t *sched.Task) error {
							switch shape {
							case "For":
								par.For(t, 64, func(t *sched.Task, i int) {
									busy()
									if i == 1 { // the root part's second chunk, after a split
										runtime.Goexit()
									}
								})
							case "Join":
								sched.Join(t, func(*sched.Task, int) int { runtime.Goexit(); return 0 }, 0,
									func(*sched.Task, int) int { busy(); return 0 }, 0)
							}
							return nil
						})
					})
					ended.Store(true)
					require.False(t, e.Returned, "Do returned")
					require.Zero(t, running.Load(), "Do ended while a part of the loop still ran")
					if shape == "Join" {
						require.Equal(t, int32(1), finished.Load(), "Do ended before g finished")
					}
					p.Close()
					require.False(t, late.Load(), "a chunk started after Do ended")
				}
			})
		}
	}
}
