package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// Limits that keep every sum and product in int64.
const (
	maxItems  = 100_000
	maxNumber = 1_000_000_000 // largest value or weight of an item
)

// genConfig describes a generated instance.
type genConfig struct {
	n        int
	kind     kind
	seed     uint64
	rng      int64 // weights are drawn from 1..rng
	capacity int64 // 0: half the total weight
}

// kind is the correlation type of a generated instance's values and
// weights.
type kind string

// String returns the kind's name, as -type takes it.
func (k kind) String() string { return string(k) }

// kinds lists the correlation types of generated instances.
var kinds = []kind{"uncorrelated", "weak", "strong", "subset"}

// item is one item of an instance.
type item struct {
	value, weight int64
}

// instance is a 0/1 knapsack problem.
type instance struct {
	capacity int64
	items    []item
}

// generate makes an instance from g.
func generate(g genConfig) *instance {
	r := rand.New(rand.NewPCG(g.seed, 0x6b6e61707361636b)) // "knapsack"
	in := &instance{capacity: g.capacity, items: make([]item, g.n)}
	var total int64
	for i := range in.items {
		w := 1 + r.Int64N(g.rng)
		var v int64
		switch g.kind {
		case "uncorrelated":
			v = 1 + r.Int64N(g.rng)
		case "weak":
			d := g.rng / 10
			v = max(1, w-d+r.Int64N(2*d+1))
		case "strong":
			v = w + g.rng/10
		case "subset":
			v = w
		}
		in.items[i] = item{value: v, weight: w}
		total += w
	}
	if in.capacity == 0 {
		in.capacity = total / 2
	}
	return in
}

// readFile reads an instance in the documented text format. Its errors name
// the file and the line.
func readFile(name string) (*instance, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(f, name)
}

// parse reads an instance from r; name is used in error messages.
func parse(r io.Reader, name string) (*instance, error) {
	sc := bufio.NewScanner(r)
	var in *instance
	want := 0 // items the header announces
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			what := `"value weight"`
			if in == nil {
				what = `"n capacity"`
			}
			return nil, fmt.Errorf("%s:%d: want two numbers %s, got %q", name, line, what, text)
		}
		a, err := parseNumber(fields[0])
		var b int64
		if err == nil {
			b, err = parseNumber(fields[1])
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if in == nil { // the first line: n and the capacity
			if a > maxItems {
				return nil, fmt.Errorf("%s:%d: %d items is more than the %d this program accepts", name, line, a, maxItems)
			}
			want = int(a)
			in = &instance{capacity: b, items: make([]item, 0, want)}
			continue
		}
		if len(in.items) == want {
			return nil, fmt.Errorf("%s:%d: more items than the %d the first line announces", name, line, want)
		}
		if b == 0 {
			return nil, fmt.Errorf("%s:%d: weight 0; weights must be at least 1", name, line)
		}
		in.items = append(in.items, item{value: a, weight: b})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if in == nil {
		return nil, fmt.Errorf(`%s: no instance: the first line must be "n capacity"`, name)
	}
	if len(in.items) < want {
		return nil, fmt.Errorf("%s:%d: the first line announces %d items, the file has %d", name, line, want, len(in.items))
	}
	return in, nil
}

// parseNumber parses a non-negative integer no larger than maxNumber.
func parseNumber(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	if v > maxNumber {
		return 0, fmt.Errorf("%d is larger than %d", v, maxNumber)
	}
	return v, nil
}
