package sched

import (
	"context"
	"fmt"
	"reflect"
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

// CheckTables checks every move of the pools' goroutines against
// crewRules (see trace), and every move of the workers, masters and
// publishers of every run against parkRules (see traceMove), until the
// returned function is called. It stops, and returns the moves that no
// rule allows, and how often each rule of each table was taken, in the
// table's order.
func CheckTables() (stop func() (bad []string, crewTaken, parkTaken []int)) {
	c := &crewChecker{state: map[uint64][]gstate{}, taken: make([]int, len(crewRules))}
	p := &parkChecker{state: map[uintptr]wstate{}, taken: make([]int, len(parkRules))}
	f := func(who any, e uint8) {
		if who == nil {
			c.move(gevent(e))
		} else {
			p.move(who, wevent(e))
		}
	}
	moveTrace.Store(&f)
	return func() ([]string, []int, []int) {
		moveTrace.Store(nil)
		c.mu.Lock()
		defer c.mu.Unlock()
		p.mu.Lock()
		defer p.mu.Unlock()
		return append(c.bad, p.bad...), c.taken, p.taken
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

// ParkRuleNames returns each rule of parkRules as "states, event".
func ParkRuleNames() []string {
	var names []string
	for _, r := range parkRules {
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

// parkChecker follows the state of each worker, master and publisher by
// its moves. The mover is known by its address, which the garbage
// collector reuses once a run is gone: a mover in a state where one may
// rest for ever (gone, runs, m-idle, publishes) whose move no rule
// allows from there starts again as a new one, in runs, m-idle or
// publishes.
type parkChecker struct {
	mu    sync.Mutex
	state map[uintptr]wstate
	taken []int
	bad   []string
}

// parkStarts are the states in which a worker, a master and a
// publisher start.
var parkStarts = []wstate{wRuns, mIdle, wPublishes}

func (c *parkChecker) move(who any, e wevent) {
	id := reflect.ValueOf(who).Pointer()
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.state[id]
	if !ok {
		cur = wGone
	}
	if c.take(id, cur, e) {
		return
	}
	if slices.Contains([]wstate{wGone, wRuns, mIdle, wPublishes}, cur) {
		for _, s := range parkStarts {
			if c.take(id, s, e) {
				return
			}
		}
	}
	if len(c.bad) < 10 {
		c.bad = append(c.bad, fmt.Sprintf("a %T in %v moves by %v, which no rule allows", who, cur, e))
	}
}

// take applies the rule for s and e, if there is one, and reports
// whether there was.
func (c *parkChecker) take(id uintptr, s wstate, e wevent) bool {
	for i, r := range parkRules {
		if r.ev == e && slices.Contains(r.from, s) {
			c.taken[i]++
			c.state[id] = r.to
			return true
		}
	}
	return false
}

// LimitWaiters returns the number of Go calls that wait for a token of
// g's limit.
func (g *Group) LimitWaiters() int {
	gl := g.limitOf()
	if gl == nil {
		return 0
	}
	gl.mu.Lock()
	defer gl.mu.Unlock()
	return len(gl.waiters) - gl.head
}
