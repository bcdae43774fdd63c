//go:build !race

package atomicx

import (
	"sync/atomic"
	"unsafe" // storeReleasePointer stores an unsafe.Pointer.
)

// storeRelease64 stores v into x with a plain MOV (release_amd64.s).
//
//go:noescape
func storeRelease64(x *atomic.Uint64, v uint64)

// storeRelease32 stores v into x with a plain MOVL (release_amd64.s).
//
//go:noescape
func storeRelease32(x *atomic.Uint32, v uint32)

// compilerBarrier does nothing (release_amd64.s). A call of it is a point
// the compiler moves no memory access across: it cannot see what the
// assembly body reads or writes.
func compilerBarrier()

// storeReleasePointer stores v into *p after every memory access before it:
// compilerBarrier orders them in the compiler, x86-TSO in the processor.
// The store is written in Go, so the compiler adds the garbage collector's
// write barrier as it does to every pointer store; an assembly MOV would
// hide the pointer from a collection in progress.
func storeReleasePointer(p *unsafe.Pointer, v unsafe.Pointer) {
	compilerBarrier()
	*p = v
}
