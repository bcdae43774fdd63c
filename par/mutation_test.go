//go:build wsqcheck

package par

import (
	"testing"

	"github.com/worksteal/wsq/internal/check/mutant"
)

// The deliberate bugs of the loops. Each is a patch that a test compiles
// into a test binary of its own (internal/check/mutant) to show that a
// test of the package finds it. The code under test carries no switch
// for them.
var mutants = []struct {
	m    mutant.Mutant
	test string // a -test.run pattern
}{
	// A loop is counted by the split its run chose: on one worker, a
	// chain of its chunks. Without a region, every chunk counts as
	// its own strand.
	{mutant.Mutant{Name: "a loop counts its split", Patches: []mutant.Patch{
		{File: "loop.go", Old: "\tl.region = t.NewRegion()\n", New: "\tl.region = nil\n"},
	}}, "^TestMeasureLoop$"},
}

// TestMutantsFoundByTests: each bug of mutants fails the test named with
// it, which the code passes.
func TestMutantsFoundByTests(t *testing.T) {
	for _, c := range mutants {
		t.Run(c.m.Name, func(t *testing.T) {
			t.Parallel()
			bin := mutant.Build(t, c.m, "wsqcheck")
			r := mutant.Run(t, bin, nil, "-test.run", c.test)
			if r.Passed {
				t.Fatalf("%s passed with the bug:\n%s", c.test, r.Output)
			}
			t.Logf("%s", mutant.FailureLine(r.Output))
		})
	}
}
