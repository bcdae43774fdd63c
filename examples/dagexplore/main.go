package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/internal/schedstats"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "dagexplore explores a seeded random DAG with work-stealing workers, the workload of the paper, and checks that every node is handled exactly once."

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
	progress   bool
}

// parseFlags defines the flags on fs, parses args and checks the flags
// together.
func parseFlags(fs *cli.FlagSet, args []string) (config, error) {
	var c config
	var cost int
	fs.Int64RangeVar(&c.graph.Nodes, "nodes", 1_000_000, 1, math.MaxInt64, "number of nodes of the graph")
	fs.QueueVar(&c.queue)
	cli.ChoiceVar(fs, &c.mode, "mode", sched.Master, cli.Modes, "load balancing: the paper's master-worker balancing, or randomized stealing")
	fs.WorkersVar(&c.workers)
	fs.ProportionVar(&c.proportion, cli.Proportion, "part of a victim's queue one steal takes")
	fs.BoolVar(&c.one, "one", false, "random mode: steal one item at a time instead of -proportion of the queue")
	cli.ChoiceVar(fs, &c.graph.Work, "work", dag.Uniform, dag.Works, "per-node cost distribution: uniform, or heavy-tailed with the same mean")
	fs.IntRangeVar(&cost, "cost", dag.DefaultCost, 0, math.MaxInt, "mean busy-work iterations per node, 0 for none (400 take about a microsecond)")
	fs.IntRangeVar(&c.graph.Fanout, "fanout", dag.DefaultFanout, 1, 1<<20, "mean number of children of an inner node")
	fs.Uint64Var(&c.graph.Seed, "seed", 1, "seed of the graph's shape and costs")
	fs.BoolVar(&c.speedup, "speedup", false, "explore with 1 worker first, and report the speedup over it")
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
		if err := fs.Unused("with -one, which steals one item at a time", "proportion"); err != nil {
			return c, err
		}
	}
	var err error
	if c.workers, err = cli.Workers(c.workers, c.graph.Nodes, "node", "of the graph"); err != nil {
		return c, err
	}
	if c.speedup && c.workers < 2 {
		why := ""
		switch {
		case fs.Given("workers"):
		case c.graph.Nodes == 1:
			why = " (the graph has 1 node)"
		default:
			why = fmt.Sprintf(" (-workers 0 means GOMAXPROCS, which is %d)", runtime.GOMAXPROCS(0))
		}
		return c, fmt.Errorf("-speedup compares with a run of 1 worker and needs at least 2 workers; this run would have 1%s", why)
	}
	c.graph.Cost = cost
	return c, nil
}

// run is the whole program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := cli.New("dagexplore", synopsis, stdout, stderr)
	c, err := parseFlags(fs, args)
	if err != nil {
		return fs.Exit(err)
	}
	g := c.graph
	cost := "no busy work"
	if g.Cost > 0 {
		cost = fmt.Sprintf("mean %s iterations ≈ %v per node", cli.Group(g.Cost), time.Duration(float64(g.Cost)*dag.Calibrate(10*time.Millisecond)).Round(time.Nanosecond))
	}
	fmt.Fprintf(stdout, "graph: %s, seed %d, fanout %s, %s work, %s\n", cli.Count(g.Nodes, "node"), g.Seed, cli.Group(g.Fanout), g.Work, cost)
	how := "proportion " + cli.ProportionString(c.proportion)
	if c.mode == sched.Random && c.one {
		how = "steal one"
	}
	entry, _ := catalog.Lookup(c.queue) // -queue checked the name
	fmt.Fprintf(stdout, "queue: %s, %s\n", entry.Name, entry.Description)
	fmt.Fprintf(stdout, "scheduler: %s mode, %s, %s\n", c.mode, how, cli.Count(c.workers, "worker"))

	var base *result
	if c.speedup {
		r, err := explore(ctx, c, 1, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "dagexplore:", err)
			return 1
		}
		fmt.Fprintf(stdout, "1 worker: %s in %s, %s\n",
			cli.Count(r.nodes, "node"), cli.Duration(r.elapsed), cli.Rate(r.nodes, r.elapsed, "nodes"))
		base = &r
	}
	r, err := explore(ctx, c, c.workers, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "dagexplore:", err)
		return 1
	}
	summary(stdout, r, base)
	if base != nil && base.checksum != r.checksum {
		fmt.Fprintf(stdout, "FAILED: busy-work checksum %#x with %s, %#x with 1\n", r.checksum, cli.Count(c.workers, "worker"), base.checksum)
		return 1
	}
	fmt.Fprintf(stdout, "verified: all %s handled exactly once (count, id sum and squared-id sum match", cli.Count(g.Nodes, "node"))
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
	workers  int
	mode     sched.Mode
	elapsed  time.Duration
	stats    sched.Stats
	detail   schedstats.Detail // the counts sched keeps for the module's tools
}

// explore explores the graph with the given number of workers through
// dag.Explore, which checks that every node was handled exactly once, and
// shows progress on stderr while it runs (see cli.StartProgress).
func explore(ctx context.Context, c config, workers int, stderr io.Writer) (result, error) {
	g := c.graph
	newQueue, err := catalog.Factory[dag.Node](c.queue)
	if err != nil {
		return result{}, err
	}
	cfg := sched.Config[dag.Node]{
		NewQueue:   newQueue,
		Workers:    workers,
		Mode:       c.mode,
		Proportion: c.proportion,
		StealOne:   c.one,
	}
	var done atomic.Int64
	title := "dagexplore"
	if c.speedup && workers == 1 {
		title = "dagexplore, 1 worker"
	}
	stopProgress := cli.StartProgress(stderr, c.progress, g.Nodes, func(elapsed time.Duration) (int64, string) {
		n := done.Load()
		return n, title + ": " + cli.ProgressText(n, "node", elapsed)
	})
	res, err := dag.Explore(ctx, g, cfg, dag.Options{Done: &done})
	stopProgress()
	r := result{
		nodes: res.Nodes, checksum: res.Checksum, workers: workers, mode: c.mode,
		elapsed: res.Elapsed, stats: res.Stats, detail: schedstats.Of(res.Stats),
	}
	if err != nil {
		if ctx.Err() != nil {
			return r, fmt.Errorf("interrupted after %s of %s nodes", cli.Group(res.Stats.Processed), cli.Group(g.Nodes))
		}
		return r, fmt.Errorf("FAILED exactly-once check with %s: %w", cli.Count(workers, "worker"), err)
	}
	return r, nil
}

// summary prints the figures of a run, and the speedup over base if given.
// Durations keep three significant digits, so that a tiny run shows its
// microseconds; a rate with nothing to count, or too short to time, says
// so.
func summary(out io.Writer, r result, base *result) {
	st, d := r.stats, r.detail
	fmt.Fprintf(out, "explored %s with %s in %s: %s\n",
		cli.Count(r.nodes, "node"), cli.Count(r.workers, "worker"), cli.Duration(r.elapsed), cli.Rate(r.nodes, r.elapsed, "nodes"))
	if base != nil {
		if r.elapsed > 0 && base.elapsed > 0 {
			s := base.elapsed.Seconds() / r.elapsed.Seconds()
			fmt.Fprintf(out, "speedup over 1 worker: %.2fx with %s (efficiency %.0f%%)\n", s, cli.Count(r.workers, "worker"), 100*s/float64(r.workers))
		} else {
			fmt.Fprintf(out, "speedup over 1 worker: too short to measure\n")
		}
	}
	fmt.Fprintf(out, "steals: %s", cli.Group(st.Steals))
	if st.Steals > 0 {
		fmt.Fprintf(out, " (%s), items moved %s (%.1f per steal)", cli.Rate(st.Steals, r.elapsed, ""), cli.Group(st.Moved), perSteal(st))
	}
	fmt.Fprintf(out, ", empty steals %s, contended steals %s", cli.Group(d.EmptySteals), cli.Group(d.ContendedSteals))
	if d.Parcels > 0 {
		fmt.Fprintf(out, ", %s handed over as parcels", cli.Group(d.Parcels))
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "idle: %s, %s in all", cli.Count(d.Idles, "time"), cli.Duration(st.IdleWait))
	if r.mode == sched.Master {
		capacity := "no hand-offs"
		if st.Steals > 0 {
			capacity = "capacity " + cli.Rate(st.Steals, d.MasterBusy, "hand-offs")
		}
		fmt.Fprintf(out, "; master busy %s (%s), workers waited %s for it",
			cli.Duration(d.MasterBusy), capacity, cli.Duration(d.MasterWait))
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "  %6s %13s %9s %11s %10s %10s\n", "worker", "handled", "steals", "moved", "max queue", "idle")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(out, "  %6d %13s %9s %11s %10s %10s\n",
			i, cli.Group(ws.Processed), cli.Group(ws.Steals), cli.Group(ws.Moved), cli.Group(ws.MaxLen), cli.Duration(ws.IdleWait))
	}
}

func perSteal(st sched.Stats) float64 {
	if st.Steals == 0 {
		return 0
	}
	return float64(st.Moved) / float64(st.Steals)
}
