package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// bruteForce returns the optimum of a small instance by trying every subset.
func bruteForce(in *instance) int64 {
	var best int64
	for mask := 0; mask < 1<<len(in.items); mask++ {
		var v, w int64
		for i, it := range in.items {
			if mask&(1<<i) != 0 {
				v += it.value
				w += it.weight
			}
		}
		if w <= in.capacity {
			best = max(best, v)
		}
	}
	return best
}

// TestDPAndBound checks the DP and the fractional bound against brute force
// on small instances of every type.
func TestDPAndBound(t *testing.T) {
	for _, kind := range kinds {
		for seed := range uint64(20) {
			in := generate(genConfig{n: 12, kind: kind, seed: seed, rng: 50})
			opt := bruteForce(in)
			require.Equal(t, opt, in.dp(), "%s seed %d", kind, seed)
			s := newSolver(in)
			assert.GreaterOrEqual(t, s.bound(0, 0, in.capacity), opt, "%s seed %d: root bound", kind, seed)
			g := s.greedySolution()
			assert.NoError(t, in.check(g.items(), g.value, g.value), "greedy solution is feasible")
		}
	}
}

// TestSolve runs the branch and bound with every queue, both modes and one
// or several workers, and checks the result against the DP optimum.
func TestSolve(t *testing.T) {
	instances := []genConfig{{n: 40, kind: "strong", seed: 2, rng: 1000}}
	if !testing.Short() {
		instances = append(instances, genConfig{n: 30, kind: "subset", seed: 3, rng: 1000})
	}
	for _, g := range instances {
		in := generate(g)
		opt := in.dp()
		for _, q := range catalog.Names() {
			for _, mode := range sched.Modes {
				for _, workers := range []int{1, 3} {
					c := config{queue: q, mode: mode, workers: workers, proportion: 0.5}
					sol, st, err := newSolver(in).solve(context.Background(), c)
					require.NoError(t, err)
					assert.NoError(t, in.check(sol.items(), sol.value, opt), "%+v %s %s %d workers", g, q, mode, workers)
					assert.Positive(t, st.Processed)
				}
			}
		}
	}
}

func TestParse(t *testing.T) {
	in, err := readFile("testdata/sample.txt")
	require.NoError(t, err)
	assert.Len(t, in.items, 12)
	assert.Equal(t, int64(156), in.capacity)
	assert.Equal(t, item{value: 45, weight: 33}, in.items[0])
	assert.Equal(t, bruteForce(in), in.dp())

	in, err = parse(strings.NewReader("0 5\n"), "empty")
	require.NoError(t, err)
	assert.Empty(t, in.items)

	for _, tc := range []struct{ text, want string }{
		{"", "f: no instance"},
		{"# only a comment\n\n", "f: no instance"},
		{"3\n", `f:1: want two numbers "n capacity"`},
		{"# c\n2 10\n1 2 3\n", `f:3: want two numbers "value weight", got "1 2 3"`},
		{"2 10\n1 2\n", "f:2: the first line announces 2 items, the file has 1"},
		{"1 10\n1 2\n3 4\n", "f:3: more items than the 1 the first line announces"},
		{"1 10\nx 2\n", `f:2: "x" is not a non-negative integer`},
		{"1 10\n1 -2\n", `f:2: "-2" is not a non-negative integer`},
		{"1 10\n1 0\n", "f:2: weight 0"},
		{"1 -10\n", `f:1: "-10" is not a non-negative integer`},
		{"1 10\n1 99999999999\n", "f:2: 99999999999 is larger than"},
		{"200000 10\n", "f:1: 200000 items is more than"},
		{"1 10\n" + strings.Repeat("9", 70000) + " 1\n", "f:2: bufio.Scanner: token too long"},
	} {
		_, err := parse(strings.NewReader(tc.text), "f")
		if assert.Error(t, err, "%q", tc.text) {
			assert.Contains(t, err.Error(), tc.want, "%q", tc.text)
		}
	}
}

func TestCheckDPSize(t *testing.T) {
	in := &instance{capacity: maxDP / 2, items: make([]item, 2)}
	assert.ErrorContains(t, in.checkDPSize(), "too large for the DP check")
	in = &instance{capacity: 1<<62 - 1}
	assert.ErrorContains(t, in.checkDPSize(), "too large for the DP check", "no items, but a table too large")
	in = &instance{capacity: 1000, items: make([]item, 100)}
	assert.NoError(t, in.checkDPSize())
}

func TestRun(t *testing.T) {
	for _, args := range [][]string{
		{"-file", "testdata/sample.txt", "-workers", "3", "-queue", "tf-bd", "-mode", "random"},
		{"-n", "30", "-type", "weak", "-seed", "5", "-workers", "2", "-queue", "cl-ub"},
	} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		require.Equal(t, 0, code, "%q\nstdout:\n%s\nstderr:\n%s", args, &out, &errOut)
		assert.Contains(t, out.String(), "verified: branch and bound is optimal", "%q", args)
	}
}

func TestRunBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("2 10\n1 2\nthree 4\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-file", bad}, "bad.txt:3:"},
		{[]string{"-file", filepath.Join(t.TempDir(), "missing.txt")}, "no such file"},
		{[]string{"-file", "testdata/sample.txt", "-n", "5"}, "-file excludes -n"},
		{[]string{"-n", "-1"}, "-n -1"},
		{[]string{"-type", "hard"}, `-type "hard"`},
		{[]string{"-range", "0"}, "-range 0"},
		{[]string{"-capacity", "-5"}, "-capacity -5"},
		{[]string{"-n", "100", "-capacity", "100000000"}, "too large for the DP check"},
		{[]string{"-queue", "nope"}, `unknown queue "nope"`},
		{[]string{"-mode", "both"}, `unknown mode "both"`},
		{[]string{"-workers", "-1"}, "-workers -1"},
		{[]string{"-proportion", "2"}, "-proportion 2"},
		{[]string{"-seed", "x"}, "invalid value"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errOut), "%q", tc.args)
		assert.Contains(t, errOut.String(), tc.want, "%q", tc.args)
		assert.NotContains(t, errOut.String(), "panic", "%q", tc.args)
		assert.NotContains(t, out.String(), "verified:", "%q", tc.args)
	}
}

// TestBinary builds the command and runs it once, as a user would.
func TestBinary(t *testing.T) {
	t.Parallel() // go build runs in a process of its own, beside the other tests
	bin := cmdtest.BuildBinary(t)
	out, err := exec.Command(bin, "-n", "30", "-seed", "3", "-workers", "2").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "verified: branch and bound is optimal")

	bad := filepath.Join(t.TempDir(), "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("1 10\n5\n"), 0o644))
	out, err = exec.Command(bin, "-file", bad).CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 2, exit.ExitCode(), "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("knapsack: %s:2: want two numbers", bad))
}
