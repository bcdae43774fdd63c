package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/dag"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestExplore explores small graphs with every queue, both modes and one or
// several workers; every run must pass the exactly-once check and produce
// the same busy-work checksum.
func TestExplore(t *testing.T) {
	nodes := int64(5_000)
	if testing.Short() {
		nodes = 2_000
	}
	for _, work := range dag.Works {
		g := dag.Graph{Nodes: nodes, Seed: 7, Fanout: 4, Work: work, Cost: 10}
		var checksum uint64
		first := true
		for _, q := range catalog.Names() {
			for _, mode := range sched.Modes {
				for _, workers := range []int{1, 3} {
					c := config{graph: g, queue: q, mode: mode, proportion: 0.5, one: workers == 3 && q == "mutex"}
					r, err := explore(context.Background(), c, workers, nil)
					require.NoError(t, err, "%s %s %s %d workers", work, q, mode, workers)
					assert.Equal(t, nodes, r.nodes)
					assert.Equal(t, nodes, r.stats.Processed)
					if first {
						checksum, first = r.checksum, false
					}
					assert.Equal(t, checksum, r.checksum, "%s %s %s %d workers: the checksum depends on the graph only", work, q, mode, workers)
				}
			}
		}
	}
}

func TestProgress(t *testing.T) {
	assert.Equal(t, "dagexplore: 0 / 1,000 nodes (0.0%)", progressLine(0, 1000, 0))
	assert.Equal(t, "dagexplore: 250 / 1,000 nodes (25.0%), 0.000 M nodes/s, ETA 3s", progressLine(250, 1000, time.Second))

	var out bytes.Buffer
	var calls atomic.Int64
	stop := startProgress(&out, time.Millisecond, 1000, func() int64 { return 10 * calls.Add(1) })
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.GreaterOrEqual(t, len(lines), 3, "one line per tick when not on a terminal")
	assert.Equal(t, "dagexplore: 10 / 1,000 nodes (1.0%)", lines[0][:len("dagexplore: 10 / 1,000 nodes (1.0%)")])
	assert.NotContains(t, out.String(), "\r", "no terminal control codes in a log")

	out.Reset()
	startProgress(&out, 0, 1000, func() int64 { panic("not called") })()
	assert.Empty(t, out.String())
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 2_500_000: "2,500,000", 300_000_000: "300,000,000", -12345: "-12,345"} {
		assert.Equal(t, want, group(n))
	}
}

func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"-nodes", "3000", "-cost", "5", "-workers", "3", "-mode", "random", "-speedup", "-progress", "0"}, &out, &errOut)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", &out, &errOut)
	assert.Contains(t, out.String(), "speedup over 1 worker: ")
	assert.Contains(t, out.String(), "verified: all 3,000 nodes handled exactly once")
	assert.Contains(t, out.String(), "both runs agree")
	assert.Empty(t, errOut.String())
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run(ctx, []string{"-nodes", "100000", "-progress", "0"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "dagexplore: interrupted after")
	assert.NotContains(t, out.String(), "verified:")
}

func TestRunBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-nodes", "0"}, "at least 1 node"},
		{[]string{"-nodes", "many"}, "invalid value"},
		{[]string{"-queue", "nope"}, `unknown queue "nope"`},
		{[]string{"-mode", "both"}, `unknown mode "both"`},
		{[]string{"-work", "lumpy"}, `unknown work "lumpy"`},
		{[]string{"-workers", "-1"}, "-workers -1"},
		{[]string{"-proportion", "0"}, "-proportion 0"},
		{[]string{"-proportion", "NaN"}, "-proportion NaN"},
		{[]string{"-cost", "-1"}, "-cost -1"},
		{[]string{"-fanout", "0"}, "-fanout 0"},
		{[]string{"-progress", "-1s"}, "-progress -1s"},
		{[]string{"-progress", "soon"}, "invalid value"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(context.Background(), tc.args, &out, &errOut), "%q", tc.args)
		assert.Contains(t, errOut.String(), tc.want, "%q", tc.args)
		assert.NotContains(t, errOut.String(), "panic", "%q", tc.args)
		assert.Empty(t, out.String(), "%q", tc.args)
	}
}

// TestBinary builds the command and runs it once, as a user would, with the
// progress line on.
func TestBinary(t *testing.T) {
	t.Parallel() // go build runs in a process of its own, beside the other tests
	bin := cmdtest.BuildBinary(t)
	cmd := exec.Command(bin, "-nodes", "20000", "-workers", "2", "-progress", "1ms")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "stdout:\n%s\nstderr:\n%s", &stdout, &stderr)
	assert.Contains(t, stdout.String(), "verified: all 20,000 nodes handled exactly once")
	assert.NotContains(t, stdout.String(), "dagexplore:", "progress goes to stderr")

	out, err := exec.Command(bin, "-mode", "both").CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 2, exit.ExitCode(), "%s", out)
	assert.Contains(t, string(out), `unknown mode "both"`)
}
