package sched

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/pad"
)

// Handler handles one item. It runs on the worker goroutine w, and may push
// the item's children into w's queue with w.Spawn. Items pass by value,
// through the queue and to the handler. An item of a few words, numbers
// or pointers, passes in registers; an array in an item goes through
// memory at each copy, so a large item is cheaper as a pointer. A non-nil error ends the
// run: Run cancels ctx for the other workers and returns the first error.
// Each item given to Run or Spawn is handled exactly once, unless the run
// ends early.
//
// A handler that blocks (on a channel, a lock, I/O or a sleep) stalls its
// worker for that long. The items in its queue wait until a thief takes
// them, and nothing else runs on that worker. A blockq queue may hold its
// newest items from thieves until then (see blockq's Holding items),
// unless the worker's recent items were long (see Work a worker keeps to
// itself in INTERNALS.md). A
// handler that must wait should hand the waiting to a goroutine of its
// own, or use a Pool. There, Join and Wait run other tasks while they
// wait, and Task.Block lets a task block while its worker goes on.
type Handler[T any] func(ctx context.Context, item T, w *Worker[T]) error

// Worker is one worker of a running scheduler: its queue, of which it is
// the owner, and what it keeps beside. In Run, a goroutine of its own runs
// it. In a Pool, one goroutine at a time runs it, and hands it to another
// when a task blocks (Task.Block). A handler receives the Worker that runs
// it. It may call the Worker's methods during the call only, from the
// goroutine it runs on. Run creates Workers; a Worker must not be copied.
type Worker[T any] struct {
	// Set by newScheduler, read-only during the run. Thieves and the
	// masters read queue.
	s       *scheduler[T]
	id      int
	queue   wsq.Queue[T]
	handoff wsq.Handoff[T] // queue, if it implements wsq.Handoff; else nil
	holder  holder         // queue, if its owner may hold items from thieves; else nil
	// sleepers is s.sleepers, one load nearer.
	sleepers *int32
	// relay is set on the Workers that the handlers of a measured Run
	// get (see RunMeasured), and nil on those that run items.
	relay spawner[T]

	// wanted counts the requests that the worker's loop return, so that
	// another goroutine can take the worker over (see run). Requesters
	// add to it and only the worker's goroutine subtracts. recall
	// (capacity one) wakes the worker when it sleeps for want of work.
	// A requester adds, then sends a token unless one is there. The
	// worker reads wanted before it sleeps and wakes on a token, so it
	// sees one or the other.
	wanted atomic.Int32
	recall chan struct{}

	_ pad.Line
	// asked is set by a thief that found nothing to steal here, and by
	// the worker itself while its items are long. The host reads it:
	// the fork-join layer then makes the tasks it keeps private
	// stealable, and clears it unless the items are long. Only the
	// methods ask, isAsked and answered touch it outside this file. On a
	// line of its own: thieves write it, and the owner loads it at
	// every fork.
	asked atomic.Uint32
	_     pad.Line
	// Owner-private: only the worker's goroutine touches the fields below.

	// credit is the number of items this worker handled but has not yet
	// subtracted from s.pending. Spawn spends it before it adds to
	// pending; settle gives back the rest. Most handled items and spawned
	// batches so leave the shared counter alone.
	credit int64

	// overflow holds the items a bounded queue refused, oldest at ovHead.
	// They are all newer than the queue's items. The worker takes its
	// next item from the end of overflow; refill moves the oldest into the
	// queue as room appears, so thieves keep seeing a full queue.
	overflow []T
	ovHead   int

	// carry is a stolen item the worker runs next without pushing it, so
	// that a single stolen item is not put up for stealing again.
	carry    T
	hasCarry bool

	// owed is set while the mode owes the worker items that it stopped
	// waiting for (see balancer.collect). next collects them first.
	owed bool

	buf     []T // stolen items, and items taken from the injector
	scratch []T // Spawn's copy of its arguments
	stats   WorkerStats
	idles   int64 // times the worker ran out of work

	// grain is the worker's busy time per handled item, a moving average
	// over its recent busy spans (see sample). A span runs from
	// busySince (on the scheduler's clock; negative before the first) to
	// the next sample; handledThen is stats.Processed at busySince.
	//
	//	the worker samples             when
	//	at the start of a look         findWork
	//	while busy, fine items         stats.Processed reaches nextSample:
	//	                               gap doubles each time, to maxSampleGap
	//	while busy, long items         after every item
	//	when a thief asked             the fork-join layer's answer
	//
	//	field    holds                  used for
	//	coarse   grain >= coarseGrain   Master mode's steal (see scheduler.proportion)
	//	long     grain >= longGrain     keeping nothing from thieves (see popped)
	//
	// A new worker's grain starts at unknownGrain: it counts as long, and
	// keeps nothing from thieves, until some tens of short items have
	// pulled the average down. One quick item, such as the one that
	// spawned a batch, is not enough to hold the batch. Only the worker
	// writes these fields; Master mode passes coarse to the masters in the
	// mailbox.
	grain       time.Duration
	busySince   time.Duration
	handledThen int64
	nextSample  int64
	gap         int64
	coarse      bool
	long        bool

	// room is stats.MaxLen less an upper bound on the items in the queue
	// and overflow: the length last read, plus pushes since, less pops.
	// Thieves only take items away, so the bound never falls below the
	// truth. pushed reads the queue's length only when room goes below
	// zero, the one case where MaxLen could grow.
	room int
	_    pad.Line

	// live is stats as of the worker's last look for work: the worker
	// stores, Pool.Stats loads on any goroutine (see liveStats).
	live liveStats
}

// holder is a queue whose owner may hold items from Len, and make them
// stealable on demand (blockq: see its Holding items and Publish).
type holder interface{ Publish() }

// ID returns the worker's index, from 0 to the number of workers minus one.
// A handler may use it to index per-worker state without locks: see
// PerWorker. Any goroutine may call it.
func (w *Worker[T]) ID() int { return w.id }

// Spawn pushes vs into the worker's own queue as one batch. vs[len(vs)-1]
// becomes the newest item, the one the worker handles next. Each item is
// handled exactly once, by this worker or by the one it is moved to. If a
// bounded queue cannot take all of vs, the worker keeps the rest aside and
// moves it into the queue as room appears.
//
// Spawn copies the items and does not retain vs, so the caller may reuse
// vs at once. vs does not escape: w.Spawn(a, b) allocates nothing once the
// worker's buffers have grown. Spawning children one at a time allocates
// nothing either, and makes each stealable as soon as it is pushed. A
// batch publishes all of them with one operation on the queue.
//
// Spawn does not block. Only the handler running on this worker may call
// it, during its call. Spawn(x) synchronizes before the handler call that
// handles x.
func (w *Worker[T]) Spawn(vs ...T) {
	n := len(vs)
	if n == 0 {
		return
	}
	if w.relay != nil { // a measured Run's handler: see RunMeasured
		w.relay.spawn(vs)
		return
	}
	w.count(int64(n))
	if n == 1 {
		w.pushOne(vs[0])
		return
	}
	// Push a copy, so that vs does not escape to the queue's interface.
	w.scratch = append(w.scratch[:0], vs...)
	w.push(w.scratch)
	clear(w.scratch) // let the GC have what the items hold
}

// spawner is what Spawn hands the items to instead of the queue: a
// measured Run's relay (run.go).
type spawner[T any] interface {
	spawn(vs []T)
}

// count counts n new items in pending before anyone can take them,
// spending the worker's credit first.
func (w *Worker[T]) count(n int64) {
	if w.credit >= n {
		w.credit -= n
	} else {
		// Before the push: pending must never fall below the items left.
		w.s.pending.Add(n - w.credit)
		w.credit = 0
	}
}

// pushesDirect reports whether a push may go straight into the queue:
// nothing waits in overflow, which would be older.
func (w *Worker[T]) pushesDirect() bool { return w.ovHead == len(w.overflow) }

// popsDirect reports whether the next item is the newest of the queue: no
// carried item, no owed delivery, nothing in overflow.
func (w *Worker[T]) popsDirect() bool {
	return !w.owed && !w.hasCarry && w.ovHead == len(w.overflow)
}

// pushOne pushes v, which pending counts.
func (w *Worker[T]) pushOne(v T) {
	if w.pushesDirect() && w.queue.Push(v) {
		w.pushed(1)
		return
	}
	w.pushAside(v)
}

// push adds vs, which pending counts, to the worker's items.
func (w *Worker[T]) push(vs []T) {
	if w.pushesDirect() {
		if k := w.queue.PushBatch(vs); k < len(vs) {
			w.overflow = append(w.overflow, vs[k:]...)
		}
	} else {
		// vs is newer than what waits in overflow, so it goes after it.
		if w.ovHead > 0 && len(w.overflow)+len(vs) > cap(w.overflow) {
			live := copy(w.overflow, w.overflow[w.ovHead:])
			clear(w.overflow[live:])
			w.overflow, w.ovHead = w.overflow[:live], 0
		}
		w.overflow = append(w.overflow, vs...)
		w.refill()
	}
	w.pushed(len(vs))
}

// pushAside is pushOne when v goes into overflow: the queue refused it,
// or older items wait there.
func (w *Worker[T]) pushAside(v T) {
	w.overflow = append(w.overflow, v)
	w.refill()
	w.pushed(1)
}

// pushed records n items added to the queue or overflow. The usual case
// costs two comparisons and one load; pushedAside does the rest.
func (w *Worker[T]) pushed(n int) {
	// The load: does a worker or a master sleep, waiting for work?
	if w.room -= n; w.room < 0 || w.long || atomic.LoadInt32(w.sleepers) != 0 {
		w.pushedAside()
	}
}

// pushedAside is pushed when the length may be a new maximum, the items
// are long, or someone may sleep: it samples the length, publishes what
// the queue holds, and wakes a sleeper.
func (w *Worker[T]) pushedAside() {
	if w.holder != nil && (w.long || atomic.LoadInt32(w.sleepers) != 0) {
		// Sleepers find work by Len, which does not count held items. A
		// worker whose items are long holds nothing: see popped.
		w.holder.Publish()
	}
	if w.room < 0 {
		n := w.queue.Len() + len(w.overflow) - w.ovHead
		w.stats.MaxLen = max(w.stats.MaxLen, n)
		w.room = w.stats.MaxLen - n
	}
	w.s.notify()
}

// refill moves the oldest items of overflow into the queue, as many as it
// takes, and returns how many it moved.
func (w *Worker[T]) refill() int {
	k := w.queue.PushBatch(w.overflow[w.ovHead:])
	clear(w.overflow[w.ovHead : w.ovHead+k])
	w.ovHead += k
	if w.ovHead == len(w.overflow) {
		w.overflow, w.ovHead = w.overflow[:0], 0
	}
	return k
}

// popped records that the worker took an item from its queue, which it
// runs next. A queue may hold items from thieves (blockq: see its Holding
// items), and two kinds of worker must not let it:
//
//	worker                  before it runs the item it took
//	its items are long      it publishes what the queue holds: the item may
//	                        take long, and the held items would wait for it
//	someone sleeps          it publishes, and wakes a sleeper if the queue
//	                        shows items: the sleeper may have asked for them
//
// Holding saves an atomic operation per pop, which only short items
// notice. The usual case costs one comparison and one load.
func (w *Worker[T]) popped() {
	w.room++
	if w.long || atomic.LoadInt32(w.sleepers) != 0 {
		w.poppedAside()
	}
}

// poppedAside is popped's rare case: see popped.
func (w *Worker[T]) poppedAside() {
	if w.holder == nil {
		return // nothing held: pushes woke the sleepers for what the queue shows
	}
	w.holder.Publish()
	if atomic.LoadInt32(w.sleepers) != 0 && w.queue.Len() > 0 {
		w.s.mode.published()
	}
}

// next returns the item the worker handles next.
func (w *Worker[T]) next() (T, bool) {
	if w.popsDirect() {
		v, ok := w.queue.Pop()
		if ok {
			w.popped()
		}
		return v, ok
	}
	return w.nextAside()
}

// nextAside is next when the worker has more than its queue: first an
// owed delivery, then a carried item, then overflow, newest first.
func (w *Worker[T]) nextAside() (T, bool) {
	if w.owed {
		w.s.mode.collect(w)
	}
	if w.hasCarry {
		v := w.carry
		var zero T
		w.carry, w.hasCarry = zero, false
		return v, true
	}
	if last := len(w.overflow) - 1; last >= w.ovHead {
		v := w.overflow[last]
		var zero T
		w.overflow[last] = zero
		w.overflow = w.overflow[:last]
		if last == w.ovHead {
			w.overflow, w.ovHead = w.overflow[:0], 0
		} else if w.refill() > 0 {
			w.s.notify() // thieves made room: the items moved are stealable
		}
		w.popped()
		return v, true
	}
	v, ok := w.queue.Pop()
	if ok {
		w.popped()
	}
	return v, ok
}

// run is the worker's loop: it handles items until the run is complete.
// It looks for cancellation before each item, so that a cancelled run
// leaves every unhandled item in a queue: a load of halted, which the
// scheduler sets once ctx is done. It returns errWanted, with the worker
// ready for another goroutine, when a request waits (see wanted).
func (w *Worker[T]) run(ctx context.Context) error {
	for {
		if w.s.halted.Load() {
			traceMove(w, evEnd)
			return ctx.Err()
		}
		if w.wanted.Load() > 0 { // a load per item: requests come from other goroutines
			return errWanted
		}
		// next and handle, written out: an item passed by value is copied
		// at every call, through memory when it does not fit registers.
		var v T
		var ok bool
		if w.popsDirect() {
			if v, ok = w.queue.Pop(); ok {
				w.popped()
			}
		} else {
			v, ok = w.nextAside()
		}
		if !ok {
			more, err := w.findWork(ctx, nil)
			if err != nil {
				return err
			}
			if !more {
				if err := ctx.Err(); err != nil {
					return err
				}
				select {
				case <-w.s.done:
					return nil // the run is complete
				default:
					continue // wanted: see above
				}
			}
			continue
		}
		if err := w.s.handle(ctx, v, w); err != nil {
			return err
		}
		if !w.s.hostCounts {
			w.handled()
		}
	}
}

// errWanted is what run returns when a request waits for the worker.
var errWanted = errors.New("sched: the worker is wanted")

// want asks the worker's loop to return (see wanted), and wakes the worker
// if it sleeps.
func (w *Worker[T]) want() {
	w.wanted.Add(1) // before the token: see wanted
	select {
	case w.recall <- struct{}{}:
	default: // a token is there already
	}
}

// unwant takes back one request that want made, once it is served.
func (w *Worker[T]) unwant() { w.wanted.Add(-1) } // atomic: requesters add meanwhile

// stopLooking reports whether a worker that looks for work should give up:
// when l (a helping wait's latch, if not nil) is done, or a request waits.
// A sleeping worker wakes for either on l.channel() and recall.
func (w *Worker[T]) stopLooking(l *latch) bool {
	return (l != nil && l.done()) || w.wanted.Load() > 0 // read before sleeping: see wanted
}

// pause waits a moment between two rounds of a search, without yielding
// the processor: a hundred loads of the words that stopLooking reads, so
// that a helping wait's latch or a request ends it at once.
func (w *Worker[T]) pause(l *latch) {
	for range 100 {
		if w.stopLooking(l) {
			return
		}
	}
}

// handled counts an item of pending as handled: see credit and ran.
func (w *Worker[T]) handled() {
	w.credit++
	w.ran()
}

// ran counts an item that ran, in Stats and for the grain: an item of
// pending (handled), or a task that the fork-join layer ran as a call,
// which pending never counted.
func (w *Worker[T]) ran() {
	if w.stats.Processed++; w.stats.Processed >= w.nextSample {
		w.sampleNow()
	}
}

// sampleNow samples the grain at the scheduler's clock: ran's rare case,
// a call of its own so that ran inlines.
func (w *Worker[T]) sampleNow() { w.sample(w.s.clock()) }

// settle subtracts the worker's credit from pending, and completes the run
// if that brings it to zero. A negative result means that a queue returned
// an item twice; settle reports it.
func (w *Worker[T]) settle() error {
	if w.credit == 0 {
		return nil
	}
	k := w.credit
	w.credit = 0
	return w.s.uncount(k)
}

// findWork is called when the worker holds no items. It returns true once
// the worker holds work again. It returns false when the run is complete,
// ctx is cancelled, or stopLooking(l) holds.
func (w *Worker[T]) findWork(ctx context.Context, l *latch) (bool, error) {
	if err := w.settle(); err != nil {
		return false, err
	}
	select {
	case <-w.s.done:
		traceMove(w, evEnd)
		return false, nil
	default:
	}
	w.idles++
	start := w.s.clock()
	w.sample(start)
	w.live.store(&w.stats)
	ok := w.s.mode.find(ctx, w, l)
	end := w.s.clock()
	w.stats.IdleWait += end - start
	w.busySince = end // the look's wait is not busy
	return ok, nil
}

// sample ends a busy span at now, and moves grain a quarter of the way to
// the span's time per handled item. A span in which no item ended counts
// as one item: its items are at least that long. The next span starts at
// now. While the items are fine, the samples grow further apart, so that
// a fine item pays for a clock read only now and then.
func (w *Worker[T]) sample(now time.Duration) {
	if w.busySince >= 0 {
		items := max(w.stats.Processed-w.handledThen, 1)
		w.grain += ((now-w.busySince)/time.Duration(items) - w.grain) / 4
		w.coarse = w.grain >= coarseGrain
		w.setLong(w.grain >= longGrain)
	}
	w.busySince, w.handledThen = now, w.stats.Processed
	if w.long {
		w.gap = 1
	} else {
		w.gap = min(2*w.gap, maxSampleGap)
	}
	w.nextSample = w.stats.Processed + w.gap
}

// setLong records whether the worker's items are long. A worker whose
// items turn long sets asked, and its host keeps it set, so that it keeps
// nothing private (see asked). When they turn short, the host's next
// answer clears it: a thief may have asked meanwhile.
func (w *Worker[T]) setLong(c bool) {
	if c && !w.long {
		w.asked.Store(1) // atomic: thieves store it too
	}
	w.long = c
}

// initGrain makes a new worker count as long until it has measured (see
// grain). Called before the worker runs.
func (w *Worker[T]) initGrain() {
	w.grain, w.busySince, w.gap, w.nextSample = unknownGrain, -1, 1, 1
	w.coarse, w.long = true, true
	w.asked.Store(1) // atomic, though nobody runs yet: thieves store it later
}

// ask asks the worker's host to make more of its work stealable: a thief
// found none, or the host itself wants its next fork to answer. The load
// keeps an ask already made from writing the line again. Any goroutine
// may call it.
func (w *Worker[T]) ask() {
	if w.asked.Load() == 0 {
		w.asked.Store(1)
	}
}

// isAsked reports whether an ask waits for the host's answer. The host
// loads it at every fork (forkStack.poll).
func (w *Worker[T]) isAsked() bool { return w.asked.Load() != 0 }

// answered clears the ask: the host is about to publish. Only the
// worker's goroutine calls it.
func (w *Worker[T]) answered() { w.asked.Store(0) }

// demand returns how many workers look for work that w could give them:
// those looking, when w's queue shows no item for them; zero otherwise.
// A worker whose queue shows items has work for them already.
func (w *Worker[T]) demand() int {
	k := w.s.mode.looking()
	if k == 0 || w.queue.Len() > 0 {
		return 0
	}
	return k
}

// coarseGrain is the time per item from which items count as coarse. It is
// many times what a steal and a task cost the scheduler (BENCHMARKS.md).
const coarseGrain = time.Microsecond

// longGrain is the time per item from which items count as long: what a
// worker's holding or keeping private saves on an item, an atomic
// operation or two, is then lost in the item's time. A thief that asks a
// worker whose items are shorter waits for its answer about an item's time.
const longGrain = 10 * time.Microsecond

// unknownGrain is a new worker's grain: see grain. From it, the moving
// average needs 17 samples of quick items to fall below longGrain.
const unknownGrain = time.Millisecond

// maxSampleGap is the most items between two samples of a busy worker's
// grain while its items are fine.
const maxSampleGap = 256

// takeInjected takes a share of the items added from outside the workers
// into w.buf, and reports whether it took any. The buffer holds them
// newest first, so that takeStolen runs the oldest next and the worker
// pops the others in the order they came: tasks from one goroutine start
// in the order it gave them, unless thieves take some first.
func (w *Worker[T]) takeInjected() bool {
	inj := &w.s.inj
	if inj.size() == 0 {
		return false
	}
	w.buf = inj.take(w.buf[:0], len(w.s.workers))
	slices.Reverse(w.buf)
	return len(w.buf) > 0
}

// putBack makes v, an item that next returned, the worker's next item
// again: a helping wait that may not run it gives it back with the worker
// (see runner.help). next returned the carried item, if any, so there is
// none now.
func (w *Worker[T]) putBack(v T) { w.carry, w.hasCarry = v, true }

// takeStolen keeps the newest stolen item to run next and pushes the others.
func (w *Worker[T]) takeStolen() {
	last := len(w.buf) - 1
	w.carry, w.hasCarry = w.buf[last], true
	if last > 0 {
		w.push(w.buf[:last])
	}
	clear(w.buf) // let the GC have what they hold
	w.buf = w.buf[:0]
}

// maxKeptBuffer is the most items of capacity an idle worker keeps in each
// of its buffers.
const maxKeptBuffer = 1024

// shrink returns s emptied, or nil if its capacity exceeds maxKeptBuffer,
// so that its array can be collected.
func shrink[T any](s []T) []T {
	if cap(s) > maxKeptBuffer {
		return nil
	}
	return s[:0]
}

// shed gives back the buffers that a large steal, delivery or fan-out grew
// beyond maxKeptBuffer. A busy worker keeps them, so that a steady stream
// of large steals does not allocate; one that is about to sleep sheds.
// The mode must not be filling its own buffers of w meanwhile.
func (w *Worker[T]) shed() {
	w.buf = shrink(w.buf)
	w.scratch = shrink(w.scratch)
	if w.ovHead == len(w.overflow) {
		w.overflow, w.ovHead = shrink(w.overflow), 0
	}
	w.s.mode.shed(w)
}
