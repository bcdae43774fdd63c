package main

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/sched"
)

// node is a partial solution: the items taken so far (positions in density
// order, all before next) and their total value and weight.
type node struct {
	next          int32
	value, weight int64
	picks         *pick
}

// pick is a persistent list of taken items, newest first; nodes share their
// common prefix.
type pick struct {
	item int32 // position in density order
	next *pick
}

// solution is an incumbent: a feasible solution and its value.
type solution struct {
	value int64
	picks *pick
	order []int // density order to input order
}

// items returns the input indices of the solution's items, in increasing order.
func (s *solution) items() []int {
	var taken []int
	for p := s.picks; p != nil; p = p.next {
		taken = append(taken, s.order[p.item])
	}
	slices.Sort(taken)
	return taken
}

// solver holds an instance in density order and the search's shared state.
type solver struct {
	capacity int64
	value    []int64 // value and weight in density order
	weight   []int64
	order    []int   // order[k]: input index of the k-th densest item
	sumV     []int64 // sumV[k], sumW[k]: totals of the k densest items
	sumW     []int64

	rootBound, greedy int64

	best    atomic.Pointer[solution]      // the incumbent; only ever improves
	workers *sched.PerWorker[workerState] // each worker's counters and scratch space
	handled atomic.Int64                  // nodes handled so far, for a progress line (cli.Counted)
}

// workerState is one worker's counters and scratch space, written by its
// worker only and read after the run.
type workerState struct {
	pruned, improved int64
	children         []node // reused by every call, since Spawn does not keep it
}

func newSolver(in *instance) *solver {
	n := len(in.items)
	s := &solver{capacity: in.capacity, order: make([]int, n)}
	for i := range s.order {
		s.order[i] = i
	}
	// Densest first; a/b > c/d as a·d > c·b, exact since values and
	// weights are at most maxNumber.
	slices.SortStableFunc(s.order, func(i, j int) int {
		a, b := in.items[i], in.items[j]
		return cmp.Compare(b.value*a.weight, a.value*b.weight)
	})
	s.value, s.weight = make([]int64, n), make([]int64, n)
	s.sumV, s.sumW = make([]int64, n+1), make([]int64, n+1)
	for k, i := range s.order {
		s.value[k], s.weight[k] = in.items[i].value, in.items[i].weight
		s.sumV[k+1] = s.sumV[k] + s.value[k]
		s.sumW[k+1] = s.sumW[k] + s.weight[k]
	}
	return s
}

// bound returns an upper bound on the value of any solution that adds items
// from positions from..n-1 to a partial solution of value v with room r left:
// the fractional relaxation, which fills r in density order and takes a
// fraction of the first item that does not fit.
func (s *solver) bound(from int, v, r int64) int64 {
	n := len(s.value)
	// t: the most items from..t-1 that fit together in r.
	t := from + sort.Search(n-from, func(k int) bool { return s.sumW[from+k+1]-s.sumW[from] > r })
	v += s.sumV[t] - s.sumV[from]
	if t < n {
		left := r - (s.sumW[t] - s.sumW[from]) // < weight[t] <= maxNumber, so no overflow below
		v += left * s.value[t] / s.weight[t]
	}
	return v
}

// greedySolution takes items in density order while they fit.
func (s *solver) greedySolution() *solution {
	sol := &solution{order: s.order}
	r := s.capacity
	for k := range s.value {
		if s.weight[k] <= r {
			r -= s.weight[k]
			sol.value += s.value[k]
			sol.picks = &pick{item: int32(k), next: sol.picks}
		}
	}
	return sol
}

// offer makes (v, picks) the incumbent if it is better.
func (s *solver) offer(v int64, picks *pick, ws *workerState) {
	for {
		cur := s.best.Load()
		if v <= cur.value {
			return
		}
		if s.best.CompareAndSwap(cur, &solution{value: v, picks: picks, order: s.order}) {
			ws.improved++
			return
		}
	}
}

// handle expands one node.
func (s *solver) handle(_ context.Context, nd node, w *sched.Worker[node]) error {
	ws := s.workers.Get(w.ID())
	s.offer(nd.value, nd.picks, ws)
	best := s.best.Load().value
	room := s.capacity - nd.weight
	if s.bound(int(nd.next), nd.value, room) <= best {
		ws.pruned++ // the incumbent improved since the node was made
		return nil
	}
	kids := ws.children[:0]
	for j := int(nd.next); j < len(s.value); j++ {
		// Skipping items nd.next..j-1 leaves the relaxation over j..n-1,
		// which only falls as j grows: the first failure ends the loop.
		if s.bound(j, nd.value, room) <= best {
			break
		}
		if s.weight[j] > room {
			continue
		}
		v, r := nd.value+s.value[j], room-s.weight[j]
		if s.bound(j+1, v, r) > best {
			kids = append(kids, node{next: int32(j + 1), value: v, weight: nd.weight + s.weight[j], picks: &pick{item: int32(j), next: nd.picks}})
		}
	}
	// The densest choice last, so that it is the newest item and this
	// worker expands it next (depth first); thieves take the oldest.
	slices.Reverse(kids)
	w.Spawn(kids...)
	clear(kids) // drop the picks, so the GC can free pruned branches
	ws.children = kids[:0]
	return nil
}

// solve runs the branch and bound and returns the optimum it proves.
func (s *solver) solve(ctx context.Context, c config) (*solution, sched.Stats, error) {
	s.rootBound = s.bound(0, 0, s.capacity)
	g := s.greedySolution()
	s.greedy = g.value
	s.best.Store(g)
	newQueue, err := catalog.Factory[node](c.queue)
	if err != nil {
		return nil, sched.Stats{}, err
	}
	s.workers = sched.NewPerWorker[workerState](c.workers)
	cfg := sched.Config[node]{
		NewQueue:   newQueue,
		Workers:    c.workers,
		Mode:       c.mode,
		Proportion: c.proportion,
	}
	st, err := sched.Run(ctx, cfg, []node{{}}, cli.Counted(s.handle, c.workers, &s.handled))
	return s.best.Load(), st, err
}

// pruned returns the nodes pruned on arrival, over all workers.
func (s *solver) pruned() int64 {
	var n int64
	for _, ws := range s.workers.All() {
		n += ws.pruned
	}
	return n
}

// improvements returns how often the incumbent improved.
func (s *solver) improvements() int64 {
	var n int64
	for _, ws := range s.workers.All() {
		n += ws.improved
	}
	return n
}
