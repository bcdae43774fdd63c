package blockq

import (
	"fmt"
	"math/bits"
	"reflect"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/internal/steal"
)

const (
	// MinBlockSize and MaxBlockSize bound the blocks a queue allocates
	// when New is not given WithBlockSize: each new block has about a
	// quarter as many slots as the queue holds items, rounded up to a
	// power of two and kept within these bounds, so that a small queue
	// stays small and a large one has few blocks for a steal to skip.
	MinBlockSize = 32
	MaxBlockSize = 4096

	// maxFixedBlockSize is the largest block size WithBlockSize accepts.
	maxFixedBlockSize = 1 << 20

	// MaxLen is the largest number of items a queue can hold: the size
	// field of the control word has 30 bits.
	MaxLen = sizeMask
)

// The control word. A link's word is unborn (zero) until the link becomes
// the front, live while it is the front, and moved once it no longer is:
//
//	bits 62-63  state: 0 unborn, 1 live, 2 moved
//	bits 30-61  idx: the position of the oldest item not reserved by a
//	            thief, counted from the link's first slot along the chain
//	bits  0-29  size: the number of items from idx on that are neither
//	            reserved by a thief nor popped
//
// While live, idx only grows (thieves add what they reserve) and size
// changes by every operation; a moved word never changes again. idx stays
// below 2^32: a thief reserves only while idx is inside the front link, so
// idx never exceeds a block plus MaxLen.
const (
	sizeBits   = 30
	sizeMask   = 1<<sizeBits - 1
	idxShift   = sizeBits
	idxMask    = 1<<32 - 1
	stateMask  = 3 << 62
	stateLive  = 1 << 62
	stateMoved = 2 << 62
)

func live(idx, size int) uint64 { return stateLive | uint64(idx)<<idxShift | uint64(size) }
func ctlIdx(c uint64) int       { return int(c >> idxShift & idxMask) }
func ctlSize(c uint64) int      { return int(c & sizeMask) }
func isMoved(c uint64) bool     { return c&stateMask == stateMoved }

// take returns live word c after a reservation of the k oldest items.
func take(c uint64, k int) uint64 { return c + uint64(k)<<idxShift - uint64(k) }

// link is one queue's view of a block: a window of its slots, chained from
// the front to the back. Invariants, for a link L of a queue:
//   - The positions of L are L's first span slots. A position is counted
//     when it holds an item the owner has counted in the control word; a
//     counted position's slot, the spans of the links before it and their
//     next pointers never change until a thief has reserved it and taken
//     it, or the owner has popped it.
//   - Beyond the counted positions only the owner reads or writes: it
//     fills slots before counting them, and may change the span and next
//     of its back link and of the links after it.
type link[T any] struct {
	// slots is the window. The owner writes a slot before it counts the
	// item in it and clears it when it pops it; the thief that reserved
	// a position reads its slot and clears it (or hands it over in a
	// parcel). No slot is ever written by two goroutines without that
	// order between them.
	slots []T

	// cut is the number of slots at the end of the window that are not
	// positions of the link, so that its span, its number of positions,
	// is len(slots)-cut: zero while the owner may still fill the link,
	// and what the owner left unfilled once it sealed the link early to
	// append a pre-built List. Written by the owner (atomic stores),
	// loaded by thieves walking the chain; a new link needs no store.
	cut atomicx.Uint32

	// next is the following link, nil at the back. Written by the owner
	// when it links a block or a List after its back link (or drops the
	// empty link it keeps behind its back); loaded by thieves.
	next atomicx.Pointer[link[T]]

	// fwd is the link that became the front after this one, set once by
	// the first goroutine that completes the move (see help).
	fwd atomicx.Pointer[link[T]]

	// prev is the link before this one, or nil where nobody recorded it
	// (the first link of a pushed List, the front link). Only the owner
	// reads or writes it, to step back when a pop empties its back link;
	// it is cleared on the front link, so that the chain the thieves have
	// consumed is not kept reachable.
	prev *link[T]

	// ctl is the control word while this link is the front (see above).
	// Every change is a compare-and-swap: by the owner (size), by thieves
	// (reservations, and the move), and by whoever makes this link the
	// front (from unborn to live, once). It shares its cache line with the
	// fields thieves read on their way through the front link; the owner
	// works on the back link and keeps its own copy of the word.
	ctl atomicx.Uint64
}

func newLink[T any](n int) *link[T] { return &link[T]{slots: make([]T, n)} }

// spanOf returns l's number of positions.
func spanOf[T any](l *link[T]) int { return len(l.slots) - int(l.cut.Load()) }

// seal makes l's span n, as its owner.
func (l *link[T]) seal(n int) {
	if c := uint32(len(l.slots) - n); l.cut.Load() != c {
		l.cut.Store(c)
	}
}

// Queue is an unbounded lock-free work-stealing queue of items of type T,
// stored in linked blocks.
//
// A Queue has one owner, the goroutine that calls Push, PushBatch,
// PushList, PushParcel and Pop; they must never be called by two
// goroutines at once. Steal, StealBatch and StealParcel may be called by any
// number of goroutines, concurrently with the owner and with each other.
// Len and Contract may be called by any goroutine. No method blocks or
// waits for another goroutine: a thief that meets another thief's change
// retries or finishes the other's work, and always makes progress when the
// queue holds items.
//
// Items are stored by value and never torn. In the terms of the Go memory
// model, the push that adds an item x synchronizes before the Pop or steal
// that returns x, and no item is returned twice.
//
// The zero value is an empty queue with the default block size, ready to
// use. A Queue must not be copied after first use.
type Queue[T any] struct {
	_ pad.Line

	// front is the link that holds the control word. It moves forward
	// only, by a compare-and-swap, after the new front's word is live.
	front atomicx.Pointer[link[T]]

	// pointers says whether T holds pointers, so that removed items'
	// slots must be cleared for the garbage collector. Written once,
	// before the first front is published.
	pointers bool

	_ pad.Line

	// own is the owner's private state.
	own struct {
		// f and c are the front link and its control word as the owner
		// last saw them. c is exact after the owner's own successful
		// compare-and-swap; since thieves only reserve, the true size
		// is at most ctlSize(c), so a zero size means empty.
		f *link[T]
		c uint64

		// back is the link the owner fills and pops, fill the number of
		// its positions in use, limit its span as the owner set it, and
		// cap its number of slots.
		back  *link[T]
		fill  int
		limit int
		cap   int

		// spares is the number of empty links after back, kept for the
		// next pushes, and keep how many of them pops may leave there (at
		// least one; Reserve raises it).
		spares int
		keep   int

		// blockSize is the number of slots of every block the owner
		// allocates, or 0 for blocks sized to the queue (see
		// MinBlockSize).
		blockSize int
	}

	_ pad.Line
}

var (
	_ wsq.Queue[int]   = (*Queue[int])(nil)
	_ wsq.Handoff[int] = (*Queue[int])(nil)
)

// Option configures a Queue made by New.
type Option func(*options)

type options struct {
	blockSize int
}

// WithBlockSize gives every block the queue allocates n slots, instead of
// sizing blocks to the queue: larger blocks mean fewer allocations and
// fewer steps for a steal to skip, smaller ones less memory for a small
// queue. New panics unless 1 <= n <= 2^20.
func WithBlockSize(n int) Option {
	return func(o *options) {
		if n < 1 || n > maxFixedBlockSize {
			panic(fmt.Sprintf("blockq: block size %d is not between 1 and %d", n, maxFixedBlockSize))
		}
		o.blockSize = n
	}
}

// New returns an empty queue configured by opts. The zero Queue is the
// same as New() without options.
func New[T any](opts ...Option) *Queue[T] {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	q := new(Queue[T])
	q.own.blockSize = o.blockSize
	return q
}

// Contract reports what the queue promises where wsq.Queue lets queues
// differ: nothing is relaxed. Batches are pushed and stolen as one
// operation, a batch steal takes exactly wsq.StealCount of the length at
// the instant it takes effect, and no call waits for another (a TrySteal or
// TryStealBatch reports wsq.Contended only when it loses its
// compare-and-swap). Any goroutine may call it.
func (q *Queue[T]) Contract() wsq.Contract { return wsq.Contract{} }

// Len returns the number of items in the queue, not counting items a thief
// has reserved and is still copying out. Under concurrency it is a snapshot
// that may be stale as soon as it returns. Any goroutine may call it.
func (q *Queue[T]) Len() int {
	f := q.front.Load()
	if f == nil {
		return 0
	}
	return ctlSize(f.ctl.Load()) // a moved word keeps the size it had
}

// Push adds v as the newest item. It always reports true: the queue is
// unbounded. It panics if the queue would hold more than MaxLen items. It
// allocates one block when the last one is full. Only the owner may call
// it; it does not block.
func (q *Queue[T]) Push(v T) bool {
	o := &q.own
	if o.fill == o.limit || ctlSize(o.c) == MaxLen {
		q.checkRoom(1)
		if o.fill == o.limit { // the back link is full, or there is none yet
			q.advance(1)
		}
	}
	o.back.slots[o.fill] = v
	o.fill++
	// count(1), its first attempt written out: count does not fit the
	// compiler's inlining budget.
	if c := o.c; o.f.ctl.CompareAndSwap(c, c+1) {
		o.c = c + 1
		return true
	}
	q.count(1)
	return true
}

// PushBatch adds the items of vs, vs[len(vs)-1] being the newest, as one
// operation, and returns len(vs): it copies them into the back block and
// further blocks, then publishes them all with one compare-and-swap, so a
// thief sees none or all of them. It panics if the queue would hold more
// than MaxLen items. PushBatch does not retain vs. Only the owner may call
// it; it does not block.
func (q *Queue[T]) PushBatch(vs []T) int {
	m := len(vs)
	o := &q.own
	if m > o.limit-o.fill || ctlSize(o.c)+m > MaxLen {
		return q.pushSlow(vs)
	}
	if m == 0 {
		return 0
	}
	// The batch fits in the back link: one copy and the count, whose first
	// attempt is written out as in Push.
	copy(o.back.slots[o.fill:], vs)
	o.fill += m
	if c := o.c; o.f.ctl.CompareAndSwap(c, c+uint64(m)) {
		o.c = c + uint64(m)
		return m
	}
	q.count(m)
	return m
}

// pushSlow is PushBatch for a batch that needs more blocks, or that may
// exceed MaxLen.
func (q *Queue[T]) pushSlow(vs []T) int {
	m := len(vs)
	q.checkRoom(m)
	o := &q.own
	for rest := vs; len(rest) > 0; {
		if o.fill == o.limit {
			q.advance(len(rest))
		}
		n := copy(o.back.slots[o.fill:o.limit], rest)
		o.fill += n
		rest = rest[n:]
	}
	q.count(m)
	return m
}

// checkRoom panics, before the queue changes, if m more items would make
// it hold more than MaxLen.
func (q *Queue[T]) checkRoom(m int) {
	if ctlSize(q.own.c)+m <= MaxLen {
		return
	}
	if q.own.f != nil {
		q.reload() // thieves may have taken items since the owner looked
	}
	if ctlSize(q.own.c)+m > MaxLen {
		panic(fmt.Sprintf("blockq: pushing %d items would make the queue hold more than %d", m, MaxLen))
	}
}

// count adds m items, written beyond the counted ones, to the queue's size:
// the push takes effect at the compare-and-swap.
func (q *Queue[T]) count(m int) {
	o := &q.own
	for {
		c := o.c
		if o.f.ctl.CompareAndSwap(c, c+uint64(m)) {
			o.c = c + uint64(m)
			return
		}
		q.reload()
	}
}

// advance makes room in the back for at least one of want items: it moves
// the owner to the empty link it kept behind its back, or links a new
// block, or, on the queue's first push, makes the first block.
func (q *Queue[T]) advance(want int) {
	o := &q.own
	if o.back == nil {
		q.start()
		return
	}
	if nx := o.back.next.Plain(); nx != nil { // an empty link kept for pushes
		o.back, o.fill, o.limit, o.cap = nx, 0, spanOf(nx), len(nx.slots)
		o.spares--
	} else {
		l := newLink[T](q.blockFor(want))
		l.prev = o.back
		// The back link is full: its span is already its fill. Linking
		// a block beyond the counted items publishes nothing yet.
		o.back.next.Store(l)
		o.back, o.fill, o.limit, o.cap = l, 0, len(l.slots), len(l.slots)
	}
	if ctlIdx(o.c) >= spanOf(o.f) {
		// Thieves took every item of the front link, and perhaps the
		// queue was empty at a full back link, where reload could not
		// move the front: it can now (a check once per block, off the
		// hot path).
		q.reload()
	}
}

// blockFor returns the number of slots of a new block, when want more
// items are to be pushed.
func (q *Queue[T]) blockFor(want int) int {
	if n := q.own.blockSize; n > 0 {
		return n
	}
	n := (ctlSize(q.own.c) + want) / 4
	return min(max(MinBlockSize, 1<<bits.Len(uint(n-1))), MaxBlockSize)
}

// start makes the first link, live and empty, and publishes it as the
// front.
func (q *Queue[T]) start() {
	q.pointers = hasPointers(reflect.TypeFor[T]())
	l := newLink[T](q.blockFor(0))
	c := live(0, 0)
	l.ctl.Store(c)
	o := &q.own
	o.f, o.c = l, c
	o.back, o.fill, o.limit, o.cap = l, 0, len(l.slots), len(l.slots)
	q.front.Store(l)
}

// reload makes the owner's view of the front and its word current, moving
// the front first if a thief started to move it, or if thieves reserved
// every position of the front link and nobody moved it since (see
// ownerCanMove).
func (q *Queue[T]) reload() { q.refresh(true) }

// refresh is reload; without move it only finishes a move of the front
// that a thief started. before needs that: it walks the chain from the
// front to a link that may have no position in use, where a move by the
// owner could put the front.
func (q *Queue[T]) refresh(move bool) {
	o := &q.own
	for {
		f := q.front.Load()
		c := f.ctl.Load()
		if isMoved(c) {
			q.help(f, c)
			continue
		}
		if move && ctlIdx(c) >= spanOf(f) && q.ownerCanMove(f, c) {
			if m := c&^stateMask | stateMoved; f.ctl.CompareAndSwap(c, m) {
				q.help(f, m)
			}
			continue
		}
		o.f, o.c = f, c
		// The owner never steps back past the front, so the links
		// before it are unreachable once nothing points back to them.
		f.prev = nil
		return
	}
}

// ownerCanMove reports whether the owner may move the front from f, whose
// live word c puts the oldest unreserved position beyond f: whether that
// position lies in a link of the chain up to the owner's back link, where
// help will find it. Thieves move the front only when they reserve, that
// is while the queue holds items; after a steal that took every item, or
// when the thieves stop stealing, only the owner would move it, and
// without that the front link would keep every emptied link after it
// reachable, with their blocks, for as long as the queue lives. The
// position lies in the chain when the queue holds items, when the owner
// has written items it has not counted yet, or when the back link has
// room; it does not only when the queue is empty and the back link full,
// until the owner's next push moves on to another link (see advance). Only
// the owner changes the links beyond the counted positions, so the answer
// cannot change under it.
func (q *Queue[T]) ownerCanMove(f *link[T], c uint64) bool {
	back := q.own.back
	for l, v := f, ctlIdx(c); v >= spanOf(l); l = l.next.Load() {
		if l == back {
			// Not in an empty link behind the back either: the front
			// must never pass the owner's back link, whose successors
			// the owner replaces at will (PushList).
			return false
		}
		v -= spanOf(l)
	}
	return true
}

// Pop removes and returns the newest item (last in, first out). It reports
// false when the queue is empty. Only the owner may call it; it does not
// block.
//
// Pop claims the item by taking 1 from the size with a compare-and-swap,
// which is where it takes effect; when the owner last saw the size at zero
// it needs no atomic operation, since only the owner adds items.
func (q *Queue[T]) Pop() (T, bool) {
	o := &q.own
	for {
		c := o.c
		if ctlSize(c) == 0 {
			var zero T
			return zero, false
		}
		if o.f.ctl.CompareAndSwap(c, c-1) {
			o.c = c - 1
			break
		}
		q.reload()
	}
	// The claim leaves the owner the newest unreserved item, which is the
	// last position in use: in the back link, or, if that is empty, in
	// an earlier one.
	for o.fill == 0 {
		q.retreat()
	}
	o.fill--
	s := &o.back.slots[o.fill]
	v := *s
	var zero T
	*s = zero
	return v, true
}

// retreat moves the owner from its empty back link to the link before it.
// The empty link stays linked behind the new back, reopened to its whole
// window, for the next pushes; if that makes more empty links than the
// owner keeps, those after it are dropped. Nobody but the owner reads these
// links: none of their positions is counted.
func (q *Queue[T]) retreat() {
	o := &q.own
	n := o.back
	p := n.prev
	if p == nil {
		p = q.before(n)
	}
	n.seal(len(n.slots))
	if o.spares++; o.spares > max(1, o.keep) {
		n.next.Store(nil)
		o.spares = 1
	}
	o.back, o.fill, o.limit, o.cap = p, spanOf(p), spanOf(p), len(p.slots)
}

// before returns the link before n, a link after the front, when nothing
// recorded it: PushList does not touch the List's links, so that its cost
// does not depend on their number, and the first of them learns its
// predecessor here, by a walk from the front.
func (q *Queue[T]) before(n *link[T]) *link[T] {
	q.refresh(false)
	x := q.own.f
	for x != nil {
		nx := x.next.Load()
		if nx == n {
			n.prev = x
			return x
		}
		x = nx
	}
	panic("blockq: internal error: a link after the front is not in the chain")
}

// Reserve makes room for n more items than the queue holds, in empty
// blocks linked behind its back, so that pushing them allocates nothing,
// and from then on lets pops that empty blocks keep as many behind the back
// (normally they keep one). Reserve is for an owner that knows how much
// its queue will hold, as a ring's capacity would be chosen; it never
// frees anything. Only the owner may call it; it does not block.
func (q *Queue[T]) Reserve(n int) {
	o := &q.own
	if o.back == nil {
		q.start()
	}
	room, last := o.limit-o.fill, o.back
	for nx := last.next.Plain(); nx != nil; nx = last.next.Plain() {
		room += spanOf(nx)
		last = nx
	}
	for room < n {
		l := newLink[T](q.blockFor(n - room))
		l.prev = last
		last.next.Store(l) // beyond the counted positions: the owner's alone
		last = l
		room += len(l.slots)
		o.spares++
	}
	o.keep = max(o.keep, o.spares)
}

// hasPointers reports whether values of type t hold pointers.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

// Steal removes and returns the oldest item (first in, first out). It
// reports false only when the queue is empty: a steal that meets another
// goroutine's change tries again. Any goroutine may call it; it does not
// block.
func (q *Queue[T]) Steal() (T, bool) {
	f, idx, k, _ := q.reserve(0, false)
	return q.takeOne(f, idx, k)
}

// TrySteal makes one attempt at Steal: it reports wsq.Contended, taking
// nothing, when its reserving compare-and-swap (or the one that moves the
// front for it) fails because another goroutine changed the control word
// first. It finishes a move of the front that it finds in progress, which is
// not a race lost, rather than give up. Any goroutine may call it; it does
// not block.
func (q *Queue[T]) TrySteal() (T, wsq.StealResult) {
	f, idx, k, r := q.reserve(0, true)
	v, _ := q.takeOne(f, idx, k)
	return v, r
}

// takeOne copies out and clears the item reserve reserved, if any.
func (q *Queue[T]) takeOne(f *link[T], idx, k int) (T, bool) {
	var zero T
	if k == 0 {
		return zero, false
	}
	// idx lies in f (reserve makes sure of it).
	s := &f.slots[idx]
	v := *s
	*s = zero
	return v, true
}

// StealBatch removes wsq.StealCount(n, p) of the n items in the queue, the
// oldest ones, in one operation, and appends them to dst, oldest first. It
// takes nothing and returns dst unchanged only when the queue is empty. It
// panics, before it touches the queue, unless 0 < p <= 1. Any goroutine may
// call it; it does not block.
//
// The steal reserves its items with one compare-and-swap, where it takes
// effect, then walks to them, skipping whole blocks, and copies them out.
func (q *Queue[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	f, idx, k, _ := q.reserve(p, false)
	if k == 0 {
		return dst
	}
	return appendRange(dst, f, idx, k, q.pointers)
}

// TryStealBatch makes one attempt at StealBatch, as TrySteal makes one at
// Steal: it returns dst unchanged and wsq.Contended when a compare-and-swap
// fails. It panics, before it touches the queue, unless 0 < p <= 1. Any
// goroutine may call it; it does not block.
func (q *Queue[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	f, idx, k, r := q.reserve(p, true)
	if k == 0 {
		return dst, r
	}
	return appendRange(dst, f, idx, k, q.pointers), r
}

// reserve reserves the oldest items: one when p is 0, otherwise
// wsq.StealCount of the size. It returns the front link it reserved from,
// the position of the first reserved item, which lies in that link, the
// number of items reserved, and the result: wsq.Taken with k > 0, or
// wsq.Empty with k == 0 when the queue is empty (the steal takes effect at
// the load of the front or of its word that shows it). It retries a
// compare-and-swap that another goroutine's change made fail, unless once
// is set: then it returns k == 0 and wsq.Contended, having changed nothing.
// Either way it helps a move of the front it meets, which finishes another
// goroutine's work rather than race with it.
func (q *Queue[T]) reserve(p float64, once bool) (f *link[T], idx, k int, r wsq.StealResult) {
	for {
		f = q.front.Load()
		if f == nil {
			return nil, 0, 0, wsq.Empty // takes effect at this load
		}
		c := f.ctl.Load()
		if isMoved(c) {
			q.help(f, c)
			continue
		}
		n := ctlSize(c)
		if n == 0 {
			return nil, 0, 0, wsq.Empty // takes effect at the load of c
		}
		idx = ctlIdx(c)
		if idx >= spanOf(f) {
			// The oldest item lies beyond the front link: move the
			// front before reserving, so that idx stays small (it has
			// 32 bits) and the blocks before the oldest item can be
			// collected. Correctness does not depend on it: a thief
			// locates its items after its reservation (see below).
			if f.ctl.CompareAndSwap(c, c&^stateMask|stateMoved) {
				q.help(f, c&^stateMask|stateMoved)
			} else if once {
				return nil, 0, 0, wsq.Contended
			}
			continue
		}
		k = 1
		if p != 0 {
			k = wsq.StealCount(n, p)
		}
		// A successful reservation is where the steal takes effect
		// (Taken); a failed one changed nothing (Contended, when once).
		if f.ctl.CompareAndSwap(c, take(c, k)) {
			// The word says which positions are counted, not which link
			// holds them: the span of f read above may be stale. The
			// owner may have sealed f, empty, at a smaller span to link
			// a List after it, in a run of pops and pushes that brought
			// the word back to c; position idx then lies in a later
			// link. So the reserved position is located now, with the
			// spans as they are since the reservation: the links up to
			// a counted position no longer change.
			for span := spanOf(f); idx >= span; span = spanOf(f) {
				idx -= span
				f = f.next.Load()
			}
			return f, idx, k, wsq.Taken
		}
		if once {
			return nil, 0, 0, wsq.Contended
		}
	}
}

// help finishes moving the front from f, whose word m is moved: it finds
// the link that holds the oldest item, makes its word live with m's size
// and the item's position in it, and makes it the front. Any goroutine
// that meets a moved word calls it; all compute the same link, because
// until that link's word is live nobody can pop or reserve, so the chain up
// to the oldest item cannot change, and the first to finish the walk
// records the link in f.fwd for those who walk later.
func (q *Queue[T]) help(f *link[T], m uint64) {
	l := f.fwd.Load()
	if l == nil {
		l = f
		for v := ctlIdx(m); l != nil && v >= spanOf(l); {
			v -= spanOf(l)
			l = l.next.Load() // nil only for a late walker, who finds fwd set
		}
		if l != nil {
			f.fwd.CompareAndSwap(nil, l)
		}
		l = f.fwd.Load()
	}
	// The position of the oldest item in l. The links from f to l are
	// sealed and hold no counted position: they no longer change.
	v := ctlIdx(m)
	for x := f; x != l; x = x.next.Load() {
		v -= spanOf(x)
	}
	l.ctl.CompareAndSwap(0, live(v, ctlSize(m))) // unborn to live, once
	q.front.CompareAndSwap(f, l)
}

// appendRange appends the k items from position idx of f on to dst,
// oldest first, and clears their slots if T holds pointers (wipe), so that
// no removed item stays reachable. The caller owns those positions.
func appendRange[T any](dst []T, f *link[T], idx, k int, wipe bool) []T {
	l, off := f, idx
	for {
		n := min(k, spanOf(l)-off)
		w := l.slots[off : off+n]
		dst = append(dst, w...)
		if wipe {
			clear(w)
		}
		if k -= n; k == 0 {
			return dst
		}
		l, off = l.next.Load(), 0
	}
}
