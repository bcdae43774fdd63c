package sched

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/pad"
)

// Worker is one worker goroutine of a running scheduler and the owner of its
// queue. A handler receives the Worker that runs it and may call its methods
// during the call only, from the goroutine it runs on. A Worker is created
// by Run and must not be copied.
type Worker[T any] struct {
	// Set by newScheduler, read-only during the run; thieves and the master
	// read queue and inbox.
	s       *scheduler[T]
	id      int
	queue   wsq.Queue[T]
	handoff wsq.Handoff[T]   // queue, if it implements wsq.Handoff; else nil
	bq      *blockq.Queue[T] // queue, if it is a blockq (DefaultQueue's); else nil: a Pool's worker calls it directly
	inbox   chan delivery[T]
	wake    chan struct{}
	late    lateTimer // the late look of a parked worker (Random mode; see lateLook)
	// wants is set while the worker waits for the master (Master mode); a
	// worker that stops waiting (see stopLooking) clears it, and the master then
	// answers the worker's request with an empty delivery rather than with
	// work the worker would leave in its inbox.
	wants atomic.Bool
	// gid is the atomicx.Goroutine of the goroutine running the worker, in a Pool (see
	// Pool.caller), or zero while it is being handed over: each
	// goroutine that takes the worker stores its own, and one that lends
	// it (Task.Block) clears it first.
	gid atomic.Uint64
	// wanted counts the goroutines waiting to take the worker back (in a
	// Pool, those whose Task.Block call returned while another goroutine
	// ran the worker). They add to it; the goroutine running the worker
	// reads it between items and while it looks for work, and hands the
	// worker over (see run), and only it subtracts. reclaim (capacity
	// one; nil in Run) wakes it when it sleeps for want of work: a waiter
	// adds to wanted and then sends a token unless one is there, and the
	// worker reads wanted before it sleeps and wakes on a token, so it
	// sees one or the other.
	wanted  atomic.Int32
	reclaim chan struct{}

	_ pad.Line
	// Owner-private: only the worker goroutine touches these fields, except
	// that the master fills recv while the worker waits for it (the idle
	// and inbox channels order the two).

	// credit is the number of items this worker handled but has not yet
	// subtracted from s.pending. Spawn spends it before it adds to pending,
	// and the worker settles the rest when it runs out of work. It lets
	// most handled items and spawned batches leave the shared counter alone.
	credit int64

	// overflow holds the items a bounded queue refused, oldest at ovHead.
	// All of them are newer than every item in the queue: the worker takes
	// its next item from the end of overflow first, and refill moves the
	// oldest of them into the queue as room appears, so thieves keep
	// seeing a full queue.
	overflow []T
	ovHead   int

	// carry is a stolen item the worker runs next without pushing it, so
	// that a single stolen item is not put up for stealing again.
	carry    T
	hasCarry bool

	// asked is set while the worker is in the master's idle queue or has a
	// delivery coming that it has not taken (Master mode). A helping wait
	// (see poolWorker.join) may stop waiting for the master when the tasks
	// it waits for finish, and a worker's loop when a goroutine wants the
	// worker back; the worker then takes the answer when it comes,
	// and does not ask again meanwhile, so it is in the idle queue at most
	// once.
	asked bool

	idleSince time.Time // when the worker last asked the master for work; read by the master
	rng       uint64    // xorshift state for choosing victims
	buf       []T       // scratch for TryStealBatch in Random mode, and for items taken from the injector
	recv      []T       // buffer the master fills for this worker (Master mode)
	scratch   []T       // Spawn's copy of its arguments
	empty     int64     // steals that found a non-empty-looking victim empty (Random mode)
	contended int64     // steals that met contention (Random mode)
	stats     WorkerStats
	// held bounds from above the items in the worker's queue and overflow:
	// the length last read, plus what the worker pushed since, less what it
	// took back. Thieves only take items away, so it never falls below
	// the true figure, and pushed reads the queue's length (which loads
	// the word thieves write) only when held exceeds stats.MaxLen, the
	// one case where the length could raise it.
	held int
	_    pad.Line
}

// delivery is what the master hands an idle worker: a parcel (from a
// wsq.Handoff queue) or a slice of items.
type delivery[T any] struct {
	parcel wsq.Parcel[T]
	items  []T
	n      int // number of items
}

// ID returns the worker's index, from 0 to the number of workers minus one:
// Config.WorkerCount for a Run (also Stats.Workers), Pool.Workers for a
// Pool. Handlers can use it to index per-worker state without locking; see
// PerWorker, which also keeps each worker's state on cache lines of its own,
// so that workers writing their own counters do not slow each other down
// (false sharing). Any goroutine may call it.
func (w *Worker[T]) ID() int { return w.id }

// Spawn pushes vs into the worker's own queue as one batch (vs[len(vs)-1]
// becomes the newest item, the one the worker handles next), so that each
// item is handled exactly once, by this worker or by whichever worker it is
// moved to. If a bounded queue cannot take all of vs, the worker keeps the
// rest aside and moves it into the queue as room appears.
//
// Spawn copies the items out of vs before it returns and does not retain
// vs, so the caller may reuse vs at once (a handler may keep one slice of
// children and refill it on every call), and vs does not escape: the slice
// that w.Spawn(a, b) or w.Spawn(kids...) passes can live on the handler's
// stack, and Spawn allocates nothing once the worker's buffers have grown
// to the largest batch. Children may as well be spawned one at a time,
// which allocates nothing either and makes each child stealable as soon as
// it is pushed; a batch publishes all of them with one operation on the
// queue.
//
// Spawn does not block. It must only be called by the handler running on
// this worker, during its call. In the terms of the Go memory model,
// Spawn(x) synchronizes before the handler call that handles x.
func (w *Worker[T]) Spawn(vs ...T) {
	n := len(vs)
	if n == 0 {
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

// count counts n new items in pending before anyone can take them, spending
// the worker's credit first; see pending.
func (w *Worker[T]) count(n int64) {
	if w.credit >= n {
		w.credit -= n
	} else {
		w.s.pending.Add(n - w.credit)
		w.credit = 0
	}
}

// push adds vs, which pending already counts, to the worker's items and
// tells the scheduler that there is work to steal.
func (w *Worker[T]) push(vs []T) {
	if w.ovHead == len(w.overflow) {
		k := w.queue.PushBatch(vs)
		if k < len(vs) {
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

// pushOne is push for one item.
func (w *Worker[T]) pushOne(v T) {
	if w.ovHead != len(w.overflow) || !w.queue.Push(v) {
		w.pushAside(v)
		return
	}
	w.pushed(1)
}

// pushAside is pushOne when v goes into overflow: the queue refused it, or
// items wait there already, which are older.
func (w *Worker[T]) pushAside(v T) {
	w.overflow = append(w.overflow, v)
	w.refill()
	w.pushed(1)
}

// pushed records that the worker added n items to its queue (or overflow):
// it keeps stats.MaxLen, the largest length sampled after a push, and tells
// the scheduler that there is work to steal. The length is sampled only
// when held says that it might exceed MaxLen, so MaxLen is exactly what a
// sample after every push would give.
// The usual case (no new maximum, nobody waits) costs one comparison and
// one load; pushedAside does the rest.
func (w *Worker[T]) pushed(n int) {
	if w.held += n; w.held > w.stats.MaxLen || w.s.waiters.Load() != 0 {
		w.pushedAside()
	}
}

// pushedAside is pushed when the length may be a new maximum, or a worker
// or the master may wait.
func (w *Worker[T]) pushedAside() {
	if w.bq != nil && w.s.waiters.Load() != 0 {
		// A blockq owner may hold what it pushed (see blockq's Holding
		// items); a worker or the master waits, and finds work by Len.
		w.bq.Publish()
	}
	if w.held > w.stats.MaxLen {
		w.held = w.queue.Len() + len(w.overflow) - w.ovHead
		w.stats.MaxLen = max(w.stats.MaxLen, w.held)
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

// next returns the item the worker handles next: a carried stolen item,
// else the newest item it holds. A delivery from the master that a helping
// wait stopped waiting for goes into the queue first.
func (w *Worker[T]) next() (T, bool) {
	if w.asked {
		select {
		case d := <-w.inbox:
			w.asked = false
			if d.n > 0 {
				w.accept(d)
			}
		default:
		}
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
			// Thieves made room: the items just moved are stealable.
			w.s.notify()
		}
		w.held--
		return v, true
	}
	v, ok := w.queue.Pop()
	if ok {
		w.held--
	}
	return v, ok
}

// run is the worker's loop: handle items until the run is complete. It
// looks for cancellation before it takes an item, so that a cancelled run
// leaves every item it did not handle in a queue. It returns errHandBack,
// with the worker's state ready for another goroutine to go on with, when
// a goroutine waits to take the worker back (see wanted): between items,
// or instead of waiting for work.
func (w *Worker[T]) run(ctx context.Context) error {
	cancelled := ctx.Done()
	for {
		select {
		case <-cancelled:
			return ctx.Err()
		default:
		}
		if w.wanted.Load() > 0 {
			return errHandBack
		}
		v, ok := w.next()
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
		if err := w.handle(ctx, v); err != nil {
			return err
		}
	}
}

// errHandBack is what run returns when a goroutine waits to take the
// worker back.
var errHandBack = errors.New("sched: the worker is wanted back")

// stopLooking reports whether a worker that looks for work should give up:
// when l (a helping wait's latch, if not nil) is done, or when a goroutine
// waits to take the worker back. A parked worker wakes for either on
// l.channel() (taken before this check) and w.reclaim.
func (w *Worker[T]) stopLooking(l *latch) bool {
	return (l != nil && l.done()) || w.wanted.Load() > 0
}

// handle calls the handler for v and counts v as handled if it returns nil.
func (w *Worker[T]) handle(ctx context.Context, v T) error {
	if err := w.s.handler(ctx, v, w); err != nil {
		return err
	}
	w.credit++
	w.stats.Processed++
	return nil
}

// settle subtracts the worker's credit from pending and ends the run if that
// brings it to zero. A negative result means that a queue returned an item
// twice; settle reports it.
func (w *Worker[T]) settle() error {
	if w.credit == 0 {
		return nil
	}
	p := w.s.pending.Add(-w.credit)
	w.credit = 0
	if p < 0 {
		return errDuplicate
	}
	if p == 0 {
		w.s.finish()
	}
	return nil
}

// findWork is called when the worker holds no items. It returns true once
// the worker holds work again, and false when the run is complete, ctx is
// cancelled, or stopLooking(l) holds.
func (w *Worker[T]) findWork(ctx context.Context, l *latch) (bool, error) {
	if err := w.settle(); err != nil {
		return false, err
	}
	select {
	case <-w.s.done:
		return false, nil
	default:
	}
	w.stats.Idles++
	start := time.Now()
	ok := w.s.mode.find(ctx, w, l)
	w.stats.IdleWait += time.Since(start)
	return ok, nil
}

// takeInjected takes a share of the items added from outside the workers
// into w.buf, and reports whether it took any.
func (w *Worker[T]) takeInjected() bool {
	inj := &w.s.inj
	if inj.n.Load() == 0 {
		return false
	}
	w.buf = inj.take(w.buf[:0], len(w.s.workers))
	return len(w.buf) > 0
}

// maxKeptBuffer is the most items of capacity an idle worker keeps in each
// of its buffers (steals, deliveries, Spawn's copy, overflow), and the
// injector when it is empty: a buffer grown by a larger fan-out is given
// back when the worker parks (see shed).
const maxKeptBuffer = 1024

// shrink returns s emptied, or nil if its capacity exceeds maxKeptBuffer,
// so that its array can be collected.
func shrink[T any](s []T) []T {
	if cap(s) > maxKeptBuffer {
		return nil
	}
	return s[:0]
}

// shed gives back the worker's buffers that a large steal, delivery or
// fan-out grew beyond maxKeptBuffer items, when the worker is about to
// sleep: a busy worker keeps them, so that a steady stream of large steals
// does not allocate, and an idle one keeps little. The master must not be
// filling recv (see master.await).
func (w *Worker[T]) shed() {
	w.buf = shrink(w.buf)
	w.recv = shrink(w.recv)
	w.scratch = shrink(w.scratch)
	if w.ovHead == len(w.overflow) {
		w.overflow, w.ovHead = shrink(w.overflow), 0
	}
}

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

// lateLook is how long a worker that parks in Random mode, or the master
// that waits for work, sleeps before it looks at the queues once more.
//
// A publisher pushes and then reads whether anyone sleeps; a worker that
// parks announces itself and then reads the queues. With sequentially
// consistent operations on both sides one of the two would always see the
// other. But the queues' owners push with release stores (no locked
// instruction on amd64), which a processor may make visible after the
// publisher's next load: the publisher may read that nobody sleeps while
// the parking worker reads queues that do not show the push yet. The
// store leaves the processor's store buffer within far less than a
// microsecond, so one more look a millisecond later sees it: a wake-up can
// then be late, never lost, and an idle pool still sleeps (one look per
// park, no polling).
const lateLook = time.Millisecond

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
