// Package doccheck holds a test that keeps the module's comments short.
//
// It measures the sentences of the comments in the non-test files of a
// package. It reports the median words per sentence and the share of
// sentences over 40 words. The test fails where the median passes 16 or
// the share passes 3 %. Code blocks, table lines and directives are not
// prose, so they are not counted.
package doccheck
