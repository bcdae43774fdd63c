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
var mutants = []mutant.TestCase{
	// A loop is counted by the split its run chose: on one worker, a
	// chain of its chunks. Without a region, every chunk counts as
	// its own strand.
	{Mutant: mutant.Mutant{Name: "a loop counts its split", Patches: []mutant.Patch{
		{File: "loop.go", Old: "\tl.region = t.NewRegion()\n", New: "\tl.region = nil\n"},
	}}, Test: "^TestMeasureLoop$"},
}

// TestMutantsFoundByTests: each bug of mutants fails the test named with
// it, which the code passes.
func TestMutantsFoundByTests(t *testing.T) {
	mutant.CheckFoundByTests(t, mutants, "wsqcheck")
}
