// Package blockq is a lock-free work-stealing queue of linked blocks. Its
// owner pushes with a plain store. It pops what it holds with no atomic
// operation, and takes back a block's worth of items with one
// compare-and-swap. It pushes a pre-built batch in constant time. Any
// number of thieves steal at once, none waiting for another. Each takes a
// proportion of the queue in one atomic step, and can hand what it took to
// another queue without copying it.
//
// # When to use it
//
// Use blockq wherever a work-stealing queue is needed and nothing else
// dictates the choice: it is the module's recommended queue. Its owner's
// operations cost less than a Chase-Lev ring's: no atomic read-modify-write
// operation to push, none to pop an item it holds, one to take back a
// block. It allocates one block per block's worth of items. Its steals
// never wait for another thief (TrySteal and
// TryStealBatch report wsq.Contended only when another goroutine changed
// the queue under them), take exactly wsq.StealCount of the published length
// at the instant they take effect, and find their cut by skipping whole
// blocks. StealParcel and PushParcel (or PushList for a batch built in
// advance) move items between queues by relinking blocks, in time
// proportional to the number of blocks moved, not items.
//
// # The structure
//
// Items live in blocks: arrays of slots, each new one sized to about a
// quarter of the queue's length, between 32 and 4096 slots (or a fixed
// size, WithBlockSize). A queue is a chain of links, from the front (the
// oldest items, where thieves work) to the back (the newest, where the
// owner works); each link covers a window of one block's slots and points
// to the next link. The owner fills the slots of its back link and adds a
// link when it is full. A link is the queue's own view of a block: a block
// handed to another queue by a steal gets a new link there, and the two
// queues use disjoint slots of it, so a block is shared without either
// queue rewriting the other's links.
//
// Every item has a position: positions count the queue's slots along the
// chain, from the first slot the queue ever used, modulo 2^34. Two words
// say which positions hold the queue's items, one for each side:
//
//   - The tail word, written only by the owner: the position after the
//     newest published item, and the number of pops the owner has made (modulo 2^30)
//     when it wrote it.
//   - The control word, changed only by compare-and-swap, by thieves and by
//     the owner's pops: idx, the oldest position a thief has not reserved,
//     counted from the first slot of the front link, and gen, the number of
//     pops made. It belongs to a tenure: one spell of a link as the front,
//     which also records the absolute position of the link's first slot.
//
// The published length is the tail's position, less the pops made since the
// tail was written (the difference of the two pop counts), less the
// absolute position of idx. Each operation takes effect at one instant:
//
//   - a push writes its slots, then publishes them with a release store of
//     the tail word (for a batch, one store for all of it): no locked
//     instruction;
//   - a pop of a published item adds 1 to gen with a compare-and-swap,
//     which claims the newest item if the length is at least 1, and does
//     not publish the tail: the count in the word says the tail is one
//     position shorter (a takeover adds a block's worth; a pop of a held
//     item changes no shared word: see Holding items);
//   - a steal loads the control word, then the tail word, computes the
//     length n and k = wsq.StealCount(n, p), and reserves the k oldest
//     items by adding k to idx with a compare-and-swap from the word it
//     loaded; only then does it walk to them, copy them out (or relink
//     them) and clear their slots. The steal takes effect at its load of
//     the tail: its compare-and-swap succeeds only if the word did not
//     change since the thief loaded it (no pop, no other reservation), so
//     the two loads describe the queue at that instant, and the pushes
//     after it only add newer items. A steal that computes a length of 0
//     loads the word again, and reports the queue empty only if it did not
//     change.
//
// Both words are read together only through the control word's value: a
// compare-and-swap that succeeds shows that the word did not change since
// it was loaded, because every change makes a live word larger (idx and
// gen only grow within a tenure) and a moved word never changes. A pop
// that would wrap gen past 2^30-1 moves the front to a new tenure instead
// (see below), so a word never comes back to a value a stalled thief
// loaded, however many pops it slept through. Positions wrap at 2^34, and
// lengths are computed modulo 2^34; no length exceeds MaxLen.
//
// Ordering: the owner's release store of the tail orders the slots, spans
// and links it wrote before it, and its earlier compare-and-swaps on the
// control word, before the store; a thief's load of the tail (an acquire
// load) then sees them. A pop's compare-and-swap orders the owner's last
// store of the tail before the pop (a locked instruction on amd64 drains
// the store buffer; on arm64 its store is a release), so a thief that sees
// the pop in the word sees the tail it counts from. Nothing else needs
// more than release and acquire: no operation reads a word after writing
// another and depends on the order of the two (the store-load order a
// Chase-Lev pop needs is carried by the pop's compare-and-swap, which
// thieves' reservations contend on). The interleaving checks
// (internal/interleave) run every atomic operation, the release store
// included, as a sequentially consistent step; this paragraph is why the
// weaker store loses no behaviour they cover.
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
// claims all that the back block holds with one compare-and-swap, which
// adds their number to the pop count. It never takes the last published
// items, so thieves still find work in the older blocks. A pop in the
// front block claims one item, as before; so a short queue, such as a
// fork-join worker's, stays stealable.
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
// A thief asks through a word of its own cache line, which the owner loads
// only while it holds items. An owner that holds items and stops calling
// Push and Pop for a while (to block, say) calls Publish first.
//
// A thief reads the span of the front link after the tail: a link's span
// never shrinks below a position the tail published (the owner seals a
// link early, to append a pre-built List after it, at its fill, before it
// publishes what follows), so a reserved position below the span lies in
// that link. Positions beyond the published ones may change (the owner
// pops and pushes again, or seals its back link early), but no thief reads
// them.
//
// When the reserved items reach past the front link, the front moves, so
// that idx stays small and the blocks before the oldest item can be
// collected. A thief that finds idx beyond the front link's last position,
// in a queue that holds items, marks the word moved (a compare-and-swap
// that freezes idx and gen), walks to the link that holds the oldest item,
// records that link's next tenure in the old tenure (the first walker to
// finish wins; the others take its record), and makes the new tenure live,
// with the frozen gen and the item's position in the link, and the front;
// anyone who meets a moved word does the same, with the same result, so no
// goroutine waits for another. A link's first tenure is part of the link,
// made live by a compare-and-swap from unborn, so a move allocates
// nothing. The owner moves the front the same way when thieves took every
// item past the front link (see Memory), and its pop that would wrap gen
// moves it with gen at 0, usually to a second tenure of the same link,
// allocated for it. Until the new tenure is the front nobody can pop or
// reserve, and the oldest position lies in the chain (counted, or within
// the owner's back link), so the chain up to it does not change; a helper
// that walks after the front moved on may find anything, but the record
// is set by then, and its compare-and-swaps fail. A tenure is the front
// only once, so a stale compare-and-swap meets either the same tenure's
// live word, whose every change made it larger (a match means the state is
// the current one), or a moved word, which never matches a live one: no
// counter can wrap into a false match.
//
// # Costs
//
// Atomic read-modify-write operations (each a LOCK-prefixed instruction on
// amd64); every other atomic write is a release store (a plain store on
// amd64), such as the store of the tail that every push ends with, or the
// store of the pointer that links a new block or a List:
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
// keeps its last view of the control word, so a pop that meets no thief
// costs exactly one compare-and-swap. A steal's walk costs one step per
// link it skips.
//
// # Cache lines
//
// Which lines each operation writes, and who else writes them. The lines:
// the tail word (T, written by the owner), the control word (C, in the
// front link's header, written by thieves and by the owner's claims), the
// request word (W, written by a thief that found nothing and by the
// owner's answer), the owner's state (O) and the slots (S). A thief's
// load of a line the owner writes costs the owner's next write a miss, and
// the reverse.
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
// sequentially consistent store (a locked instruction on amd64) and loads
// the top index, which every thief's compare-and-swap writes.
//
// # Memory
//
// A queue allocates one block (and its link) per block's worth of items
// pushed one at a time or by PushBatch (so a long queue allocates once per
// 4096 items), unless it reuses one: the last emptied block when the owner
// pops back over it (Reserve keeps more), or a block thieves emptied (see
// below). Popped and stolen slots are cleared at
// once, so no removed item stays reachable. A block is freed when no link
// covers it. The links before the front are unreachable once the owner has
// seen the front move: thieves move it when they reserve past the front
// link, and the owner looks at the front, and moves it when the thieves
// took every item and so will not, at every new block, every PushList and
// every pop that meets a thief's change (if the owner's back block is full
// at that moment, the front can move only once the owner links the next
// block). A parcel's links are allocated one by one, each a window on one
// block, so a queue that received a parcel keeps only the blocks that
// still hold its items.
//
// A copying thief (StealBatch, TryStealBatch) that emptied a block whole
// marks it so, after its last read of the slots; when the owner next looks
// at the front and finds that the front has moved past the block, it keeps
// the block for its next pushes instead of allocating one, while the
// blocks it keeps hold no more slots than the queue holds items plus the
// push under way. So a queue that thieves copy from and its owner refills
// reuses its memory, as a ring would. A block some of whose items went out
// in a parcel, or to several thieves, is left to the collector.
//
// So the queue's memory follows what it holds: the blocks that hold its
// items, at most one empty block behind its back, the emptied blocks kept
// for its pushes (at most as many slots as it holds items), and, until the
// owner next looks at the front, the blocks thieves emptied since. A block with
// one item left keeps all its slots (at most MaxBlockSize of them when
// blocks are sized to the queue), also when the block came in a parcel and
// the rest of it belongs to the queue it was stolen from.
package blockq
