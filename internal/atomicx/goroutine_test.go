package atomicx

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Goroutine is the same for one goroutine, wherever it runs, and differs
// between goroutines alive at once.
func TestGoroutine(t *testing.T) {
	const n = 16
	me := Goroutine()
	assert.Equal(t, me, Goroutine())
	ids := make([]uint64, n)
	var started, done sync.WaitGroup
	release := make(chan struct{})
	started.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			ids[i] = Goroutine()
			started.Done()
			<-release // alive until every one has read its number
			if ids[i] != Goroutine() {
				t.Errorf("goroutine %d: its number changed", i)
			}
		}()
	}
	started.Wait()
	close(release)
	done.Wait()
	seen := map[uint64]bool{me: true}
	for i, id := range ids {
		assert.False(t, seen[id], "goroutine %d has the number of another live goroutine", i)
		seen[id] = true
	}
}
