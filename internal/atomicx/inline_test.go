//go:build !wsqcheck && !wsqchaos

package atomicx_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInlined compiles atomicx and the lock-free queues with the compiler's
// inlining report (go build -gcflags=-m) and checks that the seam's
// methods and the queues' hot paths are still inlinable: the "if checking"
// branch of each method must cost nothing in a normal build.
func TestInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	pkgs := []string{".", "../../chaselev", "../../lfqueue", "../../blockq"}
	out, err := exec.Command("go", append([]string{"build", "-gcflags=-m"}, pkgs...)...).CombinedOutput()
	require.NoError(t, err, "go build -gcflags=-m: %s", out)
	inlinable := map[string]bool{}
	re := regexp.MustCompile(`can inline (\S+)`)
	typeArgs := regexp.MustCompile(`\[.*\]`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			// Generic methods are reported per instantiation: keep the
			// name up to the type arguments and after them.
			name := typeArgs.ReplaceAllString(m[1], "[]")
			inlinable[name] = true
		}
	}
	for _, f := range []string{
		"(*Uint64).Load", "(*Uint64).Store", "(*Uint64).StoreRelease", "(*Uint64).CompareAndSwap",
		"(*Uint32).Load", "(*Uint32).Store", "(*Uint32).StoreRelease", "(*Uint32).CompareAndSwap",
		"atomicx.(*Pointer[]).Load", "atomicx.(*Pointer[]).Store", "atomicx.(*Pointer[]).StoreRelease", "atomicx.(*Pointer[]).Swap",
		"atomicx.(*Pointer[]).CompareAndSwap", "atomicx.(*Pointer[]).Plain", "atomicx.(*Pointer[]).SetPlain",
		"(*Mutex).Lock", "(*Mutex).Unlock",
		"(*Deque[]).Push", "(*Deque[]).PushBatch", "(*Deque[]).Pop", "(*Deque[]).Len",
		"(*Deque[]).Steal", "(*Deque[]).StealBatch",
		"(*Queue[]).Len", "(*Queue[]).Push", "(*Queue[]).Pop",
		// blockq: the helpers of its owner's fast paths and its steal.
		"(*tenure[]).length", "(*owner[]).length", "spanOf[]", "live", "ctlIdx", "ctlGen", "isLive", "take", "moved",
	} {
		if !inlinable[f] {
			t.Errorf("%s is no longer inlinable", f)
		}
	}
}
