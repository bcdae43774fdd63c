package par_test

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// sortKinds returns inputs of n integers of each kind, by name: those of
// the benchmarks, and patterns that cut a quicksort badly.
func sortKinds(n int, seed uint64) map[string][]int {
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
	gen("sorted", func(i int) int { return i })
	gen("reversed", func(i int) int { return n - i })
	gen("equal", func(int) int { return 7 })
	gen("distinct16", func(int) int { return int(r.Uint64()>>60) << (strconv.IntSize - 5) }) // high bits, on 32-bit too
	zipf := rand.NewZipf(r, 1.1, 1, 1<<40)
	gen("zipf", func(int) int { return int(zipf.Uint64()) })
	gen("few", func(int) int { return r.IntN(4) - 2 })
	gen("organ", func(i int) int { return min(i, n-i) })
	gen("sawtooth", func(i int) int { return i % 97 })
	gen("sorted-but-last", func(i int) int {
		if i == n-1 {
			return -1
		}
		return i
	})
	gen("reversed-runs", func(i int) int { return -(i / 1000) * 1000 })
	gen("median3-killer", median3Killer(n))
	in["negative"] = slices.Clone(in["random"])
	for i := range in["negative"] {
		in["negative"][i] = -(in["negative"][i] >> 8) // the smallest reach math.MinInt>>8
	}
	return in
}

// median3Killer returns Musser's input that makes a quicksort with the
// median of three pivots cut off two elements a level.
func median3Killer(n int) func(i int) int {
	a := make([]int, n)
	k := n / 2
	for i := 1; i <= k; i++ {
		if i%2 == 1 {
			a[i-1] = i
			if i < n {
				a[i] = k + i
			}
		}
		if k+i-1 < n {
			a[k+i-1] = 2 * i
		}
	}
	return func(i int) int { return a[i] }
}

// record is an element of the stable sorts: equal keys keep the order of
// their places.
type record struct{ key, place int }

func byKey(a, b record) int { return cmp.Compare(a.key, b.key) }

// records tags the values of in with their places, keeping keys of the
// value's low bits so that many are equal.
func records(in []int, mod int) []record {
	recs := make([]record, len(in))
	for i, v := range in {
		recs[i] = record{v % mod, i}
	}
	return recs
}

// checkSorts runs Sort, SortFunc (descending) and SortStableFunc of in
// on p, and compares them with slices.Sort and slices.SortStableFunc.
func checkSorts(t *testing.T, p *sched.Pool, what string, in []int) {
	t.Helper()
	want := slices.Clone(in)
	slices.Sort(want)
	x, y := slices.Clone(in), slices.Clone(in)
	recs := records(in, 1000)
	wantRecs := slices.Clone(recs)
	slices.SortStableFunc(wantRecs, byKey)
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		par.Sort(t, x)
		par.SortFunc(t, y, func(a, b int) int { return cmp.Compare(b, a) }) // descending
		par.SortStableFunc(t, recs, byKey)
		return nil
	}))
	require.Equal(t, want, x, "%s: Sort", what)
	slices.Reverse(y)
	require.Equal(t, want, y, "%s: SortFunc", what)
	require.Equal(t, wantRecs, recs, "%s: SortStableFunc", what)
}

// TestSort sorts every kind of input with Sort, SortFunc and
// SortStableFunc on every pool, against slices.Sort and
// slices.SortStableFunc, element by element: sizes that take the serial
// kernels, and one above the leaves of the comparison sorts, which cuts
// in parallel.
//
// The small sizes run on every pool; each larger one on one pool, to keep
// the test short under -race (TestSortLarge adds more). At the quick size
// (not full, not short) the sizes around stableLeaf, 2048 and 2049, run
// only on the two pools that take a larger size too, one of each mode.
func TestSort(t *testing.T) {
	small := []int{0, 1, 2, 3, 4, 20, 21, 100, 255, 256, 2048, 2049}
	large := map[string]int{"master/workers=2": 8193, "random/workers=4": 20_000}
	for name, p := range schedtest.LoopPools(t) {
		sizes := small
		n, ok := large[name]
		if ok {
			sizes = append(slices.Clone(small), n)
		} else if testenv.Size(1, 0, 1) == 0 { // the quick size
			sizes = slices.DeleteFunc(slices.Clone(small), func(n int) bool { return n > 256 })
		}
		for _, n := range sizes {
			for kind, in := range sortKinds(n, uint64(n)) {
				checkSorts(t, p, fmt.Sprintf("%s n=%d %s", name, n, kind), in)
			}
		}
	}
}

// TestSortLarge sorts inputs above the radix kernel's leaves, so that
// Sort of integers cuts in parallel too, on one worker and on four.
func TestSortLarge(t *testing.T) {
	n := testenv.Size(70_000, 70_000, 1_000_000)
	pools := map[string]*sched.Pool{
		"workers=4": schedtest.NewPool(t, sched.PoolConfig{Workers: 4, Mode: sched.Random}),
	}
	kinds := []string{"random", "distinct16", "negative"}
	if testenv.Full() {
		kinds = nil // all of them
		pools["workers=1"] = schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	}
	for name, p := range pools {
		for kind, in := range sortKinds(n, 5) {
			if kinds == nil || slices.Contains(kinds, kind) {
				checkSorts(t, p, fmt.Sprintf("%s n=%d %s", name, n, kind), in)
			}
		}
	}
}

// TestSortManyEqual sorts inputs whose keys repeat, long enough that Sort
// of integers cuts in parallel above its radix leaves, with Sort, SortFunc
// and SortStableFunc, against slices.Sort and slices.SortStableFunc, on
// one worker and on four: the cuts that put the elements equal to the
// pivot first, the merges of runs of equal keys (checkSorts' records keep
// their places).
func TestSortManyEqual(t *testing.T) {
	n := 70_000
	pools := map[string]*sched.Pool{
		"workers=1": schedtest.NewPool(t, sched.PoolConfig{Workers: 1}),
		"workers=4": schedtest.NewPool(t, sched.PoolConfig{Workers: 4, Mode: sched.Random}),
	}
	r := rand.New(rand.NewPCG(12, 13))
	kinds := sortKinds(n, 12)
	in := map[string][]int{}
	for _, kind := range []string{"equal", "few", "distinct16", "zipf"} {
		in[kind] = kinds[kind]
	}
	// One key for 90% of the elements, and a few others: the pivot's
	// value is the part's least, its greatest, or between.
	for _, heavy := range []int{-1, 0, 1} {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = heavy
			if r.IntN(10) == 0 {
				xs[i] = r.IntN(5) - 2
			}
		}
		in[fmt.Sprintf("heavy%d", heavy)] = xs
	}
	for name, p := range pools {
		for kind, xs := range in {
			checkSorts(t, p, fmt.Sprintf("%s n=%d %s", name, n, kind), xs)
		}
	}
}

// TestSortIntegerTypes sorts every integer type that takes the radix
// kernel, and one defined from int, which does not, against slices.Sort:
// negative and positive values, values of every width, and few distinct
// ones.
func TestSortIntegerTypes(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	type age int
	for _, kind := range []string{"random", "small", "few"} {
		n := testenv.Size(10_000, 10_000, 300_000)
		if kind == "small" {
			n = testenv.Size(70_000, 70_000, 300_000) // leaves of the radix kernel, and cuts
		}
		r := rand.New(rand.NewPCG(7, uint64(len(kind))))
		raw := make([]uint64, n)
		for i := range raw {
			switch kind {
			case "random":
				raw[i] = r.Uint64()
			case "small":
				raw[i] = r.Uint64() >> r.IntN(64)
				if r.IntN(2) == 0 {
					raw[i] = -raw[i]
				}
			case "few":
				raw[i] = uint64(r.IntN(3)-1) << 20
			}
		}
		check := func(typ string, sortIt func(t *sched.Task) func() bool) {
			var equal func() bool
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error { equal = sortIt(t); return nil }))
			require.True(t, equal(), "%s %s: Sort differs from slices.Sort", kind, typ)
		}
		check("int", sortAs[int](raw))
		check("int8", sortAs[int8](raw))
		check("int16", sortAs[int16](raw))
		check("int32", sortAs[int32](raw))
		check("int64", sortAs[int64](raw))
		check("uint", sortAs[uint](raw))
		check("uint8", sortAs[uint8](raw))
		check("uint16", sortAs[uint16](raw))
		check("uint32", sortAs[uint32](raw))
		check("uint64", sortAs[uint64](raw))
		check("uintptr", sortAs[uintptr](raw))
		check("age", sortAs[age](raw))
	}
}

// sortAs returns a function that sorts raw converted to E with Sort, and
// returns a check against slices.Sort.
func sortAs[E interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}](raw []uint64) func(t *sched.Task) func() bool {
	return func(t *sched.Task) func() bool {
		x := make([]E, len(raw))
		for i, v := range raw {
			x[i] = E(v)
		}
		want := slices.Clone(x)
		slices.Sort(want)
		par.Sort(t, x)
		return func() bool { return slices.Equal(x, want) }
	}
}

// TestSortStrings sorts strings with Sort against slices.Sort.
func TestSortStrings(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]string, testenv.Size(50_000, 50_000, 300_000))
	for i := range xs {
		xs[i] = strconv.FormatUint(r.Uint64()%100_000, 36)
	}
	want := slices.Clone(xs)
	slices.Sort(want)
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { par.Sort(t, xs); return nil }))
	require.Equal(t, want, xs)
}

// TestSortStringBytes sorts strings that Sort compares by their first
// eight bytes and then whole: short and empty ones, zero bytes, long
// shared prefixes, against slices.Sort; and checks that the block
// partitions for strings and with strings.Compare cut alike.
func TestSortStringBytes(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	r := rand.New(rand.NewPCG(8, 9))
	alphabet := []string{"", "\x00", "a", "a\x00", "ab", "\xff", "prefix--", "prefix--a", "prefix--\x00", "zzzzzzzz"}
	n := 40_000
	xs := make([]string, n)
	for i := range xs {
		s := alphabet[r.IntN(len(alphabet))]
		for range r.IntN(3) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		xs[i] = s
	}
	want := slices.Clone(xs)
	slices.Sort(want)
	x, y := slices.Clone(xs), slices.Clone(xs)
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		par.Sort(t, x)
		par.SortFunc(t, y, strings.Compare)
		return nil
	}))
	require.Equal(t, want, x, "Sort")
	require.Equal(t, want, y, "SortFunc")
	for _, pivot := range []string{"", "\x00", "a", "prefix--", "prefix--a", "zzzzzzzz", "\xff\xff"} {
		for _, le := range []bool{false, true} {
			x, y := slices.Clone(xs[:5000]), slices.Clone(xs[:5000])
			px := par.BlockPartitionOrdered(x, pivot, le)
			py := par.BlockPartitionFunc(y, pivot, le, strings.Compare)
			require.Equal(t, px, py, "pivot %q le=%v: the cut", pivot, le)
			require.Equal(t, x, y, "pivot %q le=%v: the partitions", pivot, le)
			for i, v := range x {
				if before := v < pivot || le && v == pivot; before != (i < px) {
					t.Fatalf("pivot %q le=%v: x[%d] = %q is on the wrong side, cut at %d", pivot, le, i, v, px)
				}
			}
		}
	}
}

// floatInputs returns float64 inputs of n elements that hold NaNs, both
// zeros and infinities, by name.
func floatInputs(n int) map[string][]float64 {
	r := rand.New(rand.NewPCG(5, 6))
	in := map[string][]float64{}
	gen := func(name string, f func(i int) float64) {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		in[name] = xs
	}
	special := []float64{math.NaN(), -math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1)}
	gen("mixed", func(int) float64 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64()
	})
	gen("nan-zero", func(int) float64 { return special[r.IntN(4)] })
	gen("sorted-nan-last", func(i int) float64 {
		if i == n-1 {
			return math.NaN()
		}
		return float64(i)
	})
	return in
}

// requireSameFloats checks that got is want up to the order of equal
// elements: NaN where want has NaN, == elsewhere, and the same bits as a
// multiset.
func requireSameFloats(t *testing.T, want, got []float64, what string) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%s: element %d is %v, slices.Sort has %v", what, i, got[i], want[i])
		}
	}
	bitsOf := func(xs []float64) []uint64 {
		b := make([]uint64, len(xs))
		for i, x := range xs {
			b[i] = math.Float64bits(x)
		}
		slices.Sort(b)
		return b
	}
	require.Equal(t, bitsOf(want), bitsOf(got), "%s: not a permutation of the input", what)
}

// TestSortFloats checks that Sort and SortFunc with cmp.Compare put NaNs
// first, as slices.Sort does, and keep every element, -0 and +0 and NaN
// payloads included.
func TestSortFloats(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	for _, n := range []int{3, 100, 3000, 40_000} {
		for kind, in := range floatInputs(n) {
			want := slices.Clone(in)
			slices.Sort(want)
			x, y := slices.Clone(in), slices.Clone(in)
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
				par.Sort(t, x)
				par.SortFunc(t, y, cmp.Compare[float64])
				return nil
			}))
			requireSameFloats(t, want, x, fmt.Sprintf("n=%d %s: Sort", n, kind))
			requireSameFloats(t, want, y, fmt.Sprintf("n=%d %s: SortFunc", n, kind))
		}
	}
}

// TestSortKernelsAgree checks that the two forms of each kernel, for an
// ordered type and with a comparison function, take the same steps: on
// floats whose equal elements can be told apart (NaNs, -0 and +0), they
// leave the same bits in the same places. So does the whole quicksort on
// one worker, whose steps are then fixed. The block partitions also split
// at the right place.
func TestSortKernelsAgree(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	for _, n := range []int{2, 20, 21, 50, 129, 300, 5000, 70_000} {
		for kind, in := range floatInputs(n) {
			x, y := slices.Clone(in), slices.Clone(in)
			par.PdqOrdered(x)
			par.PdqFunc(y, cmp.Compare[float64])
			require.Equal(t, floatBits(x), floatBits(y), "n=%d %s: the kernels", n, kind)
			x, y = slices.Clone(in), slices.Clone(in)
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
				par.SortOrdered(t, x, false)
				par.SortFunc(t, y, cmp.Compare[float64])
				return nil
			}))
			require.Equal(t, floatBits(x), floatBits(y), "n=%d %s: the quicksorts", n, kind)
			for _, le := range []bool{false, true} {
				x, y := slices.Clone(in), slices.Clone(in)
				pivot := in[len(in)/2]
				px := par.BlockPartitionOrdered(x, pivot, le)
				py := par.BlockPartitionFunc(y, pivot, le, cmp.Compare[float64])
				require.Equal(t, px, py, "n=%d %s le=%v: the cut", n, kind, le)
				require.Equal(t, floatBits(x), floatBits(y), "n=%d %s le=%v: the partitions", n, kind, le)
				for i, v := range x {
					before := cmp.Less(v, pivot) || le && !cmp.Less(pivot, v)
					if before != (i < px) {
						t.Fatalf("n=%d %s le=%v: x[%d] = %v is on the wrong side of %v, cut at %d", n, kind, le, i, v, pivot, px)
					}
				}
			}
		}
	}
}

func floatBits(xs []float64) []uint64 {
	b := make([]uint64, len(xs))
	for i, x := range xs {
		b[i] = math.Float64bits(x)
	}
	return b
}

// TestSortKernelAllocs checks that the serial kernels allocate nothing:
// no block partition moves its offsets to the heap.
func TestSortKernelAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	strs := make([]string, 5000)
	for i := range strs {
		strs[i] = strconv.FormatUint(r.Uint64(), 36)
	}
	floats := floatInputs(5000)["mixed"]
	x, y := slices.Clone(strs), slices.Clone(floats)
	for name, sortIt := range map[string]func(){
		"PdqOrdered strings": func() { copy(x, strs); par.PdqOrdered(x) },
		"PdqOrdered floats":  func() { copy(y, floats); par.PdqOrdered(y) },
		"PdqFunc strings":    func() { copy(x, strs); par.PdqFunc(x, strings.Compare) },
	} {
		require.Zero(t, testing.AllocsPerRun(3, sortIt), name)
	}
}

// TestSortBadCmp sorts with comparisons that are no strict weak ordering:
// the sorts end, and keep the elements.
func TestSortBadCmp(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	in := sortKinds(40_000, 9)["random"]
	for name, bad := range map[string]func(a, b int) int{
		"always less": func(a, b int) int { return -1 },
		"always more": func(a, b int) int { return 1 },
		"random":      func(a, b int) int { return rand.IntN(3) - 1 },
	} {
		x, y := slices.Clone(in), slices.Clone(in)
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			par.SortFunc(t, x, bad)
			par.SortStableFunc(t, y, bad)
			return nil
		}), name)
		want := slices.Sorted(slices.Values(in))
		require.Equal(t, want, slices.Sorted(slices.Values(x)), "%s: SortFunc kept the elements", name)
		require.Equal(t, want, slices.Sorted(slices.Values(y)), "%s: SortStableFunc kept the elements", name)
	}
}

// TestSortPanicKeepsElements makes cmp panic at its k-th call, for k
// across a sort's phases (the check for sorted input, the pivots, the
// cuts, the kernel, the merges): SortFunc and SortStableFunc panic with a
// *PanicError that holds cmp's value, and leave x a permutation of its
// input.
func TestSortPanicKeepsElements(t *testing.T) {
	n := testenv.Size(20_000, 20_000, 200_000)
	in := sortKinds(n, 13)["random"]
	want := slices.Sorted(slices.Values(in))
	sorts := map[string]func(t *sched.Task, x []int, cmp func(a, b int) int){
		"SortFunc":       func(t *sched.Task, x []int, cmp func(a, b int) int) { par.SortFunc(t, x, cmp) },
		"SortStableFunc": func(t *sched.Task, x []int, cmp func(a, b int) int) { par.SortStableFunc(t, x, cmp) },
	}
	for _, w := range []int{1, 4} {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: w})
		for name, sortIt := range sorts {
			for _, k := range []int64{1, 40, 1000, 30_000, 200_000} {
				x := slices.Clone(in)
				var calls atomic.Int64
				var pe *sched.PanicError
				func() {
					defer func() { pe, _ = recover().(*sched.PanicError) }()
					_ = p.Do(ctx, func(t *sched.Task) error {
						sortIt(t, x, func(a, b int) int {
							if calls.Add(1) == k {
								panic("cmp")
							}
							return cmp.Compare(a, b)
						})
						return nil
					})
				}()
				what := fmt.Sprintf("workers=%d %s k=%d", w, name, k)
				if calls.Load() < k {
					require.Nil(t, pe, "%s: the sort made fewer comparisons", what)
					require.True(t, slices.IsSorted(x), "%s", what)
					continue
				}
				require.NotNil(t, pe, "%s: no *PanicError", what)
				require.Equal(t, "cmp", pe.Value, what)
				require.Equal(t, want, slices.Sorted(slices.Values(x)), "%s: x is not a permutation of its input", what)
			}
		}
	}
}

// TestSortAdversary sorts with McIlroy's adversary ("A killer adversary
// for quicksort", 1999): a comparison that decides the elements' values
// as the sort compares them, so as to make every pivot bad. The sort must
// still make O(n log n) comparisons; then the values it decided, a killer
// input for this sort, sort alike with all three sorts.
func TestSortAdversary(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	for _, n := range []int{500, 30_000} {
		val := make([]int, n)
		gas := n
		for i := range val {
			val[i] = gas
		}
		solid, candidate := 0, -1
		adversary := func(x, y int) int {
			if val[x] == gas && val[y] == gas {
				if x == candidate {
					val[x] = solid
				} else {
					val[y] = solid
				}
				solid++
			}
			if val[x] == gas {
				candidate = x
			} else if val[y] == gas {
				candidate = y
			}
			return cmp.Compare(val[x], val[y])
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		var m par.Metered
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			m = par.MeterSortFunc(t, idx, adversary)
			return nil
		}))
		require.True(t, slices.IsSortedFunc(idx, func(a, b int) int { return cmp.Compare(val[a], val[b]) }))
		bound := int64(8 * n * bits.Len(uint(n)))
		t.Logf("n=%d: %d comparisons against the adversary, %.1f n log2 n", n, m.Work, float64(m.Work)/float64(n*bits.Len(uint(n))))
		require.LessOrEqual(t, m.Work, bound, "n=%d: comparisons against the adversary", n)
		p4 := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
		checkSorts(t, p4, fmt.Sprintf("n=%d killer", n), val)
	}
}

// TestSortSpan meters the sorts' work and span (see sortMeter): the
// comparisons of SortFunc and SortStableFunc, and the elements that the
// passes of Sort of integers visit, on random inputs. Their parallelism,
// work over span, must be at least 100 at 10^7 elements (under WSQ_FULL),
// and grow with n.
func TestSortSpan(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	sizes := []int{1 << 15, 1 << 17}
	if testenv.Full() {
		sizes = append(sizes, 10_000_000)
	}
	prev := map[string]float64{}
	for _, n := range sizes {
		in := sortKinds(n, 17)["random"]
		recs := records(in, n)
		var ms map[string]par.Metered
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			ms = map[string]par.Metered{
				"Sort":           par.MeterSort(t, slices.Clone(in)),
				"SortFunc":       par.MeterSortFunc(t, slices.Clone(in), cmp.Compare[int]),
				"SortStableFunc": par.MeterSortStableFunc(t, recs, byKey),
			}
			return nil
		}))
		for name, m := range ms {
			par := float64(m.Work) / float64(m.Span)
			t.Logf("n=%d %s: work %d, span %d, parallelism %.0f", n, name, m.Work, m.Span, par)
			require.Greater(t, par, prev[name], "n=%d %s: the parallelism does not grow", n, name)
			prev[name] = par
			if n >= 10_000_000 {
				require.GreaterOrEqual(t, par, 100.0, "n=%d %s", n, name)
			}
		}
	}
}

// FuzzSort sorts the fuzzer's bytes, read as int16 values, with Sort,
// SortFunc and SortStableFunc against slices, at their own length and
// repeated to a length that cuts in parallel.
func FuzzSort(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0})
	f.Add([]byte("the quick brown fox jumps over the lazy dog"))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.MaxUint64))
	f.Add([]byte{0x80, 0x00, 0x7f, 0xff, 0x00, 0x00, 0xff, 0xff})
	pool, err := sched.NewPool(sched.PoolConfig{Workers: 4})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { pool.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := make([]int16, len(data)/2)
		for i := range xs {
			xs[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		inputs := [][]int16{xs}
		if len(xs) > 0 {
			big := make([]int16, 0, 20_000+len(xs))
			for len(big) < 20_000 {
				for _, v := range xs {
					big = append(big, v^int16(len(big)/len(xs)))
				}
			}
			inputs = append(inputs, big)
		}
		for _, in := range inputs {
			want := slices.Clone(in)
			slices.Sort(want)
			x, y := slices.Clone(in), slices.Clone(in)
			recs := make([]record, len(in))
			for i, v := range in {
				recs[i] = record{int(v) % 7, i}
			}
			wantRecs := slices.Clone(recs)
			slices.SortStableFunc(wantRecs, byKey)
			require.NoError(t, pool.Do(ctx, func(t *sched.Task) error {
				par.Sort(t, x)
				par.SortFunc(t, y, cmp.Compare[int16])
				par.SortStableFunc(t, recs, byKey)
				return nil
			}))
			require.Equal(t, want, x, "Sort")
			require.Equal(t, want, y, "SortFunc")
			require.Equal(t, wantRecs, recs, "SortStableFunc")
		}
	})
}
