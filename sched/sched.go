package sched

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

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

// Modes returns the modes in the order reports show them.
func Modes() []Mode { return []Mode{Master, Random} }

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
	for _, m := range Modes() {
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
//
// A handler that blocks (on a channel, a lock, I/O or a sleep) stalls its
// worker for that long: the items in its queue wait until a thief takes
// them, and nothing else runs on that worker. A handler that must wait for
// something other than its own items should hand the waiting to a goroutine
// of its own, or use a Pool, whose Group.Wait and Future.Join run other
// tasks while they wait for tasks.
type Handler[T any] func(ctx context.Context, item T, w *Worker[T]) error

// Config describes a scheduler: the workers of a Run or of a Pool. The zero
// Config is valid: GOMAXPROCS workers, each with a DefaultQueue, in Master
// mode.
type Config[T any] struct {
	// NewQueue returns a new empty queue. Run and NewPool call it once per
	// worker; nil means DefaultQueue[T], the recommended queue. Any
	// wsq.Queue works in both modes: several thieves may meet at one queue
	// in Random mode, which every implementation accepts (some make them
	// take turns, and a steal that may take nothing under contention, as
	// the queue's Contract says with StealMayFail, only makes the thief try
	// elsewhere).
	NewQueue func() wsq.Queue[T]

	// Workers is the number of worker goroutines; zero means
	// runtime.GOMAXPROCS(0) (see WorkerCount). Master mode runs one more
	// goroutine, the master, which sleeps while no worker is idle.
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

// Stats describes a finished run, or the whole life of a Pool. Durations are
// wall-clock times.
type Stats struct {
	// Mode is the balancing mode of the run.
	Mode Mode
	// Workers is the number of workers.
	Workers int
	// Elapsed is the duration of the run, from the start of the workers to
	// the end of the last one (for a Pool, from NewPool to Close).
	Elapsed time.Duration
	// Processed is the number of items handled: for a Pool, the tasks
	// that ran (those that panicked, and those of a stopped Group that
	// were dropped unrun, included).
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
	// copying (Master mode with queues that implement wsq.Handoff, for
	// steals of more than 32 items).
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

// WorkerCount returns the number of workers that Run and NewPool start for
// c: c.Workers, or runtime.GOMAXPROCS(0) when that is zero. Use it to size
// per-worker state (see PerWorker) before a run; to be sure of the count
// even if GOMAXPROCS changes in between, store it in c.Workers.
func (c Config[T]) WorkerCount() int {
	if c.Workers == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return c.Workers
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

// Run handles roots and every item their handlers spawn with
// cfg.WorkerCount() workers, and returns when all items have been handled,
// when a handler returns an error, or when ctx is cancelled. The roots are
// divided among the workers in contiguous chunks before any worker starts.
// Run returns the first handler error, or ctx's error if ctx ended the run;
// the Stats describe the run either way. A queue from cfg.NewQueue that
// hands out an item twice makes Run return an error that says so, when the
// count of handled items shows it. Run blocks until every goroutine it
// started has returned, so every handler call happens before Run returns.
//
// A panic in a handler stops the run: the other workers finish their
// current call and stop, and once every goroutine of the run has returned,
// Run panics in its caller's goroutine with a *PanicError that holds the
// value and the stack of the panicking handler. A handler that calls
// runtime.Goexit (as t.Fatal and t.FailNow do in a test) stops the run in
// the same way, and Run then calls runtime.Goexit in its caller's goroutine,
// so that a test ends as the handler meant it to. In both cases the item
// whose handler failed, like every item not handled, is not counted in
// Stats.Processed, and the process survives.
func Run[T any](ctx context.Context, cfg Config[T], roots []T, h Handler[T]) (Stats, error) {
	s, err := newScheduler(cfg, h)
	if err != nil {
		return Stats{}, err
	}
	return s.run(ctx, roots)
}

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

	// Random mode. spinning counts the workers looking for work (not
	// parked, not working); publishers read it on every push, so it sits
	// on its own line. sleepers mirrors len(sleeping) so that publishers
	// can check it without the lock.
	//
	// No lost wake-up: a publisher pushes, then reads spinning and
	// sleepers, and wakes a parked worker if nobody searches (notify).
	// Whoever stops searching decrements spinning first and reads every
	// queue after: a worker about to park (park), or the last searcher
	// that found work or left the search (stopSearching). Sequential
	// consistency makes one of the two sides see the other, so while some
	// queue holds stealable items and a worker is parked, someone searches
	// or is being woken.
	_        pad.Line
	spinning atomic.Int32
	_        pad.Line
	sleepers atomic.Int32
	mu       sync.Mutex   // guards sleeping
	sleeping []*Worker[T] // parked workers, most recent last

	// Master mode. idle queues the workers that asked the master for work,
	// in order; its capacity is the worker count and a worker is in it at
	// most once (see Worker.asked), so sending never blocks. masterWaiting
	// is set while the master is parked waiting for any queue to become
	// non-empty; the publisher that clears it sends a token on masterWake
	// (capacity one).
	_             pad.Line
	masterWaiting atomic.Bool
	_             pad.Line
	idle          chan *Worker[T]
	masterWake    chan struct{}
	master        masterStats // written by the master goroutine only

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
	// respawn, if set, makes a worker whose goroutine ended by
	// runtime.Goexit go on in a new goroutine (Pool), after a call of
	// respawn; otherwise the Goexit ends the run.
	respawn func(*Worker[T])
}

// masterStats is the master's share of Stats.
type masterStats struct {
	steals, failed, moved, parcels int64
	busy, wait                     time.Duration
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
	s.start(ctx)
	s.wg.Wait()
	st := s.stats(time.Since(start))
	s.cancel()
	s.fail.raise() // the goroutines are gone; the caller takes the panic or Goexit
	return st, s.err
}

// start starts the workers, and in Master mode the master, with a context
// derived from ctx that the first error, panic or Goexit cancels.
func (s *scheduler[T]) start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	s.ctx = ctx
	for _, w := range s.workers {
		s.wg.Add(1)
		go s.runWorker(ctx, w)
	}
	if s.cfg.Mode == Master {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.runMaster(ctx)
		}()
	}
}

// runWorker is the body of a worker goroutine. A worker returns nil only
// once done is closed (see Worker.run), so a nil error means the work is
// complete. A panic that reaches it (from a handler of Run) or a
// runtime.Goexit ends the run, unless respawn says otherwise.
func (s *scheduler[T]) runWorker(ctx context.Context, w *Worker[T]) {
	returned := false
	defer func() {
		if !returned {
			f := recovered(recover())
			if f.goexit && s.respawn != nil {
				s.respawn(w)
				s.wg.Add(1)
				go s.runWorker(ctx, w) // the go statement hands the queue to the new goroutine
			} else {
				s.stop(nil, f)
			}
		}
		s.wg.Done()
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

// anyWork reports whether some worker's queue, or the injector, holds an
// item. Idle workers call it after announcing that they park, and the master
// after announcing that it waits; a publisher pushes first and reads the
// announcements after, so one of the two sees the other (all sync/atomic
// operations, and mutexes, are sequentially consistent in Go). This relies
// on Len counting every completed push.
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
// publishes any of it, and by a helping wait that leaves the search because
// the tasks it waits for have finished. A publisher that saw it searching skipped the wake
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
