package chaselev

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// These tests stall a thief between its loads of head and tail and its
// compare-and-swap, and meanwhile move head once round all 2^32 positions,
// so that head is back at the value the thief loaded: the ABA a 32-bit
// position invites. The stalled steal must not take a slot without an item,
// and the deque must stay sound.

// lap advances head and tail of the empty deque q by n positions. When
// drive is set and the tests run at full size (testenv.Full, WSQ_FULL=1)
// it moves n items through the deque by batch pushes and batch steals
// (about 0.3 s for 2^32 items, 20 s under the race detector); otherwise,
// at quick size and under testing.Short (the 32-bit emulated run), it
// moves the positions directly, which gives the same state.
func lap(t *testing.T, q *Deque[byte], n uint64, drive bool) {
	t.Helper()
	require.Zero(t, q.Len())
	if !drive || !testenv.Full() {
		q.bottom += n
		q.tail.Store(q.bottom)
		p := uint32(q.bottom)
		q.head.Store(pack(p, p))
		q.seen = p
		return
	}
	batch := make([]byte, 1<<16)
	dst := make([]byte, 0, len(batch))
	for n > 0 {
		m := uint64(len(batch))
		if n < m {
			m = n
		}
		require.Equal(t, int(m), q.PushBatch(batch[:m]))
		dst = q.StealBatch(dst[:0], 1)
		require.Len(t, dst, int(m))
		n -= m
	}
}

// A one-item steal that loaded head and tail of a one-item deque stalls; the
// owner pops the item, and 2^32-1 more items pass, which brings head back to
// the value the thief loaded. The thief's CAS succeeds, but the deque is
// empty: it must take nothing, and the next item pushed must not be lost.
// At full size (WSQ_FULL=1) the first case moves the 2^32-1 items through
// the deque; elsewhere lap moves the positions directly.
func TestStalledStealAcrossLap(t *testing.T) {
	for _, afterLap := range []int{0, 1, 3} {
		q := NewUnbounded[byte](1 << 16)
		require.True(t, q.Push(7))
		h := q.head.Load()
		s, _ := unpack(h)
		tl := q.tail.Load() // the stalled thief's loads

		v, ok := q.Pop()
		require.True(t, ok)
		require.EqualValues(t, 7, v)
		lap(t, q, math.MaxUint32, afterLap == 0) // head: s+1 + 2^32-1 = s again
		require.Equal(t, h, q.head.Load(), "head is back at the value the thief loaded")
		for i := range afterLap {
			require.True(t, q.Push(byte(10+i)))
		}

		v, ok, _ = q.stealOne(h, s, tl)
		if afterLap == 0 {
			assert.False(t, ok, "the stalled steal took %d from an empty deque", v)
		} else {
			// The claim landed on a deque that does hold an item at s:
			// taking it is a correct steal of the oldest item.
			assert.True(t, ok)
			assert.EqualValues(t, 10, v)
		}
		assert.Equal(t, max(afterLap-1, 0), q.Len())

		require.True(t, q.Push(42))
		v, ok = q.Pop()
		require.True(t, ok, "the item pushed after the stalled steal is lost")
		assert.EqualValues(t, 42, v)
		for i := afterLap - 1; i >= 1; i-- {
			v, ok = q.Pop()
			require.True(t, ok)
			assert.EqualValues(t, 10+i, v)
		}
		_, ok = q.Pop()
		assert.False(t, ok)
		_, ok = q.Steal()
		assert.False(t, ok)
		assert.Zero(t, q.Len())
	}
}

// The same stalled steal, when the owner is popping the item the claim lands
// on: the owner sees the claim and leaves the item, so the thief, which
// confirms its claim, must take it, and nothing is taken twice.
func TestStalledStealAcrossLapMeetsPop(t *testing.T) {
	q := NewUnbounded[byte](1 << 16)
	require.True(t, q.Push(7))
	h := q.head.Load()
	s, _ := unpack(h)
	tl := q.tail.Load()
	v, ok := q.Pop()
	require.True(t, ok)
	require.EqualValues(t, 7, v)
	lap(t, q, math.MaxUint32, false)
	require.True(t, q.Push(9))
	require.GreaterOrEqual(t, q.tail.Load()-tl, uint64(1)<<31, "the thief's tail is from another lap")

	// The thief's CAS lands; before it confirms, the owner pops: it sees a
	// claim covering the item and leaves it.
	require.True(t, q.head.CompareAndSwap(h, pack(s, s+1)))
	_, ok = q.Pop()
	assert.False(t, ok, "the owner takes an item a thief has claimed")
	v, ok, _ = q.confirm(s)
	require.True(t, ok)
	assert.EqualValues(t, 9, v)
	assert.Zero(t, q.Len())
	_, ok = q.Pop()
	assert.False(t, ok)
}

// A batch steal announces, counts, and stalls before its commit. The owner
// pops every item, the last one included: head must stay announced
// (cancelled; the owner moves the cancelled announcement past the last
// item, to s+1), so that no other thief can move it round the positions and
// back to the stalled thief's announcement, which would let its stale
// commit claim items that are not there.
func TestStalledCommitFreezesHead(t *testing.T) {
	q := NewUnbounded[byte](1 << 16)
	require.Equal(t, 3, q.PushBatch([]byte{1, 2, 3}))
	s, ok := q.Announce()
	require.True(t, ok)
	k := q.Count(s, 1)
	require.EqualValues(t, 3, k)
	for want := byte(3); want >= 1; want-- {
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, want, v)
	}
	hs, claim := unpack(q.head.Load())
	require.Equal(t, cancelledLen, claim-hs, "head is no longer announced under a stalled announcer")
	require.Equal(t, s+1, hs, "the cancelled announcement is just past the last item taken")

	// Other thieves cannot move head, so the positions cannot wrap: their
	// attempts meet the announcer (a Steal or StealBatch would wait for it).
	require.Equal(t, 2, q.PushBatch([]byte{4, 5}))
	got, r := q.TryStealBatch(nil, 1)
	assert.Empty(t, got)
	assert.Equal(t, wsq.Contended, r)
	_, r = q.TrySteal()
	assert.Equal(t, wsq.Contended, r)

	require.False(t, q.Commit(s, k), "the stalled commit succeeded")
	assert.Equal(t, []byte{4, 5}, q.StealBatch(nil, 1))
	assert.Zero(t, q.Len())
}
