package main

import (
	"math"
	"strings"
	"testing"
)

// TestMETG checks the interpolation of METG(50 %) and its bounds.
func TestMETG(t *testing.T) {
	for _, c := range []struct {
		pts  []granularityPoint
		want float64
		rel  string
	}{
		// Between 10 (0.6) and 1 (0.2): a quarter of the way on a log scale.
		{[]granularityPoint{{100, 0.9}, {10, 0.6}, {1, 0.2}}, math.Pow(10, 0.75), "="},
		{[]granularityPoint{{1, 0.7}, {100, 0.9}, {10, 0.8}}, 1, "≤"}, // still half at the smallest size
		{[]granularityPoint{{100, 0.4}, {10, 0.3}}, 100, ">"},         // under half everywhere
	} {
		m, rel := metg(c.pts)
		if rel != c.rel || math.Abs(m-c.want) > 1e-9 {
			t.Errorf("metg(%v) = %v %q, want %v %q", c.pts, m, rel, c.want, c.rel)
		}
	}
	if _, rel := metg(nil); rel != "" {
		t.Errorf("metg(nil): %q, want none", rel)
	}
}

// TestStepsMarkdown checks the steps section on saved output: each
// implementation's METG per pattern, and its efficiency by task size.
func TestStepsMarkdown(t *testing.T) {
	in := `goos: linux
goarch: amd64
BenchmarkSteps/pattern=stencil/width=2/grain=90us/impl=group-2 1 100 ns/op 0.9 efficiency 100 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=8us/impl=group-2 1 100 ns/op 0.6 efficiency 10 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=1us/impl=group-2 1 100 ns/op 0.2 efficiency 1 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=90us/impl=openmp-2 1 100 ns/op 0.95 efficiency 95 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=8us/impl=openmp-2 1 100 ns/op 0.9 efficiency 9 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=1us/impl=openmp-2 1 100 ns/op 0.7 efficiency 1.2 granularity-us
BenchmarkSteps/pattern=stencil/width=2/grain=500ns/impl=openmp-2 1 100 ns/op 0.6 efficiency 0.7 granularity-us
`
	set, err := Parse([]byte(in), "steps.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	newReport(set).stepsMarkdown(&b)
	md := b.String()
	for _, want := range []string{"| group | 5.62 |", "| openmp | ≤ 0.70 |", "| impl | 500ns | 1us | 8us | 90us |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the steps section lacks %q:\n%s", want, md)
		}
	}
}

// TestParseRounds checks that the report reads rounds.txt, whose result
// lines start with their binary's name and round, as samples.
func TestParseRounds(t *testing.T) {
	in := `# date: 2026-12-07T10:14:46Z
wsq 1 BenchmarkSteps/pattern=stencil/width=2/grain=90us/impl=group-2 3 100 ns/op 0.9 efficiency
cpp 1 BenchmarkSteps/pattern=stencil/width=2/grain=90us/impl=openmp-2 3 90 ns/op 0.95 efficiency
wsq 2 BenchmarkSteps/pattern=stencil/width=2/grain=90us/impl=group-2 3 110 ns/op 0.85 efficiency
`
	set, err := Parse([]byte(in), "rounds.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Samples) != 3 {
		t.Fatalf("%d samples, want 3", len(set.Samples))
	}
	if s := set.Samples[1]; s.Params["impl"] != "openmp" || s.Metrics["ns/op"] != 90 {
		t.Errorf("second sample %+v, want openmp's 90 ns/op", s)
	}
}
