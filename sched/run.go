package sched

import (
	"context"
	"errors"
)

// Handler handles one item. It runs on the worker goroutine w, and may push
// the item's children into w's queue with w.Spawn. A non-nil error ends the
// run: Run cancels ctx for the other workers and returns the first error.
// Each item given to Run or Spawn is handled exactly once, unless the run
// ends early.
//
// A handler that blocks (on a channel, a lock, I/O or a sleep) stalls its
// worker for that long. The items in its queue wait until a thief takes
// them, and nothing else runs on that worker. A blockq queue may hold its
// newest items from thieves until then (see blockq's Holding items),
// unless the worker's recent items were long (see Work a worker keeps to
// itself in the package docs). A
// handler that must wait should hand the waiting to a goroutine of its
// own, or use a Pool. There, Join and Wait run other tasks while they
// wait, and Task.Block lets a task block while its worker goes on.
type Handler[T any] func(ctx context.Context, item T, w *Worker[T]) error

// Run handles roots, and every item their handlers spawn, on
// cfg.Workers workers. The roots are divided among the workers in
// contiguous chunks before any worker starts. Run returns when all items
// have been handled, when a handler returns an error, or when ctx is
// cancelled. It returns the first handler error, or ctx's error if ctx
// ended the run; the Stats describe the run either way. A queue that hands
// out an item twice makes Run return an error that says so, when the
// count of handled items shows it. Every goroutine Run started has
// returned when it returns.
//
// A panic in a handler stops the run. The other workers finish their
// current call and stop. Then Run panics in its caller's goroutine with a
// *PanicError, which holds the value and the stack of the panic. A handler
// that calls runtime.Goexit (as t.Fatal does in a test) stops the run in
// the same way, and Run then calls runtime.Goexit. In both cases the item
// whose handler failed, like every item not handled, is not counted in
// Stats.Processed. The process survives.
func Run[T any](ctx context.Context, cfg Config[T], roots []T, h Handler[T]) (Stats, error) {
	if h == nil {
		return Stats{}, errors.New("sched: nil Handler")
	}
	s, err := newScheduler[T](cfg, runHost[T](h))
	if err != nil {
		return Stats{}, err
	}
	return s.run(ctx, roots)
}

// runHost is Run's host: the handler, and plain worker goroutines.
type runHost[T any] Handler[T]

func (h runHost[T]) handle(ctx context.Context, v T, w *Worker[T]) error { return h(ctx, v, w) }

func (h runHost[T]) serve(w *Worker[T]) { w.s.serveWorker(w) }
