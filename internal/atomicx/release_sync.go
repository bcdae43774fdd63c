//go:build !amd64 || race

package atomicx

import (
	"sync/atomic"
	"unsafe" // storeReleasePointer stores an unsafe.Pointer.
)

// Off amd64, and under the race detector, a release store is sync/atomic's
// Store (release.go says why that is correct, and on arm64 the best there
// is: the compiler emits it inline as STLR).

func storeRelease64(x *atomic.Uint64, v uint64) { x.Store(v) }

func storeRelease32(x *atomic.Uint32, v uint32) { x.Store(v) }

func storeReleasePointer(p *unsafe.Pointer, v unsafe.Pointer) { atomic.StorePointer(p, v) }
