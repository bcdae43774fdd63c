package sched_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// TestNilTaskLoops calls every loop with a nil Task from the test's
// goroutine, which is no task: each runs on the default pool and returns
// when done, with the exact result.
func TestNilTaskLoops(t *testing.T) {
	const n = 10_000
	xs := make([]int, n)
	for i := range xs {
		xs[i] = (i * 7919) % n
	}
	want := slices.Sorted(slices.Values(xs))
	sum := n * (n - 1) / 2
	var total atomic.Int64
	check := func(name string) {
		t.Helper()
		assert.Equal(t, int64(sum), total.Swap(0), name)
	}

	sched.For(nil, n, func(_ *sched.Task, i int) { total.Add(int64(i)) })
	check("For")
	sched.ForRange(nil, n, func(_ *sched.Task, lo, hi int) {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
	})
	check("ForRange")
	require.NoError(t, sched.ForErr(nil, n, func(_ *sched.Task, i int) error { total.Add(int64(i)); return nil }))
	check("ForErr")
	require.NoError(t, sched.ForRangeErr(nil, n, func(_ *sched.Task, lo, hi int) error {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
		return nil
	}))
	check("ForRangeErr")
	sched.Loop{Grain: 100}.ForRange(nil, n, func(_ *sched.Task, lo, hi int) {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
	})
	check("Loop.ForRange")
	sched.Loop{}.For(nil, n, func(_ *sched.Task, i int) { total.Add(int64(i)) })
	check("Loop.For")
	require.NoError(t, sched.Loop{}.ForErr(nil, n, func(_ *sched.Task, i int) error { total.Add(int64(i)); return nil }))
	check("Loop.ForErr")
	require.NoError(t, sched.Loop{}.ForRangeErr(nil, n, func(_ *sched.Task, lo, hi int) error {
		total.Add(int64((lo + hi - 1) * (hi - lo) / 2))
		return nil
	}))
	check("Loop.ForRangeErr")

	double := func(_ *sched.Task, x int) int { return 2 * x }
	doubled := sched.Map(nil, xs, double)
	for i, x := range xs {
		require.Equal(t, 2*x, doubled[i], "Map at %d", i)
	}
	out, err := sched.MapErr(nil, xs, func(_ *sched.Task, x int) (int, error) { return 2 * x, nil })
	require.NoError(t, err)
	assert.Equal(t, doubled, out, "MapErr")
	assert.Nil(t, sched.Map(nil, []int(nil), double), "Map of nil")
	assert.Equal(t, sum, sched.Reduce(nil, n, 0, func(_ *sched.Task, i int) int { return i }, func(a, b int) int { return a + b }), "Reduce")
	assert.Equal(t, sum, sched.ReduceRange(nil, n, 0, func(_ *sched.Task, lo, hi int) int { return (lo + hi - 1) * (hi - lo) / 2 }, func(a, b int) int { return a + b }), "ReduceRange")

	ys := slices.Clone(xs)
	sched.Sort(nil, ys)
	assert.Equal(t, want, ys, "Sort")
	ys = slices.Clone(xs)
	sched.SortFunc(nil, ys, cmp.Compare[int])
	assert.Equal(t, want, ys, "SortFunc")
	type pair struct{ key, at int }
	ps := make([]pair, n)
	for i, x := range xs {
		ps[i] = pair{x % 10, i}
	}
	sched.SortStableFunc(nil, ps, func(a, b pair) int { return cmp.Compare(a.key, b.key) })
	assert.True(t, slices.IsSortedFunc(ps, func(a, b pair) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.at, b.at)) }), "SortStableFunc keeps the order of equal keys")

	// Do runs fork-join code on the default pool.
	var r int
	require.NoError(t, sched.Do(ctx, func(t *sched.Task) error { r = fib(t, 20); return nil }))
	assert.Equal(t, 6765, r)
	assert.Equal(t, runtime.GOMAXPROCS(0), sched.Default().Workers())
}

// TestNilTaskFailures checks that a nil Task's loop fails as Pool.Do
// does: the first error, a *PanicError for a panic, runtime.Goexit passed
// on; and that a nil function panics at the call.
func TestNilTaskFailures(t *testing.T) {
	errBad := errors.New("bad")
	err := sched.ForErr(nil, 1000, func(_ *sched.Task, i int) error {
		if i == 500 {
			return errBad
		}
		return nil
	})
	assert.ErrorIs(t, err, errBad)
	out, err := sched.MapErr(nil, []int{1, 2, 3}, func(_ *sched.Task, x int) (int, error) {
		if x == 2 {
			return 0, errBad
		}
		return x, nil
	})
	assert.ErrorIs(t, err, errBad)
	assert.Nil(t, out)

	e := schedtest.CallInGoroutine(t, func() { sched.For(nil, 100, func(_ *sched.Task, i int) { panic(schedtest.ErrBoom) }) })
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "a body's panic reaches the caller as a *PanicError, not %#v", e.Recovered)
	assert.Equal(t, schedtest.ErrBoom, pe.Value)
	e = schedtest.CallInGoroutine(t, func() { sched.Sort(nil, []int{3, 2, 1}); runtime.Goexit() })
	assert.False(t, e.Returned)
	assert.Nil(t, e.Recovered, "a Goexit after the sort")
	e = schedtest.CallInGoroutine(t, func() { sched.For(nil, 100, func(*sched.Task, int) { runtime.Goexit() }) })
	assert.False(t, e.Returned, "a body's Goexit ends the caller")
	assert.Nil(t, e.Recovered, "a body's Goexit is no panic")

	for name, f := range map[string]func(){
		"For":                func() { sched.For(nil, 3, nil) },
		"ForErr":             func() { _ = sched.ForErr(nil, 3, nil) },
		"Map":                func() { sched.Map[int, int](nil, []int{1}, nil) },
		"MapErr":             func() { _, _ = sched.MapErr[int, int](nil, []int{1}, nil) },
		"Reduce":             func() { sched.Reduce(nil, 3, 0, nil, func(x, y int) int { return x }) },
		"SortFunc":           func() { sched.SortFunc(nil, []int{2, 1}, nil) },
		"SortStableFunc":     func() { sched.SortStableFunc[[]int](nil, []int{2, 1}, nil) },
		"ForErrContext":      func() { _ = sched.ForErrContext(ctx, 3, nil) },
		"ForRangeErrContext": func() { _ = sched.ForRangeErrContext(ctx, 3, nil) },
		"MapErrContext":      func() { _, _ = sched.MapErrContext[int, int](ctx, []int{1}, nil) },
	} {
		assert.Equal(t, "sched: "+name+" with a nil function", schedtest.PanicValue(t, f), name)
	}
}

// nilTaskCalls are the calls with a nil Task, by name, for the tests
// that make them from tasks.
var nilTaskCalls = map[string]func(){
	"For":         func() { sched.For(nil, 10, func(*sched.Task, int) {}) },
	"ForRange":    func() { sched.ForRange(nil, 10, func(*sched.Task, int, int) {}) },
	"ForErr":      func() { _ = sched.ForErr(nil, 10, func(*sched.Task, int) error { return nil }) },
	"ForRangeErr": func() { _ = sched.ForRangeErr(nil, 10, func(*sched.Task, int, int) error { return nil }) },
	"Map":         func() { sched.Map(nil, []int{1, 2}, double) },
	"MapErr":      func() { _, _ = sched.MapErr(nil, []int{1}, func(_ *sched.Task, x int) (int, error) { return x, nil }) },
	"Reduce": func() {
		sched.Reduce(nil, 10, 0, func(_ *sched.Task, i int) int { return i }, func(a, b int) int { return a + b })
	},
	"ReduceRange": func() {
		sched.ReduceRange(nil, 10, 0, func(_ *sched.Task, lo, hi int) int { return lo }, func(a, b int) int { return a + b })
	},
	"Sort":               func() { sched.Sort(nil, []int{2, 1}) },
	"SortFunc":           func() { sched.SortFunc(nil, []int{2, 1}, cmp.Compare[int]) },
	"SortStableFunc":     func() { sched.SortStableFunc(nil, []int{2, 1}, cmp.Compare[int]) },
	"ForErrContext":      func() { _ = sched.ForErrContext(ctx, 10, func(*sched.Task, int) error { return nil }) },
	"ForRangeErrContext": func() { _ = sched.ForRangeErrContext(ctx, 10, func(*sched.Task, int, int) error { return nil }) },
	"MapErrContext": func() {
		_, _ = sched.MapErrContext(ctx, []int{1}, func(_ *sched.Task, x int) (int, error) { return x, nil })
	},
	"Do": func() { _ = sched.Do(ctx, func(*sched.Task) error { return nil }) },
	"ForEach": func() {
		sched.ForEach(nil, slices.Values([]int{1, 2}), func(*sched.Task, int) {})
	},
	"ForEachErr": func() {
		_ = sched.ForEachErr(nil, slices.Values([]int{1, 2}), func(*sched.Task, int) error { return nil })
	},
	"ForEachErrContext": func() {
		_ = sched.ForEachErrContext(ctx, slices.Values([]int{1, 2}), func(*sched.Task, int) error { return nil })
	},
	"MapSeq": func() {
		for range sched.MapSeq(nil, slices.Values([]int{1, 2}), func(_ *sched.Task, x int) (int, error) { return x, nil }) {
		}
	},
}

// byTask is the panic of a call that only goroutines that are not tasks
// may make, what, by a task.
func byTask(what string) string {
	return "sched: " + what + ", called by a task: a task passes its own t, so that its worker runs other tasks while it waits; a nil Task, Do and the Context forms are for goroutines that are not tasks"
}

// nilFromTask is the panic of a call of nilTaskCalls by a task.
var nilFromTask = byTask("Do, or a call with a nil Task")

// TestNilTaskFromTask checks that a call with a nil Task by a task
// panics, whatever pool runs the task, the default pool too. On the
// default pool of one worker, or on a pool of one worker, such a wait
// could never end. In a Task.Block function, or in a goroutine a task
// starts, a nil Task is right: neither is a task.
func TestNilTaskFromTask(t *testing.T) {
	one := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	two := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: sched.Random})
	pools := map[string]func(f func(t *sched.Task)) error{
		"one worker":  func(f func(t *sched.Task)) error { return one.Do(ctx, func(t *sched.Task) error { f(t); return nil }) },
		"two, Random": func(f func(t *sched.Task)) error { return two.Do(ctx, func(t *sched.Task) error { f(t); return nil }) },
		"default pool": func(f func(t *sched.Task)) error {
			return sched.Do(ctx, func(t *sched.Task) error { f(t); return nil })
		},
	}
	for pool, do := range pools {
		for name, call := range nilTaskCalls {
			got := schedtest.PanicValue(t, func() { _ = do(func(*sched.Task) { call() }) })
			assert.Equal(t, nilFromTask, got, "%s by a task of %s", name, pool)
			// Deeper: in a loop's body, on whichever worker runs it.
			got = schedtest.PanicValue(t, func() {
				_ = do(func(t *sched.Task) { sched.For(t, 4, func(*sched.Task, int) { call() }) })
			})
			assert.Equal(t, nilFromTask, got, "%s in a loop's body on %s", name, pool)
		}
		var sum atomic.Int64
		require.NoError(t, do(func(t *sched.Task) {
			t.Block(func() {
				sched.For(nil, 100, func(_ *sched.Task, i int) { sum.Add(int64(i)) })
			})
			done := make(chan struct{})
			go func() {
				defer close(done)
				sched.For(nil, 100, func(_ *sched.Task, i int) { sum.Add(int64(i)) })
			}()
			t.Block(func() { <-done })
		}), pool)
		assert.Equal(t, int64(2*4950), sum.Load(), "loops with a nil Task in a Block function and in a goroutine, on %s", pool)
	}
}

// TestContextLoops checks the loops that take a context: an error stops
// them and is returned, a context cancelled before the call stops them
// before the first call, and the body's Task has a context derived from
// the one given.
func TestContextLoops(t *testing.T) {
	type key struct{}
	vctx := context.WithValue(ctx, key{}, "v")
	var sum atomic.Int64
	require.NoError(t, sched.ForErrContext(vctx, 100, func(t *sched.Task, i int) error {
		if t.Context().Value(key{}) != "v" {
			return errors.New("the body's context does not derive from ctx")
		}
		sum.Add(int64(i))
		return nil
	}))
	assert.Equal(t, int64(4950), sum.Load())
	require.NoError(t, sched.ForRangeErrContext(vctx, 100, func(t *sched.Task, lo, hi int) error {
		if t.Context().Value(key{}) != "v" {
			return errors.New("the body's context does not derive from ctx")
		}
		sum.Add(int64((lo + hi - 1) * (hi - lo) / 2))
		return nil
	}))
	assert.Equal(t, int64(2*4950), sum.Load())
	out, err := sched.MapErrContext(vctx, []string{"a", "bb"}, func(t *sched.Task, s string) (int, error) {
		if t.Context().Value(key{}) != "v" {
			return 0, errors.New("f's context does not derive from ctx")
		}
		return len(s), nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, out)

	cctx, cancel := context.WithCancelCause(ctx)
	cause := errors.New("cancelled by the test")
	cancel(cause)
	var calls atomic.Int64
	count := func(*sched.Task, int) error { calls.Add(1); return nil }
	assert.ErrorIs(t, sched.ForErrContext(cctx, 100, count), cause)
	assert.ErrorIs(t, sched.ForRangeErrContext(cctx, 100, func(*sched.Task, int, int) error { calls.Add(1); return nil }), cause)
	_, err = sched.MapErrContext(cctx, []int{1, 2}, func(_ *sched.Task, x int) (int, error) { calls.Add(1); return x, nil })
	assert.ErrorIs(t, err, cause)
	assert.Zero(t, calls.Load(), "calls after a cancellation")

	// A cancellation during the loop stops it, and is its error.
	lctx, stop := context.WithCancelCause(ctx)
	err = sched.ForErrContext(lctx, 1_000_000, func(_ *sched.Task, i int) error {
		if i == 1000 {
			stop(cause)
		}
		return nil
	})
	assert.ErrorIs(t, err, cause)
}

// TestDefaultPool checks the default pool's configuration: set once,
// before its start, and refused after; and that it is never closed.
func TestDefaultPool(t *testing.T) {
	p := sched.Default()
	assert.Same(t, p, sched.Default(), "one default pool")
	err := sched.SetDefault(sched.PoolConfig{Workers: 3})
	require.Error(t, err)
	assert.Equal(t, "sched: SetDefault after the default pool started: call it once, before the first call of Default, of Do, or of a function with a nil Task", err.Error())
	assert.Equal(t, "sched: Pool.Close of the default pool, which is never closed", schedtest.PanicValue(t, func() { p.Close() }))
	assert.Equal(t, runtime.GOMAXPROCS(0), p.Workers(), "the default pool after a refused SetDefault")
	require.NoError(t, sched.Do(ctx, func(*sched.Task) error { return nil }), "the default pool runs after a refused Close")
}

// ExampleSetDefault sets up the default pool first thing in main: four
// workers in Random mode. go test compiles it but does not run it: the
// default pool has started before the examples run, and SetDefault would
// return an error.
func ExampleSetDefault() {
	if err := sched.SetDefault(sched.PoolConfig{Workers: 4, Mode: sched.Random}); err != nil {
		fmt.Println(err)
		return
	}
	sched.For(nil, 100, func(t *sched.Task, i int) { /* ... */ })
}

// ExampleDo runs fork-join code on the default pool, from main.
func ExampleDo() {
	var r int
	err := sched.Do(context.Background(), func(t *sched.Task) error {
		r = fib(t, 25)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fib(25) =", r)
	// Output: fib(25) = 75025
}

// ExampleForErrContext checks records from main, on the default pool,
// until the first bad one or until ctx is cancelled.
func ExampleForErrContext() {
	records := []string{"id=1", "id=2", "garbage", "id=4"}
	err := sched.ForErrContext(context.Background(), len(records), func(t *sched.Task, i int) error {
		if records[i][:3] != "id=" {
			return fmt.Errorf("record %d: %q", i, records[i])
		}
		return nil
	})
	fmt.Println(err)
	// Output: record 2: "garbage"
}

// ExampleDefault starts tasks on the default pool from main, as errgroup's
// Go does, and waits for them with the group's Wait.
func ExampleDefault() {
	g := sched.Default().NewGroup(context.Background())
	var sum atomic.Int64
	for i := range 100 {
		g.Go(nil, func(t *sched.Task) error {
			sum.Add(int64(i))
			return nil
		})
	}
	if err := g.Wait(nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Load())
	// Output: 4950
}
