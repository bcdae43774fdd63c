package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
)

// TestProportion checks the steal's own choice, and that a Proportion set
// in the Config wins over it.
func TestProportion(t *testing.T) {
	auto, err := newScheduler[int](Config[int]{Workers: 2}, runHost[int](nil))
	require.NoError(t, err)
	fixed, err := newScheduler[int](Config[int]{Workers: 2, Proportion: 0.3}, runHost[int](nil))
	require.NoError(t, err)
	for _, c := range []struct {
		s       *scheduler[int]
		idle    int
		helping bool
		want    float64
	}{
		{auto, 1, false, 0.5},
		{auto, 0, false, 0.5}, // the thief at least
		{auto, 3, false, 0.25},
		{auto, 15, false, 1.0 / 16},
		{auto, 1, true, 0.5}, // helping, but alone: its share
		{auto, 2, true, oneItem},
		{auto, 15, true, oneItem},
		{fixed, 1, false, 0.3},
		{fixed, 15, true, 0.3},
	} {
		assert.Equal(t, c.want, c.s.proportion(c.idle, c.helping), "idle %d, helping %v", c.idle, c.helping)
	}
	// Fifteen thieves at a fork-join queue of a dozen tasks: one each.
	assert.Equal(t, 1, wsq.StealCount(12, auto.proportion(15, false)))
	assert.Equal(t, 1, wsq.StealCount(1e9, oneItem))
}

// newIdleScheduler returns a scheduler of two workers, not started, whose
// first worker's queue holds n items.
func newIdleScheduler(t *testing.T, mode Mode, n int) *scheduler[int] {
	s, err := newScheduler[int](Config[int]{Workers: 2, Mode: mode}, runHost[int](nil))
	require.NoError(t, err)
	items := make([]int, n)
	for i := range items {
		items[i] = i
	}
	s.workers[0].push(items)
	if p, ok := s.workers[0].queue.(publisher); ok {
		p.Publish() // a blockq owner may hold its newest items
	}
	return s
}

// TestStealChoosesRandom steals in Random mode: alone and helping, half;
// one of three looking, a quarter; and helping among them, one item.
func TestStealChoosesRandom(t *testing.T) {
	s := newIdleScheduler(t, Random, 100)
	r := s.mode.(*random[int])
	sr := &r.ws[1]
	require.True(t, r.steal(sr, true))
	assert.Len(t, sr.w.buf, 50) // none counted: the thief alone, half
	assert.Equal(t, 0, sr.w.buf[0])
	r.spinning.Store(1)
	r.sleepers = 2
	require.True(t, r.steal(sr, false))
	assert.Len(t, sr.w.buf, 13) // a quarter of the 50 left, rounded
	assert.Equal(t, 50, sr.w.buf[0])
	require.True(t, r.steal(sr, true))
	assert.Equal(t, []int{63}, sr.w.buf)
}

// TestStealChoosesMaster is TestStealChoosesRandom for a master, which
// counts the workers that wait for it.
func TestStealChoosesMaster(t *testing.T) {
	s := newIdleScheduler(t, Master, 100)
	ms := s.mode.(*masters[int])
	mb := &ms.boxes[1]
	mb.helping = true
	d, ok := ms.all[0].stealFor(mb)
	require.True(t, ok)
	assert.Equal(t, 50, d.n) // mb's worker alone, helping: half
	ms.idle <- &ms.boxes[0]  // one more waits
	mb.helping = false
	d, ok = ms.all[0].stealFor(mb)
	require.True(t, ok)
	assert.Len(t, d.items, 17) // a third of the 50 left, rounded
	mb.helping = true
	d, ok = ms.all[0].stealFor(mb)
	require.True(t, ok)
	assert.Equal(t, []int{67}, d.items) // helping, another waits: one
}
