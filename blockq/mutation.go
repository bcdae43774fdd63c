package blockq

// mutation names a deliberate bug that the interleaving checker's self-test
// (build tag wsqcheck) switches on, one at a time, to prove that the checker
// finds it. In a normal build checking is the constant false, so every
// mutation site folds away and the code is the protocol.
type mutation int

const (
	mutNone mutation = iota
	// A thief reserves with a plain store of the control word instead of
	// the compare-and-swap that validates the value it computed from.
	mutReserveBlind
	// The owner pops with a plain store instead of a compare-and-swap.
	mutPopBlind
	// The owner counts a push with a plain store.
	mutCountBlind
	// A goroutine that moves the front makes the new front's word live
	// with a store rather than a compare-and-swap from unborn, so a late
	// helper overwrites a live word.
	mutHelpBlind
)

// activeMutation is the deliberate bug switched on, or mutNone. Only the
// checker's self-test sets it, while no queue is in use.
var activeMutation mutation

// on reports whether m is switched on: never, in a normal build.
func (m mutation) on() bool { return checking && activeMutation == m }
