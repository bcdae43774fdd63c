package chaos

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

// Enabled reports whether this build injects chaos: true under the build
// tag wsqchaos (without wsqcheck, whose explorations need a deterministic
// program).
const Enabled = enabled

// EnvSeed is the environment variable that sets the seed of a chaos run.
const EnvSeed = "WSQ_CHAOS_SEED"

// The odds, one in so many points, of each kind of noise. A write point is
// one before a store, swap, compare-and-swap or unlock; a read point one
// before a load or lock. Each odds is a multiple of the next commoner one,
// and a point takes at most one noise, the rarest that its draw allows.
const (
	writeYield = 4
	writeSleep = 256
	writeStall = 1 << 16
	readYield  = 16
	readSleep  = 4096
)

var (
	seed   uint64
	points atomic.Uint64
	yields atomic.Uint64
	sleeps atomic.Uint64
	stalls atomic.Uint64
	slept  atomic.Int64 // nanoseconds asked for, sleeps and stalls together
)

func init() {
	if !enabled {
		return
	}
	s, err := seedFrom(os.Getenv(EnvSeed), time.Now())
	if err != nil {
		fmt.Fprintf(os.Stderr, "wsq chaos: %v\n", err)
		os.Exit(2)
	}
	seed = s
	fmt.Fprintf(os.Stderr, "wsq chaos: seed %d (replay with %s=%d)\n", s, EnvSeed, s)
}

// seedFrom returns the seed the environment variable's value v names, or,
// when v is empty, one taken from the clock.
func seedFrom(v string, now time.Time) (uint64, error) {
	if v == "" {
		return uint64(now.UnixNano()) % 1_000_000_000, nil
	}
	s, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a seed (a non-negative integer)", EnvSeed, v)
	}
	return s, nil
}

// Seed returns the seed of this run: 0 when Enabled is false.
func Seed() uint64 { return seed }

// Point is the chaos point before one operation; write says whether the
// operation writes (a store, a swap, a compare-and-swap or an unlock) or
// reads (a load or a lock). It takes the next decision of the stream and
// carries it out. Only the chaos build of internal/atomicx calls it.
func Point(write bool) {
	switch n, d := decide(seed, points.Add(1), write); n {
	case stall:
		stalls.Add(1)
		sleep(d)
	case nap:
		sleeps.Add(1)
		sleep(d)
	case yield:
		yields.Add(1)
		runtime.Gosched()
	}
}

// noise is what a chaos point does.
type noise uint8

const (
	none  noise = iota
	yield       // runtime.Gosched
	nap         // sleep for microseconds
	stall       // sleep for milliseconds
)

// decide returns the decision of the stream of seed for the n-th point, and
// for a nap or a stall its length. The low bits of a draw choose the noise,
// its high bits the length.
func decide(seed, n uint64, write bool) (noise, time.Duration) {
	r := mix(seed + n*0x9E3779B97F4A7C15)
	d := r >> 32
	switch {
	case write && r%writeStall == 0:
		return stall, time.Millisecond << (d % 5) // 1 to 16 ms
	case write && r%writeSleep == 0, !write && r%readSleep == 0:
		return nap, time.Microsecond << (d % 7) // 1 to 64 µs, as the timer allows
	case write && r%writeYield == 0, !write && r%readYield == 0:
		return yield, 0
	}
	return none, 0
}

func sleep(d time.Duration) {
	slept.Add(int64(d))
	time.Sleep(d)
}

// mix is the finalizer of SplitMix64: consecutive inputs give independent
// looking outputs.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Counts is what chaos has done in this process so far.
type Counts struct {
	Points uint64        // chaos points reached: atomic operations, locks and unlocks
	Yields uint64        // points that yielded the processor
	Sleeps uint64        // points that slept for microseconds
	Stalls uint64        // points that stalled for milliseconds
	Slept  time.Duration // sleep and stall time asked for, all goroutines together
}

// Snapshot returns the counts so far.
func Snapshot() Counts {
	return Counts{
		Points: points.Load(), Yields: yields.Load(), Sleeps: sleeps.Load(),
		Stalls: stalls.Load(), Slept: time.Duration(slept.Load()),
	}
}

// Sub returns the counts of what happened between b and c.
func (c Counts) Sub(b Counts) Counts {
	return Counts{
		Points: c.Points - b.Points, Yields: c.Yields - b.Yields, Sleeps: c.Sleeps - b.Sleeps,
		Stalls: c.Stalls - b.Stalls, Slept: c.Slept - b.Slept,
	}
}

func (c Counts) String() string {
	return fmt.Sprintf("%d chaos points: %d yields, %d sleeps, %d stalls (%v asked for)",
		c.Points, c.Yields, c.Sleeps, c.Stalls, c.Slept.Round(time.Millisecond))
}
