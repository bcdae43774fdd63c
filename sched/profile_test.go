package sched_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// TestMeasureChain: a task that forks a schedtest.Leaf and joins it, k times in a
// row, is a chain: parallelism 1, and each fork's schedtest.Burden on the path.
func TestMeasureChain(t *testing.T) {
	const k = 8
	for _, w := range schedtest.Workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			schedtest.DoShape(t, schedtest.MeasuredPool(t, w), schedtest.Burden, func(t *sched.Task) error {
				for range k {
					sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(schedtest.Leaf) }, 0).Join(t)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64(k), prof.Forks)
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, k*schedtest.Burden)
				assert.Zero(t, prof.Blocked)
			}, schedtest.Parallelism(1, 0.95, 1.05), schedtest.Work(k*schedtest.Leaf, 0.95, 1.3),
				schedtest.BurdenOnPath(k*schedtest.Burden, 1)) // each fork's burden is on the path
		})
	}
}

// TestMeasureSerial: a task that forks nothing has its work as its span.
func TestMeasureSerial(t *testing.T) {
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(*sched.Task) error {
		schedtest.Burn(4 * schedtest.Leaf)
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, prof.Span, prof.BurdenedSpan)
		assert.Equal(t, prof.Work, prof.Span)
		assert.Zero(t, prof.Forks)
	}, schedtest.Work(4*schedtest.Leaf, 0.95, 1.3))
}

// TestMeasureLeaves: n equal leaves forked at once, then joined, have a
// parallelism of about n, whatever the number of workers.
func TestMeasureLeaves(t *testing.T) {
	const n = 8
	for _, w := range schedtest.Workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			schedtest.DoShape(t, schedtest.MeasuredPool(t, w), schedtest.Burden, func(t *sched.Task) error {
				fs := make([]sched.Future[struct{}], n)
				for i := range fs {
					fs[i] = sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(2 * schedtest.Leaf) }, i)
				}
				for _, f := range fs {
					f.Join(t)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64(n), prof.Forks)
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, schedtest.Burden)
			}, schedtest.Parallelism(n, 0.75, 1.05), schedtest.Work(2*n*schedtest.Leaf, 0.95, 1.3),
				schedtest.BurdenOnPath(schedtest.Burden, 1)) // the longest paths end in a leaf, one fork after the root
		})
	}
}

// fibCalls returns the calls of fib(n): 2·fib(n+1) - 1.
func fibCalls(n int) int {
	a, b := 0, 1
	for range n + 1 {
		a, b = b, a+b
	}
	return 2*a - 1
}

// TestMeasureFib: fib(n) by Fork and by Join, each call spinning c. The
// work is exponential in n, the span linear: n calls on its longest
// path, and n-1 forks on it.
func TestMeasureFib(t *testing.T) {
	const n = 6
	const c = schedtest.Leaf * 4 / 5
	byFork := func(fib func(*sched.Task, int) int) func(*sched.Task, int) int {
		return func(t *sched.Task, n int) int {
			schedtest.Burn(c)
			if n < 2 {
				return n
			}
			x := sched.Fork(t, fib, n-1)
			y := fib(t, n-2)
			return x.Join(t) + y
		}
	}
	byJoin := func(fib func(*sched.Task, int) int) func(*sched.Task, int) int {
		return func(t *sched.Task, n int) int {
			schedtest.Burn(c)
			if n < 2 {
				return n
			}
			y, x := sched.Join(t, fib, n-2, fib, n-1)
			return x + y
		}
	}
	calls := fibCalls(n)
	for name, mk := range map[string]func(func(*sched.Task, int) int) func(*sched.Task, int) int{"fork": byFork, "join": byJoin} {
		t.Run(name, func(t *testing.T) {
			var fib func(*sched.Task, int) int
			fib = mk(func(t *sched.Task, n int) int { return fib(t, n) })
			schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
				if got := fib(t, n); got != 8 {
					return fmt.Errorf("fib(%d) = %d", n, got)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64((calls-1)/2), prof.Forks)
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, (n-1)*schedtest.Burden, "at most n-1 forks on a path")
			},
				schedtest.Work(time.Duration(calls)*c, 0.95, 1.3), schedtest.Span(n*c, 0.95, 1.3),
				schedtest.Parallelism(float64(calls)/n, 0.75, 1.1),
				schedtest.BurdenOnPath((n-1)*schedtest.Burden, 0.9))
		})
	}
}

// TestMeasureGroup: the tasks of a Group are forks of the task that
// starts them, joined by its Wait.
func TestMeasureGroup(t *testing.T) {
	const n = 8
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
		g := t.NewGroup()
		for range n {
			g.Go(t, func(*sched.Task) error { schedtest.Burn(2 * schedtest.Leaf); return nil })
		}
		return g.Wait(t)
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(n), prof.Forks)
		assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, schedtest.Burden)
	}, schedtest.Parallelism(n, 0.75, 1.05), schedtest.Work(2*n*schedtest.Leaf, 0.95, 1.3), schedtest.BurdenOnPath(schedtest.Burden, 1))
}

// TestMeasureImplicitWait: forks and groups that a task leaves to its
// end count as if it joined them there.
func TestMeasureImplicitWait(t *testing.T) {
	const n = 4
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
		g := t.NewGroup()
		for range n {
			sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(2 * schedtest.Leaf) }, 0)
			g.Go(t, func(*sched.Task) error { schedtest.Burn(2 * schedtest.Leaf); return nil })
		}
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(2*n), prof.Forks)
	}, schedtest.Parallelism(2*n, 0.75, 1.05), schedtest.Work(4*n*schedtest.Leaf, 0.95, 1.3))
}

// TestMeasureBlock: the time in Task.Block's functions is work, on its
// path, and Blocked besides.
func TestMeasureBlock(t *testing.T) {
	const n = 8
	const d = 2 * time.Millisecond
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
		g := t.NewGroup()
		for range n {
			g.Go(t, func(t *sched.Task) error {
				t.Block(func() { time.Sleep(d) })
				return nil
			})
		}
		return g.Wait(t)
	}, func(prof sched.Profile) {
		assert.GreaterOrEqual(t, prof.Blocked, n*d)
		assert.LessOrEqual(t, prof.Blocked, prof.Work)
	},
		schedtest.Expect{What: "blocked / work", Got: func(p sched.Profile) float64 { return float64(p.Blocked) / float64(p.Work) }, Want: 1, Lo: 0.95, Hi: 1},
		schedtest.Parallelism(n, 0.6, 1.05))
}

// TestMeasureSiblingJoin: a task that joins its sibling's Future waits
// for it, but the work counts once, at the forking task's join.
func TestMeasureSiblingJoin(t *testing.T) {
	schedtest.DoShape(t, schedtest.MeasuredPool(t, 2), schedtest.Burden, func(t *sched.Task) error {
		a := sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(2 * schedtest.Leaf) }, 0)
		sched.ForkFunc(t, func(t *sched.Task, _ int) {
			a.Join(t)
			schedtest.Burn(2 * schedtest.Leaf)
		}, 0)
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(2), prof.Forks)
	}, schedtest.Work(4*schedtest.Leaf, 0.95, 1.3), schedtest.Span(4*schedtest.Leaf, 0.95, 1.3))
}

// TestRunMeasured: the items of Run are strands, and a spawn a fork.
func TestRunMeasured(t *testing.T) {
	type item struct{ depth, width int }
	for _, sh := range []struct {
		name        string
		root        item
		items, path int // items in all, and on the longest path
	}{
		{"chain", item{8, 1}, 8, 8},
		{"star", item{2, 16}, 17, 2},
		{"tree", item{4, 2}, 15, 4},
	} {
		t.Run(sh.name, func(t *testing.T) {
			schedtest.MeasureShape(t, func() sched.Profile {
				var handled atomic.Int64
				st, prof, err := sched.RunMeasured(context.Background(), sched.Measure{Burden: schedtest.Burden}, sched.Config[item]{Workers: 2}, []item{sh.root},
					func(_ context.Context, it item, w *sched.Worker[item]) error {
						schedtest.Burn(schedtest.Leaf)
						handled.Add(1)
						if it.depth > 1 {
							kids := make([]item, it.width)
							for i := range kids {
								kids[i] = item{it.depth - 1, it.width}
							}
							w.Spawn(kids...)
						}
						return nil
					})
				require.NoError(t, err)
				require.Equal(t, int64(sh.items), handled.Load())
				assert.Equal(t, int64(sh.items), st.Processed)
				return prof
			}, func(prof sched.Profile) {
				assert.Equal(t, int64(sh.items-1), prof.Forks)
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, time.Duration(sh.path-1)*schedtest.Burden)
			}, schedtest.Parallelism(float64(sh.items)/float64(sh.path), 0.75, 1.05), schedtest.Work(time.Duration(sh.items)*schedtest.Leaf, 0.95, 1.3),
				schedtest.BurdenOnPath(time.Duration(sh.path-1)*schedtest.Burden, 1)) // a burden per spawn on the path
		})
	}
}

// TestRunMeasuredErrors: RunMeasured refuses what Run refuses, and
// returns a handler's error.
func TestRunMeasuredErrors(t *testing.T) {
	_, _, err := sched.RunMeasured[int](context.Background(), sched.Measure{}, sched.Config[int]{}, nil, nil)
	assert.Error(t, err)
	_, _, err = sched.RunMeasured(context.Background(), sched.Measure{}, sched.Config[int]{Workers: -1}, nil,
		func(context.Context, int, *sched.Worker[int]) error { return nil })
	assert.Error(t, err)
	boom := fmt.Errorf("boom")
	_, _, err = sched.RunMeasured(context.Background(), sched.Measure{}, sched.Config[int]{Workers: 2}, []int{1, 2, 3},
		func(context.Context, int, *sched.Worker[int]) error { return boom })
	assert.ErrorIs(t, err, boom)
}

// TestMeasureBurdenSource: the schedtest.Burden is DefaultBurden unless set, and the
// profile says which.
func TestMeasureBurdenSource(t *testing.T) {
	p := schedtest.MeasuredPool(t, 1)
	nop := func(*sched.Task) error { return nil }
	prof, err := p.DoMeasured(context.Background(), sched.Measure{}, nop)
	require.NoError(t, err)
	assert.Equal(t, sched.DefaultBurden, prof.Burden)
	assert.Equal(t, "sched.DefaultBurden", prof.BurdenFrom)
	prof, err = p.DoMeasured(context.Background(), sched.Measure{Burden: time.Millisecond}, nop)
	require.NoError(t, err)
	assert.Equal(t, time.Millisecond, prof.Burden)
	assert.Equal(t, "Measure.Burden", prof.BurdenFrom)
	assert.Equal(t, 1, prof.Workers)
}

// TestMeasureOnlyItsRun: a run measured while another runs unmeasured on
// the same pool counts its own forks alone, and the other's results stay
// right.
func TestMeasureOnlyItsRun(t *testing.T) {
	p := schedtest.MeasuredPool(t, 2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			var r int
			assert.NoError(t, p.Do(context.Background(), func(t *sched.Task) error { r = fibJoin(t, 15); return nil }))
			assert.Equal(t, fibSerial(15), r)
		}
	}()
	for range schedtest.MeasuredRuns {
		prof, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
			fs := make([]sched.Future[struct{}], 8)
			for i := range fs {
				fs[i] = sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(schedtest.Leaf / 4) }, i)
			}
			for _, f := range fs {
				f.Join(t)
			}
			return nil
		})
		require.NoError(t, err)
		assert.Equal(t, int64(8), prof.Forks)
	}
	close(stop)
	wg.Wait()
}

// TestMeasureFineStrands runs four measured runs of fib(20), a fork per
// call, at once on two workers, beside plain Do calls: strands far
// shorter than a clock's reading, which the clock's cost taken off each
// could make negative. Every profile's span is at least its longest
// strand, and so not zero when its work is not, and its work is at least
// its span.
func TestMeasureFineStrands(t *testing.T) {
	p := schedtest.MeasuredPool(t, 2)
	runs := testenv.Size(20, 20, 100)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 * runs {
				assert.NoError(t, p.Do(context.Background(), func(t *sched.Task) error { fibJoin(t, 15); return nil }))
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range runs {
				prof, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error { fib(t, 20); return nil })
				assert.NoError(t, err)
				assert.GreaterOrEqual(t, prof.Work, prof.Span, "work below the span")
				if prof.Work > 0 {
					assert.Positive(t, prof.Span, "a span of zero with work %v", prof.Work)
				}
			}
		}()
	}
	wg.Wait()
}

// TestMeasurePanic: a measured run that panics panics as Do does, and the
// pool measures its next run as before.
func TestMeasurePanic(t *testing.T) {
	p := schedtest.MeasuredPool(t, 2)
	v := schedtest.PanicValue(t, func() {
		_, _ = p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
			sched.ForkFunc(t, func(*sched.Task, int) { panic("boom") }, 0).Join(t)
			return nil
		})
	})
	assert.Equal(t, "boom", v)
	// The pool measures again after the panic. The burden is on the path
	// while the fork is longer than what t does meanwhile: a ratio that a
	// run may miss (see schedtest.BurdenOnPath).
	schedtest.DoShape(t, p, schedtest.Burden, func(t *sched.Task) error {
		sched.ForkFunc(t, func(*sched.Task, int) { schedtest.Burn(schedtest.Leaf / 4) }, 0).Join(t)
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(1), prof.Forks)
		assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, schedtest.Burden)
	}, schedtest.BurdenOnPath(schedtest.Burden, 1))
	assert.Panics(t, func() { _, _ = p.DoMeasured(context.Background(), sched.Measure{}, nil) })
}

// TestRegionUnmeasured: an unmeasured task gets a nil Region, whose
// methods do nothing.
func TestRegionUnmeasured(t *testing.T) {
	p := schedtest.MeasuredPool(t, 1)
	var rg *sched.Region
	require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
		rg = t.NewRegion()
		lf := rg.Leaf(t)
		rg.EndLeaf(t, lf)
		rg.End(t)
		return nil
	}))
	assert.Nil(t, rg)
}

// TestRegionNilTask: a measured Region's methods are a task's own; a nil
// Task panics with the message that says so, and the run still ends.
func TestRegionNilTask(tt *testing.T) {
	p := schedtest.MeasuredPool(tt, 1)
	_, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
		rg := t.NewRegion()
		require.NotNil(tt, rg)
		assert.PanicsWithValue(tt, "sched: Region.Leaf with a nil Task: only a task, with its own Task, may call it; outside the pool, run it in a task: sched.Do, Pool.Do, or a Group's Go",
			func() { rg.Leaf(nil) })
		lf := rg.Leaf(t)
		assert.Panics(tt, func() { rg.EndLeaf(nil, lf) })
		rg.EndLeaf(t, lf)
		assert.Panics(tt, func() { rg.End(nil) })
		rg.End(t)
		return nil
	})
	require.NoError(tt, err)
}

// TestProfileFigures: the ratios, bounds, table and metrics of a profile
// made by hand.
func TestProfileFigures(t *testing.T) {
	p := sched.Profile{
		Work: 100 * time.Millisecond, Span: 10 * time.Millisecond, BurdenedSpan: 20 * time.Millisecond,
		Blocked: time.Millisecond, Forks: 7, Burden: time.Microsecond, BurdenFrom: "Measure.Burden", Workers: 3,
	}
	assert.InDelta(t, 10, p.Parallelism(), 1e-9)
	assert.InDelta(t, 5, p.BurdenedParallelism(), 1e-9)
	for _, c := range []struct {
		workers int
		lo, hi  float64
	}{{1, 100.0 / 120, 1}, {4, 100.0 / 45, 4}, {64, 100 / (100.0/64 + 20), 10}, {0, 0, 0}} {
		lo, hi := p.Bounds(c.workers)
		assert.InDelta(t, c.lo, lo, 1e-9, "workers=%d", c.workers)
		assert.InDelta(t, c.hi, hi, 1e-9, "workers=%d", c.workers)
	}
	lo, hi := sched.Profile{}.Bounds(4)
	assert.Zero(t, lo)
	assert.Zero(t, hi)
	assert.Zero(t, sched.Profile{}.Parallelism())
	s := p.String()
	for _, want := range []string{"parallelism", "10.00", "burdened parallelism", "5.00", "Measure.Burden", "\n       3 ", "\n      64          10.00           4.64\n"} {
		assert.Contains(t, s, want)
	}
	assert.LessOrEqual(t, strings.Count(s, "\n"), 24, "one screen")
	var r reporter
	p.Report(&r)
	assert.Equal(t, map[string]float64{"parallelism": 10, "burdened-parallelism": 5}, r.m)
}

// reporter records the metrics reported to it, as a testing.B would.
type reporter struct{ m map[string]float64 }

func (r *reporter) ReportMetric(n float64, unit string) {
	if r.m == nil {
		r.m = map[string]float64{}
	}
	if math.IsNaN(n) {
		panic("NaN metric " + unit)
	}
	r.m[unit] = n
}

var _ sched.MetricReporter = (*testing.B)(nil)
