package interleave

import "math/rand/v2"

// pct is the PCT strategy for one execution.
type pct struct {
	rng    *rand.Rand
	depth  int
	prio   map[int]int
	change map[int]int // step -> the priority the running thread drops to
	step   int
}

func newPCT(seed uint64, depth, k int) *pct {
	rng := rand.New(rand.NewPCG(seed, 0x5eed_1e7e))
	s := &pct{rng: rng, depth: depth, prio: make(map[int]int), change: make(map[int]int)}
	for j := 1; j < depth && len(s.change) < k; {
		if at := 1 + rng.IntN(k); s.change[at] == 0 { // distinct steps
			s.change[at] = depth - j // later change points drop lower
			j++
		}
	}
	return s
}

func (s *pct) priority(id int) int {
	p, ok := s.prio[id]
	if !ok {
		// Initial priorities are at least depth, above every change
		// point's, and random among the threads.
		p = s.depth + s.rng.IntN(1<<20)
		s.prio[id] = p
	}
	return p
}

func (s *pct) choose(_ *execution, ids []int, curOK bool) (int, error) {
	s.step++
	best := func() int {
		b := 0
		for i, id := range ids {
			if s.priority(id) > s.priority(ids[b]) {
				b = i
			}
		}
		return b
	}
	i := best()
	if low, ok := s.change[s.step]; ok {
		s.prio[ids[i]] = low
		i = best()
	}
	return i, nil
}
