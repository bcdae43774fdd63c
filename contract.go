package wsq

// Contract says what a queue promises where Queue lets implementations
// differ. Every queue of this module returns its own from Queue.Contract.
// Programs may consult it: a scheduler that must not wait uses it to refuse
// a locking queue, a test to know which races it may see. The module's
// conformance suite reads it to know what to hold each queue to.
//
// The zero Contract is the strictest. It describes an unbounded queue whose
// batch operations each take effect at one instant. A batch steal takes
// exactly the count StealCount gives. No operation waits for another
// goroutine. Steal and StealBatch take nothing only from an empty queue, or
// one whose owner holds every item (OwnerHolds). Every queue retries
// contention there, and reports it from TrySteal and TryStealBatch (see
// StealResult). Each field names a way in which a queue promises less.
type Contract struct {
	// Capacity is the most items the queue holds, or 0 if it grows without
	// bound. When a bounded queue is full, Push reports false and PushBatch
	// takes the longest prefix that fits.
	Capacity int

	// LoopedPushBatch says that PushBatch publishes its items one at a
	// time, so a thief may see part of a batch before the rest.
	LoopedPushBatch bool

	// LoopedStealBatch says that StealBatch is a loop of single steals
	// rather than one operation. Other operations may interleave with its
	// steals. So under concurrency the items it returns need never have
	// been the oldest part of the queue together, and it may stop early.
	LoopedStealBatch bool

	// InexactStealBatch says that a batch steal fixes its count from a
	// snapshot of the queue taken before the instant it takes effect. So
	// under concurrency it may take any number of items between one and the
	// queue's length. It need not take exactly StealCount of the length at
	// that instant. With no other goroutine at work it takes exactly
	// StealCount.
	InexactStealBatch bool

	// SerializedThieves says that thieves take turns, through a lock or
	// through a word only one thief at a time may hold. A thief's Steal or
	// StealBatch may wait for another thief. The owner never waits.
	// TrySteal and TryStealBatch never wait either: they report Contended.
	SerializedThieves bool

	// Locking says that every operation, the owner's included, takes a
	// lock, so any call may wait for another goroutine.
	Locking bool

	// OwnerHolds says that the owner may hold some of its newest items
	// where thieves cannot see them. It pushes and pops those without
	// synchronizing with anyone. Steals see only the published items:
	//   - Steal, StealBatch and Len act as if the held items were not in
	//     the queue.
	//   - A steal's count is StealCount of the published length.
	//   - A steal reports an empty queue when nothing is published.
	//
	// Pop sees every item. The owner holds items only after a Pop. After a
	// steal that found nothing published, the owner publishes all of them
	// by its next Push or Pop. The queue's documentation says exactly when
	// else it publishes.
	OwnerHolds bool
}
