package sched

// The core's rules for who runs a worker, as one table: crewRules. The
// crew (lend.go) follows it, and reports each move it makes through
// trace; the package's tests check every move against the table while
// they run (CheckTables, in their TestMain).
// INTERNALS.md prints it (TestCrewTableDoc). An exhaustive exploration
// of a model of the pool's goroutines, every order of their moves in
// small scope, checks that the rules keep what the crew promises
// (TestCrewTableExplored):
//
//   - one goroutine runs each worker at any moment;
//   - a goroutine goes on unseated only at its task's depth zero, where
//     no frame below needs the worker;
//   - every task ends, once, and no goroutine waits for ever.
//
// TestCrewTableBugs shows that the exploration can fail: each of a few
// wrong tables breaks one of these.

// gstate is the state of one goroutine of a Pool, as to its worker.
type gstate uint8

const (
	gNew      gstate = iota // about to start, with the worker a lend gives it
	gHolds                  // runs the worker: its loop, a task, a helping wait
	gLent                   // lent the worker: in Block's function, or asleep in a wait
	gUnseated               // its task goes on after Block, without the worker
	gWaits                  // waits to take the worker back
	gSpare                  // parked, with no worker, until a lend takes it
	gGone                   // ended
)

var gstateNames = [...]string{"new", "holds", "lent", "unseated", "waits", "spare", "gone"}

// gstateDocs say what each state means, as INTERNALS.md prints them.
var gstateDocs = [...]string{
	"about to start, with the worker that a lend or a Goexit gives it",
	"runs the worker: its loop, a task, a join, a helping wait",
	"lent the worker: in Block's function, or asleep until a latch is done",
	"its task goes on after Block without the worker (a task at depth zero)",
	"waits to take the worker back (`seat.waiting`)",
	"parked with no worker, until a lend takes it (`crew.spares`)",
	"ended",
}

func (s gstate) String() string { return gstateNames[s] }

// gevent is what moves a goroutine from one state to another.
type gevent uint8

const (
	evBlock         gevent = iota // Task.Block, or a helping wait with nothing it may run (compensate)
	evLendToWaiter                // a helping wait with nothing to run, while a goroutine waits
	evReturnTop                   // Block's function returns, its task at depth zero and not measured
	evReturn                      // Block's function returns or fails otherwise, or the wait is over
	evNeedWorker                  // the unseated task uses t, left forks or groups, or calls Goexit
	evEndUnseated                 // the unseated task returns or panics
	evHandBack                    // the holder reaches a safe point while a goroutine waits
	evTake                        // the goroutine is given the worker
	evGoexit                      // runtime.Goexit ends the goroutine that holds the worker
	evClose                       // the pool closes
	evTrim                        // a spare beyond the crew's limit is told to end
	evBlockUnseated               // Task.Block of an unseated task
	evHandedOn                    // the unseated task ended, and its group handed a task on
)

var geventNames = [...]string{"block", "lendToWaiter", "returnTop", "return", "needWorker", "endUnseated", "handBack", "take", "goexit", "close", "trim", "blockUnseated", "handedOn"}

func (e gevent) String() string { return geventNames[e] }

// give is to whom a rule hands the worker.
type give uint8

const (
	giveNone   give = iota
	giveLend        // the goroutine that waited longest, else a spare, else a new goroutine (crew.lend)
	giveWaiter      // the goroutine that waited longest (crew.takeWaiter)
	giveNew         // a new goroutine (crew.goWith)
)

// crewRule is one row of the table. A rule whose to holds two states
// chooses the first while the crew keeps fewer spares than it may, the
// second otherwise (crew.retire). It may keep one per worker and one per
// goroutine that lent the worker and has not taken it back, or that did
// at once since the garbage collection before the last (spareLimit). A
// retire that finds more ends one spare, and a collection the oldest
// beyond the limit (evTrim, crew.collected).
type crewRule struct {
	from  gstate
	ev    gevent
	to    []gstate
	gives give
	// event, next and who are the row as INTERNALS.md prints it.
	event, next, who string
}

// crewRules is the table. Its order is the document's.
var crewRules = []crewRule{
	{gHolds, evBlock, []gstate{gLent}, giveLend,
		"`Task.Block`, or a helping wait with nothing it may run (`compensate`)",
		"lent: calls f, or sleeps until the latch",
		"the goroutine; the worker goes to the longest waiter, a spare or a new goroutine (`lend`)"},
	{gHolds, evLendToWaiter, []gstate{gLent}, giveWaiter,
		"a helping wait with nothing to run while a goroutine waits for the worker",
		"lent: sleeps until the latch (`lendToWaiter`)",
		"the goroutine; the worker goes to the longest waiter"},
	{gLent, evReturnTop, []gstate{gUnseated}, giveNone,
		"f returns, the task at depth zero and not measured",
		"unseated: goes on without the worker (`endBlock`)",
		"the goroutine alone"},
	{gLent, evReturn, []gstate{gWaits}, giveNone,
		"f returns or fails otherwise, or the latch is done",
		"waits for the worker (`reclaim`)",
		"the goroutine; the worker's goroutine hands it back at its next safe point"},
	{gUnseated, evBlockUnseated, []gstate{gUnseated}, giveNone,
		"`Task.Block` of the unseated task",
		"unseated: calls f, with no worker to lend (`blockUnseated`)",
		"the goroutine alone"},
	{gUnseated, evHandedOn, []gstate{gUnseated}, giveNone,
		"the task ends, and its group hands on a task that a Go queued for its limit",
		"unseated: runs that task without the worker (`runHanded`)",
		"the goroutine alone"},
	{gUnseated, evNeedWorker, []gstate{gWaits}, giveNone,
		"a use of t, forks or groups left, a Goexit, `Pool.Do`",
		"waits for the worker (`reseat`)",
		"the goroutine; as above"},
	{gUnseated, evEndUnseated, []gstate{gSpare, gGone}, giveNone,
		"the task returns or panics",
		"retires: counts the task, ends its frame (`endUnseated`), parks as a spare or ends",
		"the goroutine"},
	{gHolds, evHandBack, []gstate{gSpare, gGone}, giveWaiter,
		"a safe point (between items, or no work) while a goroutine waits",
		"retires: parks as a spare or ends (`serve`, `retire`)",
		"the goroutine; the worker goes to the longest waiter"},
	{gWaits, evTake, []gstate{gHolds}, giveNone,
		"given the worker",
		"holds: its task goes on",
		"the giver"},
	{gSpare, evTake, []gstate{gHolds}, giveNone,
		"given the worker by a lend",
		"holds: runs the worker's loop",
		"the giver"},
	{gNew, evTake, []gstate{gHolds}, giveNone,
		"started by a lend or a Goexit (`goWith`)",
		"holds: runs the worker's loop",
		"the giver"},
	{gHolds, evGoexit, []gstate{gGone}, giveNew,
		"runtime.Goexit",
		"ends, with every frame on it",
		"`crew.serve`; the worker goes to a new goroutine"},
	{gSpare, evTrim, []gstate{gGone}, giveNone,
		"a retire or a garbage collection finds more spares than the crew may keep",
		"ends",
		"the retiring goroutine, or the collection's cleanup, wakes it (`retire`, `collected`)"},
	{gSpare, evClose, []gstate{gGone}, giveNone,
		"the pool closes",
		"ends",
		"the goroutine whose worker loop returned wakes it (`endSpares`)"},
	{gHolds, evClose, []gstate{gGone}, giveNone,
		"the pool closes: the worker's loop returns",
		"ends",
		"the goroutine"},
}

// ruleOf returns the rule of the table for s and e.
func ruleOf(table []crewRule, s gstate, e gevent) (crewRule, bool) {
	for _, r := range table {
		if r.from == s && r.ev == e {
			return r, true
		}
	}
	return crewRule{}, false
}

// trace reports the calling goroutine's move e to moveTrace, the seam
// that the engine's workers report through too: a load, while no test
// listens.
func trace(e gevent) {
	if f := moveTrace.Load(); f != nil { // atomic: a test sets it while pools may run
		(*f)(nil, uint8(e))
	}
}
