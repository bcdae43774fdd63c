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
// (bench/report's families). Empty: the library's default. Benchmarks
// that compare the modes name theirs.
var benchModeFlag = flag.String("sched.mode", "", "master or random: the Mode of the benchmarks' pools and runs in the default configuration, and of the default pool (empty: the library's default)")

// benchMode is the Mode that -sched.mode names, or the library's default,
// the Mode of a zero Config.
var benchMode sched.Mode

// TestMain reads -sched.mode, and sets the default pool up in its mode
// before anything starts it.
func TestMain(m *testing.M) {
	flag.Parse()
	switch *benchModeFlag {
	case "":
		benchMode = sched.PoolConfig{}.Mode
	case "master":
		benchMode = sched.Master
	case "random":
		benchMode = sched.Random
	default:
		fmt.Fprintf(os.Stderr, "bench: -sched.mode %q: want master or random\n", *benchModeFlag)
		os.Exit(2)
	}
	if *benchModeFlag != "" {
		if err := sched.SetDefault(sched.PoolConfig{Mode: benchMode}); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}
