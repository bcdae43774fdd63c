package main

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
)

// knownKeys are the name parameters of the module's benchmarks, which get
// their own CSV columns in this order; other keys follow in order of first
// appearance.
var knownKeys = []string{"queue", "mode", "work", "workers", "batch", "n", "p"}

// paramKeys returns the parameter columns for samples.
func paramKeys(samples []Sample) []string {
	keys := slices.Clone(knownKeys)
	for _, s := range samples {
		var extra []string
		for k := range s.Params {
			if !slices.Contains(keys, k) {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra) // map order is random; a name's own order is lost
		keys = append(keys, extra...)
	}
	return keys
}

// formatFloat formats a CSV number exactly.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeSamples writes every sample as rows of (benchmark, parameters, procs,
// sample index, iterations, unit, value).
func writeSamples(w io.Writer, samples []Sample) error {
	keys := paramKeys(samples)
	cw := csv.NewWriter(w)
	header := append([]string{"benchmark", "name"}, keys...)
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
			for _, k := range keys {
				rec = append(rec, s.Params[k])
			}
			rec = append(rec, strconv.Itoa(s.Procs), strconv.Itoa(idx), strconv.Itoa(s.Iters), unit, formatFloat(s.Metrics[unit]))
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeSummary writes one row per benchmark, GOMAXPROCS and unit with the
// median, the smallest and largest sample, and the bounds of the 95 %
// confidence interval of the median (empty when there are too few samples
// for one).
func writeSummary(w io.Writer, rows []Row, samples []Sample) error {
	keys := paramKeys(samples)
	cw := csv.NewWriter(w)
	header := append([]string{"benchmark", "name"}, keys...)
	header = append(header, "procs", "samples", "unit", "median", "min", "max", "ci95_low", "ci95_high")
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		for _, unit := range sortedUnits(r.Stats) {
			st := r.Stats[unit]
			rec := []string{r.Bench, r.Name}
			for _, k := range keys {
				rec = append(rec, r.Params[k])
			}
			lo, hi := "", ""
			if st.HasCI() {
				lo, hi = formatFloat(st.Lo), formatFloat(st.Hi)
			}
			rec = append(rec, strconv.Itoa(r.Procs), strconv.Itoa(st.N), unit,
				formatFloat(st.Median), formatFloat(st.Min), formatFloat(st.Max), lo, hi)
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// sortedUnits returns the units with ns/op first and the rest sorted.
func sortedUnits[V any](m map[string]V) []string {
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
