package par_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// TestMeasureLoop: a loop of n equal iterations, each longer than a
// chunk, has a parallelism of n on any number of workers, and a schedtest.Burden
// per level of a binary split into n.
func TestMeasureLoop(t *testing.T) {
	const n = 16
	for _, w := range schedtest.Workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			schedtest.DoShape(t, schedtest.MeasuredPool(t, w), schedtest.Burden, func(t *sched.Task) error {
				par.For(t, n, func(*sched.Task, int) { schedtest.Burn(schedtest.Leaf) })
				return nil
			}, func(prof sched.Profile) {
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, 4*schedtest.Burden)
				assert.Equal(t, int64(n-1), prof.Forks)
			}, schedtest.Parallelism(n, 0.75, 1.05), schedtest.Work(n*schedtest.Leaf, 0.95, 1.3),
				schedtest.BurdenOnPath(4*schedtest.Burden, 1)) // log2(16) levels
		})
	}
}

// TestMeasureNestedLoops: a loop of loops has the parallelism of its
// iterations, and the levels of both splits on its burdened path.
func TestMeasureNestedLoops(t *testing.T) {
	const outer, inner = 4, 4
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
		par.For(t, outer, func(t *sched.Task, _ int) {
			par.For(t, inner, func(*sched.Task, int) { schedtest.Burn(schedtest.Leaf) })
		})
		return nil
	}, func(prof sched.Profile) {
		assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, 4*schedtest.Burden)
	}, schedtest.Parallelism(outer*inner, 0.75, 1.05), schedtest.Work(outer*inner*schedtest.Leaf, 0.95, 1.3),
		schedtest.BurdenOnPath(4*schedtest.Burden, 1)) // 2 levels of each loop
}

// TestMeasureLoopsOfThePackage: Reduce, Map and Sort run measured, with
// their results right and their figures sane.
func TestMeasureLoopsOfThePackage(t *testing.T) {
	p := schedtest.MeasuredPool(t, 2)
	xs := make([]int, 1<<14)
	for i := range xs {
		xs[i] = (i * 7919) % len(xs)
	}
	prof, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
		sum := par.Reduce(t, len(xs), 0, func(t *sched.Task, i int) int { return xs[i] }, func(a, b int) int { return a + b })
		if sum != len(xs)*(len(xs)-1)/2 {
			return fmt.Errorf("sum %d", sum)
		}
		ys := par.Map(t, xs, func(t *sched.Task, x int) int { return -x })
		par.Sort(t, ys)
		if !slices.IsSorted(ys) {
			return fmt.Errorf("not sorted")
		}
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, prof.Span)
	if !testing.Short() { // see measureShape: the emulator's clocks
		assert.LessOrEqual(t, prof.Span, prof.Work)
	}
	assert.LessOrEqual(t, prof.Span, prof.BurdenedSpan)
	assert.Positive(t, prof.Forks)
}
