package chaselev

import (
	"fmt"
	"math/bits"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/internal/steal"
)

// MaxCapacity is the largest capacity of a Deque: 2^29 items.
//
// Positions are 32-bit counters that wrap around. Keeping the ring (up to
// twice the capacity, for a bounded deque) at a quarter of their range keeps
// every difference between two positions that are live at the same time a
// valid int32, so comparisons survive the wrap-around.
const MaxCapacity = 1 << 29

// The two special values of claim-s in head (see Deque.head). No claim can
// have them, because claims are at most MaxCapacity long.
const (
	pendingLen   = ^uint32(0)     // claim = s-1: a batch steal is announced at s
	cancelledLen = ^uint32(0) - 1 // claim = s-2: the owner cancelled that announcement
)

// Deque is a Chase-Lev work-stealing deque of items of type T, bounded or
// unbounded.
//
// A Deque has one owner, the goroutine that calls Push, PushBatch, Pop and
// Reserve; they must never be called by two goroutines at once. Steal,
// TrySteal, StealBatch and TryStealBatch may be called by any number of
// goroutines, concurrently with the owner and with each other: thieves take
// turns (one thief copies items out at a time), so a Steal or StealBatch
// that finds another thief at work waits for it, yielding the processor,
// while TrySteal and TryStealBatch report wsq.Contended rather than wait.
// Len and Cap may be called by any goroutine. The owner never waits for a
// thief, and a thief never waits for the owner.
//
// Items are stored by value and never torn. In the terms of the Go memory
// model, the Push or PushBatch that adds an item x synchronizes before the
// Pop or steal that returns x, and no item is returned twice. Push and
// PushBatch publish with a release store, which is not ordered before the
// owner's later loads: an owner that pushes and then loads a variable that
// another goroutine stores before it looks into the deque (a flag that says
// it is about to sleep, say) may miss that store while the other goroutine
// misses the items. Such a handshake needs a sequentially consistent atomic
// operation of the owner's between the push and the load.
//
// Use NewBounded or NewUnbounded to create a Deque; the zero value is not
// usable. A Deque must not be copied after first use.
type Deque[T any] struct {
	_ pad.Line

	// head is the thieves' word: the release frontier s in the high 32 bits
	// and the claim frontier claim in the low 32 bits. Positions count the
	// items ever added, mod 2^32, and are compared by their int32
	// differences; item i lives in slot i&mask of the current ring. The
	// items in the deque are claimEnd(s, claim)..tail-1; slots below s are
	// free, for the owner to clear and reuse.
	//
	// State      claim-s         meaning
	// idle       0               no thief at work
	// claimed    1..MaxCapacity  one thief copies s..claim-1 out; no one else touches them
	// pending    pendingLen      a thief announced a batch steal at s, not yet counted
	// cancelled  cancelledLen    the owner cancelled it; its thief has yet to see that
	//
	// Transition                     by (a CAS, unless marked store)      in
	// idle -> claimed (s, s+1)       a thief claims one item              stealOne
	// idle -> pending                a thief announces a batch steal      announce
	// idle -> idle at s+1            the owner takes the last item        popOnly, popSlow
	// pending -> claimed (s, s+k)    its thief commits its count          commit
	// pending -> idle                its thief counted no item            count
	// pending -> cancelled           the owner pops into the count        popSlow
	// cancelled -> cancelled at s+1  the owner takes the last item        popSlow
	// cancelled -> idle              its thief, and only it               uncancel
	// claimed -> idle at claim       its thief releases (store)           stealOne, take, confirm
	// claimed (s, s+1) -> pending    its thief, from another lap (store)  confirm
	//
	// Invariants: claimEnd(s, claim) <= tail whenever the owner is not inside
	// Pop, except for a one-item claim made from a tail of another lap, which
	// its thief turns into an announcement before it reads anything. A
	// pending head is made only from idle by an announcement, and stays
	// pending or cancelled until its thief clears it, so head never shows a
	// stalled announcer its pending value again after a cancellation, however
	// far the positions move; the owner moves a cancelled head past the last
	// item rather than take it in place, so head never returns to an idle
	// value whose item is gone (which a stalled one-item steal may hold). The
	// other CASes that could meet a head that went round all 2^32 positions
	// are harmless (an announcement loads tail afresh), follow their own
	// loads closely (the owner's: positions move only through its pushes), or
	// are checked against the 64-bit tail (stealOne).
	//
	// Linearization points: Push and PushBatch at their tail store; Pop at
	// its tail store when it takes its item without a CAS (or at its next
	// load of head, if a batch steal that counted the item commits in
	// between without claiming it), at its CAS when it takes the last item
	// or cancels an announcement, at its load of head when it finds nothing;
	// a one-item steal at its claiming CAS (for a claim that confirm
	// settles, at the commit); a batch steal at its commit; a steal that
	// finds nothing at its load of tail (after the announcement, for a batch
	// steal); a Contended TrySteal or TryStealBatch nowhere.
	head atomicx.Uint64

	_ pad.Line

	// tail is one past the newest item. Only the owner writes it: with a
	// release store that publishes the slots written before it (Push,
	// PushBatch) or gives back a slot it did not take (Pop), and with a
	// sequentially consistent store that announces the slot it is about to
	// take (Pop, before it loads head: the store-load handshake with the
	// thieves, who change head and then load tail). Thieves load it after
	// head. It equals bottom except inside Pop.
	//
	// A release store needs no more than release order. What a thief reads
	// of the slots below a tail it loads, the store that published that tail
	// made visible; a thief that loads tail before a push's store is visible
	// counts the deque without the new items, as if it ran before the push;
	// and no owner operation relies on the store being visible before its
	// own later loads of head: Pop's first load proves the deque empty, for
	// which a stale head suffices, as head only moves forward, or feeds the
	// CAS of popOnly, which checks it; room's computes free slots, for which
	// a stale head suffices too; and Pop's fence comes before its second.
	//
	// Unlike the positions in head, tail is a 64-bit count that never
	// wraps (its low 32 bits are the position). A single-item steal
	// compares the tail it loaded before its claim with one loaded after:
	// head cannot have come round to the same 32-bit value in between
	// unless tail moved by more than 2^31 (see stealOne).
	tail atomicx.Uint64

	// buf is the current ring. Only the owner writes it, when it grows;
	// thieves load it after tail, so the ring they read holds every position
	// below the tail they loaded (the owner stores a new ring before any
	// later tail). Old rings are never written again and are left to the
	// garbage collector once no thief holds them.
	buf atomicx.Pointer[ring[T]]

	// The rest is the owner's private state.

	bottom uint64   // the owner's copy of tail
	seen   uint32   // the release frontier s the owner has last seen; slots from seen up are not yet cleared
	r      *ring[T] // the owner's copy of buf

	// limit is the capacity: the items a bounded deque holds, or the size of
	// an unbounded deque's ring. While bottom-seen < limit a push has room
	// without looking at head. A bounded deque's ring has 2*limit slots, so
	// that items a thief is still copying out (at most limit of them) never
	// make a push fail: a push is refused exactly when limit items are in
	// the deque. It never changes in a bounded deque, so any goroutine may
	// read it there.
	limit   uint32
	bounded bool // immutable: Push refuses when full instead of growing

	_ pad.Line
}

// ring is a power-of-two array of slots.
type ring[T any] struct {
	mask  uint32
	slots []T
}

func newRing[T any](capacity int) *ring[T] {
	return &ring[T]{mask: uint32(capacity - 1), slots: make([]T, capacity)}
}

func pack(s, claim uint32) uint64 { return uint64(s)<<32 | uint64(claim) }

func unpack(h uint64) (s, claim uint32) { return uint32(h >> 32), uint32(h) }

// claimEnd returns claim, or s when head is pending or cancelled: the oldest
// item still in the deque.
func claimEnd(s, claim uint32) uint32 {
	if claim-s > MaxCapacity {
		return s
	}
	return claim
}

var _ wsq.Queue[int] = (*Deque[int])(nil)

// NewBounded returns an empty deque that holds at most capacity items. Push
// reports false and PushBatch takes a prefix when it is full, and only then:
// its ring has 2*capacity slots, so that the slots of items a thief is still
// copying out are never missing. It panics unless capacity is a power of two
// between 1 and MaxCapacity.
func NewBounded[T any](capacity int) *Deque[T] {
	checkCapacity(capacity)
	return newDeque[T](capacity, true)
}

// NewUnbounded returns an empty deque with room for capacity items that
// grows, by doubling (or to the next power of two that fits a batch), when
// the owner pushes into a full one. It panics unless capacity is a power of
// two between 1 and MaxCapacity; growing beyond MaxCapacity panics too.
func NewUnbounded[T any](capacity int) *Deque[T] {
	checkCapacity(capacity)
	return newDeque[T](capacity, false)
}

func newDeque[T any](capacity int, bounded bool) *Deque[T] {
	q := &Deque[T]{bounded: bounded, limit: uint32(capacity)}
	if bounded {
		q.r = newRing[T](2 * capacity)
	} else {
		q.r = newRing[T](capacity)
	}
	q.buf.Store(q.r)
	return q
}

func checkCapacity(capacity int) {
	switch {
	case capacity < 1:
		panic(fmt.Sprintf("chaselev: capacity %d is not positive", capacity))
	case capacity&(capacity-1) != 0:
		panic(fmt.Sprintf("chaselev: capacity %d is not a power of two", capacity))
	case capacity > MaxCapacity:
		panic(fmt.Sprintf("chaselev: capacity %d exceeds MaxCapacity (%d)", capacity, MaxCapacity))
	}
}

// Contract reports what the deque promises where wsq.Queue lets queues
// differ: thieves take turns at head, so a Steal or StealBatch waits while
// another thief holds it (SerializedThieves; TrySteal and TryStealBatch
// report wsq.Contended instead), a batch steal counts before it claims
// (InexactStealBatch), and a bounded deque has a Capacity. Any goroutine
// may call it.
func (q *Deque[T]) Contract() wsq.Contract {
	c := wsq.Contract{SerializedThieves: true, InexactStealBatch: true}
	if q.bounded {
		c.Capacity = int(q.limit)
	}
	return c
}

// Bounded reports whether the deque was made by NewBounded. Any goroutine
// may call it.
func (q *Deque[T]) Bounded() bool { return q.bounded }

// Cap returns the number of items the deque can hold before Push refuses
// (bounded) or grows (unbounded). Any goroutine may call it.
func (q *Deque[T]) Cap() int {
	if q.bounded {
		return int(q.limit)
	}
	return len(q.buf.Load().slots)
}

// Len returns the number of items in the deque. Under concurrency it is a
// snapshot that may be stale as soon as it returns, but it is a count the
// deque had while Len ran, or, when thieves kept moving head, a count no
// larger than the deque can hold. Any goroutine may call it.
func (q *Deque[T]) Len() int {
	// head, tail, head: if head did not change, the pair describes the
	// deque at the tail load. Otherwise the second head is newer than the
	// tail, so the difference never exceeds what the deque held at the
	// tail load (a stale head with a newer tail could exceed the capacity).
	var n int32
	for range 4 {
		h := q.head.Load()
		t := uint32(q.tail.Load())
		h2 := q.head.Load()
		n = int32(t - claimEnd(unpack(h2)))
		if h2 == h {
			break
		}
	}
	return int(max(n, 0))
}

// Push adds v as the newest item. It reports false, and leaves the deque
// unchanged, only when a bounded deque is full. A release store publishes
// the item, with no locked instruction on amd64. Push must only be called
// by the owner; it does not block.
func (q *Deque[T]) Push(v T) bool {
	b := q.bottom
	if uint32(b)-q.seen >= q.limit { // full, unless thieves took items since
		if q.room(1) == 0 {
			return false
		}
	}
	r := q.r
	r.slots[uint32(b)&r.mask] = v
	q.bottom = b + 1
	q.tail.StoreRelease(b + 1) // publishes the slot write to thieves that load tail
	return true
}

// PushBatch adds the items of vs as if by Push(vs[0]), Push(vs[1]), and so
// on, but writes all the slots first and publishes them with one release
// store, so a thief sees none or all of them. It returns how many items it
// took: len(vs), unless a bounded deque fills up, in which case it takes the
// longest prefix that fits. An unbounded deque grows at most once per call.
// PushBatch does not retain vs. It must only be called by the owner; it does
// not block.
func (q *Deque[T]) PushBatch(vs []T) int {
	n := len(vs)
	if n == 0 {
		return 0
	}
	b := q.bottom
	if free := int(q.limit) - int(uint32(b)-q.seen); n > free {
		if n = q.room(n); n == 0 {
			return 0
		}
	}
	r := q.r
	if n <= smallBatch {
		// Slot by slot: cheaper for a few items than copy, a call of
		// memmove (two where the batch wraps around the ring).
		for j, v := range vs[:n] {
			r.slots[(uint32(b)+uint32(j))&r.mask] = v
		}
	} else {
		i := int(uint32(b) & r.mask)
		if c := copy(r.slots[i:], vs[:n]); c < n {
			copy(r.slots, vs[c:n]) // the batch wraps around the end of the ring
		}
	}
	b += uint64(n)
	q.bottom = b
	q.tail.StoreRelease(b) // one publication for the whole batch
	return n
}

// room makes the owner's view of the release frontier current and, in an
// unbounded deque, grows the ring so that n more items fit. It returns how
// many of the n items fit: n, unless the deque is bounded.
func (q *Deque[T]) room(n int) int {
	s, claim := unpack(q.head.Load()) // in every state, slots below s are free
	if q.bounded {
		// The items in the deque are claim..bottom-1; those a thief is
		// copying out, s..claim-1, are at most limit more, so the ring of
		// 2*limit slots has room for limit items whatever the thieves do.
		q.observe(s)
		return max(0, min(n, int(q.limit)-int(uint32(q.bottom)-claimEnd(s, claim))))
	}
	used := int(uint32(q.bottom) - s)
	if free := len(q.r.slots) - used; free >= n {
		q.observe(s)
		return n
	}
	if used+n > MaxCapacity {
		panic(fmt.Sprintf("chaselev: %d items exceed MaxCapacity (%d)", used+n, MaxCapacity))
	}
	q.grow(s, max(2*len(q.r.slots), ceilPow2(used+n)))
	return n
}

// Reserve grows an unbounded deque, if necessary, so that its capacity is at
// least capacity, rounded up to a power of two; it never shrinks. It panics
// on a bounded deque and when capacity exceeds MaxCapacity. Reserve must only
// be called by the owner; it does not block.
func (q *Deque[T]) Reserve(capacity int) {
	if q.bounded {
		panic("chaselev: Reserve on a bounded deque")
	}
	if capacity > MaxCapacity {
		panic(fmt.Sprintf("chaselev: capacity %d exceeds MaxCapacity (%d)", capacity, MaxCapacity))
	}
	if capacity <= len(q.r.slots) {
		return
	}
	s, _ := unpack(q.head.Load())
	q.grow(s, ceilPow2(capacity))
}

// grow replaces the ring with a new one of the given capacity holding the
// positions s..bottom-1. The owner only reads the old ring here, as thieves
// may, and never writes it again; slots below s are free and not copied, so
// the items the old ring still holds die with it.
func (q *Deque[T]) grow(s uint32, capacity int) {
	old, nr := q.r, newRing[T](capacity)
	for i := s; i != uint32(q.bottom); i++ {
		nr.slots[i&nr.mask] = old.slots[i&old.mask]
	}
	q.r = nr
	q.seen = s
	q.limit = uint32(capacity)
	q.buf.Store(nr) // thieves that load a tail stored after this see nr
}

// observe clears the slots that thieves have released since the owner last
// looked (positions seen..s-1), so the deque does not keep stolen items
// reachable, and records s as the owner's view of the release frontier.
// Clearing is safe: a thief releases its claim with an atomic store after it
// has read the slots, and the owner learnt s from an atomic load of head.
func (q *Deque[T]) observe(s uint32) {
	if s == q.seen {
		return
	}
	clearRange(q.r, q.seen, s)
	q.seen = s
}

// clearRange zeroes the slots of positions from..to-1.
func clearRange[T any](r *ring[T], from, to uint32) {
	n := int(to - from)
	i := int(from & r.mask)
	if i+n <= len(r.slots) {
		clear(r.slots[i : i+n])
		return
	}
	clear(r.slots[i:])
	clear(r.slots[:i+n-len(r.slots)])
}

// Pop removes and returns the newest item (last in, first out). It reports
// false when the deque is empty, or when the only items left are claimed by
// a thief that is copying them out. It must only be called by the owner; it
// does not block.
//
// Pop is the Chase-Lev pop of Lê et al.: announce the slot by lowering tail
// with a sequentially consistent store, then load head; a thief that claims
// after that store sees the lower tail. That store is Pop's one locked
// instruction (an XCHG on amd64), and it cannot be a release store (see
// "Why Pop keeps its fence" in the package documentation). When the deque
// holds one item and no thief is at work, Pop takes it as a thief would,
// with a CAS on head, and leaves tail alone: one locked instruction again.
// A pending batch steal is settled with a CAS, and a Pop that finds the
// deque empty before it starts needs no locked instruction.
func (q *Deque[T]) Pop() (T, bool) {
	var zero T
	b := q.bottom
	h := q.head.Load()
	s, claim := unpack(h)
	switch d := int32(uint32(b) - claimEnd(s, claim)); {
	case d <= 0:
		// head only moves forward, so once the oldest item's position has
		// reached bottom there is nothing to take, whatever the thieves do
		// next.
		q.observe(s)
		return zero, false
	case d == 1 && s == claim:
		if v, ok := q.popOnly(h, s); ok {
			return v, true
		}
		// A thief changed head since our load: settle it as below.
	}
	b--
	q.tail.Store(b) // the fence: from here a thief that loads tail will not claim b
	h = q.head.Load()
	if s, claim := unpack(h); claim-s <= MaxCapacity {
		if d := int32(uint32(b) - claim); d > 0 || (d == 0 && s != claim) {
			// The common case, inline: b is above every claim. When d == 0
			// a thief holds a claim just below b: no other thief can claim
			// until it releases, and any that does will load a tail no
			// higher than b. This is popTake written out: neither Pop nor
			// popTake fits the compiler's inlining budget, so calling
			// popTake would add a call here.
			r := q.r
			i := uint32(b) & r.mask
			v := r.slots[i]
			r.slots[i] = zero
			q.bottom = b
			q.observe(s)
			return v, true
		}
	}
	return q.popSlow(b, h)
}

// popSlow finishes a Pop of the item at b, given head h as loaded after the
// tail store, when b is the last item, a batch steal is announced, or a
// claim covers b.
func (q *Deque[T]) popSlow(b uint64, h uint64) (T, bool) {
	var zero T
	p := uint32(b)
	for {
		s, claim := unpack(h)
		if l := claim - s; l == pendingLen || l == cancelledLen {
			// No claim is in progress, but a thief announced a batch steal
			// at s and may have loaded tail before our store.
			if int32(p-s) < 0 {
				break // empty
			}
			// Cancel the announcement, so its commit fails and the thief
			// starts again with a tail loaded after our store. Once it is
			// cancelled no thief can claim b, so the owner takes it
			// without moving head, unless b == s is the last item: then it
			// moves the cancelled announcement past it. Otherwise the
			// announcer's uncancel would bring head back to (s, s), the
			// idle value a one-item steal may have loaded, with its tail,
			// before the announcement, and that steal's CAS would claim
			// the empty slot s (TestInterleaveStealAcrossCancel). Either
			// way head stays announced, so no other thief can move it
			// round the 32-bit positions under a stalled announcer.
			if l == pendingLen && !q.head.CompareAndSwap(h, pack(s, s-2)) {
				h = q.head.Load()
				continue
			}
			if p != s {
				return q.popTake(b, s)
			}
			if !q.head.CompareAndSwap(pack(s, s-2), pack(s+1, s-1)) {
				h = q.head.Load() // the announcer cleared it: head is idle
				continue
			}
			return q.popLast(b)
		}
		d := int32(p - claim)
		if d > 0 || (d == 0 && s != claim) {
			return q.popTake(b, s) // as in Pop
		}
		if d == 0 {
			// b is the last item and no thief is at work: race them for it.
			if q.head.CompareAndSwap(h, pack(p+1, p+1)) {
				return q.popLast(b)
			}
			h = q.head.Load()
			continue
		}
		// d < 0: empty, or a thief's claim covers b (a claim committed after
		// our store cannot, so it was made from a tail that included b).
		q.observe(s)
		break
	}
	// Give tail back. A release store suffices: head is past b, so a thief
	// that still loads the lower tail finds the deque empty, as it is.
	q.tail.StoreRelease(b + 1)
	return zero, false
}

// popOnly takes the deque's one item, at p, given head h = (p, p) as
// loaded, with no store to tail: it moves head past the item with a CAS, as
// a one-item steal claims it, and reports false, having changed nothing, if
// a thief changed head first. A CAS from an idle head is how the owner takes
// the last item in any case (popSlow); taking it before lowering tail saves
// the fence and the store that gives tail back. The CAS is safe against a
// thief that loaded the tail with the item and h before it: that thief's
// CAS from h, a one-item claim or an announcement, now fails (head never
// returns to h short of 2^32 positions, against which stealOne checks its
// claims), and a thief that loads head afterwards finds the deque empty,
// tail being p+1. It takes effect at the CAS.
func (q *Deque[T]) popOnly(h uint64, p uint32) (T, bool) {
	if !q.head.CompareAndSwap(h, pack(p+1, p+1)) {
		var zero T
		return zero, false
	}
	r := q.r
	v := r.slots[p&r.mask]
	q.observe(p + 1) // clears p too
	return v, true
}

// popTake returns the item at b, taken without moving head.
func (q *Deque[T]) popTake(b uint64, s uint32) (T, bool) {
	var zero T
	r := q.r
	i := uint32(b) & r.mask
	v := r.slots[i]
	r.slots[i] = zero
	q.bottom = b
	q.observe(s)
	return v, true
}

// popLast returns the item at b, taken by moving head past it; head is now
// (b+1, b+1), so tail goes back to b+1, with a release store: a thief that
// still loads the lower tail finds the deque empty, as it is.
func (q *Deque[T]) popLast(b uint64) (T, bool) {
	q.tail.StoreRelease(b + 1)
	r := q.r
	v := r.slots[uint32(b)&r.mask]
	q.bottom = b + 1
	q.observe(uint32(b) + 1) // clears b too
	return v, true
}

// Steal removes and returns the oldest item (first in, first out). It
// reports false only when the deque is empty: when it loses its CAS it
// tries again, and when another thief holds head (one copying items out,
// or one that has announced a batch steal and not yet committed it) it
// waits for that thief, yielding the processor, and tries again. It takes
// effect at its claiming CAS, or, when it finds the deque empty, at its
// load of tail. Any goroutine may call it; it never waits for the owner.
//
// A Steal claims the item with one CAS on head, reads the slot, and releases
// it with one atomic store.
func (q *Deque[T]) Steal() (T, bool) {
	for {
		h := q.head.Load()
		s, claim := unpack(h)
		if s != claim {
			q.head.SpinWait() // another thief is at work: let it finish
			continue
		}
		if v, ok, lost := q.stealOne(h, s, q.tail.Load()); !lost {
			return v, ok
		}
	}
}

// TrySteal makes one attempt at Steal, the one claiming CAS of Taskflow's
// steal: it reports wsq.Contended, taking nothing and changing nothing,
// when another thief holds head or when it loses the CAS, and never waits.
// Taken takes effect at the claiming CAS (or, for a claim that confirm
// settles, at its commit), Empty at the load of tail that shows no item.
// Any goroutine may call it; it does not block.
func (q *Deque[T]) TrySteal() (T, wsq.StealResult) {
	h := q.head.Load()
	s, claim := unpack(h)
	if s != claim {
		var zero T
		return zero, wsq.Contended // another thief is at work
	}
	v, ok, lost := q.stealOne(h, s, q.tail.Load())
	switch {
	case ok:
		return v, wsq.Taken
	case lost:
		return v, wsq.Contended
	}
	return v, wsq.Empty
}

// stealOne steals the item at s, given head h = (s, s) and then tail t as
// loaded. It reports lost when its CAS failed or it gave its claim back,
// so that the caller looks again.
//
// One CAS suffices for one item, as in Chase-Lev: the owner takes the item
// at s only with a CAS from the same idle head (the last item) or after
// seeing our claim, and we claim s only from a tail loaded after h that
// included s. The steal takes effect at the CAS.
//
// That argument assumes that head did not go round all 2^32 positions
// between our load of h and the CAS, which a thief stalled there while
// batch steals move billions of items could otherwise see: its CAS would
// succeed against a head that only looks like h, with a t from another lap,
// and claim a slot that holds no item. tail is a 64-bit count and head never
// runs ahead of it by more than one, nor behind it by more than the ring
// (at most 2^30 slots), so unless tail moved by 2^31 or more since t was
// loaded, head did not go round, and the claim stands. Otherwise the claim
// was made against the current head but without a valid tail; confirm
// settles it with a fresh one. No stall, however long, makes a steal take a
// slot without an item.
func (q *Deque[T]) stealOne(h uint64, s uint32, t uint64) (v T, ok, lost bool) {
	if int32(uint32(t)-s) <= 0 {
		return v, false, false
	}
	if !q.head.CompareAndSwap(h, pack(s, s+1)) {
		return v, false, true
	}
	if int64(q.tail.Load()-t) >= 1<<31 {
		return q.confirm(s)
	}
	r := q.buf.Load()            // after tail: this ring holds position s
	v = r.slots[s&r.mask]        // the claim keeps the owner off this slot
	q.head.Store(pack(s+1, s+1)) // release: the owner may clear and reuse it
	return v, true, false
}

// confirm settles a single-item claim at s whose tail came from another lap
// of the positions. Nobody else writes head during a claim, so a store turns
// the claim into an announcement at s, and the steal finishes as a batch
// steal of one item does: count from a tail loaded after the announcement,
// then commit. While the claim stood, the owner's Pop saw it and left the
// item at s alone (if there was one), and the announcement keeps it so, so
// taking the item after all is correct. It reports lost when it takes
// nothing, so the caller looks again.
func (q *Deque[T]) confirm(s uint32) (v T, ok, lost bool) {
	q.head.Store(pack(s, s-1))
	if q.count(s) == 0 || !q.commit(s, 1) {
		return v, false, true
	}
	r := q.buf.Load() // after the tail load in count: it holds s
	v = r.slots[s&r.mask]
	q.head.Store(pack(s+1, s+1))
	return v, true, false
}

// StealBatch removes wsq.StealCount(n, p) of the n items it finds in the
// deque, the oldest ones, in one operation, and appends them to dst, oldest
// first. The operation takes effect at the CAS that claims the items; if the
// owner pushed or popped items after StealBatch counted them, the count is
// that of the deque it saw. It takes nothing and returns dst unchanged only
// when the deque is empty: it tries again after a lost CAS or a cancelled
// announcement, and waits for another thief that holds head (see Steal).
// It panics, before it touches the deque, unless 0 < p <= 1. Any goroutine
// may call it; it never waits for the owner.
//
// A batch steal announces itself with a CAS on head, loads tail, commits its
// count with a second CAS, copies the items and releases them with an atomic
// store. When its count is one it claims the item as Steal does.
func (q *Deque[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	dst, _ = q.stealBatch(dst, p, false)
	return dst
}

// TryStealBatch makes one attempt at StealBatch: it returns dst unchanged
// and wsq.Contended, without waiting, when another thief holds head, when
// it loses a CAS, or when the owner cancels its announcement. It panics,
// before it touches the deque, unless 0 < p <= 1. Any goroutine may call
// it; it does not block.
func (q *Deque[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	return q.stealBatch(dst, p, true)
}

// stealBatch is StealBatch, or with once TryStealBatch: every continue of
// its loop follows a race lost, to the owner or to another thief, which
// once reports as wsq.Contended instead of trying again. Its results take
// effect as follows: Taken at the commit CAS (or, for one item, as in
// TrySteal); Empty at the load of tail that shows no item (the first, or
// the one in count after the announcement, which count withdraws); a
// Contended attempt changed nothing (an announcement it made is withdrawn
// or cleared, by count, commit or uncancel).
func (q *Deque[T]) stealBatch(dst []T, p float64, once bool) ([]T, wsq.StealResult) {
	for try := false; ; try = true {
		if try && once {
			return dst, wsq.Contended
		}
		h := q.head.Load()
		s, claim := unpack(h)
		if s != claim {
			if once {
				return dst, wsq.Contended // another thief is at work
			}
			q.head.SpinWait() // let it finish
			continue
		}
		t := q.tail.Load()
		n := int32(uint32(t) - s)
		if n <= 0 {
			return dst, wsq.Empty
		}
		if wsq.StealCount(int(n), p) == 1 {
			v, ok, lost := q.stealOne(h, s, t)
			if lost {
				continue
			}
			if !ok {
				return dst, wsq.Empty
			}
			return append(dst, v), wsq.Taken
		}
		if !q.announce(h, s) {
			continue
		}
		m := q.count(s)
		if m == 0 {
			return dst, wsq.Empty
		}
		k := uint32(wsq.StealCount(int(m), p))
		if !q.commit(s, k) {
			continue // the owner cancelled the announcement: start again
		}
		return q.take(dst, s, k), wsq.Taken
	}
}

// The steps of a batch steal, in order. They are separate so that tests can
// interleave them with the owner's operations.
//
// Why the announcement. A multi-item claim made with one CAS on head, as the
// Go runtime and Tokio make it, is unsafe against a Chase-Lev owner: the
// owner pops without a CAS whenever it sees head below the slot it pops, so
// between a thief's load of tail and its CAS the owner may pop items inside
// the range the thief is about to claim, and both would return them. (The
// runtime and Tokio are safe because their owners also take from head with
// a CAS; one item is safe here because the owner CASes for the last one.)
// Announcing first turns the race into a store-load handshake under Go's
// sequentially consistent atomics: the owner stores tail and then loads
// head; the thief CASes head and then loads tail. Either the thief's tail
// load sees the owner's store, so its count leaves the popped item out, or
// the owner's head load sees the announcement and cancels it with a CAS,
// which makes the thief's commit CAS fail.
//
// Why the positions cannot wrap under it. Once announced, head stays
// announced until the announcing thief moves on: other thieves wait their
// turn, the owner only cancels the announcement, and afterwards moves the
// cancelled announcement past each last item it takes, and only the
// announcer clears the cancelled state. A pending head is created only by
// an announcement from an idle head, so while the announcer is stalled no
// head equal to its pending value can appear, however far the owner moves
// the cancelled one, and its commit can never succeed after a
// cancellation. The announcing CAS itself may meet a head that went round
// the positions, after a long stall; it is harmless, since everything after
// it is computed from a tail loaded after it.

// announce turns head from idle h = (s, s) into pending. It reports whether
// its CAS succeeded.
func (q *Deque[T]) announce(h uint64, s uint32) bool {
	return q.head.CompareAndSwap(h, pack(s, s-1))
}

// count loads tail after the announcement at s and returns how many items
// the deque holds from s. When it holds none it withdraws the announcement
// and returns 0.
func (q *Deque[T]) count(s uint32) uint32 {
	n := int32(uint32(q.tail.Load()) - s)
	if n <= 0 {
		if !q.head.CompareAndSwap(pack(s, s-1), pack(s, s)) {
			q.uncancel()
		}
		return 0
	}
	return uint32(n)
}

// commit turns the announcement into a claim of positions s..s+k-1. It
// reports false if the owner cancelled the announcement first; head is idle
// again when commit returns false.
//
// The batch steal takes effect at a successful commit: every item of the
// claim is still in the deque then, and the oldest, because a pop that took
// one of them would have stored tail before the load in count (and been
// counted out) or seen the announcement and cancelled it. Its count is
// wsq.StealCount of the items the load in count saw; if the owner pushed
// more since, the deque holds more by the time the steal takes effect.
func (q *Deque[T]) commit(s, k uint32) bool {
	if q.head.CompareAndSwap(pack(s, s-1), pack(s, s+k)) {
		return true
	}
	q.uncancel()
	return false
}

// uncancel returns head from cancelled to idle after the owner cancelled our
// announcement, made at some position: the owner may have moved the
// cancelled announcement past items it took since (popSlow). Only the
// announcing thief leaves the cancelled state, so a cancelled head is ours
// wherever it stands; the CAS fails only when the owner moved it meanwhile,
// and a call that finds head in another state changes nothing.
func (q *Deque[T]) uncancel() {
	for {
		h := q.head.Load()
		s, claim := unpack(h)
		if claim-s != cancelledLen || q.head.CompareAndSwap(h, pack(s, s)) {
			return
		}
	}
}

// take copies the claimed items out, oldest first, and releases the claim.
func (q *Deque[T]) take(dst []T, s, k uint32) []T {
	r := q.buf.Load() // after the tail load in count: it holds s..s+k-1
	i := int(s & r.mask)
	n := int(k)
	if i+n <= len(r.slots) {
		dst = append(dst, r.slots[i:i+n]...)
	} else {
		dst = append(dst, r.slots[i:]...)
		dst = append(dst, r.slots[:i+n-len(r.slots)]...)
	}
	q.head.Store(pack(s+k, s+k)) // release; nobody else writes head during a claim
	return dst
}

// smallBatch is the largest batch PushBatch writes slot by slot rather than
// with copy.
const smallBatch = 4

// ceilPow2 returns the smallest power of two >= n, for 1 <= n <= MaxCapacity.
func ceilPow2(n int) int { return 1 << bits.Len(uint(n-1)) }
