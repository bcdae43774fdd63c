// Package steps is the loop of steps of Task Bench (Slaughter et al.,
// "Task Bench: A Parameterized Benchmark for Evaluating Parallel Runtime
// Performance", SC20): T steps of W points, each point a task of set cost
// that reads the points of the step before that its pattern names. A run
// starts a step's points, waits for all of them, and goes on to the next:
// the shape of a simulation, a stencil or a solver's sweep.
//
// The patterns follow Task Bench's definitions (its core's dependencies):
//
//	pattern   point i of step t reads, of step t-1
//	trivial   nothing
//	stencil   i-1, i and i+1 (stencil_1d)
//	tree      i/2; step t has min(W, 2^t) points
//	fft       i-2^d, i and i+2^d, d = (t+L-1) mod L, L = ceil(log2 W)
//	nearest   i-r/2 ... i+(r-1)/2, radix r = 3
//
// Indices outside 0..W-1 are left out. A point's value hashes the values
// it reads with t and i, and then runs its kernel: Iterations rounds of
// dag.Spin. Each point also sums its values over the steps, so that a run
// can be checked against Serial exactly (Run.Check).
//
// The package is a workload of the benchmarks (package bench) and of the
// peers' harnesses, which compute the same values; it is not part of the
// library.
package steps

import (
	"fmt"
	"math/bits"

	"github.com/worksteal/wsq/bench/dag"
)

// Pattern is a dependence pattern of Task Bench.
type Pattern int

const (
	Trivial Pattern = iota
	Stencil
	Tree
	FFT
	Nearest
)

// Patterns lists the patterns in the order reports show them.
var Patterns = []Pattern{Trivial, Stencil, Tree, FFT, Nearest}

// String returns the pattern's name, as sub-benchmarks spell it.
func (p Pattern) String() string {
	switch p {
	case Trivial:
		return "trivial"
	case Stencil:
		return "stencil"
	case Tree:
		return "tree"
	case FFT:
		return "fft"
	case Nearest:
		return "nearest"
	}
	return fmt.Sprintf("Pattern(%d)", int(p))
}

// radix is the nearest pattern's radix, Task Bench's default.
const radix = 3

// Graph is one loop of steps.
type Graph struct {
	Pattern Pattern
	// Width is the points per step, W; Steps is the steps, T.
	Width, Steps int
	// Iterations is the rounds of dag.Spin of each point's kernel.
	Iterations int
}

// WidthAt returns the number of points of step t: Width, or fewer for
// the first steps of a tree.
func (g Graph) WidthAt(t int) int {
	if g.Pattern == Tree && t < bits.UintSize-2 {
		return min(g.Width, 1<<t)
	}
	return g.Width
}

// Tasks returns the number of points of all the steps.
func (g Graph) Tasks() int {
	n := 0
	for t := range g.Steps {
		n += g.WidthAt(t)
	}
	return n
}

// Deps appends to dst the points of step t-1 that point i of step t
// reads, and returns it. Step 0 reads nothing.
func (g Graph) Deps(dst []int, t, i int) []int {
	if t == 0 {
		return dst
	}
	w := g.WidthAt(t - 1)
	add := func(j int) {
		if j >= 0 && j < w {
			dst = append(dst, j)
		}
	}
	switch g.Pattern {
	case Stencil:
		add(i - 1)
		add(i)
		add(i + 1)
	case Tree:
		add(i / 2)
	case FFT:
		l := bits.Len(uint(g.Width - 1)) // ceil(log2 W), at least 1 below
		l = max(l, 1)
		d := 1 << ((t + l - 1) % l)
		add(i - d)
		add(i)
		add(i + d)
	case Nearest:
		for j := i - radix/2; j <= i+(radix-1)/2; j++ {
			add(j)
		}
	}
	return dst
}

// Run is the state of one run of a Graph: the values of the last two
// steps, and each point's sum over the steps. Point writes only its own
// point's slots; a run orders its steps, so that a step reads what the
// step before wrote.
type Run struct {
	g    Graph
	rows [2][]uint64
	sum  []uint64
}

// NewRun returns a run of g that has computed nothing.
func (g Graph) NewRun() *Run {
	return &Run{g: g, rows: [2][]uint64{make([]uint64, g.Width), make([]uint64, g.Width)}, sum: make([]uint64, g.Width)}
}

// Point computes point i of step t. The points of one step may run in
// parallel; every point of step t-1 must have finished.
func (r *Run) Point(t, i int) {
	var deps [radix + 2]int
	x := uint64(t)<<32 ^ uint64(i)
	prev := r.rows[(t+1)%2]
	for _, j := range r.g.Deps(deps[:0], t, i) {
		x = x*0x9e3779b97f4a7c15 + prev[j]
	}
	v := dag.Spin(r.g.Iterations, x)
	r.rows[t%2][i] = v
	r.sum[i] += v
}

// Serial returns a run of g, every point computed in order.
func (g Graph) Serial() *Run {
	r := g.NewRun()
	for t := range g.Steps {
		for i := range g.WidthAt(t) {
			r.Point(t, i)
		}
	}
	return r
}

// Check returns an error unless r computed what want did, a run of the
// same graph: every point of every step, once, in order.
func (r *Run) Check(want *Run) error {
	for i := range r.sum {
		if r.sum[i] != want.sum[i] {
			return fmt.Errorf("steps: %v, %d points × %d steps: point %d sums %#x, want %#x", r.g.Pattern, r.g.Width, r.g.Steps, i, r.sum[i], want.sum[i])
		}
	}
	return nil
}
