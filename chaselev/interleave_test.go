//go:build wsqcheck

package chaselev

import (
	"fmt"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/interleave"
	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
)

// The interleaving checks of chaselev: small scenarios whose every schedule
// (or, for the larger ones, many random schedules) runs under the
// deterministic scheduler of internal/check/interleave, each history checked for
// linearizability. Run them with
//
//	go test -tags wsqcheck -run Interleave ./chaselev/

func interleaveConfig(newQ func() *Deque[int]) qc.Config {
	return qc.Config{
		New: func() wsq.Queue[int] { return newQ() },
		Names: func(q wsq.Queue[int]) interleave.Names {
			d := q.(*Deque[int])
			return interleave.Names{Object: func(obj any) string {
				switch obj {
				case &d.head:
					return "head"
				case &d.tail:
					return "tail"
				case &d.buf:
					return "buf"
				}
				return ""
			}, Value: func(obj, v any) string {
				if x, ok := v.(uint64); ok && obj == &d.head {
					return headString(x)
				}
				return ""
			}}
		},
	}
}

// headString formats a head value for traces.
func headString(h uint64) string {
	s, real := unpack(h)
	switch real - s {
	case pendingLen:
		return fmt.Sprintf("{s %d, pending}", s)
	case cancelledLen:
		return fmt.Sprintf("{s %d, cancelled}", s)
	}
	return fmt.Sprintf("{s %d, real %d}", s, real)
}

func interleaveScenarios() []qc.Scenario {
	// Each steal: one item, and the batch steal at proportions that take
	// one item (its single-claim path) or several (the announced path).
	ss := qc.PerSteal(qc.StealKinds(""), func(k qc.StealKind) []qc.Scenario {
		return []qc.Scenario{
			qc.OneItem(k),
			qc.PushPop(k),
			// The owner pops into the range a batch steal counts: the
			// announcement must be cancelled or the pop counted.
			{
				Name: "pop-into-claim/" + k.Name, Prefill: 3, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.Pop()},
				Thieves: [][]qc.Op{{k.Op(1)}},
			},
			qc.DrainRefill(k, 2, 1),
		}
	})
	ss = append(ss,
		// Two thieves and a popping owner: a cancelled announcement must
		// not be mistaken for a second thief's announcement at the same
		// position.
		qc.Scenario{
			Name: "two-thieves-cancel", Prefill: 3, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}, {qc.StealBatch(1)}},
		},
		qc.Scenario{
			Name: "two-thieves-mixed", Prefill: 3, Bound: 3,
			Owner:   []qc.Op{qc.Pop(), qc.Push(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.Steal(), qc.StealBatch(0.5)}, {qc.StealBatch(1)}},
		},
		// Larger scopes, at random.
		qc.Scenario{
			Name: "random-mix", Prefill: 4, Random: 3000, Seed: 1,
			Owner:   []qc.Op{qc.PushBatch(3), qc.Pop(), qc.Pop(), qc.Push(), qc.Pop(), qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(0.5), qc.Steal(), qc.StealBatch(0.3)}, {qc.StealBatch(1), qc.Steal()}},
		},
	)
	return ss
}

func TestInterleaveUnbounded(t *testing.T) {
	qc.Run(t, interleaveConfig(func() *Deque[int] { return NewUnbounded[int](4) }), interleaveScenarios())
}

// A tiny unbounded ring that grows while thieves read the old one.
func TestInterleaveGrowing(t *testing.T) {
	qc.Run(t, interleaveConfig(func() *Deque[int] { return NewUnbounded[int](1) }), []qc.Scenario{
		{
			Name: "grow-during-steal", Prefill: 2, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.PushBatch(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}},
		},
		{
			Name: "grow-during-steal-one", Prefill: 1, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Push(), qc.Push(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.Steal(), qc.Steal()}},
		},
	})
}

// A bounded ring kept full while thieves hold claims, across the 32-bit
// wrap-around of positions.
func TestInterleaveBoundedWrap(t *testing.T) {
	newQ := func() *Deque[int] {
		q := NewBounded[int](2)
		q.SetStart(^uint32(0))
		return q
	}
	qc.Run(t, interleaveConfig(newQ), []qc.Scenario{
		{
			Name: "full-during-claim", Prefill: 2, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Push(), qc.Pop(), qc.Push(), qc.Push()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}},
		},
		{
			Name: "full-during-steal-one", Prefill: 2, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Push(), qc.PushBatch(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.Steal(), qc.Steal()}},
		},
	})
}
