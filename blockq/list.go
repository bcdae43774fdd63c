package blockq

import (
	"reflect"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/steal"
)

// List is a chain of blocks of items outside any queue. It is one of two
// things:
//   - a batch an owner builds with Append and pushes with Queue.PushList
//     in constant time;
//   - the part of a queue a thief took with Queue.StealParcel, ready to be
//     pushed into another queue whole.
//
// A List belongs to one goroutine at a time. Hand it to another with a
// channel or another synchronizing operation. The zero value is an empty
// list ready to use. Pushing a List empties it; it may then be used again.
// Do not copy a non-empty List; pass a pointer.
type List[T any] struct {
	first, last *link[T]
	n           int // items
	fill        int // positions of last in use
	lastCap     int // len(last.slots): last is open, its span its window
	chunk       int // slots of the last block Append allocated
}

var _ wsq.Parcel[int] = (*List[int])(nil)

// Append allocates blocks that double from minChunk slots to
// MaxBlockSize. So a short list stays small, and a long one costs one
// allocation per block.
const minChunk = 16

// Len returns the number of items in the list.
func (l *List[T]) Len() int { return l.n }

// Append adds v as the newest item of the list.
func (l *List[T]) Append(v T) {
	if l.last == nil || l.fill == l.lastCap {
		l.chunk = min(max(minChunk, 2*l.chunk), MaxBlockSize)
		l.link(newLink(make([]T, l.chunk)))
	}
	l.last.slots[l.fill] = v
	l.fill++
	l.n++
}

// link appends the empty link nl to the list, sealing the last link at
// its fill. The list is private to its goroutine. So the atomic fields are
// written before any other goroutine can see them.
func (l *List[T]) link(nl *link[T]) {
	if l.last == nil {
		l.first = nl
	} else {
		l.last.seal(l.fill)
		nl.prev = l.last
		l.last.next.SetPlain(nl) // plain: no other goroutine sees the list yet
	}
	l.last, l.fill, l.lastCap = nl, 0, len(nl.slots)
}

// Drain empties the list. It appends the items of the list to dst, oldest
// first, and returns the extended slice.
func (l *List[T]) Drain(dst []T) []T {
	if l.n > 0 {
		dst = appendRange(dst, l.first, 0, l.n, hasPointers(reflect.TypeFor[T]()), false)
	}
	*l = List[T]{}
	return dst
}

// PushList moves all items of l into the queue as one operation, in
// constant time whatever their number. The oldest item of l becomes the
// oldest of the new items, the newest of l the newest of the queue. The
// queue takes over l's blocks; l is left empty. PushList returns how many
// items it moved. It panics if the queue would hold more than MaxLen
// items. Only the owner may call it; it does not block.
//
// PushList links l's chain after the back link. It publishes the items
// with a release store of the tail, where it takes effect. It uses no
// atomic read-modify-write operation.
func (q *Queue[T]) PushList(l *List[T]) int {
	if l == nil || l.n == 0 {
		return 0
	}
	m := l.n
	q.checkRoom(m)
	o := &q.own
	if o.back == nil {
		q.start()
	} else {
		q.reload() // so that a stale front does not keep emptied blocks
	}
	// Seal the back link at its fill, dropping the empty links behind
	// it, if any. Then link l's chain after it. No position beyond the
	// published ones is read by anyone but the owner. l's links are not
	// touched, so the cost does not depend on their number. l.first does
	// not learn its predecessor (see before). A back link with no position
	// in use is replaced by l rather than sealed empty, unless it is the
	// front link. So a run of pushed and popped Lists does not leave a
	// chain of empty links. Thieves walking the chain may load these
	// fields, hence atomic stores. The tail's release store in publish is
	// what publishes them with l's items.
	switch {
	case o.fill == 0 && o.back != o.f.l:
		p := o.back.prev
		if p == nil {
			p = q.before(o.back)
		}
		p.next.StoreRelease(l.first)
	case o.fill < o.limit:
		o.back.cut.StoreRelease(uint32(o.cap - o.fill))
		fallthrough
	default:
		o.back.next.StoreRelease(l.first)
	}
	// The List's positions follow the owner's newest: its last link's
	// first slot is m less its fill after it.
	o.base = (o.base + uint64(o.fill+m-l.fill)) & posMask
	o.back, o.fill, o.limit, o.cap = l.last, l.fill, l.lastCap, l.lastCap
	o.spares = 0
	*l = List[T]{}
	q.publish() // l's items, and the items the owner held
	o.bounds()
	return m
}

// PushParcel adds the items of p as one operation and empties p. A *List
// (as StealParcel returns) is taken over in constant time, as PushList
// does; any other parcel is copied. Only the owner may call it.
func (q *Queue[T]) PushParcel(p wsq.Parcel[T]) int {
	if p == nil {
		return 0
	}
	if l, ok := p.(*List[T]); ok {
		return q.PushList(l)
	}
	return q.PushBatch(p.Drain(nil))
}

// StealParcel removes wsq.StealCount(n, p) of the n published items in the
// queue, the oldest ones, in one operation, as StealBatch does. It returns
// them as a *List without copying them. The list covers the stolen slots
// of the queue's blocks, which the queue no longer uses. It returns nil
// when the queue is empty. It panics, before it touches the queue, unless
// 0 < p <= 1. Any goroutine may call it; it does not block.
//
// Its cost is one reservation, plus one step and one new link per block
// the stolen items lie in. Each link is an allocation of its own. So the
// queue the parcel goes to keeps a block only while the link onto it holds
// items.
func (q *Queue[T]) StealParcel(p float64) wsq.Parcel[T] {
	steal.MustProportion(p)
	f, idx, k, _ := q.reserve(p, false)
	if k == 0 {
		return nil
	}
	// Make one link per block: a window onto the stolen slots. Its
	// capacity ends with the window, so that nobody can append into the
	// queue's slots beyond it. Each link is an allocation of its own. Links
	// allocated together would keep each other reachable as long as any one
	// of them is. Through their windows they would keep every block of the
	// parcel too.
	l := new(List[T])
	walkRange(f, idx, k, func(src *link[T], off, n int) {
		l.link(newLink(src.slots[off : off+n : off+n]))
		l.fill = n
	})
	l.n = k
	return l
}

// walkRange calls f(l, off, n) for each link l that holds some of the k
// items from position idx of start on. off and n are the offset and
// number of those items in l.
func walkRange[T any](start *link[T], idx, k int, f func(l *link[T], off, n int)) {
	l, off := start, idx
	for {
		n := min(k, spanOf(l)-off)
		f(l, off, n)
		if k -= n; k == 0 {
			return
		}
		l, off = l.next.Load(), 0 // the links up to a reserved position do not change
	}
}
