package sched

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// master is Master mode, the paper's master-worker balancing: a worker that
// runs out of work asks the master goroutine, the only thief, which moves a
// proportion of the busiest queue to it.
//
// idle queues the workers that asked the master for work, in order; its
// capacity is the worker count and a worker is in it at most once (see
// Worker.asked), so sending never blocks. waiting is 1 while the master
// is parked waiting for any queue to become non-empty, 0 otherwise; the
// publisher that clears it sends a token on wake (capacity one).
type master[T any] struct {
	s       *scheduler[T]
	_       pad.Line
	waiting atomic.Int32
	_       pad.Line
	idle    chan *Worker[T]
	wake    chan struct{}
	late    lateTimer   // the master's late look (see lateLook)
	st      masterStats // written by the master goroutine only
}

// masterStats is the master's share of Stats.
type masterStats struct {
	steals, empty, contended, moved, parcels int64
	busy, wait                               time.Duration
}

func newMaster[T any](s *scheduler[T]) *master[T] {
	m := &master[T]{s: s, idle: make(chan *Worker[T], s.cfg.Workers), wake: make(chan struct{}, 1)}
	s.waiters = &m.waiting
	return m
}

// start starts the master goroutine.
func (m *master[T]) start(ctx context.Context) {
	m.s.wg.Add(1)
	go func() {
		defer m.s.wg.Done()
		m.run(ctx)
	}()
}

// find gives w a share of the items added from outside the workers, if
// there are any, or else waits for the master's delivery.
func (m *master[T]) find(ctx context.Context, w *Worker[T], l *latch) bool {
	if w.takeInjected() {
		w.takeStolen()
		return true
	}
	return m.await(ctx, w, l)
}

// published wakes the master if it waits for work. Its caller, notify,
// has seen waiting set.
func (m *master[T]) published() {
	if m.waiting.CompareAndSwap(1, 0) {
		select {
		case m.wake <- struct{}{}:
		default: // a token is already there
		}
	}
}

// addStats adds the master's steals: in Master mode it is the only thief.
func (m *master[T]) addStats(st *Stats) {
	st.Steals += m.st.steals
	st.EmptySteals += m.st.empty
	st.ContendedSteals += m.st.contended
	st.Moved += m.st.moved
	st.Parcels += m.st.parcels
	st.MasterBusy += m.st.busy
	st.MasterWait += m.st.wait
}

// run is the master goroutine of Master mode: it serves idle workers
// in the order they ran out of work, each with a proportion of the busiest
// queue (or with nothing, if the worker has stopped waiting: see
// Worker.wants). It is the only thief, so every queue has at most two goroutines on
// it. It sleeps while no worker is idle, and parks while no queue has work.
func (m *master[T]) run(ctx context.Context) {
	s := m.s
	for {
		var w *Worker[T]
		select {
		case w = <-m.idle:
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
			d, ok := m.stealFor(w)
			if ok {
				now := time.Now()
				m.st.busy += now.Sub(start)
				m.st.wait += now.Sub(w.idleSince) // the channels order w's write before this read
				w.inbox <- d                      // never blocks: w waits for exactly this delivery
				break
			}
			m.st.busy += time.Since(start)
			if !m.awaitWork(ctx) {
				return
			}
			start = time.Now()
		}
	}
}

// stealFor takes a share of the items added from outside the workers, if
// there are any, or else a proportion of the longest queue other than w's,
// for w. It reports false when there is nothing to take.
func (m *master[T]) stealFor(w *Worker[T]) (delivery[T], bool) {
	s := m.s
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
			return m.ask(w)
		}
		var d delivery[T]
		res := wsq.Empty
		if victim.handoff != nil && wsq.StealCount(most, s.cfg.Proportion) > smallHandoff {
			// StealParcel retries contention: nil means empty.
			if p := victim.handoff.StealParcel(s.cfg.Proportion); p != nil {
				d.parcel, d.n, res = p, p.Len(), wsq.Taken
				m.st.parcels++
			}
		} else {
			d.items, res = victim.queue.TryStealBatch(w.recv[:0], s.cfg.Proportion)
			d.n = len(d.items)
		}
		switch res {
		case wsq.Taken:
			m.st.steals++
			m.st.moved += int64(d.n)
			return d, true
		case wsq.Empty:
			m.st.empty++ // the owner emptied its queue meanwhile; look again
		default:
			m.st.contended++ // lost a race with the owner; look again
		}
	}
}

// ask is stealFor when no queue shows an item. Owners that hold items
// (wsq.Contract.OwnerHolds) publish them when a thief asks, which a steal
// that finds nothing does: so the master tries one steal from each queue
// but w's, and delivers the first item it gets.
func (m *master[T]) ask(w *Worker[T]) (delivery[T], bool) {
	if !m.s.holds {
		return delivery[T]{}, false
	}
	for _, v := range m.s.workers {
		if v == w {
			continue
		}
		if x, res := v.queue.TrySteal(); res == wsq.Taken {
			m.st.steals++
			m.st.moved++
			items := append(w.recv[:0], x)
			return delivery[T]{items: items, n: 1}, true
		}
	}
	return delivery[T]{}, false
}

// smallHandoff is the most items a steal for the master copies even from a
// queue that hands its items over as a wsq.Parcel: a parcel costs an
// allocation and a link at both ends, and copying a few items costs less.
// The choice is made on the length the master read just before; a victim
// that grew meanwhile is copied all the same.
const smallHandoff = 32

// awaitWork waits until some queue holds an item. It reports false when the
// run is complete or ctx is cancelled.
func (m *master[T]) awaitWork(ctx context.Context) bool {
	s := m.s
	for range s.cfg.Spin {
		runtime.Gosched()
		if s.anyWork() {
			return true
		}
	}
	// Announce, then look once more: a publisher pushes and then reads
	// m.waiting, so one of the two sees the other, once the push is
	// visible: see lateLook for the look we take once more.
	m.waiting.Store(1)
	if s.anyWork() {
		m.waiting.Store(0) // a token sent meanwhile only causes one extra look
		return true
	}
	late := m.late.arm()
	for {
		select {
		case <-m.wake:
			m.late.disarm()
			return true
		case <-s.done:
			m.late.disarm()
			return false
		case <-ctx.Done():
			m.late.disarm()
			return false
		case <-late:
			late = nil
			if s.anyWork() {
				m.waiting.Store(0)
				return true
			}
		}
	}
}

// await queues w for the master, unless it is queued already, and waits
// for a delivery, until w.stopLooking(l) may hold (the worker then takes
// the delivery later: see Worker.asked).
func (m *master[T]) await(ctx context.Context, w *Worker[T], l *latch) bool {
	var joined <-chan struct{}
	if l != nil {
		joined = l.channel()
	}
	for {
		w.wants.Store(true)
		if !w.asked {
			w.shed() // before the master may fill recv
			w.asked = true
			w.idleSince = time.Now()
			m.idle <- w // never blocks; see master.idle
		}
		if w.stopLooking(l) {
			w.wants.Store(false)
			return false
		}
		select {
		case d := <-w.inbox:
			w.asked = false
			if d.n == 0 {
				continue // an answer to a request we had given up: ask again
			}
			w.accept(d)
			return true
		case <-joined:
			w.wants.Store(false)
			return false
		case <-w.reclaim:
			w.wants.Store(false)
			return false
		case <-w.s.done:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// accept pushes a delivery from the master into the worker's queue, as its
// owner. pending already counts the items.
func (w *Worker[T]) accept(d delivery[T]) {
	w.stats.Steals++
	w.stats.Moved += int64(d.n)
	if d.parcel != nil {
		if w.handoff != nil {
			w.handoff.PushParcel(d.parcel) // O(1) for a parcel of the same implementation
			w.pushed(d.n)
			return
		}
		d.items = d.parcel.Drain(w.recv[:0])
	}
	w.push(d.items)
	clear(d.items) // let the GC have what they hold
	w.recv = d.items[:0]
}
