package bench

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/worksteal/wsq/tfdeque"
)

// The peers of these benchmarks (bench/peers: Rust's crossbeam-deque and
// rayon, C++ Taskflow) time the same loops in their own languages. Their
// windows and sizes are constants of their sources, named alike; a peer
// that timed other windows than the Go benchmarks would compare unlike
// loops.

// peerConstants are the constants a peer must share with these benchmarks,
// by name, with their values here.
func peerConstants() map[string][]int {
	return map[string][]int{
		"WINDOW_ITEMS":     {windowItems},
		"BATCH_SIZES":      batchSizes,
		"STEAL_SIZES":      stealSizes,
		"STEAL_SHARES":     stealShares,
		"STEAL_QUEUES":     {maxStealQueues},
		"STEAL_ITEMS":      {stealItems},
		"POP_FILL_BATCH":   {popFillBatch},
		"DEFAULT_CAPACITY": {tfdeque.DefaultUnboundedCapacity},
		"THIEVES_BACKLOG":  {thievesBacklog},
		"THIEVES_CHECK":    {thievesCheck},
		"THIEVES_PART":     {int(thievesPart * 100)}, // in percent
		"FIB_FINE":         {fibWorks[0].n, fibWorks[0].cutoff},
		"FIB_COARSE":       {fibWorks[1].n, fibWorks[1].cutoff},
		"SORT_INTS":        {sortInts},
		"SORT_STRINGS":     {sortStrings},
		"SORT_DISTINCT":    {sortDistinct},
		"SORT_ZIPF":        sortZipf,
	}
}

// peerSources lists each peer's source and the constants it declares.
// crossbeam has no bulk push and no proportional steal, so the Rust
// harness fills its pops by single pushes and its thieves take at most 32
// items a steal: it has no POP_FILL_BATCH and no THIEVES_PART. Taskflow's
// queue alone runs no fork-join, and its default capacity is tfdeque's.
var peerSources = map[string][]string{
	"peers/rust/src/main.rs": {
		"WINDOW_ITEMS", "BATCH_SIZES", "STEAL_SIZES", "STEAL_SHARES", "STEAL_QUEUES", "STEAL_ITEMS",
		"THIEVES_BACKLOG", "THIEVES_CHECK", "FIB_FINE", "FIB_COARSE",
	},
	"peers/rust/src/loops.rs": {"SORT_INTS", "SORT_STRINGS", "SORT_DISTINCT", "SORT_ZIPF"},
	"peers/cpp/harness.cpp": {
		"WINDOW_ITEMS", "BATCH_SIZES", "STEAL_SIZES", "STEAL_SHARES", "STEAL_QUEUES", "STEAL_ITEMS",
		"POP_FILL_BATCH", "DEFAULT_CAPACITY", "THIEVES_BACKLOG", "THIEVES_CHECK", "THIEVES_PART",
	},
}

// constantDecl matches the declaration of a constant in Rust (const NAME:
// type = value;) or C++ (constexpr type NAME = value;), its value up to the
// semicolon.
var constantDecl = regexp.MustCompile(`(?m)^\s*(?:const|constexpr)\b[^=]*?\b([A-Z][A-Z0-9_]*)\b[^=]*=\s*([^;]+);`)

// constantValues returns the integer constants that src declares: a
// number (digits with _ or ' between them, or a << b), or a list of them
// in [], {} or ().
func constantValues(src string) (map[string][]int, error) {
	out := map[string][]int{}
	for _, m := range constantDecl.FindAllStringSubmatch(src, -1) {
		name, value := m[1], strings.TrimSpace(m[2])
		value = strings.Trim(value, "[]{}()")
		var vs []int
		for _, e := range strings.Split(value, ",") {
			if e = strings.TrimSpace(e); e == "" {
				continue
			}
			v, err := evalInt(e)
			if err != nil {
				vs = nil // not an integer constant: not one of ours
				break
			}
			vs = append(vs, v)
		}
		if vs != nil {
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("%s is declared twice", name)
			}
			out[name] = vs
		}
	}
	return out, nil
}

// evalInt evaluates an integer literal (with _ or ' as digit separators,
// and a type suffix such as u32 or usize) or a shift a << b.
func evalInt(e string) (int, error) {
	if a, b, ok := strings.Cut(e, "<<"); ok {
		x, err := evalInt(strings.TrimSpace(a))
		if err != nil {
			return 0, err
		}
		y, err := evalInt(strings.TrimSpace(b))
		if err != nil {
			return 0, err
		}
		return x << y, nil
	}
	e = strings.NewReplacer("_", "", "'", "").Replace(e)
	if i := strings.IndexFunc(e, unicode.IsLetter); i > 0 {
		e = e[:i] // a type suffix: 27u32, 1usize, 16u
	}
	return strconv.Atoi(e)
}

// peerMismatches returns what in src differs from want for the constants
// names: a missing constant, or another value.
func peerMismatches(src string, names []string, want map[string][]int) ([]string, error) {
	got, err := constantValues(src)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		v, ok := got[name]
		switch {
		case !ok:
			out = append(out, name+" is not declared")
		case !slices.Equal(v, want[name]):
			out = append(out, fmt.Sprintf("%s = %v; the Go benchmarks use %v", name, v, want[name]))
		}
	}
	return out, nil
}

// TestPeerConstants reads the sources of the Rust and C++ peers and checks
// that they time the Go benchmarks' windows and sizes.
func TestPeerConstants(t *testing.T) {
	want := peerConstants()
	for file, names := range peerSources {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := peerMismatches(string(src), names, want)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, m := range bad {
			t.Errorf("%s: %s", file, m)
		}
	}
}

// TestPeerConstantsFail shows that the check reads both languages' forms
// and fails a changed or missing constant.
func TestPeerConstantsFail(t *testing.T) {
	want := map[string][]int{"WINDOW_ITEMS": {1 << 20}, "SIZES": {10_000, 100_000}, "FIB": {27, 1}}
	names := []string{"WINDOW_ITEMS", "SIZES", "FIB"}
	cases := []struct {
		name, src string
		bad       int
	}{
		{"rust", "const WINDOW_ITEMS: usize = 1 << 20;\nconst SIZES: [usize; 2] = [10_000, 100_000];\nconst FIB: (u32, u32) = (27, 1);\n", 0},
		{"c++", "constexpr std::size_t WINDOW_ITEMS = 1 << 20;  // Go: windowItems\nconstexpr std::array<std::size_t, 2> SIZES = {10'000, 100000};\nconstexpr int FIB[] = {27u, 1};\n", 0},
		{"chunks", "const WINDOW_ITEMS: usize = 1 << 10;\nconst SIZES: [usize; 2] = [10_000, 100_000];\nconst FIB: (u32, u32) = (27, 1);\n", 1},
		{"missing", "const SIZES: [usize; 2] = [10_000, 100_000];\n", 2},
	}
	for _, c := range cases {
		bad, err := peerMismatches(c.src, names, want)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(bad) != c.bad {
			t.Errorf("%s: %d mismatches %q, want %d", c.name, len(bad), bad, c.bad)
		}
	}
}
