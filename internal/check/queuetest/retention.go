package queuetest

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// Pattern is a steady workload that never holds more than a few batches: a
// round pushes Batch items, pops one if Pop is set, and steals half of what
// is there. Before the first round one batch is pushed, and one item is
// stolen if Misalign is set, so that with Batch >= 2 every steal's cut falls
// inside a batch (Misalign) or on a batch boundary (without it, when Pop is
// not set).
type Pattern struct {
	Batch    int
	Misalign bool
	Pop      bool
}

func (p Pattern) String() string {
	return fmt.Sprintf("batch=%d/misalign=%v/pop=%v", p.Batch, p.Misalign, p.Pop)
}

// Patterns are the steady workloads the Retention check runs: small fixed
// batches, p = 0.5, cuts aligned and not, with and without pops. Regular
// patterns like these are what a binary tree search whose thieves take half
// produces, and they are where a queue that keeps removed items' memory
// reachable grows without bound.
func Patterns() []Pattern {
	var ps []Pattern
	for _, b := range []int{1, 2, 3, 10, 64} {
		for _, mis := range []bool{false, true} {
			for _, pop := range []bool{false, true} {
				ps = append(ps, Pattern{Batch: b, Misalign: mis, Pop: pop})
			}
		}
	}
	return ps
}

// RetainedPerItem runs rounds of pattern pat on q, an empty queue, and
// returns by how many bytes the live heap grew per item pushed in the
// measured rounds, which follow a warm-up. A queue whose memory follows what
// it holds, not what it ever held, gives about zero; one that keeps every
// removed item's storage reachable gives at least the size of a Wide (32
// bytes). push pushes a batch as q's owner would (nil means q.PushBatch) and
// steal takes half of q as a thief would (nil means q.StealBatch(_, 0.5)).
func RetainedPerItem(q wsq.Queue[Wide], pat Pattern, items int, push func([]Wide), steal func()) float64 {
	batch := make([]Wide, pat.Batch)
	var dst []Wide
	if push == nil {
		push = func(vs []Wide) { q.PushBatch(vs) }
	}
	if steal == nil {
		steal = func() {
			dst = q.StealBatch(dst[:0], 0.5)
			clear(dst)
		}
	}
	id := 0
	fill := func() {
		for i := range batch {
			batch[i] = MakeWide(id)
			id++
		}
		push(batch)
	}
	fill()
	if pat.Misalign {
		q.Steal()
	}
	round := func() {
		fill()
		if pat.Pop {
			q.Pop()
		}
		steal()
	}
	rounds := max(items/pat.Batch, 1)
	for range rounds / 4 {
		round()
	}
	before := LiveHeap()
	for range rounds {
		round()
	}
	after := LiveHeap()
	runtime.KeepAlive(q)
	return float64(int64(after)-int64(before)) / float64(rounds*pat.Batch)
}

// LiveHeap returns the bytes of live heap objects after a full collection:
// what the program keeps reachable. Memory tests compare it before and
// after a workload, with the objects under test still referenced.
func LiveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// MaxRetainedPerItem is the heap growth per pushed item that RetainedPerItem
// may report for a queue that does not keep removed items' storage
// reachable: a quarter of a Wide, well above the collector's noise over the
// items the check pushes and well below what a leak costs.
const MaxRetainedPerItem = 8

// testRetention runs every Pattern on the queue and checks that its memory
// follows what it holds, not what it ever held.
func testRetention(t testing.TB, cfg Config) {
	// The quick size, 2,500 items, keeps the collector's noise (a few KB
	// over the measured rounds) under a third of MaxRetainedPerItem, and a
	// leak of a Wide an item (32 bytes) four times above it.
	items := testenv.Size(10_000, 2_500, 40_000)
	for _, pat := range Patterns() {
		q := cfg.NewWide()
		got := RetainedPerItem(q, pat, items, nil, nil)
		assert.Less(t, got, float64(MaxRetainedPerItem), "%v: the live heap grew by %.1f bytes per pushed item", pat, got)
		assert.LessOrEqual(t, q.Len(), 2*pat.Batch+1, "%v: the pattern is not steady", pat)
	}
}
