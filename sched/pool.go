package sched

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// Pool is a set of worker goroutines that run fork-join tasks: functions
// that take a *Task and may start more tasks (Fork, Group.Go) and wait for
// them (Future.Join, Group.Wait). The workers, their queues and the load
// balancing (Config.Mode) are those of Run. A task is one item of a
// worker's queue, a Job.
//
// Make a Pool once with NewPool and use it for many computations, from any
// number of goroutines. Do runs a function as a task and waits for it. A
// Group made with NewGroup collects tasks started from outside the pool.
// Close stops the workers. Any goroutine may call a Pool's methods, except
// that a task must not call Close.
//
// A Pool keeps what its next tasks need, not what its past tasks made.
// Once a task is joined, or waited for, its result and context are
// dropped from its frame and fork record. Its function and argument are
// dropped too, or, for a fork whose join ran it as a call, once the next
// fork at the same depth reuses its record or the goroutine's outermost
// task returns. Then nothing of it stays reachable from the pool, but
// for what a queue keeps: a queue may keep the items thieves took until
// its owner's next operation (chaselev's rings do), a fork's emptied
// record or a Group task's function. What stays, for reuse:
//
//	who               keeps
//	each goroutine    up to 64 task frames, 64 fork records by depth and 64 more, cleared,
//	                  and a buffer of 64 forks to publish
//	each worker       its buffers, up to 1024 items each once it parks; its queue
//	the pool          at most one parked spare goroutine per worker, once no Block ran
//	                  in two garbage collections;
//	                  a ring of 1024 slots for tasks from outside, and a block of 256 behind it
//
// A deeper recursion grows the frames and records with its depth, and
// gives back those beyond 64 when the goroutine is back at depth zero. A
// busy worker keeps what its largest steal or fan-out made its buffers,
// so that a steady stream of large steals does not allocate. Close lets
// go of the buffers and the queues.
type Pool struct {
	s         *scheduler[Job]
	crew      *crew // the goroutines, and the hand-over of workers (lend.go)
	closeOnce sync.Once
	stats     Stats
	closed    atomic.Pointer[Stats] // &stats, once Close has set it
}

// PoolConfig describes a Pool: its workers, their queues and how they
// balance load, as Config does for Run. The zero PoolConfig is valid:
// GOMAXPROCS workers, each with the default queue, in Random mode.
//
// With Proportion zero, each steal chooses, as Run's do (see Load
// balancing in INTERNALS.md). BENCHMARKS.md measures the
// choices.
type PoolConfig = Config[Job]

// NewPool starts a Pool of workers, as cfg describes, and returns it.
// NewPool() has GOMAXPROCS workers, each with the default queue, in
// Random mode: the choice for most programs. NewPool(cfg) has cfg.Workers
// workers, each with a queue made by cfg.NewQueue, balanced as cfg.Mode
// says. It returns an error, and starts nothing, if cfg is invalid or
// there is more than one. The workers park when there is nothing to run,
// so an idle Pool costs no processor time; Close stops them.
func NewPool(cfg ...PoolConfig) (*Pool, error) {
	var c PoolConfig
	switch len(cfg) {
	case 0:
	case 1:
		c = cfg[0]
	default:
		return nil, fmt.Errorf("sched: NewPool takes at most one PoolConfig, not %d", len(cfg))
	}
	p := &Pool{}
	s, err := newScheduler[Job](c, p)
	if err != nil {
		return nil, err
	}
	p.s = s
	s.inj.init()        // tasks come from outside a Pool only
	s.hostCounts = true // exec counts each task, however it ends
	p.crew = newCrew(s)
	addPool(p.crew) // until Close: see calledByTask
	s.pin()         // the Pool's own count, until Close
	s.start(context.Background())
	return p, nil
}

// Workers returns the number of workers: Task.WorkerID is below it.
func (p *Pool) Workers() int { return len(p.s.workers) }

// Do runs f as a task of the pool with context ctx, and waits for it and
// every task it started: it is NewGroup, Go and Wait of a group of one. It
// returns f's error. It panics with a *PanicError if a task panicked, and
// calls runtime.Goexit if a task did (see Group.Wait). It panics if f is
// nil or the pool is closed.
//
// Do blocks its goroutine, so a task must not call it: a task forks and
// waits with Fork, Task.NewGroup and Join, which run other tasks while
// they wait. A task that calls Do anyway blocks its worker. When every
// worker runs a task at that moment, nobody would be left to run f: Do
// panics, with a message that says so, instead of waiting for ever.
func (p *Pool) Do(ctx context.Context, f func(*Task) error) error {
	p.checkDo("Pool.Do", f)
	g := p.NewGroup(ctx)
	g.Go(nil, f)
	return g.wait(nil)
}

// checkDo panics if op, Do or DoMeasured, may not run f.
func (p *Pool) checkDo(op string, f func(*Task) error) {
	if f == nil {
		panic(nilFunction(op, ""))
	}
	// With a worker idle, Do's caller is outside the pool, or a task that
	// blocks its worker but does not stop the pool. A task unseated after
	// its Block takes its worker back first, as at any use of its Task:
	// Do by a task does the same with or without an earlier Block.
	own := p.crew.caller()
	if own == nil {
		if own = p.crew.unseatedCaller(); own != nil {
			p.crew.reseat(own)
		}
	}
	if own != nil && p.crew.allBusy(own) {
		panic("sched: " + op + " called by a task, while every worker runs a task: nobody could run it; a task starts tasks with Fork or a Group (Task.NewGroup) and waits for them with Join or Wait")
	}
}

// NewGroup returns a new Group of the pool with a context derived from ctx.
// Its tasks may be started from any goroutine, a task's or not.
func (p *Pool) NewGroup(ctx context.Context) *Group {
	return newOutsideGroup().setUp(p.s, ctx)
}

// Close waits for every task to finish, stops the workers, and returns the
// statistics of the pool's whole life (Stats.Processed counts the tasks).
// Starting a task from outside the pool (Do, or Group.Go with a nil Task)
// after Close has begun panics; tasks that are still running may start
// more. Close panics if a task calls it: it would wait for itself. Later
// calls return the same Stats. Close of the default pool panics.
func (p *Pool) Close() Stats {
	if p.crew.onPool() {
		panic("sched: Pool.Close called by a task, which would wait for itself")
	}
	if p == defaultPool.p.Load() {
		panic("sched: Pool.Close of the default pool, which is never closed")
	}
	p.closeOnce.Do(func() {
		removePool(p.crew)
		p.stats = p.s.shutdown()
		p.blockStats(&p.stats)
		p.closed.Store(&p.stats) // after the last write: Stats reads it on any goroutine
	})
	st := p.stats
	st.PerWorker = slices.Clone(st.PerWorker) // the caller's to change
	return st
}

// Stats returns the pool's statistics so far. Any goroutine may call it,
// while the pool runs or after Close. It neither blocks nor stops a
// worker.
//
// Each worker publishes its statistics when it looks for work, and Stats
// adds up what they published. A worker that has run tasks since its last
// look is counted as of that look, so its figures may be behind. A worker
// looks for work as soon as it has no task to run. So once the pool is
// idle (every task has returned, and each worker has looked for work since)
// the figures are exact. They are then what Close would return, but for
// IdleWait: it counts the waits that have ended, not the ones under way.
// After Close, Stats returns what Close returned.
//
// What it costs:
//
//	who        pays
//	a task     nothing
//	a worker   at each look for work, one atomic store per figure that changed (usually two)
//	Stats      five atomic loads per worker, and the PerWorker slice
func (p *Pool) Stats() Stats {
	if st := p.closed.Load(); st != nil {
		c := *st
		c.PerWorker = slices.Clone(c.PerWorker)
		return c
	}
	st := snapshot(p.s.workers)
	p.blockStats(&st)
	return st
}

// blockStats sets the counts of Task.Block in st. The counters are
// atomic: blocking tasks update them on any goroutine.
func (p *Pool) blockStats(st *Stats) {
	for i := range p.crew.seats {
		n := p.crew.seats[i].unseatedEnds.Load() // atomic: see seat.unseatedEnds
		st.PerWorker[i].Processed += n
		st.Processed += n
	}
	st.Blocks = p.crew.blocks.Load()
	st.BlockWaits = p.crew.waits.Load()
	st.PeakBlocked = int(p.crew.peak.Load())
	st.detail.Compensations = p.crew.compensations.Load()
}

// errClosed is the panic of a task started from outside a closed Pool.
const errClosed = "sched: a task started from outside a closed Pool"

// serve is the body of w's first goroutine: see host.
func (p *Pool) serve(w *Worker[Job]) { p.crew.serve(p.crew.seats[w.id].cur) }

// handle is the Pool's Handler, for the tasks of the worker's loop: it
// runs one task on the goroutine that runs w. That goroutine has w back
// when exec returns, if the task blocked. exec counts the task as
// handled (see scheduler.hostCounts).
func (p *Pool) handle(_ context.Context, j Job, w *Worker[Job]) error {
	st := &p.crew.seats[w.id]
	r := st.cur
	st.busy.StoreRelease(1) // see seat.busy: Do reads it on any goroutine
	r.exec(j)
	if r.unseated {
		return errUnseated // w is another goroutine's now: see crew.endBlock
	}
	st.busy.StoreRelease(0)
	return nil
}
