package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/dag"
	"github.com/worksteal/wsq/sched"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is what the flags select.
type config struct {
	graph      dag.Graph
	queue      string
	mode       sched.Mode
	workers    int
	proportion float64
	one        bool
	speedup    bool
	progress   time.Duration
}

// errReported stands for a flag error that the flag package has already
// printed, with the usage.
var errReported = errors.New("invalid flags")

// parseFlags parses the command line into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("dagexplore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var mode, work string
	var cost int
	fs.Int64Var(&c.graph.Nodes, "nodes", 1_000_000, "number of nodes of the graph")
	fs.StringVar(&c.queue, "queue", "lf", "queue implementation: one of "+fmt.Sprint(catalog.Names()))
	fs.StringVar(&mode, "mode", "master", "load balancing: master or random")
	fs.IntVar(&c.workers, "workers", 0, "number of workers (0 means GOMAXPROCS)")
	fs.Float64Var(&c.proportion, "proportion", sched.DefaultProportion, "part of a victim's queue one steal takes")
	fs.BoolVar(&c.one, "one", false, "random mode: steal one item at a time")
	fs.StringVar(&work, "work", "uniform", "per-node cost distribution: uniform or irregular")
	fs.IntVar(&cost, "cost", dag.DefaultCost, "mean busy-work iterations per node (0 for none)")
	fs.IntVar(&c.graph.Fanout, "fanout", dag.DefaultFanout, "mean number of children of an inner node")
	fs.Uint64Var(&c.graph.Seed, "seed", 1, "seed of the graph's shape and costs")
	fs.BoolVar(&c.speedup, "speedup", false, "also explore with one worker first and report the speedup")
	fs.DurationVar(&c.progress, "progress", 500*time.Millisecond, "interval of the progress line on stderr (0: off)")
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
	if c.graph.Work, err = dag.ParseWork(work); err != nil {
		return c, err
	}
	if _, err := catalog.New[dag.Node](c.queue); err != nil {
		return c, err
	}
	switch {
	case c.graph.Nodes < 1:
		return c, fmt.Errorf("-nodes %d: a graph has at least 1 node", c.graph.Nodes)
	case c.workers < 0:
		return c, fmt.Errorf("-workers %d is negative", c.workers)
	case !wsq.ValidProportion(c.proportion):
		return c, fmt.Errorf("-proportion %v is outside (0, 1]", c.proportion)
	case cost < 0:
		return c, fmt.Errorf("-cost %d is negative", cost)
	case c.graph.Fanout < 1 || c.graph.Fanout > 1<<20:
		return c, fmt.Errorf("-fanout %d is outside [1, %d]", c.graph.Fanout, 1<<20)
	case c.progress < 0:
		return c, fmt.Errorf("-progress %v is negative", c.progress)
	}
	c.graph.Cost = cost
	if cost == 0 {
		c.graph.Cost = -1 // dag: a negative cost means no busy work
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// run is the whole program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errReported) {
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "dagexplore:", err)
		return 2
	}
	g := c.graph
	cost := "no busy work"
	if g.Cost > 0 {
		cost = fmt.Sprintf("mean %d iterations ≈ %v per node", g.Cost, time.Duration(float64(g.Cost)*dag.Calibrate(10*time.Millisecond)).Round(time.Nanosecond))
	}
	fmt.Fprintf(stdout, "graph: %s nodes, seed %d, fanout %d, %s work, %s\n", group(g.Nodes), g.Seed, g.Fanout, g.Work, cost)
	how := fmt.Sprintf("proportion %g", c.proportion)
	if c.mode == sched.Random && c.one {
		how = "steal one"
	}
	fmt.Fprintf(stdout, "scheduler: queue %s, %s mode, %s, %d workers\n", c.queue, c.mode, how, c.workers)

	var base *result
	if c.speedup {
		r, err := explore(ctx, c, 1, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "dagexplore:", err)
			return 1
		}
		fmt.Fprintf(stdout, "1 worker: %s nodes in %v, %.3f M nodes/s\n",
			group(r.nodes), r.stats.Elapsed.Round(time.Millisecond), r.rate()/1e6)
		base = &r
	}
	r, err := explore(ctx, c, c.workers, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "dagexplore:", err)
		return 1
	}
	summary(stdout, r, base)
	if base != nil && base.checksum != r.checksum {
		fmt.Fprintf(stdout, "FAILED: busy-work checksum %#x with %d workers, %#x with 1\n", r.checksum, c.workers, base.checksum)
		return 1
	}
	fmt.Fprintf(stdout, "verified: all %s nodes handled exactly once (count, id sum and squared-id sum match", group(g.Nodes))
	if base != nil {
		fmt.Fprint(stdout, "; both runs agree")
	}
	fmt.Fprintln(stdout, ")")
	return 0
}

// result is the outcome of one verified exploration.
type result struct {
	nodes    int64
	checksum uint64 // of the busy work; depends on the graph only
	stats    sched.Stats
}

func (r result) rate() float64 { return float64(r.nodes) / r.stats.Elapsed.Seconds() }

// explore explores the graph with the given number of workers through
// dag.Explore, which checks that every node was handled exactly once, and
// shows progress while it runs.
func explore(ctx context.Context, c config, workers int, stderr io.Writer) (result, error) {
	g := c.graph
	cfg := sched.Config[dag.Node]{
		NewQueue:   func() wsq.Queue[dag.Node] { q, _ := catalog.New[dag.Node](c.queue); return q },
		Workers:    workers,
		Mode:       c.mode,
		Proportion: c.proportion,
		StealOne:   c.one,
	}
	var done atomic.Int64
	stopProgress := startProgress(stderr, c.progress, g.Nodes, done.Load)
	res, err := dag.Explore(ctx, g, cfg, dag.Options{Done: &done})
	stopProgress()
	r := result{nodes: res.Nodes, checksum: res.Checksum, stats: res.Stats}
	if err != nil {
		if ctx.Err() != nil {
			return r, fmt.Errorf("interrupted after %s of %s nodes", group(res.Stats.Processed), group(g.Nodes))
		}
		return r, fmt.Errorf("FAILED exactly-once check with %d workers: %w", workers, err)
	}
	return r, nil
}

// summary prints the figures of a run, and the speedup over base if given.
func summary(out io.Writer, r result, base *result) {
	st := r.stats
	fmt.Fprintf(out, "explored %s nodes in %v: %.3f M nodes/s with %d workers\n",
		group(r.nodes), st.Elapsed.Round(time.Millisecond), r.rate()/1e6, st.Workers)
	if base != nil {
		s := base.stats.Elapsed.Seconds() / st.Elapsed.Seconds()
		fmt.Fprintf(out, "speedup over 1 worker: %.2fx (efficiency %.0f%%)\n", s, 100*s/float64(st.Workers))
	}
	fmt.Fprintf(out, "steals: %d (%.0f/s), items moved %d (%.1f per steal), failed steals %d",
		st.Steals, st.StealsPerSecond(), st.Moved, perSteal(st), st.FailedSteals)
	if st.Parcels > 0 {
		fmt.Fprintf(out, ", %d handed over as parcels", st.Parcels)
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "idle: %d times, %v in all", st.Idles, st.IdleWait.Round(time.Millisecond))
	if st.Mode == sched.Master {
		fmt.Fprintf(out, "; master busy %v (capacity %.0f hand-offs/s), workers waited %v for it",
			st.MasterBusy.Round(time.Microsecond), st.MasterCapacity(), st.MasterWait.Round(time.Microsecond))
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "  %6s %13s %8s %10s %10s %10s\n", "worker", "handled", "steals", "moved", "max queue", "idle")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(out, "  %6d %13s %8d %10d %10d %10v\n",
			i, group(ws.Processed), ws.Steals, ws.Moved, ws.MaxLen, ws.IdleWait.Round(time.Millisecond))
	}
}

func perSteal(st sched.Stats) float64 {
	if st.Steals == 0 {
		return 0
	}
	return float64(st.Moved) / float64(st.Steals)
}

// startProgress prints a progress line to w every interval until the
// returned function is called; done reports the nodes done so far. On a
// terminal the line is rewritten in place and erased at the end; elsewhere
// each update is a line of its own. An interval of 0 prints nothing.
func startProgress(w io.Writer, interval time.Duration, total int64, done func() int64) (stop func()) {
	if interval <= 0 {
		return func() {}
	}
	tty := isTerminal(w)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		printed := false
		for {
			select {
			case <-quit:
				if printed && tty {
					fmt.Fprint(w, "\r\033[K") // erase the line
				}
				return
			case now := <-tick.C:
				line := progressLine(done(), total, now.Sub(start))
				if tty {
					fmt.Fprint(w, "\r\033[K"+line)
				} else {
					fmt.Fprintln(w, line)
				}
				printed = true
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}

// progressLine formats the progress of a run: nodes done, rate and the time
// left at that rate.
func progressLine(done, total int64, elapsed time.Duration) string {
	var b strings.Builder
	pct := 100 * float64(done) / float64(total)
	fmt.Fprintf(&b, "dagexplore: %s / %s nodes (%.1f%%)", group(done), group(total), pct)
	if s := elapsed.Seconds(); s > 0 && done > 0 {
		rate := float64(done) / s
		eta := time.Duration(float64(total-done) / rate * float64(time.Second))
		fmt.Fprintf(&b, ", %.3f M nodes/s, ETA %v", rate/1e6, eta.Round(100*time.Millisecond))
	}
	return b.String()
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// group formats n with commas between groups of three digits.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}
