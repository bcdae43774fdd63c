package steal_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/worksteal/wsq/internal/steal"
)

func TestMustProportion(t *testing.T) {
	for _, p := range []float64{0, -0.5, 1.0000001, 2, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)} {
		assert.False(t, steal.Valid(p), "%v", p)
		assert.Panics(t, func() { steal.MustProportion(p) }, "%v", p)
	}
	assert.PanicsWithValue(t, "wsq: steal proportion NaN is outside (0, 1]", func() { steal.MustProportion(math.NaN()) })
	assert.PanicsWithValue(t, "wsq: steal proportion 1.5 is outside (0, 1]", func() { steal.MustProportion(1.5) })
	for _, p := range []float64{math.SmallestNonzeroFloat64, 0.5, 1} {
		assert.True(t, steal.Valid(p))
		assert.NotPanics(t, func() { steal.MustProportion(p) })
	}
}
