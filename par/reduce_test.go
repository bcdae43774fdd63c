package par_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// blockedSum is the documented order of Reduce, written out serially: at
// most 4096 blocks of ceil(n/4096) indices, each folded from zero, and the
// blocks folded in order.
func blockedSum(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	size := (n + 4095) / 4096
	total := 0.0
	for lo := 0; lo < n; lo += size {
		block := 0.0
		for _, x := range xs[lo:min(lo+size, n)] {
			block += x
		}
		total += block
	}
	return total
}

// sums holds values of very different magnitudes, whose float64 sum
// depends on the order of the additions.
func sums(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(24)-12))
	}
	return xs
}

// TestReduceBitForBit checks that a floating-point sum by Reduce and
// ReduceRange has the same bits as the documented order computed
// serially, on every pool, again and again.
func TestReduceBitForBit(t *testing.T) {
	sizes := []int{1, 2, 3, 4095, 4096, 4097, 10_001, testenv.Size(100_000, 100_000, 1_000_000)}
	rounds := testenv.Size(2, 2, 5)
	add := func(a, b float64) float64 { return a + b }
	for name, p := range schedtest.LoopPools(t) {
		for _, n := range sizes {
			xs := sums(n, uint64(n))
			want := blockedSum(xs)
			for round := range rounds {
				var byIndex, byRange float64
				require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
					byIndex = par.Reduce(t, n, 0.0, func(_ *sched.Task, i int) float64 {
						schedtest.Uneven(i, n)
						return xs[i]
					}, add)
					byRange = par.ReduceRange(t, n, 0.0, func(_ *sched.Task, lo, hi int) float64 {
						s := 0.0
						for i := lo; i < hi; i++ {
							schedtest.Uneven(i, n)
							s += xs[i]
						}
						return s
					}, add)
					return nil
				}))
				require.Equal(t, math.Float64bits(want), math.Float64bits(byIndex), "%s n=%d round %d: Reduce", name, n, round)
				require.Equal(t, math.Float64bits(want), math.Float64bits(byRange), "%s n=%d round %d: ReduceRange", name, n, round)
			}
		}
	}
}

// mat is a 2×2 matrix of integers modulo a prime: their product is
// associative, not commutative.
type mat [4]uint64

const matMod = 1_000_000_007

func (a mat) mul(b mat) mat {
	return mat{
		(a[0]*b[0] + a[1]*b[2]) % matMod, (a[0]*b[1] + a[1]*b[3]) % matMod,
		(a[2]*b[0] + a[3]*b[2]) % matMod, (a[2]*b[1] + a[3]*b[3]) % matMod,
	}
}

// matAt is the matrix of index i.
func matAt(i int) mat { return mat{uint64(i%7 + 1), uint64(i % 5), uint64(i % 3), uint64(i%11 + 1)} }

// TestReduceNonCommutative checks a product of matrices, which the order
// of the indices determines, against the serial product.
func TestReduceNonCommutative(t *testing.T) {
	id := mat{1, 0, 0, 1}
	mul := func(a, b mat) mat { return a.mul(b) }
	for name, p := range schedtest.LoopPools(t) {
		for _, n := range []int{1, 5, 4097, testenv.Size(50_000, 50_000, 300_000)} {
			want := id
			for i := range n {
				want = want.mul(matAt(i))
			}
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
				got := par.Reduce(t, n, id, func(_ *sched.Task, i int) mat { schedtest.Uneven(i, n); return matAt(i) }, mul)
				if got != want {
					return fmt.Errorf("Reduce: %v, want %v", got, want)
				}
				got = par.ReduceRange(t, n, id, func(_ *sched.Task, lo, hi int) mat {
					m := id
					for i := lo; i < hi; i++ {
						m = m.mul(matAt(i))
					}
					return m
				}, mul)
				if got != want {
					return fmt.Errorf("ReduceRange: %v, want %v", got, want)
				}
				return nil
			}), "%s n=%d", name, n)
		}
	}
}

// TestReduceCombinePanics: a panic of combine reaches the caller of Reduce
// as a *PanicError, in a block's fold and in the final fold of the
// blocks' results alike.
func TestReduceCombinePanics(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	for _, final := range []bool{false, true} {
		t.Run(fmt.Sprintf("final=%v", final), func(t *testing.T) {
			var calls atomic.Int64
			var got any
			require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
				defer func() { got = recover() }()
				par.Reduce(t, 10, 0, func(*sched.Task, int) int { return 1 },
					func(a, b int) int {
						// The ten blocks hold an index each: each block's
						// fold calls combine once, the final fold ten times.
						if n := calls.Add(1); final && n > 10 || !final && n == 1 {
							panic("combine")
						}
						return a + b
					})
				return nil
			}))
			pe, ok := got.(*sched.PanicError)
			require.True(t, ok, "Reduce panicked with %T %v", got, got)
			assert.Equal(t, "combine", pe.Value)
		})
	}
}
