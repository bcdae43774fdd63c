package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// A roundResult is one result line of interleaved rounds.
type roundResult struct {
	round   string // the key of its round
	tag     string // the first tag but the round: its binary's name
	name    string // the benchmark's name, with its GOMAXPROCS suffix
	metrics map[string]float64
	row     string // the other tags: the row of a side family
}

// roundNumber matches a round written on a result line: 3 or r3.
var roundNumber = regexp.MustCompile(`^r?[0-9]+$`).MatchString

// readRounds reads the results of interleaved rounds. A result line is
//
//	[TAG ...] BenchmarkNAME ITERATIONS VALUE UNIT [VALUE UNIT ...]
//	[TAG ...] BenchmarkNAME VALUE
//
// the second with its value in ns/op. A tag that is a number, or r and a
// number, is the line's round; the first other tag says what ran it,
// such as the binary's name, and the rest, joined by spaces, the row of
// a side family. A line without a round belongs to the
// round of the comment line "# round N ..." above it: each change of N
// starts a new round, so that runs appended to one file stay apart. Other
// lines are ignored.
func readRounds(data []byte, name string) ([]roundResult, error) {
	var out []roundResult
	var last string
	counted := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && f[0] == "#" && f[1] == "round" {
			if f[2] != last {
				counted++
				last = f[2]
			}
			continue
		}
		at := slices.IndexFunc(f, func(s string) bool { return strings.HasPrefix(s, "Benchmark") })
		if at < 0 || f[0] == "#" {
			continue
		}
		r := roundResult{round: "#" + strconv.Itoa(counted), name: f[at], metrics: map[string]float64{}}
		var tags []string
		for _, t := range f[:at] {
			if roundNumber(t) && !strings.HasPrefix(r.round, "r") {
				r.round = "r" + strings.TrimPrefix(t, "r")
			} else {
				tags = append(tags, t)
			}
		}
		if len(tags) > 0 {
			r.tag, r.row = tags[0], strings.Join(tags[1:], " ")
		}
		vals := f[at+1:]
		bad := func(why string) ([]roundResult, error) {
			return nil, fmt.Errorf("%s:%d: %s: %s", name, n, why, sc.Text())
		}
		if len(vals) == 1 { // a record of loops.sh: the value in ns/op
			v, err := strconv.ParseFloat(vals[0], 64)
			if err != nil {
				return bad("not a value")
			}
			r.metrics["ns/op"] = v
		} else {
			// A result line of go test, read as benchstat reads it.
			br := benchfmt.NewReader(strings.NewReader(strings.Join(f[at:], " ")), name)
			if !br.Scan() {
				return bad("not a result")
			}
			res, ok := br.Result().(*benchfmt.Result)
			if !ok {
				return bad("not a result")
			}
			for _, v := range res.Values {
				if v.OrigUnit != "" {
					r.metrics[v.OrigUnit] = v.OrigValue
				} else {
					r.metrics[v.Unit] = v.Value
				}
			}
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", name, errNoResults)
	}
	return out, nil
}

// A comparison is what -ratio compares, NUM/DEN: two tags (binary names), or
// two values of one key=value element of the benchmark names. DEN may be
// *, every other tag or value in turn, or a comma-separated list of them.
type comparison struct {
	key      string // the element's key; empty when num and den are tags
	num, den string
	// across compares the values of the element across binaries: a
	// row's figures may come from any of them.
	across bool
}

// takes reports whether d is one of the comparison's DENs.
func (q comparison) takes(d string) bool {
	if d == q.num {
		return false
	}
	return q.den == "*" || slices.Contains(strings.Split(q.den, ","), d)
}

// parseRatio parses -ratio's NUM/DEN.
func parseRatio(s string) (comparison, error) {
	num, den, ok := strings.Cut(s, "/")
	bad := func(why string) (comparison, error) {
		return comparison{}, fmt.Errorf("-ratio %q: %s; want NEW/OLD (binary names) or KEY=A/KEY=B (name elements), B or OLD possibly * or a comma-separated list", s, why)
	}
	if !ok || num == "" || den == "" || strings.Contains(den, "/") {
		return bad("not two parts")
	}
	if strings.Contains(den, ",") {
		dv := den
		if _, v, ok := strings.Cut(den, "="); ok {
			dv = v
		}
		for _, d := range strings.Split(dv, ",") {
			if d == "" || d == "*" || strings.Contains(d, "=") {
				return bad("a list of DENs with an empty value, a * or a key")
			}
		}
	}
	nk, nv, nok := strings.Cut(num, "=")
	dk, dv, dok := strings.Cut(den, "=")
	switch {
	case nok != dok:
		return bad("a tag against a name element")
	case !nok:
		if num == "*" {
			return bad("the numerator is *")
		}
		return comparison{num: num, den: den}, nil
	case nk != dk || nk == "":
		return bad("two keys")
	case nv == "" || dv == "" || nv == "*":
		return bad("an empty value, or a numerator of *")
	}
	return comparison{key: nk, num: nv, den: dv}, nil
}

func (q comparison) String() string {
	if q.key == "" {
		return q.num + " ÷ " + q.den
	}
	return q.key + "=" + q.num + " ÷ " + q.key + "=" + q.den
}

// ratioRow is one line of a ratio table: the results that differ only in
// what the ratio compares.
type ratioRow struct {
	pattern string // the name, its compared element written KEY=*
	tag     string
	vals    map[string]map[string]float64 // by compared value, by round
	order   []string                      // the compared values, as they came
	from    map[string]string             // the binary of each compared value
}

// ratioTables returns the Markdown tables of q over results, for the
// metric unit: one table per top-level benchmark. Each row gives the
// median of NUM over rounds and, for each DEN, the median over rounds of
// the ratio NUM ÷ DEN of the same round, with the smallest and largest;
// with several DENs, NUM's median over the least median of them.
func ratioTables(results []roundResult, q comparison, unit string) (string, error) {
	var rows []*ratioRow
	byKey := map[string]*ratioRow{}
	for _, r := range results {
		v, ok := r.metrics[unit]
		if !ok {
			continue
		}
		pattern, tag, which := r.name, strings.TrimSpace(r.tag+" "+r.row), r.tag
		if q.key != "" {
			parts := strings.Split(r.name, "/")
			i := slices.IndexFunc(parts, func(p string) bool { return strings.HasPrefix(p, q.key+"=") })
			if i < 0 {
				continue
			}
			// A GOMAXPROCS suffix stays with the pattern.
			which = strings.TrimPrefix(parts[i], q.key+"=")
			suffix := ""
			if i == len(parts)-1 {
				if j := strings.LastIndex(which, "-"); j >= 0 {
					if _, err := strconv.Atoi(which[j+1:]); err == nil {
						which, suffix = which[:j], which[j:]
					}
				}
			}
			parts[i] = q.key + "=*" + suffix
			pattern = strings.Join(parts, "/")
			if q.across {
				tag = r.row
			}
		} else {
			tag = r.row
		}
		k := tag + "\x00" + pattern
		row := byKey[k]
		if row == nil {
			row = &ratioRow{pattern: pattern, tag: tag, vals: map[string]map[string]float64{}, from: map[string]string{}}
			byKey[k] = row
			rows = append(rows, row)
		}
		if row.vals[which] == nil {
			row.vals[which] = map[string]float64{}
			row.order = append(row.order, which)
		}
		if from, ok := row.from[which]; ok && from != r.tag {
			return "", fmt.Errorf("%s: %s and %s both measure %s=%s", r.name, from, r.tag, q.key, which)
		}
		row.from[which] = r.tag
		row.vals[which][r.round] = v
	}
	var b strings.Builder
	var benches []string
	for _, row := range rows {
		if top, _, _ := strings.Cut(row.pattern, "/"); !slices.Contains(benches, top) {
			benches = append(benches, top)
		}
	}
	// A table for each run of benchmarks with the same DENs.
	var these []*ratioRow
	var dens []string
	tables := 0
	flush := func() {
		if len(these) > 0 && len(dens) > 0 {
			// The tags get a column where they tell rows apart.
			tags := map[string]bool{}
			for _, row := range these {
				tags[row.tag] = true
			}
			tables++
			writeRatioTable(&b, q, unit, these, dens, len(tags) > 1)
		}
		these, dens = nil, nil
	}
	for _, top := range benches {
		var rs []*ratioRow
		var ds []string
		for _, row := range rows {
			if t, _, _ := strings.Cut(row.pattern, "/"); t != top || row.vals[q.num] == nil {
				continue
			}
			rs = append(rs, row)
			for _, d := range row.order {
				if q.takes(d) && !slices.Contains(ds, d) {
					ds = append(ds, d)
				}
			}
		}
		if len(ds) == 0 {
			continue
		}
		if !slices.Equal(ds, dens) {
			flush()
			dens = ds
		}
		these = append(these, rs...)
	}
	flush()
	if tables == 0 {
		return "", fmt.Errorf("-ratio %s: no benchmark has both sides in %s", q, unit)
	}
	return b.String(), nil
}

// writeRatioTable writes one table of ratioTables.
func writeRatioTable(b *strings.Builder, q comparison, unit string, rows []*ratioRow, dens []string, tagged bool) {
	side := func(v string) string {
		if q.key == "" {
			return v
		}
		return q.key + "=" + v
	}
	fmt.Fprintf(b, "\nMedians of %s over the rounds, and the ratio %s in the same round: its median over the rounds (smallest–largest).\n\n", unit, q)
	head, rule := "| benchmark |", "|---|"
	if tagged {
		head, rule = head+" tag |", rule+"---|"
	}
	for _, v := range append([]string{q.num}, dens...) {
		head += fmt.Sprintf(" %s |", side(v))
		rule += "---:|"
	}
	for _, d := range dens {
		head += fmt.Sprintf(" ÷ %s |", side(d))
		rule += "---:|"
	}
	best := len(dens) > 1
	if best {
		head += " ÷ best in the round | ÷ best: ratio of medians (best) |"
		rule += "---:|---:|"
	}
	head += " rounds |"
	rule += "---:|"
	fmt.Fprintf(b, "%s\n%s\n", head, rule)
	within := 0
	for _, row := range rows {
		line := "| " + strings.TrimPrefix(row.pattern, "Benchmark") + " |"
		if tagged {
			line += " " + row.tag + " |"
		}
		numMed := median(values(row.vals[q.num]))
		line += " " + withUnit(numMed, unit) + " |"
		for _, d := range dens {
			if len(row.vals[d]) == 0 {
				line += " – |"
			} else {
				line += " " + withUnit(median(values(row.vals[d])), unit) + " |"
			}
		}
		paired := 0
		bestMed, bestOf := math.Inf(1), ""
		for _, d := range dens {
			var rs []float64
			for round, nv := range row.vals[q.num] {
				if dv, ok := row.vals[d][round]; ok && dv != 0 {
					rs = append(rs, nv/dv)
				}
			}
			if len(rs) == 0 {
				line += " – |"
				continue
			}
			slices.Sort(rs)
			paired = max(paired, len(rs))
			line += fmt.Sprintf(" %s (%s–%s) |", ratioText(median(rs)), ratioText(rs[0]), ratioText(rs[len(rs)-1]))
			if m := median(values(row.vals[d])); m < bestMed {
				bestMed, bestOf = m, d
			}
		}
		if best {
			line += " " + bestInRound(row, q.num, dens) + " |"
			r := numMed / bestMed
			if r <= 1.05 {
				within++
			}
			line += fmt.Sprintf(" %s (%s) |", ratioText(r), bestOf)
		}
		line += fmt.Sprintf(" %d |", paired)
		b.WriteString(line + "\n")
	}
	if best {
		fmt.Fprintf(b, "\n%s is within 5 %% of the best in %d of %d rows.\n", side(q.num), within, len(rows))
	}
}

// bestInRound returns the median over rounds of num's value over the least
// of the DENs' in the same round, with the smallest and largest, from the
// rounds where num and every DEN that the row has have a value; or – for
// no such round.
func bestInRound(row *ratioRow, num string, dens []string) string {
	var has []string
	for _, d := range dens {
		if len(row.vals[d]) > 0 {
			has = append(has, d)
		}
	}
	var rs []float64
	for round, nv := range row.vals[num] {
		least, n := math.Inf(1), 0
		for _, d := range has {
			if dv, ok := row.vals[d][round]; ok && dv != 0 {
				least, n = min(least, dv), n+1
			}
		}
		if n > 0 && n == len(has) {
			rs = append(rs, nv/least)
		}
	}
	if len(rs) == 0 {
		return "–"
	}
	slices.Sort(rs)
	return fmt.Sprintf("%s (%s–%s)", ratioText(median(rs)), ratioText(rs[0]), ratioText(rs[len(rs)-1]))
}

// values returns the values of a map.
func values(m map[string]float64) []float64 {
	out := make([]float64, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// median returns the median of xs, NaN for none, as benchstat computes it
// (golang.org/x/perf/benchmath).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), confidence).Center
}

// plain formats v to three significant digits in plain decimal notation.
func plain(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	digits := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	if digits < 0 {
		p := math.Pow(10, float64(-digits))
		return strconv.FormatFloat(math.Round(v/p)*p, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// ratioText formats a ratio: to three decimals from 1, where a change in
// the third matters, and else to three significant digits.
func ratioText(v float64) string {
	if v >= 1 {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return plain(v)
}

// withUnit formats a median in its unit: a time in ns, µs, ms or s by its
// size, any other unit as a plain number.
func withUnit(v float64, unit string) string {
	if !strings.HasPrefix(unit, "ns/") {
		return plain(v)
	}
	for _, u := range []struct {
		div  float64
		name string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}} {
		if math.Abs(v) >= u.div {
			return plain(v/u.div) + " " + u.name
		}
	}
	return plain(v) + " ns"
}
