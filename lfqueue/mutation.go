package lfqueue

// mutation names a deliberate bug that the interleaving checker's self-test
// (interleave_mutation_test.go, build tag wsqcheck) switches on, one at a
// time, to prove that the checker finds it. In normal builds mutated is a
// constant false (mutation_off.go), so the compiler removes every mutated
// branch and the queue's code is unchanged.
type mutation int

const (
	// A thief pairs a published but uncounted header with ctl: it skips
	// the fallback to h.prev.
	mutStealUncountedHeader mutation = iota + 1
	// A thief reserves with a plain store of ctl instead of the CAS that
	// validates the value it computed from: no consistency check.
	mutStealBlindReserve
	// A thief puts the cut's next back right after swapping it to nil:
	// it does not detach the stolen part.
	mutStealNoDetach
	// The skip-count steal trusts the node it cut at last time without
	// comparing epochs.
	mutSkipCountNoEpoch
	// The owner counts a push in ctl before it publishes the header.
	mutCountBeforePublish
	// The owner does not unlink its in-flight batch from the nodes a thief
	// reserved while the push was in flight.
	mutKeepInFlightLink
	// Pop follows the popped node's next even when its claim left nothing.
	// The checker proves this one harmless: publish never links a push
	// onto own.head when the size is zero.
	mutPopFollowsNext
)
