package sched

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/worksteal/wsq/internal/pad"
)

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

// RunMeasured is Run, measured: it returns what Run would, and the
// run's Profile. Each call of the handler is a strand. Each item that
// Worker.Spawn pushes is a fork, whose path continues the spawner's at the
// Spawn. The handlers get Workers of their own, whose Spawn adds that to
// the items. So the items run on the default queue, whatever
// cfg.NewQueue says: a profile is the program's, not its queue's.
//
// Measuring reads the clock about three times per item and twice per
// Spawn; Run reads it never per item. m sets the burden.
func RunMeasured[T any](ctx context.Context, m Measure, cfg Config[T], roots []T, h Handler[T]) (Stats, Profile, error) {
	if h == nil {
		return Stats{}, Profile{}, errors.New("sched: nil Handler")
	}
	mt := newMeter(m)
	mc := Config[spawned[T]]{
		Workers: cfg.Workers, Mode: cfg.Mode, Proportion: cfg.Proportion,
		MaxBlocked: cfg.MaxBlocked, StealOne: cfg.StealOne, spin: cfg.spin,
	}
	mh := &measuredHost[T]{h: h, lock: mt.cpu}
	s, err := newScheduler[spawned[T]](mc, mh)
	if err != nil {
		return Stats{}, Profile{}, err
	}
	relays := make([]relay[T], len(s.workers)) // before the workers start
	for i, w := range s.workers {
		r := &relays[i]
		r.m, r.push = mt, w.Spawn
		r.face = Worker[T]{id: i, relay: r}
	}
	mh.relays = relays
	items := make([]spawned[T], len(roots))
	for i, v := range roots {
		items[i].v = v
	}
	start := time.Now()
	st, err := s.run(ctx, items)
	var t tally
	for i := range relays {
		t.join(&relays[i].total)
	}
	return st, mt.profile(t, len(relays), time.Since(start)), err
}

// measuredHost is RunMeasured's host: the handler through the relays,
// and worker goroutines locked to their threads when the threads' CPU
// clocks time the strands: no other goroutine may run on a thread, and no
// goroutine move to another, mid-strand.
type measuredHost[T any] struct {
	h      Handler[T]
	relays []relay[T] // indexed by Worker.id
	lock   bool
}

func (mh *measuredHost[T]) handle(ctx context.Context, it spawned[T], w *Worker[spawned[T]]) error {
	return mh.relays[w.id].handle(ctx, mh.h, it)
}

func (mh *measuredHost[T]) serve(w *Worker[spawned[T]]) {
	if mh.lock {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	w.s.serveWorker(w)
}

// spawned is an item of a measured Run: the program's item, and the
// paths that end where it was spawned.
type spawned[T any] struct {
	v           T
	span, bspan time.Duration
}

// relay is one worker of a measured Run as its handlers see it. It times
// each call of the handler, and marks what the handler spawns with the
// paths so far. Only the worker's goroutine touches it.
type relay[T any] struct {
	m    *meter
	face Worker[T] // the handler's Worker: its ID, and Spawn through spawn
	// push is the Spawn of the worker that runs the items. A function
	// value, so that relay names no Worker of spawned[T], which would name
	// a relay of spawned[spawned[T]], and so on without end.
	push  func(...spawned[T])
	s     strand       // the handler's call under way
	buf   []spawned[T] // spawn's copy of its items
	total tally        // the calls so far: their work, their longest paths
	_     pad.Line     // the relays of different workers must not share a line
}

// handle calls h for the item it, as a strand from it's paths, and adds
// the call to the worker's total.
func (r *relay[T]) handle(ctx context.Context, h Handler[T], it spawned[T]) error {
	r.s = strand{tally: tally{span: it.span, bspan: it.bspan}}
	r.s.resume(r.m)
	err := h(ctx, it.v, &r.face)
	r.s.stop(r.m)
	r.total.join(&r.s.tally)
	return err
}

// spawn is the handler's Worker.Spawn: each item forks from the call's
// paths. The clock stops while the items are pushed.
func (r *relay[T]) spawn(vs []T) {
	r.s.stop(r.m)
	from := r.s.fork(r.m.burden)
	r.s.forks += int64(len(vs) - 1)
	for _, v := range vs {
		r.buf = append(r.buf, spawned[T]{v: v, span: from.span, bspan: from.bspan})
	}
	r.push(r.buf...)
	clear(r.buf) // let the GC have what the items hold
	r.buf = r.buf[:0]
	r.s.resume(r.m)
}
