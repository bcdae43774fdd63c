package sched

import "sync/atomic"

// The engine's rules for how a worker looks for work, parks and wakes,
// as one table: parkRules. The workers and masters follow it, and report
// each move they make through traceMove; the package's tests check every
// move against the table while they run (CheckTables, in their
// TestMain). INTERNALS.md prints it (TestParkTableDoc). Exhaustive
// explorations of a model of each mode, every order of its moves in
// small scope, check that the rules keep what the engine promises
// (TestParkTableExplored, TestParkTableMaster):
//
//   - no lost wake-up: nobody sleeps for ever while an item is queued;
//   - every item runs, once;
//   - every worker ends once the run is complete.
//
// TestParkTableBugs and TestParkTableMasterBugs show that the
// explorations can fail: each of a few wrong tables breaks one of these.
//
// The rule that keeps wake-ups: a publisher pushes, then wakes a
// sleeper if nobody searches. Whoever stops searching leaves the
// searchers first and looks at every queue after: a worker about to
// sleep (announced), or the last searcher, who then wakes a sleeper.

// wstate is the state of a worker, a master or a publisher, as to the
// look for work.
type wstate uint8

const (
	wRuns      wstate = iota // handles items, or runs a task
	wSearches                // looks for work, counted among searchers or pollers
	wAnnounced               // counted among sleepers, looks at every queue once more
	wParked                  // sleeps until a token, its late look, its latch or a recall
	wWoken                   // a waker took it off the sleepers; its token is on the way
	wAwaits                  // Master mode: stopped polling, sleeps until its delivery
	wGone                    // its look ended with the run
	mIdle                    // a master: waits for a worker's request
	mServes                  // a master: steals for a request
	mAnnounced               // a master: counted among sleepers, looks once more
	mParked                  // a master: sleeps until a token or its late look
	wPublishes               // a publisher: a goroutine that made items stealable
)

var wstateNames = [...]string{"runs", "searches", "announced", "parked", "woken", "awaits", "gone",
	"m-idle", "m-serves", "m-announced", "m-parked", "publishes"}

// wstateDocs say what each state means, as INTERNALS.md prints them.
var wstateDocs = [...]string{
	"handles items or runs a task, its own or a helping wait's",
	"looks for work, counted among searchers (`spinning`) or pollers (`polling`)",
	"counted among sleepers (`sleepers`), looks at every queue and the inject queue once more",
	"sleeps until a token, its late look, its latch or a recall (`park`)",
	"a waker took it off the sleepers and counted it as searching; its token is on the way",
	"Master mode: stopped polling, sleeps until its delivery",
	"its look ended: the run is complete or cancelled",
	"a master: waits for a worker's request (`masters.idle`)",
	"a master: steals for a request (`stealFor`)",
	"a master: counted among sleepers, looks at every queue once more",
	"a master: sleeps until a token or its late look",
	"a goroutine that made items stealable while someone may sleep (`published`)",
}

func (s wstate) String() string { return wstateNames[s] }

// wevent is what moves a worker, a master or a publisher.
type wevent uint8

const (
	evLook      wevent = iota // the worker's items run dry (findWork)
	evFound                   // the look took items
	evGiveUp                  // stopLooking holds: its latch is done, or its worker is wanted
	evAnnounce                // it joins the sleepers
	evSleep                   // its look once more found nothing
	evWake                    // a waker takes it off the sleepers
	evTakeToken               // it takes a waker's token
	evRejoin                  // it takes itself off the sleepers
	evAwait                   // Master mode: its polls ran out
	evPoll                    // Master mode: a poll wakes a sleeping master
	evEnd                     // the run is complete or cancelled
	evServe                   // a master takes a request
	evDeliver                 // a master answers a request
	evPublish                 // a publisher made items stealable while someone may sleep
)

var weventNames = [...]string{"look", "found", "giveUp", "announce", "sleep", "wake", "takeToken",
	"rejoin", "await", "poll", "end", "serve", "deliver", "publish"}

func (e wevent) String() string { return weventNames[e] }

// when is the condition under which a rule's move may be taken.
type when uint8

const (
	whenAny     when = iota // at any time: the mode's own choice
	whenDry                 // the worker holds no item
	whenItem                // the look took an item
	whenNothing             // its look at every queue and the inject queue found nothing
	whenWork                // its look at every queue and the inject queue found an item
	whenToken               // a waker's token came
	whenDone                // the run is complete or cancelled
	whenLate                // its late look saw work, its latch is done, or a recall came
)

// wakes is whom a rule's move wakes.
type wakes uint8

const (
	wakesNone       wakes = iota
	wakesIfNone           // a sleeper, if nobody searches (Random) or polls (Master)
	wakesIfLast           // a sleeper, if it was the last searcher and some queue shows work
	wakesMasterWork       // a sleeping master, if some queue shows work
)

// workerRule is one row of the table. A rule applies to a worker in any
// of its from states. master says that only Master mode takes it.
type workerRule struct {
	from   []wstate
	ev     wevent
	to     wstate
	when   when
	wakes  wakes
	master bool
	// event, next and who are the row as INTERNALS.md prints it.
	event, next, who string
}

// parkRules is the table. Its order is the document's.
var parkRules = []workerRule{
	{[]wstate{wRuns}, evLook, wSearches, whenDry, wakesNone, false,
		"its items run dry (`findWork`)",
		"searches: steals and takes injected items (Random), or asks the masters and polls (Master)",
		"the worker"},
	{[]wstate{wRuns}, evEnd, wGone, whenDone, wakesNone, false,
		"its items run dry after the run is complete, or its loop sees the run halted: cancelled",
		"gone",
		"the worker"},
	{[]wstate{wSearches}, evFound, wRuns, whenItem, wakesIfLast, false,
		"it took items: a steal, injected items, a delivery",
		"runs; the last searcher looks at every queue and wakes a sleeper if any shows work (`stopSearching`, `stopPolling`)",
		"the worker"},
	{[]wstate{wSearches, wAwaits}, evGiveUp, wRuns, whenLate, wakesIfLast, false,
		"its helping wait's latch is done, or its worker is wanted (`stopLooking`)",
		"runs its task, or hands the worker over; a searcher wakes as above",
		"the worker"},
	{[]wstate{wSearches}, evAnnounce, wAnnounced, whenAny, wakesNone, false,
		"Random: rounds found nothing, and every worker looks or askWait is over",
		"announced: joins the sleepers, then leaves the searchers (`random.park`)",
		"the worker"},
	{[]wstate{wAnnounced}, evSleep, wParked, whenNothing, wakesNone, false,
		"its look at every queue and the inject queue, after the announcement, found nothing",
		"parked (`park`)",
		"the worker"},
	{[]wstate{wAnnounced, wParked}, evWake, wWoken, whenAny, wakesNone, false,
		"a publisher or the last searcher wakes the newest sleeper",
		"woken: off the sleepers, counted as searching, a token sent (`wakeOne`)",
		"the waker"},
	{[]wstate{wGone}, evWake, wGone, whenAny, wakesNone, false,
		"a waker takes off the sleepers a worker that a cancelled run ended: other workers still push",
		"gone: the token stays unread",
		"the waker"},
	{[]wstate{wWoken}, evSleep, wWoken, whenNothing, wakesNone, false,
		"its look after the announcement found nothing",
		"woken: the token ends its sleep at once",
		"the worker"},
	{[]wstate{wWoken}, evTakeToken, wSearches, whenToken, wakesNone, false,
		"it takes the token",
		"searches",
		"the worker"},
	{[]wstate{wAnnounced}, evRejoin, wSearches, whenWork, wakesNone, false,
		"its look after the announcement found an item, or its latch or a recall",
		"searches: off the sleepers, among the searchers again (`rejoin`)",
		"the worker"},
	{[]wstate{wParked}, evRejoin, wSearches, whenLate, wakesNone, false,
		"its late look sees an item, its latch is done, or a recall",
		"searches, as above",
		"the worker"},
	{[]wstate{wSearches, wParked, wWoken, wAwaits}, evEnd, wGone, whenDone, wakesNone, false,
		"the run is complete or cancelled",
		"gone",
		"the worker"},
	{[]wstate{wPublishes}, evPublish, wPublishes, whenAny, wakesIfNone, false,
		"a push or a publish of held items, while someone may sleep (`notify`)",
		"wakes the newest sleeper if nobody searches (Random), a master if no worker polls (Master)",
		"the publisher: a task, a handler, or a goroutine outside"},
	{[]wstate{wSearches}, evAwait, wAwaits, whenAny, wakesIfLast, true,
		"Master: its polls ran out, and every worker waits or askWait is over",
		"awaits; the last poller wakes a master if some queue shows work (`stopPolling`)",
		"the worker"},
	{[]wstate{wSearches}, evPoll, wSearches, whenWork, wakesMasterWork, true,
		"Master: a poll sees a sleeping master and an item in some queue",
		"searches; wakes the master itself",
		"the worker"},
	{[]wstate{wAwaits}, evFound, wRuns, whenItem, wakesNone, true,
		"Master: its delivery comes",
		"runs",
		"the worker"},
	{[]wstate{mIdle}, evServe, mServes, whenAny, wakesNone, true,
		"a worker's request",
		"m-serves: steals for it, the injected items first",
		"the master"},
	{[]wstate{mServes}, evDeliver, mIdle, whenAny, wakesNone, true,
		"it took items, or the worker stopped waiting",
		"m-idle: the items, or nothing, in the worker's inbox",
		"the master"},
	{[]wstate{mServes}, evAnnounce, mAnnounced, whenAny, wakesNone, true,
		"no queue showed an item for its rounds",
		"m-announced: joins the sleepers (`awaitWork`)",
		"the master"},
	{[]wstate{mAnnounced}, evSleep, mParked, whenNothing, wakesNone, true,
		"its look at every queue after the announcement found nothing",
		"m-parked (`park`)",
		"the master"},
	{[]wstate{mAnnounced}, evRejoin, mServes, whenWork, wakesNone, true,
		"its look after the announcement found an item",
		"m-serves: off the sleepers (`unwait`)",
		"the master"},
	{[]wstate{mParked}, evRejoin, mServes, whenLate, wakesNone, true,
		"its late look sees an item",
		"m-serves, as above",
		"the master"},
	{[]wstate{mParked}, evTakeToken, mServes, whenToken, wakesNone, true,
		"a token: a publisher's, a poller's, the last poller's (`wakeMaster`)",
		"m-serves",
		"the master; the waker took it off the sleepers"},
	{[]wstate{mIdle, mParked}, evEnd, wGone, whenDone, wakesNone, true,
		"the run is complete or cancelled",
		"gone",
		"the master"},
}

// moveTrace, when set, is told each move that a goroutine reports: the
// crew's (trace) with who nil, and e a gevent; a worker's, a master's or a
// publisher's (traceMove) with who the mover, and e a wevent. Only tests
// set it.
var moveTrace atomic.Pointer[func(who any, e uint8)]

// traceMove reports who's move e to moveTrace: a load, while no test
// listens.
func traceMove[P any](who P, e wevent) {
	if f := moveTrace.Load(); f != nil { // atomic: a test sets it while workers run
		(*f)(who, uint8(e))
	}
}
