package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
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
	Iters int64
	// Metrics maps each unit ("ns/op", "nodes/s", ...) to its value.
	Metrics map[string]float64
}

// Param returns the value of the name's key=value part, or "".
func (s Sample) Param(key string) string { return s.Params[key] }

// Set is a parsed benchmark output.
type Set struct {
	// Config holds the key: value lines (goos, goarch, cpu, pkg), the last
	// value of each.
	Config  map[string]string
	Samples []Sample
}

var (
	procsSuffix = regexp.MustCompile(`-(\d+)$`)
	configLine  = regexp.MustCompile(`^([a-z][a-zA-Z0-9_-]*):\s*(.*?)\s*$`)
)

// parser accumulates a Set line by line, so that a running suite can be
// parsed as it prints.
type parser struct {
	set Set
}

func newParser() *parser { return &parser{set: Set{Config: map[string]string{}}} }

// line parses one line of output and returns the sample it holds, if any.
// Lines that are neither results nor configuration are ignored.
func (p *parser) line(text string) (Sample, bool, error) {
	if !strings.HasPrefix(text, "Benchmark") {
		if m := configLine.FindStringSubmatch(text); m != nil {
			p.set.Config[m[1]] = m[2]
		}
		return Sample{}, false, nil
	}
	f := strings.Fields(text)
	// A result is a name, an iteration count and value-unit pairs; a line
	// with just a name is a benchmark announcing itself (-v) or logging.
	if len(f) < 4 || len(f)%2 != 0 {
		return Sample{}, false, nil
	}
	iters, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Sample{}, false, nil
	}
	s := Sample{Procs: 1, Iters: iters, Params: map[string]string{}, Metrics: map[string]float64{}}
	name := strings.TrimPrefix(f[0], "Benchmark")
	if m := procsSuffix.FindStringSubmatchIndex(name); m != nil {
		s.Procs, _ = strconv.Atoi(name[m[2]:m[3]])
		name = name[:m[0]]
	}
	s.Name = name
	parts := strings.Split(name, "/")
	s.Bench = parts[0]
	for _, part := range parts[1:] {
		if k, v, ok := strings.Cut(part, "="); ok {
			s.Params[k] = v
		}
	}
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Sample{}, false, fmt.Errorf("report: bad value %q in %q", f[i], text)
		}
		s.Metrics[f[i+1]] = v
	}
	p.set.Samples = append(p.set.Samples, s)
	return s, true, nil
}

// Parse reads `go test -bench` output.
func Parse(r io.Reader) (*Set, error) {
	p := newParser()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if _, _, err := p.line(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return &p.set, nil
}
