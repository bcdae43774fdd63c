package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	in, out, md, root                       string
	pkg, bench, benchtime, cpu, count, args string
	progress                                bool
}

func run(argv []string, stdin io.Reader, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.in, "in", "", "read saved `go test -bench` output from this file (- for standard input) instead of running the benchmarks")
	fs.StringVar(&o.root, "root", "", "repository root (default: found from the working directory)")
	fs.StringVar(&o.out, "out", "", "directory for bench.txt, CSV, report.md and plots (default ROOT/report/results)")
	fs.StringVar(&o.md, "md", "", "Markdown file whose report region to rewrite (default ROOT/BENCHMARKS.md; \"none\" to skip)")
	fs.StringVar(&o.pkg, "pkg", "./bench", "package to benchmark")
	fs.StringVar(&o.bench, "bench", ".", "go test -bench pattern")
	fs.StringVar(&o.benchtime, "benchtime", "", "go test -benchtime")
	fs.StringVar(&o.cpu, "cpu", "", "go test -cpu list")
	fs.StringVar(&o.count, "count", "5", "go test -count")
	fs.StringVar(&o.args, "args", "", "extra arguments for the test binary, e.g. \"-dag.nodes=2500000\"")
	fs.BoolVar(&o.progress, "progress", true, "show progress while the benchmarks run")
	if err := fs.Parse(argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	root := o.root
	if root == "" {
		var err error
		if root, err = findRoot(); err != nil {
			return err
		}
	}
	if o.out == "" {
		o.out = filepath.Join(root, "report", "results")
	}
	if o.md == "" {
		o.md = filepath.Join(root, "BENCHMARKS.md")
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}

	var raw bytes.Buffer
	var set *Set
	var err error
	switch o.in {
	case "":
		set, err = runBenchmarks(root, o, &raw, stderr)
	case "-":
		set, err = Parse(io.TeeReader(stdin, &raw))
	default:
		var f *os.File
		if f, err = os.Open(o.in); err != nil {
			return err
		}
		set, err = Parse(io.TeeReader(f, &raw))
		f.Close()
	}
	if err != nil {
		return err
	}
	if len(set.Samples) == 0 {
		return errors.New("no benchmark results in the input")
	}
	if abs, _ := filepath.Abs(o.in); o.in == "" || abs != mustAbs(filepath.Join(o.out, "bench.txt")) {
		if err := os.WriteFile(filepath.Join(o.out, "bench.txt"), raw.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return writeAll(set, o.out, o.md, stderr)
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// writeAll writes the CSV files, the plots, report.md and the region of the
// Markdown file md ("none" skips it).
func writeAll(set *Set, out, md string, stderr io.Writer) error {
	r := &report{rows: Summarize(set.Samples), config: set.Config}
	if err := writeFile(filepath.Join(out, "samples.csv"), func(w io.Writer) error { return writeSamples(w, set.Samples) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, "summary.csv"), func(w io.Writer) error { return writeSummary(w, r.rows) }); err != nil {
		return err
	}
	plots, err := r.writePlots(out)
	if err != nil {
		return err
	}
	imgDir := out
	if md != "none" {
		if rel, err := filepath.Rel(filepath.Dir(mustAbs(md)), mustAbs(out)); err == nil {
			imgDir = filepath.ToSlash(rel)
		}
	}
	text := r.markdown(imgDir, plots)
	if err := os.WriteFile(filepath.Join(out, "report.md"), []byte(text), 0o644); err != nil {
		return err
	}
	if md != "none" {
		if err := updateRegion(md, text); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "report: %d samples, %d benchmarks, %d plots in %s\n", len(set.Samples), len(r.rows), len(plots), out)
	return nil
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
func benchArgs(o options) []string {
	args := []string{"test", "-run", "^$", "-bench", o.bench, "-count", o.count, "-timeout", "0"}
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

// runBenchmarks runs go test in root, copying its output to raw and parsing
// it as it arrives, with a progress indicator on stderr.
func runBenchmarks(root string, o options, raw io.Writer, stderr io.Writer) (*Set, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	args := benchArgs(o)
	fmt.Fprintf(stderr, "report: running go %s (in %s)\n", strings.Join(args, " "), root)
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
	p := newParser()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var failed []string
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(raw, line)
		s, ok, err := p.line(line)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") || strings.Contains(line, "panic:") {
			failed = append(failed, line)
		}
		if bar != nil {
			if ok {
				bar.Describe(s.Name)
				_ = bar.Add(1)
			} else if strings.HasPrefix(line, "pkg:") || strings.HasPrefix(line, "cpu:") {
				bar.Describe(line)
			}
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("go test: %w\n%s", err, strings.Join(failed, "\n"))
	}
	return &p.set, sc.Err()
}
