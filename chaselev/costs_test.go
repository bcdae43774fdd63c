//go:build !wsqcheck && !wsqchaos

package chaselev

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// lockedInstruction matches a locked instruction in an amd64 listing: a
// LOCK prefix (of a CMPXCHG, an XADD) or an XCHG with memory, which is
// locked without one. (The compiler pads with XCHGL AX, AX, a no-op.)
var lockedInstruction = regexp.MustCompile(`(?m)\t(LOCK|XCHG[BWLQ]\t\w+, -?\w*\(\w+\))$`)

// TestOwnerLockedInstructions checks the owner's side of the Costs table in
// the package documentation against the machine code the compiler makes for
// amd64: the locked instructions in each function of the owner's paths.
func TestOwnerLockedInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	funcs := testenv.Listing(t, "amd64", ".")
	for fn, want := range map[string]int{
		"Push":      0, // the release store of tail is a call of an assembly MOV
		"PushBatch": 0,
		"Pop":       1, // the fence: tail's store, an XCHG
		"popOnly":   1, // the CAS that takes the one item
		"popTake":   0,
		"popLast":   0, // after popSlow's CAS: tail goes back with a release store
		"observe":   0,
		"room":      0,
	} {
		body, ok := funcs["github.com/worksteal/wsq/chaselev.(*Deque[go.shape.int])."+fn]
		if !assert.True(t, ok, "no listing of %s", fn) {
			continue
		}
		assert.Len(t, lockedInstruction.FindAllString(body, -1), want, "locked instructions in %s:\n%s", fn, body)
	}
}
