package main

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A pairRow is a row of the tables of -pairs: one operation, whose sides
// ran as the side families of one ROW, and the pairs that it compares.
type pairRow struct {
	id, op string
	metric string         // the unit compared: a time such as ns/op, or slowdown
	pick   *regexp.Regexp // only the names that match count; nil: all
	pairs  []pair
}

// A pair is wsq's contender against a peer's, each a binary's name and a
// contender: the value of queue= or impl= in a benchmark's name.
type pair struct{ num, den side }

// A side is a binary and one of its contenders.
type side struct{ bin, name string }

// pairsFile is what a -pairs file says: the rows, and a label for each
// binary (Rust for rust).
type pairsFile struct {
	rows   []pairRow
	labels map[string]string
}

// readPairs reads a -pairs file. A line is a row or a label, its fields
// separated by tabs; blank lines and lines that start with # are skipped:
//
//	ROW	OPERATION	METRIC	PICK	NUM/DEN ...
//	label	NAME	LABEL
//
// ROW is the row of side families whose results the row compares; PICK, a
// regexp or empty, keeps the names (without their -N suffix) that match
// it; NUM and DEN are BIN:CONTENDER. A label names a binary's side in
// the tables, such as "label	cpp	C++".
func readPairs(name string) (*pairsFile, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	pf := &pairsFile{labels: map[string]string{}}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, a...))
		}
		f := strings.Split(line, "\t")
		if f[0] == "label" {
			if len(f) != 3 || f[1] == "" || f[2] == "" {
				return nil, bad("want label, a binary's name and its label, separated by tabs")
			}
			pf.labels[f[1]] = f[2]
			continue
		}
		if len(f) != 5 {
			return nil, bad("want ROW, OPERATION, METRIC, PICK and the pairs, separated by tabs")
		}
		r := pairRow{id: f[0], op: f[1], metric: f[2]}
		if r.id == "" || r.op == "" || r.metric == "" {
			return nil, bad("a row needs its name, operation and metric")
		}
		if f[3] != "" {
			if r.pick, err = regexp.Compile(f[3]); err != nil {
				return nil, bad("%v", err)
			}
		}
		for _, p := range strings.Fields(f[4]) {
			num, den, ok := strings.Cut(p, "/")
			n, okn := parseSide(num)
			d, okd := parseSide(den)
			if !ok || !okn || !okd {
				return nil, bad("pair %q: want BIN:CONTENDER/BIN:CONTENDER", p)
			}
			r.pairs = append(r.pairs, pair{n, d})
		}
		if len(r.pairs) == 0 {
			return nil, bad("row %s has no pair", r.id)
		}
		pf.rows = append(pf.rows, r)
	}
	if len(pf.rows) == 0 {
		return nil, fmt.Errorf("%s: no row", name)
	}
	return pf, nil
}

func parseSide(s string) (side, bool) {
	bin, name, ok := strings.Cut(s, ":")
	return side{bin, name}, ok && bin != "" && name != "" && !strings.Contains(name, ":")
}

// label returns how the tables name a binary's side.
func (pf *pairsFile) label(bin string) string {
	if l, ok := pf.labels[bin]; ok {
		return l
	}
	return bin
}

// procsSuffix matches the GOMAXPROCS suffix of a benchmark's name.
var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// contenderOf returns the value of the first queue= or impl= element of a
// name, or serial for a name without either.
func contenderOf(name string) string {
	for _, part := range strings.Split(name, "/") {
		for _, key := range []string{"queue=", "impl="} {
			if v, ok := strings.CutPrefix(part, key); ok {
				return v
			}
		}
	}
	return "serial"
}

// errMissingPairs reports pairs without a result in any round.
var errMissingPairs = errors.New("some pairs had no result: compare the names with go test -list . ./bench and the harnesses' -list")

// pairTables returns table.md and summary.md of the rows of pf over the
// results of side families: per pair, each side's median over the rounds
// with its smallest and largest, and the median over rounds of the ratio
// NUM ÷ DEN of the same round, with the smallest and largest. summary.md
// has the ratios alone, under the caption. Rounds where a pair lacks a
// side are warned of on warn. With a pair that has no result in any
// round it returns the tables and errMissingPairs.
func pairTables(results []roundResult, pf *pairsFile, caption string, warn func(string)) (table, summary string, err error) {
	type key struct{ row, round, bin, name string }
	vals := map[key]float64{}
	var rounds []string
	rows := map[string]*pairRow{}
	for i := range pf.rows {
		rows[pf.rows[i].id] = &pf.rows[i]
	}
	for _, r := range results {
		row := rows[r.row]
		if row == nil {
			continue
		}
		name := procsSuffix.ReplaceAllString(r.name, "")
		if row.pick != nil && !row.pick.MatchString(name) {
			continue
		}
		v, ok := r.metrics[row.metric]
		if !ok {
			return "", "", fmt.Errorf("row %s: no %s in %s's result %s", row.id, row.metric, r.tag, r.name)
		}
		if !slices.Contains(rounds, r.round) {
			rounds = append(rounds, r.round)
		}
		vals[key{row.id, r.round, r.tag, contenderOf(name)}] = v
	}
	var t, s strings.Builder
	t.WriteString("| operation | wsq | wsq: median (min–max) | peer | peer: median (min–max) | wsq ÷ peer | ratio min–max |\n|---|---|---:|---|---:|---:|---:|\n")
	fmt.Fprintf(&s, "Measured %s.\n\n| operation | wsq | peer | wsq ÷ peer: median (min–max) |\n|---|---|---|---:|\n", caption)
	for _, row := range pf.rows {
		for _, p := range row.pairs {
			peer := fmt.Sprintf("%s (%s)", p.den.name, pf.label(p.den.bin))
			var nums, dens, ratios []float64
			missing := 0
			for _, round := range rounds {
				n, okn := vals[key{row.id, round, p.num.bin, p.num.name}]
				d, okd := vals[key{row.id, round, p.den.bin, p.den.name}]
				if !okn || !okd || d == 0 {
					missing++
					continue
				}
				nums, dens, ratios = append(nums, n), append(dens, d), append(ratios, n/d)
			}
			if len(ratios) == 0 {
				fmt.Fprintf(&t, "| %s | %s | – | %s | – | no result (has a benchmark been renamed?) | |\n", row.op, p.num.name, peer)
				err = errMissingPairs
				continue
			}
			if missing > 0 {
				warn(fmt.Sprintf("%s %s/%s: %d round(s) without a result", row.id, p.num.name, p.den.name, missing))
			}
			m, lo, hi := medianRange(ratios)
			fmt.Fprintf(&t, "| %s | %s | %s | %s | %s | **%s** | %s–%s |\n", row.op, p.num.name,
				pairFigure(nums, row.metric), peer, pairFigure(dens, row.metric), plain(m), plain(lo), plain(hi))
			fmt.Fprintf(&s, "| %s | %s | %s | **%s** (%s–%s) |\n", row.op, p.num.name, peer, plain(m), plain(lo), plain(hi))
		}
	}
	return t.String(), s.String(), err
}

// medianRange returns the median, the smallest and the largest of xs.
func medianRange(xs []float64) (m, lo, hi float64) {
	return median(xs), slices.Min(xs), slices.Max(xs)
}

// pairFigure formats the median of xs and their range in one unit, chosen by
// the median: ns, µs or ms for ns/op; ns/task as it is; a slowdown, a
// ratio, with ×.
func pairFigure(xs []float64, unit string) string {
	m, lo, hi := medianRange(xs)
	if unit == "slowdown" {
		return fmt.Sprintf("%s× (%s–%s)", plain(m), plain(lo), plain(hi))
	}
	d, u := 1.0, "ns"
	switch {
	case unit == "ns/task":
		u = "ns/task"
	case m >= 1e6:
		d, u = 1e6, "ms"
	case m >= 1e3:
		d, u = 1e3, "µs"
	}
	return fmt.Sprintf("%s %s (%s–%s)", plain(m/d), u, plain(lo/d), plain(hi/d))
}

// roundsCaption returns what the rounds' header and comments say of the
// run: its date, the CPU, the cores, the rounds and the range of the load
// average of the last minute, then the command, if any, in backquotes.
func roundsCaption(data []byte, command string) string {
	var parts, loads []string
	var date, cpu, cores, rounds string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "# date: "):
			date = strings.TrimPrefix(line, "# date: ")
			if t, err := time.Parse(time.RFC3339, date); err == nil {
				date = t.UTC().Format("2006-01-02 15:04 UTC")
			}
		case strings.HasPrefix(line, "cpu: ") && cpu == "":
			cpu = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case strings.HasPrefix(line, "# cores: "):
			cores = strings.TrimPrefix(line, "# cores: ")
		case strings.HasPrefix(line, "# rounds: "):
			rounds = strings.TrimPrefix(line, "# rounds: ")
		case len(f) >= 5 && f[0] == "#" && f[1] == "round" && f[3] == "load",
			len(f) >= 4 && f[0] == "#" && f[1] == "end" && f[2] == "load":
			loads = append(loads, f[len(f)-3])
		}
	}
	for _, p := range []string{date, cpu} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if cores != "" {
		parts = append(parts, cores+" cores")
	}
	if rounds == "1" {
		parts = append(parts, "1 round")
	} else if rounds != "" {
		parts = append(parts, rounds+" rounds")
	}
	// The loads as /proc/loadavg prints them, from the least to the most.
	loads = slices.DeleteFunc(loads, func(l string) bool {
		_, err := strconv.ParseFloat(l, 64)
		return err != nil
	})
	slices.SortFunc(loads, func(a, b string) int {
		x, _ := strconv.ParseFloat(a, 64)
		y, _ := strconv.ParseFloat(b, 64)
		return cmp.Compare(x, y)
	})
	if len(loads) > 0 {
		parts = append(parts, fmt.Sprintf("load average %s–%s", loads[0], loads[len(loads)-1]))
	}
	c := strings.Join(parts, ", ")
	if command != "" {
		c += "; `" + command + "`"
	}
	return c
}
