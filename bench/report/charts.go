package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// chart is a figure and the file it is saved as.
type chart struct {
	file string
	fig  *figure
}

// seriesOf turns curves into a figure's series, each in its queue's or
// implementation's style.
func (r *report) seriesOf(cs []curve) []series {
	out := make([]series, len(cs))
	for i, c := range cs {
		out[i] = series{name: c.name, look: r.look(c.name), pts: c.pts}
	}
	return out
}

// workers names a group of bars by worker count.
func workers(x float64) string { return plural(int(x), "worker", "workers") }

// charts returns every figure the results allow.
func (r *report) charts() []chart {
	var out []chart
	if names, stats := r.pushStats(); len(names) > 0 {
		out = append(out, chart{"push-one.png", r.queueFigure(names, stats, &figure{
			title:  "Push latency, one item",
			yLabel: "ns per push",
			procs:  procsFor(r.bench("Push")),
			refs: []reference{{
				label: fmt.Sprintf("paper: lfqueue < %v ns for 1 to 1024 items", paper.pushLFBound),
				pts:   []point{exact(0, paper.pushLFBound)}, span: true,
			}},
			notes: []string{"What is timed: a loop of Push of one item into a queue with room for every item, divided by its length (BenchmarkPush)."},
		})})
	}
	if f := r.batchFigure(); f != nil {
		out = append(out, chart{"push.png", f})
	}
	for _, n := range distinctInts(r.bench("Steal"), "n") {
		cs := r.stealCurves(n)
		if len(cs) == 0 {
			continue
		}
		f := &figure{
			title:  fmt.Sprintf("Steal latency by proportion, %d items", n),
			xLabel: "proportion stolen (%)", yLabel: "µs per steal",
			series: r.seriesOf(cs),
			procs:  procsFor(r.bench("Steal")),
			group:  func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + " %" },
			notes:  noteIf(timedNote(curveNames(cs), func(c contender) string { return c.steal })),
		}
		if n == paper.stealItemsAssumed {
			f.refs = []reference{
				{label: "paper: lfqueue ≈ 40 µs, flat", pts: []point{exact(10, paper.stealLF/1e3), exact(60, paper.stealLF/1e3)}, line: true},
				{label: "paper: skip-count, 37.7 to 12.5 µs", pts: []point{exact(10, paper.stealSkip10/1e3), exact(60, paper.stealSkip60/1e3)}, line: true},
				{label: "paper: Taskflow > 112 µs at 60 %", pts: []point{exact(60, paper.stealTaskflow60/1e3)}},
			}
			f.notes = append(f.notes, fmt.Sprintf("Paper marks: its figures for 10 to 60 %%, drawn at %d items, our reading of its queue size.", n))
		}
		out = append(out, chart{fmt.Sprintf("steal-n%d.png", n), f})
	}
	if names, stats := r.popStats(); len(names) > 0 {
		out = append(out, chart{"pop.png", r.queueFigure(names, stats, &figure{
			title:  "Pop latency",
			yLabel: "ns per pop",
			procs:  procsFor(r.bench("Pop")),
			refs: []reference{{
				label: fmt.Sprintf("paper: %v–%v ns, all queues", paper.popLow, paper.popHigh),
				pts:   []point{exact(0, (paper.popLow+paper.popHigh)/2)}, span: true,
			}},
			notes: []string{"What is timed: a loop of Pop over a queue filled outside the timer, divided by its length. " +
				"The paper timed each call with a clock, which costs more than the pop itself; its figure does not compare with these."},
		})})
	}
	dag := r.bench("DAG")
	busy := r.busyCurve()
	for _, work := range distinct(dag, "work") {
		for _, mode := range distinct(dag, "mode") {
			times := r.dagCurves(work, mode)
			if len(times) == 0 {
				continue
			}
			f := &figure{
				title:  fmt.Sprintf("DAG exploration time, %s work, %s mode", work, mode),
				xLabel: "workers", yLabel: "ms per exploration",
				series: r.seriesOf(times), group: workers,
				procs: procsFor(dag),
			}
			if len(busy.pts) > 0 {
				f.refs = append(f.refs, reference{label: busyLabel + " (DAGCeiling)", pts: busy.pts, line: true})
				f.notes = append(f.notes, "Busy work alone: BenchmarkDAGCeiling, the graph's spin work split evenly over goroutines with no queue. "+
					"Every exploration does that work and more, so no queue should take less, beyond the noise.")
			}
			out = append(out, chart{fmt.Sprintf("dag-time-%s-%s.png", work, mode), f})
		}
	}
	if f := r.speedupFigure(); f != nil {
		out = append(out, chart{"dag-speedup.png", f})
	}
	if f := r.masterFigure(); f != nil {
		out = append(out, chart{"master-capacity.png", f})
	}
	if f := r.forkJoinFigure(); f != nil {
		out = append(out, chart{"forkjoin-scaling.png", f})
	}
	if f := r.thievesFigure(); f != nil {
		out = append(out, chart{"thieves.png", f})
	}
	if f := r.versusFigure(); f != nil {
		out = append(out, chart{"pool-vs-goroutines.png", f})
	}
	if f := r.stealAmountFigure(); f != nil {
		out = append(out, chart{"steal-amount.png", f})
	}
	return append(out, r.spanCharts()...)
}

// queueFigure completes f as a chart of one figure per queue: names on
// the x axis, stats their medians and spreads.
func (r *report) queueFigure(names []string, stats []Stat, f *figure) *figure {
	f.categories = names
	for i, q := range names {
		f.series = append(f.series, series{name: q, look: r.look(q), pts: []point{{float64(i), stats[i]}}})
	}
	return f
}

// batchFigure returns the figure of the batch pushes, ns per batch against
// the batch size, or nil without results. Each kind of push (batchPanels)
// has a panel of its own, with every other queue drawn in grey behind, so
// that no panel holds more than a few lines.
func (r *report) batchFigure() *figure {
	cs := r.batchCurves()
	if len(cs) == 0 {
		return nil
	}
	f := &figure{
		title:  "PushBatch latency by batch size",
		xLabel: "batch size (items)", yLabel: "ns per batch push",
		procs: procsFor(r.bench("PushBatch")),
		refs: []reference{
			{label: "paper: lfqueue < 500 ns, flat", pts: []point{exact(1, paper.pushLFBound), exact(1024, paper.pushLFBound)}, line: true},
			{label: "paper: Taskflow ≈ 5000 ns at 1024", pts: []point{exact(1024, paper.pushTaskflow1024)}},
		},
		notes: noteIf(timedNote(curveNames(cs), func(c contender) string { return c.batch })),
	}
	all := r.seriesOf(cs)
	panelOf := func(name string) int {
		if i := contenderIndex(name); i >= 0 {
			if j := slices.IndexFunc(batchPanels, func(p struct{ desc, title string }) bool { return p.desc == contenders[i].batch }); j >= 0 {
				return j
			}
		}
		return len(batchPanels) // a queue the report does not know
	}
	groups := make([][]series, len(batchPanels)+1)
	for _, s := range all {
		groups[panelOf(s.name)] = append(groups[panelOf(s.name)], s)
	}
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		title := "other queues"
		if i < len(batchPanels) {
			title = batchPanels[i].title
		}
		var context []series
		for _, s := range all {
			if panelOf(s.name) != i {
				context = append(context, s)
			}
		}
		f.panels = append(f.panels, &figure{title: title, xLabel: f.xLabel, series: g, context: context, refs: f.refs})
	}
	if len(f.panels) == 1 {
		f.series, f.panels = all, nil
		return f
	}
	f.series = all        // the figure's queues, for its caption's counts
	f.yLabel = "ns/batch" // beside a panel, the longer label would set its height
	f.notes = append(f.notes, "In grey behind each panel: the queues of the other panels.")
	return f
}

// masterFigure returns the figure of the master's capacity, hand-offs per
// second of its busy time: a point per queue when the runs have one worker
// count besides 1, a curve per queue over the worker counts with more, or
// nil without results.
func (r *report) masterFigure() *figure {
	cs := r.masterCurves("capacity-steals/s", 1e-6)
	if len(cs) == 0 {
		return nil
	}
	f := &figure{
		title:  "Master capacity: hand-offs per second of the master's busy time",
		xLabel: "workers", yLabel: "million hand-offs per second",
		procs: procsFor(r.bench("MasterCapacity")),
	}
	var ks []float64
	for _, c := range cs {
		for _, p := range c.pts {
			if !slices.Contains(ks, p.x) {
				ks = append(ks, p.x)
			}
		}
	}
	if len(ks) > 1 {
		f.series, f.group = r.seriesOf(cs), workers
		return f
	}
	f.title = fmt.Sprintf("Master capacity with %s: hand-offs per second of its busy time", workers(ks[0]))
	f.xLabel = ""
	var names []string
	var stats []Stat
	for _, c := range cs {
		names, stats = append(names, c.name), append(stats, c.pts[0].Stat)
	}
	return r.queueFigure(names, stats, f)
}

// curveNames returns the names of the curves.
func curveNames(cs []curve) []string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return names
}

// noteIf returns a list of the note, or none if it is empty.
func noteIf(note string) []string {
	if note == "" {
		return nil
	}
	return []string{note}
}

// speedupFigure returns the one figure of the DAG speedups over one worker,
// every work distribution and mode in it, or nil if no run has more than
// one worker. When the runs have one worker count besides 1, as on a small
// machine, it is a bar chart with a group for each work and mode; with more
// worker counts, it has a panel of curves over the workers for each.
func (r *report) speedupFigure() *figure {
	dag := r.bench("DAG")
	type combo struct {
		label string
		sp    []curve
	}
	var combos []combo
	var ks []float64 // worker counts above 1
	for _, work := range distinct(dag, "work") {
		for _, mode := range distinct(dag, "mode") {
			sp := speedups(r.dagCurves(work, mode))
			for _, c := range sp {
				for _, p := range c.pts {
					if p.x > 1 && !slices.Contains(ks, p.x) {
						ks = append(ks, p.x)
					}
				}
			}
			if len(sp) > 0 {
				combos = append(combos, combo{fmt.Sprintf("%s work, %s mode", work, mode), sp})
			}
		}
	}
	if len(ks) == 0 {
		return nil // one worker only: no speedup to show
	}
	f := &figure{
		title:  "DAG exploration speedup over 1 worker",
		xLabel: "workers", yLabel: "speedup over 1 worker",
		procs: procsFor(dag),
		notes: []string{
			"Speedup: the queue's median time at 1 worker over its median time, in the same mode and work; whiskers span the ratios of the two runs' bounds.",
			"The paper: " + paper.dagSpeedupRemark + ".",
		},
	}
	if len(ks) == 1 {
		// One group of bars per work and mode, at the one worker count.
		k := ks[0]
		f.title = fmt.Sprintf("DAG exploration speedup with %s over 1 worker", workers(k))
		f.grouped = true
		f.xLabel = ""
		f.group = func(x float64) string { return strings.Replace(combos[int(x)].label, ", ", "\n", 1) }
		bySeries := map[string]int{}
		for i, cb := range combos {
			for _, c := range cb.sp {
				j, ok := bySeries[c.name]
				if !ok {
					j = len(f.series)
					bySeries[c.name] = j
					f.series = append(f.series, series{name: c.name, look: r.look(c.name)})
				}
				for _, p := range c.pts {
					if p.x == k {
						f.series[j].pts = append(f.series[j].pts, point{float64(i), p.Stat})
					}
				}
			}
		}
		f.refs = []reference{{label: fmt.Sprintf("linear speedup (%s×)", num(k)), pts: []point{exact(0, k)}, span: true}}
		return f
	}
	f.yLabel = "speedup" // beside a panel, the longer label would set its height
	for _, cb := range combos {
		panel := &figure{title: cb.label, xLabel: "workers", series: r.seriesOf(cb.sp), group: workers}
		panel.refs = []reference{linearSpeedup(panel.xs())}
		f.panels = append(f.panels, panel)
	}
	return f
}

// linearSpeedup returns the reference line of a speedup equal to the
// worker or core count, at the counts xs.
func linearSpeedup(xs []float64) reference {
	linear := reference{label: "linear speedup", line: true}
	for _, x := range xs {
		linear.pts = append(linear.pts, exact(x, x))
	}
	return linear
}

// forkJoinNote says what BenchmarkForkJoin times.
const forkJoinNote = "What is timed: one whole computation of fib by binary recursion (BenchmarkForkJoin); coarse: fib(34), forking the calls above fib(17), about 10 µs of serial work per leaf; fine: fib(27), forking every call, the pure cost of a fork. " +
	"pool-Q: a sched.Pool on queue Q (GOMAXPROCS workers), Fork and Future.Join; join-Q: the same pool with sched.Join; goroutines: a goroutine and a WaitGroup per fork; errgroup: an errgroup.Group per fork; cps-Q: sched.Run with continuations."

// forkJoinFigure returns the figure of BenchmarkForkJoin's scaling, run
// with -cpu: a panel per work, the speedup of each implementation over its
// own time on one core against the core count, or nil if the results hold
// one core count (or none).
func (r *report) forkJoinFigure() *figure {
	rows := r.bench("ForkJoin")
	if len(distinctProcs(rows)) < 2 {
		return nil
	}
	f := &figure{
		title:  "Fork-join speedup over 1 core",
		xLabel: "cores (GOMAXPROCS)", yLabel: "speedup over 1 core",
		notes: []string{
			"Speedup: an implementation's median time at GOMAXPROCS 1 over its median time at GOMAXPROCS N, on the same work; whiskers span the ratios of the two runs' bounds.",
			forkJoinNote,
		},
	}
	for _, work := range ordered(distinct(rows, "work")) {
		sp := r.forkJoinSpeedups(work)
		if len(sp) == 0 {
			continue
		}
		panel := &figure{title: work + " work", xLabel: f.xLabel, series: r.seriesOf(sp), lines: true}
		panel.refs = []reference{linearSpeedup(panel.xs())}
		f.panels = append(f.panels, panel)
	}
	if len(f.panels) == 0 {
		return nil // no implementation ran on one core
	}
	f.yLabel = "speedup" // beside a panel, the longer label would set its height
	return f
}

// thievesNote says what BenchmarkThieves times.
const thievesNote = "What is timed: the owner's Push and Pop of one item at its end of a queue that holds a backlog, while K thieves steal from the other end, one item at a time (steal=one) or a tenth of the queue (steal=part), BenchmarkThieves; " +
	"the owner's top-ups of the backlog are left out (topup-ns/op). Slowdown: the owner's time per push and pop with K thieves over its time with none, measured just before."

// thievesFigure returns the figure of the owner's slowdown among thieves:
// a panel per kind of steal with a line per queue over the thief counts,
// or, when the results have one thief count besides 0 (GOMAXPROCS 2), the
// queues side by side at it. It returns nil without a run with thieves.
func (r *report) thievesFigure() *figure {
	rows := r.bench("Thieves")
	var ks []float64 // thief counts above 0
	for _, k := range distinctInts(rows, "thieves") {
		if k > 0 {
			ks = append(ks, float64(k))
		}
	}
	if len(ks) == 0 {
		return nil
	}
	f := &figure{
		title:  "The owner's push and pop slowed down by thieves",
		xLabel: "thieves", yLabel: "slowdown",
		procs: procsFor(rows),
		refs:  []reference{{label: "no slowdown", pts: []point{exact(0, 1)}, span: true}},
		notes: []string{thievesNote},
	}
	for _, steal := range distinct(rows, "steal") {
		cs := r.thievesCurves(steal)
		panel := &figure{title: "steal=" + steal, xLabel: f.xLabel, refs: f.refs}
		switch steal {
		case "one":
			panel.title = "one item per steal (steal=one)"
		case "part":
			panel.title = "a tenth of the queue per steal (steal=part)"
		}
		if len(ks) > 1 {
			panel.series, panel.lines = r.seriesOf(cs), true
		} else {
			// The queues side by side at the one thief count.
			var names []string
			var stats []Stat
			for _, c := range cs {
				for _, p := range c.pts {
					if p.x == ks[0] {
						names, stats = append(names, c.name), append(stats, p.Stat)
					}
				}
			}
			r.queueFigure(names, stats, panel)
			panel.xLabel = ""
		}
		if len(panel.series) > 0 {
			f.panels = append(f.panels, panel)
		}
	}
	if len(f.panels) == 0 {
		return nil
	}
	if len(ks) == 1 {
		f.title = fmt.Sprintf("The owner's push and pop slowed down by %s", plural(int(ks[0]), "thief", "thieves"))
	}
	return f
}

// versusFigure returns the figure of the pool against goroutines and
// errgroup: for each workload the results allow, the time of the pool's
// forms and errgroup over the goroutines', as bars on a linear scale, or
// nil without one.
func (r *report) versusFigure() *figure {
	vs := r.versus()
	if len(vs) == 0 {
		return nil
	}
	f := &figure{
		title:   "The pool against goroutines and errgroup",
		yLabel:  "time over the goroutines' time",
		grouped: true, linear: true, labels: true,
		group: func(x float64) string { return strings.Replace(vs[int(x)].name, ", ", "\n", 1) },
		refs:  []reference{{label: "goroutines (inject: a channel)", pts: []point{exact(0, 1)}, span: true}},
		notes: versusNotes(vs),
	}
	for _, v := range vs {
		f.procs = max(f.procs, v.procs)
	}
	for _, vsr := range versusSeries {
		s := series{name: vsr.name, look: r.look(vsr.look)}
		for i, v := range vs {
			if e, ok := v.find(vsr.name); ok {
				s.pts = append(s.pts, point{float64(i), v.rel(e)})
			}
		}
		if len(s.pts) > 0 {
			f.series = append(f.series, s)
		}
	}
	return f
}

// versusNotes returns the notes of the pool-against-goroutines figure and
// table: what the bars are, and what each benchmark present compares.
func versusNotes(vs []versus) []string {
	notes := []string{
		"Each bar: a contender's median time over the goroutines' on the same workload, at the most GOMAXPROCS it ran at (below 1: faster than goroutines); whiskers: the ratios of the two runs' bounds.",
		"Every bar compares like with like: the same work at equal concurrency limits and with the same cutoff for each contender, except where said below.",
	}
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v.bench] {
			continue
		}
		seen[v.bench] = true
		switch v.bench {
		case "ForkJoin":
			notes = append(notes, "Fork-join: fib(34) forking above fib(17) (coarse), fib(27) forking every call (fine), the same forks for each; pool: pool-bq (Fork, Future.Join); pool, sched.Join: join-bq; goroutines: a goroutine and a WaitGroup per fork; errgroup: a Group per fork.")
		case "NQueens":
			notes = append(notes, "N-queens (n = 12): pool: pool-bq, a task per queen down to the last 9 rows; goroutines: a goroutine per queen down to the same row; each searches the rest serially.")
		case "BlockingWalk":
			notes = append(notes, "Blocking walk (2,964 directories, each listing sleeping 200 µs): at most 16 listings at once for each; pool: pool-max16 (MaxBlocked 16, Task.Block); goroutines: one per directory, a semaphore of 16; errgroup: SetLimit(16).")
		case "Inject":
			notes = append(notes, "Inject: 10,000 tiny tasks fed one at a time by 1 or 4 producers, time per task; pool: Group.Go with a nil Task; channel, in the goroutines' place: GOMAXPROCS goroutines receiving funcs from one buffered channel.")
		}
	}
	return notes
}

// stealAmountNote says what BenchmarkStealAmount times, and what each
// steal choice takes.
const stealAmountNote = "What is timed: one whole run of each workload with GOMAXPROCS workers on blockq queues (bq), BenchmarkStealAmount: " +
	"dag-uniform, dag-pareto: a DAG explored with sched.Run, uniform or Pareto node costs; " +
	"fj-fine: fib(27) forking every call, fj-coarse: fib(34) forking above fib(17), each with Fork and Future.Join on a Pool (-pool) or with sched.Join (-join); " +
	"nqueens: 12 queens on a Pool, a task per queen down to the last 9 rows; walk: the blocking directory walk on a Pool (Task.Block); " +
	"flat: a task forks a burst of tiny tasks in a loop and joins them. " +
	"Steal choices: auto, the scheduler's own choice at each steal (sched's zero Config.Proportion; see Load balancing in sched's documentation); " +
	"one: one item per steal (Config.StealOne, and Proportion wsq.OneItem); 0.1, 0.5, 0.9: that proportion of the victim's queue."

// stealAmountNotes returns the notes of the steal-amount figure and
// table. They say what a value is, whether auto meets its target, and
// what is timed.
func stealAmountNotes(srs []stealRow) []string {
	notes := []string{fmt.Sprintf("Each value: a steal choice's median time over the best fixed choice's, on the same workload and mode; "+
		"the best fixed choice has the least median of the fixed ones (1 by definition). Whiskers and intervals: the ratios of the two runs' bounds. "+
		"The target for auto: %s or less, within %.0f %% of the best fixed choice.", num(stealTarget), 100*(stealTarget-1))}
	var rows int
	var over []string
	for _, sr := range srs {
		if _, ok := sr.times[stealAuto]; !ok {
			continue
		}
		rows++
		if rel := sr.rel(stealAuto); rel.Median > stealTarget {
			over = append(over, fmt.Sprintf("%s %s (%s)", sr.work, sr.mode, num(rel.Median)))
		}
	}
	if rows > 0 {
		verdict := fmt.Sprintf("In %d of %s, auto's median is within %.0f %% of the best fixed choice's.",
			rows-len(over), plural(rows, "row", "rows"), 100*(stealTarget-1))
		if len(over) > 0 {
			verdict = strings.TrimSuffix(verdict, ".") + "; over it: " + strings.Join(over, ", ") + "."
		}
		notes = append(notes, verdict)
	}
	return append(notes, stealAmountNote)
}

// stealAmountFigure returns the figure of BenchmarkStealAmount, or nil
// without results. It has a panel per mode, one above the other, and a
// group per workload in each. A group shows each steal choice's time
// over the best fixed choice's. The values lie near 1, so markers show
// them on a fitted linear axis. Auto's target is dashed.
func (r *report) stealAmountFigure() *figure {
	srs := r.stealRows()
	if len(srs) == 0 {
		return nil
	}
	target := []reference{{label: fmt.Sprintf("auto's target (%s)", num(stealTarget)), pts: []point{exact(0, stealTarget)}, span: true}}
	f := &figure{
		title:  "How much a steal takes: the scheduler's own choice (auto) against fixed ones",
		yLabel: "time over the best fixed choice's",
		linear: true, fit: true, column: true,
		procs: procsFor(r.bench("StealAmount")),
		refs:  target,
		notes: stealAmountNotes(srs),
	}
	choices := r.stealChoices()
	looks := make([]style, len(choices))
	unknown := 0
	for i, c := range choices {
		looks[i] = stealLook(c, unknown)
		if !slices.ContainsFunc(stealLooks, func(l contender) bool { return l.name == c }) {
			unknown++
		}
	}
	var modes []string
	for _, sr := range srs {
		if !slices.Contains(modes, sr.mode) {
			modes = append(modes, sr.mode)
		}
	}
	for _, mode := range modes {
		var works []stealRow
		for _, sr := range srs {
			if sr.mode == mode {
				works = append(works, sr)
			}
		}
		panel := &figure{
			title: mode + " mode", grouped: true, linear: true, fit: true, refs: target,
			group: func(x float64) string { return workLabel(works[int(x)].work) },
		}
		for i, c := range choices {
			s := series{name: "steal=" + c, look: looks[i]}
			for j, sr := range works {
				if _, ok := sr.times[c]; ok {
					s.pts = append(s.pts, point{float64(j), sr.rel(c)})
				}
			}
			if len(s.pts) > 0 {
				panel.series = append(panel.series, s)
			}
		}
		f.panels = append(f.panels, panel)
	}
	if len(f.panels) == 1 {
		p := f.panels[0]
		f.title += ", " + p.title
		f.series, f.group, f.grouped, f.panels = p.series, p.group, true, nil
	}
	return f
}

// workLabel names a workload under its group. A name with dashes breaks
// before its last part, "fj-fine" over "pool", so that the names fit
// side by side.
func workLabel(work string) string {
	if i := strings.LastIndex(work, "-"); i > 0 {
		return work[:i] + "\n" + work[i+1:]
	}
	return work
}
