package queuetest

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// EnvSoak is the environment variable that turns the soak check into a
// long soak: "1" moves FullSoakItems items, any larger number that many.
// It is a finer knob than testenv.EnvFull (WSQ_FULL), which sizes every
// test, the soak included; where it is set, it wins over WSQ_FULL and
// -short for the soak.
const EnvSoak = "WSQ_SOAK"

// FullSoakItems is the number of items a long soak (EnvSoak=1) moves
// through each queue.
const FullSoakItems = 10_000_000

// soakThieves is the number of thieves of a soak.
const soakThieves = 8

// soakItems returns the number of items the soak check moves, and whether
// the soak is a long one: EnvSoak's, or else a short soak of 100,000 items
// at full size (which CI runs), 20,000 at quick size and under
// testing.Short.
func soakItems() (int, bool, error) {
	v := os.Getenv(EnvSoak)
	if v == "" {
		return testenv.Size(20_000, 20_000, 100_000), false, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 1:
		return 0, false, fmt.Errorf("%s=%q: want 1 (a full soak of %d items) or a number of items", EnvSoak, v, FullSoakItems)
	case n == 1:
		return FullSoakItems, true, nil
	}
	return n, true, nil
}

// testSoak is the soak check: one owner mixing Push, PushBatch, the native
// push and Pop against soakThieves thieves mixing Steal, StealBatch and the
// native steal (serialized or not, as the queue's Contract says), checked
// by count, checksum and a bitmap, as the exactly-once check is. It moves
// as many items as soakItems says and logs the figures.
func testSoak(t testing.TB, cfg Config) {
	n, long, err := soakItems()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Thieves = soakThieves
	began := time.Now()
	exactlyOnce(t, c, c.New, intCodec, natives[int]{cfg.PushNative, cfg.StealNative}, n)
	kind := "short soak"
	if long {
		kind = "long soak"
	}
	thieves := "concurrent"
	switch k := cfg.contract(); {
	case k.Locking:
		thieves = "locking"
	case k.SerializedThieves:
		thieves = "serialized"
	}
	// exactlyOnce fails the test unless every item came out exactly once.
	t.Logf("%s: %d items, 1 owner and %d %s thieves, 0 lost, 0 duplicated, %v",
		kind, n, soakThieves, thieves, time.Since(began).Round(time.Millisecond))
}
