package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/worksteal/wsq/bench/dag"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

// Work a worker's queue may keep from thieves. A blockq owner holds its
// newest items (blockq's Holding items), and a Pool's goroutine keeps its
// forks private, until a thief asks. BenchmarkHeldBehindLong puts one
// batch into one worker's queue, oldest first, on two workers, and times
// the whole batch:
//
//	shape              the batch
//	1ms-behind-long    64 items of 1 ms, then one of 50 ms
//	tiny-heavy-long    32 tiny items, 32 of 1.5 ms, then one of 50 ms
//	500us-behind-long  64 items of 500 µs, then one of 50 ms
//
// The owner runs the long item first, the newest. What it holds while it
// runs it waits, unless it published it; in tiny-heavy-long the other
// worker takes the tiny items, finds nothing more, and may park before
// the heavy ones are published. The items are busy work of a fixed size
// (dag.Spin, calibrated once), not sleeps. api=run is Run with a root item
// that spawns the batch; api=pool is a Pool's Group, the root task calling
// Group.Go for each item, made once per sub-benchmark. queue=bq is the
// default queue, queue=cl-ub the Chase-Lev ring, which holds nothing. One
// op is one batch; idle-share is the share of the batch's items that the
// worker without the root ran (half is an even split).
//
//	go test -run '^$' -bench HeldBehindLong -count 6 ./bench
func BenchmarkHeldBehindLong(b *testing.B) {
	iterPerNs := 1 / dag.Calibrate(50*time.Millisecond)
	spin := func(d time.Duration) int { return int(float64(d.Nanoseconds()) * iterPerNs) }
	type item struct{ n int }
	shapes := []struct {
		name  string
		batch []item
	}{
		{"1ms-behind-long", heldBatch(item{spin(time.Millisecond)}, 64, nil, 0, item{spin(50 * time.Millisecond)})},
		{"tiny-heavy-long", heldBatch(item{0}, 32, &item{spin(1500 * time.Microsecond)}, 32, item{spin(50 * time.Millisecond)})},
		{"500us-behind-long", heldBatch(item{spin(500 * time.Microsecond)}, 64, nil, 0, item{spin(50 * time.Millisecond)})},
	}
	for _, api := range []string{"run", "pool"} {
		for _, mode := range []sched.Mode{sched.Master, sched.Random} {
			for _, sh := range shapes {
				for _, q := range []string{"bq", "cl-ub"} {
					b.Run(fmt.Sprintf("api=%s/mode=%v/shape=%s/queue=%s", api, mode, sh.name, q), func(b *testing.B) {
						var owner atomic.Int32
						var byIdle atomic.Int64
						run := func(it item, worker int) {
							if int32(worker) != owner.Load() {
								byIdle.Add(1)
							}
							heldSink.Store(dag.Spin(it.n, uint64(it.n)))
						}
						var batch func()
						if api == "run" {
							newQueue, err := catalog.Factory[item](q)
							if err != nil {
								b.Fatal(err)
							}
							cfg := sched.Config[item]{Workers: 2, Mode: mode, NewQueue: newQueue}
							batch = func() {
								_, err := sched.Run(context.Background(), cfg, []item{{-1}}, func(_ context.Context, it item, w *sched.Worker[item]) error {
									if it.n < 0 {
										owner.Store(int32(w.ID()))
										w.Spawn(sh.batch...)
										return nil
									}
									run(it, w.ID())
									return nil
								})
								if err != nil {
									b.Fatal(err)
								}
							}
						} else {
							newQueue, err := catalog.Factory[sched.Job](q)
							if err != nil {
								b.Fatal(err)
							}
							pool, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: mode, NewQueue: newQueue})
							if err != nil {
								b.Fatal(err)
							}
							defer pool.Close()
							batch = func() {
								err := pool.Do(context.Background(), func(t *sched.Task) error {
									owner.Store(int32(t.WorkerID()))
									g := t.NewGroup()
									for _, it := range sh.batch {
										g.Go(t, func(t *sched.Task) error { run(it, t.WorkerID()); return nil })
									}
									return g.Wait(t)
								})
								if err != nil {
									b.Fatal(err)
								}
							}
						}
						for b.Loop() {
							batch()
						}
						b.ReportMetric(float64(byIdle.Load())/float64(b.N*len(sh.batch)), "idle-share")
					})
				}
			}
		}
	}
}

// heldBatch returns a batch of BenchmarkHeldBehindLong, oldest first: n
// items like first, then m like second (if not nil), then last.
func heldBatch[T any](first T, n int, second *T, m int, last T) []T {
	var batch []T
	for range n {
		batch = append(batch, first)
	}
	for range m {
		batch = append(batch, *second)
	}
	return append(batch, last)
}

var heldSink atomic.Uint64

// BenchmarkForkThenLeaf is a task that forks k children of about 1 ms
// each, then runs a serial leaf of about k ms, then joins them, on two
// workers: the children are work for the other worker only if the forking
// worker does not keep them private meanwhile (see sched's Work a worker
// keeps to itself). impl=pool-Q forks with ForkFunc and joins the Futures;
// join-Q nests k Joins, each forking one child as its g, with the leaf
// innermost. Q is the queue: bq (the default) or cl-ub. The best split
// takes about k ms; a worker that hides its children takes about 2k ms.
// One op is one task; the pool is made once per sub-benchmark.
//
//	go test -run '^$' -bench ForkThenLeaf -count 6 ./bench
func BenchmarkForkThenLeaf(b *testing.B) {
	const k = 8
	iterPerNs := 1 / dag.Calibrate(50*time.Millisecond)
	child := int(float64(time.Millisecond.Nanoseconds()) * iterPerNs)
	leaf := k * child
	for _, impl := range []string{"pool-bq", "join-bq", "pool-cl-ub", "join-cl-ub"} {
		b.Run("impl="+impl, func(b *testing.B) {
			q := impl[len("pool-"):]
			newQueue, err := catalog.Factory[sched.Job](q)
			if err != nil {
				b.Fatal(err)
			}
			pool, err := sched.NewPool(sched.PoolConfig{Workers: 2, Mode: sched.Random, NewQueue: newQueue})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			var ran sync.WaitGroup
			work := func(_ *sched.Task, n int) { heldSink.Store(dag.Spin(n, uint64(n))); ran.Done() }
			var nested func(t *sched.Task, i int)
			nested = func(t *sched.Task, i int) {
				if i == k {
					heldSink.Store(dag.Spin(leaf, 1))
					return
				}
				sched.JoinFunc(t, nested, i+1, work, child)
			}
			task := func(t *sched.Task) error {
				ran.Add(k)
				if impl[:4] == "join" {
					nested(t, 0)
				} else {
					fs := make([]sched.Future[struct{}], k)
					for i := range fs {
						fs[i] = sched.ForkFunc(t, work, child)
					}
					heldSink.Store(dag.Spin(leaf, 1))
					for _, f := range fs {
						f.Join(t)
					}
				}
				ran.Wait() // every child ran: the joins returned after them
				return nil
			}
			for b.Loop() {
				if err := pool.Do(context.Background(), task); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
