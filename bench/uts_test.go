package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/worksteal/wsq/bench/uts"
	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/sched"
)

// BenchmarkUTS searches the trees of the Unbalanced Tree Search benchmark
// (package uts): every node's children are known only once it is visited,
// and T3's few deep subtrees hold most of its nodes. One op is one whole
// search, which must count the tree's nodes exactly.
//
//	impl=serial      a depth-first search by one goroutine, the reference
//	impl=run         sched.Run: each node an item, its children spawned as
//	                 one batch, in the mode that -sched.mode selects
//	impl=pool        a Pool: each node a task, its children split in
//	                 halves by sched.Join, as Cilk's UTS spawns them
//
// Both searches start their workers inside the timed loop. Metrics:
// nodes/s, the share of worker time spent idle, and steals per thousand
// nodes (Run: a master's hand-offs in Master mode). Sizes:
//
//	go test -run '^$' -bench UTS -cpu 1,2 ./bench -uts.trees T1,T3
var utsTrees = flag.String("uts.trees", envString("WSQ_UTS_TREES", "T1S,T3S"), "comma-separated trees of BenchmarkUTS (T1S, T3S, T1, T3); env WSQ_UTS_TREES")

func envString(name, def string) string {
	if s := os.Getenv(name); s != "" {
		return s
	}
	return def
}

func BenchmarkUTS(b *testing.B) {
	for _, name := range strings.Split(*utsTrees, ",") {
		tr, err := uts.ByName(strings.TrimSpace(name))
		if err != nil {
			b.Fatal(err)
		}
		for _, impl := range []string{"serial", "run", "pool"} {
			b.Run(fmt.Sprintf("tree=%s/impl=%s", tr.Name, impl), func(b *testing.B) {
				var idle, elapsed time.Duration
				var steals int64
				workers := 1
				for b.Loop() {
					var st sched.Stats
					start := time.Now()
					var n int64
					switch impl {
					case "serial":
						n = tr.Count(tr.Root())
					case "run":
						n, st = utsRun(b, tr)
					case "pool":
						n, st = utsPool(b, tr)
					}
					if n != tr.Nodes {
						b.Fatalf("%s: counted %d nodes, want %d", impl, n, tr.Nodes)
					}
					elapsed += time.Since(start)
					idle += st.IdleWait
					steals += st.Steals
					workers = max(1, len(st.PerWorker))
				}
				runs := float64(b.N)
				b.ReportMetric(float64(tr.Nodes)*runs/b.Elapsed().Seconds(), "nodes/s")
				if impl != "serial" {
					b.ReportMetric(percent(idle, time.Duration(workers)*elapsed), "idle-%")
					b.ReportMetric(float64(steals)*1000/(float64(tr.Nodes)*runs), "steals/knode")
				}
			})
		}
	}
}

// utsCount is a worker's count of nodes, alone on its cache lines.
type utsCount struct {
	_ pad.Line
	n int64
	_ pad.Line
}

// utsRun searches tr with sched.Run on GOMAXPROCS workers and returns the
// nodes it visited.
func utsRun(b *testing.B, tr uts.Tree) (int64, sched.Stats) {
	cfg := sched.Config[uts.Node]{Mode: benchMode, Workers: runtime.GOMAXPROCS(0)}
	counts := make([]utsCount, cfg.Workers)
	bufs := make([][]uts.Node, len(counts))
	st, err := sched.Run(context.Background(), cfg, []uts.Node{tr.Root()}, func(_ context.Context, n uts.Node, w *sched.Worker[uts.Node]) error {
		id := w.ID()
		counts[id].n++
		buf := bufs[id][:0]
		for i := range tr.Children(n) {
			buf = append(buf, n.Child(i))
		}
		w.Spawn(buf...)
		bufs[id] = buf
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for i := range counts {
		n += counts[i].n
	}
	return n, st
}

// utsPool searches tr with a Pool of GOMAXPROCS workers and returns the
// nodes it visited.
func utsPool(b *testing.B, tr uts.Tree) (int64, sched.Stats) {
	p, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
	if err != nil {
		b.Fatal(err)
	}
	var visit func(t *sched.Task, n uts.Node) int64
	// children counts the subtrees of n's children lo to hi-1.
	var children func(t *sched.Task, s utsSpan) int64
	children = func(t *sched.Task, s utsSpan) int64 {
		if s.hi-s.lo == 1 {
			return visit(t, s.n.Child(s.lo))
		}
		mid := s.lo + (s.hi-s.lo)/2
		x, y := sched.Join(t, children, utsSpan{s.n, s.lo, mid}, children, utsSpan{s.n, mid, s.hi})
		return x + y
	}
	visit = func(t *sched.Task, n uts.Node) int64 {
		k := tr.Children(n)
		if k == 0 {
			return 1
		}
		return 1 + children(t, utsSpan{n, 0, k})
	}
	var n int64
	err = p.Do(context.Background(), func(t *sched.Task) error {
		n = visit(t, tr.Root())
		return nil
	})
	p.Close()
	if err != nil {
		b.Fatal(err)
	}
	return n, p.Stats()
}

// utsSpan is the children lo to hi-1 of n.
type utsSpan struct {
	n      uts.Node
	lo, hi int
}
