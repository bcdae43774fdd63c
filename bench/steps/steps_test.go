package steps_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/bench/steps"
)

// TestDeps checks each pattern's dependencies against Task Bench's
// definitions, on a few points.
func TestDeps(t *testing.T) {
	for _, c := range []struct {
		p       steps.Pattern
		w, t, i int
		want    []int
	}{
		{steps.Trivial, 8, 3, 4, nil},
		{steps.Stencil, 8, 1, 0, []int{0, 1}},
		{steps.Stencil, 8, 1, 4, []int{3, 4, 5}},
		{steps.Stencil, 8, 1, 7, []int{6, 7}},
		{steps.Tree, 8, 1, 1, []int{0}},
		{steps.Tree, 8, 3, 5, []int{2}},
		{steps.FFT, 8, 1, 3, []int{2, 3, 4}},  // d = 1
		{steps.FFT, 8, 2, 3, []int{1, 3, 5}},  // d = 2
		{steps.FFT, 8, 3, 3, []int{3, 7}},     // d = 4
		{steps.FFT, 8, 4, 3, []int{2, 3, 4}},  // d = 1 again
		{steps.Nearest, 8, 2, 0, []int{0, 1}}, // radix 3
		{steps.Stencil, 8, 0, 4, nil},         // step 0 reads nothing
	} {
		g := steps.Graph{Pattern: c.p, Width: c.w, Steps: 10}
		got := g.Deps(nil, c.t, c.i)
		assert.Equal(t, c.want, got, "%v: point %d of step %d", c.p, c.i, c.t)
	}
	tree := steps.Graph{Pattern: steps.Tree, Width: 8, Steps: 10}
	var widths []int
	for s := range 5 {
		widths = append(widths, tree.WidthAt(s))
	}
	assert.Equal(t, []int{1, 2, 4, 8, 8}, widths)
	assert.Equal(t, 1+2+4+8*7, tree.Tasks())
}

// TestCheck checks that Check finds a point computed twice, a step run
// before the step it reads, and a point left out.
func TestCheck(t *testing.T) {
	for _, p := range steps.Patterns {
		g := steps.Graph{Pattern: p, Width: 8, Steps: 6, Iterations: 10}
		want := g.Serial()
		require.NoError(t, g.Serial().Check(want), p.String())

		twice := g.NewRun()
		for s := range g.Steps {
			for i := range g.WidthAt(s) {
				twice.Point(s, i)
			}
			if s == 3 {
				twice.Point(s, 0)
			}
		}
		assert.Error(t, twice.Check(want), "%v: a point computed twice", p)

		if p != steps.Trivial {
			early := g.NewRun()
			order := []int{0, 1, 2, 4, 3, 5}
			for _, s := range order {
				for i := range g.WidthAt(s) {
					early.Point(s, i)
				}
			}
			assert.Error(t, early.Check(want), "%v: step 4 before step 3", p)
		}

		missing := g.NewRun()
		for s := range g.Steps {
			for i := range g.WidthAt(s) {
				if s != 2 || i != g.WidthAt(s)-1 {
					missing.Point(s, i)
				}
			}
		}
		assert.Error(t, missing.Check(want), "%v: a point left out", p)
	}
}
