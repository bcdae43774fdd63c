package sched

import (
	"context"

	wsq "github.com/worksteal/wsq"
)

// RunCounting runs like Run and, however the run ends (even by a panic or
// runtime.Goexit that it passes on), stores the run's Stats in st and the
// number of items left unhandled in the workers (in their queues, in what
// they set aside, and in deliveries from the master not yet taken) in left,
// so that a test can account for every item of a run that ended early.
func RunCounting[T any](ctx context.Context, cfg Config[T], roots []T, h Handler[T], st *Stats, left *int) error {
	s, err := newScheduler[T](cfg, runHost[T](h))
	if err != nil {
		return err
	}
	defer func() {
		*st = s.stats()
		*left = 0
		for _, w := range s.workers {
			if w.owed {
				s.mode.collect(w)
			}
			w.owed = false
			for {
				if _, ok := w.next(); !ok {
					break
				}
				*left++
			}
		}
	}()
	_, err = s.run(ctx, roots)
	return err
}

// Goroutines returns the number of the pool's goroutines, how many of them
// are parked spares, how many have lent their worker (Task.Block) and the
// most spares the pool keeps, so that a test can see the pool return to
// its workers' goroutines after a blocking burst.
func (p *Pool) Goroutines() (all, spares, blocked, maxSpares int) {
	c := p.crew
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.ids), len(c.spares), int(c.blocked.Load()), c.maxSpares
}

// RaceEnabled reports whether the race detector is on, and with it the
// check that a Task is used by its own goroutine.
const RaceEnabled = raceEnabled

// Modes returns the modes, for tests that run in each.
func Modes() []Mode { return []Mode{Master, Random} }

// DefaultQueue is the queue of a Config with a nil NewQueue.
func DefaultQueue[T any]() wsq.Queue[T] { return defaultQueue[T]() }

// DefaultMaxBlocked is the MaxBlocked of a Config that leaves it zero.
const DefaultMaxBlocked = defaultMaxBlocked

// WorkerCount returns the number of workers that Run and NewPool start
// for c.
func (c Config[T]) WorkerCount() int { return c.workerCount() }

// WithSpin returns c with the spin count n (zero: the default).
func WithSpin[T any](c Config[T], n int) Config[T] {
	c.spin = n
	return c
}

// Spin returns the spin count of c.
func Spin[T any](c Config[T]) int { return c.spin }

// CloseDefault closes the default pool, if it started, and forgets it:
// TestMain calls it after the tests, so that goleak then finds none of
// the pool's goroutines.
func CloseDefault() {
	if p := defaultPool.p.Swap(nil); p != nil {
		p.Close()
	}
}
