package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

// Fork-join against the obvious alternatives. BenchmarkForkJoin computes
// fib(n) by binary recursion, each call above a cutoff forking fib(n-1) as a
// task and computing fib(n-2) itself, with:
//
//   - serial: the plain recursion (fibSerial), the serial elision of the
//     others, which they are read against;
//   - goroutines: a goroutine and a sync.WaitGroup per fork;
//   - errgroup: an errgroup.Group per fork;
//   - pool-Q: a sched.Pool on queue Q (Fork and Future.Join), made once;
//   - join-Q: the same pool with sched.Join, Fork and Future.Join in one
//     call (its g is fib(n-1), the task another worker may steal);
//   - cps-Q: sched.Run on queue Q with hand-written continuations (below),
//     the only way to fork-join on Run, where a handler cannot wait.
//
// work=fine has no cutoff (every call with n >= 2 forks: the pure overhead
// of a task); work=coarse stops forking at fib(17), about 10 µs of serial
// work per leaf. One op is one whole computation; ns/task and allocs/task
// divide by the forks (the calls that fork: one task each, for every impl;
// cps also runs one sum task per fork, which it does not count). Run it
// with -cpu 1,2 for the speedup of the second worker: the pool and Run use
// GOMAXPROCS workers. The pool, join and cps rows also report the
// workload's parallelism and burdened-parallelism, from one measured run
// of BenchmarkSpan's workload before the timed loop (spanProfile).
//
//	go test -run '^$' -bench 'ForkJoin' -cpu 1,2 -count 5 ./bench

// forkJoinQueues are the queues the pool and cps run on, those of them that
// the catalog has.
var forkJoinQueues = []string{"bq", "lf", "cl-ub"}

// fibWork is one workload of BenchmarkForkJoin: fib(n), forking the calls
// above cutoff.
type fibWork struct {
	name      string
	n, cutoff int
}

var fibWorks = []fibWork{{"fine", 27, 1}, {"coarse", 34, 17}}

func BenchmarkForkJoin(b *testing.B) {
	for _, impl := range forkJoinImpls() {
		for _, work := range fibWorks {
			b.Run(fmt.Sprintf("impl=%s/work=%s", impl.name, work.name), func(b *testing.B) {
				want := fibSerial(work.n)
				forks := fibForks(work.n, work.cutoff)
				var prof *sched.Profile
				if impl.onSched() {
					p := spanProfile("forkjoin-" + work.name)
					prof = &p
				}
				run, stop := impl.prepare(work.cutoff)
				defer stop()
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					if got := run(work.n); got != want {
						b.Fatalf("fib(%d) = %d, want %d", work.n, got, want)
					}
				}
				runtime.ReadMemStats(&after)
				tasks := float64(forks) * float64(b.N)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/tasks, "ns/task")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/tasks, "allocs/task")
				if prof != nil {
					prof.Report(b)
				}
			})
		}
	}
}

// BenchmarkForkJoinFloor is what work=fine of BenchmarkForkJoin costs
// with nothing but the queue: the same recursion on one goroutine, each
// call that would fork pushing an item for fib(n-1) into a blockq queue,
// computing fib(n-2), popping the item back and computing fib(n-1) itself.
// Nobody can steal, so it is not fork-join; it is the floor that the
// pool's ns/task is read against (the push, the pop and the recursion),
// without what the pool adds to them: a frame per task, the deferred call
// that catches its panic, the Future and its record, the statistics, the
// wake-ups. The item is three words, one a pointer, as a sched.Job is.
func BenchmarkForkJoinFloor(b *testing.B) {
	work := fibWorks[0]
	want := fibSerial(work.n)
	q := blockq.New[floorJob]()
	var fib func(n, depth int) int
	fib = func(n, depth int) int {
		if n <= work.cutoff {
			return fibSerial(n)
		}
		q.Push(floorJob{n: n - 1, depth: depth, w: &fibWorks[0]})
		y := fib(n-2, depth+1)
		if j, ok := q.Pop(); !ok || j.depth != depth {
			panic("bench: the floor's queue lost its item")
		}
		return fib(n-1, depth+1) + y
	}
	b.Run("queue=bq/work="+work.name, func(b *testing.B) {
		for b.Loop() {
			if got := fib(work.n, 0); got != want {
				b.Fatalf("fib(%d) = %d, want %d", work.n, got, want)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(fibForks(work.n, work.cutoff))/float64(b.N), "ns/task")
	})
}

// floorJob is BenchmarkForkJoinFloor's item.
type floorJob struct {
	n, depth int
	w        *fibWork // the pointer word: any will do
}

// forkJoinImpl prepares a way to compute fib with the given cutoff, and
// returns it and a function that releases what it holds.
type forkJoinImpl struct {
	name    string
	prepare func(cutoff int) (run func(n int) int, stop func())
}

// onSched reports whether the impl runs on sched (pool-Q, join-Q, cps-Q).
func (impl forkJoinImpl) onSched() bool {
	return impl.name != "serial" && impl.name != "goroutines" && impl.name != "errgroup"
}

func forkJoinImpls() []forkJoinImpl {
	impls := []forkJoinImpl{
		{"serial", func(int) (func(int) int, func()) { return fibSerial, func() {} }},
		{"goroutines", func(cutoff int) (func(int) int, func()) {
			return func(n int) int { return fibGoroutines(n, cutoff) }, func() {}
		}},
		{"errgroup", func(cutoff int) (func(int) int, func()) {
			return func(n int) int { return fibErrgroup(n, cutoff) }, func() {}
		}},
	}
	for _, q := range forkJoinQueues {
		if _, ok := catalog.Lookup(q); !ok {
			continue
		}
		impls = append(impls,
			forkJoinImpl{"pool-" + q, func(cutoff int) (func(int) int, func()) {
				return fibPool(q, cutoff, false)
			}},
			forkJoinImpl{"join-" + q, func(cutoff int) (func(int) int, func()) {
				return fibPool(q, cutoff, true)
			}},
			forkJoinImpl{"cps-" + q, func(cutoff int) (func(int) int, func()) {
				return func(n int) int { return fibCPS(q, n, cutoff) }, func() {}
			}})
	}
	return impls
}

// fibSerial is the plain recursion, below the cutoff and as the reference.
func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

// fibForks returns how many calls of fib(n) fork: those with k > cutoff.
func fibForks(n, cutoff int) int64 {
	if n <= cutoff {
		return 0
	}
	return 1 + fibForks(n-1, cutoff) + fibForks(n-2, cutoff)
}

func fibGoroutines(n, cutoff int) int {
	if n <= cutoff {
		return fibSerial(n)
	}
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = fibGoroutines(n-1, cutoff)
	}()
	y := fibGoroutines(n-2, cutoff)
	wg.Wait()
	return x + y
}

func fibErrgroup(n, cutoff int) int {
	if n <= cutoff {
		return fibSerial(n)
	}
	var x int
	var g errgroup.Group
	g.Go(func() error {
		x = fibErrgroup(n-1, cutoff)
		return nil
	})
	y := fibErrgroup(n-2, cutoff)
	_ = g.Wait() // the tasks return nil
	return x + y
}

// fibPool makes a pool on queue q (benchMode, GOMAXPROCS workers) and
// returns fib on it, written as the package documentation shows: with
// Fork and Future.Join, or if join is set, with sched.Join.
func fibPool(q string, cutoff int, join bool) (func(int) int, func()) {
	newQueue, err := catalog.Factory[sched.Job](q)
	if err != nil {
		panic(err) // the name comes from the catalog
	}
	run, pool := fibOnPool(sched.PoolConfig{NewQueue: newQueue, Mode: benchMode}, cutoff, join)
	return run, func() { pool.Close() }
}

// fibOnPool makes a pool as cfg says and returns it and fib on it (see
// fibPool).
func fibOnPool(cfg sched.PoolConfig, cutoff int, join bool) (func(int) int, *sched.Pool) {
	pool, err := sched.NewPool(cfg)
	if err != nil {
		panic(err)
	}
	var fib func(t *sched.Task, n int) int
	fib = func(t *sched.Task, n int) int {
		if n <= cutoff {
			return fibSerial(n)
		}
		if join {
			y, x := sched.Join(t, fib, n-2, fib, n-1)
			return x + y
		}
		x := sched.Fork(t, fib, n-1)
		y := fib(t, n-2)
		return x.Join(t) + y
	}
	run := func(n int) int {
		var r int
		if err := pool.Do(context.Background(), func(t *sched.Task) error {
			r = fib(t, n)
			return nil
		}); err != nil {
			panic(err)
		}
		return r
	}
	return run, pool
}

// BenchmarkForkJoinSteal is how much a Pool's steal takes, on fork-join
// work: work=coarse of BenchmarkForkJoin (Fork and Future.Join, the
// default queue) in both modes, with the steal's own choice (steal=auto,
// the default), one task a steal (steal=one) or half of the victim's
// queue (steal=half, PoolConfig.Proportion 0.5), with GOMAXPROCS
// workers. Besides the time it reports, per computation, the steals and
// the tasks they moved, and the share of the workers' time spent without
// work (idle-%, over the pool's whole life). Run it on a machine with
// many cores:
//
//	go test -run '^$' -bench ForkJoinSteal -cpu 4,16,64 -benchtime 10x -count 6 ./bench
func BenchmarkForkJoinSteal(b *testing.B) {
	work := fibWorks[1]
	want := fibSerial(work.n)
	forks := fibForks(work.n, work.cutoff)
	for _, mode := range modes {
		for _, steal := range []struct {
			name       string
			proportion float64
			one        bool
		}{{"auto", 0, false}, {"one", wsq.OneItem, true}, {"half", 0.5, false}} {
			b.Run(fmt.Sprintf("mode=%v/steal=%s/work=%s", mode, steal.name, work.name), func(b *testing.B) {
				start := time.Now()
				run, pool := fibOnPool(sched.PoolConfig{Mode: mode, Proportion: steal.proportion, StealOne: steal.one}, work.cutoff, false)
				for b.Loop() {
					if got := run(work.n); got != want {
						b.Fatalf("fib(%d) = %d, want %d", work.n, got, want)
					}
				}
				st := pool.Close()
				life := time.Since(start) // the pool's whole life, as IdleWait's
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(forks)/float64(b.N), "ns/task")
				b.ReportMetric(float64(st.Steals)/float64(b.N), "steals/op")
				b.ReportMetric(float64(st.Moved)/float64(b.N), "moved/op")
				b.ReportMetric(100*st.IdleWait.Seconds()/(float64(len(st.PerWorker))*life.Seconds()), "idle-%")
			})
		}
	}
}

// Continuation-passing fork-join on sched.Run, as examples/fib did before
// the Pool: a handler cannot wait for its children, so every call fib(k)
// above the cutoff allocates a join frame with two result slots and a
// counter set to 2, and spawns fib(k-1) and fib(k-2) as one batch. A call
// that finishes writes its value into its slot of the parent frame and
// decrements the counter; the child that brings it to zero spawns a sum
// task, the continuation, which adds the two slots and delivers the total
// to the frame's own parent in the same way. No task ever waits, at the
// price of a frame allocation and a sum task per fork, and of code shaped
// around the scheduler rather than the recursion. (Cilk and the Go runtime
// steal continuations instead, which a library cannot do.)

// cpsTask is one item: a call fib(n) whose result goes into slot of frame
// f, or, if sum is set, the continuation of frame f.
type cpsTask struct {
	f    *cpsFrame
	n    int32
	slot int8
	sum  bool
}

// cpsFrame joins the two calls a call forks.
type cpsFrame struct {
	parent  *cpsFrame // nil for the root holder
	slot    int8
	pending atomic.Int32
	res     [2]int
}

// deliver stores v in slot of f and, if that was the last missing result,
// spawns f's sum task. The decrement orders the write before the last
// child's decrement, and so before the sum task reads the slot.
func (f *cpsFrame) deliver(w *sched.Worker[cpsTask], slot int8, v int) {
	f.res[slot] = v
	if f.pending.Add(-1) == 0 && f.parent != nil {
		w.Spawn(cpsTask{f: f, sum: true})
	}
}

func fibCPS(q string, n, cutoff int) int {
	newQueue, err := catalog.Factory[cpsTask](q)
	if err != nil {
		panic(err)
	}
	root := &cpsFrame{}
	root.pending.Store(1)
	cfg := sched.Config[cpsTask]{NewQueue: newQueue, Mode: benchMode}
	_, err = sched.Run(context.Background(), cfg, []cpsTask{{f: root, n: int32(n)}},
		func(_ context.Context, t cpsTask, w *sched.Worker[cpsTask]) error {
			switch {
			case t.sum:
				t.f.parent.deliver(w, t.f.slot, t.f.res[0]+t.f.res[1])
			case int(t.n) <= cutoff:
				t.f.deliver(w, t.slot, fibSerial(int(t.n)))
			default:
				fr := &cpsFrame{parent: t.f, slot: t.slot}
				fr.pending.Store(2)
				w.Spawn(cpsTask{f: fr, n: t.n - 2, slot: 1}, cpsTask{f: fr, n: t.n - 1, slot: 0})
			}
			return nil
		})
	if err != nil {
		panic(err)
	}
	return root.res[0]
}
