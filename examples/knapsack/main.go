package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"

	"golang.org/x/sys/cpu"
)

// Limits that keep every sum and product in int64 and the DP check feasible.
const (
	maxItems  = 100_000
	maxNumber = 1_000_000_000 // largest value or weight of an item
	maxDP     = 1 << 30       // largest n × (capacity+1) the DP check accepts
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

// genConfig describes a generated instance.
type genConfig struct {
	n        int
	kind     string
	seed     uint64
	rng      int64 // weights are drawn from 1..rng
	capacity int64 // 0: half the total weight
}

// kinds lists the correlation types of generated instances.
var kinds = []string{"uncorrelated", "weak", "strong", "subset"}

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

// item is one item of an instance.
type item struct {
	value, weight int64
}

// instance is a 0/1 knapsack problem.
type instance struct {
	capacity int64
	items    []item
}

// generate makes an instance from g.
func generate(g genConfig) *instance {
	r := rand.New(rand.NewPCG(g.seed, 0x6b6e61707361636b)) // "knapsack"
	in := &instance{capacity: g.capacity, items: make([]item, g.n)}
	var total int64
	for i := range in.items {
		w := 1 + r.Int64N(g.rng)
		var v int64
		switch g.kind {
		case "uncorrelated":
			v = 1 + r.Int64N(g.rng)
		case "weak":
			d := g.rng / 10
			v = max(1, w-d+r.Int64N(2*d+1))
		case "strong":
			v = w + g.rng/10
		case "subset":
			v = w
		}
		in.items[i] = item{value: v, weight: w}
		total += w
	}
	if in.capacity == 0 {
		in.capacity = total / 2
	}
	return in
}

// readFile reads an instance in the documented text format. Its errors name
// the file and the line.
func readFile(name string) (*instance, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(f, name)
}

// parse reads an instance from r; name is used in error messages.
func parse(r io.Reader, name string) (*instance, error) {
	sc := bufio.NewScanner(r)
	var in *instance
	want := 0 // items the header announces
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			what := `"value weight"`
			if in == nil {
				what = `"n capacity"`
			}
			return nil, fmt.Errorf("%s:%d: want two numbers %s, got %q", name, line, what, text)
		}
		a, err := parseNumber(fields[0])
		var b int64
		if err == nil {
			b, err = parseNumber(fields[1])
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if in == nil { // the first line: n and the capacity
			if a > maxItems {
				return nil, fmt.Errorf("%s:%d: %d items is more than the %d this program accepts", name, line, a, maxItems)
			}
			want = int(a)
			in = &instance{capacity: b, items: make([]item, 0, want)}
			continue
		}
		if len(in.items) == want {
			return nil, fmt.Errorf("%s:%d: more items than the %d the first line announces", name, line, want)
		}
		if b == 0 {
			return nil, fmt.Errorf("%s:%d: weight 0; weights must be at least 1", name, line)
		}
		in.items = append(in.items, item{value: a, weight: b})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if in == nil {
		return nil, fmt.Errorf(`%s: no instance: the first line must be "n capacity"`, name)
	}
	if len(in.items) < want {
		return nil, fmt.Errorf("%s:%d: the first line announces %d items, the file has %d", name, line, want, len(in.items))
	}
	return in, nil
}

// parseNumber parses a non-negative integer no larger than maxNumber.
func parseNumber(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	if v > maxNumber {
		return 0, fmt.Errorf("%d is larger than %d", v, maxNumber)
	}
	return v, nil
}

// checkDPSize refuses instances too large for the DP check.
func (in *instance) checkDPSize() error {
	// The DP table has capacity+1 cells and takes n passes; count at least
	// one pass, since the table is allocated even for no items.
	if n := max(int64(len(in.items)), 1); in.capacity >= maxDP/n {
		return fmt.Errorf("instance too large for the DP check: %d items and capacity %d exceed %d cells; use fewer items or a smaller capacity",
			len(in.items), in.capacity, maxDP)
	}
	return nil
}

// dp returns the optimum by dynamic programming over the capacity.
func (in *instance) dp() int64 {
	best := make([]int64, in.capacity+1) // best[c]: best value with capacity c
	for _, it := range in.items {
		for c := in.capacity; c >= it.weight; c-- {
			best[c] = max(best[c], best[c-it.weight]+it.value)
		}
	}
	return best[in.capacity]
}

// check verifies that the items taken (indices into in.items) are distinct,
// fit the capacity and are worth value, and that value is the optimum.
func (in *instance) check(taken []int, value, optimum int64) error {
	var v, w int64
	seen := make(map[int]bool)
	for _, i := range taken {
		if i < 0 || i >= len(in.items) || seen[i] {
			return fmt.Errorf("item %d is invalid or taken twice", i)
		}
		seen[i] = true
		v += in.items[i].value
		w += in.items[i].weight
	}
	switch {
	case w > in.capacity:
		return fmt.Errorf("the items weigh %d, more than the capacity %d", w, in.capacity)
	case v != value:
		return fmt.Errorf("the items are worth %d, not the reported %d", v, value)
	case value != optimum:
		return fmt.Errorf("branch and bound found %d, the DP optimum is %d", value, optimum)
	}
	return nil
}

// node is a partial solution: the items taken so far (positions in density
// order, all before next) and their total value and weight.
type node struct {
	next          int32
	value, weight int64
	picks         *pick
}

// pick is a persistent list of taken items, newest first; nodes share their
// common prefix.
type pick struct {
	item int32 // position in density order
	next *pick
}

// solution is an incumbent: a feasible solution and its value.
type solution struct {
	value int64
	picks *pick
	order []int // density order to input order
}

// items returns the input indices of the solution's items, in increasing order.
func (s *solution) items() []int {
	var taken []int
	for p := s.picks; p != nil; p = p.next {
		taken = append(taken, s.order[p.item])
	}
	slices.Sort(taken)
	return taken
}

// solver holds an instance in density order and the search's shared state.
type solver struct {
	capacity int64
	value    []int64 // value and weight in density order
	weight   []int64
	order    []int   // order[k]: input index of the k-th densest item
	sumV     []int64 // sumV[k], sumW[k]: totals of the k densest items
	sumW     []int64

	rootBound, greedy int64

	best    atomic.Pointer[solution] // the incumbent; only ever improves
	workers []workerState            // indexed by Worker.ID
}

// workerState is one worker's counters and scratch space, written by its
// worker only and read after the run.
type workerState struct {
	pruned, improved int64
	children         []node
	_                cpu.CacheLinePad
}

func newSolver(in *instance) *solver {
	n := len(in.items)
	s := &solver{capacity: in.capacity, order: make([]int, n)}
	for i := range s.order {
		s.order[i] = i
	}
	// Densest first; a/b > c/d as a·d > c·b, exact since values and
	// weights are at most maxNumber.
	slices.SortStableFunc(s.order, func(i, j int) int {
		a, b := in.items[i], in.items[j]
		return cmp.Compare(b.value*a.weight, a.value*b.weight)
	})
	s.value, s.weight = make([]int64, n), make([]int64, n)
	s.sumV, s.sumW = make([]int64, n+1), make([]int64, n+1)
	for k, i := range s.order {
		s.value[k], s.weight[k] = in.items[i].value, in.items[i].weight
		s.sumV[k+1] = s.sumV[k] + s.value[k]
		s.sumW[k+1] = s.sumW[k] + s.weight[k]
	}
	return s
}

// bound returns an upper bound on the value of any solution that adds items
// from positions from..n-1 to a partial solution of value v with room r left:
// the fractional relaxation, which fills r in density order and takes a
// fraction of the first item that does not fit.
func (s *solver) bound(from int, v, r int64) int64 {
	n := len(s.value)
	// t: the most items from..t-1 that fit together in r.
	t := from + sort.Search(n-from, func(k int) bool { return s.sumW[from+k+1]-s.sumW[from] > r })
	v += s.sumV[t] - s.sumV[from]
	if t < n {
		left := r - (s.sumW[t] - s.sumW[from]) // < weight[t] <= maxNumber, so no overflow below
		v += left * s.value[t] / s.weight[t]
	}
	return v
}

// greedySolution takes items in density order while they fit.
func (s *solver) greedySolution() *solution {
	sol := &solution{order: s.order}
	r := s.capacity
	for k := range s.value {
		if s.weight[k] <= r {
			r -= s.weight[k]
			sol.value += s.value[k]
			sol.picks = &pick{item: int32(k), next: sol.picks}
		}
	}
	return sol
}

// offer makes (v, picks) the incumbent if it is better.
func (s *solver) offer(v int64, picks *pick, ws *workerState) {
	for {
		cur := s.best.Load()
		if v <= cur.value {
			return
		}
		if s.best.CompareAndSwap(cur, &solution{value: v, picks: picks, order: s.order}) {
			ws.improved++
			return
		}
	}
}

// handle expands one node.
func (s *solver) handle(_ context.Context, nd node, w *sched.Worker[node]) error {
	ws := &s.workers[w.ID()]
	s.offer(nd.value, nd.picks, ws)
	best := s.best.Load().value
	room := s.capacity - nd.weight
	if s.bound(int(nd.next), nd.value, room) <= best {
		ws.pruned++ // the incumbent improved since the node was made
		return nil
	}
	kids := ws.children[:0]
	for j := int(nd.next); j < len(s.value); j++ {
		// Skipping items nd.next..j-1 leaves the relaxation over j..n-1,
		// which only falls as j grows: the first failure ends the loop.
		if s.bound(j, nd.value, room) <= best {
			break
		}
		if s.weight[j] > room {
			continue
		}
		v, r := nd.value+s.value[j], room-s.weight[j]
		if s.bound(j+1, v, r) > best {
			kids = append(kids, node{next: int32(j + 1), value: v, weight: nd.weight + s.weight[j], picks: &pick{item: int32(j), next: nd.picks}})
		}
	}
	// The densest choice last, so that it is the newest item and this
	// worker expands it next (depth first); thieves take the oldest.
	slices.Reverse(kids)
	w.Spawn(kids...)
	clear(kids) // drop the picks, so the GC can free pruned branches
	ws.children = kids[:0]
	return nil
}

// solve runs the branch and bound and returns the optimum it proves.
func (s *solver) solve(ctx context.Context, c config) (*solution, sched.Stats, error) {
	s.rootBound = s.bound(0, 0, s.capacity)
	g := s.greedySolution()
	s.greedy = g.value
	s.best.Store(g)
	s.workers = make([]workerState, c.workers)
	cfg := sched.Config[node]{
		NewQueue:   func() wsq.Queue[node] { q, _ := catalog.New[node](c.queue); return q },
		Workers:    c.workers,
		Mode:       c.mode,
		Proportion: c.proportion,
	}
	st, err := sched.Run(ctx, cfg, []node{{}}, s.handle)
	return s.best.Load(), st, err
}

// pruned returns the nodes pruned on arrival, over all workers.
func (s *solver) pruned() int64 {
	var n int64
	for i := range s.workers {
		n += s.workers[i].pruned
	}
	return n
}

// improvements returns how often the incumbent improved.
func (s *solver) improvements() int64 {
	var n int64
	for i := range s.workers {
		n += s.workers[i].improved
	}
	return n
}
