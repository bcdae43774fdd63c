package sched

import (
	"context"
	"runtime"
	"time"

	wsq "github.com/worksteal/wsq"
)

// runMaster is the master goroutine of Master mode: it serves idle workers
// in the order they ran out of work, each with a proportion of the busiest
// queue (or with nothing, if the worker has stopped waiting: see
// Worker.wants). It is the only thief, so every queue has at most two goroutines on
// it. It sleeps while no worker is idle, and parks while no queue has work.
func (s *scheduler[T]) runMaster(ctx context.Context) {
	for {
		var w *Worker[T]
		select {
		case w = <-s.idle:
		case <-s.done:
			return
		case <-ctx.Done():
			return
		}
		start := time.Now()
		for {
			if !w.wants.Load() {
				w.inbox <- delivery[T]{} // it gave up waiting: answer with nothing
				break
			}
			d, ok := s.stealFor(w)
			if ok {
				now := time.Now()
				s.master.busy += now.Sub(start)
				s.master.wait += now.Sub(w.idleSince) // the channels order w's write before this read
				w.inbox <- d                          // never blocks: w waits for exactly this delivery
				break
			}
			s.master.busy += time.Since(start)
			if !s.awaitWork(ctx) {
				return
			}
			start = time.Now()
		}
	}
}

// stealFor takes a share of the items added from outside the workers, if
// there are any, or else a proportion of the longest queue other than w's,
// for w. It reports false when there is nothing to take.
func (s *scheduler[T]) stealFor(w *Worker[T]) (delivery[T], bool) {
	if s.inj.n.Load() > 0 {
		if items := s.inj.take(w.recv[:0], len(s.workers)); len(items) > 0 {
			return delivery[T]{items: items, n: len(items)}, true
		}
	}
	for {
		var victim *Worker[T]
		most := 0
		for _, v := range s.workers {
			if l := v.queue.Len(); v != w && l > most {
				victim, most = v, l
			}
		}
		if victim == nil {
			return delivery[T]{}, false
		}
		var d delivery[T]
		if victim.handoff != nil && wsq.StealCount(most, s.cfg.Proportion) > smallHandoff {
			if p := victim.handoff.StealParcel(s.cfg.Proportion); p != nil {
				d.parcel, d.n = p, p.Len()
				s.master.parcels++
			}
		} else {
			d.items = victim.queue.StealBatch(w.recv[:0], s.cfg.Proportion)
			d.n = len(d.items)
		}
		if d.n > 0 {
			s.master.steals++
			s.master.moved += int64(d.n)
			return d, true
		}
		s.master.failed++ // the owner emptied its queue meanwhile; look again
	}
}

// smallHandoff is the most items a steal for the master copies even from a
// queue that hands its items over as a wsq.Parcel: a parcel costs an
// allocation and a link at both ends, and copying a few items costs less.
// The choice is made on the length the master read just before; a victim
// that grew meanwhile is copied all the same.
const smallHandoff = 32

// awaitWork waits until some queue holds an item. It reports false when the
// run is complete or ctx is cancelled.
func (s *scheduler[T]) awaitWork(ctx context.Context) bool {
	for range s.cfg.Spin {
		runtime.Gosched()
		if s.anyWork() {
			return true
		}
	}
	// Announce, then look once more: a publisher pushes and then reads
	// masterWaiting, so one of the two sees the other.
	s.masterWaiting.Store(true)
	if s.anyWork() {
		s.masterWaiting.Store(false) // a token sent meanwhile only causes one extra look
		return true
	}
	select {
	case <-s.masterWake:
		return true
	case <-s.done:
		return false
	case <-ctx.Done():
		return false
	}
}
