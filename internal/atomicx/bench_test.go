//go:build !wsqcheck && !wsqchaos

package atomicx_test

import (
	"sync/atomic"
	"testing"

	"github.com/worksteal/wsq/internal/atomicx"
)

// The seam costs nothing in a normal build: each benchmark times the same
// loop through atomicx and through sync/atomic directly, and the pairs must
// agree within noise. (TestQueuesInlined in examples/quickstart checks the
// machine code of the queues in a program that reaches them only through
// catalog, where inlining needs more than these methods' small size.)
//
//	go test -run '^$' -bench . -count 5 ./internal/atomicx

var sinkU64 uint64

func BenchmarkUint64Load(b *testing.B) {
	b.Run("impl=atomicx", func(b *testing.B) {
		b.ReportAllocs()
		var x atomicx.Uint64
		var s uint64
		for range b.N {
			s += x.Load()
		}
		sinkU64 = s
	})
	b.Run("impl=sync-atomic", func(b *testing.B) {
		b.ReportAllocs()
		var x atomic.Uint64
		var s uint64
		for range b.N {
			s += x.Load()
		}
		sinkU64 = s
	})
}

func BenchmarkUint64CompareAndSwap(b *testing.B) {
	b.Run("impl=atomicx", func(b *testing.B) {
		b.ReportAllocs()
		var x atomicx.Uint64
		for i := range uint64(b.N) {
			x.CompareAndSwap(i, i+1)
		}
		sinkU64 = x.Load()
	})
	b.Run("impl=sync-atomic", func(b *testing.B) {
		b.ReportAllocs()
		var x atomic.Uint64
		for i := range uint64(b.N) {
			x.CompareAndSwap(i, i+1)
		}
		sinkU64 = x.Load()
	})
}

func BenchmarkPointerLoad(b *testing.B) {
	v := new(int)
	b.Run("impl=atomicx", func(b *testing.B) {
		b.ReportAllocs()
		var x atomicx.Pointer[int]
		x.Store(v)
		n := 0
		for range b.N {
			if x.Load() != nil {
				n++
			}
		}
		sinkU64 = uint64(n)
	})
	b.Run("impl=sync-atomic", func(b *testing.B) {
		b.ReportAllocs()
		var x atomic.Pointer[int]
		x.Store(v)
		n := 0
		for range b.N {
			if x.Load() != nil {
				n++
			}
		}
		sinkU64 = uint64(n)
	})
}

// BenchmarkUint64StoreRelease times a release store against sync/atomic's
// Store and a plain store of the same word. They are not the same
// operation: the pairs above show that the seam is free, this one what a
// release store saves. On amd64 the release store is a call of an
// assembly MOV (it cannot inline), sync/atomic's Store an XCHG; on arm64
// both are STLR.
func BenchmarkUint64StoreRelease(b *testing.B) {
	b.Run("impl=atomicx-release", func(b *testing.B) {
		b.ReportAllocs()
		var x atomicx.Uint64
		for i := range uint64(b.N) {
			x.StoreRelease(i)
		}
		sinkU64 = x.Load()
	})
	b.Run("impl=sync-atomic-store", func(b *testing.B) {
		b.ReportAllocs()
		var x atomic.Uint64
		for i := range uint64(b.N) {
			x.Store(i)
		}
		sinkU64 = x.Load()
	})
	b.Run("impl=plain", func(b *testing.B) {
		b.ReportAllocs()
		x := new(uint64)
		for i := range uint64(b.N) {
			*x = i
		}
		sinkU64 = *x
	})
}

func BenchmarkPointerStoreRelease(b *testing.B) {
	vs := [2]*int{new(int), new(int)}
	b.Run("impl=atomicx-release", func(b *testing.B) {
		b.ReportAllocs()
		var x atomicx.Pointer[int]
		for i := range b.N {
			x.StoreRelease(vs[i&1])
		}
		sinkU64 = uint64(*x.Load())
	})
	b.Run("impl=sync-atomic-store", func(b *testing.B) {
		b.ReportAllocs()
		var x atomic.Pointer[int]
		for i := range b.N {
			x.Store(vs[i&1])
		}
		sinkU64 = uint64(*x.Load())
	})
}
