package wsq

import (
	"math"

	"github.com/worksteal/wsq/internal/steal"
)

// Queue is a work-stealing queue of items of type T.
//
// A Queue has one owner and any number of thieves. Who may call what:
//
//	methods                        callers
//	Push, PushBatch, Pop           the owner only
//	Steal, StealBatch, TrySteal,   any goroutine, concurrently with the
//	TryStealBatch                  owner and with each other
//	Len, Contract                  any goroutine
//
// Owner methods must never be called by two goroutines at once. The race
// detector reports such misuse. The queue's behaviour under it is
// undefined. An implementation built for a single thief serializes its
// thieves, as its documentation says. TrySteal and TryStealBatch are the
// one-attempt forms of Steal and StealBatch.
//
// Items are stored by value and are never torn: a multi-word T comes out
// exactly as it went in. In the terms of the Go memory model, the Push or
// PushBatch that adds an item x synchronizes before the Pop, Steal,
// StealBatch, TrySteal or TryStealBatch that returns x. No item is
// returned twice.
//
// Methods do not block, except as the queue's Contract says:
//   - An implementation that serializes its thieves may make one thief's
//     Steal or StealBatch wait for another thief.
//   - One that locks may make any call wait.
//   - Even then, TrySteal and TryStealBatch never wait for a thief.
//
// Steal and StealBatch take nothing only from an empty queue. When they
// meet another goroutine they try again. So a false result or an unchanged
// dst means that the queue was empty at some instant during the call. (A
// queue whose Contract says OwnerHolds counts only the items its owner has
// published; Len does the same.) A thief may want to see contention
// instead, to back off or to move on to another victim. It calls TrySteal
// or TryStealBatch, which make one attempt and report a StealResult.
//
// The rules below are the strictest form of each operation. An
// implementation may relax some of them, and says which in its Contract:
//
//	it may                                        Contract field
//	be bounded                                    Capacity
//	push a batch one item at a time               LoopedPushBatch
//	steal a batch one item at a time              LoopedStealBatch
//	fix a batch steal's count before it
//	takes effect                                  InexactStealBatch
//	make thieves take turns                       SerializedThieves
//	make every caller take turns                  Locking
//	hold some of the owner's items from thieves   OwnerHolds
type Queue[T any] interface {
	// Push adds v at the owner's end. It reports false, and leaves the queue
	// unchanged, only when a bounded queue is full (Contract().Capacity > 0).
	// The queue does not keep a refused item. A caller that ignores a false
	// result has dropped v: no Pop or Steal will return it. So a program
	// that may meet a bounded queue checks the result. It keeps v to push
	// again or to handle itself. Only the owner may call it.
	Push(v T) bool

	// PushBatch adds the items of vs as if by Push(vs[0]), Push(vs[1]),
	// and so on in order: vs[len(vs)-1] becomes the newest item. But it
	// publishes them as one operation: a thief sees none or all of them
	// (unless the Contract says LoopedPushBatch).
	//
	// It returns how many items it took: len(vs), unless a bounded queue
	// fills up. Then it takes the longest prefix of vs that fits. The items
	// past the count, vs[n:] for a result n, stay the caller's. A caller
	// that ignores a short count has dropped them, as with an ignored false
	// from Push. A nil or empty vs takes nothing and returns 0. PushBatch
	// does not retain vs. Only the owner may call it.
	PushBatch(vs []T) int

	// Pop removes and returns the newest item (last in, first out). It
	// reports false when the queue is empty. Only the owner may call it.
	Pop() (T, bool)

	// Steal removes and returns the oldest item (first in, first out). It
	// reports false only when the queue was empty at some instant during
	// the call. A steal that meets another goroutine tries again. Any
	// goroutine may call it.
	Steal() (T, bool)

	// StealBatch removes about proportion p of the items from the old end
	// in one operation. (It is a loop of steals if the Contract says
	// LoopedStealBatch.) It appends them to dst, oldest first, and returns
	// the extended slice.
	//
	// The count follows StealCount. When nothing races, a non-empty queue
	// gives StealCount(Len(), p) items, at least one. Under concurrency it
	// gives exactly StealCount of the length at the instant the steal
	// takes effect, unless the Contract says InexactStealBatch.
	//
	// It takes nothing, and returns dst unchanged, only when the queue was
	// empty at some instant during the call. A steal that meets another
	// goroutine tries again. p must satisfy 0 < p <= 1. Any other value
	// (zero, negative, above one, NaN or an infinity) makes StealBatch
	// panic before it touches the queue, so no item is lost. Any goroutine
	// may call it.
	StealBatch(dst []T, p float64) []T

	// TrySteal makes one attempt at Steal. It never retries a race it
	// lost, and never waits for another thief. Where thieves take turns
	// through a lock, it reports Contended when the lock is held. A
	// Locking queue may still make it wait for the owner. It returns:
	//
	//	v, Taken           the oldest item
	//	zero T, Empty      the queue was empty when the attempt took effect
	//	zero T, Contended  it met another goroutine and took nothing
	//
	// With no other goroutine at work it never reports Contended. Any
	// goroutine may call it.
	TrySteal() (T, StealResult)

	// TryStealBatch makes one attempt at StealBatch(dst, p), as TrySteal
	// makes one at Steal. When it reports Taken, it has appended what
	// StealBatch would have, by the same count rules. When it reports Empty
	// or Contended, it returns dst unchanged. It panics, before it touches
	// the queue, for the proportions that make StealBatch panic. Any
	// goroutine may call it.
	TryStealBatch(dst []T, p float64) ([]T, StealResult)

	// Len returns the number of items in the queue. Under concurrency it is
	// a snapshot that may be stale as soon as it returns. It is never less
	// than zero, more than the queue can hold, or more than was pushed. Any
	// goroutine may call it.
	Len() int

	// Contract says which of the rules above the queue relaxes. It returns
	// the same value for the queue's whole life. Any goroutine may call it.
	Contract() Contract
}

// StealCount returns how many of n items a proportional steal of p takes.
// That is p·n rounded to the nearest integer (halves away from zero). But
// it is at least one when n > 0, and never more than n. It returns 0 when
// n <= 0. For example:
//
//	p     n        count
//	0.5   3        2 (as the Go runtime's steal-half takes)
//	0.1   4        1
//	0.6   10,000   6,000
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

// OneItem is the proportion of a steal that takes one item:
// StealCount(n, OneItem) is 1 for every n from 1 to 10^11. A scheduler
// whose steals should take one item at a time may set it.
const OneItem = 1e-12

// ValidProportion reports whether p is a valid steal proportion: a number
// with 0 < p <= 1. NaN and the infinities are not valid. A proportional
// steal (StealBatch, Handoff.StealParcel) given a proportion that is not
// valid panics before it touches the queue.
func ValidProportion(p float64) bool { return steal.Valid(p) }
