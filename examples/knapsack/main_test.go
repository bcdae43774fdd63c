package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/examples/internal/cmdtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
