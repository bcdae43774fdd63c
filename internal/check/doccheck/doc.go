// Package doccheck holds tests that keep the module's documentation honest.
// One keeps the comments short; another holds every Go snippet of
// README.md to code the tests compile (see TestReadmeSnippets); a third
// checks that go doc shows each package's documentation (see
// TestPackageDocs).
//
// The first measures the sentences of the comments in the non-test files of a
// package. It reports the median words per sentence and the share of
// sentences over 40 words. The test fails where the median passes 16 or
// the share passes 3 %. Code blocks, table lines and directives are not
// prose, so they are not counted.
package doccheck
