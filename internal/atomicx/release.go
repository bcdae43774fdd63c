package atomicx

import (
	"sync/atomic"
	"unsafe" // storeRelease64 and storeRelease32 write the word of a sync/atomic type; the assertions below pin its layout.
)

// Release stores.
//
// Every sync/atomic operation is sequentially consistent. On amd64 that
// makes an atomic store an XCHG, a locked instruction that costs as much as
// a compare-and-swap (about 6 ns against 0.4 ns for a plain store on the
// machines the module is measured on), because it also orders the store
// before every later load of the goroutine. A goroutine that publishes
// data often needs less: that the writes before the store are visible to
// whoever sees the store. StoreRelease gives exactly that, as the Go
// runtime's run queue publishes its tail (runtime/proc.go, runqput, with
// atomic.StoreRel) and as C++ Taskflow publishes its bottom
// (memory_order_release).
//
// What a release store promises. If a goroutine's atomic Load (of this
// package or of sync/atomic) observes the value that StoreRelease stored,
// every write that the storing goroutine made before the StoreRelease, plain
// or atomic, is visible to the loading goroutine after the Load: the store
// synchronizes before the load, in the terms of the Go memory model, as a
// sync/atomic Store would. Stores become visible in program order.
//
// What it does not promise. A release store is not ordered before the
// storing goroutine's later loads: a load that follows it in program order
// may read memory before the store is visible to other goroutines (on
// amd64, while the store sits in the store buffer). A protocol whose
// correctness needs store-then-load order, a Dekker-style handshake such as
// Chase-Lev's Pop (store tail, then load head, while a thief changes head
// and then loads tail), must keep a sequentially consistent Store, Swap or
// CompareAndSwap at that point. The protocols that use StoreRelease say
// next to each call why release order is all they need there.
//
// How it is built, per platform:
//
//   - amd64 (without the race detector): a plain MOV in an assembly
//     function (release_amd64.s). x86-TSO never reorders a store with an
//     older load or store of the same processor, so a plain store is a
//     release store in hardware; the call of an assembly function keeps the
//     compiler from moving any memory access of the caller across it. The
//     call cannot be inlined, and costs about 1.5 ns with the MOV
//     (BenchmarkStoreRelease). Pointer's StoreRelease is the call of an
//     empty assembly function followed by a plain store written in Go,
//     because a pointer store must pass through the garbage collector's
//     write barrier, which only the compiler emits.
//   - arm64: sync/atomic's Store, which the compiler emits inline as STLR,
//     the architecture's store-release instruction (an assembly STLR would
//     only add a call). It is sequentially consistent with the LDAR of
//     every atomic load, so it is stronger than needed, at the price of a
//     release store.
//   - every other GOARCH, and every platform under the race detector (build
//     tag race): sync/atomic's Store, which is a release store and more, so
//     that the race detector sees the synchronization.
//
// In the checking builds StoreRelease is a scheduling point (wsqcheck) or a
// chaos point (wsqchaos) like every atomic operation, traced as
// StoreRelease. The interleaving explorer runs one goroutine at a time, so
// every execution it explores is sequentially consistent: it does not
// explore the executions in which a release store becomes visible after a
// later load of its goroutine. Its verdict on a protocol that uses
// StoreRelease is therefore sound only where the protocol's correctness
// argument needs nothing beyond release order at each StoreRelease, which
// the argument next to each call must show.

// The assembly functions write the word of the sync/atomic types, which
// must be exactly that word (sync/atomic's other fields have no size).
var (
	_ [unsafe.Sizeof(atomic.Uint64{}) - 8]byte
	_ [8 - unsafe.Sizeof(atomic.Uint64{})]byte
	_ [unsafe.Sizeof(atomic.Uint32{}) - 4]byte
	_ [4 - unsafe.Sizeof(atomic.Uint32{})]byte
)

// StoreRelease stores v with release ordering: a goroutine whose atomic Load
// observes v also observes every write that preceded the StoreRelease in the
// storing goroutine. Unlike Store, it is not ordered before the storing
// goroutine's later loads. On amd64 it is a plain MOV, and on arm64 an STLR;
// see the comment on release stores above for the argument and the
// platforms where it is sync/atomic's Store.
func (x *Uint64) StoreRelease(v uint64) {
	if checking && before(opStoreRelease, x) {
		storeRelease64(&x.v, v)
		after(v)
		return
	}
	storeRelease64(&x.v, v)
}

// StoreRelease stores v with release ordering; see Uint64.StoreRelease.
func (x *Uint32) StoreRelease(v uint32) {
	if checking && before(opStoreRelease, x) {
		storeRelease32(&x.v, v)
		after(v)
		return
	}
	storeRelease32(&x.v, v)
}

// StoreRelease stores v with release ordering; see Uint64.StoreRelease. The
// store passes through the garbage collector's write barrier, as every
// pointer store does.
func (x *Pointer[T]) StoreRelease(v *T) {
	if checking && before(opStoreRelease, x) {
		storeReleasePointer(&x.p, unsafe.Pointer(v))
		after(v)
		return
	}
	storeReleasePointer(&x.p, unsafe.Pointer(v))
}
