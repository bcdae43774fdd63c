package sched

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/mutexq"
)

// waitFor polls cond until it holds. The deadline only turns a hang into a
// failure; it is far beyond any legitimate wait.
func waitFor(cond func() bool) error {
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			return errors.New("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// allParked reports whether every worker but one, and in Master mode the
// master, is parked, not spinning.
func allParked(s *scheduler[int]) bool {
	n := len(s.workers)
	if r, ok := s.mode.(*random[int]); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.sleeping) == n-1 && r.spinning.Load() == 0
	}
	// The master took one idle worker, found no work and waits; the others
	// wait in the idle queue.
	m := s.mode.(*masters[int])
	return atomic.LoadInt32(&m.sleepers) != 0 && len(m.idle) == n-2
}

// TestIdleWorkersParkAndWake holds one worker busy until every other worker
// has parked (so nothing spins on an idle machine), then publishes work and
// stays busy until another worker has handled some of it, which needs a
// parked worker (or the master) to be woken.
func TestIdleWorkersParkAndWake(t *testing.T) {
	const workers, kids = 4, 1000
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			var byOthers, total atomic.Int64
			var rootWorker atomic.Int32 // the root may be stolen before worker 0 pops it
			cfg := Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.New[int]() }, Mode: mode, Workers: workers}
			st, err := Run(context.Background(), cfg, []int{-1}, func(_ context.Context, v int, w *Worker[int]) error {
				total.Add(1)
				if v >= 0 {
					if w.ID() != int(rootWorker.Load()) {
						byOthers.Add(1)
					}
					return nil
				}
				rootWorker.Store(int32(w.ID()))
				if err := waitFor(func() bool { return allParked(w.s) }); err != nil {
					return errors.New("idle workers did not park")
				}
				vs := make([]int, kids)
				w.Spawn(vs...)
				if err := waitFor(func() bool { return byOthers.Load() > 0 }); err != nil {
					return errors.New("no parked worker was woken")
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, int64(kids+1), total.Load())
			assert.Equal(t, int64(kids+1), st.Processed)
			assert.Positive(t, st.Steals)
		})
	}
}

// TestOverflowStaysStealable fills a bounded queue far beyond its capacity
// and checks that other workers get a share: the owner keeps what the queue
// refused and moves it into the queue as room appears.
func TestOverflowStaysStealable(t *testing.T) {
	const workers, kids = 3, 200
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			var byOthers, total atomic.Int64
			var rootWorker atomic.Int32
			cfg := Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.NewBounded[int](4) }, Mode: mode, Workers: workers}
			st, err := Run(context.Background(), cfg, []int{-1}, func(_ context.Context, v int, w *Worker[int]) error {
				total.Add(1)
				if v < 0 {
					rootWorker.Store(int32(w.ID()))
					w.Spawn(make([]int, kids)...)
					if w.ovHead != 0 || len(w.overflow) != kids-4 {
						return errors.New("overflow does not hold what the queue refused")
					}
					return nil
				}
				if w.ID() != int(rootWorker.Load()) {
					byOthers.Add(1)
					return nil
				}
				// The owner takes its next item from the overflow and tops
				// the queue up, so the others can take items while it waits.
				if byOthers.Load() == 0 {
					return waitFor(func() bool { return byOthers.Load() > 0 })
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, int64(kids+1), total.Load())
			assert.Equal(t, int64(kids+1), st.Processed)
		})
	}
}

// TestLastSearcherWakesForAnyQueue checks the rule of stopSearching: a
// publisher that saw a searcher did not wake anyone, so the last searcher to
// find work wakes a parked worker when any queue, not only its victim's,
// holds items.
func TestLastSearcherWakesForAnyQueue(t *testing.T) {
	cfg := Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.New[int]() }, Mode: Random, Workers: 3}
	handle := func(context.Context, int, *Worker[int]) error { return nil }
	for _, work := range []bool{false, true} {
		s, err := newScheduler[int](cfg, runHost[int](handle))
		require.NoError(t, err)
		parked, publisher := s.workers[1], s.workers[2] // workers[0] is the searcher
		if work {
			publisher.queue.Push(7) // pushed while the searcher was counted
		}
		r := s.mode.(*random[int])
		r.spinning.Store(1)
		r.sleeping = append(r.sleeping, &r.ws[parked.id])
		atomic.StoreInt32(&r.sleepers, 1)

		r.stopSearching()

		if work {
			require.Len(t, r.ws[parked.id].wake, 1, "the parked worker was not woken for the publisher's item")
			assert.Equal(t, int32(1), r.spinning.Load(), "the woken worker counts as searching")
			assert.Equal(t, int32(0), atomic.LoadInt32(&r.sleepers))
		} else {
			assert.Empty(t, r.ws[parked.id].wake, "woken with no work anywhere")
			assert.Equal(t, int32(0), r.spinning.Load())
			assert.Equal(t, int32(1), atomic.LoadInt32(&r.sleepers))
		}
	}
}
