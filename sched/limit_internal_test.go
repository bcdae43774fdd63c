package sched

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLimitRefusesQueued checks the rare path of a Go from outside tasks
// that takes a free token of its group's limit while a job is queued (a
// race with the tasks that end), and whose pool refuses its task: the
// queued job, which would start with that token, is refused too. The
// group fails with the closed pool's message, Wait returns, and the Go
// panics.
func TestLimitRefusesQueued(t *testing.T) {
	p, err := NewPool(PoolConfig{Workers: 1})
	require.NoError(t, err)
	g := p.NewGroup(context.Background())
	g.SetLimit(1)
	gl := g.limitOf()
	gl.sem <- struct{}{} // a task holds the token
	ran := false
	g.count()
	require.True(t, gl.queue(Job{kind: g, fn: func(*Task) error { ran = true; return nil }}), "the job queues")
	<-gl.sem // the task ends, as a Go takes the token
	p.Close()
	assert.PanicsWithValue(t, errClosed, func() { g.Go(nil, func(*Task) error { return nil }) })
	var pe *PanicError
	require.True(t, func() (panicked bool) {
		defer func() {
			pe, panicked = recover().(*PanicError)
		}()
		g.Wait(nil)
		return false
	}(), "Wait panics")
	assert.Equal(t, errClosed, pe.Value)
	assert.False(t, ran, "the queued job ran")
	assert.Zero(t, len(gl.waiters)-gl.head)
}

// TestLimitWaitersOrder checks the limit's queue of waiters against a
// plain slice: adds, takes of the oldest and forgets of a latch in any
// place, in a seeded random order, keep the waiters and their order.
func TestLimitWaitersOrder(t *testing.T) {
	var gl groupLimit
	var model []*latch
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20_000 {
		switch k := rng.IntN(10); {
		case k < 5 || len(model) == 0: // adds outnumber takes: the queue grows and shrinks
			l := &latch{n: int64(i)}
			gl.add(limitWaiter{l: l})
			model = append(model, l)
		case k < 9:
			w, ok := gl.takeOldest()
			require.True(t, ok)
			require.Same(t, model[0], w.l, "step %d", i)
			model = model[1:]
		default:
			j := rng.IntN(len(model))
			gl.forget(model[j])
			model = slices.Delete(model, j, j+1)
		}
		require.Equal(t, len(model), len(gl.waiters)-gl.head, "step %d", i)
		if rng.IntN(1000) == 0 { // empty it now and then
			for range model {
				w, ok := gl.takeOldest()
				require.True(t, ok)
				require.Same(t, model[0], w.l)
				model = model[1:]
			}
			_, ok := gl.takeOldest()
			require.False(t, ok)
		}
	}
}

// TestLimitWaitersReuse checks that a stream of waiters through a queue
// of a steady length reuses its array: a queue that let its front go
// and grew at its back allocated once per a few adds.
func TestLimitWaitersReuse(t *testing.T) {
	var gl groupLimit
	for range 1000 {
		gl.add(limitWaiter{})
	}
	allocs := testing.AllocsPerRun(10, func() {
		for range 10_000 {
			gl.takeOldest()
			gl.add(limitWaiter{})
		}
	})
	assert.Zero(t, allocs)
	assert.Equal(t, 1000, len(gl.waiters)-gl.head)
}
