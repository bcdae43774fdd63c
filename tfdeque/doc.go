// Package tfdeque provides Go models of C++ Taskflow's work-stealing queues,
// UnboundedWSQ and BoundedWSQ (taskflow/core/wsq.hpp, v4), the baselines the
// paper "A Lock-Free Work-Stealing Algorithm for Bulk Operations" measures
// its bulk queue against.
//
// Use it to reproduce that comparison, or wherever you want Taskflow's
// policies in Go. For new code, package chaselev offers the same deque with
// a one-step proportional steal, which Taskflow lacks.
//
// # Taskflow's policies
//
// The algorithm is Chase-Lev after Lê et al. (PPoPP 2013), as in Taskflow;
// the ring buffer and its protocol are package chaselev's, so there is one
// copy of the algorithm in the module. This package adds Taskflow's
// policies on top:
//
//   - NewUnbounded starts with 1024 slots and grows by doubling when a Push
//     finds it full; a bulk push of N items that does not fit grows it to
//     the next power of two of at least C+N (Taskflow's std::bit_ceil(C+N)),
//     C being the capacity. It never shrinks.
//   - NewBounded holds 256 items (WithCapacity changes either figure) and
//     refuses what does not fit: Push reports false (try_push), and a batch
//     push returns how many it took (try_bulk_push).
//   - Both of Taskflow's ways to push a batch, chosen at construction with
//     WithPushStyle: PerItem, one Push per item, each published with its
//     own release store, as the paper measured (its baseline predates
//     bulk_push); and Bulk, v4's bulk_push: the slot stores, then one
//     publication. PushPerItem and PushBulk are also methods, whatever the
//     style.
//   - TrySteal is Taskflow's steal: one item with one claiming CAS, and a
//     lost race takes nothing, with no retry; it reports wsq.Contended,
//     which Taskflow's steal cannot tell from empty. Steal loops over
//     TrySteal until it takes an item or finds the deque empty, as
//     Taskflow's workers loop over steal, so that its false means empty,
//     as wsq.Queue requires of every queue.
//   - StealBatch is a loop of Steal calls, stopping at the first that finds
//     the deque empty (TryStealBatch: of TrySteal calls, stopping at the
//     first that takes nothing). Taskflow has no bulk steal; this is how
//     the paper stole a proportion.
//
// # Where the Go model differs
//
// Taskflow's thief reads its slot before the CAS that claims it. In Go that
// read is a data race, and for a multi-word T it can observe a torn value,
// so chaselev's thief claims first, reads after, and releases the slot with
// one more atomic store (see package chaselev for the protocol and its
// cost). A TrySteal that finds another thief copying an item out takes
// nothing and reports wsq.Contended, as for a lost CAS. A bounded deque
// keeps a ring of twice its capacity, so that the slot of an item a thief is
// still copying out never makes a push fail; it still holds at most its
// capacity of items. An empty Pop returns without an atomic store, where
// Taskflow's stores bottom twice, and Pop takes the last item with one CAS
// and no store to the tail, where Taskflow's fences, CASes and stores bottom
// back. Stolen items are cleared from their slots by the owner's next Pop,
// popped ones at once, so the deque does not keep removed items reachable.
//
// The memory orders are Taskflow's. A push writes its slots with plain
// stores and publishes them with a release store of the tail (a plain MOV on
// amd64, an STLR on arm64), as Taskflow's relaxed slot stores, release fence
// and store of bottom do; Pop's store of the tail before its load of the
// head is sequentially consistent (an XCHG on amd64), as Taskflow's seq_cst
// fence makes it. Go's own atomic stores are all sequentially consistent;
// the release store is the module's (internal/atomicx), and where the race
// detector runs, or off amd64 and arm64, it is sync/atomic's Store.
package tfdeque
