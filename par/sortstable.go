package par

import (
	"slices"

	"github.com/worksteal/wsq/sched"
)

// The stable sort: a merge sort with one buffer of len(x) elements. Each
// level sorts its halves in parallel, into the other slice, then merges
// them back in parallel: a merge cuts at the middle of its longer input and
// where a binary search puts that element in the other, down to merges of
// mergeLeaf elements. So its span is polylogarithmic, as the unstable
// sorts' is.
//
// If a comparison panics, x must stay a permutation of its input. A merge
// into x runs while the halves it merges are in the buffer alone; the
// merge's deferred call copies them back if it does not finish. Every other
// step leaves x a permutation: a merge into the buffer leaves x as it was,
// and slices.SortStableFunc moves elements by swaps.

// sortStable sorts x, of at least two elements, for SortStableFunc.
func sortStable[E any](t *sched.Task, x []E, cmp func(a, b E) int, m *sortMeter) {
	runFuncSort(t, stableTask[E], funcSort[E]{x, cmp, m})
}

// stableTask is the first task of a stable sort: it sorts a short x by
// slices.SortStableFunc; it returns if a longer x is sorted, reverses it
// if its order is strictly descending, and else sorts it by mergeSort.
func stableTask[E any](t *sched.Task, s funcSort[E]) {
	x, cmp := s.x, s.cmp
	if len(x) <= stableLeaf {
		slices.SortStableFunc(x, cmp)
		return
	}
	order := func(y []E, up, down bool) (bool, bool) { return orderFunc(y, up, down, true, cmp) }
	if presorted(t, s.m, x, order) {
		return
	}
	mergeSort(t, mergeArgs[E]{m: &merger[E]{cmp: cmp, m: s.m}, x: x, buf: make([]E, len(x))})
}

// merger is one stable merge sort: its comparison, and its meter.
type merger[E any] struct {
	cmp func(a, b E) int
	m   *sortMeter
}

// mergeArgs is a part of a merge sort: sort x, leaving the result in x,
// or in buf (of x's length) if toBuf. Either way x is a permutation of its
// input when mergeSort returns, or panics.
type mergeArgs[E any] struct {
	m     *merger[E]
	x     []E
	buf   []E
	toBuf bool
}

// mergeSort sorts the part a as the task t: each half into the other
// slice, then the merge of the halves back into the one a names.
func mergeSort[E any](t *sched.Task, a mergeArgs[E]) {
	m, x, buf := a.m, a.x, a.buf
	if len(x) <= stableLeaf {
		mergeSortSerial(x, buf, a.toBuf, m.cmp)
		return
	}
	if cancelled(t) { // x as it is, or a copy in buf: a permutation either way
		if a.toBuf {
			copy(buf, x)
		}
		return
	}
	h := len(x) / 2
	join2(t, m.m, mergeSort[E], mergeArgs[E]{m, x[:h], buf[:h], !a.toBuf},
		mergeSort[E], mergeArgs[E]{m, x[h:], buf[h:], !a.toBuf})
	if a.toBuf {
		mergeParts(t, mergeHalves[E]{m, x[:h], x[h:], buf})
		return
	}
	merged := false
	defer func() {
		if !merged { // a comparison panicked: the halves are in buf alone
			copy(x, buf)
		}
	}()
	mergeParts(t, mergeHalves[E]{m, buf[:h], buf[h:], x})
	merged = true
}

// mergeSortSerial sorts x as mergeSort does, on one worker, down to runs
// of stableRun elements that insertion sorts.
func mergeSortSerial[E any](x, buf []E, toBuf bool, cmp func(a, b E) int) {
	if len(x) <= stableRun {
		insertionFunc(x, cmp)
		if toBuf {
			copy(buf, x)
		}
		return
	}
	h := len(x) / 2
	mergeSortSerial(x[:h], buf[:h], !toBuf, cmp)
	mergeSortSerial(x[h:], buf[h:], !toBuf, cmp)
	if toBuf {
		mergeSerial(x[:h], x[h:], buf, cmp)
		return
	}
	merged := false
	defer func() {
		if !merged { // as in mergeSort
			copy(x, buf)
		}
	}()
	mergeSerial(buf[:h], buf[h:], x, cmp)
	merged = true
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
func mergeParts[E any](t *sched.Task, h mergeHalves[E]) {
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
	join2(t, h.m.m, mergeParts[E], mergeHalves[E]{h.m, a[:i], b[:j], h.dst[:i+j]},
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
