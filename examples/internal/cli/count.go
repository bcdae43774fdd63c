package cli

import (
	"context"
	"sync/atomic"

	"github.com/worksteal/wsq/sched"
	"golang.org/x/sys/cpu"
)

// CountEvery is how many items a worker of a Counted handler handles between
// updates of the shared count.
const CountEvery = 256

// Counted returns a handler that calls h and counts the items handled in
// done, for a progress line, leaving h as it is. Each of the workers adds
// its count every CountEvery items, so done lags by less than CountEvery
// items per worker and costs the workers one shared atomic operation per
// CountEvery items.
func Counted[T any](h sched.Handler[T], workers int, done *atomic.Int64) sched.Handler[T] {
	counts := make([]counter, workers) // indexed by Worker.ID
	return func(ctx context.Context, item T, w *sched.Worker[T]) error {
		c := &counts[w.ID()]
		if c.n++; c.n == CountEvery {
			done.Add(CountEvery)
			c.n = 0
		}
		return h(ctx, item, w)
	}
}

// counter is one worker's count since its last update of the shared count,
// on a cache line of its own.
type counter struct {
	n int64
	_ cpu.CacheLinePad
}
