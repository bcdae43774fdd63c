package sched

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	wsq "github.com/worksteal/wsq"
)

// Mode selects how a scheduler balances load between its workers.
type Mode int

const (
	// Master is the paper's master-worker balancing: one master goroutine
	// (one per 16 workers), the only thief, moves a proportion of the
	// busiest worker's queue to a worker that ran out of work.
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

// MarshalText returns the mode's name, as String does; with UnmarshalText
// it lets a Mode be a flag (flag.TextVar) or a field of a configuration
// file.
func (m Mode) MarshalText() ([]byte, error) {
	if m != Master && m != Random {
		return nil, fmt.Errorf("sched: unknown mode %d", int(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText sets m to the mode with the given name, "master" or
// "random".
func (m *Mode) UnmarshalText(text []byte) error {
	for _, x := range Modes() {
		if x.String() == string(text) {
			*m = x
			return nil
		}
	}
	return fmt.Errorf("sched: unknown mode %q; known modes: master, random", text)
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
// tasks while they wait for tasks, and whose Task.Block lets a task block
// while its worker goes on.
type Handler[T any] func(ctx context.Context, item T, w *Worker[T]) error

// Config describes a scheduler: the workers of a Run or of a Pool. The zero
// Config is valid: GOMAXPROCS workers, each with a DefaultQueue, in Master
// mode.
type Config[T any] struct {
	// NewQueue returns a new empty queue. Run and NewPool call it once per
	// worker; nil means DefaultQueue[T], the recommended queue. Any
	// wsq.Queue works in both modes: several thieves may meet at one queue
	// in Random mode, which every implementation accepts. Thieves steal
	// with TrySteal and TryStealBatch, which never wait for another thief:
	// a steal that meets contention only makes the thief try once more and
	// then elsewhere.
	NewQueue func() wsq.Queue[T]

	// Workers is the number of worker goroutines; zero means
	// runtime.GOMAXPROCS(0) (see WorkerCount). Master mode runs one more
	// goroutine per 16 workers, the masters, which sleep while no worker
	// is idle.
	Workers int

	// Mode selects master-worker balancing (the zero value) or randomized
	// stealing.
	Mode Mode

	// Proportion is the part of a victim's queue that one steal takes, with
	// 0 < Proportion <= 1 (see wsq.StealCount); zero means
	// DefaultProportion for Run, and one task a steal for a Pool (see
	// PoolConfig).
	Proportion float64

	// StealOne makes Random mode steal one item at a time with TrySteal
	// instead of a proportion with TryStealBatch. Master mode ignores it.
	// A Pool whose Proportion is zero sets it.
	StealOne bool

	// Spin is the number of rounds an idle worker (in Random mode) or the
	// master looks for work, yielding the processor between rounds, before
	// it parks; zero means DefaultSpin.
	Spin int

	// MaxBlocked is, for a Pool, the most functions of Task.Block that
	// run at once; zero means DefaultMaxBlocked. A Block beyond it waits
	// for one of them to return, as with a semaphore, while its worker
	// goes on running other tasks. Run ignores it.
	MaxBlocked int
}

// DefaultMaxBlocked is the MaxBlocked of a Config that leaves it zero: as
// many blocking calls at once as Java's ForkJoinPool allows spare threads
// by default. A blocked goroutine costs its stack, some kilobytes.
const DefaultMaxBlocked = 256

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
	// EmptySteals counts steal attempts on a queue that looked non-empty
	// (by its Len) but was empty when the steal took effect: its owner, or
	// another thief, took the items first (wsq.Empty).
	EmptySteals int64
	// ContendedSteals counts steal attempts that took nothing because they
	// met another goroutine at the victim (wsq.Contended: a lost race, a
	// thief mid-steal, a lock held), whatever the victim held. In Random
	// mode a thief tries a contended victim once more before it moves on;
	// the master looks again at the longest queue.
	ContendedSteals int64
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
	// Blocks is the number of calls of Task.Block (Pool only), and
	// BlockWaits the number of them that waited for a free slot:
	// Config.MaxBlocked functions of Block were running. PeakBlocked is
	// the most goroutines that had lent their workers at once, those
	// that waited for a slot included.
	Blocks, BlockWaits int64
	PeakBlocked        int
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
