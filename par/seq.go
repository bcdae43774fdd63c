package par

import (
	"context"
	"iter"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/sched"
)

// The loops over an iter.Seq pull its items: a worker that has run out of
// items takes the next ones from the sequence. The sequence runs on a
// goroutine of its own, the pump, which ranges over it and hands the
// items over a batch at a time. A lock serializes the pulls. A worker
// pulls a batch at a time, which grows while batches take less than a
// chunk's time, as a loop's chunks do. Between batches it reads
// sched.Task.Demand, and forks a part that pulls for each worker that looks for
// work.
//
// The pump is a goroutine, not a coroutine (iter.Pull): the runtime
// throws when a coroutine made by a goroutine locked to its thread is
// resumed by another, or the other way round. The workers of a measured
// run are locked, and so may be a goroutine that ranges over MapSeq. A
// pump is resumed only by channels, which any goroutine may use.

// maxBatch is the most items a part of ForEach pulls at once. The pulls of
// a batch hold the sequence's lock, so a batch stays a chunk's time.
const maxBatch = 1024

// source is an iter.Seq as the loops pull it: a pump that ranges over it,
// started by the first pull.
//
// A pull and the pump take turns, as a call and its callee do. The puller
// sends a count on ask and receives on got; the pump appends that many
// items to out, or fewer at the end of the sequence, and sends on got.
// Then it waits in the yield of the next item for the next ask. A count
// of zero stops it: its yield returns false. The channels order every
// write of one before the other's reads.
//
//	field              written by                     read by
//	seq, ask, got      newSource                       both
//	started, fail      the puller, under mu            the puller, under mu
//	out                each in its turn                each in its turn
//	ended              the pump, before it sends       the puller, after it receives
//	done               the puller, under mu            anyone (atomic, a hint)
type source[T any] struct {
	mu  sync.Mutex
	seq iter.Seq[T]
	ask chan int
	got chan *itemFailure // the pump's failure, if the sequence panicked or called Goexit
	// exited is closed when the pump's goroutine ends.
	exited  chan struct{}
	started bool
	out     []T
	// ended is set by the pump when the sequence has returned or failed:
	// nothing more comes from it.
	ended bool
	// done is set, under mu, once the sequence has ended, failed or been
	// stopped. Atomic, so that a worker may read it without the lock, as a
	// hint.
	done atomic.Bool
}

// newSource returns a source of seq. Nothing runs until the first pull.
// Its close must be called.
func newSource[T any](seq iter.Seq[T]) *source[T] {
	return &source[T]{seq: seq, ask: make(chan int), got: make(chan *itemFailure), exited: make(chan struct{})}
}

// pull appends to buf up to k items of the sequence and returns them. If
// the sequence panicked or called runtime.Goexit after the items, it
// returns how: nothing more comes then.
func (s *source[T]) pull(buf []T, k int) ([]T, *itemFailure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pullLocked(buf, k)
}

// pullLocked is pull for a caller that holds mu.
func (s *source[T]) pullLocked(buf []T, k int) ([]T, *itemFailure) {
	if k <= 0 || s.done.Load() {
		return buf, nil
	}
	s.out = buf
	if !s.started {
		s.started = true
		go s.pump(k)
	} else {
		s.ask <- k
	}
	f := <-s.got
	buf, s.out = s.out, nil
	if s.ended {
		s.done.Store(true) // atomic: see done
	}
	return buf, f
}

// pump ranges over the sequence, the first ask being for k items: see
// source.
func (s *source[T]) pump(k int) {
	defer close(s.exited)
	returned := false
	defer func() {
		if !returned {
			f := failedWith(recover())
			s.ended = true
			s.got <- f // a Goexit goes on: it ends this goroutine
		}
	}()
	n := 0
	stopped := false
	s.seq(func(x T) bool {
		if stopped {
			return false // a sequence that goes on after a false
		}
		s.out = append(s.out, x)
		if n++; n < k {
			return true
		}
		s.got <- nil
		k, n = <-s.ask, 0
		stopped = k == 0
		return !stopped
	})
	returned = true
	s.ended = true
	s.got <- nil
}

// close stops the sequence, which runs its deferred calls, once nobody
// pulls any more, and waits for the pump to end. A panic or Goexit of the
// sequence as it stops passes on to the caller.
func (s *source[T]) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done.Store(true)
	if !s.started {
		return
	}
	var f *itemFailure
	if !s.ended {
		s.ask <- 0
		f = <-s.got
	}
	<-s.exited
	f.raise()
}

// ForEach calls body(x) for every item x of seq, in parallel when other
// workers look for work, and returns when every call has returned. It is
// For for a sequence whose length nobody knows ahead, such as the lines
// of a file or the entries of a channel.
//
//	par.ForEach(t, maps.Keys(m), func(t *sched.Task, k string) { check(k) })
//
// The items are pulled from seq by the workers that run the calls, one
// batch at a time, under a lock. seq itself runs on a goroutine of its
// own, never in parallel, which starts at the first pull and ends before
// ForEach returns. So any goroutine may call ForEach, one locked to its
// thread too. A batch grows while its calls take less than a
// few microseconds. The calls run in no set order, and on any worker. A
// worker that runs out of items pulls the next batch itself.
//
// t is the calling task, or nil for a goroutine that is not a task (see
// sched.Do). A panic of body or of seq stops the loop: ForEach then panics with
// a *sched.PanicError. A Goexit stops it likewise, and ForEach calls
// runtime.Goexit. Every item that seq yields before it panics or calls
// Goexit reaches body first. ForEach panics, before it pulls anything, if seq or
// body is nil. seq's deferred calls have run when ForEach returns.
//
// ForEach stops when t's context is done, as every loop of the package
// does: it pulls no more items, and returns once the calls under way have.
//
// Each pull of a batch costs two switches of goroutines. Over a slice, For
// is cheaper: it splits the range without pulling.
func ForEach[T any](t *sched.Task, seq iter.Seq[T], body func(t *sched.Task, x T)) {
	checkLoop("ForEach", seq == nil || body == nil)
	if t == nil {
		onDefault(func(t *sched.Task) { ForEach(t, seq, body) })
		return
	}
	_ = forEach(t, seq, func(t *sched.Task, x T) error {
		body(t, x)
		return nil
	})
}

// ForEachErr is ForEach for a body that may fail, as ForErr is For's: it
// stops at the first error, or when t's context is cancelled, and returns
// that error. It pulls no item after the stop, and waits for the calls
// under way.
func ForEachErr[T any](t *sched.Task, seq iter.Seq[T], body func(t *sched.Task, x T) error) error {
	checkLoop("ForEachErr", seq == nil || body == nil)
	if t == nil {
		return sched.Do(context.Background(), func(t *sched.Task) error { return ForEachErr(t, seq, body) })
	}
	return forEach(t, seq, body)
}

// each is what the parts of one ForEach share: its loop's stop, first
// error and context (loop.plain and errs stay nil), and the sequence.
type each[T any] struct {
	l    loopState
	src  *source[T]
	body func(t *sched.Task, x T) error
}

// eachPart is a task's share of a ForEach: its first batch's size.
type eachPart[T any] struct {
	e    *each[T]
	step int
}

// forEach runs the loop over seq as a task, forked by t and joined at once,
// as Loop.run does, and returns its first error. The loop stops when t's
// context is cancelled.
func forEach[T any](t *sched.Task, seq iter.Seq[T], body func(t *sched.Task, x T) error) error {
	e := &each[T]{src: newSource(seq), body: body}
	defer e.src.close() // after the join: every part has ended
	ctx := t.Context()
	e.l.ctx, e.l.done = ctx, ctx.Done()
	sched.ForkFunc(t, runEach[T], eachPart[T]{e: e, step: 1}).Join(t)
	return e.l.err // every part has finished: Join orders their writes before
}

// runEach runs the part p as the task t: it pulls batches and calls the
// body on them until the sequence ends or the loop stops, forking a part
// for each worker that looks for work, then joins the parts it forked.
func runEach[T any](t *sched.Task, p eachPart[T]) {
	e, l, step := p.e, &p.e.l, p.step
	var forked [4]sched.Future[struct{}] // most parts fork few
	parts := forked[:0]
	ok := false
	defer func() {
		if !ok { // a panic or Goexit of the body or of seq: stop the others
			l.stop.Store(true) // atomic: see loop.stop
		}
	}()
	var buf []T
	for !l.stopped() {
		if k := t.Demand(); k > 0 && !e.src.done.Load() { // atomic: a hint; a part that finds nothing ends
			for range k {
				parts = append(parts, sched.ForkFunc(t, runEach[T], eachPart[T]{e: e, step: step}))
			}
		}
		start := time.Now()
		var fail *itemFailure
		buf, fail = e.src.pull(buf[:0], step)
		if len(buf) == 0 && fail == nil {
			break
		}
		for _, x := range buf {
			if err := e.body(t, x); err != nil {
				l.fail(err)
				break
			}
		}
		clear(buf)   // the items may be large: the GC may free them
		fail.raise() // the sequence's panic or Goexit, after the items it yielded
		switch took := time.Since(start); {
		case took < chunkTime/2 && step < maxBatch:
			step *= 2
		case took > 2*chunkTime && step > 1:
			step /= 2
		}
	}
	ok = true
	for i := len(parts) - 1; i >= 0; i-- {
		parts[i].Join(t)
	}
}

// windowPerProc is how many items per processor MapSeq holds at most in
// flight: pulled from the sequence and not yet passed on by the range.
const windowPerProc = 128

// maxMapBatch is the most items a producer of MapSeq pulls at once: a
// quarter of a processor's share of the window, so that every worker
// finds items while the range consumes.
const maxMapBatch = windowPerProc / 4

// MapSeqErr returns a sequence of f(x) for the items x of seq, in the
// order of seq, computed in parallel by the pool's workers while the range
// over it consumes them. Each result comes with f's error:
//
//	for size, err := range par.MapSeqErr(nil, paths, statSize) {
//		if err != nil {
//			return err // break: the work stops
//		}
//		total += size
//	}
//
// Nothing runs until the range starts. Then workers pull items from seq,
// a batch at a time as ForEach does, and call f on them. The range gets
// the results in seq's order as they are done. At most 128 ×
// runtime.GOMAXPROCS (read when the range starts) items are in flight:
// pulled from seq, and not yet passed on by the range's body. A slow
// consumer so stops the producers, and memory stays bounded. A break
// stops the work: no more items are pulled, pulled items are skipped, and
// the range returns once the calls of f under way have returned. seq's
// deferred calls have run then.
//
// An error of f comes out at its item, and the map goes on: the range
// decides whether to stop. A cancellation of t's context stops the map,
// as every loop of the package stops: the range gets context.Cause of t's
// context as the error of the next item, and then ends. A panic of f, or of seq, comes out at its
// item as a *sched.PanicError: the range stops there, and panics with it. seq's
// failure is the item after the last it yielded. A Goexit of seq likewise
// makes the range call runtime.Goexit at that item. So does a Goexit of f,
// but a task's range may call it before: when it waits for the round of
// tasks that ran it.
//
// Who ranges over the sequence decides where the work runs:
//
//	t                  the work runs                      while the range waits for a result
//	nil (not a task)   on the default pool (see sched.Do)       its goroutine sleeps
//	the ranging task   on t's pool, in rounds of tasks    t runs the round's tasks, as sched.Group.Wait does
//
// A task passes its own t, and ranges in its own function: it never
// blocks its worker. It waits for a result only when none is ready, and
// then helps until the window is full or seq has ended. A nil t from a
// task panics when the range starts. MapSeqErr panics if seq or f is nil.
//
// Each range allocates its window of results, a sched.Group, and a closure per
// round of producers. seq runs on a goroutine of its own, as in ForEach:
// each pull of a batch costs two switches of goroutines.
func MapSeqErr[T, R any](t *sched.Task, seq iter.Seq[T], f func(t *sched.Task, x T) (R, error)) iter.Seq2[R, error] {
	checkLoop("MapSeqErr", seq == nil || f == nil)
	return mapSeq(t, seq, f)
}

// MapSeq returns a sequence of f(x) for the items x of seq, in the order
// of seq, computed in parallel by the pool's workers while the range over
// it consumes them: MapSeqErr for a function that cannot fail. All that
// MapSeqErr says holds for it. A cancellation of t's context ends the
// sequence early, at the item where the map stopped: the ranging task
// learns it from t.Context().Err().
//
//	for line := range par.MapSeq(t, lines, parse) { ... }
func MapSeq[T, R any](t *sched.Task, seq iter.Seq[T], f func(t *sched.Task, x T) R) iter.Seq[R] {
	checkLoop("MapSeq", seq == nil || f == nil)
	results := mapSeq(t, seq, func(t *sched.Task, x T) (R, error) { return f(t, x), nil })
	return func(yield func(R) bool) {
		for r, err := range results {
			if err != nil || !yield(r) {
				return // err: a cancellation, which only it reports
			}
		}
	}
}

// mapSeq is MapSeqErr after its checks.
func mapSeq[T, R any](t *sched.Task, seq iter.Seq[T], f func(t *sched.Task, x T) (R, error)) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		m := newMapping(t, seq, f)
		defer m.close()
		for s := int64(0); ; s++ {
			sl := m.await(s)
			if sl == nil {
				return // seq has ended
			}
			if sl.fail != nil {
				m.close() // a Goexit of a producer passes on here
				sl.fail.raise()
			}
			r, err := sl.r, sl.err
			var zero R
			sl.r, sl.err = zero, nil // the slot no longer holds them
			if !yield(r, err) {
				return
			}
			m.passedOn(s + 1)
		}
	}
}

// mapping is one range over a MapSeq: the sequence, the window of
// results, and who produces them.
//
// The window is a ring of w slots. Item s goes into slot s % w, which the
// producer that pulled it writes, and then marks ready. The range reads
// it, clears it, and moves passed on past s. Producers pull item s only
// while s < passed + w: so the slot is free.
//
//	field     written by                         read by
//	pulled    producers, under src.mu            anyone (atomic)
//	active    producers and the range, src.mu    anyone (atomic)
//	passed    the range (atomic)                 producers, under src.mu
//	slots     the producer of the item, the range, in turn (ready orders them)
type mapping[T, R any] struct {
	src *source[T]
	f   func(t *sched.Task, x T) (R, error)
	// ctx is the ranging task's context, or nil: its cancellation stops
	// the pulls, as the item after the last pulled (take).
	ctx   context.Context
	t     *sched.Task  // the task that ranges, or nil
	g     *sched.Group // the producers' group; a task's is nil between rounds
	slots []slot[R]
	w     int64 // len(slots)
	// seqFail is the slot of the item at which seq panicked or called
	// runtime.Goexit, after the last item it yielded, if it did.
	seqFail slot[R]

	pulled atomic.Int64 // items taken from seq, and numbered
	active atomic.Int32 // producers started and not yet ended
	passed atomic.Int64 // items the range has passed on
	// stopped is set when no more items may be pulled: an item failed, or
	// the range ended. broken is set when the range ended: pulled items
	// are skipped.
	stopped, broken atomic.Bool
	// waiting is the item the ranging goroutine sleeps for, or -1. A
	// producer that finishes it, or ends, swaps it for -1 and sends on
	// wake. A task that ranges never sleeps: it waits in sched.Group.Wait.
	waiting atomic.Int64
	wake    chan struct{}
	closed  bool // by the range's goroutine only
}

// slot is one result of the window.
type slot[R any] struct {
	ready atomic.Int64 // s+1 once the slot holds the result of item s
	r     R
	err   error
	fail  *itemFailure // a panic or Goexit at the item
}

// itemFailure is how f, or seq, failed at an item: by a panic, or by a
// Goexit (nil panic).
type itemFailure struct{ panic *sched.PanicError }

// raise repeats the failure in the calling goroutine; it does nothing for
// a nil failure.
func (f *itemFailure) raise() {
	switch {
	case f == nil:
	case f.panic == nil:
		runtime.Goexit()
	default:
		panic(f.panic)
	}
}

// failedWith returns the failure for v, what recover returned in a
// deferred call of a function that did not return: nil for a Goexit (a
// panic(nil) panics with a *runtime.PanicNilError). The range must panic
// at the item, with that item's own value, so the producer keeps it. It
// keeps a *sched.PanicError raised by a wait, as the pool's tasks do.
func failedWith(v any) *itemFailure {
	if v == nil {
		return &itemFailure{}
	}
	pe, ok := v.(*sched.PanicError)
	if !ok {
		pe = &sched.PanicError{Value: v, Stack: debug.Stack()}
	}
	return &itemFailure{panic: pe}
}

// newMapping starts a range over MapSeq(t, seq, f): it starts a producer,
// and one more for each worker that looks for work. A task that ranges
// with a nil t panics here, in sched.Do.
func newMapping[T, R any](t *sched.Task, seq iter.Seq[T], f func(t *sched.Task, x T) (R, error)) *mapping[T, R] {
	w := int64(windowPerProc * max(1, runtime.GOMAXPROCS(0)))
	m := &mapping[T, R]{f: f, t: t, slots: make([]slot[R], w), w: w}
	m.waiting.Store(-1)
	if t != nil {
		m.ctx = t.Context()
		m.g = t.NewGroup()
		m.src = newSource(seq)
		n := 1 + t.Demand()
		m.active.Store(int32(n))
		for range n {
			m.start(t, m.g)
		}
		return m
	}
	m.wake = make(chan struct{}, 1)
	m.g = sched.Default().NewGroup(context.Background())
	// sched.Do checks that the caller is no task. Its task counts the other
	// workers, idle while it runs: the producers go to the pool's shared
	// entry, where idle workers take them at once.
	idle := 0
	onDefault(func(t *sched.Task) { idle = t.Demand() })
	m.src = newSource(seq)
	n := 1 + idle
	m.active.Store(int32(n))
	for range n {
		m.start(nil, m.g)
	}
	return m
}

// start starts a producer in g; active counts it already. t is the
// calling task, or nil.
func (m *mapping[T, R]) start(t *sched.Task, g *sched.Group) {
	g.Go(t, func(t *sched.Task) error {
		m.produce(t, g)
		return nil
	})
}

// passedOn records that the range has passed on the items below s, and
// restarts the producers when they have all ended and half the window is
// free.
func (m *mapping[T, R]) passedOn(s int64) {
	m.passed.Store(s) // atomic: producers read it for the room left
	if m.active.Load() != 0 || m.stopped.Load() || m.src.done.Load() || s+m.w-m.pulled.Load() < m.w/2 {
		return
	}
	m.src.mu.Lock()
	idle := m.active.Load() == 0 && !m.src.done.Load()
	if idle {
		m.active.Add(1)
	}
	m.src.mu.Unlock()
	if idle {
		m.restart()
	}
}

// restart starts a producer for the range; active counts it already.
func (m *mapping[T, R]) restart() {
	if m.t == nil {
		m.start(nil, m.g)
		return
	}
	if m.g == nil {
		m.g = m.t.NewGroup()
	}
	m.start(m.t, m.g)
}

// await returns the slot of item s once it holds its result, or nil if
// seq has ended before s.
func (m *mapping[T, R]) await(s int64) *slot[R] {
	for {
		if sl := m.ready(s); sl != nil {
			return sl
		}
		m.src.mu.Lock()
		end := s >= m.pulled.Load() && m.src.done.Load()
		idle := !end && m.active.Load() == 0 && !m.stopped.Load()
		if idle {
			m.active.Add(1)
		}
		m.src.mu.Unlock()
		if end {
			return nil
		}
		if idle {
			m.restart()
		}
		if m.t != nil {
			// Help: the round's producers run until the window is full or
			// seq has ended. They fail only by a Goexit: a panic is the
			// item's.
			g := m.g
			m.g = nil
			_ = g.Wait(m.t)
			continue
		}
		m.waiting.Store(s) // atomic: producers read it after they write a slot
		if m.ready(s) != nil || m.ended(s) {
			if !m.waiting.CompareAndSwap(s, -1) {
				<-m.wake // a producer swapped it, and sends
			}
			continue
		}
		<-m.wake
	}
}

// ready returns the slot of item s if it holds its result, or else nil.
func (m *mapping[T, R]) ready(s int64) *slot[R] {
	if sl := &m.slots[s%m.w]; sl.ready.Load() == s+1 { // atomic: orders the producer's writes of the slot before
		return sl
	}
	if m.seqFail.ready.Load() == s+1 { // atomic, likewise
		return &m.seqFail
	}
	return nil
}

// ended reports whether seq has ended before item s.
func (m *mapping[T, R]) ended(s int64) bool {
	m.src.mu.Lock()
	defer m.src.mu.Unlock()
	return s >= m.pulled.Load() && m.src.done.Load()
}

// wakeFor wakes the ranging goroutine if it sleeps for an item in [lo, hi).
func (m *mapping[T, R]) wakeFor(lo, hi int64) {
	if w := m.waiting.Load(); w >= lo && w < hi && m.waiting.CompareAndSwap(w, -1) {
		m.wake <- struct{}{} // never blocks: the swap is the only sender's
		// The woken goroutine waits on this processor until the worker
		// yields it: let it take its results now.
		runtime.Gosched()
	}
}

// produce is a producer: a task that pulls batches of items and maps
// them, until the window is full, seq has ended or the range stops. It
// starts a producer in g for each worker that looks for work.
func (m *mapping[T, R]) produce(t *sched.Task, g *sched.Group) {
	defer m.exit()
	var buf []T
	step := 1
	for !m.stopped.Load() {
		start := time.Now()
		more := t.Demand()
		base, batch, fail := m.take(buf[:0], step, &more)
		buf = batch
		for range more {
			m.start(t, g)
		}
		end := base + int64(len(batch))
		for i, x := range batch {
			if m.broken.Load() || !m.call(t, x, base+int64(i)) {
				end = base + int64(i) + 1
				break
			}
		}
		clear(buf)
		if fail != nil {
			end++ // the sequence's failure, after the batch
		}
		m.wakeFor(base, end)
		if len(batch) == 0 && fail == nil {
			return
		}
		switch took := time.Since(start); {
		case took < chunkTime/2 && step < maxMapBatch:
			step *= 2
		case took > 2*chunkTime && step > 1:
			step /= 2
		}
	}
}

// take pulls up to step items into buf, as room in the window allows, and
// numbers them from base. If seq panics or calls runtime.Goexit, the
// failure is the item after the batch, fail says how, and nothing more is
// pulled: the items seq yielded before are mapped and passed on first.
// more is how many more producers to start: take keeps it only while seq
// has items, and counts them in active.
func (m *mapping[T, R]) take(buf []T, step int, more *int) (base int64, batch []T, fail *itemFailure) {
	m.src.mu.Lock()
	defer m.src.mu.Unlock()
	base = m.pulled.Load()
	room := m.passed.Load() + m.w - base
	if room <= 0 || m.src.done.Load() || m.stopped.Load() {
		*more = 0
		return base, buf[:0], nil
	}
	if m.ctx != nil && m.ctx.Err() != nil {
		// The cancellation is item base, in seqFail's slot, and the last.
		m.seqFail.err = context.Cause(m.ctx)
		m.stopped.Store(true) // atomic: producers read it between batches
		m.src.done.Store(true)
		m.seqFail.ready.Store(base + 1)
		m.pulled.Store(base + 1)
		*more = 0
		return base, buf[:0], nil
	}
	batch, f := m.src.pullLocked(buf, int(min(room, int64(step))))
	n := base + int64(len(batch))
	if f != nil {
		// The failure is item n, in a slot of its own: the batch may
		// have filled the window.
		fail = f
		m.seqFail.fail = fail
		m.stopped.Store(true) // atomic: producers read it between batches
		m.seqFail.ready.Store(n + 1)
		n++
	}
	m.pulled.Store(n)
	if m.src.done.Load() {
		*more = 0
	}
	if *more > 0 {
		m.active.Add(int32(*more))
	}
	return base, batch, fail
}

// fail puts the failure f in the slot of item s, and stops the pulls.
func (m *mapping[T, R]) fail(s int64, f *itemFailure) {
	sl := &m.slots[s%m.w]
	sl.fail = f
	m.stopped.Store(true) // atomic: producers read it between batches
	sl.ready.Store(s + 1)
}

// call maps x, item s, into its slot, and reports whether f returned. A
// panic of f is recovered as the item's failure; a Goexit goes on.
func (m *mapping[T, R]) call(t *sched.Task, x T, s int64) (ok bool) {
	sl := &m.slots[s%m.w]
	defer func() {
		if !ok {
			m.fail(s, failedWith(recover()))
			m.wakeFor(s, s+1)
		}
	}()
	sl.r, sl.err = m.f(t, x)
	sl.ready.Store(s + 1) // atomic: the range reads the slot once it sees it
	return true
}

// exit ends a producer: it counts it off active, and wakes the ranging
// goroutine, which may wait for the end of seq or for a restart.
func (m *mapping[T, R]) exit() {
	m.src.mu.Lock()
	m.active.Add(-1)
	m.src.mu.Unlock()
	m.wakeFor(0, 1<<62)
}

// close ends the range: it stops the producers, waits for them, and stops
// seq. A Goexit of a producer passes on here, from the sched.Group's Wait; seq
// is stopped all the same. close does nothing the second time.
func (m *mapping[T, R]) close() {
	if m.closed {
		return
	}
	m.closed = true
	m.stopped.Store(true)
	m.broken.Store(true)
	if m.src != nil {
		defer m.src.close()
	}
	if g := m.g; g != nil {
		m.g = nil
		_ = g.Wait(m.t)
	}
}
