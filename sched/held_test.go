package sched_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// Items that a worker's queue may hold from thieves (blockq's Holding
// items) must still reach an idle worker. Two shapes, each a batch in one
// worker's queue, oldest first, on two workers, with Run and with a Pool
// (a Group's tasks), in both modes; the items sleep, so that the shapes
// hold on a loaded machine:
//
//	shape        batch                          the idle worker must
//	asleep       32 tiny, 32 heavy, 1 long      run a fair share of the heavy
//	behindLong   64 of 1 ms, 1 long             run all 64 while the long one runs
//
// In asleep the idle worker takes the tiny items, finds nothing more
// published, asks, and may sleep: the owner's next pop publishes the heavy
// items it held, and must wake it. In behindLong the owner runs the long
// item first (the newest): what it held must not wait for it.

type heldKind int

const (
	tiny heldKind = iota
	heavy
	short // the 1 ms items of behindLong
	long
)

func repeat(k heldKind, n int) []heldKind {
	ks := make([]heldKind, n)
	for i := range ks {
		ks[i] = k
	}
	return ks
}

// heldRun runs the batch once, with Run or a Pool (pool nil: Run), and
// returns how many items of each kind the worker that did not run the
// root ran. long runs until the idle worker ran want short items, or for
// a minute (a failure).
func heldRun(t *testing.T, mode sched.Mode, pool *sched.Pool, kinds []heldKind, want int32) (byIdle map[heldKind]int32) {
	t.Helper()
	var owner atomic.Int32
	var counts [4]atomic.Int32
	var shortsByIdle atomic.Int32
	run := func(k heldKind, worker int) {
		if worker != int(owner.Load()) {
			counts[k].Add(1)
			if k == short {
				shortsByIdle.Add(1)
			}
		}
		switch k {
		case heavy:
			time.Sleep(1500 * time.Microsecond)
		case short:
			time.Sleep(time.Millisecond)
		case long:
			if want == 0 {
				time.Sleep(50 * time.Millisecond)
				return
			}
			for deadline := time.Now().Add(time.Minute); shortsByIdle.Load() < want && time.Now().Before(deadline); {
				time.Sleep(100 * time.Microsecond)
			}

		}
	}
	if pool == nil {
		cfg := sched.Config[int]{Workers: 2, Mode: mode}
		_, err := sched.Run(context.Background(), cfg, []int{-1}, func(_ context.Context, v int, w *sched.Worker[int]) error {
			if v < 0 {
				owner.Store(int32(w.ID()))
				items := make([]int, len(kinds))
				for i, k := range kinds {
					items[i] = int(k)
				}
				w.Spawn(items...)
				return nil
			}
			run(heldKind(v), w.ID())
			return nil
		})
		require.NoError(t, err)
	} else {
		require.NoError(t, pool.Do(context.Background(), func(t *sched.Task) error {
			owner.Store(int32(t.WorkerID()))
			g := t.NewGroup()
			for _, k := range kinds {
				g.Go(t, func(t *sched.Task) error { run(k, t.WorkerID()); return nil })
			}
			return g.Wait(t)
		}))
	}
	byIdle = map[heldKind]int32{}
	for k := range counts {
		byIdle[heldKind(k)] = counts[k].Load()
	}
	return byIdle
}

// TestHeldItemsReachSleeper is the shape asleep: over three batches the
// idle worker runs a fair share of the heavy items (0 of 96 when the pop
// that published them woke nobody).
func TestHeldItemsReachSleeper(t *testing.T) {
	kinds := append(append(repeat(tiny, 32), repeat(heavy, 32)...), long)
	for _, mode := range sched.Modes() {
		for _, withPool := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/pool=%v", mode, withPool), func(t *testing.T) {
				var pool *sched.Pool
				if withPool {
					pool = schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
				}
				var heavies int32
				for range 3 {
					heavies += heldRun(t, mode, pool, kinds, 0)[heavy]
				}
				assert.GreaterOrEqual(t, heavies, int32(3*32/4), "heavy items the idle worker ran, of 96")
			})
		}
	}
}

// TestHeldItemsNotBehindLong is the shape behindLong: the long item runs
// until the idle worker ran all 64 short ones, which it can only if the
// owner held none of them while it ran the long item.
func TestHeldItemsNotBehindLong(t *testing.T) {
	kinds := append(repeat(short, 64), long)
	for _, mode := range sched.Modes() {
		for _, withPool := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/pool=%v", mode, withPool), func(t *testing.T) {
				var pool *sched.Pool
				if withPool {
					pool = schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
				}
				for i := range 3 {
					got := heldRun(t, mode, pool, kinds, 64)[short]
					require.Equal(t, int32(64), got, "batch %d: short items the idle worker ran while the owner ran the long one", i)
				}
			})
		}
	}
}
