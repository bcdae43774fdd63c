package sched

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/pad"
)

// scheduler is the state of one Run or of one Pool.
type scheduler[T any] struct {
	cfg     Config[T] // validated; read-only during the run
	handler Handler[T]
	workers []*Worker[T]

	_ pad.Line
	// pending is the number of items not yet handled plus the credit the
	// workers hold (see Worker.credit), so pending >= unhandled items at
	// all times. It reaches zero only when every item has been handled and
	// every worker has settled its credit, and it cannot grow again then:
	// the worker whose Add brings it to zero closes done. A Pool holds one
	// more count of its own until Close.
	pending atomic.Int64
	_       pad.Line

	// done is closed, once, when the run is complete.
	done     chan struct{}
	doneOnce sync.Once

	// inj holds items added from outside the workers (Pool only).
	inj injector[T]

	// mode is the load balancing of cfg.Mode: a *master or a *random.
	// waiters is the word of the mode that is not zero while a worker or
	// the master may wait for items to be published (random's sleepers,
	// master's waiting), which notify reads before it calls the mode.
	mode    balancer[T]
	waiters *atomic.Int32

	// holds says that the queues' owners may hold items (see
	// wsq.Contract.OwnerHolds): Len does not count them, and a thief that
	// finds nothing asks for them, so thieves try a steal where Len shows
	// nothing.
	holds bool

	// The goroutines and how the run ended. wg counts the goroutines;
	// ctx is the context the workers run with, which cancel cancels.
	// failMu guards err and fail: the first error a worker returned, and
	// the first panic or runtime.Goexit of a handler.
	wg     sync.WaitGroup
	ctx    context.Context // the workers' context
	cancel context.CancelFunc
	failMu sync.Mutex
	err    error
	fail   *failure
	// body, if set, is the body of each worker's first goroutine (Pool),
	// instead of runWorker. It is started counted in wg, and must call
	// wg.Done.
	body func(w *Worker[T])
}

func newScheduler[T any](cfg Config[T], h Handler[T]) (*scheduler[T], error) {
	if cfg.NewQueue == nil {
		cfg.NewQueue = DefaultQueue[T]
	}
	if h == nil {
		return nil, errors.New("sched: nil Handler")
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("sched: negative worker count %d", cfg.Workers)
	}
	cfg.Workers = cfg.WorkerCount()
	if cfg.Mode != Master && cfg.Mode != Random {
		return nil, fmt.Errorf("sched: unknown mode %d", int(cfg.Mode))
	}
	if cfg.Proportion == 0 {
		cfg.Proportion = DefaultProportion
	}
	if !wsq.ValidProportion(cfg.Proportion) {
		return nil, fmt.Errorf("sched: steal proportion %v is outside (0, 1]", cfg.Proportion)
	}
	if cfg.Spin < 0 {
		return nil, fmt.Errorf("sched: negative spin count %d", cfg.Spin)
	}
	if cfg.Spin == 0 {
		cfg.Spin = DefaultSpin
	}
	if cfg.MaxBlocked < 0 {
		return nil, fmt.Errorf("sched: negative MaxBlocked %d", cfg.MaxBlocked)
	}
	if cfg.MaxBlocked == 0 {
		cfg.MaxBlocked = DefaultMaxBlocked
	}
	s := &scheduler[T]{
		cfg:     cfg,
		handler: h,
		done:    make(chan struct{}),
	}
	if cfg.Mode == Master {
		s.mode = newMasters(s)
	} else {
		r := &random[T]{s: s}
		s.mode, s.waiters = r, &r.sleepers
	}
	s.workers = make([]*Worker[T], cfg.Workers)
	for i := range s.workers {
		q := cfg.NewQueue()
		if q == nil {
			return nil, errors.New("sched: Config.NewQueue returned nil")
		}
		w := &Worker[T]{
			s:     s,
			id:    i,
			queue: q,
			inbox: make(chan delivery[T], 1),
			wake:  make(chan struct{}, 1),
			rng:   uint64(i)*0x9e3779b97f4a7c15 + 1,
		}
		w.handoff, _ = q.(wsq.Handoff[T]) // optional fast path, see Handoff
		s.holds = s.holds || q.Contract().OwnerHolds
		w.bq, _ = q.(*blockq.Queue[T])
		s.workers[i] = w
	}
	return s, nil
}

func (s *scheduler[T]) run(ctx context.Context, roots []T) (Stats, error) {
	// Hand out the roots before the workers start; the go statements below
	// order these pushes before everything the owners do.
	k := len(s.workers)
	for i, w := range s.workers {
		if chunk := roots[i*len(roots)/k : (i+1)*len(roots)/k]; len(chunk) > 0 {
			w.push(chunk)
		}
	}
	s.pending.Store(int64(len(roots)))
	if len(roots) == 0 {
		s.finish()
	}
	start := time.Now()
	s.start(ctx)
	s.wg.Wait()
	st := s.stats(time.Since(start))
	s.cancel()
	s.fail.raise() // the goroutines are gone; the caller takes the panic or Goexit
	return st, s.err
}

// start starts the workers, and the goroutines of the mode, with a context
// derived from ctx that the first error, panic or Goexit cancels.
func (s *scheduler[T]) start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	s.ctx = ctx
	for _, w := range s.workers {
		s.wg.Add(1)
		if s.body != nil {
			go s.body(w)
		} else {
			go s.runWorker(ctx, w)
		}
	}
	s.mode.start(ctx)
}

// runWorker is the body of a worker goroutine of Run. A worker returns nil
// only once done is closed (see Worker.run), so a nil error means the work
// is complete. A panic that reaches it (from a handler) or a
// runtime.Goexit ends the run.
func (s *scheduler[T]) runWorker(ctx context.Context, w *Worker[T]) {
	defer s.wg.Done()
	returned := false
	defer func() {
		if !returned {
			s.stop(nil, recovered(recover()))
		}
	}()
	err := w.run(ctx)
	returned = true
	if err != nil {
		s.stop(err, nil)
	}
}

// stop records how a worker ended the run, an error or a failure (the
// first of each counts), and stops the other workers.
func (s *scheduler[T]) stop(err error, f *failure) {
	s.failMu.Lock()
	if s.err == nil {
		s.err = err
	}
	if s.fail == nil {
		s.fail = f
	}
	s.failMu.Unlock()
	s.cancel()
}

// finish marks the run complete.
func (s *scheduler[T]) finish() { s.doneOnce.Do(func() { close(s.done) }) }

// errDuplicate is returned by Run when more items were handled than were
// given to Run or spawned: a queue returned an item twice. No queue of this
// module causes it; it guards Config.NewQueue implementations of the
// caller's own.
var errDuplicate = errors.New("sched: more items handled than spawned; a queue returned an item twice")

func (s *scheduler[T]) stats(elapsed time.Duration) Stats {
	st := Stats{
		Mode:      s.cfg.Mode,
		Workers:   len(s.workers),
		Elapsed:   elapsed,
		PerWorker: make([]WorkerStats, len(s.workers)),
	}
	for i, w := range s.workers {
		ws := w.stats
		st.PerWorker[i] = ws
		st.Processed += ws.Processed
		st.Idles += ws.Idles
		st.IdleWait += ws.IdleWait
	}
	s.mode.addStats(&st)
	return st
}

// anyWork reports whether some worker's queue, or the injector, holds an
// item. Idle workers call it after announcing that they park, and the master
// after announcing that it waits; a publisher pushes first and reads the
// announcements after, so one of the two sees the other once the push is
// visible (a queue's push may be a release store, which the publisher's
// read of the announcements may pass: the sleepers look again, see
// lateLook). This relies on Len counting every completed push. A blockq
// owner may hold its pushes from Len, but publishes them when it sees a
// waiter (Worker.pushedAside).
func (s *scheduler[T]) anyWork() bool {
	if s.inj.n.Load() > 0 {
		return true
	}
	for _, w := range s.workers {
		if w.queue.Len() > 0 {
			return true
		}
	}
	return false
}

// notify is called by a worker after it made new items stealable, so that
// the mode can tell a worker or the master that waits for work. Nobody
// waits, most of the time, which one load tells: the mode's published
// reads the word again.
func (s *scheduler[T]) notify() {
	if s.waiters.Load() != 0 {
		s.mode.published()
	}
}

// balancer is the load balancing of one Mode: how a worker that ran out of
// work gets more, and how one that made items stealable lets the others
// know. master (master.go) and random (random.go) implement it.
type balancer[T any] interface {
	// start starts the mode's own goroutines, if any, counted in s.wg, with
	// the run's context.
	start(ctx context.Context)
	// find is called by a worker w that holds no items. It returns true
	// once w holds work again, and false when the run is complete, ctx is
	// cancelled, or l (if not nil) is done.
	find(ctx context.Context, w *Worker[T], l *latch) bool
	// published is called by a worker after it made new items stealable.
	published()
	// addStats adds the mode's steal counts to st.
	addStats(st *Stats)
}

// unordered removes x from s, a set kept in a slice whose order does not
// matter, by moving the last element into its place, and reports whether x
// was there. The vacated slot is cleared, so the slice keeps nothing alive.
func unordered[E comparable](s []E, x E) ([]E, bool) {
	i := slices.Index(s, x)
	if i < 0 {
		return s, false
	}
	last := len(s) - 1
	s[i] = s[last]
	var zero E
	s[last] = zero
	return s[:last], true
}
