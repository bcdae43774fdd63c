// Package mutant builds the tests of a package with a deliberate bug in its
// code, so that a test can show that a check fails against a broken variant
// of the code: that the interleaving explorer finds a protocol bug, that
// chaos mode finds it in a real concurrent run, that a wrap-around test
// fails against a variant that ignores the wrap.
//
// A Mutant is a patch of the package's source, not a switch in it: the code
// under test stays the protocol and nothing else. Build applies the patch
// through the go command's -overlay flag, which compiles the patched text
// in place of the file without touching the checkout, and returns a test
// binary that Run runs. A patch whose text no longer occurs exactly once in
// its file fails the test, so the mutants follow the code they break.
package mutant

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// A Patch replaces the one occurrence of Old in File, a file of the package
// under test named relative to its directory, with New.
type Patch struct {
	File     string
	Old, New string
}

// A Mutant is a deliberate bug: a name and the patches that make it.
type Mutant struct {
	Name    string
	Patches []Patch
}

// Apply returns the files m changes, by name, with its patches applied,
// reading them from dir. It reports an error when a patch's Old does not
// occur exactly once in its file (after the patches before it).
func (m Mutant) Apply(dir string) (map[string]string, error) {
	files := map[string]string{}
	for i, p := range m.Patches {
		src, ok := files[p.File]
		if !ok {
			b, err := os.ReadFile(filepath.Join(dir, p.File))
			if err != nil {
				return nil, err
			}
			src = string(b)
		}
		if n := strings.Count(src, p.Old); n != 1 {
			return nil, fmt.Errorf("mutant %q, patch %d: the text to replace occurs %d times in %s, not once:\n%s", m.Name, i+1, n, p.File, p.Old)
		}
		files[p.File] = strings.Replace(src, p.Old, p.New, 1)
	}
	return files, nil
}

// Build compiles the test binary of the package in the current directory
// (a test's working directory is its package's) with m applied, under the
// build tags, and returns the binary's path. It fails the test when a patch
// does not apply or the mutant does not compile.
func Build(t testing.TB, m Mutant, tags ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	files, err := m.Apply(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]map[string]string{"Replace": {}}
	for name, src := range files {
		patched := filepath.Join(tmp, strings.ReplaceAll(name, string(filepath.Separator), "_"))
		if err := os.WriteFile(patched, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][filepath.Join(dir, name)] = patched
	}
	js, err := json.Marshal(overlay)
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, js, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "mutant.test")
	args := []string{"test", "-c", "-o", bin, "-overlay", ov}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command("go", append(args, ".")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mutant %q does not build: %v\n%s", m.Name, err, out)
	}
	return bin
}

// Result is the outcome of one run of a test binary.
type Result struct {
	Output string // standard output and standard error together
	Passed bool   // the binary exited with status 0
}

// Run runs the test binary bin in the current directory with the test
// flags args (such as "-test.run", "^TestX$") and the environment
// variables WSQ_FULL=1 (testenv.EnvFull) and env added: the tests a mutant
// must fail run at their full sizes, whatever sizes the calling test runs
// at. It fails the test if the binary cannot be run or ends otherwise than
// by exiting.
func Run(t testing.TB, bin string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), testenv.EnvFull+"=1"), env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", bin, err)
	}
	return Result{Output: string(out), Passed: err == nil}
}
