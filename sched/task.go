package sched

import (
	"context"
	"time"

	"github.com/worksteal/wsq/internal/pad"
)

// Task is the handle of a running task: its context, its worker, and the
// way to start and wait for other tasks. Fork, Task.NewGroup, Group.Go,
// Group.Wait and Future.Join all take the calling task, so that they use
// the queue of the worker that runs it.
//
// A Task is valid only during the call of the task's function, in the
// goroutine that runs it, and not in the function of a Task.Block. A
// function must not keep it, or use it in a task or goroutine it starts:
// each task gets its own. The Pool reuses Task values. The calls that take
// a Task panic when they see it used outside its function, or by another
// goroutine.
//
// A mistake in the use of a Pool panics, before it can corrupt anything,
// with a message that starts with "sched: " and says what was wrong:
//
//	mistake                                                    panics in
//	a nil Task to Fork or ForkFunc; another task's Task        the call that takes it
//	(kept, or an enclosing one)
//	a Task used in a Task.Block's function                     the call that takes it
//	a Task used by another goroutine                           the call (-race: always; else when seen)
//	a nil Task given by a task to a call that waits            the call: Join, Wait, a loop, Do
//	a task that waits for a Group it belongs to                Group.Wait
//	a Future joined twice, or not made by Fork                 Future.Join
//	Group.Go after the group's Wait returned                   Group.Go
//	Group.SetLimit while tasks of the group are active        Group.SetLimit
//	Pool.Do by a task while every worker runs a task           Pool.Do
//	Pool.Close by a task                                       Pool.Close
//	Do, or Go with a nil Task, after Close began               the call; the task is not counted
//	a nil function                                             Fork, ForkFunc, Join, Go, Do, Block
//
// Outside the race detector, a use by another goroutine is seen only when
// the task is not innermost on its worker: a check on every call costs too
// much. An invalid Config makes Run and NewPool return an error.
type Task struct {
	runner *runner
	// The fields up to the pad are read by other goroutines: those that
	// run this task's forks (ctxOf), and helping waits that read a task's
	// ancestors (up). They change only when the frame starts a task.
	//
	// ctx is the context of a Group's task, nil for a fork's. ctxOf is
	// the frame whose ctx is the task's: its own for a Group's task, that
	// of the task that forked it for a fork's. That frame outlives this
	// one: a task waits for what it forks. up is the task that waits for
	// this one (see runner): its forking task, the task that made its
	// group (nil for a Pool's group), or the joiner that called it. An
	// unused frame's up is below.
	ctx   context.Context
	ctxOf *Task
	up    *Task
	// rec and kind are the fork record, or the kind (a Group), of the
	// task that exec runs in the frame, whose latch counts it; both nil
	// for a call.
	rec  *record
	kind jobKind
	// meas is the measured run of the task (see meterHooks), nil if it
	// is not measured. Its forks read it when they start.
	meas meterHooks
	// below is the frame under this one on its goroutine's stack, nil for
	// the first, and above the one over it, nil for the last made: see
	// runner. below never changes.
	below, above *Task
	// The fields below, the task's own goroutine writes at every fork and
	// join. They must not share a cache line with those above.
	_ pad.Line
	// forks is the task's unjoined forks: see forkStack. groups is the
	// newest group the task made and has not waited for. Each group links
	// to the one before it (Group.older) and back, so that a wait takes
	// its own off in any order.
	forks  forkList
	groups unwaited
	// strand is the task's measure while meas is set, and into the
	// tally its group's task adds it to. Only meas's hooks touch them.
	strand strand
	into   *groupTally
	_      pad.Line // the frames of different workers must not share a line
}

// unwaited is what a task made and has not waited for, but its forks:
// its newest Group (Task.groups). Its sync is the task's implicit wait
// for it, as t: it takes itself off t.groups, waits, and returns its
// first failure.
type unwaited interface {
	sync(t *Task) *failure
}

// latch returns the latch that counts the task, or nil for a call.
func (t *Task) latch() *latch {
	if t.rec != nil {
		return t.rec.latch()
	}
	if t.kind != nil {
		return t.kind.latch()
	}
	return nil
}

// meterHooks is what the scheduler knows of a measured run
// (Pool.DoMeasured): the calls it makes at its slow points, where a task
// of the run starts, forks, waits, blocks or ends. It calls them only
// for a task whose meas is set, so an unmeasured run pays a nil check.
// taskMeter implements them (measure.go), and alone touches Task.strand,
// Task.into and record.stamp.
//
//	hook       called by                        when
//	startFork  runner.exec                      t runs the fork b of a measured task
//	stop       runner.end, crew.block, own      t's code pauses; reports whether it ran
//	resume     crew.endBlock, Group.Go, answer  t's code goes on
//	wait       runner.help                      t waits, running other tasks meanwhile
//	end        runner.end                       t's function and waits are over
//	leave      runner.drop                      t, the goroutine's first frame, is dropped
//	fork       forkStack.answer                 t publishes its fork b
//	join       forkStack.joined, Future.Join    t joined b, its own fork or not
//	goTask     Group.Go                         t starts f in g
//	joinGroup  Group.Wait, Task.sync            t waited for g
//	blockStart crew.block                       t's Block calls its function
//	blockEnd   crew.block                       the function returned or failed
type meterHooks interface {
	startFork(t *Task, b *record)
	stop(t *Task) bool
	resume(t *Task)
	wait(t *Task)
	end(t *Task)
	leave(r *runner)
	fork(t *Task, b *record)
	join(t *Task, b *record, own bool)
	goTask(t *Task, g jobKind, f func(*Task) error) func(*Task) error
	joinGroup(t *Task, g jobKind)
	blockStart(t *Task) time.Duration
	blockEnd(t *Task, start time.Duration)
}

// Context returns the task's context: its Group's, or for a task started
// by Fork, that of the task that forked it. A long task should return
// early when it is done; a Group cancels it at its first error.
func (t *Task) Context() context.Context {
	t.use("Task.Context")
	return t.ctxOf.ctx
}

// WorkerID returns the ID of the worker running the task, from 0 to
// Pool.Workers()-1, for per-worker state (see PerWorker). A task runs on
// one worker from start to end.
func (t *Task) WorkerID() int {
	t.use("Task.WorkerID")
	return t.runner.w.id
}

// Demand returns how many of the pool's workers look for work that t's
// worker could give them, at this moment: those looking, when its queue
// shows no task for them; zero otherwise. A task that can split its work,
// such as a loop over a range, splits it when Demand is not zero, and
// forks the parts for the idle workers to take. Demand is a hint, stale
// as soon as it returns. It loads a few shared words; when workers look
// and t's goroutine keeps forks private, it publishes them instead and
// returns zero: they are the work the lookers want.
func (t *Task) Demand() int {
	t.use("Task.Demand")
	r := t.runner
	if r.forks.n > 0 && r.w.s.mode.looking() > 0 {
		r.forks.publishAll(r.w) // its private forks are work for them
		return 0
	}
	return r.w.demand()
}

// Block runs f, a call that blocks (I/O, a system call, a lock, a channel,
// a sleep), while the task's worker goes on running other tasks. The
// task's goroutine lends the worker to another goroutine for the call: a
// parked spare, or a new one. So the pool keeps Workers goroutines
// running tasks. When f returns, the task goes on without its worker.
// It takes the worker back when it needs it: at its next use of t but a
// Block, which has no worker to lend, or at its end if it must wait for
// tasks it started, or ends by Goexit. It
// gets the worker when the goroutine running it finishes its task, or
// blocks in turn. So a task that returns or panics after Block ends at
// once, on the goroutine that blocked. A task that a join runs above
// another, or a measured one (DoMeasured), takes the worker back as f
// returns. Task.WorkerID does not change.
//
// At most Config.MaxBlocked functions of Block run at once, as with a
// semaphore. A Block beyond that waits for one of them to return before it
// calls f; its worker goes on running other tasks meanwhile. Lending costs
// a few microseconds: Block is for calls that block longer, not for work
// that computes.
//
// f must not use t, or any other Task: its goroutine runs no task while it
// blocks. Such a use panics. Nor may f touch the worker's PerWorker
// state, which belongs to the goroutine that runs the worker meanwhile. A
// task that needs its context in f reads it before:
//
//	ctx := t.Context()
//	var entries []fs.DirEntry
//	var err error
//	t.Block(func() { entries, err = readDir(ctx, dir) })
//
// f may do what a goroutine outside the pool does, such as start tasks in
// a Group made by Pool.NewGroup and Wait(nil) for them. If those tasks
// call Block, MaxBlocked must leave them slots, as a semaphore must. A
// panic or Goexit in f is the task's, as if f had been called without
// Block: the goroutine takes its worker back first.
//
// Each goroutine blocked at once costs its stack. A goroutine whose Block
// is over parks as a spare for the next Block: a long stream of Blocks,
// or bursts of them, reuse goroutines rather than start new ones. The
// pool keeps as many spares as goroutines blocked at once since the
// garbage collection before the last, as sync.Pool keeps its items. So
// once the blocking calls have returned, the extra goroutines end at the
// second collection, except at most one parked spare per worker.
// Stats.Blocks, BlockWaits and PeakBlocked count the calls.
//
// Block must only be called by the task's function, with its own Task t;
// it panics otherwise, or if f is nil. What the task did before Block
// synchronizes before the call of f, and the return of f before the
// return of Block.
func (t *Task) Block(f func()) {
	if t != nil && t.runner.top == nil && t.unseated() {
		if f == nil {
			panic(nilFunction("Task.Block", ""))
		}
		t.runner.c.blockUnseated(t, f) // no worker to lend
		return
	}
	t.use("Task.Block")
	if f == nil {
		panic(nilFunction("Task.Block", ""))
	}
	t.runner.c.block(t, f)
}

// unseated reports whether t is the task of its goroutine, at depth zero,
// going on without its worker, and not in a Block's function (see
// crew.endBlock). Under the race detector the caller must be t's
// goroutine too.
func (t *Task) unseated() bool {
	r := t.runner
	return !(raceEnabled && !r.calling()) && r.unseated && r.base == t && !r.blocking
}

// use panics unless t may start or wait for tasks here: t must be the
// innermost task on its goroutine. It is only in its own function, during
// the call; helping waits run other tasks above it, which return first. A
// Task kept after its function returned, or an enclosing task's Task,
// fails when the goroutine runs something else. Under the race detector
// the calling goroutine must also be t's; elsewhere that check costs too
// much for every call.
func (t *Task) use(op string) {
	if t == nil || raceEnabled && !t.runner.calling() || t.runner.top != t {
		t.useSlow(op)
	}
}

// useSlow is use's rare case, a call of its own so that use inlines. An
// unseated task, whose goroutine's top is nil, takes its worker back
// (see crew.endBlock); any other caller misuses t.
func (t *Task) useSlow(op string) {
	if t != nil && t.unseated() {
		t.runner.c.reseat(t.runner)
		return
	}
	panic(misuse(t, op))
}

// misuse returns the message of use's panic, which useSlow raises.
func misuse(t *Task, op string) string {
	switch {
	case t == nil:
		return "sched: " + op + " with a nil Task: only a task, with its own Task, may call it; outside the pool, run it in a task: sched.Do, Pool.Do, or a Group's Go"
	case !t.runner.calling():
		return "sched: " + op + " with a Task of another goroutine: a *Task is valid only in its task's function, during the call, in the goroutine that runs it; not in a goroutine the task starts"
	case t.runner.blocking:
		return "sched: " + op + " in the function of a Task.Block: its goroutine runs no task while it blocks; use the Task before or after the call"
	}
	return "sched: " + op + " with a Task used outside its own function: a *Task is valid only in its task's function, during the call, and not in the tasks it starts (each gets its own)"
}

// nilFunction returns the message of the panic for a nil function given
// to op; arg names it, if op takes more than one.
func nilFunction(op, arg string) string {
	if arg != "" {
		arg = " " + arg
	}
	return "sched: " + op + " with a nil function" + arg
}

// sync waits for the forks and groups the task made and did not wait
// for, as a Cilk function syncs before it returns: first its forks,
// newest first, then its groups, newest first, as if the task had joined
// and waited for each before it returned. So a fork may start tasks in
// its parent's group until it returns. sync returns the first failure
// among them.
func (t *Task) sync() *failure {
	var first *failure
	keep := func(f *failure) {
		if first == nil {
			first = f
		}
	}
	r := t.runner
	for t.forks.unjoined > 0 {
		b := t.forks.newest
		if b == nil {
			// Private, on top: the frames above t have ended, and so have
			// the joins t called. next puts it on the list.
			j, _ := r.next()
			b = j.kind.(*record)
			r.exec(j)
		} else if !b.l.done() {
			r.help(&b.l)
		}
		r.forks.joined(r.w, b)
		keep(b.l.failure())
		b.letGo()
	}
	for t.groups != nil {
		keep(t.groups.sync(t)) // takes itself off t.groups
	}
	return first
}
