package chaselev

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPopFence races the owner's Pop against thieves for the items of a
// deque of two, the race that Pop's fence settles: in each round the owner
// pushes two items and pops twice, so the first Pop lowers tail and loads
// head while a thief's Steal, or StealBatch of everything, may claim the
// same item from a tail loaded before that store was visible. Every item
// must be received exactly once. The interleaving checks explore this race
// with sequentially consistent atomics only; this test runs it on the
// processor, where a store that is not a fence (a release store, a plain
// MOV on amd64) lets the load of head pass it and both sides take the item
// (TestMutantFoundByHardware builds that variant and runs this test on it).
func TestPopFence(t *testing.T) {
	rounds := 200_000
	if testing.Short() {
		rounds = 20_000
	}
	q := NewUnbounded[int](64)
	owner := make([]uint8, 2*rounds)
	thief := make([]uint8, 2*rounds)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var buf []int
		for i := 0; !stop.Load(); i++ {
			if i%2 == 0 {
				if v, ok := q.Steal(); ok {
					thief[v]++
				}
				continue
			}
			buf = q.StealBatch(buf[:0], 1)
			for _, v := range buf {
				thief[v]++
			}
		}
	}()
	pair := make([]int, 2)
	for i := range rounds {
		pair[0], pair[1] = 2*i, 2*i+1
		q.PushBatch(pair)
		for range 2 {
			if v, ok := q.Pop(); ok {
				owner[v]++
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	for {
		v, ok := q.Pop()
		if !ok {
			break
		}
		owner[v]++
	}
	bad := 0
	for v := range owner {
		if n := owner[v] + thief[v]; n != 1 {
			if bad++; bad <= 5 {
				t.Errorf("item %d received %d times (owner %d, thief %d)", v, n, owner[v], thief[v])
			}
		}
	}
	assert.Zero(t, bad, "items not received exactly once")
}
