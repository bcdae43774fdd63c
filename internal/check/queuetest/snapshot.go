package queuetest

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// testLenBounds runs the owner pushing and popping, a thief stealing and a
// reader calling Len, and checks every value Len returns: never negative,
// never more than a bounded queue holds, and never more than was pushed. A
// Len that combines a stale end of the queue with a fresh one breaks the
// last two.
func testLenBounds(t testing.TB, cfg Config) {
	// Enough operations for the reader to be preempted between its loads
	// many times: that is when a stale end meets a fresh one.
	ops := testenv.Size(200_000, 50_000, 1_000_000)
	q := cfg.New()
	capacity := q.Contract().Capacity
	var pushed atomic.Int64 // items whose push has begun
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the thief
		defer wg.Done()
		var dst []int
		for i := 0; !done.Load(); i++ {
			if i%2 == 0 {
				q.Steal()
			} else {
				dst = q.StealBatch(dst[:0], 0.5)
			}
		}
	}()
	var bad string
	go func() { // the reader
		defer wg.Done()
		for !done.Load() {
			n := q.Len()
			p := pushed.Load()
			switch {
			case n < 0:
				bad = "negative"
			case capacity > 0 && n > capacity:
				bad = "more than the capacity"
			case int64(n) > p:
				bad = "more than was pushed"
			default:
				continue
			}
			t.Errorf("Len returned %d: %s (capacity %d, pushed %d)", n, bad, capacity, p)
			return
		}
	}()
	batch := Seq(0, 5)
	for i := range ops {
		switch i % 4 {
		case 0, 1:
			pushed.Add(1)
			q.Push(i)
		case 2:
			pushed.Add(int64(len(batch)))
			q.PushBatch(batch)
		case 3:
			q.Pop()
		}
	}
	done.Store(true)
	wg.Wait()
}

// testAtomicPushBatch checks the promise of PushBatch that a thief sees none
// or all of a batch, unless the Contract says LoopedPushBatch: while the
// owner pushes a large batch onto an empty queue, a reader's Len must read 0
// or the whole batch. With LoopedPushBatch it checks only that the batch
// arrives whole.
func testAtomicPushBatch(t testing.TB, cfg Config) {
	q := cfg.New()
	size := 10_000
	if c := q.Contract().Capacity; c > 0 {
		size = c
	}
	rounds := testenv.Size(10, 4, 60)
	batch := Seq(0, size)
	// phase is odd while the owner is inside PushBatch of round phase/2:
	// the queue was empty before it and holds the batch after it.
	var phase atomic.Int64
	var partial atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !done.Load() {
			p := phase.Load()
			n := q.Len()
			if p%2 == 1 && phase.Load() == p && n != 0 && n != size {
				partial.Add(1)
			}
		}
	}()
	for r := range rounds {
		phase.Store(int64(2*r + 1))
		got := q.PushBatch(batch)
		phase.Store(int64(2*r + 2))
		require.Equal(t, size, got)
		require.Equal(t, size, q.Len())
		for range size {
			_, ok := q.Pop()
			require.True(t, ok)
		}
	}
	done.Store(true)
	wg.Wait()
	if !q.Contract().LoopedPushBatch {
		require.Zero(t, partial.Load(), "a reader saw part of a batch that PushBatch publishes as one operation")
	} else {
		t.Logf("LoopedPushBatch: a reader saw part of a batch %d times in %d batches", partial.Load(), rounds)
	}
}
