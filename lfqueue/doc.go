// Package lfqueue implements the bulk lock-free work-stealing queue of
// Kataru, Davarnia and Jannesari, "A Lock-Free Work-Stealing Algorithm for
// Bulk Operations" (arXiv:2603.05766, 2026): a linked list whose owner pushes
// whole batches in constant time and whose thief takes a proportion of the
// queue in one operation.
//
// # When to use it
//
// Use lfqueue when work arrives in batches (a node of a search expands into
// hundreds of children) and is balanced in bulk (a master moves half of a
// busy worker's queue to an idle one). The owner's push of a pre-linked List
// costs the same for one item as for a million, and a thief hands the stolen
// part to another queue as a linked sub-list, again in constant time, with
// StealParcel and PushParcel (or PushList). The queue is unbounded and never
// copies its items.
//
// Use a ring buffer (package chaselev) when items come and go one at a time
// and thieves take single items: every lfqueue steal walks the list from the
// newest item to the cut point, so a steal costs time proportional to the
// number of items that stay in the queue.
//
// # Owner and thieves
//
// A Queue has one owner goroutine, which alone may call Push, PushBatch,
// PushList, PushParcel and Pop; these never block and never wait for a thief.
// Any goroutine may steal (Steal, StealBatch, StealParcel, TrySteal,
// TryStealBatch). The paper's algorithm admits one thief at a time; this
// implementation lets any number of goroutines call the steal methods and
// serializes them with a thief-side lock, so a second thief waits for the
// first but the owner stays lock-free and no item is ever lost or
// duplicated. TrySteal and TryStealBatch take the lock with TryLock and
// report wsq.Contended instead of waiting.
//
// # The steal variants
//
// New accepts WithSkipCount to select the paper's skip-count steal. Both
// variants reserve the oldest items with one compare-and-swap on the size
// word, walk from the newest item to the cut point and detach the stolen
// part there. The basic steal then walks the stolen part to its end,
// counting it (the paper's "cut, then count"), to find its oldest node. The
// skip-count steal skips that walk whenever the thief can prove that the
// oldest node is the node the previous steal cut at: the owner has not refilled
// the queue from empty since that steal. When it cannot prove it, it falls
// back to the basic walk. Only StealParcel, which hands over the linked
// sub-list, needs the oldest node; StealBatch and Steal copy the stolen items
// and walk them anyway.
//
// # Memory
//
// Every push allocates a small push record: a Push allocates it together
// with its node (one allocation), a PushBatch beside one block of nodes for
// the whole batch (two), and a PushList alone (one; the List allocated its
// nodes, in blocks of 16 to 4096 that grow with the number of Appends).
// Removed items are cleared from their nodes at once, so the queue never
// keeps a popped or stolen value reachable.
//
// Nodes are freed by the garbage collector, a block when none of its nodes
// is reachable, and a removed node never keeps another node reachable for
// long: a steal that copies its items out (Steal, StealBatch, and
// List.Drain and List.Pop on a stolen List) clears the links of the nodes
// it takes at once, and the owner clears the links of the nodes it popped
// after its next push, as soon as no thief can be walking them (at once
// unless a thief was stealing at that push, otherwise at a later push). So
// the queue's memory follows what it holds, not what it ever held: at most
// the blocks that contain an item still in the queue (or in a List that
// StealParcel handed over), plus the nodes popped since the last push or two,
// plus, briefly, the nodes of a steal that took every item (until the
// owner's next Pop or push) and, with the skip-count steal, the node the
// last steal cut at (until the next steal). A block of a large batch stays
// whole while any of its items is queued.
package lfqueue
