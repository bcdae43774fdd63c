package atomicx_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/worksteal/wsq/internal/atomicx"
)

// box is what the writer of TestStoreReleasePublishes publishes: a fresh
// object whose fields it writes before the release store.
type box struct{ v, w int }

// TestStoreReleasePublishes is the message-passing pattern release stores
// exist for. In each round a writer makes plain writes (a slot of a shared
// slice, a fresh object) and then publishes them with one release store,
// by turns of a Uint64, a Uint32 and a Pointer; a reader waits until its
// atomic Load sees the published value and checks that it sees the plain
// writes too, then acknowledges. Under the race detector the checked
// accesses are races unless the release store synchronizes with the load;
// elsewhere a store that became visible before the writes it publishes
// would show the reader a stale slot or a zero field. A collection runs
// throughout, so that the pointer stores meet the write barrier, and a
// published object the collector failed to mark would be reused under the
// reader.
func TestStoreReleasePublishes(t *testing.T) {
	rounds := 100_000
	if testing.Short() {
		rounds = 10_000
	}
	var (
		u64   atomicx.Uint64
		u32   atomicx.Uint32
		ptr   atomicx.Pointer[box]
		ack   atomic.Int64
		slots = make([]int, 64)
		plain *box // published by u64 and u32
		stop  atomic.Bool
		wg    sync.WaitGroup
	)
	wg.Add(3)
	go func() { // the collector
		defer wg.Done()
		for !stop.Load() {
			runtime.GC()
		}
	}()
	go func() { // the writer
		defer wg.Done()
		for i := 1; i <= rounds; i++ {
			slots[i%len(slots)] = i
			b := &box{v: i, w: -i}
			switch i % 3 {
			case 0:
				ptr.StoreRelease(b)
			case 1:
				plain = b
				u64.StoreRelease(uint64(i))
			case 2:
				plain = b
				u32.StoreRelease(uint32(i))
			}
			for ack.Load() != int64(i) {
				runtime.Gosched()
			}
		}
	}()
	bad := 0
	var last *box // the last object published by ptr
	// The reader.
	func() {
		defer wg.Done()
		for i := 1; i <= rounds; i++ {
			var b *box
			for b == nil {
				switch i % 3 {
				case 0:
					if p := ptr.Load(); p != last {
						b, last = p, p
					}
				case 1:
					if u64.Load() == uint64(i) {
						b = plain
					}
				case 2:
					if u32.Load() == uint32(i) {
						b = plain
					}
				}
				if b == nil {
					runtime.Gosched()
				}
			}
			if b.v != i || b.w != -i || slots[i%len(slots)] != i {
				if bad++; bad <= 5 {
					t.Errorf("round %d: the reader saw the object {%d, %d} and slot %d", i, b.v, b.w, slots[i%len(slots)])
				}
			}
			ack.Store(int64(i))
		}
	}()
	stop.Store(true)
	wg.Wait()
	assert.Zero(t, bad, "rounds in which a published write was missing")
}
