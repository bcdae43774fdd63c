//go:build wsqcheck

package chaselev

import (
	"testing"

	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
)

// TestInterleaveStealAcrossCancel guards the bug chaos mode found: a
// one-item steal loads an idle head and tail and stalls; a batch steal
// announces at the same position; the owner cancels the announcement and
// pops every item, the last one included; the announcer clears its
// cancelled state. Had the owner taken the last item without moving head,
// head would be back at the idle value the stalled steal loaded, whose CAS
// would then claim the empty slot (a thief receives an item that was never
// pushed) or, after a refill, take an item the owner may pop too. The
// scenarios explore it on an unbounded deque and on a bounded one across
// the 32-bit wrap of the positions, with at most 3 preemptions, and at
// random with a third thief.
func TestInterleaveStealAcrossCancel(t *testing.T) {
	for _, d := range []struct {
		name string
		newQ func() *Deque[int]
	}{
		{"unbounded", func() *Deque[int] { return NewUnbounded[int](4) }},
		{"bounded-wrap", func() *Deque[int] {
			q := NewBounded[int](2)
			q.SetStart(^uint32(0))
			return q
		}},
	} {
		t.Run(d.name, func(t *testing.T) {
			qc.Run(t, interleaveConfig(d.newQ), []qc.Scenario{
				{
					Name: "steal-across-cancel", Prefill: 2, Bound: 3,
					Owner:   []qc.Op{qc.Pop(), qc.Pop()},
					Thieves: [][]qc.Op{{qc.Steal()}, {qc.StealBatch(1)}},
				},
				{
					Name: "steal-across-cancel-refill", Prefill: 2, Bound: 3,
					Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Push()},
					Thieves: [][]qc.Op{{qc.Steal()}, {qc.StealBatch(1)}},
				},
				{
					Name: "random-across-cancel", Prefill: 3, Random: 5000, Seed: 1,
					Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Pop(), qc.Push(), qc.Pop(), qc.PushBatch(2)},
					Thieves: [][]qc.Op{{qc.Steal(), qc.StealBatch(0.5)}, {qc.StealBatch(1), qc.Steal()}, {qc.Steal()}},
				},
			})
		})
	}
}
