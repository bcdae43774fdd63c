package sched

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// The measuring of a Pool's run (Pool.DoMeasured; Profile says what it
// measures), a decorator of the scheduler: taskMeter implements the
// hooks the scheduler calls at its slow points (meterHooks), and the
// scheduler names nothing else of it. Each frame of a measured task keeps
// a strand (Task.strand): its paths and its work so far. A Group's Go and
// Wait count as a fork and a join, through the group's tally; Block's
// function is work of its own (blocked); and a Region counts a loop's
// chunks as leaves, whatever the split.
//
// A measured task's goroutine publishes each fork as it makes it
// (forkStack.measured), as a worker whose tasks are long does. So no join
// takes its fork back, and the fast path of a fork and its join, which
// the measuring would slow, never runs in a measured run. Every task
// then runs in exec, and every join waits in help.
//
// A goroutine's frames all descend from its first (see What a helping
// wait may run): a helping wait runs only the waiting task's descendants,
// and every descendant of a measured task is measured. So a goroutine is
// measured or not from its first frame to its last.

// taskMeter is the meter of a measured Pool run, and the tallies of its
// groups. Its methods are the scheduler's hooks (meterHooks).
type taskMeter struct {
	m      *meter
	mu     sync.Mutex              // guards groups
	groups map[jobKind]*groupTally // by Group
}

var _ meterHooks = (*taskMeter)(nil)

// DoMeasured runs f as Do does, and measures the run: it returns f's
// error and the Profile of f and every task it started. m sets the
// burden. The pool's other runs go on unmeasured meanwhile.
//
// The run is the program's, on the pool's workers, with one change: a
// measured task publishes each fork at once, as a worker whose tasks are
// long does. So each fork runs as a task, and each join waits for it.
// The clocks are read a few times per task, which adds to Profile.Elapsed
// but not to the figures. A measured fine task costs many times an
// unmeasured one; a run not measured costs nothing more. While it runs
// measured tasks, a goroutine of the pool is locked to its thread (see
// Profile's clocks).
//
//	what                               counts as
//	Fork, ForkFunc, Join's g           a fork, and a join at its Join (or its task's end)
//	Group.Go, Group.Wait               a fork per task, and a join of them all
//	For, ForRange, Map, Reduce         a region of its chunks (see Region)
//	Sort, SortFunc, SortStableFunc     forks and joins, as they split
//	ForEach, MapSeq                    forks and joins of their parts; seq runs on
//	                                   a goroutine of its own, outside the CPU clock
//	Task.Block's function              work and span, and Blocked
//	a task of another run it waits for nothing: a Pool's Group, another Do's Future
//
// DoMeasured panics as Do does.
func (p *Pool) DoMeasured(ctx context.Context, m Measure, f func(*Task) error) (Profile, error) {
	p.checkDo("Pool.DoMeasured", f)
	tm := &taskMeter{m: newMeter(m)}
	g := p.NewGroup(ctx)
	gt := tm.group(g)
	start := time.Now()
	g.Go(nil, tm.task(gt, tally{}, f))
	err := g.wait(nil)
	gt.mu.Lock()
	t := gt.tally
	gt.mu.Unlock()
	return tm.m.profile(t, p.Workers(), time.Since(start)), err
}

// group returns the tally of g's tasks, new if g has none yet.
func (tm *taskMeter) group(g jobKind) *groupTally {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	gt := tm.groups[g]
	if gt == nil {
		if tm.groups == nil {
			tm.groups = map[jobKind]*groupTally{}
		}
		gt = new(groupTally)
		tm.groups[g] = gt
	}
	return gt
}

// lookup returns the tally of g's tasks, or nil if none was measured.
func (tm *taskMeter) lookup(g jobKind) *groupTally {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.groups[g]
}

// task returns f as a measured task of a group with the tally gt: it
// starts its strand from the paths of from, and its end adds its tally
// to gt (endStrand).
func (tm *taskMeter) task(gt *groupTally, from tally, f func(*Task) error) func(*Task) error {
	return func(t *Task) error {
		startStrand(t, tm, from)
		t.into = gt
		return f(t)
	}
}

// startStrand starts the strand of the frame t, a task of the measured
// run tm, from the paths of from. The goroutine's first frame makes the
// goroutine measured: its forks are published at once from now on.
func startStrand(t *Task, tm *taskMeter, from tally) {
	t.meas = tm
	t.strand = strand{tally: tally{span: from.span, bspan: from.bspan}}
	if t.below == nil {
		r := t.runner
		r.forks.measured = true
		r.w.ask() // answer keeps it set (forkStack.measured)
		if tm.m.cpu && !r.locked {
			// The thread's CPU clock times the strands: no other
			// goroutine may run on the thread meanwhile, and the
			// goroutine must not move to another thread mid-strand.
			runtime.LockOSThread()
			r.locked = true
		}
	}
	t.strand.resume(tm.m)
}

// leave ends the measured run of the goroutine r as it drops its first
// frame.
func (tm *taskMeter) leave(r *runner) {
	r.forks.measured = false
	if r.locked {
		r.locked = false
		runtime.UnlockOSThread()
	}
}

// startFork starts the strand of t, the task of the fork b, made by a
// task of tm.
func (tm *taskMeter) startFork(t *Task, b *record) {
	var from tally
	if s := b.stamp; s != nil && s.run == tm.m.id {
		from = s.tally
	}
	startStrand(t, tm, from)
}

// end hands the tally of t, whose function and waits are over, to its
// fork's record or its group.
func (tm *taskMeter) end(t *Task) {
	if b := t.rec; b != nil {
		if s := b.stamp; s != nil && s.run == tm.m.id {
			s.tally = t.strand.tally // the latch orders it before the join reads it
		}
		return
	}
	if gt := t.into; gt != nil {
		t.into = nil
		gt.mu.Lock()
		gt.join(&t.strand.tally)
		gt.mu.Unlock()
	}
}

// stop ends the strand of t, and reports whether one was under way: a
// wait, a Block or a fork that starts now resumes it afterwards.
func (tm *taskMeter) stop(t *Task) bool { return t.strand.stop(tm.m) }

// resume starts a new strand of t after a fork, a wait or a Block.
func (tm *taskMeter) resume(t *Task) { t.strand.resume(tm.m) }

// wait stops the strand of t, which waits: the tasks its wait runs are
// not its work. Its join resumes it.
func (tm *taskMeter) wait(t *Task) { t.strand.wait(tm.m) }

// fork ends the strand of t, b's forking task, if own has not ended it
// already, and stamps b with the paths its task starts from. The caller
// resumes t once the fork is published.
func (tm *taskMeter) fork(t *Task, b *record) {
	t.strand.stop(tm.m)
	if b.stamp == nil {
		b.stamp = new(stamp) // once per record: a record is reused
	}
	*b.stamp = stamp{tally: t.strand.fork(tm.m.burden), run: tm.m.id}
}

// join adds to t the tally of the fork b, whose task has finished: its
// work too, if t forked it (own), else only its paths, for the forking
// task's own join adds the work. It resumes t's strand if t's code runs
// on (strand.held).
func (tm *taskMeter) join(t *Task, b *record, own bool) {
	open := t.strand.held(tm.m)
	switch s := b.stamp; {
	case s == nil || s.run != tm.m.id:
	case own:
		t.strand.join(&s.tally)
	default:
		t.strand.joinPath(&s.tally)
	}
	if open {
		tm.resume(t)
	}
}

// goTask is a Group.Go by t: it ends t's strand, counts a fork, and
// returns f as a measured task of g. Go resumes t's strand once the task
// is in the queue.
func (tm *taskMeter) goTask(t *Task, g jobKind, f func(*Task) error) func(*Task) error {
	t.strand.stop(tm.m)
	return tm.task(tm.group(g), t.strand.fork(tm.m.burden), f)
}

// joinGroup adds to t the tally of g's tasks, which have all finished:
// their work too if t made g, else only their paths.
func (tm *taskMeter) joinGroup(t *Task, g jobKind) {
	open := t.strand.held(tm.m)
	// No tally: no measured task, as of a Pool's group, or one fed from
	// outside.
	if gt := tm.lookup(g); gt != nil {
		gt.mu.Lock()
		if _, up := g.origin(); up == t { // t made g
			t.strand.join(&gt.tally)
		} else {
			t.strand.joinPath(&gt.tally)
		}
		gt.mu.Unlock()
	}
	if open {
		tm.resume(t)
	}
}

// blockStart returns the clock as t's Block calls its function: the
// wall clock, for f waits. t's strand stopped before the worker was
// lent.
func (tm *taskMeter) blockStart(*Task) time.Duration { return time.Since(tm.m.epoch) }

// blockEnd adds the time of t's Block function, which started at start
// and returned or failed, to t's work and paths, and to its blocked time.
func (tm *taskMeter) blockEnd(t *Task, start time.Duration) {
	m := tm.m
	d := max(time.Since(m.epoch)-start-m.tick, 0) // as meter.since
	t.strand.add(d)
	t.strand.blocked += d
}

// Region is a computation that splits by demand, such as a loop, as a
// measured run counts it. A split by demand depends on the run: on 2
// workers a loop makes a few long parts, on 64 many short ones. So a
// region counts its leaves, as if all could run at once:
//
//	figure          of a region
//	work            the leaves' work
//	span            its longest leaf's span
//	burdened span   the longest leaf's, plus a burden per level of a binary split into its leaves
//
// A leaf is a stretch of a task between Leaf and EndLeaf: a loop's chunk.
// What the region's tasks do outside leaves (splitting) is the
// scheduler's, and counts as nothing. The loops of this package make a
// region each. A program that splits its own ranges by Task.Demand may
// do the same:
//
//	rg := t.NewRegion() // nil unless t's run is measured
//	... in each task of the computation, around each chunk:
//	lf := rg.Leaf(t)
//	work(lo, hi)
//	rg.EndLeaf(t, lf)
//	... once every task of it has finished:
//	rg.End(t)
//
// The methods of a nil Region do nothing. Leaf and EndLeaf may be called
// by any task of the computation, each with its own Task.
type Region struct {
	tm   *taskMeter
	from tally // the making task's tally when it made the region
	// mu guards leaves and n: leaves end on any goroutine.
	mu     sync.Mutex
	leaves tally // the leaves' work, summed, and the longest leaf's paths
	n      int64
}

// Leaf is a leaf of a Region under way, for Region.EndLeaf.
type Leaf struct{ saved tally }

// NewRegion returns a Region for a computation of t that splits by
// demand, so that a measured run counts its leaves, not its split (see
// Region). It returns nil when t's run is not measured (Pool.DoMeasured),
// and a nil Region's methods do nothing: an unmeasured run pays one call.
func (t *Task) NewRegion() *Region {
	t.use("Task.NewRegion")
	tm, ok := t.meas.(*taskMeter)
	if !ok {
		return nil
	}
	open := t.strand.stop(tm.m)
	g := &Region{tm: tm, from: t.strand.tally}
	if open {
		tm.resume(t)
	}
	return g
}

// Leaf starts a leaf of the region on t, the calling task.
func (g *Region) Leaf(t *Task) Leaf {
	if g == nil {
		return Leaf{}
	}
	return g.leaf(t)
}

// leaf is Leaf of a region that is not nil.
func (g *Region) leaf(t *Task) Leaf {
	if t == nil {
		panic(misuse(nil, "Region.Leaf"))
	}
	m := g.tm.m
	t.strand.stop(m)
	lf := Leaf{saved: t.strand.tally}
	t.strand.tally = tally{}
	t.strand.resume(m)
	return lf
}

// EndLeaf ends the leaf lf that Leaf started on t.
func (g *Region) EndLeaf(t *Task, lf Leaf) {
	if g != nil {
		g.endLeaf(t, lf)
	}
}

// endLeaf is EndLeaf of a region that is not nil.
func (g *Region) endLeaf(t *Task, lf Leaf) {
	if t == nil {
		panic(misuse(nil, "Region.EndLeaf"))
	}
	m := g.tm.m
	t.strand.stop(m)
	leaf := t.strand.tally
	t.strand.tally = lf.saved
	t.strand.resume(m)
	g.mu.Lock()
	g.leaves.join(&leaf)
	g.n++
	g.mu.Unlock()
}

// End ends the region in t, the task that made it, once every leaf has
// ended: t's tally becomes what it was at NewRegion, with the region's
// work and paths added.
func (g *Region) End(t *Task) {
	if g == nil {
		return
	}
	if t == nil {
		panic(misuse(nil, "Region.End"))
	}
	m := g.tm.m
	open := t.strand.stop(m)
	at := g.from
	g.mu.Lock()
	at.work += g.leaves.work
	at.blocked += g.leaves.blocked
	at.forks += g.leaves.forks + max(g.n-1, 0)
	at.span += g.leaves.span
	at.bspan += g.leaves.bspan + time.Duration(splitDepth(g.n))*m.burden
	g.mu.Unlock()
	t.strand.tally = at
	if open {
		t.strand.resume(m)
	}
}
