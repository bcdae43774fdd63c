package main

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteForce returns the optimum of a small instance by trying every subset.
func bruteForce(in *instance) int64 {
	var best int64
	for mask := 0; mask < 1<<len(in.items); mask++ {
		var v, w int64
		for i, it := range in.items {
			if mask&(1<<i) != 0 {
				v += it.value
				w += it.weight
			}
		}
		if w <= in.capacity {
			best = max(best, v)
		}
	}
	return best
}

// TestDPAndBound checks the DP and the fractional bound against brute force
// on small instances of every type.
func TestDPAndBound(t *testing.T) {
	for _, kind := range kinds {
		for seed := range uint64(20) {
			in := generate(genConfig{n: 12, kind: kind, seed: seed, rng: 50})
			opt := bruteForce(in)
			require.Equal(t, opt, in.dp(nil), "%s seed %d", kind, seed)
			s := newSolver(in)
			assert.GreaterOrEqual(t, s.bound(0, 0, in.capacity), opt, "%s seed %d: root bound", kind, seed)
			g := s.greedySolution()
			assert.NoError(t, in.check(g.items(), g.value, g.value), "greedy solution is feasible")
		}
	}
}

func TestCheckDPSize(t *testing.T) {
	in := &instance{capacity: maxDP / 2, items: make([]item, 2)}
	assert.ErrorContains(t, in.checkDPSize(), "too large for the DP check")
	in = &instance{capacity: 1<<62 - 1}
	assert.ErrorContains(t, in.checkDPSize(), "too large for the DP check", "no items, but a table too large")
	in = &instance{capacity: 1000, items: make([]item, 100)}
	assert.NoError(t, in.checkDPSize())
}

// TestDPProgress checks that the DP counts the items it has processed.
func TestDPProgress(t *testing.T) {
	in := generate(genConfig{n: 50, kind: "weak", seed: 4, rng: 100})
	var done atomic.Int64
	assert.Equal(t, in.dp(nil), in.dp(&done))
	assert.Equal(t, int64(50), done.Load())
}
