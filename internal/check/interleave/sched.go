package interleave

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind says what a thread is about to do at a scheduling point.
type Kind uint8

// The kinds of scheduling point. Each is an operation of internal/atomicx.
const (
	Load Kind = iota + 1
	Store
	Swap
	CompareAndSwap
	Lock
	Unlock
	// Yield is a scheduling point that performs nothing, for tests of this
	// package and for code that wants an explicit preemption point.
	Yield
	// TryLock is a mutex's TryLock: it never waits, and the thread calls
	// Acquired when it got the mutex.
	TryLock
	// Wait is a spin-wait on an atomic variable that the thread has just
	// loaded, with no scheduling point since, and that it cannot progress
	// past until another thread changes it: the thread is not runnable
	// until another thread has performed a write operation (Store,
	// StoreRelease, Swap, CompareAndSwap) on the variable since that load.
	// It performs nothing. It is how a thief that must wait for another
	// thief says so, so that a preempted holder is not reported as a lack
	// of progress.
	Wait
	// StoreRelease is a store with release ordering (atomicx's
	// StoreRelease). The scheduler performs it as it performs a Store:
	// every execution it explores is sequentially consistent.
	StoreRelease
)

var kindNames = [...]string{
	Load: "Load", Store: "Store", Swap: "Swap", CompareAndSwap: "CompareAndSwap",
	Lock: "Lock", Unlock: "Unlock", Yield: "Yield", TryLock: "TryLock", Wait: "Wait",
	StoreRelease: "StoreRelease",
}

// writes reports whether an operation of kind k writes its object, for the
// dependence of the partial-order reduction and for Wait.
func writes(k Kind) bool { return k != Load && k != Wait }

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// active is the execution in progress, or nil. It is set by the goroutine
// that runs the exploration (Exhaustive, Random, Replay) while every thread of the execution is parked, and read
// by every atomicx operation; the atomic load is what a normal (unchecked)
// operation pays in the check build.
var active atomic.Pointer[execution]

// exploring serializes explorations: there is one scheduler per process.
var exploring sync.Mutex

// Point is the scheduling point that atomicx calls before each operation on
// obj (the atomic variable or mutex, a pointer). Outside an execution it
// does nothing and returns false. Inside one, the calling thread parks, the
// scheduler chooses which thread performs its operation next, and Point
// returns when that is the caller, reporting whether the execution is being
// traced (then the caller reports the operation's operands with Result).
//
// Point must only be called by the threads of the running execution; other
// goroutines must not use atomicx while an exploration runs.
func Point(k Kind, obj any) bool {
	e := active.Load()
	if e == nil {
		return false
	}
	return e.point(k, obj)
}

// Result records the operands and result of the operation just performed
// after the Point that reported tracing. By kind: Load(v); Store(v) and
// StoreRelease(v); Swap(new, old); CompareAndSwap(old, new, swapped); none
// for Lock and Unlock.
func Result(vals ...any) {
	if e := active.Load(); e != nil && e.trace != nil {
		e.result(vals)
	}
}

// Acquired tells the scheduler that the running thread holds the mutex obj.
// atomicx calls it after a Lock.
func Acquired(obj any) {
	if e := active.Load(); e != nil {
		e.held[obj] = e.cur
	}
}

// Released tells the scheduler that the running thread released the mutex
// obj, so threads waiting to lock it are runnable again.
func Released(obj any) {
	if e := active.Load(); e != nil {
		delete(e.held, obj)
	}
}

// Op marks a call of an operation of the code under test in a recorded
// history. The call point is the tick of the thread's next scheduling point
// (its first atomic operation), the return point the tick of End: the
// tightest interval that contains every effect of the operation.
type Op struct {
	e *execution
	t *thread
}

// Begin starts an operation of the running thread. Outside an execution it
// returns an Op whose End reports zeros.
func Begin(format string, args ...any) Op {
	e := active.Load()
	if e == nil {
		return Op{}
	}
	t := e.cur
	t.callTick = 0
	t.inOp = true
	if e.trace != nil {
		e.note(t, "call "+fmt.Sprintf(format, args...))
	}
	return Op{e, t}
}

// End ends the operation and returns its call and return ticks. The format
// and args describe the result for the trace.
func (o Op) End(format string, args ...any) (call, ret int64) {
	e, t := o.e, o.t
	if e == nil {
		return 0, 0
	}
	if t.callTick == 0 { // no scheduling point inside the operation
		e.clock++
		t.callTick = e.clock
	}
	t.inOp = false
	if t.lastStep >= 0 {
		e.log[t.lastStep].acc.hist = true // the return is part of this transition
	}
	e.clock++
	if e.trace != nil {
		e.flushLine()
		e.writeLine(e.clock, t, "return "+fmt.Sprintf(format, args...))
	}
	return t.callTick, e.clock
}

// Thread is one thread of an execution: a name for traces and the code it
// runs.
type Thread struct {
	Name string
	Run  func()
}

type thread struct {
	id       int
	name     string
	run      func()
	wake     chan struct{}
	done     bool
	pending  Kind // the operation it is parked before
	obj      any  // and the object of that operation
	callTick int64
	inOp     bool
	lastStep int    // index in log of the transition it runs, or -1
	waitVer  uint64 // at a Wait: the version of obj it waits to see change
}

// execution is one run of a program under one schedule. Exactly one of its
// threads runs at a time; the others are parked on their wake channel. Its
// fields are touched only by the running thread (or, before the first and
// after the last thread runs, by the exploring goroutine), each hand-over
// going through a channel, so they need no further synchronization.
type execution struct {
	threads  []*thread
	cur      *thread
	strategy strategy
	names    Names
	maxSteps int

	clock    int64  // ticks: one per operation performed, plus one per End
	steps    int    // scheduling decisions
	log      []step // the transitions performed, one per decision
	schedule []byte
	held     map[any]*thread
	versions map[any]uint64 // per object, the write operations performed on it

	starting chan struct{} // a starting thread reached its first point
	wg       sync.WaitGroup

	aborted bool
	err     error

	trace   *strings.Builder // nil unless traced
	line    traceLine        // the operation being traced
	enabled []*thread
	ids     []int
}

// fail ends the execution with err; every parked thread exits when woken.
func (e *execution) fail(err error) {
	if e.err == nil {
		e.err = err
	}
	e.aborted = true
}

func (e *execution) runnable(t *thread) bool {
	if t.done {
		return false
	}
	switch t.pending {
	case Lock:
		if _, held := e.held[t.obj]; held {
			return false // a lock is not reentrant: relocking deadlocks
		}
	case Wait:
		return e.versions[t.obj] != t.waitVer
	}
	return true
}

// choose picks the thread that performs the next operation, given that t
// (nil at the start) ran last. It returns nil when every thread is done or
// the execution failed.
func (e *execution) choose(t *thread) *thread {
	alts := e.enabled[:0]
	curOK := t != nil && e.runnable(t)
	if curOK {
		alts = append(alts, t)
	}
	live := 0
	for _, u := range e.threads {
		if !u.done {
			live++
		}
		if u != t && e.runnable(u) {
			alts = append(alts, u)
		}
	}
	e.enabled = alts
	if live == 0 {
		return nil
	}
	if len(alts) == 0 {
		var b strings.Builder
		for _, u := range e.threads {
			if !u.done {
				fmt.Fprintf(&b, "; %s waits to %s %s", u.name, u.pending, e.objName(u.obj))
			}
		}
		e.fail(fmt.Errorf("deadlock: no thread can run%s", b.String()))
		return nil
	}
	e.steps++
	if e.steps > e.maxSteps {
		e.fail(fmt.Errorf("no progress: the execution exceeded %d scheduling points; "+
			"some thread cannot finish while another is preempted (not lock-free), or loops forever", e.maxSteps))
		return nil
	}
	ids := e.ids[:0]
	for _, u := range alts {
		ids = append(ids, u.id)
	}
	e.ids = ids
	i, err := e.strategy.choose(e, ids, curOK)
	if err != nil {
		e.fail(err)
		return nil
	}
	next := alts[i]
	e.schedule = append(e.schedule, scheduleDigit(next.id))
	// The transition next now performs: its operation, then whatever it
	// does until its next scheduling point. It is a history event if it
	// makes the call of an operation; End marks it if it makes a return.
	e.log = append(e.log, step{thread: next.id, acc: access{
		obj: next.obj, write: writes(next.pending), hist: next.inOp && next.callTick == 0,
	}})
	next.lastStep = len(e.log) - 1
	return next
}

// access describes what a transition touches, for the partial-order
// reduction: two transitions of different threads commute unless they
// touch the same object and one of them writes it, or both are events of
// the recorded history (a call or a return: their order is the real-time
// order the linearizability check depends on).
type access struct {
	obj   any
	write bool // a Store, Swap, CompareAndSwap or mutex operation
	hist  bool
}

func dependent(a, b access) bool {
	return a.hist && b.hist || a.obj == b.obj && (a.write || b.write)
}

// pendingAccess is what the next transition of parked thread t may touch.
// Whether it will return from an operation is not known before it runs, so
// it counts as a history event.
func (t *thread) pendingAccess() access {
	return access{obj: t.obj, write: writes(t.pending), hist: true}
}

// step is a transition performed: by which thread, touching what.
type step struct {
	thread int
	acc    access
}

// hand passes control from t (nil for the exploring goroutine) to the thread
// the scheduler chooses. It returns when t runs again; a parked thread of
// an aborted execution exits instead.
func (e *execution) hand(t *thread) {
	var next *thread
	if !e.aborted {
		next = e.choose(t)
	}
	// Whether t parks must be decided before the hand-over: from then on
	// the next thread runs and owns the execution's state, t included.
	parks := t != nil && !t.done
	if e.aborted {
		e.wakeAll(t)
		if parks {
			runtime.Goexit()
		}
		return
	}
	if next == t || next == nil {
		return
	}
	e.cur = next
	next.wake <- struct{}{}
	if !parks {
		return
	}
	<-t.wake
	if e.aborted {
		runtime.Goexit()
	}
}

// wakeAll wakes every parked thread of an aborted execution so that it exits.
func (e *execution) wakeAll(except *thread) {
	for _, u := range e.threads {
		if u != except && !u.done {
			u.done = true
			u.wake <- struct{}{}
		}
	}
}

func (e *execution) point(k Kind, obj any) bool {
	t := e.cur
	t.pending, t.obj = k, obj
	if k == Wait {
		t.waitVer = e.versions[obj] // as the thread's last load of obj saw it
	}
	if e.starting != nil {
		// Start-up: park at the first point and let the next thread start.
		e.starting <- struct{}{}
		<-t.wake
		if e.aborted {
			runtime.Goexit()
		}
	} else {
		e.hand(t)
	}
	// t performs its operation now.
	if k == Store || k == StoreRelease || k == Swap || k == CompareAndSwap {
		e.versions[obj]++
	}
	e.clock++
	if t.inOp && t.callTick == 0 {
		t.callTick = e.clock
	}
	t.pending, t.obj = 0, nil
	if e.trace != nil {
		e.startLine(t, k, obj)
		return true
	}
	return false
}

// run executes the threads under e's strategy and returns the first failure.
func (e *execution) run(threads []Thread) {
	e.held = make(map[any]*thread)
	e.versions = make(map[any]uint64)
	e.threads = make([]*thread, len(threads))
	for i, th := range threads {
		e.threads[i] = &thread{id: i, name: th.Name, run: th.Run, wake: make(chan struct{}, 1), lastStep: -1}
	}
	e.starting = make(chan struct{})
	active.Store(e)
	// Start the threads one at a time, each up to its first scheduling
	// point: what a thread does before its first atomic operation is
	// invisible to the others.
	for _, t := range e.threads {
		e.cur = t
		e.wg.Add(1)
		go e.body(t)
		<-e.starting
	}
	e.starting = nil
	e.cur = nil
	e.hand(nil)
	e.wg.Wait()
	active.Store(nil)
	e.flushLine()
}

// body is the goroutine of thread t.
func (e *execution) body(t *thread) {
	defer e.wg.Done()
	finished := false
	defer func() {
		if finished {
			return
		}
		if r := recover(); r != nil {
			e.fail(fmt.Errorf("%s panicked: %v\n%s", t.name, r, debug.Stack()))
			if e.trace != nil {
				e.flushLine()
				e.note(t, fmt.Sprintf("panic: %v", r))
			}
			t.done = true
			if e.starting != nil {
				e.starting <- struct{}{}
				return
			}
			e.wakeAll(t)
		}
		// Otherwise the thread exited with runtime.Goexit because the
		// execution was aborted; nothing is left to do.
	}()
	if e.aborted {
		finished = true
		t.done = true
		if e.starting != nil {
			e.starting <- struct{}{}
		}
		return
	}
	t.run()
	finished = true
	t.done = true
	if e.trace != nil {
		e.flushLine()
	}
	if e.starting != nil {
		e.starting <- struct{}{} // finished without a scheduling point
		return
	}
	e.hand(t)
}
