package blockq_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/check/queuetest"
)

// item64 is a 64-byte item that holds pointers, so that its slots are
// scanned and cleared as a user's task records would be.
type item64 [8]*int

// blockBytes is the size of the largest block of item64 a queue
// allocates: what keeping one item can cost.
const blockBytes = blockq.MaxBlockSize * 64

// A queue's memory follows what it holds, also when its items arrived in
// parcels stolen from another queue: a parcel's links share the source
// queue's blocks, and each link may keep only its own block alive. The
// source queue, whose owner goes on using it, keeps none of the blocks it
// was robbed of either.
func TestReceivedParcelMemory(t *testing.T) {
	x := new(int)
	fill := func(q *blockq.Queue[item64], n int) {
		for range n {
			q.Push(item64{x})
		}
	}
	drain := func(q *blockq.Queue[item64], keep int) {
		for q.OwnerLen() > keep {
			_, ok := q.Pop()
			require.True(t, ok)
		}
	}

	t.Run("hand-off then drain", func(t *testing.T) {
		const n = 1 << 18 // 16 MiB of items
		before := queuetest.LiveHeap()
		a, b := blockq.New[item64](), blockq.New[item64]()
		fill(a, n)
		require.Equal(t, n, b.PushParcel(a.StealParcel(1)))
		a.Push(item64{x}) // the robbed owner goes on working
		a.Pop()
		drain(b, 0)
		for range 3 { // and so does the receiver
			fill(b, 1000)
			drain(b, 0)
		}
		grew := int64(queuetest.LiveHeap()) - int64(before)
		// Each queue keeps at most its back block and an empty one
		// behind it.
		assert.Less(t, grew, int64(4*blockBytes), "live heap after moving %d items through two queues and emptying both", n)
		runtime.KeepAlive(a)
		runtime.KeepAlive(b)
	})

	t.Run("one item kept from each parcel", func(t *testing.T) {
		const parcels, n = 8, 1 << 16 // 4 MiB of items per parcel
		before := queuetest.LiveHeap()
		b := blockq.New[item64]()
		for i := range parcels {
			a := blockq.New[item64]()
			fill(a, n)
			require.Equal(t, n, b.PushParcel(a.StealParcel(1)), "parcel %d", i)
			drain(b, i+1) // keep the oldest item of the parcel
		}
		grew := int64(queuetest.LiveHeap()) - int64(before)
		// A kept item keeps its block (blocks hold up to MaxBlockSize
		// items), and the owner keeps one empty block behind its back.
		assert.Less(t, grew, int64((parcels+2)*blockBytes), "live heap with one item kept from each of %d parcels of %d items", parcels, n)
		assert.Equal(t, parcels, b.OwnerLen())
		runtime.KeepAlive(b)
	})
}

// A thief that steals every item of the front block and beyond leaves the
// front behind the oldest item, where no thief moves it while the queue is
// empty; the owner moves it at its next operation, so that the emptied
// blocks are not kept. With blocks of a fixed size the queue's back block
// can be full at that moment (the owner can move the front only once it
// links the next block).
func TestRobbedQueueReleasesBlocks(t *testing.T) {
	x := new(int)
	for _, bs := range []int{0, 64, 1000} { // 0: blocks sized to the queue
		for _, n := range []int{1 << 16, 1<<16 + 1, 1<<16 - 1} {
			t.Run(fmt.Sprintf("block=%d/n=%d", bs, n), func(t *testing.T) {
				var opts []blockq.Option
				if bs > 0 {
					opts = append(opts, blockq.WithBlockSize(bs))
				}
				before := queuetest.LiveHeap()
				q := blockq.New[item64](opts...)
				for range n {
					q.Push(item64{x})
				}
				buf := q.StealBatch(nil, 1)
				require.Len(t, buf, n)
				buf = nil
				for range 2 * blockq.MaxBlockSize { // a block or two of owner work
					q.Push(item64{x})
					q.Push(item64{x})
					q.Pop()
				}
				drainAll(q)
				grew := int64(queuetest.LiveHeap()) - int64(before)
				assert.Less(t, grew, int64(4*blockBytes), "live heap of an emptied queue")
				runtime.KeepAlive(q)
			})
		}
	}
}

func drainAll[T any](q *blockq.Queue[T]) {
	for {
		if _, ok := q.Pop(); !ok {
			return
		}
	}
}
