package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The loop of steps (BenchmarkSteps, and the peers' OpenMP and oneTBB
// rows of bench/peers/cpp/steps.cpp): each row's efficiency at each task
// size, and Task Bench's METG(50 %), the smallest task granularity at
// which an implementation still keeps half of the processors' time in
// its kernels.

// metgEfficiency is the efficiency that METG is the granularity of.
const metgEfficiency = 0.5

// granularityPoint is one row's median task granularity (µs) and
// efficiency.
type granularityPoint struct{ gran, eff float64 }

// metg returns the smallest granularity at which the efficiency is still
// metgEfficiency, interpolated on a logarithmic scale between the two task
// sizes around it, and how it relates to the figure: "=" (found between two
// sizes), "≤" (still at least half at the smallest size, which bounds it
// from above), or ">" (under half at every size). pts are in any order; the
// steps go from the largest granularity down.
func metg(pts []granularityPoint) (float64, string) {
	if len(pts) == 0 {
		return math.NaN(), ""
	}
	pts = slices.Clone(pts)
	slices.SortFunc(pts, func(a, b granularityPoint) int {
		switch {
		case a.gran > b.gran:
			return -1
		case a.gran < b.gran:
			return 1
		}
		return 0
	})
	if pts[0].eff < metgEfficiency {
		return pts[0].gran, ">"
	}
	for k := 1; k < len(pts); k++ {
		hi, lo := pts[k-1], pts[k]
		if lo.eff >= metgEfficiency {
			continue
		}
		frac := (hi.eff - metgEfficiency) / (hi.eff - lo.eff)
		return math.Exp(math.Log(hi.gran) + frac*(math.Log(lo.gran)-math.Log(hi.gran))), "="
	}
	return pts[len(pts)-1].gran, "≤"
}

// stepsMETG returns the METG of the rows of one pattern, width and
// implementation at GOMAXPROCS procs, formatted, or "–".
func stepsMETG(rows []Row, procs int, pattern, width, impl string) string {
	var pts []granularityPoint
	for _, row := range rows {
		if row.Procs != procs || row.Param("pattern") != pattern || row.Param("width") != width || row.Param("impl") != impl {
			continue
		}
		g, ok1 := row.Value("granularity-us")
		e, ok2 := row.Value("efficiency")
		if ok1 && ok2 && g > 0 {
			pts = append(pts, granularityPoint{g, e})
		}
	}
	m, rel := metg(pts)
	switch rel {
	case "":
		return "–"
	case "=":
		return num(m)
	}
	return rel + " " + num(m)
}

// stepsMarkdown writes the steps section: METG(50 %) per pattern and
// width, and the efficiency at each task size of the shapes that the
// targets name.
func (r *report) stepsMarkdown(b *strings.Builder) {
	rows := r.bench("Steps")
	if len(rows) == 0 {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	procs := procsFor(rows)
	impls := distinct(rows, "impl")
	patterns := distinct(rows, "pattern")
	w("### Loop of steps (Task Bench)\n\n")
	w("BenchmarkSteps: T steps of W points, each step started and waited for before the next (GOMAXPROCS %d). "+
		"METG(50 %%) is the smallest task granularity (the op's time × workers ÷ tasks, µs) at which the efficiency "+
		"(the kernels' time ÷ workers × the op's time) is still 0.5, interpolated between task sizes; "+
		"≤: still 0.5 at the smallest size; >: under 0.5 at every size. Smaller is better.\n\n", procs)
	for _, width := range distinct(rows, "width") {
		w("METG(50 %%), µs, W = %s:\n\n| impl |", width)
		for _, p := range patterns {
			w(" %s |", p)
		}
		w("\n|---|%s\n", strings.Repeat("---:|", len(patterns)))
		for _, impl := range impls {
			if strings.HasPrefix(impl, "serial") {
				continue // half of two workers' time, by construction
			}
			w("| %s |", impl)
			for _, p := range patterns {
				w(" %s |", stepsMETG(rows, procs, p, width, impl))
			}
			w("\n")
		}
		w("\n")
	}
	grains := distinct(rows, "grain")
	slices.SortFunc(grains, func(a, b string) int { return grainNs(a) - grainNs(b) })
	for _, width := range distinct(rows, "width") {
		for _, p := range patterns {
			w("Efficiency, %s, W = %s, by task size:\n\n| impl |", p, width)
			for _, g := range grains {
				w(" %s |", g)
			}
			w("\n|---|%s\n", strings.Repeat("---:|", len(grains)))
			for _, impl := range impls {
				w("| %s |", impl)
				for _, g := range grains {
					row, ok := lookup(rows, procs, map[string]string{"pattern": p, "width": width, "grain": g, "impl": impl})
					if !ok {
						w(" – |")
						continue
					}
					w(" %s |", statCell(row, "efficiency", 1))
				}
				w("\n")
			}
			w("\n")
		}
	}
}

// grainNs returns the nanoseconds of a grain's name, such as 90us or
// 250ns, or -1.
func grainNs(name string) int {
	var n int
	if _, err := fmt.Sscanf(name, "%dns", &n); err == nil && strings.HasSuffix(name, "ns") {
		return n
	}
	if _, err := fmt.Sscanf(name, "%dus", &n); err == nil && strings.HasSuffix(name, "us") {
		return 1000 * n
	}
	return -1
}
