package sched

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// Mode selects how a scheduler balances load between its workers.
type Mode int

const (
	// Master is the paper's master-worker balancing: one master goroutine,
	// the only thief, moves a proportion of the busiest worker's queue to a
	// worker that ran out of work.
	Master Mode = iota
	// Random is decentralized randomized stealing: a worker that ran out of
	// work steals from the old end of other workers' queues, visiting them
	// from a random starting point.
	Random
)

// Modes lists the modes in the order reports show them.
var Modes = []Mode{Master, Random}

// String returns the mode's name as used in benchmark names: "master" or
// "random".
func (m Mode) String() string {
	switch m {
	case Master:
		return "master"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode returns the mode with the given name ("master" or "random").
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("sched: unknown mode %q; known modes: master, random", s)
}

// DefaultProportion is the steal proportion used when Config.Proportion is
// zero: half of the victim's queue, as in the Go runtime's run-queue steal.
const DefaultProportion = 0.5

// DefaultSpin is the number of rounds an idle worker (or the master) looks
// for work before it parks, used when Config.Spin is zero.
const DefaultSpin = 4

// Handler handles one item. It runs on the worker goroutine w and may push
// the item's children into w's queue with w.Spawn. A non-nil error ends the
// run: Run cancels ctx for the other workers and returns the first error.
// Each item given to Run or Spawn is handled exactly once, unless the run
// ends early.
type Handler[T any] func(ctx context.Context, item T, w *Worker[T]) error

// Config describes a scheduler. Only NewQueue is required.
type Config[T any] struct {
	// NewQueue returns a new empty queue. Run calls it once per worker. In
	// Random mode with more than one worker the queues must allow
	// concurrent thieves.
	NewQueue func() wsq.Queue[T]

	// Workers is the number of worker goroutines; zero means
	// runtime.GOMAXPROCS(0). Master mode runs one more goroutine, the
	// master, which sleeps while no worker is idle.
	Workers int

	// Mode selects master-worker balancing (the zero value) or randomized
	// stealing.
	Mode Mode

	// Proportion is the part of a victim's queue that one steal takes, with
	// 0 < Proportion <= 1 (see wsq.StealCount); zero means
	// DefaultProportion.
	Proportion float64

	// StealOne makes Random mode steal one item at a time with Steal
	// instead of a proportion with StealBatch. Master mode ignores it.
	StealOne bool

	// Spin is the number of rounds an idle worker (in Random mode) or the
	// master looks for work, yielding the processor between rounds, before
	// it parks; zero means DefaultSpin.
	Spin int
}

// Stats describes a finished run. Durations are wall-clock times.
type Stats struct {
	Mode    Mode
	Workers int
	// Elapsed is the duration of the run, from the start of the workers to
	// the end of the last one.
	Elapsed time.Duration
	// Processed is the number of items handled.
	Processed int64
	// Steals is the number of steals that took at least one item: the
	// master's hand-offs in Master mode, the thieves' steals in Random mode.
	Steals int64
	// FailedSteals counts steal attempts on a queue that looked non-empty
	// but gave nothing, because its owner or another thief got there first.
	FailedSteals int64
	// Moved is the number of items that steals took.
	Moved int64
	// Parcels is the number of steals handed over as a wsq.Parcel, without
	// copying (Master mode with queues that implement wsq.Handoff).
	Parcels int64
	// Idles is the number of times a worker ran out of work.
	Idles int64
	// IdleWait is the time workers spent without work, summed over workers.
	// It includes each worker's wait for the end of the run.
	IdleWait time.Duration
	// MasterBusy is the time the master spent serving idle workers (finding
	// a victim, stealing, handing over), not counting the time it waited
	// for an idle worker or for work to appear. Zero in Random mode.
	MasterBusy time.Duration
	// MasterWait is the time from a worker running out of work to the
	// master's hand-off to it, summed over hand-offs: the time it waited
	// while the master served others, and while no queue had work to
	// move. Zero in Random mode.
	MasterWait time.Duration
	// PerWorker holds each worker's share, indexed by Worker.ID.
	PerWorker []WorkerStats
}

// WorkerStats describes one worker's part of a run.
type WorkerStats struct {
	// Processed is the number of items the worker handled.
	Processed int64
	// Steals and Moved count the steals that brought work to this worker
	// and their items (by the worker itself in Random mode, by the master
	// for it in Master mode).
	Steals, Moved int64
	// MaxLen is the largest number of items the worker held in its queue
	// (plus any a bounded queue refused; see Worker.Spawn), sampled after
	// each push.
	MaxLen int
	// Idles is the number of times the worker ran out of work, and
	// IdleWait the time it spent without work.
	Idles    int64
	IdleWait time.Duration
}

// StealsPerSecond returns the steals per second of the run's elapsed time.
func (s Stats) StealsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Steals) / s.Elapsed.Seconds()
}

// MasterCapacity returns the hand-offs per second the master sustained while
// it was busy: Steals divided by MasterBusy. It estimates the largest steal
// rate one master can serve, and is 0 outside Master mode or when the master
// never worked.
func (s Stats) MasterCapacity() float64 {
	if s.Mode != Master || s.MasterBusy <= 0 {
		return 0
	}
	return float64(s.Steals) / s.MasterBusy.Seconds()
}

// Run handles roots and every item their handlers spawn with cfg.Workers
// workers, and returns when all items have been handled, when a handler
// returns an error, or when ctx is cancelled. The roots are divided among the
// workers in contiguous chunks before any worker starts. Run returns the
// first handler error, or ctx's error if ctx ended the run; the Stats
// describe the run either way. Run blocks until every goroutine it started
// has returned, so every handler call happens before Run returns. A panic in
// a handler is not recovered: it crashes the program, as in any goroutine.
func Run[T any](ctx context.Context, cfg Config[T], roots []T, h Handler[T]) (Stats, error) {
	s, err := newScheduler(cfg, h)
	if err != nil {
		return Stats{}, err
	}
	return s.run(ctx, roots)
}

// scheduler is the state of one Run.
type scheduler[T any] struct {
	cfg     Config[T] // validated; read-only during the run
	handler Handler[T]
	workers []*Worker[T]

	_ pad.Line
	// pending is the number of items not yet handled plus the credit the
	// workers hold (see Worker.credit), so pending >= unhandled items at
	// all times. It reaches zero only when every item has been handled and
	// every worker has settled its credit, and it cannot grow again then:
	// the worker whose Add brings it to zero closes done.
	pending atomic.Int64
	_       pad.Line

	// done is closed, once, when the run is complete.
	done     chan struct{}
	doneOnce sync.Once

	// Random mode. spinning counts the workers looking for work (not
	// parked, not working); publishers read it on every push, so it sits
	// on its own line. sleepers mirrors len(sleeping) so that publishers
	// can check it without the lock.
	//
	// No lost wake-up: a publisher pushes, then reads spinning and
	// sleepers, and wakes a parked worker if nobody searches (notify).
	// Whoever stops searching decrements spinning first and reads every
	// queue after: a worker about to park (park), or the last searcher
	// that found work (stopSearching). Sequential consistency makes one of
	// the two sides see the other, so while some queue holds stealable
	// items and a worker is parked, someone searches or is being woken.
	_        pad.Line
	spinning atomic.Int32
	_        pad.Line
	sleepers atomic.Int32
	mu       sync.Mutex   // guards sleeping
	sleeping []*Worker[T] // parked workers, most recent last

	// Master mode. idle queues the workers that ran out of work, in order;
	// its capacity is the worker count and a worker is in it at most once,
	// so sending never blocks. masterWaiting is set while the master is
	// parked waiting for any queue to become non-empty; the publisher that
	// clears it sends a token on masterWake (capacity one).
	_             pad.Line
	masterWaiting atomic.Bool
	_             pad.Line
	idle          chan *Worker[T]
	masterWake    chan struct{}
	master        masterStats // written by the master goroutine only
}

// masterStats is the master's share of Stats.
type masterStats struct {
	steals, failed, moved, parcels int64
	busy, wait                     time.Duration
}

func newScheduler[T any](cfg Config[T], h Handler[T]) (*scheduler[T], error) {
	if cfg.NewQueue == nil {
		return nil, errors.New("sched: Config.NewQueue is nil")
	}
	if h == nil {
		return nil, errors.New("sched: nil Handler")
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("sched: negative worker count %d", cfg.Workers)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
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
	s := &scheduler[T]{
		cfg:        cfg,
		handler:    h,
		done:       make(chan struct{}),
		idle:       make(chan *Worker[T], cfg.Workers),
		masterWake: make(chan struct{}, 1),
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
	g, gctx := errgroup.WithContext(ctx)
	for _, w := range s.workers {
		g.Go(func() error { return w.run(gctx) })
	}
	if s.cfg.Mode == Master {
		g.Go(func() error { s.runMaster(gctx); return nil })
	}
	// A worker returns nil only once done is closed (see run), so a nil
	// error means the work is complete.
	err := g.Wait()
	return s.stats(time.Since(start)), err
}

// finish marks the run complete.
func (s *scheduler[T]) finish() { s.doneOnce.Do(func() { close(s.done) }) }

// ErrDuplicate is returned by Run when more items were handled than were
// given to Run or spawned: a queue returned an item twice. A correct queue
// never causes it.
var ErrDuplicate = errors.New("sched: more items handled than spawned; a queue returned an item twice")

func (s *scheduler[T]) stats(elapsed time.Duration) Stats {
	st := Stats{
		Mode:         s.cfg.Mode,
		Workers:      len(s.workers),
		Elapsed:      elapsed,
		PerWorker:    make([]WorkerStats, len(s.workers)),
		Steals:       s.master.steals,
		FailedSteals: s.master.failed,
		Moved:        s.master.moved,
		Parcels:      s.master.parcels,
		MasterBusy:   s.master.busy,
		MasterWait:   s.master.wait,
	}
	for i, w := range s.workers {
		ws := w.stats
		st.PerWorker[i] = ws
		st.Processed += ws.Processed
		st.Idles += ws.Idles
		st.IdleWait += ws.IdleWait
		if s.cfg.Mode == Random {
			st.Steals += ws.Steals
			st.Moved += ws.Moved
			st.FailedSteals += w.failed
		}
	}
	return st
}

// anyWork reports whether some worker's queue holds an item. Idle workers
// call it after announcing that they park, and the master after announcing
// that it waits; a publisher pushes first and reads the announcements after,
// so one of the two sees the other (all sync/atomic operations, and mutexes,
// are sequentially consistent in Go). This relies on Len counting every
// completed push.
func (s *scheduler[T]) anyWork() bool {
	for _, w := range s.workers {
		if w.queue.Len() > 0 {
			return true
		}
	}
	return false
}

// notify is called by a worker after it made new items stealable. In Random
// mode it wakes one parked worker, unless some worker is searching already
// (it will find the items, or look once more before it parks). In Master
// mode it wakes the master if it waits for work.
func (s *scheduler[T]) notify() {
	if s.cfg.Mode == Master {
		if s.masterWaiting.Load() && s.masterWaiting.CompareAndSwap(true, false) {
			select {
			case s.masterWake <- struct{}{}:
			default: // a token is already there
			}
		}
		return
	}
	if s.spinning.Load() == 0 && s.sleepers.Load() > 0 {
		s.wakeOne()
	}
}

// stopSearching is called by a searcher that found work, before it
// publishes any of it. A publisher that saw it searching skipped the wake
// (see notify), so if it was the last searcher it looks at every queue, as
// park does, and wakes a parked worker when any has work: the Go runtime's
// rule that the last spinning M to find work wakes another.
func (s *scheduler[T]) stopSearching() {
	if s.spinning.Add(-1) == 0 && s.sleepers.Load() > 0 && s.anyWork() {
		s.wakeOne()
	}
}

// wakeOne wakes the most recently parked worker, if any, and counts it as
// searching, so that other publishers need not wake one more.
func (s *scheduler[T]) wakeOne() {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.sleeping)
	if n == 0 {
		return
	}
	w := s.sleeping[n-1]
	s.sleeping[n-1] = nil
	s.sleeping = s.sleeping[:n-1]
	s.sleepers.Add(-1)
	s.spinning.Add(1)
	// Never blocks: w was in sleeping, so it has no token yet, and it takes
	// this one before it parks again.
	w.wake <- struct{}{}
}

// unpark removes w from the parked workers and reports whether it was still
// there; false means a waker took it out and sent it a token.
func (s *scheduler[T]) unpark(w *Worker[T]) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.sleeping {
		if x == w {
			last := len(s.sleeping) - 1
			s.sleeping[i] = s.sleeping[last]
			s.sleeping[last] = nil
			s.sleeping = s.sleeping[:last]
			s.sleepers.Add(-1)
			return true
		}
	}
	return false
}
