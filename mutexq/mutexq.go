package mutexq

import (
	"fmt"
	"sync"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/model"
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
	d  *model.Deque[T]
}

var _ wsq.Queue[int] = (*Queue[int])(nil)

// New returns an empty unbounded queue.
func New[T any]() *Queue[T] { return &Queue[T]{d: model.New[T](0)} }

// NewBounded returns an empty queue that holds at most capacity items. It
// panics unless capacity is at least 1; New makes an unbounded queue.
func NewBounded[T any](capacity int) *Queue[T] {
	if capacity < 1 {
		panic(fmt.Sprintf("mutexq: capacity %d is not positive", capacity))
	}
	return &Queue[T]{d: model.New[T](capacity)}
}

// Push adds v as the newest item and reports false only if a bounded queue
// is full.
func (q *Queue[T]) Push(v T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.Push(v)
}

// PushBatch adds the longest prefix of vs that fits, under one acquisition
// of the lock, and returns its length.
func (q *Queue[T]) PushBatch(vs []T) int {
	if len(vs) == 0 {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.PushBatch(vs)
}

// Pop removes and returns the newest item.
func (q *Queue[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.Pop()
}

// Steal removes and returns the oldest item. It reports false only when the
// queue is empty (the operation takes effect under the lock); it waits for
// the lock.
func (q *Queue[T]) Steal() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.Steal()
}

// StealBatch removes wsq.StealCount(Len(), p) items from the old end under
// one acquisition of the lock and appends them to dst, oldest first. It
// panics, before taking the lock, unless 0 < p <= 1.
func (q *Queue[T]) StealBatch(dst []T, p float64) []T {
	steal.MustProportion(p)
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.StealBatch(dst, p)
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
	v, ok := q.d.Steal()
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
	if q.d.Len() == 0 {
		return dst, wsq.Empty
	}
	return q.d.StealBatch(dst, p), wsq.Taken
}

// Contract reports what the queue promises where wsq.Queue lets queues
// differ: every method takes the lock (Locking), and a bounded queue has a
// Capacity. Any goroutine may call it.
func (q *Queue[T]) Contract() wsq.Contract {
	return wsq.Contract{Capacity: q.d.Cap(), Locking: true}
}

// Len returns the number of items.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.d.Len()
}
