// Package model is the executable specification of wsq.Queue: a plain slice
// that does, one call at a time, exactly what the interface documentation
// says.
//
// It is the one copy of the queue semantics in the project. The conformance
// suite (internal/queuetest) compares every implementation against it, its
// linearizability checker replays histories on it, and package mutexq puts it
// behind a sync.Mutex as the baseline queue.
package model
