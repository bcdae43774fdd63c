package catalog_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// notInlined matches a call, in the machine code of a queue, to a helper the
// compiler must inline: an atomic operation of internal/atomicx (a method;
// the assembly functions its release stores call on amd64 cannot inline) or
// of sync/atomic's types, the index packing of lfqueue and chaselev, or the
// control word's fields, the length and the span of blockq.
var notInlined = regexp.MustCompile(`CALL (github\.com/worksteal/wsq/internal/atomicx\.\(\*|sync/atomic\.\(\*|github\.com/worksteal/wsq/lfqueue\.(ctl[A-Z]\w*|mutated)\(|github\.com/worksteal/wsq/chaselev\.(pack|unpack|claimEnd)\(|github\.com/worksteal/wsq/blockq\.((ctl[A-Z]\w*|live|isLive|take|moved)\(|spanOf\[|\(\*(tenure|owner)\[[^]]*\]\)\.length\())`)

// TestQueuesInlined builds testdata/onlycatalog, a program that reaches the
// queues only through catalog, disassembles it and checks that the queues'
// atomic operations and small helpers are inlined, as they are in a
// program that imports the queue packages. Whether they are depends on what
// the export data of the imported packages carries (see the instantiations
// in catalog.go); without them a pop costs about 20 % more.
func TestQueuesInlined(t *testing.T) {
	t.Parallel()
	goTool := testenv.GoTool(t) // skips under an emulator, which cannot run it reliably
	bin := filepath.Join(t.TempDir(), "onlycatalog")
	out, err := exec.Command(goTool, "build", "-o", bin, "./testdata/onlycatalog").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	out, err = exec.Command(goTool, "tool", "objdump", "-s", `^github\.com/worksteal/wsq/(lfqueue|chaselev|tfdeque|blockq)\.`, bin).CombinedOutput()
	require.NoError(t, err, "go tool objdump: %s", out)
	funcs := map[string]bool{}
	var fn string
	for _, line := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(line, "TEXT "); ok {
			fn, _, _ = strings.Cut(f, "(SB)")
			pkg, _, _ := strings.Cut(strings.TrimPrefix(fn, "github.com/worksteal/wsq/"), ".")
			funcs[pkg] = true
			continue
		}
		if i := notInlined.FindStringIndex(line); i != nil {
			callee, _, _ := strings.Cut(line[i[0]+len("CALL "):], "(SB)")
			t.Errorf("%s is called, not inlined, in %s", callee, fn)
		}
	}
	for _, pkg := range []string{"lfqueue", "chaselev", "tfdeque", "blockq"} {
		assert.True(t, funcs[pkg], "no function of %s in the disassembly", pkg)
	}
}
