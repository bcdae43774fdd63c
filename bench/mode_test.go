package bench

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/worksteal/wsq/sched"
)

// benchModeFlag sets the Mode of every pool and run that a benchmark makes
// in the library's default configuration, and of the default pool: so
// one test binary measures both modes, run once with each, in one round
// (bench/report's families). Benchmarks that compare the modes name theirs.
var benchModeFlag = flag.String("sched.mode", "", ModeUsage)

// benchMode is the Mode that -sched.mode names, or the library's default.
var benchMode sched.Mode

// TestMain reads -sched.mode (see SetUpMode).
func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	if benchMode, err = SetUpMode(*benchModeFlag); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
