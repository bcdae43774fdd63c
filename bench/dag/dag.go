package dag

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/sched"
)

// Graph sizes.
const (
	// SmallNodes is a size for tests and quick benchmark runs.
	SmallNodes = 100_000
	// PaperNodes is the smaller graph of the paper's evaluation.
	PaperNodes = 2_500_000
	// PaperLargeNodes is the larger graph of the paper's evaluation.
	PaperLargeNodes = 300_000_000
)

// Defaults for the zero fields of a Graph.
const (
	// DefaultFanout is the mean number of children of an inner node.
	DefaultFanout = 8
	// DefaultCost is the mean number of Spin iterations per node, about a
	// microsecond on a current x86 core (see Calibrate).
	DefaultCost = 400
)

// Work is the distribution of the per-node cost.
type Work int

const (
	// Uniform gives every node the same cost.
	Uniform Work = iota
	// Irregular draws each node's cost from a Pareto distribution (shape
	// 1.5, capped at 1000 times the mean) with the same mean as Uniform:
	// most nodes are cheap, a few are very expensive.
	Irregular
)

// Works lists the cost distributions in the order reports show them.
var Works = []Work{Uniform, Irregular}

// String returns "uniform" or "irregular".
func (w Work) String() string {
	switch w {
	case Uniform:
		return "uniform"
	case Irregular:
		return "irregular"
	}
	return fmt.Sprintf("Work(%d)", int(w))
}

// Graph describes an implicit graph and the cost of its nodes. A zero
// Fanout selects DefaultFanout; a zero Cost means no busy work. A Graph is a value: it
// holds no nodes, and any number of goroutines may use one.
type Graph struct {
	// Nodes is the number of nodes, at least 1.
	Nodes int64
	// Seed selects the graph's shape and, for Irregular work, the costs.
	Seed uint64
	// Fanout is the mean number of children of a node with enough
	// descendants: each such node has between 1 and 2*Fanout-1 children.
	Fanout int
	// Work is the distribution of the per-node cost.
	Work Work
	// Cost is the mean number of Spin iterations per node (DefaultCost is
	// about a microsecond); zero or a negative Cost means none: the nodes
	// only produce their children.
	Cost int
}

// Node is a node of a Graph: the node ID, whose subtree holds the Size
// nodes ID, ID+1, ..., ID+Size-1.
type Node struct {
	ID, Size int64
}

func (g Graph) fanout() int {
	if g.Fanout <= 0 {
		return DefaultFanout
	}
	return g.Fanout
}

func (g Graph) cost() int { return max(g.Cost, 0) }

// Root returns the node from which the whole graph is reached.
func (g Graph) Root() Node { return Node{ID: 0, Size: g.Nodes} }

// Children appends the children of n to dst and returns the extended slice.
// The children split the ids n.ID+1 ... n.ID+n.Size-1 into consecutive
// subtrees of seeded random sizes, the first child first.
func (g Graph) Children(dst []Node, n Node) []Node {
	rest := n.Size - 1 // descendants of n
	if rest <= 0 {
		return dst
	}
	f := int64(1 + hash(g.Seed, uint64(n.ID), 0)%uint64(2*g.fanout()-1))
	f = min(f, rest)
	// Part j gets 1 + (rest-f)*w_j/total descendants and leftovers, with
	// seeded weights w_j in 1..256: computed from prefix sums of the
	// weights, the parts are at least 1 and add up to rest exactly.
	var total int64
	for j := range f {
		total += weight(g.Seed, n.ID, j)
	}
	spare := rest - f
	id := n.ID + 1
	var prefix, cut int64
	for j := range f {
		prefix += weight(g.Seed, n.ID, j)
		next := mulDiv(spare, prefix, total)
		size := 1 + next - cut
		dst = append(dst, Node{ID: id, Size: size})
		id += size
		cut = next
	}
	return dst
}

// mulDiv returns a*b/c for 0 <= a and 0 <= b <= c, 0 < c, computing the
// product in 128 bits so that it cannot overflow.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // q <= a, so hi < c and Div64 cannot panic
	return int64(q)
}

func weight(seed uint64, id, j int64) int64 {
	return 1 + int64(hash(seed, uint64(id), uint64(j)+1)&255)
}

// NodeCost returns the number of Spin iterations node id costs.
func (g Graph) NodeCost(id int64) int {
	c := g.cost()
	if g.Work == Uniform || c == 0 {
		return c
	}
	// Pareto with shape a = 1.5 and scale c(a-1)/a, so that the mean is
	// about c: x = scale * u^(-1/a) for u uniform in (0, 1].
	const a = 1.5
	u := (float64(hash(g.Seed^0x5bd1e995, uint64(id), 0)>>11) + 1) / (1 << 53)
	x := float64(c) * (a - 1) / a * math.Pow(u, -1/a)
	return int(min(x, 1000*float64(c)))
}

// Spin runs n rounds of a xorshift generator from x and returns the result:
// busy work whose result depends on every round, so that it cannot be
// optimized away.
func Spin(n int, x uint64) uint64 {
	x |= 1 // xorshift stays at zero
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// Calibrate measures and returns the duration of one Spin iteration on this
// machine in nanoseconds, timing about d of spinning. It is a float because
// an iteration takes a few nanoseconds, which a time.Duration would round.
func Calibrate(d time.Duration) float64 {
	n := 1 << 16
	for {
		start := time.Now()
		sink.Store(Spin(n, uint64(n)))
		el := time.Since(start)
		if el >= d || n >= 1<<30 {
			return float64(el.Nanoseconds()) / float64(n)
		}
		n *= 2
	}
}

var sink atomic.Uint64

// hash mixes its inputs with SplitMix64's finalizer.
func hash(seed, a, b uint64) uint64 {
	x := seed ^ a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Options are the optional settings of Explore.
type Options struct {
	// Bitmap makes Explore record every node in a bitmap of Nodes bits, so
	// that a node handled twice is reported with its id. Without it the
	// count and the two checksums detect any miscount with near certainty.
	Bitmap bool

	// Done, if not nil, counts the nodes handled so far while Explore runs,
	// for a progress display: each worker adds its count every
	// ProgressEvery nodes and once more at the end, so the counter lags by
	// less than ProgressEvery nodes per worker and reaches Nodes when a run
	// succeeds.
	Done *atomic.Int64
}

// ProgressEvery is how many nodes a worker handles between updates of
// Options.Done.
const ProgressEvery = 256

// Result describes a verified exploration.
type Result struct {
	// Nodes is the number of nodes handled: the graph's size.
	Nodes int64
	// Checksum combines the results of every node's busy work. It depends
	// only on the graph, not on the schedule.
	Checksum uint64
	// Stats are the scheduler's statistics.
	Stats sched.Stats
	// Elapsed is the duration of the run.
	Elapsed time.Duration
}

// acc is one worker's tally, on its own cache lines.
type acc struct {
	count, sum, sumSq, work uint64
	kids                    []Node
	_                       pad.Line
}

// Explore explores g with the scheduler configured by cfg, starting from the
// root, and checks that every node was handled exactly once. It returns an
// error if the run failed or the check did.
func Explore(ctx context.Context, g Graph, cfg sched.Config[Node], opt Options) (Result, error) {
	if g.Nodes < 1 {
		return Result{}, fmt.Errorf("dag: %d nodes; a graph has at least 1", g.Nodes)
	}
	if g.Work != Uniform && g.Work != Irregular {
		return Result{}, fmt.Errorf("dag: unknown work %d", int(g.Work))
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Workers < 0 {
		return Result{}, fmt.Errorf("dag: negative worker count %d", cfg.Workers)
	}
	accs := make([]acc, cfg.Workers)
	var seen []atomic.Uint64
	if opt.Bitmap {
		seen = make([]atomic.Uint64, (g.Nodes+63)/64)
	}
	start := time.Now()
	stats, err := sched.Run(ctx, cfg, []Node{g.Root()}, func(_ context.Context, n Node, w *sched.Worker[Node]) error {
		a := &accs[w.ID()]
		id := uint64(n.ID)
		a.count++
		a.sum += id
		a.sumSq += id * id
		a.work += Spin(g.NodeCost(n.ID), id)
		if seen != nil {
			bit := uint64(1) << (id % 64)
			if seen[id/64].Or(bit)&bit != 0 {
				return fmt.Errorf("dag: node %d handled twice", n.ID)
			}
		}
		if opt.Done != nil && a.count%ProgressEvery == 0 {
			opt.Done.Add(ProgressEvery)
		}
		a.kids = g.Children(a.kids[:0], n)
		w.Spawn(a.kids...)
		return nil
	})
	if opt.Done != nil {
		for i := range accs {
			opt.Done.Add(int64(accs[i].count % ProgressEvery))
		}
	}
	res := Result{Stats: stats, Elapsed: time.Since(start)}
	if err != nil {
		return res, err
	}
	var count, sum, sumSq uint64
	for i := range accs {
		count += accs[i].count
		sum += accs[i].sum
		sumSq += accs[i].sumSq
		res.Checksum += accs[i].work
	}
	res.Nodes = int64(count)
	var errs []error
	if count != uint64(g.Nodes) {
		errs = append(errs, fmt.Errorf("dag: handled %d nodes, want %d", count, g.Nodes))
	}
	if want := sumIDs(uint64(g.Nodes)); sum != want {
		errs = append(errs, fmt.Errorf("dag: sum of handled ids is %d, want %d", sum, want))
	}
	if want := sumSquares(uint64(g.Nodes)); sumSq != want {
		errs = append(errs, fmt.Errorf("dag: sum of squared ids is %d, want %d", sumSq, want))
	}
	if stats.Processed != g.Nodes {
		errs = append(errs, fmt.Errorf("dag: scheduler handled %d items, want %d", stats.Processed, g.Nodes))
	}
	return res, errors.Join(errs...)
}

// sumIDs returns 0 + 1 + ... + (n-1) modulo 2^64.
func sumIDs(n uint64) uint64 {
	if n%2 == 0 {
		return n / 2 * (n - 1)
	}
	return n * ((n - 1) / 2)
}

// sumSquares returns 0² + 1² + ... + (n-1)² = (n-1)n(2n-1)/6 modulo 2^64,
// dividing exactly before multiplying.
func sumSquares(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	a, b, c := n-1, n, 2*n-1
	switch {
	case a%2 == 0:
		a /= 2
	default:
		b /= 2
	}
	switch {
	case a%3 == 0:
		a /= 3
	case b%3 == 0:
		b /= 3
	default:
		c /= 3
	}
	return a * b * c
}
