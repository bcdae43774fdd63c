// Package atomicx holds the few atomic types the lock-free queues use, so that
// every atomic operation of lfqueue, chaselev and the other lock-free queues
// goes through one seam.
//
// The types and their methods are declared once (atomicx.go, and
// release.go for the release stores). Each method that is an atomic
// operation, and Lock and Unlock, starts with a branch on the constant
// checking, which a build tag sets:
//
//   - In a normal build checking is false. The compiler drops the branch
//     before it weighs the method for inlining, so the methods are thin
//     wrappers over sync/atomic and sync.Mutex that cost exactly what the
//     sync/atomic operation costs (bench_test.go times each pair, and
//     inline_test.go checks that the compiler inlines them and the hot
//     paths of the queues).
//   - Under the tag wsqcheck every operation is first a scheduling point
//     of the deterministic scheduler of internal/check/interleave, which
//     explores the interleavings of small scenarios (seam_check.go).
//   - Under the tag wsqchaos every operation is first a point where
//     internal/check/chaos may yield or sleep, which stretches the windows
//     between a load and the compare-and-swap that depends on it in real
//     concurrent runs (seam_chaos.go).
//
// So this library helper imports two test harnesses, in those two files
// only. The hooks must sit where the atomic operations are, below every
// queue, so the call goes from the seam to the harness. A normal build
// compiles neither file and links no harness. Neither harness imports
// anything of the module, so no arrow points up. TestFloors
// (internal/check) fails if any other library file imports a harness.
//
// Inlining across packages needs the callee's body in the export data the
// compiler reads; a program that reaches the queues only through package
// catalog gets it from catalog's own instantiations of the queues, and
// TestQueuesInlined in examples/quickstart checks the machine code of such a
// program.
//
// Every sync/atomic operation is sequentially consistent, and on amd64 its
// store is a locked instruction (XCHG). For the stores that only publish
// data the types also offer StoreRelease, a store with release ordering: a
// plain MOV in an assembly function on amd64 (release_amd64.s), sync/atomic's
// Store elsewhere (an inline STLR on
// arm64) and under the race detector. release.go argues why it is correct,
// what it does not order, and what the interleaving checks can and cannot
// say about it.
//
// Besides the atomic operations, Pointer offers plain (unsynchronized) access
// for the one case where the queues need it: initializing an object that no
// other goroutine can see yet. Publishing the object afterwards with an
// atomic store makes the plain writes visible to every goroutine that loads
// it, in the terms of the Go memory model. Plain accesses are never
// scheduling points.
//
// Goroutine, the one function here that is not an atomic operation, tells
// goroutines apart for sched's misuse checks. It lives here because this
// package holds the module's assembly: on amd64 and arm64 it reads the
// runtime's goroutine descriptor in a few instructions (goroutine.go argues
// why that is correct); elsewhere it parses the goroutine's ID from its
// stack trace.
//
// This package and internal/pad are the only ones of the module that import
// unsafe; TestUnsafeConfined fails if another one does.
//
// Like the sync/atomic types, every type here must not be copied after first
// use; go vet reports copies.
package atomicx
