package wsq

import "strconv"

// StealResult says what one steal attempt, TrySteal or TryStealBatch, did.
// It tells a scheduler what to do next:
//
//	result     the scheduler
//	Empty      looks elsewhere
//	Taken      runs what it took
//	Contended  tries again, here or elsewhere
//
// Termination detection and back-off need that. Only Empty shows that the
// queue had nothing to give.
type StealResult uint8

const (
	// Empty says that the attempt took nothing because the queue was
	// empty at the instant the attempt took effect. That instant is the
	// load that saw it empty (every queue documents which load). The queue
	// may have received items since.
	Empty StealResult = iota

	// Taken says that the attempt took at least one item, as Steal or
	// StealBatch would have.
	Taken

	// Contended says that the attempt took nothing because it met another
	// goroutine. It did one of these:
	//   - lost a compare-and-swap to the owner or to another thief;
	//   - found another thief in the middle of its steal;
	//   - found the thieves' lock held.
	//
	// It says nothing about the queue's length: the queue may still hold
	// items. Try again, or elsewhere. A Contended attempt changes nothing
	// that another operation can observe. It takes effect nowhere, as if it
	// had not been made.
	Contended
)

// String returns "empty", "taken" or "contended".
func (r StealResult) String() string {
	switch r {
	case Empty:
		return "empty"
	case Taken:
		return "taken"
	case Contended:
		return "contended"
	}
	return "StealResult(" + strconv.Itoa(int(r)) + ")"
}
