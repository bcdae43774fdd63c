package interleave_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/internal/check/interleave"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// cell is a shared variable whose accesses are scheduling points, as
// atomicx's are in the check build; these tests run in every build.
type cell struct{ v int }

func (c *cell) load() int {
	tr := interleave.Point(interleave.Load, c)
	if tr {
		interleave.Result(c.v)
	}
	return c.v
}

func (c *cell) store(v int) {
	tr := interleave.Point(interleave.Store, c)
	c.v = v
	if tr {
		interleave.Result(v)
	}
}

// mutex is a lock whose operations are scheduling points.
type mutex struct{}

func (m *mutex) lock() {
	interleave.Point(interleave.Lock, m)
	interleave.Acquired(m)
}

func (m *mutex) unlock() {
	interleave.Point(interleave.Unlock, m)
	interleave.Released(m)
}

var (
	unbounded = interleave.Options{PreemptionBound: -1}
	// every runs every interleaving, without the partial-order reduction.
	every = interleave.Options{PreemptionBound: -1, NoReduction: true}
)

// counter is two or more threads incrementing one cell, each with a load
// and a store, optionally under a lock: the lost update is the bug.
func counter(threads int, locked bool) interleave.Program {
	return func() interleave.Instance {
		x := new(cell)
		mu := new(mutex)
		var ts []interleave.Thread
		for i := 0; i < threads; i++ {
			ts = append(ts, interleave.Thread{Name: fmt.Sprintf("t%d", i), Run: func() {
				if locked {
					mu.lock()
				}
				x.store(x.load() + 1)
				if locked {
					mu.unlock()
				}
			}})
		}
		return interleave.Instance{
			Threads: ts,
			Check: func() error {
				if x.v != threads {
					return fmt.Errorf("lost update: counter is %d, want %d", x.v, threads)
				}
				return nil
			},
			Names: interleave.Names{Object: func(obj any) string {
				switch obj {
				case x:
					return "x"
				case mu:
					return "mu"
				}
				return ""
			}},
		}
	}
}

// steps is threads running n scheduling points each and checking nothing:
// loads of a cell of their own.
func steps(n ...int) interleave.Program { return access(false, false, n...) }

// access is threads running n scheduling points each: loads or stores, of
// a cell of their own or of one shared cell.
func access(shared, store bool, n ...int) interleave.Program {
	return func() interleave.Instance {
		var ts []interleave.Thread
		common := new(cell)
		for i, k := range n {
			c := new(cell)
			if shared {
				c = common
			}
			ts = append(ts, interleave.Thread{Name: fmt.Sprint(i), Run: func() {
				for j := 0; j < k; j++ {
					if store {
						c.store(j)
					} else {
						c.load()
					}
				}
			}})
		}
		return interleave.Instance{Threads: ts}
	}
}

// The exhaustive exploration runs every interleaving exactly once: their
// number is the multinomial coefficient of the threads' step counts.
func TestExhaustiveCounts(t *testing.T) {
	for _, c := range []struct {
		steps []int
		want  int
	}{
		{[]int{1}, 1},
		{[]int{2, 2}, 6},          // 4!/(2!2!)
		{[]int{3, 2}, 10},         // 5!/(3!2!)
		{[]int{1, 1, 1}, 6},       // 3!
		{[]int{2, 1, 1}, 12},      // 4!/2!
		{[]int{3, 3, 2}, 560},     // 8!/(3!3!2!)
		{[]int{0, 2}, 1},          // a thread without scheduling points
		{[]int{4, 4}, 70},         // 8!/(4!4!)
		{[]int{2, 2, 2, 2}, 2520}, // 8!/2⁴
	} {
		r := interleave.Exhaustive(steps(c.steps...), every)
		require.Nil(t, r.Failure)
		assert.True(t, r.Complete)
		assert.Equal(t, c.want, r.Executions, "steps %v", c.steps)
	}
}

// With a preemption bound of 0 a thread runs until it finishes: the
// executions are the orders in which the threads run.
func TestPreemptionBound(t *testing.T) {
	r := interleave.Exhaustive(steps(3, 3, 3), interleave.Options{PreemptionBound: 0})
	assert.True(t, r.Complete)
	assert.Equal(t, 6, r.Executions)
	// One preemption: 2 threads of 2 steps; all but ABAB and BABA, which
	// need two preemptions... and ABBA, BAAB need one each.
	r = interleave.Exhaustive(steps(2, 2), interleave.Options{PreemptionBound: 1})
	assert.Equal(t, 4, r.Executions) // AABB, ABBA, BBAA, BAAB
	r = interleave.Exhaustive(steps(2, 2), interleave.Options{PreemptionBound: 2})
	assert.Equal(t, 6, r.Executions)
	r = interleave.Exhaustive(steps(3, 3), interleave.Options{MaxExecutions: 5, PreemptionBound: -1, NoReduction: true})
	assert.False(t, r.Complete)
	assert.Equal(t, 5, r.Executions)
}

// The reduction runs one execution per equivalence class: one for threads
// that touch nothing in common or only read, every order of the writes for
// threads that write one variable.
func TestReductionCounts(t *testing.T) {
	for _, c := range []struct {
		shared, store bool
		steps         []int
		want          int
	}{
		{false, true, []int{3, 3, 2}, 1},
		{true, false, []int{3, 3, 2}, 1},
		{true, true, []int{1, 1}, 2},
		{true, true, []int{2, 2}, 6},
		{true, true, []int{2, 1, 1}, 12},
	} {
		r := interleave.Exhaustive(access(c.shared, c.store, c.steps...), unbounded)
		require.Nil(t, r.Failure)
		assert.True(t, r.Complete)
		assert.Equal(t, c.want, r.Executions, "%+v", c)
		t.Logf("%+v: %d executions, %d pruned", c, r.Executions, r.Pruned)
	}
}

// The reduction finds every bug the full enumeration finds, in programs
// where independent work surrounds the racy part.
func TestReductionFindsBugs(t *testing.T) {
	for name, p := range map[string]interleave.Program{
		"lost update":        counter(2, false),
		"lost update of 3":   counter(3, false),
		"lost update, noisy": noisyCounter(),
	} {
		full := interleave.Exhaustive(p, every)
		red := interleave.Exhaustive(p, unbounded)
		require.NotNil(t, full.Failure, name)
		require.NotNil(t, red.Failure, name)
		assert.Equal(t, full.Failure.Err.Error(), red.Failure.Err.Error(), name)
		t.Logf("%s: found after %d executions (%d without reduction)", name, red.Executions, full.Executions)
	}
	// And passes what passes, with fewer executions.
	full := interleave.Exhaustive(counter(3, true), every)
	red := interleave.Exhaustive(counter(3, true), unbounded)
	require.Nil(t, full.Failure)
	require.Nil(t, red.Failure)
	assert.LessOrEqual(t, red.Executions, full.Executions)
}

// noisyCounter is the lost update with each thread also doing work on
// private cells before, between and after its load and store.
func noisyCounter() interleave.Program {
	return func() interleave.Instance {
		x := new(cell)
		var ts []interleave.Thread
		for i := 0; i < 2; i++ {
			own := new(cell)
			ts = append(ts, interleave.Thread{Name: fmt.Sprintf("t%d", i), Run: func() {
				own.store(1)
				v := x.load()
				own.store(own.load() + v)
				x.store(v + 1)
				own.load()
			}})
		}
		return interleave.Instance{Threads: ts, Check: func() error {
			if x.v != 2 {
				return fmt.Errorf("lost update: counter is %d, want 2", x.v)
			}
			return nil
		}}
	}
}

func TestLostUpdateFound(t *testing.T) {
	r := interleave.Exhaustive(counter(2, false), unbounded)
	require.NotNil(t, r.Failure)
	f := r.Failure
	assert.True(t, f.Replayed)
	assert.ErrorContains(t, f.Err, "lost update: counter is 1, want 2")
	s := f.String()
	t.Logf("the counterexample, as the checker prints it:\n%s", s)
	// Both threads loaded 0 before either stored.
	assert.Contains(t, s, "t0       x.Load() = 0")
	assert.Contains(t, s, "t1       x.Load() = 0")
	assert.Contains(t, s, "x.Store(1)")
	assert.Equal(t, 2, strings.Count(s, "x.Store(1)"))

	// The schedule replays the failure.
	rr := interleave.Replay(counter(2, false), f.Schedule, unbounded)
	require.NotNil(t, rr.Failure)
	assert.Equal(t, f.Err.Error(), rr.Failure.Err.Error())
	assert.Equal(t, f.Trace, rr.Failure.Trace)
}

// A failure whose message prints a pointer still counts as replayed: each
// execution builds a fresh instance, so the address differs between the
// failing run and its traced replay.
func TestReplayIgnoresAddresses(t *testing.T) {
	inner := counter(2, false)
	p := func() interleave.Instance {
		inst := inner()
		check := inst.Check
		where := new(cell)
		inst.Check = func() error {
			if err := check(); err != nil {
				return fmt.Errorf("%w (instance at %p)", err, where)
			}
			return nil
		}
		return inst
	}
	r := interleave.Exhaustive(p, unbounded)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "instance at 0x")
	assert.True(t, r.Failure.Replayed)
}

func TestLockedCounterPasses(t *testing.T) {
	r := interleave.Exhaustive(counter(3, true), unbounded)
	require.Nil(t, r.Failure, "%v", r.Failure)
	assert.True(t, r.Complete)
	// Each thread's critical section runs as a block once it holds the
	// lock: the executions are the 3! orders of the sections, interleaved
	// with the other threads' first Lock points (which wait or run first).
	assert.Positive(t, r.Executions)
	t.Logf("locked counter, 3 threads: %d executions", r.Executions)
}

func TestRandomFindsAndReplaysBySeed(t *testing.T) {
	r := interleave.Random(counter(3, false), interleave.Options{MaxExecutions: 200, Seed: 1})
	require.NotNil(t, r.Failure)
	f := r.Failure
	require.True(t, f.HasSeed)
	// Running from the failing seed alone fails at once, the same way.
	again := interleave.Random(counter(3, false), interleave.Options{MaxExecutions: 1, Seed: f.Seed})
	require.NotNil(t, again.Failure)
	assert.Equal(t, f.Schedule, again.Failure.Schedule)
	assert.Equal(t, f.Trace, again.Failure.Trace)

	r = interleave.Random(counter(3, true), interleave.Options{MaxExecutions: 200, Seed: 1})
	assert.Nil(t, r.Failure)
	assert.Equal(t, 201, r.Executions, "the calibration execution and 200 seeds")
	assert.True(t, r.Complete)
}

func TestDeadlockFound(t *testing.T) {
	p := func() interleave.Instance {
		a, b := new(mutex), new(mutex)
		return interleave.Instance{Threads: []interleave.Thread{
			{Name: "ab", Run: func() { a.lock(); b.lock(); b.unlock(); a.unlock() }},
			{Name: "ba", Run: func() { b.lock(); a.lock(); a.unlock(); b.unlock() }},
		}}
	}
	r := interleave.Exhaustive(p, unbounded)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "deadlock: no thread can run; ab waits to Lock")
	assert.True(t, r.Failure.Replayed)
}

func TestPanicFound(t *testing.T) {
	p := func() interleave.Instance {
		x := new(cell)
		return interleave.Instance{Threads: []interleave.Thread{
			{Name: "setter", Run: func() { x.store(1); x.store(0) }},
			{Name: "checker", Run: func() {
				if x.load() == 1 {
					panic("saw the transient 1")
				}
			}},
		}}
	}
	r := interleave.Exhaustive(p, unbounded)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "checker panicked: saw the transient 1")
	assert.Contains(t, r.Failure.Trace, "panic: saw the transient 1")
	assert.Equal(t, 2, r.Failure.Execution)
}

// A thread that waits for another by spinning is caught by the step bound.
func TestNoProgressFound(t *testing.T) {
	p := func() interleave.Instance {
		flag := new(cell)
		return interleave.Instance{Threads: []interleave.Thread{
			{Name: "setter", Run: func() { flag.load(); flag.store(1) }},
			{Name: "spinner", Run: func() {
				for flag.load() == 0 {
				}
			}},
		}}
	}
	r := interleave.Exhaustive(p, interleave.Options{PreemptionBound: -1, MaxSteps: 50})
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "no progress")
	assert.True(t, r.Failure.Replayed)
	// The spinner's long run is written compactly, and replays.
	assert.Regexp(t, `^[01]* ?1\*\d+$`, r.Failure.Schedule)
	rr := interleave.Replay(p, r.Failure.Schedule, interleave.Options{MaxSteps: 50})
	require.NotNil(t, rr.Failure)
	assert.Equal(t, r.Failure.Err.Error(), rr.Failure.Err.Error())
	assert.Equal(t, strings.Count(r.Failure.Trace, "\n"), strings.Count(rr.Failure.Trace, "\n"))
}

// Begin and End give each operation the tightest interval around its
// scheduling points, on the execution's clock.
func TestOpTicks(t *testing.T) {
	var calls, rets [2]int64
	p := func() interleave.Instance {
		x := new(cell)
		var ts []interleave.Thread
		for i := range 2 {
			ts = append(ts, interleave.Thread{Name: fmt.Sprint(i), Run: func() {
				op := interleave.Begin("inc")
				x.store(x.load() + 1)
				calls[i], rets[i] = op.End("done")
			}})
		}
		return interleave.Instance{Threads: ts}
	}
	// Schedule 0,1,1,0: thread 0 loads, thread 1 loads and stores, thread
	// 0 stores (then each finishes).
	out, err := interleave.TraceSchedule(p, "0110", unbounded)
	require.NoError(t, err)
	t.Logf("trace:\n%s", out)
	// ticks: 1 load(0), 2 load(1), 3 store(1), 4 End(1), 5 store(0), 6 End(0).
	assert.Equal(t, [2]int64{1, 2}, calls)
	assert.Equal(t, [2]int64{6, 4}, rets)
	assert.Contains(t, out, "call inc")
	assert.Contains(t, out, "return done")

	// Outside an execution the scheduler is inert.
	op := interleave.Begin("x")
	c, r := op.End("y")
	assert.Zero(t, c)
	assert.Zero(t, r)
	assert.False(t, interleave.Point(interleave.Load, new(cell)))
}

func TestScheduleMismatch(t *testing.T) {
	r := interleave.Replay(steps(1, 1), "2", unbounded)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "schedule does not fit")
	r = interleave.Replay(steps(1, 1), "0!", unbounded)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "bad schedule character")
}

// outcomes explores p and returns the set of outcomes its executions
// reported through record.
func outcomes(t *testing.T, p func(record func(string)) interleave.Program, opt interleave.Options) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	r := interleave.Exhaustive(p(func(o string) { seen[o] = true }), opt)
	require.Nil(t, r.Failure)
	require.True(t, r.Complete)
	return seen
}

// randomProgram is threads of random loads and stores of two shared cells;
// an execution's outcome is every value a load returned and the final cells.
func randomProgram(rng *rand.Rand) func(record func(string)) interleave.Program {
	type op struct {
		store bool
		cell  int
		v     int
	}
	threads := make([][]op, 2+rng.IntN(2))
	for i := range threads {
		for j := 0; j < 1+rng.IntN(3); j++ {
			threads[i] = append(threads[i], op{rng.IntN(2) == 0, rng.IntN(2), 1 + rng.IntN(3)})
		}
	}
	return func(record func(string)) interleave.Program {
		return func() interleave.Instance {
			cells := []*cell{new(cell), new(cell)}
			seen := make([][]int, len(threads))
			var ts []interleave.Thread
			for i, ops := range threads {
				ts = append(ts, interleave.Thread{Name: fmt.Sprint(i), Run: func() {
					for _, o := range ops {
						if o.store {
							cells[o.cell].store(o.v)
						} else {
							seen[i] = append(seen[i], cells[o.cell].load())
						}
					}
				}})
			}
			return interleave.Instance{Threads: ts, Check: func() error {
				record(fmt.Sprint(seen, cells[0].v, cells[1].v))
				return nil
			}}
		}
	}
}

// The reduction runs at least one execution of every equivalence class, so
// it sees every outcome the full enumeration sees. The first program is the
// smallest known to need backtracking past a sleeping thread: t0 stores x;
// t1 and t2 each load x and then store y. Its outcome "t1 saw 1, t2 saw 0,
// y = 2" needs t2's load before t0's store and t1's after, with t1's store
// first.
func TestReductionSeesEveryOutcome(t *testing.T) {
	sleeping := func(record func(string)) interleave.Program {
		return func() interleave.Instance {
			x, y := new(cell), new(cell)
			var r1, r2 int
			return interleave.Instance{
				Threads: []interleave.Thread{
					{Name: "t0", Run: func() { x.store(1) }},
					{Name: "t1", Run: func() { r1 = x.load(); y.store(1) }},
					{Name: "t2", Run: func() { r2 = x.load(); y.store(2) }},
				},
				Check: func() error { record(fmt.Sprint(r1, r2, y.v)); return nil },
			}
		}
	}
	full, red := outcomes(t, sleeping, every), outcomes(t, sleeping, unbounded)
	assert.Len(t, full, 8)
	assert.Equal(t, full, red)

	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		p := randomProgram(rng)
		full, red := outcomes(t, p, every), outcomes(t, p, unbounded)
		require.Equal(t, full, red, "random program %d", i)
	}
}
