package testenv

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotEmulatedNatively: built for the machine it runs on, the test
// binary and the go tool agree, so GoTool does not skip.
func TestNotEmulatedNatively(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found:", err)
	}
	self := GoTool(t) // skips under an emulator
	if self != goTool {
		t.Fatalf("GoTool() = %q, want %q", self, goTool)
	}
	if emulated(goTool) {
		t.Fatal("emulated reports true after GoTool did not skip")
	}
}

func TestParseFull(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "T": true} {
		got, err := parseFull(v)
		require.NoError(t, err, "%s=%q", EnvFull, v)
		assert.Equal(t, want, got, "%s=%q", EnvFull, v)
	}
	for _, v := range []string{"yes", "2", " 1"} {
		_, err := parseFull(v)
		assert.EqualError(t, err, fmt.Sprintf("testenv: WSQ_FULL=%q: want 1 (full sizes) or 0 (quick sizes)", v))
	}
}

// TestPick: -short wins, then WSQ_FULL; neither the quick nor the short
// size may exceed the full one.
func TestPick(t *testing.T) {
	assert.Equal(t, 3, pick(false, false, 1, 3, 9), "quick")
	assert.Equal(t, 9, pick(false, true, 1, 3, 9), "full")
	assert.Equal(t, 1, pick(true, false, 1, 3, 9), "short")
	assert.Equal(t, 1, pick(true, true, 1, 3, 9), "short wins over full")
	assert.Equal(t, 0.5, pick(false, false, 0.1, 0.5, 0.5), "any ordered type")
	assert.Equal(t, 5, pick(true, false, 5, 3, 9), "a short size may exceed the quick one")
	assert.PanicsWithValue(t, "testenv: Size(1, 10, 9): want quick <= full and short <= full", func() { pick(false, false, 1, 10, 9) })
	assert.PanicsWithValue(t, "testenv: Size(10, 1, 9): want quick <= full and short <= full", func() { pick(true, false, 10, 1, 9) })
}

// TestSize: Size agrees with pick for this run's flags and environment.
func TestSize(t *testing.T) {
	assert.Equal(t, pick(testing.Short(), Full(), 1, 3, 9), Size(1, 3, 9))
	if testing.Short() {
		assert.False(t, Full(), "-short wins over WSQ_FULL")
	}
}

// TestListing: the listing of this package holds GoTool's instructions,
// and only instruction lines.
func TestListing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	funcs := Listing(t, "amd64", ".")
	body := funcs["github.com/worksteal/wsq/internal/check/testenv.GoTool"]
	if !strings.Contains(body, "\tCALL\t") {
		t.Fatalf("no call in GoTool's listing:\n%s", body)
	}
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if !strings.HasPrefix(l, "\t0x") || !strings.Contains(l, ")\t") {
			t.Errorf("not an instruction line: %q", l)
		}
	}
}
