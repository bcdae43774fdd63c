package interleave

import (
	"errors"
	"fmt"
)

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
