package sched

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// masters is Master mode, the paper's master-worker balancing: a worker
// that runs out of work asks the masters, the only thieves, and one of
// them moves a proportion of a busy queue to it.
//
// A master serves one idle worker at a time. So there is one master per
// masterSpan workers, and each looks at masterSpan queues per hand-off,
// in turn. A master's cost per hand-off does not grow with the worker
// count, and the masters' capacity grows with it.
type masters[T any] struct {
	s *scheduler[T]
	_ pad.Line
	// sleepers counts the masters parked until some queue has work. A
	// publisher that takes one off sends a token on wake, which has room
	// for one per master. A plain int32 for sync/atomic's functions:
	// Worker.pushed reads it, and must stay within the inliner's budget.
	sleepers int32
	_        pad.Line
	// idle queues the workers that asked for work, in order. Its capacity
	// is the worker count and a worker is in it at most once (see
	// Worker.owed), so sending never blocks.
	idle chan *mailbox[T]
	// waiting counts the workers in await: those asking and those a
	// master serves. Only demand reads it, as a hint.
	waiting atomic.Int32
	// polling counts the workers that poll their inbox (await). A
	// publisher leaves a sleeping master to them: see published.
	polling atomic.Int32
	wake    chan struct{}
	all     []*master[T]
	boxes   []mailbox[T] // indexed by Worker.id
}

// mailbox is one worker's side of Master mode.
type mailbox[T any] struct {
	w     *Worker[T]
	inbox chan delivery[T] // capacity one: the master's answer
	// wants is set while the worker waits for the masters. A worker that
	// stops waiting clears it; a master then answers with an empty
	// delivery, rather than with work the worker would leave in its inbox.
	wants atomic.Bool
	since time.Time // when the worker asked; the idle channel orders it
	// helping says that the worker asked from a helping wait: see
	// scheduler.proportion. The idle channel orders it.
	helping bool
	coarse  bool // the worker's coarse when it asked; ordered likewise
	recv    []T  // the buffer a master fills for the worker while it waits
	_       pad.Line
}

// delivery is what a master hands an idle worker: a parcel (from a
// wsq.Handoff queue) or a slice of items.
type delivery[T any] struct {
	parcel wsq.Parcel[T]
	items  []T
	n      int  // number of items
	stolen bool // from a queue, not from the injector: a steal
}

// master is one master goroutine's own state.
type master[T any] struct {
	ms   *masters[T]
	from int         // the first queue its next look covers
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

func newMasters[T any](s *scheduler[T]) (*masters[T], *int32) {
	n, k := len(s.workers), masterCount(len(s.workers))
	ms := &masters[T]{s: s, idle: make(chan *mailbox[T], n), wake: make(chan struct{}, k)}
	ms.boxes = make([]mailbox[T], n)
	for i, w := range s.workers {
		ms.boxes[i].w = w
		ms.boxes[i].inbox = make(chan delivery[T], 1)
	}
	for i := range k {
		ms.all = append(ms.all, &master[T]{ms: ms, from: i * masterSpan})
	}
	return ms, &ms.sleepers
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
	return ms.await(ctx, &ms.boxes[w.id], l)
}

// published wakes a master that sleeps, unless a worker polls its inbox:
// that worker wakes the master itself (await). Its caller, notify, has
// seen sleepers set.
//
// The Go runtime readies a woken goroutine on the waker's processor, in
// the slot it runs next. A busy publisher then runs its task, and another
// processor takes the master from that slot only after its thread wakes
// and a pause of the runtime's: about a task's time on a loop of steps,
// where the steps ran one task at a time. A polling worker's processor
// runs the master at the poll's next yield. The worker that stops polling
// looks once more, as Random mode's last searcher does (stopPolling).
func (ms *masters[T]) published() {
	traceMove(ms, evPublish)
	if ms.polling.Load() > 0 { // after the push: see stopPolling
		return
	}
	ms.wakeMaster()
}

// wakeMaster wakes a master that sleeps, if one does.
func (ms *masters[T]) wakeMaster() {
	for {
		n := atomic.LoadInt32(&ms.sleepers) // see masters.sleepers
		if n <= 0 {
			return
		}
		// A CAS, not an Add: two publishers must not both take one off.
		if atomic.CompareAndSwapInt32(&ms.sleepers, n, n-1) {
			select {
			case ms.wake <- struct{}{}:
			default: // tokens for every master are there
			}
			return
		}
	}
}

// looking counts the workers that wait for a delivery.
func (ms *masters[T]) looking() int { return int(ms.waiting.Load()) }

// collect takes a delivery that w stopped waiting for, if it came.
func (ms *masters[T]) collect(w *Worker[T]) {
	mb := &ms.boxes[w.id]
	select {
	case d := <-mb.inbox:
		w.owed = false
		if d.n > 0 {
			mb.accept(d)
		}
	default:
	}
}

// shed gives back w's delivery buffer if it grew too large.
func (ms *masters[T]) shed(w *Worker[T]) {
	mb := &ms.boxes[w.id]
	mb.recv = shrink(mb.recv)
}

// addStats adds the masters' steals: in Master mode they are the only
// thieves.
func (ms *masters[T]) addStats(st *Stats) {
	for _, m := range ms.all {
		st.Steals += m.st.steals
		st.Moved += m.st.moved
		st.detail.EmptySteals += m.st.empty
		st.detail.ContendedSteals += m.st.contended
		st.detail.Parcels += m.st.parcels
		st.detail.MasterBusy += m.st.busy
		st.detail.MasterWait += m.st.wait
	}
}

// run is a master goroutine. It serves idle workers in the order they ran
// out of work, each with a proportion of a busy queue (or with nothing,
// if the worker stopped waiting: see mailbox.wants). It sleeps while no
// worker is idle, and parks while no queue has work.
func (m *master[T]) run(ctx context.Context) {
	s := m.ms.s
	for {
		var mb *mailbox[T]
		select {
		case mb = <-m.ms.idle:
			traceMove(m, evServe)
		case <-s.done:
			traceMove(m, evEnd)
			return
		case <-ctx.Done():
			traceMove(m, evEnd)
			return
		}
		start := time.Now()
		for {
			if !mb.wants.Load() { // atomic: the worker clears it when it stops waiting
				traceMove(m, evDeliver)
				mb.inbox <- delivery[T]{} // it gave up waiting: answer with nothing
				break
			}
			d, ok := m.stealFor(mb)
			if ok {
				now := time.Now()
				m.st.busy += now.Sub(start)
				m.st.wait += now.Sub(mb.since)
				traceMove(m, evDeliver)
				mb.inbox <- d // never blocks: the worker waits for exactly this
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

// stealFor takes a share of the injected items, if there are any, or else
// a proportion of the longest queue other than mb's worker's. It reports
// false when there is nothing to take.
func (m *master[T]) stealFor(mb *mailbox[T]) (delivery[T], bool) {
	s, w := m.ms.s, mb.w
	if s.inj.size() > 0 {
		if items := s.inj.take(mb.recv[:0], len(s.workers)); len(items) > 0 {
			slices.Reverse(items) // oldest on top: see Worker.takeInjected
			return delivery[T]{items: items, n: len(items)}, true
		}
	}
	// The workers in idle and mb's: those that look for work.
	p := s.proportion(len(m.ms.idle)+1, mb.helping, mb.coarse)
	for {
		victim, most := m.busiest(w, masterSpan)
		if victim == nil {
			victim, most = m.busiest(w, len(s.workers))
		}
		if victim == nil {
			return m.ask(mb)
		}
		var d delivery[T]
		res := wsq.Empty
		if victim.handoff != nil && wsq.StealCount(most, p) > smallHandoff {
			// StealParcel retries contention: nil means empty.
			if pc := victim.handoff.StealParcel(p); pc != nil {
				d.parcel, d.n, res = pc, pc.Len(), wsq.Taken
				m.st.parcels++
			}
		} else {
			d.items, res = victim.queue.TryStealBatch(mb.recv[:0], p)
			d.n = len(d.items)
		}
		switch res {
		case wsq.Taken:
			m.st.steals++
			m.st.moved += int64(d.n)
			d.stolen = true
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
		v := ws[(m.from+i)%len(ws)]
		if l := v.queue.Len(); v != w && l > most {
			victim, most = v, l
		}
	}
	m.from = (m.from + n) % len(ws)
	return victim, most
}

// ask is stealFor when no queue shows an item. It asks every worker but
// the waiting one for work (Worker.ask): a worker's host may keep work
// private until asked. Owners that hold items (wsq.Contract.OwnerHolds)
// publish them when a steal finds nothing. So with such queues the master
// also tries one steal from each queue, and delivers the first item it
// gets.
func (m *master[T]) ask(mb *mailbox[T]) (delivery[T], bool) {
	for _, v := range m.ms.s.workers {
		if v != mb.w {
			v.ask()
		}
	}
	if !m.ms.s.holds {
		return delivery[T]{}, false
	}
	for _, v := range m.ms.s.workers {
		if v == mb.w {
			continue
		}
		if x, res := v.queue.TrySteal(); res == wsq.Taken {
			m.st.steals++
			m.st.moved++
			items := append(mb.recv[:0], x)
			return delivery[T]{items: items, n: 1, stolen: true}, true
		}
	}
	return delivery[T]{}, false
}

// smallHandoff is the most items a master copies even from a queue that
// hands items over as a wsq.Parcel: a parcel costs an allocation and a
// link at both ends, and copying a few items costs less. The choice rests
// on the length the master read just before.
const smallHandoff = 32

// awaitWork waits until some queue holds an item. It reports false when the
// run is complete or ctx is cancelled.
func (m *master[T]) awaitWork(ctx context.Context) bool {
	ms := m.ms
	s := ms.s
	for range s.cfg.spin {
		runtime.Gosched()
		if s.anyWork() {
			return true
		}
	}
	atomic.AddInt32(&ms.sleepers, 1) // the announcement publishers read
	traceMove(m, evAnnounce)
	switch park(ctx, s, ms.wake, &m.late, nil, nil, any(m)) {
	case woken:
		traceMove(m, evTakeToken)
		return true
	case stopped:
		ms.unwait() // a token sent meanwhile only causes one extra look
		traceMove(m, evRejoin)
		return true
	}
	traceMove(m, evEnd)
	return false
}

// unwait takes a master that stops sleeping off the count, unless a
// publisher took it off already (and sent a token, which only causes one
// extra look).
func (ms *masters[T]) unwait() {
	for {
		n := atomic.LoadInt32(&ms.sleepers) // see masters.sleepers
		// A CAS: a publisher may take the same count off meanwhile.
		if n <= 0 || atomic.CompareAndSwapInt32(&ms.sleepers, n, n-1) {
			return
		}
	}
}

// await queues the worker of mb for the masters, unless it is queued
// already, and waits for a delivery, until its worker may stop looking.
// A worker that stops takes the delivery later (see Worker.owed).
//
// It polls its inbox a while before it blocks: a master's send to a
// blocked goroutine readies it on the master's processor, where it waits
// until the master blocks or another processor takes it. A send that
// nobody waits for costs less. While some worker is busy it polls for
// askWait at least, as a Random searcher searches: the busy worker's next
// tasks come soon, on a loop of steps at the next step. Each poll wakes a
// sleeping master if some queue shows work: see published.
func (ms *masters[T]) await(ctx context.Context, mb *mailbox[T], l *latch) bool {
	ms.waiting.Add(1) // atomic: tasks on other workers read it (looking)
	defer ms.waiting.Add(-1)
	w := mb.w
	s := ms.s
	var joined <-chan struct{}
	if l != nil {
		joined = l.channel()
	}
	polls := s.cfg.spin * pollsPerSpin
	since := time.Duration(-1) // when the polls ran out while a worker was busy
	ms.polling.Add(1)          // publishers that see a poller leave the wake to it
	traceMove(w, evLook)
	polling := true
	defer func() {
		if polling {
			ms.stopPolling()
		}
	}()
	for {
		mb.wants.Store(true) // read by the master that serves the request
		if !w.owed {
			w.shed() // before a master may fill recv
			w.owed = true
			mb.since = time.Now()
			mb.helping = l != nil
			mb.coarse = w.coarse
			ms.idle <- mb // never blocks; see masters.idle
		}
		var d delivery[T]
	wait:
		for {
			if w.stopLooking(l) {
				mb.wants.Store(false) // the master then answers with nothing
				traceMove(w, evGiveUp)
				return false
			}
			if polling && polls <= 0 {
				if int(ms.waiting.Load()) < len(s.workers) { // some worker is busy
					now := s.clock()
					if since < 0 {
						since = now
					}
					if now-since >= askWait {
						polling = false
					}
				} else {
					polling = false
				}
				if !polling {
					ms.stopPolling()
					traceMove(w, evAwait)
				}
			}
			if polling {
				polls--
				select {
				case d = <-mb.inbox:
					break wait
				default:
				}
				if w.takeInjected() {
					// Quicker than the master, which then answers with
					// nothing, or with items that next collects.
					mb.wants.Store(false)
					traceMove(w, evFound)
					w.takeStolen()
					return true
				}
				if atomic.LoadInt32(&ms.sleepers) > 0 && s.anyWork() {
					traceMove(w, evPoll)
					ms.wakeMaster() // readied here: it runs at the yield below
				}
				runtime.Gosched()
				continue
			}
			select {
			case d = <-mb.inbox:
				break wait
			case <-joined:
				mb.wants.Store(false) // as above
				traceMove(w, evGiveUp)
				return false
			case <-w.recall:
				mb.wants.Store(false) // as above
				traceMove(w, evGiveUp)
				return false
			case <-ms.s.done:
				traceMove(w, evEnd)
				return false
			case <-ctx.Done():
				traceMove(w, evEnd)
				return false
			}
		}
		w.owed = false
		if d.n == 0 {
			continue // an answer to a request we had given up: ask again
		}
		traceMove(w, evFound)
		mb.accept(d)
		return true
	}
}

// stopPolling counts a worker off the pollers, and then wakes a sleeping
// master if some queue shows work: a publisher that saw the worker poll
// left the wake to it. The decrement before the look, as in Random mode's
// stopSearching: of a publisher and the last poller, one sees the other,
// or the master's late look does (see park.go).
func (ms *masters[T]) stopPolling() {
	if ms.polling.Add(-1) == 0 && atomic.LoadInt32(&ms.sleepers) > 0 && ms.s.anyWork() {
		ms.wakeMaster()
	}
}

// pollsPerSpin is how many times, per round of Config.spin, a worker that
// waits for a master's delivery looks at its inbox before it blocks.
const pollsPerSpin = 16

// accept pushes a delivery from a master into the worker's queue, as its
// owner. pending already counts the items.
func (mb *mailbox[T]) accept(d delivery[T]) {
	w := mb.w
	if d.stolen { // the masters count the same steals (addStats)
		w.stats.Steals++
		w.stats.Moved += int64(d.n)
	}
	if d.parcel != nil {
		if w.handoff != nil {
			w.handoff.PushParcel(d.parcel) // O(1) for a parcel of the same implementation
			w.pushed(d.n)
			return
		}
		d.items = d.parcel.Drain(mb.recv[:0])
	}
	w.push(d.items)
	clear(d.items) // let the GC have what they hold
	mb.recv = d.items[:0]
}
