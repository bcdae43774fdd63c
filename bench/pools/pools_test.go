package pools

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/bradenaw/juniper/iterator"
	"github.com/bradenaw/juniper/parallel"
	"github.com/destel/rill"
	"github.com/panjf2000/ants/v2"
	"github.com/sourcegraph/conc/pool"

	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// BenchmarkPools runs the scenarios of ants' and pond's own benchmarks:
// many tasks submitted to a pool from 1, 4 or 100 goroutines, and waited
// for as a group. A task is either CPU work, pond's rand.Float64 (here a
// few calls of it, into the task's own slot), or a sleep, ants' and
// pond's 10 ms. The contenders:
//
//	impl        submits with                     waits with     limit
//	wsq         Group.Go(nil, f) (Task.Block     Group.Wait     GOMAXPROCS workers; for sleeps,
//	            around a sleep)                                 Group.SetLimit and MaxBlocked
//	ants        Pool.Submit                      a WaitGroup    the pool's size
//	pond        Pool.Go                          a WaitGroup    maxConcurrency
//	conc        pool.Go                          pool.Wait      WithMaxGoroutines
//	goroutines  a go statement                   a WaitGroup    none
//
// Every pool gets the same limit on the tasks that run at once: for CPU
// work, GOMAXPROCS, the number of processors; for sleeps, blockLimit, as
// ants' benchmark sizes its pool to a twentieth of its tasks. Plain
// goroutines have no limit: they are the floor, not a pool. Each op runs
// every task once, and checks that it did. Beside the time per task, the
// benchmark reports the process's processor time per task (cpu-ns/task):
// the work each contender does, which other jobs on the machine do not
// stretch.
//
//	go test -run '^$' -bench Pools -count 6
func BenchmarkPools(b *testing.B) {
	for _, work := range []string{"cpu", "block"} {
		for _, submitters := range []int{1, 4, 100} {
			for _, impl := range []string{"wsq", "ants", "pond", "conc", "goroutines"} {
				b.Run(fmt.Sprintf("work=%s/submitters=%d/impl=%s", work, submitters, impl), func(b *testing.B) {
					runPools(b, work, submitters, impl)
				})
			}
		}
	}
}

// The sizes of the scenarios: ants' benchmark runs a million tasks of 10
// ms on a pool of 50,000; pond's, a million tasks of rand.Float64. Both
// shrink here to what one op on two cores runs in tens of milliseconds,
// keeping ants' ratio of tasks to the pool's size.
const (
	cpuTasks   = 100_000
	cpuCalls   = 4 // rand.Float64 calls per CPU task
	blockTasks = 20_000
	blockLimit = 1_000
	blockSleep = 10 * time.Millisecond
)

// submitter runs one op's tasks on one contender: start(i) starts task i
// as the contender's own kind of function, a closure that calls run(i),
// and wait waits for every task started.
type submitter struct {
	start func(i int)
	wait  func()
}

// contender returns impl's submitters for work, whose tasks call run, and
// a function that frees the contender once the benchmark is done. A
// contender that waits for a group, as conc's pool and a sched.Group do,
// makes a new group per op (begin).
func contender(b *testing.B, impl, work string, run func(i int)) (begin func() submitter, close func()) {
	limit := runtime.GOMAXPROCS(0)
	if work == "block" {
		limit = blockLimit
	}
	var wg sync.WaitGroup // for the contenders that wait with one
	withWaitGroup := func(start func(i int)) func() submitter {
		s := submitter{
			start: func(i int) { wg.Add(1); start(i) },
			wait:  wg.Wait,
		}
		return func() submitter { return s }
	}
	switch impl {
	case "wsq":
		p, err := sched.NewPool(sched.PoolConfig{Mode: mode, MaxBlocked: blockLimit})
		if err != nil {
			b.Fatal(err)
		}
		return func() submitter {
			g := p.NewGroup(context.Background())
			start := func(i int) { g.Go(nil, func(*sched.Task) error { run(i); return nil }) }
			if work == "block" {
				g.SetLimit(blockLimit) // a Go waits while blockLimit tasks run, as a pool's Submit does
				start = func(i int) { g.Go(nil, func(t *sched.Task) error { t.Block(func() { run(i) }); return nil }) }
			}
			return submitter{
				start: start,
				wait: func() {
					if err := g.Wait(nil); err != nil {
						b.Fatal(err)
					}
				},
			}
		}, func() { p.Close() }
	case "ants":
		p, err := ants.NewPool(limit)
		if err != nil {
			b.Fatal(err)
		}
		return withWaitGroup(func(i int) {
			if err := p.Submit(func() { run(i); wg.Done() }); err != nil {
				panic(err)
			}
		}), p.Release
	case "pond":
		p := pond.NewPool(limit)
		return withWaitGroup(func(i int) {
			if err := p.Go(func() { run(i); wg.Done() }); err != nil {
				panic(err)
			}
		}), p.StopAndWait
	case "conc":
		return func() submitter {
			p := pool.New().WithMaxGoroutines(limit)
			return submitter{start: func(i int) { p.Go(func() { run(i) }) }, wait: p.Wait}
		}, func() {}
	case "goroutines":
		return withWaitGroup(func(i int) { go func() { run(i); wg.Done() }() }), func() {}
	}
	b.Fatalf("no contender %q", impl)
	return nil, nil
}

// runPools runs one sub-benchmark of BenchmarkPools.
func runPools(b *testing.B, work string, submitters int, impl string) {
	n := cpuTasks
	if work == "block" {
		n = blockTasks
	}
	out := make([]float64, n)
	run := func(i int) {
		x := 1.0
		for range cpuCalls {
			x += rand.Float64()
		}
		out[i] += x
	}
	if work == "block" {
		run = func(i int) {
			time.Sleep(blockSleep)
			out[i]++
		}
	}
	begin, close := contender(b, impl, work, run)
	b.ReportAllocs()
	b.ResetTimer()
	var cpu time.Duration // the process's processor time in the ops
	for range b.N {
		cpu0 := cpuTime()
		s := begin()
		var next atomic.Int64
		var wg sync.WaitGroup
		for range submitters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= n {
						return
					}
					s.start(i)
				}
			}()
		}
		wg.Wait()
		s.wait()
		b.StopTimer()
		cpu += cpuTime() - cpu0
		for i, x := range out {
			// Each task adds 1 or more, and less than 1 + cpuCalls: it ran once.
			if x < 1 || x >= 1+cpuCalls {
				b.Fatalf("task %d: %v, not run once", i, x)
			}
		}
		clear(out)
		b.StartTimer()
	}
	b.StopTimer()
	close()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/task")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/task")
}

// BenchmarkOrderedMap maps a sequence of items in parallel, in order, and
// consumes the results as they come: par.MapSeq beside juniper's
// parallel.MapIterator and rill's OrderedMap, on items that compute for
// about 1 µs or 100 µs (spin, calibrated once). Each runs GOMAXPROCS calls at once (juniper's
// parallelism, rill's n, sched's workers), juniper with sched's window of
// results ahead (128 per processor). Each op maps every item once, and
// checks the results' sum.
//
//	go test -run '^$' -bench OrderedMap -count 6
func BenchmarkOrderedMap(b *testing.B) {
	for _, item := range []struct {
		name string
		d    time.Duration
		n    int
	}{{"1us", time.Microsecond, 20_000}, {"100us", 100 * time.Microsecond, 1_000}} {
		rounds := spinRounds(item.d)
		want := make([]uint64, item.n)
		for i := range want {
			want[i] = spin(uint64(i), rounds)
		}
		for _, impl := range []string{"wsq", "juniper", "rill"} {
			b.Run(fmt.Sprintf("item=%s/impl=%s", item.name, impl), func(b *testing.B) {
				runOrderedMap(b, impl, rounds, want)
			})
		}
	}
}

// runOrderedMap runs one sub-benchmark of BenchmarkOrderedMap: want holds
// the results in order.
func runOrderedMap(b *testing.B, impl string, rounds int, want []uint64) {
	procs, n := runtime.GOMAXPROCS(0), len(want)
	f := func(x int) uint64 { return spin(uint64(x), rounds) }
	counter := func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
	var results func() iter.Seq2[uint64, error]
	switch impl {
	case "wsq":
		results = func() iter.Seq2[uint64, error] {
			return par.MapSeqErr(nil, counter, func(_ *sched.Task, x int) (uint64, error) { return f(x), nil })
		}
	case "juniper":
		results = func() iter.Seq2[uint64, error] {
			it := parallel.MapIterator(iterator.Counter(n), procs, 128*procs, f)
			return func(yield func(uint64, error) bool) {
				for {
					r, ok := it.Next()
					if !ok || !yield(r, nil) {
						return // MapIterator leaks unless drained: the benchmark drains it
					}
				}
			}
		}
	case "rill":
		results = func() iter.Seq2[uint64, error] {
			return rill.ToSeq2(rill.OrderedMap(rill.FromSeq(counter, nil), procs, func(x int) (uint64, error) { return f(x), nil }))
		}
	default:
		b.Fatalf("no contender %q", impl)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		i := 0
		for r, err := range results() {
			if err != nil {
				b.Fatal(err)
			}
			if i >= n || r != want[i] {
				b.Fatalf("result %d: %d, not f(%d)", i, r, i)
			}
			i++
		}
		if i != n {
			b.Fatalf("%d results of %d", i, n)
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/item")
}

// spin computes for a while from x, rounds steps of xorshift, and returns
// the result.
func spin(x uint64, rounds int) uint64 {
	x = x*0x9E3779B97F4A7C15 + 1
	for range rounds {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// spinRounds returns how many rounds of spin take about d, measured once.
func spinRounds(d time.Duration) int {
	return int(d.Seconds() / roundTime())
}

// roundTime is the time of one round of spin, in seconds: the fastest of
// a few probes.
var roundTime = sync.OnceValue(func() float64 {
	const probe = 10_000_000
	best := 0.0
	for range 5 {
		start := time.Now()
		sink.Add(spin(1, probe))
		if s := time.Since(start).Seconds() / probe; best == 0 || s < best {
			best = s
		}
	}
	return best
})

var sink atomic.Uint64 // keeps the probes' results live
