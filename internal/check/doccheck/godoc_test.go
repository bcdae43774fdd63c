package doccheck

import (
	"errors"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modulePackages returns the directories of the module's packages,
// relative to the module root, with slashes. It leaves out testdata, the
// directories of other modules (bench/report) and directories without a
// Go file that builds here.
func modulePackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(moduleRoot, path)
		if err != nil {
			return err
		}
		if name := d.Name(); rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
			return filepath.SkipDir // another module
		}
		if _, err := build.ImportDir(path, 0); err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return err
		}
		dirs = append(dirs, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// packageDoc returns the package name and the documentation that go doc
// shows for the package in dir: the comments that touch a package clause
// of a file that builds here.
func packageDoc(dir string) (name, text string, err error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return "", "", err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range bp.GoFiles {
		af, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return "", "", err
		}
		files = append(files, af)
	}
	p, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		return "", "", err
	}
	return bp.Name, p.Doc, nil
}

// docProblem returns what is wrong with a package's documentation as go
// doc shows it, or "". A library's opens "Package name", a command's
// "Command dir".
func docProblem(dir, name, text string) string {
	want := "Package " + name + " "
	if name == "main" {
		want = "Command " + filepath.Base(dir) + " "
	}
	switch {
	case strings.TrimSpace(text) == "":
		return "go doc shows no package documentation: is a blank line between the comment and the package clause?"
	case !strings.HasPrefix(text, want):
		return "the package documentation opens " + quoteStart(text) + "; want " + strings.TrimSpace(want) + " …"
	}
	return ""
}

// quoteStart quotes the first words of text.
func quoteStart(text string) string {
	words := strings.Fields(text)
	return `"` + strings.Join(words[:min(len(words), 4)], " ") + ` …"`
}

// TestPackageDocs checks, for each package of the module, that go doc
// shows its documentation, opening as go doc expects.
func TestPackageDocs(t *testing.T) {
	dirs := modulePackages(t)
	if len(dirs) < 10 {
		t.Fatalf("found only %d packages: %v", len(dirs), dirs)
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			name, text, err := packageDoc(filepath.Join(moduleRoot, dir))
			if err != nil {
				t.Fatal(err)
			}
			if p := docProblem(dir, name, text); p != "" {
				t.Errorf("%s: %s", dir, p)
			}
		})
	}
}

// TestPackageDocsFail shows that the check fails a doc comment that a
// blank line separates from its package clause, and one that opens
// otherwise than go doc expects.
func TestPackageDocsFail(t *testing.T) {
	cases := []struct {
		name, src string
		fail      bool
	}{
		{"attached", "// Package x does things.\npackage x\n", false},
		{"blank line", "// Package x does things.\n\npackage x\n", true},
		{"none", "package x\n", true},
		{"other opening", "// This package does things.\npackage x\n", true},
		{"command", "// Command x does things.\npackage main\n", false},
		{"command named otherwise", "// Command y does things.\npackage main\n", true},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "x")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "doc.go"), []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		name, text, err := packageDoc(dir)
		if err != nil {
			t.Fatal(err)
		}
		if p := docProblem(dir, name, text); (p != "") != c.fail {
			t.Errorf("%s: problem %q, want failure %v", c.name, p, c.fail)
		}
	}
}

// firstPage returns the number of lines that go doc prints before the
// index of the package in dir (its header, a blank line and the package
// documentation, wrapped as go doc wraps it) and the number of entries of
// the index's top level: constants, variables, functions and types.
func firstPage(dir string) (lines, entries int, err error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return 0, 0, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range bp.GoFiles {
		af, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.ParseComments)
		if err != nil {
			return 0, 0, err
		}
		files = append(files, af)
	}
	p, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		return 0, 0, err
	}
	pr := p.Printer()
	pr.TextCodePrefix = "    " // as go doc prints code blocks
	text := strings.TrimRight(string(pr.Text(p.Parser().Parse(p.Doc))), "\n")
	lines = 2 + strings.Count(text, "\n") + 1 + 1 // the header, a blank line, the text and a blank line
	entries = len(p.Consts) + len(p.Vars) + len(p.Funcs) + len(p.Types)
	return lines, entries, nil
}

// TestSchedFirstPage checks that sched's first page is short: what go doc
// prints before the index fits in 60 lines, and the index has at most 30
// entries at its top level.
func TestSchedFirstPage(t *testing.T) {
	lines, entries, err := firstPage(filepath.Join(moduleRoot, "sched"))
	if err != nil {
		t.Fatal(err)
	}
	if lines > 60 {
		t.Errorf("go doc prints %d lines of sched before its index; at most 60", lines)
	}
	if entries > 30 {
		t.Errorf("sched's index has %d entries at its top level; at most 30", entries)
	}
	t.Logf("sched: %d lines before the index, %d entries", lines, entries)
}
