package cmdtest

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BuildBinary builds the command in the current directory for the machine
// the tests run on (not for GOARCH, which may name an emulated architecture)
// and returns its path. It skips the test when the go tool is missing or the
// test binary runs under an emulator such as qemu-user, which cannot start
// processes from a Go program reliably.
func BuildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	if emulated(goTool) {
		t.Skip("the tests run for another architecture than the go tool's, presumably under an emulator such as qemu-user, which cannot start processes from a Go program reliably")
	}
	bin := filepath.Join(t.TempDir(), "cmd")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOARCH=") && !strings.HasPrefix(kv, "GOOS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
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
