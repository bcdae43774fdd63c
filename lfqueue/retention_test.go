package lfqueue_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/lfqueue"
)

// TestRetentionLists runs the conformance suite's steady patterns (push a
// batch, steal half, with the cut inside a push or on its boundary) with
// lfqueue's own bulk operations: batches pushed as pre-built Lists, and
// halves stolen as sub-lists (StealParcel) that are then emptied, or handed to a second
// queue whose owner pops them. The suite's Retention check covers PushBatch
// and StealBatch. Before the stolen nodes' links were cleared, a queue that
// never held more than three items kept every node ever pushed reachable.
func TestRetentionLists(t *testing.T) {
	items := testenv.Size(5_000, 3_000, 15_000)
	pushList := func(q *lfqueue.Queue[queuetest.Wide]) func([]queuetest.Wide) {
		return func(vs []queuetest.Wide) {
			var l lfqueue.List[queuetest.Wide]
			l.Grow(len(vs))
			for _, v := range vs {
				l.Append(v)
			}
			q.PushList(&l)
		}
	}
	for _, opts := range [][]lfqueue.Option{nil, {lfqueue.WithSkipCount()}} {
		for _, kind := range []string{"PushBatch+StealParcel", "PushList+StealBatch", "PushList+StealParcel", "PushList+handoff"} {
			for _, pat := range queuetest.Patterns() {
				if pat.Batch < 2 || pat.Batch > 10 {
					continue
				}
				q := lfqueue.New[queuetest.Wide](opts...)
				other := lfqueue.New[queuetest.Wide](opts...)
				var push func([]queuetest.Wide)
				if kind != "PushBatch+StealParcel" {
					push = pushList(q)
				}
				var steal func()
				switch kind {
				case "PushBatch+StealParcel", "PushList+StealParcel":
					steal = func() {
						pc := q.StealParcel(0.5)
						if pc == nil {
							return
						}
						l := pc.(*lfqueue.List[queuetest.Wide])
						for {
							if _, ok := l.Pop(); !ok {
								break
							}
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
				name := fmt.Sprintf("skip=%v/%s/%v", len(opts) > 0, kind, pat)
				got := queuetest.RetainedPerItem(q, pat, items, push, steal)
				assert.Less(t, got, float64(queuetest.MaxRetainedPerItem), "%s: the live heap grew by %.1f bytes per pushed item", name, got)
			}
		}
	}
}

// An Append to a list allocates in proportion to what is appended, not to
// what the list holds: one Append to a stolen list of a million items used
// to allocate a block of a million nodes.
func TestAppendOntoStolenListAllocatesLittle(t *testing.T) {
	const n = 1 << 20
	q := lfqueue.New[int]()
	q.PushBatch(queuetest.Seq(0, n))
	pc := q.StealParcel(1)
	require.NotNil(t, pc)
	require.Equal(t, n, pc.Len())
	l := pc.(*lfqueue.List[int])
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l.Append(-1)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4096), "bytes allocated by one Append")
	assert.Equal(t, n+1, l.Len())

	// A list built by Append alone allocates about twice what it holds.
	var m lfqueue.List[int]
	runtime.ReadMemStats(&before)
	for i := range 10_000 {
		m.Append(i)
	}
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(2*10_000*16+4096*16), "bytes allocated by 10,000 Appends")
	assert.Equal(t, queuetest.Seq(0, 10_000), m.Drain(nil))
}
