// Package schedtest holds the test helpers that the tests of package sched
// and of package par share: how a call ended, pools closed at the end of a
// test, and the costs and counters of the loops' tests. It is imported by
// tests only.
package schedtest

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/worksteal/wsq/sched"
)

// Ending is how a call of a function ended, as seen by a deferred call in
// the goroutine that made it.
type Ending struct {
	Returned  bool // it returned normally
	Recovered any  // what recover returned: a panic value, or nil
}

// CallInGoroutine calls f in a new goroutine and reports how it ended: by
// returning, by a panic (Recovered), or by runtime.Goexit (neither). The
// deadline only turns a hang into a failure; it is far beyond any
// legitimate run.
func CallInGoroutine(t testing.TB, f func()) Ending {
	t.Helper()
	c := make(chan Ending, 1)
	go func() {
		var e Ending
		defer func() {
			e.Recovered = recover()
			c <- e
		}()
		f()
		e.Returned = true
	}()
	select {
	case e := <-c:
		return e
	case <-time.After(time.Minute):
		t.Fatal("the call did not end")
		return Ending{}
	}
}

// PanicValue returns the value f panicked with, unwrapping the
// *sched.PanicError a task's panic reaches its waiter in, or nil if f
// returned. It fails the test if f neither returns nor panics in time.
func PanicValue(t testing.TB, f func()) any {
	t.Helper()
	e := CallInGoroutine(t, f)
	if pe, ok := e.Recovered.(*sched.PanicError); ok {
		return pe.Value
	}
	return e.Recovered
}

// ErrBoom is a panic value that is an error.
var ErrBoom = errors.New("boom")

// NewPool makes a pool and closes it at the end of the test.
func NewPool(t testing.TB, cfg sched.PoolConfig) *sched.Pool {
	t.Helper()
	p, err := sched.NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Modes returns the scheduler's modes, the default first.
func Modes() []sched.Mode { return []sched.Mode{sched.Random, sched.Master} }

// LoopPools returns pools of 1, 2 and 4 workers in each mode, closed at
// the end of the test. With more workers than cores, idle workers park,
// and parked workers count as looking: loops split.
func LoopPools(t testing.TB) map[string]*sched.Pool {
	pools := map[string]*sched.Pool{}
	for _, mode := range Modes() {
		for _, w := range []int{1, 2, 4} {
			pools[fmt.Sprintf("%v/workers=%d", mode, w)] = NewPool(t, sched.PoolConfig{Workers: w, Mode: mode})
		}
	}
	return pools
}

// SpinFor busies the calling goroutine for d: a body whose cost a loop
// measures, without parking its worker.
func SpinFor(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// Uneven is the cost of index i of a loop of n in the tests: most indices
// are free, some cost some microseconds, so that parts split and
// balance.
func Uneven(i, n int) {
	if i%97 == 0 || i > n-n/16 {
		SpinFor(2 * time.Microsecond)
	}
}

// Counter counts the visits of each index of a loop.
type Counter []atomic.Int32

// Check fails the test unless every index was visited exactly once.
func (c Counter) Check(t testing.TB, what string) {
	t.Helper()
	for i := range c {
		if v := c[i].Load(); v != 1 {
			t.Fatalf("%s: index %d visited %d times", what, i, v)
		}
	}
}

// ByTask is the panic of a call that only goroutines that are not tasks
// may make, what, by a task: "Join with a nil Task", say, or "Do, or a
// call with a nil Task", which the loops' nil Task reaches.
func ByTask(what string) string {
	return "sched: " + what + ", called by a task: a task passes its own t, so that its worker runs other tasks while it waits; a nil Task, Do and the Context forms are for goroutines that are not tasks"
}
