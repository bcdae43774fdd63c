package testenv

import (
	"os/exec"
	"testing"
)

// TestNotEmulatedNatively: built for the machine it runs on, the test
// binary and the go tool agree, so GoTool does not skip.
func TestNotEmulatedNatively(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	self := GoTool(t) // skips under an emulator
	if self != goTool {
		t.Fatalf("GoTool() = %q, want %q", self, goTool)
	}
	if emulated(goTool) {
		t.Fatal("emulated reports true after GoTool did not skip")
	}
}
