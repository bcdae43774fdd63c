package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A family is what one run of a test binary measures: the benchmarks that
// match a -test.bench regexp, at a -test.benchtime (empty: the binary's
// default), with more flags of the test binary (such as -test.cpu 1,2 or
// -dag.nodes=100000). It is written as one line:
//
//	REGEXP [BENCHTIME] [FLAG ...]
//
// The fields are split at spaces, so the regexp holds none.
//
// A side family is one run of one binary with arguments of its own, such
// as a peer's harness that prints Go's benchmark format:
//
//	[ROW/]NAME: ARG ...
//
// NAME is the binary's name (-bin), and the arguments go to it as they
// are. The side families of one ROW are the sides of one comparison: in
// each round they run one after the other.
type family struct {
	bench, benchtime string
	args             []string
	// side is the binary that runs a side family, and row its row; both
	// are empty for a family that every binary runs.
	side, row string
}

// sideHead matches the first field of a side family: [ROW/]NAME:.
var sideHead = regexp.MustCompile(`^(?:([A-Za-z][A-Za-z0-9._-]*)/)?([A-Za-z][A-Za-z0-9._-]*):$`)

// parseFamily parses a family's line.
func parseFamily(line string) (family, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return family{}, errors.New("a family needs a -bench regexp")
	}
	if m := sideHead.FindStringSubmatch(f[0]); m != nil {
		if len(f) == 1 {
			return family{}, fmt.Errorf("family %q: no arguments for %s", line, m[2])
		}
		return family{row: m[1], side: m[2], args: f[1:]}, nil
	}
	fam := family{bench: f[0], args: f[1:]}
	if len(fam.args) > 0 && !strings.HasPrefix(fam.args[0], "-") {
		fam.benchtime, fam.args = fam.args[0], fam.args[1:]
	}
	if len(fam.args) > 0 && !strings.HasPrefix(fam.args[0], "-") {
		return family{}, fmt.Errorf("family %q: %q is neither a benchtime nor a flag", line, fam.args[0])
	}
	return fam, nil
}

// String returns the family's line.
func (f family) String() string {
	if f.side != "" {
		head := f.side + ":"
		if f.row != "" {
			head = f.row + "/" + head
		}
		return strings.Join(append([]string{head}, f.args...), " ")
	}
	fields := []string{f.bench}
	if f.benchtime != "" {
		fields = append(fields, f.benchtime)
	}
	return strings.Join(append(fields, f.args...), " ")
}

// argv returns the test binary's arguments for count samples of f, or a
// side family's own arguments.
func (f family) argv(count int) []string {
	if f.side != "" {
		return f.args
	}
	a := []string{"-test.run", "^$", "-test.bench", f.bench, "-test.count", strconv.Itoa(count), "-test.timeout", "0"}
	if f.benchtime != "" {
		a = append(a, "-test.benchtime", f.benchtime)
	}
	return append(a, f.args...)
}

// readPlan reads a plan: a family a line; blank lines and lines that
// start with # are skipped.
func readPlan(name string) ([]family, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var fams []family
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, err := parseFamily(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		fams = append(fams, f)
	}
	if len(fams) == 0 {
		return nil, fmt.Errorf("%s: no family in the plan", name)
	}
	return fams, nil
}

// families returns the families of a run: those of -plan and -family, or
// else the one of -bench, -benchtime, -cpu and -args.
func (o *options) families() ([]family, error) {
	var fams []family
	if o.plan != "" {
		var err error
		if fams, err = readPlan(o.plan); err != nil {
			return nil, err
		}
	}
	fams = append(fams, o.family...)
	if len(fams) == 0 {
		f := family{bench: o.bench, benchtime: o.benchtime}
		if o.cpu != "" {
			f.args = append(f.args, "-test.cpu", o.cpu)
		}
		f.args = append(f.args, strings.Fields(o.args)...)
		fams = []family{f}
	}
	var split []family
	for _, f := range fams {
		split = append(split, f.perCPU()...)
	}
	return split, nil
}

// perCPU returns f as one family per value of its -test.cpu list: a test
// binary runs the first sample of a list at the list's last GOMAXPROCS
// (Go issue golang/go#49980), so a list's first value would be measured
// wrong in its first sample, and in every sample of a round's one.
func (f family) perCPU() []family {
	if f.side != "" {
		return []family{f}
	}
	for i, a := range f.args {
		name, list, hasValue := strings.Cut(a, "=")
		if name != "-test.cpu" && name != "--test.cpu" {
			continue
		}
		if !hasValue {
			if i+1 == len(f.args) {
				return []family{f}
			}
			list = f.args[i+1]
		}
		values := strings.Split(list, ",")
		if len(values) < 2 {
			return []family{f}
		}
		rest := f.args[i+1:]
		if !hasValue {
			rest = f.args[i+2:]
		}
		var fams []family
		for _, v := range values {
			g := f
			g.args = append(append(slices.Clone(f.args[:i:i]), "-test.cpu", v), rest...)
			fams = append(fams, g)
		}
		return fams
	}
	return []family{f}
}

// A testBinary is a compiled test binary of the benchmarked package, by
// the name its lines carry in rounds.txt.
type testBinary struct{ name, path string }

// binName is what a binary's name may be: not a number, which would read
// as a round, and no spaces.
var binName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*$`)

// ownFiles are the names of the .txt files that the command writes: no
// binary's results may take them.
var ownFiles = []string{"bench", "loads", "rounds"}

// parseBinary parses -bin's NAME=PATH.
func parseBinary(s string) (testBinary, error) {
	name, path, ok := strings.Cut(s, "=")
	if !ok || path == "" || !binName.MatchString(name) {
		return testBinary{}, fmt.Errorf("-bin %q: want NAME=PATH, NAME a letter and then letters, digits, '.', '_' or '-'", s)
	}
	if slices.Contains(ownFiles, name) {
		return testBinary{}, fmt.Errorf("-bin %q: NAME.txt holds the binary's results, and %s.txt is the command's own", s, name)
	}
	return testBinary{name, path}, nil
}

// usesBinaries reports whether the run goes through test binaries (a plan,
// families, rounds or given binaries) rather than one go test command.
func (o *options) usesBinaries() bool {
	return o.plan != "" || len(o.family) > 0 || o.rounds > 0 || len(o.bins) > 0
}

// runOutput is what a run of test binaries produced.
type runOutput struct {
	// bench is the header, go test's configuration lines and every
	// result line, as go test prints them: the report's input. It is nil
	// for rounds of more than one binary, whose lines the report would
	// mix.
	bench []byte
	// rounds, with -rounds, is the header, then each result line after
	// its binary's name and its round, under a comment line per round.
	rounds []byte
	// loads is the load average before each run of a family, without
	// -rounds (rounds.txt has it per round).
	loads []byte
	// byBinary, for rounds of more than one binary, holds each binary's
	// result lines, by its name, for those with any: benchstat's input.
	byBinary map[string][]byte
}

// runBinaries builds the package's test binary unless -bin named some,
// and runs every family: -count samples each, one after the other, or
// with -rounds in interleaved rounds of one sample each.
func runBinaries(root string, o *options, stderr io.Writer) (*runOutput, error) {
	fams, err := o.families()
	if err != nil {
		return nil, err
	}
	if err := checkSides(fams, o.bins, o.rounds); err != nil {
		return nil, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bins := o.bins
	if len(bins) == 0 {
		tmp, err := os.MkdirTemp("", "wsq-report-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		b := testBinary{"head", filepath.Join(tmp, "head.test")}
		fmt.Fprintf(stderr, "building go test -c -o %s %s (in %s)\n", b.path, o.pkg, root)
		cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", b.path, o.pkg)
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, stderr, stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("go test -c %s: %w", o.pkg, err)
		}
		bins = []testBinary{b}
	}
	for i, b := range bins {
		abs, err := filepath.Abs(b.path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, err
		}
		bins[i].path = abs
	}
	h, err := header(root, time.Now())
	if err != nil {
		return nil, err
	}
	r := &binaryRun{ctx: ctx, dir: filepath.Join(root, o.pkg), stderr: stderr, progress: o.progress}
	if o.rounds == 0 {
		return r.sequential(h, bins[0], fams, o.count)
	}
	return r.interleaved(h, bins, fams, o.rounds)
}

// checkSides checks that every side family names one of the binaries,
// and that side families run in rounds.
func checkSides(fams []family, bins []testBinary, rounds int) error {
	for _, f := range fams {
		if f.side == "" {
			continue
		}
		if rounds == 0 {
			return fmt.Errorf("family %q: a side family runs only in -rounds", f)
		}
		if !slices.ContainsFunc(bins, func(b testBinary) bool { return b.name == f.side }) {
			return fmt.Errorf("family %q: no -bin names %s", f, f.side)
		}
	}
	return nil
}

// binaryRun runs test binaries in the benchmarked package's directory.
type binaryRun struct {
	ctx      context.Context
	dir      string
	stderr   io.Writer
	progress bool
	// config holds go test's configuration lines (goos: and the like) of
	// the first run, once configured is set.
	config     []byte
	configured bool
}

// run runs binary b with arguments args and returns its result lines;
// it keeps the configuration lines of the first run.
func (r *binaryRun) run(b testBinary, args []string) ([]string, error) {
	cmd := exec.CommandContext(r.ctx, b.path, args...)
	cmd.Dir, cmd.Stderr = r.dir, r.stderr
	out, err := cmd.Output()
	var results, failed []string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "Benchmark"):
			results = append(results, line)
		case strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") || strings.Contains(line, "panic:"):
			failed = append(failed, line)
		case !r.configured && configLine.MatchString(line):
			r.config = append(r.config, line+"\n"...)
		}
	}
	r.configured = true
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w\n%s", b.name, strings.Join(args, " "), err, strings.Join(failed, "\n"))
	}
	return results, nil
}

// configLine matches go test's configuration lines, such as "cpu: ...".
var configLine = regexp.MustCompile(`^[a-z]+: `)

// sequential runs each family once with count samples.
func (r *binaryRun) sequential(h string, b testBinary, fams []family, count int) (*runOutput, error) {
	var results, loads bytes.Buffer
	for i, f := range fams {
		fmt.Fprintf(&loads, "# load before %s: %s\n", f, loadAverage())
		if r.progress {
			fmt.Fprintf(r.stderr, "family %d/%d: %s\n", i+1, len(fams), f)
		}
		lines, err := r.run(b, f.argv(count))
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			results.WriteString(l + "\n")
		}
	}
	fmt.Fprintf(&loads, "# load after: %s\n", loadAverage())
	bench := append(append([]byte(h), r.config...), results.Bytes()...)
	return &runOutput{bench: bench, loads: loads.Bytes()}, nil
}

// A binRun is one binary's run of one family in a round.
type binRun struct {
	b testBinary
	f family
}

// sideRows returns the runs of a round grouped in rows: a family that
// every binary runs is a row of its own, and the side families of one
// ROW are one row, where its first family stands. A side family without
// a ROW is a row of its own.
func sideRows(bins []testBinary, fams []family) [][]binRun {
	var rows [][]binRun
	at := map[string]int{}
	for _, f := range fams {
		switch {
		case f.side == "":
			var row []binRun
			for _, b := range bins {
				row = append(row, binRun{b, f})
			}
			rows = append(rows, row)
		case f.row == "":
			rows = append(rows, []binRun{{binaryNamed(bins, f.side), f}})
		default:
			i, ok := at[f.row]
			if !ok {
				i = len(rows)
				at[f.row] = i
				rows = append(rows, nil)
			}
			rows[i] = append(rows[i], binRun{binaryNamed(bins, f.side), f})
		}
	}
	return rows
}

// binaryNamed returns the binary of that name; checkSides has made sure
// there is one.
func binaryNamed(bins []testBinary, name string) testBinary {
	i := slices.IndexFunc(bins, func(b testBinary) bool { return b.name == name })
	return bins[i]
}

// roundOrder returns the runs of round (from 1) in order. The rows start
// one place later each round, and so do the runs within a row, offset by
// the row's place: a row's binaries take turns at going first.
func roundOrder(rows [][]binRun, round int) []binRun {
	var order []binRun
	for i := range rows {
		k := rotated(i, round, len(rows))
		row := rows[k]
		for j := range row {
			order = append(order, row[rotated(j, round+k, len(row))])
		}
	}
	return order
}

// interleaved runs n rounds; in each, every binary runs every family
// once, one sample, in the order of roundOrder, so that a drift of the
// machine's speed falls on every run alike.
func (r *binaryRun) interleaved(h string, bins []testBinary, fams []family, n int) (*runOutput, error) {
	rows := sideRows(bins, fams)
	var rounds, bench bytes.Buffer
	byBinary := map[string]*bytes.Buffer{}
	fmt.Fprintf(&rounds, "# rounds: %d\n", n)
	for _, b := range bins {
		fmt.Fprintf(&rounds, "# binary %s: %s\n", b.name, b.path)
		byBinary[b.name] = new(bytes.Buffer)
	}
	for _, f := range fams {
		fmt.Fprintf(&rounds, "# family: %s\n", f)
	}
	for round := 1; round <= n; round++ {
		load := loadAverage()
		fmt.Fprintf(&rounds, "# round %d load %s\n", round, load)
		r.checkLoad(load, fmt.Sprintf("before round %d", round))
		for _, x := range roundOrder(rows, round) {
			if r.progress {
				fmt.Fprintf(r.stderr, "round %d/%d: %s %s\n", round, n, x.b.name, x.f)
			}
			lines, err := r.run(x.b, x.f.argv(1))
			if err != nil {
				return nil, err
			}
			tag := x.b.name
			if x.f.row != "" {
				tag += fmt.Sprintf(" %d %s", round, x.f.row)
			} else {
				tag += fmt.Sprintf(" %d", round)
			}
			for _, l := range lines {
				fmt.Fprintf(&rounds, "%s %s\n", tag, l)
				bench.WriteString(l + "\n")
				byBinary[x.b.name].WriteString(l + "\n")
			}
		}
	}
	load := loadAverage()
	fmt.Fprintf(&rounds, "# end load %s\n", load)
	r.checkLoad(load, "after the rounds")
	out := &runOutput{rounds: append(append([]byte(h), r.config...), rounds.Bytes()...)}
	if len(bins) == 1 {
		out.bench = append(append([]byte(h), r.config...), bench.Bytes()...)
	} else {
		out.byBinary = map[string][]byte{}
		for name, b := range byBinary {
			if b.Len() > 0 {
				out.byBinary[name] = b.Bytes()
			}
		}
	}
	return out, nil
}

// checkLoad warns when the load average of the last minute exceeds the
// number of cores: other work then slows the runs unevenly.
func (r *binaryRun) checkLoad(load, when string) {
	f := strings.Fields(load)
	if len(f) == 0 {
		return
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if cores := runtime.NumCPU(); err == nil && l > float64(cores) {
		fmt.Fprintf(r.stderr, "warning: load average %s %s on %d cores: other work slows the runs unevenly, so the ratios may not reproduce\n", f[0], when, cores)
	}
}

// rotated returns which of n runs goes i-th in round (from 1): the order
// starts one place later each round.
func rotated(i, round, n int) int { return (i + round - 1) % n }

// loadAverage returns the load averages of the last 1, 5 and 15 minutes,
// or "unknown" where /proc/loadavg does not say.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
