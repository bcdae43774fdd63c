package sched_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/sched"
)

// TestWaitForSibling: a task waits for a task it did not start, which the
// docs allow: a sibling's Future, a group it does not belong to, a Future
// that another Do's task made. Each scenario steers the waiting task into
// the helping wait of the task it waits for, on another worker: the only
// worker looking for work then waits for a stolen fork of its own. A
// helping wait may run only tasks that descend from its task, so the
// waiting task runs elsewhere, and nothing panics or hangs.
//
// Three workers: A runs the root, which forks F, and B runs F. F forks D,
// which the third worker takes and runs until C has started; F waits for
// D. Then the root makes C, which waits for F, stealable: only F's
// helping wait looks for work.
func TestWaitForSibling(t *testing.T) {
	for _, mode := range sched.Modes() {
		for _, kind := range []string{"future", "group", "other-do"} {
			t.Run(fmt.Sprintf("%v/%s", mode, kind), func(t *testing.T) {
				p := schedtest.NewPool(t, sched.PoolConfig{Workers: 3, Mode: mode})
				for range 20 {
					require.NoError(t, siblingRound(p, kind))
				}
			})
		}
	}
}

// siblingRound is one round of TestWaitForSibling.
func siblingRound(p *sched.Pool, kind string) error {
	var fStarted, dStarted, cStarted atomic.Bool
	f := func(t *sched.Task, _ int) int {
		fStarted.Store(true)
		d := sched.ForkFunc(t, func(*sched.Task, int) {
			dStarted.Store(true)
			for !cStarted.Load() {
				runtime.Gosched()
			}
		}, 0)
		for !dStarted.Load() {
			t.Demand() // publishes D for the idle worker
			runtime.Gosched()
		}
		d.Join(t) // nothing of its own to run: it looks for work
		return 42
	}
	// publish makes the root's private forks stealable until done holds.
	publish := func(t *sched.Task, done *atomic.Bool) {
		for !done.Load() {
			t.Demand()
			runtime.Gosched()
		}
	}
	var got int
	err := p.Do(context.Background(), func(t *sched.Task) error {
		switch kind {
		case "future":
			ff := sched.Fork(t, f, 0)
			publish(t, &dStarted)
			fc := sched.Fork(t, func(t *sched.Task, _ int) int {
				cStarted.Store(true)
				return ff.Join(t) // a sibling's Future
			}, 0)
			publish(t, &cStarted)
			got = fc.Join(t)
		case "group":
			g := t.NewGroup()
			g.Go(t, func(t *sched.Task) error { got = f(t, 0); return nil })
			publish(t, &dStarted)
			fc := sched.ForkFunc(t, func(t *sched.Task, _ int) {
				cStarted.Store(true)
				_ = g.Wait(t) // a group it does not belong to
			}, 0)
			publish(t, &cStarted)
			fc.Join(t)
		case "other-do":
			ff := sched.Fork(t, f, 0)
			publish(t, &dStarted)
			other := make(chan error, 1)
			go func() {
				other <- p.Do(context.Background(), func(t *sched.Task) error {
					cStarted.Store(true)
					got = ff.Join(t) // another Do's Future
					return nil
				})
			}()
			if err := <-other; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if got != 42 {
		return fmt.Errorf("the wait for F got %d", got)
	}
	return nil
}

// TestForeignJoins runs, in one Do, three legal joins of Futures by tasks
// other than their forking task, several Dos in a row, on every queue,
// mode and worker count: (a) a child joins its parent's fork, (b) a
// Group's task joins its parent's fork, (c) a Future escapes a child
// that returns without joining it, and a sibling joins it later. With
// one worker the sibling runs in the frame the child ran in: a frame is
// reused, and the Future's forking task is not the sibling. Each Do must
// return with every result right.
func TestForeignJoins(t *testing.T) {
	for name, newQueue := range poolKinds() {
		for _, mode := range sched.Modes() {
			for _, workers := range []int{1, 2, 8} {
				t.Run(fmt.Sprintf("%s/%v/workers=%d", name, mode, workers), func(t *testing.T) {
					p := schedtest.NewPool(t, sched.PoolConfig{NewQueue: newQueue, Mode: mode, Workers: workers})
					for i := range 8 {
						e := schedtest.CallInGoroutine(t, func() {
							require.NoError(t, p.Do(context.Background(), foreignJoins))
						})
						require.True(t, e.Returned, "Do %d: %v", i, e.Recovered)
					}
				})
			}
		}
	}
}

// foreignJoins is the task of TestForeignJoins.
func foreignJoins(t *sched.Task) error {
	square := func(_ *sched.Task, n int) int { return n * n }
	want := func(got, n int) {
		if got != n*n {
			panic(fmt.Sprintf("a join of square(%d) returned %d", n, got))
		}
	}
	// (a) A child joins its parent's fork.
	f := sched.Fork(t, square, 3)
	sched.ForkFunc(t, func(t *sched.Task, _ int) { want(f.Join(t), 3) }, 0).Join(t)
	// (b) A Group's task joins its parent's fork.
	f = sched.Fork(t, square, 4)
	g := t.NewGroup()
	g.Go(t, func(t *sched.Task) error { want(f.Join(t), 4); return nil })
	if err := g.Wait(t); err != nil {
		return err
	}
	// (c) A Future escapes a child, and a sibling joins it.
	var escaped sched.Future[int]
	sched.ForkFunc(t, func(t *sched.Task, _ int) { escaped = sched.Fork(t, square, 5) }, 0).Join(t)
	sched.ForkFunc(t, func(t *sched.Task, _ int) { want(escaped.Join(t), 5) }, 0).Join(t)
	return nil
}
