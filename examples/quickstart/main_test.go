package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cmdtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestShare processes items with every queue, bounded ones included, and
// checks that each was handled exactly once.
func TestShare(t *testing.T) {
	for _, name := range catalog.Names() {
		for _, n := range []int{0, 1, 1000, 5000} {
			q, err := catalog.New[int](name)
			require.NoError(t, err)
			owned, stolen, sum := share(q, n)
			assert.Equal(t, n, owned+stolen, "%s, %d items", name, n)
			assert.Equal(t, n*(n+1)/2, sum, "%s, %d items", name, n)
			assert.Equal(t, 0, q.Len(), "%s, %d items", name, n)
		}
	}
}

// TestCommand builds the command and runs it as a user would: with every
// queue, and with each kind of bad flag.
func TestCommand(t *testing.T) {
	t.Parallel() // go build runs in a process of its own, beside the other tests
	bin := cmdtest.BuildBinary(t)
	var cases []cmdtest.Case
	for _, q := range catalog.Names() {
		cases = append(cases, cmdtest.Verified("verified: all 20,000 items processed exactly once (sum 200,010,000)", "-n", "20000", "-queue", q))
	}
	cases = append(cases,
		cmdtest.Verified("verified: all 1 item processed exactly once (sum 1)", "-n", "1"),
		cmdtest.Verified("verified: all 0 items processed exactly once (sum 0)", "-n", "0"),
		cmdtest.Verified("verified: all 2,000 items", "-n", "2,000"),
		cmdtest.Help(synopsis),
		cmdtest.Refused("quickstart: -queue nope: unknown queue; known queues: "+strings.Join(catalog.Names(), ", "), "-queue", "nope"),
		cmdtest.Refused("quickstart: -n -1: out of range; want 0 to 1,000,000", "-n", "-1"),
		cmdtest.Refused("quickstart: -n 1000001: out of range; want 0 to 1,000,000", "-n", "1000001"),
		cmdtest.Refused("quickstart: -n many: not an integer", "-n", "many"),
		cmdtest.Refused("quickstart: flag needs an argument: -n", "-n"),
		cmdtest.Refused("quickstart: flag provided but not defined: -workers", "-workers", "2"),
		cmdtest.Refused(`quickstart: unexpected argument "extra": quickstart takes flags only`, "extra"),
	)
	cmdtest.Run(t, bin, "quickstart", cases)
}

// notInlined matches a call, in the machine code of a queue, to a helper the
// compiler must inline: an atomic operation of internal/atomicx or of
// sync/atomic's types, or the index packing of lfqueue and chaselev.
var notInlined = regexp.MustCompile(`CALL (github\.com/worksteal/wsq/internal/atomicx\.|sync/atomic\.\(\*|github\.com/worksteal/wsq/lfqueue\.(ctl[A-Z]\w*|mutated)\(|github\.com/worksteal/wsq/chaselev\.(pack|unpack|claimEnd)\()`)

// TestQueuesInlined disassembles the command, which reaches the queues only
// through catalog, and checks that their atomic operations and small
// helpers are inlined, as they are in a program that imports the queue
// packages. Whether they are depends on what the export data of the
// imported packages carries (see the instantiations in catalog.go); without
// them a pop costs about 20 % more.
func TestQueuesInlined(t *testing.T) {
	t.Parallel()
	bin := cmdtest.BuildBinary(t)
	out, err := exec.Command("go", "tool", "objdump", "-s", `^github\.com/worksteal/wsq/(lfqueue|chaselev|tfdeque)\.`, bin).CombinedOutput()
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
	for _, pkg := range []string{"lfqueue", "chaselev", "tfdeque"} {
		assert.True(t, funcs[pkg], "no function of %s in the disassembly", pkg)
	}
}
