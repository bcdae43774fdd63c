package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/pad"
)

// BenchmarkThieves measures what the owner loses to its thieves. The owner
// pushes and pops one item at its end of a queue that holds a backlog of
// several blocks, while k thieves steal from the other end: one item at a
// time (steal=one) or thievesPart of the queue (steal=part). It runs every
// queue of the catalog with k = 0 to GOMAXPROCS-1 thieves (at least 1).
//
// One op is the owner's Push and Pop. Every thievesCheck ops the owner
// loads Len and tops the backlog up with one PushBatch, as a producing
// worker replaces the work thieves take. The faster the thieves steal, the
// more the owner pushes; so ns/op is the owner's time for its pairs alone:
// the top-ups are timed with the clock (two readings per thievesCheck ops)
// and left out. The metrics:
//
//	ns/op        the owner's push and pop, top-ups left out
//	slowdown     ns/op with k thieves over ns/op with none, in the same
//	             run (run thieves=0 with the others to get it)
//	topup-ns/op  the owner's time topping the backlog up, per op
//	stolen/s     the items the thieves took, per second
//	stolen/op    the items the thieves took, per owner op
//
// Every run checks that each item was taken exactly once (count and sum).
// Run it with -cpu to vary k on a large machine:
//
//	go test -run '^$' -bench Thieves -cpu 16 -count 6 ./bench
func BenchmarkThieves(b *testing.B) {
	for _, name := range catalog.Names() {
		for _, steal := range []string{"one", "part"} {
			alone := 0.0 // ns/op with no thief
			for k := range max(runtime.GOMAXPROCS(0), 2) {
				b.Run(fmt.Sprintf("queue=%s/thieves=%d/steal=%s", name, k, steal), func(b *testing.B) {
					ns := ownerAmongThieves(b, name, k, steal == "part")
					if k == 0 {
						alone = ns
					}
					if alone > 0 {
						b.ReportMetric(ns/alone, "slowdown")
					}
				})
			}
		}
	}
}

const (
	// thievesBacklog is the backlog BenchmarkThieves keeps: several
	// blocks of blockq's (blocks sized to a quarter of the queue), or half
	// a bounded queue.
	thievesBacklog = 4096
	// thievesCheck is how often, in owner ops, the owner tops it up.
	thievesCheck = 256
	// thievesPart is the proportion a thief takes with steal=part.
	thievesPart = 0.1
)

// thiefTally is what one thief counts, on its own cache line.
type thiefTally struct {
	calls  int    // steal calls
	stolen int    // items taken
	sum    uint64 // of the items taken
	_      pad.Line
}

// ownerAmongThieves runs BenchmarkThieves for one queue and k thieves and
// returns ns/op.
func ownerAmongThieves(b *testing.B, name string, k int, part bool) float64 {
	q, err := catalog.New[int](name)
	if err != nil {
		b.Fatal(err)
	}
	backlog := thievesBacklog
	if c := q.Contract().Capacity; c > 0 {
		backlog = c / 2
	}
	tallies := make([]thiefTally, k)
	var start, stop atomic.Bool
	var done sync.WaitGroup
	done.Add(k)
	for i := range tallies {
		go func(t *thiefTally) {
			defer done.Done()
			for !start.Load() {
				runtime.Gosched()
			}
			var buf []int
			for !stop.Load() {
				t.calls++
				if part {
					buf = q.StealBatch(buf[:0], thievesPart)
					for _, v := range buf {
						t.sum += uint64(v)
					}
					t.stolen += len(buf)
					continue
				}
				if v, ok := q.Steal(); ok {
					t.stolen++
					t.sum += uint64(v)
				}
			}
		}(&tallies[i])
	}
	next := 0 // the next item to push: items are 0, 1, 2, ...
	batch := make([]int, 0, backlog)
	topUp := func(n int) {
		batch = batch[:0]
		for range n {
			batch = append(batch, next)
			next++
		}
		if got := q.PushBatch(batch); got != n {
			b.Fatalf("%s took %d of %d items with %d in it", name, got, n, q.Len())
		}
	}
	topUp(backlog)
	b.ReportAllocs()
	b.ResetTimer()
	start.Store(true)
	popped, sum := 0, uint64(0)
	var topping time.Duration
	for i := range b.N {
		if !q.Push(next) {
			b.Fatalf("%s refused an item with %d in it", name, q.Len())
		}
		next++
		if v, ok := q.Pop(); ok {
			popped++
			sum += uint64(v)
		}
		if i%thievesCheck == thievesCheck-1 {
			t0 := time.Now()
			if n := q.Len(); n < backlog {
				topUp(backlog - n)
			}
			topping += time.Since(t0)
		}
	}
	b.StopTimer()
	stop.Store(true)
	start.Store(true) // for b.N so small that a thief had not started
	done.Wait()
	for {
		v, ok := q.Pop()
		if !ok {
			break
		}
		popped++
		sum += uint64(v)
	}
	stolen := 0
	for _, t := range tallies {
		stolen += t.stolen
		sum += t.sum
	}
	if n := uint64(next); popped+stolen != next || sum != n*(n-1)/2 {
		b.Fatalf("%d items pushed (sum %d); %d popped and %d stolen (sum %d)", next, n*(n-1)/2, popped, stolen, sum)
	}
	n := float64(b.N)
	b.ReportMetric(float64(stolen)/n, "stolen/op")
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(stolen)/s, "stolen/s")
	}
	b.ReportMetric(float64(topping.Nanoseconds())/n, "topup-ns/op")
	ns := float64((b.Elapsed() - topping).Nanoseconds()) / n
	b.ReportMetric(ns, "ns/op")
	return ns
}
