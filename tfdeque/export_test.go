package tfdeque

import (
	"reflect"
	"unsafe"

	"github.com/worksteal/wsq/internal/atomicx"
)

// Test-only access to internals.

// SetStart moves the positions of the underlying chaselev deque, which must
// be new and unused, to start, so that tests can run it across the 32-bit
// wrap-around of its positions. It reaches into chaselev's private fields by
// name and type, mirroring chaselev's own test hook (head packs the release
// and claim positions as s<<32 | real); it panics if a field is missing or
// has another type, and TestSetStart checks the result through the public
// API.
func (q *Deque[T]) SetStart(start uint32) {
	v := reflect.ValueOf(q.d).Elem()
	at := func(name string, typ reflect.Type) unsafe.Pointer {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Type() != typ {
			panic("tfdeque: chaselev.Deque has no field " + name + " of type " + typ.String())
		}
		return unsafe.Pointer(f.UnsafeAddr())
	}
	if (*atomicx.Uint64)(at("head", reflect.TypeFor[atomicx.Uint64]())).Load() != 0 {
		panic("tfdeque: SetStart on a used deque")
	}
	(*atomicx.Uint64)(at("head", reflect.TypeFor[atomicx.Uint64]())).Store(uint64(start)<<32 | uint64(start))
	(*atomicx.Uint32)(at("tail", reflect.TypeFor[atomicx.Uint32]())).Store(start)
	*(*uint32)(at("bottom", reflect.TypeFor[uint32]())) = start
	*(*uint32)(at("seen", reflect.TypeFor[uint32]())) = start
}

// Tail returns the position one past the newest item.
func (q *Deque[T]) Tail() uint32 {
	f := reflect.ValueOf(q.d).Elem().FieldByName("tail")
	return (*atomicx.Uint32)(unsafe.Pointer(f.UnsafeAddr())).Load()
}
