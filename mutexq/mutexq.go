package mutexq

import (
	"fmt"
	"sync"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/steal"
)

// Queue is a work-stealing queue protected by one mutex. All methods are
// safe for concurrent use by any goroutines, although wsq.Queue allows only
// the owner to call Push, PushBatch and Pop. Every method takes the lock, so
// any method may block while another goroutine holds it, except TrySteal
// and TryStealBatch, which report wsq.Contended instead. Use New to create
// a Queue; a Queue must not be copied after first use.
type Queue[T any] struct {
	mu sync.Mutex

	// The fields below are guarded by mu.

	// ring holds the n items oldest first, from ring[head] on, wrapping
	// around at the end of the slice. Its length is zero (nothing pushed
	// yet) or a power of two, so that an index is reduced with a mask, and
	// at least n. Slots outside the n items hold the zero T, so that the
	// queue keeps no removed item alive.
	ring []T
	head int // index in ring of the oldest item; 0 while ring is empty
	n    int // number of items, at most capacity when capacity > 0
	// capacity is the most items the queue holds, or 0 for no limit. It is
	// fixed at construction.
	capacity int
}

var _ wsq.Queue[int] = (*Queue[int])(nil)

// minRing is the length of a queue's first ring.
const minRing = 8

// New returns an empty unbounded queue.
func New[T any]() *Queue[T] { return &Queue[T]{} }

// NewBounded returns an empty queue that holds at most capacity items. It
// panics unless capacity is at least 1; New makes an unbounded queue.
func NewBounded[T any](capacity int) *Queue[T] {
	if capacity < 1 {
		panic(fmt.Sprintf("mutexq: capacity %d is not positive", capacity))
	}
	return &Queue[T]{capacity: capacity}
}

// Push adds v as the newest item and reports false only if a bounded queue
// is full; the queue then does not keep v.
func (q *Queue[T]) Push(v T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.capacity > 0 && q.n >= q.capacity {
		return false
	}
	q.reserve(1)
	q.ring[q.slot(q.n)] = v
	q.n++
	return true
}

// PushBatch adds the longest prefix of vs that fits, under one acquisition
// of the lock, and returns its length; the items past it stay the caller's.
func (q *Queue[T]) PushBatch(vs []T) int {
	if len(vs) == 0 {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := len(vs)
	if q.capacity > 0 {
		k = min(k, q.capacity-q.n)
		if k == 0 {
			return 0
		}
	}
	q.reserve(k)
	a, b := q.span(q.n, k)
	copy(b, vs[copy(a, vs):k])
	q.n += k
	return k
}

// Pop removes and returns the newest item.
func (q *Queue[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if q.n == 0 {
		return zero, false
	}
	i := q.slot(q.n - 1)
	v := q.ring[i]
	q.ring[i] = zero
	q.n--
	return v, true
}

// Steal removes and returns the oldest item. It reports false only when the
// queue is empty (the operation takes effect under the lock); it waits for
// the lock.
func (q *Queue[T]) Steal() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stealOne()
}

// StealBatch removes wsq.StealCount(Len(), p) items from the old end under
// one acquisition of the lock and appends them to dst, oldest first. It
// panics, before taking the lock, unless 0 < p <= 1.
func (q *Queue[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stealN(dst, wsq.StealCount(q.n, p))
}

// TrySteal is Steal if the lock is free: it takes the lock with TryLock
// and reports wsq.Contended, without waiting, when another goroutine holds
// it (the owner, or another thief); otherwise it takes effect under the
// lock, reporting wsq.Taken or wsq.Empty. A Contended attempt changes
// nothing.
func (q *Queue[T]) TrySteal() (T, wsq.StealResult) {
	if !q.mu.TryLock() {
		var zero T
		return zero, wsq.Contended
	}
	defer q.mu.Unlock()
	v, ok := q.stealOne()
	if !ok {
		return v, wsq.Empty
	}
	return v, wsq.Taken
}

// TryStealBatch is StealBatch if the lock is free, as TrySteal is Steal: it
// returns dst unchanged and wsq.Contended when the lock is held. It panics,
// before it tries the lock, unless 0 < p <= 1.
func (q *Queue[T]) TryStealBatch(dst []T, p float64) ([]T, wsq.StealResult) {
	steal.MustProportion(p)
	if !q.mu.TryLock() {
		return dst, wsq.Contended
	}
	defer q.mu.Unlock()
	if q.n == 0 {
		return dst, wsq.Empty
	}
	return q.stealN(dst, wsq.StealCount(q.n, p)), wsq.Taken
}

// Contract reports what the queue promises where wsq.Queue lets queues
// differ: every method takes the lock (Locking), and a bounded queue has a
// Capacity. Any goroutine may call it.
func (q *Queue[T]) Contract() wsq.Contract {
	// capacity is fixed at construction: no lock needed.
	return wsq.Contract{Capacity: q.capacity, Locking: true}
}

// Len returns the number of items.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// The helpers below are called with q.mu held.

// slot returns the index in q.ring of the item i places after the oldest.
// q.ring must not be empty.
func (q *Queue[T]) slot(i int) int { return (q.head + i) & (len(q.ring) - 1) }

// span returns the slots of the k items (or free slots) that start i places
// after the oldest, in order: a, then b, which is empty unless the run
// wraps around the end of q.ring. It needs i+k <= len(q.ring).
func (q *Queue[T]) span(i, k int) (a, b []T) {
	if k == 0 {
		return nil, nil
	}
	start := q.slot(i)
	if end := start + k; end <= len(q.ring) {
		return q.ring[start:end], nil
	}
	return q.ring[start:], q.ring[:start+k-len(q.ring)]
}

// reserve makes room for k more items: if the ring is too small, it moves
// the items, oldest first, to the start of a new ring twice as long (or
// longer, for a large batch), as append grows a slice. The ring never
// shrinks, so the queue's memory is that of the most items it ever held,
// rounded up to a power of two.
func (q *Queue[T]) reserve(k int) {
	need := q.n + k
	if need <= len(q.ring) {
		return
	}
	size := max(minRing, 2*len(q.ring))
	for size < need {
		size *= 2
	}
	ring := make([]T, size)
	a, b := q.span(0, q.n)
	copy(ring[copy(ring, a):], b)
	q.ring, q.head = ring, 0
}

// stealOne removes and returns the oldest item.
func (q *Queue[T]) stealOne() (T, bool) {
	var zero T
	if q.n == 0 {
		return zero, false
	}
	v := q.ring[q.head]
	q.ring[q.head] = zero
	q.head = q.slot(1)
	q.n--
	return v, true
}

// stealN removes the k <= q.n oldest items and appends them to dst, oldest
// first.
func (q *Queue[T]) stealN(dst []T, k int) []T {
	a, b := q.span(0, k)
	dst = append(append(dst, a...), b...)
	clear(a)
	clear(b)
	if k > 0 {
		q.head = q.slot(k)
	}
	q.n -= k
	return dst
}
