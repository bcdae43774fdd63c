package blockq_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/check/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func config(opts ...blockq.Option) queuetest.Config {
	return queuetest.Config{
		New:     func() wsq.Queue[int] { return blockq.New[int](opts...) },
		NewWide: func() wsq.Queue[queuetest.Wide] { return blockq.New[queuetest.Wide](opts...) },
		NewPtr:  func() wsq.Queue[*queuetest.Payload] { return blockq.New[*queuetest.Payload](opts...) },
		PushNative: func(q wsq.Queue[int], vs []int) int {
			var l blockq.List[int]
			for _, v := range vs {
				l.Append(v)
			}
			return q.(*blockq.Queue[int]).PushList(&l)
		},
		StealNative: func(q wsq.Queue[int], dst []int, p float64) []int {
			pc := q.(*blockq.Queue[int]).StealParcel(p)
			if pc == nil {
				return dst
			}
			return pc.Drain(dst)
		},
		Thieves: 8,
	}
}

func TestDefault(t *testing.T) { queuetest.Run(t, config()) }

// Blocks of one, two and three slots put a block boundary at almost every
// position: every cut, pop and push meets one. At the quick size
// (not full, not short) the suite runs on blocks of one and three, which
// keep a boundary at every position and at positions that no power of two
// divides; blocks of two then get only FuzzTinyBlocks' sequential seeds.
func TestTinyBlocks(t *testing.T) {
	sizes := []int{1, 2, 3}
	if testenv.Size(1, 0, 1) == 0 { // the quick size
		sizes = []int{1, 3}
	}
	for _, n := range sizes {
		t.Run(fmt.Sprintf("block=%d", n), func(t *testing.T) { queuetest.Run(t, config(blockq.WithBlockSize(n))) })
	}
}

func FuzzDefault(f *testing.F)    { queuetest.Fuzz(f, config()) }
func FuzzTinyBlocks(f *testing.F) { queuetest.Fuzz(f, config(blockq.WithBlockSize(2))) }

func TestZeroValue(t *testing.T) {
	var q blockq.Queue[string]
	_, ok := q.Pop()
	assert.False(t, ok)
	_, ok = q.Steal()
	assert.False(t, ok)
	assert.Nil(t, q.StealParcel(0.5))
	assert.True(t, q.Push("a"))
	assert.Equal(t, 2, q.PushBatch([]string{"b", "c"}))
	v, ok := q.Steal()
	assert.True(t, ok)
	assert.Equal(t, "a", v)
	v, ok = q.Pop()
	assert.True(t, ok)
	assert.Equal(t, "c", v)
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, wsq.Contract{OwnerHolds: true}, q.Contract(), "blockq relaxes nothing but what the owner holds")
}

func TestBadOptions(t *testing.T) {
	for _, n := range []int{0, -1, 1<<20 + 1} {
		msg := fmt.Sprintf("blockq: block size %d is not between 1 and %d", n, 1<<20)
		assert.PanicsWithValue(t, msg, func() { blockq.New[int](blockq.WithBlockSize(n)) })
	}
	q := blockq.New[int]()
	assert.Panics(t, func() { q.StealParcel(0) })
	assert.Panics(t, func() { q.StealBatch(nil, 1.5) })
	var l blockq.List[int]
	assert.Equal(t, 0, q.PushList(&l), "an empty list")
	assert.Equal(t, 0, q.PushList(nil))
	assert.Equal(t, 0, q.PushParcel(nil))
}

// A List is pushed whole, and a stolen part of a queue moves to another
// queue as a List without copying; both keep their order.
func TestHandoff(t *testing.T) {
	for _, bs := range []int{1, 2, 5, 256} {
		a := blockq.New[int](blockq.WithBlockSize(bs))
		var l blockq.List[int]
		for i := range 20 {
			l.Append(i)
		}
		require.Equal(t, 20, l.Len())
		require.Equal(t, 20, a.PushList(&l))
		assert.Zero(t, l.Len(), "PushList empties the list")
		require.True(t, a.Push(20))

		pc := a.StealParcel(0.5) // 11 of 21: 0..10
		require.NotNil(t, pc)
		require.Equal(t, 11, pc.Len())

		b := blockq.New[int](blockq.WithBlockSize(bs))
		require.True(t, b.Push(-1))
		require.Equal(t, 11, b.PushParcel(pc))
		assert.Zero(t, pc.Len())
		require.True(t, b.Push(99)) // appends after the handed-over blocks
		assert.Equal(t, 13, b.Len())
		assert.Equal(t, append(append([]int{-1}, queuetest.Seq(0, 11)...), 99), b.StealBatch(nil, 1))
		assert.Equal(t, queuetest.Seq(11, 10), a.StealBatch(nil, 1))

		// A List reused after its push starts empty.
		l.Append(7)
		require.Equal(t, 1, a.PushList(&l))
		v, ok := a.Pop()
		assert.True(t, ok)
		assert.Equal(t, 7, v)
	}
}

// Pops that empty blocks step back over them, and pushes reuse the block
// kept behind the back; pushing a List while blocks are kept drops them.
func TestPopAcrossBlocks(t *testing.T) {
	q := blockq.New[int](blockq.WithBlockSize(4))
	require.Equal(t, 10, q.PushBatch(queuetest.Seq(0, 10)))
	for want := 9; want >= 3; want-- {
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, want, v)
	}
	require.Equal(t, 5, q.PushBatch(queuetest.Seq(3, 5)))
	var l blockq.List[int]
	l.Append(8)
	l.Append(9)
	require.Equal(t, 2, q.PushList(&l))
	for want := 9; want >= 5; want-- {
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, want, v)
	}
	require.True(t, q.Push(5))
	// The owner took over what its back block held when it popped there,
	// and holds what it pushed since: a thief takes the rest, asks, and
	// takes what the owner's next operation publishes.
	require.Equal(t, 2, q.Held())
	assert.Equal(t, queuetest.Seq(0, 4), q.StealBatch(nil, 1))
	assert.Nil(t, q.StealBatch(nil, 1))
	require.True(t, q.Push(6))
	assert.Zero(t, q.Held(), "a push answers a thief's request")
	assert.Equal(t, queuetest.Seq(4, 3), q.StealBatch(nil, 1))
	_, ok := q.Pop()
	assert.False(t, ok)
}

// A parcel handed to a foreign queue is copied.
func TestParcelToOtherQueue(t *testing.T) {
	q := blockq.New[int]()
	q.PushBatch(queuetest.Seq(0, 5))
	pc := q.StealParcel(1)
	var other sliceQueue
	other.PushParcel(pc)
	assert.Equal(t, queuetest.Seq(0, 5), other.items)
}

type sliceQueue struct{ items []int }

func (s *sliceQueue) PushParcel(p wsq.Parcel[int]) { s.items = p.Drain(s.items) }

// The rules of holding items, step by step (see Holding items in the
// package documentation): a pop takes over its back block while older
// blocks hold more, takes the block before too when the back block holds
// less than two, never takes over in the front block, and a steal that
// finds nothing published asks for what the owner holds.
func TestHoldingItems(t *testing.T) {
	q := blockq.New[int](blockq.WithBlockSize(4))
	require.Equal(t, 10, q.PushBatch(queuetest.Seq(0, 10))) // blocks 0-3, 4-7, 8-9
	step := func(want, held, published int) {
		t.Helper()
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, want, v)
		require.Equal(t, held, q.Held(), "held after popping %d", want)
		require.Equal(t, published, q.Len(), "published after popping %d", want)
		require.NoError(t, q.CheckInvariants())
	}
	step(9, 1, 8) // takes over 8-9
	step(8, 0, 8) // held
	step(7, 3, 4) // takes over 4-7: the back block was empty
	require.True(t, q.Push(10))
	require.Equal(t, 4, q.Held(), "a push while holding holds")
	require.Equal(t, queuetest.Seq(0, 4), q.StealBatch(nil, 1))
	_, ok := q.Steal()
	require.False(t, ok, "nothing published")
	step(10, 0, 3) // answers the request: 4-6 published
	step(6, 0, 2)  // the front block: one item, with a claim
	step(5, 0, 1)
	step(4, 0, 0)
	_, ok = q.Pop()
	require.False(t, ok)

	// A back block that holds one item: the takeover takes the block
	// before too, and the owner steps back once it empties its block.
	q = blockq.New[int](blockq.WithBlockSize(4))
	require.Equal(t, 9, q.PushBatch(queuetest.Seq(0, 9))) // blocks 0-3, 4-7, 8
	step(8, 4, 4)                                         // takes over 4-8
	require.True(t, q.Push(9))
	q.Publish()
	require.Zero(t, q.Held())
	require.Equal(t, 9, q.Len())
}
