//go:build wsqcheck

package atomicx_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/check/interleave"
)

// TestOps runs every method of the check build once outside an exploration,
// where it must behave as the normal build does, and once inside one, where
// each atomic or mutex operation must be exactly one scheduling point, with
// a trace line, and each plain access none.
func TestOps(t *testing.T) {
	for _, o := range ops() {
		assert.True(t, o.do(), o.name)
	}
	all := ops()
	p := func() interleave.Instance {
		return interleave.Instance{Threads: []interleave.Thread{{Name: "t", Run: func() {
			for _, o := range all {
				interleave.Point(interleave.Yield, &all) // marks where o starts
				if !o.do() {
					panic(o.name + " returned a wrong result")
				}
			}
		}}}}
	}
	trace, err := interleave.TraceSchedule(p, "", interleave.Options{})
	require.NoError(t, err)
	t.Logf("trace:\n%s", trace)
	parts := strings.Split(trace, ".Yield()\n")[1:]
	require.Len(t, parts, len(all))
	for i, o := range all {
		lines := strings.Count(parts[i], "\n")
		assert.Equal(t, o.points, lines, "%s: scheduling points", o.name)
	}
}

// TestSpinWait checks that a thread spinning on a variable with SpinWait
// waits for another thread's write in every schedule, rather than spin
// until the exploration reports a lack of progress, and that one thread
// alone at a SpinWait is reported as a deadlock.
func TestSpinWait(t *testing.T) {
	p := func() interleave.Instance {
		var x atomicx.Uint64
		return interleave.Instance{Threads: []interleave.Thread{
			{Name: "writer", Run: func() {
				x.Store(0)
				x.Store(1)
			}},
			{Name: "spinner", Run: func() {
				for x.Load() != 1 {
					x.SpinWait()
				}
			}},
		}}
	}
	r := interleave.Exhaustive(p, interleave.Options{PreemptionBound: -1})
	require.Nil(t, r.Failure)
	assert.True(t, r.Complete)
	r = interleave.Exhaustive(p, interleave.Options{PreemptionBound: 2})
	require.Nil(t, r.Failure)

	alone := func() interleave.Instance {
		var x atomicx.Uint64
		return interleave.Instance{Threads: []interleave.Thread{{Name: "spinner", Run: func() {
			for x.Load() != 1 {
				x.SpinWait()
			}
		}}}}
	}
	r = interleave.Exhaustive(alone, interleave.Options{PreemptionBound: -1})
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "deadlock")
}
