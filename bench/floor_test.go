package bench

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

// floorSink keeps BenchmarkFloor's results alive.
var floorSink uint64

// BenchmarkFloor measures the machine's floor: what the instructions an
// owner's operation is made of cost on this machine, alone, in a loop. Every
// owner-path figure of the module reads as a multiple of these, on any
// machine (bench/report/results/owner-path-2026-12-03 shows them so):
//
//	op=plain    a plain store into a slot of a ring (a push's slot write)
//	op=store    a sync/atomic store (an XCHG on amd64)
//	op=cas      an uncontended compare-and-swap that succeeds (LOCK CMPXCHG)
//	op=release  a release store of internal/atomicx (a call of an assembly
//	            MOV on amd64, an STLR on arm64)
//	op=call     the call of a method that is not inlined, which stores
//	            into a slot of a ring (a push's call and slot write)
//
// Each op stores the loop counter, so no store repeats the last one, into
// a word or a slot that no other goroutine touches; the results are read
// after the loop, so the compiler keeps every store (TestFloorLoopsStore
// checks the machine code of the loops on amd64). The loops run in windows
// of windowItems operations, as the owner-path benchmarks do, so that their
// best-ns/op compares with theirs.
//
//	go test -run '^$' -bench Floor -count 6 ./bench
func BenchmarkFloor(b *testing.B) {
	slots := make([]uint64, floorSlots)
	w := new(floorWord)
	ring := &floorSlot{slots: make([]uint64, floorSlots)}
	for _, c := range []struct {
		op   string
		loop func(n int)
	}{
		{"plain", func(n int) { floorPlain(slots, n) }},
		{"store", func(n int) { floorStore(&w.v, n) }},
		{"cas", func(n int) { floorCAS(&w.v, n) }},
		{"release", func(n int) { floorRelease(&w.v, n) }},
		{"call", func(n int) { floorCall(ring, n) }},
	} {
		b.Run("op="+c.op, func(b *testing.B) {
			timeWindows(b, windowItems, func(ops int) func() {
				w.v.Store(0) // where floorCAS's first compare-and-swap expects it
				return func() { c.loop(ops) }
			})
			floorSink = slots[b.N%floorSlots] + w.v.Load() + ring.slots[b.N%floorSlots]
		})
	}
}

// TestFloorLoopsStore compiles package bench without its tests for amd64
// with the compiler's listing (go build -gcflags=-S) and checks that each
// loop of BenchmarkFloor performs the instruction it is named after, once
// per iteration: the compiler did not drop or hoist the plain store, and
// the others are the instructions BenchmarkFloor's comment names.
func TestFloorLoopsStore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	funcs := testenv.Listing(t, "amd64", ".")
	for _, c := range []struct {
		fn   string
		want *regexp.Regexp
	}{
		{"floorPlain", regexp.MustCompile(`\tMOVQ\t\w+, \(\w+\)\(\w+\*8\)`)}, // slots[i&mask] = i
		{"floorStore", regexp.MustCompile(`\tXCHGQ\t`)},
		{"floorCAS", regexp.MustCompile(`\tLOCK\n.*\tCMPXCHGQ\t`)},
		{"floorRelease", regexp.MustCompile(`\tCALL\tgithub\.com/worksteal/wsq/internal/atomicx\.storeRelease64\(SB\)`)},
		{"floorCall", regexp.MustCompile(`\tCALL\tgithub\.com/worksteal/wsq/bench\.\(\*floorSlot\)\.put\(SB\)`)},
	} {
		body := funcs["github.com/worksteal/wsq/bench."+c.fn]
		require.NotEmpty(t, body, "no listing of %s", c.fn)
		loop := loopOf(body)
		assert.Regexp(t, c.want, loop, "%s: the loop lacks its instruction:\n%s", c.fn, loop)
	}
}

// loopOf returns the instructions of body from the target of its last
// backward jump to that jump: the loop.
func loopOf(body string) string {
	lines := strings.Split(body, "\n")
	jump := regexp.MustCompile(`\tJ[A-Z]+\t(\d+)$`)
	offset := regexp.MustCompile(`^\t0x[0-9a-f]+ (\d+) `)
	for i := len(lines) - 1; i >= 0; i-- {
		m := jump.FindStringSubmatch(lines[i])
		o := offset.FindStringSubmatch(lines[i])
		if m == nil || o == nil || len(m[1]) == 0 {
			continue
		}
		if target, at := atoi(m[1]), atoi(o[1]); target < at {
			for j := range i {
				if p := offset.FindStringSubmatch(lines[j]); p != nil && atoi(p[1]) >= target {
					return strings.Join(lines[j:i+1], "\n")
				}
			}
		}
	}
	return ""
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}
