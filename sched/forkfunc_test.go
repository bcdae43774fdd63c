package sched_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// sortSlice is a parallel merge sort with a task per half, forked with
// ForkFunc: the fork-join shape of a computation with no result.
func sortSlice(t *sched.Task, xs []int) {
	if len(xs) <= 16 {
		slices.Sort(xs)
		return
	}
	mid := len(xs) / 2
	left := sched.ForkFunc(t, sortSlice, xs[:mid])
	sortSlice(t, xs[mid:])
	left.Join(t)
	merged := make([]int, 0, len(xs))
	a, b := xs[:mid], xs[mid:]
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			merged, a = append(merged, a[0]), a[1:]
		} else {
			merged, b = append(merged, b[0]), b[1:]
		}
	}
	merged = append(append(merged, a...), b...)
	copy(xs, merged)
}

func TestForkFunc(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 2, Mode: mode})
			xs := make([]int, testenv.Size(5_000, 5_000, 50_000))
			for i := range xs {
				xs[i] = rand.IntN(1000)
			}
			want := slices.Sorted(slices.Values(xs))
			require.NoError(t, p.Do(ctx, func(t *sched.Task) error { sortSlice(t, xs); return nil }))
			assert.Equal(t, want, xs)

			// A panic reaches the joiner, as with Fork.
			boom := func(*sched.Task, int) { panic(schedtest.ErrBoom) }
			pe, ok := schedtest.PanicValue(t, func() {
				_ = p.Do(ctx, func(t *sched.Task) error { sched.ForkFunc(t, boom, 1).Join(t); return nil })
			}).(error)
			require.True(t, ok)
			assert.True(t, errors.Is(pe, schedtest.ErrBoom))
		})
	}
}

// NewPool takes no config for the common pool, and refuses more than one.
func TestNewPoolConfigs(t *testing.T) {
	p, err := sched.NewPool()
	require.NoError(t, err)
	defer p.Close()
	assert.Equal(t, sched.PoolConfig{}.WorkerCount(), p.Workers())
	var r int
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error { r = sched.Fork(t, double, 21).Join(t); return nil }))
	assert.Equal(t, 42, r)

	_, err = sched.NewPool(sched.PoolConfig{}, sched.PoolConfig{})
	assert.EqualError(t, err, "sched: NewPool takes at most one PoolConfig, not 2")
}

// TestForkFuncAsFork runs Fork and ForkFunc, whose bodies are two copies of
// one idea, on the same scenarios, and fails when their outcomes differ:
// what ran, what Join raised, what the task left ran by the Join, and the
// tasks counted.
func TestForkFuncAsFork(t *testing.T) {
	type outcome struct {
		ran, leftRan, leftAtJoin bool
		panicked                 any // the *PanicError's Value
		processed                int64
	}
	scenarios := map[string]func(*sched.Task, *outcome){
		"plain":  func(_ *sched.Task, o *outcome) { o.ran = true },
		"panics": func(*sched.Task, *outcome) { panic(schedtest.ErrBoom) },
		"leaves a fork": func(t *sched.Task, o *outcome) {
			o.ran = true
			sched.ForkFunc(t, func(_ *sched.Task, o *outcome) { o.leftRan = true }, o)
		},
	}
	run := func(viaFork bool, f func(*sched.Task, *outcome)) outcome {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: 1})
		var o outcome
		_ = p.Do(t.Context(), func(tk *sched.Task) error {
			defer func() {
				if v := recover(); v != nil {
					if pe, ok := v.(*sched.PanicError); ok {
						v = pe.Value
					}
					o.panicked = v
				}
			}()
			if viaFork {
				sched.Fork(tk, func(t *sched.Task, o *outcome) int { f(t, o); return 0 }, &o).Join(tk)
			} else {
				sched.ForkFunc(tk, f, &o).Join(tk)
			}
			o.leftAtJoin = o.leftRan
			return nil
		})
		o.processed = p.Close().Processed
		return o
	}
	for name, f := range scenarios {
		assert.Equal(t, run(true, f), run(false, f), name)
	}
}
