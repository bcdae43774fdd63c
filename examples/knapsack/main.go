package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

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
}

// errReported stands for a flag error that the flag package has already
// printed, with the usage.
var errReported = errors.New("invalid flags")

// parseFlags parses the command line into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("knapsack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var mode string
	fs.StringVar(&c.file, "file", "", "read the instance from this file instead of generating one")
	fs.IntVar(&c.gen.n, "n", 100, "number of items of a generated instance")
	fs.StringVar(&c.gen.kind, "type", "strong", "correlation of values and weights: one of "+fmt.Sprint(kinds))
	fs.Uint64Var(&c.gen.seed, "seed", 1, "seed of a generated instance")
	fs.Int64Var(&c.gen.rng, "range", 1000, "weights of a generated instance are drawn from 1..range")
	fs.Int64Var(&c.gen.capacity, "capacity", 0, "capacity of a generated instance (0 means half the total weight)")
	fs.StringVar(&c.queue, "queue", "lf", "queue implementation: one of "+fmt.Sprint(catalog.Names()))
	fs.StringVar(&mode, "mode", "master", "load balancing: master or random")
	fs.IntVar(&c.workers, "workers", 0, "number of workers (0 means GOMAXPROCS)")
	fs.Float64Var(&c.proportion, "proportion", sched.DefaultProportion, "part of a victim's queue one steal takes")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, errReported // the flag package printed it, with the usage
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.file != "" {
		var conflict []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "n", "type", "seed", "range", "capacity":
				conflict = append(conflict, "-"+f.Name)
			}
		})
		if len(conflict) > 0 {
			return c, fmt.Errorf("-file excludes %s, which describe a generated instance", strings.Join(conflict, ", "))
		}
	}
	var err error
	if c.mode, err = sched.ParseMode(mode); err != nil {
		return c, err
	}
	if _, err := catalog.New[node](c.queue); err != nil {
		return c, err
	}
	switch {
	case c.workers < 0:
		return c, fmt.Errorf("-workers %d is negative", c.workers)
	case !wsq.ValidProportion(c.proportion):
		return c, fmt.Errorf("-proportion %v is outside (0, 1]", c.proportion)
	case c.gen.n < 0 || c.gen.n > maxItems:
		return c, fmt.Errorf("-n %d is outside [0, %d]", c.gen.n, maxItems)
	case !slices.Contains(kinds, c.gen.kind):
		return c, fmt.Errorf("-type %q is not one of %s", c.gen.kind, strings.Join(kinds, ", "))
	case c.gen.rng < 1 || c.gen.rng > maxNumber/2:
		return c, fmt.Errorf("-range %d is outside [1, %d]", c.gen.rng, maxNumber/2)
	case c.gen.capacity < 0:
		return c, fmt.Errorf("-capacity %d is negative", c.gen.capacity)
	}
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
		fmt.Fprintln(stderr, "knapsack:", err)
		return 2
	}
	var in *instance
	if c.file != "" {
		in, err = readFile(c.file)
		if err == nil {
			fmt.Fprintf(stdout, "instance %s: %d items, capacity %d\n", c.file, len(in.items), in.capacity)
		}
	} else {
		in = generate(c.gen)
		fmt.Fprintf(stdout, "instance: %d items, %s, weights 1..%d, seed %d, capacity %d\n",
			len(in.items), c.gen.kind, c.gen.rng, c.gen.seed, in.capacity)
	}
	if err == nil {
		err = in.checkDPSize()
	}
	if err != nil {
		fmt.Fprintln(stderr, "knapsack:", err)
		return 2
	}

	s := newSolver(in)
	sol, st, err := s.solve(context.Background(), c)
	if err != nil {
		fmt.Fprintln(stderr, "knapsack:", err)
		return 1
	}
	fmt.Fprintf(stdout, "branch and bound (queue %s, %s mode, %d workers): best value %d in %v\n",
		c.queue, c.mode, st.Workers, sol.value, st.Elapsed.Round(time.Microsecond))
	fmt.Fprintf(stdout, "  LP bound at the root %d, greedy start %d, incumbent improved %d times\n",
		s.rootBound, s.greedy, s.improvements())
	fmt.Fprintf(stdout, "  %d nodes handled (%.2f M nodes/s), %d pruned on arrival; %d steals moved %d nodes\n",
		st.Processed, float64(st.Processed)/st.Elapsed.Seconds()/1e6, s.pruned(), st.Steals, st.Moved)
	fmt.Fprintf(stdout, "  %6s %10s %7s %8s %10s\n", "worker", "handled", "steals", "moved", "max queue")
	for i, ws := range st.PerWorker {
		fmt.Fprintf(stdout, "  %6d %10d %7d %8d %10d\n", i, ws.Processed, ws.Steals, ws.Moved, ws.MaxLen)
	}

	start := time.Now()
	opt := in.dp()
	fmt.Fprintf(stdout, "dynamic programming: optimum %d in %v (%d items x %d capacities)\n",
		opt, time.Since(start).Round(time.Microsecond), len(in.items), in.capacity+1)

	taken := sol.items()
	fmt.Fprintf(stdout, "taken items (0-based, input order): %v\n", taken)
	if err := in.check(taken, sol.value, opt); err != nil {
		fmt.Fprintln(stdout, "FAILED:", err)
		return 1
	}
	fmt.Fprintf(stdout, "verified: branch and bound is optimal: value %d equals the DP optimum, and its %d items fit the capacity %d\n",
		sol.value, len(taken), in.capacity)
	return 0
}
