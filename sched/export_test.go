package sched

import (
	"cmp"
	"context"

	wsq "github.com/worksteal/wsq"
)

// RunCounting runs like Run and, however the run ends (even by a panic or
// runtime.Goexit that it passes on), stores the run's Stats in st and the
// number of items left unhandled in the workers (in their queues, in what
// they set aside, and in deliveries from the master not yet taken) in left,
// so that a test can account for every item of a run that ended early.
func RunCounting[T any](ctx context.Context, cfg Config[T], roots []T, h Handler[T], st *Stats, left *int) error {
	s, err := newScheduler[T](cfg, runHost[T](h))
	if err != nil {
		return err
	}
	defer func() {
		*st = s.stats()
		*left = 0
		for _, w := range s.workers {
			if w.owed {
				s.mode.collect(w)
			}
			w.owed = false
			for {
				if _, ok := w.next(); !ok {
					break
				}
				*left++
			}
		}
	}()
	_, err = s.run(ctx, roots)
	return err
}

// Goroutines returns the number of the pool's goroutines, how many of them
// are parked spares, how many have lent their worker (Task.Block) and the
// most spares the pool keeps, so that a test can see the pool return to
// its workers' goroutines after a blocking burst.
func (p *Pool) Goroutines() (all, spares, blocked, maxSpares int) {
	c := p.crew
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.ids), len(c.spares), int(c.blocked.Load()), c.maxSpares
}

// RaceEnabled reports whether the race detector is on, and with it the
// check that a Task is used by its own goroutine.
const RaceEnabled = raceEnabled

// Modes returns the modes, for tests that run in each.
func Modes() []Mode { return []Mode{Master, Random} }

// DefaultQueue is the queue of a Config with a nil NewQueue.
func DefaultQueue[T any]() wsq.Queue[T] { return defaultQueue[T]() }

// DefaultMaxBlocked is the MaxBlocked of a Config that leaves it zero.
const DefaultMaxBlocked = defaultMaxBlocked

// WorkerCount returns the number of workers that Run and NewPool start
// for c.
func (c Config[T]) WorkerCount() int { return c.workerCount() }

// WithSpin returns c with the spin count n (zero: the default).
func WithSpin[T any](c Config[T], n int) Config[T] {
	c.spin = n
	return c
}

// Spin returns the spin count of c.
func Spin[T any](c Config[T]) int { return c.spin }

// SortOrdered is Sort; with radix false, it never takes the radix kernel.
func SortOrdered[E cmp.Ordered](t *Task, x []E, radix bool) {
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
func MeterSort[E cmp.Ordered](t *Task, x []E) Metered {
	m := &sortMeter{}
	sortOrdered(t, x, m, true)
	return Metered{m.work, m.clock}
}

// MeterSortFunc runs SortFunc of x on t's goroutine alone, with a meter
// that counts the calls of cmp.
func MeterSortFunc[E any](t *Task, x []E, cmp func(a, b E) int) Metered {
	m := &sortMeter{}
	sortFunc(t, x, func(a, b E) int { m.tick(1); return cmp(a, b) }, m)
	return Metered{m.work, m.clock}
}

// MeterSortStableFunc is MeterSortFunc for SortStableFunc.
func MeterSortStableFunc[E any](t *Task, x []E, cmp func(a, b E) int) Metered {
	m := &sortMeter{}
	sortStable(t, x, func(a, b E) int { m.tick(1); return cmp(a, b) }, m)
	return Metered{m.work, m.clock}
}

// CloseDefault closes the default pool, if it started, and forgets it:
// TestMain calls it after the tests, so that goleak then finds none of
// the pool's goroutines.
func CloseDefault() {
	if p := defaultPool.p.Swap(nil); p != nil {
		p.Close()
	}
}
