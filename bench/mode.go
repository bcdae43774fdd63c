package bench

import (
	"fmt"

	"github.com/worksteal/wsq/sched"
)

// SetUpMode returns the Mode that name says, master or random, and sets
// the default pool up in it (sched.SetDefault), before anything starts
// that pool. An empty name returns the library's default, the Mode of a
// zero Config, and sets nothing up. The test binaries of ./bench and of
// bench/pools call it with their -sched.mode flag, so that one binary
// measures either mode: the benchmarks build their pools and runs in the
// default configuration with the Mode it returns.
func SetUpMode(name string) (sched.Mode, error) {
	var m sched.Mode
	switch name {
	case "":
		return sched.PoolConfig{}.Mode, nil
	case "master":
		m = sched.Master
	case "random":
		m = sched.Random
	default:
		return 0, fmt.Errorf("bench: -sched.mode %q: want master or random", name)
	}
	if err := sched.SetDefault(sched.PoolConfig{Mode: m}); err != nil {
		return 0, err
	}
	return m, nil
}

// ModeUsage is the usage of the -sched.mode flag of the test binaries.
const ModeUsage = "master or random: the Mode of the benchmarks' pools and runs in the default configuration, and of the default pool (empty: the library's default)"
