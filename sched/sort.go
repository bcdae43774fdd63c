package sched

import (
	"cmp"
	"math/bits"
	"slices"
)

// The sorts are parallel forms of the standard library's. Sort and
// SortFunc are quicksorts: a task partitions its part around a pivot and
// sorts the two sides with JoinFunc, down to parts of sortLeaf elements,
// which slices.Sort or slices.SortFunc sorts. SortStableFunc is a merge
// sort whose merges split too.

// sortLeaf is the size below which a part is sorted serially. A part of
// this size takes far longer than the Join that starts it.
const sortLeaf = 2048

// mergeLeaf is the size below which a merge runs serially.
const mergeLeaf = 8192

// Sort sorts x in ascending order, as slices.Sort does, in parallel when
// other workers look for work. When sorting floating-point numbers, NaNs
// are ordered before other values. It sorts in place and allocates
// nothing. The sort is not stable, which no one can see in values of an
// ordered type.
//
//	sched.Sort(t, xs) // xs is a []int
//
// Sort is a parallel quicksort. A part is cut around the median of nine
// of its elements, and the two sides are sorted in parallel, down to small
// parts that slices.Sort sorts. A part cut badly too often is left to
// slices.Sort whole, so the worst case stays O(n log n). An x that is
// sorted already costs one pass. The first cut of a part runs on one
// worker: the parallel work grows from there.
//
// Sort of a nil or short x returns at once. t is the calling task: Sort
// panics if it is nil or not the Task of the function that calls it.
func Sort[S ~[]E, E cmp.Ordered](t *Task, x S) {
	if t == nil {
		onDefault(func(t *Task) { Sort(t, x) })
		return
	}
	if len(x) < 2 {
		return
	}
	q := &quick[E]{
		sorted:    func(x []E) bool { return slices.IsSorted(x) },
		partition: partitionOrdered[E],
		leaf:      func(x []E) { slices.Sort(x) },
	}
	q.sort(t, x)
}

// SortFunc sorts x in ascending order as cmp determines it, as
// slices.SortFunc does, in parallel when other workers look for work. cmp
// must be a strict weak ordering, as slices.SortFunc requires; with one
// that is not, SortFunc ends, with x in some order. The sort is not
// stable. All that Sort says holds for SortFunc.
//
//	sched.SortFunc(t, people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
//
// SortFunc panics if t or cmp is nil, and with a *PanicError if cmp
// panics.
func SortFunc[S ~[]E, E any](t *Task, x S, cmp func(a, b E) int) {
	checkLoop("SortFunc", cmp == nil)
	if t == nil {
		onDefault(func(t *Task) { SortFunc(t, x, cmp) })
		return
	}
	if len(x) < 2 {
		return
	}
	q := &quick[E]{
		sorted:    func(x []E) bool { return slices.IsSortedFunc(x, cmp) },
		partition: func(x []E) int { return partitionFunc(x, cmp) },
		leaf:      func(x []E) { slices.SortFunc(x, cmp) },
	}
	q.sort(t, x)
}

// SortStableFunc sorts x as SortFunc does, keeping the original order of
// equal elements, as slices.SortStableFunc does. It is a parallel merge
// sort: the halves are sorted in parallel, then merged in parallel, each
// merge cut where a binary search splits both halves. It allocates one
// buffer of len(x) elements.
//
//	sched.SortStableFunc(t, people, func(a, b Person) int { return strings.Compare(a.Name, b.Name) })
//
// SortStableFunc panics if t or cmp is nil, and with a *PanicError if
// cmp panics.
func SortStableFunc[S ~[]E, E any](t *Task, x S, cmp func(a, b E) int) {
	checkLoop("SortStableFunc", cmp == nil)
	if t == nil {
		onDefault(func(t *Task) { SortStableFunc(t, x, cmp) })
		return
	}
	if len(x) < 2 {
		return
	}
	asTask(t, stableSort[E], stableArgs[E]{x: x, cmp: cmp})
}

// stableArgs is a whole stable sort.
type stableArgs[E any] struct {
	x   []E
	cmp func(a, b E) int
}

// stableSort is the first task of a stable sort: it returns at once if
// x is sorted, and else sorts it by mergeSort.
func stableSort[E any](t *Task, a stableArgs[E]) {
	if slices.IsSortedFunc(a.x, a.cmp) {
		return
	}
	mergeSort(t, mergeArgs[E]{m: &merger[E]{cmp: a.cmp}, x: a.x, buf: make([]E, len(a.x))})
}

// quick is one quicksort: how it cuts a part, and how it sorts a small
// one.
type quick[E any] struct {
	sorted func(x []E) bool // checked once, by the first task
	// partition moves a pivot of x to some p and the elements to either
	// side of it: x[:p] holds none above x[p], and x[p+1:] none below.
	partition func(x []E) int
	leaf      func(x []E)
}

// sort sorts x in tasks, the first of which checks whether x is sorted
// already. A task turns a panic of a comparison into a *PanicError. A
// part may be cut badly bits.Len(len(x)) times before it is left to leaf.
func (q *quick[E]) sort(t *Task, x []E) {
	asTask(t, quickFirst[E], quickArgs[E]{q: q, x: x, bad: bits.Len(uint(len(x)))})
}

// quickFirst is the first task of a quicksort: it returns at once if x is
// sorted, and else sorts it by quickSort.
func quickFirst[E any](t *Task, a quickArgs[E]) {
	if !a.q.sorted(a.x) {
		quickSort(t, a)
	}
}

// quickArgs is a part of a quicksort: the elements, and how many more bad
// cuts it may take.
type quickArgs[E any] struct {
	q   *quick[E]
	x   []E
	bad int
}

// quickSort sorts the part a as the task t.
func quickSort[E any](t *Task, a quickArgs[E]) {
	q, x := a.q, a.x
	if len(x) <= sortLeaf || a.bad == 0 {
		q.leaf(x)
		return
	}
	p := q.partition(x)
	lo, hi := x[:p], x[p+1:]
	if min(len(lo), len(hi)) < len(x)/8 {
		a.bad--
	}
	if len(lo) > len(hi) {
		lo, hi = hi, lo
	}
	// The larger side is the task a thief may take: it carries more work.
	JoinFunc(t, quickSort[E], quickArgs[E]{q, lo, a.bad}, quickSort[E], quickArgs[E]{q, hi, a.bad})
}

// partitionOrdered is partitionFunc for an ordered type, with cmp.Less
// written in place of cmp: a call per comparison would cost it more than
// the comparison. The two must stay alike, step for step;
// TestPartitionsAgree checks that they cut alike.
func partitionOrdered[E cmp.Ordered](x []E) int {
	n := len(x)
	a, b, c := n/4, n/2, n/4*3
	if n >= 64 { // Tukey's ninther: the median of three medians
		a = median3Ordered(x, a-1, a, a+1)
		b = median3Ordered(x, b-1, b, b+1)
		c = median3Ordered(x, c-1, c, c+1)
	}
	m := median3Ordered(x, a, b, c)
	x[0], x[m] = x[m], x[0]
	pivot := x[0]
	i, j := 1, n-1
	for {
		for i <= j && cmp.Less(x[i], pivot) {
			i++
		}
		for i <= j && cmp.Less(pivot, x[j]) {
			j--
		}
		if i >= j {
			break
		}
		x[i], x[j] = x[j], x[i]
		i++
		j--
	}
	x[0], x[j] = x[j], x[0]
	return j
}

// median3Ordered returns the index of the median of x[a], x[b] and x[c].
func median3Ordered[E cmp.Ordered](x []E, a, b, c int) int {
	if cmp.Less(x[b], x[a]) {
		a, b = b, a
	}
	if cmp.Less(x[c], x[b]) {
		b = c
		if cmp.Less(x[b], x[a]) {
			b = a
		}
	}
	return b
}

// partitionFunc moves a pivot of x, which holds at least 3 elements, to
// some p, the elements below it before p and those above it after p, and
// returns p. The pivot is the median of three elements, or of three
// medians of three. Elements equal to the pivot stop both scans and are
// swapped, so that a part of equal elements is cut in the middle. Every
// scan stays within x, whatever cmp answers.
//
// Invariants of the loop: x[0] is the pivot; x[1:i] holds no element
// above it; x[j+1:] holds none below it.
func partitionFunc[E any](x []E, cmp func(a, b E) int) int {
	n := len(x)
	a, b, c := n/4, n/2, n/4*3
	if n >= 64 {
		a = median3Func(x, a-1, a, a+1, cmp)
		b = median3Func(x, b-1, b, b+1, cmp)
		c = median3Func(x, c-1, c, c+1, cmp)
	}
	m := median3Func(x, a, b, c, cmp)
	x[0], x[m] = x[m], x[0]
	pivot := x[0]
	i, j := 1, n-1
	for {
		for i <= j && cmp(x[i], pivot) < 0 {
			i++
		}
		for i <= j && cmp(pivot, x[j]) < 0 {
			j--
		}
		if i >= j {
			break
		}
		x[i], x[j] = x[j], x[i]
		i++
		j--
	}
	// Now i > j, or i == j at an element equal to the pivot: x[j] is no
	// element above the pivot, and its place is the pivot's.
	x[0], x[j] = x[j], x[0]
	return j
}

// median3Func returns the index of the median of x[a], x[b] and x[c].
func median3Func[E any](x []E, a, b, c int, cmp func(a, b E) int) int {
	if cmp(x[b], x[a]) < 0 {
		a, b = b, a
	}
	if cmp(x[c], x[b]) < 0 {
		b = c
		if cmp(x[b], x[a]) < 0 {
			b = a
		}
	}
	return b
}

// merger is one stable merge sort: its comparison.
type merger[E any] struct{ cmp func(a, b E) int }

// mergeArgs is a part of a merge sort: sort x, leaving the result in x,
// or in buf (of x's length) if toBuf.
type mergeArgs[E any] struct {
	m     *merger[E]
	x     []E
	buf   []E
	toBuf bool
}

// mergeSort sorts the part a as the task t: each half into the other
// slice, then the merge of the halves back into the one a names.
func mergeSort[E any](t *Task, a mergeArgs[E]) {
	m, x, buf := a.m, a.x, a.buf
	if len(x) <= sortLeaf {
		slices.SortStableFunc(x, m.cmp)
		if a.toBuf {
			copy(buf, x)
		}
		return
	}
	h := len(x) / 2
	JoinFunc(t, mergeSort[E], mergeArgs[E]{m, x[:h], buf[:h], !a.toBuf},
		mergeSort[E], mergeArgs[E]{m, x[h:], buf[h:], !a.toBuf})
	src, dst := buf, x
	if a.toBuf {
		src, dst = x, buf
	}
	mergeParts(t, mergeHalves[E]{m, src[:h], src[h:], dst})
}

// mergeHalves is a merge: a and b, each sorted, into dst, which has room
// for both and shares no element with them.
type mergeHalves[E any] struct {
	m    *merger[E]
	a, b []E
	dst  []E
}

// mergeParts merges h as the task t. A large merge is cut in two: at the
// middle of its longer input, and where a binary search puts that element
// in the other. Equal elements of a go before those of b, in either cut.
func mergeParts[E any](t *Task, h mergeHalves[E]) {
	cmp, a, b := h.m.cmp, h.a, h.b
	if len(a)+len(b) <= mergeLeaf {
		mergeSerial(a, b, h.dst, cmp)
		return
	}
	var i, j int
	if len(a) >= len(b) {
		i = len(a) / 2 // b[:j] holds the elements of b below a[i]
		j, _ = slices.BinarySearchFunc(b, a[i], cmp)
	} else {
		j = len(b) / 2 // a[:i] holds the elements of a up to b[j]
		i, _ = slices.BinarySearchFunc(a, b[j], func(x, y E) int {
			if cmp(x, y) <= 0 {
				return -1
			}
			return 1
		})
	}
	JoinFunc(t, mergeParts[E], mergeHalves[E]{h.m, a[:i], b[:j], h.dst[:i+j]},
		mergeParts[E], mergeHalves[E]{h.m, a[i:], b[j:], h.dst[i+j:]})
}

// mergeSerial merges a and b into dst, the elements of a first among
// equal ones.
func mergeSerial[E any](a, b, dst []E, cmp func(a, b E) int) {
	k := 0
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			dst[k] = b[0]
			b = b[1:]
		} else {
			dst[k] = a[0]
			a = a[1:]
		}
		k++
	}
	k += copy(dst[k:], a)
	copy(dst[k:], b)
}
