//go:build wsqcheck

package blockq

import (
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/mutant"
)

// The deliberate bugs of blockq, each a patch of blockq.go that
// TestMutantsFoundByExplorer compiles into a test binary of its own
// (internal/mutant) to show that the interleaving explorer finds it. The
// code under test carries no switch for them.

func patch(old, new string) mutant.Patch { return mutant.Patch{File: "blockq.go", Old: old, New: new} }

var explorerCases = []struct {
	m        mutant.Mutant
	scenario string // a scenario of TestInterleaveTwoSlotBlocks that finds it
	want     string // in the violation found
}{
	// A thief reserves with a plain store of the control word instead of
	// the compare-and-swap that validates the value it computed from.
	{mutant.Mutant{Name: "thief reserves without the compare-and-swap", Patches: []mutant.Patch{
		patch("\t\tif f.ctl.CompareAndSwap(c, take(c, k)) {\n", "\t\tif f.ctl.Store(take(c, k)); true {\n"),
	}}, "one-item/Steal", "violation"},
	// The owner pops with a plain store: it overwrites a reservation.
	{mutant.Mutant{Name: "owner pops without the compare-and-swap", Patches: []mutant.Patch{
		patch("\t\tif o.f.ctl.CompareAndSwap(c, c-1) {\n", "\t\tif o.f.ctl.Store(c - 1); true {\n"),
	}}, "one-item/StealBatch", "violation"},
	// The owner counts its pushes with a plain store, from its copy of the
	// word: it undoes the reservations made since.
	{mutant.Mutant{Name: "owner counts without the compare-and-swap", Patches: []mutant.Patch{
		patch("\tif c := o.c; o.f.ctl.CompareAndSwap(c, c+1) {\n", "\tif c := o.c; true {\n\t\to.f.ctl.Store(c + 1)\n"),
		patch("\tif c := o.c; o.f.ctl.CompareAndSwap(c, c+uint64(m)) {\n", "\tif c := o.c; true {\n\t\to.f.ctl.Store(c + uint64(m))\n"),
		patch("\t\tif o.f.ctl.CompareAndSwap(c, c+uint64(m)) {\n", "\t\tif o.f.ctl.Store(c + uint64(m)); true {\n"),
	}}, "list-while-steal/Steal", "violation"},
	// Whoever moves the front makes the new front's word live with a
	// store, not a compare-and-swap from unborn: a late helper overwrites
	// the live word with the frozen one.
	{mutant.Mutant{Name: "helper stores the new front's word", Patches: []mutant.Patch{
		patch("\tl.ctl.CompareAndSwap(0, live(v, ctlSize(m))) // unborn to live, once\n", "\tl.ctl.Store(live(v, ctlSize(m)))\n"),
	}}, "two-thieves-move", "violation"},
	// A thief trusts the span of the front it read before its
	// reservation: after a cycle of the owner's pops and pushes that
	// sealed the front and brought the word back, it reads a slot the
	// queue no longer uses (found by chaos mode in TestTinyBlocks).
	{mutant.Mutant{Name: "thief locates its item with the span read before reserving", Patches: []mutant.Patch{
		patch("\t\t\tfor span := spanOf(f); idx >= span; span = spanOf(f) {\n\t\t\t\tidx -= span\n\t\t\t\tf = f.next.Load()\n\t\t\t}\n", ""),
	}}, "stale-span", "violation"},
	// The owner moves the front whenever the oldest position lies beyond
	// it, also when that position is in no link (an empty queue whose
	// back block is full): the move walks off the end of the chain.
	{mutant.Mutant{Name: "owner moves the front to a position no link holds", Patches: []mutant.Patch{
		patch("\t\tif move && ctlIdx(c) >= spanOf(f) && q.ownerCanMove(f, c) {\n", "\t\tif move && ctlIdx(c) >= spanOf(f) {\n"),
	}}, "owner-moves-front", "panic"},
	// The owner moves the front into the empty link it keeps behind its
	// back, which its next List push replaces: the front leaves the
	// chain, and a thief takes from a link the queue no longer uses.
	{mutant.Mutant{Name: "owner moves the front past its back", Patches: []mutant.Patch{
		patch("\t\tif l == back {\n", "\t\tif _ = back; l.next.Load() == nil {\n"),
	}}, "owner-moves-front-spare", "violation"},
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
			r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern("TestInterleaveTwoSlotBlocks", c.scenario))
			if r.Passed || !strings.Contains(r.Output, c.want) {
				t.Fatalf("the explorer did not find the bug in %s:\n%s", c.scenario, r.Output)
			}
			if v := mutant.Violation(r.Output); v != "" {
				t.Logf("%s: %s", c.scenario, v)
			}
		})
	}
}
