package atomicx_test

import (
	"github.com/worksteal/wsq/internal/atomicx"
)

// op is one call of one method of the API, with the number of scheduling
// points it must be in the check build: one for every atomic operation and
// mutex operation, none for plain accesses. The list calls every method of
// every type, so a method missing from either build fails to compile here,
// except Uint64.SpinWait: in an exploration of one thread it would wait
// forever for another thread's write (TestSpinWait covers it).
type op struct {
	name   string
	points int
	do     func() bool // reports whether the result is as expected
}

func ops() []op {
	var (
		u64 atomicx.Uint64
		u32 atomicx.Uint32
		ptr atomicx.Pointer[int]
		mu  atomicx.Mutex
	)
	a, b := new(int), new(int)
	return []op{
		{"Uint64.Store", 1, func() bool { u64.Store(5); return true }},
		{"Uint64.Load", 1, func() bool { return u64.Load() == 5 }},
		{"Uint64.CompareAndSwap", 1, func() bool { return u64.CompareAndSwap(5, 9) }},
		{"Uint64.CompareAndSwap", 1, func() bool { return !u64.CompareAndSwap(5, 1) }},
		{"Uint64.StoreRelease", 1, func() bool { u64.StoreRelease(11); return true }},
		{"Uint64.Load", 1, func() bool { return u64.Load() == 11 }},
		{"Uint32.Store", 1, func() bool { u32.Store(5); return true }},
		{"Uint32.Load", 1, func() bool { return u32.Load() == 5 }},
		{"Uint32.CompareAndSwap", 1, func() bool { return u32.CompareAndSwap(5, 9) }},
		{"Uint32.CompareAndSwap", 1, func() bool { return !u32.CompareAndSwap(5, 1) }},
		{"Uint32.StoreRelease", 1, func() bool { u32.StoreRelease(11); return true }},
		{"Uint32.Load", 1, func() bool { return u32.Load() == 11 }},
		{"Pointer.SetPlain", 0, func() bool { ptr.SetPlain(a); return true }},
		{"Pointer.Plain", 0, func() bool { return ptr.Plain() == a }},
		{"Pointer.Store", 1, func() bool { ptr.Store(b); return true }},
		{"Pointer.Load", 1, func() bool { return ptr.Load() == b }},
		{"Pointer.Swap", 1, func() bool { return ptr.Swap(a) == b }},
		{"Pointer.CompareAndSwap", 1, func() bool { return ptr.CompareAndSwap(a, b) }},
		{"Pointer.CompareAndSwap", 1, func() bool { return !ptr.CompareAndSwap(a, nil) }},
		{"Pointer.Plain", 0, func() bool { return ptr.Plain() == b }},
		{"Pointer.StoreRelease", 1, func() bool { ptr.StoreRelease(a); return true }},
		{"Pointer.Load", 1, func() bool { return ptr.Load() == a }},
		{"Mutex.Lock", 1, func() bool { mu.Lock(); return true }},
		{"Mutex.Unlock", 1, func() bool { mu.Unlock(); return true }},
		{"Mutex.TryLock", 1, func() bool { return mu.TryLock() }},
		{"Mutex.TryLock", 1, func() bool { return !mu.TryLock() }},
		{"Mutex.Unlock", 1, func() bool { mu.Unlock(); return true }},
	}
}
