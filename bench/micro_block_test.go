package bench

import (
	"fmt"
	"testing"

	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/check/queuetest"
)

// The block-queue contenders (blockq):
//
//	push   bq        Push of one item
//	batch  bq        PushBatch: copies the batch into blocks, one publication
//	       bq-list   PushList of a List built outside the timer: constant time
//	steal  bq        StealParcel: the native hand-off, which relinks the stolen
//	                 blocks (the untimed refill drains the parcel, checks its
//	                 items and pushes them back with PushBatch)
//	       bq-batch  StealBatch: copies the stolen items into a slice
//	pop    bq
//
// As the rings are created with room for the whole window and warmed, the
// bq push contender reserves room for the window (Reserve links empty blocks
// behind the back) and warms it by pushing and popping the window, outside
// the timer; BenchmarkPushBatchFresh shows what pushing into a fresh queue
// costs, with its blocks allocated inside the timed loop (32 to 4096 slots
// each, growing with the queue).
func init() {
	newWarm := func(items int) *blockq.Queue[int] {
		q := blockq.New[int]()
		warmBlocks(q, items)
		return q
	}
	pushContenders = append(pushContenders, pushContenderOf("bq", newWarm, bqPushItems))
	batchContenders = append(batchContenders,
		pushContenderOf("bq", newWarm, bqPushes),
		pushContender{name: "bq-list", maxOps: listWindowOps, prepare: func(batch, ops int) func() {
			q := blockq.New[int]()
			lists := make([]blockq.List[int], ops)
			for i := range lists {
				for v := range batch {
					lists[i].Append(v)
				}
			}
			return func() {
				for i := range lists {
					if q.PushList(&lists[i]) != batch {
						panic("bench: bq-list: a push did not take its whole batch")
					}
				}
			}
		}},
	)
	stealContenders = append(stealContenders,
		stealContender{"bq", func(n int, p float64) (func() int, func()) {
			q := blockq.New[int]()
			q.PushBatch(queuetest.Seq(0, n))
			var stolen *blockq.List[int]
			var buf []int
			oldest := 0 // as in sliceSteal: the queue holds a rotation of 0..n-1
			return func() int {
					stolen = q.StealParcel(p).(*blockq.List[int])
					return stolen.Len()
				}, func() {
					k := stolen.Len()
					// Check the parcel's items without emptying it: copy
					// them out and push the copy back as the refill.
					buf = stolen.Drain(buf[:0])
					for i, v := range buf {
						if v != (oldest+i)%n {
							panic(fmt.Sprintf("bench: bq: stolen item %d is %d; want %d", i, v, (oldest+i)%n))
						}
					}
					oldest = (oldest + k) % n
					if q.PushBatch(buf) != k || q.Len() != n {
						panic("bench: bq: the refill did not restore the queue")
					}
				}
		}},
		stealContender{"bq-batch", func(n int, p float64) (func() int, func()) {
			return sliceSteal("bq-batch", blockq.New[int](), n, p)
		}},
	)
	popContenders = append(popContenders, popContenderOf("bq", false, func() *blockq.Queue[int] { return blockq.New[int]() }, bqPops))
}

// The timed loops of blockq (see pushContenderOf and popContenderOf).

func bqPushItems(name string, q *blockq.Queue[int], vs []int, ops int) {
	v := vs[0]
	for range ops {
		if !q.Push(v) {
			panic("bench: " + name + ": Push refused an item")
		}
	}
}

func bqPushes(name string, q *blockq.Queue[int], vs []int, ops int) {
	for range ops {
		if q.PushBatch(vs) != len(vs) {
			panic("bench: " + name + ": a push did not take its whole batch")
		}
	}
}

func bqPops(name string, queues []*blockq.Queue[int]) {
	for _, q := range queues {
		for range q.Len() {
			if _, ok := q.Pop(); !ok {
				panic("bench: " + name + ": Pop found the queue empty")
			}
		}
	}
}

// warmBlocks reserves room for n items in q and touches it, as warm does
// for a ring, by pushing n items and popping them all.
func warmBlocks(q *blockq.Queue[int], n int) {
	q.Reserve(n)
	vs := queuetest.Seq(0, min(n, 1<<12))
	for left := n; left > 0; left -= len(vs) {
		q.PushBatch(vs[:min(left, len(vs))])
	}
	for range n {
		if _, ok := q.Pop(); !ok {
			panic("bench: bq: warming lost an item")
		}
	}
}

// BenchmarkPushBatchFresh measures PushBatch into a fresh block queue,
// which allocates its blocks inside the timed loop: the cost that
// BenchmarkPushBatch's reserved room takes out, as it takes out a ring's
// growth.
func BenchmarkPushBatchFresh(b *testing.B) {
	for _, batch := range batchSizes {
		b.Run(fmt.Sprintf("queue=bq/batch=%d", batch), func(b *testing.B) {
			fresh := pushContenderOf("bq", func(int) *blockq.Queue[int] { return blockq.New[int]() }, bqPushes)
			timeWindows(b, pushWindow(fresh, batch), func(ops int) func() { return fresh.prepare(batch, ops) })
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(batch), "ns/item")
		})
	}
}
