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

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/sched"
)

func TestTaskCount(t *testing.T) {
	assert.Equal(t, uint64(8), taskCount(5, 1), "the root and the fib(6)-1 calls of fib(5) that fork")
	assert.Equal(t, uint64(3), taskCount(5, 3), "the root, fib(5) forking fib(4), and fib(4)")
	assert.Equal(t, uint64(1), taskCount(0, 1))
	assert.Equal(t, uint64(1), taskCount(3, 90))
}

func TestFibIter(t *testing.T) {
	want := []uint64{0, 1, 1, 2, 3, 5, 8, 13, 21, 34}
	for n, v := range want {
		assert.Equal(t, v, fibIter(n), "fib(%d)", n)
		assert.Equal(t, v, fibRec(n), "fib(%d)", n)
	}
	assert.Equal(t, uint64(2880067194370816120), fibIter(maxN))
}

// TestCompute runs the fork-join computation with every queue, both modes
// and both steal styles, and checks the value, the exact task count and the
// space bound: no worker's queue outgrows S_1, which is n/2 (the forks
// pending along the path of inline calls fib(n-2), fib(n-4), ...).
func TestCompute(t *testing.T) {
	n := 14
	if testing.Short() {
		n = 11
	}
	tasks := taskCount(n, 1)
	for _, q := range catalog.Names() {
		for _, mode := range cli.Modes {
			for _, one := range []bool{true, false} {
				c := config{n: n, queue: q, mode: mode, one: one, proportion: 0.5, cutoff: 1}
				serial, err := compute(context.Background(), c, 1, nil)
				require.NoError(t, err)
				par, err := compute(context.Background(), c, 4, nil)
				require.NoError(t, err)
				for _, r := range []result{serial, par} {
					assert.Equal(t, fibIter(n), r.value, "%s %s one=%v", q, mode, one)
					assert.Equal(t, int64(tasks), r.stats.Processed, "%s %s one=%v", q, mode, one)
				}
				s1 := maxLen(serial.stats)
				assert.Equal(t, n/2, s1, "S_1 of fib(%d)", n)
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
	assert.Contains(t, out.String(), "S_1 = 7 ")
}

// TestParseFlags checks what the flags select and the -workers limits.
func TestParseFlags(t *testing.T) {
	parse := func(args ...string) (config, error) {
		return parseFlags(cli.New("fib", synopsis, io.Discard, io.Discard), args)
	}
	c, err := parse()
	require.NoError(t, err)
	assert.Equal(t, 27, c.n)
	assert.Equal(t, sched.Random, c.mode)
	assert.False(t, c.one, "the same default as dagexplore's")
	assert.Equal(t, min(runtime.GOMAXPROCS(0), cli.MaxWorkers), c.workers)

	c, err = parse("-n", "1")
	require.NoError(t, err)
	assert.Equal(t, 1, c.workers, "fib(1) is one task")
	c, err = parse("-n", "90", "-cutoff", "1000")
	require.NoError(t, err)
	assert.Equal(t, maxN, c.cutoff)
	assert.Equal(t, 1, c.workers, "fib(90) below the cutoff is one task")
}

// TestCommand builds the command and runs it as a user would: with each
// mode and option, and with each kind of bad flag (those of the flags all
// programs share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	cmdtest.Command(t, "fib", synopsis, []cmdtest.Case{
		cmdtest.Verified("verified: fib(16) = 987 equals the iterative value; every run ran its 1,597 tasks exactly once", "-n", "16"),
		cmdtest.Verified("3 workers: fib = 987, 1,597 tasks", "-n", "16", "-queue", "lf-skip", "-mode", "master", "-workers", "3"),
		cmdtest.Verified("steal 0.3 of a queue", "-n", "16", "-queue", "mutex", "-one=false", "-proportion", "0.3", "-workers", "2"),
		cmdtest.Verified("steal one task", "-n", "16", "-queue", "cl-bd", "-one", "-workers", "2"),
		cmdtest.Verified("each steal chooses its amount", "-n", "16", "-proportion", "auto", "-workers", "2"),
		cmdtest.Verified("verified: fib(0) = 0 ", "-n", "0"),
		cmdtest.Verified("verified: fib(20) = 6,765 ", "-n", "20", "-cutoff", "10", "-workers", "2", "-progress=false"),
		cmdtest.Refused("fib: -n 100: out of range; want 0 to 90", "-n", "100"),
		cmdtest.Refused("fib: -n -1: out of range; want 0 to 90", "-n", "-1"),
		cmdtest.Refused("fib: -n x: not an integer", "-n", "x"),
		cmdtest.Refused("fib: -workers 2: more than the 1 task of fib(1); a worker needs work to do", "-n", "1", "-workers", "2"),
		cmdtest.Refused("fib: -cutoff 0: out of range; want at least 1", "-cutoff", "0"),
		cmdtest.Refused("fib: -one does nothing in master mode, where the master moves -proportion of a queue", "-mode", "master", "-one"),
		cmdtest.Refused("fib: -proportion does nothing with -one, which steals one task at a time", "-one", "-proportion", "0.3"),
	})
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestReportTinyRun checks the figures of a run too small for
// milliseconds: its time in microseconds, and a speedup or a rate that no
// clock could time said to be too short to measure.
func TestReportTinyRun(t *testing.T) {
	var out bytes.Buffer
	report(&out, "2 workers", result{value: 5, elapsed: 11_234 * time.Nanosecond, stats: sched.Stats{
		WorkerStats: sched.WorkerStats{Processed: 8, Steals: 1, Moved: 1},
		PerWorker:   []sched.WorkerStats{{Processed: 3, MaxLen: 2}, {Processed: 5, Steals: 1, Moved: 1, MaxLen: 2}},
	}})
	report(&out, "1 worker", result{value: 1, stats: sched.Stats{WorkerStats: sched.WorkerStats{Processed: 1}, PerWorker: []sched.WorkerStats{{Processed: 1, MaxLen: 1}}}})
	assert.Equal(t, ""+
		"2 workers: fib = 5, 8 tasks in 11.2µs (712,124 tasks/s), 1 steal moved 1 task\n"+
		"  worker           ran    steals     moved  max queue\n"+
		"       0             3         0         0          2\n"+
		"       1             5         1         1          2\n"+
		"1 worker: fib = 1, 1 task in 0s (too short to measure), 0 steals moved 0 tasks\n"+
		"  worker           ran    steals     moved  max queue\n"+
		"       0             1         0         0          1\n",
		out.String())
	assert.Equal(t, "3.00x", speedup(33*time.Microsecond, 11*time.Microsecond))
	assert.Equal(t, "too short to measure", speedup(33*time.Microsecond, 0))
}
