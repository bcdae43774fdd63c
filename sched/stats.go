package sched

import (
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/internal/schedstats"
)

// Stats describes a finished run, the whole life of a Pool, or a running
// Pool as of its workers' last looks for work (Pool.Stats). Durations are
// wall-clock times.
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
	// at once, in Task.Block or in a join that found nothing it may run
	// (see What a join runs in INTERNALS.md), the waiting ones
	// included.
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
	// not (see Work a worker keeps to itself in INTERNALS.md).
	MaxLen int
	// IdleWait is the time the worker spent without work, its wait for
	// the end of the run included.
	IdleWait time.Duration
}

// liveStats is a worker's WorkerStats as of its last look for work, for
// Pool.Stats on any goroutine. Only the worker's goroutine stores into it
// (store); readers only load. Each field is one atomic word, so a
// reader never sees a torn value. Two fields may come from two looks.
type liveStats struct {
	processed, steals, moved, maxLen, idleWait atomic.Int64
}

// store stores st into l. Worker.findWork calls it as the worker starts
// to look for work, a point that already reads the clock. A field stores
// only when it changed: the worker is the only writer, so its load returns
// its own last store. Most looks store two words, Processed and IdleWait.
func (l *liveStats) store(st *WorkerStats) {
	storeChanged(&l.processed, st.Processed)
	storeChanged(&l.steals, st.Steals)
	storeChanged(&l.moved, st.Moved)
	storeChanged(&l.maxLen, int64(st.MaxLen))
	storeChanged(&l.idleWait, int64(st.IdleWait))
}

// storeChanged stores v into a unless a holds it already.
func storeChanged(a *atomic.Int64, v int64) {
	if a.Load() != v {
		a.Store(v)
	}
}

// load returns what the worker last published. Any goroutine may call it.
func (l *liveStats) load() WorkerStats {
	return WorkerStats{
		Processed: l.processed.Load(),
		Steals:    l.steals.Load(),
		Moved:     l.moved.Load(),
		MaxLen:    int(l.maxLen.Load()),
		IdleWait:  time.Duration(l.idleWait.Load()),
	}
}

// snapshot returns the statistics of workers as of their last looks for
// work. Any goroutine may call it while they run. It leaves out what the
// mode counts apart (Stats.detail).
func snapshot[T any](workers []*Worker[T]) Stats {
	st := Stats{PerWorker: make([]WorkerStats, len(workers))}
	for i, w := range workers {
		ws := w.live.load()
		st.addWorker(i, ws)
		st.Steals += ws.Steals
		st.Moved += ws.Moved
	}
	return st
}

// addWorker records ws as worker i's and adds it to the sums, but for
// Steals and Moved: at the end of a run the mode adds those (addStats).
func (st *Stats) addWorker(i int, ws WorkerStats) {
	st.PerWorker[i] = ws
	st.Processed += ws.Processed
	st.IdleWait += ws.IdleWait
	st.MaxLen = max(st.MaxLen, ws.MaxLen)
}

func init() {
	schedstats.Register(func(st any) schedstats.Detail { return st.(Stats).detail })
}
