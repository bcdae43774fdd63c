package sched

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
)

func newInjector() *injector[uint64] {
	q := new(injector[uint64])
	q.init()
	return q
}

// takeAll empties q with takes of parts shares, and returns what they took.
func takeAll(q *injector[uint64], parts int) []uint64 {
	var got []uint64
	for q.size() > 0 {
		got = q.take(got, parts)
	}
	return got
}

// TestInjectorOverflow puts more items than the ring holds, with takes in
// between: every item comes out once, in the order put, through the
// overflow and back through the ring.
func TestInjectorOverflow(t *testing.T) {
	q := newInjector()
	var want, got []uint64
	put := func(n int) {
		for range n {
			v := uint64(len(want))
			want = append(want, v)
			q.put(v)
		}
	}
	put(injectRing + 500) // 500 to the overflow
	assert.Equal(t, int64(injectRing+500), q.size())
	assert.Equal(t, int64(500), q.ovN.Load())
	got = q.take(got, 4) // a quarter, from the ring, at most injectTake
	assert.Len(t, got, min((injectRing+500+3)/4, injectTake))
	got = q.take(got, 1) // at most injectTake again
	assert.Len(t, got, min((injectRing+500+3)/4, injectTake)+injectTake)
	put(700) // behind the overflow, though the ring has room
	assert.Equal(t, int64(1200), q.ovN.Load())
	got = append(got, takeAll(q, 3)...)
	assert.Equal(t, want, got)
	put(10) // the overflow is empty: the ring again
	assert.Zero(t, q.ovN.Load())
	assert.Equal(t, want, append(got, takeAll(q, 1)...))
	assert.Zero(t, q.size())
}

// TestInjectorStopsAtUnwritten reserves a slot without writing it, as a
// putter between its CAS and its write: a take stops there, and takes the
// slot and those behind it once it is written.
func TestInjectorStopsAtUnwritten(t *testing.T) {
	q := newInjector()
	q.put(1)
	p := q.tail.Add(1) - 1 // reserved, not written
	q.put(3)
	assert.Equal(t, []uint64{1}, q.take(nil, 1))
	assert.Empty(t, q.take(nil, 1))
	assert.Equal(t, int64(2), q.size())
	q.ring[p%injectRing].v = 2
	q.ring[p%injectRing].seq.Store(p + 1)
	assert.Equal(t, []uint64{2, 3}, q.take(nil, 1))
}

// TestInjectorOverflowWaits fills the ring behind a slot whose putter has
// not written it, so that the next item goes to the overflow: a take
// returns nothing rather than the overflow's newer item, and the ring's
// items once the slot is written.
func TestInjectorOverflowWaits(t *testing.T) {
	q := newInjector()
	p := q.tail.Add(1) - 1 // reserved, not written
	for i := range injectRing - 1 {
		q.put(uint64(i + 1))
	}
	q.put(injectRing) // the ring is full: to the overflow
	require.Equal(t, int64(1), q.ovN.Load())
	assert.Empty(t, q.take(nil, 1))
	q.ring[p%injectRing].v = 0
	q.ring[p%injectRing].seq.Store(p + 1)
	got := takeAll(q, 1)
	require.Len(t, got, injectRing+1)
	for i, v := range got {
		require.Equal(t, uint64(i), v)
	}
}

// TestInjectorConcurrent puts items from several goroutines while others
// take them, through many laps of the ring and its overflow: each item is
// taken once, and each taker sees each putter's items in the order put.
// The quick size, 20,000 items, still makes about twenty laps of the
// ring, and overflow blocks when the takers fall behind.
func TestInjectorConcurrent(t *testing.T) {
	const putters, takers = 4, 3
	each := testenv.Size(5_000, 5_000, 20_000)
	q := newInjector()
	seen := make([][]bool, putters)
	for i := range seen {
		seen[i] = make([]bool, each)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range putters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				q.put(uint64(i)<<32 | uint64(j))
			}
		}()
	}
	var left sync.WaitGroup
	left.Add(putters * each)
	done := make(chan struct{})
	go func() { left.Wait(); close(done) }()
	for range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := make([]int, putters)
			for i := range last {
				last[i] = -1
			}
			var buf []uint64
			for {
				select {
				case <-done:
					return
				default:
				}
				buf = q.take(buf[:0], takers)
				for _, v := range buf {
					i, j := int(v>>32), int(v&(1<<32-1))
					if j <= last[i] {
						t.Errorf("putter %d's item %d after its item %d", i, j, last[i])
					}
					last[i] = j
					mu.Lock()
					if seen[i][j] {
						t.Errorf("putter %d's item %d taken twice", i, j)
					}
					seen[i][j] = true
					mu.Unlock()
					left.Done()
				}
			}
		}()
	}
	wg.Wait()
	assert.Zero(t, q.size())
	for i := range seen {
		for j, ok := range seen[i] {
			require.True(t, ok, "putter %d's item %d", i, j)
		}
	}
}

// TestGroupCredit counts tasks of a group from outside the pool: the
// latch counts a chunk ahead, and a wait gives back what is left.
func TestGroupCredit(t *testing.T) {
	g := newOutsideGroup()
	g.count()
	assert.Equal(t, int64(creditChunk), g.l.n)
	assert.Equal(t, int64(creditChunk-1), g.ext.credit.Load())
	for range creditChunk {
		g.count()
	}
	assert.Equal(t, int64(2*creditChunk), g.l.n) // a second chunk
	g.settle()
	assert.Equal(t, int64(creditChunk+1), g.l.n) // the tasks, no more
	g.count()
	assert.Equal(t, int64(creditChunk+2), g.l.n) // one by one now
	assert.Equal(t, int64(noCredit), g.ext.credit.Load())

	g = new(Group) // a task's group: no credit
	g.count()
	assert.Equal(t, int64(1), g.l.n)
	g.settle()
	assert.Equal(t, int64(1), g.l.n)
}

// TestGroupRefillRaces refills the credit after another goroutine changed
// it since count read zero: the refill gives its chunk back but its own
// task.
func TestGroupRefillRaces(t *testing.T) {
	g := newOutsideGroup()
	g.ext.credit.Store(noCredit) // a wait began
	g.refill()
	assert.Equal(t, int64(1), g.l.n)
	g = newOutsideGroup()
	g.ext.credit.Store(5) // another refill came first
	g.refill()
	assert.Equal(t, int64(1), g.l.n)
	assert.Equal(t, int64(5), g.ext.credit.Load())
}

// TestGroupCreditConcurrent counts from several goroutines while a wait
// begins: the latch ends up counting each task once, whether it counted
// from the credit, refilled it, or came after the wait began.
func TestGroupCreditConcurrent(t *testing.T) {
	const counters, each = 4, 10_000
	for range 20 {
		g := newOutsideGroup()
		var wg sync.WaitGroup
		for range counters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					g.count()
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.settle()
		}()
		wg.Wait()
		require.Equal(t, int64(counters*each), g.l.n)
	}
}

// TestGroupLayout checks what Group's comment says, on 64-bit platforms:
// the fields every task reads are at offset 64 or more, so never on the
// latch's 64-byte line; and a Group stays within the 112-byte size class.
// With 32-bit words the fields are closer, as is everything else there.
func TestGroupLayout(t *testing.T) {
	g := reflect.TypeFor[Group]()
	l, _ := g.FieldByName("l")
	assert.Zero(t, l.Offset)
	assert.LessOrEqual(t, l.Type.Size(), uintptr(16))
	if reflect.TypeFor[uintptr]().Size() != 8 {
		return
	}
	for _, name := range []string{"parent", "s", "ctx", "ext", "flags"} {
		f, ok := g.FieldByName(name)
		require.True(t, ok, name)
		assert.GreaterOrEqual(t, f.Offset, uintptr(64), name)
	}
	assert.LessOrEqual(t, g.Size(), uintptr(112))
}

// TestInjectorBacklog puts a backlog of many blocks: a take takes at most
// injectTake items, every item comes out once and in order, and the
// emptied overflow holds no block.
func TestInjectorBacklog(t *testing.T) {
	q := newInjector()
	const n = 10*injectRing + 7
	for i := range n {
		q.put(uint64(i))
	}
	got := q.take(nil, 1)
	assert.Len(t, got, injectTake, "one take")
	got = append(got, takeAll(q, 1)...)
	require.Len(t, got, n)
	for i, v := range got {
		require.Equal(t, uint64(i), v)
	}
	assert.Nil(t, q.first)
	assert.Nil(t, q.last)
	assert.Zero(t, q.ovN.Load())
}
