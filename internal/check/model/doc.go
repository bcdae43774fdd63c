// Package model is the executable specification of wsq.Queue: a plain slice
// that does, one call at a time, exactly what the interface documentation
// says.
//
// It is the tests' oracle, and only theirs: the conformance suite
// (internal/check/queuetest) compares every implementation against it and its
// linearizability checker replays histories on it. No implementation is
// built on it (mutexq, the baseline, keeps its own ring), so a mistake here
// cannot hide the same mistake in a queue.
package model
