package sched

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// masters is Master mode, the paper's master-worker balancing: a worker
// that runs out of work asks the masters, the only thieves, and one of them
// moves a proportion of a busy queue to it.
//
// A single master serves one idle worker at a time, and looks at every
// queue for each. So Master mode runs one master per masterSpan workers,
// and each master looks at masterSpan queues per hand-off, in turn. A
// master's cost per hand-off does not grow with the worker count, and the
// masters' capacity grows with it.
//
// idle queues the workers that asked for work, in order; its capacity is
// the worker count and a worker is in it at most once (see Worker.asked),
// so sending never blocks. waiting counts the masters parked until some
// queue has work; a publisher that takes one off the count sends a token
// on wake, which has room for one per master.
type masters[T any] struct {
	s       *scheduler[T]
	_       pad.Line
	waiting atomic.Int32
	_       pad.Line
	idle    chan *Worker[T]
	wake    chan struct{}
	all     []*master[T]
}

// master is one master goroutine's own state.
type master[T any] struct {
	ms   *masters[T]
	next int         // the first queue its next look covers
	late lateTimer   // its late look (see lateLook)
	st   masterStats // written by its goroutine only
}

// masterSpan is how many workers one master serves, and how many queues
// it looks at for each hand-off.
const masterSpan = 16

// masterCount returns the number of masters for n workers.
func masterCount(n int) int { return (n + masterSpan - 1) / masterSpan }

// masterStats is a master's share of Stats.
type masterStats struct {
	steals, empty, contended, moved, parcels int64
	busy, wait                               time.Duration
}

func newMasters[T any](s *scheduler[T]) *masters[T] {
	k := masterCount(s.cfg.Workers)
	ms := &masters[T]{s: s, idle: make(chan *Worker[T], s.cfg.Workers), wake: make(chan struct{}, k)}
	for i := range k {
		ms.all = append(ms.all, &master[T]{ms: ms, next: i * masterSpan})
	}
	s.waiters = &ms.waiting
	return ms
}

// start starts the master goroutines.
func (ms *masters[T]) start(ctx context.Context) {
	for _, m := range ms.all {
		ms.s.wg.Add(1)
		go func() {
			defer ms.s.wg.Done()
			m.run(ctx)
		}()
	}
}

// find gives w a share of the items added from outside the workers, if
// there are any, or else waits for a master's delivery.
func (ms *masters[T]) find(ctx context.Context, w *Worker[T], l *latch) bool {
	if w.takeInjected() {
		w.takeStolen()
		return true
	}
	return ms.await(ctx, w, l)
}

// published wakes a master that waits for work. Its caller, notify, has
// seen waiting set.
func (ms *masters[T]) published() {
	for {
		n := ms.waiting.Load()
		if n <= 0 {
			return
		}
		if ms.waiting.CompareAndSwap(n, n-1) {
			select {
			case ms.wake <- struct{}{}:
			default: // tokens for every master are there
			}
			return
		}
	}
}

// addStats adds the masters' steals: in Master mode they are the only
// thieves.
func (ms *masters[T]) addStats(st *Stats) {
	for _, m := range ms.all {
		st.Steals += m.st.steals
		st.EmptySteals += m.st.empty
		st.ContendedSteals += m.st.contended
		st.Moved += m.st.moved
		st.Parcels += m.st.parcels
		st.MasterBusy += m.st.busy
		st.MasterWait += m.st.wait
	}
}

// run is a master goroutine of Master mode: it serves idle workers in the
// order they ran out of work, each with a proportion of a busy queue (or
// with nothing, if the worker has stopped waiting: see Worker.wants). It
// sleeps while no worker is idle, and parks while no queue has work.
func (m *master[T]) run(ctx context.Context) {
	s := m.ms.s
	for {
		var w *Worker[T]
		select {
		case w = <-m.ms.idle:
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
	s := m.ms.s
	if s.inj.n.Load() > 0 {
		if items := s.inj.take(w.recv[:0], len(s.workers)); len(items) > 0 {
			return delivery[T]{items: items, n: len(items)}, true
		}
	}
	for {
		victim, most := m.busiest(w, masterSpan)
		if victim == nil {
			victim, most = m.busiest(w, len(s.workers))
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

// busiest returns the longest of n queues other than w's, and its length,
// or nil if none holds an item. The n queues follow those of its last look.
func (m *master[T]) busiest(w *Worker[T], n int) (*Worker[T], int) {
	ws := m.ms.s.workers
	n = min(n, len(ws))
	var victim *Worker[T]
	most := 0
	for i := range n {
		v := ws[(m.next+i)%len(ws)]
		if l := v.queue.Len(); v != w && l > most {
			victim, most = v, l
		}
	}
	m.next = (m.next + n) % len(ws)
	return victim, most
}

// ask is stealFor when no queue shows an item. Owners that hold items
// (wsq.Contract.OwnerHolds) publish them when a thief asks, which a steal
// that finds nothing does: so the master tries one steal from each queue
// but w's, and delivers the first item it gets.
func (m *master[T]) ask(w *Worker[T]) (delivery[T], bool) {
	if !m.ms.s.holds {
		return delivery[T]{}, false
	}
	for _, v := range m.ms.s.workers {
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
	ms := m.ms
	s := ms.s
	for range s.cfg.Spin {
		runtime.Gosched()
		if s.anyWork() {
			return true
		}
	}
	// Announce, then look once more: a publisher pushes and then reads
	// waiting, so one of the two sees the other, once the push is
	// visible: see lateLook for the look we take once more.
	ms.waiting.Add(1)
	if s.anyWork() {
		ms.unwait() // a token sent meanwhile only causes one extra look
		return true
	}
	late := m.late.arm()
	for {
		select {
		case <-ms.wake:
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
				ms.unwait()
				return true
			}
		}
	}
}

// unwait takes a master that stops waiting off the count, unless a
// publisher took it off already (and sent a token, which only causes one
// extra look).
func (ms *masters[T]) unwait() {
	for {
		n := ms.waiting.Load()
		if n <= 0 || ms.waiting.CompareAndSwap(n, n-1) {
			return
		}
	}
}

// await queues w for the masters, unless it is queued already, and waits
// for a delivery, until w.stopLooking(l) may hold (the worker then takes
// the delivery later: see Worker.asked). It polls its inbox a while before
// it blocks: a master's send to a goroutine blocked on the channel readies
// it on the master's processor, where it waits until the master blocks or
// another processor takes it; a send that nobody waits for costs less.
func (ms *masters[T]) await(ctx context.Context, w *Worker[T], l *latch) bool {
	var joined <-chan struct{}
	if l != nil {
		joined = l.channel()
	}
	polls := ms.s.cfg.Spin * pollsPerSpin
	for {
		w.wants.Store(true)
		if !w.asked {
			w.shed() // before a master may fill recv
			w.asked = true
			w.idleSince = time.Now()
			ms.idle <- w // never blocks; see masters.idle
		}
		var d delivery[T]
	wait:
		for {
			if w.stopLooking(l) {
				w.wants.Store(false)
				return false
			}
			if polls > 0 {
				polls--
				select {
				case d = <-w.inbox:
					break wait
				default:
					runtime.Gosched()
					continue
				}
			}
			select {
			case d = <-w.inbox:
				break wait
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
		w.asked = false
		if d.n == 0 {
			continue // an answer to a request we had given up: ask again
		}
		w.accept(d)
		return true
	}
}

// pollsPerSpin is how many times, per round of Config.Spin, a worker that
// waits for a master's delivery looks at its inbox before it blocks.
const pollsPerSpin = 16

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
