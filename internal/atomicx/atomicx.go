package atomicx

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe" // Pointer needs atomic and plain access to one word; atomic.Pointer offers no plain access.
)

// Every method below is declared once, for every build. A method that is a
// scheduling point starts with "if checking": in a normal build checking is
// the constant false, the compiler drops the branch before it weighs the
// method for inlining, and what is left is the sync/atomic operation. In
// the checking builds (seam_check.go, seam_chaos.go) the branch calls the
// seam's hooks around the same operation.

// noCopy lets go vet's copylocks check report copies of the types that embed
// it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// op is the kind of operation a hook is told about.
type op uint8

const (
	opLoad op = iota + 1
	opStore
	opSwap
	opCompareAndSwap
	opLock
	opUnlock
	opTryLock
	opWait
	opStoreRelease
)

// Uint64 is an atomic uint64, 64-bit aligned on every platform.
type Uint64 struct {
	v atomic.Uint64
}

// Load atomically loads and returns the value.
func (x *Uint64) Load() uint64 {
	if checking && before(opLoad, x) {
		v := x.v.Load()
		after(v)
		return v
	}
	return x.v.Load()
}

// Store atomically stores v.
func (x *Uint64) Store(v uint64) {
	if checking && before(opStore, x) {
		x.v.Store(v)
		after(v)
		return
	}
	x.v.Store(v)
}

// SpinWait waits a little for another goroutine to change x: it yields the
// processor. It is for a loop that has just loaded x and cannot progress
// until another goroutine writes it (a thief waiting for another thief to
// release a word only one of them may hold); the loop loads x again after
// it. In an exploration it is a scheduling point after which the thread is
// not runnable until another thread has written x since that load, so the
// caller must not pass another scheduling point between the load and the
// wait.
func (x *Uint64) SpinWait() {
	if checking && before(opWait, x) {
		after()
		return
	}
	runtime.Gosched()
}

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint64) CompareAndSwap(old, new uint64) bool {
	if checking && before(opCompareAndSwap, x) {
		ok := x.v.CompareAndSwap(old, new)
		after(old, new, ok)
		return ok
	}
	return x.v.CompareAndSwap(old, new)
}

// Uint32 is an atomic uint32.
type Uint32 struct {
	v atomic.Uint32
}

// Load atomically loads and returns the value.
func (x *Uint32) Load() uint32 {
	if checking && before(opLoad, x) {
		v := x.v.Load()
		after(v)
		return v
	}
	return x.v.Load()
}

// Store atomically stores v.
func (x *Uint32) Store(v uint32) {
	if checking && before(opStore, x) {
		x.v.Store(v)
		after(v)
		return
	}
	x.v.Store(v)
}

// CompareAndSwap executes the compare-and-swap operation for the value.
func (x *Uint32) CompareAndSwap(old, new uint32) bool {
	if checking && before(opCompareAndSwap, x) {
		ok := x.v.CompareAndSwap(old, new)
		after(old, new, ok)
		return ok
	}
	return x.v.CompareAndSwap(old, new)
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
	if checking && before(opLoad, x) {
		v := (*T)(atomic.LoadPointer(&x.p))
		after(v)
		return v
	}
	return (*T)(atomic.LoadPointer(&x.p))
}

// Store atomically stores v.
func (x *Pointer[T]) Store(v *T) {
	if checking && before(opStore, x) {
		atomic.StorePointer(&x.p, unsafe.Pointer(v))
		after(v)
		return
	}
	atomic.StorePointer(&x.p, unsafe.Pointer(v))
}

// Swap atomically stores v and returns the previous pointer.
func (x *Pointer[T]) Swap(v *T) *T {
	if checking && before(opSwap, x) {
		old := (*T)(atomic.SwapPointer(&x.p, unsafe.Pointer(v)))
		after(v, old)
		return old
	}
	return (*T)(atomic.SwapPointer(&x.p, unsafe.Pointer(v)))
}

// CompareAndSwap executes the compare-and-swap operation for the pointer.
func (x *Pointer[T]) CompareAndSwap(old, new *T) bool {
	if checking && before(opCompareAndSwap, x) {
		ok := atomic.CompareAndSwapPointer(&x.p, unsafe.Pointer(old), unsafe.Pointer(new))
		after(old, new, ok)
		return ok
	}
	return atomic.CompareAndSwapPointer(&x.p, unsafe.Pointer(old), unsafe.Pointer(new))
}

// Plain returns the pointer without synchronization. The caller must have a
// happens-before relation with the last write, for example because it wrote
// it itself or loaded the enclosing object with an atomic load after it was
// published. Plain accesses are never scheduling points.
func (x *Pointer[T]) Plain() *T { return (*T)(x.p) }

// SetPlain stores v without synchronization. It is for objects that no other
// goroutine can reach yet, or can reach only through a later atomic
// publication; anything else is a data race. Plain accesses are never
// scheduling points.
func (x *Pointer[T]) SetPlain(v *T) { x.p = unsafe.Pointer(v) }

// Mutex is a mutual exclusion lock. The queues use it only where their
// design serializes thieves; owners never take it.
//
// In an interleaving exploration a thread that wants a mutex another thread
// holds is not runnable until the holder unlocks it.
type Mutex struct {
	mu sync.Mutex
}

// Lock locks m, waiting until it is available.
func (m *Mutex) Lock() {
	if checking {
		before(opLock, m) // in an exploration, returns when m is free
		m.mu.Lock()
		acquired(m)
		return
	}
	m.mu.Lock()
}

// TryLock locks m if it is free and reports whether it did; it never
// waits. In an exploration it is a scheduling point that any thread may
// take, whether m is held or not.
func (m *Mutex) TryLock() bool {
	if checking {
		before(opTryLock, m)
		ok := m.mu.TryLock()
		if ok {
			acquired(m)
		}
		after(ok)
		return ok
	}
	return m.mu.TryLock()
}

// Unlock unlocks m.
func (m *Mutex) Unlock() {
	if checking {
		before(opUnlock, m)
		released(m)
	}
	m.mu.Unlock()
}
