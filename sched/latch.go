package sched

import "sync/atomic"

// latch counts unfinished tasks and lets waiters sleep until there are
// none. A waiter that is a worker runs other items first (see
// Worker.findWork's l), and sleeps on the channel only when there is
// nothing to run.
//
// n is the count: a plain int64 for sync/atomic's functions, so that a
// latch can start at one with a plain store before it is published. It
// must stay the first word of the latch, and the latch the first field of
// the struct that holds it: then it is 64-bit aligned on 32-bit platforms.
//
// What a latch rarely needs, a channel for sleeping waiters and the record
// of a failure, sits in an object made on first use, which keeps a latch
// small.
//
// No lost wake-up: a waiter installs a channel and then reads the count;
// the task that brings the count to zero decrements it and then reads the
// channel. Both are sequentially consistent, so one of the two sees the
// other: the waiter sees zero and does not sleep, or the last task sees
// the channel and closes it.
type latch struct {
	n    int64
	slow atomic.Pointer[latchSlow]
}

// latchSlow is the part of a latch made on first use.
type latchSlow struct {
	ch atomic.Pointer[chan struct{}] // closed when the count next reaches zero
	// fail is how the tasks failed: written before the failing task
	// arrives, read after the latch is done.
	fail *failure
}

// add counts k more unfinished tasks. Atomic: counted tasks may arrive
// meanwhile.
func (l *latch) add(k int64) { atomic.AddInt64(&l.n, k) }

// done reports whether every counted task has finished. Atomic: the last
// task's decrement orders all it did before this load.
func (l *latch) done() bool { return atomic.LoadInt64(&l.n) == 0 }

// arrive counts one task as finished, and wakes the waiters if it was the
// last.
func (l *latch) arrive() { l.arriveN(1) }

// arriveN counts k tasks as finished, and wakes the waiters if they were
// the last.
func (l *latch) arriveN(k int64) {
	if atomic.AddInt64(&l.n, -k) == 0 { // only one arrival sees zero
		l.wake()
	}
}

// wake closes the channel of the waiters, if there is one. The arrival
// that brought the count to zero calls it, and then reads the channel:
// see latch. It stands apart so that arriveN and arrive inline.
func (l *latch) wake() {
	if s := l.slow.Load(); s != nil && s.ch.Load() != nil {
		if ch := s.ch.Swap(nil); ch != nil { // close it once: the next count gets a new one
			close(*ch)
		}
	}
}

// getSlow returns the latch's latchSlow, making it if there is none.
func (l *latch) getSlow() *latchSlow {
	for {
		if s := l.slow.Load(); s != nil {
			return s
		}
		// A CAS: a waiter and a failing task may make it at once.
		if s := new(latchSlow); l.slow.CompareAndSwap(nil, s) {
			return s
		}
	}
}

// failure returns how the tasks failed, or nil. It may be called once the
// latch is done.
func (l *latch) failure() *failure {
	if s := l.slow.Load(); s != nil { // the latch is done: fail was written before
		return s.fail
	}
	return nil
}

// raise repeats how the tasks failed, if they did, in the calling
// goroutine (see failure.raise). It may be called once the latch is done.
func (l *latch) raise() { l.failure().raise() }

// channel returns a channel that is closed when the count next reaches
// zero. A waiter must check done after it has the channel, and sleep on it
// only if that reports false.
func (l *latch) channel() <-chan struct{} {
	s := l.getSlow()
	for {
		if p := s.ch.Load(); p != nil {
			return *p
		}
		c := make(chan struct{})
		// A CAS: waiters may install one at once, and must share it.
		if s.ch.CompareAndSwap(nil, &c) {
			return c
		}
	}
}

// wait blocks the calling goroutine, which is not a worker, until every
// counted task has finished.
func (l *latch) wait() {
	for !l.done() {
		ch := l.channel()
		if l.done() {
			return
		}
		<-ch
	}
}
