package mutant

import "testing"

// broken is what TestBuildAndRun's mutant patches.
const broken = false

// TestTarget passes, except in the mutant of TestBuildAndRun.
func TestTarget(t *testing.T) {
	if broken {
		t.Fatal("broken by the mutant")
	}
}
