package main

import (
	"bytes"
	"os"
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

// TestCommand builds the command and runs it as a user would: on generated
// instances and on a file, and with each kind of bad flag or bad file (those
// of the flags all programs share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("2 10\n1 2\nthree 4\n"), 0o644))
	short := filepath.Join(dir, "short.txt")
	require.NoError(t, os.WriteFile(short, []byte("1 10\n5\n"), 0o644))
	huge := filepath.Join(dir, "huge.txt")
	require.NoError(t, os.WriteFile(huge, []byte("2 600000000\n5 3\n7 4\n"), 0o644))
	refusedFile := func(want string, args ...string) cmdtest.Case {
		return cmdtest.Case{Args: args, Code: 2, Want: []string{want}, NoHint: true}
	}
	cmdtest.Command(t, "knapsack", synopsis, []cmdtest.Case{
		cmdtest.Verified("verified: branch and bound is optimal: value 8,934 equals the DP optimum, and its 21 items fit the capacity", "-n", "30", "-seed", "3"),
		cmdtest.Verified("verified: branch and bound is optimal", "-n", "30", "-type", "weak", "-queue", "tf-ub", "-mode", "random", "-workers", "3"),
		cmdtest.Verified("verified: branch and bound is optimal: value 227 equals the DP optimum, and its 6 items fit the capacity 156", "-file", "testdata/sample.txt"),
		cmdtest.Verified("verified: branch and bound is optimal", "-n", "40", "-type", "uncorrelated", "-range", "100", "-capacity", "500", "-progress=false"),
		cmdtest.Verified("verified: the 49,958 items taken fit the capacity 25,096,812 and are worth 25,096,812; optimality not checked (-check=false)", "-n", "100000", "-type", "subset", "-check=false"),
		cmdtest.Verified("and 49,928 more", "-n", "100000", "-type", "subset", "-check=false"),
		cmdtest.Verified("verified: the 2 items taken fit the capacity 600,000,000 and are worth 12", "-file", huge, "-check=false"),
		cmdtest.Refused("knapsack: instance too large for the DP check: 100,000 items × 25,096,813 capacities exceed 1,073,741,824 cells; use fewer items or a smaller capacity, or -check=false to skip the check", "-n", "100000"),
		cmdtest.Refused("knapsack: instance too large for the DP check", "-n", "100", "-capacity", "100000000"),
		refusedFile("knapsack: instance too large for the DP check: 2 items × 600,000,001 capacities exceed 1,073,741,824 cells", "-file", huge),
		refusedFile(`knapsack: `+bad+`:3: "three" is not a non-negative integer`, "-file", bad),
		refusedFile("knapsack: "+short+`:2: want two numbers "value weight", got "5"`, "-file", short),
		cmdtest.Refused("knapsack: -file "+dir+": a directory; want an instance file", "-file", dir),
		cmdtest.Refused("knapsack: -file "+filepath.Join(dir, "missing.txt")+": no such file or directory", "-file", filepath.Join(dir, "missing.txt")),
		cmdtest.Refused("knapsack: -n does nothing with -file, which reads the instance instead of generating one", "-file", "testdata/sample.txt", "-n", "5"),
		cmdtest.Refused("knapsack: -capacity, -seed and -type do nothing with -file", "-file", "testdata/sample.txt", "-type", "weak", "-seed", "2", "-capacity", "5"),
		cmdtest.Refused("knapsack: -n -1: out of range; want 0 to 100,000", "-n", "-1"),
		cmdtest.Refused("knapsack: -n 100001: out of range; want 0 to 100,000", "-n", "100001"),
		cmdtest.Refused("knapsack: -type hard: unknown value; want uncorrelated, weak, strong or subset", "-type", "hard"),
		cmdtest.Refused("knapsack: -range 0: out of range; want 1 to 500,000,000", "-range", "0"),
		cmdtest.Refused("knapsack: -capacity -5: out of range; want at least 0", "-capacity", "-5"),
		cmdtest.Refused("knapsack: -proportion 2: outside (0, 1]", "-proportion", "2"),
		cmdtest.Refused(`knapsack: invalid value "x" for flag -seed`, "-seed", "x"),
		cmdtest.Refused(`knapsack: invalid boolean value "maybe" for -check`, "-check=maybe"),
	})
}
