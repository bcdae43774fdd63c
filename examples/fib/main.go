package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "fib computes fib(n) by fork-join over work-stealing workers and checks the value, the task count and the space bound S_P <= S_1·P."

// maxN is the largest n accepted: fib(90) and the task count of fib(90)
// (about 9.1e18) fit in a uint64.
const maxN = 90

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags select.
type config struct {
	n          int
	queue      string
	mode       sched.Mode
	workers    int
	one        bool
	proportion float64
	cutoff     int
	progress   bool
}

// parseFlags defines the flags on fs, parses args and checks the flags
// together.
func parseFlags(fs *cli.FlagSet, args []string) (config, error) {
	var c config
	fs.IntRangeVar(&c.n, "n", 27, 0, maxN, "compute fib(n)")
	fs.QueueVar(&c.queue)
	cli.ChoiceVar(fs, &c.mode, "mode", sched.Random, cli.Modes, "load balancing: the paper's master-worker balancing, or randomized stealing")
	fs.WorkersVar(&c.workers)
	fs.BoolVar(&c.one, "one", false, "random mode: a thief takes the single oldest task, as in Cilk, instead of -proportion of the queue")
	fs.ProportionVar(&c.proportion, cli.Proportion, "part of a victim's queue one steal takes")
	fs.IntRangeVar(&c.cutoff, "cutoff", 1, 1, math.MaxInt, "calls fib(k) with k <= cutoff run serially in one task")
	fs.ProgressVar(&c.progress)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.mode == sched.Master {
		if err := fs.Unused("in master mode, where the master moves -proportion of a queue", "one"); err != nil {
			return c, err
		}
	}
	if c.one {
		if err := fs.Unused("with -one, which steals one task at a time", "proportion"); err != nil {
			return c, err
		}
	}
	c.cutoff = min(c.cutoff, maxN) // any cutoff >= n runs serially
	var err error
	c.workers, err = cli.Workers(c.workers, int64(min(taskCount(c.n, c.cutoff), math.MaxInt64)), "task", fmt.Sprintf("of fib(%d)", c.n))
	return c, err
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.New("fib", synopsis, stdout, stderr)
	c, err := parseFlags(fs, args)
	if err != nil {
		return fs.Exit(err)
	}

	want := fibIter(c.n)
	tasks := taskCount(c.n, c.cutoff)
	how := "steal one task"
	switch {
	case c.mode == sched.Random && c.one:
	case c.proportion == 0:
		how = "each steal chooses its amount"
	default:
		how = fmt.Sprintf("steal %g of a queue", c.proportion)
	}
	fmt.Fprintf(stdout, "fib(%d) by fork-join: queue %s, %s mode, %s, cutoff %d, %s\n",
		c.n, c.queue, c.mode, how, c.cutoff, cli.Count(tasks, "task"))

	serial, err := compute(context.Background(), c, 1, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "fib:", err)
		return 1
	}
	report(stdout, "1 worker", serial)
	res := serial
	if c.workers > 1 {
		if res, err = compute(context.Background(), c, c.workers, stderr); err != nil {
			fmt.Fprintln(stderr, "fib:", err)
			return 1
		}
		report(stdout, cli.Count(c.workers, "worker"), res)
		fmt.Fprintf(stdout, "speedup over 1 worker: %s\n", speedup(serial.elapsed, res.elapsed))
	}

	s1, sp, p := maxLen(serial.stats), sumMaxLen(res.stats), c.workers
	fmt.Fprintf(stdout, "space: S_1 = %s (longest queue, 1 worker), S_P = %s (sum of each worker's longest queue, P = %d), bound S_1·P = %s\n",
		cli.Group(s1), cli.Group(sp), p, cli.Group(s1*p))

	failed := false
	fail := func(format string, a ...any) {
		fmt.Fprintf(stdout, "FAILED: "+format+"\n", a...)
		failed = true
	}
	for _, r := range []result{serial, res} {
		if r.value != want {
			fail("fib(%d) = %s with %s, want %s", c.n, cli.Group(r.value), cli.Count(len(r.stats.PerWorker), "worker"), cli.Group(want))
		}
		if uint64(r.stats.Processed) != tasks {
			fail("%s ran %s, want %s", cli.Count(len(r.stats.PerWorker), "worker"), cli.Count(r.stats.Processed, "task"), cli.Group(tasks))
		}
	}
	if sp > s1*p {
		fail("S_P = %s exceeds S_1·P = %s", cli.Group(sp), cli.Group(s1*p))
	}
	if failed {
		return 1
	}
	fmt.Fprintf(stdout, "verified: fib(%d) = %s equals the iterative value; every run ran its %s exactly once; S_P = %s <= S_1·P = %s\n",
		c.n, cli.Group(want), cli.Count(tasks, "task"), cli.Group(sp), cli.Group(s1*p))
	return 0
}

// result is the outcome of one run.
type result struct {
	value   uint64
	elapsed time.Duration
	stats   sched.Stats
}

// compute runs fib(c.n) on a new pool of the given number of workers, and
// shows progress on stderr while it runs (see cli.StartProgress).
func compute(ctx context.Context, c config, workers int, stderr io.Writer) (result, error) {
	newQueue, err := catalog.Factory[sched.Job](c.queue)
	if err != nil {
		return result{}, err
	}
	pool, err := sched.NewPool(sched.Config[sched.Job]{
		NewQueue:   newQueue,
		Workers:    workers,
		Mode:       c.mode,
		Proportion: c.proportion,
		StealOne:   c.one,
	})
	if err != nil {
		return result{}, err
	}
	var done atomic.Int64
	progress := cli.NewCounter(workers, &done)
	cutoff := c.cutoff

	// fib is the recursion itself: each call above the cutoff forks
	// fib(n-1) as a task, which this worker runs next unless another
	// worker steals it first, computes fib(n-2) itself, and joins. Join
	// runs tasks while it waits, so no worker sits idle while there is
	// work; the variable is set once, so that Fork gets the same function
	// value every time, and allocates nothing: the pool reuses its fork
	// records.
	var fib func(t *sched.Task, n int) uint64
	fib = func(t *sched.Task, n int) uint64 {
		if n <= cutoff {
			return fibRec(n)
		}
		progress.Add(t.WorkerID())
		x := sched.Fork(t, fib, n-1)
		y := fib(t, n-2)
		return x.Join(t) + y
	}

	tasks := taskCount(c.n, c.cutoff)
	stopProgress := cli.StartProgress(stderr, c.progress, int64(min(tasks, math.MaxInt64)), func(elapsed time.Duration) (int64, string) {
		n := done.Load()
		return n, "fib, " + cli.Count(workers, "worker") + ": " + cli.ProgressText(n, "task", elapsed)
	})
	var r result
	start := time.Now()
	err = pool.Do(ctx, func(t *sched.Task) error {
		r.value = fib(t, c.n)
		return nil
	})
	r.elapsed = time.Since(start)
	r.stats = pool.Close()
	stopProgress()
	return r, err
}

// report prints the statistics of one run: the time with three
// significant digits, so that a tiny run shows its microseconds.
func report(out io.Writer, title string, r result) {
	st := r.stats
	fmt.Fprintf(out, "%s: fib = %s, %s in %s (%s), %s moved %s\n",
		title, cli.Group(r.value), cli.Count(st.Processed, "task"), cli.Duration(r.elapsed), cli.Rate(st.Processed, r.elapsed, "tasks"), cli.Count(st.Steals, "steal"), cli.Count(st.Moved, "task"))
	fmt.Fprintf(out, "  %6s %13s %9s %9s %10s\n", "worker", "ran", "steals", "moved", "max queue")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(out, "  %6d %13s %9s %9s %10s\n", i, cli.Group(ws.Processed), cli.Group(ws.Steals), cli.Group(ws.Moved), cli.Group(ws.MaxLen))
	}
}

// speedup formats the time of one worker over the time of several, or says
// that a time was too short to measure.
func speedup(one, several time.Duration) string {
	if one <= 0 || several <= 0 {
		return "too short to measure"
	}
	return fmt.Sprintf("%.2fx", one.Seconds()/several.Seconds())
}

// maxLen returns the longest queue of any worker.
func maxLen(st sched.Stats) int {
	m := 0
	for _, ws := range st.PerWorker {
		m = max(m, ws.MaxLen)
	}
	return m
}

// sumMaxLen returns the sum over workers of each worker's longest queue.
func sumMaxLen(st sched.Stats) int {
	s := 0
	for _, ws := range st.PerWorker {
		s += ws.MaxLen
	}
	return s
}

// fibRec is the serial recursion below the cutoff.
func fibRec(n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	return fibRec(n-1) + fibRec(n-2)
}

// fibIter is the reference value.
func fibIter(n int) uint64 {
	a, b := uint64(0), uint64(1)
	for range n {
		a, b = b, a+b
	}
	return a
}

// taskCount returns how many tasks computing fib(n) runs: the root, and
// one forked task for every call fib(k) with k above the cutoff.
func taskCount(n, cutoff int) uint64 {
	f := make([]uint64, n+1)           // f[k]: forks of fib(k)
	for k := cutoff + 1; k <= n; k++ { // cutoff >= 1, so k >= 2
		f[k] = 1 + f[k-1] + f[k-2]
	}
	return 1 + f[n]
}
