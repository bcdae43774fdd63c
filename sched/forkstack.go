package sched

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/worksteal/wsq/internal/pad"
)

// The private fork stack: what Fork, ForkFunc, Join and JoinFunc do with
// a fork until it runs. forkStack owns the goroutine's private forks, the
// fork records' links, latches and counts, and a task's unjoined forks
// (forkList): only this file writes them. Three fields have other
// writers, each named where it is declared: a record's function,
// argument, result and gen (fork.go, which makes and joins it), its
// ranOn (runner.exec, where it runs), and its stamp and the stack's
// measured flag (measure.go, in a measured run).
//
// The split of a goroutine's forks into a private part and a published
// part is Lace's split deque (van Dijk and van de Pol, 2014): the owner
// forks and joins below the split without a shared word, and moves the
// split when a thief asks.
//
// The words of this file, and of the package, are listed in INTERNALS.md
// (Words): each has one meaning.

// Invariants, kept by every operation below:
//
//   - Every private fork is newer than every item of the worker's queue.
//     The stack publishes only its oldest forks, and the worker pushes
//     other items only when the stack is empty (runner.spawn publishes
//     first). So the worker's items, private and published, form one
//     stack, newest on top.
//   - A record in slots[n:] is free: nothing reads its latch, links,
//     function or argument until the next fork at that depth.
//   - A tracked record is on its parent's list (forkList) once it has
//     left the stack, and private on top of the stack before. The list
//     and the stack together hold every tracked record that is unjoined.

// record is the part of a fork record that does not depend on its types.
//
// A record is reused: its slot keeps it for the next fork at the same
// depth, or the goroutine's free list does. gen tells the uses apart: a
// Future carries the gen of its fork, and a join claims it by moving gen
// on. A second join of the same Future so panics, rather than read a
// record that holds another fork. gen is 64 bits wide: at a fork per
// nanosecond it takes centuries to wrap.
//
// The forking task claims with a plain load and store, any other joiner
// with a compare-and-swap. A join by another goroutine at the same moment
// as the forking task's is a second join, which the contract forbids: the
// race detector reports it.
type record struct {
	// gen is 64-bit aligned, first, for joinOther's compare-and-swap.
	// Writers: forkStack at reuse, and the joins of fork.go.
	gen uint64
	// l counts the task from its fork until it finishes: the join of a
	// fork that left the stack waits on it. A fork that its join takes
	// back never arrives.
	l latch
	// parent is the frame of the forking task, which waits for this
	// one. Frames are reused: while tracked, parent is the forking task;
	// afterwards it may be a later task's (see Future.Join).
	parent *Task
	ranOn  *runner // the goroutine that ran the fork: written by runner.exec
	// prev and next link the record into its parent's list of unjoined
	// forks (forkList), once a tracked record left the stack.
	prev, next *record
	// published says that the forking goroutine pushed the record into
	// its worker's queue; it is cleared at the join (forkStack.joined).
	published bool
	tracked   bool // counted in parent.forks.unjoined
	// stamp is the fork's measure in a measured run, made at the first
	// such fork in this record, and stale afterwards. measure.go writes
	// it.
	stamp *stamp
	// parties counts those done with a record that its forking task did
	// not join itself: the forking task's sync, and the joiner that
	// claimed its Future. The second lets go of parent and ranOn, so that
	// a Future kept afterwards holds no goroutine's state (letGo).
	parties atomic.Uint32
	// task is the whole record, typed: to call its function, and to reuse
	// it as its type (slot).
	task taskCall
}

// taskCall is the part of a fork record that depends on its types.
type taskCall interface {
	// call runs the task's function as the task t and keeps its result.
	call(t *Task)
	// clear lets go of the function and argument: a record that waits for
	// reuse, or that a Future keeps, must not keep them reachable.
	clear()
}

// resultRecord is a fork record as a Future sees it.
type resultRecord[R any] struct {
	record
	// callAs is the whole record, as record.task is: Future.Join calls
	// the function through it when it takes the fork back. An interface,
	// not a function value: the value of a generic function would
	// allocate for each new record.
	callAs resultCall[R]
	r      R // the result, for a join after the task ran as a task
}

// resultCall is the call of a fork's function that returns its result.
type resultCall[R any] interface {
	callResult(t *Task) R
}

// taskRecord is a whole fork record: the function, its argument and the
// result, in one object. fn is Fork's and Join's function; proc is that
// of ForkFunc and JoinFunc, which has no result, in a record used as a
// procRecord. fork.go writes fn, proc and a, and the result.
type taskRecord[A, R any] struct {
	resultRecord[R]
	fn   func(*Task, A) R
	proc func(*Task, A)
	a    A
	// The records of different workers must not share a cache line: a
	// worker writes its records on every fork and join, and reuses them.
	_ pad.Line
}

// procRecord is a taskRecord of ForkFunc and JoinFunc: the same object,
// with calls of proc. A type of its own, so that neither kind reuses the
// other's records, and each call is one line that the compiler inlines
// into the interface's wrapper.
type procRecord[A any] taskRecord[A, struct{}]

// call runs the task's function, which a thief or a wait took, and keeps
// the result for the join.
func (rec *taskRecord[A, R]) call(t *Task) {
	fn, a := rec.fn, rec.a
	rec.clear()
	rec.r = fn(t, a)
}

// callResult runs the task's function as a call and returns its result.
// The record keeps its function until the next fork in its slot.
func (rec *taskRecord[A, R]) callResult(t *Task) R { return rec.fn(t, rec.a) }

func (rec *taskRecord[A, R]) clear() {
	var zero A
	rec.fn, rec.proc, rec.a = nil, nil, zero
}

func (rec *procRecord[A]) call(t *Task) {
	proc, a := rec.proc, rec.a
	rec.clear()
	proc(t, a)
}

func (rec *procRecord[A]) callResult(t *Task) struct{} {
	rec.proc(t, rec.a)
	return struct{}{}
}

func (rec *procRecord[A]) clear() { (*taskRecord[A, struct{}])(rec).clear() }

// results returns the record as a Future sees it.
func (rec *procRecord[A]) results() *resultRecord[struct{}] { return &rec.resultRecord }

// arrive records the task's outcome (nil for success) and counts it as
// finished. A fork hands no job on.
func (b *record) arrive(f *failure) (Job, bool) {
	if f != nil {
		b.l.getSlow().fail = f
	}
	b.l.arrive()
	return Job{}, false
}

// The record's calls as a job kind (jobKind). The core calls them on the
// record's own type, where it knows a fork, so that they inline.
var _ jobKind = (*record)(nil)

// origin returns the context of the fork's task, its forking task's, and
// the forking task, which waits for it.
func (b *record) origin() (context.Context, *Task) { return b.parent.ctxOf.ctx, b.parent }

// call runs the fork's task as t: its function is in the record.
func (b *record) call(t *Task, _ func(*Task) error) { b.task.call(t) }

// latch returns the latch that counts the fork's task.
func (b *record) latch() *latch { return &b.l }

// letGo counts a party done with b (see parties); the second clears what
// b holds of its goroutines.
func (b *record) letGo() {
	if b.parties.Add(1) == 2 { // atomic: the two parties run on any goroutines
		b.parent, b.ranOn = nil, nil
	}
}

// forkList is a task's unjoined forks that left the private stack,
// newest first, and the count of all its unjoined forks, private ones
// included. The forking goroutine alone touches it.
type forkList struct {
	unjoined int
	newest   *record
}

// forkStack is a goroutine's private forks (see the top of this file),
// with the records it keeps for reuse. Only the goroutine touches it.
type forkStack struct {
	// slots[:n] holds the private forks, oldest first. Beyond n, each
	// slot keeps the record of the last fork made at that depth, for the
	// next fork there of the same types: a recursion forks at the same
	// depths again and again. A take back leaves the record in its slot;
	// a publish and a take move it out (nil): it lives on in the queue or
	// in a wait until its join.
	slots []*record
	n     int
	// published counts the forks this goroutine published and has not
	// joined, at least those of them still in the worker's queue, unless
	// an ask reset it. When it falls to zero, the queue shows thieves
	// none of the worker's forks: the join that brings it there asks, so
	// that the next fork is published.
	published int
	free      []*record // finished records to reuse, out of the slots
	batch     []Job     // publish's buffer
	// measured says that the goroutine's frames are a measured run's
	// (see measure.go): answer then stamps and publishes each fork as it
	// is made, and keeps the worker's ask, so that every fork polls into
	// answer. No fork is private, and no join takes its fork back.
	// measure.go sets and clears it, around a measured run.
	measured bool
}

// maxFree is the most finished fork records a goroutine keeps for reuse.
const maxFree = 64

// keptFrames is the most task frames, slots and buffered jobs a goroutine
// keeps for reuse once it is back at depth zero.
const keptFrames = 64

// recordPtr is a fork record's pointer type, for own.
type recordPtr[E any] interface {
	*E
	taskCall
	base() *record
	init()
}

func (b *record) base() *record { return b }

// init makes a new record ready for its first fork (see own).
func (rec *taskRecord[A, R]) init() { rec.task, rec.callAs = rec, rec }

func (rec *procRecord[A]) base() *record { return &rec.record }
func (rec *procRecord[A]) init()         { rec.task, rec.callAs = rec, rec }

// slot returns the free record in slot n, for the next fork, or nil. The
// fork takes it if it has the fork's types, or else gets one from own.
func (s *forkStack) slot() taskCall {
	if n := s.n; uint(n) < uint(len(s.slots)) { // one comparison: no bounds check after
		if b := s.slots[n]; b != nil {
			return b.task
		}
	}
	return nil
}

// push makes b, the record in slot n, the newest private fork, by t. A
// tracked fork (Fork's, ForkFunc's) counts among t's unjoined forks;
// Join's g does not: Join waits for it itself. The caller polls next.
func (s *forkStack) push(t *Task, b *record, tracked bool) {
	b.l.n, b.parent = 1, t // plain: nobody else sees b before a publish or a take
	if tracked {
		b.tracked = true
		t.forks.unjoined++
	}
	s.n++
}

// own returns a record for the next fork by t when its slot has none of
// type P: a finished one from the free list, or a new one. It puts it in
// the slot, and the slot's record, free, on the free list. In a measured
// run every fork comes here (its slot is empty once published): t's
// strand stops first, so that an allocation's stall is not t's work.
func own[E any, P recordPtr[E]](s *forkStack, t *Task) P {
	if s.measured && t.meas != nil {
		t.meas.stop(t) // the fork's answer stamps and resumes it (meterHooks.fork)
	}
	var r P
	if k := len(s.free); k > 0 {
		if fr, ok := s.free[k-1].task.(P); ok {
			s.free[k-1] = nil
			s.free = s.free[:k-1]
			r = fr
		}
	}
	if r == nil {
		r = P(new(E))
		r.init()
	}
	b := r.base()
	if n := s.n; n == len(s.slots) {
		s.slots = append(s.slots, b)
	} else {
		if old := s.slots[n]; old != nil && len(s.free) < maxFree {
			old.task.clear()
			s.free = append(s.free, old) // free: see the invariants
		}
		s.slots[n] = b
	}
	return r
}

// takeBack pops b if it is the newest private fork: the join of a fork
// nobody took, which then calls its function here (runner.enterCall). b
// stays in its slot. The join of a tracked b counts it off (untrack).
func (s *forkStack) takeBack(b *record) bool {
	n := s.n - 1
	if uint(n) >= uint(len(s.slots)) || s.slots[n] != b { // no fork, or no bounds check after
		return false
	}
	s.n = n
	return true
}

// untrack counts b, taken back by the join of its task t, off t's
// unjoined forks.
func (s *forkStack) untrack(t *Task, b *record) {
	b.tracked = false
	t.forks.unjoined--
}

// leave puts b, which leaves the stack, on its parent's list if it is
// tracked.
func (s *forkStack) leave(b *record) {
	if b.tracked {
		l := &b.parent.forks
		if p := l.newest; p != nil {
			b.prev, p.next = p, b
		}
		l.newest = b
	}
}

// take takes the newest private fork out of its slot, to run it as a task
// (runner.next).
func (s *forkStack) take() (*record, bool) {
	n := s.n - 1
	if n < 0 {
		return nil, false
	}
	b := s.slots[n]
	s.slots[n] = nil
	s.n = n
	s.leave(b)
	return b, true
}

// poll answers an ask, if there is one. Every fork and every take back
// polls: a task that forks many tasks, or joins many in turn, forks or
// joins nothing else meanwhile.
func (s *forkStack) poll(w *Worker[Job]) {
	if w.isAsked() {
		s.answer(w)
	}
}

// answer publishes private forks: poll's slow path.
//
//	who asked                          it publishes
//	the worker, for its items are long every private fork; the ask stays
//	a measured run (measured)          the fork just made, stamped; the ask stays
//	a thief, or the stack itself       the oldest half, at least one
//	(its queue shows none of its forks)
//
// With no private fork, the ask stays for the next fork: the thief that
// asked may sleep, and nothing else would wake it while this worker forks
// in private. An ask is also a moment to sample the grain: a thief waits
// for this worker, whose last item may have been long.
func (s *forkStack) answer(w *Worker[Job]) {
	if s.measured && s.n > 0 {
		b := s.slots[s.n-1]
		t := b.parent
		m := t.meas
		if m != nil {
			m.fork(t, b) // stops t's strand, and stamps b
		}
		s.publish(w, s.n)
		if m != nil {
			m.resume(t)
		}
		return
	}
	if w.long {
		s.publish(w, s.n)
		return
	}
	if s.n == 0 {
		return
	}
	w.answered()    // before the publish: an ask after it is answered at a later fork
	s.published = 0 // the thief found the queue empty
	s.publish(w, (s.n+1)/2)
	w.sampleNow()
}

// publishAll publishes every private fork: before the goroutine gives up
// its worker, or another item goes into the queue above them.
func (s *forkStack) publishAll(w *Worker[Job]) { s.publish(w, s.n) }

// publish moves the k oldest private forks into w's queue, oldest first,
// so that they keep their order below the newer ones.
func (s *forkStack) publish(w *Worker[Job], k int) {
	if k == 0 {
		return
	}
	w.count(int64(k))
	if k == 1 { // the usual case while the worker's items are long: no batch
		w.pushOne(Job{kind: s.mark(s.slots[0])})
	} else {
		batch := s.batch[:0]
		for _, b := range s.slots[:k] {
			batch = append(batch, Job{kind: s.mark(b)})
		}
		w.push(batch)
		clear(batch)
		s.batch = batch[:0]
	}
	n := s.n
	copy(s.slots, s.slots[k:n])
	clear(s.slots[n-k : n]) // the published records: out of the slots
	s.n = n - k
}

// mark records that b is published, and returns it.
func (s *forkStack) mark(b *record) *record {
	s.leave(b)
	b.published = true
	s.published++
	return b
}

// joined ends the forking task's use of b, a record that left the stack
// and whose task has finished: it takes b off its parent's list, counts
// its publish off, adds its measure if the run is measured, and clears
// what b keeps. w is the forking goroutine's worker. The caller may
// reuse b afterwards (reusable).
func (s *forkStack) joined(w *Worker[Job], b *record) {
	if b.tracked {
		b.tracked = false
		l := &b.parent.forks
		l.unjoined--
		p, n := b.prev, b.next
		if n != nil {
			n.prev = p
		} else {
			l.newest = p
		}
		if p != nil {
			p.next = n
		}
		b.prev, b.next = nil, nil
	}
	if b.published {
		b.published = false
		if s.published--; s.published <= 0 { // below zero if an ask reset it
			s.published = 0
			w.ask() // the queue shows none of this worker's forks: the next fork answers
		}
	}
	if t := b.parent; t != nil && t.meas != nil { // nil: joined before, by a join that failed after
		t.meas.join(t, b, true) // a measured run: see meterHooks
	}
}

// reuse ends the forking task's use of b, joined and finished. It keeps b
// on the free list if its task ran on this goroutine, r, with nobody
// asleep on it and no failure. Either way b keeps nothing of the task's
// goroutines: a record on the free list must not keep a deep frame
// reachable, nor a record that a Future keeps.
func (s *forkStack) reuse(r *runner, b *record) {
	if b.ranOn == r && b.l.slow.Load() == nil && len(s.free) < maxFree {
		s.free = append(s.free, b)
	}
	b.parent, b.ranOn = nil, nil
}

// trim lets go of what the stack keeps beyond its next use, at depth
// zero, where no fork is private: the records' functions and arguments,
// and the slots and buffer beyond keptFrames.
func (s *forkStack) trim() {
	for _, b := range s.slots {
		if b != nil {
			b.task.clear()
		}
	}
	if len(s.slots) > keptFrames {
		s.slots = slices.Clone(s.slots[:keptFrames])
	}
	if cap(s.batch) > keptFrames {
		s.batch = nil
	}
}
