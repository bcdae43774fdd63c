package sched_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/internal/schedstats"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/sched"
)

// tally records how often each item of 0..n-1 was handled.
type tally struct {
	seen  []atomic.Int32
	count atomic.Int64
	sum   atomic.Int64
}

func newTally(n int) *tally { return &tally{seen: make([]atomic.Int32, n)} }

func (t *tally) add(v int) {
	t.seen[v].Add(1)
	t.count.Add(1)
	t.sum.Add(int64(v))
}

// check asserts that every item of 0..n-1 was handled exactly once.
func (t *tally) check(tb testing.TB, st sched.Stats) {
	tb.Helper()
	n := len(t.seen)
	bad := 0
	for i := range t.seen {
		if c := t.seen[i].Load(); c != 1 {
			if bad < 5 {
				tb.Errorf("item %d handled %d times", i, c)
			}
			bad++
		}
	}
	assert.Zero(tb, bad, "items not handled exactly once")
	assert.Equal(tb, int64(n), t.count.Load(), "count")
	assert.Equal(tb, int64(n)*int64(n-1)/2, t.sum.Load(), "checksum")
	assert.Equal(tb, int64(n), st.Processed, "Stats.Processed")
	var per int64
	for _, w := range st.PerWorker {
		per += w.Processed
	}
	assert.Equal(tb, st.Processed, per, "sum of PerWorker.Processed")
	assert.GreaterOrEqual(tb, st.Moved, st.Steals, "Moved >= Steals")
}

// kinds returns the queue factories the tests run with: every queue in the
// catalog, plus a tiny bounded queue (to exercise the overflow path) and a
// queue with a copy-free hand-off (to exercise wsq.Handoff).
func kinds() map[string]func() wsq.Queue[int] {
	m := map[string]func() wsq.Queue[int]{}
	for _, name := range catalog.Names() {
		m[name] = mustFactory[int](name)
	}
	m["mutex-cap4"] = func() wsq.Queue[int] { return mutexq.NewBounded[int](4) }
	m["handoff"] = func() wsq.Queue[int] { return newHandoffQueue() }
	return m
}

// mustFactory returns the catalog's constructor of the named queue.
func mustFactory[T any](name string) func() wsq.Queue[T] {
	newQueue, err := catalog.Factory[T](name)
	if err != nil {
		panic(err)
	}
	return newQueue
}

func configs(newQueue func() wsq.Queue[int]) []sched.Config[int] {
	var cs []sched.Config[int]
	for _, mode := range sched.Modes() {
		for _, workers := range []int{1, 2, 3, 8} {
			cs = append(cs, sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: workers})
		}
	}
	cs = append(cs,
		sched.Config[int]{NewQueue: newQueue, Mode: sched.Random, Workers: 4, StealOne: true},
		sched.Config[int]{NewQueue: newQueue, Mode: sched.Master, Workers: 4, Proportion: 0.1},
		sched.WithSpin(sched.Config[int]{NewQueue: newQueue, Mode: sched.Random, Workers: 4, Proportion: 1}, 1),
		// Three masters, each looking at a window of queues.
		sched.Config[int]{NewQueue: newQueue, Mode: sched.Master, Workers: 35},
	)
	return cs
}

func name(c sched.Config[int]) string {
	s := fmt.Sprintf("mode=%v/workers=%d", c.Mode, c.Workers)
	if c.StealOne {
		s += "/one"
	}
	if c.Proportion != 0 {
		s += fmt.Sprintf("/p=%v", c.Proportion)
	}
	if n := sched.Spin(c); n != 0 {
		s += fmt.Sprintf("/spin=%d", n)
	}
	return s
}

// treeHandler explores the ternary tree on 0..n-1 in which the children of
// i are 3i+1, 3i+2 and 3i+3 (those below n), spawning each node's children
// as one batch.
func treeHandler(n int, t *tally) sched.Handler[int] {
	return func(_ context.Context, v int, w *sched.Worker[int]) error {
		t.add(v)
		var kids [3]int
		k := 0
		for c := 3*v + 1; c <= 3*v+3 && c < n; c++ {
			kids[k] = c
			k++
		}
		w.Spawn(kids[:k]...)
		return nil
	}
}

func TestExactlyOnce(t *testing.T) {
	n := testenv.Size(3_000, 3_000, 30_000)
	for kind, newQueue := range kinds() {
		for _, cfg := range configs(newQueue) {
			t.Run("queue="+kind+"/"+name(cfg), func(t *testing.T) {
				tl := newTally(n)
				st, err := sched.Run(context.Background(), cfg, []int{0}, treeHandler(n, tl))
				require.NoError(t, err)
				tl.check(t, st)
				assert.Len(t, st.PerWorker, cfg.Workers)
				if cfg.Workers == 1 {
					assert.Zero(t, st.Steals, "one worker has nobody to steal from")
				}
				d := schedstats.Of(st)
				if cfg.Mode == sched.Random {
					assert.Zero(t, d.MasterBusy)
				}
				if _, ok := cfg.NewQueue().(wsq.Handoff[int]); ok && cfg.Mode == sched.Master {
					assert.LessOrEqual(t, d.Parcels, st.Steals, "steals of more than a few items are parcels")
				} else {
					assert.Zero(t, d.Parcels)
				}
			})
		}
	}
}

// TestShapes runs the corner cases: no work, one item, a deep chain, one
// wide batch, and many roots.
func TestShapes(t *testing.T) {
	depth := testenv.Size(2_000, 2_000, 20_000)
	width := testenv.Size(5_000, 5_000, 50_000)
	type shape struct {
		n     int
		roots []int
		h     func(*tally) sched.Handler[int]
	}
	leaf := func(tl *tally) sched.Handler[int] {
		return func(_ context.Context, v int, _ *sched.Worker[int]) error { tl.add(v); return nil }
	}
	manyRoots := make([]int, width)
	for i := range manyRoots {
		manyRoots[i] = i
	}
	shapes := map[string]shape{
		"empty": {0, nil, leaf},
		"one":   {1, []int{0}, leaf},
		"chain": {depth, []int{0}, func(tl *tally) sched.Handler[int] {
			return func(_ context.Context, v int, w *sched.Worker[int]) error {
				tl.add(v)
				if v+1 < depth {
					w.Spawn(v + 1)
				}
				return nil
			}
		}},
		"wide": {width, []int{0}, func(tl *tally) sched.Handler[int] {
			return func(_ context.Context, v int, w *sched.Worker[int]) error {
				tl.add(v)
				if v == 0 {
					kids := make([]int, width-1)
					for i := range kids {
						kids[i] = i + 1
					}
					w.Spawn(kids...)
				}
				return nil
			}
		}},
		"roots": {width, manyRoots, leaf},
	}
	for sname, sh := range shapes {
		for kind, newQueue := range kinds() {
			for _, mode := range sched.Modes() {
				for _, workers := range []int{1, 4} {
					cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: workers}
					t.Run(sname+"/queue="+kind+"/"+name(cfg), func(t *testing.T) {
						tl := newTally(sh.n)
						st, err := sched.Run(context.Background(), cfg, sh.roots, sh.h(tl))
						require.NoError(t, err)
						tl.check(t, st)
					})
				}
			}
		}
	}
}

func TestHandlerError(t *testing.T) {
	boom := errors.New("boom")
	for kind, newQueue := range kinds() {
		for _, mode := range sched.Modes() {
			cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: 4}
			t.Run("queue="+kind+"/"+name(cfg), func(t *testing.T) {
				// An endless tree; the 1000th item handled fails.
				var handled atomic.Int64
				st, err := sched.Run(context.Background(), cfg, []int{0}, func(ctx context.Context, v int, w *sched.Worker[int]) error {
					if handled.Add(1) == 1000 {
						return fmt.Errorf("item %d: %w", 1000, boom)
					}
					w.Spawn(v, v+1)
					return nil
				})
				require.ErrorIs(t, err, boom)
				assert.EqualError(t, err, "item 1000: boom")
				assert.GreaterOrEqual(t, st.Processed, int64(999))
			})
		}
	}
}

func TestCancel(t *testing.T) {
	for kind, newQueue := range kinds() {
		for _, mode := range sched.Modes() {
			cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: 4}
			t.Run("queue="+kind+"/"+name(cfg), func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var handled atomic.Int64
				// An endless tree; the run ends only by cancellation.
				st, err := sched.Run(ctx, cfg, []int{0}, func(_ context.Context, v int, w *sched.Worker[int]) error {
					if handled.Add(1) == 5000 {
						cancel()
					}
					w.Spawn(v, v+1)
					return nil
				})
				require.ErrorIs(t, err, context.Canceled)
				assert.GreaterOrEqual(t, st.Processed, int64(5000))
			})
		}
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mode := range sched.Modes() {
		cfg := sched.Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.New[int]() }, Mode: mode, Workers: 3}
		st, err := sched.Run(ctx, cfg, []int{1, 2, 3}, func(context.Context, int, *sched.Worker[int]) error { return nil })
		require.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, st.Processed)
	}
}

// TestParentCancelledWhileIdle cancels the context while all workers but
// one are idle and the busy one waits for the cancellation.
func TestParentCancelledWhileIdle(t *testing.T) {
	for _, mode := range sched.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := sched.Config[int]{NewQueue: func() wsq.Queue[int] { return mutexq.New[int]() }, Mode: mode, Workers: 4}
			_, err := sched.Run(ctx, cfg, []int{0}, func(ctx context.Context, _ int, _ *sched.Worker[int]) error {
				cancel()
				<-ctx.Done()
				return nil
			})
			require.ErrorIs(t, err, context.Canceled)
		})
	}
}

func TestConfigErrors(t *testing.T) {
	h := func(context.Context, int, *sched.Worker[int]) error { return nil }
	newQ := func() wsq.Queue[int] { return mutexq.New[int]() }
	bad := map[string]sched.Config[int]{
		"negative workers":   {NewQueue: newQ, Workers: -1},
		"bad mode":           {NewQueue: newQ, Mode: sched.Mode(7)},
		"proportion above 1": {NewQueue: newQ, Proportion: 1.5},
		"negative p":         {NewQueue: newQ, Proportion: -0.5},
		"negative spin":      sched.WithSpin(sched.Config[int]{NewQueue: newQ}, -1),
		"nil queue":          {NewQueue: func() wsq.Queue[int] { return nil }},
	}
	for name, cfg := range bad {
		_, err := sched.Run(context.Background(), cfg, []int{1}, h)
		assert.ErrorContains(t, err, "sched: ", name)
	}
	_, err := sched.Run(context.Background(), sched.Config[int]{NewQueue: newQ}, []int{1}, nil)
	assert.ErrorContains(t, err, "nil Handler")
	// Workers 0 means GOMAXPROCS, and a nil NewQueue the default queue.
	st, err := sched.Run(context.Background(), sched.Config[int]{}, []int{1, 2, 3}, h)
	require.NoError(t, err)
	assert.Len(t, st.PerWorker, runtime.GOMAXPROCS(0))
	assert.Len(t, st.PerWorker, sched.Config[int]{}.WorkerCount())
	assert.Equal(t, 5, sched.Config[int]{Workers: 5}.WorkerCount())
	assert.Equal(t, int64(3), st.Processed)
}

// TestDefaultQueue checks that the default queue is the one documented: a
// blockq.Queue, unbounded, with the hand-off the master uses.
func TestDefaultQueue(t *testing.T) {
	q := sched.DefaultQueue[int]()
	require.IsType(t, (*blockq.Queue[int])(nil), q)
	assert.Zero(t, q.Contract().Capacity)
	assert.Implements(t, (*wsq.Handoff[int])(nil), q)
}

func TestModeNames(t *testing.T) {
	assert.Equal(t, "master", sched.Master.String())
	assert.Equal(t, "random", sched.Random.String())
	assert.Equal(t, "Mode(9)", sched.Mode(9).String())
}

// TestMasterIsTheOnlyThief checks the paper's concurrency model in Master
// mode: each queue has at most one thief at a time, and owner operations never
// overlap.
func TestMasterIsTheOnlyThief(t *testing.T) {
	n := testenv.Size(3_000, 3_000, 30_000)
	var mu sync.Mutex
	var queues []*watchQueue
	cfg := sched.Config[int]{Mode: sched.Master, Workers: 4, NewQueue: func() wsq.Queue[int] {
		q := &watchQueue{Queue: mutexq.New[int]()}
		mu.Lock()
		queues = append(queues, q)
		mu.Unlock()
		return q
	}}
	tl := newTally(n)
	st, err := sched.Run(context.Background(), cfg, []int{0}, treeHandler(n, tl))
	require.NoError(t, err)
	tl.check(t, st)
	for i, q := range queues {
		assert.Zero(t, q.overlaps.Load(), "queue %d: overlapping thieves or owners", i)
	}
}

// watchQueue counts overlapping owner calls and overlapping thief calls.
type watchQueue struct {
	wsq.Queue[int]
	owners, thieves atomic.Int32
	overlaps        atomic.Int32
}

func (q *watchQueue) owner() func() {
	if q.owners.Add(1) > 1 {
		q.overlaps.Add(1)
	}
	return func() { q.owners.Add(-1) }
}

func (q *watchQueue) thief() func() {
	if q.thieves.Add(1) > 1 {
		q.overlaps.Add(1)
	}
	return func() { q.thieves.Add(-1) }
}

func (q *watchQueue) Push(v int) bool        { defer q.owner()(); return q.Queue.Push(v) }
func (q *watchQueue) PushBatch(vs []int) int { defer q.owner()(); return q.Queue.PushBatch(vs) }
func (q *watchQueue) Pop() (int, bool)       { defer q.owner()(); return q.Queue.Pop() }
func (q *watchQueue) Steal() (int, bool)     { defer q.thief()(); return q.Queue.Steal() }
func (q *watchQueue) StealBatch(dst []int, p float64) []int {
	defer q.thief()()
	return q.Queue.StealBatch(dst, p)
}
func (q *watchQueue) TrySteal() (int, wsq.StealResult) { defer q.thief()(); return q.Queue.TrySteal() }
func (q *watchQueue) TryStealBatch(dst []int, p float64) ([]int, wsq.StealResult) {
	defer q.thief()()
	return q.Queue.TryStealBatch(dst, p)
}

// handoffQueue is a mutexq.Queue with a wsq.Handoff whose parcels are
// slices: a second Handoff implementation beside lfqueue's, so that the
// parcel path is tested with parcels that are not lists.
type handoffQueue struct {
	*mutexq.Queue[int]
}

type sliceParcel struct{ items []int }

func (p *sliceParcel) Len() int { return len(p.items) }
func (p *sliceParcel) Drain(dst []int) []int {
	dst = append(dst, p.items...)
	p.items = nil
	return dst
}

func newHandoffQueue() *handoffQueue { return &handoffQueue{mutexq.New[int]()} }

func (q *handoffQueue) StealParcel(p float64) wsq.Parcel[int] {
	items := q.StealBatch(nil, p)
	if len(items) == 0 {
		return nil
	}
	return &sliceParcel{items}
}

func (q *handoffQueue) PushParcel(p wsq.Parcel[int]) int {
	items := p.Drain(nil)
	return q.PushBatch(items)
}

var _ wsq.Handoff[int] = (*handoffQueue)(nil)

// dupQueue returns every tenth popped item twice, as a broken queue might.
type dupQueue struct {
	*mutexq.Queue[int]
	pops int
}

func (q *dupQueue) Pop() (int, bool) {
	v, ok := q.Queue.Pop()
	if q.pops++; ok && q.pops%10 == 0 {
		q.Queue.Push(v)
	}
	return v, ok
}

func TestDuplicateDetected(t *testing.T) {
	roots := make([]int, 1000)
	cfg := sched.Config[int]{Workers: 1, NewQueue: func() wsq.Queue[int] { return &dupQueue{Queue: mutexq.New[int]()} }}
	st, err := sched.Run(context.Background(), cfg, roots, func(context.Context, int, *sched.Worker[int]) error { return nil })
	require.EqualError(t, err, "sched: more items handled than spawned; a queue returned an item twice")
	assert.Greater(t, st.Processed, int64(1000))
}

// contendedQueue is a mutexq.Queue whose every other one-attempt steal
// reports wsq.Contended without taking anything, as a queue under heavy
// contention would. It counts the results it reports, by StealResult.
type contendedQueue struct {
	*mutexq.Queue[int]
	tries   atomic.Int64
	results [3]atomic.Int64 // indexed by wsq.StealResult
}

func (q *contendedQueue) contended() bool { return q.tries.Add(1)%2 == 1 }

func (q *contendedQueue) TrySteal() (int, wsq.StealResult) {
	v, res := 0, wsq.Contended
	if !q.contended() {
		v, res = q.Queue.TrySteal()
	}
	q.results[res].Add(1)
	return v, res
}

func (q *contendedQueue) TryStealBatch(dst []int, p float64) ([]int, wsq.StealResult) {
	res := wsq.Contended
	if !q.contended() {
		dst, res = q.Queue.TryStealBatch(dst, p)
	}
	q.results[res].Add(1)
	return dst, res
}

// TestContendedSteals checks that both modes steal past wsq.Contended
// results, counting them in Stats.ContendedSteals apart from the steals that
// found a victim empty: each count equals the number of such results the
// queues reported.
func TestContendedSteals(t *testing.T) {
	for _, mode := range sched.Modes() {
		for _, one := range []bool{false, true} {
			t.Run(fmt.Sprintf("mode=%v/one=%v", mode, one), func(t *testing.T) {
				const n = 2_000
				var mu sync.Mutex
				var queues []*contendedQueue
				cfg := sched.Config[int]{Mode: mode, Workers: 4, StealOne: one, NewQueue: func() wsq.Queue[int] {
					q := &contendedQueue{Queue: mutexq.New[int]()}
					mu.Lock()
					defer mu.Unlock()
					queues = append(queues, q)
					return q
				}}
				tl := newTally(n)
				tree := treeHandler(n, tl)
				// Slow items, so that idle workers steal.
				st, err := sched.Run(context.Background(), cfg, []int{0}, func(ctx context.Context, v int, w *sched.Worker[int]) error {
					time.Sleep(20 * time.Microsecond)
					return tree(ctx, v, w)
				})
				require.NoError(t, err)
				tl.check(t, st)
				assert.Positive(t, st.Steals)
				d := schedstats.Of(st)
				assert.Positive(t, d.ContendedSteals, "every other steal attempt is contended")
				var results [3]int64
				for _, q := range queues {
					for r := range results {
						results[r] += q.results[r].Load()
					}
				}
				assert.Equal(t, results[wsq.Taken], st.Steals, "steals that took items")
				assert.Equal(t, results[wsq.Empty], d.EmptySteals, "steals that found the victim empty")
				assert.Equal(t, results[wsq.Contended], d.ContendedSteals, "steals that met contention")
			})
		}
	}
}
