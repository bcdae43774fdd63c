package lfqueue

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/model"
)

// startCounters sets every counter of a new queue a few operations short of
// its wrap-around: the indices next and bottom (int64), the owner's epoch
// (uint64), the thieves' turns (uint64, kept even: no thief at work) and
// ctl's sequence number (uint32).
func (q *Queue[T]) startCounters() {
	q.startSeq(math.MaxUint32 - 20)
	q.own.next, q.thief.bottom = math.MaxInt64-40, math.MaxInt64-40
	q.own.epoch = math.MaxUint64 - 3
	q.thief.turns.Store(math.MaxUint64 - 21)
}

// Every counter of the queue crosses its wrap-around in one random sequence
// of every operation, checked against the model and the list invariants
// after each step, for both steals.
//
// The indices are the counter this guards most: PushList and the
// skip-count StealParcel move up to 2^31-1 items each in constant time, so a
// program that passes one big list back and forth between them advances
// next and bottom by 2^31 per round, and wraps them in 2^32 rounds, about
// ten minutes of such a loop. Indices are compared by their difference,
// which survives the wrap; a comparison of the indices themselves does not
// (the mutant "steal compares indices, not their difference" fails here).
// The epoch and the turns change once per push onto an empty queue and once
// per thief's turn, so they cannot wrap within centuries; they cross it here
// anyway, since they are compared only for equality.
func TestCountersWrap(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSkipCount()}} {
		q := New[int](opts...)
		q.startCounters()
		d := model.New[int](0)
		rng := rand.New(rand.NewPCG(11, 12))
		next := 1
		seq := func(n int) []int {
			vs := make([]int, n)
			for i := range vs {
				vs[i] = next
				next++
			}
			return vs
		}
		// First a queue of 60 items that spans the wrap of the indices,
		// and partial steals that cut below it.
		vs := seq(60)
		q.PushBatch(vs)
		d.PushBatch(vs)
		for _, p := range []float64{0.2, 0.3} {
			got, want := q.StealBatch(nil, p), d.StealBatch(nil, p)
			require.Equal(t, want, got, "StealBatch(%v) across the wrap of the indices", p)
			require.Equal(t, "", q.CheckInvariants())
		}
		var trace []string
		for step := 0; step < 3000; step++ {
			p := []float64{0.2, 0.5, 0.9, 1}[rng.IntN(4)]
			var got, want []int
			switch r := rng.IntN(8); r {
			case 0:
				vs := seq(1)
				trace = append(trace, "Push")
				q.Push(vs[0])
				d.Push(vs[0])
			case 1, 2:
				vs := seq(1 + rng.IntN(5))
				trace = append(trace, fmt.Sprintf("PushBatch(%d)", len(vs)))
				if r == 1 {
					q.PushBatch(vs)
				} else {
					var l List[int]
					for _, v := range vs {
						l.Append(v)
					}
					q.PushList(&l)
				}
				d.PushBatch(vs)
			case 3, 4:
				trace = append(trace, "Pop")
				v, ok := q.Pop()
				w, wok := d.Pop()
				if ok {
					got = []int{v}
				}
				if wok {
					want = []int{w}
				}
			case 5:
				trace = append(trace, "Steal")
				v, ok := q.Steal()
				w, wok := d.Steal()
				if ok {
					got = []int{v}
				}
				if wok {
					want = []int{w}
				}
			case 6:
				trace = append(trace, fmt.Sprintf("StealBatch(%v)", p))
				got = q.StealBatch(nil, p)
				want = d.StealBatch(nil, p)
			case 7:
				trace = append(trace, fmt.Sprintf("StealParcel(%v)", p))
				if pc := q.StealParcel(p); pc != nil {
					l := pc.(*List[int])
					if err := listError(l); err != "" {
						t.Fatalf("step %d: StealParcel handed over a broken list: %s", step, err)
					}
					got = l.Drain(nil)
				}
				want = d.StealBatch(nil, p)
			}
			if len(trace) > 8 {
				trace = trace[1:]
			}
			if !slices.Equal(got, want) {
				t.Fatalf("step %d (last operations %v): took %v, the model %v", step, trace, got, want)
			}
			require.Equal(t, d.Len(), q.Len(), "step %d: Len", step)
			require.Equal(t, "", q.CheckInvariants(), "step %d (last operations %v)", step, trace)
		}
		require.Less(t, q.own.next, int64(0), "the indices wrapped")
		require.Less(t, q.own.epoch, uint64(3000), "the epoch wrapped")
		require.Less(t, q.thief.turns.Load(), uint64(10000), "the turns wrapped")
		require.Less(t, ctlSeq(q.ctl.Load()), uint32(10000), "the sequence number wrapped")
	}
}

// listError checks the structure a List promises: n nodes from top down to
// bottom, and nothing below bottom. It returns "" or what is wrong.
func listError[T any](l *List[T]) string {
	if l.n == 0 {
		if l.top != nil || l.bottom != nil {
			return "an empty list has nodes"
		}
		return ""
	}
	nd := l.top
	for i := 1; i < l.n; i++ {
		if nd = nd.next.Plain(); nd == nil {
			return fmt.Sprintf("the chain ends after %d of %d nodes", i, l.n)
		}
	}
	if nd != l.bottom {
		return "the oldest node is not the list's bottom"
	}
	if nd.next.Plain() != nil {
		return "the list's bottom links further down"
	}
	return ""
}
