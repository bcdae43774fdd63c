// Package atomicx holds the few atomic types the lock-free queues use, so that
// every atomic operation of lfqueue and chaselev goes through one seam.
//
// In a normal build the types are thin wrappers over sync/atomic and
// sync.Mutex whose methods the compiler inlines: they cost exactly what the
// sync/atomic operation costs (bench_test.go times each pair). Inlining
// across packages needs the callee's body in the export data the compiler
// reads; a program that reaches the queues only through package catalog
// gets it from catalog's own instantiations of the queues, and
// TestQueuesInlined in examples/quickstart checks the machine code of such a
// program. The seam exists for the interleaving checker,
// which builds the queues with a test-only build tag under which each
// operation becomes a scheduling point of a deterministic scheduler (see
// DESIGN.md §7).
//
// Besides the atomic operations, Pointer offers plain (unsynchronized) access
// for the one case where the queues need it: initializing an object that no
// other goroutine can see yet. Publishing the object afterwards with an
// atomic store makes the plain writes visible to every goroutine that loads
// it, in the terms of the Go memory model.
//
// Like the sync/atomic types, every type here must not be copied after first
// use; go vet reports copies.
package atomicx
