//go:build wsqcheck

package lfqueue

import (
	"strings"
	"testing"

	qc "github.com/worksteal/wsq/internal/interleave/queuecheck"
)

// The checker can fail: each deliberate bug of mutation.go, switched on
// alone, must be found by the scenario named here, with a counterexample
// whose trace the test logs (run with -v to read them).
var mutationCases = []struct {
	name     string
	m        mutation
	skipOnly bool   // the bug is in the skip-count path only
	scenario string // a scenario of interleaveScenarios that finds it
	want     string // in the violation found
}{
	{"steal pairs an uncounted header with ctl", mutStealUncountedHeader, false,
		"inflight-push/StealBatch", "thief1 panicked: runtime error: invalid memory address or nil pointer dereference"},
	{"steal reserves without the consistency check", mutStealBlindReserve, false,
		"push-pop/Steal", "invariant after the threads finished: size does not match next-bottom"},
	{"steal forgets to detach", mutStealNoDetach, false,
		"drain-refill/Steal", "invariant after the threads finished: oldest node links further down"},
	{"skip-count steal trusts a stale cut", mutSkipCountNoEpoch, true,
		"steal-drain-refill-steal", "StealList handed over a broken list: the oldest node is not the list's bottom"},
	{"owner counts before publishing", mutCountBeforePublish, false,
		"push-pop/Steal", "no progress"},
	{"owner keeps its in-flight batch linked", mutKeepInFlightLink, false,
		"inflight-push/Steal", "invariant after the threads finished: oldest node links further down"},
}

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

func withMutation(m mutation, f func()) {
	activeMutation = m
	defer func() { activeMutation = mutNone }()
	f()
}

func TestInterleaveMutationsCaught(t *testing.T) {
	for _, c := range mutationCases {
		for _, v := range variants {
			if c.skipOnly && v.opts == nil {
				continue
			}
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				s := scenario(t, c.scenario)
				s.MaxSteps = 200 // a spinning thread is caught sooner
				var r qc.Result
				withMutation(c.m, func() { r = qc.Explore(interleaveConfig(v.opts...), s) })
				f := r.Failure
				if f == nil {
					t.Fatalf("the checker did not find the bug: %s", r.Describe(s))
				}
				t.Logf("scenario %s (%s): found after %d executions\n%s", s.Name, s, r.Executions, f)
				if !strings.Contains(f.Err.Error(), c.want) {
					t.Errorf("violation %q, want one containing %q", firstLine(f.Err.Error()), c.want)
				}
				if !f.Replayed {
					t.Errorf("the failing schedule did not replay")
				}
				if !strings.Contains(f.Trace, "call ") || !strings.Contains(f.Trace, "ctl.") {
					t.Errorf("the trace does not show the operations and the atomic steps")
				}
			})
		}
	}
}

// TestInterleaveMutationHarmless: letting Pop follow the next of the last
// unreserved node, which DESIGN.md warns against, is harmless in this
// implementation, because publish links a push onto own.head only while the
// size is positive. The scenarios where Pop takes the last item find
// nothing.
func TestInterleaveMutationHarmless(t *testing.T) {
	for _, v := range variants {
		for _, name := range []string{"one-item/StealList", "drain-refill/StealBatch", "inflight-push/Steal"} {
			s := scenario(t, name)
			var r qc.Result
			withMutation(mutPopFollowsNext, func() { r = qc.Explore(interleaveConfig(v.opts...), s) })
			if r.Failure != nil {
				t.Fatalf("%s/%s: %s", v.name, name, r.Failure)
			}
			if !r.Complete {
				t.Fatalf("%s/%s: incomplete", v.name, name)
			}
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestInterleaveMutationsCaughtAtRandom: the random (PCT) exploration of
// the larger scenario finds every bug too, and the seed it reports
// replays the failure on its own.
func TestInterleaveMutationsCaughtAtRandom(t *testing.T) {
	for _, c := range mutationCases {
		for _, v := range variants {
			if c.skipOnly && v.opts == nil {
				continue
			}
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				s := scenario(t, "random-two-thieves")
				s.MaxSteps = 300
				cfg := interleaveConfig(v.opts...)
				var r, again qc.Result
				withMutation(c.m, func() {
					r = qc.Explore(cfg, s)
					if r.Failure != nil {
						one := s
						one.Seed, one.Random = r.Failure.Seed, 1
						again = qc.Explore(cfg, one)
					}
				})
				f := r.Failure
				if f == nil {
					t.Fatalf("the checker did not find the bug: %s", r.Describe(s))
				}
				t.Logf("found at execution %d, seed %d: %s", f.Execution, f.Seed, firstLine(f.Err.Error()))
				if again.Failure == nil || again.Failure.Schedule != f.Schedule {
					t.Fatalf("seed %d did not replay the failure", f.Seed)
				}
			})
		}
	}
}
