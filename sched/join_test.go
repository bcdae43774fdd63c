package sched

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStealingJoinsCapped checks the bound on stack depth: a join on a
// goroutine that already has maxStealingJoins joins that took work from
// elsewhere on its stack runs none of the work waiting outside its own
// queue (here a task started from outside the pool) on its own stack. It
// lends the worker to another goroutine meanwhile, which may run it.
func TestStealingJoinsCapped(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 2, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			err = p.Do(context.Background(), func(t *Task) error {
				r := t.runner
				r.stealing = maxStealingJoins
				defer func() { r.stealing = 0 }()
				l := &latch{n: 1}
				ranOn := make(chan *runner, 1)
				go func() {
					g := p.NewGroup(context.Background())
					g.Go(nil, func(t *Task) error {
						ranOn <- t.runner
						return nil
					})
					_ = g.Wait(nil)
					l.arrive()
				}()
				r.help(l)
				if <-ranOn == r {
					return errors.New("a join beyond the cap ran work from elsewhere on its stack")
				}
				return nil
			})
			require.NoError(t, err)
		})
	}
}

// TestCappedJoinLends checks that a join beyond the cap, which sleeps
// rather than take work from elsewhere, lends its worker to a goroutine
// that waits to take it back: here the task it waits for, which blocked
// on another goroutine of the same worker and needs the worker to finish.
// Keeping the worker would wait for ever.
func TestCappedJoinLends(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 1, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			err = p.Do(context.Background(), func(t *Task) error {
				started := make(chan struct{})
				f := ForkFunc(t, func(t *Task, _ int) {
					t.Block(func() {
						close(started)
						time.Sleep(20 * time.Millisecond) // returns while the joiner sleeps
					})
				}, 0)
				// The forked task runs on another goroutine of the worker
				// while this one blocks.
				t.Block(func() { <-started })
				r := t.runner
				r.stealing = maxStealingJoins
				defer func() { r.stealing = 0 }()
				f.Join(t)
				return nil
			})
			require.NoError(t, err)
			st := p.Close()
			assert.Equal(t, int64(2), st.Blocks)
		})
	}
}
