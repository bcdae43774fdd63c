package schedtest

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/sched"
)

// The measured runs of shapes whose work and span are known. Each leaf
// burns a fixed CPU time (Burn), so the figures are ratios of those
// times: the tests compare ratios, with tolerances the clock allows,
// never an absolute time. The collector may still take a core midway: a
// shape runs up to MeasuredRuns times, until one run meets every ratio.
// Where the model makes a figure exact whatever the clocks say (the
// forks), every run must meet it.

// Leaf is the time of one leaf of the shapes: a loop chunk of one such
// iteration takes too long to grow. A shape does about a millisecond of
// work.
const Leaf = 100 * time.Microsecond

// Burn spins until its thread's CPU clock (cpuNow: on Linux the thread's
// CPU time, else the wall clock) has run for d, reading it every few
// hundred rounds of a mixing step. So a leaf takes d on the clock that
// measured runs read, however fast the processor runs it meanwhile: the
// machine's other jobs, and a sibling hyper-thread, slow the rounds, not
// the clock's count. The goroutine stays on its thread while it burns.
func Burn(d time.Duration) {
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

// Burden is the burden of the tests that read it: as long as a leaf, so
// that a wrong count of forks shows.
const Burden = Leaf

// MeasuredRuns is the most times a shape runs.
const MeasuredRuns = 12

// MeasuredPool returns a pool of the given number of workers, closed at
// the end of the test.
func MeasuredPool(t testing.TB, workers int) *sched.Pool {
	p, err := sched.NewPool(sched.PoolConfig{Workers: workers})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// Expect is a ratio that a measured shape must meet: got within
// [lo·want, hi·want].
type Expect struct {
	What         string
	Got          func(sched.Profile) float64
	Want, Lo, Hi float64
}

func (e Expect) met(p sched.Profile) bool {
	g := e.Got(p)
	return g >= e.Lo*e.Want && g <= e.Hi*e.Want
}

// Parallelism, Work and Span are the expectations of most shapes.
func Parallelism(want, lo, hi float64) Expect {
	return Expect{"parallelism", sched.Profile.Parallelism, want, lo, hi}
}

func Work(want time.Duration, lo, hi float64) Expect {
	return Expect{"work", func(p sched.Profile) float64 { return float64(p.Work) }, float64(want), lo, hi}
}

func Span(want time.Duration, lo, hi float64) Expect {
	return Expect{"span", func(p sched.Profile) float64 { return float64(p.Span) }, float64(want), lo, hi}
}

// BurdenOnPath expects the burdened span less the span, the burdens of
// the forks on the longest path, within lo·want and want. It is exact
// only while the leaves make the longest path: a strand slowed midway (a
// mark assist, say) can change that, and the run is tried again. That
// the difference is at most want holds in every run.
func BurdenOnPath(want time.Duration, lo float64) Expect {
	return Expect{"burdened span - span", func(p sched.Profile) float64 { return float64(p.BurdenedSpan - p.Span) }, float64(want), lo, 1}
}

// MeasureShape runs a shape (run returns its profile) until a run meets
// every expectation, at most measuredRuns times, and checks each run
// with each. It fails with the figures of the run of median parallelism
// if none met them all.
//
// With -short, a shape runs once and only each checks it: the exact
// figures. CI's -short run is the 32-bit one, under an emulator whose
// clocks do not keep the ratios of CPU time; every other run checks them.
func MeasureShape(t testing.TB, run func() sched.Profile, each func(sched.Profile), exps ...Expect) {
	t.Helper()
	if testing.Short() {
		prof := run()
		if each != nil {
			each(prof)
		}
		return
	}
	var ps []sched.Profile
	for range MeasuredRuns {
		runtime.GC() // a collection would take a core midway
		prof := run()
		if each != nil {
			each(prof)
		}
		if !slices.ContainsFunc(exps, func(e Expect) bool { return !e.met(prof) }) {
			return
		}
		ps = append(ps, prof)
	}
	slices.SortFunc(ps, func(a, b sched.Profile) int { return cmp.Compare(a.Parallelism(), b.Parallelism()) })
	prof := ps[len(ps)/2]
	for _, e := range exps {
		assert.True(t, e.met(prof), "%s = %.3g, want %.3g (within %.2g–%.2g of it); the run of median parallelism of %d:\n%v",
			e.What, e.Got(prof), e.Want, e.Lo, e.Hi, len(ps), prof)
	}
}

// DoShape is MeasureShape of f on p, measured with the burden b.
func DoShape(t testing.TB, p *sched.Pool, b time.Duration, f func(*sched.Task) error, each func(sched.Profile), exps ...Expect) {
	t.Helper()
	MeasureShape(t, func() sched.Profile {
		prof, err := p.DoMeasured(context.Background(), sched.Measure{Burden: b}, f)
		require.NoError(t, err)
		return prof
	}, each, exps...)
}

// Workers are the pool sizes the shapes run on: the figures must not
// depend on them.
var Workers = []int{1, 2}
