package wsq

import "strconv"

// StealResult says what one steal attempt, TrySteal or TryStealBatch, did.
// It tells a scheduler whether to look elsewhere (Empty), to run what it
// took (Taken), or to try again, here or elsewhere (Contended), which is
// what termination detection and back-off need: only Empty shows that the
// queue had nothing to give.
type StealResult uint8

const (
	// Empty says that the attempt took nothing because the queue was
	// empty at the instant the attempt took effect: the load that saw it
	// empty (every queue documents which load). The queue may have
	// received items since.
	Empty StealResult = iota

	// Taken says that the attempt took at least one item, as Steal or
	// StealBatch would have.
	Taken

	// Contended says that the attempt took nothing because it met another
	// goroutine: it lost a compare-and-swap to the owner or to another
	// thief, found another thief in the middle of its steal, or found the
	// thieves' lock held. It says nothing about the queue's length, which
	// may still hold items: try again, or elsewhere. A Contended attempt
	// changes nothing that another operation can observe; it takes effect
	// nowhere, as if it had not been made.
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
