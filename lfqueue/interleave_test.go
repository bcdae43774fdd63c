//go:build wsqcheck

package lfqueue

import (
	"errors"
	"fmt"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/check/interleave"
	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
)

// The interleaving checks of lfqueue: small scenarios whose every schedule
// (or, for the larger ones, many random schedules) runs under the
// deterministic scheduler of internal/check/interleave. Run them with
//
//	go test -tags wsqcheck -run Interleave ./lfqueue/

// interleaveConfig describes lfqueue to the checker.
func interleaveConfig(opts ...Option) qc.Config {
	return qc.Config{
		New:        func() wsq.Queue[int] { return New[int](opts...) },
		PushNative: qc.PushList(func(q wsq.Queue[int], l *List[int]) int { return q.(*Queue[int]).PushList(l) }),
		StealNative: func(q wsq.Queue[int], dst []int, p float64) []int {
			pc := q.(*Queue[int]).StealParcel(p)
			if pc == nil {
				return dst
			}
			l := pc.(*List[int])
			if err := checkList(l); err != nil {
				panic(fmt.Sprintf("StealParcel handed over a broken list: %v", err))
			}
			return l.Drain(dst)
		},
		Invariants: func(q wsq.Queue[int]) error {
			if s := q.(*Queue[int]).CheckInvariants(); s != "" {
				return errors.New(s)
			}
			return nil
		},
		Names: func(q wsq.Queue[int]) interleave.Names { return newTraceNames(q.(*Queue[int])).names() },
	}
}

// checkList checks the structure a List promises: n nodes from top down to
// bottom, and nothing below bottom.
func checkList[T any](l *List[T]) error {
	if l.n == 0 {
		if l.top != nil || l.bottom != nil {
			return errors.New("an empty list has nodes")
		}
		return nil
	}
	nd := l.top
	for i := 1; i < l.n; i++ {
		if nd = nd.next.Plain(); nd == nil {
			return fmt.Errorf("the chain ends after %d of %d nodes", i, l.n)
		}
	}
	if nd != l.bottom {
		return errors.New("the oldest node is not the list's bottom")
	}
	if nd.next.Plain() != nil {
		return errors.New("the list's bottom links further down")
	}
	return nil
}

// traceNames names lfqueue's atomic fields in traces: ctl, lastPush and
// thief.mu; nN.next for the next field of the node of item N; pushS.prev
// for the prev field of the record of the push with sequence number S. It
// learns the nodes and push records from the values the threads load and
// store (a thread reaches every node and record through one of them) and
// remembers whose field each next and prev is.
type traceNames struct {
	q     *Queue[int]
	nodes map[*node[int]]string
	nexts map[*atomicx.Pointer[node[int]]]*node[int]             // a node's next field, to the node
	prevs map[*atomicx.Pointer[pushRecord[int]]]*pushRecord[int] // a record's prev field, to the record
}

func newTraceNames(q *Queue[int]) *traceNames {
	t := &traceNames{
		q:     q,
		nodes: make(map[*node[int]]string),
		nexts: make(map[*atomicx.Pointer[node[int]]]*node[int]),
		prevs: make(map[*atomicx.Pointer[pushRecord[int]]]*pushRecord[int]),
	}
	if rec := q.lastPush.Plain(); rec != nil {
		t.record(rec) // the prefill
	}
	return t
}

func (t *traceNames) names() interleave.Names {
	return interleave.Names{Object: t.object, Value: t.value}
}

// node names nd by the item it holds, remembering the name for when the
// item is removed.
func (t *traceNames) node(nd *node[int]) string {
	if nd == nil {
		return "nil"
	}
	t.nexts[&nd.next] = nd
	if s, ok := t.nodes[nd]; ok {
		return s
	}
	if nd.val == 0 {
		return fmt.Sprintf("n?%p", nd)
	}
	s := fmt.Sprintf("n%d", nd.val)
	t.nodes[nd] = s
	return s
}

// record names the push record rec and the nodes of its chain.
func (t *traceNames) record(rec *pushRecord[int]) string {
	if rec == nil {
		return "nil"
	}
	t.prevs[&rec.prev] = rec
	nd := rec.top
	for i := 0; i < 64 && nd != nil; i++ {
		t.node(nd)
		nd = nd.next.Plain()
	}
	return fmt.Sprintf("push%d", rec.seq)
}

func (t *traceNames) object(obj any) string {
	q := t.q
	switch x := obj.(type) {
	case *atomicx.Uint64:
		switch x {
		case &q.ctl:
			return "ctl"
		case &q.thief.turns:
			return "thief.turns"
		}
	case *atomicx.Mutex:
		if x == &q.thief.mu {
			return "thief.mu"
		}
	case *atomicx.Pointer[pushRecord[int]]:
		if x == &q.lastPush {
			return "lastPush"
		}
		if rec, ok := t.prevs[x]; ok {
			return t.record(rec) + ".prev"
		}
	case *atomicx.Pointer[node[int]]:
		if nd, ok := t.nexts[x]; ok {
			return t.node(nd) + ".next"
		}
	}
	return ""
}

func (t *traceNames) value(obj, v any) string {
	switch x := v.(type) {
	case uint64:
		if obj == &t.q.ctl {
			return fmt.Sprintf("{seq %d, size %d}", ctlSeq(x), ctlSize(x))
		}
	case *pushRecord[int]:
		if x == nil {
			return "nil"
		}
		return fmt.Sprintf("%s{top %s idx %d}", t.record(x), t.node(x.top), x.idx)
	case *node[int]:
		return t.node(x)
	}
	return ""
}

var variants = []struct {
	name string
	opts []Option
}{
	{"basic", nil},
	{"skipcount", []Option{WithSkipCount()}},
}

// interleaveScenarios are the scenarios run for each variant.
func interleaveScenarios() []qc.Scenario {
	random := 10000 // executions of each random scenario
	if testing.Short() {
		random = 2000
	}
	// Each of the three steals: one item, a proportion copied into a
	// slice, and the native hand-over of a linked sub-list.
	ss := qc.PerSteal(qc.StealKinds("StealParcel"), func(k qc.StealKind) []qc.Scenario {
		return []qc.Scenario{
			qc.PushPop(k),
			qc.OneItem(k),
			qc.DrainRefill(k, 2, 0.5),
			// A push in flight (published, not yet counted) while the
			// thief reserves everything: the owner's count fails and it
			// unlinks its batch.
			{
				Name: "inflight-push/" + k.Name, Prefill: 1, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.PushBatch(2), qc.Pop()},
				Thieves: [][]qc.Op{{k.Op(1)}},
			},
			// The same with a pre-linked native batch and a queue of
			// two, and a second steal after it.
			{
				Name: "inflight-pushlist/" + k.Name, Prefill: 2, Bound: qc.Unbounded,
				Owner:   []qc.Op{qc.PushNative(2), qc.Pop()},
				Thieves: [][]qc.Op{{k.Op(1), k.Op(0.5)}},
			},
		}
	})
	ss = append(ss,
		// Two thieves serialized by the thief lock, racing the owner.
		qc.Scenario{
			Name: "two-thieves", Prefill: 3, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Pop(), qc.Push()},
			Thieves: [][]qc.Op{{qc.Steal()}, {qc.StealNative(0.5)}},
		},
		qc.Scenario{
			Name: "two-thieves-batch", Prefill: 2, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.PushBatch(2), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealBatch(1)}, {qc.StealNative(0.5)}},
		},
		// Consecutive native steals, between which the owner drains and
		// refills: the skip-count steal must notice that the node it cut
		// at last time is gone.
		qc.Scenario{
			Name: "steal-drain-refill-steal", Prefill: 3, Bound: qc.Unbounded,
			Owner:   []qc.Op{qc.Pop(), qc.Pop(), qc.PushNative(2)},
			Thieves: [][]qc.Op{{qc.StealNative(0.5), qc.StealNative(0.5)}},
		},
		// Larger scopes, at random: longer owner programs against two
		// and three thieves mixing every kind of steal.
		qc.Scenario{
			Name: "random-two-thieves", Prefill: 4, Random: random, Seed: 1,
			Owner:   []qc.Op{qc.PushBatch(3), qc.Pop(), qc.Pop(), qc.Push(), qc.PushNative(2), qc.Pop(), qc.Pop()},
			Thieves: [][]qc.Op{{qc.StealNative(0.5), qc.Steal(), qc.StealNative(0.3)}, {qc.StealBatch(0.5), qc.StealNative(1)}},
		},
		qc.Scenario{
			Name: "random-three-thieves", Prefill: 2, Random: random, Seed: 1, Depth: 4,
			Owner: []qc.Op{qc.Pop(), qc.Pop(), qc.PushNative(3), qc.Pop(), qc.PushBatch(2), qc.Pop(), qc.Push(), qc.Pop()},
			Thieves: [][]qc.Op{
				{qc.Steal(), qc.StealNative(0.5)},
				{qc.StealBatch(1), qc.Steal()},
				{qc.StealNative(0.5), qc.StealBatch(0.5)},
			},
		},
	)
	return ss
}

// TestInterleaveReductionAgrees validates the partial-order reduction on
// lfqueue: exploring every interleaving and exploring one per equivalence
// class must produce the same set of histories (the history includes the
// drained final state).
func TestInterleaveReductionAgrees(t *testing.T) {
	for _, c := range []struct {
		variant  int
		scenario string
	}{
		{0, "one-item/StealParcel"},
		{0, "drain-refill/Steal"},       // 64,700 executions unreduced
		{1, "inflight-push/StealBatch"}, // 23,630
	} {
		v := variants[c.variant]
		t.Run(v.name+"/"+c.scenario, func(t *testing.T) {
			cfg := interleaveConfig(v.opts...)
			s := scenario(t, c.scenario)
			red := qc.Explore(cfg, s)
			t.Logf("with reduction: %s", red.Describe(s))
			s.NoReduction = true
			full := qc.Explore(cfg, s)
			t.Logf("without:        %s", full.Describe(s))
			if red.Failure != nil || full.Failure != nil || !red.Complete || !full.Complete {
				t.Fatalf("explorations failed or stopped: %v / %v", red.Failure, full.Failure)
			}
			if red.Histories != full.Histories || red.HistoryDigest != full.HistoryDigest {
				t.Fatalf("the reduction saw %d histories (digest %x), the full exploration %d (digest %x)",
					red.Histories, red.HistoryDigest, full.Histories, full.HistoryDigest)
			}
			if red.Executions >= full.Executions {
				t.Errorf("the reduction ran %d executions, no fewer than the full exploration's %d", red.Executions, full.Executions)
			}
		})
	}
}

func TestInterleave(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			qc.Run(t, interleaveConfig(v.opts...), interleaveScenarios())
		})
	}
}
