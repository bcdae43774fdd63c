package sched

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// The measuring of a Pool's run (Pool.DoMeasured; Profile says what it
// measures). Each frame of a measured task keeps a strand (Task.strand):
// its paths and its work so far. The hooks sit where the scheduler is
// already slow, so that an unmeasured run pays nothing:
//
//	where                              the hook
//	exec, of a fork or a Group's task  the task's strand starts from its fork's stamp
//	end                                the strand ends; its tally goes to its record or group
//	forkStack.answer                   a fork stops the strand and stamps the record
//	help                               the waiting task's strand stops while others run
//	forkStack.joined, joinOther        a join takes the longer path, and the child's work
//	Group.Go, Group.wait, Task.sync    as a fork and a join, through the group's tally
//	crew.block                         Block's function is work of its own (blocked)
//	Region                             a loop's chunks are leaves, whatever the split
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
// groups.
type taskMeter struct {
	m      *meter
	mu     sync.Mutex // guards groups
	groups map[*Group]*groupTally
}

// groupTally is what a measured group's tasks add up to: their work,
// summed, and their longest paths.
type groupTally struct {
	mu sync.Mutex // the group's tasks end on any goroutine
	tally
}

// stamp is a fork record's measure. The fork stamps it with the paths
// its task starts from; the task's end replaces that with its tally,
// which the join adds.
type stamp struct {
	tally
	run uint64 // the meter.id of the run that stamped it: an older one is stale
}

// doMeasured is Pool.DoMeasured, after its checks.
func doMeasured(p *Pool, ctx context.Context, m Measure, f func(*Task) error) (Profile, error) {
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
func (tm *taskMeter) group(g *Group) *groupTally {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	gt := tm.groups[g]
	if gt == nil {
		if tm.groups == nil {
			tm.groups = map[*Group]*groupTally{}
		}
		gt = new(groupTally)
		tm.groups[g] = gt
	}
	return gt
}

// lookup returns the tally of g's tasks, or nil if none was measured.
func (tm *taskMeter) lookup(g *Group) *groupTally {
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

// unmeasure ends the measured run of the goroutine r, if it runs one, as
// it drops its first frame.
func unmeasure(r *runner) {
	r.forks.measured = false
	if r.locked {
		r.locked = false
		runtime.UnlockOSThread()
	}
}

// startFork starts the strand of t, the task of the fork b, made by a
// task of tm.
func startFork(t *Task, tm *taskMeter, b *record) {
	var from tally
	if s := b.stamp; s != nil && s.run == tm.m.id {
		from = s.tally
	}
	startStrand(t, tm, from)
}

// endStrand hands the tally of t, whose function and waits are over, to
// its fork's record or its group.
func endStrand(t *Task) {
	if b := t.rec; b != nil {
		if s := b.stamp; s != nil && s.run == t.meas.m.id {
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

// stopStrand ends the strand of t if t is measured, and reports whether
// one was under way: a wait, a Block or a fork that starts now resumes
// it afterwards (resumeStrand).
func stopStrand(t *Task) bool {
	return t.meas != nil && t.strand.stop(t.meas.m)
}

// resumeStrand starts a new strand of t, measured, after a fork, a wait
// or a Block.
func resumeStrand(t *Task) { t.strand.resume(t.meas.m) }

// stampFork ends the strand of b's forking task, if it is measured and
// own has not ended it already, and stamps b with the paths its task
// starts from. It returns the forking task, to resume once the fork is
// published, or nil.
func stampFork(b *record) *Task {
	t := b.parent
	tm := t.meas
	if tm == nil {
		return nil
	}
	t.strand.stop(tm.m)
	if b.stamp == nil {
		b.stamp = new(stamp) // once per record: a record is reused
	}
	*b.stamp = stamp{tally: t.strand.fork(tm.m.burden), run: tm.m.id}
	return t
}

// joinFork adds to t, measured, the tally of the fork stamped s, whose
// task has finished: its work too, if t forked it (own), else only its
// paths, for the forking task's own join adds the work. It resumes t's
// strand if t's code runs on (strand.held).
func joinFork(t *Task, s *stamp, own bool) {
	open := t.strand.held(t.meas.m)
	switch {
	case s == nil || s.run != t.meas.m.id:
	case own:
		t.strand.join(&s.tally)
	default:
		t.strand.joinPath(&s.tally)
	}
	if open {
		resumeStrand(t)
	}
}

// measureGo is a Group.Go by t, measured: it ends t's strand, counts a
// fork, and returns f as a measured task of g. Go resumes t's strand
// once the task is in the queue.
func measureGo(t *Task, g *Group, f func(*Task) error) func(*Task) error {
	tm := t.meas
	t.strand.stop(tm.m)
	return tm.task(tm.group(g), t.strand.fork(tm.m.burden), f)
}

// joinGroup adds to t, measured, the tally of g's tasks, which have all
// finished: their work too if t made g, else only their paths.
func joinGroup(t *Task, g *Group) {
	open := t.strand.held(t.meas.m)
	// No tally: no measured task, as of a Pool's group, or one fed from
	// outside.
	if gt := t.meas.lookup(g); gt != nil {
		gt.mu.Lock()
		if g.parent == t {
			t.strand.join(&gt.tally)
		} else {
			t.strand.joinPath(&gt.tally)
		}
		gt.mu.Unlock()
	}
	if open {
		resumeStrand(t)
	}
}

// blockMeasured calls f, the function of t's Block, and adds its time to
// t's work and paths, and to its blocked time. t's strand stopped
// before the worker was lent.
func blockMeasured(t *Task, f func()) {
	m := t.meas.m
	start := time.Since(m.epoch) // the wall clock: f waits
	// f may panic: its time still counts.
	defer func() {
		d := max(time.Since(m.epoch)-start-m.tick, 0) // as meter.since
		t.strand.add(d)
		t.strand.blocked += d
	}()
	f()
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

// newRegion is Task.NewRegion for t, measured.
func newRegion(t *Task) *Region {
	open := t.strand.stop(t.meas.m)
	g := &Region{tm: t.meas, from: t.strand.tally}
	if open {
		resumeStrand(t)
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
