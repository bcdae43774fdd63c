//go:build wsqcheck

package lfqueue

import (
	"regexp"
	"strings"
	"testing"

	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
	"github.com/worksteal/wsq/internal/check/mutant"
)

// The explorer can fail: each protocol bug of mutation_test.go, compiled
// into a test binary of its own, must be found by the scenario named here,
// with a counterexample whose trace replays, and by the random exploration
// of the larger scenario, whose seed (or schedule) replays the failure on
// its own. Run with -v to read each counterexample's first line.
var explorerCases = []struct {
	m        mutant.Mutant
	skipOnly bool   // the bug is in the skip-count path only
	scenario string // a scenario of interleaveScenarios that finds it
	want     string // in the violation found
}{
	{mutStealUncountedRecord, false, "inflight-push/StealBatch", "thief1 panicked: runtime error: invalid memory address or nil pointer dereference"},
	{mutStealBlindReserve, false, "push-pop/Steal", "invariant after the threads finished: size does not match next-bottom"},
	{mutStealNoDetach, false, "drain-refill/Steal", "invariant after the threads finished: oldest node links further down"},
	{mutSkipCountNoEpoch, true, "steal-drain-refill-steal", "StealParcel handed over a broken list: the oldest node is not the list's bottom"},
	{mutCountBeforePublish, false, "push-pop/Steal", "no progress"},
	{mutKeepInFlightLink, false, "inflight-push/Steal", "invariant after the threads finished: oldest node links further down"},
}

var (
	replayHint = regexp.MustCompile(`(?m)replay: (WSQCHECK_SEED|WSQCHECK_SCHEDULE)=(.*) go test -tags wsqcheck`)
	hexAddr    = regexp.MustCompile(`0x[0-9a-f]+`)
)

// firstViolation returns the first violation line of a failing run's
// output, with pointer values masked.
func firstViolation(out string) string {
	return hexAddr.ReplaceAllString(mutant.Violation(out), "0x?")
}

func TestMutantsFoundByExplorer(t *testing.T) {
	for _, c := range explorerCases {
		t.Run(c.m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, c.m, "wsqcheck")
			for _, v := range variants {
				if c.skipOnly && v.opts == nil {
					continue
				}
				// Exhaustive: the named scenario finds the bug.
				r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern("TestInterleave", v.name, c.scenario))
				if r.Passed {
					t.Fatalf("%s: the explorer did not find the bug in %s:\n%s", v.name, c.scenario, r.Output)
				}
				if !strings.Contains(r.Output, c.want) {
					t.Errorf("%s: violation %q, want one containing %q\n%s", v.name, firstViolation(r.Output), c.want, r.Output)
				}
				if strings.Contains(r.Output, "did not fail the same way") {
					t.Errorf("%s: the failing schedule did not replay", v.name)
				}
				if !strings.Contains(r.Output, "call ") || !strings.Contains(r.Output, "ctl.") {
					t.Errorf("%s: the trace does not show the operations and the atomic steps:\n%s", v.name, r.Output)
				}
				t.Logf("%s, %s: %s", v.name, c.scenario, firstViolation(r.Output))

				// At random: the larger scenario finds it too, and what it
				// prints replays the failure alone.
				pattern := mutant.RunPattern("TestInterleave", v.name, "random-two-thieves")
				r = mutant.Run(t, bin, nil, "-test.run", pattern)
				h := replayHint.FindStringSubmatch(r.Output)
				if r.Passed || h == nil {
					t.Fatalf("%s: the random exploration did not find the bug, or printed no replay:\n%s", v.name, r.Output)
				}
				again := mutant.Run(t, bin, []string{h[1] + "=" + h[2]}, "-test.run", pattern)
				if again.Passed || firstViolation(again.Output) != firstViolation(r.Output) {
					t.Fatalf("%s: %s=%s did not replay the failure %q:\n%s", v.name, h[1], h[2], firstViolation(r.Output), again.Output)
				}
				t.Logf("%s, random-two-thieves: %s=%s: %s", v.name, h[1], h[2], firstViolation(r.Output))
			}
		})
	}
}

// TestMutantHarmless: letting Pop follow the next of the last unreserved
// node is harmless in this implementation, because publish links a push
// onto own.newest only while the size is positive. The scenarios where Pop
// takes the last item find nothing.
func TestMutantHarmless(t *testing.T) {
	bin := mutant.Build(t, mutPopFollowsNext, "wsqcheck")
	for _, v := range variants {
		for _, s := range []string{"one-item/StealParcel", "drain-refill/StealBatch", "inflight-push/Steal"} {
			r := mutant.Run(t, bin, nil, "-test.run", mutant.RunPattern("TestInterleave", v.name, s), "-test.v")
			if !r.Passed || !strings.Contains(r.Output, "--- PASS: TestInterleave/"+v.name+"/"+s+" ") {
				t.Fatalf("%s/%s:\n%s", v.name, s, r.Output)
			}
		}
	}
}

// scenario returns the scenario of interleaveScenarios with the given name.
func scenario(t *testing.T, name string) qc.Scenario {
	t.Helper()
	for _, s := range interleaveScenarios() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scenario %q", name)
	return qc.Scenario{}
}
