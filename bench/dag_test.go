package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/schedstats"
	"github.com/worksteal/wsq/sched"
)

// The DAG exploration of the paper: the scheduler of package sched explores
// the implicit graph of package dag with every queue of the catalog, in both
// balancing modes, with uniform and irregular node costs, at 1 to
// GOMAXPROCS workers. Every run checks that each node was handled exactly
// once (dag.Explore fails otherwise) and the benchmark stops at the first
// failure.
//
// Sizes come from flags or, for runs over several packages such as CI's,
// from environment variables:
//
//	go test -run '^$' -bench DAG ./bench -dag.nodes 2500000
//	WSQ_DAG_NODES=2000 go test -run '^$' -bench DAG -benchtime 1x ./...
var (
	dagNodes       = flag.Int64("dag.nodes", int64(envInt("WSQ_DAG_NODES", dag.SmallNodes)), "nodes in the graph of BenchmarkDAG (the paper: 2500000 and 300000000); env WSQ_DAG_NODES")
	dagCost        = flag.Int("dag.cost", envInt("WSQ_DAG_COST", dag.DefaultCost), "mean spin iterations per node, 0 for none; env WSQ_DAG_COST")
	dagFanout      = flag.Int("dag.fanout", envInt("WSQ_DAG_FANOUT", dag.DefaultFanout), "mean children per inner node; env WSQ_DAG_FANOUT")
	dagP           = flag.Float64("dag.p", envFloat("WSQ_DAG_P", 0.5), "steal proportion (0.5: half, what Run takes for a zero Proportion); env WSQ_DAG_P")
	dagMasterNodes = flag.Int64("dag.master.nodes", int64(envInt("WSQ_DAG_MASTER_NODES", 20_000)), "nodes (the root and its leaves) in BenchmarkMasterCapacity; env WSQ_DAG_MASTER_NODES")
	dagWorkers     = flag.String("dag.workers", os.Getenv("WSQ_DAG_WORKERS"), "comma-separated worker counts (default 1, the powers of two below GOMAXPROCS, and GOMAXPROCS); env WSQ_DAG_WORKERS")
)

func envInt(name string, def int) int {
	if s := os.Getenv(name); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			panic(fmt.Sprintf("bench: %s=%q is not an integer", name, s))
		}
		return v
	}
	return def
}

func envFloat(name string, def float64) float64 {
	if s := os.Getenv(name); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			panic(fmt.Sprintf("bench: %s=%q is not a number", name, s))
		}
		return v
	}
	return def
}

// workerCounts returns the worker counts of the DAG benchmarks: the
// -dag.workers list, or 1, 2, 4, ... below GOMAXPROCS, and GOMAXPROCS.
func workerCounts(b *testing.B) []int {
	if *dagWorkers != "" {
		var ks []int
		for _, f := range strings.Split(*dagWorkers, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || k < 1 {
				b.Fatalf("bad -dag.workers entry %q", f)
			}
			ks = append(ks, k)
		}
		return ks
	}
	procs := runtime.GOMAXPROCS(0)
	var ks []int
	for k := 1; k < procs; k *= 2 {
		ks = append(ks, k)
	}
	return append(ks, procs)
}

// modes are the balancing modes, in the order the reports show them.
var modes = []sched.Mode{sched.Master, sched.Random}

func dagQueue(name string) func() wsq.Queue[dag.Node] {
	return func() wsq.Queue[dag.Node] {
		q, err := catalog.New[dag.Node](name)
		if err != nil {
			panic(err) // the name comes from catalog.Names
		}
		return q
	}
}

// dagTotals adds up the runs of one sub-benchmark.
type dagTotals struct {
	runs, nodes, steals, moved int64
	elapsed, idle, busy, wait  time.Duration
	workers                    int
}

func (t *dagTotals) add(r dag.Result) {
	t.runs++
	t.nodes += r.Nodes
	t.steals += r.Stats.Steals
	t.moved += r.Stats.Moved
	t.elapsed += r.Elapsed
	t.idle += r.Stats.IdleWait
	d := schedstats.Of(r.Stats)
	t.busy += d.MasterBusy
	t.wait += d.MasterWait
	t.workers = len(r.Stats.PerWorker)
}

func perSteal(d time.Duration, steals int64) float64 {
	if steals == 0 {
		return 0
	}
	return float64(d.Nanoseconds()) / float64(steals)
}

func percent(part, whole time.Duration) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * part.Seconds() / whole.Seconds()
}

// explore runs the graph with cfg b.N times (the sub-benchmark's loop) and
// returns the totals; it fails the benchmark at the first run that is not
// exactly-once.
func explore(b *testing.B, g dag.Graph, cfg sched.Config[dag.Node]) dagTotals {
	b.ReportAllocs()
	var t dagTotals
	for b.Loop() {
		r, err := dag.Explore(context.Background(), g, cfg, dag.Options{})
		if err != nil {
			b.Fatal(err)
		}
		t.add(r)
	}
	b.ReportMetric(float64(t.nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(t.steals)/float64(t.runs), "steals/run")
	b.ReportMetric(float64(t.moved)/float64(t.runs), "moved/run")
	b.ReportMetric(percent(t.idle, time.Duration(t.workers)*t.elapsed), "idle-%")
	return t
}

// BenchmarkDAG explores a graph of -dag.nodes nodes; one op is one whole
// exploration. Metrics: nodes/s, steals and items moved per exploration, and
// the share of worker time spent idle; in master mode also the master's time
// per hand-off and the share of the run it was busy; and the graph's
// parallelism and burdened-parallelism, from one measured run of
// BenchmarkSpan's workload of the same work and mode before the timed
// runs (spanProfile).
func BenchmarkDAG(b *testing.B) {
	for _, q := range catalog.Names() {
		for _, mode := range modes {
			for _, work := range dag.Works {
				for _, k := range workerCounts(b) {
					name := fmt.Sprintf("queue=%s/mode=%v/work=%v/workers=%d", q, mode, work, k)
					b.Run(name, func(b *testing.B) {
						prof := spanProfile(fmt.Sprintf("dag-%v-%v", work, mode))
						g := dag.Graph{Nodes: *dagNodes, Seed: 1, Fanout: *dagFanout, Work: work, Cost: *dagCost}
						cfg := sched.Config[dag.Node]{NewQueue: dagQueue(q), Mode: mode, Workers: k, Proportion: *dagP}
						t := explore(b, g, cfg)
						if mode == sched.Master {
							b.ReportMetric(perSteal(t.busy, t.steals), "master-ns/steal")
							b.ReportMetric(percent(t.busy, t.elapsed), "master-busy-%")
						}
						prof.Report(b)
					})
				}
			}
		}
	}
}

// BenchmarkMasterCapacity measures what one master can serve. The graph is a
// star: the root spawns -dag.master.nodes-1 leaves in one batch, the leaves
// cost nothing, and every hand-off moves a single item (the smallest
// proportion). So the workers run dry as soon as they get work, the master is
// the bottleneck, and the run measures the master's hand-off rate with a
// victim queue of up to that many items (a queue whose steal walks the items
// that stay, such as lfqueue's basic steal, pays for their number). Metrics:
// steals/s of wall-clock time (what the master delivered), capacity-steals/s
// (hand-offs per second of the master's busy time), master-ns/steal (its
// time per hand-off), wait-ns/steal (how long an idle worker waited for its
// hand-off) and master-busy-%.
func BenchmarkMasterCapacity(b *testing.B) {
	for _, q := range catalog.Names() {
		for _, k := range workerCounts(b) {
			b.Run(fmt.Sprintf("queue=%s/workers=%d", q, k), func(b *testing.B) {
				n := *dagMasterNodes
				g := dag.Graph{Nodes: n, Seed: 1, Fanout: int(n)} // no busy work; Fanout n: the root's children are all leaves
				cfg := sched.Config[dag.Node]{NewQueue: dagQueue(q), Mode: sched.Master, Workers: k, Proportion: wsq.OneItem}
				t := explore(b, g, cfg)
				b.ReportMetric(float64(t.steals)/t.elapsed.Seconds(), "steals/s")
				if t.busy > 0 {
					b.ReportMetric(float64(t.steals)/t.busy.Seconds(), "capacity-steals/s")
				}
				b.ReportMetric(perSteal(t.busy, t.steals), "master-ns/steal")
				b.ReportMetric(perSteal(t.wait, t.steals), "wait-ns/steal")
				b.ReportMetric(percent(t.busy, t.elapsed), "master-busy-%")
			})
		}
	}
}

// BenchmarkDAGCeiling is the reference for BenchmarkDAG's speedups: the same
// busy work as one exploration of the graph (-dag.nodes times the mean
// -dag.cost spin iterations) split evenly over K goroutines that share
// nothing, no queues and no scheduler. At each K its time is about the
// least any exploration can take, since an exploration does this work and
// more; its speedup over one goroutine shows the parallelism the machine
// offered, but bounds a queue's speedup only in expectation, and not with
// few, short samples. On a shared or oversubscribed machine it is well below
// K.
func BenchmarkDAGCeiling(b *testing.B) {
	cost := (dag.Graph{Cost: *dagCost}).NodeCost(0) // the mean (uniform) cost
	total := *dagNodes * int64(cost)
	for _, k := range workerCounts(b) {
		b.Run(fmt.Sprintf("workers=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			sums := make([]uint64, k*8) // one cache line apart
			for b.Loop() {
				done := make(chan struct{})
				for i := range k {
					go func() {
						share := total / int64(k)
						if i == 0 {
							share += total % int64(k)
						}
						sums[i*8] += dag.Spin(int(share), uint64(i))
						done <- struct{}{}
					}()
				}
				for range k {
					<-done
				}
			}
			b.ReportMetric(float64(*dagNodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
