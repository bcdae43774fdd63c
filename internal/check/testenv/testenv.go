// Package testenv holds what the module's tests need to know about the
// machine they run on, and the one knob that sets how large they run.
//
// Every test that moves many items, records many histories or runs many
// rounds takes its sizes from Size: quick by default, full when the
// environment variable WSQ_FULL (EnvFull) asks for them, short under
// -short. The quick sizes keep every check and every kind of scenario and
// bring `go test -race ./...` down to a minute or two on a 2-core machine;
// the full sizes are what CI runs under the race detector.
package testenv

import (
	"debug/elf"
	"os"
	"os/exec"
	"testing"
)

// GoTool returns the path of the go tool, for tests that build programs. It
// skips the test when the go tool is missing, or when the test binary runs
// for another machine than the go tool's, presumably under an emulator such
// as qemu-user (the module's 32-bit CI run), which cannot start processes
// from a Go program reliably.
func GoTool(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	if emulated(goTool) {
		t.Skip("the tests run for another machine than the go tool's, presumably under an emulator such as qemu-user, which cannot start processes from a Go program reliably")
	}
	return goTool
}

// emulated reports whether the test binary and the go tool are built for
// different machines. It answers false where it cannot tell (no ELF).
func emulated(goTool string) bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, err := elf.Open(self)
	if err != nil {
		return false
	}
	defer a.Close()
	b, err := elf.Open(goTool)
	if err != nil {
		return false
	}
	defer b.Close()
	return a.Machine != b.Machine
}
