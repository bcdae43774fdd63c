package check

import (
	"bufio"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module's import path; moduleRoot its root, seen from here.
const (
	module     = "github.com/worksteal/wsq"
	moduleRoot = "../.."
	harnesses  = "internal/check"
	// schedHelpers is the test helpers of sched and par: it imports
	// sched, so it stands above it, as a test of sched does.
	schedHelpers = "internal/check/schedtest"
)

// The floors of the module's packages, as in the package documentation.
// harnessFloor marks the test harnesses, which stand beside the floors.
const harnessFloor = -1

// floor returns the floor of the package in directory dir (relative to the
// module root, "." for the root), and false for a package it does not know.
func floor(dir string) (int, bool) {
	top, _, _ := strings.Cut(dir, "/")
	switch {
	case dir == schedHelpers:
		return 4, true
	case dir == harnesses || strings.HasPrefix(dir, harnesses+"/"):
		return harnessFloor, true
	case top == "internal" && dir != "internal":
		return 0, true
	case dir == ".":
		return 1, true
	case slices.Contains([]string{"blockq", "chaselev", "lfqueue", "mutexq", "tfdeque"}, dir):
		return 2, true
	case dir == "sched" || dir == "catalog":
		return 3, true
	case dir == "par":
		return 4, true
	case top == "bench" || top == "examples":
		return 5, true
	}
	return 0, false
}

// goFile is what the floors depend on in one Go file.
type goFile struct {
	dir     string // its package's directory, relative to the module root
	name    string
	test    bool
	build   constraint.Expr // its //go:build line; nil if none
	imports []string        // the module's packages it imports, as directories
}

func (f goFile) String() string { return path.Join(f.dir, f.name) }

// onlyTagged reports whether f is compiled only under the build tag
// wsqcheck or wsqchaos: its constraint is false without them, whatever
// the other tags.
func (f goFile) onlyTagged() bool {
	if f.build == nil {
		return false
	}
	for _, others := range []bool{false, true} {
		if f.build.Eval(func(tag string) bool {
			if tag == "wsqcheck" || tag == "wsqchaos" {
				return false
			}
			return others
		}) {
			return false
		}
	}
	return true
}

// upper are the packages that no file of a package under internal/
// imports, its tests included.
func upper(dir string) bool {
	top, _, _ := strings.Cut(dir, "/")
	return dir == "sched" || dir == "catalog" || dir == "par" || dir == schedHelpers || top == "bench" || top == "examples"
}

// violations returns the imports of files that break the floors.
func violations(files []goFile) []string {
	var out []string
	// bottom: the harnesses whose non-test files import nothing of the
	// module but helpers and other such harnesses; a helper may call one
	// under a tag.
	imports := map[string][]string{}
	for _, f := range files {
		if !f.test {
			imports[f.dir] = append(imports[f.dir], f.imports...)
		}
	}
	var bottom func(dir string, seen map[string]bool) bool
	bottom = func(dir string, seen map[string]bool) bool {
		if seen[dir] {
			return true
		}
		seen[dir] = true
		for _, imp := range imports[dir] {
			fl, _ := floor(imp)
			if fl == 0 || fl == harnessFloor && bottom(imp, seen) {
				continue
			}
			return false
		}
		return true
	}
	for _, f := range files {
		from, ok := floor(f.dir)
		if !ok {
			out = append(out, fmt.Sprintf("%s: package %s has no floor: add it to floor()", f, f.dir))
			continue
		}
		for _, imp := range f.imports {
			to, ok := floor(imp)
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s imports %s, which has no floor: add it to floor()", f, imp))
			case (from == 0 || from == harnessFloor) && upper(imp):
				out = append(out, fmt.Sprintf("%s imports %s: a package under internal/ sits below it", f, imp))
			case f.test:
			case to == harnessFloor && from >= 0 && from < 5:
				if !f.onlyTagged() {
					out = append(out, fmt.Sprintf("%s imports the test harness %s outside the build tags wsqcheck and wsqchaos", f, imp))
				} else if from > 0 || !bottom(imp, map[string]bool{}) {
					out = append(out, fmt.Sprintf("%s imports the test harness %s, which imports more than the helpers below it", f, imp))
				}
			case from == harnessFloor && to > 1:
				out = append(out, fmt.Sprintf("%s imports %s: a harness imports only wsq, the helpers and other harnesses", f, imp))
			case from >= 0 && to > from:
				out = append(out, fmt.Sprintf("%s (floor %d) imports %s (floor %d): an arrow up", f, from, imp, to))
			}
		}
	}
	return out
}

// moduleFiles reads the imports and build constraints of every Go file of
// the module under root, whatever its build tags. It skips what the go
// command skips (testdata, names that start with . or _) and nested
// modules.
func moduleFiles(t *testing.T, root string) []goFile {
	t.Helper()
	var files []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		af, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		f := goFile{dir: path.Dir(rel), name: name, test: strings.HasSuffix(name, "_test.go")}
		if f.build, err = buildLine(p); err != nil {
			return err
		}
		if f.build != nil && f.build.String() == "ignore" {
			return nil
		}
		for _, is := range af.Imports {
			imp, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			if imp == module {
				f.imports = append(f.imports, ".")
			} else if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				f.imports = append(f.imports, rest)
			}
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// buildLine returns the //go:build constraint of the Go file at p, or nil.
func buildLine(p string) (constraint.Expr, error) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if constraint.IsGoBuild(line) {
			return constraint.Parse(line)
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return nil, sc.Err()
}

// TestFloors checks that the imports between the module's packages point
// down, and that the library's files import no test harness but through
// atomicx's seam.
func TestFloors(t *testing.T) {
	files := moduleFiles(t, moduleRoot)
	if len(files) < 100 {
		t.Fatalf("found %d Go files under %s: is it the module root?", len(files), moduleRoot)
	}
	for _, v := range violations(files) {
		t.Error(v)
	}
}

// TestFloorsFail checks that violations finds each kind of wrong arrow.
func TestFloorsFail(t *testing.T) {
	tagged := func(s string) constraint.Expr {
		e, err := constraint.Parse("//go:build " + s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	cases := []struct {
		name  string
		files []goFile
		bad   bool
	}{
		{"a queue imports the interface", []goFile{{dir: "blockq", name: "a.go", imports: []string{".", "internal/pad"}}}, false},
		{"a queue imports sched", []goFile{{dir: "blockq", name: "a.go", imports: []string{"sched"}}}, true},
		{"a helper imports sched", []goFile{{dir: "internal/dag", name: "a.go", imports: []string{"sched"}}}, true},
		{"a helper's test imports catalog", []goFile{{dir: "internal/pad", name: "a_test.go", test: true, imports: []string{"catalog"}}}, true},
		{"a queue's test imports a harness", []goFile{{dir: "blockq", name: "a_test.go", test: true, imports: []string{"internal/check/queuetest"}}}, false},
		{"a queue imports a harness", []goFile{{dir: "blockq", name: "a.go", imports: []string{"internal/check/queuetest"}}}, true},
		{"a harness imports a queue", []goFile{{dir: "internal/check/queuetest", name: "a.go", imports: []string{"mutexq"}}}, true},
		{"an example imports a harness", []goFile{{dir: "examples/internal/cmdtest", name: "a.go", imports: []string{"internal/check/testenv"}}}, false},
		{"the seam under its tag", []goFile{
			{dir: "internal/atomicx", name: "seam.go", build: tagged("wsqchaos && !wsqcheck"), imports: []string{"internal/check/chaos"}},
		}, false},
		{"the seam outside its tag", []goFile{
			{dir: "internal/atomicx", name: "seam.go", build: tagged("!wsqcheck"), imports: []string{"internal/check/chaos"}},
		}, true},
		{"the seam reaches up through its harness", []goFile{
			{dir: "internal/atomicx", name: "seam.go", build: tagged("wsqcheck"), imports: []string{"internal/check/interleave"}},
			{dir: "internal/check/interleave", name: "a.go", imports: []string{"."}},
		}, true},
		{"a package of no floor", []goFile{{dir: "extra", name: "a.go"}}, true},
	}
	for _, c := range cases {
		v := violations(c.files)
		if got := len(v) > 0; got != c.bad {
			t.Errorf("%s: violations %q, want some: %v", c.name, v, c.bad)
		}
	}
}
