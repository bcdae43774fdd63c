package par_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/schedtest"
	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// TestForEveryIndexOnce runs each loop function over ranges of several
// sizes, cheap and uneven, on pools of each kind, and checks that every
// index is visited exactly once, each chunk within the range.
func TestForEveryIndexOnce(t *testing.T) {
	// The quick size, 10,000, still splits each loop many levels deep on
	// every pool and ends in an uneven tail of 625 slow indices to balance.
	sizes := []int{0, 1, 2, 3, 100, 4097, testenv.Size(50_000, 10_000, 200_000)}
	loops := map[string]func(t *sched.Task, n int, c schedtest.Counter) error{
		"For": func(t *sched.Task, n int, c schedtest.Counter) error {
			par.For(t, n, func(_ *sched.Task, i int) { c[i].Add(1); schedtest.Uneven(i, n) })
			return nil
		},
		"ForRange": func(t *sched.Task, n int, c schedtest.Counter) error {
			var bad atomic.Int32
			par.ForRange(t, n, func(_ *sched.Task, lo, hi int) {
				if lo < 0 || lo >= hi || hi > n {
					bad.Add(1)
					return
				}
				for i := lo; i < hi; i++ {
					c[i].Add(1)
					schedtest.Uneven(i, n)
				}
			})
			if bad.Load() != 0 {
				return fmt.Errorf("%d chunks out of [0, %d) or empty", bad.Load(), n)
			}
			return nil
		},
		"ForErr": func(t *sched.Task, n int, c schedtest.Counter) error {
			return par.ForErr(t, n, func(_ *sched.Task, i int) error { c[i].Add(1); schedtest.Uneven(i, n); return nil })
		},
		"ForRangeErr": func(t *sched.Task, n int, c schedtest.Counter) error {
			return par.ForRangeErr(t, n, func(_ *sched.Task, lo, hi int) error {
				for i := lo; i < hi; i++ {
					c[i].Add(1)
					schedtest.Uneven(i, n)
				}
				return nil
			})
		},
		"Grain=7": func(t *sched.Task, n int, c schedtest.Counter) error {
			par.Loop{Grain: 7}.ForRange(t, n, func(_ *sched.Task, lo, hi int) {
				for i := lo; i < hi; i++ {
					c[i].Add(1)
					schedtest.Uneven(i, n)
				}
			})
			return nil
		},
		"Grain=-3": func(t *sched.Task, n int, c schedtest.Counter) error {
			par.Loop{Grain: -3}.For(t, n, func(_ *sched.Task, i int) { c[i].Add(1) })
			return nil
		},
		"Map": func(t *sched.Task, n int, c schedtest.Counter) error {
			in := make([]int, n)
			for i := range in {
				in[i] = i
			}
			out := par.Map(t, in, func(_ *sched.Task, i int) int { c[i].Add(1); schedtest.Uneven(i, n); return 3 * i })
			for i, v := range out {
				if v != 3*i {
					return fmt.Errorf("Map: out[%d] = %d", i, v)
				}
			}
			if len(out) != n {
				return fmt.Errorf("Map: %d results of %d", len(out), n)
			}
			return nil
		},
	}
	for name, p := range schedtest.LoopPools(t) {
		for lname, loop := range loops {
			for _, n := range sizes {
				c := make(schedtest.Counter, n)
				require.NoError(t, p.Do(ctx, func(t *sched.Task) error { return loop(t, n, c) }), "%s %s n=%d", name, lname, n)
				c.Check(t, fmt.Sprintf("%s %s n=%d", name, lname, n))
			}
		}
	}
}

// TestForSplits checks that a loop of costly indices on idle workers
// splits into parts, and still visits each index once.
func TestForSplits(t *testing.T) {
	for _, mode := range schedtest.Modes() {
		p, err := sched.NewPool(sched.PoolConfig{Workers: 4, Mode: mode})
		require.NoError(t, err)
		const n = 400
		var mu sync.Mutex
		byWorker := map[int][]int{}
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			// The other workers must have started to look: on a loaded
			// machine their goroutines may not have run yet.
			for deadline := time.Now().Add(10 * time.Second); t.Demand() == 0; runtime.Gosched() {
				if time.Now().After(deadline) {
					return errors.New("no worker looked for work in 10 s")
				}
			}
			par.For(t, n, func(t *sched.Task, i int) {
				schedtest.SpinFor(20 * time.Microsecond) // more than a chunk's time: each index may split
				mu.Lock()
				byWorker[t.WorkerID()] = append(byWorker[t.WorkerID()], i)
				mu.Unlock()
			})
			return nil
		}))
		st := p.Close()
		// Do's task and the loop's, then at least one part: the other
		// workers look, or park, which counts as looking.
		assert.Greater(t, st.Processed, int64(2), "%v: the loop forked no part", mode)
		var all []int
		for _, is := range byWorker {
			all = append(all, is...)
		}
		slices.Sort(all)
		assert.Equal(t, n, len(slices.Compact(all)), "%v: distinct indices", mode)
		assert.Len(t, all, n, "%v", mode)
	}
}

// TestLoopNested runs loops three deep, and a loop inside a Fork inside a
// loop, and checks every index of every level once.
func TestLoopNested(t *testing.T) {
	const a, b, c = 7, 13, 300
	for name, p := range schedtest.LoopPools(t) {
		cnt := make(schedtest.Counter, a*b*c)
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			par.For(t, a, func(t *sched.Task, i int) {
				par.ForRange(t, b, func(t *sched.Task, jlo, jhi int) {
					for j := jlo; j < jhi; j++ {
						par.For(t, c, func(_ *sched.Task, k int) {
							idx := (i*b+j)*c + k
							cnt[idx].Add(1)
							schedtest.Uneven(idx, a*b*c)
						})
					}
				})
			})
			return nil
		}), name)
		cnt.Check(t, name+": three deep")

		cnt = make(schedtest.Counter, a*c)
		require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
			par.For(t, a, func(t *sched.Task, i int) {
				f := sched.ForkFunc(t, func(t *sched.Task, i int) {
					par.For(t, c, func(_ *sched.Task, k int) {
						cnt[i*c+k].Add(1)
						schedtest.Uneven(k, c)
					})
				}, i)
				f.Join(t)
			})
			return nil
		}), name)
		cnt.Check(t, name+": a loop in a Fork in a loop")
	}
}

// TestLoopEdges checks the answers at the edges: nothing for n <= 0, one
// call for n = 1, chunks in range for n = math.MaxInt, and the panics of a
// nil body.
func TestLoopEdges(t *testing.T) {
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4})
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		for _, n := range []int{0, -1, math.MinInt} {
			par.For(t, n, func(*sched.Task, int) { panic("called") })
			par.ForRange(t, n, func(*sched.Task, int, int) { panic("called") })
			if err := par.ForErr(t, n, func(*sched.Task, int) error { panic("called") }); err != nil {
				return err
			}
			if r := par.Reduce(t, n, 42, func(*sched.Task, int) int { panic("called") }, func(x, y int) int { panic("called") }); r != 42 {
				return fmt.Errorf("Reduce of n=%d: %d, want the identity", n, r)
			}
		}
		calls := 0
		par.ForRange(t, 1, func(_ *sched.Task, lo, hi int) {
			calls++
			if lo != 0 || hi != 1 {
				panic(fmt.Sprint("n=1: chunk ", lo, hi))
			}
		})
		if calls != 1 {
			return fmt.Errorf("n=1: %d calls", calls)
		}
		return nil
	}))

	// n = math.MaxInt: the chunks stay in range as the loop splits, until
	// the body stops it. A grain of math.MaxInt gives one chunk.
	var chunks, bad atomic.Int64
	stop := errors.New("stop")
	err := p.Do(ctx, func(t *sched.Task) error {
		return par.ForRangeErr(t, math.MaxInt, func(_ *sched.Task, lo, hi int) error {
			if lo < 0 || hi <= lo {
				bad.Add(1)
			}
			schedtest.SpinFor(20 * time.Microsecond) // costly: the parts split
			if chunks.Add(1) == 200 {
				return stop
			}
			return nil
		})
	})
	assert.ErrorIs(t, err, stop)
	assert.Zero(t, bad.Load(), "chunks out of range")
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		calls := 0
		return par.Loop{Grain: math.MaxInt}.ForRangeErr(t, math.MaxInt, func(_ *sched.Task, lo, hi int) error {
			calls++
			if calls != 1 || lo != 0 || hi != math.MaxInt {
				return fmt.Errorf("grain MaxInt: call %d, chunk [%d, %d)", calls, lo, hi)
			}
			return nil
		})
	}))

	// The blocks of a reduction of math.MaxInt indices cover them, in
	// order, without overflow.
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		type span struct{ lo, hi int }
		spans := par.ReduceRange(t, math.MaxInt, []span(nil),
			func(_ *sched.Task, lo, hi int) []span { return []span{{lo, hi}} },
			func(x, y []span) []span { return append(slices.Clip(x), y...) })
		if len(spans) != 4096 {
			return fmt.Errorf("%d blocks of math.MaxInt", len(spans))
		}
		at := 0
		for _, s := range spans {
			if s.lo != at || s.hi <= s.lo {
				return fmt.Errorf("block [%d, %d) after %d", s.lo, s.hi, at)
			}
			at = s.hi
		}
		if at != math.MaxInt {
			return fmt.Errorf("the blocks end at %d", at)
		}
		return nil
	}))

	// Nil functions panic, before they call anything. (A nil Task runs
	// the loop on the default pool: see TestNilTaskLoops.)
	err = p.Do(ctx, func(t *sched.Task) error {
		for name, f := range map[string]func(){
			"For":            func() { par.For(t, 3, nil) },
			"ForRange":       func() { par.ForRange(t, 3, nil) },
			"ForErr":         func() { _ = par.ForErr(t, 3, nil) },
			"ForRangeErr":    func() { _ = par.ForRangeErr(t, 0, nil) },
			"Map":            func() { par.Map[int, int](t, nil, nil) },
			"MapErr":         func() { _, _ = par.MapErr[int, int](t, nil, nil) },
			"Reduce":         func() { par.Reduce(t, 3, 0, nil, func(x, y int) int { return x }) },
			"ReduceRange":    func() { par.ReduceRange(t, 3, 0, func(*sched.Task, int, int) int { return 0 }, nil) },
			"SortFunc":       func() { par.SortFunc(t, []int{2, 1}, nil) },
			"SortStableFunc": func() { par.SortStableFunc[[]int](t, nil, nil) },
		} {
			msg := "par: " + name + " with a nil function"
			if !panicsWith(f, msg) {
				return fmt.Errorf("%s with a nil function: no panic %q", name, msg)
			}
		}
		return nil
	})
	require.NoError(t, err)

	// A nil slice maps to nil, an empty one to an empty one.
	require.NoError(t, p.Do(ctx, func(t *sched.Task) error {
		double := func(_ *sched.Task, x int) int { return 2 * x }
		if out := par.Map(t, []int(nil), double); out != nil {
			return fmt.Errorf("Map(nil) = %#v", out)
		}
		if out := par.Map(t, []int{}, double); out == nil || len(out) != 0 {
			return fmt.Errorf("Map([]int{}) = %#v", out)
		}
		if out, err := par.MapErr(t, []int(nil), func(_ *sched.Task, x int) (int, error) { return x, nil }); out != nil || err != nil {
			return fmt.Errorf("MapErr(nil) = %#v, %v", out, err)
		}
		par.Sort(t, []int(nil))
		par.SortFunc(t, []int(nil), func(a, b int) int { return a - b })
		par.SortStableFunc(t, []int{}, func(a, b int) int { return a - b })
		return nil
	}))
}

// panicsWith reports whether f panics with the value v.
func panicsWith(f func(), v any) (ok bool) {
	defer func() { ok = recover() == v }()
	f()
	return false
}

// TestLoopPanics checks that a body's panic reaches the caller as a
// *PanicError, from every loop function, and that a panic at the first
// index stops the loop's first part: none of its other indices runs. The
// loop may split before its first chunk, when workers look for work, and
// keeps at least 1/workers of the range in its first part; the parts it
// forked may run chunks before they see the stop.
func TestLoopPanics(t *testing.T) {
	for name, p := range schedtest.LoopPools(t) {
		const n = 100_000
		first := n / p.Workers() // the first part holds [0, first) at least
		var ran, ranFirst atomic.Int64
		body := func(i int) {
			if i == 0 {
				panic("boom")
			}
			ran.Add(1)
			if i < first {
				ranFirst.Add(1)
			}
		}
		loops := map[string]func(t *sched.Task){
			"For":      func(t *sched.Task) { par.For(t, n, func(_ *sched.Task, i int) { body(i) }) },
			"ForRange": func(t *sched.Task) { par.ForRange(t, n, func(_ *sched.Task, lo, hi int) { body(lo) }) },
			"ForErr": func(t *sched.Task) {
				_ = par.ForErr(t, n, func(_ *sched.Task, i int) error { body(i); return nil })
			},
			"Map": func(t *sched.Task) {
				par.Map(t, make([]int, n), func(_ *sched.Task, x int) int { body(x); return x })
			},
			"Reduce": func(t *sched.Task) {
				par.Reduce(t, n, 0, func(_ *sched.Task, i int) int { body(i); return i }, func(x, y int) int { return x + y })
			},
			"SortFunc": func(t *sched.Task) {
				xs := make([]int, n)
				for i := range xs {
					xs[i] = n - i
				}
				par.SortFunc(t, xs, func(a, b int) int { body(0); return a - b })
			},
		}
		for lname, loop := range loops {
			ran.Store(0)
			ranFirst.Store(0)
			var pe *sched.PanicError
			func() {
				defer func() { pe, _ = recover().(*sched.PanicError) }()
				_ = p.Do(ctx, func(t *sched.Task) error {
					func() {
						defer func() {
							// The loop's own caller sees the PanicError.
							if v := recover(); v != nil {
								if _, ok := v.(*sched.PanicError); !ok {
									panic(fmt.Sprintf("a raw panic: %v", v))
								}
								panic(v)
							}
						}()
						loop(t)
					}()
					return nil
				})
			}()
			require.NotNil(t, pe, "%s %s", name, lname)
			assert.Equal(t, "boom", pe.Value, "%s %s", name, lname)
			if lname != "SortFunc" {
				assert.Zero(t, ranFirst.Load(), "%s %s: indices of the first part ran after its first index panicked", name, lname)
			}
		}
	}
}

// TestLoopGoexit checks that runtime.Goexit in a body ends the goroutine
// that called Do, as it would in a plain loop, and stops the loop's first
// part (see TestLoopPanics).
func TestLoopGoexit(t *testing.T) {
	const workers, n = 2, 1000
	p := schedtest.NewPool(t, sched.PoolConfig{Workers: workers})
	var ran atomic.Int64
	returned := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = p.Do(ctx, func(t *sched.Task) error {
			par.For(t, n, func(_ *sched.Task, i int) {
				if i == 0 {
					runtime.Goexit()
				}
				if i < n/workers {
					ran.Add(1)
				}
			})
			return nil
		})
		returned = true
	}()
	<-done
	assert.False(t, returned, "Do returned after a Goexit")
	assert.Zero(t, ran.Load())
}

// TestLoopErrors checks errgroup's contract: the first error stops the
// loop and is returned; a cancelled context stops it with its cause. An
// error at the first index stops the loop's first part (see
// TestLoopPanics).
func TestLoopErrors(t *testing.T) {
	for name, p := range schedtest.LoopPools(t) {
		const n = 100_000
		first := n / p.Workers()
		errFirst := errors.New("first")
		var ran atomic.Int64
		err := p.Do(ctx, func(t *sched.Task) error {
			return par.ForErr(t, n, func(_ *sched.Task, i int) error {
				if i == 0 {
					return errFirst
				}
				if i < first {
					ran.Add(1)
				}
				return nil
			})
		})
		assert.ErrorIs(t, err, errFirst, name)
		assert.Zero(t, ran.Load(), "%s: indices of the first part ran after its first failed", name)

		// Several errors: one of them is returned, and the loop stops.
		ran.Store(0)
		err = p.Do(ctx, func(t *sched.Task) error {
			return par.ForRangeErr(t, n, func(_ *sched.Task, lo, hi int) error {
				for i := lo; i < hi; i++ {
					schedtest.Uneven(i, n)
					if i%1000 == 999 {
						return fmt.Errorf("index %d", i)
					}
					ran.Add(1)
				}
				return nil
			})
		})
		require.Error(t, err, name)
		var at int
		_, scanErr := fmt.Sscanf(err.Error(), "index %d", &at)
		require.NoError(t, scanErr, name)
		assert.Equal(t, 999, at%1000, name)
		assert.Less(t, ran.Load(), int64(n), name)

		err = p.Do(ctx, func(t *sched.Task) error {
			res, err := par.MapErr(t, make([]int, 1000), func(_ *sched.Task, x int) (int, error) { return 0, errFirst })
			if res != nil {
				return fmt.Errorf("MapErr returned %d results with its error", len(res))
			}
			return err
		})
		assert.ErrorIs(t, err, errFirst, name)

		// A context cancelled before: no call. During: the loop stops.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		err = p.Do(cctx, func(t *sched.Task) error {
			return par.ForErr(t, n, func(*sched.Task, int) error { panic("called") })
		})
		assert.ErrorIs(t, err, context.Canceled, name)

		cctx, cancelCause := context.WithCancelCause(ctx)
		cause := errors.New("enough")
		ran.Store(0)
		err = p.Do(cctx, func(t *sched.Task) error {
			return par.ForRangeErr(t, n, func(_ *sched.Task, lo, hi int) error {
				for i := lo; i < hi; i++ {
					if i == 10 {
						cancelCause(cause)
					}
					ran.Add(1)
				}
				return nil
			})
		})
		assert.ErrorIs(t, err, cause, name)
		assert.Less(t, ran.Load(), int64(n), name)
	}
}

// FuzzForRange runs ForRangeErr over fuzzed ranges, with a fuzzed grain
// and a fuzzed index at which the body fails (none when it is beyond the
// range). The chunks must stay in the range and never overlap; without a
// failure they must cover it; with one, the loop returns its error. The
// range starts at a fuzzed offset below math.MaxInt, so that its chunks
// end near it: the loop runs over n indices and the body adds the offset.
func FuzzForRange(f *testing.F) {
	f.Add(uint32(1000), int64(0), uint32(1<<19), uint64(0))
	f.Add(uint32(1), int64(5), uint32(0), uint64(1))
	f.Add(uint32(100_000), int64(-3), uint32(50_000), uint64(math.MaxInt-100_000))
	f.Add(uint32(7), int64(math.MaxInt), uint32(6), uint64(math.MaxInt-7))
	p, err := sched.NewPool(sched.PoolConfig{Workers: 3})
	if err != nil {
		f.Fatal(err)
	}
	defer p.Close()
	f.Fuzz(func(t *testing.T, n32 uint32, grain int64, failAt32 uint32, base uint64) {
		n, failAt := int(n32%(1<<18)), int(failAt32%(1<<20)) // failAt >= n: no failure
		off := int(base % uint64(math.MaxInt-n+1))           // off+n <= math.MaxInt
		c := make(schedtest.Counter, n)
		var bad atomic.Int64
		errFail := errors.New("fail")
		err := p.Do(ctx, func(t *sched.Task) error {
			return par.Loop{Grain: int(grain)}.ForRangeErr(t, n, func(_ *sched.Task, lo, hi int) error {
				if lo < 0 || lo >= hi || hi > n || off+hi < off+lo {
					bad.Add(1)
					return nil
				}
				for i := lo; i < hi; i++ {
					c[i].Add(1)
					if i == failAt {
						return errFail
					}
				}
				return nil
			})
		})
		require.Zero(t, bad.Load(), "chunks out of range")
		for i := range c {
			if v := c[i].Load(); v > 1 || v == 0 && failAt >= n {
				t.Fatalf("n=%d grain=%d: index %d visited %d times", n, grain, i, v)
			}
		}
		if failAt < n {
			require.ErrorIs(t, err, errFail)
		} else {
			require.NoError(t, err)
		}
	})
}

// TestLoopStopReachesOtherParts checks that an error or a panic in one
// part stops the parts that other workers run: each finishes the call it
// is in, and starts few more. Index 0 returns once other workers look for
// work, so that the loop splits after it, or once another part has
// started, when the loop split before it (all workers are busy then, and
// none looks). Index 1, on the loop's own
// worker, fails once another worker has started a part. The other
// workers' calls wait for the failure, then return; one that starts after
// it sleeps first, so that the failing worker gets on to stop the loop.
func TestLoopStopReachesOtherParts(t *testing.T) {
	const n = 400
	errStop := errors.New("stop")
	for _, mode := range schedtest.Modes() {
		for _, failure := range []string{"error", "panic"} {
			p := schedtest.NewPool(t, sched.PoolConfig{Workers: 4, Mode: mode})
			var started, late atomic.Int64
			var failed atomic.Bool
			body := func(t *sched.Task, i int) error {
				switch i {
				case 0:
					for deadline := time.Now().Add(time.Minute); started.Load() == 0 && t.Demand() == 0; runtime.Gosched() {
						if time.Now().After(deadline) {
							return errors.New("no other worker looked for work or took a part in a minute")
						}
					}
					schedtest.SpinFor(50 * time.Microsecond) // a rate at which the rest is worth a split
					return nil
				case 1:
					for deadline := time.Now().Add(time.Minute); started.Load() == 0; runtime.Gosched() {
						if time.Now().After(deadline) {
							return errors.New("no other worker took a part in a minute")
						}
					}
					failed.Store(true)
					if failure == "panic" {
						panic(errStop)
					}
					return errStop
				}
				if failed.Load() {
					// Late: sleep, so that the failing worker, which a
					// busy machine may not run at once, gets on to stop
					// the loop. A yield alone lets the others run most of
					// the loop first when a test run loads every core.
					late.Add(1)
					time.Sleep(time.Millisecond)
				}
				started.Add(1)
				for !failed.Load() {
					runtime.Gosched()
				}
				return nil
			}
			var err error
			func() {
				defer func() {
					if pe, ok := recover().(*sched.PanicError); ok {
						err = pe
					}
				}()
				err = p.Do(ctx, func(t *sched.Task) error { return par.ForErr(t, n, body) })
			}()
			require.ErrorIs(t, err, errStop, "%v %s", mode, failure)
			assert.Less(t, late.Load(), int64(n/2), "%v %s: the other parts went on after the %s", mode, failure, failure)
		}
	}
}
