package sched

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A measured run (Pool.DoMeasured, RunMeasured) times the strands of its
// dag: the stretches of a task's or handler's own code between two points
// where it forks, joins, waits or ends. Cilkview (He, Leiserson and
// Leiserson, SPAA 2010) and OpenCilk's Cilkscale report the same figures.
//
//	figure          is                                           bounds
//	work T₁         the sum of the strands' times                the time on one worker
//	span T∞         the longest path through the dag             the time on any number
//	burdened span   the longest path, a burden added per fork     the time when steals cost
//	parallelism     T₁ / T∞                                      the speedup on any number
//
// On P workers a greedy schedule takes at most T₁/P + T∞. So the
// speedup lies below min(P, T₁/T∞). With a burden per fork on the path,
// Cilkview estimates it at T₁ / (T₁/P + burdened span) (Profile.Bounds).

// Measure holds the settings of a measured run. The zero Measure is
// valid: it takes DefaultBurden. A Measure is a small value; copy it
// freely.
type Measure struct {
	// Burden is what a fork adds to a path of the burdened span: the cost
	// of a steal of its task and of the hand-off of its result. Zero means
	// DefaultBurden; a negative Burden counts as zero.
	Burden time.Duration
	// WallClock times the strands by the monotonic clock alone. By
	// default, on Linux, a strand's time is its thread's CPU time, which
	// the machine's other jobs do not stretch. Reading it is a system
	// call, which also slows the code that follows: a strand of some
	// microseconds or less looks longer than it is. The wall clock is a
	// read of memory: on a machine that runs nothing else, it measures
	// fine tasks better.
	WallClock bool
}

// DefaultBurden is the Burden of a zero Measure: about what a warm
// migration costs on the 2-core machine of BENCHMARKS.md, and near
// Cilkscale's 15,000 cycles. A warm migration is a steal by a worker that
// looks for work, and the return of the join of what it stole
// (BenchmarkBurden in package bench). A thief that has parked first
// costs many times more there. Set Measure.Burden to this machine's
// figure.
const DefaultBurden = 5 * time.Microsecond

// Profile is the work and span of a measured run. Its figures are the
// times of the strands, with the clock's own cost taken off each strand.
// A strand shorter than that cost counts as zero, never less: so the span
// is at least the longest strand, and the work at least the span. The
// scheduler's own time (forks, steals, waits, the clock) is in none.
//
//	clock            a strand's time            used
//	thread CPU time  its thread's CPU time      on Linux, unless Measure.WallClock
//	wall clock       the monotonic clock        elsewhere, and for a strand whose
//	                                            goroutine moved to another thread
//
// A machine shared with other jobs stops a thread now and then, for a
// time slice. The wall clock counts that in the strand it stopped, and the
// span, a longest path, takes it whole. The thread's CPU time does not.
// Task.Block's functions, which wait, count by the wall clock.
//
// A schedule that splits by demand, such as a loop, counts as its
// iteration space (see Region), whatever split the run chose. So a run
// on 2 workers bounds what 64 could get.
type Profile struct {
	// Work is the total time of the strands: task bodies, loop chunks,
	// Run's handlers, and Task.Block's functions.
	Work time.Duration
	// Span is the time of the longest path through the dag.
	Span time.Duration
	// BurdenedSpan is the longest path with Burden added for each fork on it.
	BurdenedSpan time.Duration
	// Blocked is the time in Task.Block's functions: part of Work, and of
	// Span where it lies on the path.
	Blocked time.Duration
	// Forks counts the edges that start a strand elsewhere. These are
	// Fork, Join's g, Group.Go, Run's spawned items, and the forks a
	// region's binary split would make.
	Forks int64
	// Burden is what each fork on a path added to BurdenedSpan, and
	// BurdenFrom says where it came from.
	Burden     time.Duration
	BurdenFrom string
	// Clock names the clock that timed the strands (see above).
	Clock string
	// Workers is the number of workers of the measured run, and Elapsed
	// its wall time, the measuring's own cost included.
	Workers int
	Elapsed time.Duration
}

// Parallelism returns Work / Span: the most speedup any number of workers
// can give. It returns 0 for an empty profile.
func (p Profile) Parallelism() float64 { return ratioOf(p.Work, p.Span) }

// BurdenedParallelism returns Work / BurdenedSpan: the parallelism left
// when every fork on a path costs the burden.
func (p Profile) BurdenedParallelism() float64 { return ratioOf(p.Work, p.BurdenedSpan) }

// Bounds returns Cilkview's speedup bounds on the given number of workers:
// hi is min(workers, Work/Span), which no schedule passes, and lo is
// Work / (Work/workers + BurdenedSpan), the speedup it estimates when
// each steal costs the burden. Both are 0 for an empty profile or fewer
// than one worker.
func (p Profile) Bounds(workers int) (lo, hi float64) {
	if workers < 1 || p.Work <= 0 || p.Span <= 0 {
		return 0, 0
	}
	w, n := float64(p.Work), float64(workers)
	return w / (w/n + float64(p.BurdenedSpan)), min(n, w/float64(p.Span))
}

// ratioOf returns a / b, or 0 when b is not positive.
func ratioOf(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// MetricReporter receives a benchmark's metrics: a *testing.B is one.
type MetricReporter interface {
	ReportMetric(n float64, unit string)
}

// Report reports the profile's parallelism and burdened parallelism to b,
// a *testing.B, as the metrics "parallelism" and "burdened-parallelism".
func (p Profile) Report(b MetricReporter) {
	b.ReportMetric(p.Parallelism(), "parallelism")
	b.ReportMetric(p.BurdenedParallelism(), "burdened-parallelism")
}

// profileWorkers are the worker counts of the table that String prints.
var profileWorkers = []int{1, 2, 4, 8, 16, 32, 64, 128}

// String returns the profile as a table of one screen: the figures, then
// the speedup bounds for some worker counts, this run's among them.
func (p Profile) String() string {
	var b strings.Builder
	row := func(name, value, note string) { fmt.Fprintf(&b, "%-22s %12s   %s\n", name, value, note) }
	row("work", p.Work.String(), "time in tasks, loop chunks, handlers and Block")
	row("  blocked", p.Blocked.String(), "time in Task.Block's functions")
	row("span", p.Span.String(), "the longest path")
	row("burdened span", p.BurdenedSpan.String(), "the longest path, a burden added per fork")
	row("parallelism", fmt.Sprintf("%.2f", p.Parallelism()), "work / span")
	row("burdened parallelism", fmt.Sprintf("%.2f", p.BurdenedParallelism()), "work / burdened span")
	row("forks", fmt.Sprint(p.Forks), "edges that start a strand elsewhere")
	row("burden", p.Burden.String(), "per fork, from "+p.BurdenFrom)
	row("clock", p.Clock, "times the strands")
	row("measured on", fmt.Sprintf("%d workers", p.Workers), "in "+p.Elapsed.String()+", the measuring included")
	fmt.Fprintf(&b, "\n%8s %14s %14s\n", "workers", "speedup below", "burdened est.")
	ws := profileWorkers
	if p.Workers > 0 && !slices.Contains(ws, p.Workers) {
		ws = append(slices.Clone(ws), p.Workers)
		slices.Sort(ws)
	}
	for _, n := range ws {
		lo, hi := p.Bounds(n)
		fmt.Fprintf(&b, "%8d %14.2f %14.2f\n", n, hi, lo)
	}
	return b.String()
}

// meter is the state of one measured run that every strand reads: the
// clocks, their costs, and the burden. It never changes after newMeter.
type meter struct {
	id    uint64 // tells this run's stamps from an earlier run's
	epoch time.Time
	cpu   bool // strands are timed by their thread's CPU time
	// tick and cpuTick are what a reading (now) adds to a strand's time
	// on each clock: the end of one reading and the start of the next.
	tick, cpuTick time.Duration
	burden        time.Duration
	from          string // where burden came from
}

// reading is a reading of a meter's clocks.
type reading struct {
	wall, cpu time.Duration
}

// meters numbers the measured runs.
var meters atomic.Uint64

// newMeter returns the meter of a run measured as m says. It measures the
// clock's own cost first (see calibrate).
func newMeter(m Measure) *meter {
	mt := &meter{id: meters.Add(1), epoch: time.Now(), burden: m.Burden, from: "Measure.Burden"}
	if m.Burden == 0 {
		mt.burden, mt.from = DefaultBurden, "sched.DefaultBurden"
	}
	mt.burden = max(mt.burden, 0)
	if !m.WallClock {
		_, mt.cpu = threadCPU()
	}
	mt.calibrate()
	return mt
}

// now reads the clocks: the monotonic clock, one call of the runtime's
// nanotime, and the thread's CPU clock if the meter uses it.
func (m *meter) now() reading {
	r := reading{wall: time.Since(m.epoch)}
	if m.cpu {
		r.cpu, _ = threadCPU()
	}
	return r
}

// since returns the time of a strand that began at the reading r and
// ends now, the clock's own cost taken off, and never below zero: a
// strand shorter than the clock's mean cost counts as nothing, not as
// less. So every path is at least as long as each of its strands, and
// the work at least the span. On the CPU clock, a strand whose CPU time
// is not within its wall time ran on two threads: its goroutine moved,
// and only its wall time means anything.
func (m *meter) since(r reading) time.Duration {
	now := m.now()
	wall := now.wall - r.wall
	if m.cpu {
		if c := now.cpu - r.cpu; c >= 0 && c <= wall+2*m.cpuTick {
			return max(c-m.cpuTick, 0)
		}
	}
	return max(wall-m.tick, 0)
}

// clock names the clock that times the strands.
func (m *meter) clock() string {
	if m.cpu {
		return "thread CPU time"
	}
	return "wall clock"
}

// calibrate measures what the clocks add to a strand's time: the mean
// time, on each clock, of an empty strand, the slowest tenth left out. A
// strand runs from a reading's sample to the next one's: it holds the end
// of one reading and the start of the other, about one reading. A mean,
// as work is a sum; without the slowest, which an interrupt or the
// machine's other jobs made slow, and which a few samples would give too
// much weight. What a reading costs the code after it (the caches a
// system call disturbs) stays in the strand: see Measure.WallClock.
func (m *meter) calibrate() {
	var walls, cpus [256]time.Duration
	var s strand
	for i := range walls {
		s.resume(m)
		end := m.now()
		walls[i], cpus[i] = end.wall-s.start.wall, end.cpu-s.start.cpu
	}
	m.tick, m.cpuTick = trimmedMean(walls[:]), trimmedMean(cpus[:])
}

// trimmedMean returns the mean of ds without its largest tenth. It sorts
// ds.
func trimmedMean(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	ds = ds[:len(ds)-len(ds)/10]
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

// profile returns the Profile of a run that ended with the tally t, on
// the given number of workers, in elapsed.
func (m *meter) profile(t tally, workers int, elapsed time.Duration) Profile {
	return Profile{
		Work: max(t.work, 0), Span: max(t.span, 0), BurdenedSpan: max(t.bspan, 0),
		Blocked: t.blocked, Forks: t.forks,
		Burden: m.burden, BurdenFrom: m.from, Clock: m.clock(),
		Workers: workers, Elapsed: elapsed,
	}
}

// splitDepth returns the depth of a binary split into n leaves: the
// forks on a path from its root to a leaf.
func splitDepth(n int64) int64 {
	if n <= 1 {
		return 0
	}
	return int64(math.Ceil(math.Log2(float64(n))))
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

// tally is the measure of a strand and what came before it: the work of
// the strands below it in the dag, and the longest paths that end where
// the strand began.
//
//	field    holds
//	work     the time of the strands that ended, this one's included once it ends
//	span     the longest path to the strand's start
//	bspan    the same with a burden per fork: its longest burdened path
//	blocked  the part of work in Task.Block's functions
//	forks    the forks below
type tally struct {
	work, span, bspan, blocked time.Duration
	forks                      int64
}

// join adds c, the tally of a strand that has ended, to t, the tally of a
// strand that waited for it: its work, and the longer paths.
func (t *tally) join(c *tally) {
	t.work += c.work
	t.blocked += c.blocked
	t.forks += c.forks
	t.joinPath(c)
}

// joinPath takes the longer paths of t and c: an edge from c to t whose
// work another edge counts.
func (t *tally) joinPath(c *tally) {
	t.span = max(t.span, c.span)
	t.bspan = max(t.bspan, c.bspan)
}

// fork counts a fork by t's strand, and returns the tally a forked strand
// starts from: t's paths, burden added to the burdened one.
func (t *tally) fork(burden time.Duration) tally {
	t.forks++
	return tally{span: t.span, bspan: t.bspan + burden}
}

// add adds d, the time of a strand of t, to its work and its paths.
func (t *tally) add(d time.Duration) {
	t.work += d
	t.span += d
	t.bspan += d
}

// strand is a tally with the strand under way: a task's frame or a
// handler's call keeps one while it is measured. Only its goroutine
// touches it.
type strand struct {
	tally
	start reading // when the strand began, on the meter's clocks
	open  bool    // a strand is under way: the code runs, not a wait
	// waited says that a wait stopped the strand, for the join that
	// follows it to resume (held). A goroutine that wakes from a wait is
	// often stopped again at once, by its host: the join reads the clock
	// after that, not before.
	waited bool
}

// stop ends the strand under way at the clock's reading, and reports
// whether there was one.
func (s *strand) stop(m *meter) bool {
	if !s.open {
		return false
	}
	s.add(m.since(s.start))
	s.open = false
	return true
}

// resume starts a new strand, at the clock's reading.
func (s *strand) resume(m *meter) {
	s.start, s.open = m.now(), true
}

// wait stops the strand under way for a wait, if there is one: the join
// that ends the wait resumes it (held).
func (s *strand) wait(m *meter) {
	if s.stop(m) {
		s.waited = true
	}
}

// held stops the strand under way, and reports whether the code runs on
// afterwards: a strand was under way, or a wait stopped it.
func (s *strand) held(m *meter) bool {
	open := s.stop(m) || s.waited
	s.waited = false
	return open
}
