package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeSnippets holds every Go snippet of README.md to code that the
// tests compile and run: each must appear, line for line (up to a common
// indentation), in a .go file of the module, such as an Example function.
// So a snippet cannot drift from the API.
func TestReadmeSnippets(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(string(readme))
	if len(snippets) == 0 {
		t.Fatal("README.md has no Go snippet")
	}
	var files []string
	err = filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snippets {
		found := false
		for _, f := range files {
			if containsIndented(f, s) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("this snippet of README.md is in no .go file of the module:\n%s", s)
		}
	}
}

// goSnippets returns the bodies of the ```go blocks of a Markdown text.
func goSnippets(md string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(md, "```go\n")
		if !ok {
			return out
		}
		body, after, ok := strings.Cut(rest, "```")
		if !ok {
			return out
		}
		out = append(out, strings.TrimRight(body, "\n"))
		md = after
	}
}

// containsIndented reports whether the lines of snippet appear in text one
// after another, each indented by the same number of extra tabs.
func containsIndented(text, snippet string) bool {
	want := strings.Split(snippet, "\n")
	lines := strings.Split(text, "\n")
	for i := range lines {
		extra, ok := strings.CutSuffix(lines[i], want[0])
		if !ok || strings.Trim(extra, "\t") != "" {
			continue
		}
		match := i+len(want) <= len(lines)
		for j := 1; match && j < len(want); j++ {
			match = lines[i+j] == extra+want[j] || want[j] == "" && lines[i+j] == ""
		}
		if match {
			return true
		}
	}
	return false
}

// The checker finds an indented copy, and refuses a changed line.
func TestContainsIndented(t *testing.T) {
	text := "func Example() {\n\tx := 1\n\tif x > 0 {\n\t\tx++\n\t}\n}\n"
	if !containsIndented(text, "x := 1\nif x > 0 {\n\tx++\n}") {
		t.Error("an indented copy was not found")
	}
	if containsIndented(text, "x := 1\nif x > 1 {\n\tx++\n}") {
		t.Error("a changed line was found")
	}
	if got := goSnippets("a\n```go\nx := 1\n```\nb\n```\nno\n```\n"); len(got) != 1 || got[0] != "x := 1" {
		t.Errorf("goSnippets = %q", got)
	}
}
