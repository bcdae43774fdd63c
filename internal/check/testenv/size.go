package testenv

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
)

// EnvFull is the environment variable that asks the module's tests for
// their full sizes:
//
//	WSQ_FULL=1 go test -race ./...
//
// Unset (or false), the tests run at their quick sizes: every check and
// every kind of scenario, with fewer items, histories and rounds, so that
// the command finishes in a minute or two. Set to a true
// value (as strconv.ParseBool reads it: 1, t, true), they move millions of
// items, soak longer, record more histories, and run the tests that need a
// size of their own, such as driving a 32-bit counter once round all 2^32
// values. CI sets it.
//
// The -short flag wins over it: under testing.Short the tests run at their
// short sizes whatever EnvFull says. The short sizes are those of the runs
// CI makes on slow targets without the race detector (the 32-bit run under
// an emulator, the chaos run). A short size is never above the full one,
// but it may be above the quick one, which is sized for -race on two
// cores, where every operation costs several times more.
const EnvFull = "WSQ_FULL"

// envFull reads EnvFull once.
var envFull = sync.OnceValues(func() (bool, error) { return parseFull(os.Getenv(EnvFull)) })

// parseFull reads v, the value of EnvFull.
func parseFull(v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	full, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("testenv: %s=%q: want 1 (full sizes) or 0 (quick sizes)", EnvFull, v)
	}
	return full, nil
}

// Full reports whether the tests run at their full sizes: EnvFull asks for
// them and testing.Short is not set. It panics if EnvFull holds something
// other than a boolean. It must be called from a test, after flags are
// parsed.
func Full() bool {
	full, err := envFull()
	if err != nil {
		panic(err.Error())
	}
	return full && !testing.Short()
}

// Size returns the size a test runs at: short under testing.Short, full
// when Full reports true, and quick otherwise. It panics unless quick <=
// full and short <= full.
func Size[T cmp.Ordered](short, quick, full T) T {
	return pick(testing.Short(), Full(), short, quick, full)
}

// pick is Size for the given -short and Full.
func pick[T cmp.Ordered](isShort, isFull bool, short, quick, full T) T {
	if quick > full || short > full {
		panic(fmt.Sprintf("testenv: Size(%v, %v, %v): want quick <= full and short <= full", short, quick, full))
	}
	switch {
	case isShort:
		return short
	case isFull:
		return full
	}
	return quick
}
