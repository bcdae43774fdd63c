package sched

import (
	"fmt"
	"math"
	"slices"
	"strings"
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
}

// DefaultBurden is the Burden of a zero Measure. It is about what a steal
// of a fork and the wake of its join cost on the 2-core machine of
// BENCHMARKS.md (BenchmarkStealLatency in package bench). Cilkscale takes
// 15,000 cycles. Set Measure.Burden to this machine's figure.
const DefaultBurden = 4 * time.Microsecond

// Profile is the work and span of a measured run. Its figures are wall
// times of the strands, with the clock's own cost taken off each strand.
// The scheduler's own time (forks, steals, waits, the clock) is in none.
//
// A schedule that splits by demand, such as a loop, counts as its
// iteration space (see Region), whatever split the run chose. So a run
// on 2 workers tells what 64 would get.
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
// clock, its cost, and the burden. It never changes after newMeter.
type meter struct {
	id     uint64 // tells this run's stamps from an earlier run's
	epoch  time.Time
	tick   time.Duration // what a read of the clock adds to a strand
	burden time.Duration
	from   string // where burden came from
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
	mt.tick = mt.calibrate()
	return mt
}

// now reads the monotonic clock: one call of the runtime's nanotime.
func (m *meter) now() time.Duration { return time.Since(m.epoch) }

// calibrate returns what reading the clock adds to a strand's time: the
// median gap between two reads in a row. A strand runs from a read's
// sample to the next read's: it holds the end of one read and the start
// of the other, about one read. A median of many pairs is stable where a
// single pair is not.
func (m *meter) calibrate() time.Duration {
	var gaps [63]time.Duration
	for i := range gaps {
		a := m.now()
		gaps[i] = m.now() - a
	}
	slices.Sort(gaps[:])
	return gaps[len(gaps)/2]
}

// profile returns the Profile of a run that ended with the tally t, on
// the given number of workers, in elapsed.
func (m *meter) profile(t tally, workers int, elapsed time.Duration) Profile {
	return Profile{
		Work: max(t.work, 0), Span: max(t.span, 0), BurdenedSpan: max(t.bspan, 0),
		Blocked: t.blocked, Forks: t.forks,
		Burden: m.burden, BurdenFrom: m.from,
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
	start time.Duration // when the strand began, on the meter's clock
	open  bool          // a strand is under way: the code runs, not a wait
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
	s.add(m.now() - s.start - m.tick)
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
