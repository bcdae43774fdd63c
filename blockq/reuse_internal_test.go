package blockq

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/pad"
)

// A block whose every item one thief copied out serves again as the
// owner's next block, once the front has moved past it; a block that a
// thief emptied only in part, or that went out in a parcel, does not.
func TestEmptiedBlockReused(t *testing.T) {
	q := New[int](WithBlockSize(4))
	require.Equal(t, 12, q.PushBatch([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
	first := q.front.Load().l
	second := first.next.Load()
	assert.Equal(t, []int{1, 2, 3, 4, 5}, q.StealBatch(nil, 0.4), "the first block and one item of the second")
	assert.NotZero(t, first.emptied.Load(), "the thief copied the first block out whole")
	assert.Zero(t, second.emptied.Load(), "and the second only in part")

	require.True(t, q.Push(13)) // the back block is full: the next one is the first's
	assert.Same(t, &first.slots[0], &q.own.back.slots[0], "the owner's new block reuses the emptied one")
	assert.Empty(t, q.own.recycled)
	require.NoError(t, q.CheckInvariants())
	assert.Equal(t, []int{6, 7, 8, 9, 10, 11, 12, 13}, q.StealBatch(nil, 1))

	// A parcel's blocks are the receiver's: the robbed queue keeps none.
	p := New[int](WithBlockSize(4))
	p.PushBatch([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	pfirst := p.front.Load().l
	pc := p.StealParcel(0.5)
	require.NotNil(t, pc)
	assert.Zero(t, pfirst.emptied.Load())
	require.True(t, p.Push(13))
	assert.NotSame(t, &pfirst.slots[0], &p.own.back.slots[0])
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6}, pc.Drain(nil))
}

// The owner keeps emptied blocks only while they hold no more slots than
// its queue holds items plus the push under way: a queue that thieves
// emptied keeps none.
func TestEmptiedBlocksBounded(t *testing.T) {
	q := New[int](WithBlockSize(4))
	vs := make([]int, 64)
	require.Equal(t, 64, q.PushBatch(vs))
	require.Len(t, q.StealBatch(nil, 1), 64)
	require.True(t, q.Push(1))
	assert.Empty(t, q.own.recycled, "an empty queue keeps no emptied block")
	require.NoError(t, q.CheckInvariants())

	require.Equal(t, 64, q.PushBatch(vs))
	require.Len(t, q.StealBatch(nil, 0.5), 33)
	require.Equal(t, 8, q.PushBatch(vs[:8])) // harvests, for 32 items and a push of 8
	kept := 0
	for _, b := range q.own.recycled {
		kept += len(b)
	}
	assert.LessOrEqual(t, kept, q.Len())
	require.NoError(t, q.CheckInvariants())
}

// The owner's state, the tail word the owner writes and thieves load, and
// the front pointer thieves load and move lie on different cache lines, and
// the fields of the owner's fast paths on one line.
func TestLayout(t *testing.T) {
	field := func(typ reflect.Type, name string) reflect.StructField {
		f, ok := typ.FieldByName(name)
		require.True(t, ok, name)
		return f
	}
	qt := reflect.TypeFor[Queue[int]]()
	front, tail, own := field(qt, "front").Offset, field(qt, "tail").Offset, field(qt, "own")
	assert.GreaterOrEqual(t, front, pad.Size, "front is not padded from the previous object")
	assert.GreaterOrEqual(t, tail-front, pad.Size, "front and tail share a cache line")
	assert.GreaterOrEqual(t, own.Offset-tail, pad.Size, "tail and the owner's state share a cache line")
	assert.GreaterOrEqual(t, qt.Size()-(own.Offset+own.Type.Size()), pad.Size, "the owner's state is not padded from the next object")
	if reflect.TypeFor[uintptr]().Size() == 8 {
		lt := reflect.TypeFor[link[int]]()
		assert.Equal(t, uintptr(128), lt.Size(), "a link is two cache lines")
		first := field(lt, "first")
		assert.LessOrEqual(t, first.Offset+field(first.Type, "l").Offset+8, uintptr(64), "what a thief reads of a link is not in its first line")
	}
	c := field(own.Type, "c")
	assert.LessOrEqual(t, c.Offset+c.Type.Size(), pad.Size, "the fast paths' fields span more than a cache line")
}
