package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func parseSample(t *testing.T) *Set {
	t.Helper()
	data, err := os.ReadFile("testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse(data, "testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestParseSample(t *testing.T) {
	set := parseSample(t)
	counts := map[string]int{}
	for _, s := range set.Samples {
		counts[s.Bench]++
	}
	want := map[string]int{"DAG": 144, "DAGCeiling": 4, "MasterCapacity": 36, "Pop": 12, "Push": 12, "PushBatch": 108, "Steal": 168}
	for b, n := range want {
		if counts[b] != n {
			t.Errorf("%s: %d samples, want %d", b, counts[b], n)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("benchmarks %v, want %v", counts, want)
	}
	if got := set.Config["goos"]; got != "linux" {
		t.Errorf("goos = %q", got)
	}
	if got := set.Config["pkg"]; got != "github.com/worksteal/wsq/bench" {
		t.Errorf("pkg = %q", got)
	}

	var steal []Sample
	for _, s := range set.Samples {
		if s.Name == "Steal/queue=lf/n=10000/p=60" {
			steal = append(steal, s)
		}
	}
	if len(steal) != 2 {
		t.Fatalf("%d samples of Steal/queue=lf/n=10000/p=60, want 2", len(steal))
	}
	s := steal[0]
	if s.Procs != 2 || s.Iters != 1 || s.Metrics["ns/op"] != 13486 || s.Metrics["allocs/op"] != 0 || s.Bench != "Steal" {
		t.Errorf("first sample: %+v", s)
	}
	if s.Param("queue") != "lf" || s.Param("n") != "10000" || s.Param("p") != "60" {
		t.Errorf("params: %v", s.Params)
	}

	for _, s := range set.Samples {
		if s.Name == "MasterCapacity/queue=mutex/workers=2" {
			if s.Metrics["capacity-steals/s"] != 54826 || s.Metrics["master-busy-%"] != 6.529 || s.Metrics["steals/run"] != 6 {
				t.Errorf("master sample metrics: %v", s.Metrics)
			}
			break
		}
	}
}

func TestParseLines(t *testing.T) {
	in := strings.Join([]string{
		"# goversion: go1.26.8",
		"# date: 2026-12-02T18:13:23Z",
		"# a comment that is not a header",
		"goos: linux",
		"BenchmarkDAG/queue=lf/mode=master/work=uniform/workers=2",             // -v announcement
		"BenchmarkPop/queue=mutex 	 1000	 12.5 ns/op",                          // GOMAXPROCS 1: no suffix
		"BenchmarkPush/queue=tf-ub/batch=64-64 	 10	 1500 ns/op	 23.4 ns/item", // queue name with a dash
		"    dag_test.go:12: a log line",
		"PASS",
		"ok  	github.com/worksteal/wsq/bench	1.0s",
	}, "\n")
	set, err := Parse([]byte(in), "in")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Samples) != 2 {
		t.Fatalf("%d samples: %+v", len(set.Samples), set.Samples)
	}
	pop, push := set.Samples[0], set.Samples[1]
	if pop.Name != "Pop/queue=mutex" || pop.Procs != 1 || pop.Metrics["ns/op"] != 12.5 || pop.Iters != 1000 {
		t.Errorf("pop: %+v", pop)
	}
	if push.Name != "Push/queue=tf-ub/batch=64" || push.Procs != 64 || push.Param("queue") != "tf-ub" || push.Metrics["ns/item"] != 23.4 {
		t.Errorf("push: %+v", push)
	}
	want := map[string]string{"goversion": "go1.26.8", "date": "2026-12-02T18:13:23Z", "goos": "linux"}
	for k, v := range want {
		if set.Config[k] != v {
			t.Errorf("config %s = %q, want %q", k, set.Config[k], v)
		}
	}
	if len(set.Config) != len(want) {
		t.Errorf("config %v", set.Config)
	}
	_, err = Parse([]byte("goos: linux\nBenchmarkX-2 1 abc ns/op\n"), "bad.txt")
	if err == nil || err.Error() != "bad.txt:2: parsing measurement: invalid syntax" {
		t.Errorf("a bad value: %v", err)
	}
}

func TestSummarize(t *testing.T) {
	mk := func(v float64, procs int) Sample {
		return Sample{Name: "Pop/queue=q", Bench: "Pop", Procs: procs, Params: map[string]string{"queue": "q"}, Metrics: map[string]float64{"ns/op": v}}
	}
	rows := Summarize([]Sample{mk(5, 2), mk(1, 2), mk(3, 2), mk(100, 4), mk(7, 2)})
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	s := r.Stats["ns/op"]
	if r.Procs != 2 || r.N != 4 || s.N != 4 || s.Median != 4 || s.Min != 1 || s.Max != 7 {
		t.Errorf("row: %+v", r)
	}
	if s.HasCI() || s.CI() != "± ∞" {
		t.Errorf("4 samples: interval %v to %v, %q; want none, as benchstat", s.Lo, s.Hi, s.CI())
	}
	if rows[1].Procs != 4 || rows[1].Stats["ns/op"].Median != 100 {
		t.Errorf("row: %+v", rows[1])
	}

	// Ten samples: benchstat's interval is the 2nd to the 9th smallest
	// (97.9 % by the binomial distribution, the least at least 95 %).
	var ten []Sample
	for _, v := range []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5} {
		ten = append(ten, mk(v*10, 2))
	}
	s = Summarize(ten)[0].Stats["ns/op"]
	if s.Median != 55 || s.Lo != 20 || s.Hi != 90 || !s.HasCI() || s.CI() != "± 64%" {
		t.Errorf("ten samples: %+v %q", s, s.CI())
	}
	if ten[0].Metrics["ns/op"] != 100 {
		t.Error("Summarize reordered the samples' values")
	}
}

func TestSpeedups(t *testing.T) {
	st := func(v float64) Stat {
		return Stat{N: 6, Median: v, Lo: v * 0.9, Hi: v * 1.1, Min: v * 0.8, Max: v * 1.25}
	}
	cs := speedups([]curve{
		{"a", []point{{1, st(8)}, {2, st(4)}, {4, st(2.5)}}},
		{"no-base", []point{{2, st(4)}}},
	})
	if len(cs) != 1 || cs[0].pts[0].Median != 1 || cs[0].pts[1].Median != 2 || cs[0].pts[2].Median != 3.2 {
		t.Fatalf("speedups: %+v", cs)
	}
	if p := cs[0].pts[0]; p.Min != 1 || p.Max != 1 {
		t.Errorf("speedup at 1 worker has a spread: %+v", p)
	}
	p := cs[0].pts[1].Stat
	if math.Abs(p.Lo-7.2/4.4) > 1e-12 || math.Abs(p.Hi-8.8/3.6) > 1e-12 || p.Min != 6.4/5 || p.Max != 10/3.2 {
		t.Errorf("speedup spread: %+v", p)
	}
}

func TestTicks(t *testing.T) {
	var got []string
	for _, tk := range (logTicks{}).Ticks(7.8, 84500) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "10 100 1000 10000" {
		t.Errorf("log ticks over 7.8..84500: %v", got)
	}
	got = nil
	for _, tk := range (logTicks{}).Ticks(0.03, 0.4) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "0.05 0.1 0.2" {
		t.Errorf("log ticks over 0.03..0.4: %v", got)
	}
	got = nil
	for _, tk := range (logTicks{}).Ticks(0.8, 84) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "1 2 5 10 20 50" {
		t.Errorf("log ticks over 0.8..84: %v", got)
	}
	got = nil
	for _, tk := range (linearTicks{}).Ticks(0, 140) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "0 25 50 75 100 125" {
		t.Errorf("linear ticks over 0..140: %v", got)
	}
	got = nil
	for _, tk := range (linearTicks{}).Ticks(0, 2.2) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "0.0 0.5 1.0 1.5 2.0" {
		t.Errorf("linear ticks over 0..2.2: %v", got)
	}
}

// distinctLooks checks that no two of cs share a colour or a marker.
func distinctLooks(t *testing.T, cs []contender) {
	t.Helper()
	colors, glyphs := map[any]string{}, map[any]string{}
	for _, c := range cs {
		if other, ok := colors[c.color]; ok {
			t.Errorf("%s and %s share a colour", other, c.name)
		}
		if other, ok := glyphs[c.glyph]; ok {
			t.Errorf("%s and %s share a marker", other, c.name)
		}
		colors[c.color], glyphs[c.glyph] = c.name, c.name
	}
}

// TestStylesDistinct checks that every contender has a colour and a marker
// of its own, that queues beyond them, however many and whatever their
// names, never share both colour and marker, and that no queue looks like a
// reference.
func TestStylesDistinct(t *testing.T) {
	distinctLooks(t, contenders)
	for i, c := range contenders {
		if st := queueStyle(i); st.color != c.color || st.glyph != c.glyph {
			t.Errorf("%s: style %d is not its own", c.name, i)
		}
	}
	type look struct {
		c     any
		shape any
		hatch int
	}
	seen := map[look]int{}
	for i := range 90 {
		st := queueStyle(i)
		k := look{st.color, st.glyph, len(st.hatch)}
		if j, ok := seen[k]; ok {
			t.Fatalf("queues %d and %d look alike", j, i)
		}
		seen[k] = i
		for _, r := range refStyles {
			if st.glyph == r.glyph || st.color == r.color {
				t.Fatalf("queue %d looks like a reference", i)
			}
		}
	}
	r := newReport(&Set{Samples: []Sample{
		{Name: "Pop/queue=zz", Bench: "Pop", Params: map[string]string{"queue": "zz"}, Metrics: map[string]float64{"ns/op": 1}},
		{Name: "Pop/queue=bq", Bench: "Pop", Params: map[string]string{"queue": "bq"}, Metrics: map[string]float64{"ns/op": 1}},
		{Name: "Pop/queue=aa", Bench: "Pop", Params: map[string]string{"queue": "aa"}, Metrics: map[string]float64{"ns/op": 1}},
	}})
	n := len(contenders)
	if r.queueStyle("bq") != 0 || r.queueStyle("mutex") != contenderIndex("mutex") || r.queueStyle("zz") != n || r.queueStyle("aa") != n+1 || r.queueStyle("new") != n+2 {
		t.Error("a contender does not keep its style, or another queue does not get the next one")
	}

	// The implementations of the scheduler benchmarks, and the steal
	// choices, drawn beside each other only: a colour and a marker of
	// their own among them, none a reference's.
	distinctLooks(t, implementations)
	distinctLooks(t, stealLooks)
	for _, c := range slices.Concat(implementations, stealLooks) {
		for _, ref := range refStyles {
			if c.glyph == ref.glyph || c.color == ref.color {
				t.Errorf("%s looks like a reference", c.name)
			}
		}
	}
	r = newReport(&Set{Samples: []Sample{
		{Name: "NQueens/impl=run-bq", Bench: "NQueens", Params: map[string]string{"impl": "run-bq"}, Metrics: map[string]float64{"ns/op": 1}},
		{Name: "NQueens/impl=goroutines", Bench: "NQueens", Params: map[string]string{"impl": "goroutines"}, Metrics: map[string]float64{"ns/op": 1}},
	}})
	g := implementations[implementationIndex("goroutines")]
	if st := r.look("goroutines"); st.color != g.color || st.glyph != g.glyph || st.dashes != nil || st.hatch != nil {
		t.Errorf("goroutines: %+v; want its own colour and marker, a solid line", st)
	}
	if st, want := r.look("run-bq"), queueStyle(n); st.color != want.color || st.glyph != want.glyph {
		t.Error("an implementation the report does not know does not take the style after the queues'")
	}
	if st, want := r.look("bq"), queueStyle(0); st.color != want.color || st.glyph != want.glyph {
		t.Error("a queue does not keep its style")
	}
}

// TestContendersOfResults checks that every queue of the committed results
// is a contender, with a caption for each micro-benchmark it appears in.
func TestContendersOfResults(t *testing.T) {
	for _, file := range append(committedRuns(t), "testdata/sample.txt") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		set, err := Parse(data, file)
		if err != nil {
			t.Fatal(err)
		}
		r := newReport(set)
		var others []string
		for _, q := range distinct(r.rows, "queue") {
			if contenderIndex(q) < 0 {
				others = append(others, q)
			}
		}
		if len(others) > 0 {
			t.Errorf("%s: queues %v are not contenders", file, others)
		}
		for _, b := range []struct {
			bench string
			what  func(contender) string
		}{{"PushBatch", func(c contender) string { return c.batch }}, {"Steal", func(c contender) string { return c.steal }}} {
			for _, q := range distinct(r.bench(b.bench), "queue") {
				if i := contenderIndex(q); i >= 0 && b.what(contenders[i]) == "" {
					t.Errorf("%s: %s %s: no caption says what is timed", file, b.bench, q)
				}
			}
		}
	}
}

func TestReplaceRegion(t *testing.T) {
	region := beginMarker + "\nnew\n" + endMarker + "\n"
	doc := "# B\n\nprose\n\n" + beginMarker + "\nold\n" + endMarker + "\n\nmore prose\n"
	got, err := replaceRegion([]byte(doc), region)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# B\n\nprose\n\n" + region + "\nmore prose\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got, err = replaceRegion([]byte("# B\n\nprose\n"), region)
	if err != nil || string(got) != "# B\n\nprose\n\n"+region {
		t.Errorf("append: %q, %v", got, err)
	}
	if _, err := replaceRegion([]byte(endMarker+"\n"+beginMarker), region); err == nil {
		t.Error("markers out of order accepted")
	}
	if _, err := replaceRegion([]byte(beginMarker+"\n"), region); err == nil {
		t.Error("unpaired marker accepted")
	}
}

func TestWriteAll(t *testing.T) {
	set := parseSample(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "results")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(dir, "BENCHMARKS.md")
	prose := "# Benchmarks\n\nThe lead's prose.\n\n" + beginMarker + "\nstale\n" + endMarker + "\n\n## Recipe\n"
	if err := os.WriteFile(md, []byte(prose), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := writeAll(set, &writer{dir: out, stdout: &log}, md); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"samples.csv", "summary.csv", "report.md", "push-one.png", "push.png", "steal-n10000.png", "steal-n100000.png", "pop.png",
		"dag-time-uniform-master.png", "dag-speedup.png", "master-capacity.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(log.String(), "wrote "+filepath.Join(out, f)+"\n") {
			t.Errorf("the log does not say it wrote %s", f)
		}
	}
	if !strings.Contains(log.String(), "wrote "+md+"\n") {
		t.Errorf("the log does not say it wrote %s", md)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{
		"The lead's prose.", "## Recipe", // outside the region: kept
		"### Push latency, one item", "| queue | ns/push |", "| mutex | 8296 ± ∞ |",
		"### PushBatch latency by batch size", "| queue | batch=1 | batch=4 |", "± ∞",
		"### Steal latency by proportion", "n = 10000 items:",
		"### Pop latency", "### DAG exploration", "uniform work:", "irregular work:",
		"| lf | master |", "| busy work alone | – |", "### Master capacity", "![PushBatch latency by batch size](results/push.png)",
		"![push latency, one item](results/push-one.png)",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("BENCHMARKS.md lacks %q", want)
		}
	}
	if strings.Contains(doc, "stale") {
		t.Error("the old region survived")
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "![PushBatch latency by batch size](push.png)") {
		t.Error("report.md does not name its plots relative to itself")
	}
	samples, err := os.ReadFile(filepath.Join(out, "samples.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(samples)), "\n")
	if lines[0] != "benchmark,name,queue,mode,work,workers,batch,n,p,procs,sample,iterations,unit,value" {
		t.Errorf("header %q", lines[0])
	}
	if !strings.Contains(string(samples), "Steal,Steal/queue=lf/n=10000/p=60,lf,,,,,10000,60,2,1,1,ns/op,16662") {
		t.Error("samples.csv lacks the second lf steal sample")
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(summary)), "\n")
	if lines[0] != "benchmark,name,queue,mode,work,workers,batch,n,p,procs,samples,unit,median,min,max,ci95_low,ci95_high" {
		t.Errorf("summary header %q", lines[0])
	}
	if !strings.Contains(string(summary), "\nSteal,Steal/queue=lf/n=10000/p=60,lf,,,,,10000,60,2,2,ns/op,15074,13486,16662,,\n") {
		t.Error("summary.csv lacks the lf steal row")
	}
}

func TestBenchArgs(t *testing.T) {
	got := strings.Join(benchArgs(&options{pkg: "./bench", bench: "DAG", count: 3, benchtime: "2x", cpu: "1,2", args: "-dag.nodes=2500000"}), " ")
	want := "test -run ^$ -bench DAG -count 3 -timeout 0 -benchtime 2x -cpu 1,2 ./bench -dag.nodes=2500000"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// runCmd runs the command and returns its exit code and output.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errs)
	return code, out.String(), errs.String()
}

// checkOneError checks that stderr holds exactly one error, prefixed once.
func checkOneError(t *testing.T, stderr, want string) {
	t.Helper()
	first, _, _ := strings.Cut(stderr, "\n")
	if !strings.HasPrefix(first, "report: ") || strings.HasPrefix(first, "report: report:") || !strings.Contains(first, want) {
		t.Errorf("first line %q, want one \"report: \" and %q", first, want)
	}
	if n := strings.Count(stderr, want); n != 1 {
		t.Errorf("the error appears %d times:\n%s", n, stderr)
	}
	if n := strings.Count(stderr, "report:"); n != 1 {
		t.Errorf("%d prefixes:\n%s", n, stderr)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		code, stdout, stderr := runCmd(t, "", arg)
		if code != exitOK || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", arg, code, stderr)
		}
		first, _, _ := strings.Cut(stdout, "\n")
		if first != description {
			t.Errorf("%s: the help starts %q", arg, first)
		}
		for _, want := range []string{"-in file", "-out folder", "-md file", "-count n", "-bench regexp", "(default 6)"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: the help lacks %q:\n%s", arg, want, stdout)
			}
		}
		if strings.Contains(stdout, "go test -bench\n") || strings.Contains(stdout, "-in go") {
			t.Errorf("%s: a back-quoted phrase became an argument name:\n%s", arg, stdout)
		}
	}
}

func TestMisuse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"-count", "many"}, `invalid value "many" for flag -count`},
		{[]string{"-progress=maybe"}, `invalid boolean value "maybe" for -progress`},
		{[]string{"-count", "0"}, "-count 0: want at least 1"},
		{[]string{"-in", "testdata/sample.txt", "-count", "3"}, "-count applies only when the benchmarks run"},
		{[]string{"-in", "testdata/sample.txt", "extra"}, `unexpected argument "extra"`},
		{[]string{"-md="}, "-md needs a file name"},
	} {
		code, stdout, stderr := runCmd(t, "", tc.args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", tc.args, code, stdout, exitUsage)
		}
		checkOneError(t, stderr, tc.want)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("goos: linux\nBenchmarkPop/queue=lf-2 100 1O.5 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"-in", bad, "-out", out}, "", bad + ":2: parsing measurement: invalid syntax"},
		{[]string{"-in", "-", "-out", out}, "PASS\n", "standard input: no benchmark results in the input"},
		{[]string{"-in", filepath.Join(dir, "missing.txt"), "-out", out}, "", "missing.txt: no such file or directory"},
	} {
		code, stdout, stderr := runCmd(t, tc.stdin, tc.args...)
		if code != exitError || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", tc.args, code, stdout, exitError)
		}
		checkOneError(t, stderr, tc.want)
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: a failed run created %s", tc.args, out)
		}
	}
}

// fakeRoot makes a repository root with a BENCHMARKS.md and a report
// folder, and moves the test into the report folder.
func fakeRoot(t *testing.T) (root string) {
	t.Helper()
	root = t.TempDir()
	files := map[string]string{
		"go.mod":                      "module github.com/worksteal/wsq\n\ngo 1.24.0\n",
		"BENCHMARKS.md":               "# Benchmarks\n\n" + beginMarker + "\nold\n" + endMarker + "\n",
		"bench/report/go.mod":         "module github.com/worksteal/wsq/bench/report\n",
		"bench/report/results/old.md": "kept\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sample, err := os.ReadFile("testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bench", "report", "sample.txt"), sample, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "bench", "report"))
	return root
}

// hashTree returns a digest of every file under dir by path.
func hashTree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		sums[p] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// changed lists the files added, removed or modified between two hashes.
func changed(before, after map[string][32]byte) []string {
	var out []string
	for p, h := range after {
		if old, ok := before[p]; !ok || old != h {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}

// TestInOutLeavesRepositoryAlone runs the command as the issue did, with -in
// and -out from the report folder of a repository, and checks that no file
// of the repository changed.
func TestInOutLeavesRepositoryAlone(t *testing.T) {
	root := fakeRoot(t)
	out := filepath.Join(t.TempDir(), "x")
	before := hashTree(t, root)
	code, stdout, stderr := runCmd(t, "", "-in", "sample.txt", "-out", out)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if c := changed(before, hashTree(t, root)); len(c) > 0 {
		t.Errorf("the run changed %v", c)
	}
	written := hashTree(t, out)
	for p := range written {
		if !strings.Contains(stdout, "wrote "+p+"\n") {
			t.Errorf("wrote %s without saying so", p)
		}
	}
	if n := strings.Count(stdout, "wrote "); n != len(written) {
		t.Errorf("said %d files, wrote %d", n, len(written))
	}
	if !strings.Contains(stdout, "484 samples") {
		t.Errorf("stdout: %s", stdout)
	}
}

// TestInWritesOnlyResults checks that without -out the results go to a
// folder of the day in the report's results folder and nowhere else, and
// that -md names the one document a run may change.
func TestInWritesOnlyResults(t *testing.T) {
	root := fakeRoot(t)
	before := hashTree(t, root)
	if code, _, stderr := runCmd(t, "", "-in", "sample.txt"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The sample has no date in its header: the folder is today's.
	results := filepath.Join(root, "bench", "report", "results", "report-"+time.Now().UTC().Format(time.DateOnly)) + string(filepath.Separator)
	for _, p := range changed(before, hashTree(t, root)) {
		if !strings.HasPrefix(p, results) {
			t.Errorf("the run changed %s, outside %s", p, results)
		}
	}
	raw, err := os.ReadFile(filepath.Join(results, "bench.txt"))
	sample, _ := os.ReadFile("sample.txt")
	if err != nil || !bytes.Equal(raw, sample) {
		t.Errorf("bench.txt is not a copy of the input: %v", err)
	}

	md := filepath.Join(root, "BENCHMARKS.md")
	code, stdout, stderr := runCmd(t, "", "-in", "sample.txt", "-md", md)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, _ := os.ReadFile(md)
	if strings.Contains(string(doc), "\nold\n") || !strings.Contains(string(doc), "![pop latency](bench/report/results/report-") {
		t.Errorf("-md did not update the document:\n%s", doc)
	}
	if !strings.Contains(stdout, "wrote "+md+"\n") {
		t.Errorf("-md: the run does not say it wrote %s", md)
	}
}

// TestRunDate checks the date of the default results folder: that of the
// saved output's header, or else today's.
func TestRunDate(t *testing.T) {
	now := time.Date(2026, 12, 6, 23, 30, 0, 0, time.FixedZone("", -2*3600))
	set := &Set{Config: map[string]string{keyDate: "2026-12-03T12:48:00Z"}}
	for _, c := range []struct {
		set  *Set
		want string
	}{
		{set, "2026-12-03"},
		{&Set{Config: map[string]string{}}, "2026-12-07"}, // UTC
		{nil, "2026-12-07"},
	} {
		if got := runDate(c.set, now); got != c.want {
			t.Errorf("runDate(%v) = %s, want %s", c.set, got, c.want)
		}
	}
}

// TestBadDocumentCreatesNothing checks that a document with broken markers
// is refused before anything is written.
func TestBadDocumentCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(md, []byte(endMarker+"\n"+beginMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr := runCmd(t, "", "-in", "testdata/sample.txt", "-out", out, "-md", md)
	if code != exitError {
		t.Errorf("exit %d", code)
	}
	checkOneError(t, stderr, "report markers out of order or unpaired")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the failed run created %s", out)
	}
}

func TestRunFromStdin(t *testing.T) {
	sample, err := os.ReadFile("testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, stderr := runCmd(t, string(sample), "-in", "-", "-out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, "bench.txt"))
	if err != nil || !bytes.Equal(raw, sample) {
		t.Errorf("bench.txt is not a copy of standard input: %v", err)
	}
}

func TestMachine(t *testing.T) {
	got := machine(map[string]string{"cpu": "Some CPU", "goos": "linux", "goarch": "amd64", keyGoVersion: "go1.26.8", keyDate: "2026-12-02T18:13:23Z", keyCores: "2"}, 2)
	if want := "CPU: Some CPU · 2 cores · GOMAXPROCS 2 · go1.26.8 · linux/amd64 · 2026-12-02"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = machine(map[string]string{}, 4)
	if want := "CPU: not recorded · cores not recorded · GOMAXPROCS 4 · Go version not recorded · ?/? · date not recorded"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestChartsSmallInputs renders inputs at the edges: one sample, one
// worker, one x value, a queue name the report has never seen, a flat
// series.
func TestChartsSmallInputs(t *testing.T) {
	for name, in := range map[string]string{
		"one worker": "BenchmarkDAG/queue=bq/mode=master/work=uniform/workers=1 1 5000000 ns/op\n" +
			"BenchmarkDAGCeiling/workers=1 1 4000000 ns/op\n",
		"one of each": "BenchmarkPushBatch/queue=bq-batch/batch=1-8 100 10 ns/op\n" +
			"BenchmarkPush/queue=bq-8 100 3 ns/op\n" +
			"BenchmarkSteal/queue=bq/n=10000/p=10-8 100 1000 ns/op\n" +
			"BenchmarkPop/queue=bq-list-8 100 5 ns/op\n" +
			"BenchmarkMasterCapacity/queue=bq/workers=2-8 1 100 ns/op 5 steals/run 1000 capacity-steals/s\n",
		"flat":      "BenchmarkPushBatch/queue=q/batch=1 100 0 ns/op\nBenchmarkPushBatch/queue=q/batch=4 100 0 ns/op\nBenchmarkPushBatch/queue=q/batch=16 100 0 ns/op\n",
		"old names": "BenchmarkPush/queue=bq/batch=1 100 3 ns/op\nBenchmarkPush/queue=bq/batch=4 100 5 ns/op\nBenchmarkPush/queue=lf/batch=1 100 30 ns/op\n",
	} {
		set, err := Parse([]byte(in), name)
		if err != nil {
			t.Fatal(err)
		}
		r := newReport(set)
		charts := r.charts()
		if len(charts) == 0 {
			t.Errorf("%s: no charts", name)
		}
		for _, c := range charts {
			png, err := c.fig.render(r.config)
			if err != nil || len(png) == 0 {
				t.Errorf("%s: %s: %v", name, c.file, err)
			}
		}
		if r.markdown(".", nil) == "" {
			t.Errorf("%s: no Markdown", name)
		}
	}
}

func TestTooWide(t *testing.T) {
	for _, tc := range []struct {
		s    Stat
		ci   bool
		want bool
	}{
		{Stat{N: 6, Median: 10, Lo: 5, Hi: 19.9}, true, false},
		{Stat{N: 6, Median: 10, Lo: 5, Hi: 20}, true, true},                      // ± 100 %
		{Stat{N: 6, Median: 10, Lo: 0, Hi: 11}, true, true},                      // reaches zero
		{Stat{N: 6, Median: 1.44, Lo: 1, Hi: 29}, true, true},                    // ± 1917 %
		{Stat{N: 6, Median: 10, Lo: 5, Hi: 20}, false, false},                    // a range of samples, not an interval
		{Stat{N: 4, Median: 10, Lo: math.Inf(-1), Hi: math.Inf(1)}, true, false}, // none
		{exact(1, 2).Stat, true, false},
	} {
		if got := tooWide(tc.s, tc.ci); got != tc.want {
			t.Errorf("tooWide(%+v, %v) = %v, want %v", tc.s, tc.ci, got, tc.want)
		}
	}
	if got := ci(Stat{N: 6, Median: 10, Lo: 5, Hi: 40}); got != "± 300% "+wideMark {
		t.Errorf("ci: %q", got)
	}
	if got := ci(Stat{N: 6, Median: 10, Lo: 9, Hi: 11}); got != "± 10%" {
		t.Errorf("ci: %q", got)
	}
}

// oldResults is the raw output of the first committed run of the report
// command, from before BenchmarkPush timed Push of one item: the charts'
// tests read it for its old names, as saved output may have them.
const oldResults = "results/report-2026-12-03/bench.txt"

// committedRuns returns the raw output of every committed run of the
// report command: bench.txt of each results/report-DATE folder.
func committedRuns(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("results/report-*/bench.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no results/report-*/bench.txt: %v", err)
	}
	return files
}

// committedChart returns the report of the committed results and its
// chart saved as file.
func committedChart(t *testing.T, file string) (*report, *figure) {
	t.Helper()
	data, err := os.ReadFile(oldResults)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse(data, oldResults)
	if err != nil {
		t.Fatal(err)
	}
	r := newReport(set)
	for _, c := range r.charts() {
		if c.file == file {
			return r, c.fig
		}
	}
	t.Fatalf("no chart %s", file)
	return nil, nil
}

// TestPopScale checks that the pop figure's scale is set by the pops, not
// by the paper's figure, which it states off the scale.
func TestPopScale(t *testing.T) {
	_, f := committedChart(t, "pop.png")
	sc := f.yScaleOf(f.useCI())
	if sc.log || sc.hi > 40 {
		t.Errorf("pop: y scale %+v; want a linear one up to the slowest pop", sc)
	}
	if len(f.refs) != 1 || !sc.offScale(f.refs[0]) {
		t.Errorf("pop: the paper's figure is on the scale")
	}
}

// TestOneSpeedupChart checks that the DAG speedups make one chart: a group
// of bars per work and mode when the runs have one worker count besides 1,
// a panel per work and mode with more.
func TestOneSpeedupChart(t *testing.T) {
	r, f := committedChart(t, "dag-speedup.png")
	for _, c := range r.charts() {
		if strings.HasPrefix(c.file, "dag-speedup") && c.file != "dag-speedup.png" {
			t.Errorf("a second speedup chart: %s", c.file)
		}
	}
	if !f.grouped || len(f.panels) > 0 || len(f.xs()) != 4 || len(f.series) != 10 {
		t.Errorf("2 workers: grouped %v, %d panels, %d groups, %d queues; want 4 groups of 10 queues", f.grouped, len(f.panels), len(f.xs()), len(f.series))
	}
	if got := f.group(3); got != "irregular work\nrandom mode" {
		t.Errorf("group 3: %q", got)
	}

	var in strings.Builder
	for _, q := range []string{"bq", "lf"} {
		for _, mode := range []string{"master", "random"} {
			for _, work := range []string{"uniform", "irregular"} {
				for _, w := range []int{1, 2, 4, 8} {
					fmt.Fprintf(&in, "BenchmarkDAG/queue=%s/mode=%s/work=%s/workers=%d-8 1 %d ns/op\n", q, mode, work, w, 8000000/w)
				}
			}
		}
	}
	set, err := Parse([]byte(in.String()), "in")
	if err != nil {
		t.Fatal(err)
	}
	f = newReport(set).speedupFigure()
	if f == nil || len(f.panels) != 4 {
		t.Fatalf("1 to 8 workers: %+v; want 4 panels", f)
	}
	for _, p := range f.panels {
		if len(p.series) != 2 || len(p.xs()) != 4 || p.series[0].pts[3].Median != 8 {
			t.Errorf("panel %s: %d queues, xs %v", p.title, len(p.series), p.xs())
		}
	}
	if _, err := f.render(set.Config); err != nil {
		t.Error(err)
	}
}

func TestTimedNote(t *testing.T) {
	got := timedNote([]string{"tf-ub", "bq", "bq-list", "nosuch", "lf"}, func(c contender) string { return c.batch })
	want := "What is timed. tf-ub: " + pushLoop + ". bq, lf: " + pushCopy + ". bq-list: " + pushList + "."
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := timedNote([]string{"nosuch", "tf-bd"}, func(c contender) string { return c.steal }); got != "" {
		t.Errorf("no descriptions: %q", got)
	}
}

// TestBatchPanels checks that the batch-push plot gives each kind of push a
// panel of a few queues, with the others in grey behind, and that saved
// output from before BenchmarkPushBatch (BenchmarkPush/queue=Q/batch=B, as
// in the committed results) is read as PushBatch's.
func TestBatchPanels(t *testing.T) {
	r, f := committedChart(t, "push.png")
	if len(r.bench("Push")) != 0 || len(r.bench("PushBatch")) != 66 {
		t.Errorf("old names: %d Push rows, %d PushBatch rows; want 0 and 66", len(r.bench("Push")), len(r.bench("PushBatch")))
	}
	want := []string{"PushBatch, a copy", "Taskflow v4's bulk push", "a loop of Push (Taskflow, as the paper)", "PushList of a List built untimed"}
	if len(f.panels) != len(want) {
		t.Fatalf("%d panels; want %d", len(f.panels), len(want))
	}
	seen := map[string]bool{}
	for i, p := range f.panels {
		if p.title != want[i] {
			t.Errorf("panel %d: %q; want %q", i, p.title, want[i])
		}
		if len(p.series) > 5 || len(p.series)+len(p.context) != len(f.series) {
			t.Errorf("%s: %d queues and %d behind; want at most 5, and %d in all", p.title, len(p.series), len(p.context), len(f.series))
		}
		for _, s := range p.series {
			if seen[s.name] {
				t.Errorf("%s in two panels", s.name)
			}
			seen[s.name] = true
		}
	}
	if len(seen) != 11 || len(f.series) != 11 {
		t.Errorf("%d queues in the panels, %d in the figure; want 11", len(seen), len(f.series))
	}
	if _, err := f.render(r.config); err != nil {
		t.Error(err)
	}
}

// TestNoBarsOnLogScale checks that a bar chart whose values call for a
// logarithmic axis draws markers instead of bars, and that the master's
// capacity at one worker count is a chart of the queues, not one group.
func TestNoBarsOnLogScale(t *testing.T) {
	r, f := committedChart(t, "master-capacity.png")
	if len(f.categories) != 10 || f.categories[1] != "lf" || !strings.Contains(f.title, "with 2 workers") {
		t.Errorf("categories %v, title %q; want the 10 queues, with 2 workers", f.categories, f.title)
	}
	sc := f.yScaleOf(f.useCI())
	if !sc.log || !f.dots(sc) {
		t.Errorf("capacities from 0.18 to 4 million: log %v, dots %v; want markers on a log scale", sc.log, f.dots(sc))
	}
	for _, c := range r.charts() {
		sc := c.fig.yScaleOf(c.fig.useCI())
		if c.fig.plots()[0].bars() && sc.log && !c.fig.dots(sc) {
			t.Errorf("%s: bars on a log scale", c.file)
		}
	}
	_, pop := committedChart(t, "pop.png")
	if sc := pop.yScaleOf(pop.useCI()); pop.dots(sc) {
		t.Error("pop: markers on a linear scale; want bars")
	}
}

// parseFile parses a file of benchmark output.
func parseFile(t *testing.T, file string) *Set {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse(data, file)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// chartOf returns the chart of a report saved as file, or nil.
func chartOf(r *report, file string) *figure {
	for _, c := range r.charts() {
		if c.file == file {
			return c.fig
		}
	}
	return nil
}

// TestSchedulerFigures checks the figures of the scheduler benchmarks on
// synthetic results whose medians are known: BenchmarkForkJoin at 1, 2
// and 4 cores, BenchmarkThieves with 0, 1 and 3 thieves, and the pool
// against goroutines on every workload.
func TestSchedulerFigures(t *testing.T) {
	set := parseFile(t, "testdata/scheduler.txt")
	out := t.TempDir()
	var log bytes.Buffer
	if err := writeAll(set, &writer{dir: out, stdout: &log}, "none"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"forkjoin-scaling.png", "thieves.png", "pool-vs-goroutines.png", "report.md"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, want := range []string{
		"### Fork-join scaling", "coarse work:\n\n| impl | 1 core | 2 cores | 4 cores |",
		"| goroutines | 40.0 ms ± ∞ (1.00×) | 20.0 ms ± ∞ (2.00×) | 10.0 ms ± ∞ (4.00×) |",
		"| pool-bq | 36.0 ms ± ∞ (1.00×) | 18.0 ms ± ∞ (2.00×) | 10.0 ms ± ∞ (3.60×) |",
		"| errgroup | 240 ms ± ∞ (1.00×) | 240 ms ± ∞ (1.00×) | 300 ms ± ∞ (0.80×) |",
		"![fork-join speedup over 1 core](forkjoin-scaling.png)",

		"### The owner among thieves", "GOMAXPROCS 4.",
		"| bq | one | 3 | 9.00 ± ∞ | 1.50 ± ∞ | 3.00 ± ∞ | 2.00 ± ∞ |",
		"| lf | part | 1 | 108 ± ∞ | 1.80 ± ∞ | 10.0 ± ∞ | 1.00 ± ∞ |",
		"![the owner among thieves](thieves.png)",

		"### The pool against goroutines and errgroup", "compares like with like", "equal concurrency limits", "the same cutoff",
		"| fork-join, coarse | 4 | goroutines | 10.0 ms ± ∞ | 1 | – |",
		"| fork-join, coarse | 4 | pool-bq | 10.0 ms ± ∞ | 1.00 ± ∞ | 0.50 ± ∞ |",
		"| fork-join, coarse | 4 | join-bq | 8.00 ms ± ∞ | 0.80 ± ∞ | 0.40 ± ∞ |",
		"| fork-join, coarse | 4 | errgroup | 20.0 ms ± ∞ | 2.00 ± ∞ | – |",
		"| fork-join, fine | 4 | pool-bq | 4.00 ms ± ∞ | 0.016 ± ∞ | 0.013 ± ∞ |",
		"| n-queens | 4 | pool-bq | 3.60 ms ± ∞ | 1.20 ± ∞ | – |",
		"| blocking walk, 16 at once | 4 | pool-max16 | 200 ms ± ∞ | 0.80 ± ∞ | 0.77 ± ∞ |",
		"| inject, 1 producer | 4 | channel | 150 ns ± ∞ | 1 | – |",
		"| inject, 4 producers | 4 | pool | 330 ns ± ∞ | 2.00 ± ∞ | – |",
		"![the pool against goroutines and errgroup](pool-vs-goroutines.png)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Contains(md, "| blocking walk, 16 at once | 4 | pool |") || strings.Contains(md, "| serial |") {
		t.Error("the comparison shows a contender that does not compare like with like")
	}

	r := newReport(set)
	fj := chartOf(r, "forkjoin-scaling.png")
	if fj == nil || len(fj.panels) != 2 || fj.panels[0].title != "coarse work" || fj.panels[1].title != "fine work" {
		t.Fatalf("fork-join: %+v; want a panel for coarse work, then fine", fj)
	}
	for _, p := range fj.panels {
		if len(p.series) != 4 || p.bars() || len(p.refs) != 1 || p.refs[0].label != "linear speedup" {
			t.Errorf("%s: %d lines, bars %v, references %+v; want 4 lines and linear speedup", p.title, len(p.series), p.bars(), p.refs)
		}
		for _, s := range p.series {
			if len(s.pts) != 3 || s.pts[0].Median != 1 {
				t.Errorf("%s: %s: %+v", p.title, s.name, s.pts)
			}
		}
	}
	if s := fj.panels[0].series[2]; s.name != "pool-bq" || s.pts[2].x != 4 || math.Abs(s.pts[2].Median-3.6) > 1e-12 {
		t.Errorf("coarse pool-bq: %+v; want 3.6 at 4 cores", s)
	}
	looks := map[any]string{}
	for _, s := range fj.panels[0].series {
		k := [2]any{s.look.color, s.look.glyph}
		if looks[k[0]] != "" || looks[k[1]] != "" {
			t.Errorf("%s shares a colour or a marker", s.name)
		}
		looks[k[0]], looks[k[1]] = s.name, s.name
	}

	th := chartOf(r, "thieves.png")
	if th == nil || len(th.panels) != 2 || th.panels[0].title != "one item per steal (steal=one)" {
		t.Fatalf("thieves: %+v", th)
	}
	for _, p := range th.panels {
		if p.bars() || len(p.series) != 2 || len(p.xs()) != 3 {
			t.Errorf("%s: bars %v, %d queues, thieves %v; want a line per queue over 0, 1 and 3", p.title, p.bars(), len(p.series), p.xs())
		}
	}
	if s := th.panels[1].series[1]; s.name != "lf" || s.pts[2].Median != 4 {
		t.Errorf("part, lf: %+v; want a slowdown of 4 with 3 thieves", s)
	}

	vs := chartOf(r, "pool-vs-goroutines.png")
	if vs == nil || !vs.grouped || !vs.linear || len(vs.xs()) != 6 || len(vs.series) != 3 {
		t.Fatalf("pool against goroutines: %+v; want 6 groups of 3 series, linear", vs)
	}
	if sc := vs.yScaleOf(vs.useCI()); sc.log || vs.dots(sc) {
		t.Error("pool against goroutines: a logarithmic scale; want bars on a linear one")
	}
	if got := vs.group(4); got != "inject\n1 producer" {
		t.Errorf("group 4: %q", got)
	}
	pool := vs.series[0]
	var rel []string
	for _, p := range pool.pts {
		rel = append(rel, num(p.Median))
	}
	if pool.name != seriesPool || strings.Join(rel, " ") != "1.00 0.016 1.20 0.80 2.00 2.00" {
		t.Errorf("%s: %v", pool.name, rel)
	}
	// A group holds the bars of the series with a point there, centred:
	// n-queens (x = 2) the pool's alone, in the middle of three places.
	if off, w := vs.barSlot(0, 2); off != 1 || w != 1.0/3 {
		t.Errorf("n-queens, pool: place %v, width %v; want 1 and 1/3", off, w)
	}
	if off, _ := vs.barSlot(2, 0); off != 2 {
		t.Errorf("fork-join coarse, errgroup: place %v; want 2", off)
	}
	if !strings.Contains(strings.Join(vs.notes, " "), "channel") {
		t.Error("the note does not say that a channel plays the goroutines' part in Inject")
	}
}

// TestSchedulerFiguresSparse renders the scheduler figures from inputs at
// the edges: one core count, one thief count besides 0 (two cores), no
// thieves at all, a workload without goroutines, -benchtime 1x.
func TestSchedulerFiguresSparse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // the charts expected
	}{
		{"one core count", "BenchmarkForkJoin/impl=goroutines/work=coarse-2 1 10 ns/op\nBenchmarkForkJoin/impl=pool-bq/work=coarse-2 1 12 ns/op\n",
			[]string{"pool-vs-goroutines.png"}},
		{"no one-core run", "BenchmarkForkJoin/impl=pool-bq/work=coarse-2 1 12 ns/op\nBenchmarkForkJoin/impl=pool-bq/work=coarse-4 1 8 ns/op\n",
			nil},
		{"two cores", "BenchmarkThieves/queue=bq/thieves=0/steal=one-2 100 6 ns/op 1 slowdown\n" +
			"BenchmarkThieves/queue=bq/thieves=1/steal=one-2 100 9 ns/op 1.5 slowdown\n" +
			"BenchmarkThieves/queue=new/thieves=1/steal=one-2 100 90 ns/op 30 slowdown\n",
			[]string{"thieves.png"}},
		{"no thief", "BenchmarkThieves/queue=bq/thieves=0/steal=one 100 6 ns/op 1 slowdown\n", nil},
		{"no goroutines", "BenchmarkNQueens/impl=pool-bq-2 1 12 ns/op\nBenchmarkBlockingWalk/impl=errgroup-2 1 12 ns/op\n", nil},
		{"one of each", "BenchmarkNQueens/impl=goroutines-2 1 10 ns/op\nBenchmarkNQueens/impl=pool-bq-2 1 0 ns/op\n" +
			"BenchmarkInject/impl=channel/producers=1-2 1 100 ns/op\nBenchmarkInject/impl=pool/producers=1-2 1 300 ns/op\n",
			[]string{"pool-vs-goroutines.png"}},
	} {
		set, err := Parse([]byte(tc.in), tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r := newReport(set)
		var got []string
		for _, c := range r.charts() {
			got = append(got, c.file)
			png, err := c.fig.render(r.config)
			if err != nil || len(png) == 0 {
				t.Errorf("%s: %s: %v", tc.name, c.file, err)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: charts %v, want %v", tc.name, got, tc.want)
		}
		if r.markdown(".", nil) == "" {
			t.Errorf("%s: no Markdown", tc.name)
		}
	}

	// Two cores: the queues side by side at the one thief count, as
	// markers on the logarithmic scale that a slowdown of 30 calls for.
	set, err := Parse([]byte("BenchmarkThieves/queue=bq/thieves=1/steal=part-2 100 9 ns/op 1.5 slowdown\n"+
		"BenchmarkThieves/queue=lf/thieves=1/steal=part-2 100 900 ns/op 30 slowdown\n"), "in")
	if err != nil {
		t.Fatal(err)
	}
	f := newReport(set).thievesFigure()
	if f == nil || len(f.panels) != 1 || strings.Join(f.panels[0].categories, " ") != "bq lf" || !strings.Contains(f.title, "by 1 thief") {
		t.Fatalf("%+v; want the queues side by side, with 1 thief", f)
	}
	if sc := f.yScaleOf(f.useCI()); !sc.log || !f.panels[0].dots(sc) {
		t.Error("slowdowns 1.5 and 30: want markers on a logarithmic scale")
	}
}

// TestSlantCrowdedLabels checks that the names under a bar chart are
// slanted only when, level, they would run into each other.
func TestSlantCrowdedLabels(t *testing.T) {
	names := labelTicks{"bq", "lf", "lf-skip", "tf-ub", "tf-bd", "tf-ub-bulk", "tf-bd-bulk", "cl-ub", "cl-bd", "mutex"}
	for _, tc := range []struct {
		names labelTicks
		width vg.Length
		slant bool
	}{
		{names, 4 * vg.Inch, true},      // a panel of ten queues
		{names, 8 * vg.Inch, false},     // a whole figure's width
		{names[:3], 4 * vg.Inch, false}, // a panel of three
	} {
		p := plot.New()
		p.X.Tick.Label.Font.Size = vg.Points(11)
		p.X.Tick.Marker = tc.names
		slantCrowdedLabels(p, tc.width)
		if got := p.X.Tick.Label.Rotation != 0; got != tc.slant {
			t.Errorf("%d names in %v: slanted %v, want %v", len(tc.names), tc.width, got, tc.slant)
		}
	}
}

// stealAmountInput is BenchmarkStealAmount output whose medians are known.
// Its choices come out of order, and its means and extremes pick another
// best than its medians do: in dag-uniform master, one has the least
// sample and mean, 0.5 the least median. fj-fine-pool random has no
// auto; flat has no fixed choice, so it has no row.
func stealAmountInput() string {
	times := []struct {
		work, mode, steal string
		ns                []int
	}{
		{"dag-uniform", "master", "0.9", []int{130, 130, 130}},
		{"dag-uniform", "master", "auto", []int{100, 104, 200}},
		{"dag-uniform", "master", "one", []int{50, 110, 120}},
		{"dag-uniform", "master", "0.5", []int{90, 100, 101}},
		{"dag-uniform", "master", "0.1", []int{120, 120, 120}},
		{"dag-uniform", "random", "auto", []int{220, 220, 220}},
		{"dag-uniform", "random", "one", []int{200, 200, 200}},
		{"dag-uniform", "random", "0.1", []int{210, 210, 210}},
		{"dag-uniform", "random", "0.5", []int{230, 230, 230}},
		{"dag-uniform", "random", "0.9", []int{240, 240, 240}},
		{"fj-fine-pool", "master", "auto", []int{49, 49, 49}},
		{"fj-fine-pool", "master", "one", []int{60, 60, 60}},
		{"fj-fine-pool", "master", "0.1", []int{55, 55, 55}},
		{"fj-fine-pool", "master", "0.5", []int{52, 52, 52}},
		{"fj-fine-pool", "master", "0.9", []int{50, 50, 50}},
		{"fj-fine-pool", "random", "0.5", []int{88, 88, 88}},
		{"fj-fine-pool", "random", "0.1", []int{80, 80, 80}},
		{"flat", "master", "auto", []int{70, 70, 70}},
	}
	var b strings.Builder
	b.WriteString("# cores: 2\ngoos: linux\ncpu: Synthetic CPU\n")
	for _, t := range times {
		for _, ns := range t.ns {
			fmt.Fprintf(&b, "BenchmarkStealAmount/work=%s/mode=%s/steal=%s-2 \t 20\t %d ns/op\n", t.work, t.mode, t.steal, ns)
		}
	}
	return b.String()
}

// TestStealAmount checks the figure and table of BenchmarkStealAmount:
// a panel per mode, a group per workload, each choice's time over the
// best fixed choice's by median, auto's target, and the caption.
func TestStealAmount(t *testing.T) {
	set, err := Parse([]byte(stealAmountInput()), "in")
	if err != nil {
		t.Fatal(err)
	}
	r := newReport(set)
	srs := r.stealRows()
	if len(srs) != 4 {
		t.Fatalf("%d rows; want 4, flat left out: %+v", len(srs), srs)
	}
	if got := strings.Join(r.stealChoices(), " "); got != "auto one 0.1 0.5 0.9" {
		t.Errorf("choices %q; want auto, one, then the proportions", got)
	}
	for i, want := range []string{"0.5", "one", "0.9", "0.1"} {
		if srs[i].best != want {
			t.Errorf("%s %s: best fixed %s; want %s, by median", srs[i].work, srs[i].mode, srs[i].best, want)
		}
	}

	f := chartOf(r, "steal-amount.png")
	if f == nil || len(f.panels) != 2 || !f.column || !f.fit || !f.linear {
		t.Fatalf("%+v; want two panels in a column, on a fitted linear axis", f)
	}
	master, random := f.panels[0], f.panels[1]
	if master.title != "master mode" || random.title != "random mode" {
		t.Errorf("panels %q, %q", master.title, random.title)
	}
	if !master.grouped || len(master.xs()) != 2 || master.group(0) != "dag\nuniform" || master.group(1) != "fj-fine\npool" {
		t.Errorf("master: groups %v; want dag-uniform and fj-fine-pool", master.xs())
	}
	var names []string
	for _, s := range master.series {
		names = append(names, s.name)
	}
	if strings.Join(names, " ") != "steal=auto steal=one steal=0.1 steal=0.5 steal=0.9" {
		t.Errorf("master: series %v", names)
	}

	// dag-uniform master: the best fixed choice is exactly 1, without a
	// spread; auto's ratio is of the medians, 104 over 100, and its
	// whisker spans the ratios of the samples' extremes.
	want := []float64{1.04, 1.10, 1.20, 1, 1.30}
	for i, s := range master.series {
		p := s.pts[0]
		if p.x != 0 || math.Abs(p.Median-want[i]) > 1e-12 {
			t.Errorf("dag-uniform master, %s: %v; want %v", s.name, p.Median, want[i])
		}
	}
	if best := master.series[3].pts[0]; best.N != 0 || best.Min != 1 || best.Max != 1 {
		t.Errorf("the best fixed choice: %+v; want exactly 1", best.Stat)
	}
	if auto := master.series[0].pts[0]; auto.Min != 100.0/101 || auto.Max != 200.0/90 {
		t.Errorf("auto: range %v to %v; want 100/101 to 200/90", auto.Min, auto.Max)
	}
	if auto := master.series[0].pts[1]; math.Abs(auto.Median-0.98) > 1e-12 {
		t.Errorf("fj-fine-pool master, auto: %v; want 0.98, under the best fixed choice", auto.Median)
	}
	if len(random.series[0].pts) != 1 || random.series[0].name != "steal=auto" {
		t.Errorf("random: auto %+v; want one point, fj-fine-pool has none", random.series[0])
	}

	if len(f.refs) != 1 || !f.refs[0].span || f.refs[0].pts[0].Median != 1.05 || !strings.Contains(f.refs[0].label, "target") {
		t.Errorf("references %+v; want auto's target dashed at 1.05", f.refs)
	}
	sc := f.yScaleOf(f.useCI())
	if sc.log || !f.dots(sc) || !master.dots(sc) {
		t.Error("want markers on a linear axis")
	}
	lg := &legend{Legend: plot.NewLegend()}
	// The whiskers reach from 50/101 (one) to 200/90 (auto).
	if p, _ := master.build(f.useCI(), sc, lg); p.Y.Min <= 0 || p.Y.Min > 50.0/101 || p.Y.Max < 200.0/90 || p.Y.Max > 2.5 {
		t.Errorf("y axis %v to %v; want one fitted to the whiskers, not from zero", p.Y.Min, p.Y.Max)
	}
	notes := strings.Join(f.notes, "\n")
	for _, want := range []string{
		"In 2 of 3 rows, auto's median is within 5 % of the best fixed choice's; over it: dag-uniform random (1.10).",
		"over the best fixed choice's", "the ratios of the two runs' bounds",
		"What is timed: one whole run of each workload with GOMAXPROCS workers on blockq queues",
		"auto, the scheduler's own choice", "one: one item per steal", "0.1, 0.5, 0.9: that proportion of the victim's queue",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the caption lacks %q:\n%s", want, notes)
		}
	}

	// Every choice has a colour and a marker of its own, auto's red, none
	// a reference's.
	colors, glyphs := map[any]bool{}, map[any]bool{}
	for _, s := range master.series {
		if colors[s.look.color] || glyphs[s.look.glyph] {
			t.Errorf("%s shares a colour or a marker", s.name)
		}
		colors[s.look.color], glyphs[s.look.glyph] = true, true
		for _, ref := range refStyles {
			if s.look.color == ref.color || s.look.glyph == ref.glyph {
				t.Errorf("%s looks like a reference", s.name)
			}
		}
	}
	if master.series[0].look.color != rgb(0xE6, 0x19, 0x4B) {
		t.Error("auto is not red")
	}
	if a, b := stealLook("new", 0), stealLook("newer", 1); a.color == b.color && a.glyph == b.glyph {
		t.Error("two choices the report does not know look alike")
	}

	out := t.TempDir()
	var log bytes.Buffer
	if err := writeAll(set, &writer{dir: out, stdout: &log}, "none"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(out, "steal-amount.png")); err != nil || st.Size() == 0 {
		t.Errorf("steal-amount.png: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### How much a steal takes", "GOMAXPROCS 2.",
		"| work | mode | best fixed | its time | steal=auto | steal=one | steal=0.1 | steal=0.5 | steal=0.9 |",
		"| dag-uniform | master | 0.5 | 100 ns ± ∞ | 1.04 ± ∞ | 1.10 ± ∞ | 1.20 ± ∞ | 1 | 1.30 ± ∞ |",
		"| fj-fine-pool | random | 0.1 | 80.0 ns ± ∞ | – | – | 1 | 1.10 ± ∞ | – |",
		"![how much a steal takes, auto against fixed choices](steal-amount.png)",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestStealAmountSparse checks the steal-amount chart at the edges: one
// mode makes one plot, and results without a fixed choice, or without
// BenchmarkStealAmount, make none.
func TestStealAmountSparse(t *testing.T) {
	set, err := Parse([]byte("BenchmarkStealAmount/work=walk/mode=random/steal=auto 1 110 ns/op\n"+
		"BenchmarkStealAmount/work=walk/mode=random/steal=0.5 1 100 ns/op\n"), "in")
	if err != nil {
		t.Fatal(err)
	}
	r := newReport(set)
	f := chartOf(r, "steal-amount.png")
	if f == nil || len(f.panels) != 0 || len(f.series) != 2 || !f.grouped || !strings.HasSuffix(f.title, ", random mode") {
		t.Fatalf("one mode: %+v; want one plot of two choices", f)
	}
	if got := f.series[0].pts[0].Median; math.Abs(got-1.1) > 1e-12 {
		t.Errorf("auto: %v; want 1.1", got)
	}
	if png, err := f.render(r.config); err != nil || len(png) == 0 {
		t.Errorf("render: %v", err)
	}
	if !strings.Contains(strings.Join(f.notes, " "), "In 0 of 1 row, auto's median") {
		t.Errorf("notes: %q", f.notes)
	}

	set, err = Parse([]byte("BenchmarkStealAmount/work=walk/mode=random/steal=auto 1 110 ns/op\n"), "in")
	if err != nil {
		t.Fatal(err)
	}
	if r := newReport(set); chartOf(r, "steal-amount.png") != nil || strings.Contains(r.markdown(".", nil), "How much a steal takes") {
		t.Error("auto alone: a chart or a table; want neither")
	}
	for _, file := range []string{oldResults, "testdata/scheduler.txt"} {
		r := newReport(parseFile(t, file))
		if chartOf(r, "steal-amount.png") != nil || strings.Contains(r.markdown(".", nil), "How much a steal takes") {
			t.Errorf("%s: a steal-amount chart or table without BenchmarkStealAmount", file)
		}
	}
}

// TestSpanFigures checks the span figures on synthetic results whose
// figures are known: a workload of parallelism 10 measured here at 1 and
// 2 cores, and at 1 to 4 on another machine.
func TestSpanFigures(t *testing.T) {
	in := "# cores: 2\n" +
		"BenchmarkSpan/work=forkjoin-coarse-2 1 1 ns/op 10 parallelism 5 burdened-parallelism 1000000 work-ns 100000 span-ns 200000 burdened-span-ns 5000 burden-ns\n" +
		"BenchmarkSpan/work=loop-mandelbrot-2 1 1 ns/op 2 parallelism 2 burdened-parallelism 1000 work-ns 500 span-ns 500 burdened-span-ns 5000 burden-ns\n" +
		"BenchmarkSpan/work=unknown-2 1 1 ns/op 2 parallelism 2 burdened-parallelism 1000 work-ns 500 span-ns 500 burdened-span-ns\n" +
		"BenchmarkForkJoin/impl=join-bq/work=coarse 1 40 ns/op\nBenchmarkForkJoin/impl=join-bq/work=coarse-2 1 25 ns/op\n"
	far := "BenchmarkForkJoin/impl=join-bq/work=coarse 1 40 ns/op\nBenchmarkForkJoin/impl=join-bq/work=coarse-4 1 10 ns/op\n" +
		"BenchmarkDAG/queue=bq/mode=master/work=uniform/workers=1-4 1 8 ns/op\n"
	set, err := Parse([]byte(in), "in")
	if err != nil {
		t.Fatal(err)
	}
	farSet, err := Parse([]byte(far), "far")
	if err != nil {
		t.Fatal(err)
	}
	r := newReport(set)
	r.far, r.farLabel = newReport(farSet), "multicore-test"
	rows := r.spanRows()
	if len(rows) != 3 || rows[0].parallelism() != 10 || rows[0].burdened() != 5 {
		t.Fatalf("rows %+v; want three, the first of parallelism 10 and burdened 5", rows)
	}
	if lo, hi := rows[0].bounds(4); math.Abs(lo-1e6/(1e6/4+2e5)) > 1e-9 || hi != 4 {
		t.Errorf("bounds at 4: %v, %v", lo, hi)
	}
	if _, hi := rows[0].bounds(64); hi != 10 {
		t.Errorf("span bound at 64: %v; want the parallelism, 10", hi)
	}
	f := chartOf(r, "span-speedup.png")
	if f == nil || len(f.panels) != 1 {
		t.Fatalf("span-speedup.png: %+v; want one panel", f)
	}
	p := f.panels[0]
	if len(p.series) != 3 || p.series[0].name != estimateName || len(p.refs) != 1 || p.refs[0].label != boundName {
		t.Fatalf("%+v; want the estimate, two measured series and the span bound", p)
	}
	if here := p.series[1]; here.name != "measured, this machine (2 cores)" || len(here.pts) != 2 || here.pts[1].Median != 1.6 {
		t.Errorf("here: %+v; want 1.6 at 2", here)
	}
	if fs := p.series[2]; fs.name != "measured, 4 cores (multicore-test)" || len(fs.pts) != 2 || fs.pts[1].x != 4 || fs.pts[1].Median != 4 {
		t.Errorf("far: %+v; want 4 at 4", fs)
	}
	if xs := p.xs(); len(xs) != len(spanWorkers) || xs[len(xs)-1] != 64 {
		t.Errorf("x values %v; want the bounds' workers", xs)
	}
	loops := chartOf(r, "span-speedup-loops.png")
	if loops == nil || len(loops.panels) != 1 || len(loops.panels[0].series) != 1 {
		t.Fatalf("span-speedup-loops.png: %+v; want one panel, with the estimate alone", loops)
	}
	for _, c := range []*figure{f, loops} {
		if png, err := c.render(r.config); err != nil || len(png) == 0 {
			t.Errorf("%s: %v", c.title, err)
		}
	}
	md := r.markdown(".", map[string]bool{"span-speedup.png": true})
	for _, want := range []string{"### Work and span", "| forkjoin-coarse | 1.00 ms | 100 µs | 10.0 | 5.00 | ", " | 1.60× | 4.00× |", "| loop-mandelbrot |", "![speedup bounds"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "span-speedup-loops.png") {
		t.Error("report.md names a plot that was not written")
	}
	if newReport(farSet).spanCharts() != nil {
		t.Error("span charts without BenchmarkSpan")
	}
}

// TestMulticoreFlag reads the other machine's results with -multicore.
func TestMulticoreFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	farFile := filepath.Join(dir, "multicore-x", "fj.txt")
	if err := os.MkdirAll(filepath.Dir(farFile), 0o755); err != nil {
		t.Fatal(err)
	}
	for f, s := range map[string]string{
		in:      "BenchmarkSpan/work=forkjoin-coarse-2 1 1 ns/op 10 parallelism 5 burdened-parallelism 1000000 work-ns 100000 span-ns 200000 burdened-span-ns\n",
		farFile: "BenchmarkForkJoin/impl=join-bq/work=coarse 1 40 ns/op\nBenchmarkForkJoin/impl=join-bq/work=coarse-4 1 10 ns/op\n",
	} {
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(dir, "out")
	if code := run([]string{"-in", in, "-out", out, "-multicore", farFile}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "measured at 4 (multicore-x)") {
		t.Errorf("report.md:\n%s", md)
	}
	if code := run([]string{"-in", in, "-out", out, "-multicore", filepath.Join(dir, "missing.txt")}, nil, &stdout, &stderr); code != exitError {
		t.Errorf("a missing -multicore file: exit %d", code)
	}
}
