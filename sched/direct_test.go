package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/sched"
)

// hiddenBlockq is a blockq that the pool does not recognize as one: its
// push and pop go through the engine's pushOne and next, not the pool's
// direct calls. It keeps blockq's other methods (Publish, the Handoff).
type hiddenBlockq struct{ *blockq.Queue[sched.Job] }

// directScenario runs fork-join of every kind on a pool of one worker:
// Fork and Join, ForkFunc, JoinFunc, a Group, and forks left unjoined.
func directScenario(t *sched.Task, n int) int {
	if n < 2 {
		return n
	}
	switch n % 4 {
	case 0:
		x, y := sched.Join(t, directScenario, n-2, directScenario, n-1)
		return x + y
	case 1:
		var x, y int
		sched.JoinFunc(t, func(t *sched.Task, n int) { x = directScenario(t, n) }, n-1,
			func(t *sched.Task, n int) { y = directScenario(t, n) }, n-2)
		return x + y
	case 2:
		g := t.NewGroup()
		var x int
		g.Go(t, func(t *sched.Task) error { x = directScenario(t, n-1); return nil })
		y := directScenario(t, n-2)
		if err := g.Wait(t); err != nil {
			panic(err)
		}
		return x + y
	}
	sched.ForkFunc(t, func(*sched.Task, int) {}, n) // left unjoined: t waits at return
	f := sched.Fork(t, directScenario, n-1)
	return directScenario(t, n-2) + f.Join(t)
}

// TestDirectQueueCalls holds the pool's direct calls to a blockq (runner's
// spawn and next) to the engine's pushOne and next, which they copy for
// speed: the same scenario on each gives the same result, task count and
// longest queue.
func TestDirectQueueCalls(t *testing.T) {
	const n = 22
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			runOn := func(newQueue func() wsq.Queue[sched.Job]) (int, sched.WorkerStats) {
				p := newPool(t, sched.PoolConfig{Workers: 1, Mode: mode, NewQueue: newQueue})
				var r int
				require.NoError(t, p.Do(context.Background(), func(t *sched.Task) error {
					r = directScenario(t, n)
					return nil
				}))
				st := p.Close()
				require.Len(t, st.PerWorker, 1)
				return r, st.PerWorker[0]
			}
			direct, dst := runOn(nil)
			viaEngine, est := runOn(func() wsq.Queue[sched.Job] { return hiddenBlockq{blockq.New[sched.Job]()} })
			assert.Equal(t, direct, viaEngine, "result")
			assert.Equal(t, 17711, direct, "fib(%d)", n)
			assert.Equal(t, dst.Processed, est.Processed, "tasks")
			assert.Equal(t, dst.MaxLen, est.MaxLen, "longest queue")
			assert.Positive(t, dst.MaxLen, fmt.Sprint("longest queue ", dst.MaxLen))
		})
	}
}
