//go:build !race

package chaselev_test

import (
	"sync/atomic"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
)

// What claim-then-read costs. plainDeque is the steal and pop of Taskflow's
// UnboundedWSQ transcribed literally for int items, with a plain slot read
// before the claiming CAS: a data race in Go (hence the build tag) and a torn
// read for multi-word items, which is why chaselev does not do it. It exists
// only as the baseline of these benchmarks. Run them with
//
//	go test -run '^$' -bench Slots -count 5 ./chaselev

type plainDeque struct {
	top    atomic.Int64
	_      [56]byte
	bottom atomic.Int64
	slots  []int
	mask   int64
}

func newPlainDeque(n int) *plainDeque {
	c := 1
	for c < n {
		c *= 2
	}
	q := &plainDeque{slots: make([]int, c), mask: int64(c - 1)}
	for i := range n {
		q.slots[i] = i
	}
	q.bottom.Store(int64(n))
	return q
}

func (q *plainDeque) steal() (int, bool) {
	t := q.top.Load()
	b := q.bottom.Load()
	if t >= b {
		return 0, false
	}
	v := q.slots[t&q.mask] // the speculative read
	if !q.top.CompareAndSwap(t, t+1) {
		return 0, false
	}
	return v, true
}

func (q *plainDeque) pop() (int, bool) {
	b := q.bottom.Load() - 1
	q.bottom.Store(b)
	t := q.top.Load()
	if t > b {
		q.bottom.Store(b + 1)
		return 0, false
	}
	v := q.slots[b&q.mask]
	if t == b {
		if !q.top.CompareAndSwap(t, t+1) {
			v = 0
		}
		q.bottom.Store(b + 1)
		return v, t == b
	}
	return v, true
}

// BenchmarkSlots compares one steal, and one pop, of chaselev (claim, read,
// release) with the plain-slot transcription, each from a deque filled
// outside the timer and with nobody else touching it.
func BenchmarkSlots(b *testing.B) {
	const n = 1 << 16
	b.Run("op=steal/slots=claim-then-read", func(b *testing.B) {
		for done := 0; done < b.N; done += n {
			b.StopTimer()
			q := chaselev.NewUnbounded[int](n)
			q.PushBatch(make([]int, n))
			b.StartTimer()
			for range min(n, b.N-done) {
				if _, r := q.TrySteal(); r != wsq.Taken {
					b.Fatal("steal failed")
				}
			}
		}
	})
	b.Run("op=steal/slots=plain", func(b *testing.B) {
		for done := 0; done < b.N; done += n {
			b.StopTimer()
			q := newPlainDeque(n)
			b.StartTimer()
			for range min(n, b.N-done) {
				if _, ok := q.steal(); !ok {
					b.Fatal("steal failed")
				}
			}
		}
	})
	b.Run("op=pop/slots=claim-then-read", func(b *testing.B) {
		for done := 0; done < b.N; done += n {
			b.StopTimer()
			q := chaselev.NewUnbounded[int](n)
			q.PushBatch(make([]int, n))
			b.StartTimer()
			for range min(n, b.N-done) {
				if _, ok := q.Pop(); !ok {
					b.Fatal("pop failed")
				}
			}
		}
	})
	b.Run("op=pop/slots=plain", func(b *testing.B) {
		for done := 0; done < b.N; done += n {
			b.StopTimer()
			q := newPlainDeque(n)
			b.StartTimer()
			for range min(n, b.N-done) {
				if _, ok := q.pop(); !ok {
					b.Fatal("pop failed")
				}
			}
		}
	})
}
