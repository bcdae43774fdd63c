package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The work and span of the workloads (BenchmarkSpan) against their
// measured speedups. Each workload of BenchmarkSpan is a measured run of
// a timed benchmark's workload; its figures give Cilkview's two bounds on
// the speedup on P workers, and the timed benchmark's runs at 1 and more
// workers give the speedup measured on this machine, and on one with more
// cores (-multicore) where it ran the workload.

// spanWorkers are the worker counts at which the plots draw the bounds.
var spanWorkers = []float64{1, 2, 4, 8, 16, 32, 64}

// spanFigures are the workloads of each span figure, by the prefix of
// their names, and its file.
var spanFigures = []struct {
	file, title string
	prefixes    []string
}{
	{"span-speedup.png", "Speedup bounds from work and span: fork-join, trees, blocking", []string{"forkjoin-", "dag-", "nqueens", "blockingwalk"}},
	{"span-speedup-loops.png", "Speedup bounds from work and span: loops and sorts", []string{"loop-", "sort-"}},
}

// timedRows names the rows of the timed benchmark whose workload a
// BenchmarkSpan workload measures: a benchmark and its parameters, its
// runs at each GOMAXPROCS (-cpu), or, for the DAG, at each workers=N.
type timedRows struct {
	bench     string
	params    map[string]string
	byWorkers bool
}

// timedOf returns the timed rows of the workload work, and false for a
// workload the report does not know.
func timedOf(work string) (timedRows, bool) {
	switch {
	case strings.HasPrefix(work, "forkjoin-"):
		return timedRows{bench: "ForkJoin", params: map[string]string{"impl": "join-bq", "work": strings.TrimPrefix(work, "forkjoin-")}}, true
	case strings.HasPrefix(work, "dag-"):
		parts := strings.Split(work, "-") // dag-WORK-MODE
		if len(parts) != 3 {
			return timedRows{}, false
		}
		return timedRows{bench: "DAG", params: map[string]string{"queue": "bq", "work": parts[1], "mode": parts[2]}, byWorkers: true}, true
	case work == "nqueens":
		return timedRows{bench: "NQueens", params: map[string]string{"impl": "pool-bq"}}, true
	case strings.HasPrefix(work, "loop-"):
		return timedRows{bench: "Loop", params: map[string]string{"work": strings.TrimPrefix(work, "loop-"), "impl": "wsq"}}, true
	case strings.HasPrefix(work, "sort-"):
		return timedRows{bench: "Sort", params: map[string]string{"data": strings.TrimPrefix(work, "sort-"), "impl": "wsq"}}, true
	case work == "blockingwalk":
		return timedRows{bench: "BlockingWalk", params: map[string]string{"impl": "pool"}}, true
	}
	return timedRows{}, false
}

// measuredSpeedup returns the speedup over one worker of the timed rows
// of work in r, against the workers, or a curve without points.
func (r *report) measuredSpeedup(work, name string) curve {
	tr, ok := timedOf(work)
	if r == nil || !ok {
		return curve{name: name}
	}
	rows := r.bench(tr.bench)
	c := curve{name: name}
	if tr.byWorkers {
		c = curveOf(rows, name, maps.Clone(tr.params), "workers", "ns/op", 1)
	} else {
		for _, p := range distinctProcs(rows) {
			if row, ok := lookup(rows, p, tr.params); ok {
				if s, ok := row.Stat("ns/op"); ok {
					c.pts = append(c.pts, point{float64(p), s})
				}
			}
		}
	}
	sp := speedups([]curve{c})
	if len(sp) == 0 || len(sp[0].pts) < 2 {
		return curve{name: name}
	}
	return sp[0]
}

// spanRow is a workload's BenchmarkSpan figures: medians over its
// samples.
type spanRow struct {
	work                  string
	workNs, spanNs, bspan float64
	burden                float64 // ns, 0 if not reported
	samples               int
}

// parallelism returns work / span.
func (s spanRow) parallelism() float64 { return s.workNs / s.spanNs }

// burdened returns work / burdened span.
func (s spanRow) burdened() float64 { return s.workNs / s.bspan }

// bounds returns Cilkview's bounds on p workers: the burdened-dag
// estimate and the span bound (see sched.Profile.Bounds).
func (s spanRow) bounds(p float64) (lo, hi float64) {
	return s.workNs / (s.workNs/p + s.bspan), min(p, s.parallelism())
}

// spanRows returns the BenchmarkSpan workloads, in order, at the largest
// GOMAXPROCS they ran at.
func (r *report) spanRows() []spanRow {
	rows := r.bench("Span")
	procs := procsFor(rows)
	var out []spanRow
	for _, w := range distinct(rows, "work") {
		row, ok := lookup(rows, procs, map[string]string{"work": w})
		if !ok {
			continue
		}
		work, ok1 := row.Value("work-ns")
		span, ok2 := row.Value("span-ns")
		bspan, ok3 := row.Value("burdened-span-ns")
		if !ok1 || !ok2 || !ok3 || work <= 0 || span <= 0 || bspan <= 0 {
			continue
		}
		burden, _ := row.Value("burden-ns")
		out = append(out, spanRow{work: w, workNs: work, spanNs: span, bspan: bspan, burden: burden, samples: row.N})
	}
	return out
}

// The styles of the span figures' series: the estimate in grey, this
// machine's speedups in blue, the other machine's in orange.
var (
	estimateStyle = style{color: rgb(0x80, 0x80, 0x80), glyph: draw.RingGlyph{}, width: vg.Points(1.6)}
	hereStyle     = style{color: rgb(0x43, 0x63, 0xD8), glyph: draw.CircleGlyph{}, width: vg.Points(1.6)}
	farStyle      = style{color: rgb(0xF5, 0x82, 0x31), glyph: draw.SquareGlyph{}, width: vg.Points(1.6)}
)

// Series and reference names of the span figures.
const (
	estimateName = "burdened-dag estimate T₁/(T₁/P + burdened span)"
	boundName    = "span bound min(P, T₁/T∞)"
)

// hereName and farName name the measured speedups of this machine and of
// the other.
func (r *report) hereName() string {
	return fmt.Sprintf("measured, this machine (%s cores)", orUnknown(r.config[keyCores]))
}

func (r *report) farName() string {
	if r.far == nil {
		return ""
	}
	return fmt.Sprintf("measured, %d cores (%s)", procsFor(r.far.rows), r.farLabel)
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// spanCharts returns the span figures the results allow.
func (r *report) spanCharts() []chart {
	rows := r.spanRows()
	if len(rows) == 0 {
		return nil
	}
	var out []chart
	for _, sf := range spanFigures {
		f := &figure{
			title:  sf.title,
			xLabel: "workers P", yLabel: "speedup",
			procs: procsFor(r.bench("Span")),
		}
		for _, sr := range rows {
			if !hasPrefix(sr.work, sf.prefixes) {
				continue
			}
			f.panels = append(f.panels, r.spanPanel(sr))
		}
		if len(f.panels) == 0 {
			continue
		}
		f.notes = r.spanNotes(rows)
		out = append(out, chart{sf.file, f})
	}
	return out
}

// hasPrefix reports whether s starts with one of the prefixes.
func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// spanPanel returns the panel of one workload: the estimate, the
// measured speedups, and the span bound.
func (r *report) spanPanel(sr spanRow) *figure {
	p := &figure{
		title:  fmt.Sprintf("%s: T₁/T∞ %s, burdened %s", sr.work, num(sr.parallelism()), num(sr.burdened())),
		xLabel: "workers P",
		lines:  true,
	}
	est := series{name: estimateName, look: estimateStyle}
	bound := reference{label: boundName, line: true}
	for _, w := range spanWorkers {
		lo, hi := sr.bounds(w)
		est.pts = append(est.pts, exact(w, lo))
		bound.pts = append(bound.pts, exact(w, hi))
	}
	p.series = append(p.series, est)
	if c := r.measuredSpeedup(sr.work, r.hereName()); len(c.pts) > 0 {
		p.series = append(p.series, series{name: c.name, look: hereStyle, pts: c.pts})
	}
	if c := r.far.measuredSpeedup(sr.work, r.farName()); len(c.pts) > 0 {
		p.series = append(p.series, series{name: c.name, look: farStyle, pts: c.pts})
	}
	p.refs = []reference{bound}
	return p
}

// spanNotes are the caption lines of the span figures.
func (r *report) spanNotes(rows []spanRow) []string {
	burden := "sched.DefaultBurden"
	if len(rows) > 0 && rows[0].burden > 0 {
		burden = duration(rows[0].burden)
	}
	notes := []string{
		"Bounds: from the work T₁, span T∞ and burdened span of a measured run of each workload (BenchmarkSpan, the run of median parallelism), " +
			"with a burden of " + burden + " per fork on a path; a loop counts as its chunks, whatever split the run chose. Cilkview's: no schedule passes the span bound; " +
			"the burdened-dag estimate is what greedy scheduling gives when each steal on the path costs the burden.",
		"Measured: the median time of the timed benchmark at 1 worker over its median at P (GOMAXPROCS P; the DAG: workers=P), on the same workload: " +
			"fork-join join-bq, the DAG bq, n-queens pool-bq, the loops and sorts wsq, the walk pool. Whiskers span the ratios of the two runs' bounds.",
	}
	if r.far != nil {
		notes = append(notes, fmt.Sprintf("%s: %s, with the code of its day, where it ran the workload at 1 worker and more.", r.farName(), machine(r.far.config, procsFor(r.far.rows))))
	}
	return notes
}

// spanMarkdown writes the table of the span figures.
func (r *report) spanMarkdown(b *strings.Builder, img func(file, alt string)) {
	rows := r.spanRows()
	if len(rows) == 0 {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("### Work and span\n\n")
	w("BenchmarkSpan: a measured run of each workload (medians of %s). Bounds on P workers: the span bound min(P, T₁/T∞), which no schedule passes, and the burdened-dag estimate T₁/(T₁/P + burdened span). "+
		"Measured: the timed benchmark's median time at 1 worker over its median at P.\n\n", plural(rows[0].samples, "sample", "samples"))
	head := "| workload | work | span | T₁/T∞ | burdened | estimate at 16 | at 64 | measured at 2 |"
	rule := "|---|---:|---:|---:|---:|---:|---:|---:|"
	if r.far != nil {
		head += fmt.Sprintf(" measured at %d (%s) |", procsFor(r.far.rows), r.farLabel)
		rule += "---:|"
	}
	w("%s\n%s\n", head, rule)
	for _, sr := range rows {
		lo16, _ := sr.bounds(16)
		lo64, _ := sr.bounds(64)
		w("| %s | %s | %s | %s | %s | %s | %s | %s |", sr.work, duration(sr.workNs), duration(sr.spanNs), num(sr.parallelism()), num(sr.burdened()),
			num(lo16), num(lo64), speedupAt(r.measuredSpeedup(sr.work, ""), 2))
		if r.far != nil {
			w(" %s |", speedupAt(r.far.measuredSpeedup(sr.work, ""), float64(procsFor(r.far.rows))))
		}
		w("\n")
	}
	w("\n")
	for _, sf := range spanFigures {
		img(sf.file, strings.ToLower(sf.title))
	}
}

// speedupAt formats the median speedup of c at x, or "–".
func speedupAt(c curve, x float64) string {
	for _, p := range c.pts {
		if p.x == x {
			return num(p.Median) + "×"
		}
	}
	return "–"
}

// farLabelOf names the results of another machine by the folder of
// their first file.
func farLabelOf(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return filepath.Base(filepath.Dir(files[0]))
}
