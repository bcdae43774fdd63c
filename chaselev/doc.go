// Package chaselev provides Chase-Lev work-stealing deques on a ring buffer,
// bounded and unbounded, with a batch push that publishes once and a
// proportional batch steal that claims its items in one step.
//
// Use it when one goroutine produces and consumes its own work depth-first
// (Push and Pop at the newest end, last in first out) and other goroutines
// occasionally take the oldest work (Steal, StealBatch, or their one-attempt
// forms TrySteal and TryStealBatch). A Deque is the
// classic choice of work-stealing schedulers: the owner's push costs no
// locked instruction and its pop one, and they meet the thieves only on the
// last item or when a thief's batch steal is in progress (see Costs). Choose
// NewBounded for a fixed ring that refuses pushes when full (as the Go
// runtime's run queue does) and NewUnbounded for a ring that doubles when
// full. Package tfdeque builds C++ Taskflow's queues, the baselines of the
// module's benchmarks, on this one.
//
// # The algorithm
//
// The owner's Push and Pop are those of Lê, Pop, Cohen and Zappa Nardelli,
// "Correct and Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013),
// the algorithm Taskflow implements. Go's sync/atomic operations are all
// sequentially consistent, so the fences of the C11 version disappear into
// the atomic operations themselves, and on amd64 an atomic store is an XCHG:
// it costs as much as a CAS. Where the C11 version publishes with a release
// store (Push and PushBatch, and the stores that give tail back), this one
// does too, with the module's release store (a plain MOV on amd64, an STLR
// on arm64); the one store that must order itself before a later load, Pop's
// lowering of tail, stays a sequentially consistent store. See Costs below.
//
// Three things differ from the textbook deque, all forced by Go.
//
// Tear-free slots. A Chase-Lev thief reads its slot before the CAS that
// claims it and throws the value away if the CAS fails. In Go that
// speculative read is a data race that the race detector reports, and for a
// multi-word T (a struct, an interface, a string) it can observe a torn value
// while the owner overwrites the slot after wrapping around. Here a thief
// claims first and reads after, as Tokio's queue and sync.Pool's poolDequeue
// do: head packs two positions, the release frontier s and the claim
// frontier claim, and the thief at work owns the slots between them until it
// stores head = (claim, claim) again. The owner computes free slots from s,
// so it never writes a slot that a thief may still be reading, and all slot
// accesses are plain, typed reads and writes of T (no boxing, no per-slot
// atomics). The price is one atomic store per steal, to release, and turn
// taking among thieves: while one thief copies its items out, another's
// Steal or StealBatch waits for it (yielding the processor), and its
// TrySteal or TryStealBatch takes nothing and reports wsq.Contended. The
// owner never waits. A
// bounded deque of capacity C has a ring of 2C slots, so that the slots of
// claimed items (at most C) never make a push fail while fewer than C items
// are in the deque; an unbounded deque grows instead.
//
// A batch steal against a LIFO owner. The Go runtime and Tokio let a thief
// claim half of a queue with one CAS on head. That is safe only because
// their owners also take items from head with a CAS. A Chase-Lev owner pops
// from the other end without one whenever it sees head below the slot it
// pops, so between a thief's load of tail and its CAS the owner may pop
// items inside the range the thief is about to claim: both would return
// them. (For one item the textbook argument holds: the owner CASes for the
// last item, so Steal claims with one CAS.) StealBatch therefore announces
// itself first with a CAS on head, then loads tail, then commits its count
// with a second CAS. The owner's Pop stores tail and then loads head, so with
// sequentially consistent atomics either the thief's tail load sees the pop
// and counts without the popped item, or the pop sees the announcement and
// cancels it with a CAS, which makes the commit fail and the thief start
// again. A cancelled announcement is a state of its own that only the
// announcing thief clears, so a second thief's announcement at the same
// position cannot be mistaken for the first. The steal takes effect at the
// commit and takes wsq.StealCount of the items its tail load saw: exactly
// StealCount of the deque's length when nothing races, and possibly fewer
// when the owner pushed in between (the owner's Push does not look at head,
// and making it look would cost every push a load of the thieves' cache
// line).
//
// Garbage. Popped slots are cleared at once. Stolen slots are cleared by the
// owner, not by the thief, the next time it looks at head (every Pop, and a
// Push that finds the ring full): a thief clearing a slot would race with the
// owner copying the ring when it grows. A stolen item therefore stays
// reachable from the deque until the owner's next Pop. When an unbounded
// deque grows, it copies the live positions into a new ring and leaves the
// old one to the garbage collector; a thief still reading it keeps it alive
// until it is done, and nobody writes it again.
//
// Positions are 32-bit counters that wrap around, as in the Go runtime and
// Tokio, which bounds the capacity to MaxCapacity (2^29). Wrapping is never
// mistaken for progress: a thief stalled for any length of time between its
// loads and its compare-and-swap cannot take a slot that holds no item (a
// batch steal's announced head stays announced until its thief moves on, and a
// one-item steal checks its claim against tail, a 64-bit count; see the
// comments on Deque.head and stealOne).
//
// # Costs
//
// Locked instructions (an XCHG or a LOCK CMPXCHG on amd64; atomic loads and
// release stores are ordinary MOVs there and not counted):
//
//	Push                    0 (a release store of tail)
//	PushBatch               0 per batch
//	Pop                     1 (the tail store before the load of head);
//	                        1 for the deque's one item with no thief at
//	                        work (a CAS on head, no tail store); 0 when it
//	                        finds the deque empty before it starts; 1 more
//	                        (a CAS) when thieves take all but the item
//	                        while it pops, or to cancel an announced batch
//	                        steal
//	Steal, TrySteal         2 (claim CAS, release store), and a second
//	                        load of tail after the claim
//	StealBatch of 1 item    2, as Steal (TryStealBatch alike)
//	StealBatch of k >= 2    3 per batch (announce, commit, release)
//
// TestOwnerLockedInstructions checks the owner's rows against the machine
// code the compiler makes for amd64.
//
// Why Pop keeps its fence. A pop that takes an item without a CAS races
// the thieves with a handshake: the owner stores tail and then loads head,
// a thief changes head (its claim, or a batch steal's announcement) and then
// loads tail. With store-then-load order on both sides, one of them sees the
// other; a release store gives no such order (on amd64 the load of head may
// be served while the store of tail waits in the store buffer), and both
// would take the item. No cheaper knowledge of the owner's proves an item
// out of the thieves' reach: a batch steal of proportion 1 counts every item
// its tail load shows, the newest included, however many there are, and
// the owner cannot tell which tail a thief loaded. (TestPopFence runs the
// race on the processor; TestMutantFoundByHardware shows that it finds the
// pop with a release store.) What the owner can save is the rest: the store
// that gives tail back after the last item, which is a release store, and,
// when a load of head shows the deque's one item and no thief at work, the
// fence itself, since a CAS on head takes that item as a thief would.
//
// Taskflow's C++ steal costs one CAS; the release store is what claim-then-
// read costs here, about as much as the CAS again, and a Pop pays a little
// for clearing its slot. BenchmarkSlots measures both against a literal
// transcription of Taskflow's plain-slot steal and pop (go test -run '^$'
// -bench Slots -count 5 ./chaselev; the figures are in
// bench/report/results/reliability-2026-12-04). Push
// and PushBatch write their slots exactly as the plain version does; a
// batch steal pays one release store per batch, not per item.
package chaselev
