package sched

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model of Random mode. A few workers, each with a queue, the inject
// queue, and a goroutine outside that injects items. An item is a script:
// it pushes its children one at a time, then may wait, busy, until
// another item has ended. Each move is one atomic step of the real code,
// or one locked section: a push; a publisher's read of the counts; a
// wake; a steal or a take of an injected item; a searcher's leaving the
// searchers with its look at the queues; an announcement; the look once
// more. The counts follow from the states: a searcher and a woken worker
// count as searching. The model has no late look: it has no store
// buffer, whose delays the late look is for.

// pitem is an item of the model.
type pitem struct {
	push []int // the items it pushes, in order
	wait int   // then it waits, busy, until this item has ended; -1: none
}

// pworker is a worker of the model.
type pworker struct {
	st      wstate
	item    int  // the item it runs, or -1
	pc      int  // the item's steps taken: its pushes, then its wait
	got     int  // a searcher's item, taken and not yet run; -1: none
	checked bool // it looked once more since it announced
	token   bool // a waker's token waits for it
	pub     int  // its publish under way: 0 none, 1 reads the counts, 2 wakes
}

// runItems is the part of a state that the models of both modes share:
// the queues, the outside goroutine, and what the items did.
type runItems struct {
	queues [][]int // each worker's, oldest first
	inject []int   // oldest first
	out    int     // the outside items injected so far
	outPub int     // the outside goroutine's publish under way, as pworker.pub
	closed bool    // the outside goroutine is done: the run may complete
	ran    []int   // how many times each item started
	ended  []bool  // the items that ended
	done   bool    // the run is complete
}

// newRunItems returns the items of sc at the start: the roots queued.
func newRunItems(sc parkScenario) runItems {
	r := runItems{
		queues: make([][]int, sc.workers),
		ran:    make([]int, len(sc.items)),
		ended:  make([]bool, len(sc.items)),
	}
	for i := range sc.workers {
		r.queues[i] = slices.Clone(sc.roots[i])
	}
	return r
}

// cloneItems returns a copy of r that shares nothing with it.
func (r *runItems) cloneItems() runItems {
	c := *r
	c.queues = make([][]int, len(r.queues))
	for i, q := range r.queues {
		c.queues[i] = slices.Clone(q)
	}
	c.inject = slices.Clone(r.inject)
	c.ran = slices.Clone(r.ran)
	c.ended = slices.Clone(r.ended)
	return c
}

// appendKey appends r's part of a state's key to b.
func (r *runItems) appendKey(b []byte) []byte {
	for _, q := range r.queues {
		b = appendList(b, q)
	}
	b = appendList(b, r.inject)
	b = append(b, byte(r.out), byte(r.outPub), flag(r.closed)|flag(r.done)<<1)
	for x := range r.ran {
		b = append(b, byte(r.ran[x]), flag(r.ended[x]))
	}
	return b
}

// appendList appends l to b, its length first.
func appendList(b []byte, l []int) []byte {
	b = append(b, byte(len(l)))
	for _, x := range l {
		b = append(b, byte(x))
	}
	return b
}

// anyWork reports whether some queue or the inject queue holds an item.
func (r *runItems) anyWork() bool {
	if len(r.inject) > 0 {
		return true
	}
	for _, q := range r.queues {
		if len(q) > 0 {
			return true
		}
	}
	return false
}

// itemsEnded reports an item that did not run exactly once and end.
func (r *runItems) itemsEnded() error {
	for x, n := range r.ran {
		if n != 1 || !r.ended[x] {
			return fmt.Errorf("stuck: i%d never ends", x)
		}
	}
	return nil
}

// pstate is a state of the model.
type pstate struct {
	runItems
	ws       []pworker
	sleeping []int // announced and parked workers, newest last
}

func (m *pstate) clone() *pstate {
	c := *m
	c.runItems = m.cloneItems()
	c.ws = slices.Clone(m.ws)
	c.sleeping = slices.Clone(m.sleeping)
	return &c
}

func (m *pstate) key() string {
	b := make([]byte, 0, 64)
	for _, w := range m.ws {
		b = append(b, byte(w.st), byte(w.item), byte(w.pc), byte(w.got), byte(w.pub))
		b = append(b, flag(w.checked)|flag(w.token)<<1)
	}
	b = appendList(b, m.sleeping)
	return string(m.appendKey(b))
}

// flag is b as a bit.
func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// searching counts the workers that count as searching.
func (m *pstate) searching() int {
	n := 0
	for _, w := range m.ws {
		if w.st == wSearches || w.st == wWoken {
			n++
		}
	}
	return n
}

// parkModel explores the model under a table.
type parkModel struct {
	table   []workerRule
	items   []pitem
	outside []int // the items the outside goroutine injects, in order
}

// Wrong conditions and wakes that only the wrong tables of
// TestParkTableBugs use.
const (
	whenQueuesEmpty  when  = 100 // every worker's queue is empty; the inject queue is not looked at
	wakesIfNoneLooks wakes = 100 // a sleeper, if no worker searches or sleeps
)

// rule returns the table's rule for s and e.
func (pm *parkModel) rule(s wstate, e wevent) (workerRule, bool) {
	for _, r := range pm.table {
		if r.ev == e && slices.Contains(r.from, s) {
			return r, true
		}
	}
	return workerRule{}, false
}

// holds reports whether the condition c holds for worker i in m.
func (pm *parkModel) holds(m *pstate, i int, c when) bool {
	w := m.ws[i]
	switch c {
	case whenAny:
		return true
	case whenDry:
		return w.item < 0 && len(m.queues[i]) == 0 && !m.done
	case whenItem:
		return w.got >= 0
	case whenNothing:
		return !w.checked && !m.anyWork()
	case whenWork:
		return !w.checked && m.anyWork()
	case whenQueuesEmpty:
		return !w.checked && !slices.ContainsFunc(m.queues, func(q []int) bool { return len(q) > 0 })
	case whenToken:
		return w.token
	case whenDone:
		return m.done
	case whenLate:
		return false // no late look, latch or recall in the model
	}
	panic(fmt.Sprint("unknown condition ", c))
}

// pmove is one possible move of the model.
type pmove = modelMove[*pstate]

// apply moves worker i by e under the table, and starts the rule's
// wake. An announcement puts the worker on the list of sleepers, and a
// rejoin takes it off, as random.park and rejoin do; a wake takes it off
// too (wakeOne).
func (pm *parkModel) apply(m *pstate, i int, e wevent) error {
	w := &m.ws[i]
	r, ok := pm.rule(w.st, e)
	if !ok {
		return fmt.Errorf("no rule for a worker that %v and %v", w.st, e)
	}
	w.st = r.to
	switch e {
	case evAnnounce:
		m.sleeping = append(m.sleeping, i)
	case evRejoin:
		m.sleeping = slices.DeleteFunc(m.sleeping, func(j int) bool { return j == i })
	}
	if r.wakes == wakesIfLast && m.searching() == 0 && len(m.sleeping) > 0 && m.anyWork() {
		w.pub = 2
	}
	return nil
}

// wakeOne is a waker's wake: it takes the newest sleeper off the list,
// moves it by evWake, and sends it a token.
func (pm *parkModel) wakeOne(m *pstate) error {
	n := len(m.sleeping)
	if n == 0 {
		return nil
	}
	i := m.sleeping[n-1]
	m.sleeping = m.sleeping[:n-1]
	r, ok := pm.rule(m.ws[i].st, evWake)
	if !ok {
		return fmt.Errorf("no rule for a worker that %v and %v", m.ws[i].st, evWake)
	}
	m.ws[i].st = r.to
	m.ws[i].token = true
	return nil
}

// publish is the step of a publish under way at *pub: the read of the
// counts by the publish rule, then the wake.
func (pm *parkModel) publish(m *pstate, pub *int) error {
	if *pub == 2 {
		*pub = 0
		return pm.wakeOne(m)
	}
	*pub = 0
	r, ok := pm.rule(wPublishes, evPublish)
	if !ok {
		return fmt.Errorf("no rule for a publish")
	}
	switch r.wakes {
	case wakesIfNone:
		if m.searching() == 0 && len(m.sleeping) > 0 {
			*pub = 2
		}
	case wakesIfNoneLooks:
		if m.searching() == 0 && len(m.sleeping) == 0 {
			*pub = 2
		}
	}
	return nil
}

// end ends worker i's item, and completes the run if it was the last.
func (pm *parkModel) end(m *pstate, i int) {
	m.ended[m.ws[i].item] = true
	m.ws[i].item, m.ws[i].pc = -1, 0
	pm.complete(m)
}

// complete completes the run once the outside goroutine is done and every
// item ended.
func (pm *parkModel) complete(m *pstate) {
	if m.closed && !slices.Contains(m.ended, false) {
		m.done = true
	}
}

// start starts item x on worker i.
func (pm *parkModel) start(m *pstate, i, x int) error {
	if m.ran[x]++; m.ran[x] > 1 {
		return fmt.Errorf("i%d runs twice", x)
	}
	m.ws[i].item, m.ws[i].pc = x, 0
	return nil
}

// moves returns the moves possible in m.
func (pm *parkModel) moves(m *pstate) ([]pmove, error) {
	var ms []pmove
	add := func(name string, do func(m *pstate) error) { ms = append(ms, pmove{name, do}) }
	for i, w := range m.ws {
		if w.pub != 0 {
			add(fmt.Sprintf("w%d publishes (step %d)", i, w.pub), func(m *pstate) error { return pm.publish(m, &m.ws[i].pub) })
			continue
		}
		for _, r := range pm.table {
			if r.master || !slices.Contains(r.from, w.st) || r.ev == evWake || !pm.holds(m, i, r.when) {
				continue
			}
			if w.got >= 0 && r.ev != evFound {
				continue // a searcher that took an item runs it next
			}
			switch r.ev {
			case evLook, evEnd, evAnnounce, evSleep, evRejoin, evTakeToken:
				e := r.ev
				add(fmt.Sprintf("w%d %v", i, e), func(m *pstate) error {
					switch e {
					case evSleep:
						m.ws[i].checked = true
					case evAnnounce:
						m.ws[i].checked = false
					case evTakeToken:
						m.ws[i].token = false
					}
					return pm.apply(m, i, e)
				})
			case evFound:
				add(fmt.Sprintf("w%d found i%d", i, w.got), func(m *pstate) error {
					x := m.ws[i].got
					m.ws[i].got = -1
					if err := pm.apply(m, i, evFound); err != nil {
						return err
					}
					return pm.start(m, i, x)
				})
			}
		}
		switch w.st {
		case wRuns:
			if w.item < 0 {
				if n := len(m.queues[i]); n > 0 {
					add(fmt.Sprintf("w%d pops", i), func(m *pstate) error {
						q := m.queues[i]
						m.queues[i] = q[:len(q)-1]
						return pm.start(m, i, q[len(q)-1])
					})
				}
				break
			}
			it := pm.items[w.item]
			switch {
			case w.pc < len(it.push):
				add(fmt.Sprintf("w%d pushes i%d", i, it.push[w.pc]), func(m *pstate) error {
					m.queues[i] = append(m.queues[i], it.push[m.ws[i].pc])
					m.ws[i].pc++
					m.ws[i].pub = 1
					return nil
				})
			case w.pc == len(it.push) && it.wait >= 0:
				if m.ended[it.wait] {
					add(fmt.Sprintf("w%d's wait in i%d is over", i, w.item), func(m *pstate) error {
						m.ws[i].pc++
						return nil
					})
				}
			default:
				add(fmt.Sprintf("w%d ends i%d", i, w.item), func(m *pstate) error {
					pm.end(m, i)
					return nil
				})
			}
		case wSearches:
			if w.got >= 0 {
				break
			}
			if len(m.inject) > 0 {
				add(fmt.Sprintf("w%d takes injected i%d", i, m.inject[0]), func(m *pstate) error {
					m.ws[i].got, m.inject = m.inject[0], m.inject[1:]
					return nil
				})
			}
			for v, q := range m.queues {
				if v != i && len(q) > 0 {
					add(fmt.Sprintf("w%d steals i%d from w%d", i, q[0], v), func(m *pstate) error {
						m.ws[i].got, m.queues[v] = m.queues[v][0], m.queues[v][1:]
						return nil
					})
				}
			}
		}
	}
	switch {
	case m.outPub != 0:
		add(fmt.Sprintf("outside publishes (step %d)", m.outPub), func(m *pstate) error { return pm.publish(m, &m.outPub) })
	case m.out < len(pm.outside):
		add(fmt.Sprintf("outside injects i%d", pm.outside[m.out]), func(m *pstate) error {
			m.inject = append(m.inject, pm.outside[m.out])
			m.out++
			m.outPub = 1
			return nil
		})
	case !m.closed:
		add("outside is done", func(m *pstate) error {
			m.closed = true
			pm.complete(m)
			return nil
		})
	}
	return ms, nil
}

// check checks what must hold in every state: the list of sleepers is
// the announced and parked workers, a woken worker has its token, and no
// wake-up is lost: while a queue holds an item and a worker sleeps,
// someone searches, looks once more, or wakes it.
func (pm *parkModel) check(m *pstate) error {
	for i, w := range m.ws {
		listed := slices.Contains(m.sleeping, i)
		switch {
		case (w.st == wAnnounced || w.st == wParked) && !listed:
			return fmt.Errorf("w%d %v, and no waker can find it", i, w.st)
		case listed && w.st != wAnnounced && w.st != wParked && w.st != wGone:
			return fmt.Errorf("w%d %v, and it is among the sleepers", i, w.st)
		case w.st == wWoken && !w.token:
			return fmt.Errorf("w%d woken, with no token", i)
		}
	}
	if !m.anyWork() || m.outPub != 0 {
		return nil
	}
	sleeper := -1
	for i, w := range m.ws {
		switch {
		case w.st == wSearches || w.st == wWoken || w.pub != 0 || w.st == wAnnounced && !w.checked:
			return nil
		case w.st == wParked:
			sleeper = i
		}
	}
	if sleeper >= 0 {
		return fmt.Errorf("lost wake-up: an item is queued, w%d sleeps, and nobody searches or wakes it", sleeper)
	}
	return nil
}

// final checks a state with no move left: the run is complete, every
// item ran once, and every worker is gone.
func (pm *parkModel) final(m *pstate) error {
	if err := m.itemsEnded(); err != nil {
		return err
	}
	for i, w := range m.ws {
		if w.st != wGone {
			return fmt.Errorf("w%d %v for ever", i, w.st)
		}
	}
	return nil
}

// parkScenario is a small scope: the workers, the items, which are in a
// worker's queue at the start, and which the outside goroutine injects.
type parkScenario struct {
	name    string
	workers int
	items   []pitem
	roots   map[int][]int // a worker's queue at the start
	outside []int
}

var parkScenarios = []parkScenario{
	{"outside items", 2, []pitem{{wait: -1}, {wait: -1}}, nil, []int{0, 1}},
	{"outside items, one waits for the other", 2, []pitem{{wait: 1}, {wait: -1}}, nil, []int{0, 1}},
	{"a push, and a wait for it", 2, []pitem{{push: []int{1}, wait: 1}, {wait: -1}}, map[int][]int{0: {0}}, nil},
	{"two pushes, a chain of waits", 3, []pitem{{push: []int{1, 2}, wait: 1}, {wait: 2}, {wait: -1}}, map[int][]int{0: {0}}, nil},
	{"a push, and items from outside", 3, []pitem{{push: []int{1}, wait: 1}, {wait: -1}, {wait: 3}, {wait: -1}}, map[int][]int{0: {0}}, []int{2, 3}},
	{"roots in two queues", 3, []pitem{{push: []int{2}, wait: 2}, {wait: -1}, {wait: 1}}, map[int][]int{0: {0}, 1: {1}}, nil},
}

// exploreParks explores every scenario under table, and returns the
// number of states of each, or the first violation.
func exploreParks(table []workerRule) (states []int, err error) {
	for _, sc := range parkScenarios {
		m := &pstate{runItems: newRunItems(sc)}
		for range sc.workers {
			m.ws = append(m.ws, pworker{st: wRuns, item: -1, got: -1})
		}
		n, err := exploreModel(&parkModel{table: table, items: sc.items, outside: sc.outside}, m)
		if err != nil {
			return states, fmt.Errorf("%s: %w", sc.name, err)
		}
		states = append(states, n)
	}
	return states, nil
}

// TestParkTableExplored explores every order of the model's moves under
// parkRules.
func TestParkTableExplored(t *testing.T) {
	states, err := exploreParks(parkRules)
	require.NoError(t, err)
	for i, sc := range parkScenarios {
		t.Logf("%s: %d states, no violation", sc.name, states[i])
	}
}

// withParkRule returns table with the rule for r.from[0] and r.ev
// replaced by r, its from states those of the rule it replaces.
func withParkRule(table []workerRule, r workerRule) []workerRule {
	t := slices.Clone(table)
	for i := range t {
		if t[i].ev == r.ev && slices.Contains(t[i].from, r.from[0]) {
			r.from, r.master = t[i].from, t[i].master
			t[i] = r
			return t
		}
	}
	panic(fmt.Sprintf("no rule for %v and %v", r.from, r.ev))
}

// TestParkTableBugs: each wrong table loses a wake-up or a worker, and
// the exploration finds it.
func TestParkTableBugs(t *testing.T) {
	requireFound(t, []wrongRule[workerRule]{
		{"a worker sleeps without a look once more",
			workerRule{from: []wstate{wAnnounced}, ev: evSleep, to: wParked, when: whenAny}, "lost wake-up"},
		{"the look once more skips the inject queue",
			workerRule{from: []wstate{wAnnounced}, ev: evSleep, to: wParked, when: whenQueuesEmpty}, "lost wake-up"},
		{"a push wakes nobody",
			workerRule{from: []wstate{wPublishes}, ev: evPublish, to: wPublishes, wakes: wakesNone}, "lost wake-up"},
		{"a push wakes a sleeper only if nobody looks, sleepers included",
			workerRule{from: []wstate{wPublishes}, ev: evPublish, to: wPublishes, wakes: wakesIfNoneLooks}, "lost wake-up"},
		{"the last searcher wakes nobody",
			workerRule{from: []wstate{wSearches}, ev: evFound, to: wRuns, when: whenItem, wakes: wakesNone}, "lost wake-up"},
		{"a woken worker takes its token and sleeps on",
			workerRule{from: []wstate{wWoken}, ev: evTakeToken, to: wParked, when: whenToken}, "no waker can find it"},
		{"a wake leaves the worker asleep",
			workerRule{from: []wstate{wParked}, ev: evWake, to: wParked}, "no waker can find it"},
	}, func(r workerRule) error {
		_, err := exploreParks(withParkRule(parkRules, r))
		return err
	})
}

// parkTableDoc returns parkRules and the states as INTERNALS.md prints
// them.
func parkTableDoc() string {
	var b strings.Builder
	b.WriteString("| state of a worker | means |\n|---|---|\n")
	for s, doc := range wstateDocs {
		fmt.Fprintf(&b, "| %s | %s |\n", wstate(s), doc)
	}
	b.WriteString("\n| state | event | next state | who acts |\n|---|---|---|---|\n")
	for _, r := range parkRules {
		var from []string
		for _, s := range r.from {
			from = append(from, s.String())
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", strings.Join(from, ", "), r.event, r.next, r.who)
	}
	return b.String()
}

// TestParkTableDoc: INTERNALS.md prints the table that the workers follow
// and the exploration checks, word for word.
func TestParkTableDoc(t *testing.T) {
	doc, err := os.ReadFile("INTERNALS.md")
	require.NoError(t, err)
	want := parkTableDoc()
	require.True(t, strings.Contains(string(doc), want), "INTERNALS.md must hold the park table as parkRules has it:\n%s", want)
}
