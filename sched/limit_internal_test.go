package sched

import (
	"context"
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
	assert.Zero(t, len(gl.waiters))
}
