package doccheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// BENCHMARKS.md quotes figures from dated results directories: the raw
// output and the tables that bench/peers/run.sh (summary.md, table.md),
// bench/peers/loops.sh (ratios.md) and the report command (report.md)
// generate. A directory is named KIND-DATE,
// such as all-2026-12-06 (of kind all-*); a later run of the same kind
// goes into a newer directory. The checks below keep the page in step with its results:
//
//	rule                                            fails when
//	every relative link of the documents resolves   a linked file or results directory is missing
//	a line that links results names their date      the date is missing, or older than the results'
//	a quoted results directory is its kind's newest  a newer run of its kind exists
//	a bold figure with its range, **x** (a–b),      the generated tables of the linked results
//	is in the linked results' tables                 no longer hold it
//
// The History section of BENCHMARKS.md links past runs: only its links
// are checked.

// documents are the Markdown files whose links must resolve: the pages and
// every README of the results directories.
func documents(t *testing.T, root string) []string {
	t.Helper()
	docs := []string{"README.md", "BENCHMARKS.md", "bench/peers/README.md"}
	for _, pattern := range []string{"bench/report/results/*/README.md", "bench/peers/results/*/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, err := filepath.Rel(root, f)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, filepath.ToSlash(rel))
		}
	}
	return docs
}

// mdLink matches a Markdown link or image and captures its target.
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// localTargets returns the relative link targets of a line, without their
// fragments: the links to files and directories of the repository.
func localTargets(line string) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
		t := m[1]
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "#") {
			continue
		}
		t, _, _ = strings.Cut(t, "#")
		out = append(out, t)
	}
	return out
}

// brokenLinks returns the links of the document doc (relative to root)
// whose targets do not exist.
func brokenLinks(root, doc string) ([]string, error) {
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
	if err != nil {
		return nil, err
	}
	var out []string
	for i, line := range strings.Split(string(text), "\n") {
		for _, t := range localTargets(line) {
			p := path.Join(path.Dir(doc), t)
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				out = append(out, fmt.Sprintf("%s:%d: %s: %s does not exist", doc, i+1, t, p))
			}
		}
	}
	return out, nil
}

// TestMarkdownLinks checks that every relative link of the pages and of
// the results' READMEs resolves.
func TestMarkdownLinks(t *testing.T) {
	for _, doc := range documents(t, moduleRoot) {
		bad, err := brokenLinks(moduleRoot, doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Error(b)
		}
	}
}

// resultsDir matches a link into a results directory and captures the
// directory (bench/report/results/NAME or bench/peers/results/NAME).
var resultsDir = regexp.MustCompile(`^(bench/(?:report|peers)/results/[^/]+)`)

// isoDate matches a date as the results and the page write it.
var isoDate = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

// kindOf returns the kind and the date of a results directory's name: its
// name with the date as *. all-2026-12-06 is of kind all-*, and
// multicore-2026-12-05-0007-p2 of kind multicore-*-0007-p2. ok is false for
// a name without a date.
func kindOf(name string) (kind, date string, ok bool) {
	loc := isoDate.FindStringIndex(name)
	if loc == nil {
		return "", "", false
	}
	return name[:loc[0]] + "*" + name[loc[1]:], name[loc[0]:loc[1]], true
}

// resultsDate returns the date a results directory was measured: that of
// its machine.txt (bench/peers/run.sh, multicore.sh), of the header of its
// bench.txt (the report command), or of its name.
func resultsDate(dir string) (string, error) {
	for _, f := range []struct{ file, prefix string }{{"machine.txt", "date: "}, {"bench.txt", "# date: "}} {
		b, err := os.ReadFile(filepath.Join(dir, f.file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, f.prefix); ok {
				if d := isoDate.FindString(rest); d != "" {
					return d, nil
				}
			}
		}
	}
	if _, d, ok := kindOf(filepath.Base(dir)); ok {
		return d, nil
	}
	return "", fmt.Errorf("%s: no date in machine.txt, bench.txt or its name", dir)
}

// newerOfKind returns the name of a directory beside dir of the same kind
// and a later date, or "".
func newerOfKind(dir string) (string, error) {
	kind, date, ok := kindOf(filepath.Base(dir))
	if !ok {
		return "", nil
	}
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		k, d, ok := kindOf(e.Name())
		if e.IsDir() && ok && k == kind && d > date {
			return e.Name(), nil
		}
	}
	return "", nil
}

// quotedFigure matches a bold figure with its range in parentheses, as
// the generated tables print a median and its smallest and largest
// sample: **0.21** (0.19–0.24), or bench/report's 0.210 (0.190–0.240),
// which a page quotes as **0.210** (0.190–0.240).
var quotedFigure = regexp.MustCompile(`\*\*[^*]+\*\* \([^()]+–[^()]+\)`)

// generatedTables returns the Markdown tables that a results directory's
// generator wrote: summary.md, table.md, ratios.md and report.md.
func generatedTables(dir string) (string, error) {
	var all strings.Builder
	for _, f := range []string{"summary.md", "table.md", "ratios.md", "report.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		all.Write(b)
	}
	return all.String(), nil
}

// staleFigures returns what in the page doc (relative to root) is older
// than the results it quotes, outside its History section.
func staleFigures(root, doc string) ([]string, error) {
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
	if err != nil {
		return nil, err
	}
	var out []string
	history := false
	for i, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "## ") {
			history = strings.TrimSpace(strings.TrimPrefix(line, "## ")) == "History"
		}
		if history {
			continue
		}
		where := fmt.Sprintf("%s:%d", doc, i+1)
		seen := map[string]bool{}
		for _, t := range localTargets(line) {
			m := resultsDir.FindStringSubmatch(path.Join(path.Dir(doc), t))
			if m == nil || seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			dir := filepath.Join(root, filepath.FromSlash(m[1]))
			if _, err := os.Stat(dir); err != nil {
				out = append(out, fmt.Sprintf("%s: %s does not exist", where, m[1]))
				continue
			}
			measured, err := resultsDate(dir)
			if err != nil {
				return nil, err
			}
			dates := isoDate.FindAllString(mdLink.ReplaceAllString(line, "]"), -1) // the text's dates, not the targets'

			switch {
			case len(dates) == 0:
				out = append(out, fmt.Sprintf("%s: the line quotes %s without its date, %s", where, m[1], measured))
			case !slices.ContainsFunc(dates, func(d string) bool { return d >= measured }):
				out = append(out, fmt.Sprintf("%s: the line is dated %s; %s was measured on %s", where, strings.Join(dates, ", "), m[1], measured))
			}
			newer, err := newerOfKind(dir)
			if err != nil {
				return nil, err
			}
			if newer != "" {
				out = append(out, fmt.Sprintf("%s: the line quotes %s; %s is newer", where, m[1], newer))
			}
			tables, err := generatedTables(dir)
			if err != nil {
				return nil, err
			}
			for _, fig := range quotedFigure.FindAllString(line, -1) {
				// bench/report's ratio tables print the same figure unbolded.
				if !strings.Contains(tables, fig) && !strings.Contains(tables, strings.ReplaceAll(fig, "**", "")) {
					out = append(out, fmt.Sprintf("%s: %s is not in the tables of %s", where, fig, m[1]))
				}
			}
		}
	}
	return out, nil
}

// maxBenchmarksLines bounds BENCHMARKS.md, so that a reader takes it in a
// minute: earlier runs go to History, beside their results, not onto the
// page.
const maxBenchmarksLines = 400

// TestBenchmarksShort checks that BENCHMARKS.md stays under
// maxBenchmarksLines lines.
func TestBenchmarksShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n >= maxBenchmarksLines {
		t.Errorf("BENCHMARKS.md has %d lines, at most %d: move older figures to History", n, maxBenchmarksLines-1)
	}
}

// TestBenchmarksFresh checks that BENCHMARKS.md quotes its results as they
// stand: no figure older than the generated tables it belongs to.
func TestBenchmarksFresh(t *testing.T) {
	bad, err := staleFigures(moduleRoot, "BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestBenchmarksFreshFail shows that the checks fail a page whose figure
// the tables no longer hold, whose results have a newer run, whose line
// is dated before its results, or whose results directory is missing.
func TestBenchmarksFreshFail(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bench/peers/results/all-2026-12-06/machine.txt", "date: 2026-12-06 03:00 UTC\n")
	write("bench/peers/results/all-2026-12-06/summary.md", "| pop | bq | cb (Rust) | **0.21** (0.19–0.24) |\n")
	write("bench/report/results/report-2026-12-06/bench.txt", "# date: 2026-12-06T04:00:00Z\n")
	write("bench/report/results/report-2026-12-06/report.md", "| bq | 2.40 ± 3% |\n")
	good := "# Benchmarks\n\n| pop | bq | cb | **0.21** (0.19–0.24) | [2026-12-06](bench/peers/results/all-2026-12-06/) |\n" +
		"Plots of [2026-12-06](bench/report/results/report-2026-12-06/report.md).\n\n" +
		"## History\n\n- [all-2026-12-04](bench/peers/results/all-2026-12-04/)\n"
	cases := []struct {
		name, page string
		extra      func()
		want       string // in the one problem found, or "" for none
	}{
		{"fresh", good, nil, ""},
		{"changed figure", strings.Replace(good, "**0.21** (0.19–0.24)", "**0.88** (0.85–0.99)", 1), nil, "is not in the tables"},
		{"older line", strings.Replace(good, "[2026-12-06](bench/report", "[2026-12-05](bench/report", 1), nil, "was measured on 2026-12-06"},
		{"no date", strings.Replace(good, "[2026-12-06](bench/peers", "[the run](bench/peers", 1), nil, "without its date"},
		{"missing", strings.Replace(good, "all-2026-12-06/)", "all-2026-12-07/)", 1), nil, "does not exist"},
		{"newer run", good, func() { write("bench/peers/results/all-2026-12-08/machine.txt", "date: 2026-12-08 01:00 UTC\n") }, "all-2026-12-08 is newer"},
	}
	for _, c := range cases {
		write("BENCHMARKS.md", c.page)
		if c.extra != nil {
			c.extra()
		}
		bad, err := staleFigures(root, "BENCHMARKS.md")
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.want == "" && len(bad) > 0:
			t.Errorf("%s: %q, want nothing", c.name, bad)
		case c.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], c.want)):
			t.Errorf("%s: %q, want one problem with %q", c.name, bad, c.want)
		}
	}
	// The History section links past runs: a missing one is a broken link.
	write("BENCHMARKS.md", good)
	bad, err := brokenLinks(root, "BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || !strings.Contains(bad[0], "all-2026-12-04") {
		t.Errorf("broken links %q, want the missing all-2026-12-04", bad)
	}
}
