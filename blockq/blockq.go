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
	// when New is not given WithBlockSize. Each new block has about a
	// quarter as many slots as the queue holds items. That number is
	// rounded up to a power of two and kept within these bounds. So a
	// small queue stays small, and a large one has few blocks for a steal
	// to skip.
	MinBlockSize = 32
	MaxBlockSize = 4096

	// maxFixedBlockSize is the largest block size WithBlockSize accepts.
	maxFixedBlockSize = 1 << 20

	// MaxLen is the largest number of items a queue can hold. Two limits
	// set it. The owner pops at most that many items between two
	// publications of its tail, and the 30 bits of the pop count must tell
	// them apart (see length). And a thief's position in the front link,
	// below a block plus MaxLen, must fit in 32 bits.
	MaxLen = genMask
)

// The control word of a tenure (see tenure):
//
//	bits 62-63  state: 1 live, 2 moved
//	bits 30-61  idx: the position of the oldest item not reserved by a
//	            thief, counted from the first slot of the tenure's link
//	            along the chain
//	bits  0-29  gen: the number of pops the owner has made, modulo 2^30
//
// A live word changes only by compare-and-swap:
//
//	a thief's reservation of k items   adds k to idx
//	a pop                              adds 1 to gen
//	a move                             makes it moved; it never changes again
//
// A pop that would take gen past 2^30-1 moves the front instead, to a new
// tenure, possibly of the same link. So within a tenure gen never wraps.
// Every change makes a live word larger, and a live word never takes the
// same value twice. So a compare-and-swap that succeeds proves that the
// word did not change since the value it expected was loaded.
//
// idx stays below 2^32. A thief reserves only while idx is inside the
// tenure's link, so idx never exceeds a block plus MaxLen.
const (
	genBits    = 30
	genMask    = 1<<genBits - 1
	idxShift   = genBits
	idxMask    = 1<<32 - 1
	stateMask  = 3 << 62
	stateLive  = 1 << 62
	stateMoved = 2 << 62
)

// The tail word, which the owner publishes after every push:
//
//	bits 30-63  t: the position after the newest item, modulo 2^34
//	bits  0-29  gen: the pop count (as in the control word) when it was
//	            published
//
// Positions are absolute here: counted from the first slot the queue ever
// used, modulo 2^34. Pops do not publish the tail. A thief loads the
// control word and then the tail. It subtracts from t the pops made since
// the tail was published: the difference of the two pop counts (see
// length).
const (
	posShift = genBits
	posMask  = 1<<(64-posShift) - 1
)

func live(idx int, gen uint64) uint64 { return stateLive | uint64(idx)<<idxShift | gen&genMask }
func ctlIdx(c uint64) int             { return int(c >> idxShift & idxMask) }
func ctlGen(c uint64) uint64          { return c & genMask }
func isLive(c uint64) bool            { return c&stateMask == stateLive }

// take returns live word c after a reservation of the k oldest items.
func take(c uint64, k int) uint64 { return c + uint64(k)<<idxShift }

// moved returns live word c frozen by a move of the front.
func moved(c uint64) uint64 { return c&^stateMask | stateMoved }

// tenure is one spell of a link as the queue's front. It holds the link,
// the absolute position of its first slot, and the control word of the
// spell. A move of the front makes a new tenure, for the link that holds
// the oldest item. A tenure is the front only once. So a stale
// compare-and-swap, however long its goroutine stalled, meets one of two
// words. It meets the live word of the same tenure, which never returns
// to a value it had. Or it meets a moved word, which never matches a live
// one.
//
// A link's first spell is the tenure embedded in it (link.first). So a
// move allocates nothing, and a thief finds the word beside the link's
// fields. A second spell of the same link is a tenure of its own. Only
// the pop that wraps gen makes one.
type tenure[T any] struct {
	// ctl is the control word (see above). Its states:
	//
	//	unborn (zero)   until the tenure becomes the front
	//	live            while it is the front
	//	moved           after; it never changes again
	//
	// It becomes live once. Whoever finishes the move that makes it the
	// front does that, by a compare-and-swap from zero. (The first front,
	// and a tenure of its own, become live by a store instead, before they
	// are published.)
	// Every later change is a compare-and-swap: by thieves (reservations,
	// the move) and by the owner (pops, and the move of a pop that wraps
	// gen).
	ctl atomicx.Uint64

	// base is the absolute position of the first slot of l, modulo 2^34.
	// Every goroutine that finishes the move to this tenure stores it, all
	// the same value, before the word becomes live. It never changes
	// after. l is the link, set when the link or the tenure is made.
	base atomicx.Uint64
	l    *link[T]

	// fwd is the tenure that became the front after this one, set once by
	// the first goroutine that finds it (see help).
	fwd atomicx.Pointer[tenure[T]]
}

// length returns the number of items in the queue in the state that
// control word c of f and tail word tw describe together:
//
//	the tail's position
//	- the pops made since it was published (the difference of the pop
//	  counts, below 2^30 since a queue holds at most MaxLen items)
//	- the oldest unreserved position
//
// It is exact, at most MaxLen, when c was f's word at the instant tw was
// loaded. Otherwise it may be any value.
func (f *tenure[T]) length(c, tw uint64) uint64 {
	pops := (c - tw) & genMask
	// base was stored before c became live, and never changes after.
	return (tw>>posShift - pops - f.base.Load() - uint64(ctlIdx(c))) & posMask
}

// link is one queue's view of a block: a window of its slots, chained from
// the front to the back. Invariants, for a link L of a queue:
//   - The positions of L are L's first span slots.
//   - A position is counted when it holds an item the owner has published
//     in the tail word and not popped since.
//   - A counted position's slot, the spans of the links before it and
//     their next pointers never change. That holds until a thief has
//     reserved and taken the position, or the owner has popped it.
//   - Beyond the counted positions only the owner reads or writes. It fills
//     slots before publishing them. It may change the span and next of its
//     back link and of the links after it.
type link[T any] struct {
	// slots is the window. The owner writes a slot before it publishes
	// the item in it, and clears it when it pops it. The thief that
	// reserved a position reads its slot and clears it (or hands it over
	// in a parcel). No slot is ever written by two goroutines without
	// that order between them.
	slots []T

	// cut is the number of slots at the end of the window that are not
	// positions of the link. So its span, its number of positions, is
	// len(slots)-cut. cut is 0 while the owner may still fill the link.
	// Once the owner sealed the link early, to append a pre-built List,
	// cut is what it left unfilled. The owner writes it with release
	// stores. Thieves read them after the tail that publishes what
	// follows, as they walk the chain. A new link needs no store.
	cut atomicx.Uint32

	// emptied is set once, by a thief that has copied out every position
	// of the link (StealBatch): its reservation covered them all. It sets
	// it with a release store after its last read of the slots. Then
	// nobody reads or writes the slots for this queue any more. So the
	// owner may reuse them for a new link once the front has moved past
	// this one (see harvest). A link whose positions a parcel took, or
	// several thieves, is never marked.
	emptied atomicx.Uint32

	// next is the following link, nil at the back. The owner writes it
	// when it links a block or a List after its back link. It also writes
	// it when it drops the empty link it keeps behind its back. Thieves
	// load it.
	next atomicx.Pointer[link[T]]

	// first is the link's first spell as the front, unborn until then. A
	// link becomes the front for the first time only from an earlier link,
	// since the front moves forward only, so first is used once.
	first tenure[T]

	// prev is the link before this one, or nil where nobody recorded it
	// (the first link of a pushed List, the front link). Only the owner
	// reads or writes it, to step back when a pop empties its back link.
	// It is cleared on the front link, so that the chain the thieves have
	// consumed is not kept reachable.
	prev *link[T]

	// The rest of two cache lines on 64-bit platforms. Every thief that
	// walks a link reads it: slots, cut, next and the first tenure, which
	// lie in its first line. An allocation of 128 bytes starts on a line,
	// where one of 88 bytes would straddle two.
	_ [6 * bits.UintSize / 8]byte
}

// newLink returns a link over slots, its first tenure pointing back to it.
func newLink[T any](slots []T) *link[T] {
	l := &link[T]{slots: slots}
	l.first.l = l
	return l
}

// spanOf returns l's number of positions. Its load of cut is atomic: the
// owner may seal l while a thief walks it.
func spanOf[T any](l *link[T]) int { return len(l.slots) - int(l.cut.Load()) }

// seal makes l's span n, as its owner.
func (l *link[T]) seal(n int) {
	// The owner is cut's only writer. It skips a store that would change
	// nothing, so as not to write the line every walking thief reads.
	if c := uint32(len(l.slots) - n); l.cut.Load() != c {
		l.cut.StoreRelease(c) // the tail's release store publishes it with what follows
	}
}

// Queue is an unbounded lock-free work-stealing queue of items of type T,
// stored in linked blocks.
//
// A Queue has one owner and any number of thieves:
//
//	methods                          callers
//	Push, PushBatch, PushList,       the owner, never two goroutines at
//	PushParcel, Pop, Publish,        once
//	Reserve
//	Steal, StealBatch, StealParcel,  any number of goroutines, concurrently
//	TrySteal, TryStealBatch          with the owner and with each other
//	Len, Contract                    any goroutine
//
// No method blocks or waits for another goroutine. A thief that meets
// another thief's change retries or finishes the other's work. It always
// makes progress when the queue holds items.
//
// Items are stored by value and never torn. In the terms of the Go memory
// model, the push that adds an item x synchronizes before the Pop or steal
// that returns x. No item is returned twice.
//
// The zero value is an empty queue with the default block size, ready to
// use. A Queue must not be copied after first use.
type Queue[T any] struct {
	_ pad.Line

	// front is the tenure that holds the control word. It moves forward
	// only, by a compare-and-swap, to a tenure whose word is live. Thieves
	// load it before anything else.
	front atomicx.Pointer[tenure[T]]

	// pointers says whether T holds pointers, so that removed items'
	// slots must be cleared for the garbage collector. Written once,
	// before the first front is published.
	pointers bool

	_ pad.Line

	// tail is the tail word (see above). Only the owner writes it. It
	// writes it with a release store, after it has written the slots,
	// spans and links of what it publishes. That store is where a push
	// takes effect. Thieves load it after the control word. It has a cache
	// line of its own. So thieves' loads of it do not take away the line of
	// the owner's state, which a pop writes and a push writes too.
	tail atomicx.Uint64

	_ pad.Line

	// want is a thief's request that the owner publish the items it
	// holds (see Holding items):
	//
	//	0   no request, or the owner answered it (the owner stores 0)
	//	1   a thief found no published item (the thief stores 1)
	//
	// Thieves load it before they store. So a request already made costs
	// them a load, and the line stays in the owner's cache until a new
	// request. The owner loads it only while it holds items.
	want atomicx.Uint32

	_ pad.Line

	own owner[T]

	_ pad.Line
}

// owner is the owner's private state. The fields Push and Pop use come
// first, in one cache line.
type owner[T any] struct {
	// back is the link the owner fills and pops. base is the absolute
	// position of its first slot (modulo 2^34). fill is the number of its
	// positions in use. Of those, the first pfill are published: the
	// owner's published tail word (see published) is base+pfill and the
	// pop count of c. The positions from pfill to fill hold the items the
	// owner holds (see Holding items).
	//
	// Invariant: 0 <= pfill <= fill, and pfill < fill only after a
	// takeover. So held items lie in the back link only.
	back  *link[T]
	base  uint64
	fill  int
	pfill int

	// stop and floor bound the fast paths (see bounds):
	//
	//	Push writes in place                  while fill < stop
	//	Pop claims with one compare-and-swap  while pfill > floor
	stop  int
	floor int

	// f and c are the front tenure and its control word as the owner
	// last saw them. The pop count of c is exact, since only the owner
	// pops and a move keeps the count. idx may be stale, as thieves only
	// add to it. So the length the owner computes from c is at most the
	// true length, and a zero length means empty.
	f *tenure[T]
	c uint64

	// limit is the back link's span as the owner set it, and cap its
	// number of slots.
	limit int
	cap   int

	// spares is the number of empty links after back, kept for the next
	// pushes. keep is how many of them pops may leave there: at least
	// one, and Reserve raises it.
	spares int
	keep   int

	// blockSize is the number of slots of every block the owner
	// allocates, or 0 for blocks sized to the queue (see MinBlockSize).
	blockSize int

	// recycled holds the slots of links that thieves emptied (see
	// link.emptied), kept for the owner's next blocks.
	recycled [][]T
}

// tail returns the owner's tail word: the position after its newest item
// and its pop count.
func (o *owner[T]) tail() uint64 { return (o.base+uint64(o.fill))<<posShift | o.c&genMask }

// published returns the tail word the owner publishes: the position after
// its newest published item and its pop count.
func (o *owner[T]) published() uint64 { return (o.base+uint64(o.pfill))<<posShift | o.c&genMask }

// held reports how many items the owner holds.
func (o *owner[T]) held() int { return o.fill - o.pfill }

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
// sizing blocks to the queue. Larger blocks mean fewer allocations and
// fewer steps for a steal to skip. Smaller ones mean less memory for a
// small queue. New panics unless 1 <= n <= 2^20.
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
// differ. Nothing is relaxed but OwnerHolds: the owner may hold items
// (see Holding items).
//   - Batches are pushed and stolen as one operation.
//   - A batch steal takes exactly wsq.StealCount of the length at the
//     instant it takes effect.
//   - No call waits for another. A TrySteal or TryStealBatch reports
//     wsq.Contended only when another goroutine changed the control word
//     under it.
//
// Any goroutine may call it.
func (q *Queue[T]) Contract() wsq.Contract { return wsq.Contract{OwnerHolds: true} }

// Len returns the number of published items in the queue. It does not
// count items a thief has reserved and is still copying out. Nor does it
// count the items the owner holds (see Holding items). Under concurrency
// it is a snapshot that may be stale as soon as it returns. Any goroutine
// may call it.
//
// The count is exact at the instant Len loads the tail word. Len loads
// the front and its word before it. It loads both again after, until
// they have not changed.
func (q *Queue[T]) Len() int {
	for {
		f := q.front.Load() // thieves may move it: loaded again below
		if f == nil {
			return 0
		}
		c := f.ctl.Load()   // the word before the tail, as length needs
		tw := q.tail.Load() // acquire: the owner's pushes up to this instant
		// A live word that has not changed did not change in between: it
		// never returns to a value. A moved word is final. The state it
		// froze holds until a new tenure becomes the front.
		if q.front.Load() == f && f.ctl.Load() == c {
			return int(f.length(c, tw))
		}
	}
}

// length returns the queue's length as the owner last saw it: at least the
// true length.
func (o *owner[T]) length() int {
	if o.f == nil {
		return 0
	}
	return int(o.f.length(o.c, o.tail()))
}

// bounds sets stop and floor from the owner's view:
//
//	while          the fast path                    because
//	fill < stop    Push writes in place             the back link has room,
//	                                                and the queue is below
//	                                                MaxLen
//	pfill > floor  Pop claims one published item    the back link holds a
//	               with one compare-and-swap        published item, and a
//	                                                takeover does not apply
//	                                                (see takeover)
//
// Every push and pop changes fill and the length alike. It changes pfill
// and the published length alike. So both bounds hold until the owner
// changes its back link or reloads the word.
func (o *owner[T]) bounds() {
	n := o.length()
	o.stop = min(o.limit, o.fill+MaxLen-n)
	if pub := n - o.held(); pub > o.pfill {
		o.floor = o.cap // a takeover may apply: Pop's slow path decides
	} else {
		o.floor = o.pfill - pub
	}
}

// Push adds v as the newest item. It always reports true: the queue is
// unbounded. It panics if the queue would hold more than MaxLen items. It
// allocates one block when the last one is full. Only the owner may call
// it; it does not block.
//
// Push writes the slot and publishes it with a release store of the tail.
// That store is where it takes effect. It uses no atomic read-modify-write
// operation. While the owner holds items, Push holds v too. It then stores
// nothing that thieves read (see Holding items).
func (q *Queue[T]) Push(v T) bool {
	o := &q.own
	if o.fill >= o.stop {
		q.makeRoom(1)
	}
	o.back.slots[o.fill] = v
	if o.fill == o.pfill {
		o.fill++
		o.pfill = o.fill
		q.tail.StoreRelease(o.published()) // release, after the slot: where the push takes effect
		return true
	}
	o.fill++
	if q.want.Load() != 0 { // a thief found nothing published
		q.publish()
	}
	return true
}

// PushBatch adds the items of vs as one operation, vs[len(vs)-1] being the
// newest, and returns len(vs). It copies them into the back block and
// further blocks. Then it publishes them all with one release store of the
// tail, so a thief sees none or all of them. A batch that fits the back
// block while the owner holds items is held with them (see Holding items).
// It panics if the queue would hold more than MaxLen items. PushBatch does
// not retain vs. Only the owner may call it; it does not block.
func (q *Queue[T]) PushBatch(vs []T) int {
	m := len(vs)
	o := &q.own
	if m > o.stop-o.fill {
		return q.pushSlow(vs)
	}
	switch m {
	case 0:
		return 0
	case 1: // as Push: a copy would call memmove
		o.back.slots[o.fill] = vs[0]
	default:
		copy(o.back.slots[o.fill:], vs)
	}
	if o.fill == o.pfill {
		o.fill += m
		o.pfill = o.fill
		q.tail.StoreRelease(o.published()) // as in Push: one store for the whole batch
		return m
	}
	o.fill += m
	if q.want.Load() != 0 { // a thief found nothing published
		q.publish()
	}
	return m
}

// pushSlow is PushBatch for a batch that needs more blocks, or that may
// exceed MaxLen. It publishes the whole batch, and the items the owner
// held, with one store.
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
	q.publish()
	o.bounds()
	return m
}

// makeRoom makes room in the back link for the first of m items. It
// panics if the queue would hold more than MaxLen. It moves on to a new
// back link if the back link is full. The push that follows publishes what
// the owner held in the full link: the new link has nothing held.
func (q *Queue[T]) makeRoom(m int) {
	q.checkRoom(m)
	if q.own.fill == q.own.limit { // the back link is full, or there is none yet
		q.advance(m)
	}
}

// Publish makes every item the owner holds stealable. An owner that holds
// items and will not call Push or Pop for a while calls it. Thieves can
// then take them meanwhile (see Holding items). It costs one release store
// when the owner holds items, and a load otherwise. Only the owner may
// call it; it does not block.
func (q *Queue[T]) Publish() {
	if q.own.held() > 0 {
		q.publish()
	}
}

// publish publishes every item the owner holds, with one release store of
// the tail. It also clears a thief's request. The request is cleared
// first. So a thief that asks again after the clear is answered at the
// next push or pop.
func (q *Queue[T]) publish() {
	if q.want.Load() != 0 { // no request, no store: the line stays clean in thieves' caches
		q.want.StoreRelease(0) // before the tail: a request after it gets the next answer
	}
	o := &q.own
	o.pfill = o.fill
	q.tail.StoreRelease(o.published()) // release: thieves that load it see the held slots
}

// checkRoom panics, before the queue changes, if m more items would make
// it hold more than MaxLen.
func (q *Queue[T]) checkRoom(m int) {
	o := &q.own
	if m <= MaxLen-o.length() {
		return
	}
	if o.f != nil {
		q.reload() // thieves may have taken items since the owner looked
	}
	if m > MaxLen-o.length() {
		panic(fmt.Sprintf("blockq: pushing %d items would make the queue hold more than %d", m, MaxLen))
	}
}

// advance makes room in the back for at least one of want items. It does
// one of these:
//   - it moves the owner to the empty link it kept behind its back;
//   - it links a new block;
//   - on the queue's first push, it makes the first block.
//
// It then reloads the owner's view of the front. So a stale tenure does
// not keep the blocks thieves have emptied reachable for long.
func (q *Queue[T]) advance(want int) {
	o := &q.own
	if o.back == nil {
		q.start()
		return
	}
	// Look at the front first: the blocks thieves emptied since the owner
	// last looked may serve as the next ones (see harvest).
	q.refresh(true, want)
	o.base = (o.base + uint64(o.fill)) & posMask // the back link is full
	o.pfill = 0                                  // the caller's store publishes the full link
	// An empty link kept for pushes? A plain load: only the owner writes next.
	if nx := o.back.next.Plain(); nx != nil {
		o.back, o.fill, o.limit, o.cap = nx, 0, spanOf(nx), len(nx.slots)
		o.spares--
	} else {
		l := newLink(q.block(want))
		l.prev = o.back
		// The back link is full: its span is already its fill. Linking a
		// block beyond the published items publishes nothing yet; the
		// tail's release store publishes it with the items.
		o.back.next.StoreRelease(l)
		o.back, o.fill, o.limit, o.cap = l, 0, len(l.slots), len(l.slots)
	}
	// If the queue was empty at a full back link, the front could not
	// move onto the oldest position; it can now, in the new back link.
	if ctlIdx(o.c) >= spanOf(o.f.l) {
		q.reload()
	} else {
		o.bounds()
	}
}

// block returns the slots of a new back link for want more items: the last
// block the owner kept from those thieves emptied, or a new one.
func (q *Queue[T]) block(want int) []T {
	o := &q.own
	if k := len(o.recycled); k > 0 {
		b := o.recycled[k-1]
		o.recycled[k-1] = nil
		o.recycled = o.recycled[:k-1]
		return b
	}
	return make([]T, q.blockFor(want))
}

// harvest keeps slots for the owner's next blocks. It takes those of the
// links from x up to the front link end (which the front has moved past)
// that a thief emptied. All the slots kept number at most room: the
// owner's queue length plus the items it is pushing. So the kept blocks
// serve pushes under way, and the queue's memory stays within twice what
// it holds. It takes blocks of at least the size the owner allocates at
// the least.
func (o *owner[T]) harvest(x, end *link[T], room int) {
	kept := 0
	for _, b := range o.recycled {
		kept += len(b)
	}
	least := MinBlockSize
	if o.blockSize > 0 {
		least = o.blockSize
	}
	// The front has moved past these links, so their next pointers no
	// longer change. The load of emptied pairs with the thief's release
	// store: that thief has read the slots for the last time.
	for ; x != end && x != nil; x = x.next.Load() {
		if n := len(x.slots); n >= least && kept+n <= room && x.emptied.Load() != 0 {
			o.recycled = append(o.recycled, x.slots)
			kept += n
		}
	}
}

// blockFor returns the number of slots of a new block, when want more
// items are to be pushed.
func (q *Queue[T]) blockFor(want int) int {
	if n := q.own.blockSize; n > 0 {
		return n
	}
	n := (q.own.length() + want) / 4
	return min(max(MinBlockSize, 1<<bits.Len(uint(n-1))), MaxBlockSize)
}

// start makes the first link and its tenure, and publishes it as the
// front. The tenure is live and empty, at the owner's position and pop
// count (zero, except in tests).
func (q *Queue[T]) start() {
	q.pointers = hasPointers(reflect.TypeFor[T]())
	o := &q.own
	l := newLink(make([]T, q.blockFor(0)))
	f := &l.first
	f.base.StoreRelease(o.base) // before publication
	c := live(0, ctlGen(o.c))
	f.ctl.StoreRelease(c) // not a compare-and-swap: f is not published yet
	o.f, o.c = f, c
	o.back, o.fill, o.limit, o.cap = l, 0, len(l.slots), len(l.slots)
	q.front.StoreRelease(f) // thieves load the front before anything else
	o.bounds()
}

// reload makes the owner's view of the front and its word current. It
// moves the front first if a move is under way. It also moves it if
// thieves reserved every position of the front link and nobody moved it
// since (see ownerCanMove).
func (q *Queue[T]) reload() { q.refresh(true, 0) }

// refresh is reload. Without move, it only finishes a move of the front
// that another goroutine started. before needs that: it walks the chain
// from the front to a link that may have no position in use, where a move
// by the owner could put the front. When the front has moved since the
// owner last looked, refresh harvests the links it passed, for a push of
// want more items.
func (q *Queue[T]) refresh(move bool, want int) {
	o := &q.own
	for {
		f := q.front.Load() // thieves may have moved it since the owner looked
		c := f.ctl.Load()   // and reserved: idx grows under the owner
		if !isLive(c) {
			q.help(f, c)
			continue
		}
		if move && ctlIdx(c) >= spanOf(f.l) && q.ownerCanMove(f, c) {
			if m := moved(c); f.ctl.CompareAndSwap(c, m) { // fails if a thief changed it since
				q.help(f, m)
			}
			continue
		}
		if old := o.f; old.l != f.l {
			o.f, o.c = f, c
			o.harvest(old.l, f.l, o.length()+want)
		}
		o.f, o.c = f, c
		// The owner never steps back past the front link, so the links
		// before it are unreachable once nothing points back to them.
		f.l.prev = nil
		o.bounds()
		return
	}
}

// ownerCanMove reports whether the owner may move the front from f. f's
// live word c puts the oldest unreserved position beyond f's link. The
// owner may move the front if that position lies in a link of the chain
// up to the owner's back link, where help will find it.
//
// Thieves move the front only when they reserve, that is while the queue
// holds items. After a steal that took every item, or when the thieves
// stop stealing, only the owner would move it. Without that, the front
// link would keep every emptied link after it reachable, with their
// blocks, for as long as the queue lives.
//
// The position lies in the chain when the queue holds items, or when the
// back link has room. It does not only when the queue is empty and the
// back link full, until the owner's next push moves on to another link
// (see advance). Only the owner changes the links beyond the published
// positions. Until the move is finished, nobody can pop or reserve. So the
// answer cannot change under it, and every helper finds the link it found.
func (q *Queue[T]) ownerCanMove(f *tenure[T], c uint64) bool {
	back := q.own.back
	// Only the owner changes these links' next pointers, so this walk
	// sees what every helper's walk will see.
	for l, v := f.l, ctlIdx(c); v >= spanOf(l); l = l.next.Load() {
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
// Pop takes an item the owner holds with no atomic operation: nobody else
// reads its slot. It claims a published item with a compare-and-swap that
// adds to the pop count of the control word. That is where it takes
// effect. A thief that loads the word after it also sees the pop in the
// count. A thief that loaded the word before it fails its own
// compare-and-swap. The claim is a takeover (see Holding items) when the
// back link holds published items and earlier links hold more. When the
// owner last saw the queue empty, Pop needs no atomic operation, since
// only the owner adds items.
func (q *Queue[T]) Pop() (T, bool) {
	o := &q.own
	var zero T
	if o.fill > o.pfill { // an item the owner holds
		o.fill--
		s := &o.back.slots[o.fill]
		v := *s
		*s = zero
		if q.want.Load() != 0 { // a thief found nothing published
			q.publish()
		}
		return v, true
	}
	// The claim, from the owner's last view of the word: it fails if a
	// thief reserved since, or moved the front.
	if c := o.c; o.pfill > o.floor && ctlGen(c) != genMask && o.f.ctl.CompareAndSwap(c, c+1) {
		o.c = c + 1
		o.fill--
		o.pfill--
		s := &o.back.slots[o.fill]
		v := *s
		*s = zero
		return v, true
	}
	return q.popSlow()
}

// popSlow is Pop when the owner holds no item and the fast path does not
// apply. That is when:
//   - the owner saw the queue empty, or its back link empty;
//   - its view of the word is stale;
//   - the pop count is about to wrap;
//   - a takeover may apply.
func (q *Queue[T]) popSlow() (T, bool) {
	o := &q.own
	var zero T
	m := 0
	for {
		pub := o.length() // the owner holds nothing: all is published
		if pub == 0 {
			return zero, false
		}
		c := o.c
		m = q.takeover(pub, ctlGen(c))
		next := c + uint64(m)
		if ctlGen(c) == genMask {
			// The count would wrap within the tenure. A stalled
			// thief's compare-and-swap could then match a word it
			// loaded 2^30 pops ago. So move the front to a new tenure
			// instead, with the count wrapped to 0. The move claims the
			// item as the increment would.
			next = moved(c) &^ genMask
		}
		// The claim. If it succeeds, c was the word, and the length
		// computed from it was exact and at least m. So the m newest
		// positions are not reserved, and no thief can reserve them any
		// more.
		if o.f.ctl.CompareAndSwap(c, next) {
			if isLive(next) {
				o.c = next
			} else {
				q.help(o.f, next)
				q.reload()
			}
			break
		}
		q.reload()
	}
	if m > 1 && q.want.Load() != 0 {
		// A request made before the takeover is answered: published
		// items remain for the thief to find.
		q.want.StoreRelease(0)
	}
	// The claim leaves the owner the m newest published items, which are
	// the last positions in use: the owner holds them now. The newest lies
	// in the back link or, if that is empty, in the link before. The owner
	// steps back when it empties its back link while it holds items
	// before it. So it holds items only in its back link.
	o.pfill -= m
	for o.fill == 0 {
		q.retreat()
	}
	o.fill--
	s := &o.back.slots[o.fill]
	v := *s
	*s = zero
	for o.fill == 0 && o.pfill < 0 {
		q.retreat()
	}
	o.bounds()
	return v, true
}

// takeover returns how many of the pub published items a pop claims when
// the pop count is gen. A takeover claims what the back link holds. If the
// back link holds less than two, it also claims all of the link before.
// It applies only as long as earlier links hold more. The owner then holds
// the items it claimed, and pops them with no atomic operation. Otherwise
// the pop claims one item. It never takes the last published item, nor
// lets the count wrap within the tenure.
func (q *Queue[T]) takeover(pub int, gen uint64) int {
	o := &q.own
	m := o.pfill
	if p := o.back.prev; m < 2 && p != nil {
		// p is at or after the front link: the front link's prev is nil.
		// If pub > m, the thieves have reserved none of p.
		m += spanOf(p)
	}
	if pub <= m || m < 2 {
		return 1
	}
	return int(min(uint64(m), max(1, genMask-gen)))
}

// retreat moves the owner from its empty back link to the link before it.
// The empty link stays linked behind the new back, reopened to its whole
// window, for the next pushes. If that makes more empty links than the
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
		n.next.StoreRelease(nil) // no thief walks here: none of these positions is counted
		o.spares = 1
	}
	o.back, o.fill, o.limit, o.cap = p, spanOf(p), spanOf(p), len(p.slots)
	o.pfill += o.fill // the published tail stays where it was
	o.base = (o.base - uint64(o.fill)) & posMask
}

// before returns the link before n, a link after the front link, when
// nothing recorded it. PushList does not touch the List's links, so that
// its cost does not depend on their number. The first of them learns its
// predecessor here, by a walk from the front.
func (q *Queue[T]) before(n *link[T]) *link[T] {
	q.refresh(false, 0)
	x := q.own.f.l
	for x != nil {
		nx := x.next.Load() // the owner wrote these pointers itself: the load sees them
		if nx == n {
			n.prev = x
			return x
		}
		x = nx
	}
	panic("blockq: internal error: a link after the front is not in the chain")
}

// Reserve makes room for n more items than the queue holds, in empty
// blocks linked behind its back. So pushing them allocates nothing. From
// then on, it lets pops that empty blocks keep as many behind the back
// (normally they keep one). Reserve is for an owner that knows how much
// its queue will hold, as a ring's capacity would be chosen. It never
// frees anything. Only the owner may call it; it does not block.
func (q *Queue[T]) Reserve(n int) {
	o := &q.own
	if o.back == nil {
		q.start()
	}
	room, last := o.limit-o.fill, o.back
	// Plain loads: only the owner writes next.
	for nx := last.next.Plain(); nx != nil; nx = last.next.Plain() {
		room += spanOf(nx)
		last = nx
	}
	for room < n {
		l := newLink(make([]T, q.blockFor(n-room)))
		l.prev = last
		last.next.StoreRelease(l) // beyond the published positions: the owner's alone
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
// reports false only when the queue holds no published item. A steal that
// meets another goroutine's change tries again. A steal that finds nothing
// published asks the owner to publish the items it holds. Any goroutine
// may call it; it does not block.
func (q *Queue[T]) Steal() (T, bool) {
	l, idx, k, _ := q.reserve(0, false)
	return takeOne(l, idx, k)
}

// TrySteal makes one attempt at Steal. It reports wsq.Contended, taking
// nothing, when another goroutine changed the control word under it:
//   - between the thief's load of the word and its compare-and-swap, which
//     then fails;
//   - between its two loads of the word, when it found the queue empty.
//
// It finishes a move of the front that it finds in progress, rather than
// give up: that is not a race lost. Any goroutine may call it; it does not
// block.
func (q *Queue[T]) TrySteal() (T, wsq.StealResult) {
	l, idx, k, r := q.reserve(0, true)
	v, _ := takeOne(l, idx, k)
	return v, r
}

// takeOne copies out and clears the item reserve reserved, if any.
func takeOne[T any](l *link[T], idx, k int) (T, bool) {
	var zero T
	if k == 0 {
		return zero, false
	}
	// idx lies in l (reserve makes sure of it).
	s := &l.slots[idx]
	v := *s
	*s = zero
	return v, true
}

// StealBatch removes wsq.StealCount(n, p) of the n published items in the
// queue, the oldest ones, in one operation. It appends them to dst, oldest
// first. It takes nothing and returns dst unchanged only when the queue
// holds no published item. It then asks the owner to publish. It panics,
// before it touches the queue, unless 0 < p <= 1. Any goroutine may call
// it; it does not block.
//
// The steal reserves its items with one compare-and-swap, then walks to
// them, skipping whole blocks, and copies them out.
func (q *Queue[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	l, idx, k, _ := q.reserve(p, false)
	if k == 0 {
		return dst
	}
	return appendRange(dst, l, idx, k, q.pointers, true)
}

// TryStealBatch makes one attempt at StealBatch, as TrySteal makes one at
// Steal. It returns dst unchanged and wsq.Contended when another goroutine
// changed the control word under it. It panics, before it touches the
// queue, unless 0 < p <= 1. Any goroutine may call it; it does not block.
func (q *Queue[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	l, idx, k, r := q.reserve(p, true)
	if k == 0 {
		return dst, r
	}
	return appendRange(dst, l, idx, k, q.pointers, true), r
}

// reserve reserves the oldest items: one when p is 0, otherwise
// wsq.StealCount of the length. It returns:
//
//	l     the link that holds the first reserved item
//	idx   the item's position in it
//	k     the number of items reserved
//	r     wsq.Taken with k > 0, or wsq.Empty with k == 0 when the queue is empty
//
// It retries when another goroutine changed the control word under it,
// unless once is set. Then it returns k == 0 and wsq.Contended, having
// changed nothing. Either way it helps a move of the front it meets. That
// finishes another goroutine's work rather than race with it.
func (q *Queue[T]) reserve(p float64, once bool) (l *link[T], idx, k int, r wsq.StealResult) {
	return q.reserveFrom(nil, 0, 0, p, once)
}

// reserveFrom is reserve. If f is not nil, its first attempt uses the
// tenure f, its live word c and the tail word tw as a thief loaded them
// earlier, in that order. (The wrap tests resume a stalled thief so.)
//
// An attempt takes effect at the load of the tail. A compare-and-swap from
// c that succeeds shows that the word was c all along. So c and the tail
// loaded after it describe the queue at that load: the tail's pushes and
// pops up to then, and the reservations of the word. The reserved items
// are the k oldest of the n items the queue held then. Pushes after that
// load only add newer items. An empty result is checked the same way, by a
// second load of the word.
func (q *Queue[T]) reserveFrom(f *tenure[T], c, tw uint64, p float64, once bool) (l *link[T], idx, k int, r wsq.StealResult) {
	for ; ; f = nil {
		if f == nil {
			// The front, its word, then the tail: the order length needs.
			if f = q.front.Load(); f == nil {
				return nil, 0, 0, wsq.Empty // takes effect at this load
			}
			if c = f.ctl.Load(); !isLive(c) {
				q.help(f, c)
				continue
			}
			tw = q.tail.Load() // acquire: it sees the slots, spans and links it publishes
		}
		n := f.length(c, tw)
		if n == 0 {
			// Empty only if the word did not change: then c and tw held
			// together.
			if f.ctl.Load() == c {
				q.ask()
				return nil, 0, 0, wsq.Empty // takes effect at the load of the tail
			}
		} else if n <= MaxLen { // else c was stale: the word changed
			// The span of f's link is read after the tail. So it counts
			// every position the tail published in that link: the owner
			// seals a link early (to append a List) before it publishes
			// what follows.
			idx = ctlIdx(c)
			if idx >= spanOf(f.l) {
				// The oldest item lies beyond the tenure's link. Move the
				// front before reserving. Then the reserved items start in
				// the front link, and idx stays small (it has 32 bits). And
				// the blocks before the oldest item can be collected. The
				// queue holds items, so the link that holds the oldest one
				// exists. A successful move keeps the queue from changing
				// until it is finished. Moving is progress, not contention.
				if f.ctl.CompareAndSwap(c, moved(c)) {
					q.help(f, moved(c))
					continue
				}
			} else {
				k = 1
				if p != 0 {
					k = wsq.StealCount(int(n), p)
				}
				// A successful reservation is where the steal takes effect
				// (Taken, at the load of the tail). A failed one changed
				// nothing (Contended). Position idx lies in f's link. The
				// thief read the span after the tail. A link's span never
				// shrinks below a counted position: the owner seals its
				// back link at its fill. Nor can the position stop being
				// counted before the reservation: a pop changes the word.
				if f.ctl.CompareAndSwap(c, take(c, k)) {
					return f.l, idx, k, wsq.Taken
				}
			}
		}
		// Another goroutine changed the word under the attempt.
		if once {
			return nil, 0, 0, wsq.Contended
		}
	}
}

// ask asks the owner to publish the items it holds, if it holds any. A
// thief calls it when it found no published item. The load keeps a
// request already made from writing the line again.
func (q *Queue[T]) ask() {
	if q.want.Load() == 0 {
		q.want.StoreRelease(1) // the owner loads it at its next push or pop
	}
}

// help finishes moving the front from f, whose word m is moved. Any
// goroutine that meets a moved word calls it. It finds the link that holds
// the oldest item. It makes the next tenure of that link live, with m's
// pop count and the item's position in the link. Then it makes that tenure
// the front. The next tenure is the link's first. If the link is f's own,
// it is a tenure of its own.
//
// Until the new tenure is the front, nobody can pop or reserve. And the
// oldest item is counted. A thief moves the front only when the queue
// holds items. The owner moves it only when it claims an item, or when the
// position lies in the chain up to its back link. So the chain up to the
// oldest item cannot change, and every helper finds the same link. The
// first to finish its walk records the tenure in f.fwd for those who walk
// later. (A helper that walks after the front moved on may find anything.)
//
// Every helper then takes the same steps:
//  1. It computes the position and base of the recorded tenure from the
//     links between f's and its own. Those hold no counted position and no
//     longer change.
//  2. It stores the base.
//  3. It makes the word live with a compare-and-swap from unborn. The first
//     one wins; a late one fails.
//  4. It moves the front with a compare-and-swap from f.
func (q *Queue[T]) help(f *tenure[T], m uint64) {
	nf := f.fwd.Load() // an earlier helper may have recorded the tenure
	if nf == nil {
		l := f.l
		for v := ctlIdx(m); l != nil && v >= spanOf(l); {
			v -= spanOf(l)
			l = l.next.Load() // nil only for a helper who comes late
		}
		if l != nil {
			cand := &l.first
			if l == f.l {
				// The pop that wraps gen moved the front with the oldest
				// item still in f's link: a second spell of it.
				cand = &tenure[T]{l: l}
			}
			// From nil: the first walker's record wins, since a later
			// walker may have found anything.
			f.fwd.CompareAndSwap(nil, cand)
		}
		if nf = f.fwd.Load(); nf == nil { // this helper's record, or an earlier one's
			panic("blockq: internal error: the oldest position of a moved front is in no link")
		}
	}
	v, base := ctlIdx(m), f.base.Load() // stored before f's word became live
	for x := f.l; x != nf.l; x = x.next.Load() {
		span := spanOf(x)
		v -= span
		base += uint64(span)
	}
	// Every helper stores the same base before it tries to make the word
	// live. Only the first compare-and-swap of each kind succeeds: a late
	// helper finds the word live and the front moved on from f.
	nf.base.StoreRelease(base & posMask)
	nf.ctl.CompareAndSwap(0, live(v, ctlGen(m))) // unborn to live, once
	q.front.CompareAndSwap(f, nf)
}

// appendRange appends the k items from position idx of l on to dst,
// oldest first. If T holds pointers (wipe), it clears their slots, so that
// no removed item stays reachable. The caller owns those positions. With
// mark, it marks each link whose every position it copied out as emptied,
// for its owner to reuse. (A thief's steal marks; a List's Drain does
// not.)
func appendRange[T any](dst []T, l *link[T], idx, k int, wipe, mark bool) []T {
	off := idx
	for {
		span := spanOf(l)
		n := min(k, span-off)
		w := l.slots[off : off+n]
		dst = append(dst, w...)
		if wipe {
			clear(w)
		}
		if mark && n == span {
			l.emptied.StoreRelease(1) // after the last read of the slots
		}
		if k -= n; k == 0 {
			return dst
		}
		l, off = l.next.Load(), 0 // the links up to a reserved position do not change
	}
}
