package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

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
	_ = sched.Do(context.Background(), func(t *sched.Task) error { /* ... */ return nil })
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
