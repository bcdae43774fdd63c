package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/pad"
)

// BenchmarkContended measures the owner's push and pop while k thieves work
// on the same queue, for every queue of the catalog and k = 1 to
// GOMAXPROCS-1 (1 when GOMAXPROCS is 1: the thief then shares the
// processor). The queue holds a backlog of contendedBacklog items for the
// thieves at its old end; one op is the owner's Push and Pop at the new end,
// and every contendedCheck ops the owner tops the backlog up again with one
// Push per missing item, as a producing worker replaces the work thieves
// take. The thieves either steal (mode=steal: a loop of Steal calls, one item
// each, as idle workers take work) or probe (mode=probe: a loop of Len
// calls, as idle workers look for a victim; it reads the words the owner
// writes and writes nothing).
//
// ns/op is the owner's time per op, the pushes that replace stolen items
// included (stolen/op of them). stolen/op is how many items the thieves
// took per owner op and steals/op how many Steal calls they made (probes/op:
// Len calls): their throughput next to the owner's, which shows whether an
// owner path that keeps off the thieves' word costs the thieves. Every run
// checks that each item was taken exactly once (counts and sums). Run it
// with -cpu to vary k on a large machine:
//
//	go test -run '^$' -bench Contended -cpu 2,8,64 -count 6 ./bench
func BenchmarkContended(b *testing.B) {
	for _, name := range catalog.Names() {
		for k := 1; k < max(runtime.GOMAXPROCS(0), 2); k++ {
			for _, mode := range []string{"steal", "probe"} {
				b.Run(fmt.Sprintf("queue=%s/thieves=%d/mode=%s", name, k, mode), func(b *testing.B) {
					contended(b, name, k, mode == "steal")
				})
			}
		}
	}
}

// The backlog BenchmarkContended keeps for its thieves, and how often (in
// owner ops) the owner tops it up. The backlog fits a bounded queue of the
// catalog with room for the owner's push.
const (
	contendedBacklog = 128
	contendedCheck   = 64
)

// thiefTally is what one thief of BenchmarkContended counts, on its own
// cache line.
type thiefTally struct {
	calls  int    // Steal or Len calls
	stolen int    // items taken
	sum    uint64 // of the items taken
	_      pad.Line
}

func contended(b *testing.B, name string, k int, steal bool) {
	q, err := catalog.New[int](name)
	if err != nil {
		b.Fatal(err)
	}
	tallies := make([]thiefTally, k)
	var stop atomic.Bool
	var started, done sync.WaitGroup
	started.Add(k)
	done.Add(k)
	for i := range tallies {
		go func(t *thiefTally) {
			defer done.Done()
			started.Done()
			for !stop.Load() {
				t.calls++
				if !steal {
					if q.Len() > contendedBacklog+1 {
						panic("bench: a probe saw more items than the owner keeps")
					}
					continue
				}
				if v, ok := q.Steal(); ok {
					t.stolen++
					t.sum += uint64(v)
				}
			}
		}(&tallies[i])
	}
	started.Wait()
	next := 0 // the next item to push: items are 0, 1, 2, ...
	push := func() {
		if !q.Push(next) {
			b.Fatalf("%s refused an item with %d in it", name, q.Len())
		}
		next++
	}
	for range contendedBacklog {
		push()
	}
	b.ReportAllocs()
	b.ResetTimer()
	popped, sum := 0, uint64(0)
	for i := range b.N {
		push()
		if v, ok := q.Pop(); ok {
			popped++
			sum += uint64(v)
		}
		if i%contendedCheck == 0 {
			for n := q.Len(); n < contendedBacklog; n++ {
				push()
			}
		}
	}
	b.StopTimer()
	stop.Store(true)
	done.Wait()
	for {
		v, ok := q.Pop()
		if !ok {
			break
		}
		popped++
		sum += uint64(v)
	}
	calls, stolen := 0, 0
	for _, t := range tallies {
		calls += t.calls
		stolen += t.stolen
		sum += t.sum
	}
	if n := uint64(next); popped+stolen != next || sum != n*(n-1)/2 {
		b.Fatalf("%d items pushed (sum %d); %d popped and %d stolen (sum %d)", next, n*(n-1)/2, popped, stolen, sum)
	}
	if !steal && stolen != 0 {
		b.Fatalf("probing thieves took %d items", stolen)
	}
	n := float64(b.N)
	if steal {
		b.ReportMetric(float64(stolen)/n, "stolen/op")
		b.ReportMetric(float64(calls)/n, "steals/op")
	} else {
		b.ReportMetric(float64(calls)/n, "probes/op")
	}
}
