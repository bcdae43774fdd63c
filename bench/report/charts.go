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

// seriesOf turns curves into a figure's series, each in its queue's style.
func (r *report) seriesOf(cs []curve) []series {
	out := make([]series, len(cs))
	for i, c := range cs {
		out[i] = series{name: c.name, style: r.queueStyle(c.name), pts: c.pts}
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
	return out
}

// queueFigure completes f as a chart of one figure per queue: names on
// the x axis, stats their medians and spreads.
func (r *report) queueFigure(names []string, stats []Stat, f *figure) *figure {
	f.categories = names
	for i, q := range names {
		f.series = append(f.series, series{name: q, style: r.queueStyle(q), pts: []point{{float64(i), stats[i]}}})
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
					f.series = append(f.series, series{name: c.name, style: r.queueStyle(c.name)})
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
		linear := reference{label: "linear speedup", line: true}
		for _, x := range panel.xs() {
			linear.pts = append(linear.pts, exact(x, x))
		}
		panel.refs = []reference{linear}
		f.panels = append(f.panels, panel)
	}
	return f
}
