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
	"github.com/worksteal/wsq/internal/pad"
)

// The package has three layers: the engine (this file and those it
// builds on), the fork-join core, and the kinds of task above it (see
// Layers in INTERNALS.md; layers_test.go checks them). No layer names one
// above it: the engine needs the core only through host. Inside the
// engine, scheduler, worker and stats name no mode and not Run.

// host is the layer that a scheduler runs its workers for: Run's handler
// (runHost), or a Pool.
type host[T any] interface {
	// handle handles one item on w, as a Handler does.
	handle(ctx context.Context, v T, w *Worker[T]) error
	// serve is the body of w's first goroutine, which s.wg counts: it
	// runs w's loop until the run ends, and then calls s.wg.Done.
	serve(w *Worker[T])
}

// runHost is Run's host: the handler, and plain worker goroutines.
type runHost[T any] Handler[T]

func (h runHost[T]) handle(ctx context.Context, v T, w *Worker[T]) error { return h(ctx, v, w) }

func (h runHost[T]) serve(w *Worker[T]) { w.s.serveWorker(w) }

// scheduler is the state of one run of workers, for its host.
type scheduler[T any] struct {
	cfg     Config[T] // validated; read-only during the run
	host    host[T]
	handle  Handler[T] // host.handle, called per item
	workers []*Worker[T]

	_ pad.Line
	// pending is the number of items not yet handled plus the credit the
	// workers hold (see Worker.credit), so it never falls below the
	// items left. It reaches zero only when every item has been handled
	// and every credit settled, and cannot grow again then. The worker
	// whose Add brings it to zero closes done. A host may keep a count of
	// its own (pin).
	pending atomic.Int64
	_       pad.Line

	// done is closed, once, when the run is complete.
	done     chan struct{}
	doneOnce sync.Once

	// inj holds items added from outside the workers.
	inj injector[T]

	// mode is the load balancing of cfg.Mode: a *masters or a *random.
	// sleepers is the mode's word that is not zero while a worker or a
	// master may sleep until items are published; notify reads it.
	mode     balancer[T]
	sleepers *int32

	// epoch is the start of the scheduler's clock (see clock).
	epoch time.Time

	// holds says that the queues' owners may hold items from thieves
	// (wsq.Contract.OwnerHolds): a thief tries where Len shows nothing.
	holds bool

	// hostCounts says that the host counts each item it handles itself,
	// however its handling ends (a Pool: see runner.exec), so that the
	// worker's loop does not.
	hostCounts bool

	// How the run ends. wg counts the goroutines; ctx is the workers'
	// context, which cancel cancels. failMu guards err and fail: the
	// first error a worker returned, and the first panic or Goexit.
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc

	// halted is set once ctx is done, by a hook that start registers with
	// context.AfterFunc. The workers' loop loads it before each item,
	// where a look at ctx.Done() would cost a channel operation. unhook
	// stops the hook; hooked is closed once the hook has run.
	halted atomic.Bool
	unhook func() bool
	hooked chan struct{}
	failMu sync.Mutex
	err    error
	fail   *failure
}

// makeScheduler checks cfg and returns a scheduler of its workers for h,
// without its mode: newScheduler adds it.
func makeScheduler[T any](cfg Config[T], h host[T]) (*scheduler[T], error) {
	if cfg.NewQueue == nil {
		cfg.NewQueue = defaultQueue[T]
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("sched: negative worker count %d", cfg.Workers)
	}
	cfg.Workers = cfg.workerCount()
	if cfg.Mode != Master && cfg.Mode != Random {
		return nil, fmt.Errorf("sched: unknown mode %d", int(cfg.Mode))
	}
	if cfg.Proportion != 0 && !wsq.ValidProportion(cfg.Proportion) { // zero: each steal chooses
		return nil, fmt.Errorf("sched: steal proportion %v is outside (0, 1]", cfg.Proportion)
	}
	if cfg.spin < 0 {
		return nil, fmt.Errorf("sched: negative spin count %d", cfg.spin)
	}
	if cfg.spin == 0 {
		cfg.spin = defaultSpin
	}
	if cfg.MaxBlocked < 0 {
		return nil, fmt.Errorf("sched: negative MaxBlocked %d", cfg.MaxBlocked)
	}
	if cfg.MaxBlocked == 0 {
		cfg.MaxBlocked = defaultMaxBlocked
	}
	s := &scheduler[T]{cfg: cfg, host: h, handle: h.handle, done: make(chan struct{}), epoch: time.Now()}
	if r, ok := h.(runHost[T]); ok {
		s.handle = Handler[T](r) // the handler itself: one call fewer per item
	}
	s.workers = make([]*Worker[T], cfg.Workers)
	for i := range s.workers {
		q := cfg.NewQueue()
		if q == nil {
			return nil, errors.New("sched: Config.NewQueue returned nil")
		}
		w := &Worker[T]{s: s, id: i, queue: q, recall: make(chan struct{}, 1)}
		w.initGrain()
		w.handoff, _ = q.(wsq.Handoff[T]) // optional fast path, see Handoff
		w.holder, _ = q.(holder)
		s.holds = s.holds || q.Contract().OwnerHolds
		s.workers[i] = w
	}
	return s, nil
}

// clock returns the time since the scheduler was made: one read of the
// monotonic clock, which the workers' grain samples take.
func (s *scheduler[T]) clock() time.Duration { return time.Since(s.epoch) }

// run hands the roots out and runs the workers until the run ends.
func (s *scheduler[T]) run(ctx context.Context, roots []T) (Stats, error) {
	// Before the workers start: the go statements order these pushes
	// before everything the owners do.
	k := len(s.workers)
	for i, w := range s.workers {
		if chunk := roots[i*len(roots)/k : (i+1)*len(roots)/k]; len(chunk) > 0 {
			w.push(chunk)
		}
	}
	s.pending.Store(int64(len(roots))) // before the workers start: no race, but atomic
	if len(roots) == 0 {
		s.complete()
	}
	s.start(ctx)
	s.wg.Wait()
	st := s.stats()
	s.release()
	s.fail.raise() // the goroutines are gone; the caller takes the panic or Goexit
	return st, s.err
}

// start starts the workers, and the mode's goroutines, with a context
// derived from ctx that the first error, panic or Goexit cancels.
func (s *scheduler[T]) start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	s.ctx = ctx
	s.hooked = make(chan struct{})
	s.unhook = context.AfterFunc(ctx, func() {
		s.halted.Store(true)
		close(s.hooked)
	})
	if ctx.Err() != nil {
		s.halted.Store(true) // now, not when the hook's goroutine runs
	}
	for _, w := range s.workers {
		s.wg.Add(1)
		go s.host.serve(w)
	}
	s.mode.start(ctx)
}

// release cancels ctx once the run is over. It first stops the hook that
// sets halted, or waits for it if it runs already, so that no goroutine
// of the run outlives it.
func (s *scheduler[T]) release() {
	if !s.unhook() {
		<-s.hooked
	}
	s.cancel()
}

// pin adds the host's own count to pending: the run cannot complete
// before unpin.
func (s *scheduler[T]) pin() { s.pending.Store(1) } // before the workers start

// uncount takes k handled items off pending, and completes the run if
// that brings it to zero. A negative result means that a queue returned
// an item twice: uncount reports it.
func (s *scheduler[T]) uncount(k int64) error {
	p := s.pending.Add(-k) // only one Add can see zero
	if p < 0 {
		return errDuplicate
	}
	if p == 0 {
		s.complete()
	}
	return nil
}

// unpin gives back pin's count.
func (s *scheduler[T]) unpin() {
	if s.pending.Add(-1) == 0 { // only one Add can see zero
		s.complete()
	}
}

// inject adds v, from outside the workers, and counts it in pending,
// unless shutdown has begun; it reports whether it did. It counts v before
// it reads closed, and shutdown sets closed before it releases the hold:
// so a held run's pending cannot reach zero while an accepted v is on its
// way. A refused v is uncounted again.
func (s *scheduler[T]) inject(v T) bool {
	s.pending.Add(1)
	if s.inj.closed.Load() { // after the count: see above
		s.unpin()
		return false
	}
	s.inj.put(v)
	return true
}

// shutdown ends a held run: it refuses injected items, releases the hold,
// waits for the goroutines and returns the Stats. The queues go too.
func (s *scheduler[T]) shutdown() Stats {
	s.inj.close()
	s.unpin()
	s.wg.Wait()
	s.release()
	st := s.stats()
	for _, w := range s.workers {
		// Nothing uses the buffers or queues any more. An empty queue
		// keeps some memory, which a finished run has no use for.
		w.shed()
		w.queue, w.handoff, w.holder = nil, nil, nil
	}
	return st
}

// serveWorker is the body of a worker goroutine of Run. A worker returns
// nil only once done is closed, so a nil error means the work is
// complete. A panic (from a handler) or a Goexit ends the run.
func (s *scheduler[T]) serveWorker(w *Worker[T]) {
	defer s.wg.Done()
	returned := false
	defer func() {
		if !returned {
			s.stop(nil, recovered(recover()))
		}
	}()
	err := w.run(s.ctx)
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

// complete marks the run complete.
func (s *scheduler[T]) complete() { s.doneOnce.Do(func() { close(s.done) }) }

// errDuplicate is returned by Run when more items were handled than were
// given or spawned: a queue returned an item twice. No queue of this
// module does; it guards queues of the caller's own.
var errDuplicate = errors.New("sched: more items handled than spawned; a queue returned an item twice")

// stats returns the run's Stats. The mode adds Steals and Moved.
func (s *scheduler[T]) stats() Stats {
	st := Stats{PerWorker: make([]WorkerStats, len(s.workers))}
	for i, w := range s.workers {
		st.addWorker(i, w.stats)
		st.detail.Idles += w.idles
	}
	s.mode.addStats(&st)
	return st
}

// anyWork reports whether some queue, or the injector, holds an item.
// Sleepers call it after they announce themselves, publishers push before
// they read the announcements: one sees the other once the push is
// visible (see lateLook). It relies on Len counting every completed push.
// A blockq owner may hold pushes from Len, but publishes them when it sees
// a sleeper (Worker.pushedAside).
func (s *scheduler[T]) anyWork() bool {
	if s.inj.size() > 0 { // a hint, confirmed by the taker
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
// the mode can wake a sleeper. Usually nobody sleeps, which one load tells.
func (s *scheduler[T]) notify() {
	if atomic.LoadInt32(s.sleepers) != 0 { // after the push: see park.go
		s.mode.published()
	}
}

// balancer is the load balancing of one Mode: how a worker that ran out of
// work gets more, and how one that made items stealable tells the others.
// masters (master.go) and random (random.go) implement it. Each keeps its
// own state per worker, indexed by Worker.id.
type balancer[T any] interface {
	// start starts the mode's own goroutines, if any, counted in s.wg.
	start(ctx context.Context)
	// find is called by a worker w that holds no items. It returns true
	// once w holds work again, and false when the run is complete, ctx is
	// cancelled, or w.stopLooking(l) holds.
	find(ctx context.Context, w *Worker[T], l *latch) bool
	// published is called after a worker made new items stealable while
	// someone may sleep.
	published()
	// collect takes the items owed to w (Worker.owed), if they came.
	collect(w *Worker[T])
	// shed gives back the mode's buffers of w that grew too large.
	shed(w *Worker[T])
	// addStats adds the mode's steal counts to st.
	addStats(st *Stats)
	// looking returns how many workers look for work or wait for it at
	// this moment: a hint, read with one or two loads.
	looking() int
}

// proportion returns the part of the victim's queue that a steal takes:
// Config.Proportion if it is set, and else the steal's own choice. idle
// is the number of workers that look for work, the thief's among them;
// helping says that the thief looks from a helping wait (Join, Wait);
// coarse says that its recent items were coarse (Worker.coarse). Only
// Master mode passes coarse.
//
//	thief                                     takes
//	k looking, the thief among them           1/(k+1): its share, if they and the owner split the queue
//	in a helping wait, others look            one item
//	in a helping wait, its items coarse       one item (Master mode)
//
// One idle thief takes half, as in the Go runtime. Many take a little
// each, so that none takes what the others need. A thief in a helping
// wait goes back to its waiting task only when it has run all it took.
// That task may be on the critical path. So while others look, it takes
// one item and leaves the rest to them. In Master mode it takes one item
// alone too when its items are coarse: one keeps it busy long enough to
// be worth a hand-off. One fine item would bring it back at once. In
// Random mode the coarse case made no difference worth its cost, so the
// thief takes its share (BENCHMARKS.md has both).
func (s *scheduler[T]) proportion(idle int, helping, coarse bool) float64 {
	if p := s.cfg.Proportion; p != 0 {
		return p
	}
	if helping && (idle > 1 || coarse) {
		return wsq.OneItem
	}
	return 1 / float64(max(idle, 1)+1)
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
