package sched_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// The measured runs of shapes whose work and span are known. Each leaf
// burns a fixed CPU time (burn), so the figures are ratios of those
// times: the tests compare ratios, with tolerances the clock allows,
// never an absolute time. The collector may still take a core midway: a
// shape runs up to measuredRuns times, until one run meets every ratio.
// Where the model makes a figure exact (the forks, the burden a path
// carries), every run must meet it.

// leaf is the time of one leaf of the shapes: a loop chunk of one such
// iteration takes too long to grow. A shape does about a millisecond of
// work.
const leaf = 100 * time.Microsecond

// burn spins until its thread's CPU clock (cpuNow: on Linux the thread's
// CPU time, else the wall clock) has run for d, reading it every few
// hundred rounds of a mixing step. So a leaf takes d on the clock that
// measured runs read, however fast the processor runs it meanwhile: the
// machine's other jobs, and a sibling hyper-thread, slow the rounds, not
// the clock's count. The goroutine stays on its thread while it burns.
func burn(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	x := uint64(d) | 1
	for start := cpuNow(); cpuNow()-start < d; {
		for range 256 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	burnSink.Store(x)
}

var burnSink atomic.Uint64

// burden is the burden of the tests that read it: as long as a leaf, so
// that a wrong count of forks shows.
const burden = leaf

// measuredRuns is the most times a shape runs.
const measuredRuns = 12

// measuredPool returns a pool of the given number of workers, closed at
// the end of the test.
func measuredPool(t *testing.T, workers int) *sched.Pool {
	p, err := sched.NewPool(sched.PoolConfig{Workers: workers})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// expect is a ratio that a measured shape must meet: got within
// [lo·want, hi·want].
type expect struct {
	what         string
	got          func(sched.Profile) float64
	want, lo, hi float64
}

func (e expect) met(p sched.Profile) bool {
	g := e.got(p)
	return g >= e.lo*e.want && g <= e.hi*e.want
}

// parallelism, work and span are the expectations of most shapes.
func parallelism(want, lo, hi float64) expect {
	return expect{"parallelism", sched.Profile.Parallelism, want, lo, hi}
}

func work(want time.Duration, lo, hi float64) expect {
	return expect{"work", func(p sched.Profile) float64 { return float64(p.Work) }, float64(want), lo, hi}
}

func span(want time.Duration, lo, hi float64) expect {
	return expect{"span", func(p sched.Profile) float64 { return float64(p.Span) }, float64(want), lo, hi}
}

// measureShape runs a shape (run returns its profile) until a run meets
// every expectation, at most measuredRuns times, and checks each run
// with each. It fails with the figures of the run of median parallelism
// if none met them all.
//
// With -short, a shape runs once and only each checks it: the exact
// figures. CI's -short run is the 32-bit one, under an emulator whose
// clocks do not keep the ratios of CPU time; every other run checks them.
func measureShape(t *testing.T, run func() sched.Profile, each func(sched.Profile), exps ...expect) {
	t.Helper()
	if testing.Short() {
		prof := run()
		if each != nil {
			each(prof)
		}
		return
	}
	var ps []sched.Profile
	for range measuredRuns {
		runtime.GC() // a collection would take a core midway
		prof := run()
		if each != nil {
			each(prof)
		}
		if !slices.ContainsFunc(exps, func(e expect) bool { return !e.met(prof) }) {
			return
		}
		ps = append(ps, prof)
	}
	slices.SortFunc(ps, func(a, b sched.Profile) int { return cmp.Compare(a.Parallelism(), b.Parallelism()) })
	prof := ps[len(ps)/2]
	for _, e := range exps {
		assert.True(t, e.met(prof), "%s = %.3g, want %.3g (within %.2g–%.2g of it); the run of median parallelism of %d:\n%v",
			e.what, e.got(prof), e.want, e.lo, e.hi, len(ps), prof)
	}
}

// doShape is measureShape of f on p, measured with the burden b.
func doShape(t *testing.T, p *sched.Pool, b time.Duration, f func(*sched.Task) error, each func(sched.Profile), exps ...expect) {
	t.Helper()
	measureShape(t, func() sched.Profile {
		prof, err := p.DoMeasured(context.Background(), sched.Measure{Burden: b}, f)
		require.NoError(t, err)
		return prof
	}, each, exps...)
}

// workers are the pool sizes the shapes run on: the figures must not
// depend on them.
var workers = []int{1, 2}

// TestMeasureChain: a task that forks a leaf and joins it, k times in a
// row, is a chain: parallelism 1, and each fork's burden on the path.
func TestMeasureChain(t *testing.T) {
	const k = 8
	for _, w := range workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			doShape(t, measuredPool(t, w), burden, func(t *sched.Task) error {
				for range k {
					sched.ForkFunc(t, func(*sched.Task, int) { burn(leaf) }, 0).Join(t)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64(k), prof.Forks)
				assert.Equal(t, k*burden, prof.BurdenedSpan-prof.Span, "each fork's burden is on the path")
				assert.Zero(t, prof.Blocked)
			}, parallelism(1, 0.95, 1.05), work(k*leaf, 0.95, 1.3))
		})
	}
}

// TestMeasureSerial: a task that forks nothing has its work as its span.
func TestMeasureSerial(t *testing.T) {
	doShape(t, measuredPool(t, 2), burden, func(*sched.Task) error {
		burn(4 * leaf)
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, prof.Span, prof.BurdenedSpan)
		assert.Equal(t, prof.Work, prof.Span)
		assert.Zero(t, prof.Forks)
	}, work(4*leaf, 0.95, 1.3))
}

// TestMeasureLeaves: n equal leaves forked at once, then joined, have a
// parallelism of about n, whatever the number of workers.
func TestMeasureLeaves(t *testing.T) {
	const n = 8
	for _, w := range workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			doShape(t, measuredPool(t, w), burden, func(t *sched.Task) error {
				fs := make([]sched.Future[struct{}], n)
				for i := range fs {
					fs[i] = sched.ForkFunc(t, func(*sched.Task, int) { burn(2 * leaf) }, i)
				}
				for _, f := range fs {
					f.Join(t)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64(n), prof.Forks)
				// The longest paths end in a leaf, one fork after the root.
				assert.Equal(t, burden, prof.BurdenedSpan-prof.Span)
			}, parallelism(n, 0.75, 1.05), work(2*n*leaf, 0.95, 1.3))
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
	const c = leaf * 4 / 5
	byFork := func(fib func(*sched.Task, int) int) func(*sched.Task, int) int {
		return func(t *sched.Task, n int) int {
			burn(c)
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
			burn(c)
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
			doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
				if got := fib(t, n); got != 8 {
					return fmt.Errorf("fib(%d) = %d", n, got)
				}
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, int64((calls-1)/2), prof.Forks)
				assert.LessOrEqual(t, prof.BurdenedSpan-prof.Span, (n-1)*burden, "at most n-1 forks on a path")
			},
				work(time.Duration(calls)*c, 0.95, 1.3), span(n*c, 0.95, 1.3),
				parallelism(float64(calls)/n, 0.75, 1.1),
				expect{"burdened span - span", func(p sched.Profile) float64 { return float64(p.BurdenedSpan - p.Span) }, float64((n - 1) * burden), 0.9, 1})
		})
	}
}

// TestMeasureLoop: a loop of n equal iterations, each longer than a
// chunk, has a parallelism of n on any number of workers, and a burden
// per level of a binary split into n.
func TestMeasureLoop(t *testing.T) {
	const n = 16
	for _, w := range workers {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			doShape(t, measuredPool(t, w), burden, func(t *sched.Task) error {
				par.For(t, n, func(*sched.Task, int) { burn(leaf) })
				return nil
			}, func(prof sched.Profile) {
				assert.Equal(t, 4*burden, prof.BurdenedSpan-prof.Span, "log2(16) levels")
				assert.Equal(t, int64(n-1), prof.Forks)
			}, parallelism(n, 0.75, 1.05), work(n*leaf, 0.95, 1.3))
		})
	}
}

// TestMeasureNestedLoops: a loop of loops has the parallelism of its
// iterations, and the levels of both splits on its burdened path.
func TestMeasureNestedLoops(t *testing.T) {
	const outer, inner = 4, 4
	doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
		par.For(t, outer, func(t *sched.Task, _ int) {
			par.For(t, inner, func(*sched.Task, int) { burn(leaf) })
		})
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, 4*burden, prof.BurdenedSpan-prof.Span, "2 levels of each loop")
	}, parallelism(outer*inner, 0.75, 1.05), work(outer*inner*leaf, 0.95, 1.3))
}

// TestMeasureGroup: the tasks of a Group are forks of the task that
// starts them, joined by its Wait.
func TestMeasureGroup(t *testing.T) {
	const n = 8
	doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
		g := t.NewGroup()
		for range n {
			g.Go(t, func(*sched.Task) error { burn(2 * leaf); return nil })
		}
		return g.Wait(t)
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(n), prof.Forks)
		assert.Equal(t, burden, prof.BurdenedSpan-prof.Span)
	}, parallelism(n, 0.75, 1.05), work(2*n*leaf, 0.95, 1.3))
}

// TestMeasureImplicitWait: forks and groups that a task leaves to its
// end count as if it joined them there.
func TestMeasureImplicitWait(t *testing.T) {
	const n = 4
	doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
		g := t.NewGroup()
		for range n {
			sched.ForkFunc(t, func(*sched.Task, int) { burn(2 * leaf) }, 0)
			g.Go(t, func(*sched.Task) error { burn(2 * leaf); return nil })
		}
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(2*n), prof.Forks)
	}, parallelism(2*n, 0.75, 1.05), work(4*n*leaf, 0.95, 1.3))
}

// TestMeasureBlock: the time in Task.Block's functions is work, on its
// path, and Blocked besides.
func TestMeasureBlock(t *testing.T) {
	const n = 8
	const d = 2 * time.Millisecond
	doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
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
		expect{"blocked / work", func(p sched.Profile) float64 { return float64(p.Blocked) / float64(p.Work) }, 1, 0.95, 1},
		parallelism(n, 0.6, 1.05))
}

// TestMeasureSiblingJoin: a task that joins its sibling's Future waits
// for it, but the work counts once, at the forking task's join.
func TestMeasureSiblingJoin(t *testing.T) {
	doShape(t, measuredPool(t, 2), burden, func(t *sched.Task) error {
		a := sched.ForkFunc(t, func(*sched.Task, int) { burn(2 * leaf) }, 0)
		sched.ForkFunc(t, func(t *sched.Task, _ int) {
			a.Join(t)
			burn(2 * leaf)
		}, 0)
		return nil
	}, func(prof sched.Profile) {
		assert.Equal(t, int64(2), prof.Forks)
	}, work(4*leaf, 0.95, 1.3), span(4*leaf, 0.95, 1.3))
}

// TestMeasureLoopsOfThePackage: Reduce, Map and Sort run measured, with
// their results right and their figures sane.
func TestMeasureLoopsOfThePackage(t *testing.T) {
	p := measuredPool(t, 2)
	xs := make([]int, 1<<14)
	for i := range xs {
		xs[i] = (i * 7919) % len(xs)
	}
	prof, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
		sum := par.Reduce(t, len(xs), 0, func(t *sched.Task, i int) int { return xs[i] }, func(a, b int) int { return a + b })
		if sum != len(xs)*(len(xs)-1)/2 {
			return fmt.Errorf("sum %d", sum)
		}
		ys := par.Map(t, xs, func(t *sched.Task, x int) int { return -x })
		par.Sort(t, ys)
		if !slices.IsSorted(ys) {
			return fmt.Errorf("not sorted")
		}
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, prof.Span)
	if !testing.Short() { // see measureShape: the emulator's clocks
		assert.LessOrEqual(t, prof.Span, prof.Work)
	}
	assert.LessOrEqual(t, prof.Span, prof.BurdenedSpan)
	assert.Positive(t, prof.Forks)
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
			measureShape(t, func() sched.Profile {
				var handled atomic.Int64
				st, prof, err := sched.RunMeasured(context.Background(), sched.Measure{Burden: burden}, sched.Config[item]{Workers: 2}, []item{sh.root},
					func(_ context.Context, it item, w *sched.Worker[item]) error {
						burn(leaf)
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
				assert.Equal(t, time.Duration(sh.path-1)*burden, prof.BurdenedSpan-prof.Span, "a burden per spawn on the path")
			}, parallelism(float64(sh.items)/float64(sh.path), 0.75, 1.05), work(time.Duration(sh.items)*leaf, 0.95, 1.3))
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

// TestMeasureBurdenSource: the burden is DefaultBurden unless set, and the
// profile says which.
func TestMeasureBurdenSource(t *testing.T) {
	p := measuredPool(t, 1)
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
	p := measuredPool(t, 2)
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
	for range measuredRuns {
		prof, err := p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
			fs := make([]sched.Future[struct{}], 8)
			for i := range fs {
				fs[i] = sched.ForkFunc(t, func(*sched.Task, int) { burn(leaf / 4) }, i)
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
	p := measuredPool(t, 2)
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
	p := measuredPool(t, 2)
	v := schedtest.PanicValue(t, func() {
		_, _ = p.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
			sched.ForkFunc(t, func(*sched.Task, int) { panic("boom") }, 0).Join(t)
			return nil
		})
	})
	assert.Equal(t, "boom", v)
	prof, err := p.DoMeasured(context.Background(), sched.Measure{Burden: burden}, func(t *sched.Task) error {
		sched.ForkFunc(t, func(*sched.Task, int) { burn(leaf / 4) }, 0).Join(t) // longer than what t does meanwhile
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, int64(1), prof.Forks)
	assert.Equal(t, burden, prof.BurdenedSpan-prof.Span)
	assert.Panics(t, func() { _, _ = p.DoMeasured(context.Background(), sched.Measure{}, nil) })
}

// TestRegionUnmeasured: an unmeasured task gets a nil Region, whose
// methods do nothing.
func TestRegionUnmeasured(t *testing.T) {
	p := measuredPool(t, 1)
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
	p := measuredPool(tt, 1)
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
