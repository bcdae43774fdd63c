package chaselev

import (
	"reflect"

	wsq "github.com/worksteal/wsq"
)

// Test-only access to internals.

// SetStart moves the positions of an empty deque that has never been used to
// start, so that tests can run it across the 32-bit wrap-around of its
// positions.
func (q *Deque[T]) SetStart(start uint32) {
	if q.head.Load() != 0 || q.bottom != 0 {
		panic("chaselev: SetStart on a used deque")
	}
	q.head.Store(pack(start, start))
	q.tail.Store(uint64(start))
	q.bottom, q.seen = uint64(start), start
}

// Positions returns the release frontier s, the claim frontier real and
// tail.
func (q *Deque[T]) Positions() (s, real, tail uint32) {
	s, real = unpack(q.head.Load())
	return s, real, uint32(q.tail.Load())
}

// Idle reports whether head is idle: no thief is at work.
func (q *Deque[T]) Idle() bool {
	s, real := unpack(q.head.Load())
	return s == real
}

// Ring returns the current ring, so that tests can watch it being freed.
func (q *Deque[T]) Ring() *ring[T] { return q.buf.Load() }

// Slots returns the slots of the current ring.
func (q *Deque[T]) Slots() []T { return q.buf.Load().slots }

// Layout returns the offsets of head (written by thieves) and of the
// fields the owner writes, and the size of a Deque.
func Layout[T any]() (head uintptr, owner []uintptr, size uintptr) {
	typ := reflect.TypeFor[Deque[T]]()
	offset := func(name string) uintptr {
		f, ok := typ.FieldByName(name)
		if !ok {
			panic("no field " + name)
		}
		return f.Offset
	}
	for _, name := range []string{"tail", "buf", "bottom", "seen", "r", "limit", "bounded"} {
		owner = append(owner, offset(name))
	}
	return offset("head"), owner, typ.Size()
}

// The steps of a batch steal, for tests that interleave them with the
// owner's operations.

// Announce loads head and, if it is idle, announces a batch steal.
func (q *Deque[T]) Announce() (s uint32, ok bool) {
	h := q.head.Load()
	s, real := unpack(h)
	if s != real {
		return s, false
	}
	return s, q.announce(h, s)
}

// Count is count, followed by the batch steal's wsq.StealCount.
func (q *Deque[T]) Count(s uint32, p float64) uint32 {
	n := q.count(s)
	if n == 0 {
		return 0
	}
	return uint32(wsq.StealCount(int(n), p))
}

// Commit is commit.
func (q *Deque[T]) Commit(s, k uint32) bool { return q.commit(s, k) }

// Take is take.
func (q *Deque[T]) Take(dst []T, s, k uint32) []T { return q.take(dst, s, k) }
