package cmdtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// BuildBinary builds the command in the current directory for the machine
// the tests run on (not for GOARCH, which may name an emulated architecture)
// and returns its path. It skips the test when the go tool is missing or the
// test binary runs under an emulator such as qemu-user, which cannot start
// processes from a Go program reliably.
func BuildBinary(t *testing.T) string {
	t.Helper()
	goTool := testenv.GoTool(t)
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
