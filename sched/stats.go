package sched

import (
	"time"

	"github.com/worksteal/wsq/internal/schedstats"
)

// Stats describes a finished run, or the whole life of a Pool. Durations
// are wall-clock times.
type Stats struct {
	// WorkerStats holds the sums over the workers, except MaxLen, the
	// largest. Steals and Moved count the masters' hand-offs in Master
	// mode, the thieves' steals in Random mode. For a Pool, Processed
	// counts the tasks that ran, those that panicked and those of a stopped
	// Group dropped unrun included.
	WorkerStats
	// PerWorker holds each worker's share, indexed by worker ID.
	PerWorker []WorkerStats
	// Blocks counts the calls of Task.Block (Pool only). BlockWaits counts
	// those that waited for a free slot, while Config.MaxBlocked functions
	// ran. PeakBlocked is the most goroutines that had lent their workers
	// at once, the waiting ones included.
	Blocks, BlockWaits int64
	PeakBlocked        int

	detail schedstats.Detail // what only the module's benchmarks read
}

// WorkerStats describes one worker's part of a run.
type WorkerStats struct {
	// Processed is the number of items the worker handled.
	Processed int64
	// Steals and Moved count the steals that brought work to this worker,
	// and their items: by the worker itself in Random mode, by a master
	// for it in Master mode.
	Steals, Moved int64
	// MaxLen is the largest number of items the worker held in its queue,
	// sampled after each push. Items a bounded queue refused count too
	// (see Worker.Spawn). The forks a Pool's goroutines keep private do
	// not (see Work a worker keeps to itself in the package docs).
	MaxLen int
	// IdleWait is the time the worker spent without work, its wait for
	// the end of the run included.
	IdleWait time.Duration
}

func init() {
	schedstats.Register(func(st any) schedstats.Detail { return st.(Stats).detail })
}
