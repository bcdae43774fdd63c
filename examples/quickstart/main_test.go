package main

import (
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
// queue, and with each kind of bad flag (those of the flags all programs
// share come from cmdtest.Shared).
func TestCommand(t *testing.T) {
	cases := cmdtest.EveryQueue("verified: all 20,000 items processed exactly once (sum 200,010,000)", "-n", "20000")
	cases = append(cases,
		cmdtest.Verified("verified: all 1 item processed exactly once (sum 1)", "-n", "1"),
		cmdtest.Verified("verified: all 0 items processed exactly once (sum 0)", "-n", "0"),
		cmdtest.Verified("verified: all 2,000 items", "-n", "2,000"),
		cmdtest.Refused("quickstart: -n -1: out of range; want 0 to 1,000,000", "-n", "-1"),
		cmdtest.Refused("quickstart: -n 1000001: out of range; want 0 to 1,000,000", "-n", "1000001"),
		cmdtest.Refused("quickstart: -n many: not an integer", "-n", "many"),
		cmdtest.Refused("quickstart: flag needs an argument: -n", "-n"),
		cmdtest.Refused("quickstart: flag provided but not defined: -workers", "-workers", "2"),
	)
	cmdtest.Command(t, "quickstart", synopsis, cases)
}
