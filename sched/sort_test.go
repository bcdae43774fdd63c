package sched_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// sortInputs returns inputs of n integers of each kind, by name.
func sortInputs(n int, seed uint64) map[string][]int {
	r := rand.New(rand.NewPCG(seed, 2))
	in := map[string][]int{}
	gen := func(name string, f func(i int) int) {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = f(i)
		}
		in[name] = xs
	}
	gen("random", func(int) int { return int(r.Uint64()) })
	gen("few", func(int) int { return r.IntN(4) })
	gen("sorted", func(i int) int { return i })
	gen("reversed", func(i int) int { return n - i })
	gen("equal", func(int) int { return 7 })
	gen("organ", func(i int) int { return min(i, n-i) })
	gen("sorted-but-last", func(i int) int {
		if i == n-1 {
			return -1
		}
		return i
	})
	return in
}

// record is an element of the stable sorts: equal keys keep the order of
// their places.
type record struct{ key, place int }

func byKey(a, b record) int { return cmp.Compare(a.key, b.key) }

// TestSort sorts every kind of input with Sort, SortFunc and
// SortStableFunc on every pool, against slices.Sort and
// slices.SortStableFunc, element by element.
func TestSort(t *testing.T) {
	sizes := []int{2, 3, 100, 2048, 2049, 8193, testenv.Size(20_000, 20_000, 100_000)}
	for name, p := range loopPools(t) {
		for _, n := range sizes {
			for kind, in := range sortInputs(n, uint64(n)) {
				what := fmt.Sprintf("%s n=%d %s", name, n, kind)
				want := slices.Clone(in)
				slices.Sort(want)
				x, y := slices.Clone(in), slices.Clone(in)
				recs := make([]record, n)
				for i, v := range in {
					recs[i] = record{v % 1000, i}
				}
				wantRecs := slices.Clone(recs)
				slices.SortStableFunc(wantRecs, byKey)
				require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
					sched.Sort(t, x)
					sched.SortFunc(t, y, func(a, b int) int { return cmp.Compare(b, a) }) // descending
					sched.SortStableFunc(t, recs, byKey)
					return nil
				}))
				require.Equal(t, want, x, "%s: Sort", what)
				slices.Reverse(y)
				require.Equal(t, want, y, "%s: SortFunc", what)
				require.Equal(t, wantRecs, recs, "%s: SortStableFunc", what)
			}
		}
	}
}

// TestSortStrings sorts strings with Sort against slices.Sort.
func TestSortStrings(t *testing.T) {
	p := newPool(t, sched.PoolConfig{Workers: 4})
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]string, testenv.Size(50_000, 50_000, 300_000))
	for i := range xs {
		xs[i] = strconv.FormatUint(r.Uint64()%100_000, 36)
	}
	want := slices.Clone(xs)
	slices.Sort(want)
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { sched.Sort(t, xs); return nil }))
	require.Equal(t, want, xs)
}

// TestSortFloatsNaN checks that Sort puts NaNs first, as slices.Sort does.
func TestSortFloatsNaN(t *testing.T) {
	p := newPool(t, sched.PoolConfig{Workers: 4})
	r := rand.New(rand.NewPCG(5, 6))
	xs := make([]float64, 20_000)
	for i := range xs {
		switch r.IntN(10) {
		case 0:
			xs[i] = math.NaN()
		case 1:
			xs[i] = math.Inf(1 - 2*r.IntN(2))
		default:
			xs[i] = r.NormFloat64()
		}
	}
	want := slices.Clone(xs)
	slices.Sort(want)
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { sched.Sort(t, xs); return nil }))
	for i := range xs {
		if xs[i] != want[i] && !(math.IsNaN(xs[i]) && math.IsNaN(want[i])) {
			t.Fatalf("element %d is %v, slices.Sort has %v", i, xs[i], want[i])
		}
	}
}

// TestSortBadCmp sorts with comparisons that are no strict weak ordering:
// the sorts end, and keep the elements.
func TestSortBadCmp(t *testing.T) {
	p := newPool(t, sched.PoolConfig{Workers: 4})
	in := sortInputs(20_000, 9)["random"]
	for name, bad := range map[string]func(a, b int) int{
		"always less": func(a, b int) int { return -1 },
		"random":      func(a, b int) int { return rand.IntN(3) - 1 },
	} {
		x, y := slices.Clone(in), slices.Clone(in)
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			sched.SortFunc(t, x, bad)
			sched.SortStableFunc(t, y, bad)
			return nil
		}), name)
		want := slices.Sorted(slices.Values(in))
		require.Equal(t, want, slices.Sorted(slices.Values(x)), "%s: SortFunc kept the elements", name)
		require.Equal(t, want, slices.Sorted(slices.Values(y)), "%s: SortStableFunc kept the elements", name)
	}
}

// TestSortPartitionsAgree checks that the two partitions, the ordered
// one and the one with a comparison function, cut alike.
func TestSortPartitionsAgree(t *testing.T) {
	for _, n := range []int{3, 4, 5, 63, 64, 65, 1000} {
		for kind, in := range sortInputs(n, 11) {
			x, y := slices.Clone(in), slices.Clone(in)
			px := sched.PartitionOrdered(x)
			py := sched.PartitionFunc(y, cmp.Compare[int])
			require.Equal(t, px, py, "n=%d %s: the pivot's place", n, kind)
			require.Equal(t, x, y, "n=%d %s: the elements' places", n, kind)
			for i := range x {
				if i < px && x[i] > x[px] || i > px && x[i] < x[px] {
					t.Fatalf("n=%d %s: x[%d] = %d on the wrong side of the pivot %d at %d", n, kind, i, x[i], x[px], px)
				}
			}
		}
	}
}
