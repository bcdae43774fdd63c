package mutant

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/check/chaos"
)

// The checks the queue packages make with their mutants: that a wrap-around
// test fails against the variant that ignores the wrap it guards, that
// chaos mode finds a protocol bug under one of a few seeds, and the
// patterns and output lines that select a subtest and read its failure.

// RunPattern is the -test.run pattern that selects exactly the subtest
// named by the parts, each of which may contain slashes.
func RunPattern(parts ...string) string {
	var ps []string
	for _, p := range parts {
		for _, q := range strings.Split(p, "/") {
			ps = append(ps, "^"+regexp.QuoteMeta(q)+"$")
		}
	}
	return strings.Join(ps, "/")
}

var violationLine = regexp.MustCompile(`(?m)violation: (.*)$`)

// Violation returns what follows "violation: " on the first line of out
// that has it, as the interleaving explorer prints a failure, or "" if no
// line has it.
func Violation(out string) string {
	m := violationLine.FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// FailureLine returns the first line of a failing test binary's output
// that says what went wrong: a panic, a testify error, porcupine's verdict,
// what a thief received, or a divergence from the sequential model.
func FailureLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"panic: ", "Error: ", "porcupine says", "received", "never received", "diverged from the model"} {
			if strings.Contains(l, p) {
				return l
			}
		}
	}
	return "(no failure line)"
}

// WrapCase pairs a variant that ignores a wrap-around with the test that
// guards the wrap and a line of that test's failure.
type WrapCase struct {
	Mutant Mutant
	Test   string // the test function
	Want   string // in its output
}

// CheckWrapTests builds each case's mutant (once for all the cases that
// share it, without build tags) and runs the case's test against it: the
// test must fail, its output naming it as failed and containing Want. It
// logs each case that does and reports an error for each that does not;
// that the tests pass against the code, every other run of them shows.
func CheckWrapTests(t *testing.T, cases []WrapCase) {
	t.Helper()
	bins := map[string]string{}
	for _, c := range cases {
		bin, ok := bins[c.Mutant.Name]
		if !ok {
			bin = Build(t, c.Mutant)
			bins[c.Mutant.Name] = bin
		}
		r := Run(t, bin, nil, "-test.run", "^"+c.Test+"$")
		if r.Passed || !strings.Contains(r.Output, "--- FAIL: "+c.Test+" ") || !strings.Contains(r.Output, c.Want) {
			t.Errorf("%s passed against the mutant %q, or failed otherwise than with %q:\n%s", c.Test, c.Mutant.Name, c.Want, r.Output)
			continue
		}
		t.Logf("%s fails against %q", c.Test, c.Mutant.Name)
	}
}

// TestCase pairs a deliberate bug with the tests that find it.
type TestCase struct {
	Mutant Mutant
	Test   string // a -test.run pattern
}

// CheckFoundByTests builds each case's mutant under the build tags, in a
// subtest of its own run in parallel, and runs the case's tests against
// it: they must fail. It logs the line of each failure; that the tests
// pass against the code, every other run of them shows.
func CheckFoundByTests(t *testing.T, cases []TestCase, tags ...string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Mutant.Name, func(t *testing.T) {
			t.Parallel()
			bin := Build(t, c.Mutant, tags...)
			r := Run(t, bin, nil, "-test.run", c.Test)
			if r.Passed {
				t.Fatalf("%s passed with the bug:\n%s", c.Test, r.Output)
			}
			t.Logf("%s", FailureLine(r.Output))
		})
	}
}

// ChaosSeeds is how many chaos seeds FindByChaos tries: 1, 2, and so on.
const ChaosSeeds = 3

// FindByChaos runs the test binary bin, built with the tag wsqchaos, with
// -test.run pattern and the chaos seeds 1 to ChaosSeeds in turn until a run
// fails, and returns that run and its seed. It fails the test when every
// run passes, and reports an error when the failing run's output does not
// name its seed.
func FindByChaos(t testing.TB, bin, pattern string) (Result, int) {
	t.Helper()
	var r Result
	seed := 1
	for ; seed <= ChaosSeeds; seed++ {
		r = Run(t, bin, []string{fmt.Sprintf("%s=%d", chaos.EnvSeed, seed)}, "-test.run", pattern)
		if !r.Passed {
			break
		}
	}
	if r.Passed {
		t.Fatalf("%s: chaos mode did not find the bug with seeds 1 to %d:\n%s", pattern, ChaosSeeds, r.Output)
	}
	if !strings.Contains(r.Output, fmt.Sprintf("wsq chaos: seed %d (replay with %s=%d)", seed, chaos.EnvSeed, seed)) {
		t.Errorf("%s: the failing run does not name its seed:\n%s", pattern, r.Output)
	}
	return r, seed
}
