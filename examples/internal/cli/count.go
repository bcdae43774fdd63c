package cli

import (
	"context"
	"sync/atomic"

	"github.com/worksteal/wsq/sched"
)

// Modes are the scheduler's balancing modes, the choices of a -mode flag.
var Modes = []sched.Mode{sched.Master, sched.Random}

// Proportion is the default of a -proportion flag: auto, the zero
// Config.Proportion of sched, with which each steal chooses.
const Proportion = 0

// CountEvery is how many items a worker of a Counter handles between
// updates of the shared count.
const CountEvery = 256

// Counter counts the items that workers handle, for a progress line, without
// making them write one shared counter: each worker counts in its own slot
// of a sched.PerWorker and adds to the shared count every CountEvery items,
// so the shared count lags by less than CountEvery items per worker and
// costs the workers one shared atomic operation per CountEvery items.
type Counter struct {
	counts *sched.PerWorker[int64]
	done   *atomic.Int64
}

// NewCounter returns a Counter for workers workers (IDs 0 to workers-1)
// that adds to done.
func NewCounter(workers int, done *atomic.Int64) *Counter {
	return &Counter{counts: sched.NewPerWorker[int64](workers), done: done}
}

// Add counts one item handled by the worker with the given ID. Only that
// worker may call it.
func (c *Counter) Add(worker int) {
	n := c.counts.Get(worker)
	if *n++; *n == CountEvery {
		c.done.Add(CountEvery)
		*n = 0
	}
}

// Counted returns a handler that calls h and counts the items handled in
// done with a Counter, for a progress line, leaving h as it is.
func Counted[T any](h sched.Handler[T], workers int, done *atomic.Int64) sched.Handler[T] {
	c := NewCounter(workers, done)
	return func(ctx context.Context, item T, w *sched.Worker[T]) error {
		c.Add(w.ID())
		return h(ctx, item, w)
	}
}
