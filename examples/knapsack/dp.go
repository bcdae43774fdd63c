package main

import (
	"fmt"
	"sync/atomic"

	"github.com/worksteal/wsq/examples/internal/cli"
)

// maxDP is the largest n × (capacity+1) the DP check accepts.
const maxDP = 1 << 30

// checkDPSize refuses instances too large for the DP check.
func (in *instance) checkDPSize() error {
	// The DP table has capacity+1 cells and takes n passes; count at least
	// one pass, since the table is allocated even for no items.
	if n := max(int64(len(in.items)), 1); in.capacity >= maxDP/n {
		return fmt.Errorf("instance too large for the DP check: %s × %s capacities exceed %s cells; use fewer items or a smaller capacity, or -check=false to skip the check",
			cli.Count(len(in.items), "item"), cli.Group(in.capacity+1), cli.Group(maxDP))
	}
	return nil
}

// dp returns the optimum by dynamic programming over the capacity. If done
// is not nil, it counts the items processed so far, for a progress line.
func (in *instance) dp(done *atomic.Int64) int64 {
	best := make([]int64, in.capacity+1) // best[c]: best value with capacity c
	for _, it := range in.items {
		for c := in.capacity; c >= it.weight; c-- {
			best[c] = max(best[c], best[c-it.weight]+it.value)
		}
		if done != nil {
			done.Add(1)
		}
	}
	return best[in.capacity]
}

// check verifies that the items taken (indices into in.items) are distinct,
// fit the capacity and are worth value, and that value is the optimum.
func (in *instance) check(taken []int, value, optimum int64) error {
	var v, w int64
	seen := make(map[int]bool)
	for _, i := range taken {
		if i < 0 || i >= len(in.items) || seen[i] {
			return fmt.Errorf("item %d is invalid or taken twice", i)
		}
		seen[i] = true
		v += in.items[i].value
		w += in.items[i].weight
	}
	switch {
	case w > in.capacity:
		return fmt.Errorf("the items weigh %d, more than the capacity %d", w, in.capacity)
	case v != value:
		return fmt.Errorf("the items are worth %d, not the reported %d", v, value)
	case value != optimum:
		return fmt.Errorf("branch and bound found %d, the DP optimum is %d", value, optimum)
	}
	return nil
}
