package chaselev_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
	"github.com/worksteal/wsq/internal/check/model"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/pad"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// variant is one way to construct a deque for the conformance suite.
type variant struct {
	capacity int    // initial capacity
	bounded  bool   // NewBounded rather than NewUnbounded
	start    uint32 // first position, to run across the 32-bit wrap-around
}

func newDeque[T any](v variant) *chaselev.Deque[T] {
	var q *chaselev.Deque[T]
	if v.bounded {
		q = chaselev.NewBounded[T](v.capacity)
	} else {
		q = chaselev.NewUnbounded[T](v.capacity)
	}
	q.SetStart(v.start)
	return q
}

func config(v variant) queuetest.Config {
	cfg := queuetest.Config{
		New:     func() wsq.Queue[int] { return newDeque[int](v) },
		NewWide: func() wsq.Queue[queuetest.Wide] { return newDeque[queuetest.Wide](v) },
		NewPtr:  func() wsq.Queue[*queuetest.Payload] { return newDeque[*queuetest.Payload](v) },
		Thieves: 8,
		Items:   2_000_000,
	}
	return cfg
}

// nearWrap is a first position a few hundred items short of the 32-bit
// wrap-around, which the suite's tests all cross.
const nearWrap = math.MaxUint32 - 300

var (
	unbounded     = variant{capacity: 1024}
	unboundedTiny = variant{capacity: 1, start: nearWrap} // grows all the time, across the wrap
	bounded       = variant{capacity: 64, bounded: true}
	boundedWrap   = variant{capacity: 64, bounded: true, start: nearWrap}
)

func TestUnbounded(t *testing.T)         { queuetest.Run(t, config(unbounded)) }
func TestUnboundedGrowWrap(t *testing.T) { queuetest.Run(t, config(unboundedTiny)) }
func TestBounded(t *testing.T)           { queuetest.Run(t, config(bounded)) }
func TestBoundedWrap(t *testing.T)       { queuetest.Run(t, config(boundedWrap)) }

func FuzzUnbounded(f *testing.F) { queuetest.Fuzz(f, config(unboundedTiny)) }
func FuzzBounded(f *testing.F)   { queuetest.Fuzz(f, config(boundedWrap)) }

func TestConstructorPanics(t *testing.T) {
	for _, c := range []struct {
		capacity int
		msg      string
	}{
		{0, "chaselev: capacity 0 is not positive"},
		{-4, "chaselev: capacity -4 is not positive"},
		{3, "chaselev: capacity 3 is not a power of two"},
		{1000, "chaselev: capacity 1000 is not a power of two"},
		{2 * chaselev.MaxCapacity, fmt.Sprintf("chaselev: capacity %d exceeds MaxCapacity (%d)", 2*chaselev.MaxCapacity, chaselev.MaxCapacity)},
	} {
		assert.PanicsWithValue(t, c.msg, func() { chaselev.NewBounded[int](c.capacity) }, "NewBounded(%d)", c.capacity)
		assert.PanicsWithValue(t, c.msg, func() { chaselev.NewUnbounded[int](c.capacity) }, "NewUnbounded(%d)", c.capacity)
	}
	q := chaselev.NewBounded[int](1)
	assert.Equal(t, 1, q.Cap())
	assert.Len(t, q.Slots(), 2, "a bounded deque's ring has twice its capacity")
	assert.True(t, q.Bounded())
	assert.PanicsWithValue(t, "chaselev: Reserve on a bounded deque", func() { q.Reserve(8) })
	u := chaselev.NewUnbounded[int](1)
	assert.False(t, u.Bounded())
	assert.PanicsWithValue(t, fmt.Sprintf("chaselev: capacity %d exceeds MaxCapacity (%d)", chaselev.MaxCapacity+1, chaselev.MaxCapacity),
		func() { u.Reserve(chaselev.MaxCapacity + 1) })
}

// starts are first positions around the wrap-around of the 32-bit
// positions.
var starts = []uint32{0, 1, math.MaxUint32 / 2, math.MaxUint32 - 20, math.MaxUint32 - 3, math.MaxUint32}

// A full bounded deque takes nothing and loses nothing, wherever its
// positions are, and thieves free slots for the owner to reuse.
func TestBoundedFull(t *testing.T) {
	for _, start := range starts {
		for _, c := range []int{1, 2, 8, 256} {
			q := newDeque[int](variant{capacity: c, bounded: true, start: start})
			require.Equal(t, c, q.PushBatch(queuetest.Seq(0, c)), "start %d, capacity %d", start, c)
			for range 3 {
				assert.False(t, q.Push(-1))
				assert.Equal(t, 0, q.PushBatch([]int{-1, -2}))
				assert.Equal(t, c, q.Len())
			}
			v, ok := q.Steal()
			require.True(t, ok)
			require.Equal(t, 0, v)
			assert.Equal(t, 1, q.PushBatch([]int{c, -3}), "the prefix that fits")
			assert.False(t, q.Push(-4))
			got := q.StealBatch(nil, 1)
			assert.Equal(t, queuetest.Seq(1, c), got, "start %d, capacity %d: nothing lost or reordered", start, c)
			_, _, tail := q.Positions()
			assert.Equal(t, start+uint32(c)+1, tail)
		}
	}
}

// Random operations across the wrap-around, checked against the model after
// every step, with the positions checked to have really wrapped.
func TestWrapAround(t *testing.T) {
	for _, start := range starts {
		for _, v := range []variant{{capacity: 4, start: start}, {capacity: 8, bounded: true, start: start}} {
			q := newDeque[int](v)
			d := model.New[int](map[bool]int{true: v.capacity}[v.bounded])
			rng := rand.New(rand.NewPCG(uint64(start), 7))
			next := 0
			for step := range 3000 {
				switch rng.IntN(5) {
				case 0:
					require.Equal(t, d.Push(next), q.Push(next))
					next++
				case 1:
					vs := queuetest.Seq(next, rng.IntN(7))
					require.Equal(t, d.PushBatch(vs), q.PushBatch(vs))
					next += len(vs)
				case 2:
					a, aok := q.Pop()
					b, bok := d.Pop()
					require.Equal(t, bok, aok, "step %d", step)
					require.Equal(t, b, a, "step %d", step)
				case 3:
					a, aok := q.Steal()
					b, bok := d.Steal()
					require.Equal(t, bok, aok, "step %d", step)
					require.Equal(t, b, a, "step %d", step)
				case 4:
					p := float64(1+rng.IntN(10)) / 10
					require.Equal(t, d.StealBatch(nil, p), q.StealBatch(nil, p), "step %d", step)
				}
				require.Equal(t, d.Len(), q.Len(), "step %d", step)
			}
			require.Equal(t, d.Items(nil), q.StealBatch(nil, 1))
			s, real, tail := q.Positions()
			assert.Equal(t, s, real)
			assert.Equal(t, s, tail)
			if start > math.MaxUint32-20 {
				assert.Less(t, tail, start, "positions wrapped around")
			}
		}
	}
}

// Unbounded growth: by doubling for single pushes, to the next power of two
// that fits a batch, and Reserve; items survive it in order, across the
// wrap-around.
func TestGrowth(t *testing.T) {
	q := newDeque[int](variant{capacity: 2, start: math.MaxUint32 - 1})
	require.True(t, q.Push(0))
	require.True(t, q.Push(1))
	assert.Equal(t, 2, q.Cap())
	require.True(t, q.Push(2))
	assert.Equal(t, 4, q.Cap(), "a push doubles")
	v, ok := q.Steal()
	require.True(t, ok)
	require.Equal(t, 0, v)
	require.Equal(t, 2, q.PushBatch([]int{3, 4}))
	assert.Equal(t, 4, q.Cap(), "the stolen slot was reused")
	require.Equal(t, 20, q.PushBatch(queuetest.Seq(5, 20)))
	assert.Equal(t, 32, q.Cap(), "a batch grows to the next power of two that fits")
	q.Reserve(33)
	assert.Equal(t, 64, q.Cap())
	q.Reserve(10)
	assert.Equal(t, 64, q.Cap(), "Reserve never shrinks")
	assert.Equal(t, queuetest.Seq(1, 24), q.StealBatch(nil, 1))
}

// An old ring is left to the garbage collector once the deque has grown.
func TestOldRingFreed(t *testing.T) {
	q := chaselev.NewUnbounded[*int](4)
	var freed atomic.Bool
	runtime.AddCleanup(q.Ring(), func(struct{}) { freed.Store(true) }, struct{}{})
	for i := range 5 {
		require.True(t, q.Push(&i))
	}
	assert.Equal(t, 8, q.Cap())
	deadline := time.Now().Add(20 * time.Second)
	for !freed.Load() {
		require.True(t, time.Now().Before(deadline), "the old ring is still reachable")
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	assert.Equal(t, 5, q.Len())
}

// Stolen items are cleared from their slots by the owner's next Pop; popped
// items at once.
func TestSlotsCleared(t *testing.T) {
	q := chaselev.NewUnbounded[int](8)
	require.Equal(t, 6, q.PushBatch(queuetest.Seq(1, 6)))
	assert.Equal(t, []int{1, 2, 3}, q.StealBatch(nil, 0.5))
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 0, 0}, q.Slots(), "stolen slots wait for the owner")
	v, ok := q.Pop()
	require.True(t, ok)
	require.Equal(t, 6, v)
	assert.Equal(t, []int{0, 0, 0, 4, 5, 0, 0, 0}, q.Slots())
	v, ok = q.Steal()
	require.True(t, ok)
	require.Equal(t, 4, v)
	_, _ = q.Pop()
	_, ok = q.Pop()
	require.False(t, ok)
	assert.Equal(t, make([]int, 8), q.Slots())
}

// Owner-written and thief-written fields are on different cache lines.
func TestLayout(t *testing.T) {
	head, owner, size := chaselev.Layout[int]()
	assert.GreaterOrEqual(t, head, pad.Size, "head is a line away from whatever precedes the deque")
	for _, off := range owner {
		assert.GreaterOrEqual(t, off, head+8+pad.Size, "owner field at %d is a line away from head", off)
	}
	assert.GreaterOrEqual(t, size, owner[len(owner)-1]+1+pad.Size, "the owner's fields are a line away from whatever follows")
}
