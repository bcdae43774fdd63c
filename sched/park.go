package sched

import (
	"context"
	"time"
)

// Sleeping is the same in both modes: a worker in Random mode and a
// master in Master mode park with park, after they announced themselves
// to publishers in a word of their mode.
//
// A publisher pushes and then reads whether anyone sleeps; a sleeper
// announces itself and then reads the queues. With sequentially
// consistent operations on both sides, one of the two would always see
// the other. But owners push with release stores (no locked instruction on
// amd64), which a processor may make visible after the publisher's next
// load. Both may then miss each other. The store leaves the store buffer
// within far less than a microsecond, so one more look a little later sees
// it (lateLook). A wake-up can then be late, never lost, and an idle
// scheduler still sleeps: one look per park, no polling.

// lateLook is how long a sleeper waits before it looks at the queues once
// more.
const lateLook = time.Millisecond

// askWait is how long a searcher (a Random worker, a Master poller) goes
// on searching before it parks while
// some worker is busy. A busy worker whose items are short publishes what
// it keeps private at its next fork, join or pop after an ask, about an
// item's time later. On a loop of steps, the busy worker starts the next
// step when its task ends. Parking sooner would add a wake-up to every
// such answer: the runtime runs a woken goroutine on the waker's
// processor, and another processor takes it only once its own thread has
// woken, about a task's time later on a loop of steps (BENCHMARKS.md).
// The search yields between rounds, so another goroutine that wants the
// processor gets it.
const askWait = 10 * longGrain

// lateTimer is the timer of one sleeper's late look, made on first use and
// reused.
type lateTimer struct{ t *time.Timer }

// arm starts the timer and returns its channel.
func (l *lateTimer) arm() <-chan time.Time {
	if l.t == nil {
		l.t = time.NewTimer(lateLook)
	} else {
		l.t.Reset(lateLook)
	}
	return l.t.C
}

// disarm stops the timer, if it has not fired.
func (l *lateTimer) disarm() { l.t.Stop() }

// parkEnd is how park ended.
type parkEnd int

const (
	// woken: a publisher sent a token on wake, and took back the
	// sleeper's announcement itself.
	woken parkEnd = iota
	// stopped: the sleeper saw work, or w may stop looking. The caller
	// takes back its announcement.
	stopped
	// ended: the run is complete, or ctx is cancelled.
	ended
)

// park sleeps until one of the cases of parkEnd. The caller has announced
// itself to publishers. w and l are the worker that sleeps and the latch of
// its helping wait, or nil; a master passes nil for both. who is the
// sleeper, as traceMove reports it.
func park[T any](ctx context.Context, s *scheduler[T], wake <-chan struct{}, late *lateTimer, w *Worker[T], l *latch, who any) parkEnd {
	var joined, recall <-chan struct{}
	if l != nil {
		joined = l.channel() // before the check below, which it backs
	}
	if w != nil {
		recall = w.recall
	}
	// Announced, so look once more: a push before the announcement shows.
	if s.anyWork() || (w != nil && w.stopLooking(l)) {
		return stopped
	}
	traceMove(who, evSleep)
	look := late.arm()
	for {
		select {
		case <-wake:
			late.disarm()
			return woken
		case <-joined:
			late.disarm()
			return stopped
		case <-recall:
			late.disarm()
			return stopped
		case <-s.done:
			late.disarm()
			return ended
		case <-ctx.Done():
			late.disarm()
			return ended
		case <-look:
			look = nil // one late look, then sleep until woken
			if s.anyWork() {
				return stopped
			}
		}
	}
}
