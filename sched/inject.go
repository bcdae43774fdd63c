package sched

import (
	"sync"
	"sync/atomic"
)

// injector holds the items that goroutines outside the workers add,
// oldest first, until idle workers or a master take them. Workers read n
// without the lock, to see whether there is anything to take.
type injector[T any] struct {
	n      atomic.Int64 // len(items) - head
	mu     sync.Mutex
	items  []T
	head   int
	closed bool
}

// put adds v and counts it in pending, unless the injector is closed; it
// reports whether it did. Counting under the lock orders every successful
// put before close: a held run's pending cannot reach zero while a put is
// on its way.
func (q *injector[T]) put(v T, pending *atomic.Int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	pending.Add(1) // under mu: see above
	if q.head > 0 && len(q.items) == cap(q.items) {
		live := copy(q.items, q.items[q.head:])
		clear(q.items[live:])
		q.items, q.head = q.items[:live], 0
	}
	q.items = append(q.items, v)
	q.n.Add(1) // after the item: a worker that reads n > 0 finds it under mu
	return true
}

// close makes every later put fail.
func (q *injector[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

// take appends the oldest of the items to dst, a share of them for one of
// parts takers (at least one item, if there are any), and returns dst.
func (q *injector[T]) take(dst []T, parts int) []T {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.items) - q.head
	k := (n + parts - 1) / parts
	dst = append(dst, q.items[q.head:q.head+k]...)
	clear(q.items[q.head : q.head+k])
	q.head += k
	if q.head == len(q.items) {
		q.items, q.head = shrink(q.items), 0
	}
	q.n.Add(-int64(k)) // under mu, with head
	return dst
}
