package lfqueue

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jumpSeq advances the sequence number of ctl by n, as n pushes each
// followed by pops of what they pushed would, fences included; the queue
// must be empty and its thieves idle or stalled. Pushing 2^32 times takes
// minutes, so the wrap-around tests jump over most of them. Where a fence
// may fall, at the pushes whose sequence number is a multiple of
// fenceEvery, it counts that push with the owner's own ctlCount, so the
// jump sets a fence exactly when the pushes would.
func (q *Queue[T]) jumpSeq(n uint64) {
	c := q.ctl.Load()
	if ctlSize(c) != 0 {
		panic("jumpSeq on a non-empty queue")
	}
	seq := uint64(ctlSeq(c))
	fence := c & ctlFence
	for k := seq/fenceEvery + 1; k*fenceEvery <= seq+n; k++ {
		before := uint64(uint32(k*fenceEvery-1))<<32 | fence // empty, one push short of the multiple
		fence = ctlCount(before, 0) & ctlFence
	}
	q.ctl.Store(uint64(uint32(seq+n))<<32 | fence)
}

// startSeq sets the sequence number of a new queue.
func (q *Queue[T]) startSeq(seq uint32) {
	if q.ctl.Load() != 0 || q.lastPush.Load() != nil {
		panic("startSeq on a used queue")
	}
	q.ctl.Store(uint64(seq) << 32)
}

// A thief loads ctl and the matching push record, then stalls between its
// loads and its reserving CAS, holding the thieves' lock. The owner pops what it
// saw and pushes the same number of new items 2^32 pushes later, so that
// ctl's size and sequence number are again those the thief loaded. Its CAS
// must fail (a fence was set in between and nobody could clear it), so that
// it never walks the stale push record, whose nodes were popped long ago.
func TestStalledStealAcrossSequenceWrap(t *testing.T) {
	for _, skip := range []bool{false, true} {
		for _, start := range []uint32{fenceEvery - 2, 0, 1<<32 - 1, 3 * fenceEvery} {
			var q *Queue[int]
			if skip {
				q = New[int](WithSkipCount())
			} else {
				q = New[int]()
			}
			q.startSeq(start)
			require.Equal(t, 3, q.PushBatch([]int{1, 2, 3}))

			q.beginTurn(false) // the stalled thief
			rec, c := q.snapshot()
			require.NotNil(t, rec)
			require.Equal(t, 3, ctlSize(c))

			for range 3 {
				_, ok := q.Pop()
				require.True(t, ok)
			}
			q.jumpSeq(1<<32 - 1)
			require.Equal(t, 3, q.PushBatch([]int{4, 5, 6}))
			require.Equal(t, ctlSeq(c), ctlSeq(q.ctl.Load()), "the sequence number came round")
			require.Equal(t, ctlSize(c), ctlSize(q.ctl.Load()))

			assert.False(t, q.reserve(c, 1), "start %d: the stalled thief reserved against a push record from 2^32 pushes ago", start)
			q.endTurn()

			v, ok := q.Steal()
			require.True(t, ok)
			assert.Equal(t, 4, v, "the oldest item")
			assert.Equal(t, []int{5, 6}, q.StealBatch(nil, 1))
			assert.Empty(t, q.CheckInvariants())
		}
	}
}

// The owner sets the fence exactly every fenceEvery pushes, keeps it through
// pops and pushes, and a thief clears it before it reserves.
func TestFence(t *testing.T) {
	q := New[int]()
	q.startSeq(fenceEvery - 2)
	q.Push(1)
	assert.Zero(t, q.ctl.Load()&ctlFence)
	q.Push(2) // sequence number fenceEvery
	assert.NotZero(t, q.ctl.Load()&ctlFence)
	q.Pop()
	q.PushBatch([]int{3, 4})
	assert.NotZero(t, q.ctl.Load()&ctlFence, "pops and pushes keep the fence")
	assert.Equal(t, 3, q.Len())
	assert.Equal(t, []int{1}, q.StealBatch(nil, 0.1))
	assert.Zero(t, q.ctl.Load()&ctlFence, "a thief clears the fence")
	assert.Equal(t, 2, q.Len())
	assert.Empty(t, q.CheckInvariants())
}
