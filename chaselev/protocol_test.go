package chaselev_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
)

// These tests stop a batch steal between its steps (announce, count, commit,
// take) and run the owner's operations there: the interleavings in which a
// multi-item claim meets a LIFO owner. Each runs at several first positions,
// across the 32-bit wrap-around.

func forStarts(t *testing.T, f func(t *testing.T, q *chaselev.Deque[int])) {
	for _, start := range []uint32{0, math.MaxUint32 - 2, math.MaxUint32} {
		q := chaselev.NewBounded[int](8)
		q.SetStart(start)
		f(t, q)
	}
}

// The owner pops while a thief has announced and counted from a tail that
// still included the popped item: the owner cancels the announcement, so the
// commit fails, and nothing is taken twice.
func TestPopCancelsAnnouncement(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		require.Equal(t, 4, q.PushBatch([]int{1, 2, 3, 4}))
		s, ok := q.Announce()
		require.True(t, ok)
		k := q.Count(s, 1)
		require.EqualValues(t, 4, k, "the thief counted item 4")

		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, 4, v)

		// Another thief cannot announce at the same position while the
		// first has not noticed the cancellation: its own announcement
		// would let the first thief's stale commit succeed.
		_, ok = q.Announce()
		require.False(t, ok, "a second announcement while the first is cancelled")
		got, r := q.TryStealBatch(nil, 1)
		assert.Equal(t, 0, len(got), "thieves wait their turn")
		assert.Equal(t, wsq.Contended, r, "thieves wait their turn")

		require.False(t, q.Commit(s, k), "commit after the owner cancelled")
		require.True(t, q.Idle(), "the failed commit leaves head idle")
		assert.Equal(t, []int{1, 2, 3}, q.StealBatch(nil, 1))
	})
}

// The owner takes the last item through head while a thief has announced:
// the commit fails.
func TestPopLastSettlesAnnouncement(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		require.True(t, q.Push(1))
		s, ok := q.Announce()
		require.True(t, ok)
		k := q.Count(s, 1)
		require.EqualValues(t, 1, k)
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, 1, v)
		require.False(t, q.Commit(s, k))
		require.True(t, q.Idle())
		assert.Equal(t, 0, q.Len())
		_, ok = q.Steal()
		assert.False(t, ok)
	})
}

// A pop announced before the thief's count is seen by the count.
func TestCountSeesPop(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		require.Equal(t, 3, q.PushBatch([]int{1, 2, 3}))
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, 3, v)
		s, ok := q.Announce()
		require.True(t, ok)
		k := q.Count(s, 1)
		require.EqualValues(t, 2, k)
		require.True(t, q.Commit(s, k))
		assert.Equal(t, []int{1, 2}, q.Take(nil, s, k))
		assert.Equal(t, 0, q.Len())
	})
}

// Nothing to count: the thief withdraws. A commit after the owner cancelled
// and then took the last item fails and leaves head idle.
func TestWithdraw(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		s, ok := q.Announce()
		require.True(t, ok)
		assert.EqualValues(t, 0, q.Count(s, 0.5))
		require.True(t, q.Idle())

		require.Equal(t, 2, q.PushBatch([]int{1, 2}))
		s, ok = q.Announce()
		require.True(t, ok)
		v, ok := q.Pop() // cancels
		require.True(t, ok)
		require.Equal(t, 2, v)
		v, ok = q.Pop() // the last item, through head
		require.True(t, ok)
		require.Equal(t, 1, v)
		k := q.Count(s, 0.5)
		assert.False(t, q.Commit(s, k))
		require.True(t, q.Idle())
		assert.Equal(t, 0, q.Len())
	})
}

// While a claim is in progress the owner pops the items above it and finds
// the claimed ones gone. The claimed items no longer count against the
// capacity, although their slots are not free until the thief releases them:
// a bounded deque's ring has room for both.
func TestPopDuringClaim(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		require.Equal(t, 8, q.PushBatch([]int{1, 2, 3, 4, 5, 6, 7, 8}))
		s, ok := q.Announce()
		require.True(t, ok)
		k := q.Count(s, 0.5)
		require.EqualValues(t, 4, k)
		require.True(t, q.Commit(s, k))

		assert.Equal(t, 4, q.Len())
		_, r := q.TrySteal()
		assert.Equal(t, wsq.Contended, r, "thieves wait their turn")
		assert.Equal(t, 4, q.PushBatch([]int{9, 10, 11, 12, 13}), "the claimed items do not count")
		assert.False(t, q.Push(13), "eight items: full")
		for want := 12; want >= 5; want-- {
			v, ok := q.Pop()
			require.True(t, ok)
			require.Equal(t, want, v)
		}
		_, ok = q.Pop()
		assert.False(t, ok, "the claimed items belong to the thief")
		assert.Equal(t, 0, q.Len())
		assert.Equal(t, 8, q.PushBatch([]int{13, 14, 15, 16, 17, 18, 19, 20, 21}))

		assert.Equal(t, []int{1, 2, 3, 4}, q.Take(nil, s, k))
		assert.False(t, q.Push(21), "full")
		assert.Equal(t, []int{13, 14, 15, 16, 17, 18, 19, 20}, q.StealBatch(nil, 1))
	})
}

// A claim that takes everything: the owner's pop finds the deque empty and
// the thief gets every item.
func TestPopAfterClaimOfAll(t *testing.T) {
	forStarts(t, func(t *testing.T, q *chaselev.Deque[int]) {
		require.Equal(t, 3, q.PushBatch([]int{1, 2, 3}))
		s, ok := q.Announce()
		require.True(t, ok)
		k := q.Count(s, 1)
		require.True(t, q.Commit(s, k))
		_, ok = q.Pop()
		assert.False(t, ok)
		assert.True(t, q.Push(4))
		v, ok := q.Pop()
		require.True(t, ok)
		assert.Equal(t, 4, v)
		assert.Equal(t, []int{1, 2, 3}, q.Take(nil, s, k))
		_, ok = q.Pop()
		assert.False(t, ok)
		assert.Equal(t, 0, q.Len())
	})
}
