package par_test

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
	"github.com/worksteal/wsq/par"
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

	par.For(nil, n, func(_ *sched.Task, i int) { total.Add(int64(i)) })
	check("For")
	par.ForRange(nil, n, func(_ *sched.Task, lo, hi int) {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
	})
	check("ForRange")
	require.NoError(t, par.ForErr(nil, n, func(_ *sched.Task, i int) error { total.Add(int64(i)); return nil }))
	check("ForErr")
	require.NoError(t, par.ForRangeErr(nil, n, func(_ *sched.Task, lo, hi int) error {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
		return nil
	}))
	check("ForRangeErr")
	par.Loop{Grain: 100}.ForRange(nil, n, func(_ *sched.Task, lo, hi int) {
		for i := lo; i < hi; i++ {
			total.Add(int64(i))
		}
	})
	check("Loop.ForRange")
	par.Loop{}.For(nil, n, func(_ *sched.Task, i int) { total.Add(int64(i)) })
	check("Loop.For")
	require.NoError(t, par.Loop{}.ForErr(nil, n, func(_ *sched.Task, i int) error { total.Add(int64(i)); return nil }))
	check("Loop.ForErr")
	require.NoError(t, par.Loop{}.ForRangeErr(nil, n, func(_ *sched.Task, lo, hi int) error {
		total.Add(int64((lo + hi - 1) * (hi - lo) / 2))
		return nil
	}))
	check("Loop.ForRangeErr")

	doubled := par.Map(nil, xs, double)
	for i, x := range xs {
		require.Equal(t, 2*x, doubled[i], "Map at %d", i)
	}
	out, err := par.MapErr(nil, xs, func(_ *sched.Task, x int) (int, error) { return 2 * x, nil })
	require.NoError(t, err)
	assert.Equal(t, doubled, out, "MapErr")
	assert.Nil(t, par.Map(nil, []int(nil), double), "Map of nil")
	assert.Equal(t, sum, par.Reduce(nil, n, 0, func(_ *sched.Task, i int) int { return i }, func(a, b int) int { return a + b }), "Reduce")
	assert.Equal(t, sum, par.ReduceRange(nil, n, 0, func(_ *sched.Task, lo, hi int) int { return (lo + hi - 1) * (hi - lo) / 2 }, func(a, b int) int { return a + b }), "ReduceRange")

	ys := slices.Clone(xs)
	par.Sort(nil, ys)
	assert.Equal(t, want, ys, "Sort")
	ys = slices.Clone(xs)
	par.SortFunc(nil, ys, cmp.Compare[int])
	assert.Equal(t, want, ys, "SortFunc")
	type pair struct{ key, at int }
	ps := make([]pair, n)
	for i, x := range xs {
		ps[i] = pair{x % 10, i}
	}
	par.SortStableFunc(nil, ps, func(a, b pair) int { return cmp.Compare(a.key, b.key) })
	assert.True(t, slices.IsSortedFunc(ps, func(a, b pair) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.at, b.at)) }), "SortStableFunc keeps the order of equal keys")
	assert.Equal(t, runtime.GOMAXPROCS(0), sched.Default().Workers())
}

// TestNilTaskFailures checks that a nil Task's loop fails as Pool.Do
// does: the first error, a *PanicError for a panic, runtime.Goexit passed
// on; and that a nil function panics at the call.
func TestNilTaskFailures(t *testing.T) {
	errBad := errors.New("bad")
	err := par.ForErr(nil, 1000, func(_ *sched.Task, i int) error {
		if i == 500 {
			return errBad
		}
		return nil
	})
	assert.ErrorIs(t, err, errBad)
	out, err := par.MapErr(nil, []int{1, 2, 3}, func(_ *sched.Task, x int) (int, error) {
		if x == 2 {
			return 0, errBad
		}
		return x, nil
	})
	assert.ErrorIs(t, err, errBad)
	assert.Nil(t, out)

	e := schedtest.CallInGoroutine(t, func() { par.For(nil, 100, func(_ *sched.Task, i int) { panic(schedtest.ErrBoom) }) })
	pe, ok := e.Recovered.(*sched.PanicError)
	require.True(t, ok, "a body's panic reaches the caller as a *PanicError, not %#v", e.Recovered)
	assert.Equal(t, schedtest.ErrBoom, pe.Value)
	e = schedtest.CallInGoroutine(t, func() { par.Sort(nil, []int{3, 2, 1}); runtime.Goexit() })
	assert.False(t, e.Returned)
	assert.Nil(t, e.Recovered, "a Goexit after the sort")
	e = schedtest.CallInGoroutine(t, func() { par.For(nil, 100, func(*sched.Task, int) { runtime.Goexit() }) })
	assert.False(t, e.Returned, "a body's Goexit ends the caller")
	assert.Nil(t, e.Recovered, "a body's Goexit is no panic")

	for name, f := range map[string]func(){
		"For":            func() { par.For(nil, 3, nil) },
		"ForErr":         func() { _ = par.ForErr(nil, 3, nil) },
		"Map":            func() { par.Map[int, int](nil, []int{1}, nil) },
		"MapErr":         func() { _, _ = par.MapErr[int, int](nil, []int{1}, nil) },
		"Reduce":         func() { par.Reduce(nil, 3, 0, nil, func(x, y int) int { return x }) },
		"SortFunc":       func() { par.SortFunc(nil, []int{2, 1}, nil) },
		"SortStableFunc": func() { par.SortStableFunc[[]int](nil, []int{2, 1}, nil) },
	} {
		assert.Equal(t, "par: "+name+" with a nil function", schedtest.PanicValue(t, f), name)
	}
}

// nilTaskCalls are the calls with a nil Task, by name, for the tests
// that make them from tasks.
var nilTaskCalls = map[string]func(){
	"For":         func() { par.For(nil, 10, func(*sched.Task, int) {}) },
	"ForRange":    func() { par.ForRange(nil, 10, func(*sched.Task, int, int) {}) },
	"ForErr":      func() { _ = par.ForErr(nil, 10, func(*sched.Task, int) error { return nil }) },
	"ForRangeErr": func() { _ = par.ForRangeErr(nil, 10, func(*sched.Task, int, int) error { return nil }) },
	"Map":         func() { par.Map(nil, []int{1, 2}, double) },
	"MapErr":      func() { _, _ = par.MapErr(nil, []int{1}, func(_ *sched.Task, x int) (int, error) { return x, nil }) },
	"Reduce": func() {
		par.Reduce(nil, 10, 0, func(_ *sched.Task, i int) int { return i }, func(a, b int) int { return a + b })
	},
	"ReduceRange": func() {
		par.ReduceRange(nil, 10, 0, func(_ *sched.Task, lo, hi int) int { return lo }, func(a, b int) int { return a + b })
	},
	"Sort":           func() { par.Sort(nil, []int{2, 1}) },
	"SortFunc":       func() { par.SortFunc(nil, []int{2, 1}, cmp.Compare[int]) },
	"SortStableFunc": func() { par.SortStableFunc(nil, []int{2, 1}, cmp.Compare[int]) },
	"Do":             func() { _ = sched.Do(ctx, func(*sched.Task) error { return nil }) },
	"ForEach": func() {
		par.ForEach(nil, slices.Values([]int{1, 2}), func(*sched.Task, int) {})
	},
	"ForEachErr": func() {
		_ = par.ForEachErr(nil, slices.Values([]int{1, 2}), func(*sched.Task, int) error { return nil })
	},
	"MapSeq": func() {
		for range par.MapSeq(nil, slices.Values([]int{1, 2}), func(_ *sched.Task, x int) int { return x }) {
		}
	},
}

// nilFromTask is the panic of a call of nilTaskCalls by a task.
var nilFromTask = schedtest.ByTask("Do, or a call with a nil Task")

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
				_ = do(func(t *sched.Task) { par.For(t, 4, func(*sched.Task, int) { call() }) })
			})
			assert.Equal(t, nilFromTask, got, "%s in a loop's body on %s", name, pool)
		}
		var sum atomic.Int64
		require.NoError(t, do(func(t *sched.Task) {
			t.Block(func() {
				par.For(nil, 100, func(_ *sched.Task, i int) { sum.Add(int64(i)) })
			})
			done := make(chan struct{})
			go func() {
				defer close(done)
				par.For(nil, 100, func(_ *sched.Task, i int) { sum.Add(int64(i)) })
			}()
			t.Block(func() { <-done })
		}), pool)
		assert.Equal(t, int64(2*4950), sum.Load(), "loops with a nil Task in a Block function and in a goroutine, on %s", pool)
	}
}

// TestLoopsStopAtCancel checks the rule of every loop: it stops when its
// Task's context is done. Run in sched.Do(ctx, ...), the one way in from a
// context, its Task has that context: a context cancelled before the loop
// stops it before its first call, the ...Err forms return its cause, the
// others return and leave it to t.Context(); a cancellation midway stops
// the loop there.
func TestLoopsStopAtCancel(t *testing.T) {
	type key struct{}
	vctx := context.WithValue(ctx, key{}, "v")
	var sum atomic.Int64
	require.NoError(t, sched.Do(vctx, func(t *sched.Task) error {
		return par.ForErr(t, 100, func(t *sched.Task, i int) error {
			if t.Context().Value(key{}) != "v" {
				return errors.New("the body's context does not derive from ctx")
			}
			sum.Add(int64(i))
			return nil
		})
	}))
	assert.Equal(t, int64(4950), sum.Load())

	cctx, cancel := context.WithCancelCause(ctx)
	cause := errors.New("cancelled by the test")
	cancel(cause)
	var calls atomic.Int64
	count := func(*sched.Task, int) { calls.Add(1) }
	countErr := func(*sched.Task, int) error { calls.Add(1); return nil }
	for name, loop := range map[string]func(t *sched.Task) error{
		"For":    func(t *sched.Task) error { par.For(t, 100, count); return nil },
		"ForErr": func(t *sched.Task) error { return par.ForErr(t, 100, countErr) },
		"ForRange": func(t *sched.Task) error {
			par.ForRange(t, 100, func(*sched.Task, int, int) { calls.Add(1) })
			return nil
		},
		"Map": func(t *sched.Task) error {
			par.Map(t, []int{1, 2}, func(_ *sched.Task, x int) int { calls.Add(1); return x })
			return nil
		},
		"MapErr": func(t *sched.Task) error {
			_, err := par.MapErr(t, []int{1, 2}, func(_ *sched.Task, x int) (int, error) { calls.Add(1); return x, nil })
			return err
		},
		"Reduce": func(t *sched.Task) error {
			par.Reduce(t, 100, 0, func(*sched.Task, int) int { calls.Add(1); return 1 }, func(a, b int) int { return a + b })
			return nil
		},
		"ForEach": func(t *sched.Task) error {
			par.ForEach(t, slices.Values([]int{1, 2}), count)
			return nil
		},
		"ForEachErr": func(t *sched.Task) error { return par.ForEachErr(t, slices.Values([]int{1, 2}), countErr) },
		"MapSeq": func(t *sched.Task) error {
			for range par.MapSeq(t, slices.Values([]int{1, 2}), func(_ *sched.Task, x int) int { calls.Add(1); return x }) {
				calls.Add(1)
			}
			return nil
		},
		"MapSeqErr": func(t *sched.Task) error {
			for _, err := range par.MapSeqErr(t, slices.Values([]int{1, 2}), func(_ *sched.Task, x int) (int, error) { calls.Add(1); return x, nil }) {
				return err
			}
			return errors.New("MapSeqErr yielded nothing")
		},
	} {
		err := sched.Do(cctx, func(t *sched.Task) error {
			err := loop(t)
			if err == nil {
				err = context.Cause(t.Context()) // the forms without an error
			}
			return err
		})
		assert.ErrorIs(t, err, cause, name)
	}
	assert.Zero(t, calls.Load(), "calls after a cancellation")

	// A cancellation during the loop stops it there, and is its error.
	lctx, stop := context.WithCancelCause(ctx)
	var visited atomic.Int64
	err := sched.Do(lctx, func(t *sched.Task) error {
		return par.ForErr(t, 1_000_000, func(_ *sched.Task, i int) error {
			visited.Add(1)
			if i == 1000 {
				stop(cause)
			}
			return nil
		})
	})
	assert.ErrorIs(t, err, cause)
	assert.Less(t, visited.Load(), int64(1_000_000), "indices after the cancellation")

	// A sort stops too, before it starts or midway, and leaves a
	// permutation of its input.
	for name, sort := range map[string]func(t *sched.Task, xs []int, cmp func(a, b int) int){
		"Sort":           func(t *sched.Task, xs []int, _ func(a, b int) int) { par.Sort(t, xs) },
		"SortFunc":       func(t *sched.Task, xs []int, cmp func(a, b int) int) { par.SortFunc(t, xs, cmp) },
		"SortStableFunc": func(t *sched.Task, xs []int, cmp func(a, b int) int) { par.SortStableFunc(t, xs, cmp) },
	} {
		// Cancelled before the sort (at 0), or after so many comparisons:
		// in a leaf, in a partition or a merge, at each level.
		for _, at := range []int64{0, 10_000, 300_000, 1_000_000, 1_800_000} {
			xs := make([]int, 1<<17)
			for i := range xs {
				xs[i] = (i * 7919) % len(xs)
			}
			sctx, stop := context.WithCancelCause(ctx)
			if at == 0 {
				stop(cause)
			}
			var cmps atomic.Int64
			cmp := func(a, b int) int {
				if cmps.Add(1) == at {
					stop(cause)
				}
				return a - b
			}
			require.NoError(t, sched.Do(sctx, func(t *sched.Task) error { sort(t, xs, cmp); return nil }), name)
			stop(nil)
			ys := slices.Clone(xs)
			slices.Sort(ys)
			for i := range ys {
				require.Equal(t, i, ys[i], "%s, cancelled at comparison %d: the sort's elements", name, at)
			}
		}
	}
}

// TestDefaultPool checks the default pool's configuration: set once,
// ExampleForErr_context checks records from main, on the default pool,
// until the first bad one or until ctx is cancelled: in sched.Do(ctx, ...),
// whose Task has ctx, and every loop stops when its Task's context is done.
func ExampleForErr_context() {
	ctx := context.Background()
	records := []string{"id=1", "id=2", "garbage", "id=4"}
	err := sched.Do(ctx, func(t *sched.Task) error {
		return par.ForErr(t, len(records), func(t *sched.Task, i int) error {
			if records[i][:3] != "id=" {
				return fmt.Errorf("record %d: %q", i, records[i])
			}
			return nil
		})
	})
	fmt.Println(err)
	// Output: record 2: "garbage"
}

// TestNilTaskLoopAfterBlock checks that a loop with a nil Task panics in
// a task after its Task.Block returned as before it: the task goes on
// unseated, without its worker, and is a task all the same.
func TestNilTaskLoopAfterBlock(t *testing.T) {
	for _, workers := range []int{1, 2} {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers})
		for _, block := range []bool{false, true} {
			got := schedtest.PanicValue(t, func() {
				_ = p.Do(ctx, func(t *sched.Task) error {
					if block {
						t.Block(func() {})
					}
					par.For(nil, 10, func(*sched.Task, int) {})
					return nil
				})
			})
			assert.Equal(t, nilFromTask, got, "workers=%d, after a Block: %v", workers, block)
		}
	}
}
