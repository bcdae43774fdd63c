package lfqueue

import (
	"reflect"
	"runtime"
	"sync/atomic"
)

// Test-only access to internals.

// Layout returns the offsets of the owner's private state, the last
// published push record, the control word and the thief state.
func Layout[T any]() (own, lastPush, ctl, thief uintptr) {
	return field[Queue[T]]("own").Offset, field[Queue[T]]("lastPush").Offset,
		field[Queue[T]]("ctl").Offset, field[Queue[T]]("thief").Offset
}

// Sizes returns the sizes of the owner's and the thief's state.
func Sizes[T any]() (own, thief uintptr) {
	return field[Queue[T]]("own").Type.Size(), field[Queue[T]]("thief").Type.Size()
}

// field returns the field of struct type S with the given name.
func field[S any](name string) reflect.StructField {
	f, ok := reflect.TypeFor[S]().FieldByName(name)
	if !ok {
		panic("no field " + name)
	}
	return f
}

// CheckInvariants walks the list from the last published push record and
// checks the invariants of a queue that no goroutine is using: the
// unreserved items are the nodes with indices bottom..next-1, linked in
// order, and the oldest one's next is nil. It returns a description of the first violation, or "".
func (q *Queue[T]) CheckInvariants() string {
	c := q.ctl.Load()
	n := ctlSize(c)
	if int64(n) != q.own.next-q.thief.bottom {
		return "size does not match next-bottom"
	}
	if n == 0 {
		return ""
	}
	rec := q.lastPush.Load()
	if rec.seq != ctlSeq(c) {
		return "last push record not counted"
	}
	if rec.prev.Load() != nil {
		return "counted push record keeps its predecessor"
	}
	nd := rec.top
	// Indices wrap around int64: count by their differences.
	for i := rec.idx - (q.own.next - 1); i > 0; i-- { // popped nodes above the newest item
		nd = nd.next.Load()
	}
	if nd != q.own.newest {
		return "own.newest is not the node at index next-1"
	}
	for i := q.own.next - 1 - q.thief.bottom; i > 0; i-- {
		nd = nd.next.Load()
		if nd == nil {
			return "chain ends above bottom"
		}
	}
	if nd.next.Load() != nil {
		return "oldest node links further down"
	}
	return ""
}

// TrackNodes attaches a cleanup to every node of l that counts into freed
// when the node's memory is unreachable.
func (l *List[T]) TrackNodes(freed *atomic.Int64) {
	for nd := l.top; nd != nil; nd = nd.next.Plain() {
		runtime.AddCleanup(nd, func(c *atomic.Int64) { c.Add(1) }, freed)
	}
}

// FakeLen sets the size the control word records, without nodes behind it,
// so that tests can reach the size limit. The queue is unusable afterwards.
func (q *Queue[T]) FakeLen(n int) {
	q.ctl.Store(uint64(ctlSeq(q.ctl.Load()))<<32 | uint64(n))
}

// MaxLen is the size limit.
const MaxLen = maxLen
