package wsq

// Parcel holds items taken from a queue by Handoff.StealParcel on their way
// to another queue. A Parcel belongs to one goroutine at a time. That is
// the thief that stole it, then whoever it hands the parcel to. The
// hand-over must order the two, as a channel does.
type Parcel[T any] interface {
	// Len returns the number of items in the parcel.
	Len() int

	// Drain empties the parcel. It appends the parcel's items to dst,
	// oldest first, and returns the extended slice.
	Drain(dst []T) []T
}

// Handoff is implemented by queues whose proportional steal can hand the
// stolen items to another queue without copying them. The other queue must
// be of the same implementation. lfqueue, for example, hands over a linked
// sub-list. A scheduler that moves work from a busy worker to an idle one
// checks for Handoff with a type assertion. Otherwise it falls back to
// StealBatch and PushBatch.
type Handoff[T any] interface {
	Queue[T]

	// StealParcel removes about proportion p of the items from the old end
	// in one operation, as StealBatch does. It returns them as a Parcel. It
	// returns nil when it takes nothing. As for StealBatch, that happens
	// only when the queue was empty at some instant during the call: it
	// retries contention. It panics unless 0 < p <= 1. Any goroutine may
	// call it.
	StealParcel(p float64) Parcel[T]

	// PushParcel adds all items of the parcel, oldest first, as one
	// operation. It empties the parcel and returns how many items it added.
	// A parcel stolen from a queue of the same implementation is taken over
	// whole (for lfqueue in constant time). Any other parcel is copied. Only
	// the owner may call it.
	PushParcel(p Parcel[T]) int
}
