package par

import (
	"cmp"

	"github.com/worksteal/wsq/sched"
)

// SortOrdered is Sort; with radix false, it never takes the radix kernel.
func SortOrdered[E cmp.Ordered](t *sched.Task, x []E, radix bool) {
	if len(x) >= 2 {
		sortOrdered(t, x, nil, radix)
	}
}

// PdqOrdered and PdqFunc are the unstable sorts' serial kernels.
func PdqOrdered[E cmp.Ordered](x []E) { pdqOrdered(x, 0, len(x), sortLimit(len(x))) }
func PdqFunc[E any](x []E, cmp func(a, b E) int) {
	pdqFunc(x, 0, len(x), sortLimit(len(x)), cmp)
}

// BlockPartitionOrdered and BlockPartitionFunc are the kernels' block
// partitions.
func BlockPartitionOrdered[E cmp.Ordered](x []E, pivot E, le bool) int {
	return blockPartitionOrdered(x, pivot, le)
}
func BlockPartitionFunc[E any](x []E, pivot E, le bool, cmp func(a, b E) int) int {
	return blockPartitionFunc(x, pivot, le, cmp)
}

// Metered is the work and span of a metered sort, in comparisons or, for
// a sort of integers, in elements visited (see sortMeter).
type Metered struct{ Work, Span int64 }

// MeterSort runs Sort of x on t's goroutine alone, with a meter that
// counts the elements its passes visit.
func MeterSort[E cmp.Ordered](t *sched.Task, x []E) Metered {
	m := &sortMeter{}
	sortOrdered(t, x, m, true)
	return Metered{m.work, m.clock}
}

// MeterSortFunc runs SortFunc of x on t's goroutine alone, with a meter
// that counts the calls of cmp.
func MeterSortFunc[E any](t *sched.Task, x []E, cmp func(a, b E) int) Metered {
	m := &sortMeter{}
	sortFunc(t, x, func(a, b E) int { m.tick(1); return cmp(a, b) }, m)
	return Metered{m.work, m.clock}
}

// MeterSortStableFunc is MeterSortFunc for SortStableFunc.
func MeterSortStableFunc[E any](t *sched.Task, x []E, cmp func(a, b E) int) Metered {
	m := &sortMeter{}
	sortStable(t, x, func(a, b E) int { m.tick(1); return cmp(a, b) }, m)
	return Metered{m.work, m.clock}
}
