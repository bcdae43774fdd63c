package chaos

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeedFrom(t *testing.T) {
	s, err := seedFrom("42", time.Time{})
	require.NoError(t, err)
	assert.Equal(t, uint64(42), s)
	s, err = seedFrom("", time.Unix(0, 1_234_567_890_123))
	require.NoError(t, err)
	assert.Equal(t, uint64(567_890_123), s, "a clock seed: the nanoseconds modulo 10^9")
	for _, bad := range []string{"-1", "x", "1.5", " 7"} {
		_, err := seedFrom(bad, time.Time{})
		assert.EqualError(t, err, `WSQ_CHAOS_SEED="`+bad+`" is not a seed (a non-negative integer)`)
	}
}

// The stream is a function of the seed and the point's number, and its
// frequencies are the documented odds: over 2^20 points, each kind of
// noise within four standard deviations of its expected count (the counts
// are deterministic for these seeds, so the bounds only say how close they
// are).
func TestDecide(t *testing.T) {
	const n = 1 << 20
	for _, seed := range []uint64{0, 1, 123456789} {
		for _, write := range []bool{true, false} {
			var count [4]int
			var minD, maxD [4]time.Duration
			for i := uint64(1); i <= n; i++ {
				k, d := decide(seed, i, write)
				if k2, d2 := decide(seed, i, write); k2 != k || d2 != d {
					t.Fatalf("seed %d point %d: two decisions", seed, i)
				}
				if count[k] == 0 || d < minD[k] {
					minD[k] = d
				}
				maxD[k] = max(maxD[k], d)
				count[k]++
			}
			// A draw that allows a rarer noise takes it instead: the
			// odds nest (every multiple of writeStall is one of
			// writeSleep, which is one of writeYield).
			want := map[noise]float64{yield: n/readYield - n/readSleep, nap: n / readSleep}
			if write {
				want = map[noise]float64{yield: n/writeYield - n/writeSleep, nap: n/writeSleep - n/writeStall, stall: n / writeStall}
			} else {
				assert.Zero(t, count[stall], "a read point never stalls")
			}
			for k, w := range want {
				assert.InDelta(t, w, float64(count[k]), 4*math.Sqrt(w), "seed %d write %v noise %d", seed, write, k)
			}
			assert.Equal(t, time.Microsecond, minD[nap])
			assert.Equal(t, 64*time.Microsecond, maxD[nap])
			if write {
				assert.Equal(t, time.Millisecond, minD[stall])
				assert.Equal(t, 16*time.Millisecond, maxD[stall])
			}
			assert.Zero(t, maxD[yield]+maxD[none])
		}
	}
	// Other seeds, other streams.
	same := 0
	for i := uint64(1); i <= 1000; i++ {
		a, _ := decide(1, i, true)
		b, _ := decide(2, i, true)
		if a == b {
			same++
		}
	}
	assert.Less(t, same, 1000)
}

func TestCounts(t *testing.T) {
	a := Counts{Points: 10, Yields: 3, Sleeps: 2, Stalls: 1, Slept: 5 * time.Millisecond}
	b := Counts{Points: 4, Yields: 1, Sleeps: 1, Stalls: 0, Slept: time.Millisecond}
	assert.Equal(t, Counts{Points: 6, Yields: 2, Sleeps: 1, Stalls: 1, Slept: 4 * time.Millisecond}, a.Sub(b))
	assert.Equal(t, "10 chaos points: 3 yields, 2 sleeps, 1 stalls (5ms asked for)", a.String())
}

func TestEnabled(t *testing.T) {
	if !Enabled {
		assert.Zero(t, Seed(), "no seed outside the chaos build")
		assert.Zero(t, Snapshot().Points)
	}
}
