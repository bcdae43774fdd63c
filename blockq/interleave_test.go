//go:build wsqcheck

package blockq

import (
	"fmt"
	"strings"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/interleave"
	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
)

// The interleaving checks of blockq: small scenarios whose every schedule
// (or, for the larger ones, many random schedules) runs under the
// deterministic scheduler of internal/check/interleave, each history checked for
// linearizability and each final state for the structure's invariants. The
// blocks hold two items, so that every scenario meets block boundaries: a
// cut on a block edge, a block the owner empties while a thief walks it, a
// List linked while a thief reserves, and the front moving from one block
// to the next. Run them with
//
//	go test -tags wsqcheck -run Interleave ./blockq/

func interleaveConfig(blockSize int) qc.Config {
	return wrapConfig(blockSize, 0, 0)
}

// wrapConfig is interleaveConfig for queues whose positions start at pos
// and whose pop count starts at gen (see NewAt).
func wrapConfig(blockSize int, pos, gen uint64) qc.Config {
	return qc.Config{
		New:        func() wsq.Queue[int] { return NewAt[int](pos, gen, WithBlockSize(blockSize)) },
		PushNative: qc.PushList(func(q wsq.Queue[int], l *List[int]) int { return q.(*Queue[int]).PushList(l) }),
		StealNative: func(q wsq.Queue[int], dst []int, p float64) []int {
			pc := q.(*Queue[int]).StealParcel(p)
			if pc == nil {
				return dst
			}
			return pc.Drain(dst)
		},
		Invariants: func(q wsq.Queue[int]) error { return q.(*Queue[int]).CheckInvariants() },
		Names: func(q wsq.Queue[int]) interleave.Names {
			bq := q.(*Queue[int])
			return interleave.Names{Object: func(obj any) string {
				switch obj {
				case &bq.front:
					return "front"
				case &bq.tail:
					return "tail"
				}
				return ""
			}, Value: func(obj, v any) string {
				x, ok := v.(uint64)
				switch {
				case !ok:
					return ""
				case obj == &bq.tail:
					return fmt.Sprintf("{t %d, gen %d}", x>>posShift, ctlGen(x))
				}
				return ctlString(x)
			}}
		},
	}
}

// ctlString formats a control word for traces.
func ctlString(c uint64) string {
	switch c & stateMask {
	case stateLive:
		return fmt.Sprintf("{idx %d, gen %d}", ctlIdx(c), ctlGen(c))
	case stateMoved:
		return fmt.Sprintf("{moved idx %d, gen %d}", ctlIdx(c), ctlGen(c))
	}
	return fmt.Sprintf("%#x", c)
}

func interleaveScenarios() []qc.Scenario {
	// Each steal: one item, a proportion copied into a slice, and the
	// native hand-over of a parcel of blocks.
	ss := qc.PerSteal(qc.StealKinds("StealNative"), func(k qc.StealKind) []qc.Scenario {
		return []qc.Scenario{
			qc.OneItem(k),
			// A cut on the edge of the first block; the owner pops
			// into the second while the thief walks.
			{
				Name: "cut-on-edge/" + k.Name, Prefill: 4, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Pop()},
				Thieves: [][]qc.Op{{k.Op(0.5)}},
			},
			// The owner empties the back block and steps back while the
			// thief's steal reaches past the front block.
			{
				Name: "pop-across-edge/" + k.Name, Prefill: 3, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Push()},
				Thieves: [][]qc.Op{{k.Op(1)}},
			},
			// The owner drains and refills, the refill reusing the block
			// it kept, while the thief steals.
			qc.DrainRefill(k, 3, 1),
			// A pre-built List linked after a back block the owner seals
			// early, while the thief reserves.
			{
				Name: "list-while-steal/" + k.Name, Prefill: 1, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.PushNative(3), qc.Pop()},
				Thieves: [][]qc.Op{{k.Op(0.6)}},
			},
		}
	})
	ss = append(ss,
		// Two thieves: one moves the front while the other reserves from
		// the block it leaves, and the owner pops.
		qc.Scenario{
			Name: "two-thieves-move", Prefill: 5, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.6)}, {qc.Steal(), qc.Steal()}},
		},
		qc.Scenario{
			Name: "two-thieves-lists", Prefill: 3, Bound: 3,
			Owner:   []qc.Op{qc.PushNative(2), qc.Pop(), qc.Push()},
			Thieves: [][]qc.Op{{qc.StealNative(0.5)}, {qc.StealBatch(1)}},
		},
		// A thief reads the front's word, and stalls; the owner empties
		// the front link, seals it at its fill to link a List after it,
		// and pops and pushes back to the length the thief saw. (Before
		// the word counted pops, it came back to the value the thief read
		// and its reservation succeeded, with its item in the List's
		// block: chaos mode found that. Now every pop changes the word for
		// good.)
		qc.Scenario{
			Name: "stale-span", Prefill: 2, Bound: 2,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.PushNative(2), qc.Pop(), qc.Push(), qc.PushNative(1), qc.Pop()},
			Thieves: [][]qc.Op{{qc.Steal()}},
		},
		// A thief takes the whole queue, a block and a half, so that the
		// oldest position lies beyond the front and no thief will move
		// the front (the queue is empty): the owner's pop meets the
		// steal and cannot move it (the position after the last item is
		// in no link: the back block is full), its push can, while a
		// second thief reserves the pushed item and helps.
		qc.Scenario{
			Name: "owner-moves-front", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Push(), qc.Pop(), qc.Push()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}, {qc.Steal()}},
		},
		// The same with an empty link behind the owner's full back
		// block: the pops step back from the second block and keep it
		// for pushes, the push fills the first, the thief takes
		// everything, the owner's pop meets it (the oldest position is
		// in the kept link, where the front must not go: the List push
		// that follows replaces that link), and a second steal takes
		// from the List.
		qc.Scenario{
			Name: "owner-moves-front-spare", Prefill: 4, Bound: 2,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Pop(), qc.Push(), qc.Pop(), qc.PushNative(2)},
			Thieves: [][]qc.Op{{qc.StealBatch(1), qc.Steal()}},
		},
		// A thief steals the one item of the front link, and steals again
		// while the owner seals that link at its fill to append a List:
		// the thief's next item lies in the List, beyond the seal.
		qc.Scenario{
			Name: "steal-then-list", Prefill: 1, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.PushNative(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.Steal(), qc.Steal()}},
		},
		// A thief copies out the whole first block and marks it emptied;
		// the owner's next block reuses its slots, while a second thief
		// steals what is left and what the owner pushes into them.
		qc.Scenario{
			Name: "reuse-emptied", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Push(), qc.PushBatch(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.5)}, {qc.Steal(), qc.StealBatch(1)}},
		},
		// Two thieves share the first block: one takes its first item,
		// the other the rest of it and more, so that neither copied the
		// whole block and the owner must not reuse it.
		qc.Scenario{
			Name: "shared-block", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Push(), qc.Push(), qc.Push()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.25)}, {qc.StealBatch(0.7)}},
		},
		// The owner's first pop takes over the back block while two
		// thieves reserve from the block before it; it pops what it holds
		// and pushes onto it, and pops into the block the thieves share.
		qc.Scenario{
			Name: "takeover", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Push(), qc.Pop(), qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}, {qc.Steal(), qc.Steal()}},
		},
		// The back block holds one item: the takeover takes the block
		// before too, and the owner steps back over the emptied block
		// while it holds items, as thieves reserve.
		qc.Scenario{
			Name: "takeover-across", Prefill: 5, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Push(), qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}, {qc.Steal(), qc.Steal()}},
		},
		// The owner takes over and holds an item while a thief takes what
		// is published, finds nothing more and asks; the owner's push and
		// pop answer, racing with the thief's next steal.
		qc.Scenario{
			Name: "hold-and-ask", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Push(), qc.Pop(), qc.Push()},
			Thieves: [][]qc.Op{{qc.StealBatch(1), qc.Steal(), qc.Steal()}},
		},
		// Larger scopes, at random.
		qc.Scenario{
			Name: "random-mix", Prefill: 5, Random: 3000, Seed: 1,
			Owner:   []qc.Op{qc.PushBatch(3), qc.Pop(), qc.PushNative(3), qc.Pop(), qc.Pop(), qc.Push(), qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.5), qc.Steal(), qc.StealNative(0.3)}, {qc.StealNative(1), qc.Steal()}, {qc.Steal(), qc.StealBatch(0.7)}},
		},
	)
	return ss
}

// The counters at their wraps: the queue's positions start 3 before the
// wrap of 2^34 and its pop count 2 before the wrap of 2^30, so that the
// second pop moves the front to a new tenure while thieves reserve, move
// the front themselves and compute lengths across both wraps.
func wrapScenarios() []qc.Scenario {
	ss := qc.PerSteal(qc.StealKinds("StealNative"), func(k qc.StealKind) []qc.Scenario {
		return []qc.Scenario{qc.OneItem(k), qc.DrainRefill(k, 2, 0.5)}
	})
	return append(ss,
		qc.Scenario{
			Name: "pops-across-wrap", Prefill: 3, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Push(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.5)}},
		},
		qc.Scenario{
			Name: "two-thieves-across-wrap", Prefill: 4, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.PushNative(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.6)}, {qc.Steal(), qc.Steal()}},
		},
	)
}

func TestInterleaveCountersWrap(t *testing.T) {
	qc.Run(t, wrapConfig(2, PosRange-3, GenRange-2), wrapScenarios())
}

func TestInterleaveTwoSlotBlocks(t *testing.T) {
	qc.Run(t, interleaveConfig(2), interleaveScenarios())
}

// One-slot blocks: every position is a block edge.
func TestInterleaveOneSlotBlocks(t *testing.T) {
	var ss []qc.Scenario
	for _, s := range interleaveScenarios() {
		if strings.HasPrefix(s.Name, "cut-on-edge/") || strings.HasPrefix(s.Name, "two-thieves") || s.Name == "stale-span" || strings.HasPrefix(s.Name, "owner-moves-front") {
			ss = append(ss, s)
		}
	}
	qc.Run(t, interleaveConfig(1), ss)
}
