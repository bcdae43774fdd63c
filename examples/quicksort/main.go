package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "quicksort sorts integers by parallel quicksort on fork-join tasks and checks the result against slices.Sort."

// maxN bounds -n: 100 million integers take 800 MB, twice (the input and
// its copy for the check).
const maxN = 100_000_000

// inputs are the kinds of input -input selects.
var inputs = []input{"random", "few", "sorted", "reversed"}

// input is a kind of input.
type input string

func (i input) String() string { return string(i) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags select.
type config struct {
	n        int
	input    input
	seed     uint64
	cutoff   int
	queue    string
	mode     sched.Mode
	workers  int
	progress bool
}

// parseFlags defines the flags on fs, parses args and checks the flags
// together.
func parseFlags(fs *cli.FlagSet, args []string) (config, error) {
	var c config
	fs.IntRangeVar(&c.n, "n", 10_000_000, 0, maxN, "number of integers to sort")
	cli.ChoiceVar(fs, &c.input, "input", "random", inputs, "the input: random values, few distinct values, sorted or reversed")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random inputs")
	fs.IntRangeVar(&c.cutoff, "cutoff", 4096, 2, math.MaxInt, "parts of at most this many integers are sorted serially in one task")
	fs.QueueVar(&c.queue)
	cli.ChoiceVar(fs, &c.mode, "mode", sched.Random, cli.Modes, "load balancing: the paper's master-worker balancing, or randomized stealing")
	fs.WorkersVar(&c.workers)
	fs.ProgressVar(&c.progress)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.input == "sorted" || c.input == "reversed" {
		if err := fs.Unused("with -input "+string(c.input)+", which is not random", "seed"); err != nil {
			return c, err
		}
	}
	var err error
	// The number of tasks depends on the pivots; any worker count is allowed.
	c.workers, err = cli.Workers(c.workers, cli.MaxWorkers, "worker", "allowed")
	return c, err
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.New("quicksort", synopsis, stdout, stderr)
	c, err := parseFlags(fs, args)
	if err != nil {
		return fs.Exit(err)
	}
	xs := generate(c.input, c.n, c.seed)
	fmt.Fprintf(stdout, "quicksort: %s (%s), cutoff %s, queue %s, %s mode, %s\n",
		cli.Count(c.n, "integer"), c.input, cli.Group(c.cutoff), c.queue, c.mode, cli.Count(c.workers, "worker"))

	want := slices.Clone(xs)
	start := time.Now()
	slices.Sort(want)
	serial := time.Since(start)
	fmt.Fprintf(stdout, "slices.Sort: %s\n", cli.Duration(serial))

	res, err := sortParallel(context.Background(), c, xs, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "quicksort:", err)
		return 1
	}
	fmt.Fprintln(stdout, parallelLine(serial, res))

	if i := firstDifference(xs, want); i >= 0 {
		fmt.Fprintf(stdout, "FAILED: element %s is %d, slices.Sort has %d\n", cli.Group(i), xs[i], want[i])
		return 1
	}
	fmt.Fprintf(stdout, "verified: the parallel result equals slices.Sort's, all %s\n", cli.Count(c.n, "integer"))
	return 0
}

// parallelLine describes the parallel sort res beside slices.Sort's time
// serial: the times with three significant digits, so that a tiny sort
// shows its microseconds, and the parallel sort's time over slices.Sort's
// (below 1: faster), as BENCHMARKS.md writes its ratios, unless a time was
// too short to measure.
func parallelLine(serial time.Duration, res result) string {
	ratio := "slices.Sort too short to compare"
	if serial > 0 && res.elapsed > 0 {
		ratio = fmt.Sprintf("%.2fx the time of slices.Sort", res.elapsed.Seconds()/serial.Seconds())
	}
	return fmt.Sprintf("parallel quicksort: %s (%s), %s, %s moved %s",
		cli.Duration(res.elapsed), ratio, cli.Count(res.stats.Processed, "task"), cli.Count(res.stats.Steals, "steal"), cli.Count(res.stats.Moved, "task"))
}

// result is the outcome of a parallel sort.
type result struct {
	elapsed time.Duration
	stats   sched.Stats
}

// sortParallel sorts xs on a new pool as c says, and shows progress on
// stderr while it runs (see cli.StartProgress).
func sortParallel(ctx context.Context, c config, xs []int64, stderr io.Writer) (result, error) {
	newQueue, err := catalog.Factory[sched.Job](c.queue)
	if err != nil {
		return result{}, err
	}
	pool, err := sched.NewPool(sched.Config[sched.Job]{NewQueue: newQueue, Workers: c.workers, Mode: c.mode})
	if err != nil {
		return result{}, err
	}
	var done atomic.Int64 // integers in finished parts
	stopProgress := cli.StartProgress(stderr, c.progress, int64(len(xs)), func(elapsed time.Duration) (int64, string) {
		n := done.Load()
		return n, "quicksort: " + cli.ProgressText(n, "integer", elapsed)
	})
	sort := newSorter(c.cutoff, &done)
	start := time.Now()
	err = pool.Do(ctx, func(t *sched.Task) error {
		sort(t, xs)
		return nil
	})
	r := result{elapsed: time.Since(start), stats: pool.Close()}
	stopProgress()
	return r, err
}

// newSorter returns the parallel quicksort with the given cutoff, which
// adds the length of every part it sorts serially to done.
func newSorter(cutoff int, done *atomic.Int64) func(t *sched.Task, xs []int64) struct{} {
	// sort is set once, so that every Join gets the same function value,
	// and allocates nothing: the pool reuses its task records.
	var sort func(t *sched.Task, xs []int64) struct{}
	sort = func(t *sched.Task, xs []int64) struct{} {
		if len(xs) <= cutoff {
			slices.Sort(xs)
			done.Add(int64(len(xs)))
			return struct{}{}
		}
		p := partition(xs)
		sched.Join(t, sort, xs[p:], sort, xs[:p]) // the left half may run on another worker
		return struct{}{}
	}
	return sort
}

// partition rearranges xs, which has at least two elements, around the
// median of its first, middle and last elements, and returns p with
// 0 < p < len(xs) such that every element of xs[:p] is at most every
// element of xs[p:]. It is Hoare's scheme with the pivot in the middle,
// which leaves both parts non-empty.
func partition(xs []int64) int {
	lo, hi := 0, len(xs)-1
	mid := (lo + hi) / 2 // the lower middle, never the last element, as Hoare's scheme needs
	// Put the median of the three in the middle.
	if xs[mid] < xs[lo] {
		xs[mid], xs[lo] = xs[lo], xs[mid]
	}
	if xs[hi] < xs[mid] {
		xs[hi], xs[mid] = xs[mid], xs[hi]
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
	}
	pivot := xs[mid]
	i, j := lo-1, hi+1
	for {
		for i++; xs[i] < pivot; i++ {
		}
		for j--; xs[j] > pivot; j-- {
		}
		if i >= j {
			return j + 1
		}
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// generate returns n integers of the given kind of input.
func generate(kind input, n int, seed uint64) []int64 {
	xs := make([]int64, n)
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range xs {
		switch kind {
		case "random":
			xs[i] = int64(r.Uint64())
		case "few":
			xs[i] = int64(r.IntN(10))
		case "sorted":
			xs[i] = int64(i)
		case "reversed":
			xs[i] = int64(n - i)
		}
	}
	return xs
}

// firstDifference returns the first index at which xs and ys differ, or -1.
func firstDifference(xs, ys []int64) int {
	for i := range xs {
		if xs[i] != ys[i] {
			return i
		}
	}
	return -1
}
