package wsq

import (
	"math"

	"github.com/worksteal/wsq/internal/steal"
)

// Queue is a work-stealing queue of items of type T.
//
// A Queue has one owner: the single goroutine that may call Push, PushBatch
// and Pop. Owner methods must never be called by two goroutines at once; the
// race detector reports such misuse, and the queue's behaviour under it is
// undefined. Steal and StealBatch are thief methods and may be called by any
// goroutine, concurrently with the owner and with each other (an
// implementation built for a single thief serializes its thieves, as its
// documentation says); so are TrySteal and TryStealBatch, their one-attempt
// forms. Len may be called by any goroutine.
//
// Items are stored by value and are never torn: a multi-word T comes out
// exactly as it went in. In the terms of the Go memory model, the Push or
// PushBatch that adds an item x synchronizes before the Pop, Steal,
// StealBatch, TrySteal or TryStealBatch that returns x, and no item is
// returned twice.
//
// Methods do not block, except as the queue's Contract says: an
// implementation that serializes its thieves may make one thief's Steal or
// StealBatch wait for another thief, and one that locks may make any call
// wait (except TrySteal and TryStealBatch, which never wait for a thief).
//
// Steal and StealBatch take nothing only from an empty queue: when they
// meet another goroutine they try again, so a false result or an unchanged
// dst means that the queue was empty at some instant during the call. (A
// queue whose Contract says OwnerHolds counts only the items its owner has
// published; Len does the same.) A
// thief that wants to see contention instead, to back off or to move on to
// another victim, calls TrySteal or TryStealBatch, which make one attempt
// and report a StealResult.
//
// The rules below are the strictest form of each operation; an
// implementation may relax some of them, and says which in its Contract:
// it may be bounded, push or steal a batch one item at a time, fix a batch
// steal's count before the steal takes effect, or make callers take turns.
type Queue[T any] interface {
	// Push adds v at the owner's end. It reports false, and leaves the queue
	// unchanged, only when a bounded queue is full (Contract().Capacity > 0).
	// The queue does not keep a refused item: a caller that ignores a false
	// result has dropped v, which no Pop or Steal will return, so a program
	// that may meet a bounded queue checks the result and keeps v to push
	// again or handle itself. Only the owner may call it.
	Push(v T) bool

	// PushBatch adds the items of vs as if by Push(vs[0]), Push(vs[1]), ...
	// in order, so vs[len(vs)-1] becomes the newest item, but publishes them
	// as one operation: a thief sees none or all of them (unless the
	// Contract says LoopedPushBatch). It returns how many
	// items it took: len(vs), unless a bounded queue fills up, in which case
	// it takes the longest prefix of vs that fits. The items past the count,
	// vs[n:] for a result n, stay the caller's: one that ignores a short
	// count has dropped them, as with an ignored false from Push. A nil or
	// empty vs takes nothing and returns 0. PushBatch does not retain vs.
	// Only the owner may call it.
	PushBatch(vs []T) int

	// Pop removes and returns the newest item (last in, first out). It
	// reports false when the queue is empty. Only the owner may call it.
	Pop() (T, bool)

	// Steal removes and returns the oldest item (first in, first out). It
	// reports false only when the queue was empty at some instant during
	// the call: a steal that meets another goroutine tries again. Any
	// goroutine may call it.
	Steal() (T, bool)

	// StealBatch removes about proportion p of the items from the old end in
	// one operation (a loop of steals if the Contract says LoopedStealBatch)
	// and appends them to dst, oldest first, returning the extended slice.
	// The count follows StealCount: when nothing races, a non-empty queue
	// gives StealCount(Len(), p) items, at least one, and under concurrency
	// exactly StealCount of the length at the instant the steal takes
	// effect, unless the Contract says InexactStealBatch. It takes nothing,
	// and returns dst unchanged, only when the queue was empty at some
	// instant during the call: a steal that meets another goroutine tries
	// again. p must satisfy 0 < p <= 1; any other value (zero, negative,
	// above one, NaN or an infinity) makes StealBatch panic before it
	// touches the queue, so no item is lost. Any goroutine may call it.
	StealBatch(dst []T, p float64) []T

	// TrySteal makes one attempt at Steal. It never retries a race it
	// lost and never waits for another thief (where thieves take turns
	// through a lock, it reports Contended when the lock is held), although
	// a Locking queue may make it wait for the owner. It returns the oldest
	// item and Taken, or the zero T and Empty (the queue was empty at the
	// instant the attempt took effect) or Contended (it met another
	// goroutine and took nothing). With no other goroutine at work it
	// never reports Contended. Any goroutine may call it.
	TrySteal() (T, StealResult)

	// TryStealBatch makes one attempt at StealBatch(dst, p), as TrySteal
	// makes one at Steal. When it reports Taken it has appended what
	// StealBatch would have, by the same count rules; when it reports
	// Empty or Contended it returns dst unchanged. It panics, before it
	// touches the queue, for the proportions that make StealBatch panic.
	// Any goroutine may call it.
	TryStealBatch(dst []T, p float64) ([]T, StealResult)

	// Len returns the number of items in the queue. Under concurrency it is
	// a snapshot that may be stale as soon as it returns, but never less
	// than zero, more than the queue can hold, or more than was pushed. Any
	// goroutine may call it.
	Len() int

	// Contract says which of the rules above the queue relaxes. It returns
	// the same value for the queue's whole life. Any goroutine may call it.
	Contract() Contract
}

// StealCount returns how many of n items a proportional steal of p takes:
// p·n rounded to the nearest integer (halves away from zero), but at least one
// when n > 0 and never more than n. It returns 0 when n <= 0.
//
// For example, p = 0.5 takes 2 of 3 items (as the Go runtime's steal-half
// does), p = 0.1 takes 1 of 4, and p = 0.6 takes 6,000 of 10,000.
//
// StealCount panics unless 0 < p <= 1; see ValidProportion.
func StealCount(n int, p float64) int {
	steal.MustProportion(p)
	if n <= 0 {
		return 0
	}
	k := int(math.Round(p * float64(n)))
	if k < 1 {
		return 1
	}
	if k > n {
		return n
	}
	return k
}

// ValidProportion reports whether p is a valid steal proportion: a number
// with 0 < p <= 1. NaN and the infinities are not valid. A proportional
// steal (StealBatch, Handoff.StealParcel) panics, before it touches the
// queue, when it is given a proportion that is not valid.
func ValidProportion(p float64) bool { return steal.Valid(p) }
