package main

import (
	"math"
	"slices"
	"strconv"

	"golang.org/x/perf/benchmath"
)

// confidence is the level of the intervals the report gives, benchstat's.
const confidence = 0.95

// Stat summarizes the samples of one metric of one benchmark as benchstat
// does: the median and its 95 % confidence interval (distribution-free, from
// order statistics), plus the smallest and largest sample.
type Stat struct {
	// N is the number of samples.
	N int
	// Median is the median of the samples.
	Median float64
	// Lo and Hi bound the confidence interval of the median; they are
	// infinite when there are too few samples for one (fewer than 6 at
	// 95 %), where benchstat prints "± ∞".
	Lo, Hi float64
	// Min and Max are the extreme samples.
	Min, Max float64
}

// newStat summarizes values, which it does not modify.
func newStat(values []float64) Stat {
	vs := slices.Clone(values)
	sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(vs, &benchmath.DefaultThresholds), confidence)
	return Stat{N: len(vs), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Min: vs[0], Max: vs[len(vs)-1]}
}

// HasCI reports whether the confidence interval is finite.
func (s Stat) HasCI() bool { return !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) }

// CI formats the interval as benchstat does after the median: "± 3%", or
// "± ∞" when there are too few samples.
func (s Stat) CI() string {
	return "± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
}

// Row summarizes the samples of one benchmark at one GOMAXPROCS.
type Row struct {
	Name, Bench string
	Params      map[string]string
	Procs       int
	N           int // samples
	// Stats summarizes each metric, by unit.
	Stats map[string]Stat
}

// Param returns the value of a key=value part of the row's name.
func (r Row) Param(key string) string { return r.Params[key] }

// Int returns a numeric parameter, or -1.
func (r Row) Int(key string) int {
	v, err := strconv.Atoi(r.Params[key])
	if err != nil {
		return -1
	}
	return v
}

// Value returns the median of a metric and whether the row has it.
func (r Row) Value(unit string) (float64, bool) {
	s, ok := r.Stats[unit]
	return s.Median, ok
}

// Stat returns the summary of a metric and whether the row has it.
func (r Row) Stat(unit string) (Stat, bool) {
	s, ok := r.Stats[unit]
	return s, ok
}

// Summarize groups samples by name and GOMAXPROCS, in order of first
// appearance, and summarizes each metric.
func Summarize(samples []Sample) []Row {
	type key struct {
		name  string
		procs int
	}
	index := map[key]int{}
	var rows []Row
	var values []map[string][]float64
	for _, s := range samples {
		k := key{s.Name, s.Procs}
		i, ok := index[k]
		if !ok {
			i = len(rows)
			index[k] = i
			rows = append(rows, Row{Name: s.Name, Bench: s.Bench, Params: s.Params, Procs: s.Procs})
			values = append(values, map[string][]float64{})
		}
		rows[i].N++
		for unit, v := range s.Metrics {
			values[i][unit] = append(values[i][unit], v)
		}
	}
	for i := range rows {
		rows[i].Stats = map[string]Stat{}
		for unit, vs := range values[i] {
			rows[i].Stats[unit] = newStat(vs)
		}
	}
	return rows
}

// distinct returns the distinct values of a parameter in order of first
// appearance.
func distinct(rows []Row, key string) []string {
	var out []string
	for _, r := range rows {
		if v, ok := r.Params[key]; ok && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// distinctInts returns the distinct numeric values of a parameter, sorted.
func distinctInts(rows []Row, key string) []int {
	var out []int
	for _, r := range rows {
		if v := r.Int(key); v >= 0 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// distinctProcs returns the GOMAXPROCS values present, sorted.
func distinctProcs(rows []Row) []int {
	var out []int
	for _, r := range rows {
		if !slices.Contains(out, r.Procs) {
			out = append(out, r.Procs)
		}
	}
	slices.Sort(out)
	return out
}

// lookup returns the row whose parameters include all of want, at procs.
func lookup(rows []Row, procs int, want map[string]string) (Row, bool) {
	for _, r := range rows {
		if r.Procs != procs {
			continue
		}
		ok := true
		for k, v := range want {
			if r.Params[k] != v {
				ok = false
				break
			}
		}
		if ok {
			return r, true
		}
	}
	return Row{}, false
}
