package par

import (
	"cmp"
	"math/bits"
	"sort"

	"github.com/worksteal/wsq/sched"
)

// The unstable sorts' parallel part: a quicksort whose cuts run in
// parallel. A cut of a part of n elements partitions its blocks of
// sortBlock elements in parallel, each with the kernel's block partition.
// Then the part holds, block after block, runs of small and large
// elements. Where the first l elements belong to the small ones, the
// large elements inside x[:l] and the small ones after it are equally many;
// they swap pairwise, in parallel chunks of sortBlock pairs. The span of a
// cut is two blocks and a few words of bookkeeping per block; its work is
// a serial partition's and the swaps. A cut that finds no worker looking
// for work is that serial partition alone: nobody would share its blocks.
//
// A part of at most leaf elements goes to the kernel on one worker.

// pivotSample is how many elements a pivot of a parallel cut is the
// median of.
const pivotSample = 31

// quickSorter is one unstable sort: how it compares, cuts a block, and
// sorts a leaf.
type quickSorter[E any] struct {
	less func(a, b E) bool
	// partition moves the elements of x below pivot (with le, no greater
	// than it) before the others, and returns how many there are.
	partition func(x []E, pivot E, le bool) int
	// kernel sorts data[a:b] on one worker. data[a-1], when a > 0, is no
	// greater than any element of data[a:b]. limit is how many unbalanced
	// cuts it may make before it turns to heapsort.
	kernel func(data []E, a, b, limit int)
	leaf   int // the longest part the kernel sorts
	m      *sortMeter
	// ticks says that the meter counts an element per comparison of a
	// cut, here; a comparison function counts its own calls.
	ticks bool
}

// quickPart is a part of a quicksort: data[a:b], data being the whole
// slice, and how many more unbalanced cuts it may take.
type quickPart[E any] struct {
	q     *quickSorter[E]
	data  []E
	a, b  int
	limit int
}

// quickTask sorts the part p as the task t: it cuts p, and sorts the two
// sides in parallel. A part whose pivot equals the element before it (the
// pivot of a cut above) holds many equal elements: its cut puts those
// first, and they are done.
func quickTask[E any](t *sched.Task, p quickPart[E]) {
	q, data, a, b := p.q, p.data, p.a, p.b
	for {
		n := b - a
		if n <= q.leaf || p.limit == 0 {
			q.kernel(data, a, b, p.limit)
			return
		}
		piv := a + q.pivot(data[a:b])
		if a > 0 && !q.less(data[a-1], data[piv]) {
			a += q.cut(t, data[a:b], piv-a, true) + 1
			continue
		}
		mid := a + q.cut(t, data[a:b], piv-a, false)
		limit := p.limit
		if min(mid-a, b-mid-1) < n/8 {
			limit--
		}
		small := quickPart[E]{q, data, a, mid, limit}
		large := quickPart[E]{q, data, mid + 1, b, limit}
		if mid-a > b-mid-1 {
			small, large = large, small
		}
		// The larger side is the task a thief may take: it carries more
		// work. A cancelled sort leaves both sides as they are.
		if cancelled(t) {
			return
		}
		join2(t, q.m, quickTask[E], small, quickTask[E], large)
		return
	}
}

// pivot returns the index of the median of pivotSample elements of x,
// one from each of as many equal stretches, at places drawn from a
// generator seeded by len(x). It sorts their indices, not them.
func (q *quickSorter[E]) pivot(x []E) int {
	var idx [pivotSample]int
	step := len(x) / pivotSample
	r := uint64(len(x)) | 1
	for i := range idx {
		r ^= r << 13 // xorshift64
		r ^= r >> 7
		r ^= r << 17
		idx[i] = i*step + int(r%uint64(step))
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && q.less(x[idx[j]], x[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx[pivotSample/2]
}

// segment is a run of misplaced elements of a cut: y[at:at+n], after
// before others of its kind.
type segment struct{ at, n, before int }

// cut moves x[p] to some place mid, the elements below it before mid and
// the others after it, as cutOrdered does, in parallel, and returns mid.
// With le, the elements equal to x[p] go before it too.
func (q *quickSorter[E]) cut(t *sched.Task, x []E, p int, le bool) int {
	x[0], x[p] = x[p], x[0]
	pivot := x[0]
	y := x[1:]
	if q.m == nil && t.Demand() == 0 {
		// No worker looks for work: one pass on this worker moves each
		// element once, where the parallel cut moves some twice.
		l := q.partition(y, pivot, le)
		x[0], x[l] = x[l], x[0]
		return l
	}
	// small[i] is how many elements of block i belong before the pivot.
	small := make([]int, (len(y)+sortBlock-1)/sortBlock)
	forBlocks(t, q.m, len(y), sortBlock, func(t *sched.Task, lo, hi int) {
		if q.ticks {
			q.m.tick(hi - lo)
		}
		small[lo/sortBlock] = q.partition(y[lo:hi], pivot, le)
	})
	l := 0
	for _, c := range small {
		l += c
	}
	// Block i is y[lo:mid] below and y[mid:hi] above. The large ones in
	// y[:l] are out of place, and so are the small ones in y[l:].
	// The large elements before l, and the small ones after it: a block
	// adds at most one segment to each. Allocated whole, they grow by no
	// copy, on the cut's span.
	out := make([]segment, 0, len(small))
	in := make([]segment, 0, len(small))
	nOut, nIn := 0, 0
	for i, c := range small {
		lo := i * sortBlock
		hi := min(len(y), lo+sortBlock)
		mid := lo + c
		if end := min(hi, l); mid < end {
			out = append(out, segment{mid, end - mid, nOut})
			nOut += end - mid
		}
		if start := max(lo, l); start < mid {
			in = append(in, segment{start, mid - start, nIn})
			nIn += mid - start
		}
	}
	forBlocks(t, q.m, nOut, sortBlock, func(t *sched.Task, lo, hi int) {
		if q.ticks {
			q.m.tick(hi - lo)
		}
		swapSegments(y, out, in, lo, hi)
	})
	x[0], x[l] = x[l], x[0]
	return l
}

// swapSegments swaps the elements lo to hi-1 of the runs a with those of
// the runs b, counted across the runs in order.
func swapSegments[E any](y []E, a, b []segment, lo, hi int) {
	i := sort.Search(len(a), func(i int) bool { return a[i].before+a[i].n > lo })
	j := sort.Search(len(b), func(j int) bool { return b[j].before+b[j].n > lo })
	for lo < hi {
		ai := a[i].at + lo - a[i].before
		bj := b[j].at + lo - b[j].before
		n := min(hi-lo, a[i].before+a[i].n-lo, b[j].before+b[j].n-lo)
		for k := range n {
			y[ai+k], y[bj+k] = y[bj+k], y[ai+k]
		}
		lo += n
		if lo == a[i].before+a[i].n {
			i++
		}
		if lo == b[j].before+b[j].n {
			j++
		}
	}
}

// sortOrdered sorts x, of at least two elements, for Sort; with radix,
// by the radix kernel if E is an integer type. m is nil but in a test that
// meters the sort. A short x is sorted by its kernel at once: pdqsort
// costs one pass for a sorted x, and the radix sort is preceded by the
// check for one.
func sortOrdered[E cmp.Ordered](t *sched.Task, x []E, m *sortMeter, radix bool) {
	var rs func(x, buf []E, m *sortMeter)
	if radix {
		rs = radixSorter[E]()
	}
	n := len(x)
	switch {
	case (rs == nil || n < radixMin) && n <= quickLeaf:
		pdqMetered(x, 0, n, sortLimit(n), m)
		return
	case rs != nil && n >= radixMin && n <= radixLeaf:
		if !presorted(t, m, x, orderOrdered[E]) {
			rs(x, make([]E, n), m)
		}
		return
	}
	if presorted(t, m, x, orderOrdered[E]) {
		return
	}
	q := &quickSorter[E]{
		less:      less[E],
		partition: blockPartitionOrdered[E],
		kernel:    func(data []E, a, b, limit int) { pdqMetered(data, a, b, limit, m) },
		leaf:      quickLeaf,
		m:         m,
		ticks:     true,
	}
	if rs != nil {
		q.kernel, q.leaf = radixKernel(rs, n, m), radixLeaf
	}
	quickTask(t, quickPart[E]{q, x, 0, n, sortLimit(n)})
}

// pdqMetered is pdqOrdered, with m's model of its comparisons: n log2 n
// for n elements.
func pdqMetered[E cmp.Ordered](data []E, a, b, limit int, m *sortMeter) {
	if m != nil {
		m.tick((b - a) * bits.Len(uint(b-a)))
	}
	pdqOrdered(data, a, b, limit)
}

// orderOrdered is the order function of presorted for Sort: up is
// ascending, down is descending (not strictly). A sorted y is descending
// too if its ends are equal.
func orderOrdered[E cmp.Ordered](y []E, up, down bool) (bool, bool) {
	if up && isSortedForward(y) {
		return true, down && !less(y[0], y[len(y)-1])
	}
	if !down {
		return false, false
	}
	for i := 1; i < len(y); i++ {
		if less(y[i-1], y[i]) {
			return false, false
		}
	}
	return false, true
}

// isSortedForward is slices.IsSorted, reading y from its start: the
// blocks of a pass are read in order, and a forward read of each keeps the
// processor's prefetch going from one block to the next.
func isSortedForward[E cmp.Ordered](y []E) bool {
	for i := 1; i < len(y); i++ {
		if less(y[i], y[i-1]) {
			return false
		}
	}
	return true
}

// isSortedFuncForward is slices.IsSortedFunc, reading y from its start,
// as isSortedForward does.
func isSortedFuncForward[E any](y []E, cmp func(a, b E) int) bool {
	for i := 1; i < len(y); i++ {
		if cmp(y[i], y[i-1]) < 0 {
			return false
		}
	}
	return true
}

// orderFunc is orderOrdered with a comparison function. With strict, down
// is strictly descending, the order whose reversal is stable.
func orderFunc[E any](y []E, up, down, strict bool, cmp func(a, b E) int) (bool, bool) {
	if up && isSortedFuncForward(y, cmp) {
		return true, down && !strict && cmp(y[0], y[len(y)-1]) >= 0
	}
	if !down {
		return false, false
	}
	least := b2i(strict) // cmp(y[i-1], y[i]) must be at least this
	for i := 1; i < len(y); i++ {
		if cmp(y[i-1], y[i]) < least {
			return false, false
		}
	}
	return false, true
}

// funcSort is a sort with a comparison function, SortFunc's or
// SortStableFunc's, as its first task's argument.
type funcSort[E any] struct {
	x   []E
	cmp func(a, b E) int
	m   *sortMeter
}

// runFuncSort runs first(t', s) in a task of its own, which turns a panic
// of cmp into a *sched.PanicError; with a meter, on this goroutine, as the
// meter's model of a run.
func runFuncSort[E any](t *sched.Task, first func(*sched.Task, funcSort[E]), s funcSort[E]) {
	if s.m != nil {
		first(t, s)
		return
	}
	asTask(t, first, s)
}

// sortFunc sorts x, of at least two elements, for SortFunc.
func sortFunc[E any](t *sched.Task, x []E, cmp func(a, b E) int, m *sortMeter) {
	runFuncSort(t, sortFuncTask[E], funcSort[E]{x, cmp, m})
}

// sortFuncTask is the first task of SortFunc.
func sortFuncTask[E any](t *sched.Task, s funcSort[E]) {
	x, cmp := s.x, s.cmp
	if len(x) <= quickLeaf { // pdqsort costs one pass for a sorted x
		pdqFunc(x, 0, len(x), sortLimit(len(x)), cmp)
		return
	}
	order := func(y []E, up, down bool) (bool, bool) { return orderFunc(y, up, down, false, cmp) }
	if presorted(t, s.m, x, order) {
		return
	}
	q := &quickSorter[E]{
		less:      func(a, b E) bool { return cmp(a, b) < 0 },
		partition: func(x []E, pivot E, le bool) int { return blockPartitionFunc(x, pivot, le, cmp) },
		kernel:    func(data []E, a, b, limit int) { pdqFunc(data, a, b, limit, cmp) },
		leaf:      quickLeaf,
		m:         s.m,
	}
	quickTask(t, quickPart[E]{q, x, 0, len(x), sortLimit(len(x))})
}
