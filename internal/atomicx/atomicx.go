//go:build !wsqcheck

package atomicx

import (
	"sync"
	"sync/atomic"
	"unsafe"
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
func (x *Uint64) Load() uint64 { return x.v.Load() }

// Store atomically stores v.
func (x *Uint64) Store(v uint64) { x.v.Store(v) }

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint64) CompareAndSwap(old, new uint64) bool { return x.v.CompareAndSwap(old, new) }

// Uint32 is an atomic uint32.
type Uint32 struct {
	v atomic.Uint32
}

// Load atomically loads and returns the value.
func (x *Uint32) Load() uint32 { return x.v.Load() }

// Store atomically stores v.
func (x *Uint32) Store(v uint32) { x.v.Store(v) }

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint32) CompareAndSwap(old, new uint32) bool { return x.v.CompareAndSwap(old, new) }

// Pointer is an atomic pointer to a T that also allows plain access while
// the object holding it is not yet shared.
type Pointer[T any] struct {
	_ noCopy
	_ [0]*T
	p unsafe.Pointer
}

// Load atomically loads and returns the pointer.
func (x *Pointer[T]) Load() *T { return (*T)(atomic.LoadPointer(&x.p)) }

// Store atomically stores v.
func (x *Pointer[T]) Store(v *T) { atomic.StorePointer(&x.p, unsafe.Pointer(v)) }

// Swap atomically stores v and returns the previous pointer.
func (x *Pointer[T]) Swap(v *T) *T { return (*T)(atomic.SwapPointer(&x.p, unsafe.Pointer(v))) }

// CompareAndSwap executes the compare-and-swap operation for the pointer.
func (x *Pointer[T]) CompareAndSwap(old, new *T) bool {
	return atomic.CompareAndSwapPointer(&x.p, unsafe.Pointer(old), unsafe.Pointer(new))
}

// Plain returns the pointer without synchronization. The caller must have a
// happens-before relation with the last write, for example because it wrote
// it itself or loaded the enclosing object with an atomic load after it was
// published.
func (x *Pointer[T]) Plain() *T { return (*T)(x.p) }

// SetPlain stores v without synchronization. It is for objects that no other
// goroutine can reach yet, or can reach only through a later atomic
// publication; anything else is a data race.
func (x *Pointer[T]) SetPlain(v *T) { x.p = unsafe.Pointer(v) }

// Mutex is a mutual exclusion lock. The queues use it only where their
// design serializes thieves; owners never take it.
type Mutex struct {
	mu sync.Mutex
}

// Lock locks m, waiting until it is available.
func (m *Mutex) Lock() { m.mu.Lock() }

// Unlock unlocks m.
func (m *Mutex) Unlock() { m.mu.Unlock() }
