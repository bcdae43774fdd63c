package atomicx_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unsafeHomes are the only directories of the repository whose Go files may
// import unsafe, each import with a comment that gives the reason.
var unsafeHomes = map[string]bool{"internal/atomicx": true, "internal/pad": true}

// TestUnsafeConfined parses every Go file of the repository (the nested
// report module included) and fails if one outside unsafeHomes imports
// unsafe, if a test file does, or if an import of unsafe has no comment
// that says why.
func TestUnsafeConfined(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files, homes := 0, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p != "unsafe" {
				continue
			}
			dir := filepath.ToSlash(filepath.Dir(rel))
			switch {
			case !unsafeHomes[dir]:
				t.Errorf("%s imports unsafe: only %v may", rel, keys(unsafeHomes))
			case strings.HasSuffix(name, "_test.go"):
				t.Errorf("%s imports unsafe: tests use reflect (StructField.Offset, Type.Size) instead", rel)
			case imp.Comment == nil || strings.TrimSpace(imp.Comment.Text()) == "":
				t.Errorf("%s imports unsafe without a comment on the import line that says why", rel)
			default:
				homes[dir] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk found the repository's Go files")
	assert.Equal(t, unsafeHomes, homes, "each home of unsafe uses it (or should leave the list)")
}

func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

// moduleRoot returns the directory of the go.mod of module
// github.com/worksteal/wsq, above the test's working directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/worksteal/wsq\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod of github.com/worksteal/wsq above the test")
		dir = parent
	}
}
