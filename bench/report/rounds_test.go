package main

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseFamily(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		argv       []string
	}{
		{"^BenchmarkPop$", "^BenchmarkPop$", []string{"-test.run", "^$", "-test.bench", "^BenchmarkPop$", "-test.count", "3", "-test.timeout", "0"}},
		{"  Pop   20x ", "Pop 20x", []string{"-test.run", "^$", "-test.bench", "Pop", "-test.count", "3", "-test.timeout", "0", "-test.benchtime", "20x"}},
		{"ForkJoin/impl=(a|b)$ 5x -test.cpu 1,2", "ForkJoin/impl=(a|b)$ 5x -test.cpu 1,2", []string{"-test.run", "^$", "-test.bench", "ForkJoin/impl=(a|b)$", "-test.count", "3", "-test.timeout", "0", "-test.benchtime", "5x", "-test.cpu", "1,2"}},
		{"DAG -dag.nodes=100000", "DAG -dag.nodes=100000", []string{"-test.run", "^$", "-test.bench", "DAG", "-test.count", "3", "-test.timeout", "0", "-dag.nodes=100000"}},
	} {
		f, err := parseFamily(tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if f.String() != tc.want {
			t.Errorf("%q reads as %q, want %q", tc.line, f, tc.want)
		}
		if got := f.argv(3); !slices.Equal(got, tc.argv) {
			t.Errorf("%q: argv %q, want %q", tc.line, got, tc.argv)
		}
	}
	for _, bad := range []string{"", "   ", "Pop 20x 30x"} {
		if _, err := parseFamily(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestPerCPU checks that a -test.cpu list becomes a family per value, in
// either spelling of the flag, with the other flags kept in place.
func TestPerCPU(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"Pop 5x", []string{"Pop 5x"}},
		{"Pop -test.cpu 2", []string{"Pop -test.cpu 2"}},
		{"FJ 5x -test.cpu 1,2 -x=1", []string{"FJ 5x -test.cpu 1 -x=1", "FJ 5x -test.cpu 2 -x=1"}},
		{"FJ -test.cpu=1,2,4", []string{"FJ -test.cpu 1", "FJ -test.cpu 2", "FJ -test.cpu 4"}},
		{"FJ -test.cpu", []string{"FJ -test.cpu"}},
	} {
		f, err := parseFamily(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range f.perCPU() {
			got = append(got, g.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestReadPlan(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.plan")
	bad := filepath.Join(dir, "bad.plan")
	os.WriteFile(good, []byte("# families\n\nPop 10x\n  # indented comment\nPush -test.cpu 2\n"), 0o644)
	os.WriteFile(bad, []byte("Pop\n\nPush 1x 2x\n"), 0o644)
	fams, err := readPlan(good)
	if err != nil || len(fams) != 2 || fams[0].String() != "Pop 10x" || fams[1].String() != "Push -test.cpu 2" {
		t.Errorf("good plan: %v, %v", fams, err)
	}
	if _, err := readPlan(bad); err == nil || !strings.Contains(err.Error(), "bad.plan:3:") {
		t.Errorf("bad plan: %v, want an error at line 3", err)
	}
}

func TestPlanOfTheDocs(t *testing.T) {
	fams, err := readPlan("benchmarks.plan")
	if err != nil {
		t.Fatal(err)
	}
	if len(fams) < 10 {
		t.Errorf("benchmarks.plan has %d families", len(fams))
	}
}

func TestMisuseRounds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-plan", "x.plan", "-bench", "Pop"}, "-bench does not go with -plan or -family"},
		{[]string{"-family", "Pop", "-cpu", "2"}, "-cpu does not go with -plan or -family"},
		{[]string{"-rounds", "3", "-count", "2"}, "-count does not go with -rounds"},
		{[]string{"-rounds", "-1"}, "-rounds -1: want at least 1"},
		{[]string{"-bin", "a=x", "-bin", "b=y"}, "compare them with -rounds"},
		{[]string{"-bin", "1=x", "-rounds", "2"}, `-bin "1=x": want NAME=PATH`},
		{[]string{"-bin", "a", "-rounds", "2"}, `-bin "a": want NAME=PATH`},
		{[]string{"-ratio", "new/old"}, "-ratio needs the rounds of -rounds, or -in"},
		{[]string{"-in", "r.txt", "-ratio", "new/old", "-out", "x"}, "-ratio with -in prints its tables and writes nothing"},
		{[]string{"-in", "r.txt", "-plan", "x.plan"}, "-plan applies only when the benchmarks run"},
		{[]string{"-metric", "ns/task"}, "-metric applies only to -ratio"},
		{[]string{"-ratio", "new"}, "not two parts"},
		{[]string{"-ratio", "queue=bq/old"}, "a tag against a name element"},
		{[]string{"-ratio", "queue=bq/impl=x"}, "two keys"},
		{[]string{"-ratio", "*/old"}, "the numerator is *"},
		{[]string{"-family", "Pop 1x 2x"}, "neither a benchtime nor a flag"},
		{[]string{"-rounds", "2", "-bin", "a=x", "-bin", "b=y", "-md", "BENCHMARKS.md"}, "-md needs the report of one binary"},
	} {
		code, stdout, stderr := runCmd(t, "", tc.args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", tc.args, code, stdout, exitUsage)
		}
		checkOneError(t, stderr, tc.want)
	}
}

func TestReadRounds(t *testing.T) {
	in := `# goversion: go1.26.8
goos: linux
# round 1 load 1.0
old r1 BenchmarkA/x=1-2   10   100 ns/op   5 ns/task
new r1 BenchmarkA/x=1-2   10   50 ns/op
# round 1 again, as rounds.sh wrote it before each binary
BenchmarkB/q=bq-2   10   7 ns/op   0.5 idle-share
# round 2 load 1.1
BenchmarkB/q=bq-2   10   8 ns/op
3 sa5 BenchmarkC/steal=auto-2 1200
2 1 BenchmarkLoop/work=w/impl=wsq 18505822
PASS
`
	rs, err := readRounds([]byte(in), "in")
	if err != nil {
		t.Fatal(err)
	}
	want := []roundResult{
		{"r1", "old", "BenchmarkA/x=1-2", map[string]float64{"ns/op": 100, "ns/task": 5}, ""},
		{"r1", "new", "BenchmarkA/x=1-2", map[string]float64{"ns/op": 50}, ""},
		{"#1", "", "BenchmarkB/q=bq-2", map[string]float64{"ns/op": 7, "idle-share": 0.5}, ""},
		{"#2", "", "BenchmarkB/q=bq-2", map[string]float64{"ns/op": 8}, ""},
		{"r3", "sa5", "BenchmarkC/steal=auto-2", map[string]float64{"ns/op": 1200}, ""},
		{"r2", "1", "BenchmarkLoop/work=w/impl=wsq", map[string]float64{"ns/op": 18505822}, ""},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results, want %d: %v", len(rs), len(want), rs)
	}
	for i, w := range want {
		r := rs[i]
		if r.round != w.round || r.tag != w.tag || r.name != w.name || len(r.metrics) != len(w.metrics) {
			t.Errorf("result %d: %+v, want %+v", i, r, w)
		}
		for u, v := range w.metrics {
			if r.metrics[u] != v {
				t.Errorf("result %d: %s %v, want %v", i, u, r.metrics[u], v)
			}
		}
	}
	for _, bad := range []string{"BenchmarkA 10 x ns/op\n", "BenchmarkA 10 1 ns/op 2\n", "BenchmarkA ten 1 ns/op\n", "PASS\n"} {
		if _, err := readRounds([]byte(bad), "bad"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestRatioTables(t *testing.T) {
	var in strings.Builder
	// Three rounds; new takes half of old's time, then a fifth, then as
	// long: the ratios 0.5, 0.2 and 1, median 0.5.
	for i, r := range []struct{ old, new string }{{"100", "50"}, {"100", "20"}, {"40", "40"}} {
		round := []string{"1", "2", "3"}[i]
		in.WriteString("old " + round + " BenchmarkA/q=x-2 1 " + r.old + " ns/op\n")
		in.WriteString("new " + round + " BenchmarkA/q=x-2 1 " + r.new + " ns/op\n")
	}
	rs, err := readRounds([]byte(in.String()), "in")
	if err != nil {
		t.Fatal(err)
	}
	q, _ := parseRatio("new/old")
	got, err := ratioTables(rs, q, "ns/op")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "| A/q=x-2 | 40.0 ns | 100 ns | 0.500 (0.200–1.000) | 3 |") {
		t.Errorf("new/old:\n%s", got)
	}

	// Choices of one element: auto against every other value, by round
	// and per tag.
	in.Reset()
	for _, l := range []string{
		"# round 1", "BenchmarkS/w=a/steal=auto-2 1 10 ns/op", "BenchmarkS/w=a/steal=one-2 1 20 ns/op", "BenchmarkS/w=a/steal=half-2 1 8 ns/op",
		"# round 2", "BenchmarkS/w=a/steal=auto-2 1 12 ns/op", "BenchmarkS/w=a/steal=one-2 1 12 ns/op", "BenchmarkS/w=a/steal=half-2 1 10 ns/op",
		"# round 3", "BenchmarkS/w=a/steal=auto-2 1 11 ns/op", "BenchmarkS/w=a/steal=one-2 1 22 ns/op", "BenchmarkS/w=a/steal=half-2 1 9 ns/op",
	} {
		in.WriteString(l + "\n")
	}
	rs, err = readRounds([]byte(in.String()), "in")
	if err != nil {
		t.Fatal(err)
	}
	q, _ = parseRatio("steal=auto/steal=*")
	got, err = ratioTables(rs, q, "ns/op")
	if err != nil {
		t.Fatal(err)
	}
	// auto ÷ one: 0.5, 1, 0.5; auto ÷ half: 1.25, 1.2, 1.222; the best
	// median is half's, 9: 11 / 9 = 1.222.
	if !strings.Contains(got, "| S/w=a/steal=*-2 | 11.0 ns | 20.0 ns | 9.00 ns | 0.500 (0.500–1.000) | 1.222 (1.200–1.250) | 1.222 (1.200–1.250) | 1.222 (half) | 3 |") ||
		!strings.Contains(got, "steal=auto is within 5 % of the best in 0 of 1 rows.") || strings.Contains(got, "| tag |") {
		t.Errorf("steal=auto/steal=*:\n%s", got)
	}
	// A list of DENs: only those listed. Against one, no best columns.
	q, err = parseRatio("steal=auto/steal=half")
	if err != nil {
		t.Fatal(err)
	}
	if got, err = ratioTables(rs, q, "ns/op"); err != nil || strings.Contains(got, "steal=one") || strings.Contains(got, "best") {
		t.Errorf("steal=auto/steal=half: %v\n%s", err, got)
	}

	// The best in the round is not the best median: one is the least in
	// round 2 only, half in rounds 1 and 3, and a round without all of
	// them counts for none.
	in.Reset()
	for _, l := range []string{
		"# round 1", "BenchmarkP/impl=w-2 1 10 ns/op", "BenchmarkP/impl=a-2 1 20 ns/op", "BenchmarkP/impl=b-2 1 5 ns/op", "BenchmarkP/impl=g-2 1 1 ns/op",
		"# round 2", "BenchmarkP/impl=w-2 1 10 ns/op", "BenchmarkP/impl=a-2 1 4 ns/op", "BenchmarkP/impl=b-2 1 8 ns/op", "BenchmarkP/impl=g-2 1 1 ns/op",
		"# round 3", "BenchmarkP/impl=w-2 1 10 ns/op", "BenchmarkP/impl=a-2 1 20 ns/op", "BenchmarkP/impl=b-2 1 10 ns/op", "BenchmarkP/impl=g-2 1 1 ns/op",
		"# round 4", "BenchmarkP/impl=w-2 1 10 ns/op", "BenchmarkP/impl=a-2 1 1 ns/op", "BenchmarkP/impl=g-2 1 1 ns/op",
		"# round 5", "BenchmarkQ/impl=w-2 1 10 ns/op", "BenchmarkQ/impl=j-2 1 20 ns/op", "BenchmarkQ/impl=r-2 1 40 ns/op",
	} {
		in.WriteString(l + "\n")
	}
	if rs, err = readRounds([]byte(in.String()), "in"); err != nil {
		t.Fatal(err)
	}
	q, err = parseRatio("impl=w/impl=a,b,j,r")
	if err != nil {
		t.Fatal(err)
	}
	got, err = ratioTables(rs, q, "ns/op")
	if err != nil {
		t.Fatal(err)
	}
	// P: w ÷ the least of a and b: 2, 2.5, 1 in rounds 1-3; the medians
	// of a and b are 12 and 8 (g, not listed, stays out). Q: one round.
	for _, want := range []string{
		"| P/impl=*-2 | 10.0 ns | 12.0 ns | 8.00 ns | 1.500 (0.500–10.000) | 1.250 (1.000–2.000) | 2.000 (1.000–2.500) | 1.250 (b) | 4 |",
		"| Q/impl=*-2 | 10.0 ns | 20.0 ns | 40.0 ns | 0.500 (0.500–0.500) | 0.250 (0.250–0.250) | 0.500 (0.500–0.500) | 0.500 (j) | 1 |",
	} {
		if !strings.Contains(got, want) || strings.Contains(got, "impl=g") {
			t.Errorf("impl=w/impl=a,b,j,r: no row %s in\n%s", want, got)
		}
	}
	for _, bad := range []string{"impl=w/impl=a,", "impl=w/impl=a,*", "impl=w/impl=a,impl=b", "new/old,"} {
		if _, err := parseRatio(bad); err == nil {
			t.Errorf("-ratio %s: no error", bad)
		}
	}
	if q, err := parseRatio("new/old,older"); err != nil || !q.takes("older") || q.takes("new") || q.takes("oldest") {
		t.Errorf("-ratio new/old,older: %+v, %v", q, err)
	}

	q, _ = parseRatio("steal=auto/steal=none")
	if _, err := ratioTables(rs, q, "ns/op"); err == nil {
		t.Error("a ratio with nothing to compare: no error")
	}
}

func TestRotated(t *testing.T) {
	var rounds [][]int
	for r := 1; r <= 3; r++ {
		var order []int
		for i := range 3 {
			order = append(order, rotated(i, r, 3))
		}
		rounds = append(rounds, order)
	}
	if want := [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}}; !slices.EqualFunc(rounds, want, slices.Equal) {
		t.Errorf("orders %v, want %v", rounds, want)
	}
}

// fakeBinary writes a shell script that acts as a test binary: it appends
// its arguments to log and prints one result of ns nanoseconds per
// benchmark of the family (Pop or Push), for each -test.count.
func fakeBinary(t *testing.T, dir, name, ns, log string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := `#!/bin/sh
echo "$@" >> ` + log + `
count=1 bench=
while [ $# -gt 0 ]; do
  case $1 in -test.count) count=$2 ;; -test.bench) bench=$2 ;; esac
  shift
done
echo "goos: linux"
echo "cpu: Fake CPU"
i=0
while [ $i -lt $count ]; do
  case $bench in
    *Pop*) echo "BenchmarkPop/queue=bq-2 	 1000	 ` + ns + ` ns/op" ;;
    *Push*) echo "BenchmarkPush/queue=bq-2 	 1000	 ` + ns + ` ns/op" ;;
  esac
  i=$((i+1))
done
echo PASS
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunRounds(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake test binaries are shell scripts")
	}
	root := fakeRoot(t)
	if err := os.MkdirAll(filepath.Join(root, "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "args.log")
	a := fakeBinary(t, dir, "a.test", "10", log)
	b := fakeBinary(t, dir, "b.test", "5", log)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd(t, "", "-rounds", "2", "-bin", "old="+a, "-bin", "new="+b,
		"-family", "^BenchmarkPop$ 3x", "-family", "^BenchmarkPush$ -test.cpu 2",
		"-ratio", "new/old", "-out", out, "-progress=false")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rounds, err := os.ReadFile(filepath.Join(out, "rounds.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var tagged []string
	for _, l := range strings.Split(string(rounds), "\n") {
		if f := strings.Fields(l); len(f) > 2 && strings.HasPrefix(f[2], "Benchmark") {
			tagged = append(tagged, f[0]+" "+f[1]+" "+f[2])
		}
	}
	// The families start one place later each round, and so do the
	// binaries within a family, offset by the family's place.
	want := []string{
		"old 1 BenchmarkPop/queue=bq-2", "new 1 BenchmarkPop/queue=bq-2", "new 1 BenchmarkPush/queue=bq-2", "old 1 BenchmarkPush/queue=bq-2",
		"old 2 BenchmarkPush/queue=bq-2", "new 2 BenchmarkPush/queue=bq-2", "new 2 BenchmarkPop/queue=bq-2", "old 2 BenchmarkPop/queue=bq-2",
	}
	if !slices.Equal(tagged, want) {
		t.Errorf("rounds.txt's results:\n%s\nwant\n%s", strings.Join(tagged, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{"# rounds: 2\n", "cpu: Fake CPU\n", "# family: ^BenchmarkPush$ -test.cpu 2\n", "# round 2 load "} {
		if !strings.Contains(string(rounds), w) {
			t.Errorf("rounds.txt lacks %q:\n%s", w, rounds)
		}
	}
	ratios, _ := os.ReadFile(filepath.Join(out, "ratios.md"))
	if !strings.Contains(string(ratios), "| Pop/queue=bq-2 | 5.00 ns | 10.0 ns | 0.500 (0.500–0.500) | 2 |") || !strings.Contains(stdout, string(ratios)) {
		t.Errorf("ratios.md:\n%s\nstdout:\n%s", ratios, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "bench.txt")); err == nil {
		t.Error("rounds of two binaries wrote bench.txt")
	}
	args, _ := os.ReadFile(log)
	if !strings.Contains(string(args), "-test.run ^$ -test.bench ^BenchmarkPop$ -test.count 1 -test.timeout 0 -test.benchtime 3x\n") ||
		!strings.Contains(string(args), "-test.bench ^BenchmarkPush$ -test.count 1 -test.timeout 0 -test.cpu 2\n") {
		t.Errorf("the binaries' arguments:\n%s", args)
	}

	// -in reads the rounds back.
	code, stdout, stderr = runCmd(t, "", "-in", filepath.Join(out, "rounds.txt"), "-ratio", "new/old")
	if code != exitOK || !strings.HasPrefix(stdout, "Medians of ns/op") || !strings.Contains(string(ratios), stdout) {
		t.Errorf("-in rounds.txt -ratio: exit %d, %s\nstdout:\n%s", code, stderr, stdout)
	}
}

func TestRunPlan(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake test binary is a shell script")
	}
	root := fakeRoot(t)
	if err := os.MkdirAll(filepath.Join(root, "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "args.log")
	bin := fakeBinary(t, dir, "a.test", "10", log)
	plan := filepath.Join(dir, "x.plan")
	os.WriteFile(plan, []byte("# two families\n^BenchmarkPop$ 1x\n^BenchmarkPush$\n"), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd(t, "", "-plan", plan, "-bin", "a="+bin, "-count", "2", "-out", out, "-progress=false")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(filepath.Join(out, "bench.txt"))
	if strings.Count(string(raw), "BenchmarkPop/queue=bq-2") != 2 || strings.Count(string(raw), "BenchmarkPush/queue=bq-2") != 2 ||
		strings.Count(string(raw), "goos: linux") != 1 || !strings.HasPrefix(string(raw), "# goversion: ") {
		t.Errorf("bench.txt:\n%s", raw)
	}
	loads, _ := os.ReadFile(filepath.Join(out, "loads.txt"))
	if !strings.Contains(string(loads), "# load before ^BenchmarkPop$ 1x: ") || !strings.Contains(string(loads), "# load after: ") {
		t.Errorf("loads.txt:\n%s", loads)
	}
	for _, f := range []string{"report.md", "samples.csv", "pop.png"} {
		if !strings.Contains(stdout, filepath.Join(out, f)) {
			t.Errorf("the plan's run did not write %s:\n%s", f, stdout)
		}
	}
}

func TestParseSideFamily(t *testing.T) {
	for _, tc := range []struct {
		line, want, side, row string
		argv                  []string
	}{
		{"rust: -bench BenchmarkPop/* -benchtime 2x", "rust: -bench BenchmarkPop/* -benchtime 2x", "rust", "", []string{"-bench", "BenchmarkPop/*", "-benchtime", "2x"}},
		{"pop-1/go:  -test.bench ^BenchmarkPop$ -test.cpu 1,2", "pop-1/go: -test.bench ^BenchmarkPop$ -test.cpu 1,2", "go", "pop-1", []string{"-test.bench", "^BenchmarkPop$", "-test.cpu", "1,2"}},
	} {
		f, err := parseFamily(tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if f.String() != tc.want || f.side != tc.side || f.row != tc.row || !slices.Equal(f.argv(3), tc.argv) {
			t.Errorf("%q reads as %q (side %q, row %q, argv %q)", tc.line, f, f.side, f.row, f.argv(3))
		}
		// A side family's -test.cpu list is its binary's own.
		if n := len(f.perCPU()); n != 1 {
			t.Errorf("%q: %d families per CPU", tc.line, n)
		}
	}
	if _, err := parseFamily("rust:"); err == nil {
		t.Error("a side family without arguments: no error")
	}
	if err := checkSides([]family{{side: "rust", args: []string{"-x"}}}, nil, 1); err == nil || !strings.Contains(err.Error(), "no -bin names rust") {
		t.Errorf("a side without its binary: %v", err)
	}
	if err := checkSides([]family{{side: "rust", args: []string{"-x"}}}, []testBinary{{"rust", "x"}}, 0); err == nil || !strings.Contains(err.Error(), "runs only in -rounds") {
		t.Errorf("a side family without rounds: %v", err)
	}
}

func TestRoundOrder(t *testing.T) {
	go1, rust := testBinary{"go", "g"}, testBinary{"rust", "r"}
	fams := []family{
		{side: "go", row: "a", args: []string{"1"}},
		{bench: "Pop"},
		{side: "rust", row: "a", args: []string{"2"}},
		{side: "rust", args: []string{"3"}},
	}
	rows := sideRows([]testBinary{go1, rust}, fams)
	var got []string
	for round := 1; round <= 3; round++ {
		var order []string
		for _, x := range roundOrder(rows, round) {
			order = append(order, x.b.name+":"+x.f.String())
		}
		got = append(got, strings.Join(order, ", "))
	}
	// Rows a (go then rust), Pop (every binary) and the lone rust side;
	// the rows rotate, and each row's runs start one later each round,
	// offset by the row's place.
	want := []string{
		"go:a/go: 1, rust:a/rust: 2, rust:Pop, go:Pop, rust:rust: 3",
		"go:Pop, rust:Pop, rust:rust: 3, rust:a/rust: 2, go:a/go: 1",
		"rust:rust: 3, go:a/go: 1, rust:a/rust: 2, rust:Pop, go:Pop",
	}
	if !slices.Equal(got, want) {
		t.Errorf("orders:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sideBinary writes a shell script that acts as a peer's harness: it
// appends its arguments to log and prints lines, whatever it is asked.
func sideBinary(t *testing.T, dir, name, log string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\necho 'cpu: Fake CPU'\n"
	for _, l := range lines {
		script += "echo '" + l + "'\n"
	}
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunSides runs two sides of one row in rounds, and takes the ratios
// of their contenders across the binaries and the pairs' tables.
func TestRunSides(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake binaries are shell scripts")
	}
	root := fakeRoot(t)
	if err := os.MkdirAll(filepath.Join(root, "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "args.log")
	g := sideBinary(t, dir, "go.test", log, "BenchmarkLoop/work=w/impl=wsq-2 \t 10\t 30 ns/op", "BenchmarkLoop/work=w/impl=serial-2 \t 10\t 60 ns/op")
	r := sideBinary(t, dir, "rust", log, "BenchmarkLoop/work=w/impl=rayon-2\t 10\t 40 ns/op")
	pairs := filepath.Join(dir, "pairs.tsv")
	os.WriteFile(pairs, []byte("label\trust\tRust\nloop-2\ta loop\tns/op\t\tgo:wsq/rust:rayon\n"), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd(t, "", "-rounds", "2", "-bin", "go="+g, "-bin", "rust="+r,
		"-family", "loop-2/go: -test.bench ^BenchmarkLoop$ -test.cpu 2", "-family", "loop-2/rust: -bench BenchmarkLoop/* -cpu 2",
		"-ratio", "impl=wsq/impl=*", "-across", "-pairs", pairs, "-command", "loops", "-out", out, "-progress=false")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rounds, _ := os.ReadFile(filepath.Join(out, "rounds.txt"))
	for _, w := range []string{
		"# family: loop-2/rust: -bench BenchmarkLoop/* -cpu 2\n",
		"\ngo 1 loop-2 BenchmarkLoop/work=w/impl=wsq-2 \t 10\t 30 ns/op\n",
		"\nrust 2 loop-2 BenchmarkLoop/work=w/impl=rayon-2\t 10\t 40 ns/op\ngo 2 loop-2 ",
		"\ngo 2 loop-2 BenchmarkLoop/work=w/impl=serial-2 \t 10\t 60 ns/op\n# end load ",
	} {
		if !strings.Contains(string(rounds), w) {
			t.Errorf("rounds.txt lacks %q:\n%s", w, rounds)
		}
	}
	args, _ := os.ReadFile(log)
	if want := "-test.bench ^BenchmarkLoop$ -test.cpu 2\n-bench BenchmarkLoop/* -cpu 2\n-bench BenchmarkLoop/* -cpu 2\n-test.bench ^BenchmarkLoop$ -test.cpu 2\n"; string(args) != want {
		t.Errorf("the sides' arguments:\n%s\nwant\n%s", args, want)
	}
	rust, _ := os.ReadFile(filepath.Join(out, "rust.txt"))
	if want := "BenchmarkLoop/work=w/impl=rayon-2\t 10\t 40 ns/op\n"; string(rust) != want+want {
		t.Errorf("rust.txt:\n%s", rust)
	}
	ratios, _ := os.ReadFile(filepath.Join(out, "ratios.md"))
	if !strings.Contains(string(ratios), "| Loop/work=w/impl=*-2 | 30.0 ns | 60.0 ns | 40.0 ns | 0.500 (0.500–0.500) | 0.750 (0.750–0.750) |") {
		t.Errorf("ratios.md:\n%s", ratios)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !strings.HasPrefix(string(summary), "Measured ") || !strings.Contains(string(summary), ", Fake CPU, ") ||
		!strings.Contains(string(summary), " 2 rounds, load average ") || !strings.Contains(string(summary), "; `loops`.\n") ||
		!strings.HasSuffix(string(summary), "| a loop | wsq | rayon (Rust) | **0.750** (0.750–0.750) |\n") || !strings.Contains(stdout, string(summary)) {
		t.Errorf("summary.md:\n%s\nstdout:\n%s", summary, stdout)
	}
	for _, f := range []string{"table.md", "go.txt", "rust.txt", "rounds.txt"} {
		if !strings.Contains(stdout, "wrote "+filepath.Join(out, f)+"\n") {
			t.Errorf("stdout does not name %s:\n%s", f, stdout)
		}
	}

	// Per binary, the ratios find no rayon beside wsq.
	code, _, stderr = runCmd(t, "", "-in", filepath.Join(out, "rounds.txt"), "-ratio", "impl=wsq/impl=rayon")
	if code != exitError || !strings.Contains(stderr, "no benchmark has both sides") {
		t.Errorf("-ratio without -across: exit %d, %s", code, stderr)
	}
}

func TestMisuseSides(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-pairs", "p.tsv"}, "-pairs needs the rounds of -rounds, or -in"},
		{[]string{"-in", "r.txt", "-pairs", "p.tsv", "-out", "x"}, "-pairs with -in prints its tables and writes nothing"},
		{[]string{"-in", "r.txt", "-ratio", "new/old", "-command", "x"}, "-command applies only to -pairs"},
		{[]string{"-in", "r.txt", "-ratio", "new/old", "-across"}, "-across applies only to a -ratio KEY=A/KEY=B"},
		{[]string{"-rounds", "1", "-bin", "rounds=x"}, "rounds.txt is the command's own"},
		{[]string{"-family", "rust:"}, "no arguments for rust"},
	} {
		code, stdout, stderr := runCmd(t, "", tc.args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", tc.args, code, stdout, exitUsage)
		}
		checkOneError(t, stderr, tc.want)
	}
}
