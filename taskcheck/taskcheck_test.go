package taskcheck_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/worksteal/wsq/taskcheck"
)

// TestAnalyzer runs the analyzer on the programs of testdata/src/a, with
// stubs of sched and par: every finding that a comment wants, and no
// other.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskcheck.Analyzer, "a")
}
