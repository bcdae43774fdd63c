package main

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun processes items with every queue, bounded ones included, and
// checks that each was handled exactly once.
func TestRun(t *testing.T) {
	for _, name := range catalog.Names() {
		for _, n := range []int{0, 1, 1000, 5000} {
			q, err := catalog.New[int](name)
			require.NoError(t, err)
			owned, stolen, sum := run(q, n)
			assert.Equal(t, n, owned+stolen, "%s, %d items", name, n)
			assert.Equal(t, n*(n+1)/2, sum, "%s, %d items", name, n)
			assert.Equal(t, 0, q.Len(), "%s, %d items", name, n)
		}
	}
}

// TestBinary builds the command and runs it once, as a user would.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := cmdtest.BuildBinary(t)
	out, err := exec.Command(bin, "-n", "3000", "-queue", "cl-bd").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "verified: all 3000 items processed exactly once")

	out, err = exec.Command(bin, "-queue", "nope").CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 2, exit.ExitCode(), "%s", out)
	assert.Contains(t, string(out), `unknown queue "nope"`)
}
