// Package mutexq is the work-stealing queue most Go programs would write
// first: items in a slice behind a sync.Mutex.
//
// It is the baseline of the module's benchmarks. Every result for the
// lock-free queues is shown beside this one so that it also answers the
// question a user should ask first: is lock-freedom worth it here? Where the
// owner and the thieves rarely meet, an uncontended mutex costs about as much
// as the atomic operations of a lock-free queue, and this queue is a fine
// choice.
//
// The slice is used as a ring: the owner pushes and pops at the newest end,
// thieves take from the oldest, and a full ring is replaced by one twice as
// long, as append grows a slice. Every method does its work under the lock,
// so each takes effect at one instant, with the queue exactly as a
// sequential reading of the wsq.Queue documentation says.
//
// # Memory
//
// A queue holds a ring of a power of two slots, at least as many as the
// most items it ever held at once (at least 8 once anything was pushed); it
// does not shrink. A removed item's slot is cleared, so the queue keeps no
// removed item alive.
package mutexq
