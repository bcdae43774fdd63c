package main

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
)

// paramKeys are the name parameters that get their own CSV column, in order.
var paramKeys = []string{"queue", "mode", "work", "workers", "batch", "n", "p"}

// writeSamples writes every sample as rows of (benchmark, parameters, procs,
// sample index, iterations, unit, value).
func writeSamples(w io.Writer, samples []Sample) error {
	cw := csv.NewWriter(w)
	header := append([]string{"benchmark", "name"}, paramKeys...)
	header = append(header, "procs", "sample", "iterations", "unit", "value")
	if err := cw.Write(header); err != nil {
		return err
	}
	seen := map[string]int{}
	for _, s := range samples {
		key := s.Name + "\x00" + strconv.Itoa(s.Procs)
		idx := seen[key]
		seen[key]++
		for _, unit := range sortedUnits(s.Metrics) {
			rec := []string{s.Bench, s.Name}
			for _, k := range paramKeys {
				rec = append(rec, s.Params[k])
			}
			rec = append(rec, strconv.Itoa(s.Procs), strconv.Itoa(idx), strconv.FormatInt(s.Iters, 10), unit,
				strconv.FormatFloat(s.Metrics[unit], 'g', -1, 64))
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeSummary writes one row per benchmark, GOMAXPROCS and unit with the
// median, minimum and maximum over the samples.
func writeSummary(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	header := append([]string{"benchmark", "name"}, paramKeys...)
	header = append(header, "procs", "samples", "unit", "median", "min", "max")
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		for _, unit := range sortedUnits(r.Median) {
			rec := []string{r.Bench, r.Name}
			for _, k := range paramKeys {
				rec = append(rec, r.Params[k])
			}
			f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
			rec = append(rec, strconv.Itoa(r.Procs), strconv.Itoa(r.N), unit, f(r.Median[unit]), f(r.Min[unit]), f(r.Max[unit]))
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// sortedUnits returns the units with ns/op first and the rest sorted.
func sortedUnits(m map[string]float64) []string {
	units := make([]string, 0, len(m))
	for u := range m {
		units = append(units, u)
	}
	slices.SortFunc(units, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "ns/op":
			return -1
		case b == "ns/op":
			return 1
		case a < b:
			return -1
		}
		return 1
	})
	return units
}
