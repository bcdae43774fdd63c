//go:build wsqcheck

package chaselev

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/check/mutant"
)

// The deliberate bugs of chaselev, each a patch of deque.go that the tests
// below compile into a test binary of their own (internal/check/mutant) to show
// that a check finds it. The code under test carries no switch for them.

func patch(old, new string) mutant.Patch { return mutant.Patch{File: "deque.go", Old: old, New: new} }

var (
	// A batch steal claims its items with one CAS from the tail it loaded,
	// as the Go runtime and Tokio do, instead of announcing, counting and
	// committing: against an owner that pops without a CAS, both may take
	// the same item (see "Why the announcement" in deque.go).
	mutOneCASClaim = mutant.Mutant{Name: "batch steal claims with one CAS", Patches: []mutant.Patch{
		patch("\t\tif !q.announce(h, s) {\n\t\t\tcontinue\n\t\t}\n\t\tm := q.count(s)\n",
			"\t\tm := uint32(n)\n"),
		patch("\t\tif !q.commit(s, k) {\n",
			"\t\tif !q.head.CompareAndSwap(h, pack(s, s+k)) {\n"),
	}}

	// The owner takes the last item under a cancelled announcement without
	// moving head, so the announcer's uncancel brings head back to the idle
	// value a stalled one-item steal loaded before the announcement, and
	// that steal claims the empty slot. Chaos mode found this one in the
	// code (a thief received an item that was never pushed); the fix moves
	// the cancelled announcement past the item.
	mutTakeAnnouncedLast = mutant.Mutant{Name: "pop takes the announced last item without moving head", Patches: []mutant.Patch{
		patch("\t\t\tif p != s {\n\t\t\t\treturn q.popTake(b, s)\n\t\t\t}\n\t\t\tif !q.head.CompareAndSwap(pack(s, s-2), pack(s+1, s-1)) {\n\t\t\t\th = q.head.Load() // the announcer cleared it: head is idle\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\treturn q.popLast(b)\n",
			"\t\t\treturn q.popTake(b, s)\n"),
	}}

	// The owner takes the deque's one item by storing head past it, not by
	// a CAS: as if a load of head that shows no thief at work proved that no
	// thief can reach the item. A thief that loaded head and tail just before
	// claims the same item with its CAS.
	mutPopOnlyStores = mutant.Mutant{Name: "pop takes the one item with a store to head", Patches: []mutant.Patch{
		patch("\tif !q.head.CompareAndSwap(h, pack(p+1, p+1)) {\n", "\tif q.head.Store(pack(p+1, p+1)); false {\n"),
	}}

	// The owner takes the one item with popOnly's CAS whatever head's
	// state: with a thief's claim below the item, the CAS replaces the claim
	// (its slots are not released yet) and the thief's release then moves
	// head back.
	mutPopOnlyUnderClaim = mutant.Mutant{Name: "pop takes the one item under a claim", Patches: []mutant.Patch{
		patch("\tcase d == 1 && s == claim:\n", "\tcase d == 1:\n"),
	}}

	// Pop lowers tail with a release store in place of its fence. The
	// thief changes head and then loads tail, the owner stores tail and then
	// loads head; without store-load order on the owner's side both may miss
	// the other's write and take the same item. The explorer cannot find
	// this one: every execution it runs is sequentially consistent.
	mutPopReleaseFence = mutant.Mutant{Name: "pop lowers tail with a release store", Patches: []mutant.Patch{
		patch("\tq.tail.Store(b) // the fence", "\tq.tail.StoreRelease(b) // the fence"),
	}}

	// The variants that ignore the wrap-around of the 32-bit positions.

	// A one-item steal trusts its claim without comparing the 64-bit tail
	// it loaded with a fresh one, so a thief stalled while head went round
	// all 2^32 positions claims a slot without an item.
	mutNoLapCheck = mutant.Mutant{Name: "one-item steal ignores a lap of the positions", Patches: []mutant.Patch{
		patch("\tif int64(q.tail.Load()-t) >= 1<<31 {\n", "\tif false {\n"),
	}}
	// The owner takes the last item through head, as when no thief is at
	// work, even under an announcement: head then moves under a stalled
	// announcer, and other thieves may take it round the positions and
	// back to the announced value.
	mutPopLastMovesHead = mutant.Mutant{Name: "pop moves head under an announcement", Patches: []mutant.Patch{
		patch("\t\t\tif l == pendingLen && !q.head.CompareAndSwap(h, pack(s, s-2)) {\n",
			"\t\t\tif p == s && q.head.CompareAndSwap(h, pack(p+1, p+1)) {\n\t\t\t\treturn q.popLast(b)\n\t\t\t}\n"+
				"\t\t\tif l == pendingLen && !q.head.CompareAndSwap(h, pack(s, s-2)) {\n"),
	}}
	// Pop compares positions as unsigned numbers rather than by their
	// int32 difference.
	mutUnsignedPositions = mutant.Mutant{Name: "pop compares positions, not their difference", Patches: []mutant.Patch{
		patch("\tcase d <= 0:\n", "\tcase uint32(b) <= claimEnd(s, claim):\n"),
	}}
)

// wrapMutants pairs each wrap-ignoring variant with the test that guards the
// wrap and a line of its failure.
var wrapMutants = []mutant.WrapCase{
	{Mutant: mutNoLapCheck, Test: "TestStalledStealAcrossLap", Want: "the stalled steal took 0 from an empty deque"},
	{Mutant: mutPopLastMovesHead, Test: "TestStalledCommitFreezesHead", Want: "head is no longer announced under a stalled announcer"},
	{Mutant: mutUnsignedPositions, Test: "TestBoundedWrap", Want: "--- FAIL: TestBoundedWrap/"},
	{Mutant: mutUnsignedPositions, Test: "TestUnboundedGrowWrap", Want: "--- FAIL: TestUnboundedGrowWrap/"},
}

// TestMutantsIgnoringWrap: each wrap test fails against the variant that
// ignores the wrap it guards (and passes against the code, in every other
// run of the tests).
func TestMutantsIgnoringWrap(t *testing.T) {
	mutant.CheckWrapTests(t, wrapMutants)
}

// TestMutantsFoundByExplorer: the one-CAS claim is found by the scenario in
// which the owner pops into the range a batch steal counts, the owner that
// takes the announced last item without moving head by the scenarios of
// TestInterleaveStealAcrossCancel (on the bounded deque with a refill, as a
// history that is not linearizable), and the two ways of taking the one
// item wrong by the one-item and push-pop scenarios.
func TestMutantsFoundByExplorer(t *testing.T) {
	for _, c := range []struct {
		m       mutant.Mutant
		pattern string
	}{
		{mutOneCASClaim, "^TestInterleaveUnbounded$/^pop-into-claim$/^StealBatch$"},
		{mutTakeAnnouncedLast, "^TestInterleaveStealAcrossCancel$/^unbounded$/^steal-across-cancel$"},
		{mutTakeAnnouncedLast, "^TestInterleaveStealAcrossCancel$/^bounded-wrap$/^steal-across-cancel-refill$"},
		{mutPopOnlyStores, "^TestInterleaveUnbounded$/^one-item$/^Steal$"},
		{mutPopOnlyUnderClaim, "^TestInterleaveUnbounded$/^push-pop$/^Steal$"},
	} {
		bin := mutant.Build(t, c.m, "wsqcheck")
		r := mutant.Run(t, bin, nil, "-test.run", c.pattern)
		v := mutant.Violation(r.Output)
		if r.Passed || v == "" || !strings.Contains(v, "exactly-once") && !strings.Contains(v, "not linearizable") {
			t.Fatalf("%q: the explorer did not find the bug as an exactly-once or linearizability violation:\n%s", c.m.Name, r.Output)
		}
		if !strings.Contains(r.Output, "head.CompareAndSwap") || strings.Contains(r.Output, "did not fail the same way") {
			t.Errorf("%q: the trace does not show the claim, or did not replay:\n%s", c.m.Name, r.Output)
		}
		t.Logf("%s: %s", c.pattern, v)
	}
}

// TestMutantFoundByChaos builds the one-CAS claim into a normal build under
// the tag wsqchaos and runs the conformance suite's chaos check on it, with
// the seeds 1, 2 and 3 in turn until one finds the bug; the check's output
// must name the seed.
func TestMutantFoundByChaos(t *testing.T) {
	bin := mutant.Build(t, mutOneCASClaim, "wsqchaos")
	r, seed := mutant.FindByChaos(t, bin, "^TestUnbounded$/^Chaos$")
	t.Logf("found with seed %d: %s", seed, mutant.FailureLine(r.Output))
}

// TestMutantFoundByHardware builds the Pop whose fence is a release store
// into a normal build and runs TestPopFence on it, up to hardwareRuns times
// (stopping at the first failure), until the processor reorders the owner's
// load of head before its store to tail in the window a thief needs. Only on
// amd64 is the release store weaker than a fence (a plain MOV: x86-TSO lets
// a later load pass a store); elsewhere, and under the race detector, it is
// sync/atomic's Store (on arm64 an STLR, which no LDAR passes), and the
// variant is no bug. The race needs the owner and a thief on two processors
// at once.
func TestMutantFoundByHardware(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("the release store is a fence on %s", runtime.GOARCH)
	}
	if runtime.NumCPU() < 2 {
		t.Skip("the race needs two processors running at once")
	}
	bin := mutant.Build(t, mutPopReleaseFence)
	r := mutant.Run(t, bin, nil, "-test.run", "^TestPopFence$", "-test.count", strconv.Itoa(hardwareRuns), "-test.failfast")
	if r.Passed {
		t.Fatalf("%q: %d runs of TestPopFence found no item received twice:\n%s", mutPopReleaseFence.Name, hardwareRuns, r.Output)
	}
	t.Logf("%s: %s", mutPopReleaseFence.Name, mutant.FailureLine(r.Output))
}

// hardwareRuns bounds TestMutantFoundByHardware: each run of TestPopFence
// races 200,000 pops against the thieves.
const hardwareRuns = 200
