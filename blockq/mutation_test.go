//go:build wsqcheck

package blockq

import (
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/check/mutant"
)

// The deliberate bugs of blockq, each a patch of blockq.go that a test
// compiles into a test binary of its own (internal/check/mutant) to show that a
// check finds it: the interleaving explorer (TestMutantsFoundByExplorer)
// or the wrap test that guards a counter (TestMutantsIgnoringWrap). The
// code under test carries no switch for them.

func patch(old, new string) mutant.Patch { return mutant.Patch{File: "blockq.go", Old: old, New: new} }

var explorerCases = []struct {
	m        mutant.Mutant
	test     string // the exploration that finds it
	scenario string // a scenario of that test
	want     string // in the violation found
}{
	// A thief reserves with a plain store of the control word instead of
	// the compare-and-swap that validates the value it computed from.
	{mutant.Mutant{Name: "thief reserves without the compare-and-swap", Patches: []mutant.Patch{
		patch("\t\t\t\tif f.ctl.CompareAndSwap(c, take(c, k)) {\n", "\t\t\t\tif f.ctl.Store(take(c, k)); true {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "one-item/Steal", "violation"},
	// The owner pops with a plain store: it overwrites a reservation.
	{mutant.Mutant{Name: "owner pops without the compare-and-swap", Patches: []mutant.Patch{
		patch("ctlGen(c) != genMask && o.f.ctl.CompareAndSwap(c, c+1) {\n", "ctlGen(c) != genMask {\n\t\to.f.ctl.Store(c + 1)\n"),
	}}, "TestInterleaveTwoSlotBlocks", "one-item/StealBatch", "violation"},
	// The owner's claim leaves the word as it is: a thief that loaded the
	// word before the pop still reserves the popped item.
	{mutant.Mutant{Name: "pop does not count itself in the word", Patches: []mutant.Patch{
		patch("ctlGen(c) != genMask && o.f.ctl.CompareAndSwap(c, c+1) {\n", "ctlGen(c) != genMask && o.f.ctl.CompareAndSwap(c, c) {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "one-item/Steal", "violation"},
	// A thief takes the published tail for the current one, ignoring the
	// pops made since it was published: it reserves a popped item.
	{mutant.Mutant{Name: "thief ignores the pops since the tail was published", Patches: []mutant.Patch{
		patch("\tpops := (c - tw) & genMask\n", "\tpops := (c - c) & genMask\n"),
	}}, "TestInterleaveTwoSlotBlocks", "one-item/Steal", "violation"},
	// The owner publishes its tail without its pop count: thieves that
	// load the word after pops take them for pops made since the tail was
	// published, subtract them again and miss items.
	{mutant.Mutant{Name: "the tail is published without the pop count", Patches: []mutant.Patch{
		patch("return (o.base+uint64(o.fill))<<posShift | o.c&genMask }", "return (o.base + uint64(o.fill)) << posShift }"),
	}}, "TestInterleaveTwoSlotBlocks", "drain-refill/Steal", "violation"},
	// A helper makes the new tenure's word with the pop count at 0: after
	// pops, thieves compare it with the tail's count and miscount.
	{mutant.Mutant{Name: "helper restarts the pop count in the new tenure", Patches: []mutant.Patch{
		patch("\tnf.ctl.CompareAndSwap(0, live(v, ctlGen(m))) // unborn to live, once\n", "\tnf.ctl.CompareAndSwap(0, live(v, 0))\n"),
	}}, "TestInterleaveTwoSlotBlocks", "two-thieves-move", "violation"},
	// Whoever moves the front makes the new tenure's word live with a
	// store, not a compare-and-swap from unborn: a late helper overwrites
	// the live word with the frozen one, undoing reservations and pops.
	{mutant.Mutant{Name: "helper stores the new front's word", Patches: []mutant.Patch{
		patch("\tnf.ctl.CompareAndSwap(0, live(v, ctlGen(m))) // unborn to live, once\n", "\tnf.ctl.Store(live(v, ctlGen(m)))\n"),
	}}, "TestInterleaveTwoSlotBlocks", "two-thieves-move", "violation"},
	// A helper records the tenure its walk found with a store, not a
	// compare-and-swap from nil: a helper that walks after the front moved
	// on records a tenure of whatever link its walk ended at, and the
	// helpers after it make that tenure live, so that its link, when it
	// becomes the front later, starts from a word nobody computed for it.
	{mutant.Mutant{Name: "helper records its walk's tenure with a store", Patches: []mutant.Patch{
		patch("\t\t\tf.fwd.CompareAndSwap(nil, cand)\n", "\t\t\tf.fwd.Store(cand)\n"),
	}}, "TestInterleaveTwoSlotBlocks", "two-thieves-lists", "violation"},
	// A thief takes the front link's whole window for its span: after the
	// owner sealed the link early to append a List, the thief reserves a
	// position beyond the seal and reads a slot the queue does not use.
	{mutant.Mutant{Name: "thief ignores the seal of the front link", Patches: []mutant.Patch{
		patch("\t\t\tif idx >= spanOf(f.l) {\n", "\t\t\tif idx >= len(f.l.slots) {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "steal-then-list", "violation"},
	// The owner moves the front whenever the oldest position lies beyond
	// it, also when that position is in no link (an empty queue whose
	// back block is full): the move walks off the end of the chain.
	{mutant.Mutant{Name: "owner moves the front to a position no link holds", Patches: []mutant.Patch{
		patch("\t\tif move && ctlIdx(c) >= spanOf(f.l) && q.ownerCanMove(f, c) {\n", "\t\tif move && ctlIdx(c) >= spanOf(f.l) {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "owner-moves-front", "panic"},
	// The owner moves the front into the empty link it keeps behind its
	// back, which its next List push replaces: the front leaves the
	// chain, and a thief takes from a link the queue no longer uses.
	{mutant.Mutant{Name: "owner moves the front past its back", Patches: []mutant.Patch{
		patch("\t\tif l == back {\n", "\t\tif _ = back; l.next.Load() == nil {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "owner-moves-front-spare", "violation"},
	// A thief marks as emptied a link whose positions it copied only in
	// part: the owner reuses the block while another thief still copies
	// the rest of it, or while it still holds items.
	{mutant.Mutant{Name: "thief marks a block it did not empty", Patches: []mutant.Patch{
		patch("\t\tif mark && n == span {\n", "\t\tif mark && n > 0 {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "shared-block", "violation"},
	// The pop that wraps the pop count moves the front but leaves the
	// count at its last value: the thieves that load the new tenure's word
	// and the tail see no pop since the tail, and take the popped item.
	{mutant.Mutant{Name: "the pop that wraps the count does not count itself", Patches: []mutant.Patch{
		patch("\t\t\tnext = moved(c) &^ genMask\n", "\t\t\tnext = moved(c)\n"),
	}}, "TestInterleaveCountersWrap", "pops-across-wrap", "violation"},
	// The owner's takeover claims all that its back block holds even when
	// thieves reserved some of it: the owner pops items a thief took.
	{mutant.Mutant{Name: "takeover ignores the published length", Patches: []mutant.Patch{
		patch("\tif pub <= m || m < 2 {\n", "\tif m < 2 {\n"),
	}}, "TestInterleaveTwoSlotBlocks", "takeover", "violation"},
	// The takeover claims one item more than the back block holds: the
	// owner holds a position of the block before, which it never pops.
	{mutant.Mutant{Name: "takeover reaches past the back block", Patches: []mutant.Patch{
		patch("\treturn int(min(uint64(m), max(1, genMask-gen)))\n", "\treturn int(min(uint64(m+1), max(1, genMask-gen)))\n"),
	}}, "TestInterleaveTwoSlotBlocks", "takeover", "panic"},
	// Pop takes the newest published item as if the owner held it,
	// without a claim: a thief that reserved it takes it too.
	{mutant.Mutant{Name: "owner pops a published item as held", Patches: []mutant.Patch{
		patch("\tif o.fill > o.pfill { // an item the owner holds\n", "\tif o.fill > 0 { // an item the owner holds\n"),
	}}, "TestInterleaveTwoSlotBlocks", "one-item/Steal", "violation"},
}

// The deliberate bugs of the rules on holding items that no interleaving
// shows (nothing is lost or taken twice, but thieves do not see what they
// should), each found by the sequential checks of the conformance suite,
// which hold a queue's Len to its model and to the rules of
// wsq.Contract.OwnerHolds.
var sequentialCases = []struct {
	m    mutant.Mutant
	want string // in the failure
}{
	// A push publishes nothing, though the owner holds nothing: thieves
	// see an item only once a thief asks for it.
	{mutant.Mutant{Name: "push holds when the owner holds nothing", Patches: []mutant.Patch{
		patch("\tif o.fill == o.pfill {\n\t\to.fill++\n\t\to.pfill = o.fill\n", "\tif false {\n\t\to.fill++\n\t\to.pfill = o.fill\n"),
	}}, "Len ="},
	// A thief that finds nothing published does not ask: the owner holds
	// its items until it links a block or is done.
	{mutant.Mutant{Name: "thief does not ask", Patches: []mutant.Patch{
		patch("\t\t\t\tq.ask()\n", ""),
	}}, "Len ="},
	// The owner's pop does not answer a thief's request.
	{mutant.Mutant{Name: "pop does not answer a request", Patches: []mutant.Patch{
		patch("\t\tif q.want.Load() != 0 { // a thief found nothing published\n\t\t\tq.publish()\n\t\t}\n\t\treturn v, true\n", "\t\treturn v, true\n"),
	}}, "Len ="},
}

// TestMutantsFoundBySequentialChecks: each bug of sequentialCases, compiled
// into a test binary of its own, fails the conformance suite's random
// sequential check, which the code passes in every run of the tests.
func TestMutantsFoundBySequentialChecks(t *testing.T) {
	for _, c := range sequentialCases {
		t.Run(c.m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, c.m, "wsqcheck")
			r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern("TestDefault", "RandomSequential"))
			if r.Passed || !strings.Contains(r.Output, c.want) {
				t.Fatalf("the sequential check did not find the bug:\n%s", r.Output)
			}
			t.Logf("%s", mutant.FailureLine(r.Output))
		})
	}
}

// TestMutantsFoundByExplorer: each protocol bug above, compiled into a test
// binary of its own, is found by the exhaustive exploration of the scenario
// named with it, and the code without it passes the same scenario (it runs
// in every run of the interleaving checks).
func TestMutantsFoundByExplorer(t *testing.T) {
	for _, c := range explorerCases {
		t.Run(c.m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, c.m, "wsqcheck")
			r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern(c.test, c.scenario))
			if r.Passed || !strings.Contains(r.Output, c.want) {
				t.Fatalf("the explorer did not find the bug in %s:\n%s", c.scenario, r.Output)
			}
			if v := mutant.Violation(r.Output); v != "" {
				t.Logf("%s: %s", c.scenario, v)
			}
		})
	}
}

// wrapMutants pairs each counter's wrap-ignoring variant with the test that
// guards the wrap and a line of its failure.
var wrapMutants = []mutant.WrapCase{
	// The pop that wraps the count keeps the tenure, so its live word can
	// come back to a value a stalled thief loaded 2^30 pops ago.
	{Mutant: mutant.Mutant{Name: "the pop count wraps within a tenure", Patches: []mutant.Patch{
		patch("\t\t\tnext = moved(c) &^ genMask\n", "\t\t\tnext = c &^ genMask\n"),
	}}, Test: "TestStalledStealAcrossPopCountWrap", Want: "the stalled thief reserved"},
	// A thief that computes a length of 0 reports the queue empty without
	// checking that the word it computed from was still the word when it
	// loaded the tail.
	{Mutant: mutant.Mutant{Name: "thief reports empty without loading the word again", Patches: []mutant.Patch{
		patch("\t\t\tif f.ctl.Load() == c {\n", "\t\t\tif true {\n"),
	}}, Test: "TestStalledEmptyCheckAcrossPopCountWrap", Want: "a thief reported empty a queue that always held 2 items"},
	// The length is not taken modulo the range of positions.
	{Mutant: mutant.Mutant{Name: "the length ignores the wrap of the positions", Patches: []mutant.Patch{
		patch("\treturn (tw>>posShift - pops - f.base.Load() - uint64(ctlIdx(c))) & posMask\n", "\treturn tw>>posShift - pops - f.base.Load() - uint64(ctlIdx(c))\n"),
	}}, Test: "TestCountersWrap", Want: "after the pushes"},
}

// TestMutantsIgnoringWrap: each wrap test fails against the variant that
// ignores the wrap it guards (and passes against the code, in every other
// run of the tests).
func TestMutantsIgnoringWrap(t *testing.T) {
	mutant.CheckWrapTests(t, wrapMutants)
}
