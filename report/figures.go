package main

import (
	"fmt"
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

// pushCurves returns ns per batch against batch size, one curve per queue.
func (r *report) pushCurves() []curve {
	rows := r.bench("Push")
	procs := procsFor(rows)
	var cs []curve
	for _, q := range distinct(rows, "queue") {
		c := curve{name: q}
		for _, b := range distinctInts(rows, "batch") {
			if row, ok := lookup(rows, procs, map[string]string{"queue": q, "batch": strconv.Itoa(b)}); ok {
				if v, ok := row.Value("ns/op"); ok {
					c.pts = append(c.pts, xy{float64(b), v})
				}
			}
		}
		if len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// stealCurves returns ns per steal against the proportion in percent, one
// curve per queue, for queues of n items.
func (r *report) stealCurves(n int) []curve {
	rows := r.bench("Steal")
	procs := procsFor(rows)
	var cs []curve
	for _, q := range distinct(rows, "queue") {
		c := curve{name: q}
		for _, p := range distinctInts(rows, "p") {
			want := map[string]string{"queue": q, "n": strconv.Itoa(n), "p": strconv.Itoa(p)}
			if row, ok := lookup(rows, procs, want); ok {
				if v, ok := row.Value("ns/op"); ok {
					c.pts = append(c.pts, xy{float64(p), v})
				}
			}
		}
		if len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

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
	rows := r.bench("DAG")
	procs := procsFor(rows)
	var cs []curve
	for _, q := range distinct(rows, "queue") {
		c := curve{name: q}
		for _, k := range distinctInts(rows, "workers") {
			want := map[string]string{"queue": q, "mode": mode, "work": work, "workers": strconv.Itoa(k)}
			if row, ok := lookup(rows, procs, want); ok {
				if v, ok := row.Value("ns/op"); ok {
					c.pts = append(c.pts, xy{float64(k), v / 1e9})
				}
			}
		}
		if len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// ceilingCurve returns seconds per run of BenchmarkDAGCeiling (the same
// busy work split over goroutines that share nothing) against workers.
func (r *report) ceilingCurve() curve {
	rows := r.bench("DAGCeiling")
	procs := procsFor(rows)
	c := curve{name: "ceiling: the busy work alone, split evenly"}
	for _, k := range distinctInts(rows, "workers") {
		if row, ok := lookup(rows, procs, map[string]string{"workers": strconv.Itoa(k)}); ok {
			if v, ok := row.Value("ns/op"); ok {
				c.pts = append(c.pts, xy{float64(k), v / 1e9})
			}
		}
	}
	return c
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
	rows := r.bench("MasterCapacity")
	procs := procsFor(rows)
	var cs []curve
	for _, q := range distinct(rows, "queue") {
		c := curve{name: q}
		for _, k := range distinctInts(rows, "workers") {
			if row, ok := lookup(rows, procs, map[string]string{"queue": q, "workers": strconv.Itoa(k)}); ok {
				if v, ok := row.Value(unit); ok {
					c.pts = append(c.pts, xy{float64(k), v})
				}
			}
		}
		if len(c.pts) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
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
