//go:build wsqchaos && !wsqcheck

package atomicx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/chaos"
)

// TestOps runs every method of the chaos build once: each must behave as in
// the normal build, and each atomic or mutex operation must be exactly one
// chaos point, each plain access none.
func TestOps(t *testing.T) {
	require.True(t, chaos.Enabled)
	for _, o := range ops() {
		before := chaos.Snapshot().Points
		assert.True(t, o.do(), o.name)
		assert.Equal(t, uint64(o.points), chaos.Snapshot().Points-before, "%s: chaos points", o.name)
	}
}
