package lfqueue

import (
	"fmt"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/internal/steal"
)

// The protocol in brief. Items are nodes of a singly linked list that runs
// from the newest node down to the oldest. Every item has an index: the
// oldest item has index bottom, the newest index next-1, and the queue holds
// next-bottom items. The owner moves next (a push adds m indices above it, a
// pop gives the top one back, so indices are reused); thieves move bottom.
// Indices count from the old end, where only thieves work, so the index of a
// node that stays in the queue never changes while the owner pushes and pops.
//
// One 64-bit word, ctl, arbitrates: its low 31 bits are the number of items
// neither popped nor reserved by a thief, its high 32 bits the sequence number
// of the last counted push, and the bit between them a fence against the
// wrap-around of that number (see ctlFence). Every operation that removes or
// adds items is a compare-and-swap on ctl, and that is its linearization
// point:
//
//   - Push and PushBatch publish a push record for the new nodes, then count
//     them in ctl (seq+1, size+m): the push takes effect at the count.
//   - Pop claims the newest item with a CAS of size-1.
//   - A steal reserves the k oldest items with a CAS of size-k; the items it
//     will detach are those with indices bottom .. bottom+k-1, which no later
//     pop can reach.
//
// After reserving, a thief finds its items by walking from the top of the
// push record that matches the ctl value it reserved against: the record's
// top node has a known index, so the node with index bottom+k (the cut) is
// a known number of steps below it. The thief detaches everything below
// the cut.
//
// Hazards any design of this queue must handle, and why they cannot happen
// here:
//
//  1. A node owned by both sides: the owner claims only items counted in ctl
//     and the thief only items it reserved in ctl, and each CAS sees the
//     other's. The owner never follows a node's next when its claim left
//     nothing unreserved (the next node is the thief's).
//  2. A push in flight (published but not counted): a thief that sees a
//     push record newer than ctl's sequence number uses the record before
//     it (prev), whose chain matches the ctl value it will validate with its
//     CAS.
//  3. ABA on the size: the thief computes k from the same ctl value its CAS
//     validates and then locates items by index from the old end, which is
//     stable; it never acts on a size it read before an owner operation. A
//     push record is matched to ctl by its sequence number, and two loads
//     of lastPush around the ctl load exclude a wrap of that number between
//     them. The
//     reserving CAS needs more: that ctl does not return to the value the
//     thief loaded, sequence number included, while the thief is stalled
//     between its loads and its CAS, which 2³² owner pushes would bring about
//     (about five minutes of pushes and pops). The fence bit rules it out:
//     the owner sets it every 2³⁰ pushes, only a thief clears it, thieves
//     reserve only from a value without it, and a stalled thief holds the
//     thieves' lock, so the fence set after its loads stays set until it
//     runs again, and its CAS fails whatever the sequence number does.
//  4. The owner writing into a stolen node: the owner writes the links only
//     of nodes it has not published yet, with two exceptions: the unlinking
//     of its own new batch from a node a thief reserved while the push was in
//     flight, which happens before the push is counted, when no thief can be
//     walking that batch; and the clearing of popped nodes' links, once no
//     thief can walk them (unlinkPopped). The only other owner write to a
//     published node is Pop clearing the value of the node its own CAS
//     claimed.
//  5. Several thieves: they take a thief-side lock; the owner never does.
//  6. Garbage: removed values are cleared at once; a steal clears the link
//     from the cut to the stolen part, or, when it takes everything, the
//     push record's top, and the owner's Pop that finds the queue empty
//     drops own.newest; a steal that copies its items out also clears the
//     links of the stolen nodes, so that a stolen node that shares its
//     allocation with a node still queued does not keep older nodes
//     reachable; popped nodes stay reachable only from the last published
//     push record, until the next push, and keep their links, which a thief
//     may be walking, until the owner clears them after a later push
//     (unlinkPopped).

// maxLen is the largest number of items a queue can hold: the size field of
// ctl has 31 bits.
const maxLen = ctlSizeMask

// node is one item. next points to the next older node.
//
// Invariant, whenever no steal is between its reserving CAS and its detach:
// the next field of the oldest unreserved node is nil, and the next field of
// every other node that is in the queue points to the node one index below
// it. A node's next is written while the node is unpublished
// (plain stores), when a thief detaches the part below a cut (the cut's next
// is swapped to nil), and when the owner unlinks an in-flight batch; it is
// read by thieves walking down from a push record's top and by the owner
// after a pop.
type node[T any] struct {
	next atomicx.Pointer[node[T]]
	val  T // written before publication; cleared by whoever removes the item
}

// pushRecord describes one published push: which node was then the newest
// and which index it has. Thieves walk from the record of the push ctl has
// counted last.
type pushRecord[T any] struct {
	// top is the newest node of the push. It is written before
	// publication and then only read, by thieves, except that the steal
	// that takes every item counted under this record clears it (under the
	// thieves' lock), after which no thief pairs the record with ctl.
	top *node[T]
	idx int64  // index of top; immutable after publication
	seq uint32 // sequence number the push's count puts in ctl; immutable

	// epoch counts the pushes onto an empty queue up to and including this
	// one. The owner writes it before publication, and rewrites it before
	// the count when a thief emptied the queue under an in-flight push;
	// thieves read it only after they have seen the count in ctl.
	epoch uint64

	// prev is the push record published before this one. Thieves need it
	// while this push is published but not counted; the owner clears it
	// right after the count, so that records do not keep each other
	// reachable.
	prev atomicx.Pointer[pushRecord[T]]
}

// single is a push record and a node allocated together, for Push.
type single[T any] struct {
	rec pushRecord[T]
	n   node[T]
}

// The fields of ctl.
const (
	ctlSizeMask = 1<<31 - 1 // the unreserved size, bits 0..30

	// ctlFence is set by the owner's push every fenceEvery pushes and
	// cleared only by a thief, which clears it before it reserves and
	// reserves only from a value without it (hazard 3). Pops and
	// reservations leave it as it is.
	ctlFence = 1 << 31

	// fenceEvery is how many pushes apart the owner sets ctlFence: a
	// quarter of the sequence number's range, so that a thief stalled
	// between its loads and its CAS meets a fence long before the
	// sequence number comes round to the value it loaded.
	fenceEvery = 1 << 30
)

func ctlSize(c uint64) int   { return int(c & ctlSizeMask) }
func ctlSeq(c uint64) uint32 { return uint32(c >> 32) }

// ctlCount returns ctl c after a push of m items: the next sequence number,
// the size plus m, and the fence, set every fenceEvery pushes and otherwise
// kept as it was.
func ctlCount(c uint64, m int) uint64 {
	seq := ctlSeq(c) + 1
	next := uint64(seq)<<32 | c&ctlFence | uint64(ctlSize(c)+m)
	if seq%fenceEvery == 0 {
		next |= ctlFence
	}
	return next
}

// Queue is an unbounded bulk lock-free work-stealing queue. One goroutine,
// the owner, may push and pop; any goroutine may steal. Owner methods never
// block. Steal methods take a thief-side lock, so a thief may wait for
// another thief, never for the owner. In the terms of the Go memory model,
// the push of an item synchronizes before the Pop or steal that returns it.
//
// The zero value is an empty queue that uses the basic steal, ready to use.
// A Queue must not be copied after first use.
type Queue[T any] struct {
	_ pad.Line

	// own is the owner's private state: only the owner reads or writes it.
	own struct {
		// newest is the newest node the owner may pop next: the node with
		// index next-1 when ctl's size is positive. When the owner saw
		// the size reach zero it is nil or stale, and it is not used
		// until a push replaces it.
		newest *node[T]
		// next is one above the index of the newest item.
		next int64
		// epoch counts the owner's pushes onto an empty queue.
		epoch uint64

		// top is the newest node of the last push, and pops the number
		// of pops since that push: the popped nodes are the pops nodes
		// from top down. They keep their links, which a thief whose
		// reservation came before the next push may be walking.
		top  *node[T]
		pops int
		// unlinking holds runs of popped nodes whose links are to be
		// cleared once no thief can walk them (see unlinkPopped).
		unlinking []poppedRun[T]
	}
	_ pad.Line

	// lastPush is the record of the last published push (nil before the
	// first push), from whose top thieves walk down; the owner's newest
	// node is own.newest. Written by the owner with an atomic store, which
	// publishes the new nodes; loaded by thieves.
	lastPush atomicx.Pointer[pushRecord[T]]
	_        pad.Line

	// ctl packs the number of unreserved items (low 31 bits) with the
	// sequence number of the last counted push (high 32 bits) and the
	// fence bit (bit 31). Only the owner increases the size, changes the
	// sequence number and sets the fence; thieves only decrease the size
	// and clear the fence. Every change is a CAS, and every change of the
	// size or the sequence number is the linearization point of the
	// operation that makes it.
	ctl atomicx.Uint64
	_   pad.Line

	// thief is the state of the steal side, guarded by mu.
	thief struct {
		mu atomicx.Mutex
		// bottom is the index of the oldest item not yet reserved by a
		// thief.
		bottom int64
		// last is the node the previous steal cut at, which became the
		// oldest node, and lastEpoch the epoch of the push record that
		// steal walked. While the record a steal walks has the same epoch,
		// the owner has not refilled the queue from empty since, so last is
		// still the oldest node. last is nil when there was no cut: only
		// the skip-count steal keeps it, and a steal that finds the queue
		// empty drops it, so that a node the owner popped since is not
		// kept reachable for long.
		last      *node[T]
		lastEpoch uint64
		// skipCount selects the skip-count steal; set by New.
		skipCount bool
		// turns counts the thieves' turns twice: it is odd while a thief
		// holds mu and even otherwise. The thief holding mu stores it on
		// taking and on leaving its turn; the owner loads it after
		// counting a push, to learn when the thieves that may walk the
		// nodes it popped before that push have finished (unlinkPopped).
		turns atomicx.Uint64
	}
	_ pad.Line
}

// poppedRun is n popped nodes from top down, popped before the push whose
// count the owner made when the thieves' turns stood at turn.
type poppedRun[T any] struct {
	top  *node[T]
	n    int
	turn uint64
}

var (
	_ wsq.Queue[int]   = (*Queue[int])(nil)
	_ wsq.Handoff[int] = (*Queue[int])(nil)
)

// Option configures a Queue made by New.
type Option func(*options)

type options struct {
	skipCount bool
}

// WithSkipCount selects the paper's skip-count steal: StealParcel does not
// walk the stolen part to find its oldest node when it can prove that node
// unchanged since the previous steal. See the package documentation.
func WithSkipCount() Option { return func(o *options) { o.skipCount = true } }

// New returns an empty queue configured by opts.
func New[T any](opts ...Option) *Queue[T] {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	q := new(Queue[T])
	q.thief.skipCount = o.skipCount
	return q
}

// Contract reports what the queue promises where wsq.Queue lets queues
// differ: only that thieves take turns (SerializedThieves). Any goroutine
// may call it.
func (q *Queue[T]) Contract() wsq.Contract { return wsq.Contract{SerializedThieves: true} }

// Len returns the number of items in the queue, not counting items a thief
// has reserved and is detaching. It may be called by any goroutine.
func (q *Queue[T]) Len() int { return ctlSize(q.ctl.Load()) }

// Push adds v as the newest item. It always reports true: the queue is
// unbounded. It panics if the queue would hold more than 2³¹-1 items. Only
// the owner may call it.
func (q *Queue[T]) Push(v T) bool {
	s := &single[T]{}
	s.n.val = v
	q.publish(&s.rec, &s.n, &s.n, 1)
	return true
}

// PushBatch adds the items of vs, vs[len(vs)-1] being the newest, as one
// operation, and returns len(vs). It copies vs into one new block of nodes,
// so its cost grows with len(vs); PushList pushes a List built in advance in
// constant time. It panics if the queue would hold more than 2³¹-1 items.
// Only the owner may call it.
func (q *Queue[T]) PushBatch(vs []T) int {
	m := len(vs)
	if m == 0 {
		return 0
	}
	// One block of nodes per maxChunk items (see appendChain), linked from
	// the newest down.
	var top, bottom *node[T]
	for rest := vs; len(rest) > 0; {
		nodes := make([]node[T], min(len(rest), maxChunk))
		nodes[0].val = rest[0]
		nodes[0].next.SetPlain(top)
		for i := 1; i < len(nodes); i++ {
			nodes[i].val = rest[i]
			nodes[i].next.SetPlain(&nodes[i-1])
		}
		if bottom == nil {
			bottom = &nodes[0]
		}
		top = &nodes[len(nodes)-1]
		rest = rest[len(nodes):]
	}
	q.publish(new(pushRecord[T]), top, bottom, m)
	return m
}

// PushList moves all items of l into the queue as one operation, in
// constant time whatever their number: the oldest item of l becomes the
// oldest of the new items, the newest of l the newest of the queue. It
// leaves l empty and returns how many items it moved. It panics if the
// queue would hold more than 2³¹-1 items. Only the owner may call it.
func (q *Queue[T]) PushList(l *List[T]) int {
	if l == nil || l.n == 0 {
		return 0
	}
	m := l.n
	q.publish(new(pushRecord[T]), l.top, l.bottom, m)
	l.top, l.bottom, l.n = nil, nil, 0
	return m
}

// PushParcel adds the items of p as one operation and empties p. A *List,
// as StealParcel returns, is moved in constant time; any other parcel is
// copied. Only the owner may call it.
func (q *Queue[T]) PushParcel(p wsq.Parcel[T]) int {
	if p == nil {
		return 0
	}
	if l, ok := p.(*List[T]); ok {
		return q.PushList(l)
	}
	return q.PushBatch(p.Drain(nil))
}

// publish links the unpublished chain top..bottom of m nodes above the
// owner's newest item, publishes it under push record rec and counts it.
func (q *Queue[T]) publish(rec *pushRecord[T], top, bottom *node[T], m int) {
	c := q.ctl.Load()
	if uint64(ctlSize(c))+uint64(m) > maxLen {
		panic(fmt.Sprintf("lfqueue: pushing %d items would make the queue hold more than %d", m, uint64(maxLen)))
	}
	o := &q.own
	// Link onto the newest item, unless the queue is empty: then own.newest
	// may be a node a thief has taken, and the new chain must end here.
	linked := ctlSize(c) > 0
	if linked {
		bottom.next.SetPlain(o.newest)
	} else {
		bottom.next.SetPlain(nil)
		o.epoch++
	}
	rec.top, rec.idx, rec.seq, rec.epoch = top, o.next+int64(m)-1, ctlSeq(c)+1, o.epoch
	rec.prev.SetPlain(q.lastPush.Plain()) // the owner is lastPush's only writer
	// Publish: thieves may now see rec, but they pair it with ctl only once
	// the count below lands; until then they walk rec.prev.
	q.lastPush.Store(rec)
	for !q.ctl.CompareAndSwap(c, ctlCount(c, m)) {
		// Only a thief changes ctl while the owner is here, by reserving
		// items or clearing the fence. If it reserved all of them,
		// o.newest is among them: unlink the new chain from it before
		// counting. No thief walks the new chain before the count, so
		// this is safe.
		c = q.ctl.Load()
		if linked && ctlSize(c) == 0 {
			bottom.next.Store(nil)
			linked = false
			o.epoch++
			rec.epoch = o.epoch
		}
	}
	// Counted: no thief needs rec.prev any more (one that still reads it has
	// a stale ctl value and will retry). Correctness does not need this
	// store; the garbage collector does: without it every push record
	// would keep its predecessor, and with it the popped nodes that record
	// leads to, reachable. It must be atomic, since a thief with a stale
	// ctl value may be loading prev at the same time: a plain store would
	// race with that load.
	rec.prev.Store(nil)
	if o.pops > 0 || len(o.unlinking) > 0 {
		q.unlinkPopped()
	}
	o.newest, o.top = top, top
	o.next += int64(m)
}

// unlinkPopped clears the links of popped nodes once no thief can walk
// them, so that a popped node that shares its allocation with a node still
// in use (a node of a sub-list that StealParcel handed to another queue, say)
// does not keep the older nodes it links to in memory. The owner calls it
// right after counting a push, and records the nodes popped since the
// previous push as a run to unlink.
//
// A thief walks the popped nodes of a push only if it reserved before the
// next push was counted: a later thief pairs ctl with a newer push record,
// whose chain does not contain them. Thieves reserve and walk within one
// turn, so the run may be unlinked once the turn in progress at the count,
// if any, has ended: when the turns counter was even at the count, or has
// moved on since. Until then the run waits for a later push.
func (q *Queue[T]) unlinkPopped() {
	o := &q.own
	turn := q.thief.turns.Load() // after the count
	if o.pops > 0 {
		o.unlinking = append(o.unlinking, poppedRun[T]{top: o.top, n: o.pops, turn: turn})
		o.pops = 0
	}
	done := 0
	for _, r := range o.unlinking {
		if r.turn%2 == 1 && r.turn == turn {
			break // that thief's turn is not over
		}
		nd := r.top
		for range r.n {
			nx := nd.next.Plain() // the owner's own write, or a thief's before its turn ended
			nd.next.SetPlain(nil)
			nd = nx
		}
		done++
	}
	n := copy(o.unlinking, o.unlinking[done:])
	clear(o.unlinking[n:])
	o.unlinking = o.unlinking[:n]
}

// Pop removes and returns the newest item, reporting false if the queue is
// empty. Only the owner may call it.
func (q *Queue[T]) Pop() (T, bool) {
	var zero T
	for {
		c := q.ctl.Load()
		s := ctlSize(c)
		if s == 0 {
			// A thief may have taken everything: own.newest, and own.top
			// unless it leads to popped nodes still to be unlinked,
			// would keep its chain reachable.
			q.own.newest = nil
			if q.own.pops == 0 {
				q.own.top = nil
			}
			return zero, false // linearizes at the load
		}
		if !q.ctl.CompareAndSwap(c, c-1) {
			continue // a thief reserved items meanwhile
		}
		// Claimed the item with index next-1, which is own.newest.
		o := &q.own
		n := o.newest
		if s == 1 {
			// Nothing unreserved is left: n.next, if any, leads to a
			// thief's items.
			o.newest = nil
		} else {
			// n is not the oldest unreserved node, so no thief cuts at
			// it and its next is intact... unless a thief reserves all
			// the rest right now, in which case the value read here is
			// never used (the size is zero until the next push).
			o.newest = n.next.Load()
		}
		o.next--
		o.pops++
		v := n.val
		n.val = zero
		return v, true
	}
}

// Steal removes and returns the oldest item, reporting false if the queue is
// empty. It walks the list from the newest item, so it takes time
// proportional to the queue's length. Any goroutine may call it; thieves
// take turns.
func (q *Queue[T]) Steal() (T, bool) {
	v, r := q.stealOne(false)
	return v, r == wsq.Taken
}

// StealBatch removes wsq.StealCount(Len(), p) of the oldest items in one
// operation and appends them to dst, oldest first. It walks the list from
// the newest item to the cut point and then the stolen part, so it takes
// time proportional to the queue's length. It panics, before touching the
// queue, unless 0 < p <= 1. Any goroutine may call it; thieves take turns.
func (q *Queue[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	dst, _ = q.stealBatch(dst, p, false)
	return dst
}

// TrySteal makes one attempt at Steal without waiting: it reports
// wsq.Contended, taking nothing, when another thief holds the thieves'
// lock (it takes it with TryLock) or when the owner changes the control
// word between its snapshot and its reserving compare-and-swap. The
// snapshot itself may load again while the owner is publishing a push.
// Any goroutine may call it; it never waits.
func (q *Queue[T]) TrySteal() (T, wsq.StealResult) { return q.stealOne(true) }

// stealOne is Steal, or with once TrySteal.
func (q *Queue[T]) stealOne(once bool) (T, wsq.StealResult) {
	var zero T
	if !q.beginTurn(once) {
		return zero, wsq.Contended
	}
	first, _, _, r := q.steal(func(int) int { return 1 }, false, once)
	q.endTurn()
	if r != wsq.Taken {
		return zero, r
	}
	v := first.val
	first.val = zero
	first.next.SetPlain(nil) // the thief owns the detached node (hazard 6)
	return v, r
}

// TryStealBatch makes one attempt at StealBatch, as TrySteal makes one at
// Steal: it returns dst unchanged and wsq.Contended when the thieves' lock
// is held or its compare-and-swap fails. It panics, before touching the
// queue, unless 0 < p <= 1. Any goroutine may call it; it never waits.
func (q *Queue[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	return q.stealBatch(dst, p, true)
}

// stealBatch is StealBatch, or with once TryStealBatch, for a valid p.
func (q *Queue[T]) stealBatch(dst []T, p float64, once bool) ([]T, wsq.StealResult) {
	if !q.beginTurn(once) {
		return dst, wsq.Contended
	}
	first, _, k, r := q.steal(func(n int) int { return wsq.StealCount(n, p) }, false, once)
	q.endTurn()
	if k == 0 {
		return dst, r
	}
	return appendChain(dst, first, k), r
}

// StealParcel removes wsq.StealCount(Len(), p) of the oldest items in one
// operation and returns them as a new *List, without copying them: the
// stolen nodes become the list's nodes. It returns nil when it takes
// nothing. It walks the list from the newest item to the cut point and,
// with the basic steal, the stolen part too; the skip-count steal usually
// skips the second walk. It panics, before touching the queue, unless
// 0 < p <= 1. Any goroutine may call it; thieves take turns.
func (q *Queue[T]) StealParcel(p float64) wsq.Parcel[T] {
	steal.MustProportion(p)
	q.beginTurn(false)
	first, last, k, _ := q.steal(func(n int) int { return wsq.StealCount(n, p) }, true, false)
	q.endTurn()
	if k == 0 {
		return nil
	}
	return &List[T]{top: first, bottom: last, n: k}
}

// beginTurn begins a thief's turn: it takes the thieves' lock, or with try
// only if the lock is free, and then makes the turns counter odd. It
// reports whether the turn began; without try it always does, after
// waiting for the lock.
func (q *Queue[T]) beginTurn(try bool) bool {
	if try {
		if !q.thief.mu.TryLock() {
			return false
		}
	} else {
		q.thief.mu.Lock()
	}
	q.thief.turns.Store(q.thief.turns.Load() + 1)
	return true
}

// endTurn ends a thief's turn: it makes the turns counter even, which
// tells the owner that this thief walks no more nodes, and releases the
// lock.
func (q *Queue[T]) endTurn() {
	q.thief.turns.Store(q.thief.turns.Load() + 1)
	q.thief.mu.Unlock()
}

// steal reserves want(n) of the n unreserved items, oldest first, and
// detaches them. It returns the newest and, if needLast, the oldest of the
// detached nodes, their number k and wsq.Taken (the steal takes effect at
// the reserving CAS), or k == 0 and wsq.Empty when the queue is empty (it
// takes effect at snapshot's load of ctl). A CAS that fails because the
// owner changed ctl since the snapshot is tried again, or with once
// reported as wsq.Contended, having changed nothing. The caller holds
// q.thief.mu. The detached chain runs from first down to last, whose next
// is nil.
func (q *Queue[T]) steal(want func(n int) int, needLast, once bool) (first, last *node[T], k int, r wsq.StealResult) {
	for {
		rec, c := q.snapshot()
		if rec == nil {
			q.thief.last = nil // keep no dead node reachable
			return nil, nil, 0, wsq.Empty
		}
		k = want(ctlSize(c))
		if q.reserve(c, k) {
			first, last, k = q.detach(rec, k, needLast)
			return first, last, k, wsq.Taken
		}
		if once {
			return nil, nil, 0, wsq.Contended
		}
	}
}

// snapshot loads a value c of ctl without the fence and the push record rec
// whose chain holds every unreserved item at its index in the state c
// describes.
// It returns a nil rec when c's size is zero. The caller holds q.thief.mu.
func (q *Queue[T]) snapshot() (rec *pushRecord[T], c uint64) {
	for {
		rec = q.lastPush.Load()
		c = q.ctl.Load()
		if c&ctlFence != 0 {
			// Reserve only from a value without the fence (hazard 3).
			// The CAS fails only when the owner changed ctl meanwhile.
			q.ctl.CompareAndSwap(c, c&^ctlFence)
			continue
		}
		if ctlSize(c) == 0 {
			return nil, c
		}
		// Between the two loads of lastPush no push was published, so at
		// most rec's own count happened between them: ctl's sequence
		// number is rec.seq, or rec.seq-1 while rec is still in flight.
		if q.lastPush.Load() != rec {
			continue
		}
		if ctlSeq(c) != rec.seq {
			// rec is published but not counted: the state c describes is
			// the one of the push record before it.
			if rec = rec.prev.Load(); rec == nil {
				continue // counted meanwhile; c is stale
			}
		}
		return rec, c
	}
}

// reserve takes the k oldest unreserved items, indices bottom ..
// bottom+k-1, with a CAS from c, which snapshot loaded. It reports whether
// the CAS succeeded; when it did, no owner operation took effect since the
// load of c, and the steal takes effect here.
func (q *Queue[T]) reserve(c uint64, k int) bool {
	return q.ctl.CompareAndSwap(c, c-uint64(k))
}

// detach finds the k items reserved against push record rec, detaches them
// and advances the thief's bottom; it returns what steal returns.
func (q *Queue[T]) detach(rec *pushRecord[T], k int, needLast bool) (first, last *node[T], _ int) {
	// The reservation succeeded, so rec's chain holds every unreserved item
	// at its index. Nodes above the owner's newest item in that chain may
	// be popped ones; their links are intact, since the owner never writes
	// into a published node.
	th := &q.thief
	cutIdx := th.bottom + int64(k)
	var cut *node[T]
	// Indices wrap around int64 (PushList and the skip-count StealParcel
	// move 2^31 items in constant time, so a program that passes a large
	// list back and forth wraps them within an hour): compare them only by
	// their difference, which is the number of items between them.
	if above := rec.idx - cutIdx; above >= 0 {
		cut = rec.top
		for ; above > 0; above-- {
			cut = cut.next.Load()
		}
		// Detach: the cut becomes the oldest node. The owner never reads
		// the next of the oldest unreserved node (hazard 1), so the swap
		// races with nobody.
		first = cut.next.Swap(nil)
	} else {
		// The reserved items reach up to rec's top: nothing stays. No
		// thief reads rec.top again (the size is zero until the next push,
		// which publishes a new push record), and the owner never does, so
		// clear it: otherwise the record, which the queue keeps until the
		// next push, would keep the whole stolen chain reachable.
		first = rec.top
		rec.top = nil
	}

	if needLast {
		if th.last != nil && th.lastEpoch == rec.epoch {
			// Skip-count: no refill from empty since the previous steal
			// cut at th.last, so th.last is still the oldest node.
			last = th.last
		} else {
			// Basic: walk the stolen part to its end, counting it.
			last = first
			count := 1
			for nx := last.next.Load(); nx != nil; nx = last.next.Load() {
				last = nx
				count++
			}
			if count != k {
				panic(fmt.Sprintf("lfqueue: internal error: steal reserved %d items but detached %d", k, count))
			}
		}
	}
	th.bottom = cutIdx
	th.last, th.lastEpoch = nil, rec.epoch
	if th.skipCount {
		th.last = cut // nil when nothing stayed
	}
	return first, last, k
}
