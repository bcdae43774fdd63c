package tfdeque

import (
	"fmt"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
	"github.com/worksteal/wsq/internal/steal"
)

// Taskflow v4's default capacities (TF_DEFAULT_UNBOUNDED_TASK_QUEUE_LOG_SIZE
// and TF_DEFAULT_BOUNDED_TASK_QUEUE_LOG_SIZE in taskflow/core/wsq.hpp).
const (
	// DefaultUnboundedCapacity is the initial capacity of NewUnbounded: 2^10.
	DefaultUnboundedCapacity = 1 << 10
	// DefaultBoundedCapacity is the capacity of NewBounded: 2^8.
	DefaultBoundedCapacity = 1 << 8
)

// PushStyle selects how PushBatch pushes a batch.
type PushStyle int

const (
	// PerItem pushes a batch one item at a time, each item published with
	// its own release store, as the paper's Taskflow baseline did (it predates
	// bulk_push). It is the default.
	PerItem PushStyle = iota
	// Bulk pushes a batch as Taskflow v4's bulk_push (unbounded) and
	// try_bulk_push (bounded) do: all the slot stores, then one publication.
	Bulk
)

// String returns "per-item" or "bulk".
func (s PushStyle) String() string {
	switch s {
	case PerItem:
		return "per-item"
	case Bulk:
		return "bulk"
	}
	return fmt.Sprintf("PushStyle(%d)", int(s))
}

// An Option configures a Deque at construction.
type Option func(*options)

type options struct {
	capacity int
	style    PushStyle
}

// WithCapacity sets the capacity of a bounded deque, or the initial capacity
// of an unbounded one (Taskflow's LogSize, as a number of slots). It must be
// a power of two of at least 2 (Taskflow's BoundedWSQ requires it; this
// package asks it of both kinds) and at most chaselev.MaxCapacity.
func WithCapacity(n int) Option { return func(o *options) { o.capacity = n } }

// WithPushStyle selects how PushBatch pushes a batch: PerItem (the
// default) or Bulk.
func WithPushStyle(s PushStyle) Option { return func(o *options) { o.style = s } }

// Deque is a work-stealing deque with the semantics and defaults of C++
// Taskflow's UnboundedWSQ or BoundedWSQ (taskflow/core/wsq.hpp, v4).
//
// A Deque has one owner, the goroutine that calls Push, PushBatch,
// PushPerItem, PushBulk and Pop; they must never be called by two goroutines at
// once. Steal, StealBatch, TrySteal and TryStealBatch may be called by any
// goroutine, concurrently with the owner and with each other; a TrySteal
// that loses a race takes nothing, as Taskflow's steal does, and Steal
// tries again. Len and Cap may be called by any goroutine. The owner never
// waits for a thief.
//
// Items are stored by value and never torn. In the terms of the Go memory
// model, the push that adds an item x synchronizes before the Pop or steal
// that returns x, and no item is returned twice. A push publishes with a
// release store, as Taskflow's does, which is not ordered before the
// owner's later loads (see package chaselev's Deque).
//
// Use NewUnbounded or NewBounded to create a Deque; the zero value is not
// usable. A Deque must not be copied after first use.
type Deque[T any] struct {
	d     *chaselev.Deque[T]
	style PushStyle
}

var _ wsq.Queue[int] = (*Deque[int])(nil)

// NewUnbounded returns an empty deque modelled on Taskflow's UnboundedWSQ:
// it starts with DefaultUnboundedCapacity slots (or WithCapacity's) and
// grows by doubling when a Push finds it full, or, for a bulk push of N
// items that does not fit, to the next power of two of at least C+N, where
// C is its capacity. Its PushBatch is PushPerItem unless WithPushStyle says
// otherwise. It panics on an invalid capacity.
func NewUnbounded[T any](opts ...Option) *Deque[T] {
	o := apply(DefaultUnboundedCapacity, opts)
	return &Deque[T]{d: chaselev.NewUnbounded[T](o.capacity), style: o.style}
}

// NewBounded returns an empty deque modelled on Taskflow's BoundedWSQ: it
// holds DefaultBoundedCapacity items (or WithCapacity's) and refuses what
// does not fit: Push reports false, and PushBatch and PushBulk take the
// longest prefix that fits, like try_push and try_bulk_push. Its PushBatch
// is PushPerItem unless WithPushStyle says otherwise. It panics on an invalid
// capacity.
func NewBounded[T any](opts ...Option) *Deque[T] {
	o := apply(DefaultBoundedCapacity, opts)
	return &Deque[T]{d: chaselev.NewBounded[T](o.capacity), style: o.style}
}

func apply(capacity int, opts []Option) options {
	o := options{capacity: capacity}
	for _, opt := range opts {
		opt(&o)
	}
	if c := o.capacity; c < 2 || c&(c-1) != 0 || c > chaselev.MaxCapacity {
		panic(fmt.Sprintf("tfdeque: capacity %d is not a power of two between 2 and %d", c, chaselev.MaxCapacity))
	}
	if o.style != PerItem && o.style != Bulk {
		panic(fmt.Sprintf("tfdeque: unknown %v", o.style))
	}
	return o
}

// Contract reports what the deque promises where wsq.Queue lets queues
// differ: those of package chaselev's deque (SerializedThieves,
// InexactStealBatch, and a Capacity when bounded), a StealBatch that is a
// loop of steals (LoopedStealBatch), and, with PerItem, a PushBatch that
// publishes item by item (LoopedPushBatch). Any goroutine may call it.
func (q *Deque[T]) Contract() wsq.Contract {
	c := q.d.Contract()
	c.LoopedStealBatch = true
	c.LoopedPushBatch = q.style == PerItem
	return c
}

// Style returns how PushBatch pushes a batch. Any goroutine may call it.
func (q *Deque[T]) Style() PushStyle { return q.style }

// Bounded reports whether the deque was made by NewBounded. Any goroutine
// may call it.
func (q *Deque[T]) Bounded() bool { return q.d.Bounded() }

// Cap returns the capacity: Taskflow's capacity(). Any goroutine may call
// it.
func (q *Deque[T]) Cap() int { return q.d.Cap() }

// Len returns the number of items: Taskflow's size(). Under concurrency it
// is a snapshot that may be stale as soon as it returns. Any goroutine may
// call it.
func (q *Deque[T]) Len() int { return q.d.Len() }

// Push adds v as the newest item, with one release store: Taskflow's push
// (unbounded, which doubles the capacity when full) or try_push (bounded,
// which reports false when full and leaves the deque unchanged). It must
// only be called by the owner; it does not block.
func (q *Deque[T]) Push(v T) bool { return q.d.Push(v) }

// PushBatch adds the items of vs, vs[len(vs)-1] becoming the newest, by
// PushPerItem or PushBulk as the deque's Style says, and returns how many
// it took: len(vs), unless a bounded deque fills up, in which case it takes
// the longest prefix that fits. With PerItem a thief may see part of the
// batch before the rest is pushed. PushBatch does not retain vs. It must
// only be called by the owner; it does not block.
func (q *Deque[T]) PushBatch(vs []T) int {
	if q.style == Bulk {
		return q.PushBulk(vs)
	}
	return q.PushPerItem(vs)
}

// PushPerItem pushes the items of vs one at a time with Push, stopping at the
// first that does not fit, and returns how many it took. It is how the
// paper's Taskflow baseline pushed a batch. It must only be called by the
// owner; it does not block.
func (q *Deque[T]) PushPerItem(vs []T) int {
	for i, v := range vs {
		if !q.d.Push(v) {
			return i
		}
	}
	return len(vs)
}

// PushBulk pushes the items of vs as Taskflow v4's bulk_push (unbounded)
// and try_bulk_push (bounded) do: it writes the slots and publishes them
// with one release store, so a thief sees none or all of them, and returns
// how many it took (the longest prefix that fits, for a bounded deque). An
// unbounded deque that cannot hold the batch first grows to the next power
// of two of at least C+N. It must only be called by the owner; it does not
// block.
func (q *Deque[T]) PushBulk(vs []T) int {
	if n := len(vs); n > 0 && !q.d.Bounded() {
		if c := q.d.Cap(); q.d.Len()+n > c {
			q.d.Reserve(c + n) // Taskflow's std::bit_ceil(C + N)
		}
	}
	return q.d.PushBatch(vs)
}

// Pop removes and returns the newest item: Taskflow's pop. It reports false
// when the deque is empty. It must only be called by the owner; it does not
// block.
func (q *Deque[T]) Pop() (T, bool) { return q.d.Pop() }

// TrySteal removes and returns the oldest item with one claiming CAS:
// Taskflow's steal, which gives up on a lost race. It reports wsq.Taken, or
// takes nothing and reports wsq.Empty when the deque is empty (at its load
// of the tail) or wsq.Contended when it loses a race with another goroutine
// (a lost CAS, or another thief copying an item out), without retrying.
// Any goroutine may call it; it does not block.
func (q *Deque[T]) TrySteal() (T, wsq.StealResult) { return q.d.TrySteal() }

// Steal removes and returns the oldest item, retrying a lost race until it
// takes an item or finds the deque empty, as a Taskflow worker loops over
// steal: it reports false only when the deque is empty. It is chaselev's
// Steal, which waits (yielding the processor) for a thief copying an item
// out. Any goroutine may call it; it never waits for the owner.
func (q *Deque[T]) Steal() (T, bool) { return q.d.Steal() }

// StealBatch takes wsq.StealCount(Len(), p) items from the old end (at
// least one attempt even when Len says none) with a loop of Steal calls,
// appending them to dst oldest first, and stops early at the first Steal
// that finds the deque empty. Taskflow has no bulk steal; this loop is how
// the paper's Taskflow baseline stole a proportion. Under concurrency the
// batch is not one operation: other operations may interleave with its
// steals. It returns dst unchanged only when the deque was empty at some
// instant. It panics, before it touches the deque, unless 0 < p <= 1. Any
// goroutine may call it; it never waits for the owner.
func (q *Deque[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	for k := max(wsq.StealCount(q.d.Len(), p), 1); k > 0; k-- {
		v, ok := q.d.Steal()
		if !ok {
			break
		}
		dst = append(dst, v)
	}
	return dst
}

// TryStealBatch is StealBatch as a loop of TrySteal calls: it stops at the
// first that takes nothing, and reports wsq.Taken if it took any item,
// otherwise the first attempt's wsq.Empty or wsq.Contended (with dst
// unchanged). It panics, before it touches the deque, unless 0 < p <= 1.
// Any goroutine may call it; it does not block.
func (q *Deque[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	n := len(dst)
	r := wsq.Empty
	for k := max(wsq.StealCount(q.d.Len(), p), 1); k > 0; k-- {
		var v T
		if v, r = q.d.TrySteal(); r != wsq.Taken {
			break
		}
		dst = append(dst, v)
	}
	if len(dst) > n {
		return dst, wsq.Taken
	}
	return dst, r
}
