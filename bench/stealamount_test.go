package bench

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/sched"
)

// BenchmarkStealAmount runs the scheduler's workloads with each way of
// choosing how much a steal takes: the scheduler's own choice (steal=auto,
// Config.Proportion zero; sched's Load balancing states the rule), one
// item (one), and the fixed proportions 0.1, 0.5 and 0.9, in both modes,
// with GOMAXPROCS workers and blockq queues.
// One op is one whole run. The workloads:
//
//	dag-uniform, dag-pareto  DAG exploration of -dag.nodes nodes (uniform
//	                         or Pareto node costs), with sched.Run
//	fj-fine-pool, -join      fib(27), a task per call: Fork and Join, or
//	                         sched.Join
//	fj-coarse-pool, -join    fib(34), cutoff 17
//	nqueens                  12 queens on a Pool, a task per queen down to
//	                         the last 9 rows
//	walk                     BlockingWalk's directory walk on a default
//	                         Pool (Task.Block)
//	flat                     a task forks flatTasks tiny tasks in a loop and
//	                         joins them: a producer whose queue grows in a
//	                         burst of small items
//
// Every run checks its result. Compare the steal settings of one workload
// and mode within one run, in interleaved rounds:
//
//	go test -run '^$' -bench StealAmount -benchtime 5x -count 6 ./bench
func BenchmarkStealAmount(b *testing.B) {
	for _, work := range stealWorks() {
		for _, mode := range modes {
			for _, st := range stealChoices {
				b.Run(fmt.Sprintf("work=%s/mode=%v/steal=%s", work.name, mode, st.name), func(b *testing.B) {
					run, stop := work.prepare(b, st.config(mode))
					defer stop()
					b.ReportAllocs()
					for b.Loop() {
						run()
					}
				})
			}
		}
	}
}

// stealChoice is one way of choosing how much a steal takes.
type stealChoice struct {
	name     string
	p        float64
	stealOne bool
}

// stealChoices are the settings BenchmarkStealAmount compares.
var stealChoices = []stealChoice{
	{name: "auto"},
	{name: "one", p: wsq.OneItem, stealOne: true},
	{name: "0.1", p: 0.1},
	{name: "0.5", p: 0.5},
	{name: "0.9", p: 0.9},
}

// config returns a Pool's configuration with the choice, in mode.
func (c stealChoice) config(mode sched.Mode) sched.PoolConfig {
	return sched.PoolConfig{Mode: mode, Proportion: c.p, StealOne: c.stealOne}
}

// stealWork is one workload of BenchmarkStealAmount: prepare makes its
// scheduler as cfg says (for a Run, cfg's mode and steal settings) and
// returns one run of it, which fails b if its result is wrong.
type stealWork struct {
	name    string
	prepare func(b *testing.B, cfg sched.PoolConfig) (run func(), stop func())
}

// flatTasks is how many tiny tasks the flat workload forks.
const flatTasks = 50_000

func stealWorks() []stealWork {
	dagWork := func(w dag.Work) func(*testing.B, sched.PoolConfig) (func(), func()) {
		return func(b *testing.B, pc sched.PoolConfig) (func(), func()) {
			g := dag.Graph{Nodes: *dagNodes, Seed: 1, Fanout: *dagFanout, Work: w, Cost: *dagCost}
			cfg := sched.Config[dag.Node]{NewQueue: dagQueue("bq"), Mode: pc.Mode, Proportion: pc.Proportion, StealOne: pc.StealOne}
			return func() {
				if _, err := dag.Explore(context.Background(), g, cfg, dag.Options{}); err != nil {
					b.Fatal(err)
				}
			}, func() {}
		}
	}
	fibWork := func(w fibWork, join bool) func(*testing.B, sched.PoolConfig) (func(), func()) {
		return func(b *testing.B, cfg sched.PoolConfig) (func(), func()) {
			want := fibSerial(w.n)
			fib, pool := fibOnPool(cfg, w.cutoff, join)
			return func() {
				if got := fib(w.n); got != want {
					b.Fatalf("fib(%d) = %d, want %d", w.n, got, want)
				}
			}, func() { pool.Close() }
		}
	}
	return []stealWork{
		{"dag-uniform", dagWork(dag.Uniform)},
		{"dag-pareto", dagWork(dag.Irregular)},
		{"fj-fine-pool", fibWork(fibWorks[0], false)},
		{"fj-fine-join", fibWork(fibWorks[0], true)},
		{"fj-coarse-pool", fibWork(fibWorks[1], false)},
		{"fj-coarse-join", fibWork(fibWorks[1], true)},
		{"nqueens", func(b *testing.B, cfg sched.PoolConfig) (func(), func()) {
			const n = 12
			want := queensSerial(n, board{})
			count, stop := queensPool(cfg)
			return func() {
				if got := count(n); got != want {
					b.Fatalf("%d solutions, want %d", got, want)
				}
			}, stop
		}},
		{"walk", func(b *testing.B, cfg sched.PoolConfig) (func(), func()) {
			want := walkSerial(walkRoot)
			walk, stop := walkPool(cfg, false, true)
			return func() {
				if got := walk(walkRoot); got != want {
					b.Fatalf("the walk counted %+v, want %+v", got, want)
				}
			}, stop
		}},
		{"flat", func(b *testing.B, cfg sched.PoolConfig) (func(), func()) {
			pool, err := sched.NewPool(cfg)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]uint64, flatTasks)
			var ran atomic.Int64
			task := func(_ *sched.Task, i int) {
				tinyTask(out, i)
				ran.Add(1)
			}
			return func() {
				ran.Store(0)
				err := pool.Do(context.Background(), func(t *sched.Task) error {
					fs := make([]sched.Future[struct{}], flatTasks)
					for i := range fs {
						fs[i] = sched.ForkFunc(t, task, i)
					}
					for i := len(fs) - 1; i >= 0; i-- {
						fs[i].Join(t)
					}
					return nil
				})
				if err != nil || ran.Load() != flatTasks {
					b.Fatalf("%d of %d tasks ran (%v)", ran.Load(), flatTasks, err)
				}
			}, func() { pool.Close() }
		}},
	}
}
