package sched

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model. One worker, a queue of tasks at depth zero, and the pool's
// goroutines. A task is a script of steps; the goroutine that runs it
// takes one step a move. The explorer tries every goroutine's next move
// in every state.

// step is one step of a task's script.
type step uint8

const (
	stBlock   step = iota // Task.Block(f): f returns later, at any time
	stDeep                // Task.Block(f) in a frame above the task's (a Join's f or g)
	stUse                 // a use of t: needs the worker
	stWaitAll             // a helping wait for every other task, with nothing it may run
	stGoexit              // runtime.Goexit
)

// mtask is a task of the model: its script, and the steps taken.
type mtask struct {
	script []step
	pc     int
	done   bool
}

// mgor is a goroutine of the model.
type mgor struct {
	st   gstate
	task int  // the task it runs or blocks in, or -1
	deep bool // it gave the worker up above its task's frame: a deep Block, or a wait
}

// mstate is a state of the model.
type mstate struct {
	gors    []mgor
	tasks   []mtask
	queue   []int // tasks not started, next first
	waiting []int // goroutines that wait for the worker, longest first
	spares  []int // parked goroutines, most recent last
	ended   int   // tasks that ended
	recent  int   // the most goroutines blocked at once since the last collection (crew.recent)
	prev    int   // recent at the last collection (crew.previous)
}

// clone returns a copy of m that shares nothing with it.
func (m *mstate) clone() *mstate {
	c := &mstate{
		gors:    slices.Clone(m.gors),
		tasks:   slices.Clone(m.tasks),
		queue:   slices.Clone(m.queue),
		waiting: slices.Clone(m.waiting),
		spares:  slices.Clone(m.spares),
		ended:   m.ended,
		recent:  m.recent,
		prev:    m.prev,
	}
	return c
}

// key returns m as a string: equal states have equal keys.
func (m *mstate) key() string {
	var b strings.Builder
	for _, g := range m.gors {
		fmt.Fprintf(&b, "%d.%d.%v|", g.st, g.task, g.deep)
	}
	for _, t := range m.tasks {
		fmt.Fprintf(&b, "%d.%v|", t.pc, t.done)
	}
	fmt.Fprint(&b, m.queue, m.waiting, m.spares, m.ended, m.recent, m.prev)
	return b.String()
}

// crewModel explores the model under a table.
type crewModel struct {
	table     []crewRule
	maxSpares int
}

// apply moves goroutine g by event e under the table, and hands the
// worker over as the rule says. It reports a violation if the table has
// no rule for the move.
func (cm *crewModel) apply(m *mstate, g int, e gevent) error {
	r, ok := ruleOf(cm.table, m.gors[g].st, e)
	if !ok {
		return fmt.Errorf("no rule for a goroutine that %s and %v", m.gors[g].st, e)
	}
	to := r.to[0]
	var extra = -1 // a spare beyond the limit, which ends (evTrim)
	if len(r.to) > 1 {
		// A retire: the crew keeps fewer spares than its limit, one per
		// worker and one per blocked goroutine, counted once g and the
		// waiter it hands the worker to are not (crew.retire).
		m.gors[g].st = gGone
		limit := cm.spareLimit(m)
		if r.gives == giveWaiter && len(m.waiting) > 0 {
			limit--
		}
		if len(m.spares) >= limit {
			to = r.to[1]
			if len(m.spares) > limit {
				extra = m.spares[len(m.spares)-1]
				m.spares = m.spares[:len(m.spares)-1]
			}
		}
	}
	m.gors[g].st = to
	m.recent = max(m.recent, blocked(m)) // crew.addBlocked
	if extra >= 0 {
		if err := cm.apply(m, extra, evTrim); err != nil {
			return err
		}
	}
	switch to {
	case gWaits:
		m.waiting = append(m.waiting, g)
	case gSpare:
		m.spares = append(m.spares, g)
	}
	switch r.gives {
	case giveLend:
		switch {
		case len(m.waiting) > 0:
			return cm.giveTo(m, m.waiting[0])
		case len(m.spares) > 0:
			return cm.giveTo(m, m.spares[len(m.spares)-1])
		default:
			return cm.giveTo(m, cm.spawn(m))
		}
	case giveWaiter:
		if len(m.waiting) == 0 {
			return fmt.Errorf("a goroutine that %s gives the worker to a waiter on %v, and none waits", r.from, e)
		}
		return cm.giveTo(m, m.waiting[0])
	case giveNew:
		return cm.giveTo(m, cm.spawn(m))
	}
	return nil
}

// spareLimit is crew.spareLimit: one spare per worker, and one per
// goroutine blocked now or at once since the collection before the last.
func (cm *crewModel) spareLimit(m *mstate) int {
	return cm.maxSpares + max(blocked(m), m.recent, m.prev)
}

// collect is crew.collected: recent becomes prev and falls to blocked,
// and the oldest spares beyond the limit end (evTrim).
func (cm *crewModel) collect(m *mstate) error {
	m.prev, m.recent = m.recent, blocked(m)
	if k := len(m.spares) - cm.spareLimit(m); k > 0 {
		extra := slices.Clone(m.spares[:k])
		m.spares = slices.Delete(m.spares, 0, k)
		for _, g := range extra {
			if err := cm.apply(m, g, evTrim); err != nil {
				return err
			}
		}
	}
	return nil
}

// blocked returns the number of goroutines that lent the worker and have
// not taken it back: crew.blocked.
func blocked(m *mstate) int {
	n := 0
	for _, g := range m.gors {
		switch g.st {
		case gLent, gUnseated, gWaits:
			n++
		}
	}
	return n
}

// spawn adds a new goroutine and returns it.
func (cm *crewModel) spawn(m *mstate) int {
	m.gors = append(m.gors, mgor{st: gNew, task: -1})
	return len(m.gors) - 1
}

// giveTo gives the worker to g, which takes it (evTake).
func (cm *crewModel) giveTo(m *mstate, g int) error {
	if i := slices.Index(m.waiting, g); i >= 0 {
		m.waiting = slices.Delete(m.waiting, i, i+1)
	}
	if i := slices.Index(m.spares, g); i >= 0 {
		m.spares = slices.Delete(m.spares, i, i+1)
	}
	m.gors[g].deep = false // back on the worker, at its task's own depth
	return cm.apply(m, g, evTake)
}

// theHolder returns the goroutine that holds the worker, checking that
// exactly one does.
func theHolder(m *mstate) (int, error) {
	h := -1
	for i, g := range m.gors {
		if g.st == gHolds {
			if h >= 0 {
				return -1, fmt.Errorf("goroutines %d and %d both hold the worker", h, i)
			}
			h = i
		}
	}
	if h < 0 {
		return -1, fmt.Errorf("no goroutine holds the worker")
	}
	return h, nil
}

// move is one possible move of the crew's model.
type move = modelMove[*mstate]

// moves returns the moves possible in m.
func (cm *crewModel) moves(m *mstate) ([]move, error) {
	h, err := theHolder(m)
	if err != nil {
		return nil, err
	}
	var ms []move
	// The holder: hand back, start a task, or take its task's next step.
	hg := m.gors[h]
	switch {
	case hg.task < 0 && len(m.waiting) > 0:
		ms = append(ms, move{fmt.Sprintf("g%d hands back", h), func(m *mstate) error {
			return cm.apply(m, h, evHandBack)
		}})
	case hg.task < 0 && len(m.queue) > 0:
		ms = append(ms, move{fmt.Sprintf("g%d starts t%d", h, m.queue[0]), func(m *mstate) error {
			m.gors[h].task, m.queue = m.queue[0], m.queue[1:]
			return nil
		}})
	case hg.task >= 0:
		t := &m.tasks[hg.task]
		if t.pc == len(t.script) {
			ms = append(ms, move{fmt.Sprintf("g%d ends t%d", h, hg.task), func(m *mstate) error {
				return cm.end(m, h)
			}})
			break
		}
		switch t.script[t.pc] {
		case stBlock, stDeep:
			ms = append(ms, move{fmt.Sprintf("g%d blocks in t%d", h, hg.task), func(m *mstate) error {
				m.gors[h].deep = m.tasks[m.gors[h].task].script[m.tasks[m.gors[h].task].pc] == stDeep
				return cm.apply(m, h, evBlock)
			}})
		case stUse:
			ms = append(ms, move{fmt.Sprintf("g%d uses t%d", h, hg.task), func(m *mstate) error {
				m.tasks[m.gors[h].task].pc++
				return nil
			}})
		case stWaitAll:
			if cm.othersDone(m, hg.task) {
				ms = append(ms, move{fmt.Sprintf("g%d's wait in t%d is over", h, hg.task), func(m *mstate) error {
					m.tasks[m.gors[h].task].pc++
					return nil
				}})
				break
			}
			ev := evBlock // compensate
			if len(m.waiting) > 0 {
				ev = evLendToWaiter
			}
			ms = append(ms, move{fmt.Sprintf("g%d waits in t%d (%v)", h, hg.task, ev), func(m *mstate) error {
				m.gors[h].deep = true // the wait's frame goes on with the worker only
				return cm.apply(m, h, ev)
			}})
		case stGoexit:
			ms = append(ms, move{fmt.Sprintf("g%d: Goexit in t%d", h, hg.task), func(m *mstate) error {
				ti := m.gors[h].task
				m.tasks[ti].pc = len(m.tasks[ti].script)
				if err := cm.finish(m, ti); err != nil {
					return err
				}
				m.gors[h].task = -1
				return cm.apply(m, h, evGoexit)
			}})
		}
	}
	// A garbage collection, when it would change something.
	if m.recent > blocked(m) || m.prev != m.recent {
		ms = append(ms, move{"a collection", func(m *mstate) error { return cm.collect(m) }})
	}
	// The others: a Block's function returns, a wait ends, an unseated
	// task goes on.
	for i, g := range m.gors {
		switch g.st {
		case gLent:
			if g.task < 0 {
				continue // lent with no task to return to: stuck
			}
			t := &m.tasks[g.task]
			waiting := t.script[t.pc] == stWaitAll
			if waiting && !cm.othersDone(m, g.task) {
				continue
			}
			ev := evReturn
			if !g.deep {
				ev = evReturnTop
			}
			ms = append(ms, move{fmt.Sprintf("g%d returns from f (%v)", i, ev), func(m *mstate) error {
				m.tasks[m.gors[i].task].pc++
				return cm.apply(m, i, ev)
			}})
		case gUnseated:
			t := &m.tasks[g.task]
			if t.pc == len(t.script) {
				ms = append(ms, move{fmt.Sprintf("g%d ends t%d unseated", i, g.task), func(m *mstate) error {
					if err := cm.finish(m, m.gors[i].task); err != nil {
						return err
					}
					m.gors[i].task = -1
					return cm.apply(m, i, evEndUnseated)
				}})
				if len(m.queue) > 0 {
					// A task of the queue handed on (runner.handOn): the
					// model lets any task be one.
					ms = append(ms, move{fmt.Sprintf("g%d ends t%d unseated and runs t%d", i, g.task, m.queue[0]), func(m *mstate) error {
						if err := cm.finish(m, m.gors[i].task); err != nil {
							return err
						}
						m.gors[i].task, m.queue = m.queue[0], m.queue[1:]
						return cm.apply(m, i, evHandedOn)
					}})
				}
				continue
			}
			if t.script[t.pc] == stBlock {
				ms = append(ms, move{fmt.Sprintf("g%d blocks unseated in t%d", i, g.task), func(m *mstate) error {
					m.tasks[m.gors[i].task].pc++ // f returns: no worker is lent or taken
					return cm.apply(m, i, evBlockUnseated)
				}})
				continue
			}
			ms = append(ms, move{fmt.Sprintf("g%d needs its worker in t%d", i, g.task), func(m *mstate) error {
				return cm.apply(m, i, evNeedWorker)
			}})
		}
	}
	return ms, nil
}

// othersDone reports whether every task but t has ended.
func (cm *crewModel) othersDone(m *mstate, t int) bool {
	for i, x := range m.tasks {
		if i != t && !x.done {
			return false
		}
	}
	return true
}

// end ends the task of the holder h.
func (cm *crewModel) end(m *mstate, h int) error {
	if err := cm.finish(m, m.gors[h].task); err != nil {
		return err
	}
	m.gors[h].task = -1
	return nil
}

// finish counts task t as ended, once.
func (cm *crewModel) finish(m *mstate, t int) error {
	if m.tasks[t].done {
		return fmt.Errorf("t%d ends twice", t)
	}
	m.tasks[t].done = true
	m.ended++
	return nil
}

// check checks what must hold in every state besides the one holder:
// a goroutine goes on unseated only at its task's depth zero, where no
// frame below needs the worker; the crew's lists of waiters and spares
// are the goroutines in those states; and no more spares are kept than
// the crew may keep: one per worker and one per blocked goroutine.
func (cm *crewModel) check(m *mstate) error {
	var waits, spares int
	for i, g := range m.gors {
		switch g.st {
		case gUnseated:
			if g.deep {
				return fmt.Errorf("g%d goes on unseated above a frame of its task", i)
			}
		case gWaits:
			waits++
			if !slices.Contains(m.waiting, i) {
				return fmt.Errorf("g%d waits, and the seat does not know it", i)
			}
		case gSpare:
			spares++
			if !slices.Contains(m.spares, i) {
				return fmt.Errorf("g%d is a spare that no lend can find", i)
			}
		}
	}
	switch {
	case waits != len(m.waiting):
		return fmt.Errorf("the seat lists %d waiters; %d goroutines wait", len(m.waiting), waits)
	case spares != len(m.spares):
		return fmt.Errorf("the crew lists %d spares; %d goroutines are", len(m.spares), spares)
	case spares > cm.spareLimit(m):
		return fmt.Errorf("%d spares, more than %d and one per goroutine blocked now or since the collection before the last", spares, cm.maxSpares)
	case m.recent < blocked(m):
		return fmt.Errorf("recent is %d, fewer than the %d goroutines blocked", m.recent, blocked(m))
	}
	return nil
}

// final checks a state with no move left: every task ended, and every
// goroutine holds the worker, is a spare or is gone.
func (cm *crewModel) final(m *mstate) error {
	if m.ended != len(m.tasks) {
		return fmt.Errorf("stuck: %d of %d tasks ended", m.ended, len(m.tasks))
	}
	for i, g := range m.gors {
		if g.st != gHolds && g.st != gSpare && g.st != gGone {
			return fmt.Errorf("g%d %s for ever", i, g.st)
		}
	}
	// The pool closes: the spares and the holder end, by the table.
	for i, g := range m.gors {
		if g.st == gSpare || g.st == gHolds {
			if err := cm.apply(m, i, evClose); err != nil {
				return err
			}
		}
	}
	return nil
}

// crewScenarios are the small scopes explored: the tasks of the worker's
// queue, each a script.
var crewScenarios = []struct {
	name    string
	scripts [][]step
}{
	{"two blocks", [][]step{{stBlock}, {stBlock}}},
	{"block then use", [][]step{{stBlock, stUse}, {stBlock}}},
	{"blocks twice", [][]step{{stBlock, stBlock}, {stBlock, stUse}}},
	{"deep block", [][]step{{stDeep, stUse}, {stBlock}}},
	{"wait for the others", [][]step{{stWaitAll, stUse}, {stBlock}, {stBlock, stUse}}},
	{"wait after a block", [][]step{{stBlock, stWaitAll}, {stDeep}, {stBlock}}},
	{"goexit", [][]step{{stBlock, stGoexit}, {stBlock}, {stUse, stGoexit}}},
	{"four tasks", [][]step{{stBlock, stUse}, {stBlock, stBlock}, {stDeep}, {stWaitAll}}},
}

// exploreCrew explores every scenario under table, with up to maxSpares
// spares, and returns the first violation.
func exploreCrew(table []crewRule, maxSpares int) (states int, err error) {
	for _, sc := range crewScenarios {
		m := &mstate{gors: []mgor{{st: gHolds, task: -1}}}
		for i, s := range sc.scripts {
			m.tasks = append(m.tasks, mtask{script: s})
			m.queue = append(m.queue, i)
		}
		n, err := exploreModel(&crewModel{table: table, maxSpares: maxSpares}, m)
		if err != nil {
			return states, fmt.Errorf("%s: %w", sc.name, err)
		}
		states += n
	}
	return states, nil
}

// TestCrewTableExplored explores every order of the model's moves under
// crewRules, with no spare kept, one and two.
func TestCrewTableExplored(t *testing.T) {
	for _, spares := range []int{0, 1, 2} {
		states, err := exploreCrew(crewRules, spares)
		require.NoError(t, err)
		t.Logf("%d spares: %d states, no violation", spares, states)
	}
}

// withRule returns table with the rule for from and ev replaced by r.
func withRule(table []crewRule, r crewRule) []crewRule {
	t := slices.Clone(table)
	for i := range t {
		if t[i].from == r.from && t[i].ev == r.ev {
			t[i] = r
			return t
		}
	}
	panic(fmt.Sprintf("no rule for %v and %v", r.from, r.ev))
}

// TestCrewTableBugs: each wrong table breaks a promise of the crew, and
// the exploration finds it.
func TestCrewTableBugs(t *testing.T) {
	requireFound(t, []wrongRule[crewRule]{
		{"a hand back gives the worker to nobody",
			crewRule{from: gHolds, ev: evHandBack, to: []gstate{gSpare, gGone}, gives: giveNone}, "no goroutine holds the worker"},
		{"a Block above the task's frame goes on unseated",
			crewRule{from: gLent, ev: evReturn, to: []gstate{gUnseated}}, "unseated above a frame"},
		{"a Goexit starts no goroutine",
			crewRule{from: gHolds, ev: evGoexit, to: []gstate{gGone}, gives: giveNone}, "no goroutine holds the worker"},
		{"a reclaim takes the worker without a hand-over",
			crewRule{from: gLent, ev: evReturn, to: []gstate{gHolds}}, "both hold the worker"},
		{"a waiter given the worker does not take it",
			crewRule{from: gWaits, ev: evTake, to: []gstate{gWaits}}, "no goroutine holds the worker"},
		{"an unseated task that needs its worker goes on without it",
			crewRule{from: gUnseated, ev: evNeedWorker, to: []gstate{gUnseated}}, "changes nothing"},
		{"an unseated task's end leaves its goroutine waiting",
			crewRule{from: gUnseated, ev: evEndUnseated, to: []gstate{gLent}}, "lent for ever"},
		{"an unseated Block lends a worker it does not hold",
			crewRule{from: gUnseated, ev: evBlockUnseated, to: []gstate{gLent}, gives: giveLend}, "both hold the worker"},
		{"a task handed on runs as if its goroutine held the worker",
			crewRule{from: gUnseated, ev: evHandedOn, to: []gstate{gHolds}}, "both hold the worker"},
		{"a spare beyond the limit stays parked where no lend finds it",
			crewRule{from: gSpare, ev: evTrim, to: []gstate{gSpare}}, "more than"},
	}, func(r crewRule) error {
		_, err := exploreCrew(withRule(crewRules, r), 1)
		return err
	})
}

// crewTableDoc returns crewRules and the states as INTERNALS.md prints
// them.
func crewTableDoc() string {
	var b strings.Builder
	b.WriteString("| state of a goroutine | means |\n|---|---|\n")
	for s, doc := range gstateDocs {
		fmt.Fprintf(&b, "| %s | %s |\n", gstate(s), doc)
	}
	b.WriteString("\n| state | event | next state | who acts |\n|---|---|---|---|\n")
	for _, r := range crewRules {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.from, r.event, r.next, r.who)
	}
	return b.String()
}

// TestCrewTableDoc: INTERNALS.md prints the table that the crew follows
// and the exploration checks, word for word.
func TestCrewTableDoc(t *testing.T) {
	doc, err := os.ReadFile("INTERNALS.md")
	require.NoError(t, err)
	want := crewTableDoc()
	require.True(t, strings.Contains(string(doc), want), "INTERNALS.md must hold the crew's table as crewRules has it:\n%s", want)
}
