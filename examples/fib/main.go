package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

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
}

// errReported stands for a flag error that the flag package has already
// printed, with the usage.
var errReported = errors.New("invalid flags")

// parseFlags parses the command line into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("fib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var mode string
	fs.IntVar(&c.n, "n", 27, fmt.Sprintf("compute fib(n), 0 <= n <= %d", maxN))
	fs.StringVar(&c.queue, "queue", "lf", "queue implementation: one of "+fmt.Sprint(catalog.Names()))
	fs.StringVar(&mode, "mode", "random", "load balancing: random or master")
	fs.IntVar(&c.workers, "workers", 0, "number of workers P (0 means GOMAXPROCS)")
	fs.BoolVar(&c.one, "one", true, "random mode: a thief takes the single oldest task, as in Cilk")
	fs.Float64Var(&c.proportion, "proportion", sched.DefaultProportion, "part of a victim's queue one steal takes (master mode, or random with -one=false)")
	fs.IntVar(&c.cutoff, "cutoff", 1, "calls fib(k) with k <= cutoff run serially in one task")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, errReported // the flag package printed it, with the usage
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if c.mode, err = sched.ParseMode(mode); err != nil {
		return c, err
	}
	if _, err := catalog.New[task](c.queue); err != nil {
		return c, err
	}
	switch {
	case c.n < 0 || c.n > maxN:
		return c, fmt.Errorf("-n %d is outside [0, %d]", c.n, maxN)
	case c.workers < 0:
		return c, fmt.Errorf("-workers %d is negative", c.workers)
	case !wsq.ValidProportion(c.proportion):
		return c, fmt.Errorf("-proportion %v is outside (0, 1]", c.proportion)
	case c.cutoff < 1:
		return c, fmt.Errorf("-cutoff %d is below 1", c.cutoff)
	}
	c.cutoff = min(c.cutoff, maxN) // any cutoff >= n runs serially
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errReported) {
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "fib:", err)
		return 2
	}

	want := fibIter(c.n)
	calls, sums := taskCount(c.n, c.cutoff)
	how := "steal one task"
	if c.mode == sched.Master || !c.one {
		how = fmt.Sprintf("steal %g of a queue", c.proportion)
	}
	fmt.Fprintf(stdout, "fib(%d) by fork-join: queue %s, %s mode, %s, cutoff %d, %d calls + %d sum tasks\n",
		c.n, c.queue, c.mode, how, c.cutoff, calls, sums)

	serial, err := compute(context.Background(), c, 1)
	if err != nil {
		fmt.Fprintln(stderr, "fib:", err)
		return 1
	}
	report(stdout, "1 worker", serial)
	res := serial
	if c.workers > 1 {
		if res, err = compute(context.Background(), c, c.workers); err != nil {
			fmt.Fprintln(stderr, "fib:", err)
			return 1
		}
		report(stdout, fmt.Sprintf("%d workers", c.workers), res)
		fmt.Fprintf(stdout, "speedup over 1 worker: %.2fx\n", serial.stats.Elapsed.Seconds()/res.stats.Elapsed.Seconds())
	}

	s1, sp, p := maxLen(serial.stats), sumMaxLen(res.stats), c.workers
	fmt.Fprintf(stdout, "space: S_1 = %d (longest queue, 1 worker), S_P = %d (sum of each worker's longest queue, P = %d), bound S_1·P = %d\n",
		s1, sp, p, s1*p)

	failed := false
	fail := func(format string, a ...any) {
		fmt.Fprintf(stdout, "FAILED: "+format+"\n", a...)
		failed = true
	}
	for _, r := range []result{serial, res} {
		if r.value != want {
			fail("fib(%d) = %d with %d workers, want %d", c.n, r.value, r.stats.Workers, want)
		}
		if uint64(r.stats.Processed) != calls+sums {
			fail("%d workers handled %d tasks, want %d", r.stats.Workers, r.stats.Processed, calls+sums)
		}
	}
	if sp > s1*p {
		fail("S_P = %d exceeds S_1·P = %d", sp, s1*p)
	}
	if failed {
		return 1
	}
	fmt.Fprintf(stdout, "verified: fib(%d) = %d equals the iterative value; every run handled its %d tasks exactly once; S_P = %d <= S_1·P = %d\n",
		c.n, want, calls+sums, sp, s1*p)
	return 0
}

// task is one item of the computation: a call fib(n) whose result goes into
// slot of frame f, or, if sum is set, the continuation of frame f that adds
// its two slots.
type task struct {
	f    *frame
	n    int32
	slot int8
	sum  bool
}

// frame joins the two calls a call fib(k) forks. The two children write
// different slots; the counter tells the last one to arrive.
type frame struct {
	parent  *frame // where this frame's total goes; nil for the root holder
	slot    int8   // which slot of parent
	pending atomic.Int32
	res     [2]uint64
}

// deliver stores v in slot of f and, if that was the last missing result,
// spawns f's sum task. The root holder (parent nil) just keeps the answer.
func deliver(w *sched.Worker[task], f *frame, slot int8, v uint64) {
	f.res[slot] = v
	// The decrement orders this write before the last child's decrement,
	// and so before the sum task reads the slot.
	if f.pending.Add(-1) == 0 && f.parent != nil {
		w.Spawn(task{f: f, sum: true})
	}
}

// result is the outcome of one run.
type result struct {
	value uint64
	stats sched.Stats
}

// compute runs fib(c.n) with the given number of workers.
func compute(ctx context.Context, c config, workers int) (result, error) {
	root := &frame{} // the root holder: one slot, filled by the root call
	root.pending.Store(1)
	cutoff := int32(c.cutoff)
	handle := func(_ context.Context, t task, w *sched.Worker[task]) error {
		switch {
		case t.sum:
			deliver(w, t.f.parent, t.f.slot, t.f.res[0]+t.f.res[1])
		case t.n <= cutoff:
			deliver(w, t.f, t.slot, fibRec(t.n))
		default:
			fr := &frame{parent: t.f, slot: t.slot}
			fr.pending.Store(2)
			// fib(n-1) is the newest item: this worker runs it next, and
			// fib(n-2) waits at the old end for this worker or a thief.
			w.Spawn(task{f: fr, n: t.n - 2, slot: 1}, task{f: fr, n: t.n - 1, slot: 0})
		}
		return nil
	}
	cfg := sched.Config[task]{
		NewQueue:   func() wsq.Queue[task] { q, _ := catalog.New[task](c.queue); return q },
		Workers:    workers,
		Mode:       c.mode,
		Proportion: c.proportion,
		StealOne:   c.one,
	}
	st, err := sched.Run(ctx, cfg, []task{{f: root, n: int32(c.n)}}, handle)
	if err != nil {
		return result{}, err
	}
	return result{value: root.res[0], stats: st}, nil
}

// report prints the statistics of one run.
func report(out io.Writer, title string, r result) {
	st := r.stats
	rate := float64(st.Processed) / st.Elapsed.Seconds() / 1e6
	fmt.Fprintf(out, "%s: fib = %d, %d tasks in %v (%.2f M tasks/s), %d steals moved %d tasks\n",
		title, r.value, st.Processed, st.Elapsed.Round(time.Microsecond), rate, st.Steals, st.Moved)
	fmt.Fprintf(out, "  %6s %10s %7s %7s %10s\n", "worker", "handled", "steals", "moved", "max queue")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(out, "  %6d %10d %7d %7d %10d\n", i, ws.Processed, ws.Steals, ws.Moved, ws.MaxLen)
	}
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

// fibRec is the serial recursion a task runs below the cutoff.
func fibRec(n int32) uint64 {
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

// taskCount returns how many call tasks and sum tasks fib(n) creates: a call
// fib(k) with k <= cutoff is a leaf; any other call forks two calls and gets
// one sum task.
func taskCount(n, cutoff int) (calls, sums uint64) {
	c := make([]uint64, n+1) // c[k]: calls of fib(k)
	s := make([]uint64, n+1) // s[k]: sum tasks of fib(k)
	for k := 0; k <= n; k++ {
		if k <= cutoff {
			c[k] = 1
			continue
		}
		c[k] = 1 + c[k-1] + c[k-2]
		s[k] = 1 + s[k-1] + s[k-2]
	}
	return c[n], s[n]
}
