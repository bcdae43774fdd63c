// Package mutexq is the work-stealing queue most Go programs would write
// first: a slice behind a sync.Mutex.
//
// It is the baseline of the module's benchmarks. Every result for the
// lock-free queues is shown beside this one so that it also answers the
// question a user should ask first: is lock-freedom worth it here? Where the
// owner and the thieves rarely meet, an uncontended mutex costs about as much
// as the atomic operations of a lock-free queue, and this queue is a fine
// choice.
//
// The queue semantics are those of internal/model, the executable
// specification the conformance suite checks every implementation against;
// this package adds only the lock.
package mutexq
