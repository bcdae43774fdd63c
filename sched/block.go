package sched

import (
	"sync"
	"sync/atomic"

	"github.com/worksteal/wsq/internal/atomicx"
)

// A task that blocks lends its worker to another goroutine, as the Go
// runtime hands a blocked thread's P to another thread: the Worker (its
// ID, queue, buffers and statistics) is what is lent, and the goroutine
// (a poolWorker, with the frames of the tasks running on it) is what
// blocks. Four hand-overs move a worker between goroutines, each made by
// the goroutine that runs it, at a point where it does not need it:
//
//   - lend: a task calls Task.Block. Its goroutine gives the worker to a
//     goroutine waiting to take it back, if there is one; else to a parked
//     spare, or to a new goroutine.
//   - hand back: the goroutine running the worker finds, between items
//     or when it has no work (Worker.run returns errWanted), that a
//     goroutine waits to take it back; it gives the worker to the one that
//     has waited longest, and retires: it parks as a spare, unless there
//     are enough of them already, and ends.
//   - a helping wait with nothing of its own to run gives the worker to a
//     goroutine waiting to take it back, and sleeps until the tasks it
//     waits for are done (lendUntil): they may be that goroutine's, or wait
//     for it, so it must not keep the worker from it.
//   - a goroutine that ends by runtime.Goexit gives its worker to a new
//     one (see poolWorker.run).
//
// The giver writes slot.cur and the receiver's w before the hand-over,
// and the hand-over (a send on the receiver's resume channel, or the go
// statement) orders everything the giver did with the worker before
// everything the receiver does: a worker's queue has one owner goroutine
// at any moment. The worker's queue stays stealable throughout.
//
// A goroutine whose Task.Block function returned waits for its worker
// (reclaim) before the task goes on: its frames are on its stack, and
// they use the worker's queue. So a task runs on one worker from start to
// end, and Task.WorkerID does not change.
//
// No wait is for ever: the goroutine running a worker hands it over at its
// next lend, hand back or helping wait with nothing to run, and a task it
// runs never waits for a task on a goroutine waiting for the worker, below
// it in time: a task waits only for tasks it started, after it started,
// and those of the waiting goroutine had started before the worker was
// lent. (A task that waits for a Group it does not belong to can make a
// cycle, as it can without Block, between tasks on one goroutine's stack.)
//
// Goroutines: besides one per worker, the pool has one per Block under
// way (waiting for a token of calls, in its function, or waiting to take
// the worker back), and at most one parked spare per worker.

// goroutines is the part of a Pool that keeps track of its goroutines and
// of its blocking calls.
type goroutines struct {
	// blocked is the number of goroutines that lent their worker in
	// Task.Block and have not taken it back. A lend
	// to a spare or a new goroutine adds one (count); a lend to a
	// goroutine that waits for the worker leaves it as it is (one goroutine
	// starts to block as another stops); a hand back, after which the
	// giver retires, takes one off. A helping wait that lends its worker
	// (lendUntil) leaves it as it is too: it counts the goroutines beyond
	// one per worker that are not spares.
	blocked atomic.Int64
	// blocks, waits and peak are Stats.Blocks, BlockWaits and PeakBlocked.
	blocks, waits, peak atomic.Int64
	// calls holds a token for each Block function running, at most
	// cfg.MaxBlocked: a Block takes one before it calls its function, and
	// waits while there is none (see Task.Block).
	calls chan struct{}

	mu        sync.Mutex
	spares    []*poolWorker   // parked goroutines, most recent last
	maxSpares int             // the most spares kept; more end
	ids       map[uint64]bool // the IDs of the pool's goroutines, for onPool
}

// Block runs f, a call that blocks (I/O, a system call, a lock, a channel,
// a sleep), while the task's worker goes on running other tasks: the
// task's goroutine lends the worker to another goroutine for the duration
// of the call (a parked spare, or a new one), so that the pool keeps
// Workers goroutines running tasks. When f returns, the task goes on once
// its goroutine has its worker back: when the goroutine that ran the
// worker meanwhile finishes the task it is running, or blocks in turn.
// A task runs on one worker from start to end: Task.WorkerID does not
// change.
//
// At most Config.MaxBlocked functions of Block run at once
// (DefaultMaxBlocked: 256), as a semaphore would bound them. A Block
// beyond that waits for one of them to return before it calls f; its
// worker goes on running other tasks meanwhile. Lending costs a few
// microseconds; Block is for calls that block for longer, not for work
// that computes.
//
// f must not use t, or any other Task: its goroutine runs no task while it
// blocks. Such a use panics (see Misuse in the package documentation).
// Nor may f touch the worker's per-worker state (PerWorker), which belongs
// to the goroutine that runs the worker meanwhile. A task that needs its
// context in f reads it before:
//
//	ctx := t.Context()
//	var entries []fs.DirEntry
//	var err error
//	t.Block(func() { entries, err = readDir(ctx, dir) })
//
// f may do what a goroutine outside the pool does, such as start tasks
// in a Group made by Pool.NewGroup and wait for them with Wait(nil), since
// its worker goes on meanwhile. If those tasks call Block, MaxBlocked must
// leave them slots, as a semaphore must. A panic or
// runtime.Goexit in f is the task's, as if f had been called without
// Block: the goroutine takes its worker back first.
//
// Block must only be called by the task's function, with its own Task t;
// it panics otherwise, or if f is nil. In the terms of the Go memory
// model, what the task did before Block synchronizes before the call of f,
// and the return of f synchronizes before the return of Block.
func (t *Task) Block(f func()) {
	t.use("Task.Block")
	if f == nil {
		nilFunction("Task.Block", "")
	}
	pw := t.pw
	pw.lend()
	pw.top, pw.blocking = nil, true
	defer pw.endBlock(t)
	p := pw.p
	select {
	case p.calls <- struct{}{}:
	default:
		p.waits.Add(1) // MaxBlocked functions run: wait for one to return
		p.calls <- struct{}{}
	}
	defer func() { <-p.calls }()
	f()
}

// endBlock ends the Block of t: it takes the worker back. It is a deferred
// call, which runs on a panic or Goexit of f too, and does not recover:
// the panic or Goexit goes on to end the task.
func (pw *poolWorker) endBlock(t *Task) {
	pw.reclaim()
	pw.top, pw.blocking = t, false
}

// lend gives the worker to another goroutine: one that waits to take it
// back, a parked spare, or a new one.
func (pw *poolWorker) lend() {
	p, w := pw.p, pw.w
	p.blocks.Add(1)
	if pw.lendToWaiter() {
		return
	}
	p.count()
	if next := p.takeSpare(); next != nil {
		next.setWorker(w)
		p.give(w, next)
		return
	}
	p.goWith(w)
}

// goWith starts a new goroutine that runs w, which the calling goroutine
// runs and gives up. The wg.Add happens while the caller, which wg
// counts, has not ended: Close's wait cannot have seen a zero count.
func (p *Pool) goWith(w *Worker[Job]) {
	next := p.newGoroutine(w)
	sl := &p.slots[w.id]
	sl.cur = next
	sl.busy.Store(false)
	sl.gid.Store(0)
	p.s.wg.Add(1)
	go next.run()
}

// count counts one more goroutine that lends its worker, and keeps the
// peak.
func (g *goroutines) count() {
	n := g.blocked.Add(1)
	for {
		peak := g.peak.Load()
		if n <= peak || g.peak.CompareAndSwap(peak, n) {
			return
		}
	}
}

// give hands the worker w, which the calling goroutine runs and will not
// use again until it is handed back, to the goroutine next, which is
// parked on its resume channel (a spare, or a goroutine waiting to take w
// back).
func (p *Pool) give(w *Worker[Job], next *poolWorker) {
	sl := &p.slots[w.id]
	sl.cur = next
	sl.busy.Store(next.depth > 0) // next goes on with its task, or starts at depth zero
	sl.gid.Store(0)               // next stores its own
	next.resume <- struct{}{}     // never blocks: next waits for exactly this token
}

// lendToWaiter gives the worker to the goroutine that has waited longest
// to take it back, if one waits, and reports whether it did.
func (pw *poolWorker) lendToWaiter() bool {
	p, w := pw.p, pw.w
	if w.wanted.Load() == 0 {
		return false
	}
	sl := &p.slots[w.id]
	sl.mu.Lock()
	next := sl.dequeue()
	w.unwant()
	sl.mu.Unlock()
	p.give(w, next)
	return true
}

// dequeue takes the goroutine that has waited longest off waiting, which
// must not be empty; the caller holds mu.
func (sl *slot) dequeue() *poolWorker {
	next := sl.waiting[0]
	sl.waiting[0] = nil
	sl.waiting = sl.waiting[1:]
	if len(sl.waiting) == 0 {
		sl.waiting = nil // a burst of waiters does not keep its array
	}
	return next
}

// lendUntil is called by a helping wait for l that has nothing of its own
// to run. If a goroutine waits to take the worker back, it lends it that
// goroutine, sleeps until l is done, takes the worker back and reports
// true: the tasks l counts may be running on that goroutine, or wait for
// it, so keeping the worker could wait forever.
func (pw *poolWorker) lendUntil(l *latch) bool {
	if !pw.lendToWaiter() {
		return false
	}
	l.wait()
	pw.reclaim()
	return true
}

// sleep waits until l is done without running tasks (see poolWorker.join),
// lending the worker to a goroutine that waits to take it back meanwhile.
func (pw *poolWorker) sleep(l *latch) {
	w := pw.w
	for !l.done() {
		ch := l.channel()
		if pw.lendUntil(l) || l.done() {
			return
		}
		select {
		case <-ch:
		case <-w.recall: // see Worker.wanted
		}
	}
}

// reclaim waits until the goroutine has its worker back, after its task's
// Task.Block function returned: it queues behind the other goroutines that
// wait for the worker and wakes the goroutine running it, which hands the
// worker over at its next safe point (see Worker.run and lend).
func (pw *poolWorker) reclaim() {
	w := pw.w
	sl := &pw.p.slots[w.id]
	sl.mu.Lock()
	sl.waiting = append(sl.waiting, pw)
	w.want()
	sl.mu.Unlock()
	<-pw.resume
	sl.gid.Store(pw.gid)
}

// handBack gives the worker of pw, at a safe point of its loop, to the
// goroutine that has waited longest to take it back.
func (pw *poolWorker) handBack() {
	p, w := pw.p, pw.w
	sl := &p.slots[w.id]
	sl.mu.Lock()
	next := sl.dequeue()
	w.unwant()
	sl.mu.Unlock()
	p.blocked.Add(-1) // next has its worker back, and this goroutine retires
	p.give(w, next)
}

// newGoroutine returns the state of a new goroutine that will run w.
func (p *Pool) newGoroutine(w *Worker[Job]) *poolWorker {
	pw := &poolWorker{p: p, resume: make(chan struct{}, 1)}
	pw.setWorker(w)
	return pw
}

// takeSpare returns a parked spare goroutine, or nil if there is none.
func (p *Pool) takeSpare() *poolWorker {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.spares)
	if n == 0 {
		return nil
	}
	pw := p.spares[n-1]
	p.spares[n-1] = nil
	p.spares = p.spares[:n-1]
	return pw
}

// run is the body of a goroutine of the pool: it runs the loop of its
// worker, hands the worker back when a goroutine wants it, and then parks
// as a spare until it is given a worker to run, or ends. The pool's
// wg counts it.
//
// A task that calls runtime.Goexit ends the goroutine, and with it every
// task on its stack (see leave); the goroutine holds its worker then (a
// Goexit in Task.Block's function takes the worker back first), and gives
// it to a new goroutine. The frames of the tasks that ended are dropped
// with it rather than reused: tasks they forked may still run, and read
// their context.
func (pw *poolWorker) run() {
	p, s := pw.p, pw.p.s
	defer s.wg.Done()
	pw.gid = atomicx.Goroutine()
	p.mu.Lock()
	p.ids[pw.gid] = true
	p.mu.Unlock()
	returned := false
	defer func() {
		p.mu.Lock()
		delete(p.ids, pw.gid)
		p.mu.Unlock()
		if returned {
			return
		}
		f := recovered(recover())
		if !f.goexit {
			s.stop(nil, f) // not a task's: the pool cannot go on
			return
		}
		p.goWith(pw.w)
	}()
	for {
		w := pw.w
		p.slots[w.id].gid.Store(pw.gid)
		err := w.run(s.ctx)
		if w.wanted.Load() > 0 {
			// Wanted back at a safe point; or the pool stops (ctx is
			// cancelled), and a waiting goroutine ends its task first.
			pw.handBack()
		}
		if err != errWanted {
			if err != nil {
				s.stop(err, nil)
			}
			break
		}
		if !pw.retire() {
			break
		}
	}
	returned = true
}

// retire parks the goroutine as a spare, unless there are enough, until
// it is given a worker to run, and reports whether it was; false means
// that the goroutine ends.
func (pw *poolWorker) retire() bool {
	p, s := pw.p, pw.p.s
	pw.setWorker(nil)
	p.mu.Lock()
	if len(p.spares) >= p.maxSpares {
		p.mu.Unlock()
		return false
	}
	p.spares = append(p.spares, pw)
	p.mu.Unlock()
	select {
	case <-pw.resume:
		return true
	case <-s.done:
	case <-s.ctx.Done():
	}
	p.mu.Lock()
	var parked bool
	p.spares, parked = unordered(p.spares, pw)
	p.mu.Unlock()
	if parked {
		return false
	}
	<-pw.resume // a lend took this goroutine before the pool stopped
	return true
}

// onPool reports whether the calling goroutine is one of the pool's.
func (p *Pool) onPool() bool {
	id := atomicx.Goroutine()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ids[id]
}
