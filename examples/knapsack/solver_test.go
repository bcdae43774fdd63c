package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
)

// TestSolve runs the branch and bound with every queue, both modes and one
// or several workers, and checks the result against the DP optimum.
func TestSolve(t *testing.T) {
	instances := []genConfig{{n: 40, kind: "strong", seed: 2, rng: 1000}}
	if !testing.Short() {
		instances = append(instances, genConfig{n: 30, kind: "subset", seed: 3, rng: 1000})
	}
	for _, g := range instances {
		in := generate(g)
		opt := in.dp(nil)
		for _, q := range catalog.Names() {
			for _, mode := range cli.Modes {
				for _, workers := range []int{1, 3} {
					c := config{queue: q, mode: mode, workers: workers, proportion: 0.5}
					sol, st, err := newSolver(in).solve(context.Background(), c)
					require.NoError(t, err)
					assert.NoError(t, in.check(sol.items(), sol.value, opt), "%+v %s %s %d workers", g, q, mode, workers)
					assert.Positive(t, st.Processed)
				}
			}
		}
	}
}
