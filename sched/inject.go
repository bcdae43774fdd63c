package sched

import (
	"sync"
	"sync/atomic"

	"github.com/worksteal/wsq/internal/pad"
)

// injector holds the items that goroutines outside the workers add,
// oldest first, until idle workers or a master take them. Its usual path
// takes no lock: a goroutine that adds an item does not wait for a taker.
//
// The items sit in a ring of injectRing slots, reused for ever, as in
// Dmitry Vyukov's bounded queue. A position counts the items ever put in
// the ring; position p lives in slot p mod injectRing. Each slot's seq
// says whose turn it is:
//
//	seq       the slot
//	p         is free for the putter of position p
//	p+1       holds the item of position p, for its taker
//	p+ring    is free again, for the putter of position p+ring
//
// A putter reserves position tail with a CAS when its slot is free,
// writes the item, then advances seq. A taker checks that the slots from
// head hold their items, claims them with one CAS on head, reads them,
// and frees each slot. Only the claimer touches a claimed slot.
//
// When the ring is full, items go to a locked overflow, which takers
// take from only when the ring is empty, as seen under the lock. While
// the overflow holds items, puts go there too: so each goroutine's items
// stay in the order it put them. A putter may still reserve a ring slot
// after the overflow began, if it read ovN before; its later items go to
// the overflow, and the check under the lock keeps them behind it.
//
// The overflow is a list of blocks of injectBlockLen items, so that a
// backlog of any length costs neither a copy of what it holds nor more
// than a block at a time. Emptied blocks go to a sync.Pool, for the next
// backlog: a steady stream of them allocates nothing, and an idle pool's
// blocks go at the next collections. A take takes at most injectTake
// items: a large backlog goes out in shares that a worker's queue holds
// without growing.
//
// Invariants: head <= tail <= head+injectRing; ovN is the overflow's
// length, changed under mu.
type injector[T any] struct {
	_      pad.Line
	tail   atomic.Uint64 // the next position to put; putters CAS it
	closed atomic.Bool   // puts are refused: see scheduler.inject
	_      pad.Line
	head   atomic.Uint64 // the next position to take; takers CAS it
	_      pad.Line
	ovN    atomic.Int64 // the items in the overflow
	ring   *[injectRing]injectorSlot[T]
	mu     sync.Mutex
	// The overflow, under mu: its items lie from first.items[firstAt] to
	// last.items[lastN-1], oldest first; first and last are nil when it
	// has none. blocks keeps emptied blocks, their items cleared.
	first, last    *injectBlock[T]
	firstAt, lastN int
	blocks         sync.Pool
}

// injectBlock is a block of the overflow.
type injectBlock[T any] struct {
	items [injectBlockLen]T
	next  *injectBlock[T]
}

// injectBlockLen is the number of items of an overflow block.
const injectBlockLen = 256

// injectRing is the number of slots of an injector's ring.
const injectRing = 1024

// injectTake is the most items one take takes. A worker pushes what it
// takes into its queue: a share this size fits the blocks its queue has,
// where a larger one would grow it. The other workers take the rest from
// the injector meanwhile.
const injectTake = 256

// injectorSlot is one slot of an injector's ring.
type injectorSlot[T any] struct {
	seq atomic.Uint64 // whose turn: see injector
	v   T             // written by its putter before seq, cleared by its taker
}

// init makes the ring. Run's scheduler, which never injects, has none.
func (q *injector[T]) init() {
	q.ring = new([injectRing]injectorSlot[T])
	for i := range q.ring {
		q.ring[i].seq.Store(uint64(i))
	}
}

// size returns how many items are in the injector, counting those whose
// putters have reserved a slot but not yet written it. Any goroutine may
// call it: it is a hint, which take confirms.
func (q *injector[T]) size() int64 {
	t := q.tail.Load() // first: head may pass it meanwhile, but never tail
	return int64(t-min(q.head.Load(), t)) + q.ovN.Load()
}

// put adds v as the newest item. The caller has checked closed.
func (q *injector[T]) put(v T) {
	if q.ovN.Load() == 0 { // else after the overflow: see injector
		for {
			p := q.tail.Load()
			s := &q.ring[p%injectRing]
			seq := s.seq.Load()
			if seq == p {
				if q.tail.CompareAndSwap(p, p+1) {
					s.v = v
					s.seq.Store(p + 1) // after v: the taker's load orders v
					return
				}
				continue
			}
			if seq < p {
				break // full: the slot holds, or is about to hold, the item of p-injectRing
			}
			// Another putter took p: look again.
		}
	}
	q.mu.Lock()
	if q.last == nil || q.lastN == injectBlockLen {
		b, _ := q.blocks.Get().(*injectBlock[T])
		if b == nil {
			b = new(injectBlock[T])
		}
		if q.last == nil {
			q.first, q.firstAt = b, 0
		} else {
			q.last.next = b
		}
		q.last, q.lastN = b, 0
	}
	q.last.items[q.lastN] = v
	q.lastN++
	q.ovN.Add(1) // after the item: a taker that reads ovN > 0 finds it under mu
	q.mu.Unlock()
}

// close makes every later inject fail (see scheduler.inject).
func (q *injector[T]) close() { q.closed.Store(true) }

// take appends the oldest of the items to dst, a share of them for one of
// parts takers (at least one item, if there are any), and returns dst. It
// stops in the ring at a slot whose putter has not written it yet.
func (q *injector[T]) take(dst []T, parts int) []T {
	want := min((q.size()+int64(parts)-1)/int64(parts), injectTake)
	var zero T
	for want > 0 {
		h := q.head.Load()
		k := uint64(0)
		for k < uint64(want) && k < injectRing && q.ring[(h+k)%injectRing].seq.Load() == h+k+1 {
			k++
		}
		if k == 0 {
			if q.head.Load() != h {
				continue // h is stale: another taker came first
			}
			break // empty, or the oldest slot is not written yet
		}
		if !q.head.CompareAndSwap(h, h+k) {
			continue // another taker came first
		}
		for i := h; i < h+k; i++ {
			s := &q.ring[i%injectRing]
			dst = append(dst, s.v)
			s.v = zero                  // let the GC have what it holds
			s.seq.Store(i + injectRing) // free: after the read of v
		}
		want -= int64(k)
	}
	if want <= 0 || q.ovN.Load() == 0 {
		return dst
	}
	q.mu.Lock()
	if q.head.Load() != q.tail.Load() {
		// The ring still holds older items, one of them not written
		// yet: the overflow waits. Checked under mu: a putter's ring
		// puts come before its overflow items, so before this lock.
		q.mu.Unlock()
		return dst
	}
	taken := int64(0)
	for b := q.first; b != nil && taken < want; b = q.first {
		end := injectBlockLen
		if b == q.last {
			end = q.lastN
		}
		k := min(end-q.firstAt, int(want-taken))
		dst = append(dst, b.items[q.firstAt:q.firstAt+k]...)
		clear(b.items[q.firstAt : q.firstAt+k])
		q.firstAt += k
		taken += int64(k)
		if q.firstAt < end {
			break
		}
		// b is empty, its items cleared: keep it for the next backlog.
		if b == q.last {
			q.first, q.last, q.firstAt, q.lastN = nil, nil, 0, 0
		} else {
			q.first, q.firstAt = b.next, 0
		}
		b.next = nil
		q.blocks.Put(b)
	}
	q.ovN.Add(-taken) // under mu, with the blocks
	q.mu.Unlock()
	return dst
}
