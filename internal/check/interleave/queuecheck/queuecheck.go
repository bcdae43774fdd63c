package queuecheck

import (
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/interleave"
	"github.com/worksteal/wsq/internal/check/queuetest"
)

// Config describes the queue implementation under check.
type Config struct {
	// New returns a new empty queue. Required.
	New func() wsq.Queue[int]
	// PushNative, if set, is the implementation's native batch push, for
	// PushNative operations: it pushes vs as PushBatch would and returns
	// how many it took.
	PushNative func(q wsq.Queue[int], vs []int) int
	// StealNative, if set, is the implementation's native bulk steal, for
	// StealNative operations: it steals as StealBatch(dst, p) would and
	// appends the stolen items to dst, oldest first.
	StealNative func(q wsq.Queue[int], dst []int, p float64) []int
	// Invariants, if set, checks the queue's internal structure when no
	// thread is using it (after the threads finish, and after the drain).
	Invariants func(q wsq.Queue[int]) error
	// Names, if set, names the queue's atomic fields and formats their
	// values in traces.
	Names func(q wsq.Queue[int]) interleave.Names
}

// OpKind is a queue operation a scenario thread performs.
type OpKind int

// The operations. The owner may push and pop; any thread may steal.
const (
	OpPush OpKind = iota + 1
	OpPushBatch
	OpPushNative
	OpPop
	OpSteal
	OpStealBatch
	OpStealNative
)

// Op is one operation of a scenario thread. Pushed values are assigned by
// the harness: consecutive integers in the owner's program order, after
// the prefill, so every item is unique.
type Op struct {
	Kind OpKind
	N    int     // items pushed by PushBatch and PushNative
	P    float64 // proportion of StealBatch and StealNative
}

// Push returns a Push operation.
func Push() Op { return Op{Kind: OpPush, N: 1} }

// PushBatch returns a PushBatch of n items.
func PushBatch(n int) Op { return Op{Kind: OpPushBatch, N: n} }

// PushNative returns a native batch push of n items.
func PushNative(n int) Op { return Op{Kind: OpPushNative, N: n} }

// Pop returns a Pop operation.
func Pop() Op { return Op{Kind: OpPop} }

// Steal returns a Steal operation.
func Steal() Op { return Op{Kind: OpSteal} }

// StealBatch returns a StealBatch of proportion p.
func StealBatch(p float64) Op { return Op{Kind: OpStealBatch, P: p} }

// StealNative returns a native bulk steal of proportion p.
func StealNative(p float64) Op { return Op{Kind: OpStealNative, P: p} }

func (o Op) String() string {
	switch o.Kind {
	case OpPush:
		return "Push"
	case OpPushBatch:
		return fmt.Sprintf("PushBatch(%d)", o.N)
	case OpPushNative:
		return fmt.Sprintf("PushNative(%d)", o.N)
	case OpPop:
		return "Pop"
	case OpSteal:
		return "Steal"
	case OpStealBatch:
		return fmt.Sprintf("StealBatch(%v)", o.P)
	case OpStealNative:
		return fmt.Sprintf("StealNative(%v)", o.P)
	}
	return fmt.Sprintf("Op(%d)", o.Kind)
}

// Unbounded is the Bound of an exhaustive exploration of every schedule.
const Unbounded = -1

// Scenario is a small concurrent test: a queue prefilled with items 1..Prefill
// by one PushBatch, an owner thread and thief threads each running a
// sequence of operations, explored exhaustively (with preemption bound
// Bound, so a zero Scenario allows none; Unbounded for every schedule) or at
// random.
type Scenario struct {
	Name    string
	Prefill int
	Owner   []Op
	Thieves [][]Op
	// Bound is the preemption bound of the exhaustive exploration
	// (Unbounded for none).
	Bound int
	// Random, if positive, explores the scenario with this many PCT
	// executions instead, from seed Seed with depth Depth (0 means 3).
	Random int
	Seed   uint64
	Depth  int
	// MaxSteps bounds the scheduling points of one execution; 0 means
	// interleave.DefaultMaxSteps.
	MaxSteps int
	// NoReduction turns off the partial-order reduction of an unbounded
	// exhaustive exploration (to validate it: both must see the same
	// histories).
	NoReduction bool
}

func (s Scenario) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "prefill %d; owner %v", s.Prefill, s.Owner)
	for i, th := range s.Thieves {
		fmt.Fprintf(&b, "; thief%d %v", i+1, th)
	}
	return b.String()
}

func (s Scenario) options() interleave.Options {
	return interleave.Options{
		PreemptionBound: s.Bound, MaxExecutions: s.Random, Seed: s.Seed, Depth: s.Depth, MaxSteps: s.MaxSteps,
		NoReduction: s.NoReduction,
	}
}

// Result is the outcome of exploring one scenario.
type Result struct {
	interleave.Report
	// Histories is the number of distinct histories porcupine checked
	// (equal histories of different executions are checked once), and
	// HistoryDigest a digest of the set of them.
	Histories     int
	HistoryDigest uint64
	Elapsed       time.Duration
}

// Describe says what was explored, for logs.
func (r Result) Describe(s Scenario) string {
	how := "exhaustive (every interleaving up to equivalence)"
	switch {
	case s.Bound < 0 && s.NoReduction:
		how = "exhaustive (every interleaving)"
	case s.Random > 0:
		depth := s.Depth
		if depth <= 0 {
			depth = 3
		}
		how = fmt.Sprintf("random (PCT, depth %d, seeds %d..%d)", depth, s.Seed, s.Seed+uint64(s.Random)-1)
	case s.Bound >= 0:
		how = fmt.Sprintf("exhaustive, preemption bound %d", s.Bound)
	}
	state := "complete"
	if !r.Complete {
		state = "INCOMPLETE"
	}
	if r.Failure != nil {
		state = "FAILED"
	}
	pruned := ""
	if r.Pruned > 0 {
		pruned = fmt.Sprintf(" + %d pruned", r.Pruned)
	}
	return fmt.Sprintf("%s: %d executions%s (%s), %d distinct histories, longest %d steps, %v",
		how, r.Executions, pruned, state, r.Histories, r.MaxSteps, r.Elapsed.Round(time.Millisecond))
}

// Explore explores scenario s on the queue cfg describes and returns the
// outcome; Failure is the first violation, with its trace.
func Explore(cfg Config, s Scenario) Result {
	start := time.Now()
	c := newChecker(cfg, s)
	var r interleave.Report
	if s.Random > 0 {
		r = interleave.Random(c.program, s.options())
	} else {
		r = interleave.Exhaustive(c.program, s.options())
	}
	var digest uint64
	for k := range c.seen {
		h := fnv.New64a()
		h.Write([]byte(k))
		digest += h.Sum64()
	}
	return Result{Report: r, Histories: c.checked, HistoryDigest: digest, Elapsed: time.Since(start)}
}

// Environment variables that replay one execution of the scenarios selected
// with -run, printing its trace.
const (
	EnvSchedule = "WSQCHECK_SCHEDULE" // a schedule, as a failure prints it
	EnvSeed     = "WSQCHECK_SEED"     // a seed of a random exploration
)

// Run explores every scenario as a subtest of t, logs how many
// interleavings each explored, and fails a subtest with a counterexample
// trace when a scenario finds a violation or an exhaustive exploration
// stops before it is complete. With EnvSchedule or EnvSeed set, it replays
// that one execution of each scenario instead and logs its trace.
func Run(t *testing.T, cfg Config, scenarios []Scenario) {
	start := time.Now()
	total, pruned, histories, ran := 0, 0, 0, 0
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			if replayed(t, cfg, s) {
				return
			}
			r := Explore(cfg, s)
			total += r.Executions
			pruned += r.Pruned
			histories += r.Histories
			ran++
			t.Logf("%s: %s", s.Name, r.Describe(s))
			if f := r.Failure; f != nil {
				t.Fatalf("scenario %s (%s)\n%s\n%s", s.Name, s, f, replayHint(t, cfg, f))
			}
			if !r.Complete {
				t.Fatalf("the exploration stopped after %d executions before it was complete", r.Executions)
			}
		})
	}
	if os.Getenv(EnvSchedule) != "" || os.Getenv(EnvSeed) != "" {
		return
	}
	line := fmt.Sprintf("interleave summary: %s: %d scenarios, %d executions (%d pruned), %d distinct histories checked, %v",
		t.Name(), ran, total, pruned, histories, time.Since(start).Round(time.Millisecond))
	t.Log(line)
	if testing.Verbose() {
		fmt.Println(line)
	}
}

// replayed handles EnvSchedule and EnvSeed.
func replayed(t *testing.T, cfg Config, s Scenario) bool {
	sched, seed := os.Getenv(EnvSchedule), os.Getenv(EnvSeed)
	if sched == "" && seed == "" {
		return false
	}
	c := newChecker(cfg, s)
	if seed != "" {
		n, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", EnvSeed, seed, err)
		}
		opt := s.options()
		opt.Seed, opt.MaxExecutions = n, 1
		r := interleave.Random(c.program, opt)
		if r.Failure == nil {
			t.Logf("seed %d passes", n)
			return true
		}
		sched = r.Failure.Schedule
	}
	trace, err := interleave.TraceSchedule(c.program, sched, s.options())
	t.Logf("scenario %s (%s), schedule %s\n tick  thread   operation\n%s", s.Name, s, sched, trace)
	if err != nil {
		t.Fatalf("violation: %v", err)
	}
	return true
}

func replayHint(t *testing.T, cfg Config, f *interleave.Failure) string {
	var run []string
	for _, part := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	pkg := reflect.TypeOf(cfg.New()).Elem().PkgPath()
	env := EnvSchedule + "=" + f.Schedule
	if f.HasSeed {
		env = EnvSeed + "=" + strconv.FormatUint(f.Seed, 10)
	}
	return fmt.Sprintf("replay: %s go test -tags wsqcheck -run '%s' %s", env, strings.Join(run, "/"), pkg)
}

// checker builds the executions of one scenario and checks each.
type checker struct {
	cfg     Config
	s       Scenario
	model   porcupine.Model
	seen    map[string]porcupine.CheckResult // histories checked, by canonical key
	checked int
}

func newChecker(cfg Config, s Scenario) *checker {
	if len(s.Thieves)+1 > interleave.MaxThreads {
		panic("queuecheck: too many threads")
	}
	m := queuetest.LinearizabilityModel(cfg.New().Contract())
	return &checker{cfg: cfg, s: s, model: m, seen: make(map[string]porcupine.CheckResult)}
}

// run is the state of one execution.
type run struct {
	c       *checker
	q       wsq.Queue[int]
	ops     []porcupine.Operation
	pushed  map[int]bool   // items the queue accepted
	taken   map[int]string // item -> which operation removed it
	dup     string         // first item removed twice
	clients []string       // thread names by client number
	values  map[int][]int  // owner op index -> values it pushes
	prefill []int          // the prefill items
}

func (c *checker) program() interleave.Instance {
	s := c.s
	q := c.cfg.New()
	r := &run{c: c, q: q, pushed: make(map[int]bool), taken: make(map[int]string), values: make(map[int][]int)}
	next := 1
	if s.Prefill > 0 {
		r.prefill = queuetest.Seq(next, s.Prefill)
		n := q.PushBatch(r.prefill)
		r.ops = append(r.ops, queuetest.PushBatchOp(0, -2, -1, r.prefill, n))
		for _, v := range r.prefill[:n] {
			r.pushed[v] = true
		}
		next += s.Prefill
	}
	for i, op := range s.Owner {
		if op.Kind == OpPush || op.Kind == OpPushBatch || op.Kind == OpPushNative {
			r.values[i] = queuetest.Seq(next, op.N)
			next += op.N
		}
	}
	r.clients = append(r.clients, "owner")
	threads := []interleave.Thread{{Name: "owner", Run: func() { r.thread(0, s.Owner, true) }}}
	for i, ops := range s.Thieves {
		name := fmt.Sprintf("thief%d", i+1)
		r.clients = append(r.clients, name)
		threads = append(threads, interleave.Thread{Name: name, Run: func() { r.thread(i+1, ops, false) }})
	}
	inst := interleave.Instance{Threads: threads, Check: r.check}
	if c.cfg.Names != nil {
		inst.Names = c.cfg.Names(q)
	}
	return inst
}

// take records that the operation what of client removed the items vs.
func (r *run) take(client int, what string, vs ...int) {
	by := r.clients[client] + "'s " + what
	for _, v := range vs {
		if prev, ok := r.taken[v]; ok && r.dup == "" {
			r.dup = fmt.Sprintf("item %d removed twice: by %s and by %s", v, prev, by)
		}
		r.taken[v] = by
	}
}

// thread runs the operations of one scenario thread and records them.
func (r *run) thread(client int, ops []Op, owner bool) {
	q, cfg := r.q, r.c.cfg
	for i, op := range ops {
		if !owner && op.Kind <= OpPop {
			panic(fmt.Sprintf("queuecheck: only the owner may %v", op))
		}
		switch op.Kind {
		case OpPush:
			v := r.values[i][0]
			o := interleave.Begin("Push(%d)", v)
			ok := q.Push(v)
			call, ret := o.End("Push = %v", ok)
			r.ops = append(r.ops, queuetest.PushOp(client, call, ret, v, ok))
			if ok {
				r.pushed[v] = true
			}
		case OpPushBatch, OpPushNative:
			vs := r.values[i]
			name := "PushBatch"
			if op.Kind == OpPushNative {
				name = "PushNative"
			}
			o := interleave.Begin("%s(%v)", name, vs)
			var n int
			if op.Kind == OpPushBatch {
				n = q.PushBatch(slices.Clone(vs))
			} else {
				if cfg.PushNative == nil {
					panic("queuecheck: PushNative without Config.PushNative")
				}
				n = cfg.PushNative(q, slices.Clone(vs))
			}
			call, ret := o.End("%s = %d", name, n)
			r.ops = append(r.ops, queuetest.PushBatchOp(client, call, ret, vs, n))
			for _, v := range vs[:n] {
				r.pushed[v] = true
			}
		case OpPop:
			o := interleave.Begin("Pop()")
			v, ok := q.Pop()
			call, ret := o.End("Pop = %d, %v", v, ok)
			r.ops = append(r.ops, queuetest.PopOp(client, call, ret, v, ok))
			if ok {
				r.take(client, "Pop", v)
			}
		case OpSteal:
			o := interleave.Begin("Steal()")
			v, ok := q.Steal()
			call, ret := o.End("Steal = %d, %v", v, ok)
			r.ops = append(r.ops, queuetest.StealOp(client, call, ret, v, ok))
			if ok {
				r.take(client, "Steal", v)
			}
		case OpStealBatch, OpStealNative:
			o := interleave.Begin("%v", op)
			var vs []int
			if op.Kind == OpStealBatch {
				vs = q.StealBatch(nil, op.P)
			} else {
				if cfg.StealNative == nil {
					panic("queuecheck: StealNative without Config.StealNative")
				}
				vs = cfg.StealNative(q, nil, op.P)
			}
			call, ret := o.End("%v = %v", op, vs)
			r.ops = append(r.ops, queuetest.StealBatchOp(client, call, ret, op.P, vs))
			r.take(client, op.String(), vs...)
		default:
			panic(fmt.Sprintf("queuecheck: unknown operation %v", op))
		}
	}
}

// check runs after the threads: the queue's invariants, a drain, the
// exactly-once accounting and the linearizability of the history.
func (r *run) check() error {
	q, cfg := r.q, r.c.cfg
	if cfg.Invariants != nil {
		if err := cfg.Invariants(q); err != nil {
			return fmt.Errorf("invariant after the threads finished: %w", err)
		}
	}
	// Drain with single steals, recorded as one more client after
	// everything else. When a steal finds nothing, the drain pops: a queue
	// whose owner holds items publishes them at that pop, which the failed
	// steal asked for, and the drain steals again.
	drain := len(r.clients)
	r.clients = append(r.clients, "drain")
	tick := int64(1 << 40)
	for i := 0; ; i++ {
		if i > 2*len(r.pushed)+2 {
			return fmt.Errorf("drain: more items than were pushed come out")
		}
		v, ok := q.Steal()
		r.ops = append(r.ops, queuetest.StealOp(drain, tick, tick+1, v, ok))
		tick += 2
		if ok {
			r.take(drain, "Steal", v)
			continue
		}
		v, ok = q.Pop()
		r.ops = append(r.ops, queuetest.PopOp(drain, tick, tick+1, v, ok))
		tick += 2
		if !ok {
			break
		}
		r.take(drain, "Pop", v)
	}
	if n := q.Len(); n != 0 {
		return fmt.Errorf("drain: Len is %d after Steal reported the queue empty", n)
	}
	if cfg.Invariants != nil {
		if err := cfg.Invariants(q); err != nil {
			return fmt.Errorf("invariant after the drain: %w", err)
		}
	}
	// Exactly once.
	if r.dup != "" {
		return fmt.Errorf("exactly-once: %s\n%s", r.dup, r.describe())
	}
	var lost, foreign []int
	for v := range r.pushed {
		if _, ok := r.taken[v]; !ok {
			lost = append(lost, v)
		}
	}
	for v := range r.taken {
		if !r.pushed[v] {
			foreign = append(foreign, v)
		}
	}
	sort.Ints(lost)
	sort.Ints(foreign)
	if len(lost) > 0 {
		return fmt.Errorf("exactly-once: items %v lost: pushed, never removed, and not in the queue at the end\n%s", lost, r.describe())
	}
	if len(foreign) > 0 {
		return fmt.Errorf("exactly-once: items %v removed but never pushed\n%s", foreign, r.describe())
	}
	// Linearizability, once per distinct history.
	key := r.key()
	res, done := r.c.seen[key]
	if !done {
		r.c.checked++
		res = porcupine.CheckOperationsTimeout(r.c.model, r.ops, 30*time.Second)
		r.c.seen[key] = res
	}
	if res != porcupine.Ok {
		return fmt.Errorf("not linearizable (porcupine: %s)\n%s", res, r.describe())
	}
	return nil
}

// key is a canonical form of the history: the operations, and the order of
// their calls and returns, which is all linearizability depends on.
func (r *run) key() string {
	type event struct {
		t int64
		s string
	}
	evs := make([]event, 0, 2*len(r.ops))
	var nth [interleave.MaxThreads + 1]int // operations so far, by client
	for _, op := range r.ops {
		i := nth[op.ClientId]
		nth[op.ClientId]++
		id := strconv.Itoa(op.ClientId) + "." + strconv.Itoa(i)
		evs = append(evs, event{op.Call, "c" + id}, event{op.Return, "r" + id + ":" + r.c.model.DescribeOperation(op.Input, op.Output)})
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].t < evs[j].t })
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.s)
		b.WriteByte(' ')
	}
	return b.String()
}

// describe lists the history, by client.
func (r *run) describe() string {
	var b strings.Builder
	b.WriteString("history (call and return ticks; prefill and drain outside the execution):\n")
	for _, op := range r.ops {
		when := fmt.Sprintf("[%d, %d]", op.Call, op.Return)
		switch {
		case op.Call < 0:
			when = "before"
		case op.Call >= 1<<40:
			when = "after"
		}
		fmt.Fprintf(&b, "  %-8s %-10s %s\n", r.clients[op.ClientId], when, r.c.model.DescribeOperation(op.Input, op.Output))
	}
	return b.String()
}
