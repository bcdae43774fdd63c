//go:build wsqcheck

// This is the check build of atomicx, for the interleaving checker
// (internal/interleave): the same API as atomicx.go, and the same
// operations, but each one is first a scheduling point. Outside an
// exploration a scheduling point costs one atomic load and the types
// behave exactly as in the normal build, so every other test still runs.
// api_test.go keeps the two files' APIs identical.

package atomicx

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/worksteal/wsq/internal/interleave"
)

// noCopy lets go vet's copylocks check report copies of the types that embed
// it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Uint64 is an atomic uint64, 64-bit aligned on every platform.
type Uint64 struct {
	v atomic.Uint64
}

// Load atomically loads and returns the value.
func (x *Uint64) Load() uint64 {
	tr := interleave.Point(interleave.Load, x)
	v := x.v.Load()
	if tr {
		interleave.Result(v)
	}
	return v
}

// Store atomically stores v.
func (x *Uint64) Store(v uint64) {
	tr := interleave.Point(interleave.Store, x)
	x.v.Store(v)
	if tr {
		interleave.Result(v)
	}
}

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint64) CompareAndSwap(old, new uint64) bool {
	tr := interleave.Point(interleave.CompareAndSwap, x)
	ok := x.v.CompareAndSwap(old, new)
	if tr {
		interleave.Result(old, new, ok)
	}
	return ok
}

// Uint32 is an atomic uint32.
type Uint32 struct {
	v atomic.Uint32
}

// Load atomically loads and returns the value.
func (x *Uint32) Load() uint32 {
	tr := interleave.Point(interleave.Load, x)
	v := x.v.Load()
	if tr {
		interleave.Result(v)
	}
	return v
}

// Store atomically stores v.
func (x *Uint32) Store(v uint32) {
	tr := interleave.Point(interleave.Store, x)
	x.v.Store(v)
	if tr {
		interleave.Result(v)
	}
}

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint32) CompareAndSwap(old, new uint32) bool {
	tr := interleave.Point(interleave.CompareAndSwap, x)
	ok := x.v.CompareAndSwap(old, new)
	if tr {
		interleave.Result(old, new, ok)
	}
	return ok
}

// Pointer is an atomic pointer to a T that also allows plain access while
// the object holding it is not yet shared.
type Pointer[T any] struct {
	_ noCopy
	_ [0]*T
	p unsafe.Pointer
}

// Load atomically loads and returns the pointer.
func (x *Pointer[T]) Load() *T {
	tr := interleave.Point(interleave.Load, x)
	v := (*T)(atomic.LoadPointer(&x.p))
	if tr {
		interleave.Result(v)
	}
	return v
}

// Store atomically stores v.
func (x *Pointer[T]) Store(v *T) {
	tr := interleave.Point(interleave.Store, x)
	atomic.StorePointer(&x.p, unsafe.Pointer(v))
	if tr {
		interleave.Result(v)
	}
}

// Swap atomically stores v and returns the previous pointer.
func (x *Pointer[T]) Swap(v *T) *T {
	tr := interleave.Point(interleave.Swap, x)
	old := (*T)(atomic.SwapPointer(&x.p, unsafe.Pointer(v)))
	if tr {
		interleave.Result(v, old)
	}
	return old
}

// CompareAndSwap executes the compare-and-swap operation for the pointer.
func (x *Pointer[T]) CompareAndSwap(old, new *T) bool {
	tr := interleave.Point(interleave.CompareAndSwap, x)
	ok := atomic.CompareAndSwapPointer(&x.p, unsafe.Pointer(old), unsafe.Pointer(new))
	if tr {
		interleave.Result(old, new, ok)
	}
	return ok
}

// Plain returns the pointer without synchronization. The caller must have a
// happens-before relation with the last write, for example because it wrote
// it itself or loaded the enclosing object with an atomic load after it was
// published. Plain accesses are not scheduling points.
func (x *Pointer[T]) Plain() *T { return (*T)(x.p) }

// SetPlain stores v without synchronization. It is for objects that no other
// goroutine can reach yet, or can reach only through a later atomic
// publication; anything else is a data race. Plain accesses are not
// scheduling points.
func (x *Pointer[T]) SetPlain(v *T) { x.p = unsafe.Pointer(v) }

// Mutex is a mutual exclusion lock. The queues use it only where their
// design serializes thieves; owners never take it.
//
// In an exploration a thread that wants a mutex another thread holds is not
// runnable until the holder unlocks it.
type Mutex struct {
	mu sync.Mutex
}

// Lock locks m, waiting until it is available.
func (m *Mutex) Lock() {
	interleave.Point(interleave.Lock, m) // returns when m is free
	m.mu.Lock()
	interleave.Acquired(m)
}

// Unlock unlocks m.
func (m *Mutex) Unlock() {
	interleave.Point(interleave.Unlock, m)
	interleave.Released(m)
	m.mu.Unlock()
}
