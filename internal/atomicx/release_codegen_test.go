//go:build !wsqcheck && !wsqchaos

package atomicx_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/testenv"
)

// TestStoreReleaseInstructions compiles the package for amd64 and arm64
// with the compiler's assembly listing (go build -gcflags=-S) and checks
// what the release stores compile to: on amd64 a call of the assembly
// store and no locked instruction, on arm64 an STLR (STLRW for 32 bits)
// inline and no call.
func TestStoreReleaseInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	goTool := testenv.GoTool(t)
	for _, c := range []struct {
		goarch, method string
		want, not      []string
	}{
		{"amd64", "(*Uint64).StoreRelease", []string{"CALL\tgithub.com/worksteal/wsq/internal/atomicx.storeRelease64(SB)"}, []string{"XCHG", "LOCK"}},
		{"amd64", "(*Uint32).StoreRelease", []string{"CALL\tgithub.com/worksteal/wsq/internal/atomicx.storeRelease32(SB)"}, []string{"XCHG", "LOCK"}},
		{"arm64", "(*Uint64).StoreRelease", []string{"\tSTLR\t"}, []string{"CALL"}},
		{"arm64", "(*Uint32).StoreRelease", []string{"\tSTLRW\t"}, []string{"CALL"}},
	} {
		cmd := exec.Command(goTool, "build", "-gcflags=-S", ".")
		cmd.Env = append(os.Environ(), "GOARCH="+c.goarch, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "GOARCH=%s go build -gcflags=-S: %s", c.goarch, out)
		body := textOf(string(out), "atomicx."+c.method+" STEXT")
		require.NotEmpty(t, body, "%s: no listing of %s", c.goarch, c.method)
		for _, w := range c.want {
			assert.Contains(t, body, w, "%s: %s", c.goarch, c.method)
		}
		for _, n := range c.not {
			assert.NotContains(t, body, n, "%s: %s", c.goarch, c.method)
		}
	}
}

// textOf returns the instructions of the function whose listing header
// contains header: the indented lines that follow it.
func textOf(listing, header string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(listing, "\n") {
		switch {
		case strings.Contains(l, header) && !strings.HasPrefix(l, "\t"):
			in = true
		case in && strings.HasPrefix(l, "\t"):
			b.WriteString(l)
			b.WriteByte('\n')
		case in:
			return b.String()
		}
	}
	return b.String()
}
