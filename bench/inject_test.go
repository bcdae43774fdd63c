package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/worksteal/wsq/sched"
)

// BenchmarkInject feeds tiny tasks from goroutines outside the workers,
// one at a time, and waits for them all: the pattern of a pipeline whose
// reader goroutines hand lines to workers. The contenders:
//
//   - pool: a Pool of GOMAXPROCS workers; each producer calls Group.Go
//     with a nil Task per item, and one Group.Wait(nil) waits for all;
//   - channel: GOMAXPROCS goroutines that receive func() values from one
//     buffered channel and run them; each producer calls WaitGroup.Add
//     and sends per item, and one WaitGroup.Wait waits for all.
//
// Both allocate closures per item. One op is injectItems items, split
// among the producers, and ns/op is reported per item (B/op and allocs/op
// are per op); every run checks that each item ran.
//
//	go test -run '^$' -bench Inject -count 6 ./bench
func BenchmarkInject(b *testing.B) {
	for _, impl := range []string{"pool", "channel"} {
		for _, producers := range []int{1, 4} {
			b.Run(fmt.Sprintf("impl=%s/producers=%d", impl, producers), func(b *testing.B) {
				inject(b, impl == "pool", producers)
			})
		}
	}
}

// injectItems is how many items one op of BenchmarkInject feeds.
const injectItems = 10_000

// tinyTask is the work of one item: a few dozen arithmetic operations,
// whose result goes to the item's own slot.
func tinyTask(out []uint64, i int) {
	x := uint64(i) + 1
	for range 16 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	out[i] = x | 1
}

func inject(b *testing.B, pool bool, producers int) {
	out := make([]uint64, injectItems)
	var run func(produce func(i int, start func(func())))
	if pool {
		p, err := sched.NewPool(sched.PoolConfig{Mode: benchMode})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		run = func(produce func(int, func(func()))) {
			g := p.NewGroup(context.Background())
			produce(0, func(f func()) { g.Go(nil, func(*sched.Task) error { f(); return nil }) })
			if err := g.Wait(nil); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		jobs := make(chan func(), 1024)
		var workers sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			workers.Add(1)
			go func() {
				defer workers.Done()
				for f := range jobs {
					f()
				}
			}()
		}
		defer func() { close(jobs); workers.Wait() }()
		run = func(produce func(int, func(func()))) {
			var wg sync.WaitGroup
			produce(0, func(f func()) {
				wg.Add(1)
				jobs <- func() { f(); wg.Done() }
			})
			wg.Wait()
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		clear(out)
		run(func(_ int, start func(func())) {
			var pw sync.WaitGroup
			var next atomic.Int64
			for range producers {
				pw.Add(1)
				go func() {
					defer pw.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= injectItems {
							return
						}
						start(func() { tinyTask(out, i) })
					}
				}()
			}
			pw.Wait()
		})
		b.StopTimer()
		for i, x := range out {
			if x == 0 {
				b.Fatalf("item %d did not run", i)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/injectItems, "ns/op") // per item
}
