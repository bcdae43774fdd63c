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
// that stops early does, and no chunk starts after. (sched's
// TestGoexitWaitsForForks does the same for Join and Fork.)
func TestGoexitWaitsForLoop(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			for range 10 {
				p, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode})
				require.NoError(t, err)
				var running atomic.Int32
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
				}
				e := schedtest.CallInGoroutine(t, func() {
					_ = p.Do(context.Background(), func(t *sched.Task) error {
						par.For(t, 64, func(t *sched.Task, i int) {
							busy()
							if i == 1 { // the root part's second chunk, after a split
								runtime.Goexit()
							}
						})
						return nil
					})
				})
				ended.Store(true)
				require.False(t, e.Returned, "Do returned")
				require.Zero(t, running.Load(), "Do ended while a part of the loop still ran")
				p.Close()
				require.False(t, late.Load(), "a chunk started after Do ended")
			}
		})
	}
}
