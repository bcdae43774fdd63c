//go:build wsqcheck

package lfqueue

import (
	"testing"

	"github.com/worksteal/wsq/internal/check/mutant"
)

// The deliberate bugs of lfqueue, each a patch of lfqueue.go that the tests
// of this file and of interleave_mutation_test.go compile into a test
// binary of their own (internal/check/mutant) to show that the checks find it.
// The code under test carries no switch for them.

func patch(old, new string) mutant.Patch { return mutant.Patch{File: "lfqueue.go", Old: old, New: new} }

// Protocol bugs, each found by the interleaving explorer in a scenario.
var (
	// A thief pairs a published but uncounted push record with ctl: it
	// skips the fallback to rec.prev (hazard 2).
	mutStealUncountedRecord = mutant.Mutant{Name: "steal pairs an uncounted push record with ctl", Patches: []mutant.Patch{
		patch("\t\tif ctlSeq(c) != rec.seq {\n", "\t\tif false {\n"),
	}}
	// A thief reserves with a plain store of ctl instead of the CAS that
	// validates the value it computed from.
	mutStealBlindReserve = mutant.Mutant{Name: "steal reserves without the consistency check", Patches: []mutant.Patch{
		patch("\treturn q.ctl.CompareAndSwap(c, c-uint64(k))\n", "\tq.ctl.Store(c - uint64(k))\n\treturn true\n"),
	}}
	// A thief puts the cut's next back right after swapping it to nil: it
	// does not detach the stolen part.
	mutStealNoDetach = mutant.Mutant{Name: "steal forgets to detach", Patches: []mutant.Patch{
		patch("\t\tfirst = cut.next.Swap(nil)\n", "\t\tfirst = cut.next.Swap(nil)\n\t\tcut.next.Store(first)\n"),
	}}
	// The skip-count steal trusts the node it cut at last time without
	// comparing epochs.
	mutSkipCountNoEpoch = mutant.Mutant{Name: "skip-count steal trusts a stale cut", Patches: []mutant.Patch{
		patch("\t\tif th.last != nil && th.lastEpoch == rec.epoch {\n", "\t\tif th.last != nil {\n"),
	}}
	// The owner counts a push in ctl before it publishes its push record.
	mutCountBeforePublish = mutant.Mutant{Name: "owner counts before publishing", Patches: []mutant.Patch{
		patch("\tq.lastPush.Store(rec)\n\tfor !q.ctl.CompareAndSwap(c, ctlCount(c, m)) {\n", "\tfor !q.ctl.CompareAndSwap(c, ctlCount(c, m)) {\n"),
		patch("\trec.prev.Store(nil)\n", "\tq.lastPush.Store(rec)\n\trec.prev.Store(nil)\n"),
	}}
	// The owner does not unlink its in-flight batch from the nodes a thief
	// reserved while the push was in flight.
	mutKeepInFlightLink = mutant.Mutant{Name: "owner keeps its in-flight batch linked", Patches: []mutant.Patch{
		patch("\t\tif linked && ctlSize(c) == 0 {\n", "\t\tif false {\n"),
	}}
	// Pop follows the popped node's next even when its claim left
	// nothing. The explorer proves this one harmless: publish never links
	// a push onto own.newest when the size is zero.
	mutPopFollowsNext = mutant.Mutant{Name: "pop follows the next of the last item", Patches: []mutant.Patch{
		patch("\t\tif s == 1 {\n", "\t\tif false {\n"),
	}}
)

// Variants that ignore the wrap-around of a counter, each found by the wrap
// test named in wrapMutants.
var (
	// The owner never sets the fence, so ctl's 32-bit sequence number may
	// come round to the value a stalled thief loaded.
	mutNoFence = mutant.Mutant{Name: "no fence against the wrap of the sequence number", Patches: []mutant.Patch{
		patch("\tif seq%fenceEvery == 0 {\n", "\tif false {\n"),
	}}
	// Pushes past the 31 bits of ctl's size are not refused, so the size
	// overflows into the fence bit and the sequence number.
	mutNoSizeLimit = mutant.Mutant{Name: "no limit on the size", Patches: []mutant.Patch{
		patch("\tif uint64(ctlSize(c))+uint64(m) > maxLen {\n", "\tif false {\n"),
	}}
	// A steal compares the indices themselves, as if int64 never wrapped.
	mutIndexOrder = mutant.Mutant{Name: "steal compares indices, not their difference", Patches: []mutant.Patch{
		patch("\tif above := rec.idx - cutIdx; above >= 0 {\n", "\tif above := rec.idx - cutIdx; rec.idx >= cutIdx {\n"),
	}}
)

// wrapMutants pairs each counter's wrap-ignoring variant with the test that
// guards the wrap and a line of its failure.
var wrapMutants = []mutant.WrapCase{
	{Mutant: mutNoFence, Test: "TestStalledStealAcrossSequenceWrap", Want: "the stalled thief reserved against a push record from 2^32 pushes ago"},
	{Mutant: mutNoFence, Test: "TestFence", Want: "TestFence"},
	{Mutant: mutNoSizeLimit, Test: "TestSizeLimit", Want: "should panic"},
	{Mutant: mutIndexOrder, Test: "TestCountersWrap", Want: "StealBatch(0.2) across the wrap of the indices"},
}

// TestMutantsIgnoringWrap: each wrap test fails against the variant that
// ignores the wrap it guards (and passes against the code, in every other
// run of the tests).
func TestMutantsIgnoringWrap(t *testing.T) {
	mutant.CheckWrapTests(t, wrapMutants)
}

// chaosMutants are the protocol bugs that chaos mode finds in a real
// concurrent run, the conformance suite's chaos check with 8 thieves under
// GOMAXPROCS 8 and more: the two that take a push in flight for a counted
// one, which the same checks without chaos (ExactlyOnce, Linearizable,
// LenBounds) almost never meet on a machine with few cores.
var chaosMutants = []mutant.Mutant{mutStealUncountedRecord, mutCountBeforePublish}

// TestMutantsFoundByChaos builds each of chaosMutants into a normal build
// under the tag wsqchaos and runs the chaos check of each steal on it, with
// the seeds 1, 2 and 3 in turn until one finds the bug; the check's output
// must name the seed.
func TestMutantsFoundByChaos(t *testing.T) {
	for _, m := range chaosMutants {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, m, "wsqchaos")
			for _, test := range []string{"TestBasic", "TestSkipCount"} {
				r, seed := mutant.FindByChaos(t, bin, "^"+test+"$/^Chaos$")
				t.Logf("%s: found with seed %d: %s", test, seed, mutant.FailureLine(r.Output))
			}
		})
	}
}
