package sched

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// random is Random mode: a worker that runs out of work steals from the
// old end of other workers' queues, visiting them from a random starting
// point, and parks when a few rounds found nothing.
//
// spinning counts the workers looking for work (not parked, not working).
// Publishers read it on every push, so it sits on its own line. sleepers
// mirrors len(sleeping), so that publishers can read it without the lock;
// it is a plain int32 for sync/atomic's functions (see masters.sleepers).
//
// No lost wake-up: a publisher pushes, then reads spinning and sleepers,
// and wakes a parked worker if nobody searches (published). Whoever stops
// searching decrements spinning first and reads every queue after: a
// worker about to park, or the last searcher (stopSearching). So while
// some queue holds items and a worker is parked, someone searches or is
// being woken. A push the parking worker misses, the late look sees (see
// park.go). The last searcher has no late look: a push it misses waits for
// the next publish or for its owner, which costs parallelism, never
// completion.
type random[T any] struct {
	s        *scheduler[T]
	_        pad.Line
	spinning atomic.Int32
	_        pad.Line
	sleepers int32
	mu       sync.Mutex     // guards sleeping
	sleeping []*searcher[T] // parked workers, most recent last
	ws       []searcher[T]  // indexed by Worker.id
}

// searcher is one worker's side of Random mode. Only the worker's
// goroutine touches it, except wake.
type searcher[T any] struct {
	w         *Worker[T]
	wake      chan struct{} // capacity one: a waker's token
	late      lateTimer     // the late look of the parked worker
	rng       uint64        // xorshift state for choosing victims
	empty     int64         // steals that found a non-empty-looking victim empty
	contended int64         // steals that met contention
	_         pad.Line
}

func newRandom[T any](s *scheduler[T]) (*random[T], *int32) {
	r := &random[T]{s: s, ws: make([]searcher[T], len(s.workers))}
	for i, w := range s.workers {
		r.ws[i] = searcher[T]{w: w, wake: make(chan struct{}, 1), rng: uint64(i)*0x9e3779b97f4a7c15 + 1}
	}
	return r, &r.sleepers
}

// start does nothing: Random mode has no goroutine of its own.
func (r *random[T]) start(context.Context) {}

// find looks for work in the injector and in other workers' queues,
// parking between rounds when there is none. It gives up when
// w.stopLooking(l) holds.
func (r *random[T]) find(ctx context.Context, w *Worker[T], l *latch) bool {
	sr := &r.ws[w.id]
	s := w.s
	r.spinning.Add(1) // publishers that see a searcher need not wake anyone
	traceMove(w, evLook)
	since := time.Duration(-1) // when the first rounds found nothing: see askWait
	rounds := 0                // of the search: every yieldEvery-th yields
	for {
		for range s.cfg.spin {
			if w.stopLooking(l) {
				traceMove(w, evGiveUp)
				r.stopSearching()
				return false
			}
			if w.takeInjected() || r.steal(sr, l != nil) {
				// Stop searching before publishing what was stolen, so that
				// publishing wakes a parked worker if nobody else searches.
				traceMove(w, evFound)
				r.stopSearching()
				w.takeStolen()
				return true
			}
			select {
			case <-s.done:
				r.spinning.Add(-1) // the run is over: nobody needs to see it
				traceMove(w, evEnd)
				return false
			case <-ctx.Done():
				r.spinning.Add(-1) // as above
				traceMove(w, evEnd)
				return false
			default:
			}
			if rounds++; rounds%yieldEvery == 0 {
				runtime.Gosched()
			} else {
				w.pause(l)
			}
		}
		if r.looking() < len(s.workers) {
			now := s.clock() // only here: a search that finds work reads no clock
			if since < 0 {
				since = now
			}
			if now-since < askWait {
				continue // a busy worker answers the asks soon
			}
		}
		if !r.park(ctx, sr, l) {
			return false
		}
		since = -1
	}
}

// yieldEvery is how often a searcher yields its processor between rounds:
// every yieldEvery-th round. The others pause (Worker.pause). A yield
// enters the runtime's scheduler and takes its global lock; a pause of a
// hundred loads costs less, and answers a helping wait's latch at once.
// The yields let another goroutine that wants the processor run: a
// master, a spare that runs a lent worker, the program's own.
const yieldEvery = 8

// published wakes one parked worker, unless some worker is searching
// already: it will find the items, or look once more before it parks.
func (r *random[T]) published() {
	traceMove(r, evPublish)
	// After the push: see random for why one of the two sides sees the other.
	if r.spinning.Load() == 0 && atomic.LoadInt32(&r.sleepers) > 0 {
		r.wakeOne()
	}
}

// looking counts the searchers and the parked workers.
func (r *random[T]) looking() int {
	return int(r.spinning.Load()) + int(atomic.LoadInt32(&r.sleepers))
}

// collect does nothing: Random mode owes no worker anything.
func (r *random[T]) collect(*Worker[T]) {}

// shed does nothing: Random mode's buffers are the worker's.
func (r *random[T]) shed(*Worker[T]) {}

// addStats adds the workers' own steals: in Random mode they are the
// thieves.
func (r *random[T]) addStats(st *Stats) {
	for i := range r.ws {
		sr := &r.ws[i]
		st.Steals += sr.w.stats.Steals
		st.Moved += sr.w.stats.Moved
		st.detail.EmptySteals += sr.empty
		st.detail.ContendedSteals += sr.contended
	}
}

// park announces the worker as parked and sleeps (see park.go). On
// a true return the worker is counted as searching again.
func (r *random[T]) park(ctx context.Context, sr *searcher[T], l *latch) bool {
	sr.w.shed()
	r.mu.Lock()
	r.sleeping = append(r.sleeping, sr)
	atomic.AddInt32(&r.sleepers, 1) // the announcement publishers read
	traceMove(sr.w, evAnnounce)     // under mu: before any waker's wake
	r.mu.Unlock()
	r.spinning.Add(-1) // after the announcement: see random
	switch park(ctx, r.s, sr.wake, &sr.late, sr.w, l, any(sr.w)) {
	case woken:
		traceMove(sr.w, evTakeToken)
		return true // the waker counted us as searching
	case stopped:
		r.rejoin(sr)
		return true
	}
	traceMove(sr.w, evEnd)
	return false
}

// rejoin takes a parked worker back among the searchers.
func (r *random[T]) rejoin(sr *searcher[T]) {
	if r.unpark(sr) {
		r.spinning.Add(1) // searching again; a waker would have counted it
		traceMove(sr.w, evRejoin)
	} else {
		<-sr.wake // a waker chose us and counted us as searching
		traceMove(sr.w, evTakeToken)
	}
}

// steal tries every other worker once, from a random starting point, and
// reports whether a steal succeeded, with the items in the worker's buf.
// It asks each worker whose queue it found empty for work (Worker.ask).
// helping says that the worker looks from a helping wait (see
// scheduler.proportion). It skips a victim whose Len is zero. TrySteal
// and TryStealBatch never wait for another thief:
//
//	result     the thief
//	Taken      returns with the items
//	Empty      moves on at once: the owner or a thief got there first
//	Contended  tries once more, then moves on: a lost race leaves items
func (r *random[T]) steal(sr *searcher[T], helping bool) bool {
	w := sr.w
	s := w.s
	n := len(s.workers)
	if n == 1 {
		return false
	}
	// The searchers, the thief among them, and the parked workers. The
	// grain is left out: here one coarse item a helping steal did not pay
	// (see scheduler.proportion).
	p := s.proportion(r.looking(), helping, false)
	one := s.cfg.StealOne || p == wsq.OneItem // one item: TrySteal, the cheaper call
	sr.rng ^= sr.rng << 13
	sr.rng ^= sr.rng >> 7
	sr.rng ^= sr.rng << 17
	first := int(sr.rng % uint64(n-1))
	for i := range n - 1 {
		// Skip w itself: victims are w.id+1 ... w.id+n-1 modulo n.
		v := s.workers[(w.id+1+(first+i)%(n-1))%n]
		if !s.holds && v.queue.Len() == 0 {
			v.ask()  // its host may keep work private (see Worker.asked)
			continue // a queue whose owner holds items is asked by the steal
		}
	tries:
		for range 2 {
			var res wsq.StealResult
			if one {
				var x T
				w.buf = w.buf[:0]
				if x, res = v.queue.TrySteal(); res == wsq.Taken {
					w.buf = append(w.buf, x)
				}
			} else {
				w.buf, res = v.queue.TryStealBatch(w.buf[:0], p)
			}
			switch res {
			case wsq.Taken:
				w.stats.Steals++
				w.stats.Moved += int64(len(w.buf))
				return true
			case wsq.Empty:
				sr.empty++
				v.ask()
				break tries
			default:
				sr.contended++
			}
		}
	}
	return false
}

// stopSearching is called by a searcher that found work, before it
// publishes any of it, and by one that gives up. A publisher that saw it
// searching skipped the wake. So the last searcher looks at every queue,
// and wakes a parked worker when any has work: the Go runtime's rule that
// the last spinning M to find work wakes another.
func (r *random[T]) stopSearching() {
	// The decrement before the look: see random.
	if r.spinning.Add(-1) == 0 && atomic.LoadInt32(&r.sleepers) > 0 && r.s.anyWork() {
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
	sr := r.sleeping[n-1]
	r.sleeping[n-1] = nil
	r.sleeping = r.sleeping[:n-1]
	atomic.AddInt32(&r.sleepers, -1) // under mu, with sleeping
	r.spinning.Add(1)                // before the token: the woken worker searches
	traceMove(sr.w, evWake)          // under mu, before the token: see parkRules
	// Never blocks: sr was in sleeping, so it has no token yet, and it
	// takes this one before it parks again.
	sr.wake <- struct{}{}
}

// unpark removes sr from the parked workers and reports whether it was
// still there; false means a waker took it out and sent it a token.
func (r *random[T]) unpark(sr *searcher[T]) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parked bool
	if r.sleeping, parked = unordered(r.sleeping, sr); parked {
		atomic.AddInt32(&r.sleepers, -1) // under mu, with sleeping
	}
	return parked
}
