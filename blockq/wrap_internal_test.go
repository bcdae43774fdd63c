package blockq

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
)

// The counters of blockq wrap: positions modulo 2^34 in the tail word and
// the tenures' bases, the pop count modulo 2^30 in the tail word and the
// control word. These tests start the counters near their wraps (NewAt) or
// jump over most of 2^30 pops (jumpGen), and each fails against a variant
// of the code that ignores the wrap it guards (mutation_test.go).

// A thief loads the front, its word and the tail, computes what to
// reserve, and stalls before its compare-and-swap. The owner pops what the
// thief saw and pushes one item 2^30 pops later, so that the pop count and
// the oldest position are again those the thief loaded. Its
// compare-and-swap must fail: the pop that wrapped the count moved the
// front to a new tenure, so the word the thief expects is gone for good. A
// reservation there would take 3 items from a queue of 1.
func TestStalledStealAcrossPopCountWrap(t *testing.T) {
	for _, gen := range []uint64{0, 1, genMask - 2, genMask, 1 << 29} {
		q := NewAt[int](5, gen, WithBlockSize(2))
		require.Equal(t, 3, q.PushBatch([]int{1, 2, 3}))

		f := q.front.Load() // the stalled thief
		c := f.ctl.Load()
		tw := q.tail.Load()

		for range 3 {
			_, ok := q.Pop()
			require.True(t, ok)
		}
		q.jumpGen(GenRange - 3)
		require.True(t, q.Push(4))
		require.Equal(t, ctlGen(c), ctlGen(q.own.c), "the pop count came round")

		_, _, k, r := q.reserveFrom(f, c, tw, 1, true)
		require.Equal(t, wsq.Contended, r, "start %d: the stalled thief reserved %d items with a length it read 2^30 pops ago", gen, k)
		v, ok := q.Steal()
		require.True(t, ok)
		assert.Equal(t, 4, v)
		assert.Zero(t, q.Len())
		assert.NoError(t, q.CheckInvariants())
	}
}

// A thief loads the front and its word, and stalls before it loads the
// tail. The owner, which never lets the queue run empty, pushes and pops
// until the tail it publishes carries a pop count 2^30-2 ahead of the
// thief's word: read together, the two say the queue is empty (the tail,
// less the 2 pops their counts differ by, is the oldest position). The
// thief must not report the queue empty: its second load of the word shows
// that the word changed under it.
func TestStalledEmptyCheckAcrossPopCountWrap(t *testing.T) {
	for _, gen := range []uint64{0, 3, genMask - 1, genMask} {
		q := NewAt[int](PosRange-1, gen, WithBlockSize(2))
		require.Equal(t, 2, q.PushBatch([]int{1, 2}))

		f := q.front.Load() // the stalled thief
		c := f.ctl.Load()

		q.jumpGen(GenRange - 3)
		_, ok := q.Pop()
		require.True(t, ok)
		require.True(t, q.Push(3))
		tw := q.tail.Load()
		require.Equal(t, uint64(0), f.length(c, tw), "the stale word and the new tail read as empty")

		_, _, _, r := q.reserveFrom(f, c, tw, 0.5, true)
		require.NotEqual(t, wsq.Empty, r, "start %d: a thief reported empty a queue that always held 2 items", gen)
		assert.Equal(t, []int{1, 3}, q.StealBatch(nil, 1))
		assert.NoError(t, q.CheckInvariants())
	}
}

// A pop that would wrap the pop count moves the front to a new tenure of
// the same link, with the count at 0, and takes its item as any pop does.
func TestPopAtPopCountWrap(t *testing.T) {
	q := NewAt[int](0, genMask-1)
	require.Equal(t, 4, q.PushBatch([]int{1, 2, 3, 4}))
	v, ok := q.Pop()
	require.True(t, ok)
	require.Equal(t, 4, v)
	f := q.front.Load()
	require.Equal(t, uint64(genMask), ctlGen(f.ctl.Load()))

	v, ok = q.Pop() // wraps
	require.True(t, ok)
	assert.Equal(t, 3, v)
	g := q.front.Load()
	require.NotSame(t, f, g, "the wrap moved the front")
	assert.Same(t, f.l, g.l, "to a new tenure of the same link")
	assert.Equal(t, f.base.Load(), g.base.Load())
	assert.False(t, isLive(f.ctl.Load()), "the old tenure's word is moved")
	assert.Equal(t, live(0, 0), g.ctl.Load())
	assert.NoError(t, q.CheckInvariants())
	assert.Equal(t, 2, q.Len())
	v, ok = q.Steal()
	require.True(t, ok)
	assert.Equal(t, 1, v)
	v, ok = q.Pop()
	require.True(t, ok)
	assert.Equal(t, 2, v)
	assert.NoError(t, q.CheckInvariants())
}

// Every operation across the wrap of the positions and of the pop count,
// in blocks of three slots, against a slice: the queue's content and Len
// after each step. One-attempt steals, so that a broken length makes the
// test fail rather than spin.
func TestCountersWrap(t *testing.T) {
	// The last start wraps nothing: the same steps from the queue's own
	// start.
	for _, start := range []struct{ pos, gen uint64 }{{PosRange - 7, genMask - 4}, {PosRange - 1, genMask}, {0, 0}} {
		q := NewAt[int](start.pos, start.gen, WithBlockSize(3))
		var model []int
		next := 0
		push := func(n int) []int {
			vs := make([]int, n)
			for i := range vs {
				vs[i] = next
				next++
			}
			model = append(model, vs...)
			return vs
		}
		for round := range 6 {
			step := fmt.Sprintf("start %d/%d, round %d", start.pos, start.gen, round)
			require.Equal(t, 5, q.PushBatch(push(5)), step)
			var l List[int]
			for _, v := range push(4) {
				l.Append(v)
			}
			require.Equal(t, 4, q.PushList(&l), step)
			require.True(t, q.Push(push(1)[0]), step)
			require.Equal(t, len(model), q.Len(), "%s: after the pushes", step)

			got, r := q.TryStealBatch(nil, 0.3)
			require.Equal(t, wsq.Taken, r, step)
			k := wsq.StealCount(len(model), 0.3)
			require.Equal(t, model[:k], got, step)
			model = model[k:]
			for range 3 {
				v, ok := q.Pop()
				require.True(t, ok, step)
				require.Equal(t, model[len(model)-1], v, step)
				model = model[:len(model)-1]
			}
			v, r := q.TrySteal()
			require.Equal(t, wsq.Taken, r, step)
			require.Equal(t, model[0], v, step)
			model = model[1:]
			require.Equal(t, len(model), q.OwnerLen(), "%s: after the pops and steals", step)
			require.NoError(t, q.CheckInvariants(), step)
		}
		q.Publish() // what the owner holds since its pops
		pc := q.StealParcel(1)
		require.NotNil(t, pc)
		assert.Equal(t, model, pc.Drain(nil))
		assert.Zero(t, q.Len())
		if start.gen > 0 {
			pos, gen := q.Counters()
			assert.Less(t, pos, start.pos, "the positions wrapped")
			assert.Less(t, gen, start.gen, "the pop count wrapped")
		}
	}
}
