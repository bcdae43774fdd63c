package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// The paper's figures, as far as its text states them (Kataru, Davarnia,
// Jannesari 2026; see DESIGN.md §6). Only stated values are drawn; the plots
// mark them "paper".
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
}

func (r *report) bench(name string) []Row { return filter(r.rows, name) }

// procsFor returns the GOMAXPROCS whose rows the report shows for a
// benchmark: the largest present.
func procsFor(rows []Row) int {
	ps := distinctProcs(rows)
	if len(ps) == 0 {
		return 0
	}
	return ps[len(ps)-1]
}

// xy is one point of a curve.
type xy struct{ x, y float64 }

// curve is a named series of points, sorted by x.
type curve struct {
	name string
	pts  []xy
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
		if c := r.curve(rows, q, want, x, unit, scale); len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// curve returns the curve named name of the metric unit (scaled by scale)
// against the integer parameter x, over the rows matching want.
func (r *report) curve(rows []Row, name string, want map[string]string, x, unit string, scale float64) curve {
	procs := procsFor(rows)
	c := curve{name: name}
	for _, k := range distinctInts(rows, x) {
		want[x] = strconv.Itoa(k)
		if row, ok := lookup(rows, procs, want); ok {
			if v, ok := row.Value(unit); ok {
				c.pts = append(c.pts, xy{float64(k), v * scale})
			}
		}
	}
	return c
}

// pushCurves returns ns per batch against batch size, one curve per queue.
func (r *report) pushCurves() []curve { return r.curves("Push", nil, "batch", "ns/op", 1) }

// popBars returns ns per pop by queue.
func (r *report) popBars() (names []string, ns []float64) {
	rows := r.bench("Pop")
	procs := procsFor(rows)
	for _, q := range distinct(rows, "queue") {
		if row, ok := lookup(rows, procs, map[string]string{"queue": q}); ok {
			if v, ok := row.Value("ns/op"); ok {
				names = append(names, q)
				ns = append(ns, v)
			}
		}
	}
	return names, ns
}

// dagCurves returns seconds per exploration against workers, one curve per
// queue, for one work distribution and mode.
func (r *report) dagCurves(work, mode string) []curve {
	return r.curves("DAG", map[string]string{"mode": mode, "work": work}, "workers", "ns/op", 1e-9)
}

// ceilingCurve returns seconds per run of BenchmarkDAGCeiling (the same
// busy work split over goroutines that share nothing) against workers.
func (r *report) ceilingCurve() curve {
	return r.curve(r.bench("DAGCeiling"), "ceiling: the busy work alone, split evenly", map[string]string{}, "workers", "ns/op", 1e-9)
}

// speedups turns time curves into speedup over one worker; a curve without
// a one-worker point is left out.
func speedups(cs []curve) []curve {
	var out []curve
	for _, c := range cs {
		i := slices.IndexFunc(c.pts, func(p xy) bool { return p.x == 1 })
		if i < 0 {
			continue
		}
		base := c.pts[i].y
		s := curve{name: c.name}
		for _, p := range c.pts {
			s.pts = append(s.pts, xy{p.x, base / p.y})
		}
		out = append(out, s)
	}
	return out
}

// masterCurves returns a metric of BenchmarkMasterCapacity against workers,
// one curve per queue.
func (r *report) masterCurves(unit string) []curve {
	return r.curves("MasterCapacity", nil, "workers", unit, 1)
}

// num formats a value with about three significant digits.
func num(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
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
