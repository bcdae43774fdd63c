package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Sample is one result line of `go test -bench` output.
type Sample struct {
	// Name is the benchmark's name without the "Benchmark" prefix and the
	// GOMAXPROCS suffix, e.g. "DAG/queue=lf/mode=master/work=uniform/workers=2".
	Name string
	// Bench is the top-level benchmark: "Push", "DAG", ...
	Bench string
	// Params holds the key=value parts of the name.
	Params map[string]string
	// Procs is the GOMAXPROCS suffix of the name, 1 when it has none.
	Procs int
	// Iters is the iteration count.
	Iters int
	// Metrics maps each unit ("ns/op", "nodes/s", ...) to its value, both
	// as the benchmark printed them.
	Metrics map[string]float64
}

// Param returns the value of the name's key=value part, or "".
func (s Sample) Param(key string) string { return s.Params[key] }

// Set is a parsed benchmark output.
type Set struct {
	// Config holds the file's configuration: the key: value lines of go
	// test (goos, goarch, pkg, cpu) and the "# key: value" comment lines
	// of the header that the report command writes (goversion, date,
	// cores), the last value of each.
	Config  map[string]string
	Samples []Sample
}

// Header keys that the report command records, as comments, at the top of
// the raw output of the benchmarks it runs. They are comments rather than
// configuration lines because benchstat splits its tables by configuration:
// two runs on different days would otherwise never be compared.
const (
	keyGoVersion = "goversion"
	keyDate      = "date"
	keyCores     = "cores"
)

// headerLine returns a header comment line for the raw output.
func headerLine(key, value string) string { return "# " + key + ": " + value + "\n" }

// Parse reads `go test -bench` output with benchfmt, the reader benchstat
// uses. name labels positions in syntax errors. A line that starts like a
// result but is not one (a bad number, a missing unit) is an error; every
// other line that is not a result or a key: value line is ignored.
func Parse(data []byte, name string) (*Set, error) {
	set := &Set{Config: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if k, v, ok := headerComment(sc.Text()); ok {
			set.Config[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := benchfmt.NewReader(bytes.NewReader(untag(data)), name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			for _, c := range rec.Config {
				if c.File {
					set.Config[c.Key] = string(c.Value)
				}
			}
			set.Samples = append(set.Samples, sampleOf(rec))
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return set, nil
}

// untag returns data with the tags that rounds.txt writes before each
// result line (the binary's name, the round) dropped: so the rounds of
// several binaries read as samples of one run.
func untag(data []byte) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, line := range lines {
		if bytes.HasPrefix(line, []byte("Benchmark")) || bytes.HasPrefix(line, []byte("#")) {
			continue
		}
		if at := bytes.Index(line, []byte(" Benchmark")); at > 0 && !bytes.ContainsAny(line[:at], "\t:") {
			lines[i] = line[at+1:]
		}
	}
	return bytes.Join(lines, nil)
}

// headerComment parses a "# key: value" line.
func headerComment(line string) (key, value string, ok bool) {
	rest, ok := strings.CutPrefix(line, "# ")
	if !ok {
		return "", "", false
	}
	key, value, ok = strings.Cut(rest, ": ")
	if !ok || key == "" || strings.ContainsAny(key, " \t") || strings.ToLower(key) != key {
		return "", "", false
	}
	return key, strings.TrimSpace(value), true
}

// sampleOf converts a benchfmt result, keeping units as printed (benchfmt
// converts ns/op to sec/op and keeps the original beside it).
func sampleOf(r *benchfmt.Result) Sample {
	s := Sample{Procs: 1, Iters: r.Iters, Params: map[string]string{}, Metrics: map[string]float64{}}
	base, parts := r.Name.Parts()
	s.Bench = string(base)
	name := []string{s.Bench}
	for _, p := range parts {
		part := string(p)
		if procs, ok := strings.CutPrefix(part, "-"); ok {
			if n, err := strconv.Atoi(procs); err == nil {
				s.Procs = n
				continue
			}
		}
		part = strings.TrimPrefix(part, "/")
		name = append(name, part)
		if k, v, ok := strings.Cut(part, "="); ok {
			s.Params[k] = v
		}
	}
	s.Name = strings.Join(name, "/")
	for _, v := range r.Values {
		if v.OrigUnit != "" {
			s.Metrics[v.OrigUnit] = v.OrigValue
		} else {
			s.Metrics[v.Unit] = v.Value
		}
	}
	return s
}

// errNoResults says that an input held no benchmark results.
var errNoResults = errors.New("no benchmark results in the input")
