package par

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/worksteal/wsq/sched"
)

// A loop is a task that splits its range by demand and forks the parts.
// It uses only the exported names of package sched, which knows nothing
// of it.

// Loop holds the settings of a parallel loop. The zero Loop splits by
// demand alone: For, ForRange, ForErr and ForRangeErr are its methods. A
// Loop is a small value; it may be shared and copied freely.
//
// A loop runs its range from the start, one chunk at a time. Between
// chunks its worker reads sched.Task.Demand, as lazy binary splitting does
// (Tzannes, Caragea, Barua and Vishkin, PPoPP 2010). When k workers look
// for work, it keeps 1/(k+1) of the iterations it has left and forks the
// rest as k equal parts for them. Each part is a task that splits in turn.
// A loop that starts while workers look splits for them before its first
// chunk, so that idle workers take part from the first iteration. A chunk
// grows while it runs for less than a few microseconds, so that a loop of
// cheap iterations checks rarely. A part splits only when what it has left
// would take longer than a chunk, at the rate it has measured.
//
// With nobody looking, the loop runs on the calling worker alone, at
// about the cost of a serial loop. Uneven iterations balance: a worker
// that runs out of work looks, and the others split what they have left.
// A nested loop splits only when its worker's queue shows no work: the
// parts of an outer loop are taken first, so nesting adds no tasks.
type Loop struct {
	// Grain is the fewest iterations that a call of a range body gets,
	// except the last of a part, and that a split leaves in a part. Zero
	// or less counts as one. Set it when a call needs a size, such as a
	// block of a matrix, or when a split must carry that much work.
	Grain int
}

// For calls body(i) for every i from 0 to n-1, in parallel when other
// workers look for work, and returns when every call has returned. It is
// Loop{}.For: see Loop for how it splits the range.
//
//	par.For(t, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
//
// Each call of body is a function call. For cheap iterations, ForRange
// costs less: its body loops over a chunk itself.
func For(t *sched.Task, n int, body func(t *sched.Task, i int)) { Loop{}.For(t, n, body) }

// ForRange calls body(lo, hi) for consecutive chunks [lo, hi) of the range
// from 0 to n, in parallel when other workers look for work. The chunks
// cover every index once. It is Loop{}.ForRange.
func ForRange(t *sched.Task, n int, body func(t *sched.Task, lo, hi int)) {
	Loop{}.ForRange(t, n, body)
}

// ForErr is For for a body that may fail, as errgroup's Go is. It stops
// the loop at the first error, or when t's context is cancelled, and
// returns that error. It is Loop{}.ForErr.
func ForErr(t *sched.Task, n int, body func(t *sched.Task, i int) error) error {
	return Loop{}.ForErr(t, n, body)
}

// ForRangeErr is ForRange for a body that may fail: see ForErr. It is
// Loop{}.ForRangeErr.
func ForRangeErr(t *sched.Task, n int, body func(t *sched.Task, lo, hi int) error) error {
	return Loop{}.ForRangeErr(t, n, body)
}

// For calls body(i) for every i from 0 to n-1, as the function For does,
// with the loop's Grain.
//
// The calls run on t's worker and on workers that take parts of the
// range. A chunk calls its indices in order; a worker may run the chunks
// of several parts in any order. Each call gets the Task of the part that
// runs it. A nested loop, a Fork or a Task.Block in the body takes that
// Task, not the caller's: name the parameter t, so that it shadows the
// outer one. A loop is a task of its own, forked by t and joined before
// For returns: t's
// worker runs the loop's iterations itself, or other tasks while it waits.
// So For never blocks a worker.
//
// The cases at the edges:
//
//	case                       For
//	n <= 0                     calls nothing and returns
//	n = 1                      calls body(0) on t's worker
//	n up to math.MaxInt        splits without overflow; the last index is n-1
//	body panics                stops the loop; For panics with a *sched.PanicError
//	body calls runtime.Goexit  stops the loop; For calls runtime.Goexit
//	nil body                   panics before it calls anything
//	nil t                      runs the loop on the default pool (see sched.Do)
//
// A loop that stops early runs no new chunk, and waits for the chunks
// already running. For stops so when t's context is done, as every loop
// of the package does: it then returns without visiting the indices left,
// and its caller learns it from t.Context().Err().
//
// t is the calling task: For panics if it is not the Task of the function
// that calls it (see sched.Task). Every call of body synchronizes before the
// return of For.
func (lp Loop) For(t *sched.Task, n int, body func(t *sched.Task, i int)) {
	checkLoop("For", body == nil)
	if t == nil {
		onDefault(func(t *sched.Task) { lp.For(t, n, body) })
		return
	}
	if n <= 0 {
		return
	}
	lp.run(t, n, func(t *sched.Task, lo, hi int) {
		for i := lo; i < hi; i++ {
			body(t, i)
		}
	}, nil)
}

// ForRange calls body(lo, hi) for consecutive chunks [lo, hi) that cover
// the range from 0 to n once, as the function ForRange does, with the
// loop's Grain. A chunk holds at least Grain indices, except a part's
// last. All that For says holds for ForRange.
//
//	par.ForRange(t, len(xs), func(t *sched.Task, lo, hi int) {
//		for i := lo; i < hi; i++ {
//			ys[i] = math.Sqrt(xs[i])
//		}
//	})
func (lp Loop) ForRange(t *sched.Task, n int, body func(t *sched.Task, lo, hi int)) {
	checkLoop("ForRange", body == nil)
	if t == nil {
		onDefault(func(t *sched.Task) { lp.ForRange(t, n, body) })
		return
	}
	if n <= 0 {
		return
	}
	lp.run(t, n, body, nil)
}

// ForErr calls body(i) for the indices from 0 to n-1, as For does, until a
// call returns an error or t's context is cancelled. Then the loop stops:
// it starts no new chunk, waits for the calls already running, and ForErr
// returns the first error (for a cancellation, context.Cause of t's
// context). Indices after the stop are not visited. With no error, ForErr
// visits every index and returns nil.
//
// So ForErr keeps errgroup's contract: the first error wins, and the
// others are dropped. A cancelled context stops the loop before its first
// call. A goroutine that is not a task, with a context that cancels the
// loop, runs it in sched.Do(ctx, ...), whose Task has that context.
//
// Panics, Goexit and the edge cases are those of For.
func (lp Loop) ForErr(t *sched.Task, n int, body func(t *sched.Task, i int) error) error {
	checkLoop("ForErr", body == nil)
	if t == nil {
		return sched.Do(context.Background(), func(t *sched.Task) error { return lp.ForErr(t, n, body) })
	}
	if n <= 0 {
		return nil
	}
	return lp.runErr(t, n, func(t *sched.Task, lo, hi int) error {
		for i := lo; i < hi; i++ {
			if err := body(t, i); err != nil {
				return err
			}
		}
		return nil
	})
}

// ForRangeErr calls body(lo, hi) for chunks of the range from 0 to n, as
// ForRange does, and stops at the first error or at a cancellation of t's
// context, as ForErr does.
func (lp Loop) ForRangeErr(t *sched.Task, n int, body func(t *sched.Task, lo, hi int) error) error {
	checkLoop("ForRangeErr", body == nil)
	if t == nil {
		return sched.Do(context.Background(), func(t *sched.Task) error { return lp.ForRangeErr(t, n, body) })
	}
	if n <= 0 {
		return nil
	}
	return lp.runErr(t, n, body)
}

// runErr runs a loop that stops at an error or a cancellation of t's
// context, and returns the first error.
func (lp Loop) runErr(t *sched.Task, n int, body func(t *sched.Task, lo, hi int) error) error {
	return lp.run(t, n, nil, body)
}

// run runs the loop over [0, n) as a task, forked by t and joined at once,
// and returns its first error, a cancellation of t's context among them.
// Exactly one of plain and errs is set. The task is what turns a panic of
// a body into a *sched.PanicError, wherever it ran.
func (lp Loop) run(t *sched.Task, n int, plain func(t *sched.Task, lo, hi int), errs func(t *sched.Task, lo, hi int) error) error {
	l := &loopState{plain: plain, errs: errs, grain: max(lp.Grain, 1)}
	ctx := t.Context()
	l.ctx, l.done = ctx, ctx.Done()
	l.region = t.NewRegion()
	asTask(t, runPart, part{l: l, lo: 0, hi: n, step: l.grain, first: true})
	l.region.End(t)
	return l.err // every part has finished: Join orders their writes before
}

// asTask calls f(t', a) as a task of its own, with t' its Task, and
// returns once it and the tasks it started have finished. A panic in it
// becomes a *sched.PanicError, wherever it runs. A loop's code that must fail
// as a task does (a body's, or combine's) runs so.
func asTask[A any](t *sched.Task, f func(*sched.Task, A), a A) {
	sched.JoinFunc(t, nop, struct{}{}, f, a)
}

// nop is a function that does nothing: asTask's f.
func nop(*sched.Task, struct{}) {}

// checkLoop panics if the body of the loop function op is nil. A misuse of
// t panics in the first call that takes it.
func checkLoop(op string, nilBody bool) {
	if nilBody {
		panic("par: " + op + " with a nil function")
	}
}

// onDefault runs f as a task of the default pool and waits for it, for a
// loop called with a nil Task: see sched.Do.
func onDefault(f func(t *sched.Task)) {
	_ = sched.Do(context.Background(), func(t *sched.Task) error {
		f(t)
		return nil
	})
}

// chunkTime is how long a chunk should run. A chunk that ran for less
// than half of it doubles; one that ran for more than twice halves. It
// bounds how long a looking worker waits for a split. A check of the
// clock and of the demand costs under a percent of it.
const chunkTime = 16 * time.Microsecond

// loopState is what the parts of one loop share.
type loopState struct {
	plain func(t *sched.Task, lo, hi int)       // the body of For and ForRange, or nil
	errs  func(t *sched.Task, lo, hi int) error // the body of ForErr and ForRangeErr, or nil
	grain int                                   // at least 1
	// ctx is the context of a loop that stops at its cancellation, and
	// done its Done channel; both nil otherwise, or done nil when ctx
	// never cancels.
	ctx  context.Context
	done <-chan struct{}
	// stop is set by the first error, panic, Goexit or cancellation. The
	// parts read it before each chunk; none starts a chunk after it.
	stop atomic.Bool
	mu   sync.Mutex // guards err
	err  error      // the first error; read after every part has finished
	// region is the loop as a measured run counts it, its chunks the
	// leaves; nil when the run is not measured (see sched.Region).
	region *sched.Region
}

// fail records err, if it is the loop's first, and stops the loop.
func (l *loopState) fail(err error) {
	l.mu.Lock()
	if l.err == nil {
		l.err = err
	}
	l.mu.Unlock()
	l.stop.Store(true) // atomic: the parts on other workers read it
}

// stopped reports whether the loop must start no new chunk. It records a
// cancellation of the context as the loop's error.
func (l *loopState) stopped() bool {
	if l.stop.Load() { // atomic: any part may set it
		return true
	}
	if l.done != nil {
		select {
		case <-l.done:
			l.fail(context.Cause(l.ctx))
			return true
		default:
		}
	}
	return false
}

// part is a task's share of a loop: the indices [lo, hi), run in chunks
// of step indices. A part forked by a split starts with its parent's
// step, which suits the iterations near it. first marks a loop's first
// part, which may split before it runs a chunk.
//
// Invariant: 0 <= lo <= hi, and grain <= step.
type part struct {
	l            *loopState
	lo, hi, step int
	first        bool
}

// runPart runs the part p as the task t: its chunks in order, splitting
// when other workers look for work, then the parts it forked.
//
// A loop's first part splits at once if workers look, without a chunk
// to measure: a parked worker looks only once something wakes it, and
// would otherwise wake only at the first split (rayon's splitter, too,
// starts with a part per thread). A nested loop does not: its worker's
// queue shows the outer loop's parts (sched.Task.Demand).
func runPart(t *sched.Task, p part) {
	l := p.l
	lo, hi, step := p.lo, p.hi, p.step
	var forked [4]sched.Future[struct{}] // most splits fork few parts
	parts := forked[:0]
	ok := false
	defer func() {
		if !ok { // a panic or Goexit of a body: stop the others
			l.stop.Store(true) // atomic: see loop.stop
		}
	}()
	if p.first {
		if k := t.Demand(); k > 0 {
			hi, parts = split(t, l, lo, hi, step, k, parts)
		}
	}
	start := time.Now()
	var ran time.Duration // the time of the chunks so far
	done := 0             // the indices they ran
	for lo < hi && !l.stopped() {
		if done > 0 {
			// A split pays when the part has at least a chunk's time left
			// at its measured rate.
			if k := t.Demand(); k > 0 && float64(hi-lo)*float64(ran) >= float64(done)*float64(chunkTime) {
				hi, parts = split(t, l, lo, hi, step, k, parts)
			}
		}
		end := lo + min(step, hi-lo)
		lf := l.region.Leaf(t)
		if l.plain != nil {
			l.plain(t, lo, end)
		} else if err := l.errs(t, lo, end); err != nil {
			l.region.EndLeaf(t, lf)
			l.fail(err)
			break
		}
		l.region.EndLeaf(t, lf)
		done += end - lo
		lo = end
		now := time.Since(start)
		took := now - ran
		ran = now
		switch {
		case took < chunkTime/2 && step <= (hi-lo)/2:
			step *= 2
		case took > 2*chunkTime && step > l.grain:
			step = max(step/2, l.grain)
		}
	}
	ok = true
	// The part next to this one was forked last: join newest first.
	for i := len(parts) - 1; i >= 0; i-- {
		parts[i].Join(t)
	}
}

// split forks, for k workers that look for work, k equal parts of the
// part's indices [lo, hi) after the first, at least a grain each, and
// publishes them at once: the workers look now. It returns the part's new
// end and the futures of what it forked.
func split(t *sched.Task, l *loopState, lo, hi, step, k int, parts []sched.Future[struct{}]) (int, []sched.Future[struct{}]) {
	left := hi - lo
	if k = min(k, left/l.grain-1); k <= 0 {
		return hi, parts
	}
	q := left / (k + 1)
	// The far parts first: thieves take the oldest.
	for j := k; j >= 1; j-- {
		end := hi
		if j < k {
			end = lo + (j+1)*q
		}
		parts = append(parts, sched.ForkFunc(t, runPart, part{l: l, lo: lo + j*q, hi: end, step: step}))
	}
	t.Demand() // publishes the parts: the workers that look take them
	return lo + q, parts
}
