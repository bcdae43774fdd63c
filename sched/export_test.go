package sched

import (
	"context"
	"fmt"
	"slices"
	"sync"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/atomicx"
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

// CheckCrewTable checks every move of the pools' goroutines against
// crewRules (see trace) until the returned function is called, which
// stops and returns the moves that no rule allows, and how often each
// rule was taken, in the table's order.
func CheckCrewTable() (stop func() (bad []string, taken []int)) {
	c := &crewChecker{state: map[uint64][]gstate{}, taken: make([]int, len(crewRules))}
	f := c.move
	crewTrace.Store(&f)
	return func() ([]string, []int) {
		crewTrace.Store(nil)
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.bad, c.taken
	}
}

// CrewRuleNames returns each rule of crewRules as "state, event".
func CrewRuleNames() []string {
	var names []string
	for _, r := range crewRules {
		names = append(names, fmt.Sprintf("%v, %v", r.from, r.ev))
	}
	return names
}

// crewChecker follows each goroutine's state by its moves. A rule with
// two next states leaves both possible until the next move. A goroutine
// is known by atomicx.Goroutine, which the runtime reuses: a new
// goroutine may find the states of an ended one, which allow its first
// move (a take from gone or from new alike).
type crewChecker struct {
	mu    sync.Mutex
	state map[uint64][]gstate
	taken []int
	bad   []string
}

func (c *crewChecker) move(e gevent) {
	id := atomicx.Goroutine()
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.state[id]
	if !ok || slices.Contains(cur, gGone) {
		cur = append(slices.Clone(cur), gNew)
	}
	for i, r := range crewRules {
		if r.ev == e && slices.Contains(cur, r.from) {
			c.taken[i]++
			c.state[id] = r.to
			return
		}
	}
	if len(c.bad) < 10 {
		c.bad = append(c.bad, fmt.Sprintf("a goroutine in %v moves by %v, which no rule allows", cur, e))
	}
}
