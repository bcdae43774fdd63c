package queuetest

import (
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/chaos"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// Config describes the implementation under test. New, NewWide and NewPtr
// are required. What the suite holds the queue to (its capacity, and which
// rules of wsq.Queue it relaxes) is what the queue's own Contract says.
type Config struct {
	// New returns a new empty queue of ints.
	New func() wsq.Queue[int]
	// NewWide returns a new empty queue of Wide values, used to detect torn
	// reads of multi-word items.
	NewWide func() wsq.Queue[Wide]
	// NewPtr returns a new empty queue of pointers, used to check that
	// removed items are not kept reachable.
	NewPtr func() wsq.Queue[*Payload]

	// PushNative, if set, pushes vs with the implementation's native batch
	// operation, as PushBatch would, and returns how many it took. The
	// sequential and exactly-once tests mix it in.
	PushNative func(q wsq.Queue[int], vs []int) int

	// StealNative, if set, steals with the implementation's native bulk
	// steal, as StealBatch would, and appends the stolen items to dst,
	// oldest first.
	StealNative func(q wsq.Queue[int], dst []int, p float64) []int

	// Thieves is the number of concurrent thieves in the exactly-once test;
	// 0 means 4.
	Thieves int

	// Items is the number of items the exactly-once test moves at full
	// size (testenv.Full); 0 means 2,000,000. At quick size it moves a
	// fortieth of that, under testing.Short a tenth.
	Items int
}

// contract returns the Contract of the queues New makes.
func (c Config) contract() wsq.Contract { return c.New().Contract() }

func (c Config) thieves() int {
	if c.Thieves > 0 {
		return c.Thieves
	}
	return 4
}

func (c Config) items() int {
	n := c.Items
	if n <= 0 {
		n = 2_000_000
	}
	return testenv.Size(n/10, n/40, n)
}

func (c Config) validate(t testing.TB) {
	t.Helper()
	if c.New == nil || c.NewWide == nil || c.NewPtr == nil {
		t.Fatal("queuetest: Config.New, NewWide and NewPtr are required")
	}
	k := c.contract()
	if k.Capacity < 0 {
		t.Fatal("queuetest: negative Contract().Capacity")
	}
	for name, q := range map[string]interface{ Contract() wsq.Contract }{"NewWide": c.NewWide(), "NewPtr": c.NewPtr()} {
		if q.Contract() != k {
			t.Fatalf("queuetest: the queues of %s have another Contract than those of New", name)
		}
	}
}

// Wide is a four-word item whose fields check each other, so a torn read
// (some words from one item, some from another) is detected.
type Wide struct {
	ID    uint64
	Neg   uint64 // ^ID
	Mix   uint64 // ID * wideMul
	Check uint64 // ID ^ Neg ^ Mix ^ wideSalt
}

const (
	wideMul  = 0x9E3779B97F4A7C15
	wideSalt = 0xA5A5A5A5DEADBEEF
)

// MakeWide returns the Wide item for id.
func MakeWide(id int) Wide {
	u := uint64(id)
	return Wide{ID: u, Neg: ^u, Mix: u * wideMul, Check: u ^ ^u ^ (u * wideMul) ^ wideSalt}
}

// Valid reports whether w is an untorn item made by MakeWide.
func (w Wide) Valid() bool { return w == MakeWide(int(w.ID)) }

// Payload is the pointer target of the reachability test: large enough to
// get its own allocation, so a cleanup attached to it runs as soon as it is
// unreachable.
type Payload struct {
	ID int
	_  [120]byte
}

// checks is the suite, in the order Run runs it.
var checks = []struct {
	name string
	run  func(testing.TB, Config)
	skip func(Config) bool // reports whether the check does not apply
}{
	{"Empty", testEmpty, nil},
	{"Order", testOrder, nil},
	{"Rounding", testRounding, nil},
	{"BadInput", testBadInput, nil},
	{"Bounded", testBounded, func(c Config) bool { return c.contract().Capacity == 0 }},
	{"RandomSequential", testRandomSequential, nil},
	{"Release", testRelease, nil},
	{"Retention", testRetention, nil},
	{"LenBounds", testLenBounds, nil},
	{"AtomicPushBatch", testAtomicPushBatch, nil},
	{"ExactlyOnce", testExactlyOnce, nil},
	{"ExactlyOnceWide", testExactlyOnceWide, nil},
	{"Linearizable", testLinearizable, nil},
	{"Soak", testSoak, nil},
	{"Chaos", testChaos, func(Config) bool { return !chaos.Enabled }},
}

// Run runs the whole conformance suite as subtests of t.
func Run(t *testing.T, cfg Config) {
	cfg.validate(t)
	for _, c := range checks {
		if c.skip != nil && c.skip(cfg) {
			continue
		}
		t.Run(c.name, func(t *testing.T) { c.run(t, cfg) })
	}
}
