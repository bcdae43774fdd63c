package queuetest

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
)

// ledger records which item ids one goroutine received. Ids run from 1 to n.
type ledger struct {
	seen  []uint64 // bitmap of received ids
	count int
	sum   uint64
	err   error // first problem found: a duplicate, an id out of range, a torn item
}

func newLedger(n int) *ledger { return &ledger{seen: make([]uint64, n/64+1)} }

func (l *ledger) add(id int) {
	if id < 1 || id >= len(l.seen)*64 {
		l.fail(fmt.Errorf("received id %d, which was never pushed", id))
		return
	}
	w, b := id/64, uint64(1)<<(id%64)
	if l.seen[w]&b != 0 {
		l.fail(fmt.Errorf("received id %d twice", id))
		return
	}
	l.seen[w] |= b
	l.count++
	l.sum += uint64(id)
}

func (l *ledger) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

// settle merges the ledgers and checks that ids 1..n were each received
// exactly once.
func settle(t testing.TB, n int, ledgers []*ledger) {
	t.Helper()
	all := newLedger(n)
	count := 0
	var sum uint64
	for i, l := range ledgers {
		require.NoError(t, l.err, "goroutine %d", i)
		for w, word := range l.seen {
			if dup := all.seen[w] & word; dup != 0 {
				t.Fatalf("id %d received by two goroutines", w*64+bits.TrailingZeros64(dup))
			}
			all.seen[w] |= word
		}
		count += l.count
		sum += l.sum
	}
	for id := 1; id <= n; id++ {
		if all.seen[id/64]&(1<<(id%64)) == 0 {
			t.Fatalf("id %d was pushed but never received (%d of %d received)", id, count, n)
		}
	}
	require.Equal(t, n, count, "items received")
	require.Equal(t, uint64(n)*uint64(n+1)/2, sum, "checksum of received ids")
}

// codec turns ids into items and back; decode reports false for a torn item.
type codec[T any] struct {
	encode func(id int) T
	decode func(v T) (int, bool)
}

var intCodec = codec[int]{
	encode: func(id int) int { return id },
	decode: func(v int) (int, bool) { return v, true },
}

var wideCodec = codec[Wide]{
	encode: MakeWide,
	decode: func(w Wide) (int, bool) { return int(w.ID), w.Valid() },
}

// natives are the optional native operations, typed for T.
type natives[T any] struct {
	push  func(q wsq.Queue[T], vs []T) int
	steal func(q wsq.Queue[T], dst []T, p float64) []T
}

func testExactlyOnce(t testing.TB, cfg Config) {
	exactlyOnce(t, cfg, cfg.New, intCodec, natives[int]{cfg.PushNative, cfg.StealNative}, cfg.items())
}

func testExactlyOnceWide(t testing.TB, cfg Config) {
	exactlyOnce(t, cfg, cfg.NewWide, wideCodec, natives[Wide]{}, cfg.items()/4)
}

var proportions = []float64{0.1, 0.25, 0.5, 0.6, 0.9, 1}

// exactlyOnce runs one owner and cfg.thieves() thieves over one queue until
// ids 1..n have all been pushed and the queue is empty, then checks that each
// id was received exactly once.
//
// The owner mixes Push, PushBatch, the native push and Pop. It keeps the
// queue short most of the time, where owner and thieves meet, and now and
// then lets it grow so that large proportional steals happen too. Thieves mix
// Steal, StealBatch with varied proportions, TrySteal, TryStealBatch and the
// native steal; a TrySteal or TryStealBatch that reports wsq.Empty or
// wsq.Contended must come with no item.
func exactlyOnce[T any](t testing.TB, cfg Config, newQ func() wsq.Queue[T], c codec[T], nat natives[T], n int) {
	q := newQ()
	thieves := cfg.thieves()
	ledgers := make([]*ledger, thieves+1)
	for i := range ledgers {
		ledgers[i] = newLedger(n)
	}
	var done atomic.Bool
	var steals, stolen, attempts, contended atomic.Int64
	var wg sync.WaitGroup
	for th := 1; th <= thieves; th++ {
		wg.Add(1)
		go func(l *ledger, seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 0x7e1f))
			buf := make([]T, 0, 64)
			receive := func(v T) {
				id, ok := c.decode(v)
				if !ok {
					l.fail(fmt.Errorf("torn item %+v", v))
				}
				l.add(id)
			}
			for {
				got := 0
				attempts.Add(1)
				// try checks a one-attempt steal's result against what it
				// took.
				try := func(r wsq.StealResult, took int) {
					switch {
					case r == wsq.Contended:
						contended.Add(1)
						fallthrough
					case r == wsq.Empty:
						if took != 0 {
							l.fail(fmt.Errorf("a steal that reported %v took %d items", r, took))
						}
					case r != wsq.Taken:
						l.fail(fmt.Errorf("a steal reported %v", r))
					case took == 0:
						l.fail(fmt.Errorf("a steal reported %v and took nothing", r))
					}
				}
				var zero T
				switch r := rng.IntN(10); {
				case r < 2:
					if v, ok := q.Steal(); ok {
						receive(v)
						got = 1
					}
				case r < 3:
					v, res := q.TrySteal()
					if res == wsq.Taken {
						receive(v)
						got = 1
					} else if any(v) != any(zero) {
						l.fail(fmt.Errorf("a TrySteal that reported %v returned %+v", res, v))
					}
					try(res, got)
				case r < 5 || nat.steal == nil && r < 7:
					buf = q.StealBatch(buf[:0], proportions[rng.IntN(len(proportions))])
					for _, v := range buf {
						receive(v)
					}
					got = len(buf)
				case r < 7 || nat.steal == nil:
					var res wsq.StealResult
					buf, res = q.TryStealBatch(buf[:0], proportions[rng.IntN(len(proportions))])
					for _, v := range buf {
						receive(v)
					}
					got = len(buf)
					try(res, got)
				default:
					buf = nat.steal(q, buf[:0], proportions[rng.IntN(len(proportions))])
					for _, v := range buf {
						receive(v)
					}
					got = len(buf)
				}
				if got > 0 {
					steals.Add(1)
					stolen.Add(int64(got))
					continue
				}
				// Nothing taken. The owner sets done only after it has
				// pushed everything and seen the queue empty, and only
				// thieves remove items after that, so once done is set an
				// empty queue stays empty.
				if done.Load() && q.Len() == 0 {
					return
				}
				runtime.Gosched()
			}
		}(ledgers[th], uint64(th))
	}

	// The owner.
	owner := ledgers[0]
	rng := rand.New(rand.NewPCG(0, 0x0e1f))
	items := make([]T, 0, 1024)
	pop := func() bool {
		v, ok := q.Pop()
		if ok {
			id, valid := c.decode(v)
			if !valid {
				owner.fail(fmt.Errorf("torn item %+v", v))
			}
			owner.add(id)
		}
		return ok
	}
	limit := 64 // the queue length above which the owner pops
	for next := 1; next <= n; {
		if rng.IntN(1024) == 0 {
			limit = 4 + rng.IntN(64)
			if rng.IntN(8) == 0 {
				limit = 64 << rng.IntN(10) // now and then let the queue grow to 32 Ki items
			}
		}
		r := rng.IntN(100)
		switch {
		case q.Len() > limit || r < 20:
			pop()
		case r < 45:
			if q.Push(c.encode(next)) {
				next++
			} else {
				pop() // a full bounded queue
			}
		default:
			size := 1 + rng.IntN(8)
			if rng.IntN(16) == 0 {
				size = 1 + rng.IntN(512)
			}
			items = items[:0]
			for id := next; id < next+size && id <= n; id++ {
				items = append(items, c.encode(id))
			}
			var took int
			if r < 75 || nat.push == nil {
				took = q.PushBatch(items)
			} else {
				took = nat.push(q, items)
			}
			next += took
			if took < len(items) {
				pop()
			}
		}
		if rng.IntN(8) == 0 {
			runtime.Gosched() // let thieves in often, even on few cores
		}
	}
	for pop() {
	}
	done.Store(true)
	wg.Wait()
	settle(t, n, ledgers)
	t.Logf("%d items: owner popped %d; %d thieves stole %d in %d steals (%d attempts, %d contended)",
		n, owner.count, thieves, stolen.Load(), steals.Load(), attempts.Load(), contended.Load())
}
