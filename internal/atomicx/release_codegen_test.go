//go:build !wsqcheck && !wsqchaos

package atomicx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
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
	listings := map[string]map[string]string{}
	for _, c := range []struct {
		goarch, method string
		want, not      []string
	}{
		{"amd64", "(*Uint64).StoreRelease", []string{"CALL\tgithub.com/worksteal/wsq/internal/atomicx.storeRelease64(SB)"}, []string{"XCHG", "LOCK"}},
		{"amd64", "(*Uint32).StoreRelease", []string{"CALL\tgithub.com/worksteal/wsq/internal/atomicx.storeRelease32(SB)"}, []string{"XCHG", "LOCK"}},
		{"arm64", "(*Uint64).StoreRelease", []string{"\tSTLR\t"}, []string{"CALL"}},
		{"arm64", "(*Uint32).StoreRelease", []string{"\tSTLRW\t"}, []string{"CALL"}},
	} {
		if listings[c.goarch] == nil {
			listings[c.goarch] = testenv.Listing(t, c.goarch, ".")
		}
		body := listings[c.goarch]["github.com/worksteal/wsq/internal/atomicx."+c.method]
		require.NotEmpty(t, body, "%s: no listing of %s", c.goarch, c.method)
		for _, w := range c.want {
			assert.Contains(t, body, w, "%s: %s", c.goarch, c.method)
		}
		for _, n := range c.not {
			assert.NotContains(t, body, n, "%s: %s", c.goarch, c.method)
		}
	}
}
