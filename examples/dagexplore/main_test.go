package main

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/internal/schedstats"
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
			for _, mode := range cli.Modes {
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

func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"-nodes", "3000", "-cost", "5", "-workers", "3", "-mode", "random", "-speedup", "-progress=false"}, &out, &errOut)
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
	assert.Equal(t, 1, run(ctx, []string{"-nodes", "100000", "-progress=false"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "dagexplore: interrupted after")
	assert.NotContains(t, out.String(), "verified:")
}

// TestParseFlags checks what the flags select, the -workers limits and the
// refusals that depend on more than one flag.
func TestParseFlags(t *testing.T) {
	parse := func(args ...string) (config, error) {
		return parseFlags(cli.New("dagexplore", synopsis, io.Discard, io.Discard), args)
	}
	c, err := parse()
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000), c.graph.Nodes)
	assert.Equal(t, sched.Master, c.mode)
	assert.Equal(t, min(runtime.GOMAXPROCS(0), cli.MaxWorkers), c.workers)
	assert.True(t, c.progress)
	assert.False(t, c.one)

	c, err = parse("-nodes", "3", "-mode", "random", "-one", "-work", "irregular", "-cost", "0")
	require.NoError(t, err)
	assert.Equal(t, min(runtime.GOMAXPROCS(0), 3), c.workers, "GOMAXPROCS, but no more workers than nodes")
	assert.True(t, c.one)
	assert.Equal(t, dag.Irregular, c.graph.Work)
	assert.Equal(t, 0, c.graph.Cost, "no busy work")

	_, err = parse("-nodes", "1", "-speedup")
	assert.EqualError(t, err, "-speedup compares with a run of 1 worker and needs at least 2 workers; this run would have 1 (the graph has 1 node)")
	_, err = parse("-nodes", "1000", "-workers", "1000")
	assert.NoError(t, err)
}

// TestCommand builds the command and runs it as a user would: with every
// queue, with each mode and option, and with each kind of bad flag (those
// of the flags all programs share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	bq, ok := catalog.Lookup("bq")
	require.True(t, ok)
	require.Contains(t, bq.Description, "(blockq)", "the default queue, named by its package")
	cases := cmdtest.EveryQueue("verified: all 20,000 nodes handled exactly once", "-nodes", "20000")
	cases = append(cases,
		cmdtest.Verified("verified: all 20,000 nodes handled exactly once", "-nodes", "20,000", "-queue", "cl-bd", "-mode", "random", "-work", "irregular", "-workers", "3"),
		cmdtest.Verified("with 2 workers", "-nodes", "5000", "-workers", "2", "-mode", "random", "-one", "-cost", "0"),
		cmdtest.Verified("both runs agree", "-nodes", "5000", "-workers", "2", "-speedup", "-progress=false"),
		cmdtest.Verified("verified: all 1 node handled exactly once", "-nodes", "1"),
		cmdtest.Verified("queue: bq, "+bq.Description+"\nscheduler: master mode, proportion auto, ", "-nodes", "1000"),
		cmdtest.Verified("scheduler: master mode, proportion 0.5, ", "-nodes", "1000", "-proportion", "0.5"),
		cmdtest.Verified("explored 1,000 nodes", "-nodes", "1000", "-workers", "1000", "-cost", "0"),
		cmdtest.Refused("dagexplore: -nodes 0: out of range; want at least 1", "-nodes", "0"),
		cmdtest.Refused("dagexplore: -nodes many: not an integer", "-nodes", "many"),
		cmdtest.Refused("dagexplore: -work lumpy: unknown value; want uniform or irregular", "-work", "lumpy"),
		cmdtest.Refused("dagexplore: -workers 1,001: more than the 1,000 nodes of the graph; a worker needs work to do", "-nodes", "1000", "-workers", "1001"),
		cmdtest.Refused("dagexplore: -cost -1: out of range; want at least 0", "-cost", "-1"),
		cmdtest.Refused("dagexplore: -fanout 0: out of range; want 1 to 1,048,576", "-fanout", "0"),
		cmdtest.Refused("dagexplore: -one does nothing in master mode, where the master moves -proportion of a queue", "-mode", "master", "-one"),
		cmdtest.Refused("dagexplore: -one does nothing in master mode", "-one=false"),
		cmdtest.Refused("dagexplore: -proportion does nothing with -one, which steals one item at a time", "-mode", "random", "-one", "-proportion", "0.3"),
		cmdtest.Refused("dagexplore: -speedup compares with a run of 1 worker and needs at least 2 workers; this run would have 1\n", "-speedup", "-workers", "1"),
	)
	cmdtest.Command(t, "dagexplore", synopsis, cases)
}

// TestSummaryTinyRun checks the figures of runs too small for milliseconds:
// durations in microseconds, no rate of hand-offs that did not happen, and
// "too short to measure" where no time passed on the clock.
func TestSummaryTinyRun(t *testing.T) {
	tiny := result{nodes: 10, workers: 2, mode: sched.Master, elapsed: 58_834 * time.Nanosecond,
		stats: sched.Stats{
			WorkerStats: sched.WorkerStats{Processed: 10, IdleWait: 12_512 * time.Nanosecond},
			PerWorker:   []sched.WorkerStats{{Processed: 10, MaxLen: 5}, {IdleWait: 12_512 * time.Nanosecond, MaxLen: 1}},
		},
		detail: schedstats.Detail{Idles: 1, MasterBusy: 1_620 * time.Nanosecond},
	}
	var out bytes.Buffer
	summary(&out, tiny, nil)
	assert.Equal(t, ""+
		"explored 10 nodes with 2 workers in 58.8µs: 169,970 nodes/s\n"+
		"steals: 0, empty steals 0, contended steals 0\n"+
		"idle: 1 time, 12.5µs in all; master busy 1.62µs (no hand-offs), workers waited 0s for it\n"+
		"  worker       handled    steals       moved  max queue       idle\n"+
		"       0            10         0           0          5         0s\n"+
		"       1             0         0           0          1     12.5µs\n",
		out.String())

	untimed := result{nodes: 3, workers: 1, mode: sched.Master, stats: sched.Stats{WorkerStats: sched.WorkerStats{Steals: 2, Moved: 2}}}
	out.Reset()
	summary(&out, untimed, &untimed)
	assert.Equal(t, ""+
		"explored 3 nodes with 1 worker in 0s: too short to measure\n"+
		"speedup over 1 worker: too short to measure\n"+
		"steals: 2 (too short to measure), items moved 2 (1.0 per steal), empty steals 0, contended steals 0\n"+
		"idle: 0 times, 0s in all; master busy 0s (capacity too short to measure), workers waited 0s for it\n"+
		"  worker       handled    steals       moved  max queue       idle\n",
		out.String())
}
