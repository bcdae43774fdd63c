package bench

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/sourcegraph/conc/iter"
	"golang.org/x/sync/errgroup"

	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// Parallel loops against the obvious alternatives. BenchmarkLoop runs one
// loop per op, filling out[i] for each index i of a workload:
//
//   - uniform-fine: 2^23 indices of a few nanoseconds each;
//   - uniform-coarse: 2048 indices of some microseconds each;
//   - triangular: 2048 indices, index i costing in proportion to i;
//   - mandelbrot: the rows of a 512×384 Mandelbrot image, 200 iterations
//     at most per pixel; out[row] sums the row's iterations. The rows
//     through the set cost most;
//   - nested: 8 tiles of uniform-fine indices, tile j holding (j+1)·2^17,
//     an outer loop over the tiles and an inner loop over each tile's
//     indices.
//
// Each implementation at the grain its users would pick:
//
//   - serial: one plain loop;
//   - wsq: par.ForRange on a Pool of GOMAXPROCS workers made once,
//     called in Pool.Do; nested: par.For over the tiles, ForRange in
//     each. No grain: the loop splits by demand;
//   - chunks: GOMAXPROCS goroutines, each over one static chunk of equal
//     size; nested: the outer loop serial, each tile in static chunks
//     (nested goroutines would oversubscribe);
//   - errgroup: an errgroup.Group with SetLimit(GOMAXPROCS), one Go per
//     chunk, with as many equal chunks as wsq's loop ends with parts
//     (counted in an untimed run of wsq: its pool's tasks, less Do's and
//     the loop's own); nested: per tile, as chunks does;
//   - conc: sourcegraph/conc v0.3.0's iter.ForEachIdx over out, one call
//     per index, workers pulling indices from a shared counter; nested:
//     ForEachIdx over the tiles, and inside it over the tile's indices.
//
// One op is one whole loop. Each op writes values that depend on the op's
// salt, so a loop that skipped an index fails the check after the timed
// loops (every index, against a serial run). The wsq rows also report the
// workload's parallelism and burdened-parallelism, from one measured run
// of BenchmarkSpan's workload before the timed loop (spanProfile). Run it
// with -cpu 1,2: every implementation uses GOMAXPROCS workers or
// goroutines.
//
//	go test -run '^$' -bench 'Loop' -cpu 1,2 -count 5 ./bench

// loopWork is one workload of BenchmarkLoop.
type loopWork struct {
	name string
	n    int
	// fill sets out[i] for each i in [lo, hi), for the op's salt.
	fill func(out []uint32, lo, hi int, salt uint64)
	// tiles, for nested work: the bounds of the outer loop's tiles
	// (tiles[j] to tiles[j+1]); nil for a flat loop.
	tiles []int
}

// spin returns the value of index i after rounds rounds of a mixing step:
// a chain of dependent multiplications, so that no compiler runs the
// rounds of one index in parallel, or those of adjacent indices as one
// vector operation.
func spin(i, salt uint64, rounds int) uint32 {
	x := i ^ salt
	for range rounds {
		x ^= x >> 29
		x *= 0xBF58476D1CE4E5B9
	}
	return uint32(x >> 32)
}

// mandelRow sums the iterations of the pixels of row y of a w×h image of
// the region [-2.2, 0.8] × [-1.2, 1.2], at most maxIter each.
func mandelRow(y, w, h, maxIter int) uint32 {
	ci := -1.2 + 2.4*float64(y)/float64(h)
	sum := 0
	for px := range w {
		cr := -2.2 + 3.0*float64(px)/float64(w)
		zr, zi := 0.0, 0.0
		k := 0
		for ; k < maxIter && zr*zr+zi*zi <= 4; k++ {
			zr, zi = zr*zr-zi*zi+cr, 2*zr*zi+ci
		}
		sum += k
	}
	return uint32(sum)
}

var loopWorks = func() []loopWork {
	fine := func(out []uint32, lo, hi int, salt uint64) {
		for i := lo; i < hi; i++ {
			out[i] = spin(uint64(i), salt, 2)
		}
	}
	var tiles []int
	for j, at := 0, 0; j <= 8; j++ {
		tiles = append(tiles, at)
		at += (j + 1) << 17
	}
	return []loopWork{
		{name: "uniform-fine", n: 1 << 23, fill: fine},
		{name: "uniform-coarse", n: 2048, fill: func(out []uint32, lo, hi int, salt uint64) {
			for i := lo; i < hi; i++ {
				out[i] = spin(uint64(i), salt, 4096)
			}
		}},
		{name: "triangular", n: 2048, fill: func(out []uint32, lo, hi int, salt uint64) {
			for i := lo; i < hi; i++ {
				out[i] = spin(uint64(i), salt, 4*i)
			}
		}},
		{name: "mandelbrot", n: 384, fill: func(out []uint32, lo, hi int, salt uint64) {
			for y := lo; y < hi; y++ {
				out[y] = mandelRow(y, 512, 384, 200) + uint32(salt)
			}
		}},
		{name: "nested", n: tiles[8], fill: fine, tiles: tiles},
	}
}()

// loopImpl prepares a way to run a workload, and returns it and a function
// that releases what it holds.
type loopImpl struct {
	name    string
	prepare func(w loopWork) (run func(out []uint32, salt uint64), stop func())
}

var loopImpls = []loopImpl{
	{"wsq", prepareLoopWsq},
	{"serial", func(w loopWork) (func([]uint32, uint64), func()) {
		return func(out []uint32, salt uint64) { w.fill(out, 0, w.n, salt) }, func() {}
	}},
	{"chunks", func(w loopWork) (func([]uint32, uint64), func()) {
		return func(out []uint32, salt uint64) {
			forTiles(w, func(lo, hi int) { staticChunks(lo, hi, runtime.GOMAXPROCS(0), out, salt, w.fill) })
		}, func() {}
	}},
	{"errgroup", func(w loopWork) (func([]uint32, uint64), func()) {
		chunks := wsqParts(w)
		return func(out []uint32, salt uint64) {
			forTiles(w, func(lo, hi int) { errgroupChunks(lo, hi, chunks, out, salt, w.fill) })
		}, func() {}
	}},
	{"conc", func(w loopWork) (func([]uint32, uint64), func()) {
		one := func(out []uint32, i int, salt uint64) { w.fill(out, i, i+1, salt) }
		if w.tiles == nil {
			return func(out []uint32, salt uint64) {
				iter.ForEachIdx(out[:w.n], func(i int, _ *uint32) { one(out, i, salt) })
			}, func() {}
		}
		return func(out []uint32, salt uint64) {
			iter.ForEachIdx(w.tiles[:len(w.tiles)-1], func(j int, lo *int) {
				tile := out[*lo:w.tiles[j+1]]
				iter.ForEachIdx(tile, func(i int, _ *uint32) { one(out, *lo+i, salt) })
			})
		}, func() {}
	}},
}

func BenchmarkLoop(b *testing.B) {
	for _, w := range loopWorks {
		want := make([]uint32, w.n)
		for _, impl := range loopImpls {
			b.Run(fmt.Sprintf("work=%s/impl=%s", w.name, impl.name), func(b *testing.B) {
				var prof *sched.Profile
				if impl.name == "wsq" {
					p := spanProfile("loop-" + w.name)
					prof = &p
				}
				out := make([]uint32, w.n)
				for i := range out {
					out[i] = 1 // touched: no op pays the first write of a page
				}
				run, stop := impl.prepare(w)
				defer stop()
				b.ReportAllocs()
				var salt uint64
				for b.Loop() {
					salt++
					run(out, salt)
				}
				w.fill(want, 0, w.n, salt)
				for i := range out {
					if out[i] != want[i] {
						b.Fatalf("out[%d] = %d, want %d", i, out[i], want[i])
					}
				}
				if prof != nil {
					prof.Report(b)
				}
			})
		}
	}
}

// prepareLoopWsq makes a pool of GOMAXPROCS workers for the workload.
func prepareLoopWsq(w loopWork) (func([]uint32, uint64), func()) {
	pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
	if err != nil {
		panic(err)
	}
	return func(out []uint32, salt uint64) { runLoopWsq(pool, w, out, salt) }, func() { pool.Close() }
}

// runLoopWsq runs the workload on the pool: ForRange, or for nested work,
// For over the tiles and ForRange in each.
func runLoopWsq(pool *sched.Pool, w loopWork, out []uint32, salt uint64) {
	_ = pool.Do(context.Background(), func(t *sched.Task) error {
		if w.tiles == nil {
			par.ForRange(t, w.n, func(_ *sched.Task, lo, hi int) { w.fill(out, lo, hi, salt) })
			return nil
		}
		par.For(t, len(w.tiles)-1, func(t *sched.Task, j int) {
			base := w.tiles[j]
			par.ForRange(t, w.tiles[j+1]-base, func(_ *sched.Task, lo, hi int) { w.fill(out, base+lo, base+hi, salt) })
		})
		return nil
	})
}

// wsqParts returns how many parts wsq's loop ends with on the workload
// (per tile, for nested work): the tasks of one run on a new pool, less
// Do's and the loops' own.
func wsqParts(w loopWork) int {
	pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
	if err != nil {
		panic(err)
	}
	runLoopWsq(pool, w, make([]uint32, w.n), 0)
	tasks := int(pool.Close().Processed) - 2 // Do's task, the loop's
	if w.tiles != nil {
		tiles := len(w.tiles) - 1
		tasks = (tasks - tiles) / tiles // each tile's loop, per tile
	}
	return max(tasks, 1)
}

// forTiles calls f for each tile of w, in order, or once for the whole
// range of a flat loop.
func forTiles(w loopWork, f func(lo, hi int)) {
	if w.tiles == nil {
		f(0, w.n)
		return
	}
	for j := range len(w.tiles) - 1 {
		f(w.tiles[j], w.tiles[j+1])
	}
}

// chunkBounds returns the start of chunk c of k equal chunks of [lo, hi).
func chunkBounds(lo, hi, k, c int) int { return lo + (hi-lo)*c/k }

// staticChunks fills [lo, hi) with k goroutines, one per chunk.
func staticChunks(lo, hi, k int, out []uint32, salt uint64, fill func([]uint32, int, int, uint64)) {
	var wg sync.WaitGroup
	for c := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fill(out, chunkBounds(lo, hi, k, c), chunkBounds(lo, hi, k, c+1), salt)
		}()
	}
	wg.Wait()
}

// errgroupChunks fills [lo, hi) in k chunks, GOMAXPROCS at a time.
func errgroupChunks(lo, hi, k int, out []uint32, salt uint64, fill func([]uint32, int, int, uint64)) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for c := range k {
		g.Go(func() error {
			fill(out, chunkBounds(lo, hi, k, c), chunkBounds(lo, hi, k, c+1), salt)
			return nil
		})
	}
	_ = g.Wait() // the chunks return nil
}

// The sorts' inputs, shared with the rust peer (TestPeerConstants): the
// lengths of the ints and strings; how many values the distinct inputs
// draw from; the Zipf distribution's s (in thousandths), v and largest
// value.
const (
	sortInts     = 10_000_000
	sortStrings  = 1_000_000
	sortDistinct = 16
)

var sortZipf = []int{1200, 1, 1 << 20}

// sortInputs are the kinds of input of the sort benchmarks: random 64-bit
// values; sorted and reversed ones; all equal; drawn from sortDistinct
// random values; Zipf-distributed (as rand.NewZipf draws them with
// sortZipf). The strings are the values formatted in base 36; the sorted
// and reversed strings are sorted as strings.
var sortInputs = []string{"random", "sorted", "reversed", "equal", "distinct16", "zipf"}

// sortValues returns n values of the kind of input, drawn from a
// generator seeded by seed.
func sortValues(kind string, n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 2))
	xs := make([]uint64, n)
	switch kind {
	case "random":
		for i := range xs {
			xs[i] = r.Uint64()
		}
	case "sorted", "reversed":
		for i := range xs {
			xs[i] = uint64(i) * 1_000_003 // spread, so that strings of them differ in length
		}
		if kind == "reversed" {
			slices.Reverse(xs)
		}
	case "equal":
		v := r.Uint64()
		for i := range xs {
			xs[i] = v
		}
	case "distinct16":
		var vs [sortDistinct]uint64
		for i := range vs {
			vs[i] = r.Uint64()
		}
		for i := range xs {
			xs[i] = vs[r.IntN(sortDistinct)]
		}
	case "zipf":
		z := rand.NewZipf(r, float64(sortZipf[0])/1000, float64(sortZipf[1]), uint64(sortZipf[2]))
		for i := range xs {
			xs[i] = z.Uint64()
		}
	default:
		panic("bench: no sort input " + kind)
	}
	return xs
}

// sortData returns the ints and the strings of a kind of input.
func sortData(kind string) ([]int, []string) {
	vs := sortValues(kind, sortInts, 1)
	ints := make([]int, len(vs))
	for i, v := range vs {
		ints[i] = int(v)
	}
	vs = sortValues(kind, sortStrings, 2)
	strs := make([]string, len(vs))
	for i, v := range vs {
		strs[i] = strconv.FormatUint(v, 36)
	}
	switch kind { // in the order of strings, not of numbers
	case "sorted":
		slices.Sort(strs)
	case "reversed":
		slices.Sort(strs)
		slices.Reverse(strs)
	}
	return ints, strs
}

// BenchmarkSort sorts 10^7 ints and 10^6 strings of each kind of input
// (sortInputs) per op, restored from a copy outside the timer, with:
//
//   - wsq: par.Sort on a Pool of GOMAXPROCS workers made once, in
//     Pool.Do;
//   - slices: slices.Sort;
//   - goroutines: a merge sort that sorts the halves in two goroutines
//     down to a depth of log2(GOMAXPROCS)+2 (four leaves per processor),
//     sorts the leaves with slices.Sort, and merges each level serially
//     through a buffer.
//
// Each op's result is checked against slices.Sort's, outside the timer.
// The sub-benchmarks are named data=ELEM-INPUT/impl=IMPL. The wsq rows of
// random input also report its parallelism and burdened-parallelism, from
// one measured run of BenchmarkSpan's workload before the timed loop
// (spanProfile).
//
//	go test -run '^$' -bench 'Sort' -cpu 1,2 -count 5 ./bench
func BenchmarkSort(b *testing.B) {
	for _, kind := range sortInputs {
		ints, strs := sortData(kind)
		benchSort(b, "ints-"+kind, ints)
		benchSort(b, "strings-"+kind, strs)
	}
}

// BenchmarkSortStable sorts the inputs of BenchmarkSort with
// par.SortStableFunc (wsq) and slices.SortStableFunc (slices), both
// with cmp.Compare.
func BenchmarkSortStable(b *testing.B) {
	for _, kind := range sortInputs {
		ints, strs := sortData(kind)
		benchSortStable(b, "ints-"+kind, ints)
		benchSortStable(b, "strings-"+kind, strs)
	}
}

// sortImpl is a sort of a benchmark, run on a pool made for it.
type sortImpl[E any] struct {
	name string
	sort func(pool *sched.Pool, x []E)
}

// benchSort runs the sorts of BenchmarkSort on copies of in.
func benchSort[E interface{ ~int | ~string }](b *testing.B, name string, in []E) {
	span := map[string]string{"ints-random": "sort-ints", "strings-random": "sort-strings"}[name]
	runSorts(b, name, span, in, []sortImpl[E]{
		{"wsq", func(pool *sched.Pool, x []E) {
			_ = pool.Do(context.Background(), func(t *sched.Task) error {
				par.Sort(t, x)
				return nil
			})
		}},
		{"slices", func(_ *sched.Pool, x []E) { slices.Sort(x) }},
		{"goroutines", func(_ *sched.Pool, x []E) {
			mergeSortGoroutines(x, make([]E, len(x)), bits.Len(uint(runtime.GOMAXPROCS(0)))+1)
		}},
	})
}

// benchSortStable runs the sorts of BenchmarkSortStable on copies of in.
func benchSortStable[E interface{ ~int | ~string }](b *testing.B, name string, in []E) {
	runSorts(b, name, "", in, []sortImpl[E]{
		{"wsq", func(pool *sched.Pool, x []E) {
			_ = pool.Do(context.Background(), func(t *sched.Task) error {
				par.SortStableFunc(t, x, cmp.Compare[E])
				return nil
			})
		}},
		{"slices", func(_ *sched.Pool, x []E) { slices.SortStableFunc(x, cmp.Compare[E]) }},
	})
}

// runSorts times each sort of in, checking each op's result.
// runSorts runs the sorts on copies of in; the wsq row reports the
// parallelism of span, a workload of BenchmarkSpan, unless span is "".
func runSorts[E cmp.Ordered](b *testing.B, name, span string, in []E, sorts []sortImpl[E]) {
	want := slices.Clone(in)
	slices.Sort(want)
	for _, s := range sorts {
		b.Run(fmt.Sprintf("data=%s/impl=%s", name, s.name), func(b *testing.B) {
			var prof *sched.Profile
			if span != "" && s.name == "wsq" {
				p := spanProfile(span)
				prof = &p
			}
			pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			x := make([]E, len(in))
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				copy(x, in)
				b.StartTimer()
				s.sort(pool, x)
				b.StopTimer()
				if !slices.Equal(x, want) {
					b.Fatal("the result is not slices.Sort's")
				}
				b.StartTimer()
			}
			if prof != nil {
				prof.Report(b)
			}
		})
	}
}

// mergeSortGoroutines sorts x, using buf (of x's length), by sorting its
// halves in two goroutines down to the given depth and merging them.
func mergeSortGoroutines[E interface{ ~int | ~string }](x, buf []E, depth int) {
	if depth == 0 || len(x) < 2 {
		slices.Sort(x)
		return
	}
	h := len(x) / 2
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mergeSortGoroutines(x[:h], buf[:h], depth-1)
	}()
	mergeSortGoroutines(x[h:], buf[h:], depth-1)
	wg.Wait()
	copy(buf, x)
	a, c := buf[:h], buf[h:]
	k := 0
	for len(a) > 0 && len(c) > 0 {
		if c[0] < a[0] {
			x[k], c = c[0], c[1:]
		} else {
			x[k], a = a[0], a[1:]
		}
		k++
	}
	k += copy(x[k:], a)
	copy(x[k:], c)
}
