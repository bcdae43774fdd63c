package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func parseSample(t *testing.T) *Set {
	t.Helper()
	f, err := os.Open("testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := Parse(f)
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
	want := map[string]int{"DAG": 144, "DAGCeiling": 4, "MasterCapacity": 36, "Pop": 12, "Push": 108, "Steal": 168}
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
	if s.Procs != 2 || s.Iters != 1 || s.Metrics["ns/op"] != 13486 || s.Metrics["allocs/op"] != 0 {
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
		"goos: linux",
		"BenchmarkDAG/queue=lf/mode=master/work=uniform/workers=2",             // -v announcement
		"BenchmarkPop/queue=mutex 	 1000	 12.5 ns/op",                          // GOMAXPROCS 1: no suffix
		"BenchmarkPush/queue=tf-ub/batch=64-64 	 10	 1500 ns/op	 23.4 ns/item", // queue name with a dash
		"    dag_test.go:12: a log line",
		"PASS",
		"ok  	github.com/worksteal/wsq/bench	1.0s",
	}, "\n")
	set, err := Parse(strings.NewReader(in))
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
	if _, err := Parse(strings.NewReader("BenchmarkX-2 1 abc ns/op")); err == nil {
		t.Error("a bad value parsed")
	}
}

func TestSummarizeMedian(t *testing.T) {
	mk := func(v float64, procs int) Sample {
		return Sample{Name: "Pop/queue=q", Bench: "Pop", Procs: procs, Params: map[string]string{"queue": "q"}, Metrics: map[string]float64{"ns/op": v}}
	}
	rows := Summarize([]Sample{mk(5, 2), mk(1, 2), mk(3, 2), mk(100, 4), mk(7, 2)})
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Procs != 2 || r.N != 4 || r.Median["ns/op"] != 4 || r.Min["ns/op"] != 1 || r.Max["ns/op"] != 7 {
		t.Errorf("row: %+v", r)
	}
	if rows[1].Procs != 4 || rows[1].Median["ns/op"] != 100 {
		t.Errorf("row: %+v", rows[1])
	}
}

func TestSpeedups(t *testing.T) {
	cs := speedups([]curve{
		{"a", []xy{{1, 8}, {2, 4}, {4, 2.5}}},
		{"no-base", []xy{{2, 4}}},
	})
	if len(cs) != 1 || cs[0].pts[1].y != 2 || cs[0].pts[2].y != 3.2 {
		t.Errorf("speedups: %+v", cs)
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
	if err := writeAll(set, out, md, &log); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"samples.csv", "summary.csv", "report.md", "push.png", "steal-n10000.png", "steal-n100000.png", "pop.png",
		"dag-time-uniform-master.png", "dag-speedup-irregular-random.png", "master-capacity.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{
		"The lead's prose.", "## Recipe", // outside the region: kept
		"### Push latency by batch size", "| queue | batch=1 | batch=4 |",
		"### Steal latency by proportion", "n = 10000 items:",
		"### Pop latency", "### DAG exploration", "uniform work:", "irregular work:",
		"| lf | master |", "| ceiling | – |", "### Master capacity", "![push latency by batch size](results/push.png)",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("BENCHMARKS.md lacks %q", want)
		}
	}
	if strings.Contains(doc, "stale") {
		t.Error("the old region survived")
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
}

func TestBenchArgs(t *testing.T) {
	got := strings.Join(benchArgs(options{pkg: "./bench", bench: "DAG", count: "3", benchtime: "2x", cpu: "1,2", args: "-dag.nodes=2500000"}), " ")
	want := "test -run ^$ -bench DAG -count 3 -timeout 0 -benchtime 2x -cpu 1,2 ./bench -dag.nodes=2500000"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRunFromFile(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	err := run([]string{"-in", "testdata/sample.txt", "-root", dir, "-md", "none"}, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "report", "results", "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sample, _ := os.ReadFile("testdata/sample.txt")
	if !bytes.Equal(raw, sample) {
		t.Error("bench.txt is not a copy of the input")
	}
	if _, err := os.Stat(filepath.Join(dir, "BENCHMARKS.md")); !os.IsNotExist(err) {
		t.Errorf("-md none wrote BENCHMARKS.md: %v", err)
	}
	if !strings.Contains(log.String(), "472 samples") {
		t.Errorf("log: %s", log.String())
	}
	if err := run([]string{"-in", "-", "-root", dir, "-md", "none"}, strings.NewReader("PASS\n"), &log); err == nil {
		t.Error("empty input accepted")
	}
}
