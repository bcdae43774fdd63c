package interleave

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
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

// Failure is an execution that violated a property, with what is needed to
// understand and replay it.
type Failure struct {
	// Err is the violated property.
	Err error
	// Execution is the 1-based number of the failing execution.
	Execution int
	// Schedule is the thread chosen at each scheduling point: a string
	// for Replay.
	Schedule string
	// Seed is the seed of a failing random execution (Random only).
	Seed    uint64
	HasSeed bool
	// Trace is the failing execution replayed step by step: every
	// operation of every thread, with its operands, and the calls and
	// returns of the operations the threads report with Begin and End.
	Trace string
	// Replayed says whether the traced replay failed the same way; false
	// means the program is not deterministic under the scheduler.
	Replayed bool
}

func (f *Failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "violation: %v\n", f.Err)
	fmt.Fprintf(&b, "execution %d, schedule %s", f.Execution, f.Schedule)
	if f.HasSeed {
		fmt.Fprintf(&b, ", seed %d", f.Seed)
	}
	b.WriteString("\n")
	if !f.Replayed {
		b.WriteString("WARNING: the traced replay did not fail the same way; the program is not deterministic under the scheduler\n")
	}
	b.WriteString(" tick  thread   operation\n")
	b.WriteString(elide(f.Trace, 100, 30))
	fmt.Fprintf(&b, "violation: %v\n", firstLine(f.Err))
	return b.String()
}

// elide shortens a trace of more than head+tail lines to its first head and
// last tail lines (the whole trace is in Failure.Trace).
func elide(trace string, head, tail int) string {
	lines := strings.SplitAfter(trace, "\n")
	if len(lines) <= head+tail+1 {
		return trace
	}
	n := len(lines) - 1 // the last element is empty
	return strings.Join(lines[:head], "") +
		fmt.Sprintf("       ...      (%d lines left out)\n", n-head-tail) +
		strings.Join(lines[n-tail:], "")
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// hexAddr matches a printed pointer, which differs between two runs of the
// same schedule because every execution builds a fresh instance.
var hexAddr = regexp.MustCompile(`0x[0-9a-f]+`)

// sameFailure says whether a and b report the same failure: their first
// lines agree once pointer values are masked.
func sameFailure(a, b error) bool {
	return hexAddr.ReplaceAllString(firstLine(a), "0x?") == hexAddr.ReplaceAllString(firstLine(b), "0x?")
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

// failure describes the failing execution e and replays it with tracing.
func failure(p Program, opt Options, e *execution, n int) *Failure {
	f := &Failure{Err: e.err, Execution: n, Schedule: encodeSchedule(e.schedule)}
	ids, _ := parseSchedule(f.Schedule)
	re := execute(p, &replay{ids: ids}, opt.MaxSteps, true)
	f.Trace = re.trace.String()
	f.Replayed = re.err != nil && sameFailure(re.err, e.err)
	return f
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

// errPruned ends an execution that the partial-order reduction proves
// equivalent to one explored already.
var errPruned = errors.New("interleave: pruned by the sleep sets")

// dfs enumerates schedules depth-first. It keeps the decisions of the
// current schedule in trail; each execution replays the prefix of decisions
// that next left in trail and then, at each new decision, lets the running
// thread continue (no preemption) as long as it can.
//
// Without reduction it tries every runnable thread at every decision,
// within the preemption bound. With reduction it is the dynamic
// partial-order reduction of Flanagan and Godefroid (POPL 2005) with sleep
// sets: at each new state it finds, for every thread's next transition, the
// last transition of another thread that it depends on and does not happen
// after, and schedules the alternative at that point; sleep sets stop it
// from exploring a transition again where it commutes with what was
// explored. It explores at least one execution of every Mazurkiewicz trace
// (equivalence class of executions under reordering of independent
// transitions); all properties checked are the same on every execution of a
// trace, including the real-time order of calls and returns, which are
// dependent events.
type dfs struct {
	bound  int
	reduce bool
	trail  []decision
	n      int // decisions made in the current execution

	// Vector clocks of the current execution, for the happens-before
	// relation of the reduction: vc[j*nt:(j+1)*nt] is the clock of step j
	// (nt threads), local[j] its index among its thread's steps (from 1),
	// last[t] the index of thread t's last step, or -1.
	nt    int
	vc    []int
	local []int
	last  []int
}

type decision struct {
	ids      []int // the alternatives, in the order choose saw them
	i        int   // the one taken
	curOK    bool
	preempts int // preemptions before this decision

	// Reduction: threads (bit sets by id) to explore from here, explored
	// (or being explored) from here, and asleep here.
	backtrack, done, sleep uint64
}

func bit(id int) uint64 { return 1 << uint(id) }

func (d *dfs) start() {
	d.n = 0
	d.vc, d.local, d.last = d.vc[:0], d.local[:0], d.last[:0]
}

// threadClock returns the vector clock of thread t's last step, or nil.
func (d *dfs) threadClock(t int) []int {
	if j := d.last[t]; j >= 0 {
		return d.vc[j*d.nt : (j+1)*d.nt]
	}
	return nil
}

func (d *dfs) choose(e *execution, ids []int, curOK bool) (int, error) {
	n := d.n
	d.n++
	var sleep uint64
	if d.reduce {
		if len(d.last) == 0 {
			d.nt = len(e.threads)
			for range e.threads {
				d.last = append(d.last, -1)
			}
		}
		if n > 0 {
			d.clock(e, n-1)
			// The sleep set here: what slept or was explored at the
			// previous decision and commutes with the transition
			// taken there.
			prev := d.trail[n-1]
			cand := (prev.sleep | prev.done) &^ bit(prev.ids[prev.i])
			for q := 0; cand != 0; q++ {
				if cand&bit(q) == 0 {
					continue
				}
				cand &^= bit(q)
				if u := e.threads[q]; !u.done && !dependent(e.log[n-1].acc, u.pendingAccess()) {
					sleep |= bit(q)
				}
			}
		}
	}
	if n < len(d.trail) {
		// Replaying the prefix.
		dec := &d.trail[n]
		i := index(ids, dec.ids[dec.i])
		if i < 0 {
			return 0, fmt.Errorf("interleave: the program is not deterministic: at decision %d thread %d cannot run (runnable: %v)", n+1, dec.ids[dec.i], ids)
		}
		dec.sleep = sleep
		return i, nil
	}
	preempts := 0
	if n > 0 {
		last := d.trail[n-1]
		preempts = last.preempts
		if last.i > 0 && last.curOK {
			preempts++
		}
	}
	if d.reduce {
		d.races(e, n)
	}
	i := -1
	for j, id := range ids {
		if sleep&bit(id) == 0 {
			i = j
			break
		}
	}
	if i < 0 {
		return 0, errPruned // every runnable thread is asleep
	}
	d.trail = append(d.trail, decision{
		ids: append([]int(nil), ids...), i: i, curOK: curOK, preempts: preempts,
		backtrack: bit(ids[i]), done: bit(ids[i]), sleep: sleep,
	})
	return i, nil
}

// clock computes the vector clock of step j of the current execution.
func (d *dfs) clock(e *execution, j int) {
	s := e.log[j]
	for range d.nt {
		d.vc = append(d.vc, 0)
	}
	v := d.vc[j*d.nt:]
	copy(v, d.threadClock(s.thread))
	for i := 0; i < j; i++ {
		if e.log[i].thread != s.thread && dependent(e.log[i].acc, s.acc) {
			for k, x := range d.vc[i*d.nt : (i+1)*d.nt] {
				v[k] = max(v[k], x)
			}
		}
	}
	v[s.thread]++
	d.local = append(d.local, v[s.thread])
	d.last[s.thread] = j
}

// races adds backtracking points for the state after n decisions: for each
// live thread p, the last step i of another thread that p's next transition
// depends on and that does not happen before p's position must be tried
// with p first (or, if p could not run there or is in its sleep set, with
// every thread).
func (d *dfs) races(e *execution, n int) {
	for _, p := range e.threads {
		if p.done {
			continue
		}
		a := p.pendingAccess()
		for i := n - 1; i >= 0; i-- {
			s := e.log[i]
			if s.thread == p.id || !dependent(s.acc, a) {
				continue
			}
			if c := d.threadClock(p.id); c != nil && c[s.thread] >= d.local[i] {
				continue // step i happens before p's next transition
			}
			dec := &d.trail[i]
			if index(dec.ids, p.id) >= 0 && dec.sleep&bit(p.id) == 0 {
				dec.backtrack |= bit(p.id)
			} else {
				// p could not run there, or is asleep there (its run from
				// that point is covered elsewhere, but not its race with
				// step i): try every thread.
				for _, id := range dec.ids {
					dec.backtrack |= bit(id)
				}
			}
			break
		}
	}
}

// next moves to the next schedule: the deepest decision with an untried
// alternative is changed to it and the decisions after it are dropped. It
// reports false when there is none.
func (d *dfs) next() bool {
	for n := len(d.trail) - 1; n >= 0; n-- {
		dec := &d.trail[n]
		if d.reduce {
			todo := dec.backtrack &^ (dec.done | dec.sleep)
			for j, id := range dec.ids {
				if todo&bit(id) != 0 {
					dec.i = j
					dec.done |= bit(id)
					d.trail = d.trail[:n+1]
					return true
				}
			}
			continue
		}
		for j := dec.i + 1; j < len(dec.ids); j++ {
			p := dec.preempts
			if dec.curOK {
				p++ // j > 0: switching away from a thread that could continue
			}
			if d.bound >= 0 && p > d.bound {
				continue
			}
			dec.i = j
			d.trail = d.trail[:n+1]
			return true
		}
	}
	return false
}

func index(ids []int, id int) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
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

// pct is the PCT strategy for one execution.
type pct struct {
	rng    *rand.Rand
	depth  int
	prio   map[int]int
	change map[int]int // step -> the priority the running thread drops to
	step   int
}

func newPCT(seed uint64, depth, k int) *pct {
	rng := rand.New(rand.NewPCG(seed, 0x5eed_1e7e))
	s := &pct{rng: rng, depth: depth, prio: make(map[int]int), change: make(map[int]int)}
	for j := 1; j < depth && len(s.change) < k; {
		if at := 1 + rng.IntN(k); s.change[at] == 0 { // distinct steps
			s.change[at] = depth - j // later change points drop lower
			j++
		}
	}
	return s
}

func (s *pct) priority(id int) int {
	p, ok := s.prio[id]
	if !ok {
		// Initial priorities are at least depth, above every change
		// point's, and random among the threads.
		p = s.depth + s.rng.IntN(1<<20)
		s.prio[id] = p
	}
	return p
}

func (s *pct) choose(_ *execution, ids []int, curOK bool) (int, error) {
	s.step++
	best := func() int {
		b := 0
		for i, id := range ids {
			if s.priority(id) > s.priority(ids[b]) {
				b = i
			}
		}
		return b
	}
	i := best()
	if low, ok := s.change[s.step]; ok {
		s.prio[ids[i]] = low
		i = best()
	}
	return i, nil
}
