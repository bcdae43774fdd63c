package main

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestTaskCount(t *testing.T) {
	calls, sums := taskCount(5, 1)
	assert.Equal(t, uint64(15), calls, "calls of fib(5): 2·fib(6)-1")
	assert.Equal(t, uint64(7), sums, "sum tasks of fib(5): fib(6)-1")
	calls, sums = taskCount(5, 3)
	assert.Equal(t, uint64(5), calls, "fib(5) -> fib(4) -> {fib(3), fib(2)}, fib(3)")
	assert.Equal(t, uint64(2), sums)
	calls, sums = taskCount(0, 1)
	assert.Equal(t, uint64(1), calls)
	assert.Zero(t, sums)
}

func TestFibIter(t *testing.T) {
	want := []uint64{0, 1, 1, 2, 3, 5, 8, 13, 21, 34}
	for n, v := range want {
		assert.Equal(t, v, fibIter(n), "fib(%d)", n)
		assert.Equal(t, v, fibRec(int32(n)), "fib(%d)", n)
	}
	assert.Equal(t, uint64(2880067194370816120), fibIter(maxN))
}

// TestCompute runs the fork-join computation with every queue, both modes
// and both steal styles, and checks the value, the exact task count and the
// space bound.
func TestCompute(t *testing.T) {
	n := 14
	if testing.Short() {
		n = 11
	}
	calls, sums := taskCount(n, 1)
	for _, q := range catalog.Names() {
		for _, mode := range sched.Modes {
			for _, one := range []bool{true, false} {
				c := config{n: n, queue: q, mode: mode, one: one, proportion: 0.5, cutoff: 1}
				serial, err := compute(context.Background(), c, 1)
				require.NoError(t, err)
				par, err := compute(context.Background(), c, 4)
				require.NoError(t, err)
				for _, r := range []result{serial, par} {
					assert.Equal(t, fibIter(n), r.value, "%s %s one=%v", q, mode, one)
					assert.Equal(t, int64(calls+sums), r.stats.Processed, "%s %s one=%v", q, mode, one)
				}
				s1 := maxLen(serial.stats)
				assert.Equal(t, n, s1, "S_1 of fib(%d) is n: n-2 pending siblings plus the last fork", n)
				for w, ws := range par.stats.PerWorker {
					assert.LessOrEqual(t, ws.MaxLen, s1, "%s %s one=%v: worker %d", q, mode, one, w)
				}
			}
		}
	}
}

func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-n", "15", "-workers", "3", "-queue", "cl-bd", "-mode", "master"}, &out, &errOut)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", &out, &errOut)
	assert.Contains(t, out.String(), "verified: fib(15) = 610 ")
	assert.Contains(t, out.String(), "S_1 = 15")
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "-1"},
		{"-n", "91"},
		{"-n", "x"},
		{"-queue", "nope"},
		{"-mode", "both"},
		{"-workers", "-2"},
		{"-proportion", "0"},
		{"-proportion", "1.5"},
		{"-proportion", "NaN"},
		{"-cutoff", "0"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errOut), "%q", args)
		assert.NotEmpty(t, errOut.String(), "%q: no message", args)
		assert.NotContains(t, errOut.String(), "panic", "%q", args)
		assert.NotContains(t, out.String(), "verified:", "%q", args)
	}
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &out, &errOut), "-h")
	assert.Contains(t, errOut.String(), "-cutoff")
}

// TestBinary builds the command and runs it once, as a user would.
func TestBinary(t *testing.T) {
	t.Parallel() // go build runs in a process of its own, beside the other tests
	bin := cmdtest.BuildBinary(t)
	out, err := exec.Command(bin, "-n", "14", "-workers", "2").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "verified: fib(14) = 377 ")

	out, err = exec.Command(bin, "-queue", "nope").CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 2, exit.ExitCode(), "%s", out)
	assert.Contains(t, string(out), `unknown queue "nope"`)
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
