package sched_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// sumInto replaces xs[0] with the sum of xs, splitting with JoinFunc: a
// fork-join whose halves return nothing.
func sumInto(t *sched.Task, xs []int64) {
	if len(xs) <= 8 {
		var s int64
		for _, x := range xs {
			s += x
		}
		xs[0] = s
		return
	}
	mid := len(xs) / 2
	sched.JoinFunc(t, sumInto, xs[:mid], sumInto, xs[mid:])
	xs[0] += xs[mid]
}

// sumIntoForks returns the JoinFunc calls of sumInto over n items.
func sumIntoForks(n int) int {
	if n <= 8 {
		return 0
	}
	return 1 + sumIntoForks(n/2) + sumIntoForks(n-n/2)
}

func TestJoinFunc(t *testing.T) {
	const n = 100_000
	for _, workers := range []int{1, 2, 4} {
		for _, mode := range sched.Modes() {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers, Mode: mode})
			xs := make([]int64, n)
			for i := range xs {
				xs[i] = int64(i)
			}
			require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
				sumInto(t, xs)
				return nil
			}))
			assert.Equal(t, int64(n)*(n-1)/2, xs[0], "%d workers, %v", workers, mode)
			st := p.Close()
			assert.Equal(t, int64(1+sumIntoForks(n)), st.Processed, "%d workers, %v: one task for Do and one per JoinFunc", workers, mode)
		}
	}
}

// JoinFunc reuses Join's records: after a first run, it allocates almost
// nothing per call.
func TestJoinFuncReuse(t *testing.T) {
	const n = 1 << 14
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
	xs := make([]int64, n)
	run := func() {
		require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
			sumInto(t, xs)
			return nil
		}))
	}
	run()
	allocs := testing.AllocsPerRun(10, run)
	assert.Less(t, allocs, float64(sumIntoForks(n))/100, "allocations per run of %d JoinFunc calls", sumIntoForks(n))
}

// JoinFunc names a nil function at the call, and a panic of g reaches the
// caller as a *PanicError, as with Join.
func TestJoinFuncMisuseAndPanic(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2})
	nop := func(*sched.Task, int) {}
	require.NoError(t, p.Do(context.Background(), func(tk *sched.Task) error {
		assert.PanicsWithValue(t, "sched: JoinFunc with a nil function f", func() { sched.JoinFunc(tk, nil, 1, nop, 2) })
		assert.PanicsWithValue(t, "sched: JoinFunc with a nil function g", func() { sched.JoinFunc(tk, nop, 1, nil, 2) })
		var got any
		func() {
			defer func() { got = recover() }()
			sched.JoinFunc(tk, nop, 1, func(*sched.Task, int) { panic(schedtest.ErrBoom) }, 2)
		}()
		pe, ok := got.(*sched.PanicError)
		require.True(t, ok, "JoinFunc panicked with %T %v", got, got)
		assert.Equal(t, schedtest.ErrBoom, pe.Value)
		return nil
	}))
	st := p.Close()
	assert.Equal(t, int64(2), st.Processed, "Do's task and g's")
}

// TestJoinFuncAsJoin runs Join and JoinFunc, whose bodies are two copies of
// one idea, on the same scenarios, and fails when their outcomes differ:
// what ran, what the call returned or raised, and the tasks counted.
func TestJoinFuncAsJoin(t *testing.T) {
	type outcome struct {
		fRan, gRan, leftRan bool
		leftAtReturn        bool // what g left had run when the call returned
		panicked            any  // the *PanicError's Value
		processed           int64
	}
	scenarios := map[string]struct{ f, g func(*sched.Task, *outcome) }{
		"plain": {
			f: func(_ *sched.Task, o *outcome) { o.fRan = true },
			g: func(_ *sched.Task, o *outcome) { o.gRan = true },
		},
		"f panics": {
			f: func(*sched.Task, *outcome) { panic(schedtest.ErrBoom) },
			g: func(_ *sched.Task, o *outcome) { o.gRan = true },
		},
		"g panics": {
			f: func(_ *sched.Task, o *outcome) { o.fRan = true },
			g: func(*sched.Task, *outcome) { panic(schedtest.ErrBoom) },
		},
		"g leaves a fork": {
			f: func(_ *sched.Task, o *outcome) { o.fRan = true },
			g: func(t *sched.Task, o *outcome) {
				sched.ForkFunc(t, func(_ *sched.Task, o *outcome) { o.leftRan = true }, o)
			},
		},
	}
	run := func(viaJoin bool, s struct{ f, g func(*sched.Task, *outcome) }) outcome {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
		var o outcome
		_ = p.Do(context.Background(), func(tk *sched.Task) error {
			defer func() {
				if v := recover(); v != nil {
					if pe, ok := v.(*sched.PanicError); ok {
						v = pe.Value
					}
					o.panicked = v
				}
			}()
			if viaJoin {
				wrap := func(fn func(*sched.Task, *outcome)) func(*sched.Task, *outcome) int {
					return func(t *sched.Task, o *outcome) int { fn(t, o); return 0 }
				}
				sched.Join(tk, wrap(s.f), &o, wrap(s.g), &o)
			} else {
				sched.JoinFunc(tk, s.f, &o, s.g, &o)
			}
			o.leftAtReturn = o.leftRan
			return nil
		})
		o.processed = p.Close().Processed
		return o
	}
	for name, s := range scenarios {
		assert.Equal(t, run(true, s), run(false, s), name)
	}
}
