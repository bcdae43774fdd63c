package sched

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// A task that blocks lends its worker to another goroutine, as the Go
// runtime hands a blocked thread's P to another thread. The Worker (its
// ID, queue, buffers and statistics) is what is lent; the runner, with
// the frames of its tasks, is what blocks. The goroutine that runs a
// worker hands it over, at a point where it does not need it:
//
//	hand-over      when                                          to
//	lend           a task calls Task.Block                       a waiter, a spare or a new goroutine
//	compensate     a helping wait with nothing it may run        a waiter, a spare or a new goroutine
//	hand back      between items, or with no work                the longest waiter; the giver retires
//	(none)         an unseated task ends (endBlock)             nobody: the goroutine retires
//	lendToWaiter   a helping wait with nothing to run            the longest waiter, until the wait ends
//	Goexit         a task ends the goroutine                     a new goroutine
//
// The giver writes seat.cur and the receiver's worker before the
// hand-over. The hand-over (a send on resume, or a go statement) orders
// all the giver did with the worker before all the receiver does. So a
// queue has one owner goroutine at any moment. It stays stealable
// throughout.
//
// A goroutine that lent its worker waits for it before its task uses it
// again (reclaim): its frames use the worker's queue. So a task runs on
// one worker from start to end. A task at depth zero whose Block returned
// goes on unseated until it needs the worker, and may end without it
// (endBlock): its goroutine then retires, as a giver does.
//
// No wait is for ever. The goroutine running a worker hands it over at
// its next lend, compensation, hand back or helping wait with nothing to
// run: the first two give it to a waiter if one waits. A helping wait
// never holds the worker while it sleeps. So a waiter gets the worker
// back once the goroutine running it finishes its current item, or
// waits: and whatever it waits for, some worker runs.
//
// Goroutines: one per worker, one per Block or compensated wait under
// way, and parked spares: at most one per worker and one per goroutine
// that lent its worker and has not taken it back, or that lent it at
// once since the garbage collection before the last (spareLimit).
//
// These rules are one table, crewRules (crewtable.go). Each move below
// reports itself (trace), and the package's tests check every move
// against the table; TestCrewTableExplored checks the table in every
// order of a small model's moves; INTERNALS.md prints it. A change here
// changes the table first.

// crew is the goroutines of a Pool and the hand-over of workers between
// them.
type crew struct {
	s     *scheduler[Job]
	seats []seat // indexed by Worker.id
	// blocked is the number of goroutines that lent their worker, in
	// Task.Block or a compensated wait, and have not taken it back: the
	// goroutines beyond one per worker that are not spares.
	//
	//	event                           blocked
	//	lend to a spare or new one      +1
	//	lend to a waiter                =: one starts to block, one stops
	//	hand back (the giver retires)   -1
	//	an unseated task ends            -1
	//	lendToWaiter                    =
	blocked atomic.Int64
	// blocks, waits and peak are Stats.Blocks, BlockWaits and
	// PeakBlocked; compensations counts the compensated waits.
	blocks, waits, peak, compensations atomic.Int64
	// recent is the peak of blocked since the last garbage collection,
	// which makes it previous and sets it to blocked (collected): the
	// spares that a burst of Blocks leaves stay parked for the next one,
	// for one collection at least (spareLimit).
	recent atomic.Int64
	// armed is set while a collection will call collected: from the
	// first lend after recent and previous were zero, until a
	// collection finds them zero again. An idle pool allocates nothing
	// at collections. addBlocked raises recent before it loads armed,
	// and collected clears armed before it loads recent: so one of them
	// sees the other, and a raised recent is always collected
	// (TestArmedExplored tries every order of these steps).
	armed atomic.Bool
	// calls has a token for each Block function running, at most
	// cfg.MaxBlocked. A Block takes one before it calls its function, and
	// waits while there is none.
	calls tokens

	// runners keeps the state of goroutines that ended at depth zero,
	// for new ones (newRunner): a burst of Blocks starts a goroutine
	// each, and the next burst then reuses their frames.
	runners sync.Pool

	mu        sync.Mutex
	spares    []*runner          // parked goroutines, most recent last
	maxSpares int                // the spares kept beyond one per blocked goroutine (spareLimit)
	ended     bool               // the pool stops: no goroutine parks (endSpares)
	previous  int64              // recent as the last collection found it (collected)
	ids       map[uint64]*runner // the goroutines, by ID: see onPool, unseatedCaller
	// unseated counts the goroutines whose task goes on unseated (see
	// endBlock), so that a call's check for a task asks ids only while
	// there are some.
	unseated atomic.Int32
}

// seat is the Pool's part of one worker: the goroutine running it and
// those waiting to take it back. A task whose goroutine runs the worker
// is seated; one that goes on after its Block without it is unseated
// (see endBlock).
type seat struct {
	// cur is the goroutine running the worker. The goroutine that hands
	// the worker over writes it, before it does; cur reads it.
	cur *runner
	// gid is the atomicx.Goroutine of cur, or zero while the worker is
	// handed over. Each goroutine that takes the worker stores its own,
	// and one that lends it clears it first. Any goroutine reads it, in
	// caller.
	gid atomic.Uint64
	// busy is 1 while the worker runs a task, at any depth, for
	// Pool.Do's check (see allBusy). A task stores it with release
	// stores: a locked store per task is dear. The check stores the
	// caller's own flag again, sequentially consistent, and then loads
	// the others'. So when every worker calls Do at once, each stores and
	// then loads, and the last sees all set, as in Dekker's protocol.
	// Otherwise the check is a snapshot, as before.
	busy atomicx.Uint32
	// waiting holds the goroutines whose Block function returned and
	// that wait to take the worker back, oldest first. Worker.wanted
	// counts them.
	mu      sync.Mutex
	waiting []*runner
	// unseatedEnds counts the tasks of the worker that ended unseated
	// (crew.endUnseated), on their own goroutines: Stats adds them to the
	// worker's Processed.
	unseatedEnds atomic.Int64
	_            pad.Line
}

func newCrew(s *scheduler[Job]) *crew {
	c := &crew{
		s:         s,
		seats:     make([]seat, len(s.workers)),
		calls:     newTokens(s.cfg.MaxBlocked),
		maxSpares: len(s.workers),
		ids:       map[uint64]*runner{},
	}
	for i, w := range s.workers {
		c.seats[i].cur = c.newRunner(w)
	}
	return c
}

// collectMark is an object that lives until the next garbage collection,
// whose cleanup calls crew.collected. It holds a pointer, so that it is no
// tiny object, which may share its block with others and never be freed.
type collectMark struct{ _ *byte }

// armCollected has the next garbage collection call c.collected.
func (c *crew) armCollected() {
	runtime.AddCleanup(new(collectMark), (*crew).collected, c)
}

// arm arms collected unless it is armed.
func (c *crew) arm() {
	// A CAS: addBlocked and collected may arm at once.
	if !c.armed.Load() && c.armed.CompareAndSwap(false, true) {
		c.armCollected()
	}
}

// collected runs after each garbage collection, on the runtime's cleanup
// goroutine, until the pool ends. It keeps recent as previous, lowers it
// to blocked, and ends the oldest spares beyond the limit that follows
// (evTrim). So the goroutines of a burst of Blocks stay parked until the
// second collection after it, as sync.Pool keeps its items.
func (c *crew) collected() {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return // no more: the crew may go
	}
	c.previous = c.recent.Swap(c.blocked.Load()) // atomic: addBlocked raises it on any goroutine
	var extra []*runner
	if k := len(c.spares) - c.spareLimit(); k > 0 {
		extra = slices.Clone(c.spares[:k])
		c.spares = slices.Delete(c.spares, 0, k)
	}
	idle := c.previous == 0
	c.mu.Unlock()
	for _, r := range extra {
		r.resume <- struct{}{} // with no worker: it ends
	}
	if !idle {
		c.armCollected()
		return
	}
	c.armed.Store(false) // before the load: see armed
	if c.recent.Load() > 0 {
		c.arm()
	}
}

// newRunner returns a new goroutine's state, to run w: that of a
// goroutine that ended, or a new one.
func (c *crew) newRunner(w *Worker[Job]) *runner {
	if r, _ := c.runners.Get().(*runner); r != nil {
		r.w = w
		return r
	}
	return &runner{c: c, w: w, resume: make(chan struct{}, 1)}
}

// freeRunner keeps r, whose goroutine ends at depth zero and touches it
// no more, for newRunner. At depth zero r holds no task: its frames wait
// for reuse, its fork stack holds no fork (trimmed), it is locked to no
// thread, and nobody sends on resume. Every task that a frame of r ran
// has finished, and waited for the tasks it started: nothing else reads
// the frames. A goroutine that a Goexit ends keeps its state (serve).
func (c *crew) freeRunner(r *runner) {
	r.w, r.gid = nil, 0
	c.runners.Put(r)
}

// block is Task.Block's body: it lends t's worker, calls f with a token
// of calls, and takes the worker back or goes on unseated (endBlock).
func (c *crew) block(t *Task, f func()) {
	r := t.runner
	r.forks.publishAll(r.w) // the worker's next goroutine, and thieves, may run them meanwhile
	c.blocks.Add(1)         // atomic: any goroutine's Block counts, Close reads
	if t.meas != nil {
		t.meas.stop(t) // f is timed alone, and endBlock resumes
	}
	trace(evBlock)
	c.lend(r)
	r.top, r.blocking = nil, true
	returned := false
	defer func() { c.endBlock(t, returned) }()
	c.takeCall()
	defer c.calls.release()
	if m := t.meas; m != nil {
		// f may panic: its time still counts. f is called here, not by
		// the hook, so that it does not escape.
		defer m.blockEnd(t, m.blockStart(t))
	}
	f()
	returned = true
}

// endBlock ends the Block of t, whose function returned or not: it takes
// the worker back. It is a deferred call, which runs on a panic or Goexit
// of f too, and does not recover: the panic or Goexit goes on to end the
// task.
//
// A task at depth zero, not measured, whose function returned, goes on
// unseated instead: its goroutine runs it without the worker it lent,
// which stays with the goroutine that took it. Most such tasks just return,
// and ending them needs no worker (endUnseated). So the worker is not
// handed back once per Block only to end a task. The task takes the
// worker back (reseat) at its next use of t, or at its end if it left
// forks or groups or ends by Goexit.
//
//	state      r.top   r.w                      who runs the worker
//	in f       nil     lent, taken back at end  another goroutine
//	unseated   nil     lent, still named        another goroutine
//	seated     t       held                     this goroutine
//
// An unseated task's top stays nil: its next use of t fails use's check,
// and the slow path reseats it. So the fast path checks nothing more. An
// unseated task is a task all the same: the checks of calls that a task
// must not make (a nil Task, Do) find it by unseatedCaller, and Pool.Do
// reseats it first. So those calls do the same with or without a Block.
func (c *crew) endBlock(t *Task, returned bool) {
	r := t.runner
	if returned && t.below == nil && t.meas == nil {
		trace(evReturnTop)
		r.blocking, r.unseated = false, true
		c.unseated.Add(1) // atomic: calledByTask reads it on any goroutine
		return
	}
	trace(evReturn)
	c.reclaim(r)
	r.top, r.blocking = t, false
	if t.meas != nil {
		t.meas.resume(t)
	}
}

// reseat takes back the worker that r, unseated, lent (see endBlock),
// for its task at depth zero.
func (c *crew) reseat(r *runner) {
	r.top, r.unseated = r.base, false // before reclaim: give reads top
	c.unseated.Add(-1)                // atomic, as in endBlock
	trace(evNeedWorker)
	c.reclaim(r)
}

// endUnseated ends t, the task at depth zero of r, unseated, whose
// function returned or failed with f, if that needs no worker: it counts
// the task as handled, ends its frame and reports true. The worker loop
// that ran t then returns errUnseated, and the goroutine retires (serve).
// A task that left forks or groups waits for them, which needs the
// worker, and so does a Goexit, which ends the goroutine that holds it
// (serve): then endUnseated takes the worker back and reports false.
func (c *crew) endUnseated(t *Task, f *failure) bool {
	r := t.runner
	if t.forks.unjoined != 0 || t.groups != nil || f != nil && f.goexit {
		c.reseat(r)
		return false
	}
	c.seats[r.w.id].unseatedEnds.Add(1) // atomic: Stats reads it on any goroutine
	r.end(t, f)
	if r.handedOn {
		return true // the end handed a task on, which takes t's count (runner.handOn)
	}
	if err := c.s.uncount(1); err != nil {
		c.s.stop(err, nil)
	}
	return true
}

// runHanded runs the task that the group of r's last task handed on
// (runner.handOn), unseated, as that task was. It reports whether the task
// took the worker back: r then runs the worker's loop.
func (c *crew) runHanded(r *runner) (seated bool) {
	j := r.handed
	r.handed, r.handedOn = Job{}, false
	trace(evHandedOn)
	r.exec(j)
	return !r.unseated
}

// blockUnseated is Task.Block for an unseated task (see endBlock): it has
// no worker to lend. It calls f with a token of calls, and the task goes
// on unseated.
func (c *crew) blockUnseated(t *Task, f func()) {
	r := t.runner
	c.blocks.Add(1) // atomic, as in block
	trace(evBlockUnseated)
	r.blocking = true
	defer func() { r.blocking = false }()
	c.takeCall()
	defer c.calls.release()
	f()
}

// takeCall takes a token of calls for a Block's function, waiting while
// MaxBlocked functions run. The Block gives it back when f returns.
func (c *crew) takeCall() {
	if !c.calls.tryAcquire() {
		c.waits.Add(1) // atomic: any goroutine's wait counts, Close reads
		c.calls.wait()
	}
}

// errUnseated is what a worker loop returns when the task it ran ended
// unseated: its goroutine lent the worker, and retires (see endBlock).
var errUnseated = errors.New("sched: the task ended unseated")

// lend gives r's worker to another goroutine: one that waits to take it
// back, a parked spare, or a new one.
func (c *crew) lend(r *runner) {
	w := r.w
	if next := c.seats[w.id].takeWaiter(w); next != nil {
		c.give(w, next)
		return
	}
	c.addBlocked()
	if next := c.takeSpare(); next != nil {
		next.w = w
		c.give(w, next)
		return
	}
	c.goWith(w)
}

// compensate is called by a helping wait for l that has nothing it may
// run: it lends r's worker, with the private forks published, to another
// goroutine, sleeps until l is done, and takes the worker back. The tasks
// l counts may need the worker meanwhile: see runner.
func (c *crew) compensate(r *runner, l *latch) {
	r.forks.publishAll(r.w)
	c.compensations.Add(1) // atomic: any goroutine's wait counts, Close reads
	trace(evBlock)
	c.lend(r)
	l.wait()
	trace(evReturn)
	c.reclaim(r)
}

// lendToWaiter is called by a helping wait for l that has nothing of its
// own to run. If a goroutine waits to take the worker back, lendToWaiter
// lends it the worker, sleeps until l is done, takes the worker back and
// reports true: keeping the worker could wait for ever.
func (c *crew) lendToWaiter(r *runner, l *latch) bool {
	w := r.w
	next := c.seats[w.id].takeWaiter(w)
	if next == nil {
		return false
	}
	trace(evLendToWaiter)
	c.give(w, next)
	l.wait()
	trace(evReturn)
	c.reclaim(r)
	return true
}

// reclaim waits until r has its worker back, after its Block function
// returned. It queues behind the other waiters and wakes the goroutine
// running the worker, which hands it over at its next safe point.
func (c *crew) reclaim(r *runner) {
	w := r.w
	st := &c.seats[w.id]
	st.mu.Lock()
	st.waiting = append(st.waiting, r)
	w.want()
	st.mu.Unlock()
	<-r.resume
	trace(evTake)
	st.gid.Store(r.gid) // atomic: caller reads it from any goroutine
	if r.forks.measured {
		// Another goroutine ran the worker, and may have cleared its ask:
		// a measured goroutine's forks must poll into answer.
		r.w.ask()
	}
}

// takeWaiter takes the goroutine that has waited longest to take w back
// off the seat, or returns nil if none waits.
func (st *seat) takeWaiter(w *Worker[Job]) *runner {
	if w.wanted.Load() == 0 { // only w's goroutine, the caller, takes one off
		return nil
	}
	st.mu.Lock()
	next := st.waiting[0]
	st.waiting[0] = nil
	st.waiting = st.waiting[1:]
	if len(st.waiting) == 0 {
		st.waiting = nil // a burst of waiters does not keep its array
	}
	w.unwant()
	st.mu.Unlock()
	return next
}

// give hands the worker w, which the calling goroutine runs and will not
// use again until it is handed back, to next, which waits on its resume
// channel: a spare, or a goroutine waiting to take w back.
func (c *crew) give(w *Worker[Job], next *runner) {
	st := &c.seats[w.id]
	st.cur = next
	st.busy.Store(busyFlag(next.top != nil)) // next goes on with its task, or starts at depth zero
	st.gid.Store(0)                          // next stores its own
	next.resume <- struct{}{}                // never blocks: next waits for exactly this token
}

// goWith starts a new goroutine that runs w, which the calling goroutine
// runs and gives up. The wg.Add happens while the caller, which wg
// counts, has not ended: Close's wait cannot have seen a zero count.
func (c *crew) goWith(w *Worker[Job]) {
	next := c.newRunner(w)
	st := &c.seats[w.id]
	st.cur = next
	st.busy.Store(0) // atomic: see seat.busy
	st.gid.Store(0)  // atomic: see seat.gid; next stores its own
	c.s.wg.Add(1)
	go c.serve(next)
}

// addBlocked counts one more goroutine that lent its worker, and keeps
// the peaks: the pool's, and the one since the last collection.
func (c *crew) addBlocked() {
	n := c.blocked.Add(1) // atomic: lends and hand backs of all workers meet here
	raise(&c.peak, n)
	raise(&c.recent, n)
	c.arm() // after the raise: see armed
}

// raise sets x to n if n is more.
func raise(x *atomic.Int64, n int64) {
	for {
		old := x.Load()
		// A CAS: another lend may raise it meanwhile.
		if n <= old || x.CompareAndSwap(old, n) {
			return
		}
	}
}

// takeSpare returns a parked spare goroutine, or nil if there is none.
func (c *crew) takeSpare() *runner {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.spares)
	if n == 0 {
		return nil
	}
	r := c.spares[n-1]
	c.spares[n-1] = nil
	c.spares = c.spares[:n-1]
	return r
}

// serve is the body of a goroutine of the pool, which s.wg counts. It runs
// its worker's loop, hands the worker back when a goroutine wants it, and
// then parks as a spare until it is given a worker, or ends.
//
// A task that calls runtime.Goexit ends the goroutine, and with it every
// task on its stack. The goroutine holds its worker then (a Goexit in a
// Block function takes the worker back first), and gives it to a new
// goroutine. The frames of the tasks that ended go with it, unreused:
// tasks they forked may still run and read their context.
func (c *crew) serve(r *runner) {
	s := c.s
	defer s.wg.Done()
	r.gid = atomicx.Goroutine()
	trace(evTake) // a new goroutine: given its worker by a lend, a Goexit or the pool's start
	c.mu.Lock()
	c.ids[r.gid] = r
	c.mu.Unlock()
	returned := false
	defer func() {
		c.mu.Lock()
		delete(c.ids, r.gid)
		c.mu.Unlock()
		if returned {
			c.freeRunner(r)
			return
		}
		f := recovered(recover())
		if !f.goexit {
			trace(evClose)
			s.stop(nil, f) // not a task's: the pool cannot go on
			return
		}
		trace(evGoexit)
		c.goWith(r.w) // each frame the Goexit ended waited for its forks first: none is private

	}()
	for {
		w := r.w
		c.seats[w.id].gid.Store(r.gid) // atomic: see seat.gid
		err := w.run(s.ctx)
		seated := false
		for err == errUnseated && r.handedOn && !seated {
			seated = c.runHanded(r)
		}
		if seated {
			continue // the task took the worker back, and its loop goes on here
		}
		if err == errUnseated {
			// w is another goroutine's: r retires, with nothing to
			// take back.
			r.unseated = false
			c.unseated.Add(-1) // atomic, as in endBlock
			c.blocked.Add(-1)  // atomic, as in addBlocked
			trace(evEndUnseated)
			if !c.retire(r) {
				break
			}
			continue
		}
		// Wanted back at a safe point; or the pool stops (ctx is
		// cancelled), and a waiting goroutine ends its task first.
		next := c.seats[w.id].takeWaiter(w)
		if next != nil {
			c.blocked.Add(-1) // atomic, as in addBlocked: next has its worker back, and r retires
			trace(evHandBack)
			c.give(w, next)
		}
		if err != errWanted {
			if err != nil {
				s.stop(err, nil)
			}
			if next == nil {
				trace(evClose) // the pool stops: the loop returned with the worker
			}
			c.endSpares()
			break
		}
		if !c.retire(r) {
			break
		}
	}
	returned = true
}

// retire parks r as a spare, unless there are enough, until it is given a
// worker, and reports whether it was; false means that it ends. The crew
// keeps fewer spares than spareLimit. A goroutine that finds that many
// ends, and so does one spare if there are more: the limit fell since
// they parked. A spare waits on its resume channel alone: a select
// over the pool's channels too would make every spare wait on them, and
// cost each retire their locks. The pool's end wakes the spares
// (endSpares).
func (c *crew) retire(r *runner) bool {
	r.w = nil
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return false
	}
	if limit := c.spareLimit(); len(c.spares) >= limit {
		var extra *runner
		if n := len(c.spares); n > limit {
			extra = c.spares[n-1]
			c.spares[n-1] = nil
			c.spares = c.spares[:n-1]
		}
		c.mu.Unlock()
		if extra != nil {
			extra.resume <- struct{}{} // with no worker: it ends
		}
		return false
	}
	c.spares = append(c.spares, r)
	c.mu.Unlock()
	<-r.resume
	if r.w == nil {
		c.mu.Lock()
		ended := c.ended
		c.mu.Unlock()
		if ended {
			trace(evClose)
		} else {
			trace(evTrim)
		}
		return false
	}
	trace(evTake)
	return true
}

// endSpares ends the parked spares, and every goroutine that retires
// after it: the pool stops. A goroutine whose worker loop returned for
// the pool's end calls it (serve): each worker's does.
func (c *crew) endSpares() {
	c.mu.Lock()
	c.ended = true
	spares := c.spares
	c.spares = nil
	c.mu.Unlock()
	for _, r := range spares {
		r.resume <- struct{}{} // with no worker: it ends
	}
}

// spareLimit is the most spares the crew keeps: one per worker, and one
// per goroutine that lent its worker, now or at once since the garbage
// collection before the last (recent, previous). A burst of Blocks then
// reuses the goroutines of the Blocks that ended, rather than start new
// ones; so does the next burst, unless two collections came between.
// Then the spares beyond one per worker end. c.mu is held.
func (c *crew) spareLimit() int {
	n := max(c.blocked.Load(), c.recent.Load(), c.previous) // atomic: lends and hand backs change them
	return c.maxSpares + int(n)
}

// allBusy reports whether every worker runs a task at this moment. The
// caller is a task on the worker of own, or own is nil: see seat.busy.
func (c *crew) allBusy(own *runner) bool {
	if own != nil {
		c.seats[own.w.id].busy.Store(1) // sequentially consistent: see seat.busy
	}
	for i := range c.seats {
		if c.seats[i].busy.Load() == 0 { // atomic: see seat.busy
			return false
		}
	}
	return true
}

// busyFlag returns seat.busy's value for b.
func busyFlag(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// caller returns the goroutine of the pool that runs a worker and calls
// it, or nil if the calling goroutine runs no worker: it is not the
// pool's, or it lent its worker in Task.Block.
func (c *crew) caller() *runner {
	id := atomicx.Goroutine()
	for i := range c.seats {
		if c.seats[i].gid.Load() == id { // atomic: the seats' goroutines store theirs
			return c.seats[i].cur // the caller's own: written before it had the worker
		}
	}
	return nil
}

// onPool reports whether the calling goroutine is one of the pool's.
func (c *crew) onPool() bool {
	id := atomicx.Goroutine()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[id] != nil
}

// unseatedCaller returns the calling goroutine's runner if its task goes
// on unseated (see endBlock), and nil otherwise. Such a task is a task
// as much as a seated one: the checks of calls that a task must not make
// ask here too. It costs one load while no task is unseated.
func (c *crew) unseatedCaller() *runner {
	if c.unseated.Load() == 0 { // atomic: see unseated
		return nil
	}
	id := atomicx.Goroutine()
	c.mu.Lock()
	r := c.ids[id]
	c.mu.Unlock()
	if r != nil && r.unseated { // r is the caller's own: only it writes unseated
		return r
	}
	return nil
}
