//go:build wsqcheck

package atomicx_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/interleave"
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
