package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// checked lists the packages whose comments must meet the limits, as
// directories relative to the module root.
var checked = []string{
	".",
	"blockq",
	"sched",
}

// notYetChecked lists the packages whose figures the test only logs.
// Move a package to checked once its comments are cut (issue 29, item 4).
var notYetChecked = []string{}

// The limits, and what counts as a sentence.
const (
	maxMedian    = 16   // median words per sentence
	maxShareLong = 0.03 // share of sentences over longWords
	longWords    = 40
	minWords     = 3 // shorter fragments are not counted
)

// moduleRoot is the module root, seen from this package's directory.
const moduleRoot = "../../.."

// sentence is one sentence of comment text.
type sentence struct {
	pos   token.Position // where it starts
	words int
	text  string
}

// stats are the figures of a set of sentences.
type stats struct {
	n         int     // sentences of minWords or more
	median    float64 // words per sentence
	long      int     // sentences over longWords
	shareLong float64 // long / n
}

func (s stats) String() string {
	return fmt.Sprintf("%d sentences, median %.1f words, %.1f %% over %d words (%d)",
		s.n, s.median, 100*s.shareLong, longWords, s.long)
}

// measure returns the figures of ss.
func measure(ss []sentence) stats {
	counts := make([]int, 0, len(ss))
	for _, s := range ss {
		counts = append(counts, s.words)
	}
	slices.Sort(counts)
	st := stats{n: len(counts)}
	if st.n == 0 {
		return st
	}
	if st.n%2 == 1 {
		st.median = float64(counts[st.n/2])
	} else {
		st.median = float64(counts[st.n/2-1]+counts[st.n/2]) / 2
	}
	for _, c := range counts {
		if c > longWords {
			st.long++
		}
	}
	st.shareLong = float64(st.long) / float64(st.n)
	return st
}

// problems returns what in st breaks the limits, or nothing.
func problems(st stats) []string {
	var p []string
	if st.median > maxMedian {
		p = append(p, fmt.Sprintf("median %.1f words per sentence, limit %d", st.median, maxMedian))
	}
	if st.shareLong > maxShareLong {
		p = append(p, fmt.Sprintf("%.1f %% of sentences over %d words, limit %.0f %%",
			100*st.shareLong, longWords, 100*maxShareLong))
	}
	return p
}

// dirSentences returns the comment sentences of the non-test .go files in
// dir.
func dirSentences(dir string) ([]sentence, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var ss []sentence
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		ss = append(ss, fileSentences(fset, f)...)
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no comment sentences in %s", dir)
	}
	return ss, nil
}

// word is a word of comment text and the position of its line.
type word struct {
	text string
	pos  token.Position
}

// fileSentences returns the sentences of f's comments. A sentence ends
// at a full stop, question or exclamation mark, at the end of a paragraph
// or of a comment group, and where a list item starts.
func fileSentences(fset *token.FileSet, f *ast.File) []sentence {
	var out []sentence
	for _, g := range f.Comments {
		var para []word
		flush := func() {
			out = append(out, split(para)...)
			para = para[:0]
		}
		for _, c := range g.List {
			for i, line := range commentLines(c.Text) {
				pos := fset.Position(c.Slash)
				pos.Line += i
				text, kind := classify(line)
				switch kind {
				case breakLine:
					flush()
					continue
				case itemLine:
					flush()
				}
				for _, w := range strings.Fields(text) {
					para = append(para, word{w, pos})
				}
			}
		}
		flush()
	}
	return out
}

// commentLines returns the lines of one comment, without the comment
// markers.
func commentLines(text string) []string {
	if s, ok := strings.CutPrefix(text, "//"); ok {
		return []string{s}
	}
	text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		// A leading "*" of a block comment's line is decoration.
		t := strings.TrimLeft(l, " \t")
		if s, ok := strings.CutPrefix(t, "*"); ok {
			lines[i] = s
		}
	}
	return lines
}

// The kinds of comment line.
const (
	proseLine = iota // text that continues a sentence
	itemLine         // a list item: it starts a sentence
	breakLine        // no prose: it ends a sentence
)

// classify returns the prose of a comment line, without a list marker,
// and the line's kind. Empty lines, directives, headings, code blocks
// and table lines hold no prose.
func classify(line string) (string, int) {
	switch {
	case strings.TrimSpace(line) == "":
		return "", breakLine
	case isDirective(line):
		return "", breakLine
	case strings.HasPrefix(line, "\t"):
		return "", breakLine // a code block or table of a doc comment
	}
	s := strings.TrimLeft(line, " ")
	switch {
	case strings.HasPrefix(s, "# "):
		return "", breakLine // a heading
	case strings.Contains(s, "\t") || strings.Contains(s, "   "):
		return "", breakLine // aligned columns: a table
	}
	for _, m := range []string{"- ", "* ", "+ "} {
		if rest, ok := strings.CutPrefix(s, m); ok {
			return rest, itemLine
		}
	}
	if i := strings.IndexAny(s, ".)"); i > 0 && i < 3 && strings.HasPrefix(s[i+1:], " ") &&
		strings.Trim(s[:i], "0123456789") == "" {
		return s[i+2:], itemLine // a numbered item
	}
	return s, proseLine
}

// isDirective reports whether the text after "//" is a directive, such
// as go:build or line, rather than a comment.
func isDirective(s string) bool {
	if strings.HasPrefix(s, "line ") || strings.HasPrefix(s, " +build") {
		return true
	}
	name, _, ok := strings.Cut(s, ":")
	if !ok || name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// split cuts a paragraph's words into sentences.
func split(para []word) []sentence {
	var out []sentence
	start := 0
	for i, w := range para {
		if i == len(para)-1 || endsSentence(w.text) {
			if s := newSentence(para[start : i+1]); s.words >= minWords {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

// newSentence returns the sentence of ws.
func newSentence(ws []word) sentence {
	s := sentence{pos: ws[0].pos}
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
		if strings.IndexFunc(w.text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			s.words++
		}
	}
	s.text = strings.Join(texts, " ")
	return s
}

// endsSentence reports whether a word ends its sentence.
func endsSentence(w string) bool {
	switch strings.ToLower(w) {
	case "e.g.", "i.e.", "cf.", "vs.", "...", "(e.g.", "(i.e.", "(cf.":
		return false
	}
	w = strings.TrimRight(w, `)"'”’`)
	return strings.HasSuffix(w, ".") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!")
}

// longest returns the sentences of ss over longWords words, longest first.
func longest(ss []sentence) []sentence {
	var out []sentence
	for _, s := range ss {
		if s.words > longWords {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b sentence) int { return b.words - a.words })
	return out
}

// TestCommentSentences holds the packages of checked to the limits, and
// logs the figures of those of notYetChecked.
func TestCommentSentences(t *testing.T) {
	for _, dir := range checked {
		t.Run(dir, func(t *testing.T) {
			ss, err := dirSentences(filepath.Join(moduleRoot, dir))
			if err != nil {
				t.Fatal(err)
			}
			st := measure(ss)
			t.Logf("%s: %v", dir, st)
			if p := problems(st); p != nil {
				for _, s := range longest(ss) {
					t.Logf("%s: %d words: %s", s.pos, s.words, s.text)
				}
				t.Errorf("%s: %s", dir, strings.Join(p, "; "))
			}
		})
	}
	for _, dir := range notYetChecked {
		ss, err := dirSentences(filepath.Join(moduleRoot, dir))
		if err != nil {
			t.Logf("%s (not checked): %v", dir, err)
			continue
		}
		t.Logf("%s (not checked): %v", dir, measure(ss))
	}
}

// parse returns the sentences of the comments of a source file.
func parse(t *testing.T, src string) []sentence {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return fileSentences(fset, f)
}

// TestLongCommentsFail shows that the limits fail comments of long
// sentences and pass short ones.
func TestLongCommentsFail(t *testing.T) {
	long := strings.Repeat("word ", 45) + "end."
	mid := strings.Repeat("word ", 19) + "end."
	short := "This sentence has exactly seven words here."
	cases := []struct {
		name string
		doc  []string // sentences of the doc comment
		fail bool
	}{
		{"long", []string{long, long, short}, true},
		{"median", []string{mid, mid, mid, short}, true},
		{"share", append(slices.Repeat([]string{short}, 20), long), true},
		{"short", append(slices.Repeat([]string{short}, 40), long), false},
	}
	for _, c := range cases {
		var b strings.Builder
		b.WriteString("package x\n\n")
		for _, s := range c.doc {
			fmt.Fprintf(&b, "// %s\n", s)
		}
		b.WriteString("func F() {}\n")
		ss := parse(t, b.String())
		if len(ss) != len(c.doc) {
			t.Fatalf("%s: %d sentences, want %d", c.name, len(ss), len(c.doc))
		}
		st := measure(ss)
		if p := problems(st); (p != nil) != c.fail {
			t.Errorf("%s: %v: problems %q, want failure %v", c.name, st, p, c.fail)
		}
	}
}

// TestSentences shows what counts as a sentence.
func TestSentences(t *testing.T) {
	src := `//go:build linux

// Package x is short. It has a list:
//
//   - the first item is here;
//   - the second one, which runs on
//     to a second line.
//
// # A heading of words
//
// A table follows, e.g. this one.
//
//	state   meaning of the state
//	live    one of the states
//
// Is this a question? Yes it is! A
// sentence may close in parentheses (as this one does.) Then
// 1.5 or wsq.Queue do not end one.
package x

var v = 1 // a trailing comment here

/* A block comment has
 * two lines. */
`
	want := []string{
		"Package x is short.",
		"It has a list:",
		"the first item is here;",
		"the second one, which runs on to a second line.",
		"A table follows, e.g. this one.",
		"Is this a question?",
		"Yes it is!",
		"A sentence may close in parentheses (as this one does.)",
		"Then 1.5 or wsq.Queue do not end one.",
		"a trailing comment here",
		"A block comment has two lines.",
	}
	var got []string
	for _, s := range parse(t, src) {
		got = append(got, s.text)
	}
	if !slices.Equal(got, want) {
		t.Errorf("sentences:\n%q\nwant:\n%q", got, want)
	}
}
