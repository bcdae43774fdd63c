package bench

import (
	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// floorSlots is the size of the ring op=plain writes: a power of two, small
// enough to stay in the L1 cache, as a busy owner's newest slots are.
const floorSlots = 1 << 10

// floorWord is a word alone on its cache line.
type floorWord struct {
	_ pad.Line
	v atomicx.Uint64
	_ pad.Line
}

// The timed loops of BenchmarkFloor, each a function of its own (never
// inlined) so that TestFloorLoopsStore can find it in the compiler's
// listing of this file, which it compiles without the tests.

//go:noinline
func floorPlain(slots []uint64, n int) {
	slots = slots[:floorSlots]
	for i := range n {
		slots[i&(floorSlots-1)] = uint64(i)
	}
}

//go:noinline
func floorStore(x *atomicx.Uint64, n int) {
	for i := range uint64(n) {
		x.Store(i)
	}
}

//go:noinline
func floorCAS(x *atomicx.Uint64, n int) {
	for i := range uint64(n) {
		if !x.CompareAndSwap(i, i+1) {
			panic("bench: an uncontended compare-and-swap failed")
		}
	}
}

//go:noinline
func floorRelease(x *atomicx.Uint64, n int) {
	for i := range uint64(n) {
		x.StoreRelease(i)
	}
}

// floorSlot is the receiver of floorCall's calls: a ring and its next
// slot, as a queue's owner keeps them.
type floorSlot struct {
	slots []uint64
	next  int
}

// put stores v into the next slot of the ring. It is kept out of line, as
// a queue's Push is: the compiler's inlining budget is smaller than a
// Push with its slow path (see BenchmarkFloor).
//
//go:noinline
func (s *floorSlot) put(v uint64) {
	s.slots[s.next&(floorSlots-1)] = v
	s.next++
}

//go:noinline
func floorCall(s *floorSlot, n int) {
	for i := range uint64(n) {
		s.put(i)
	}
}
