package wsq_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	wsq "github.com/worksteal/wsq"
)

func TestStealCount(t *testing.T) {
	cases := []struct {
		n    int
		p    float64
		want int
	}{
		{0, 0.5, 0},
		{-3, 0.5, 0},
		{1, 0.5, 1},
		{1, 0.01, 1},
		{2, 0.5, 1},
		{3, 0.5, 2},
		{4, 0.1, 1},
		{10, 0.3, 3},
		{10, 0.6, 6},
		{10, 1, 10},
		{10_000, 0.6, 6_000},
		{100_000, 0.6, 60_000},
		{100_000, 0.9, 90_000},
		{7, 0.25, 2},
		{1 << 30, 1, 1 << 30},
		{1<<31 - 1, 0.5, 1 << 30},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, wsq.StealCount(c.n, c.p), "StealCount(%d, %v)", c.n, c.p)
	}
	for _, n := range []int{1, 2, 3, 1000, 1e9, min(100_000_000_000, math.MaxInt)} {
		assert.Equal(t, 1, wsq.StealCount(n, wsq.OneItem), "StealCount(%d, OneItem)", n)
	}
	assert.True(t, wsq.ValidProportion(wsq.OneItem))
	for n := 1; n < 300; n++ {
		for _, p := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9, 1} {
			k := wsq.StealCount(n, p)
			assert.True(t, k >= 1 && k <= n, "StealCount(%d, %v) = %d", n, p, k)
			if k > 1 {
				assert.LessOrEqual(t, math.Abs(float64(k)-p*float64(n)), 0.5+1e-9, "StealCount(%d, %v) = %d", n, p, k)
			} else {
				assert.Less(t, p*float64(n), 1.5, "StealCount(%d, %v) = %d", n, p, k)
			}
		}
	}
}

func TestInvalidProportion(t *testing.T) {
	for _, p := range []float64{0, -0.5, 1.0000001, 2, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)} {
		assert.False(t, wsq.ValidProportion(p), "%v", p)
		assert.Panics(t, func() { wsq.StealCount(10, p) }, "%v", p)
		assert.Panics(t, func() { wsq.StealCount(0, p) }, "empty queue, %v", p)
	}
	assert.PanicsWithValue(t, "wsq: steal proportion NaN is outside (0, 1]", func() { wsq.StealCount(10, math.NaN()) })
	assert.PanicsWithValue(t, "wsq: steal proportion 1.5 is outside (0, 1]", func() { wsq.StealCount(10, 1.5) })
	for _, p := range []float64{math.SmallestNonzeroFloat64, 0.5, 1} {
		assert.True(t, wsq.ValidProportion(p))
		assert.NotPanics(t, func() { wsq.StealCount(10, p) })
	}
}
