package par_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// source is a sequence of the tests: 0, 1, ..., n-1, or endless for n <
// 0. It counts the items it yields, and records that its deferred calls
// ran. check, if set, is called with each item before it is yielded.
type source struct {
	n       int
	pulled  atomic.Int64
	stopped atomic.Bool
	check   func(i int)
}

func (s *source) seq() iter.Seq[int] {
	return func(yield func(int) bool) {
		defer s.stopped.Store(true)
		for i := 0; s.n < 0 || i < s.n; i++ {
			if s.check != nil {
				s.check(i)
			}
			s.pulled.Add(1)
			if !yield(i) {
				return
			}
		}
	}
}

// seqRunners runs f as the code that calls a loop over a sequence: a
// goroutine that is no task (t is nil), and a task of each pool of
// loopPools.
func seqRunners(t *testing.T) map[string]func(f func(t *sched.Task) error) error {
	runners := map[string]func(f func(t *sched.Task) error) error{
		"nil": func(f func(t *sched.Task) error) error { return f(nil) },
	}
	for name, p := range schedtest.LoopPools(t) {
		runners[name] = func(f func(t *sched.Task) error) error { return p.Do(ctx, f) }
	}
	return runners
}

// TestForEachEveryItemOnce runs ForEach and ForEachErr over sequences of
// several sizes, cheap and uneven, from plain code and from tasks of each
// pool, and checks that each item is visited once and every item pulled,
// and that the sequence's deferred calls have run when the loop returns.
func TestForEachEveryItemOnce(t *testing.T) {
	sizes := []int{0, 1, 2, 100, 4097, testenv.Size(10_000, 10_000, 100_000)}
	for name, run := range seqRunners(t) {
		for _, n := range sizes {
			for _, withErr := range []bool{false, true} {
				src := &source{n: n}
				c := make(schedtest.Counter, n)
				require.NoError(t, run(func(t *sched.Task) error {
					if withErr {
						return par.ForEachErr(t, src.seq(), func(_ *sched.Task, i int) error {
							c[i].Add(1)
							schedtest.Uneven(i, n)
							return nil
						})
					}
					par.ForEach(t, src.seq(), func(_ *sched.Task, i int) { c[i].Add(1); schedtest.Uneven(i, n) })
					return nil
				}))
				what := fmt.Sprintf("%s: n=%d, err %v", name, n, withErr)
				c.Check(t, what)
				assert.Equal(t, int64(n), src.pulled.Load(), what)
				assert.True(t, src.stopped.Load(), "%s: the sequence's deferred calls", what)
			}
		}
	}
}

// TestForEachSplits checks that a loop over a sequence of costly items,
// with idle workers, forks parts that pull items themselves.
func TestForEachSplits(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		p, err := sched.NewPool(sched.PoolConfig{Workers: 4, Mode: mode})
		require.NoError(t, err)
		const n = 400
		c := make(schedtest.Counter, n)
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			// The other workers must have started to look (see TestForSplits).
			for deadline := time.Now().Add(10 * time.Second); t.Demand() == 0; runtime.Gosched() {
				if time.Now().After(deadline) {
					return errors.New("no worker looked for work in 10 s")
				}
			}
			src := &source{n: n}
			par.ForEach(t, src.seq(), func(_ *sched.Task, i int) {
				schedtest.SpinFor(20 * time.Microsecond)
				c[i].Add(1)
			})
			return nil
		}))
		st := p.Close()
		// Do's task and the loop's, then at least one part.
		assert.Greater(t, st.Processed, int64(2), "%v: the loop forked no part", mode)
		c.Check(t, mode.String())
	}
}

// TestForEachStops checks that ForEachErr stops at an error, at a
// cancellation before it and during it, and that ForEach stops at a panic
// of the body or of the sequence, and at a Goexit: each time over an
// endless sequence, whose deferred calls have run when the loop returns.
func TestForEachStops(t *testing.T) {
	errBad := errors.New("bad")
	for name, run := range seqRunners(t) {
		src := &source{n: -1}
		err := run(func(t *sched.Task) error {
			return par.ForEachErr(t, src.seq(), func(_ *sched.Task, i int) error {
				if i == 1000 {
					return errBad
				}
				return nil
			})
		})
		assert.ErrorIs(t, err, errBad, name)
		assert.True(t, src.stopped.Load(), "%s: deferred calls after an error", name)

		src = &source{n: -1}
		e := schedtest.CallInGoroutine(t, func() {
			_ = run(func(t *sched.Task) error {
				par.ForEach(t, src.seq(), func(_ *sched.Task, i int) {
					if i == 1000 {
						panic(schedtest.ErrBoom)
					}
				})
				return nil
			})
		})
		pe, ok := e.Recovered.(*sched.PanicError)
		require.True(t, ok, "%s: a body's panic is a *PanicError, not %#v", name, e.Recovered)
		assert.Equal(t, schedtest.ErrBoom, pe.Value, name)
		assert.True(t, src.stopped.Load(), "%s: deferred calls after a panic", name)

		src = &source{n: -1, check: func(i int) {
			if i == 1000 {
				panic(schedtest.ErrBoom)
			}
		}}
		e = schedtest.CallInGoroutine(t, func() {
			_ = run(func(t *sched.Task) error {
				par.ForEach(t, src.seq(), func(*sched.Task, int) {})
				return nil
			})
		})
		pe, ok = e.Recovered.(*sched.PanicError)
		require.True(t, ok, "%s: the sequence's panic is a *PanicError, not %#v", name, e.Recovered)
		assert.Equal(t, schedtest.ErrBoom, pe.Value, name)

		src = &source{n: -1}
		e = schedtest.CallInGoroutine(t, func() {
			_ = run(func(t *sched.Task) error {
				par.ForEach(t, src.seq(), func(_ *sched.Task, i int) {
					if i == 1000 {
						runtime.Goexit()
					}
				})
				return nil
			})
		})
		assert.False(t, e.Returned, "%s: a Goexit ends the caller", name)
		assert.Nil(t, e.Recovered, "%s: a Goexit is no panic", name)
		assert.True(t, src.stopped.Load(), "%s: deferred calls after a Goexit", name)
	}

	cause := errors.New("cancelled by the test")
	cctx, cancel := context.WithCancelCause(ctx)
	cancel(cause)
	var calls atomic.Int64
	src := &source{n: -1}
	err := sched.Do(cctx, func(t *sched.Task) error {
		return par.ForEachErr(t, src.seq(), func(*sched.Task, int) error { calls.Add(1); return nil })
	})
	assert.ErrorIs(t, err, cause)
	assert.Zero(t, calls.Load(), "calls after a cancellation")
	cctx, cancel = context.WithCancelCause(ctx)
	src = &source{n: -1}
	err = sched.Do(cctx, func(t *sched.Task) error {
		return par.ForEachErr(t, src.seq(), func(_ *sched.Task, i int) error {
			if i == 1000 {
				cancel(cause)
			}
			return nil
		})
	})
	assert.ErrorIs(t, err, cause)
	assert.True(t, src.stopped.Load(), "deferred calls after a cancellation")
}

// square is the f of the tests of MapSeq: x², or an error for the items
// that bad marks, with uneven costs so that items finish out of order.
func square(n int, calls []atomic.Int32, bad func(i int) bool) func(_ *sched.Task, i int) (int, error) {
	return func(_ *sched.Task, i int) (int, error) {
		calls[i].Add(1)
		schedtest.Uneven(i, n)
		if bad != nil && bad(i) {
			return 0, fmt.Errorf("item %d", i)
		}
		return i * i, nil
	}
}

// TestMapSeqInOrder ranges over MapSeq of sequences of several sizes,
// from plain code and from tasks of each pool, and checks that every
// result comes out once and in order, with its error at its item, that f
// ran once per item, and that the sequence's deferred calls have run when
// the range ends.
func TestMapSeqInOrder(t *testing.T) {
	sizes := []int{0, 1, 2, 100, 4097, testenv.Size(10_000, 10_000, 100_000)}
	bad := func(i int) bool { return i%1000 == 7 }
	for name, run := range seqRunners(t) {
		for _, n := range sizes {
			what := fmt.Sprintf("%s: n=%d", name, n)
			src := &source{n: n}
			calls := make(schedtest.Counter, n)
			require.NoError(t, run(func(t *sched.Task) error {
				i := 0
				for r, err := range par.MapSeqErr(t, src.seq(), square(n, calls, bad)) {
					if bad(i) {
						if err == nil || err.Error() != fmt.Sprintf("item %d", i) || r != 0 {
							return fmt.Errorf("item %d: %d, %v; want its error", i, r, err)
						}
					} else if err != nil || r != i*i {
						return fmt.Errorf("item %d: %d, %v; want %d", i, r, err, i*i)
					}
					i++
				}
				if i != n {
					return fmt.Errorf("%d results of %d", i, n)
				}
				return nil
			}), what)
			calls.Check(t, what)
			assert.Equal(t, int64(n), src.pulled.Load(), what)
			assert.True(t, src.stopped.Load(), "%s: the sequence's deferred calls", what)
		}
	}
}

// window is MapSeq's bound on the items in flight, in the tests' process.
func window() int64 { return 128 * int64(runtime.GOMAXPROCS(0)) }

// TestMapSeqWindow checks the bound on the items in flight exactly: the
// sequence never yields item k before the range's body has finished with
// item k - window, and while the body holds item 0 the producers pull
// exactly window items, then stop.
func TestMapSeqWindow(t *testing.T) {
	w := window()
	n := int(3*w + 17)
	for name, run := range map[string]func(f func(t *sched.Task) error) error{
		"nil": func(f func(t *sched.Task) error) error { return f(nil) },
		"workers=2": func(f func(t *sched.Task) error) error {
			return schedtest.NewPool(t, sched.PoolConfig{Workers: 2}).Do(ctx, f)
		},
		"workers=1": func(f func(t *sched.Task) error) error {
			return schedtest.NewPool(t, sched.PoolConfig{Workers: 1}).Do(ctx, f)
		},
	} {
		var finished atomic.Int64 // bodies of the range that have returned
		var early atomic.Int64    // items yielded beyond the bound
		src := &source{n: n}
		src.check = func(i int) {
			if int64(i) >= finished.Load()+w {
				early.Add(1)
			}
		}
		calls := make(schedtest.Counter, n)
		require.NoError(t, run(func(t *sched.Task) error {
			i := 0
			for r, err := range par.MapSeqErr(t, src.seq(), square(n, calls, nil)) {
				if err != nil || r != i*i {
					return fmt.Errorf("item %d: %d, %v", i, r, err)
				}
				if i == 0 {
					// A slow consumer: the producers fill the window, and
					// stop there.
					for deadline := time.Now().Add(time.Minute); src.pulled.Load() != w; time.Sleep(time.Millisecond) {
						if time.Now().After(deadline) {
							return fmt.Errorf("pulled %d, want %d", src.pulled.Load(), w)
						}
					}
				}
				if p := src.pulled.Load(); p > int64(i)+w {
					return fmt.Errorf("at item %d, %d pulled: more than %d in flight", i, p, w)
				}
				i++
				finished.Add(1)
			}
			return nil
		}), name)
		assert.Zero(t, early.Load(), "%s: items yielded beyond the window", name)
		calls.Check(t, name)
	}
}

// TestMapSeqFailures checks that a panic of f, or of the sequence, comes
// out at its item as a *PanicError, after every item before it, and that
// a Goexit of f ends the range at its item; the sequence's deferred calls
// have run then.
func TestMapSeqFailures(t *testing.T) {
	const n, at = 5000, 3000
	for name, run := range seqRunners(t) {
		for _, how := range []string{"f panics", "seq panics", "f calls Goexit", "seq calls Goexit"} {
			what := name + ": " + how
			src := &source{n: n}
			f := func(_ *sched.Task, i int) (int, error) {
				if i == at && (how == "f panics" || how == "f calls Goexit") {
					if how == "f panics" {
						panic(schedtest.ErrBoom)
					}
					runtime.Goexit()
				}
				schedtest.Uneven(i, n)
				return i, nil
			}
			if how == "seq panics" || how == "seq calls Goexit" {
				src.check = func(i int) {
					if i == at {
						if how == "seq panics" {
							panic(schedtest.ErrBoom)
						}
						runtime.Goexit()
					}
				}
			}
			var got atomic.Int64
			e := schedtest.CallInGoroutine(t, func() {
				_ = run(func(t *sched.Task) error {
					for r, err := range par.MapSeqErr(t, src.seq(), f) {
						if err != nil || r != int(got.Load()) {
							panic(fmt.Sprintf("item %d: %d, %v", got.Load(), r, err))
						}
						got.Add(1)
					}
					return nil
				})
			})
			assert.False(t, e.Returned, what)
			assert.True(t, src.stopped.Load(), "%s: the sequence's deferred calls", what)
			if how == "f calls Goexit" {
				// A task's range ends when it waits for the round that ran
				// the Goexit: at the item, or before.
				if name == "nil" {
					assert.Equal(t, int64(at), got.Load(), "%s: the items before the failure", what)
				} else {
					assert.LessOrEqual(t, got.Load(), int64(at), "%s: the items before the failure", what)
				}
				assert.Nil(t, e.Recovered, "%s: a Goexit is no panic", what)
				continue
			}
			assert.Equal(t, int64(at), got.Load(), "%s: the items before the failure", what)
			if how == "seq calls Goexit" {
				assert.Nil(t, e.Recovered, "%s: a Goexit is no panic", what)
				continue
			}
			assert.Equal(t, int64(at), got.Load(), "%s: the items before the failure", what)
			pe, ok := e.Recovered.(*sched.PanicError)
			require.True(t, ok, "%s: a *PanicError, not %#v", what, e.Recovered)
			assert.Equal(t, schedtest.ErrBoom, pe.Value, what)
		}
	}
}

// TestForEachSequenceFails checks that every item a sequence yields
// before it panics or calls runtime.Goexit reaches the body once, and
// that ForEach then panics with the sequence's panic, or calls Goexit;
// the sequence's deferred calls have run then.
func TestForEachSequenceFails(t *testing.T) {
	for name, run := range seqRunners(t) {
		for _, at := range []int{0, 1, 50, 3000} {
			for _, how := range []string{"panics", "calls Goexit"} {
				what := fmt.Sprintf("%s: seq %s at %d", name, how, at)
				src := &source{n: -1, check: func(i int) {
					if i == at {
						if how == "panics" {
							panic(schedtest.ErrBoom)
						}
						runtime.Goexit()
					}
				}}
				c := make(schedtest.Counter, at)
				e := schedtest.CallInGoroutine(t, func() {
					_ = run(func(t *sched.Task) error {
						par.ForEach(t, src.seq(), func(_ *sched.Task, i int) { c[i].Add(1) })
						return nil
					})
				})
				assert.False(t, e.Returned, what)
				c.Check(t, what)
				assert.True(t, src.stopped.Load(), "%s: the sequence's deferred calls", what)
				if how == "calls Goexit" {
					assert.Nil(t, e.Recovered, "%s: a Goexit is no panic", what)
					continue
				}
				pe, ok := e.Recovered.(*sched.PanicError)
				require.True(t, ok, "%s: a *PanicError, not %#v", what, e.Recovered)
				assert.Equal(t, schedtest.ErrBoom, pe.Value, what)
			}
		}
	}
}

// TestSeqLockedThreads ranges over sequences from goroutines locked to
// their threads: the workers of a measured run (Pool.DoMeasured), and a
// goroutine that called runtime.LockOSThread, as a GUI's main thread
// does. The sequence runs on a goroutine of its own, so no coroutine is
// resumed on a thread its maker was not locked to: the runtime would
// end the process.
func TestSeqLockedThreads(t *testing.T) {
	const n = 3000
	loops := func(t *sched.Task) error {
		c := make(schedtest.Counter, n)
		par.ForEach(t, (&source{n: n}).seq(), func(_ *sched.Task, i int) { c[i].Add(1); schedtest.Uneven(i, n) })
		for i := range c {
			if got := c[i].Load(); got != 1 {
				return fmt.Errorf("ForEach: item %d visited %d times", i, got)
			}
		}
		i := 0
		for r, err := range par.MapSeqErr(t, (&source{n: n}).seq(), func(_ *sched.Task, x int) (int, error) {
			schedtest.Uneven(x, n)
			return x * x, nil
		}) {
			if err != nil || r != i*i {
				return fmt.Errorf("MapSeq: item %d: %d, %v", i, r, err)
			}
			i++
		}
		if i != n {
			return fmt.Errorf("MapSeq: %d items, want %d", i, n)
		}
		return nil
	}
	for _, workers := range []int{1, 2, 4} {
		p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers})
		prof, err := p.DoMeasured(ctx, sched.Measure{}, loops)
		require.NoError(t, err, "measured, %d workers", workers)
		assert.Positive(t, prof.Work, "measured, %d workers", workers)
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		done <- loops(nil)
	}()
	require.NoError(t, <-done, "a goroutine locked to its thread")
}

// TestMapSeqBreak checks that a break stops the work: the range returns
// once the calls under way have returned, no call of f starts after, the
// sequence's deferred calls have run, and no goroutine is left.
func TestMapSeqBreak(t *testing.T) {
	sched.Default() // its goroutines are the process's, not the test's
	opts := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opts) }) // the last cleanup: after the pools' Close
	for name, run := range seqRunners(t) {
		for _, at := range []int{0, 1, 500} {
			what := fmt.Sprintf("%s: break at %d", name, at)
			src := &source{n: -1}
			var calls atomic.Int64
			f := func(_ *sched.Task, i int) (int, error) {
				calls.Add(1)
				schedtest.SpinFor(time.Microsecond)
				return i, nil
			}
			var after int64
			require.NoError(t, run(func(t *sched.Task) error {
				for r, err := range par.MapSeqErr(t, src.seq(), f) {
					if err != nil {
						return err
					}
					if r == at {
						break
					}
				}
				after = calls.Load()
				return nil
			}), what)
			assert.True(t, src.stopped.Load(), "%s: the sequence's deferred calls", what)
			assert.LessOrEqual(t, after, int64(at)+1+window(), "%s: calls of f", what)
			assert.LessOrEqual(t, src.pulled.Load(), int64(at)+1+window(), "%s: items pulled", what)
			require.NoError(t, sched.Do(ctx, func(*sched.Task) error { return nil }))
			assert.Equal(t, after, calls.Load(), "%s: calls of f after the range returned", what)
		}
	}
}

// ExampleForEach sums the lengths of the words of a sequence, from main,
// on the default pool.
func ExampleForEach() {
	words := func(yield func(string) bool) {
		for _, w := range []string{"the", "quick", "brown", "fox"} {
			if !yield(w) {
				return
			}
		}
	}
	var letters atomic.Int64
	par.ForEach(nil, words, func(t *sched.Task, w string) { letters.Add(int64(len(w))) })
	fmt.Println(letters.Load())
	// Output: 16
}

// ExampleForEachErr stops at the first bad line of a sequence, in a task.
func ExampleForEachErr() {
	lines := func(yield func(string) bool) {
		for _, l := range []string{"ok", "ok", "bad", "ok"} {
			if !yield(l) {
				return
			}
		}
	}
	err := sched.Do(context.Background(), func(t *sched.Task) error {
		return par.ForEachErr(t, lines, func(t *sched.Task, l string) error {
			if l != "ok" {
				return fmt.Errorf("a line says %q", l)
			}
			return nil
		})
	})
	fmt.Println(err)
	// Output: a line says "bad"
}

// ExampleForEachErr_context is ExampleForEachErr from main, with a context
// that would stop the loop too: in sched.Do(ctx, ...), whose Task has it.
func ExampleForEachErr_context() {
	lines := func(yield func(string) bool) {
		for _, l := range []string{"ok", "ok", "bad", "ok"} {
			if !yield(l) {
				return
			}
		}
	}
	err := sched.Do(context.Background(), func(t *sched.Task) error {
		return par.ForEachErr(t, lines, func(t *sched.Task, l string) error {
			if l != "ok" {
				return fmt.Errorf("a line says %q", l)
			}
			return nil
		})
	})
	fmt.Println(err)
	// Output: a line says "bad"
}

// ExampleMapSeq squares the numbers of an endless sequence in parallel,
// and takes the results in order until one passes 50: the break stops the
// work.
func ExampleMapSeq() {
	naturals := func(yield func(int) bool) {
		for i := 1; yield(i); i++ {
		}
	}
	square := func(t *sched.Task, x int) int { return x * x }
	for sq := range par.MapSeq(nil, naturals, square) {
		if sq > 50 {
			break
		}
		fmt.Print(sq, " ")
	}
	fmt.Println()
	// Output: 1 4 9 16 25 36 49
}
