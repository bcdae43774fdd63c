package sched

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model of Master mode, under the same table: a few workers, one
// master, the inject queue and a goroutine outside. A worker that runs
// dry asks the master (masters.idle) and polls its inbox, then awaits
// its delivery. The master serves one request at a time: it steals an
// item for the worker, or parks while no queue shows one. A publisher
// wakes the master unless a worker polls; a poller wakes it itself; the
// last poller looks at every queue and wakes it. Each move is one atomic
// step of the real code, as in the model of Random mode. A delivery holds
// one item. A worker that took an injected item while it polled owes the
// master's answer, and collects it before its next item (Worker.owed).

// nothing marks an empty inbox, and empty a delivery of no item.
const (
	nothing = -2
	empty   = -1
)

// qworker is a worker of the model of Master mode.
type qworker struct {
	st    wstate
	item  int // the item it runs, or -1
	pc    int // the item's steps taken
	pub   int // its publish under way: 0 none, 1 reads the counts, 2 wakes
	inbox int // nothing, an empty delivery, or an item
	owed  bool
	wants bool
}

// qstate is a state of the model of Master mode.
type qstate struct {
	runItems
	ws       []qworker
	idle     []int // the workers' requests, oldest first
	mst      wstate
	mreq     int  // the worker the master serves, or -1
	mgot     int  // the item it took for it, or -1
	mchecked bool // it looked once more since it announced
	sleepers int  // masters.sleepers
	tokens   int  // tokens on masters.wake: at most one, its capacity
}

func (m *qstate) clone() *qstate {
	c := *m
	c.runItems = m.cloneItems()
	c.ws = slices.Clone(m.ws)
	c.idle = slices.Clone(m.idle)
	return &c
}

func (m *qstate) key() string {
	b := make([]byte, 0, 64)
	for _, w := range m.ws {
		b = append(b, byte(w.st), byte(w.item), byte(w.pc), byte(w.pub), byte(w.inbox), flag(w.owed)|flag(w.wants)<<1)
	}
	b = appendList(b, m.idle)
	b = append(b, byte(m.mst), byte(m.mreq), byte(m.mgot), flag(m.mchecked), byte(m.sleepers), byte(m.tokens))
	return string(m.appendKey(b))
}

// polling counts the workers that poll.
func (m *qstate) polling() int {
	n := 0
	for _, w := range m.ws {
		if w.st == wSearches {
			n++
		}
	}
	return n
}

// masterModel explores the model of Master mode under a table.
type masterModel struct {
	table   []workerRule
	items   []pitem
	outside []int
}

// rule returns the table's rule for s and e.
func (mm *masterModel) rule(s wstate, e wevent) (workerRule, bool) {
	for _, r := range mm.table {
		if r.ev == e && slices.Contains(r.from, s) {
			return r, true
		}
	}
	return workerRule{}, false
}

// wakeMaster takes the master off the sleepers, if it sleeps, and sends
// it a token.
func (m *qstate) wakeMaster() {
	if m.sleepers > 0 {
		m.sleepers--
		m.tokens = 1
	}
}

// wakes reports whether a move whose rule wakes as k wakes the master
// now; the wake is a step of its own after it.
func (m *qstate) wakes(k wakes) bool {
	switch k {
	case wakesIfNone:
		return m.sleepers > 0 && m.polling() == 0
	case wakesIfNoneLooks:
		return m.sleepers > 0 && m.polling() == 0 && len(m.idle) == 0
	case wakesIfLast:
		return m.sleepers > 0 && m.polling() == 0 && m.anyWork()
	case wakesMasterWork:
		return m.sleepers > 0 && m.anyWork()
	}
	return false
}

// move moves worker i by e under the table, and starts the rule's wake.
// It reports false if the table has no rule for the move.
func (mm *masterModel) move(m *qstate, i int, e wevent) bool {
	r, ok := mm.rule(m.ws[i].st, e)
	if !ok {
		return false
	}
	m.ws[i].st = r.to
	if m.wakes(r.wakes) {
		m.ws[i].pub = 2
	}
	return true
}

// ask queues worker i's request, unless it owes an answer already.
func (m *qstate) ask(i int) {
	m.ws[i].wants = true
	if !m.ws[i].owed {
		m.ws[i].owed = true
		m.idle = append(m.idle, i)
	}
}

func (mm *masterModel) start(m *qstate, i, x int) error {
	if m.ran[x]++; m.ran[x] > 1 {
		return fmt.Errorf("i%d runs twice", x)
	}
	m.ws[i].item, m.ws[i].pc = x, 0
	return nil
}

func (mm *masterModel) complete(m *qstate) {
	if m.closed && !slices.Contains(m.ended, false) {
		m.done = true
	}
}

// publish is the step of a publish under way at *pub.
func (mm *masterModel) publish(m *qstate, pub *int) error {
	if *pub == 2 {
		*pub = 0
		m.wakeMaster()
		return nil
	}
	*pub = 0
	r, ok := mm.rule(wPublishes, evPublish)
	if !ok {
		return fmt.Errorf("no rule for a publish")
	}
	if m.wakes(r.wakes) {
		*pub = 2
	}
	return nil
}

// qmove is one possible move of the model of Master mode.
type qmove = modelMove[*qstate]

// moves returns the moves possible in m.
func (mm *masterModel) moves(m *qstate) ([]qmove, error) {
	var ms []qmove
	add := func(name string, do func(m *qstate) error) { ms = append(ms, qmove{name, do}) }
	// by adds the move of worker i by e, if the table has a rule for it
	// and its condition holds, with then after it.
	by := func(i int, e wevent, cond bool, then func(m *qstate) error) {
		r, ok := mm.rule(m.ws[i].st, e)
		if !ok || !cond || !mm.workerHolds(m, r.when) {
			return
		}
		add(fmt.Sprintf("w%d %v", i, e), func(m *qstate) error {
			mm.move(m, i, e)
			if then != nil {
				return then(m)
			}
			return nil
		})
	}
	for i, w := range m.ws {
		if w.pub != 0 {
			add(fmt.Sprintf("w%d publishes (step %d)", i, w.pub), func(m *qstate) error { return mm.publish(m, &m.ws[i].pub) })
			continue
		}
		switch w.st {
		case wRuns:
			if w.item >= 0 {
				it := mm.items[w.item]
				switch {
				case w.pc < len(it.push):
					add(fmt.Sprintf("w%d pushes i%d", i, it.push[w.pc]), func(m *qstate) error {
						m.queues[i] = append(m.queues[i], it.push[m.ws[i].pc])
						m.ws[i].pc++
						m.ws[i].pub = 1
						return nil
					})
				case w.pc == len(it.push) && it.wait >= 0:
					if m.ended[it.wait] {
						add(fmt.Sprintf("w%d's wait in i%d is over", i, w.item), func(m *qstate) error {
							m.ws[i].pc++
							return nil
						})
					}
				default:
					add(fmt.Sprintf("w%d ends i%d", i, w.item), func(m *qstate) error {
						m.ended[m.ws[i].item] = true
						m.ws[i].item = -1
						mm.complete(m)
						return nil
					})
				}
				break
			}
			if w.owed && w.inbox != nothing {
				add(fmt.Sprintf("w%d collects what it was owed", i), func(m *qstate) error {
					x := m.ws[i].inbox
					m.ws[i].inbox, m.ws[i].owed = nothing, false
					if x >= 0 { // accept pushes it, and publishes
						m.queues[i] = append(m.queues[i], x)
						m.ws[i].pub = 1
					}
					return nil
				})
				break
			}
			if n := len(m.queues[i]); n > 0 {
				add(fmt.Sprintf("w%d pops", i), func(m *qstate) error {
					q := m.queues[i]
					m.queues[i] = q[:len(q)-1]
					return mm.start(m, i, q[len(q)-1])
				})
				break
			}
			if len(m.inject) > 0 && !m.done {
				add(fmt.Sprintf("w%d takes injected i%d", i, m.inject[0]), func(m *qstate) error {
					x := m.inject[0]
					m.inject = m.inject[1:]
					return mm.start(m, i, x)
				})
			}
			by(i, evLook, true, func(m *qstate) error {
				m.ask(i)
				return nil
			})
			by(i, evEnd, true, nil)
		case wSearches, wAwaits:
			if w.inbox == empty {
				add(fmt.Sprintf("w%d takes an empty delivery, and asks again", i), func(m *qstate) error {
					m.ws[i].inbox, m.ws[i].owed = nothing, false
					m.ask(i)
					return nil
				})
			}
			by(i, evFound, w.inbox >= 0, func(m *qstate) error {
				x := m.ws[i].inbox
				m.ws[i].inbox, m.ws[i].owed = nothing, false
				return mm.start(m, i, x)
			})
			by(i, evEnd, true, nil)
			if w.st == wAwaits {
				break
			}
			if len(m.inject) > 0 {
				by(i, evFound, true, func(m *qstate) error {
					x := m.inject[0]
					m.inject = m.inject[1:]
					m.ws[i].wants = false
					return mm.start(m, i, x)
				})
			}
			by(i, evPoll, m.sleepers > 0, nil)
			by(i, evAwait, true, nil)
		}
	}
	// The master.
	switch m.mst {
	case mIdle:
		if len(m.idle) > 0 {
			add(fmt.Sprintf("master serves w%d", m.idle[0]), func(m *qstate) error {
				m.mreq, m.idle = m.idle[0], m.idle[1:]
				return mm.masterMove(m, evServe)
			})
		}
		if m.done {
			add("master ends", func(m *qstate) error { return mm.masterMove(m, evEnd) })
		}
	case mServes:
		w := m.mreq
		switch {
		case m.mgot >= 0 || !m.ws[w].wants:
			add(fmt.Sprintf("master delivers to w%d", w), func(m *qstate) error {
				if m.ws[w].inbox != nothing {
					return fmt.Errorf("w%d's inbox is full", w)
				}
				m.ws[w].inbox = empty
				if m.mgot >= 0 {
					m.ws[w].inbox = m.mgot
				}
				m.mreq, m.mgot = -1, -1
				return mm.masterMove(m, evDeliver)
			})
		default:
			if len(m.inject) > 0 {
				add(fmt.Sprintf("master takes injected i%d", m.inject[0]), func(m *qstate) error {
					m.mgot, m.inject = m.inject[0], m.inject[1:]
					return nil
				})
			}
			for v, q := range m.queues {
				if v != w && len(q) > 0 {
					add(fmt.Sprintf("master steals i%d from w%d", q[0], v), func(m *qstate) error {
						m.mgot, m.queues[v] = m.queues[v][0], m.queues[v][1:]
						return nil
					})
				}
			}
			add("master announces", func(m *qstate) error {
				m.sleepers++
				m.mchecked = false
				return mm.masterMove(m, evAnnounce)
			})
		}
	case mAnnounced:
		mm.masterBy(m, &ms, evSleep, func(m *qstate) { m.mchecked = true })
		mm.masterBy(m, &ms, evRejoin, func(m *qstate) {
			if m.sleepers > 0 { // unwait
				m.sleepers--
			}
		})
	case mParked:
		if m.tokens > 0 {
			add("master takes a token", func(m *qstate) error {
				m.tokens--
				return mm.masterMove(m, evTakeToken)
			})
		}
		if m.done {
			add("master ends", func(m *qstate) error { return mm.masterMove(m, evEnd) })
		}
	}
	switch {
	case m.outPub != 0:
		add(fmt.Sprintf("outside publishes (step %d)", m.outPub), func(m *qstate) error { return mm.publish(m, &m.outPub) })
	case m.out < len(mm.outside):
		add(fmt.Sprintf("outside injects i%d", mm.outside[m.out]), func(m *qstate) error {
			m.inject = append(m.inject, mm.outside[m.out])
			m.out++
			m.outPub = 1
			return nil
		})
	case !m.closed:
		add("outside is done", func(m *qstate) error {
			m.closed = true
			mm.complete(m)
			return nil
		})
	}
	return ms, nil
}

// workerHolds reports whether the condition c holds for a worker's
// move. The caller checks an item or a token.
func (mm *masterModel) workerHolds(m *qstate, c when) bool {
	switch c {
	case whenAny, whenItem, whenToken:
		return true
	case whenDry:
		return !m.done
	case whenNothing:
		return !m.anyWork()
	case whenWork:
		return m.anyWork()
	case whenDone:
		return m.done
	}
	return false // whenLate: no latch or recall in the model
}

// holds reports whether the condition c holds for the master's move:
// its look once more for whenNothing and whenWork.
func (mm *masterModel) holds(m *qstate, c when) bool {
	switch c {
	case whenAny, whenItem, whenToken:
		return true // the caller checks the item and the token
	case whenDry:
		return !m.done
	case whenNothing:
		return !m.mchecked && !m.anyWork()
	case whenWork:
		return !m.mchecked && m.anyWork()
	case whenQueuesEmpty:
		return !m.mchecked && !slices.ContainsFunc(m.queues, func(q []int) bool { return len(q) > 0 })
	case whenDone:
		return m.done
	}
	return false // whenLate: no late look, latch or recall in the model
}

// masterMove moves the master by e under the table.
func (mm *masterModel) masterMove(m *qstate, e wevent) error {
	r, ok := mm.rule(m.mst, e)
	if !ok {
		return fmt.Errorf("no rule for a master that %v and %v", m.mst, e)
	}
	m.mst = r.to
	return nil
}

// masterBy adds the master's move by e to ms, if the table has a rule
// for it and its condition holds, with then before it.
func (mm *masterModel) masterBy(m *qstate, ms *[]qmove, e wevent, then func(m *qstate)) {
	r, ok := mm.rule(m.mst, e)
	if !ok || !mm.holds(m, r.when) {
		return
	}
	*ms = append(*ms, qmove{fmt.Sprintf("master %v", e), func(m *qstate) error {
		then(m)
		return mm.masterMove(m, e)
	}})
}

// check checks what must hold in every state: a worker's request is
// queued once, and no wake-up is lost: while a queue holds an item and
// the master sleeps, someone polls or wakes it.
func (mm *masterModel) check(m *qstate) error {
	for i := range m.ws {
		if n := len(slices.DeleteFunc(slices.Clone(m.idle), func(j int) bool { return j != i })); n > 1 {
			return fmt.Errorf("w%d asks %d times", i, n)
		}
	}
	if m.sleepers > 2 {
		return fmt.Errorf("masters.sleepers grows to %d, with one master", m.sleepers)
	}
	if !m.anyWork() || m.outPub != 0 || m.tokens > 0 || m.sleepers == 0 {
		return nil
	}
	if m.mst != mParked {
		return nil
	}
	for _, w := range m.ws {
		if w.st == wSearches || w.pub != 0 {
			return nil
		}
	}
	return fmt.Errorf("lost wake-up: an item is queued, the master sleeps, and nobody polls or wakes it")
}

// final checks a state with no move left: the run is complete, every
// item ran once, and every worker and the master are gone.
func (mm *masterModel) final(m *qstate) error {
	if err := m.itemsEnded(); err != nil {
		return err
	}
	for i, w := range m.ws {
		if w.st != wGone {
			return fmt.Errorf("w%d %v for ever", i, w.st)
		}
	}
	if m.mst != wGone {
		return fmt.Errorf("the master %v for ever", m.mst)
	}
	return nil
}

// masterScenarios are the scopes of parkScenarios that the model of
// Master mode explores: those of two workers, and one of three. The
// master and the mailboxes make each state space many times larger.
var masterScenarios = []parkScenario{parkScenarios[0], parkScenarios[1], parkScenarios[2], parkScenarios[3]}

// exploreMaster explores every scenario in Master mode under table.
func exploreMaster(table []workerRule) (states []int, err error) {
	for _, sc := range masterScenarios {
		m := &qstate{runItems: newRunItems(sc), mst: mIdle, mreq: -1, mgot: -1}
		for range sc.workers {
			m.ws = append(m.ws, qworker{st: wRuns, item: -1, inbox: nothing})
		}
		n, err := exploreModel(&masterModel{table: table, items: sc.items, outside: sc.outside}, m)
		if err != nil {
			return states, fmt.Errorf("%s: %w", sc.name, err)
		}
		states = append(states, n)
	}
	return states, nil
}

// TestParkTableMaster explores every order of the moves of the model of
// Master mode under parkRules.
func TestParkTableMaster(t *testing.T) {
	states, err := exploreMaster(parkRules)
	require.NoError(t, err)
	for i, sc := range masterScenarios {
		t.Logf("%s: %d states, no violation", sc.name, states[i])
	}
}

// TestParkTableMasterBugs: each wrong table loses a wake-up of the
// master, and the exploration finds it.
func TestParkTableMasterBugs(t *testing.T) {
	requireFound(t, []wrongRule[workerRule]{
		{"the master sleeps without a look once more",
			workerRule{from: []wstate{mAnnounced}, ev: evSleep, to: mParked, when: whenAny}, "lost wake-up"},
		{"the master's look once more skips the inject queue",
			workerRule{from: []wstate{mAnnounced}, ev: evSleep, to: mParked, when: whenQueuesEmpty}, "lost wake-up"},
		{"a push wakes no master",
			workerRule{from: []wstate{wPublishes}, ev: evPublish, to: wPublishes, wakes: wakesNone}, "lost wake-up"},
		{"the last poller wakes no master",
			workerRule{from: []wstate{wSearches}, ev: evAwait, to: wAwaits, wakes: wakesNone}, "lost wake-up"},
	}, func(r workerRule) error {
		_, err := exploreMaster(withParkRule(parkRules, r))
		return err
	})
}

// TestParkTablePollForSpeed: a poller's own wake of the master is for
// speed. Without it the last poller still wakes the master, and the
// model loses no wake-up.
func TestParkTablePollForSpeed(t *testing.T) {
	table := slices.DeleteFunc(slices.Clone(parkRules), func(r workerRule) bool { return r.ev == evPoll })
	states, err := exploreMaster(table)
	require.NoError(t, err)
	t.Logf("%d states without the poll rule, no violation", states)
}
