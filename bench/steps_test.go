package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/bench/steps"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// BenchmarkSteps is Task Bench's loop of steps (package steps): T steps of
// W points, each step started and waited for before the next, for each
// pattern, width and task size (grain: the kernel's time, calibrated
// once). The implementations:
//
//   - serial: the points in order, on one goroutine;
//   - group: per step, a Group of a Pool (Task.NewGroup), Go per point,
//     Wait: what a Go programmer coming from errgroup writes;
//   - fork: per step, ForkFunc for every point but the first, the first
//     run in place, then the joins;
//   - for: per step, par.For over the points;
//   - goroutines: per step, a goroutine per point and a sync.WaitGroup;
//   - errgroup: per step, an errgroup.Group, Go per point, Wait.
//
// The pools have GOMAXPROCS workers in the default configuration, or in
// the mode -sched.mode names. An op runs the whole loop of steps, about
// 20 ms of kernels, and the last op's result is checked against a serial
// run. Each row reports, besides ns/op:
//
//   - efficiency: the kernels' time over GOMAXPROCS × the op's time, as
//     Task Bench reports it (1 is every processor busy with kernels);
//
//   - granularity-us: the op's time × GOMAXPROCS ÷ the tasks, Task Bench's
//     task granularity: METG(50 %) is the smallest granularity at which
//     the efficiency is still 0.5 (bench/report's steps table);
//
//   - steals/step and idle (the workers' share of time looking for work),
//     for the Pool rows.
//
//     go test -run '^$' -bench 'Steps' -benchtime 1x -count 5 ./bench
func BenchmarkSteps(b *testing.B) {
	iter := stepsCalibration()
	for _, p := range steps.Patterns {
		for _, w := range stepsWidths {
			for _, grain := range stepsGrains {
				tasksPerStep := w // a tree's first steps are narrower: see Tasks
				n := max(10, min(5000, int(stepsWork/(time.Duration(tasksPerStep)*grain))))
				g := steps.Graph{Pattern: p, Width: w, Steps: n, Iterations: max(1, int(float64(grain.Nanoseconds())/iter))}
				want := g.Serial()
				for _, impl := range stepsImpls {
					name := fmt.Sprintf("pattern=%v/width=%d/grain=%s/impl=%s", p, w, stepsGrainName(grain), impl)
					b.Run(name, func(b *testing.B) { runSteps(b, g, impl, want, iter) })
				}
			}
		}
	}
}

// The sizes of BenchmarkSteps: its widths, its task sizes (the issue's
// shapes among them: 2 points of about 90 µs, 8 of about 22 µs), and the
// kernels' time of one op.
var (
	stepsWidths = []int{2, 8}
	stepsGrains = []time.Duration{
		250 * time.Nanosecond, 500 * time.Nanosecond, time.Microsecond, 2 * time.Microsecond, 4 * time.Microsecond, 8 * time.Microsecond,
		16 * time.Microsecond, 22 * time.Microsecond, 32 * time.Microsecond, 64 * time.Microsecond,
		90 * time.Microsecond, 128 * time.Microsecond, 256 * time.Microsecond,
	}
	stepsImpls = []string{"serial", "group", "fork", "for", "goroutines", "errgroup"}
)

// stepsWork is the kernels' time of one op of BenchmarkSteps.
const stepsWork = 20 * time.Millisecond

// stepsGrainName names a grain in whole microseconds, 90us, or below one
// in nanoseconds, 250ns.
func stepsGrainName(d time.Duration) string {
	if d < time.Microsecond {
		return fmt.Sprintf("%dns", d.Nanoseconds())
	}
	return fmt.Sprintf("%dus", d/time.Microsecond)
}

// stepsCalibration returns the time of one dag.Spin round in nanoseconds,
// measured once per process: the least of three measurements, as Task
// Bench takes a kernel's peak from its best run.
var stepsCalibration = sync.OnceValue(func() float64 {
	best := dag.Calibrate(20 * time.Millisecond)
	for range 2 {
		best = min(best, dag.Calibrate(20*time.Millisecond))
	}
	return best
})

// runSteps runs one sub-benchmark of BenchmarkSteps: impl over g, whose
// serial run is want; iter is a kernel round's time in nanoseconds.
func runSteps(b *testing.B, g steps.Graph, impl string, want *steps.Run, iter float64) {
	var pool *sched.Pool
	if impl != "serial" && impl != "goroutines" && impl != "errgroup" {
		var err error
		if pool, err = sched.NewPool(sched.PoolConfig{Mode: benchMode}); err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
	}
	run := stepsRunner(g, impl, pool)
	var r *steps.Run
	var before sched.Stats
	if pool != nil {
		before = pool.Stats()
	}
	b.ResetTimer()
	for range b.N {
		r = g.NewRun()
		run(r)
	}
	b.StopTimer()
	if err := r.Check(want); err != nil {
		b.Fatalf("%s: %v", impl, err)
	}
	procs := float64(runtime.GOMAXPROCS(0))
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	tasks := float64(g.Tasks())
	kernels := tasks * float64(g.Iterations) * iter
	b.ReportMetric(kernels/(procs*perOp), "efficiency")
	b.ReportMetric(perOp*procs/tasks/1e3, "granularity-us")
	if pool != nil {
		st := pool.Stats()
		steps := float64(b.N) * float64(g.Steps)
		b.ReportMetric(float64(st.Steals-before.Steals)/steps, "steals/step")
		idle := (st.IdleWait - before.IdleWait).Seconds()
		b.ReportMetric(idle/(procs*b.Elapsed().Seconds()), "idle")
	}
}

// stepsRunner returns the loop of steps of impl over g: a function that
// computes every point of a run.
func stepsRunner(g steps.Graph, impl string, pool *sched.Pool) func(r *steps.Run) {
	ctx := context.Background()
	switch impl {
	case "serial":
		return func(r *steps.Run) {
			for t := range g.Steps {
				for i := range g.WidthAt(t) {
					r.Point(t, i)
				}
			}
		}
	case "group":
		return func(r *steps.Run) {
			_ = pool.Do(ctx, func(tk *sched.Task) error {
				for t := range g.Steps {
					grp := tk.NewGroup()
					for i := range g.WidthAt(t) {
						grp.Go(tk, func(*sched.Task) error { r.Point(t, i); return nil })
					}
					if err := grp.Wait(tk); err != nil {
						return err
					}
				}
				return nil
			})
		}
	case "fork":
		return func(r *steps.Run) {
			fs := make([]sched.Future[struct{}], g.Width)
			_ = pool.Do(ctx, func(tk *sched.Task) error {
				for t := range g.Steps {
					w := g.WidthAt(t)
					for i := 1; i < w; i++ {
						fs[i] = sched.ForkFunc(tk, stepPoint, stepArg{r, t, i})
					}
					r.Point(t, 0)
					for i := w - 1; i >= 1; i-- {
						fs[i].Join(tk)
					}
				}
				return nil
			})
		}
	case "for":
		return func(r *steps.Run) {
			_ = pool.Do(ctx, func(tk *sched.Task) error {
				for t := range g.Steps {
					par.For(tk, g.WidthAt(t), func(_ *sched.Task, i int) { r.Point(t, i) })
				}
				return nil
			})
		}
	case "goroutines":
		return func(r *steps.Run) {
			var wg sync.WaitGroup
			for t := range g.Steps {
				for i := range g.WidthAt(t) {
					wg.Add(1)
					go func() {
						defer wg.Done()
						r.Point(t, i)
					}()
				}
				wg.Wait()
			}
		}
	case "errgroup":
		return func(r *steps.Run) {
			for t := range g.Steps {
				var eg errgroup.Group
				for i := range g.WidthAt(t) {
					eg.Go(func() error { r.Point(t, i); return nil })
				}
				_ = eg.Wait()
			}
		}
	}
	panic("bench: no steps implementation " + impl)
}

// stepArg is a point of a run, the argument of stepPoint.
type stepArg struct {
	r    *steps.Run
	t, i int
}

// stepPoint computes a point: the task that the fork rows fork, a
// function value made once.
func stepPoint(_ *sched.Task, a stepArg) { a.r.Point(a.t, a.i) }
