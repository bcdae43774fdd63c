package bench

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// Work and span of the workloads of BENCHMARKS.md. BenchmarkSpan runs each
// workload measured (sched.Pool.DoMeasured, sched.RunMeasured), one
// measured run per op, apart from the timed benchmarks, which stay
// unmeasured. It reports, of the run of median parallelism:
//
//	metric                 is
//	parallelism            work / span: no number of workers does better
//	burdened-parallelism   work / burdened span
//	work-ns, span-ns       the work and the span
//	burdened-span-ns       the burdened span, with burden-ns a fork
//	blocked-ns             the part of the work in Task.Block's functions
//	speedup-16, -64        the burdened estimate on 16 and 64 workers (Profile.Bounds)
//
// The burden is sched.DefaultBurden, or -span.burden; -span.wallclock
// times the strands by the wall clock (sched.Measure.WallClock), for
// fine tasks on a quiet machine. BenchmarkBurden measures what a steal and
// its join cost this machine, the figure a burden stands for.
//
//	go test -run '^$' -bench 'Span|Burden' -cpu 2 -count 5 ./bench

var (
	spanBurden    = flag.Duration("span.burden", 0, "the burden of BenchmarkSpan's measured runs (0: sched.DefaultBurden)")
	spanWallClock = flag.Bool("span.wallclock", false, "time BenchmarkSpan's strands by the wall clock (sched.Measure.WallClock)")
)

// spanWork is one workload of BenchmarkSpan: run measures it once.
type spanWork struct {
	name string
	// prepare returns the measured run, and what releases what it holds.
	prepare func(m sched.Measure) (run func() sched.Profile, stop func())
}

// doMeasured returns a measured run of f on pool, which panics on an
// error: the workloads check their own results.
func doMeasured(pool *sched.Pool, m sched.Measure, f func(t *sched.Task) error) func() sched.Profile {
	return func() sched.Profile {
		prof, err := pool.DoMeasured(context.Background(), m, f)
		if err != nil {
			panic(err)
		}
		return prof
	}
}

// onPool returns a measured run of f on a new pool (GOMAXPROCS workers,
// in benchMode, as the timed benchmarks' pools), and its Close.
func onPool(m sched.Measure, cfg sched.PoolConfig, f func(t *sched.Task) error) (func() sched.Profile, func()) {
	pool, err := sched.NewPool(cfg)
	if err != nil {
		panic(err)
	}
	return doMeasured(pool, m, f), func() { pool.Close() }
}

func spanWorks() []spanWork {
	var works []spanWork
	for _, fw := range fibWorks {
		works = append(works, spanWork{"forkjoin-" + fw.name, func(m sched.Measure) (func() sched.Profile, func()) {
			var fib func(t *sched.Task, n int) int
			fib = func(t *sched.Task, n int) int {
				if n <= fw.cutoff {
					return fibSerial(n)
				}
				y, x := sched.Join(t, fib, n-2, fib, n-1)
				return x + y
			}
			want := fibSerial(fw.n)
			return onPool(m, sched.PoolConfig{Mode: benchMode}, func(t *sched.Task) error {
				if got := fib(t, fw.n); got != want {
					return fmt.Errorf("fib(%d) = %d, want %d", fw.n, got, want)
				}
				return nil
			})
		}})
	}
	for _, work := range dag.Works {
		for _, mode := range modes {
			works = append(works, spanWork{fmt.Sprintf("dag-%v-%v", work, mode), func(m sched.Measure) (func() sched.Profile, func()) {
				g := dag.Graph{Nodes: *dagNodes, Seed: 1, Fanout: *dagFanout, Work: work, Cost: *dagCost}
				cfg := sched.Config[dag.Node]{Mode: mode, Proportion: *dagP}
				return func() sched.Profile {
					var nodes atomic.Int64
					_, prof, err := sched.RunMeasured(context.Background(), m, cfg, []dag.Node{g.Root()},
						func(_ context.Context, n dag.Node, w *sched.Worker[dag.Node]) error {
							nodes.Add(1)
							dagSink.Add(dag.Spin(g.NodeCost(n.ID), uint64(n.ID)))
							w.Spawn(g.Children(nil, n)...)
							return nil
						})
					if err != nil || nodes.Load() != g.Nodes {
						panic(fmt.Sprintf("bench: the measured DAG handled %d nodes of %d: %v", nodes.Load(), g.Nodes, err))
					}
					return prof
				}, func() {}
			}})
		}
	}
	works = append(works, spanWork{"nqueens", func(m sched.Measure) (func() sched.Profile, func()) {
		const n = 12
		want := queensSerial(n, board{})
		var count func(t *sched.Task, b board) int
		count = func(t *sched.Task, b board) int { // queensPool's count
			if n-b.row <= queensCutoff {
				return queensSerial(n, b)
			}
			var futures [32]sched.Future[int]
			k := 0
			for free := b.free(n); free != 0; free &= free - 1 {
				futures[k] = sched.Fork(t, count, b.place(free&-free))
				k++
			}
			total := 0
			for i := k - 1; i >= 0; i-- {
				total += futures[i].Join(t)
			}
			return total
		}
		return onPool(m, sched.PoolConfig{Mode: benchMode}, func(t *sched.Task) error {
			if got := count(t, board{}); got != want {
				return fmt.Errorf("%d solutions, want %d", got, want)
			}
			return nil
		})
	}})
	for _, w := range loopWorks {
		works = append(works, spanWork{"loop-" + w.name, func(m sched.Measure) (func() sched.Profile, func()) {
			out := make([]uint32, w.n)
			pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
			if err != nil {
				panic(err)
			}
			run := doMeasured(pool, m, func(t *sched.Task) error { // runLoopWsq's loops
				if w.tiles == nil {
					par.ForRange(t, w.n, func(_ *sched.Task, lo, hi int) { w.fill(out, lo, hi, 1) })
					return nil
				}
				par.For(t, len(w.tiles)-1, func(t *sched.Task, j int) {
					base := w.tiles[j]
					par.ForRange(t, w.tiles[j+1]-base, func(_ *sched.Task, lo, hi int) { w.fill(out, base+lo, base+hi, 1) })
				})
				return nil
			})
			return run, func() { pool.Close() }
		}})
	}
	for _, data := range []string{"ints", "strings"} {
		works = append(works, spanWork{"sort-" + data, func(m sched.Measure) (func() sched.Profile, func()) {
			ints, strs := sortData("random")
			x, y := make([]int, len(ints)), make([]string, len(strs))
			pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
			if err != nil {
				panic(err)
			}
			sorted := doMeasured(pool, m, func(t *sched.Task) error {
				if data == "ints" {
					par.Sort(t, x)
				} else {
					par.Sort(t, y)
				}
				return nil
			})
			run := func() sched.Profile {
				copy(x, ints) // outside the measured run, as outside BenchmarkSort's timer
				copy(y, strs)
				prof := sorted()
				if !slices.IsSorted(x) && !slices.IsSorted(y) {
					panic("bench: the measured sort did not sort")
				}
				return prof
			}
			return run, func() { pool.Close() }
		}})
	}
	works = append(works, spanWork{"blockingwalk", func(m sched.Measure) (func() sched.Profile, func()) {
		want := walkSerial(walkRoot)
		return onPool(m, sched.PoolConfig{Mode: benchMode}, func(t *sched.Task) error { // walkPool's walk, in a task's group
			var tally walkTally
			g := t.NewGroup()
			var visit func(t *sched.Task, d walkDir) error
			visit = func(t *sched.Task, d walkDir) error {
				var subdirs []walkDir
				var files, bytes int64
				t.Block(func() { subdirs, files, bytes = d.list(false) })
				tally.add(files, bytes)
				for _, s := range subdirs {
					g.Go(t, func(t *sched.Task) error { return visit(t, s) })
				}
				return nil
			}
			g.Go(t, func(t *sched.Task) error { return visit(t, walkRoot) })
			if err := g.Wait(t); err != nil {
				return err
			}
			if got := tally.count(); got != want {
				return fmt.Errorf("walk counted %+v, want %+v", got, want)
			}
			return nil
		})
	}})
	return works
}

// spanProfiles holds, per workload of BenchmarkSpan, the profile of one
// measured run, made the first time a timed benchmark asks for it.
var spanProfiles sync.Map // workload name -> func() sched.Profile

// spanProfile returns the profile of one measured run of the workload of
// BenchmarkSpan named work, at sched.DefaultBurden on the thread's CPU
// clock, run once per process: the timed benchmarks of the same workload
// call it before their timed loop and report it after (Profile.Report:
// parallelism, burdened-parallelism), so their timed runs stay unmeasured.
// The dag of these workloads is the program's, whatever the schedule, so
// one run at any number of workers stands for all.
func spanProfile(work string) sched.Profile {
	f, ok := spanProfiles.Load(work)
	if !ok {
		f, _ = spanProfiles.LoadOrStore(work, sync.OnceValue(func() sched.Profile {
			for _, w := range spanWorks() {
				if w.name == work {
					run, stop := w.prepare(sched.Measure{})
					defer stop()
					p := run()
					runtime.GC() // the measured run's garbage, not the timed loop's
					return p
				}
			}
			panic("bench: no workload " + work + " in BenchmarkSpan")
		}))
	}
	return f.(func() sched.Profile)()
}

// dagSink keeps the DAG's busy work from being optimized away.
var dagSink atomic.Uint64

func BenchmarkSpan(b *testing.B) {
	m := sched.Measure{Burden: *spanBurden, WallClock: *spanWallClock}
	for _, w := range spanWorks() {
		b.Run("work="+w.name, func(b *testing.B) {
			run, stop := w.prepare(m)
			defer stop()
			var ps []sched.Profile
			for b.Loop() {
				ps = append(ps, run())
			}
			reportProfile(b, ps)
		})
	}
}

// reportProfile reports the profile of median parallelism of ps.
func reportProfile(b *testing.B, ps []sched.Profile) {
	slices.SortFunc(ps, func(x, y sched.Profile) int { return cmpFloat(x.Parallelism(), y.Parallelism()) })
	p := ps[len(ps)/2]
	p.Report(b)
	b.ReportMetric(float64(p.Work.Nanoseconds()), "work-ns")
	b.ReportMetric(float64(p.Span.Nanoseconds()), "span-ns")
	b.ReportMetric(float64(p.BurdenedSpan.Nanoseconds()), "burdened-span-ns")
	b.ReportMetric(float64(p.Burden.Nanoseconds()), "burden-ns")
	b.ReportMetric(float64(p.Blocked.Nanoseconds()), "blocked-ns")
	for _, n := range []int{16, 64} {
		lo, _ := p.Bounds(n)
		b.ReportMetric(lo, "speedup-"+strconv.Itoa(n))
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkBurden measures what moving a fork to another worker adds to
// a path: the time from a Fork to the start of its task on another worker
// (steal), and from the end of that task to the return of its Join
// (join), medians over the ops. The sum is the burden of a fork, which
// sched.DefaultBurden stands for. One op is a round of two forks:
//
//	root, on worker A      forks c1; B takes it; A joins c1, and looks for work meanwhile
//	c1, on worker B        forks c2; A, looking, takes it; B joins c2 as c2 ends
//
// c2's steal and join are a warm migration: the thief, and the joiner,
// look for work when it comes (warm-steal-ns, warm-join-ns, burden-ns).
// c1's are a cold one: B, and then A, may have parked meanwhile, and the
// pool must wake them (cold-steal-ns, cold-join-ns). A task that forks
// polls Task.Demand until its fork starts elsewhere, or gives up after a
// while and takes it back (taken-back-%, rounds that do not count). It
// needs two workers.
//
//	go test -run '^$' -bench Burden -cpu 2 -count 5 ./bench
func BenchmarkBurden(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("a steal needs two workers")
	}
	for _, mode := range modes {
		b.Run(fmt.Sprintf("mode=%v", mode), func(b *testing.B) {
			pool, err := sched.NewPool(sched.PoolConfig{Mode: mode})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			epoch := time.Now()
			now := func() int64 { return int64(time.Since(epoch)) }
			// migrate forks f, waits until its task starts on another
			// worker (or a while), then until the task ends, and joins it.
			// It returns the fork's steal and join, or ok false.
			migrate := func(t *sched.Task, f func(t *sched.Task, _ int)) (steal, join int64, ok bool) {
				var started, ended atomic.Int64
				var other atomic.Bool
				me := t.WorkerID()
				forked := now()
				fut := sched.ForkFunc(t, func(t *sched.Task, _ int) {
					started.Store(now())
					other.Store(t.WorkerID() != me)
					f(t, 0)
					ended.Store(now())
				}, 0)
				for started.Load() == 0 && now()-forked < int64(200*time.Microsecond) {
					t.Demand() // a worker that looks for work gets the fork at once
				}
				fut.Join(t)
				joined := now()
				if !other.Load() {
					return 0, 0, false
				}
				return started.Load() - forked, joined - ended.Load(), true
			}
			var warmSteals, warmJoins, coldSteals, coldJoins []int64
			taken := 0
			rounds := b.N
			b.ResetTimer()
			err = pool.Do(context.Background(), func(t *sched.Task) error {
				for range rounds {
					var ws, wj int64
					var wok bool
					cs, cj, cok := migrate(t, func(t *sched.Task, _ int) {
						ws, wj, wok = migrate(t, func(*sched.Task, int) {
							spinUntil(now, now()+int64(2*time.Microsecond)) // c2's own work
						})
					})
					if !cok || !wok {
						taken++
						continue
					}
					warmSteals, warmJoins = append(warmSteals, ws), append(warmJoins, wj)
					coldSteals, coldJoins = append(coldSteals, cs), append(coldJoins, cj)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			if len(warmSteals) == 0 {
				return // b.N was too small to see a steal; go test asks again with more
			}
			ws, wj := median(warmSteals), median(warmJoins)
			b.ReportMetric(ws, "warm-steal-ns")
			b.ReportMetric(wj, "warm-join-ns")
			b.ReportMetric(ws+wj, "burden-ns")
			b.ReportMetric(median(coldSteals), "cold-steal-ns")
			b.ReportMetric(median(coldJoins), "cold-join-ns")
			b.ReportMetric(100*float64(taken)/float64(rounds), "taken-back-%")
		})
	}
}

// spinUntil spins until the clock now reaches end.
func spinUntil(now func() int64, end int64) {
	for now() < end {
	}
}

// median returns the median of xs, which it sorts.
func median(xs []int64) float64 {
	slices.Sort(xs)
	return float64(xs[len(xs)/2])
}

// BenchmarkSpanCost is what measuring costs a run: each op runs a workload
// unmeasured, then measured (Pool.DoMeasured, RunMeasured), on the same
// pool or configuration, on the thread's CPU clock (clock=cpu, the
// default) or the wall clock. It reports the measured run's time over the
// unmeasured one's (ratio, the median over the ops) and the difference
// per task (extra-ns/task: per fork, or per item of the DAG).
//
//	go test -run '^$' -bench SpanCost -cpu 2 -benchtime 7x ./bench
func BenchmarkSpanCost(b *testing.B) {
	for _, clock := range []string{"cpu", "wall"} {
		m := sched.Measure{WallClock: clock == "wall"}
		for _, fw := range fibWorks {
			b.Run(fmt.Sprintf("work=forkjoin-%s/clock=%s", fw.name, clock), func(b *testing.B) {
				pool, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
				if err != nil {
					b.Fatal(err)
				}
				defer pool.Close()
				var fib func(t *sched.Task, n int) int
				fib = func(t *sched.Task, n int) int {
					if n <= fw.cutoff {
						return fibSerial(n)
					}
					y, x := sched.Join(t, fib, n-2, fib, n-1)
					return x + y
				}
				f := func(t *sched.Task) error { fib(t, fw.n); return nil }
				pairedCost(b, fibForks(fw.n, fw.cutoff),
					func() { _ = pool.Do(context.Background(), f) },
					func() { _, _ = pool.DoMeasured(context.Background(), m, f) })
			})
		}
		b.Run(fmt.Sprintf("work=dag-uniform-master/clock=%s", clock), func(b *testing.B) {
			g := dag.Graph{Nodes: *dagNodes, Seed: 1, Fanout: *dagFanout, Work: dag.Uniform, Cost: *dagCost}
			cfg := sched.Config[dag.Node]{Mode: sched.Master, Proportion: *dagP}
			h := func(_ context.Context, n dag.Node, w *sched.Worker[dag.Node]) error {
				dagSink.Add(dag.Spin(g.NodeCost(n.ID), uint64(n.ID)))
				w.Spawn(g.Children(nil, n)...)
				return nil
			}
			pairedCost(b, g.Nodes,
				func() { _, _ = sched.Run(context.Background(), cfg, []dag.Node{g.Root()}, h) },
				func() { _, _, _ = sched.RunMeasured(context.Background(), m, cfg, []dag.Node{g.Root()}, h) })
		})
	}
}

// pairedCost runs plain, then measured, once per op, and reports their
// ratio and the difference per task, medians over the ops.
func pairedCost(b *testing.B, tasks int64, plain, measured func()) {
	var ratios, extras []float64
	for b.Loop() {
		start := time.Now()
		plain()
		p := time.Since(start)
		start = time.Now()
		measured()
		m := time.Since(start)
		ratios = append(ratios, float64(m)/float64(p))
		extras = append(extras, float64(m-p)/float64(tasks))
	}
	slices.Sort(ratios)
	slices.Sort(extras)
	b.ReportMetric(ratios[len(ratios)/2], "ratio")
	b.ReportMetric(extras[len(extras)/2], "extra-ns/task")
}
