package sched

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of the private forks (see runner): what a fork keeps private,
// what it publishes and when, and that every way a task leaves its
// goroutine publishes what it kept.

// keepPrivate makes t's worker keep its forks private, as a worker whose
// items are short does while nobody asks, with its queue showing a fork
// (so that the next fork is not published to show one).
func keepPrivate(t *Task) {
	w := t.runner.w
	w.setLong(false)
	w.asked.Store(0)
	t.runner.forks.published = 1
}

// within waits until ok holds, for at most ten seconds, and reports
// whether it did. A failure of the test, not a measure of time: what it
// waits for takes microseconds when the code is right.
func within(ok func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		if ok() {
			return true
		}
	}
	return false
}

// TestPublishOldest checks what a fork keeps and publishes: nothing goes
// into the queue until a thief asks; then the next fork publishes the
// oldest half of the private forks, oldest first, and keeps the newest;
// and every fork, published or not, runs once.
func TestPublishOldest(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	id := func(_ *Task, x int) int { return x }
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		r, w := t.runner, t.runner.w
		fs := make([]Future[int], 7)
		for i := range 6 {
			fs[i] = Fork(t, id, i)
		}
		if r.forks.n != 6 || w.queue.Len() != 0 {
			return fmt.Errorf("six forks: %d private, %d in the queue; want 6 and 0", r.forks.n, w.queue.Len())
		}
		w.ask() // a thief found the queue empty
		fs[6] = Fork(t, id, 6)
		if r.forks.n != 3 || w.queue.Len() != 4 {
			return fmt.Errorf("the fork after an ask: %d private, %d in the queue; want 3 and 4", r.forks.n, w.queue.Len())
		}
		for i, b := range r.forks.slots[:r.forks.n] {
			if b != &fs[4+i].rec.record {
				return fmt.Errorf("private fork %d is not fork %d: the newest stay private", i, 4+i)
			}
		}
		if !w.long && w.asked.Load() != 0 { // a sample at the answer may find long items: see Worker.grain
			return errors.New("the answer left the ask set")
		}
		// The queue's newest item is the oldest fork's successor chain:
		// pop them back in the order a join finds them.
		for i := 3; i >= 0; i-- {
			j, ok := w.next()
			if !ok || j.kind != jobKind(&fs[i].rec.record) {
				return fmt.Errorf("the queue's item %d from the newest is not fork %d", 3-i, i)
			}
			r.exec(j)
		}
		for i := 6; i >= 0; i-- {
			if got := fs[i].Join(t); got != i {
				return fmt.Errorf("fork %d joined %d", i, got)
			}
		}
		if t.forks.unjoined != 0 || t.forks.newest != nil {
			return fmt.Errorf("after the joins: %d unjoined, list %v", t.forks.unjoined, t.forks.newest != nil)
		}
		return nil
	}))
	st := p.Close()
	assert.Equal(t, int64(1+7), st.Processed)
}

// TestTakenForksCounted: a wait that runs the private forks as tasks of
// the worker's (next) counts each in pending before it credits it, so
// that pending, less the worker's credit, still counts what is left: here
// the pool's hold and the running task.
func TestTakenForksCounted(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	id := func(_ *Task, x int) int { return x }
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		fs := make([]Future[int], 10)
		for i := range fs {
			fs[i] = Fork(t, id, i)
		}
		for i, f := range fs { // oldest first: each wait runs the newer ones
			if got := f.Join(t); got != i {
				return fmt.Errorf("fork %d joined %d", i, got)
			}
		}
		if left := p.s.pending.Load() - t.runner.w.credit; left != 2 {
			return fmt.Errorf("pending less credit is %d, want 2: the hold and this task", left)
		}
		return nil
	}))
}

// TestJoinAnswersAsk: a task that joins many private forks in turn, and
// forks nothing meanwhile, answers an idle worker's ask at its joins. The
// other worker runs a task until the forks are made, so that nobody asks
// before the joins.
func TestJoinAnswersAsk(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 2, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			var elsewhere atomic.Int32
			require.NoError(t, p.Do(context.Background(), func(t *Task) error {
				var busy, forked atomic.Bool
				g := t.NewGroup()
				g.Go(t, func(*Task) error { // the other worker's, while this one waits
					busy.Store(true)
					for !forked.Load() {
						runtime.Gosched()
					}
					return nil
				})
				if !within(busy.Load) {
					return errors.New("the other worker did not take the blocker")
				}
				keepPrivate(t)
				me := t.WorkerID()
				task := func(t *Task, _ int) {
					if t.WorkerID() != me {
						elsewhere.Add(1)
					}
					time.Sleep(time.Millisecond)
				}
				fs := make([]Future[struct{}], 200)
				for i := range fs {
					fs[i] = ForkFunc(t, task, i)
				}
				if t.runner.forks.n != len(fs) {
					return fmt.Errorf("%d of %d forks private", t.runner.forks.n, len(fs))
				}
				forked.Store(true) // the other worker looks for work, and asks
				for i := len(fs) - 1; i >= 0; i-- {
					fs[i].Join(t)
				}
				return g.Wait(t)
			}))
			assert.Positive(t, elsewhere.Load(), "the idle worker ran none of the forks joined in turn")
		})
	}
}

// TestJoinPublishesFirstFork: with nothing of its worker's in the queue,
// Join publishes g at once, so that another worker can take it however
// long f runs without forking. Here f waits until g has started.
func TestJoinPublishesFirstFork(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 2, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			require.NoError(t, p.Do(context.Background(), func(t *Task) error {
				// Short items, and a published fork joined: the queue
				// shows none of the worker's forks.
				keepPrivate(t)
				Fork(t, func(*Task, int) int { return 0 }, 0).Join(t)
				t.runner.forks.published = 0
				t.runner.w.asked.Store(1) // as the join of the last published fork leaves it (forkStack.joined)
				var started atomic.Bool
				ok, _ := Join(t, func(*Task, int) bool {
					return within(started.Load)
				}, 0, func(*Task, int) bool { started.Store(true); return true }, 0)
				if !ok {
					return errors.New("g did not start while f ran")
				}
				return nil
			}))
		})
	}
}

// TestUnshowAsks: the join of a worker's last published fork leaves its
// queue showing none of its forks, and asks, so that the next fork is
// published.
func TestUnshowAsks(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		t.runner.forks.published = 0
		t.runner.w.ask()
		f := Fork(t, func(*Task, int) int { return 1 }, 0)                                     // published: the ask
		if t.runner.forks.published != 1 || !t.runner.w.long && t.runner.w.asked.Load() != 0 { // the answer's sample may find long items
			return fmt.Errorf("after the answer: published %d, asked %d", t.runner.forks.published, t.runner.w.asked.Load())
		}
		t.runner.w.asked.Store(0)
		f.Join(t)
		if t.runner.forks.published != 0 || t.runner.w.asked.Load() != 1 {
			return fmt.Errorf("after the join: published %d, asked %d; want 0 and 1", t.runner.forks.published, t.runner.w.asked.Load())
		}
		return nil
	}))
}

// TestAskWithoutForksStays: an ask that finds no private fork stays, and
// the next fork answers it. A thief that asked may sleep, and only a
// publication wakes it.
func TestAskWithoutForksStays(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		w := t.runner.w
		w.grain, w.busySince = 0, -1 // short items, and no sample that would find them long
		f := Fork(t, func(*Task, int) int { return 1 }, 0)
		w.ask()
		f.Join(t) // polls with no private fork left: nothing to publish
		if w.asked.Load() != 1 {
			return errors.New("a join with no private fork cleared the ask")
		}
		g := Fork(t, func(*Task, int) int { return 2 }, 0) // answers: published
		if t.runner.forks.n != 0 || w.queue.Len() != 1 {
			return fmt.Errorf("after the next fork: %d private, %d in the queue; want 0 and 1", t.runner.forks.n, w.queue.Len())
		}
		if g.Join(t) != 2 {
			return errors.New("wrong result")
		}
		return nil
	}))
}

// TestBlockPublishes: a task that blocks publishes its private forks
// first, so that the worker's next goroutine can run them meanwhile.
func TestBlockPublishes(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		var ran atomic.Bool
		f := ForkFunc(t, func(*Task, int) { ran.Store(true) }, 0)
		var ok bool
		t.Block(func() { ok = within(ran.Load) })
		f.Join(t)
		if !ok {
			return errors.New("the fork did not run while its task blocked")
		}
		return nil
	}))
}

// TestGoexitPublishes: a task that ends its goroutine by Goexit leaves its
// private forks published: they run, and Close waits for them.
func TestGoexitPublishes(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	var ran atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = p.Do(context.Background(), func(t *Task) error {
			keepPrivate(t)
			ForkFunc(t, func(*Task, int) { ran.Store(true) }, 0)
			runtime.Goexit()
			return nil
		})
	}()
	<-done
	p.Close()
	assert.True(t, ran.Load(), "a fork of a task that called Goexit never ran")
}

// TestTaskLayout: what other goroutines read of a task (ctxOf, for its
// forks; up, for helping waits) lies on another cache line than what its
// own goroutine writes at every fork and join (forks, groups), wherever
// the frame starts.
func TestTaskLayout(t *testing.T) {
	tt := reflect.TypeFor[Task]()
	for _, r := range []string{"ctxOf", "up"} {
		read, ok := tt.FieldByName(r)
		require.True(t, ok, r)
		for _, name := range []string{"forks", "groups"} {
			f, ok := tt.FieldByName(name)
			require.True(t, ok, name)
			assert.GreaterOrEqual(t, f.Offset, read.Offset+read.Type.Size()+64, r+" and "+name)
		}
	}
}

// TestPublishBufferReleased: a task that publishes many private forks at
// once (here by Task.Block) grows its goroutine's buffer of forks to
// publish; the goroutine lets go of it once it is back at depth zero.
func TestPublishBufferReleased(t *testing.T) {
	const forks = 1 << 12
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	var r *runner
	nop := func(*Task, int) {}
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		keepPrivate(t)
		r = t.runner
		fs := make([]Future[struct{}], forks)
		for i := range fs {
			fs[i] = ForkFunc(t, nop, i)
		}
		t.Block(func() {}) // publishes every private fork, in one batch
		if c := cap(r.forks.batch); c < forks {
			return fmt.Errorf("the publish's buffer holds %d, want at least %d", c, forks)
		}
		for i := len(fs) - 1; i >= 0; i-- {
			fs[i].Join(t)
		}
		return nil
	}))
	assert.LessOrEqual(t, cap(r.forks.batch), keptFrames, "the buffer after Do returned")
}

// TestJoinClearsRecord: the join of a fork that ran on another goroutine
// leaves nothing in its record: a queue may keep the record reachable
// until its owner's next operation (chaselev's rings do), and a Future
// kept after the join keeps it too.
func TestJoinClearsRecord(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := NewPool(Config[Job]{Workers: 2, Mode: mode})
			require.NoError(t, err)
			defer p.Close()
			var started, finished atomic.Bool
			var ranOn *runner
			require.NoError(t, p.Do(context.Background(), func(t *Task) error {
				f := Fork(t, func(t *Task, n int) []byte {
					started.Store(true)
					ranOn = t.runner
					defer finished.Store(true)
					return make([]byte, n)
				}, 1<<10)
				for !started.Load() {
					t.Demand() // publishes the fork for the other worker
					runtime.Gosched()
				}
				for !finished.Load() {
					runtime.Gosched()
				}
				if ranOn == t.runner {
					return fmt.Errorf("the fork ran on its forking goroutine")
				}
				if got := f.Join(t); len(got) != 1<<10 {
					return fmt.Errorf("joined %d bytes", len(got))
				}
				if rec := f.rec; rec.r != nil || rec.parent != nil || rec.ranOn != nil {
					return fmt.Errorf("the joined record keeps its result %v, parent %v or goroutine %v", rec.r != nil, rec.parent != nil, rec.ranOn != nil)
				}
				return nil
			}))
		})
	}
}
