package sched

import (
	"slices"

	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// runner is one goroutine of a Pool: in the Go runtime's terms, an M to
// the worker's P. It holds the stack of tasks running on it, each a
// helping wait's guest above the task that waits, the forks it keeps
// private, and what it keeps to reuse. It runs one worker at a time. While
// a task of it blocks in Task.Block, it lends the worker to another runner
// (see crew.go). Only the goroutine itself touches these fields, except
// where said.
//
// # Private forks
//
// A fork does not go into the worker's queue. It goes on top of the
// runner's private stack, slots[:hi], oldest first, where no other
// goroutine looks. So a fork writes no shared word, and the join of a
// fork nobody took pops it and calls its function: no atomic operation at
// either end. A fork becomes stealable only when someone wants work:
//
//	who wants work                       how the runner learns it
//	a thief that found a queue empty     Worker.asked, loaded at every fork and join
//	a master that found every queue so   Worker.asked, likewise
//	the worker's items are long          Worker.asked stays set (see Worker.grain)
//	Task.Demand sees idle workers        at the call
//	Task.Block, Group.Go, a Goexit       before the worker leaves the goroutine, or
//	                                     before a Group's task goes into the queue
//
// It then publishes: it moves the oldest private forks into the worker's
// queue, half of them when asked and all of them otherwise, where the
// steal's proportion applies as to any item. Any wsq.Queue works.
//
// One fork is public from the start: the first a runner makes while its
// queue shows none of its forks (shown is zero). So a busy worker always
// offers thieves its oldest fork, the largest part of its work, unless
// one of them took it; and Join's g is stealable while f runs, however
// long f takes.
//
// Invariant: every private fork is newer than every item of the worker's
// queue. The runner pushes into the queue only its oldest private forks,
// or other items when it holds no private fork (next takes private forks
// first). So the worker's items, private and published, form one stack:
// next takes the newest, as a pop of one queue would.
//
// A thief never waits for a busy runner's answer for long while it forks
// and joins. A runner that computes for long without forking answers only
// at its next fork, join or wait. Its recent items are then long, so it
// forks in public from then on: see Worker.grain.
//
// # Slots
//
// slots[i] holds the record of the i-th private fork for i < hi. Beyond
// hi, each slot keeps the record of the last fork made at that depth,
// finished, for the next fork there of the same types: a recursion forks
// at the same depths again and again, so a fork usually finds its record
// in its slot. A join that runs its fork as a call leaves the record
// there: the call needs nothing of it, and nested forks at that depth may
// reuse it at once. A publish and a pop by next take it out (nil): the
// record lives on in the queue, or in a wait, until its join.
//
// Invariant: a record in slots[hi:] is free. Nothing reads its latch, its
// links, its function or its argument until the next fork there.
type runner struct {
	p *Pool
	// w is the worker the goroutine runs; while its task is in
	// Task.Block, the worker it lent and will take back; nil while it is a
	// parked spare. The goroutine that hands this one a worker writes it,
	// before it does.
	w *Worker[Job]

	slots []*forkBase // the private forks, slots[:hi], and records to reuse
	hi    int         // the number of private forks
	// shown counts the forks this goroutine published and has not joined
	// (forkBase.shown): at least the number of them in the worker's
	// queue, unless an ask reset it. When it falls to zero, the worker's
	// queue shows thieves none of its forks: the runner asks itself, so
	// that the next fork is published.
	shown int

	// The task frames form a chain from base up, through Task.above and
	// Task.below; nframes counts them. The running ones are base to top;
	// those above top wait for reuse.
	base     *Task
	top      *Task // the innermost running frame, or nil: the only Task the goroutine may use
	nframes  int
	blocking bool        // in Task.Block's function, for the message of misuse
	stealing int         // helping waits on the stack that take work from elsewhere
	free     []*forkBase // finished fork records to reuse, out of the slots
	jobs     []Job       // publish's buffer
	gid      uint64      // the goroutine's atomicx.Goroutine, written before it runs tasks
	// resume (capacity one) receives a token when another goroutine hands
	// this one a worker.
	resume chan struct{}
	_      pad.Line
}

// maxStealingJoins is the most helping waits, nested on one goroutine's
// stack, that take work from outside the worker's own queue. See Space and
// depth in the package documentation.
const maxStealingJoins = 16

// keptFrames is the most task frames, and slots, a goroutine keeps for
// reuse once it is back at depth zero.
const keptFrames = 64

// calling reports whether pw is the calling goroutine.
func (pw *runner) calling() bool { return atomicx.Goroutine() == pw.gid }

// record is a fork record's pointer type, for own: *E is a forkTask or a
// forkFunc.
type record[E any] interface {
	*E
	forkFn
	base() *forkBase
	init()
}

// slot returns the record in the slot of the next fork, or nil. A fork
// whose record has other types gets its own from own.
func (pw *runner) slot() forkFn {
	if hi := pw.hi; uint(hi) < uint(len(pw.slots)) { // one comparison: no bounds check after
		if b := pw.slots[hi]; b != nil {
			return b.task
		}
	}
	return nil
}

// own returns a record for the next fork when its slot has none of type
// F: a finished one from the free list, or a new one. It puts it in the
// slot.
func own[E any, F record[E]](pw *runner) F {
	r, ok := reused[F](pw)
	if !ok {
		r = F(new(E))
		r.init()
	}
	b := r.base()
	if hi := pw.hi; hi == len(pw.slots) {
		pw.slots = append(pw.slots, b)
	} else {
		if old := pw.slots[hi]; old != nil && len(pw.free) < maxFree {
			old.task.clear()
			pw.free = append(pw.free, old) // finished: see runner
		}
		pw.slots[hi] = b
	}
	return r
}

// reused takes a finished fork record of type F from the free list, if the
// newest one is of that type.
func reused[F any](pw *runner) (F, bool) {
	if n := len(pw.free); n > 0 {
		if r, ok := pw.free[n-1].task.(F); ok {
			pw.free[n-1] = nil
			pw.free = pw.free[:n-1]
			return r, true
		}
	}
	var none F
	return none, false
}

// forked makes b, the record in slot hi, the newest private fork. Its
// latch counts one unfinished task from now on, for whoever runs it other
// than its own join. The caller polls next (see poll).
func (pw *runner) forked(b *forkBase) {
	b.l.n = 1 // plain: nobody else sees b until a publish pushes it
	pw.hi++
}

// poll answers a thief's ask, if there is one. Every fork and every join
// that runs a fork as a call polls: a task that forks many tasks, or
// joins many in turn, forks or joins nothing else meanwhile.
func (pw *runner) poll() {
	if pw.w.asked.Load() != 0 { // atomic: thieves store it
		pw.answer()
	}
}

// answer publishes private forks: forked's slow path.
//
//	who asked                          it publishes
//	the worker, for its items are long every private fork; the ask stays
//	a thief, or the runner itself      the oldest half, at least one
//	(its queue shows none of its forks)
//
// An ask is also a moment to sample the grain: a thief waits for this
// worker, whose last item may have been long. A thief that asked found
// the queue empty: shown starts again from zero. With no private fork,
// the ask stays for the next fork: the thief that asked may sleep, and
// nothing else would wake it while this worker forks in private.
func (pw *runner) answer() {
	w := pw.w
	if w.long {
		pw.publishAll()
		return
	}
	if pw.hi == 0 {
		return
	}
	w.asked.Store(0) // before the publish: an ask after it is answered at a later fork
	pw.shown = 0
	pw.publish((pw.hi + 1) / 2)
	pw.sample()
}

// publish moves the k oldest private forks into the worker's queue, the
// oldest first, so that they keep their order below the newer ones.
func (pw *runner) publish(k int) {
	if k == 0 {
		return
	}
	w := pw.w
	w.count(int64(k))
	if k == 1 { // the usual case while the worker's items are long: no batch
		w.pushOne(Job{fork: pw.show(pw.slots[0])})
	} else {
		jobs := pw.jobs[:0]
		for _, b := range pw.slots[:k] {
			jobs = append(jobs, Job{fork: pw.show(b)})
		}
		w.push(jobs)
		clear(jobs)
		pw.jobs = jobs[:0]
	}
	hi := pw.hi
	copy(pw.slots, pw.slots[k:hi])
	clear(pw.slots[hi-k : hi]) // the published records: out of the slots
	pw.hi = hi - k
}

// show marks b published, and returns it. A Fork's record goes on its
// task's list of forks: its task finds it there from now on (Task.unjoined).
func (pw *runner) show(b *forkBase) *forkBase {
	b.shown = true
	pw.shown++
	if b.counted {
		b.link(b.parent)
	}
	return b
}

// unshow counts the join of b: if it was published, it has left the
// queue.
func (pw *runner) unshow(b *forkBase) {
	if b.shown {
		b.shown = false
		if pw.shown--; pw.shown <= 0 { // below zero if an ask reset it
			pw.shown = 0
			pw.w.asked.Store(1) // atomic: thieves store it too
		}
	}
}

// publishAll publishes every private fork: before the worker leaves the
// goroutine, or an item goes into the queue above them.
func (pw *runner) publishAll() { pw.publish(pw.hi) }

// popOwn pops b if it is the newest private fork: the join of a fork that
// nobody took, which then runs it as a call. b stays in its slot.
func (pw *runner) popOwn(b *forkBase) bool {
	hi := pw.hi - 1
	if uint(hi) >= uint(len(pw.slots)) || pw.slots[hi] != b { // no fork, or no bounds check after
		return false
	}
	pw.hi = hi
	return true
}

// next returns the task the worker runs next: the newest private fork,
// taken out of its slot and counted in pending, or else the worker's next
// item. A Fork's record goes on its task's forks, as a publish puts it.
func (pw *runner) next() (Job, bool) {
	if hi := pw.hi - 1; hi >= 0 {
		b := pw.slots[hi]
		pw.slots[hi] = nil
		pw.hi = hi
		if b.counted {
			b.link(b.parent)
		}
		pw.w.count(1) // runTask counts it as handled
		return Job{fork: b}, true
	}
	return pw.w.next()
}

// spawn pushes j, a Group's task, into the worker's queue. The private
// forks go first: they are older.
func (pw *runner) spawn(j Job) {
	pw.publishAll()
	w := pw.w
	w.count(1)
	w.pushOne(j)
}

// enter pushes a frame for a task about to run on this goroutine.
func (pw *runner) enter() *Task {
	var t *Task
	if top := pw.top; top != nil {
		t = top.above
	} else {
		t = pw.base
	}
	if t == nil {
		t = pw.grow(pw.top)
	}
	pw.top = t
	return t
}

// grow adds a frame to the chain, above below (nil for the first), and
// returns it.
func (pw *runner) grow(below *Task) *Task {
	t := &Task{pw: pw, below: below}
	if below != nil {
		below.above = t
	} else {
		pw.base = t
	}
	pw.nframes++
	return t
}

// enterCall pushes the frame of a task that runs as a call of the task t,
// the innermost: the join of its fork. The task has t's context. Nothing
// waits for it on a latch.
func (pw *runner) enterCall(t *Task) *Task {
	gt := t.above
	if gt == nil {
		gt = pw.grow(t)
	}
	gt.ctxOf = t.ctxOf
	pw.top = gt
	return gt
}

// leaveCall ends the frame gt that enterCall pushed, whose function
// returned. It waits for what the function left unjoined, and panics with
// their failure if one failed. The caller counts the task (ran) before.
func (pw *runner) leaveCall(gt *Task) {
	if gt.unjoined != 0 || gt.groups != nil {
		pw.endCall(gt, nil)
		return
	}
	pw.top = gt.below
}

// ran is Worker.ran, written for the pool's workers so that it inlines:
// the generic method is a call.
func (pw *runner) ran() {
	w := pw.w
	if w.stats.Processed++; w.stats.Processed >= w.nextSample {
		pw.sample()
	}
}

// sample is ran's rare case.
func (pw *runner) sample() { pw.w.sample(pw.w.s.clock()) }

// endCall ends the frame gt that enterCall pushed, whose function returned
// (f nil) or failed with f: as exit ends a task's, without a latch. It
// panics with the task's failure, if any. A Goexit goes on at once: the
// goroutine ends, with its frames.
func (pw *runner) endCall(gt *Task, f *failure) {
	if f != nil && f.goexit {
		return
	}
	if g := gt.sync(); f == nil {
		f = g
	}
	pw.top = gt.below
	f.raise()
}

// enterFork pushes the frame of b's task.
func (pw *runner) enterFork(b *forkBase) *Task {
	t := pw.enter()
	t.ctxOf, t.l = b.parent.ctxOf, &b.l
	b.ranOn = pw
	return t
}

// drop takes the frame t of a finished task off the stack. The frame keeps
// nothing of the task: its context and latch would keep the task's record
// reachable. At depth zero the records in the slots let go of their
// functions and arguments (see forkTask.clear), and the goroutine gives
// back the frames and slots beyond keptFrames, so that a deep recursion
// does not keep them for the pool's life.
func (pw *runner) drop(t *Task) {
	t.ctx, t.l = nil, nil
	pw.top = t.below
	if t.below == nil {
		for _, b := range pw.slots { // hi is zero: every fork was joined
			if b != nil {
				b.task.clear()
			}
		}
		if pw.nframes > keptFrames {
			last := pw.base
			for range keptFrames - 1 {
				last = last.above
			}
			last.above = nil
			pw.nframes = keptFrames
		}
		if len(pw.slots) > keptFrames {
			pw.slots = slices.Clone(pw.slots[:keptFrames])
		}
	}
}

// exec runs the task of j: it calls the task's function, waits for what
// the function left unjoined, and records the outcome. A panic stops at
// this frame and becomes the task's outcome. So does runtime.Goexit, which
// goes on to end the goroutine (see crew.serve).
func (pw *runner) exec(j Job) {
	if j.fork != nil {
		pw.runFork(j.fork)
		return
	}
	g := j.group
	t := pw.enter()
	t.ctx, t.ctxOf, t.l = g.ctx, t, &g.l
	ok := false
	defer pw.leave(t, g, &ok)
	g.call(t, j.fn)
	ok = true
}

// leave is exec's deferred call: it recovers the task's panic and exits t.
func (pw *runner) leave(t *Task, x ender, ok *bool) {
	var f *failure
	if !*ok {
		f = recovered(recover())
	}
	pw.exit(t, x, f)
}

// ender is where a task's end is counted: its Group, or its fork record.
type ender interface {
	// arrive records the task's outcome (nil for success) and counts the
	// task as finished.
	arrive(f *failure)
}

// exit ends the task t of x, whose function returned (f nil) or failed
// with f. It waits for what the function left unjoined, drops the frame
// and records the outcome.
func (pw *runner) exit(t *Task, x ender, f *failure) {
	switch {
	case f != nil && f.goexit:
		// The goroutine ends, and the handler will not return to count
		// the task: count it here. Its children go on without it; running
		// them here could end in a Goexit of their own. They may still
		// read the frame's context, so the frame stays as it is, dropped
		// with the goroutine.
		pw.w.credit++
	case t.unjoined != 0 || t.groups != nil:
		f = pw.syncFrame(t, x, f)
		fallthrough
	default:
		pw.drop(t)
	}
	x.arrive(f)
}

// syncFrame is t.sync for exit: it returns f, or if f is nil the first
// failure of t's children. A child that the wait runs may end the
// goroutine by Goexit; the deferred call then ends t too, as leave would.
func (pw *runner) syncFrame(t *Task, x ender, f *failure) *failure {
	synced := false
	defer func() {
		if !synced {
			pw.w.credit++ // the goroutine ends: see exit
			if f == nil {
				f = &failure{goexit: true}
			}
			x.arrive(f)
		}
	}()
	if g := t.sync(); f == nil {
		f = g
	}
	synced = true
	return f
}

// runFork runs the forked task of b, taken from a queue or from the
// private forks by next, as exec runs a Group's task. The deferred function
// is leave, written in place: one call fewer per task.
func (pw *runner) runFork(b *forkBase) {
	t := pw.enterFork(b)
	ok := false
	defer func() {
		var f *failure
		if !ok {
			f = recovered(recover())
		}
		pw.exit(t, b, f)
	}()
	b.task.call(t)
	ok = true
}

// runTask runs the task of j, taken from the worker's own items, and counts
// it as handled.
func (pw *runner) runTask(j Job) {
	pw.exec(j)
	pw.w.handled()
}

// help runs tasks on this worker until l is done: the helping wait of
// Future.Join, Join and Group.Wait. It runs the worker's own tasks first,
// then tasks from elsewhere, as an idle worker finds them, unless
// maxStealingJoins waits on the stack already do. It sleeps only when
// there is nothing to run. With nothing of its own to run, it lends the
// worker to a goroutine that waits to take it back, until l is done: the
// tasks l counts may be that goroutine's, or wait for it.
func (pw *runner) help(l *latch) {
	stole := false
	for !l.done() {
		if j, ok := pw.next(); ok {
			pw.runTask(j)
			continue
		}
		if pw.p.crew.lendUntil(pw, l) {
			continue
		}
		if !stole {
			pw.checkWait(l)
			if pw.stealing >= maxStealingJoins {
				pw.sleep(l) // only the worker's own tasks may nest deeper
				break
			}
			stole = true
			pw.stealing++
		}
		w := pw.w
		if _, err := w.findWork(w.s.ctx, l); err != nil {
			panic(err) // a queue returned a task twice: the results cannot be trusted
		}
	}
	if stole {
		pw.stealing--
	}
}

// checkWait panics if l counts a task that runs on this goroutine, below
// the wait: it could not finish before the wait does.
func (pw *runner) checkWait(l *latch) {
	for t := pw.top; t != nil; t = t.below {
		if t.l == l {
			panic("sched: a task waits for itself: the Group or Future it waits for counts a task that is running below it on the same worker")
		}
	}
}

// sleep waits until l is done without running tasks (see help). It lends
// the worker meanwhile to a goroutine that waits to take it back.
func (pw *runner) sleep(l *latch) {
	w := pw.w
	for !l.done() {
		ch := l.channel()
		if pw.p.crew.lendUntil(pw, l) || l.done() {
			return
		}
		select {
		case <-ch:
		case <-w.recall: // see Worker.wanted
		}
	}
}

// joinFailed ends a join that may run a task as a call (Join, JoinFunc,
// Future.Join) when its functions did not return; v is what recover
// returned. Their deferred calls call it: if the task was running here
// as a call, it ends its frame as a task's and repeats its failure. If
// Join's f failed, it waits for g, dropping its outcome, and repeats f's.
// A Goexit goes on at once (see Join).
func (pw *runner) joinFailed(js *joinState, v any) {
	f := recovered(v)
	if js.gt != nil {
		if !f.goexit {
			pw.ran()
		}
		pw.endCall(js.gt, f) // waits for what g left unjoined, unless f is a Goexit
		return
	}
	if f.goexit {
		return // the Goexit goes on by itself; g is published with the goroutine's forks
	}
	pw.help(&js.b.l)
	pw.unshow(js.b)
	f.raise()
}
