package queuetest

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// EnvSoak is the environment variable that turns the soak check into a
// full soak: "1" moves FullSoakItems items, any larger number that many.
const EnvSoak = "WSQ_SOAK"

// FullSoakItems is the number of items a full soak moves through each
// queue.
const FullSoakItems = 10_000_000

// soakThieves is the number of thieves of a soak.
const soakThieves = 8

// soakItems returns the number of items the soak check moves, and whether
// the soak is a full one: EnvSoak's, or a short soak of 100,000 items
// (20,000 under testing.Short) that CI runs.
func soakItems() (int, bool, error) {
	v := os.Getenv(EnvSoak)
	if v == "" {
		if testing.Short() {
			return 20_000, false, nil
		}
		return 100_000, false, nil
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
	n, full, err := soakItems()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Thieves = soakThieves
	began := time.Now()
	exactlyOnce(t, c, c.New, intCodec, natives[int]{cfg.PushNative, cfg.StealNative}, n)
	kind := "short soak"
	if full {
		kind = "full soak"
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
