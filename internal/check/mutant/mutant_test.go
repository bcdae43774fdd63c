package mutant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApply(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("x := 1\ny := 2\n"), 0o644))
	m := Mutant{Name: "two", Patches: []Patch{
		{File: "a.go", Old: "x := 1", New: "x := 3"},
		{File: "a.go", Old: "y := 2", New: "y := 3"},
	}}
	files, err := m.Apply(dir)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a.go": "x := 3\ny := 3\n"}, files)

	// A later patch sees the earlier ones: its text now occurs twice.
	m.Patches = append(m.Patches, Patch{File: "a.go", Old: ":= 3", New: ":= 4"})
	_, err = m.Apply(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mutant "two", patch 3: the text to replace occurs 2 times in a.go, not once`)

	_, err = Mutant{Name: "gone", Patches: []Patch{{File: "a.go", Old: "z := 1"}}}.Apply(dir)
	assert.ErrorContains(t, err, "occurs 0 times")
	_, err = Mutant{Name: "nofile", Patches: []Patch{{File: "b.go", Old: "x"}}}.Apply(dir)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestBuildAndRun builds this package's own tests with a mutant that makes
// TestTarget fail, and runs it both ways.
func TestBuildAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if os.Getenv("MUTANT_SELFTEST") != "" {
		t.Skip("inside the mutant")
	}
	m := Mutant{Name: "target fails", Patches: []Patch{{File: "target_test.go", Old: "const broken = false", New: "const broken = true"}}}
	bin := Build(t, m)
	r := Run(t, bin, []string{"MUTANT_SELFTEST=1"}, "-test.run", "^TestTarget$", "-test.v")
	assert.False(t, r.Passed, "the mutant's TestTarget passed:\n%s", r.Output)
	assert.True(t, strings.Contains(r.Output, "--- FAIL: TestTarget"), r.Output)
	assert.Contains(t, r.Output, "broken by the mutant")

	r = Run(t, bin, []string{"MUTANT_SELFTEST=1"}, "-test.run", "^TestApply$")
	assert.True(t, r.Passed, "the rest of the package is unchanged:\n%s", r.Output)
}
