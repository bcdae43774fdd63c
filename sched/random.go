package sched

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// random is Random mode: a worker that runs out of work steals from the
// old end of other workers' queues, visiting them from a random starting
// point, and parks when a few rounds found nothing.
//
// spinning counts the workers looking for work (not parked, not working);
// publishers read it on every push, so it sits on its own line. sleepers
// mirrors len(sleeping) so that publishers can check it without the lock.
//
// No lost wake-up: a publisher pushes, then reads spinning and sleepers,
// and wakes a parked worker if nobody searches (published). Whoever stops
// searching decrements spinning first and reads every queue after: a worker
// about to park (park), or the last searcher that found work or left the
// search (stopSearching). Sequential consistency would make one of the two
// sides see the other, so that while some queue holds stealable items and a
// worker is parked, someone searches or is being woken. The owners' pushes
// are release stores, though, which a publisher's next load may pass: a
// worker that parks looks at the queues once more a little later
// (lateLook), which the push cannot escape; the last searcher's look in
// stopSearching has no second one, and a push it misses waits for the next
// publish or for its owner, which costs parallelism, never completion.
type random[T any] struct {
	s        *scheduler[T]
	_        pad.Line
	spinning atomic.Int32
	_        pad.Line
	sleepers atomic.Int32
	mu       sync.Mutex   // guards sleeping
	sleeping []*Worker[T] // parked workers, most recent last
}

// start does nothing: Random mode has no goroutine of its own.
func (r *random[T]) start(context.Context) {}

func (r *random[T]) find(ctx context.Context, w *Worker[T], l *latch) bool {
	return r.search(ctx, w, l)
}

// published wakes one parked worker, unless some worker is searching
// already (it will find the items, or look once more before it parks).
func (r *random[T]) published() {
	if r.spinning.Load() == 0 && r.sleepers.Load() > 0 {
		r.wakeOne()
	}
}

// addStats adds the workers' own steals: in Random mode they are the
// thieves.
func (r *random[T]) addStats(st *Stats) {
	for _, w := range r.s.workers {
		st.Steals += w.stats.Steals
		st.Moved += w.stats.Moved
		st.EmptySteals += w.empty
		st.ContendedSteals += w.contended
	}
}

// search looks for work in the injector and in other workers' queues,
// parking between rounds when there is none. It gives up when
// w.stopLooking(l) holds.
func (r *random[T]) search(ctx context.Context, w *Worker[T], l *latch) bool {
	s := w.s
	r.spinning.Add(1)
	for {
		for range s.cfg.Spin {
			if w.stopLooking(l) {
				r.stopSearching()
				return false
			}
			if w.takeInjected() || r.steal(w) {
				// Stop searching before publishing what was stolen, so that
				// publishing wakes a parked worker if nobody else searches.
				r.stopSearching()
				w.takeStolen()
				return true
			}
			select {
			case <-s.done:
				r.spinning.Add(-1)
				return false
			case <-ctx.Done():
				r.spinning.Add(-1)
				return false
			default:
			}
			runtime.Gosched()
		}
		if !r.park(ctx, w, l) {
			return false
		}
	}
}

// park announces the worker as parked, looks for work once more, and sleeps
// until a publisher wakes it, w.stopLooking(l) may hold, or the run ends. On
// a true return the worker is counted as searching again.
func (r *random[T]) park(ctx context.Context, w *Worker[T], l *latch) bool {
	s := w.s
	var joined <-chan struct{}
	if l != nil {
		joined = l.channel()
	}
	w.shed()
	r.mu.Lock()
	r.sleeping = append(r.sleeping, w)
	r.sleepers.Add(1)
	r.mu.Unlock()
	r.spinning.Add(-1)
	// A publisher pushes and then reads sleepers; we announced ourselves
	// and now read the queues. One of us sees the other, once the push is
	// visible: see lateLook for the look we take once more.
	if s.anyWork() || w.stopLooking(l) {
		r.rejoin(w)
		return true
	}
	late := w.late.arm()
	for {
		select {
		case <-w.wake:
			w.late.disarm()
			return true
		case <-joined:
			w.late.disarm()
			r.rejoin(w)
			return true
		case <-w.reclaim:
			w.late.disarm()
			r.rejoin(w)
			return true
		case <-s.done:
			w.late.disarm()
			return false
		case <-ctx.Done():
			w.late.disarm()
			return false
		case <-late:
			late = nil // one late look, then sleep until woken
			if s.anyWork() {
				r.rejoin(w)
				return true
			}
		}
	}
}

// rejoin takes a parked worker back among the searchers.
func (r *random[T]) rejoin(w *Worker[T]) {
	if r.unpark(w) {
		r.spinning.Add(1)
	} else {
		<-w.wake // a waker chose us and counted us as searching
	}
}

// steal tries every other worker than w once, from a random starting point,
// and reports whether a steal succeeded, with the items in w.buf. It skips
// a victim whose Len is zero, and steals with TrySteal or TryStealBatch,
// which never wait for another thief: a victim that reports wsq.Empty is
// left at once, and one that reports wsq.Contended (the thief lost a race
// there, so it may still hold items) is tried once more before the thief
// moves on, so that a lost race against one other thief does not send it
// away from the only queue with work, while a victim that stays contended
// does not hold it up.
func (r *random[T]) steal(w *Worker[T]) bool {
	s := w.s
	n := len(s.workers)
	if n == 1 {
		return false
	}
	w.rng ^= w.rng << 13
	w.rng ^= w.rng >> 7
	w.rng ^= w.rng << 17
	first := int(w.rng % uint64(n-1))
	for i := range n - 1 {
		// Skip w itself: victims are w.id+1 ... w.id+n-1 modulo n.
		v := s.workers[(w.id+1+(first+i)%(n-1))%n]
		if !s.holds && v.queue.Len() == 0 {
			continue // a queue whose owner holds items is asked by the steal
		}
	tries:
		for range 2 {
			var res wsq.StealResult
			if s.cfg.StealOne {
				var x T
				w.buf = w.buf[:0]
				if x, res = v.queue.TrySteal(); res == wsq.Taken {
					w.buf = append(w.buf, x)
				}
			} else {
				w.buf, res = v.queue.TryStealBatch(w.buf[:0], s.cfg.Proportion)
			}
			switch res {
			case wsq.Taken:
				w.stats.Steals++
				w.stats.Moved += int64(len(w.buf))
				return true
			case wsq.Empty:
				w.empty++
				break tries // the owner or another thief got there first
			default:
				w.contended++ // try once more, then move on
			}
		}
	}
	return false
}

// stopSearching is called by a searcher that found work, before it
// publishes any of it, and by a worker that gives up the search (see
// Worker.stopLooking). A publisher that saw it searching skipped the wake
// (see published), so if it was the last searcher it looks at every queue, as
// park does, and wakes a parked worker when any has work: the Go runtime's
// rule that the last spinning M to find work wakes another.
func (r *random[T]) stopSearching() {
	if r.spinning.Add(-1) == 0 && r.sleepers.Load() > 0 && r.s.anyWork() {
		r.wakeOne()
	}
}

// wakeOne wakes the most recently parked worker, if any, and counts it as
// searching, so that other publishers need not wake one more.
func (r *random[T]) wakeOne() {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.sleeping)
	if n == 0 {
		return
	}
	w := r.sleeping[n-1]
	r.sleeping[n-1] = nil
	r.sleeping = r.sleeping[:n-1]
	r.sleepers.Add(-1)
	r.spinning.Add(1)
	// Never blocks: w was in sleeping, so it has no token yet, and it takes
	// this one before it parks again.
	w.wake <- struct{}{}
}

// unpark removes w from the parked workers and reports whether it was still
// there; false means a waker took it out and sent it a token.
func (r *random[T]) unpark(w *Worker[T]) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parked bool
	if r.sleeping, parked = unordered(r.sleeping, w); parked {
		r.sleepers.Add(-1)
	}
	return parked
}
