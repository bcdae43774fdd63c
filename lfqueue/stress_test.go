package lfqueue_test

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/lfqueue"
)

// TestInvariantsAfterRaces runs many short races between the owner and one
// or two thieves on tiny queues, where pops, in-flight pushes and
// reservations of the last items meet, and checks the list invariants and
// the accounting each time all goroutines have stopped.
func TestInvariantsAfterRaces(t *testing.T) {
	rounds := testenv.Size(300, 300, 3000)
	for _, opts := range [][]lfqueue.Option{nil, {lfqueue.WithSkipCount()}} {
		q := lfqueue.New[int](opts...)
		rng := rand.New(rand.NewPCG(7, 7))
		next, got := 1, 0
		var sum, want int
		for round := 0; round < rounds; round++ {
			thieves := 1 + rng.IntN(2)
			var wg sync.WaitGroup
			var stolen, stolenSum atomic.Int64
			for th := 0; th < thieves; th++ {
				wg.Add(1)
				go func(seed uint64) {
					defer wg.Done()
					r := rand.New(rand.NewPCG(seed, 1))
					for i := 0; i < 4; i++ {
						var vs []int
						switch r.IntN(3) {
						case 0:
							if v, ok := q.Steal(); ok {
								vs = append(vs, v)
							}
						case 1:
							vs = q.StealBatch(nil, []float64{0.3, 0.5, 1}[r.IntN(3)])
						default:
							if pc := q.StealParcel([]float64{0.3, 0.5, 1}[r.IntN(3)]); pc != nil {
								vs = pc.Drain(nil)
							}
						}
						for _, v := range vs {
							stolen.Add(1)
							stolenSum.Add(int64(v))
						}
					}
				}(uint64(round*3 + th))
			}
			for i := 0; i < 6; i++ {
				switch rng.IntN(4) {
				case 0:
					q.Push(next)
					want += next
					next++
				case 1, 2:
					m := 1 + rng.IntN(3)
					vs := make([]int, m)
					for j := range vs {
						vs[j] = next
						want += next
						next++
					}
					if rng.IntN(2) == 0 {
						q.PushBatch(vs)
					} else {
						var l lfqueue.List[int]
						for _, v := range vs {
							l.Append(v)
						}
						q.PushList(&l)
					}
				default:
					if v, ok := q.Pop(); ok {
						got++
						sum += v
					}
				}
			}
			wg.Wait()
			got += int(stolen.Load())
			sum += int(stolenSum.Load())
			require.Equal(t, "", q.CheckInvariants(), "round %d", round)
			require.Equal(t, next-1-got, q.Len(), "round %d: items in the queue", round)
		}
		for {
			v, ok := q.Pop()
			if !ok {
				break
			}
			got++
			sum += v
		}
		require.Equal(t, next-1, got)
		require.Equal(t, want, sum)
	}
}

// TestNodesReleased checks that the queue keeps no chain of removed nodes
// reachable: after items have been pushed, stolen into a second queue as
// sub-lists, popped and stolen there, and each queue has seen one more push
// and one more steal, every node of the first batches is collectable.
func TestNodesReleased(t *testing.T) {
	for _, opts := range [][]lfqueue.Option{nil, {lfqueue.WithSkipCount()}} {
		a, b := lfqueue.New[int](opts...), lfqueue.New[int](opts...)
		var freed atomic.Int64
		const batches, size = 50, 200
		for i := 0; i < batches; i++ {
			a.PushList(trackedList(i*size, size, &freed))
			if i%3 == 0 {
				a.Pop()
			}
			if i%4 == 0 {
				b.PushParcel(a.StealParcel(0.4))
				b.Pop()
			}
		}
		b.PushParcel(a.StealParcel(0.5))
		for _, q := range []*lfqueue.Queue[int]{a, b} {
			q.StealBatch(nil, 0.3)
			for {
				if _, ok := q.Pop(); !ok {
					break
				}
			}
			q.Push(-1) // replaces the push record that still leads to popped nodes
			v, ok := q.Steal()
			require.True(t, ok)
			require.Equal(t, -1, v)
			_, ok = q.Steal() // an empty steal drops the remembered cut node
			require.False(t, ok)
		}
		waitFreed(t, &freed, batches*size)
		runtime.KeepAlive(a)
		runtime.KeepAlive(b)
	}
}

// TestStealAllReleasesNodes checks that a steal that takes every item leaves
// none of the stolen nodes reachable from the queue once the owner has seen
// it empty, without another push: neither through the last push record
// nor through the owner's own.newest.
func TestStealAllReleasesNodes(t *testing.T) {
	for _, opts := range [][]lfqueue.Option{nil, {lfqueue.WithSkipCount()}} {
		for _, native := range []bool{false, true} {
			q := lfqueue.New[int](opts...)
			var freed atomic.Int64
			const lists, size = 100, 3
			for i := 0; i < lists; i++ {
				q.PushList(trackedList(i*size, size, &freed))
			}
			if native {
				pc := q.StealParcel(1)
				require.NotNil(t, pc)
				require.Equal(t, lists*size, pc.Len())
				l := pc.(*lfqueue.List[int])
				for {
					if _, ok := l.Pop(); !ok {
						break
					}
				}
			} else {
				require.Len(t, q.StealBatch(nil, 1), lists*size)
			}
			_, ok := q.Pop() // the owner sees the queue empty
			require.False(t, ok)
			waitFreed(t, &freed, lists*size)
			runtime.KeepAlive(q)
		}
	}
}

// trackedList returns a list of from, from+1, ..., from+n-1 whose nodes
// count themselves in freed when the garbage collector frees them.
func trackedList(from, n int, freed *atomic.Int64) *lfqueue.List[int] {
	l := new(lfqueue.List[int])
	l.Grow(n)
	for j := 0; j < n; j++ {
		l.Append(from + j)
	}
	l.TrackNodes(freed)
	return l
}

// waitFreed collects garbage until want tracked nodes were freed; the
// deadline only turns a leak into a failure.
func waitFreed(t *testing.T, freed *atomic.Int64, want int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for freed.Load() < int64(want) {
		require.True(t, time.Now().Before(deadline), "only %d of %d removed nodes were freed", freed.Load(), want)
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
