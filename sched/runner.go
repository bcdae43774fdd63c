package sched

import (
	"context"

	"github.com/worksteal/wsq/internal/atomicx"
	"github.com/worksteal/wsq/internal/pad"
)

// Job is an item of a Pool's queues: one task waiting to run. Its fields are
// not exported; a program names the type only to make queues for a Pool, as
// in
//
//	newQueue, err := catalog.Factory[sched.Job]("cl-ub")
//	pool, err := sched.NewPool(sched.PoolConfig{NewQueue: newQueue})
//
// A Job is three words, as small as a Pool's queues can make it: the
// kind of its task, a Fork's record or a Group, and for a Group's task,
// its function.
type Job struct {
	kind jobKind           // the task's fork record, or its Group
	fn   func(*Task) error // the function of a Group's task; nil for a fork
}

// jobKind is what the core knows of a task's kind: a fork's record
// (forkstack.go), or a kind above the core, a Group (group.go). The core
// runs a fork by its record, which it knows, and any other task through
// these calls alone.
//
//	call    made by                  returns or does
//	origin  runner.exec, descends    the context of its tasks, and the task that waits for them
//	call    runner.exec              runs its task t (a Group's runs f), and keeps its outcome
//	arrive  runner.end               counts the end of a task, failed with f if not nil; a job to start next
//	latch   Task.latch, checkWait    the latch that counts its tasks
type jobKind interface {
	origin() (ctx context.Context, up *Task)
	call(t *Task, f func(*Task) error)
	arrive(f *failure) (Job, bool)
	latch() *latch
}

// runner is one goroutine of a Pool: in the Go runtime's terms, an M to
// the worker's P. It holds the stack of task frames running on it, the
// forks it keeps private (forkStack), and what it keeps to reuse. It runs
// one worker at a time. While a task of it blocks in Task.Block, or waits
// for work it may not run (help), it lends the worker to another runner
// (see lend.go). Only the goroutine itself touches these fields, except
// where said.
//
// # Frames
//
// Each running task has a frame, a Task. The frames form a chain from
// base up, through Task.above and Task.below; the running ones are base
// to top, and those above top wait for reuse. A frame comes in one of
// three kinds:
//
//	kind          made by                            counted       ends in
//	a fork's      exec of a published or taken fork  pending       end, then its record's latch
//	a Group's     exec of a Group's task             pending       end, then the group's latch
//	a call        a join that takes its fork back    nothing       endCall
//
// # What a helping wait may run
//
// A join or wait whose task has not finished runs other tasks here, on
// top of the waiting frame (help). Such a task sits above the waiter until
// it returns, so it must never wait for the waiter or a frame below it. A
// legal program never makes a task wait for its ancestor, the task that
// waits for it: that is a cycle, whatever the schedule. So the rule:
//
//	a helping wait runs a task only if the task descends from the waiting task
//
// where a task's parent is the task that waits for it (Task.up): the
// forking task of a fork, the task that made the group of a Group's task,
// the joiner of a call. Then every frame of a goroutine descends from the
// frame below it, every task waits only for tasks that are not below it,
// and no wait can wait for itself. A task that the rule refuses goes back
// to the worker, which the waiting goroutine lends to another goroutine
// until the wait is over (compensation, as Java's ForkJoinPool does).
// Whether a task descends is read off its ancestors, at most maxAncestors
// of them: a deeper one counts as not descending.
//
// A Goexit travels down the goroutine's stack. Every frame below a task
// is its ancestor, which would have received the Goexit from its join
// anyway: so a Goexit ends only tasks that wait for it. Each frame it
// ends waits for the tasks the frame started first (end).
type runner struct {
	c *crew
	// w is the worker the goroutine runs; while its task is in
	// Task.Block or a compensated wait, the worker it lent and will take
	// back; nil while it is a parked spare. The goroutine that hands
	// this one a worker writes it, before it does.
	w *Worker[Job]

	forks forkStack

	base     *Task
	top      *Task // the innermost running frame, or nil: the only Task the goroutine may use
	nframes  int
	blocking bool // in Task.Block's function, for the message of misuse
	// unseated is set when a Block of the task at depth zero returned:
	// the task goes on without the worker it lent, which r.w still names,
	// and top is nil, until it needs the worker (Task.use takes it back)
	// or ends (exec). See crew.endBlock.
	unseated bool
	// handed is the task that the group of its unseated task handed on,
	// if handedOn: crew.serve runs it next (see handOn).
	handed   Job
	handedOn bool
	stealing int  // helping waits on the stack that take work from elsewhere
	locked   bool // locked to its thread for a measured run (meterHooks)
	gid      uint64
	// resume (capacity one) receives a token when another goroutine hands
	// this one a worker.
	resume chan struct{}
	_      pad.Line
}

// maxStealingJoins is the most helping waits, nested on one goroutine's
// stack, that take work from outside the worker's own queue. See Space and
// depth in INTERNALS.md.
const maxStealingJoins = 16

// maxAncestors is the most ancestors of a task that a helping wait reads
// to learn whether the task descends from the waiting one.
const maxAncestors = 64

// calling reports whether r is the calling goroutine.
func (r *runner) calling() bool { return atomicx.Goroutine() == r.gid }

// enter pushes a frame for a task about to run on this goroutine.
func (r *runner) enter() *Task {
	var t *Task
	if top := r.top; top != nil {
		t = top.above
	} else {
		t = r.base
	}
	if t == nil {
		t = r.grow(r.top)
	}
	r.top = t
	return t
}

// grow adds a frame to the chain, above below (nil for the first), and
// returns it. An unused frame's up is its below: see enterCall.
func (r *runner) grow(below *Task) *Task {
	t := &Task{runner: r, below: below, up: below}
	if below != nil {
		below.above = t
	} else {
		r.base = t
	}
	r.nframes++
	return t
}

// enterCall pushes the frame in which the join by t calls the function
// of the fork it took back (forkStack.takeBack). The frame has t's
// context, and t as its up, which an unused frame holds already (grow,
// drop). The join polls first (forkStack.poll).
func (r *runner) enterCall(t *Task) *Task {
	gt := t.above
	if gt == nil {
		gt = r.grow(t)
	}
	gt.ctxOf = t.ctxOf
	r.top = gt
	return gt
}

// leaveCall ends the frame gt that enterCall pushed, whose function
// returned: it waits for what the function left unjoined, and panics with
// their failure if one failed. The join counts the call first
// (Worker.ran).
func (r *runner) leaveCall(gt *Task) {
	if gt.forks.unjoined != 0 || gt.groups != nil {
		r.endCall(gt)
		return
	}
	r.top = gt.below
}

// endCall is leaveCall's rare case: the call left forks or groups.
func (r *runner) endCall(gt *Task) { r.end(gt, nil).raise() }

// exec runs the task of j, a fork or a Group's task, in a frame of its
// own: it calls the task's function, waits for what the function left
// unjoined, and records the outcome. A panic stops at this frame and
// becomes the task's outcome, and so does runtime.Goexit, which then goes
// on to end the goroutine (see crew.serve). The task counts as handled
// however it ends (end).
//
// On a goroutine whose task ended unseated, exec runs a Group's task that
// the group handed on (crew.runHanded). Its frame is at depth zero, and
// top stays nil: the task's first use of t takes the worker back
// (Task.useSlow), and its Block needs no worker (crew.blockUnseated).
func (r *runner) exec(j Job) {
	t := r.enter()
	if r.unseated {
		r.top = nil
	}
	b, isFork := j.kind.(*record)
	if isFork {
		p := b.parent
		t.rec, t.ctxOf, t.up = b, p.ctxOf, p
		b.ranOn = r
		if p.meas != nil {
			p.meas.startFork(t, b) // a measured run: see meterHooks
		}
	} else {
		k := j.kind
		t.kind, t.ctxOf = k, t
		t.ctx, t.up = k.origin()
	}
	ok := false
	defer func() {
		var f *failure
		if !ok {
			f = recovered(recover())
		}
		if r.unseated && r.c.endUnseated(t, f) {
			return
		}
		w := r.w
		w.credit++ // handled, however it ended: see Worker.credit
		if f == nil || !f.goexit {
			w.ran()
		}
		r.end(t, f)
	}()
	if isFork {
		b.call(t, nil)
	} else {
		j.kind.call(t, j.fn)
	}
	ok = true
}

// end ends the frame t, whose function returned (f nil) or failed with f,
// and returns the task's outcome: f, or else the first failure of what t
// left unjoined. It waits for those first, drops the frame, and records
// the outcome on the task's latch, if it has one (not a call's).
//
// A task that the wait runs may call runtime.Goexit, which then unwinds
// this goroutine: the deferred call goes on with the wait as the Goexit
// passes, and t ends with the Goexit. So t never finishes before the
// tasks it started, however it ends.
func (r *runner) end(t *Task, f *failure) *failure {
	ended := false
	defer func() {
		if !ended {
			if v := recover(); v != nil {
				panic(v) // the scheduler's own panic, not a task's: they recover their own
			}
			if f == nil {
				f = &failure{goexit: true}
			}
			r.end(t, f)
		}
	}()
	m := t.meas
	if m != nil {
		m.stop(t) // the function is over: its waits are not its work
	}
	if t.forks.unjoined != 0 || t.groups != nil {
		if g := t.sync(); f == nil {
			f = g
		}
	}
	if m != nil {
		m.end(t)
	}
	r.drop(t)
	if b := t.rec; b != nil {
		t.rec = nil
		b.arrive(f)
	} else if k := t.kind; k != nil {
		t.kind = nil
		if j, ok := k.arrive(f); ok {
			r.handOn(j)
		}
	}
	ended = true
	return f
}

// handOn starts j, a Group's task that the group of a task ending here
// handed on: a job that a Go queued for the group's limit, to which the
// ending task passes its token. A goroutine that runs its worker pushes j
// into the worker's queue. One whose task ended unseated runs j next,
// unseated too (crew.runHanded): so a stream of tasks that block runs
// on goroutines that go from one task to the next, with no hand-over of
// the worker. The ending task's count in pending passes to j
// (crew.endUnseated).
func (r *runner) handOn(j Job) {
	if !r.unseated {
		r.spawn(j)
		return
	}
	r.handed, r.handedOn = j, true
}

// await runs tasks until l is done, as help does, even if a task it runs
// ends the goroutine by Goexit: the deferred call then goes on with the
// wait. The waits on the paths of a failure use it, so that a task still
// never finishes before the tasks it started.
func (r *runner) await(l *latch) {
	returned := false
	defer func() {
		if !returned {
			if v := recover(); v != nil {
				panic(v) // see end
			}
			r.await(l)
		}
	}()
	r.help(l)
	returned = true
}

// drop takes the frame t of a finished task off the stack. The frame keeps
// nothing of the task: its context would keep it reachable. An unused
// frame's up is its below (see grow). At depth zero, the goroutine lets go
// of what its fork stack keeps beyond its next use, and of the frames
// beyond keptFrames, so that a deep recursion does not keep them for the
// pool's life; and its next first frame says whether it is measured.
func (r *runner) drop(t *Task) {
	m := t.meas
	t.ctx, t.up, t.meas = nil, t.below, nil
	r.top = t.below
	if t.below == nil {
		r.forks.trim()
		if m != nil {
			m.leave(r)
		}
		if r.nframes > keptFrames {
			last := r.base
			for range keptFrames - 1 {
				last = last.above
			}
			last.above = nil
			r.nframes = keptFrames
		}
	}
}

// next returns the task the worker runs next: the newest private fork,
// taken out of its slot and counted in pending, or else the worker's next
// item.
func (r *runner) next() (Job, bool) {
	if b, ok := r.forks.take(); ok {
		r.w.count(1) // exec counts it as handled
		return Job{kind: b}, true
	}
	return r.w.next()
}

// spawn pushes j, a Group's task, into the worker's queue. The private
// forks go first: they are older.
func (r *runner) spawn(j Job) {
	w := r.w
	r.forks.publishAll(w)
	w.count(1)
	w.pushOne(j)
}

// descends reports whether the task of j descends from the task t: whether
// t is among its ancestors, up to maxAncestors of them (see What a helping
// wait may run). The ancestors are alive while j waits to run: a task
// waits for its children. Each was written before the push that published
// j, or one of its ancestors, so the reads need no synchronization.
func descends(j Job, t *Task) bool {
	var p *Task
	if b, ok := j.kind.(*record); ok {
		p = b.parent
	} else {
		_, p = j.kind.origin()
	}
	for range maxAncestors {
		if p == t {
			return true
		}
		if p == nil {
			return false
		}
		p = p.up
	}
	return false
}

// help runs tasks on this worker until l is done: the helping wait of
// Future.Join, Join, Group.Wait and a task's implicit wait. It runs tasks
// that descend from the waiting task, the worker's own first, then tasks
// from elsewhere, as an idle worker finds them, unless maxStealingJoins
// waits on the stack already do. A task that does not descend, or nothing
// to run at all, makes it lend the worker to another goroutine until l is
// done (compensate): the tasks l counts may need the worker meanwhile.
func (r *runner) help(l *latch) {
	waiter := r.top
	if waiter != nil && waiter.meas != nil {
		waiter.meas.wait(waiter) // the tasks run here are not its work; its join resumes it
	}
	stole := false
	defer func() {
		if stole {
			r.stealing--
		}
	}()
	for !l.done() {
		if j, ok := r.next(); ok {
			if descends(j, waiter) {
				r.exec(j)
				continue
			}
			r.w.putBack(j)
			r.c.compensate(r, l)
			return
		}
		if r.c.lendToWaiter(r, l) {
			continue
		}
		if !stole {
			r.checkWait(l)
			if r.stealing >= maxStealingJoins {
				r.c.compensate(r, l) // only the worker's own tasks may nest deeper
				return
			}
			stole = true
			r.stealing++
		}
		w := r.w
		if _, err := w.findWork(w.s.ctx, l); err != nil {
			panic(err) // a queue returned a task twice: the results cannot be trusted
		}
	}
	if w := r.w; w.owed {
		// A delivery came after the wait gave up on it: into the queue,
		// where thieves see it, rather than wait for the next pop.
		w.s.mode.collect(w)
	}
}

// checkWait panics if l counts a task that runs on this goroutine, below
// the wait: it could not finish before the wait does. Only a program that
// waits for an ancestor gets here (see What a helping wait may run).
func (r *runner) checkWait(l *latch) {
	for t := r.top; t != nil; t = t.below {
		if t.latch() == l {
			panic("sched: a task waits for itself: the Group or Future it waits for counts a task that is running below it on the same worker")
		}
	}
}
