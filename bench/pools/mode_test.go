package pools

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/worksteal/wsq/bench"
	"github.com/worksteal/wsq/sched"
)

// modeFlag sets the Mode of the wsq rows' pools and of the default pool,
// as ./bench's -sched.mode does (bench.SetUpMode).
var modeFlag = flag.String("sched.mode", "", bench.ModeUsage)

// mode is the Mode that -sched.mode names, or the library's default.
var mode sched.Mode

// TestMain reads -sched.mode.
func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	if mode, err = bench.SetUpMode(*modeFlag); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
