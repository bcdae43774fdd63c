package blockq_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// TestRetentionLists runs the conformance suite's steady patterns with the
// queue's own bulk operations: batches pushed as Lists, halves stolen as
// parcels that are then emptied, or handed to a second queue whose owner
// pops them. A parcel shares its blocks with the queue it came from, so
// this is where a block could stay reachable after its items are gone.
func TestRetentionLists(t *testing.T) {
	items := testenv.Size(5_000, 3_000, 15_000)
	sizes := []int{2, 16, 0} // 0: blocks sized to the queue
	if testenv.Size(1, 0, 1) == 0 {
		// Quick: a block boundary at every other item, and the default
		// blocks; 16 lies between them.
		sizes = []int{2, 0}
	}
	for _, bs := range sizes {
		for _, kind := range []string{"PushList+StealBatch", "PushBatch+StealParcel", "PushList+handoff"} {
			for _, pat := range queuetest.Patterns() {
				var opts []blockq.Option
				if bs > 0 {
					opts = append(opts, blockq.WithBlockSize(bs))
				}
				q, other := blockq.New[queuetest.Wide](opts...), blockq.New[queuetest.Wide](opts...)
				var push func([]queuetest.Wide)
				if kind != "PushBatch+StealParcel" {
					push = func(vs []queuetest.Wide) {
						var l blockq.List[queuetest.Wide]
						for _, v := range vs {
							l.Append(v)
						}
						q.PushList(&l)
					}
				}
				var steal func()
				var buf []queuetest.Wide
				switch kind {
				case "PushBatch+StealParcel":
					steal = func() {
						if pc := q.StealParcel(0.5); pc != nil {
							buf = pc.Drain(buf[:0])
						}
					}
				case "PushList+handoff":
					steal = func() {
						other.PushParcel(q.StealParcel(0.5))
						for {
							if _, ok := other.Pop(); !ok {
								break
							}
						}
					}
				}
				name := fmt.Sprintf("block=%d/%s/%v", bs, kind, pat)
				got := queuetest.RetainedPerItem(q, pat, items, push, steal)
				assert.Less(t, got, float64(queuetest.MaxRetainedPerItem), "%s: the live heap grew by %.1f bytes per pushed item", name, got)
			}
		}
	}
}
