package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/lfqueue"
	"github.com/worksteal/wsq/mutexq"
)

// The micro-benchmarks of the paper: push latency (Push of one item, and
// PushBatch by batch size), steal latency by proportion, pop latency. Each
// contender is a named function that prepares a queue and its inputs
// outside the timer and returns the loop to time, so that every figure is a
// whole timed loop divided by its operation count and never a single timed
// call.
//
// Contenders are registered in the tables below, from this file for the
// lock-based baseline and lfqueue, from micro_ring_test.go for the ring
// buffers and from micro_block_test.go for blockq; names follow the
// queue=NAME convention of BENCHMARKS.md.

// pushContender prepares a fresh queue and ops batches of batch items each,
// and returns a function that pushes all of them: one op is one batch. A
// contender of BenchmarkPush is prepared with batch 1 and pushes by Push,
// one item an op; one of BenchmarkPushBatch pushes each batch by PushBatch
// or PushList. maxOps, if not 0, bounds the batches of one timed window,
// for a contender that builds a separate input for each batch in advance
// (a pre-built List), whose memory would otherwise grow with the window.
type pushContender struct {
	name    string
	prepare func(batch, ops int) (run func())
	maxOps  int
}

// stealContender prepares a queue holding n items and returns a function
// that performs one proportional steal of p and returns how many items it
// took, and a function that restores the queue to n items (not timed).
type stealContender struct {
	name    string
	prepare func(n int, p float64) (steal func() int, refill func())
}

// popContender prepares a queue holding ops items and returns a function
// that pops all of them.
type popContender struct {
	name    string
	prepare func(ops int) (run func())
}

// The contenders of each benchmark: pushContenders push one item by Push
// (BenchmarkPush), batchContenders a batch by PushBatch or PushList
// (BenchmarkPushBatch).
var (
	pushContenders  []pushContender
	batchContenders []pushContender
	stealContenders []stealContender
	popContenders   []popContender
)

func init() {
	// lf: Push of one item; for a batch, the interface's PushBatch, which
	// copies the values into a new block of nodes. lf-list: the native push
	// of a List built in advance (outside the timer), which links it in
	// constant time.
	pushContenders = append(pushContenders,
		pushContenderOf("lf", func(int) *lfqueue.Queue[int] { return lfqueue.New[int]() }, lfPushItems))
	batchContenders = append(batchContenders,
		pushContenderOf("lf", func(int) *lfqueue.Queue[int] { return lfqueue.New[int]() }, lfPushes),
		pushContender{name: "lf-list", maxOps: listWindowOps, prepare: func(batch, ops int) func() {
			q := lfqueue.New[int]()
			lists := make([]lfqueue.List[int], ops)
			for i := range lists {
				lists[i].Grow(batch)
				for v := range batch {
					lists[i].Append(v)
				}
			}
			return func() {
				for i := range lists {
					if q.PushList(&lists[i]) != batch {
						panic("bench: lf-list: a push did not take its whole batch")
					}
				}
			}
		}},
	)
	// lf and lf-skip: the native steal that hands over the stolen sub-list,
	// as the paper measures it (basic and skip-count variants); the refill
	// pushes the stolen list back on top. lf-batch: the interface's
	// StealBatch, which copies the stolen values into a slice.
	for _, v := range []struct {
		name string
		opts []lfqueue.Option
	}{{"lf", nil}, {"lf-skip", []lfqueue.Option{lfqueue.WithSkipCount()}}} {
		stealContenders = append(stealContenders, stealContender{v.name, func(n int, p float64) (func() int, func()) {
			q := lfqueue.New[int](v.opts...)
			q.PushBatch(queuetest.Seq(0, n))
			var l *lfqueue.List[int]
			oldest := 0 // as in sliceSteal: the queue holds a rotation of 0..n-1
			return func() int {
					l = q.StealParcel(p).(*lfqueue.List[int])
					return l.Len()
				}, func() {
					k := l.Len()
					want := (oldest + k - 1) % n // the newest stolen item
					for x := range l.Backward() {
						if x != want {
							panic(fmt.Sprintf("bench: %s: stolen item %d; want %d", v.name, x, want))
						}
						want = (want + n - 1) % n
					}
					oldest = (oldest + k) % n
					if q.PushList(l) != k || q.Len() != n {
						panic("bench: " + v.name + ": the refill did not restore the queue")
					}
				}
		}})
	}
	stealContenders = append(stealContenders, stealContender{"lf-batch", func(n int, p float64) (func() int, func()) {
		return sliceSteal("lf-batch", lfqueue.New[int](), n, p)
	}})
	popContenders = append(popContenders, popContenderOf("lf", false, func() *lfqueue.Queue[int] { return lfqueue.New[int]() }, lfPops))

	pushContenders = append(pushContenders, pushContenderOf("mutex", func(int) *mutexq.Queue[int] { return mutexq.New[int]() }, mutexPushItems))
	batchContenders = append(batchContenders, pushContenderOf("mutex", func(int) *mutexq.Queue[int] { return mutexq.New[int]() }, mutexPushes))
	stealContenders = append(stealContenders, stealContender{"mutex", func(n int, p float64) (func() int, func()) {
		return sliceSteal("mutex", mutexq.New[int](), n, p)
	}})
	popContenders = append(popContenders, popContenderOf("mutex", false, mutexq.New[int], mutexPops))
}

// The timed loops of lfqueue and mutexq (see pushContenderOf and
// popContenderOf).

func lfPushItems(name string, q *lfqueue.Queue[int], vs []int, ops int) {
	v := vs[0]
	for range ops {
		if !q.Push(v) {
			panic("bench: " + name + ": Push refused an item")
		}
	}
}

func lfPushes(name string, q *lfqueue.Queue[int], vs []int, ops int) {
	for range ops {
		if q.PushBatch(vs) != len(vs) {
			panic("bench: " + name + ": a push did not take its whole batch")
		}
	}
}

func lfPops(name string, queues []*lfqueue.Queue[int]) {
	for _, q := range queues {
		for range q.Len() {
			if _, ok := q.Pop(); !ok {
				panic("bench: " + name + ": Pop found the queue empty")
			}
		}
	}
}

func mutexPushItems(name string, q *mutexq.Queue[int], vs []int, ops int) {
	v := vs[0]
	for range ops {
		if !q.Push(v) {
			panic("bench: " + name + ": Push refused an item")
		}
	}
}

func mutexPushes(name string, q *mutexq.Queue[int], vs []int, ops int) {
	for range ops {
		if q.PushBatch(vs) != len(vs) {
			panic("bench: " + name + ": a push did not take its whole batch")
		}
	}
}

func mutexPops(name string, queues []*mutexq.Queue[int]) {
	for _, q := range queues {
		for range q.Len() {
			if _, ok := q.Pop(); !ok {
				panic("bench: " + name + ": Pop found the queue empty")
			}
		}
	}
}

// pushContenderOf is the push contender name of a queue type. For a window
// of ops batches it makes, outside the timer, a queue with newQ (told how
// many items the window pushes, for a queue that takes room for them in
// advance) and one batch of items; the timed loop is pushes, the queue
// type's own loop, which pushes the batch ops times (by PushBatch, or for
// BenchmarkPush by Push of its one item) and panics when a push does not
// take it whole, followed, for a ring, by pushCheck's check that the ring
// received every item without growing. The loop calls the concrete method,
// so each queue type has a loop of its own, the same lines over another
// type. One loop for every type would cost every timed operation: a
// generic function calls a method of its type parameter through its
// dictionary (the Go compiler makes one body for all pointer types), and a
// loop over an interface must switch on the type, each a measurable share
// of a push of one item. The call of pushes is the one indirect call of a
// window.
func pushContenderOf[Q interface{ PushBatch([]int) int }](name string, newQ func(items int) Q, pushes func(name string, q Q, vs []int, ops int)) pushContender {
	return pushContender{name: name, prepare: func(batch, ops int) func() {
		q := newQ(batch * ops)
		vs := queuetest.Seq(0, batch)
		if r, ok := any(q).(ring); ok {
			check := pushCheck(name, r, batch*ops)
			return func() {
				pushes(name, q, vs, ops)
				check()
			}
		}
		return func() { pushes(name, q, vs, ops) }
	}}
}

// popQueue is what a pop contender's untimed filling uses of a queue.
type popQueue interface {
	Push(int) bool
	PushBatch([]int) int
	Len() int
}

// popContenderOf is the pop contender name on queues that newQ makes. For a
// window of ops pops it fills, outside the timer, one queue with ops items
// (popFill), or, if bounded, as many queues of boundedCapacity as hold
// them (boundedFill); the timed loop is pops, the queue type's own loop,
// which empties the queues one after another and panics when a Pop finds
// nothing. As in pushContenderOf, the loop calls the concrete Pop, and the
// call of pops is the one indirect call of a window.
func popContenderOf[Q popQueue](name string, bounded bool, newQ func() Q, pops func(name string, queues []Q)) popContender {
	return popContender{name, func(ops int) func() {
		queues := make([]Q, 1)
		if bounded {
			queues = make([]Q, boundedQueues(ops))
		}
		for i := range queues {
			queues[i] = newQ()
			if bounded {
				boundedFill(name, queues[i], i, ops)
			} else if popFill(queues[i], ops) != queues[i].Len() {
				panic("bench: " + name + ": could not fill the queue")
			}
		}
		return func() { pops(name, queues) }
	}}
}

// popFillBatch is the size of the batches a pop contender's queue is filled
// with: the children of a node in a tree search, as the DAG workload pushes
// them. Filling every queue the same way keeps the comparison fair: the
// memory layout a queue gets from its pushes (a ring's slots, lfqueue's node
// blocks) decides much of what a pop costs. Item by item, lfqueue allocates
// a node and a header per item, and its pops are slower (see
// bench/report/results/micro-2026-12-04);
// in one large batch, a ring is filled by a copy with non-temporal stores that
// leaves it out of the cache. BenchmarkPopItemFilled sets it to 1, which
// fills the queues by one Push per item.
var popFillBatch = 16

// sliceSteal is the steal contender of the interface's StealBatch, which
// copies the stolen values into a slice, on q. It fills q with 0..n-1; the
// untimed refill checks that the steal took the oldest items, oldest first,
// and pushes them back at the new end, so the queue always holds a rotation
// of 0..n-1 and the oldest item of each round is known. The call through the
// interface costs a few nanoseconds, nothing beside a steal of hundreds of
// items.
func sliceSteal(name string, q wsq.Queue[int], n int, p float64) (steal func() int, refill func()) {
	q.PushBatch(queuetest.Seq(0, n))
	var buf []int
	oldest := 0
	return func() int {
			buf = q.StealBatch(buf[:0], p)
			return len(buf)
		}, func() {
			for i, v := range buf {
				if v != (oldest+i)%n {
					panic(fmt.Sprintf("bench: %s: stolen item %d is %d; want %d", name, i, v, (oldest+i)%n))
				}
			}
			oldest = (oldest + len(buf)) % n
			if q.PushBatch(buf) != len(buf) || q.Len() != n {
				panic("bench: " + name + ": the refill did not restore the queue")
			}
		}
}

// popFill pushes 0..n-1 into q in batches of popFillBatch (by Push, if that
// is 1), outside the timer, and returns n. It panics if q does not take them
// all.
func popFill(q interface {
	Push(int) bool
	PushBatch([]int) int
}, n int) int {
	vs := queuetest.Seq(0, n)
	if popFillBatch == 1 {
		for _, v := range vs {
			if !q.Push(v) {
				panic("bench: a pop contender's queue refused an item")
			}
		}
		return n
	}
	for len(vs) > 0 {
		m := min(popFillBatch, len(vs))
		if q.PushBatch(vs[:m]) != m {
			panic("bench: a pop contender's queue refused items")
		}
		vs = vs[m:]
	}
	return n
}

var (
	batchSizes  = []int{1, 4, 16, 64, 256, 1024}
	stealSizes  = []int{10_000, 100_000}
	stealShares = []int{10, 20, 30, 40, 50, 60, 90} // percent
)

// The owner-path benchmarks time windows: a timed window of pushes moves
// windowItems items (windowItems/batch batches, and at most maxOps of them
// for a contender with a bound) into a fresh queue; a timed window of pops
// empties queues holding windowItems items. Between windows, with the timer
// stopped, the queues are replaced, lists rebuilt and the garbage collected,
// so a queue never grows without bound. A window must be long: each starts
// after the timer's pause, which stops the world to read memory statistics
// and leaves the caches cold, and ends by reading the clock, and the shorter
// the window, the larger and the more variable the share of both in its
// time. With about a million items a window of the cheapest operation (a
// push of one item into a ring) lasts milliseconds. On a machine shared with
// other jobs the mean over the windows (ns/op) still varies by tens of
// percent between runs; the best window (best-ns/op, see timeWindows) stays
// within a few percent for the rings, blockq and the pops (both spreads are
// in bench/report/results/owner-path-2026-12-03).
// listWindowOps bounds the windows of pre-built lists, which hold one List
// per batch (a List of one item takes a block of slots of its own).
const (
	windowItems   = 1 << 20
	listWindowOps = 1 << 16
)

// pushWindow returns how many batches of batch items a timed window of c
// pushes.
func pushWindow(c pushContender, batch int) int {
	ops := max(1, windowItems/batch)
	if c.maxOps > 0 {
		ops = min(ops, c.maxOps)
	}
	return ops
}

// timeWindows runs b.N operations in windows of at most window operations:
// prepare (not timed) builds the window, run (timed) performs it. Before each
// window it collects the garbage of the last one, so that a collection cycle
// started by the untimed preparation does not run into the timed loop; what
// the timed operations allocate themselves is still allocated inside the
// timer (and shown by -benchmem's allocs/op).
//
// Besides ns/op, the mean over all windows, it reports best-ns/op, the time
// per operation of the fastest whole window: on a machine shared with other
// jobs, which stretch some windows and not others, the best window is the
// figure that repeated runs reproduce (bench/report/results/owner-path-2026-12-03
// compares the spreads of both).
func timeWindows(b *testing.B, window int, prepare func(ops int) (run func())) {
	b.ReportAllocs()
	b.StopTimer()
	best, bestOps := time.Duration(0), 0
	for done := 0; done < b.N; {
		ops := min(window, b.N-done)
		run := prepare(ops)
		runtime.GC()
		b.StartTimer()
		start := time.Now()
		run()
		d := time.Since(start)
		b.StopTimer()
		if done == 0 || ops == window && d*time.Duration(bestOps) < best*time.Duration(ops) {
			best, bestOps = d, ops
		}
		done += ops
	}
	if bestOps > 0 {
		b.ReportMetric(float64(best.Nanoseconds())/float64(bestOps), "best-ns/op")
	}
}

// BenchmarkPush measures one Push of one item: ns/op is the time per push.
func BenchmarkPush(b *testing.B) {
	for _, c := range pushContenders {
		b.Run("queue="+c.name, func(b *testing.B) {
			timeWindows(b, pushWindow(c, 1), func(ops int) func() { return c.prepare(1, ops) })
		})
	}
}

// BenchmarkPushBatch measures pushing one batch of batch items by PushBatch
// (or PushList): ns/op is the time per batch, ns/item the time per item.
// Its batch=1 is PushBatch of a one-item slice; BenchmarkPush times Push.
func BenchmarkPushBatch(b *testing.B) {
	for _, c := range batchContenders {
		for _, batch := range batchSizes {
			b.Run(fmt.Sprintf("queue=%s/batch=%d", c.name, batch), func(b *testing.B) {
				timeWindows(b, pushWindow(c, batch), func(ops int) func() { return c.prepare(batch, ops) })
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(batch), "ns/item")
			})
		}
	}
}

// stealQueues is how many queues of n items one timed loop steals from: one
// steal from each, so that a timed loop lasts far longer than a reading of
// the clock, while all the queues together hold at most stealItems items.
func stealQueues(n int) int { return max(1, min(maxStealQueues, stealItems/n)) }

// The bounds of stealQueues: at most maxStealQueues queues, holding at
// most stealItems items in all.
const (
	maxStealQueues = 64
	stealItems     = 1 << 20
)

// BenchmarkSteal measures one proportional steal from a queue of n items,
// with the owner idle: ns/op is the time per steal. A timed loop makes one
// steal from each of stealQueues(n) queues, in turn, and the queues are
// refilled to n items outside the timer. Stealing from many queues in turn
// makes a timed loop long enough to time and keeps the queues' memory from
// all being in the cache at once; the refill, by the same goroutine, may
// still leave a victim's newest items cached.
func BenchmarkSteal(b *testing.B) {
	for _, c := range stealContenders {
		for _, n := range stealSizes {
			for _, pct := range stealShares {
				b.Run(fmt.Sprintf("queue=%s/n=%d/p=%d", c.name, n, pct), func(b *testing.B) {
					p := float64(pct) / 100
					r := stealQueues(n)
					steals, refills := make([]func() int, r), make([]func(), r)
					for i := range r {
						steals[i], refills[i] = c.prepare(n, p)
					}
					want := wsq.StealCount(n, p)
					got := make([]int, r)
					// One untimed round first, so that no timed steal pays
					// for growing its destination buffer.
					for i := range r {
						if k := steals[i](); k != want {
							b.Fatalf("steal of p=%v from %d items took %d, want %d", p, n, k, want)
						}
						refills[i]()
					}
					b.ReportAllocs()
					b.ResetTimer()
					b.StopTimer()
					for done := 0; done < b.N; {
						m := min(r, b.N-done)
						b.StartTimer()
						for i := range m {
							got[i] = steals[i]()
						}
						b.StopTimer()
						for i := range m {
							if got[i] != want {
								b.Fatalf("steal of p=%v from %d items took %d, want %d", p, n, got[i], want)
							}
							refills[i]()
						}
						done += m
					}
				})
			}
		}
	}
}

// BenchmarkPop measures one Pop from a queue filled in batches of
// popFillBatch items.
func BenchmarkPop(b *testing.B) {
	for _, c := range popContenders {
		b.Run("queue="+c.name, func(b *testing.B) {
			timeWindows(b, windowItems, c.prepare)
		})
	}
}

// BenchmarkPopItemFilled is BenchmarkPop with the queues filled by one Push
// per item, the pattern of a producer that pushes as it goes: a pop may pay
// for how that pattern laid the items out.
func BenchmarkPopItemFilled(b *testing.B) {
	defer func(batch int) { popFillBatch = batch }(popFillBatch)
	popFillBatch = 1
	BenchmarkPop(b)
}
