package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// The command's exit codes.
const (
	exitOK    = 0 // done, or help was asked for
	exitError = 1 // the run failed
	exitUsage = 2 // the command line is wrong
)

// description is the first line of the help text.
const description = "Report runs the wsq benchmarks, or reads saved `go test -bench` output, and writes CSV files, a Markdown report and PNG plots of the results; or runs them in interleaved rounds and writes the ratios of each round."

// modes is the help text between the synopsis and the flags.
const modes = `Without -in it runs go test -bench on -pkg from the repository root (ROOT),
and saves the raw output, with the Go version, date and core count in its
header, as bench.txt in the -out folder. With -in it reads saved output. It
writes only under the -out folder (by default a folder of the run's date
under ROOT/bench/report/results), unless -md names a document whose report
region to rewrite. It checks its input before it creates anything, and
prints the name of every file it writes.

With -plan or -family it builds the test binary of -pkg (go test -c) and
runs each family of benchmarks in turn, -count samples each, and saves the
load average before each in loads.txt. A family is one line:
REGEXP [BENCHTIME] [FLAG ...], the flags the test binary's own (such as
-test.cpu 1,2 or -dag.nodes=100000). A -test.cpu list runs as a run per
value: a test binary runs the first sample of a list at its last value
(golang/go#49980).

With -rounds N it runs N interleaved rounds instead: in each, every binary
(-bin, or the one it builds, named head) runs every family once, one sample.
The families start one place later each round, and so do the binaries
within a family. A side family, [ROW/]NAME: ARG ..., runs binary NAME with
those arguments as they are, such as a peer's harness; the side families
of one ROW run one after the other, in turns. It saves rounds.txt:
each result line after its binary's name and round, a comment line with
the load average per round. With one binary it also writes the report.
-ratio NUM/DEN then writes ratios.md: for each benchmark, the median over
rounds of NUM's -metric over DEN's in the same round, with the smallest and
largest. NUM and DEN are binary names (new/old), or values of one element
of the benchmark names (queue=bq/queue=cl-ub); DEN * takes every other in
turn, and a list (impl=wsq/impl=ants,pond) those listed; with several, the
last columns divide by the least of them in the same round, and by the
least of their medians. With -in, -ratio
reads such rounds (any file of result lines with the round and the binary
before the name, or under "# round N" comment lines) and prints the tables.
With -across a KEY ratio compares across binaries. -pairs FILE writes
table.md and summary.md: per row of side families, the same-round ratios
of the pairs of contenders that FILE lists.`

// options are the command's flags.
type options struct {
	in, out, md, root                string
	multicore                        string
	pkg, bench, benchtime, cpu, args string
	count                            int
	progress                         bool
	// The runs of test binaries, and the ratios of their rounds.
	plan   string
	family []family
	rounds int
	bins   []testBinary
	ratios []comparison
	metric string
	across bool
	// The tables of -pairs, and the command that their caption quotes.
	pairs, command string
	pairsFile      *pairsFile
	// mdSet records that -md was given.
	mdSet bool
}

// runOnly are the flags that choose what the benchmarks run; with -in they
// would be ignored, so they are refused. (-progress is harmless and
// accepted.)
var runOnly = []string{"pkg", "bench", "benchtime", "cpu", "count", "args", "plan", "family", "rounds", "bin"}

// newFlagSet returns the command's flags, writing into o. It prints
// nothing: run reports errors and help itself.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.in, "in", "", "read saved benchmark output from `file` (- for standard input) instead of running the benchmarks")
	fs.StringVar(&o.out, "out", "", "write bench.txt, the CSV files, report.md and the plots to `folder` (default ROOT/bench/report/results/report-DATE, DATE the run's or the input's)")
	fs.StringVar(&o.md, "md", "", "rewrite the report region of the Markdown `file`, or none (default none)")
	fs.StringVar(&o.root, "root", "", "the repository root `folder` (default: the nearest above the working directory whose go.mod is the wsq module's)")
	fs.StringVar(&o.multicore, "multicore", "", "read saved output of a machine with more cores from `files` (comma-separated), whose speedups the span figures draw beside this machine's")
	fs.StringVar(&o.pkg, "pkg", "./bench", "the `package` to benchmark")
	fs.StringVar(&o.bench, "bench", ".", "run the benchmarks matching `regexp` (go test -bench)")
	fs.StringVar(&o.benchtime, "benchtime", "", "run each benchmark for `time`, such as 2s or 100x (go test -benchtime)")
	fs.StringVar(&o.cpu, "cpu", "", "run each benchmark at each GOMAXPROCS in `list` (go test -cpu); through test binaries (-plan, -family, -rounds), a run per value, as a family's -test.cpu list")
	fs.IntVar(&o.count, "count", 6, "take `n` samples of each benchmark; 6 is the fewest for which benchstat gives a 95 % interval of the median")
	fs.StringVar(&o.args, "args", "", "pass `arguments` to the test binary, such as -dag.nodes=2500000")
	fs.BoolVar(&o.progress, "progress", true, "show progress while the benchmarks run")
	fs.StringVar(&o.plan, "plan", "", "run the families of benchmarks listed in `file`, one a line (# starts a comment)")
	fs.Func("family", "run the benchmark `family` 'REGEXP [BENCHTIME] [FLAG ...]' (repeatable; after those of -plan)", func(s string) error {
		f, err := parseFamily(s)
		o.family = append(o.family, f)
		return err
	})
	fs.IntVar(&o.rounds, "rounds", 0, "run `n` interleaved rounds of one sample of each family and binary, and write rounds.txt")
	fs.Func("bin", "run the test binary at `name=path`, built elsewhere with go test -c (repeatable with -rounds; default: -pkg's, built here, named head)", func(s string) error {
		b, err := parseBinary(s)
		o.bins = append(o.bins, b)
		return err
	})
	fs.Func("ratio", "write the same-round ratios `NUM/DEN` of -rounds or -in (repeatable): binary names, or KEY=A/KEY=B; B or OLD may be * or a list A,B,...", func(s string) error {
		q, err := parseRatio(s)
		o.ratios = append(o.ratios, q)
		return err
	})
	fs.StringVar(&o.metric, "metric", "ns/op", "the `unit` whose ratios -ratio takes")
	fs.StringVar(&o.pairs, "pairs", "", "write table.md and summary.md of the -rounds or -in: the pairs of contenders of each row of side families, listed in `file`")
	fs.StringVar(&o.command, "command", "", "the `command` that summary.md's caption quotes, with -pairs")
	fs.BoolVar(&o.across, "across", false, "compare a KEY=A/KEY=B -ratio across binaries, such as a peer's harness beside the Go test binary (default: per binary)")
	return fs
}

// usageError is a wrong command line.
type usageError struct{ error }

// parseArgs parses and checks the command line. It returns flag.ErrHelp
// when help was asked for, and a usageError when the line is wrong.
func parseArgs(args []string) (*options, *flag.FlagSet, error) {
	o := &options{}
	fs := newFlagSet(o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, fs, err
		}
		return o, fs, usageError{err}
	}
	bad := func(format string, a ...any) (*options, *flag.FlagSet, error) {
		return o, fs, usageError{fmt.Errorf(format, a...)}
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q: the command takes only flags", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.mdSet = set["md"]
	if o.in != "" {
		for _, name := range runOnly {
			if set[name] {
				return bad("-%s applies only when the benchmarks run, not with -in", name)
			}
		}
	}
	if o.count < 1 {
		return bad("-count %d: want at least 1", o.count)
	}
	if o.rounds < 0 {
		return bad("-rounds %d: want at least 1", o.rounds)
	}
	if o.plan != "" || len(o.family) > 0 {
		for _, name := range []string{"bench", "benchtime", "cpu", "args"} {
			if set[name] {
				return bad("-%s does not go with -plan or -family: write it in the family", name)
			}
		}
	}
	switch {
	case o.rounds > 0 && set["count"]:
		return bad("-count does not go with -rounds: each round takes one sample")
	case len(o.bins) > 1 && o.rounds == 0:
		return bad("-bin names %d binaries: compare them with -rounds", len(o.bins))
	case len(o.ratios) > 0 && o.in == "" && o.rounds == 0:
		return bad("-ratio needs the rounds of -rounds, or -in")
	case len(o.ratios) > 0 && o.in != "" && (set["out"] || set["md"]):
		return bad("-ratio with -in prints its tables and writes nothing: drop -out and -md")
	case o.pairs != "" && o.in == "" && o.rounds == 0:
		return bad("-pairs needs the rounds of -rounds, or -in")
	case o.pairs != "" && o.in != "" && (set["out"] || set["md"]):
		return bad("-pairs with -in prints its tables and writes nothing: drop -out and -md")
	case set["command"] && o.pairs == "":
		return bad("-command applies only to -pairs")
	case set["metric"] && len(o.ratios) == 0:
		return bad("-metric applies only to -ratio")
	case o.across && !slices.ContainsFunc(o.ratios, func(q comparison) bool { return q.key != "" }):
		return bad("-across applies only to a -ratio KEY=A/KEY=B")
	case o.mdSet && len(o.bins) > 1:
		return bad("-md needs the report of one binary, not %d", len(o.bins))
	}
	if o.mdSet && o.md == "" {
		return bad("-md needs a file name, or none")
	}
	return o, fs, nil
}

// printUsage writes the help text.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\nUsage:\n\n  report [flags]\n\n%s\n\nFlags:\n\n", description, modes)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// run runs the command with the arguments args and returns its exit code.
// Help goes to stdout; each error is printed once, to stderr, prefixed
// with "report: ".
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, fs, err := parseArgs(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "report: %v\nRun 'report -h' for usage.\n", err)
		return exitUsage
	}
	if err := o.run(stdin, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "report: %v\n", err)
		return exitError
	}
	return exitOK
}

// run does the work of the command.
func (o *options) run(stdin io.Reader, stdout, stderr io.Writer) error {
	if o.pairs != "" {
		var err error
		if o.pairsFile, err = readPairs(o.pairs); err != nil {
			return err
		}
	}
	if o.in != "" && (len(o.ratios) > 0 || o.pairs != "") {
		return o.printRatios(stdin, stdout, stderr)
	}
	// The input first, so that a bad one leaves nothing behind.
	var raw []byte
	var set *Set
	if o.in != "" {
		var err error
		if raw, set, err = readInput(o.in, stdin); err != nil {
			return err
		}
	}
	var far *Set
	var farFiles []string
	if o.multicore != "" {
		var err error
		farFiles = strings.Split(o.multicore, ",")
		if far, err = readMulticore(farFiles); err != nil {
			return err
		}
	}

	root := o.root
	if root == "" && (o.in == "" || o.out == "") {
		var err error
		if root, err = findRoot(); err != nil {
			return err
		}
	}
	out := o.out
	if out == "" {
		out = filepath.Join(root, "bench", "report", "results", "report-"+runDate(set, time.Now()))
	}
	md := o.md
	if !o.mdSet {
		md = "none"
	}
	if md != "none" {
		// Refuse a document with broken markers before the benchmarks
		// run and before anything is written.
		if _, err := updatedRegion(md, ""); err != nil {
			return err
		}
	}

	var ran *runOutput
	if o.in == "" {
		var err error
		if o.usesBinaries() {
			if ran, err = runBinaries(root, o, stderr); err != nil {
				return err
			}
			raw = ran.bench
		} else if raw, err = runBenchmarks(root, o, stderr); err != nil {
			return err
		}
		if raw != nil {
			if set, err = parseChecked(raw, "go test output"); err != nil {
				return err
			}
		}
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	w := &writer{dir: out, stdout: stdout, stderr: stderr}
	if ran != nil {
		if err := o.writeRun(w, ran); err != nil {
			return err
		}
		if raw == nil {
			return nil
		}
	}
	if o.in == "" || o.in == "-" || !sameFile(o.in, filepath.Join(out, "bench.txt")) {
		if err := w.write("bench.txt", raw); err != nil {
			return err
		}
	}
	return writeAllWith(set, far, farLabelOf(farFiles), w, md)
}

// readMulticore reads and parses the saved output of another machine,
// from one or more files, into one set.
func readMulticore(files []string) (*Set, error) {
	all := &Set{Config: map[string]string{}}
	for _, f := range files {
		_, set, err := readInput(f, nil)
		if err != nil {
			return nil, err
		}
		maps.Copy(all.Config, set.Config)
		all.Samples = append(all.Samples, set.Samples...)
	}
	return all, nil
}

// writeRun writes what a run of test binaries made besides bench.txt:
// rounds.txt and the tables of -ratio, or loads.txt.
func (o *options) writeRun(w *writer, ran *runOutput) error {
	if ran.loads != nil {
		if err := w.write("loads.txt", ran.loads); err != nil {
			return err
		}
	}
	if ran.rounds == nil {
		return nil
	}
	// The rounds are saved before the ratios are taken, so that a ratio
	// that finds nothing to compare loses no run.
	if err := w.write("rounds.txt", ran.rounds); err != nil {
		return err
	}
	for _, b := range o.bins {
		if lines, ok := ran.byBinary[b.name]; ok {
			if err := w.write(b.name+".txt", lines); err != nil {
				return err
			}
		}
	}
	if len(o.ratios) > 0 {
		tables, err := o.ratioTables(ran.rounds, "rounds.txt")
		if err != nil {
			return err
		}
		if err := w.write("ratios.md", []byte(tables)); err != nil {
			return err
		}
		fmt.Fprint(w.stdout, tables)
	}
	if o.pairsFile == nil {
		return nil
	}
	table, summary, err := o.pairTables(ran.rounds, "rounds.txt", w.stderr)
	if err != nil && !errors.Is(err, errMissingPairs) {
		return err
	}
	// A table with a missing pair is written, to show which.
	if err := w.write("table.md", []byte(table)); err != nil {
		return err
	}
	if err := w.write("summary.md", []byte(summary)); err != nil {
		return err
	}
	fmt.Fprintf(w.stdout, "\n%s\n%s", table, summary)
	return err
}

// pairTables returns the tables of -pairs over the rounds in data.
func (o *options) pairTables(data []byte, name string, stderr io.Writer) (table, summary string, err error) {
	results, err := readRounds(data, name)
	if err != nil {
		return "", "", err
	}
	return pairTables(results, o.pairsFile, roundsCaption(data, o.command), func(s string) {
		fmt.Fprintf(stderr, "warning: %s\n", s)
	})
}

// ratioTables returns the tables of every -ratio over the rounds in data.
func (o *options) ratioTables(data []byte, name string) (string, error) {
	results, err := readRounds(data, name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, q := range o.ratios {
		q.across = o.across && q.key != ""
		t, err := ratioTables(results, q, o.metric)
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	return b.String(), nil
}

// printRatios prints the tables of -ratio and -pairs over the rounds of
// -in.
func (o *options) printRatios(stdin io.Reader, stdout, stderr io.Writer) error {
	name := o.in
	var data []byte
	var err error
	if o.in == "-" {
		name = "standard input"
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(o.in)
	}
	if err != nil {
		return err
	}
	if len(o.ratios) > 0 {
		tables, err := o.ratioTables(data, name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(stdout, strings.TrimPrefix(tables, "\n")); err != nil {
			return err
		}
	}
	if o.pairsFile == nil {
		return nil
	}
	table, summary, err := o.pairTables(data, name, stderr)
	if err != nil && !errors.Is(err, errMissingPairs) {
		return err
	}
	if _, werr := fmt.Fprintf(stdout, "%s\n%s", table, summary); werr != nil {
		return werr
	}
	return err
}

// readInput reads and parses the saved output named by -in.
func readInput(in string, stdin io.Reader) ([]byte, *Set, error) {
	var raw []byte
	var err error
	name := in
	if in == "-" {
		name = "standard input"
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(in)
	}
	if err != nil {
		return nil, nil, err
	}
	set, err := parseChecked(raw, name)
	return raw, set, err
}

// parseChecked parses benchmark output and insists on results.
func parseChecked(raw []byte, name string) (*Set, error) {
	set, err := Parse(raw, name)
	if err != nil {
		return nil, err
	}
	if len(set.Samples) == 0 {
		return nil, fmt.Errorf("%s: %w", name, errNoResults)
	}
	return set, nil
}

// sameFile reports whether two paths name the same existing file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// writer writes files into a folder and says so, one line per file.
type writer struct {
	dir            string
	stdout, stderr io.Writer
	files          int
}

// write writes data to the file name in the folder.
func (w *writer) write(name string, data []byte) error {
	return w.writeAt(filepath.Join(w.dir, name), data)
}

// writeAt writes data to the file at path.
func (w *writer) writeAt(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	w.files++
	fmt.Fprintf(w.stdout, "wrote %s\n", path)
	return nil
}

// writeAll writes the CSV files, the plots, report.md and the region of the
// Markdown file md ("none" skips it).
func writeAll(set *Set, w *writer, md string) error { return writeAllWith(set, nil, "", w, md) }

// writeAllWith is writeAll with the results far of a machine with more
// cores, named label, or none (nil).
func writeAllWith(set, far *Set, label string, w *writer, md string) error {
	r := newReport(set)
	if far != nil {
		r.far, r.farLabel = newReport(far), label
	}
	var buf bytes.Buffer
	if err := writeSamples(&buf, set.Samples); err != nil {
		return err
	}
	if err := w.write("samples.csv", buf.Bytes()); err != nil {
		return err
	}
	buf.Reset()
	if err := writeSummary(&buf, r.rows, set.Samples); err != nil {
		return err
	}
	if err := w.write("summary.csv", buf.Bytes()); err != nil {
		return err
	}
	plots := map[string]bool{}
	for _, c := range r.charts() {
		png, err := c.fig.render(r.config)
		if err != nil {
			return fmt.Errorf("%s: %w", c.file, err)
		}
		if err := w.write(c.file, png); err != nil {
			return err
		}
		plots[c.file] = true
	}
	// report.md names the plots beside it; the document, from where it is.
	if err := w.write("report.md", []byte(r.markdown(".", plots))); err != nil {
		return err
	}
	if md != "none" {
		imgDir, err := filepath.Rel(filepath.Dir(mustAbs(md)), mustAbs(w.dir))
		if err != nil {
			imgDir = mustAbs(w.dir)
		}
		doc, err := updatedRegion(md, r.markdown(filepath.ToSlash(imgDir), plots))
		if err != nil {
			return err
		}
		if err := w.writeAt(md, doc); err != nil {
			return err
		}
	}
	fmt.Fprintf(w.stdout, "%d samples of %d benchmarks; %d files written\n", len(set.Samples), len(r.rows), w.files)
	return nil
}

// runDate returns the date of a run, as YYYY-MM-DD: the date in the header
// of set (saved output, nil for a run about to start), or else now's, in
// UTC.
func runDate(set *Set, now time.Time) string {
	if set != nil {
		if t, err := time.Parse(time.RFC3339, set.Config[keyDate]); err == nil {
			return t.UTC().Format(time.DateOnly)
		}
	}
	return now.UTC().Format(time.DateOnly)
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// findRoot returns the nearest directory at or above the working directory
// whose go.mod declares the wsq module.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if first, _, _ := strings.Cut(string(b), "\n"); strings.TrimSpace(first) == "module github.com/worksteal/wsq" {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find the wsq module root; use -root")
		}
		dir = parent
	}
}

// benchArgs returns the go test command line for the options.
func benchArgs(o *options) []string {
	args := []string{"test", "-run", "^$", "-bench", o.bench, "-count", strconv.Itoa(o.count), "-timeout", "0"}
	if o.benchtime != "" {
		args = append(args, "-benchtime", o.benchtime)
	}
	if o.cpu != "" {
		args = append(args, "-cpu", o.cpu)
	}
	args = append(args, o.pkg)
	if o.args != "" {
		args = append(args, strings.Fields(o.args)...)
	}
	return args
}

// header returns the comment lines that the raw output of a run starts
// with: the Go version that runs the benchmarks, the date and the number of
// cores, which go test does not print.
func header(root string, now time.Time) (string, error) {
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = root
	v, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	return headerLine(keyGoVersion, strings.TrimSpace(string(v))) +
		headerLine(keyDate, now.UTC().Format(time.RFC3339)) +
		headerLine(keyCores, strconv.Itoa(runtime.NumCPU())), nil
}

// runBenchmarks runs go test in root and returns its output after the
// header, with a progress indicator on stderr.
func runBenchmarks(root string, o *options, stderr io.Writer) ([]byte, error) {
	var raw bytes.Buffer
	h, err := header(root, time.Now())
	if err != nil {
		return nil, err
	}
	raw.WriteString(h)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	args := benchArgs(o)
	fmt.Fprintf(stderr, "running go %s (in %s)\n", strings.Join(args, " "), root)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var bar *progressbar.ProgressBar
	if o.progress {
		bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("benchmarks"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("results"),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionClearOnFinish(),
		)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var failed []string
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(&raw, line)
		if strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") || strings.Contains(line, "panic:") {
			failed = append(failed, line)
		}
		if bar == nil {
			continue
		}
		if name, ok := resultName(line); ok {
			bar.Describe(name)
			_ = bar.Add(1)
		} else if strings.HasPrefix(line, "pkg:") || strings.HasPrefix(line, "cpu:") {
			bar.Describe(line)
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("go test: %w\n%s", err, strings.Join(failed, "\n"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return raw.Bytes(), nil
}

// resultName returns the benchmark name of a result line.
func resultName(line string) (string, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return "", false
	}
	return strings.TrimPrefix(f[0], "Benchmark"), true
}
