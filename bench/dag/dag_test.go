package dag_test

import (
	"context"
	"fmt"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// walk explores g sequentially and returns how often each id was reached,
// checking that every node's children split its subtree exactly.
func walk(t *testing.T, g dag.Graph) (seen []int, depth, maxKids int) {
	seen = make([]int, g.Nodes)
	type frame struct {
		n     dag.Node
		depth int
	}
	stack := []frame{{g.Root(), 0}}
	var kids []dag.Node
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		seen[f.n.ID]++
		depth = max(depth, f.depth)
		kids = g.Children(kids[:0], f.n)
		maxKids = max(maxKids, len(kids))
		next := f.n.ID + 1
		for _, k := range kids {
			if k.ID != next || k.Size < 1 {
				t.Fatalf("child %v of %v: want consecutive subtrees from id %d", k, f.n, next)
			}
			next += k.Size
			stack = append(stack, frame{k, f.depth + 1})
		}
		if next != f.n.ID+f.n.Size {
			t.Fatalf("children of %v end at %d", f.n, next)
		}
	}
	return seen, depth, maxKids
}

func TestChildrenPartition(t *testing.T) {
	for _, nodes := range []int64{1, 2, 3, 10, 1000, 50_000} {
		for _, fanout := range []int{1, 2, 8, 100} {
			for seed := range uint64(3) {
				g := dag.Graph{Nodes: nodes, Seed: seed, Fanout: fanout}
				seen, depth, maxKids := walk(t, g)
				for id, c := range seen {
					if c != 1 {
						t.Fatalf("node %d of %+v reached %d times", id, g, c)
					}
				}
				assert.LessOrEqual(t, maxKids, 2*fanout-1)
				if nodes == 50_000 && fanout == 8 {
					assert.Less(t, depth, 200, "a bushy tree, not a chain")
					assert.Greater(t, maxKids, 8)
				}
			}
		}
	}
}

func TestChildrenDeterministic(t *testing.T) {
	g := dag.Graph{Nodes: 1 << 40, Seed: 42}
	a := g.Children(nil, g.Root())
	b := g.Children(nil, g.Root())
	assert.Equal(t, a, b)
	h := dag.Graph{Nodes: 1 << 40, Seed: 43}
	assert.NotEqual(t, a, h.Children(nil, h.Root()), "the seed shapes the graph")
	var total int64
	for _, k := range a {
		total += k.Size
	}
	assert.Equal(t, g.Nodes-1, total, "no overflow with a huge graph")
}

func TestNodeCost(t *testing.T) {
	u := dag.Graph{Nodes: 10, Cost: 300}
	for id := range int64(100) {
		require.Equal(t, 300, u.NodeCost(id))
	}
	assert.Equal(t, 0, dag.Graph{}.NodeCost(5), "the zero Graph has no busy work")
	assert.Equal(t, 0, dag.Graph{Cost: -1, Work: dag.Irregular}.NodeCost(5))

	irr := dag.Graph{Nodes: 10, Cost: 300, Work: dag.Irregular, Seed: 7}
	const n = 200_000
	var sum, maxCost int
	small := 0
	for id := range int64(n) {
		c := irr.NodeCost(id)
		sum += c
		maxCost = max(maxCost, c)
		if c < 300 {
			small++
		}
		if c < 100 || c > 300*1000 {
			t.Fatalf("node %d costs %d, outside [100, 300000]", id, c)
		}
	}
	// Deterministic for the seed: the mean is near the cost, most nodes
	// are cheaper than the mean, and the tail is long.
	mean := float64(sum) / n
	assert.InDelta(t, 300, mean, 30)
	assert.Greater(t, small, n*6/10)
	assert.Greater(t, maxCost, 300*50)
}

func TestSpin(t *testing.T) {
	assert.NotEqual(t, dag.Spin(10, 1), dag.Spin(11, 1))
	assert.Equal(t, dag.Spin(10, 1), dag.Spin(10, 1))
	assert.Positive(t, dag.Calibrate(0))
}

func TestWorkNames(t *testing.T) {
	assert.Equal(t, []string{"uniform", "irregular"}, []string{dag.Works[0].String(), dag.Works[1].String()})
	assert.Equal(t, "Work(5)", dag.Work(5).String())
}

func TestExploreExactlyOnce(t *testing.T) {
	nodes := testenv.Size[int64](2_000, 5_000, 20_000)
	for _, name := range catalog.Names() {
		newQueue := func() wsq.Queue[dag.Node] {
			q, err := catalog.New[dag.Node](name)
			if err != nil {
				panic(err)
			}
			return q
		}
		for _, mode := range []sched.Mode{sched.Master, sched.Random} {
			for _, work := range dag.Works {
				for _, workers := range []int{1, 3} {
					t.Run(fmt.Sprintf("queue=%s/mode=%v/work=%v/workers=%d", name, mode, work, workers), func(t *testing.T) {
						g := dag.Graph{Nodes: nodes, Seed: 1, Work: work, Cost: 20}
						cfg := sched.Config[dag.Node]{NewQueue: newQueue, Mode: mode, Workers: workers}
						var done atomic.Int64
						res, err := dag.Explore(context.Background(), g, cfg, dag.Options{Bitmap: true, Done: &done})
						require.NoError(t, err)
						assert.Equal(t, nodes, res.Nodes)
						assert.Equal(t, nodes, done.Load(), "the progress counter ends at the node count")
						assert.Equal(t, nodes, res.Stats.Processed)
						want, err := dag.Explore(context.Background(), g, sched.Config[dag.Node]{NewQueue: newQueue, Workers: 1}, dag.Options{})
						require.NoError(t, err)
						assert.Equal(t, want.Checksum, res.Checksum, "the checksum does not depend on the schedule")
					})
				}
			}
		}
	}
}

func TestExploreErrors(t *testing.T) {
	newQueue := func() wsq.Queue[dag.Node] { q, _ := catalog.New[dag.Node]("mutex"); return q }
	cfg := sched.Config[dag.Node]{NewQueue: newQueue, Workers: 2}
	_, err := dag.Explore(context.Background(), dag.Graph{}, cfg, dag.Options{})
	assert.ErrorContains(t, err, "at least 1")
	_, err = dag.Explore(context.Background(), dag.Graph{Nodes: 5, Work: 9}, cfg, dag.Options{})
	assert.ErrorContains(t, err, "unknown work")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = dag.Explore(ctx, dag.Graph{Nodes: 1000}, cfg, dag.Options{})
	assert.ErrorIs(t, err, context.Canceled)
	res, err := dag.Explore(context.Background(), dag.Graph{Nodes: 1}, cfg, dag.Options{Bitmap: true})
	require.NoError(t, err)
	assert.Equal(t, int64(1), res.Nodes)
}

// dupQueue hands out one item twice, as a broken queue might.
type dupQueue struct {
	wsq.Queue[dag.Node]
	pops int
}

func (q *dupQueue) Pop() (dag.Node, bool) {
	v, ok := q.Queue.Pop()
	if q.pops++; ok && q.pops == 100 {
		q.Queue.Push(v)
	}
	return v, ok
}

func TestExploreDetectsDuplicates(t *testing.T) {
	newQueue := func() wsq.Queue[dag.Node] {
		q, _ := catalog.New[dag.Node]("mutex")
		return &dupQueue{Queue: q}
	}
	for _, bitmap := range []bool{false, true} {
		cfg := sched.Config[dag.Node]{NewQueue: newQueue, Workers: 1}
		_, err := dag.Explore(context.Background(), dag.Graph{Nodes: 5000, Cost: -1}, cfg, dag.Options{Bitmap: bitmap})
		assert.Error(t, err, "bitmap=%v", bitmap)
	}
}

func TestClosedForms(t *testing.T) {
	// Brute force for small n, big.Int for large n.
	var sum, sumSq uint64
	for n := uint64(0); n < 2000; n++ {
		if dag.SumIDs(n) != sum || dag.SumSquares(n) != sumSq {
			t.Fatalf("n=%d: got %d, %d; want %d, %d", n, dag.SumIDs(n), dag.SumSquares(n), sum, sumSq)
		}
		sum += n
		sumSq += n * n
	}
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []uint64{dag.PaperLargeNodes, 1<<32 + 7, 1<<40 + 3} {
		b := new(big.Int).SetUint64(n)
		nm1 := new(big.Int).Sub(b, big.NewInt(1))
		want := new(big.Int).Mul(nm1, b)
		want.Mul(want, new(big.Int).Sub(new(big.Int).Lsh(b, 1), big.NewInt(1)))
		want.Div(want, big.NewInt(6))
		want.Mod(want, mod)
		assert.Equal(t, want.Uint64(), dag.SumSquares(n), n)
		s := new(big.Int).Mul(nm1, b)
		s.Div(s, big.NewInt(2)).Mod(s, mod)
		assert.Equal(t, s.Uint64(), dag.SumIDs(n), n)
	}
}
