// Package blockq is a lock-free work-stealing queue of linked blocks: an
// unbounded queue whose owner pushes and pops at ring speed, pushes a
// pre-built batch in constant time, and whose thieves, any number of them
// at once and none waiting for another, each take a proportion of the queue
// in one atomic step and can hand what they took to another queue without
// copying it.
//
// # When to use it
//
// Use blockq wherever a work-stealing queue is needed and nothing else
// dictates the choice: it is the module's recommended queue. Its owner's
// operations cost what a Chase-Lev ring's cost (one compare-and-swap per
// push, batch or pop, no allocation but one block per block's worth of
// items); its steals never wait for another thief (TrySteal and
// TryStealBatch report wsq.Contended only when they lose their one
// compare-and-swap), take exactly wsq.StealCount of the queue's length at
// the instant they take effect, and find their cut by skipping whole
// blocks. StealParcel and
// PushParcel (or PushList for a batch built in advance) move items between
// queues by relinking blocks, in time proportional to the number of blocks
// moved, not items.
//
// # The structure
//
// Items live in blocks: arrays of slots, each new one sized to about a
// quarter of the queue's length, between 32 and 4096 slots (or a fixed
// size, WithBlockSize).
// A queue is a chain of links, from the front (the oldest items, where
// thieves work) to the back (the newest, where the owner works); each link
// covers a window of one block's slots and points to the next link. The
// owner fills the slots of its back link and adds a link when it is full.
// A link is the queue's own view of a block: a block handed to another
// queue by a steal gets a new link there, and the two queues use disjoint
// slots of it, so a block is shared without either queue rewriting the
// other's links.
//
// Every item has a position, counted from the first slot of the front link
// along the chain. One 64-bit control word, held by the front link, says
// which items are in the queue: idx, the position of the oldest item not
// yet taken by a thief, and size, how many items follow it that neither a
// thief nor the owner has taken. Every change of the queue's contents is a
// compare-and-swap on that word, and is where the operation takes effect:
//
//   - a push writes its slots, then adds its items to size;
//   - a pop takes 1 from size and then the newest item, which is its own;
//   - a steal of k items adds k to idx and takes k from size, reserving the
//     k oldest items, which no pop can reach any more; only then does the
//     thief walk to them, copy them out (or relink them) and clear their
//     slots.
//
// Because a thief locates its items after its reservation, it only ever
// reads positions that are counted and reserved: their slots and the links
// that lead to them no longer change. Positions beyond the counted items
// may change (the owner pops and pushes again, or seals its back link early
// to append a pre-built chain), but nobody reads them. The word may come
// back to a value a stalled thief read (the owner pops and pushes as many),
// and the thief's compare-and-swap then succeeds; that is correct, since
// the word means the same positions, but the links that hold them may have
// changed meanwhile, so nothing a thief read before its reservation, such
// as the span of the front link, is used to locate its items.
//
// When the reserved items reach past the front link, the front moves, so
// that idx stays small and the blocks before the oldest item can be
// collected. A thief that finds idx beyond the front link's last position marks the
// word moved (a compare-and-swap that freezes its idx and size), walks to
// the link that holds the oldest item, writes the frozen values into that
// link's word, and makes it the front; anyone who meets a moved word does
// the same, with the same result, so no goroutine waits for another. A
// link's word is written by compare-and-swap only, and only while the link
// is the front or about to become it; a link never becomes the front twice.
// So a stale compare-and-swap, however long its goroutine stalled, meets
// either the same link's live word, whose idx only grows (a match means the
// state is the current one, whatever happened in between), or a moved word,
// which never matches a live one: no counter can wrap into a false match.
//
// # Costs
//
// Atomic read-modify-write operations (each a LOCK CMPXCHG on amd64):
//
//	Push, PushBatch, PushList   1 (the count)
//	Pop                         1 (the claim); 0 when the owner last saw the
//	                            queue empty
//	Steal, StealBatch,          1 (the reservation), plus 1 to 3 when the
//	TrySteal, TryStealBatch     front moves
//	StealParcel                 as StealBatch, plus one allocation per
//	                            block the parcel covers (its link)
//
// The owner keeps its last view of the control word, so a pop or push that
// meets no thief costs exactly one compare-and-swap. A steal's walk costs
// one step per link it skips.
//
// # Memory
//
// A queue allocates one block (and its link) per block's worth of items
// pushed one at a time or by PushBatch (so a long queue allocates once per
// 4096 items), and reuses the last emptied block when the owner pops back
// over it (Reserve keeps more). Popped and stolen slots are cleared at
// once, so no removed item stays reachable. A block is freed when no link
// covers it. The links before the front are unreachable once the owner has
// seen the front move: thieves move it when they reserve past the front
// link, and the owner moves it at its next operation that meets a thief's
// change, also when the thieves took every item and so will not move it
// (if the owner's back block is full at that moment, at its next push that
// links a block). A parcel's links are allocated one by one, each a window
// on one block, so a queue that received a parcel keeps only the blocks
// that still hold its items.
//
// So the queue's memory follows what it holds: the blocks that hold its
// items, at most one empty block behind its back, and, until the owner's
// next operation that meets a thief's change, the blocks thieves emptied
// since. A block with one item left keeps all its slots (at most
// MaxBlockSize of them when blocks are sized to the queue), also when the
// block came in a parcel and the rest of it belongs to the queue it was
// stolen from.
package blockq
