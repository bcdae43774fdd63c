package queuetest

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testRelease checks that items removed from a queue are not kept reachable
// by it: the garbage collector must be able to free them while the queue
// itself is still in use. Items still in the queue must stay alive.
func testRelease(t testing.TB, cfg Config) {
	const n = 1000
	q := cfg.NewPtr()
	var mu sync.Mutex
	freed := map[int]bool{}
	for i := 0; i < n; i++ {
		if c := q.Contract().Capacity; c > 0 && q.Len() >= c {
			break
		}
		p := &Payload{ID: i}
		runtime.AddCleanup(p, func(id int) {
			mu.Lock()
			freed[id] = true
			mu.Unlock()
		}, i)
		require.True(t, q.Push(p))
	}
	total := q.Len()
	require.Greater(t, total, 0)

	// Remove the older half by steals and the newest quarter by pops,
	// remembering only ids so that nothing here keeps a payload alive.
	// The steals come first: a queue whose owner holds items after a pop
	// (wsq.Contract.OwnerHolds) would show thieves fewer.
	popped, stolen := map[int]bool{}, map[int]bool{}
	var buf []*Payload
	for len(stolen) < total/2 {
		if len(stolen)%3 == 0 {
			p, ok := q.Steal()
			require.True(t, ok)
			stolen[p.ID] = true
			continue
		}
		buf = q.StealBatch(buf[:0], 0.1)
		require.NotEmpty(t, buf)
		for _, p := range buf {
			stolen[p.ID] = true
		}
	}
	clear(buf)
	buf = nil
	for i := 0; i < total/4; i++ {
		p, ok := q.Pop()
		require.True(t, ok)
		popped[p.ID] = true
	}
	// Push and pop once more so that any stale reference the owner keeps to
	// a removed item (a lazily cleared head, for example) is overwritten.
	require.True(t, q.Push(&Payload{ID: -1}))
	p, ok := q.Pop()
	require.True(t, ok)
	require.Equal(t, -1, p.ID)
	p = nil

	want := map[int]bool{}
	for id := range popped {
		want[id] = true
	}
	for id := range stolen {
		want[id] = true
	}
	waitFreed(t, &mu, freed, want)
	mu.Lock()
	for id := range freed {
		if !popped[id] && !stolen[id] {
			mu.Unlock()
			t.Fatalf("payload %d was freed while still in the queue", id)
		}
	}
	mu.Unlock()
	require.Len(t, drain(t, q), total-len(popped)-len(stolen))
}

// releaseDeadline bounds how long waitFreed waits for the garbage collector.
var releaseDeadline = 20 * time.Second

// waitFreed runs the garbage collector until every id in want has been
// freed. It gives up after a generous deadline: cleanups run on their own
// goroutine after a collection, so freeing is observed, not instant.
func waitFreed(t testing.TB, mu *sync.Mutex, freed, want map[int]bool) {
	t.Helper()
	deadline := time.Now().Add(releaseDeadline)
	for {
		runtime.GC()
		mu.Lock()
		missing := -1
		for id := range want {
			if !freed[id] {
				missing = id
				break
			}
		}
		mu.Unlock()
		if missing < 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("payload %d was removed from the queue but is still reachable", missing)
		}
		time.Sleep(time.Millisecond)
	}
}
