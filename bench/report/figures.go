package main

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The paper's figures, as far as its text states them (Kataru, Davarnia,
// Jannesari 2026). Only stated values are drawn; the plots mark them
// "paper".
var paper = struct {
	pushLFBound        float64 // ns: LF push stays under this for batches 1..1024
	pushTaskflow1024   float64 // ns: Taskflow push of a batch of 1024
	stealLF            float64 // ns: LF steal, flat over 10..60 %
	stealTaskflow60    float64 // ns: Taskflow steal at 60 %
	stealSkip10        float64 // ns: skip-count steal at 10 %
	stealSkip60        float64 // ns: skip-count steal at 60 %
	popLow, popHigh    float64 // ns: pop, all queues
	stealItemsAssumed  int     // items in the queue, our reading of the paper
	dagSpeedupRemark   string
	dagSizes           []int
	dagThreadsMaxPaper int
}{
	pushLFBound:        500,
	pushTaskflow1024:   5000,
	stealLF:            40_000,
	stealTaskflow60:    112_000,
	stealSkip10:        37_700,
	stealSkip60:        12_500,
	popLow:             213,
	popHigh:            216,
	stealItemsAssumed:  10_000,
	dagSpeedupRemark:   "near-linear speedup for all queues (uniform node cost)",
	dagSizes:           []int{2_500_000, 300_000_000},
	dagThreadsMaxPaper: 128,
}

// report holds the summarized results in the shape the tables and plots
// use.
type report struct {
	rows   []Row
	config map[string]string
	// others lists the queue and implementation names of the input that
	// are neither contenders nor implementations, in order of first
	// appearance; their places after the contenders give them the same
	// colour and marker in every plot.
	others []string
	// far is the results of a machine with more cores (-multicore), nil
	// without them, and farLabel names them: the span figures draw its
	// speedups beside this machine's.
	far      *report
	farLabel string
}

func newReport(set *Set) *report {
	r := &report{rows: Summarize(set.Samples), config: set.Config}
	for _, q := range append(distinct(r.rows, "queue"), distinct(r.rows, "impl")...) {
		if contenderIndex(q) < 0 && implementationIndex(q) < 0 && !slices.Contains(r.others, q) {
			r.others = append(r.others, q)
		}
	}
	return r
}

// bench returns the rows of the top-level benchmark name. Saved output
// from before BenchmarkPush and BenchmarkPushBatch were two benchmarks
// names PushBatch's rows BenchmarkPush/queue=Q/batch=B: they are
// PushBatch's, not Push's.
func (r *report) bench(name string) []Row {
	var out []Row
	for _, row := range r.rows {
		b := row.Bench
		if b == "Push" && row.Params["batch"] != "" {
			b = "PushBatch"
		}
		if b == name {
			out = append(out, row)
		}
	}
	return out
}

// queueStyle returns the style index of a queue name: a contender's place
// in contenders, or for another queue the place after them that its first
// appearance in the input gives it.
func (r *report) queueStyle(name string) int {
	if i := contenderIndex(name); i >= 0 {
		return i
	}
	if i := slices.Index(r.others, name); i >= 0 {
		return len(contenders) + i
	}
	return len(contenders) + len(r.others)
}

// look returns how a queue or an implementation is drawn in every plot:
// its own style if it is a contender or an implementation, and otherwise
// the style after the contenders' that its first appearance gives it.
func (r *report) look(name string) style {
	if i := implementationIndex(name); i >= 0 && contenderIndex(name) < 0 {
		st := queueStyle(0) // a contender's line and bar, in the implementation's colour and marker
		st.color, st.glyph = implementations[i].color, implementations[i].glyph
		return st
	}
	return queueStyle(r.queueStyle(name))
}

// procsFor returns the GOMAXPROCS whose rows the report shows for a
// benchmark: the largest present.
func procsFor(rows []Row) int {
	ps := distinctProcs(rows)
	if len(ps) == 0 {
		return 0
	}
	return ps[len(ps)-1]
}

// point is one point of a curve: x and the summary of the samples at x.
type point struct {
	x float64
	Stat
}

// curve is a named series of points, sorted by x.
type curve struct {
	name string
	pts  []point
}

// scaled returns s with every value multiplied by k > 0.
func (s Stat) scaled(k float64) Stat {
	return Stat{N: s.N, Median: s.Median * k, Lo: s.Lo * k, Hi: s.Hi * k, Min: s.Min * k, Max: s.Max * k}
}

// ratio summarizes num/den for positive measurements: the ratio of the
// medians, and for the interval and the range the most extreme ratios of
// their bounds, so that the spread of both enters. The interval is infinite
// when either has none.
func ratio(num, den Stat) Stat {
	s := Stat{N: min(num.N, den.N), Median: num.Median / den.Median, Min: num.Min / den.Max, Max: num.Max / den.Min}
	s.Lo, s.Hi = math.Inf(-1), math.Inf(1)
	if num.HasCI() && den.HasCI() {
		s.Lo, s.Hi = num.Lo/den.Hi, num.Hi/den.Lo
	}
	return s
}

// curves returns one curve per queue of benchmark bench: the metric unit
// (scaled by scale) against the integer parameter x, over the rows whose
// other parameters match fixed. A queue without points is left out.
func (r *report) curves(bench string, fixed map[string]string, x, unit string, scale float64) []curve {
	rows := r.bench(bench)
	var cs []curve
	for _, q := range distinct(rows, "queue") {
		want := maps.Clone(fixed)
		if want == nil {
			want = map[string]string{}
		}
		want["queue"] = q
		if c := curveOf(rows, q, want, x, unit, scale); len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// curveOf returns the curve named name of the metric unit (scaled by scale)
// against the integer parameter x, over the rows matching want.
func curveOf(rows []Row, name string, want map[string]string, x, unit string, scale float64) curve {
	procs := procsFor(rows)
	c := curve{name: name}
	for _, k := range distinctInts(rows, x) {
		want[x] = strconv.Itoa(k)
		if row, ok := lookup(rows, procs, want); ok {
			if s, ok := row.Stat(unit); ok {
				c.pts = append(c.pts, point{float64(k), s.scaled(scale)})
			}
		}
	}
	return c
}

// batchCurves returns ns per batch against batch size, one curve per queue.
func (r *report) batchCurves() []curve { return r.curves("PushBatch", nil, "batch", "ns/op", 1) }

// stealCurves returns µs per steal against the proportion, one curve per
// queue, for queues of n items.
func (r *report) stealCurves(n int) []curve {
	return r.curves("Steal", map[string]string{"n": strconv.Itoa(n)}, "p", "ns/op", 1e-3)
}

// popStats returns ns per pop by queue.
func (r *report) popStats() (names []string, stats []Stat) { return r.queueStats("Pop") }

// pushStats returns ns per Push of one item by queue.
func (r *report) pushStats() (names []string, stats []Stat) { return r.queueStats("Push") }

// queueStats returns ns per op of a benchmark whose only parameter is the
// queue, by queue.
func (r *report) queueStats(bench string) (names []string, stats []Stat) {
	rows := r.bench(bench)
	procs := procsFor(rows)
	for _, q := range distinct(rows, "queue") {
		if row, ok := lookup(rows, procs, map[string]string{"queue": q}); ok {
			if s, ok := row.Stat("ns/op"); ok {
				names = append(names, q)
				stats = append(stats, s)
			}
		}
	}
	return names, stats
}

// dagCurves returns milliseconds per exploration against workers, one curve
// per queue, for one work distribution and mode.
func (r *report) dagCurves(work, mode string) []curve {
	return r.curves("DAG", map[string]string{"mode": mode, "work": work}, "workers", "ns/op", 1e-6)
}

// busyCurve returns milliseconds per run of BenchmarkDAGCeiling against
// workers: the busy work of one exploration (the node count times the mean
// node cost) split evenly over goroutines that share nothing, no queue and
// no scheduler. At each worker count it is about the least time any queue
// can take, as every exploration does that work and more; it is not a bound
// on the speedups, which each queue measures against its own one-worker
// time.
func (r *report) busyCurve() curve {
	return curveOf(r.bench("DAGCeiling"), busyLabel, map[string]string{}, "workers", "ns/op", 1e-6)
}

// busyLabel names the busy-work reference in tables and plots.
const busyLabel = "busy work alone"

// speedups turns time curves into speedup over one worker; a curve without
// a one-worker point is left out.
func speedups(cs []curve) []curve {
	var out []curve
	for _, c := range cs {
		i := slices.IndexFunc(c.pts, func(p point) bool { return p.x == 1 })
		if i < 0 {
			continue
		}
		base := c.pts[i].Stat
		s := curve{name: c.name}
		for _, p := range c.pts {
			if p.x == 1 {
				s.pts = append(s.pts, exact(1, 1)) // by definition
				continue
			}
			s.pts = append(s.pts, point{p.x, ratio(base, p.Stat)})
		}
		out = append(out, s)
	}
	return out
}

// masterCurves returns a metric of BenchmarkMasterCapacity (scaled by
// scale) against workers, one curve per queue, leaving out runs without hand-offs (one worker).
func (r *report) masterCurves(unit string, scale float64) []curve {
	cs := r.curves("MasterCapacity", nil, "workers", unit, scale)
	var out []curve
	for _, c := range cs {
		c.pts = slices.DeleteFunc(c.pts, func(p point) bool { return p.Median == 0 })
		if len(c.pts) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// ordered returns parameter values in order: numerically if they are all
// numbers, alphabetically otherwise (coarse before fine).
func ordered(values []string) []string {
	out := slices.Clone(values)
	slices.SortStableFunc(out, func(a, b string) int {
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		if errA == nil && errB == nil {
			return x - y
		}
		return strings.Compare(a, b)
	})
	return out
}

// procsCurves returns one curve per implementation of benchmark bench: the
// metric unit (scaled by scale) against GOMAXPROCS, over the rows whose
// other parameters match fixed. An implementation without points is left
// out.
func (r *report) procsCurves(bench string, fixed map[string]string, unit string, scale float64) []curve {
	rows := r.bench(bench)
	var cs []curve
	for _, impl := range distinct(rows, "impl") {
		want := maps.Clone(fixed)
		if want == nil {
			want = map[string]string{}
		}
		want["impl"] = impl
		c := curve{name: impl}
		for _, n := range distinctProcs(rows) {
			if row, ok := lookup(rows, n, want); ok {
				if s, ok := row.Stat(unit); ok {
					c.pts = append(c.pts, point{float64(n), s.scaled(scale)})
				}
			}
		}
		if len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// forkJoinSpeedups returns the speedup over one core of every
// implementation of BenchmarkForkJoin on one work, against the core count
// (GOMAXPROCS); an implementation not run on one core is left out.
func (r *report) forkJoinSpeedups(work string) []curve {
	return speedups(r.procsCurves("ForkJoin", map[string]string{"work": work}, "ns/op", 1))
}

// thievesCurves returns the owner's slowdown against the number of
// thieves, one curve per queue, for one kind of steal.
func (r *report) thievesCurves(steal string) []curve {
	return r.curves("Thieves", map[string]string{"steal": steal}, "thieves", "slowdown", 1)
}

// The series of the pool-against-goroutines figure: the pool's forms and
// errgroup, each drawn as the implementation named beside it.
const (
	seriesPool     = "pool"
	seriesJoin     = "pool, sched.Join"
	seriesErrgroup = "errgroup"
)

// versusSeries are the series of the pool-against-goroutines figure, in
// order, with the implementation whose colour and marker each takes.
var versusSeries = []struct{ name, look string }{
	{seriesPool, "pool-bq"},
	{seriesJoin, "join-bq"},
	{seriesErrgroup, "errgroup"},
}

// matchup is a benchmark of the pool-against-goroutines comparison: plain
// Go (base) against the pool's forms and errgroup (bars), each an
// implementation of the benchmark (impl=NAME) doing the same work at the
// same concurrency limit and cutoff. A benchmark with a split parameter
// has a workload per value of it.
type matchup struct {
	bench, split string
	name         func(value string) string // the workload's name
	base         string
	bars         []struct{ impl, series string }
}

// matchups are the workloads of the pool-against-goroutines figure, in
// order (see package bench for the implementations).
var matchups = []matchup{
	{bench: "ForkJoin", split: "work", name: func(v string) string { return "fork-join, " + v }, base: "goroutines",
		bars: []struct{ impl, series string }{{"pool-bq", seriesPool}, {"join-bq", seriesJoin}, {"errgroup", seriesErrgroup}}},
	{bench: "NQueens", name: func(string) string { return "n-queens" }, base: "goroutines",
		bars: []struct{ impl, series string }{{"pool-bq", seriesPool}}},
	{bench: "BlockingWalk", name: func(string) string { return "blocking walk, 16 at once" }, base: "goroutines",
		bars: []struct{ impl, series string }{{"pool-max16", seriesPool}, {"errgroup", seriesErrgroup}}},
	{bench: "Inject", split: "producers", name: func(v string) string {
		n, _ := strconv.Atoi(v)
		return "inject, " + plural(n, "producer", "producers")
	}, base: "channel",
		bars: []struct{ impl, series string }{{"pool", seriesPool}}},
}

// versus is one workload of the pool-against-goroutines comparison, at the
// most GOMAXPROCS its benchmark ran at: plain Go's time, and the times of
// the pool's forms and errgroup present.
type versus struct {
	name, bench string
	procs       int
	base        entry
	entries     []entry
}

// entry is the time of one implementation on a workload.
type entry struct {
	impl, series string
	t            Stat // ns/op
}

// rel returns the entry's time over plain Go's.
func (v versus) rel(e entry) Stat { return ratio(e.t, v.base.t) }

// find returns the entry of a series, if the workload has one.
func (v versus) find(series string) (entry, bool) {
	i := slices.IndexFunc(v.entries, func(e entry) bool { return e.series == series })
	if i < 0 {
		return entry{}, false
	}
	return v.entries[i], true
}

// versus returns the workloads of the pool-against-goroutines comparison
// that the results allow: those with plain Go's time and at least one of
// the pool's.
func (r *report) versus() []versus {
	var out []versus
	for _, m := range matchups {
		rows := r.bench(m.bench)
		procs := procsFor(rows)
		values := []string{""}
		if m.split != "" {
			values = ordered(distinct(rows, m.split))
		}
		for _, value := range values {
			get := func(impl string) (Stat, bool) {
				want := map[string]string{"impl": impl}
				if m.split != "" {
					want[m.split] = value
				}
				row, ok := lookup(rows, procs, want)
				if !ok {
					return Stat{}, false
				}
				s, ok := row.Stat("ns/op")
				return s, ok && s.Median > 0
			}
			base, ok := get(m.base)
			if !ok {
				continue
			}
			v := versus{name: m.name(value), bench: m.bench, procs: procs, base: entry{impl: m.base, t: base}}
			for _, b := range m.bars {
				if t, ok := get(b.impl); ok {
					v.entries = append(v.entries, entry{b.impl, b.series, t})
				}
			}
			_, pool := v.find(seriesPool)
			_, join := v.find(seriesJoin)
			if pool || join {
				out = append(out, v)
			}
		}
	}
	return out
}

// num formats a value with about three significant digits, and at least
// two for a value under 0.1 (the pool's time over a goroutine per call's).
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 0.1 || a == 0:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 1-int(math.Floor(math.Log10(a))), 64)
	}
}

// duration formats nanoseconds with a unit.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return num(ns/1e9) + " s"
	case ns >= 1e6:
		return num(ns/1e6) + " ms"
	case ns >= 1e3:
		return num(ns/1e3) + " µs"
	}
	return num(ns) + " ns"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// stealAuto names BenchmarkStealAmount's steal=auto: the scheduler's own
// choice (sched's zero Config.Proportion). Every other choice is fixed.
const stealAuto = "auto"

// stealTarget is auto's target: its time within 5 % of the best fixed
// choice's.
const stealTarget = 1.05

// stealRow is one workload in one mode of BenchmarkStealAmount: the time
// of each steal choice, and the fixed choice with the least median.
type stealRow struct {
	work, mode string
	times      map[string]Stat // ns/op, by steal choice
	best       string
}

// rel returns a choice's time over the best fixed choice's, as ratio
// does. The best's own is exactly 1.
func (sr stealRow) rel(choice string) Stat {
	if choice == sr.best {
		return exact(0, 1).Stat
	}
	return ratio(sr.times[choice], sr.times[sr.best])
}

// stealOrder returns the steal choices in order: auto, one, then the
// proportions from the least, then any other as they came.
func stealOrder(choices []string) []string {
	rank := func(c string) (int, float64) {
		if c == stealAuto {
			return 0, 0
		}
		if c == "one" {
			return 1, 0
		}
		if v, err := strconv.ParseFloat(c, 64); err == nil {
			return 2, v
		}
		return 3, 0
	}
	out := slices.Clone(choices)
	slices.SortStableFunc(out, func(a, b string) int {
		ra, va := rank(a)
		rb, vb := rank(b)
		if ra != rb {
			return ra - rb
		}
		return cmp.Compare(va, vb)
	})
	return out
}

// stealChoices returns the steal choices of BenchmarkStealAmount, in
// order (see stealOrder).
func (r *report) stealChoices() []string {
	return stealOrder(distinct(r.bench("StealAmount"), "steal"))
}

// stealRows returns the rows of BenchmarkStealAmount at the most
// GOMAXPROCS it ran at. A row is a workload in a mode with a fixed
// choice. The rows come in the benchmark's order.
func (r *report) stealRows() []stealRow {
	rows := r.bench("StealAmount")
	procs := procsFor(rows)
	choices := r.stealChoices()
	var out []stealRow
	for _, work := range distinct(rows, "work") {
		for _, mode := range distinct(rows, "mode") {
			sr := stealRow{work: work, mode: mode, times: map[string]Stat{}}
			for _, c := range choices {
				row, ok := lookup(rows, procs, map[string]string{"work": work, "mode": mode, "steal": c})
				if !ok {
					continue
				}
				s, ok := row.Stat("ns/op")
				if !ok || s.Median <= 0 {
					continue
				}
				sr.times[c] = s
				if c != stealAuto && (sr.best == "" || s.Median < sr.times[sr.best].Median) {
					sr.best = c
				}
			}
			if sr.best != "" {
				out = append(out, sr)
			}
		}
	}
	return out
}
