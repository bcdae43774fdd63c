// Package blockq is a lock-free work-stealing queue of linked blocks.
//
// Its owner pushes with a plain store. It pops what it holds with no
// atomic operation. It takes back a block's worth of items with one
// compare-and-swap. It pushes a pre-built batch in constant time. Any
// number of thieves steal at once, none waiting for another. Each takes a
// proportion of the queue in one atomic step. It can hand what it took to
// another queue without copying it.
//
// # When to use it
//
// blockq is the module's recommended queue. Use it wherever a
// work-stealing queue is needed and nothing else dictates the choice.
//
// Its owner's operations cost less than a Chase-Lev ring's. They take
// these atomic read-modify-write operations:
//
//	push                        none
//	pop of an item it holds     none
//	take back a block           one
//
// It allocates one block per block's worth of items. Its steals:
//   - never wait for another thief: TrySteal and TryStealBatch report
//     wsq.Contended only when another goroutine changed the queue under
//     them;
//   - take exactly wsq.StealCount of the published length at the instant
//     they take effect;
//   - find their cut by skipping whole blocks.
//
// StealParcel and PushParcel move items between queues by relinking
// blocks. So does PushList, for a batch built in advance. They take time
// proportional to the number of blocks moved, not items.
//
// # The structure
//
// Items live in blocks: arrays of slots. Each new block is sized to about
// a quarter of the queue's length, between 32 and 4096 slots. (WithBlockSize
// fixes the size instead.) A queue is a chain of links, from the front to
// the back. The front holds the oldest items, where thieves work. The back
// holds the newest, where the owner works. Each link covers a window of
// one block's slots and points to the next link. The owner fills the slots
// of its back link, and adds a link when it is full.
//
// A link is the queue's own view of a block. A block handed to another
// queue by a steal gets a new link there. The two queues use disjoint
// slots of it. So a block is shared without either queue rewriting the
// other's links.
//
// Every item has a position. Positions count the queue's slots along the
// chain, from the first slot the queue ever used, modulo 2^34. Two words
// say which positions hold the queue's items, one for each side:
//   - The tail word, written only by the owner. It holds the position after
//     the newest published item. It also holds the number of pops the owner
//     had made (modulo 2^30) when it wrote the word.
//   - The control word, changed only by compare-and-swap, by thieves and by
//     the owner's pops. It holds idx, the oldest position a thief has not
//     reserved, counted from the first slot of the front link. It also
//     holds gen, the number of pops made. It belongs to a tenure: one spell
//     of a link as the front. The tenure also records the absolute position
//     of the link's first slot.
//
// The published length is the tail's position, less the pops made since
// the tail was written (the difference of the two pop counts), less the
// absolute position of idx:
//
//	length = t - (gen - the tail's gen) - (the tenure's base + idx)
//
// Each operation takes effect at one instant:
//   - A push writes its slots. It then publishes them with a release store
//     of the tail word: no locked instruction. A batch takes one store for
//     all of it.
//   - A pop of a published item adds 1 to gen with a compare-and-swap.
//     That claims the newest item if the length is at least 1. It does not
//     publish the tail: the count in the word says the tail is one
//     position shorter. (A takeover adds a block's worth. A pop of a held
//     item changes no shared word: see Holding items.)
//   - A steal loads the control word, then the tail word. It computes the
//     length n and k = wsq.StealCount(n, p). It reserves the k oldest
//     items: it adds k to idx with a compare-and-swap from the word it
//     loaded. Only then does it walk to them, copy them out (or relink
//     them) and clear their slots.
//
// The steal takes effect at its load of the tail. Its compare-and-swap
// succeeds only if the word did not change since the thief loaded it: no
// pop, no other reservation. So the two loads describe the queue at that
// instant. The pushes after it only add newer items. A steal that computes
// a length of 0 loads the word again. It reports the queue empty only if
// the word did not change.
//
// Both words are read together only through the control word's value. A
// compare-and-swap that succeeds shows that the word did not change since
// it was loaded. That is because every change makes a live word larger
// (idx and gen only grow within a tenure), and a moved word never changes.
// A pop that would wrap gen past 2^30-1 moves the front to a new tenure
// instead (see below). So a word never comes back to a value a stalled
// thief loaded, however many pops it slept through. Positions wrap at
// 2^34, and lengths are computed modulo 2^34. No length exceeds MaxLen.
//
// # Ordering
//
// Two of the owner's writes order what it wrote before them:
//
//	the owner's write           orders before itself       seen by
//	release store of the tail   the slots, spans and       a thief's load of
//	                            links it wrote, and its    the tail (an
//	                            earlier compare-and-swaps  acquire load)
//	                            on the control word
//	a pop's compare-and-swap    its last store of the      a thief that sees
//	                            tail                       the pop in the word
//
// The pop's compare-and-swap is a locked instruction on amd64, which
// drains the store buffer. On arm64 its store is a release. So a thief
// that sees the pop in the word sees the tail it counts from.
//
// Nothing else needs more than release and acquire. No operation reads a
// word after writing another and depends on the order of the two. A
// Chase-Lev pop needs that store-load order. Here the pop's
// compare-and-swap carries it, and thieves' reservations contend on it.
//
// The interleaving checks (internal/check/interleave) run every atomic
// operation as a sequentially consistent step, the release store
// included. This section is why the weaker store loses no behaviour they
// cover.
//
// # Holding items
//
// A thief can take the newest item only if the owner's pop tells it so.
// That takes a locked instruction or a store-load fence at every pop. So
// the owner keeps some newest items to itself: it holds them. A held item
// lies beyond the published tail, where no thief looks. The owner pushes
// and pops held items with plain loads and stores. Thieves see only the
// published items: Len counts only them, and a steal takes StealCount of
// them (wsq.Contract.OwnerHolds).
//
// The owner starts to hold items at a takeover. That is a pop that finds
// published items in its back block and more in the blocks before it. It
// claims all that the back block holds with one compare-and-swap. (If the
// back block holds fewer than two, it claims the block before too.) The
// compare-and-swap adds their number to the pop count. It never takes the
// last published items, so thieves still find work in the older blocks. A
// pop in the front block claims one item, as before. So a short queue,
// such as a fork-join worker's, stays stealable.
//
// While the owner holds items, its pushes hold theirs too. The owner
// publishes everything it holds:
//
//	when                                      how
//	its push moves on to a new block          the push's store of the tail
//	PushList, PushParcel, a PushBatch that
//	spans blocks                              the push's store of the tail
//	a thief asked (found nothing published)   the next Push, PushBatch or Pop
//	Publish                                   at once
//
// A thief asks through a word of its own cache line. The owner loads it
// only while it holds items. An owner that holds items and stops calling
// Push and Pop for a while (to block, say) calls Publish first. So does one
// whose items take long, before it runs the next: holding saves an atomic
// operation per item, and a long item would keep the held ones waiting.
// Package sched does so for a worker whose recent items were long. That
// changes no line the owner writes: Publish is the store of the tail
// above.
//
// A thief reads the span of the front link after the tail. A link's span
// never shrinks below a position the tail published. (The owner may seal a
// link early, to append a pre-built List after it. It seals the link at
// its fill, before it publishes what follows.) So a reserved position
// below the span lies in that link. Positions beyond the published ones
// may change: the owner pops and pushes again, or seals its back link
// early. But no thief reads them.
//
// # Moving the front
//
// When the reserved items reach past the front link, the front moves. So
// idx stays small, and the blocks before the oldest item can be
// collected. A thief may find idx beyond the front link's last position,
// in a queue that holds items. It then moves the front in four steps:
//  1. It marks the word moved: a compare-and-swap that freezes idx and
//     gen.
//  2. It walks to the link that holds the oldest item. It records that
//     link's next tenure in the old tenure. The first walker to finish
//     wins; the others take its record.
//  3. It makes the new tenure live, with the frozen gen and the item's
//     position in the link.
//  4. It makes the new tenure the front.
//
// Anyone who meets a moved word does the same, with the same result. So
// no goroutine waits for another. A link's first tenure is part of the
// link, made live by a compare-and-swap from unborn. So a move allocates
// nothing.
//
// The owner moves the front the same way when thieves took every item
// past the front link (see Memory). Its pop that would wrap gen moves the
// front too, with gen at 0. That move usually goes to a second tenure of
// the same link, allocated for it.
//
// Until the new tenure is the front, nobody can pop or reserve. The oldest
// position lies in the chain: it is counted, or within the owner's back
// link. So the chain up to it does not change. A helper that walks after
// the front moved on may find anything. But the record is set by then, and
// its compare-and-swaps fail.
//
// A tenure is the front only once. So a stale compare-and-swap meets one
// of two words:
//   - the same tenure's live word, whose every change made it larger: a
//     match means the state is the current one;
//   - a moved word, which never matches a live one.
//
// No counter can wrap into a false match.
//
// # Costs
//
// The table counts atomic read-modify-write operations. Each is a
// LOCK-prefixed instruction on amd64. Every other atomic write is a
// release store, a plain store on amd64. Examples are the store of the
// tail that every push ends with, and the store of the pointer that links
// a new block or a List.
//
//	Push, PushBatch, PushList   0, plus 4 when the owner moves the front
//	                            (see Memory), which a push does only when
//	                            it links a new block
//	Pop                         0 for a held item; 1 (the claim) for a
//	                            published one, or for a takeover of a
//	                            block; 0 when the owner last saw the queue
//	                            empty; plus 4 when it moves the front (see
//	                            Memory, and every 2^30 pops)
//	Steal, StealBatch,          1 (the reservation), plus 4 when the front
//	TrySteal, TryStealBatch     moves (the freeze, the record, the new
//	                            word, the front; at most 3 for a goroutine
//	                            that helps)
//	StealParcel                 as StealBatch, plus one allocation per
//	                            block the parcel covers (its link)
//
// A move of the front allocates nothing but every 2^30 pops. The owner
// keeps its last view of the control word. So a pop that meets no thief
// costs exactly one compare-and-swap. A steal's walk costs one step per
// link it skips.
//
// # Cache lines
//
// This section tells which lines each operation writes, and who else
// writes them. The lines:
//
//	T   the tail word, written by the owner
//	C   the control word, in the front link's header, written by thieves
//	    and by the owner's claims
//	W   the request word, written by a thief that found nothing and by
//	    the owner's answer
//	O   the owner's state
//	S   the slots
//
// A thief's load of a line the owner writes costs the owner's next write a
// miss, and the reverse.
//
//	operation                 before holding           now
//	Push                      O, S; T (thieves read)   same, unless holding
//	Push, holding             -                        O, S; loads W
//	Pop of a held item        -                        O, S; loads W
//	Pop, published item       O, S; C (thieves write)  same, in the front block
//	Pop, takeover             -                        C once per block
//	Steal                     C; loads T, S            same; loads W, writes
//	                                                   W once, when empty
//
// So while the owner holds items, it shares no written line with thieves:
// they contend on C with each other. In chaselev (for comparison) Push
// stores the bottom index, which thieves read. Pop stores it with a
// sequentially consistent store (a locked instruction on amd64). It also
// loads the top index, which every thief's compare-and-swap writes.
//
// # Memory
//
// A queue allocates one block, and its link, per block's worth of items
// pushed one at a time or by PushBatch. So a long queue allocates once per
// 4096 items. It allocates nothing when it reuses a block:
//   - the last emptied block, when the owner pops back over it (Reserve
//     keeps more);
//   - a block thieves emptied (see below).
//
// Popped and stolen slots are cleared at once, so no removed item stays
// reachable. A block is freed when no link covers it.
//
// The links before the front are unreachable once the owner has seen the
// front move. Thieves move it when they reserve past the front link. The
// owner looks at the front at every new block, every PushList and every
// pop that meets a thief's change. It moves the front then when the
// thieves took every item, and so will not move it. (If the owner's back
// block is full at that moment, the front can move only once the owner
// links the next block.) A parcel's links are allocated one by one, each a
// window on one block. So a queue that received a parcel keeps only the
// blocks that still hold its items.
//
// A copying thief (StealBatch, TryStealBatch) that emptied a block whole
// marks it so, after its last read of the slots. The owner next looks at
// the front, and may find that the front has moved past the block. It then
// keeps the block for its next pushes instead of allocating one. The
// blocks it keeps hold no more slots than the queue holds items plus the
// push under way. So a queue that thieves copy from and its owner refills
// reuses its memory, as a ring would. A block some of whose items went out
// in a parcel, or to several thieves, is left to the collector.
//
// So the queue's memory follows what it holds. It keeps:
//   - the blocks that hold its items;
//   - at most one empty block behind its back;
//   - the emptied blocks kept for its pushes (at most as many slots as it
//     holds items);
//   - until the owner next looks at the front, the blocks thieves emptied
//     since.
//
// A block with one item left keeps all its slots: at most MaxBlockSize of
// them when blocks are sized to the queue. That holds also when the block
// came in a parcel and the rest of it belongs to the queue it was stolen
// from.
package blockq
