package sched

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStealingJoinsCapped checks the bound on stack depth: a join on a
// worker that already has maxStealingJoins joins that took work from
// elsewhere on its stack runs none of the work waiting outside its own
// queue (here a task started from outside the pool), but waits, and the
// other worker runs that work.
func TestStealingJoinsCapped(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 2, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			err = p.Do(context.Background(), func(t *Task) error {
				pw := t.pw
				pw.stealing = maxStealingJoins
				defer func() { pw.stealing = 0 }()
				l := &latch{n: 1}
				ranOn := make(chan int, 1)
				go func() {
					g := p.NewGroup(context.Background())
					g.Go(nil, func(t *Task) error {
						ranOn <- t.WorkerID()
						return nil
					})
					_ = g.Wait(nil)
					l.arrive()
				}()
				steals := pw.w.stats.Steals
				pw.join(l)
				if <-ranOn == t.WorkerID() || pw.w.stats.Steals != steals {
					return errors.New("a join beyond the cap took work from elsewhere")
				}
				return nil
			})
			require.NoError(t, err)
		})
	}
}
