package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/examples/internal/cli"
	"github.com/worksteal/wsq/sched"
)

// synopsis is the one-line description -h prints first.
const synopsis = "knapsack solves a 0/1 knapsack instance by parallel branch and bound over work-stealing workers and checks the optimum by dynamic programming."

// maxListed is the most taken items the output lists.
const maxListed = 30

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags select.
type config struct {
	file       string
	gen        genConfig
	queue      string
	mode       sched.Mode
	workers    int
	proportion float64
	check      bool
	progress   bool
}

// parseFlags defines the flags on fs, parses args and checks the flags
// together.
func parseFlags(fs *cli.FlagSet, args []string) (config, error) {
	var c config
	fs.StringVar(&c.file, "file", "", "read the instance from this file instead of generating one")
	fs.IntRangeVar(&c.gen.n, "n", 100, 0, maxItems, "number of items of a generated instance")
	cli.ChoiceVar(fs, &c.gen.kind, "type", "strong", kinds, "correlation of values and weights of a generated instance")
	fs.Uint64Var(&c.gen.seed, "seed", 1, "seed of a generated instance")
	fs.Int64RangeVar(&c.gen.rng, "range", 1000, 1, maxNumber/2, "weights of a generated instance are drawn from 1 to range")
	fs.Int64RangeVar(&c.gen.capacity, "capacity", 0, 0, math.MaxInt64, "capacity of a generated instance, 0 for half the total weight")
	fs.QueueVar(&c.queue)
	cli.ChoiceVar(fs, &c.mode, "mode", sched.Master, cli.Modes, "load balancing: the paper's master-worker balancing, or randomized stealing")
	fs.WorkersVar(&c.workers)
	fs.ProportionVar(&c.proportion, cli.Proportion, "part of a victim's queue one steal takes")
	fs.BoolVar(&c.check, "check", true, "check the optimum by dynamic programming, whose time and memory grow with items × capacity")
	fs.ProgressVar(&c.progress)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.file != "" {
		if err := fs.Unused("with -file, which reads the instance instead of generating one", "n", "type", "seed", "range", "capacity"); err != nil {
			return c, err
		}
		if err := checkFile(c.file); err != nil {
			return c, err
		}
	}
	var err error
	// The size of the search tree is not known in advance.
	c.workers, err = cli.Workers(c.workers, cli.MaxWorkers, "worker", "allowed")
	return c, err
}

// checkFile refuses a -file that does not exist or is not a file.
func checkFile(name string) error {
	fi, err := os.Stat(name)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("-file %s: %v", name, pe.Err)
	}
	if err != nil {
		return fmt.Errorf("-file %s: %v", name, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("-file %s: a directory; want an instance file", name)
	}
	return nil
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.New("knapsack", synopsis, stdout, stderr)
	c, err := parseFlags(fs, args)
	if err != nil {
		return fs.Exit(err)
	}
	var in *instance
	if c.file != "" {
		if in, err = readFile(c.file); err != nil {
			fmt.Fprintln(stderr, "knapsack:", err) // the file's fault, not the flags': no usage
			return 2
		}
		fmt.Fprintf(stdout, "instance %s: %s, capacity %s\n", c.file, cli.Count(len(in.items), "item"), cli.Group(in.capacity))
	} else {
		in = generate(c.gen)
		fmt.Fprintf(stdout, "instance: %s, %s, weights 1 to %s, seed %d, capacity %s\n",
			cli.Count(len(in.items), "item"), c.gen.kind, cli.Group(c.gen.rng), c.gen.seed, cli.Group(in.capacity))
	}
	if err := in.checkDPSize(); c.check && err != nil {
		if c.file == "" {
			return fs.Exit(err) // -n, -range or -capacity is too large
		}
		fmt.Fprintln(stderr, "knapsack:", err)
		return 2
	}

	s := newSolver(in)
	stopProgress := cli.StartProgress(stderr, c.progress, 0, func(elapsed time.Duration) (int64, string) {
		n := s.handled.Load()
		return n, fmt.Sprintf("knapsack: %s, best value %s", cli.ProgressText(n, "node", elapsed), cli.Group(s.best.Load().value))
	})
	start := time.Now()
	sol, st, err := s.solve(context.Background(), c)
	elapsed := time.Since(start)
	stopProgress()
	if err != nil {
		fmt.Fprintln(stderr, "knapsack:", err)
		return 1
	}
	fmt.Fprintf(stdout, "branch and bound (queue %s, %s mode, %s): best value %s in %s\n",
		c.queue, c.mode, cli.Count(len(st.PerWorker), "worker"), cli.Group(sol.value), cli.Duration(elapsed))
	fmt.Fprintf(stdout, "  LP bound at the root %s, greedy start %s, incumbent improved %s\n",
		cli.Group(s.rootBound), cli.Group(s.greedy), cli.Count(s.improvements(), "time"))
	fmt.Fprintf(stdout, "  %s handled (%s), %s pruned on arrival; %s moved %s\n",
		cli.Count(st.Processed, "node"), cli.Rate(st.Processed, elapsed, "nodes"), cli.Group(s.pruned()), cli.Count(st.Steals, "steal"), cli.Count(st.Moved, "node"))
	fmt.Fprintf(stdout, "  %6s %13s %9s %11s %10s\n", "worker", "handled", "steals", "moved", "max queue")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(stdout, "  %6d %13s %9s %11s %10s\n", i, cli.Group(ws.Processed), cli.Group(ws.Steals), cli.Group(ws.Moved), cli.Group(ws.MaxLen))
	}

	taken := sol.items()
	opt := sol.value // without the DP check, in.check checks only the items
	if c.check {
		start := time.Now()
		var done atomic.Int64
		stopProgress := cli.StartProgress(stderr, c.progress, int64(len(in.items)), func(elapsed time.Duration) (int64, string) {
			n := done.Load()
			return n, "knapsack, DP check: " + cli.ProgressText(n, "item", elapsed)
		})
		opt = in.dp(&done)
		stopProgress()
		fmt.Fprintf(stdout, "dynamic programming: optimum %s in %s (%s × %s capacities)\n",
			cli.Group(opt), cli.Duration(time.Since(start)), cli.Count(len(in.items), "item"), cli.Group(in.capacity+1))
	}
	if len(taken) <= maxListed {
		fmt.Fprintf(stdout, "taken items (0-based, input order): %v\n", taken)
	} else {
		fmt.Fprintf(stdout, "taken items (0-based, input order): %v and %s more\n", taken[:maxListed], cli.Group(len(taken)-maxListed))
	}
	if err := in.check(taken, sol.value, opt); err != nil {
		fmt.Fprintln(stdout, "FAILED:", err)
		return 1
	}
	if !c.check {
		fmt.Fprintf(stdout, "verified: the %s taken fit the capacity %s and are worth %s; optimality not checked (-check=false)\n",
			cli.Count(len(taken), "item"), cli.Group(in.capacity), cli.Group(sol.value))
		return 0
	}
	fmt.Fprintf(stdout, "verified: branch and bound is optimal: value %s equals the DP optimum, and its %s fit the capacity %s\n",
		cli.Group(sol.value), cli.Count(len(taken), "item"), cli.Group(in.capacity))
	return 0
}
