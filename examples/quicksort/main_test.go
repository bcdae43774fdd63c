package main

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPartition checks partition's contract on inputs of every kind and
// small lengths: both parts non-empty, the left at most the right, and the
// elements unchanged as a multiset.
func TestPartition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 40; n++ {
		for _, kind := range inputs {
			for round := range 20 {
				xs := generate(kind, n, uint64(round))
				if kind == "random" {
					for i := range xs {
						xs[i] = int64(r.IntN(n)) // duplicates too
					}
				}
				before := slices.Clone(xs)
				p := partition(xs)
				require.True(t, 0 < p && p < n, "%s n=%d: p=%d", kind, n, p)
				assert.LessOrEqual(t, slices.Max(xs[:p]), slices.Min(xs[p:]), "%s n=%d", kind, n)
				slices.Sort(before)
				assert.Equal(t, before, slices.Sorted(slices.Values(xs)), "%s n=%d: the same elements", kind, n)
			}
		}
	}
}

// TestSortParallel sorts every kind of input with every queue, both modes
// and one or several workers, and counts the integers of the serially
// sorted parts.
func TestSortParallel(t *testing.T) {
	n := testenv.Size(10_000, 10_000, 50_000)
	for _, kind := range inputs {
		for _, q := range catalog.Names() {
			for _, mode := range cli.Modes {
				for _, workers := range []int{1, 3} {
					xs := generate(kind, n, 7)
					want := slices.Clone(xs)
					slices.Sort(want)
					c := config{cutoff: 512, queue: q, mode: mode, workers: workers}
					res, err := sortParallel(context.Background(), c, xs, nil)
					require.NoError(t, err)
					require.Equal(t, -1, firstDifference(xs, want), "%s %s %s %d workers", kind, q, mode, workers)
					assert.Greater(t, res.stats.Processed, int64(n/512), "%s %s %s %d workers: tasks", kind, q, mode, workers)
				}
			}
		}
	}
}

// TestSorterCounts checks the progress count and the edge cases: empty,
// one element, a part exactly at the cutoff.
func TestSorterCounts(t *testing.T) {
	p, err := sched.NewPool(sched.Config[sched.Job]{Workers: 2})
	require.NoError(t, err)
	defer p.Close()
	for _, n := range []int{0, 1, 2, 16, 17, 1000} {
		xs := generate("reversed", n, 0)
		var done atomic.Int64
		sort := newSorter(16, &done)
		require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
			sort(t, xs)
			return nil
		}))
		assert.True(t, slices.IsSorted(xs), "n=%d", n)
		assert.Equal(t, int64(n), done.Load(), "n=%d: every integer is in one serially sorted part", n)
	}
}

// TestCommand builds the command and runs it as a user would: with each
// kind of input and option, and with each kind of bad flag (those of the
// flags all programs share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	cmdtest.Command(t, "quicksort", synopsis, []cmdtest.Case{
		cmdtest.Verified("verified: the parallel result equals slices.Sort's, all 100,000 integers", "-n", "100000"),
		cmdtest.Verified("verified: the parallel result equals slices.Sort's, all 50,000 integers", "-n", "50,000", "-input", "few", "-queue", "cl-ub", "-mode", "master", "-workers", "3"),
		cmdtest.Verified("quicksort: 30,000 integers (sorted), cutoff 100", "-n", "30000", "-input", "sorted", "-cutoff", "100", "-workers", "2"),
		cmdtest.Verified("(reversed)", "-n", "30000", "-input", "reversed", "-queue", "mutex", "-progress=false"),
		cmdtest.Verified("verified: the parallel result equals slices.Sort's, all 0 integers", "-n", "0"),
		cmdtest.Verified("all 1 integer", "-n", "1", "-seed", "9"),
		cmdtest.Refused("quicksort: -n 100000001: out of range; want 0 to 100,000,000", "-n", "100000001"),
		cmdtest.Refused("quicksort: -n -1: out of range", "-n", "-1"),
		cmdtest.Refused("quicksort: -input zigzag: unknown value; want random, few, sorted or reversed", "-input", "zigzag"),
		cmdtest.Refused("quicksort: -cutoff 1: out of range; want at least 2", "-cutoff", "1"),
		cmdtest.Refused("quicksort: -seed does nothing with -input sorted, which is not random", "-input", "sorted", "-seed", "3"),
	})
}

// TestParallelLineTinySort checks the summary of sorts too small for
// milliseconds: the times in microseconds, and no ratio where a time was
// too short to measure.
func TestParallelLineTinySort(t *testing.T) {
	res := result{elapsed: 57_345 * time.Nanosecond, stats: sched.Stats{WorkerStats: sched.WorkerStats{Processed: 1}}}
	assert.Equal(t, "parallel quicksort: 57.3µs (46.47x the time of slices.Sort), 1 task, 0 steals moved 0 tasks", parallelLine(1_234*time.Nanosecond, res))
	res = result{elapsed: 2_500 * time.Microsecond, stats: sched.Stats{WorkerStats: sched.WorkerStats{Processed: 9, Steals: 2, Moved: 3}}}
	assert.Equal(t, "parallel quicksort: 2.5ms (0.50x the time of slices.Sort), 9 tasks, 2 steals moved 3 tasks", parallelLine(5*time.Millisecond, res))
	assert.Equal(t, "parallel quicksort: 2.5ms (slices.Sort too short to compare), 9 tasks, 2 steals moved 3 tasks", parallelLine(0, res))
}
