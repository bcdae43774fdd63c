package sched

import "sync/atomic"

// latch counts unfinished tasks (of a Group, or the one task of a Future)
// and lets waiters sleep until there are none. Waiters that are workers
// run other tasks first (see poolWorker.join) and sleep on the channel only
// when there is nothing to run.
//
// n is the count. It is a plain int64 used only through sync/atomic's
// functions, so that a Future's latch can start at one in the composite
// literal that makes it, without an atomic store before it is published; it
// must stay the first word of the latch, and the latch the first field of
// Future and Group, so that it is 64-bit aligned on 32-bit platforms.
//
// What a latch rarely needs, a channel for sleeping waiters and the record
// of a failure, sits in a separate object made on first use, which keeps a
// Future small.
//
// No lost wake-up: a waiter installs a channel and then reads the count; the
// task that brings the count to zero decrements it and then reads the
// channel. Sequential consistency makes one of the two see the other: the
// waiter sees zero and does not sleep, or the last task sees the channel
// and closes it.
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

// add counts k more unfinished tasks.
func (l *latch) add(k int64) { atomic.AddInt64(&l.n, k) }

// done reports whether every counted task has finished.
func (l *latch) done() bool { return atomic.LoadInt64(&l.n) == 0 }

// arrive counts one task as finished, and wakes the waiters if it was the
// last.
func (l *latch) arrive() {
	if atomic.AddInt64(&l.n, -1) == 0 {
		if s := l.slow.Load(); s != nil && s.ch.Load() != nil {
			if ch := s.ch.Swap(nil); ch != nil {
				close(*ch)
			}
		}
	}
}

// getSlow returns the latch's latchSlow, making it if there is none.
func (l *latch) getSlow() *latchSlow {
	for {
		if s := l.slow.Load(); s != nil {
			return s
		}
		if s := new(latchSlow); l.slow.CompareAndSwap(nil, s) {
			return s
		}
	}
}

// failure returns how the tasks failed, or nil. It may be called once the
// latch is done.
func (l *latch) failure() *failure {
	if s := l.slow.Load(); s != nil {
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
