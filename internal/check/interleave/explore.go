package interleave

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// Program builds one fresh instance of the code under exploration. It is
// called before every execution, outside the scheduler, so it may prepare
// state with atomicx (for example, fill a queue) without scheduling points.
type Program func() Instance

// Instance is what one execution runs and checks.
type Instance struct {
	// Threads run cooperatively, exactly one at a time; each atomicx
	// operation is a point where the scheduler may switch. At most
	// MaxThreads.
	Threads []Thread
	// Check, if set, runs after every thread has finished, outside the
	// scheduler, and returns the violated property, or nil.
	Check func() error
	// Names makes the trace of a failing execution readable.
	Names Names
}

// DefaultMaxSteps bounds the scheduling points of one execution when Options
// does not say otherwise. An execution that exceeds it fails with a
// progress violation.
const DefaultMaxSteps = 2000

// Options controls an exploration.
type Options struct {
	// PreemptionBound limits an exhaustive exploration to schedules with at
	// most this many preemptions (switching away from a thread that could
	// continue). Negative means unbounded.
	PreemptionBound int
	// NoReduction turns off the partial-order reduction of an unbounded
	// exhaustive exploration, which then runs every interleaving instead of
	// one per equivalence class. (A bounded exploration never reduces: the
	// reduction is not sound under a preemption bound.)
	NoReduction bool
	// MaxExecutions stops the exploration after this many executions; 0
	// means no limit for an exhaustive exploration and 1000 for a random
	// one. An exhaustive exploration that stops early reports
	// Complete false.
	MaxExecutions int
	// Seed is the first seed of a random exploration: execution i uses
	// Seed+i, so any one of them replays with Seed set to its seed and
	// MaxExecutions 1.
	Seed uint64
	// Depth is the bug depth d of the PCT strategy: each random execution
	// has d-1 priority change points. 0 means 3.
	Depth int
	// MaxSteps bounds the scheduling points of one execution; 0 means
	// DefaultMaxSteps.
	MaxSteps int
}

// Report is the outcome of an exploration.
type Report struct {
	// Executions is the number of executions run to the end and checked
	// (including a failing one, not including the traced replay of a
	// failure).
	Executions int
	// Pruned is the number of executions the partial-order reduction cut
	// short as equivalent to explored ones.
	Pruned int
	// Complete reports that an exhaustive exploration ran every schedule
	// within the preemption bound.
	Complete bool
	// MaxSteps is the largest number of scheduling points of one execution.
	MaxSteps int
	// Failure is the first failing execution, or nil.
	Failure *Failure
}

// Exhaustive explores the schedules of p depth-first and stops at the first
// failure. With a negative opt.PreemptionBound it explores every
// interleaving up to equivalence (see Options.NoReduction); otherwise every
// schedule with at most that many preemptions.
func Exhaustive(p Program, opt Options) Report {
	exploring.Lock()
	defer exploring.Unlock()
	d := &dfs{bound: opt.PreemptionBound, reduce: opt.PreemptionBound < 0 && !opt.NoReduction}
	var r Report
	for {
		d.start()
		e := execute(p, d, opt.MaxSteps, false)
		r.MaxSteps = max(r.MaxSteps, e.steps)
		if errors.Is(e.err, errPruned) {
			r.Pruned++
		} else {
			r.Executions++
			if e.err != nil {
				r.Failure = failure(p, opt, e, r.Executions)
				return r
			}
		}
		if !d.next() {
			r.Complete = true
			return r
		}
		if opt.MaxExecutions > 0 && r.Executions+r.Pruned >= opt.MaxExecutions {
			return r
		}
	}
}

// Random runs p under the PCT strategy (Burckhardt et al., ASPLOS 2010):
// random thread priorities, the highest runnable thread runs, and at
// Depth-1 random steps the running thread drops below all others. A first
// execution without preemptions measures the length k of an execution,
// over which the change points of every later one are spread; then come
// opt.MaxExecutions executions with seeds opt.Seed, opt.Seed+1, and so on.
// Each is determined by its seed and k, so Seed set to a failing seed and
// MaxExecutions 1 replays it. It stops at the first failure.
func Random(p Program, opt Options) Report {
	exploring.Lock()
	defer exploring.Unlock()
	n := opt.MaxExecutions
	if n <= 0 {
		n = 1000
	}
	depth := opt.Depth
	if depth <= 0 {
		depth = 3
	}
	e := execute(p, &replay{}, opt.MaxSteps, false)
	r := Report{Executions: 1, MaxSteps: e.steps}
	if e.err != nil {
		r.Failure = failure(p, opt, e, r.Executions)
		return r
	}
	k := max(e.steps, 1)
	for i := 0; i < n; i++ {
		seed := opt.Seed + uint64(i)
		e := execute(p, newPCT(seed, depth, k), opt.MaxSteps, false)
		r.Executions++
		r.MaxSteps = max(r.MaxSteps, e.steps)
		if e.err != nil {
			f := failure(p, opt, e, r.Executions)
			f.Seed, f.HasSeed = seed, true
			r.Failure = f
			return r
		}
	}
	r.Complete = true
	return r
}

// Replay runs p once under schedule (as a Failure reports it; after its end
// the running thread continues while it can) and returns the outcome, with
// the trace of the execution.
func Replay(p Program, schedule string, opt Options) Report {
	exploring.Lock()
	defer exploring.Unlock()
	ids, err := parseSchedule(schedule)
	if err != nil {
		return Report{Failure: &Failure{Err: err, Schedule: schedule}}
	}
	e := execute(p, &replay{ids: ids}, opt.MaxSteps, true)
	r := Report{Executions: 1, Complete: true, MaxSteps: e.steps}
	if e.err != nil {
		r.Failure = &Failure{Err: e.err, Execution: 1, Schedule: encodeSchedule(e.schedule), Trace: e.trace.String(), Replayed: true}
	}
	return r
}

// TraceSchedule runs p once under schedule and returns its trace, whether it
// fails or not.
func TraceSchedule(p Program, schedule string, opt Options) (string, error) {
	exploring.Lock()
	defer exploring.Unlock()
	ids, err := parseSchedule(schedule)
	if err != nil {
		return "", err
	}
	e := execute(p, &replay{ids: ids}, opt.MaxSteps, true)
	return e.trace.String(), e.err
}

// execute runs one execution of p. The caller holds exploring.
func execute(p Program, s strategy, maxSteps int, trace bool) *execution {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	inst := p()
	if len(inst.Threads) > MaxThreads {
		panic(fmt.Sprintf("interleave: %d threads, at most %d", len(inst.Threads), MaxThreads))
	}
	e := &execution{strategy: s, names: inst.Names, maxSteps: maxSteps}
	if trace {
		e.trace = new(strings.Builder)
	}
	e.run(inst.Threads)
	if e.err == nil && inst.Check != nil {
		e.err = check(inst.Check)
	}
	return e
}

func check(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("check panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

// strategy decides each scheduling point: given the runnable threads (the
// one that ran last first, if it is runnable: curOK) it returns the index of
// the one to run.
type strategy interface {
	choose(e *execution, ids []int, curOK bool) (int, error)
}

// replay follows a fixed schedule, then lets the running thread continue.
type replay struct {
	ids []int
	n   int
}

func (r *replay) choose(_ *execution, ids []int, curOK bool) (int, error) {
	if r.n >= len(r.ids) {
		return 0, nil
	}
	id := r.ids[r.n]
	r.n++
	i := index(ids, id)
	if i < 0 {
		return 0, fmt.Errorf("interleave: the schedule does not fit the program: at decision %d thread %d cannot run (runnable: %v)", r.n, id, ids)
	}
	return i, nil
}

func index(ids []int, id int) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
