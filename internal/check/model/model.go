package model

import wsq "github.com/worksteal/wsq"

// Deque is a sequential work-stealing queue: items in a slice, oldest first.
// It is not safe for concurrent use. The zero value is an empty unbounded
// Deque.
type Deque[T any] struct {
	items []T // items[0] is the oldest, items[len-1] the newest
	head  int // items[:head] have been stolen and cleared; compacted lazily
	cap   int // maximum number of items, or 0 for unbounded
}

// New returns an empty Deque that holds at most capacity items, or any
// number when capacity is 0. It panics if capacity is negative.
func New[T any](capacity int) *Deque[T] {
	if capacity < 0 {
		panic("model: negative capacity")
	}
	return &Deque[T]{cap: capacity}
}

// Cap returns the capacity given to New, or 0 for an unbounded Deque.
func (d *Deque[T]) Cap() int { return d.cap }

// Len returns the number of items.
func (d *Deque[T]) Len() int { return len(d.items) - d.head }

// Push adds v as the newest item. It reports false if the Deque is full.
func (d *Deque[T]) Push(v T) bool {
	if d.cap > 0 && d.Len() >= d.cap {
		return false
	}
	d.compact(1)
	d.items = append(d.items, v)
	return true
}

// PushBatch adds the longest prefix of vs that fits, vs[0] first, and
// returns its length.
func (d *Deque[T]) PushBatch(vs []T) int {
	n := len(vs)
	if d.cap > 0 {
		n = min(n, d.cap-d.Len())
	}
	if n <= 0 {
		return 0
	}
	d.compact(n)
	d.items = append(d.items, vs[:n]...)
	return n
}

// Pop removes and returns the newest item.
func (d *Deque[T]) Pop() (T, bool) {
	var zero T
	if d.Len() == 0 {
		return zero, false
	}
	last := len(d.items) - 1
	v := d.items[last]
	d.items[last] = zero
	d.items = d.items[:last]
	return v, true
}

// Steal removes and returns the oldest item.
func (d *Deque[T]) Steal() (T, bool) {
	var zero T
	if d.Len() == 0 {
		return zero, false
	}
	v := d.items[d.head]
	d.items[d.head] = zero
	d.head++
	return v, true
}

// StealBatch removes wsq.StealCount(d.Len(), p) items from the old end and
// appends them to dst, oldest first. It panics, before changing anything, if
// p is not a valid proportion.
func (d *Deque[T]) StealBatch(dst []T, p float64) []T {
	return d.StealN(dst, wsq.StealCount(d.Len(), p))
}

// StealN removes the k oldest items (all of them if k exceeds Len) and
// appends them to dst, oldest first.
func (d *Deque[T]) StealN(dst []T, k int) []T {
	k = min(k, d.Len())
	if k <= 0 {
		return dst
	}
	dst = append(dst, d.items[d.head:d.head+k]...)
	clear(d.items[d.head : d.head+k])
	d.head += k
	return dst
}

// Items appends the items to dst, oldest first, without removing them.
func (d *Deque[T]) Items(dst []T) []T { return append(dst, d.items[d.head:]...) }

// compact makes room for n more items, reusing the stolen prefix when it is
// at least half of the slice, so a long-lived Deque that is stolen from does
// not grow without bound.
func (d *Deque[T]) compact(n int) {
	if d.head == 0 || len(d.items)+n <= cap(d.items) || d.head < len(d.items)/2 {
		return
	}
	live := copy(d.items, d.items[d.head:])
	clear(d.items[live:])
	d.items = d.items[:live]
	d.head = 0
}
