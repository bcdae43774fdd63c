package main

import (
	"slices"
	"strconv"
)

// Row summarizes the samples of one benchmark at one GOMAXPROCS: the median
// (and range) of each metric.
type Row struct {
	Name, Bench string
	Params      map[string]string
	Procs       int
	N           int // samples
	Median      map[string]float64
	Min, Max    map[string]float64
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
	v, ok := r.Median[unit]
	return v, ok
}

// Summarize groups samples by name and GOMAXPROCS, in order of first
// appearance, and takes the median of each metric.
func Summarize(samples []Sample) []Row {
	type key struct {
		name  string
		procs int
	}
	index := map[key]int{}
	var rows []Row
	values := map[key]map[string][]float64{}
	for _, s := range samples {
		k := key{s.Name, s.Procs}
		if _, ok := index[k]; !ok {
			index[k] = len(rows)
			rows = append(rows, Row{Name: s.Name, Bench: s.Bench, Params: s.Params, Procs: s.Procs})
			values[k] = map[string][]float64{}
		}
		rows[index[k]].N++
		for unit, v := range s.Metrics {
			values[k][unit] = append(values[k][unit], v)
		}
	}
	for k, i := range index {
		r := &rows[i]
		r.Median, r.Min, r.Max = map[string]float64{}, map[string]float64{}, map[string]float64{}
		for unit, vs := range values[k] {
			slices.Sort(vs)
			r.Median[unit] = median(vs)
			r.Min[unit], r.Max[unit] = vs[0], vs[len(vs)-1]
		}
	}
	return rows
}

// median returns the median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// filter returns the rows of one top-level benchmark.
func filter(rows []Row, bench string) []Row {
	var out []Row
	for _, r := range rows {
		if r.Bench == bench {
			out = append(out, r)
		}
	}
	return out
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
