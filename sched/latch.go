package sched

import "sync/atomic"

// latch counts unfinished tasks (of a Group, or the one task of a Future)
// and lets waiters sleep until there are none. Waiters that are workers
// run other tasks first (see Worker.help) and sleep on the channel only
// when there is nothing to run.
//
// No lost wake-up: a waiter installs a channel and then reads the count; the
// task that brings the count to zero decrements it and then reads the
// channel. Sequential consistency makes one of the two see the other: the
// waiter sees zero and does not sleep, or the last task sees the channel
// and closes it.
//
// The count is kept as n = want + finished - added, so that a new latch
// needs no atomic store before it is published: a Group's latch has want 0
// and add counts each task, a Future's has want 1 (set when it is made) and
// counts its one task without add. The latch is done when n == want.
//
// fail holds how the tasks failed, written before the failing task arrives
// and read after the latch is done.
type latch struct {
	n    atomic.Int64
	ch   atomic.Pointer[chan struct{}]
	want int64
	fail *failure
}

// add counts k more unfinished tasks.
func (l *latch) add(k int64) { l.n.Add(-k) }

// done reports whether every counted task has finished.
func (l *latch) done() bool { return l.n.Load() == l.want }

// arrive counts one task as finished, and wakes the waiters if it was the
// last.
func (l *latch) arrive() {
	if l.n.Add(1) == l.want && l.ch.Load() != nil {
		if ch := l.ch.Swap(nil); ch != nil {
			close(*ch)
		}
	}
}

// channel returns a channel that is closed when the count next reaches
// zero. A waiter must check done after it has the channel, and sleep on it
// only if that reports false.
func (l *latch) channel() <-chan struct{} {
	for {
		if p := l.ch.Load(); p != nil {
			return *p
		}
		c := make(chan struct{})
		if l.ch.CompareAndSwap(nil, &c) {
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
