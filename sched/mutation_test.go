//go:build wsqcheck

package sched

import (
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/check/mutant"
)

// The deliberate bugs of the rules that keep work from hiding: the private
// forks (runner.go, lend.go) and the items a queue may hold (worker.go);
// and of those that measure a run (measure.go).
// Each is a patch that a test compiles into a test binary of its own
// (internal/check/mutant) to show that a check finds it. The code under test
// carries no switch for them.

func patchOf(file, old, new string) mutant.Patch {
	return mutant.Patch{File: file, Old: old, New: new}
}

// explorerCases are found by the interleaving checks of the private forks.
var explorerCases = []struct {
	m        mutant.Mutant
	scenario string
}{
	// A publish takes the newest private forks instead of the oldest: the
	// private forks left are older than the queue's items.
	{mutant.Mutant{Name: "publish takes the newest forks", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\t\tfor _, b := range s.slots[:k] {\n", "\t\tfor _, b := range s.slots[s.n-k : s.n] {\n"),
		patchOf("forkstack.go", "\t\tw.pushOne(Job{kind: s.mark(s.slots[0])})\n", "\t\tw.pushOne(Job{kind: s.mark(s.slots[s.n-1])})\n"),
		patchOf("forkstack.go", "\tcopy(s.slots, s.slots[k:n])\n", ""),
	}}, "ask-answered"},
	// A publish leaves the forks it published among the private ones:
	// the thief runs them, and the owner's drain runs them again.
	{mutant.Mutant{Name: "publish keeps what it published", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\tcopy(s.slots, s.slots[k:n])\n\tclear(s.slots[n-k : n]) // the published records: out of the slots\n\ts.n = n - k\n", "\t_ = n\n"),
	}}, "long-items"},
}

// testCases are found by a test of the package.
var testCases = []mutant.TestCase{
	// A fork does not poll: the private forks stay private however often
	// thieves ask, until a join polls.
	{Mutant: mutant.Mutant{Name: "a fork does not poll", Patches: []mutant.Patch{
		patchOf("fork.go", "\ts.push(t, &rec.record, true)\n\ts.poll(t.runner.w)\n\treturn Future[R]{", "\ts.push(t, &rec.record, true)\n\treturn Future[R]{"),
	}}, Test: "^TestPublishOldest$"},
	// An answer publishes nothing: the thief that asked waits for ever.
	{Mutant: mutant.Mutant{Name: "an answer publishes nothing", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\ts.publish(w, (s.n+1)/2)\n", "\ts.publish(w, 0)\n"),
	}}, Test: "^TestPublishOldest$"},
	// An ask that finds no private fork is cleared: the thief that asked
	// sleeps while the worker forks in private.
	{Mutant: mutant.Mutant{Name: "an empty answer clears the ask", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\tif s.n == 0 {\n\t\treturn\n\t}\n", ""),
	}}, Test: "^TestAskWithoutForksStays$"},
	// The join of a private fork does not poll: a task that joins its
	// forks in turn keeps them all from an idle worker.
	{Mutant: mutant.Mutant{Name: "a join does not poll", Patches: []mutant.Patch{
		patchOf("fork.go", "\t\ts.untrack(t, &rec.record)\n\t\ts.poll(r.w)\n", "\t\ts.untrack(t, &rec.record)\n"),
	}}, Test: "^TestJoinAnswersAsk$"},
	// A wait that takes a private fork to run it does not count it in
	// pending first: the run's count falls below what is left.
	{Mutant: mutant.Mutant{Name: "a taken fork is not counted", Patches: []mutant.Patch{
		patchOf("runner.go", "\t\tr.w.count(1) // exec counts it as handled\n", ""),
	}}, Test: "^TestTakenForksCounted$"},
	// The join of a worker's last published fork does not ask: the next
	// fork stays private though the queue shows none of the worker's.
	{Mutant: mutant.Mutant{Name: "the last published fork's join does not ask", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\t\t\tw.ask() // the queue shows none of this worker's forks: the next fork answers\n", ""),
	}}, Test: "^TestUnshowAsks$"},
	// Task.Block lends the worker with forks kept private on the goroutine
	// that blocks: nobody can run them meanwhile.
	{Mutant: mutant.Mutant{Name: "Block keeps the private forks", Patches: []mutant.Patch{
		patchOf("lend.go", "\tr.forks.publishAll(r.w) // the worker's next goroutine, and thieves, may run them meanwhile\n", ""),
	}}, Test: "^TestBlockPublishes$"},
	// A pop while someone sleeps does not wake it, though the pop may
	// have published what a sleeper asked for.
	{Mutant: mutant.Mutant{Name: "a pop wakes nobody", Patches: []mutant.Patch{
		patchOf("worker.go", "\tif w.long || atomic.LoadInt32(w.sleepers) != 0 {\n\t\tw.poppedAside()\n", "\tif w.long {\n\t\tw.poppedAside()\n"),
	}}, Test: "^TestPopWakesSleeper$"},
	// A worker whose items are long holds items at a pop: they wait for
	// the item it runs.
	{Mutant: mutant.Mutant{Name: "long items hold at a pop", Patches: []mutant.Patch{
		patchOf("worker.go", "\tif w.long || atomic.LoadInt32(w.sleepers) != 0 {\n\t\tw.poppedAside()\n", "\tif atomic.LoadInt32(w.sleepers) != 0 {\n\t\tw.poppedAside()\n"),
	}}, Test: "^TestLongItemsHoldNothing$"},
	// A worker whose items are long holds what it pushes.
	{Mutant: mutant.Mutant{Name: "long items hold at a push", Patches: []mutant.Patch{
		patchOf("worker.go", "\tif w.room -= n; w.room < 0 || w.long || atomic.LoadInt32(w.sleepers) != 0 {\n", "\tif w.room -= n; w.room < 0 || atomic.LoadInt32(w.sleepers) != 0 {\n"),
	}}, Test: "^TestLongItemsHoldNothing$"},
	// A new worker counts as short: the quick item that spawns a batch
	// lets it hold the batch behind the next long item.
	{Mutant: mutant.Mutant{Name: "a new worker counts as short", Patches: []mutant.Patch{
		patchOf("worker.go", "\tw.grain, w.busySince, w.gap, w.nextSample = unknownGrain, -1, 1, 1\n\tw.coarse, w.long = true, true\n", "\tw.grain, w.busySince, w.gap, w.nextSample = 0, -1, 1, 1\n"),
	}}, Test: "^TestSampleGrain$"},
	// A helping wait runs a task that does not descend from the waiting one:
	// a task that waits for a sibling, or another Do's task, lands above
	// the task it waits for, or a Goexit ends the wrong Do.
	{Mutant: mutant.Mutant{Name: "a helping wait runs any task", Patches: []mutant.Patch{
		patchOf("runner.go", "\t\t\tif descends(j, waiter) {\n", "\t\t\tif true || descends(j, waiter) {\n"),
	}}, Test: "^(TestWaitForSibling|TestGoexitStaysInItsDo)$"},
	// A panic that a deferred call raises while a Goexit unwinds the task
	// counts as the task's outcome, though the Goexit goes on.
	{Mutant: mutant.Mutant{Name: "a panic during a Goexit counts as a panic", Patches: []mutant.Patch{
		patchOf("panic.go", "\tif v == nil || goexiting() {\n", "\tif v == nil {\n"),
	}}, Test: "^TestPanicDuringGoexit$"},
	// The implicit wait seals the task's groups before it joins its forks:
	// a fork that starts a task in its parent's group panics.
	{Mutant: mutant.Mutant{Name: "the implicit wait seals the groups first", Patches: []mutant.Patch{
		patchOf("task.go", "\tr := t.runner\n\tfor t.forks.unjoined > 0 {\n", "\tr := t.runner\n\tfor t.groups != nil {\n\t\tkeep(t.groups.sync(t))\n\t}\n\tfor t.forks.unjoined > 0 {\n"),
	}}, Test: "^TestImplicitJoinForksFirst$"},
	// A frame that a Goexit ends does not wait for its forks: Do ends while
	// parts of a loop still run.
	{Mutant: mutant.Mutant{Name: "a Goexit does not wait for the forks", Patches: []mutant.Patch{
		patchOf("runner.go", "\tif t.forks.unjoined != 0 || t.groups != nil {\n\t\tif g := t.sync(); f == nil {\n", "\tif (f == nil || !f.goexit) && (t.forks.unjoined != 0 || t.groups != nil) {\n\t\tif g := t.sync(); f == nil {\n"),
	}}, Test: "^TestGoexitWaitsForForks$"},
	// A Join whose f calls Goexit does not wait for g.
	{Mutant: mutant.Mutant{Name: "a Goexit in f does not wait for g", Patches: []mutant.Patch{
		patchOf("fork.go", "\tr.await(&js.b.l)\n", "\tif !f.goexit {\n\t\tr.await(&js.b.l)\n\t}\n"),
	}}, Test: "^TestGoexitWaitsForForks$"},
	// A measured goroutine keeps its forks private: their joins take them
	// back and call them in frames that no one measures.
	{Mutant: mutant.Mutant{Name: "a measured fork stays private", Patches: []mutant.Patch{
		patchOf("forkstack.go", "\tif s.measured && s.n > 0 {\n", "\tif false && s.measured && s.n > 0 {\n"),
	}}, Test: "^TestMeasureLeaves$"},
	// A helping wait lets the waiter's strand run on: the tasks it runs
	// count twice, in their frames and in the waiter's.
	{Mutant: mutant.Mutant{Name: "a helping wait does not stop the waiter's strand", Patches: []mutant.Patch{
		patchOf("runner.go", "\t\twaiter.meas.wait(waiter)", "\t\t_ = waiter.meas"),
	}}, Test: "^TestMeasureLeaves$"},
	// A task that joins its sibling's Future adds the sibling's work, which
	// the forking task's join adds too.
	{Mutant: mutant.Mutant{Name: "a join of a sibling adds its work", Patches: []mutant.Patch{
		patchOf("fork.go", "\t\tt.meas.join(t, &rec.record, false)", "\t\tt.meas.join(t, &rec.record, true)"),
	}}, Test: "^TestMeasureSiblingJoin$"},
	// An unseated task's use of t does not take its worker back: the task
	// pushes into a queue that another goroutine owns, and waits for ever.
	{Mutant: mutant.Mutant{Name: "an unseated task uses the worker it lent", Patches: []mutant.Patch{
		patchOf("task.go", "\t\tt.runner.c.reseat(t.runner)\n", "\t\tt.runner.top, t.runner.unseated = t, false\n"),
	}}, Test: "^TestBlockEndsUnseated$/master/use_of_t$"},
	// A task that ends unseated is not counted in Stats.
	{Mutant: mutant.Mutant{Name: "an unseated end is not counted", Patches: []mutant.Patch{
		patchOf("lend.go", "\tc.seats[r.w.id].unseatedEnds.Add(1) // atomic: Stats reads it on any goroutine\n", ""),
	}}, Test: "^TestBlockEndsUnseated$/master/return$"},
	// Task.Block's function is not timed: neither work nor blocked.
	{Mutant: mutant.Mutant{Name: "Block's function is not work", Patches: []mutant.Patch{
		patchOf("lend.go", "\t\tdefer m.blockEnd(t, m.blockStart(t))\n", "\t\t_ = m\n"),
	}}, Test: "^TestMeasureBlock$"},
	// A spawned item of Run starts its path afresh, not at its spawner's.
	{Mutant: mutant.Mutant{Name: "a spawn does not carry the path", Patches: []mutant.Patch{
		patchOf("run.go", "spawned[T]{v: v, span: from.span, bspan: from.bspan}", "spawned[T]{v: v, bspan: from.bspan}"),
	}}, Test: "^TestRunMeasured$"},
}

// TestMutantsFoundByExplorer: each bug of explorerCases is found by the
// exploration of its scenario, which the code passes.
func TestMutantsFoundByExplorer(t *testing.T) {
	for _, c := range explorerCases {
		t.Run(c.m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, c.m, "wsqcheck")
			r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern("TestInterleavePrivateForks", c.scenario))
			if r.Passed || !strings.Contains(r.Output, "violation") {
				t.Fatalf("the explorer did not find the bug in %s:\n%s", c.scenario, r.Output)
			}
			if v := mutant.Violation(r.Output); v != "" {
				t.Logf("%s: %s", c.scenario, v)
			}
		})
	}
}

// TestMutantsFoundByTests: each bug of testCases fails the test named with
// it, which the code passes.
func TestMutantsFoundByTests(t *testing.T) {
	mutant.CheckFoundByTests(t, testCases, "wsqcheck")
}
