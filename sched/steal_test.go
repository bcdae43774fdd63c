package sched

import (
	"context"
	"testing"
	"time"

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
		coarse  bool
		want    float64
	}{
		{auto, 1, false, false, 0.5},
		{auto, 0, false, false, 0.5}, // the thief at least
		{auto, 3, false, false, 0.25},
		{auto, 15, false, false, 1.0 / 16},
		{auto, 1, true, false, 0.5}, // helping, but alone, fine items: its share
		{auto, 2, true, false, wsq.OneItem},
		{auto, 15, true, false, wsq.OneItem},
		{auto, 1, true, true, wsq.OneItem},  // helping, alone, coarse items
		{auto, 1, false, true, 0.5},         // coarse, not helping: its share
		{auto, 3, false, true, 0.25},        // likewise
		{auto, 15, true, true, wsq.OneItem}, // both reasons
		{fixed, 1, false, false, 0.3},
		{fixed, 15, true, false, 0.3},
		{fixed, 1, true, true, 0.3},
	} {
		assert.Equal(t, c.want, c.s.proportion(c.idle, c.helping, c.coarse), "idle %d, helping %v, coarse %v", c.idle, c.helping, c.coarse)
	}
	// Fifteen thieves at a fork-join queue of a dozen tasks: one each.
	assert.Equal(t, 1, wsq.StealCount(12, auto.proportion(15, false, false)))
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
	if p, ok := s.workers[0].queue.(holder); ok {
		p.Publish() // a blockq owner may hold its newest items
	}
	return s
}

// TestStealChoosesRandom steals in Random mode: alone and helping, half;
// one of three looking, a quarter; helping among them, one item; and
// alone, helping, after coarse items, half again.
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
	r.spinning.Store(0)
	r.sleepers = 0
	sr.w.grain = coarseGrain
	require.True(t, r.steal(sr, true))
	assert.Len(t, sr.w.buf, 18) // Random mode ignores the grain: half of 36
}

// TestSampleGrain checks the moving average of a worker's busy time per
// item, the thresholds of coarse and long, the gaps between samples, and
// the ask that a worker keeps set while its items are long.
func TestSampleGrain(t *testing.T) {
	s := newIdleScheduler(t, Random, 0)
	w := s.workers[0]
	assert.True(t, w.coarse && w.long, "a new worker counts as long")
	assert.Equal(t, uint32(1), w.asked.Load(), "and keeps its ask set")
	t0 := time.Second
	w.sample(t0) // no span yet: nothing to measure
	assert.Equal(t, unknownGrain, w.grain)
	assert.Equal(t, t0, w.busySince)
	span := func(d time.Duration, items int64) {
		w.busySince, w.handledThen = t0, w.stats.Processed
		w.stats.Processed += items
		w.sample(t0 + d)
	}
	for range 16 { // quick items: a quarter of the way to zero each time
		span(0, 1000)
	}
	assert.True(t, w.long, "sixteen samples of quick items: still long")
	span(0, 1000)
	assert.Less(t, w.grain, longGrain, "the seventeenth")
	assert.True(t, w.coarse)
	assert.False(t, w.long)
	assert.Equal(t, uint32(1), w.asked.Load(), "its host's next answer clears the ask")
	w.asked.Store(0)
	assert.Equal(t, int64(2), w.gap, "short items: the gap doubles")
	assert.Equal(t, w.stats.Processed+2, w.nextSample)
	for range 10 {
		span(0, 1)
	}
	assert.Equal(t, int64(maxSampleGap), w.gap)
	assert.False(t, w.coarse, "fine items")
	g := w.grain
	span(time.Millisecond, 0) // no item ended: counts as one
	assert.Equal(t, g+(time.Millisecond-g)/4, w.grain)
	assert.True(t, w.coarse && w.long)
	assert.Equal(t, uint32(1), w.asked.Load(), "items turned long: the worker asks")
	assert.Equal(t, int64(1), w.gap, "long items: a sample after each")

	// ran samples when Processed reaches nextSample, and not before.
	w.setLong(false)
	w.gap, w.nextSample = 4, w.stats.Processed+2
	w.busySince = 0
	w.ran()
	assert.Zero(t, w.busySince, "no sample before nextSample")
	w.ran()
	assert.Positive(t, w.busySince, "a sample at nextSample")
}

// TestStealChoosesMaster is TestStealChoosesRandom for a master, which
// counts the workers that wait for it, and which sends a helping worker
// one item after coarse items.
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
	<-ms.idle                           // mb's worker alone again
	mb.coarse = true
	d, ok = ms.all[0].stealFor(mb)
	require.True(t, ok)
	assert.Equal(t, []int{68}, d.items) // helping after coarse items: one
	mb.helping = false
	d, ok = ms.all[0].stealFor(mb)
	require.True(t, ok)
	assert.Equal(t, 16, d.n) // coarse, not helping: half of the 31 left
}

// TestAwaitTellsCoarse checks that a worker's request to the masters
// carries what the steal chooses from: a helping wait, and coarse items.
func TestAwaitTellsCoarse(t *testing.T) {
	s := newIdleScheduler(t, Master, 0)
	ms := s.mode.(*masters[int])
	mb := &ms.boxes[1]
	for _, coarse := range []bool{true, false} {
		mb.w.coarse = coarse
		var l latch // done: await returns once it has asked
		assert.False(t, ms.await(context.Background(), mb, &l))
		assert.Same(t, mb, <-ms.idle)
		assert.True(t, mb.helping)
		assert.Equal(t, coarse, mb.coarse)
		mb.w.owed = false // the test took the request back
	}
}

// TestFindWorkMeasuresGrain checks that findWork ends a busy span when it
// starts to look, and starts the next when it returns.
func TestFindWorkMeasuresGrain(t *testing.T) {
	s := newIdleScheduler(t, Random, 1)
	w := s.workers[1]
	ok, err := w.findWork(context.Background(), nil) // steals the one item
	require.NoError(t, err)
	require.True(t, ok)
	require.GreaterOrEqual(t, w.busySince, time.Duration(0))
	assert.Equal(t, w.stats.Processed, w.handledThen)
	w.setLong(false)
	w.grain = 0
	s.epoch = s.epoch.Add(-time.Hour) // a long span, no item
	var l latch                       // done: the look ends at once
	before := s.clock()
	ok, err = w.findWork(context.Background(), &l)
	require.NoError(t, err)
	require.False(t, ok)
	assert.GreaterOrEqual(t, w.grain, time.Hour/4)
	assert.True(t, w.coarse && w.long)
	// A look that found nothing ends too: the next span starts after it.
	assert.GreaterOrEqual(t, w.busySince, before)
}

// TestDemand checks the count of workers that look for work, in both
// modes, and that a worker whose queue shows items has no demand to meet.
func TestDemand(t *testing.T) {
	r := newIdleScheduler(t, Random, 0).mode.(*random[int])
	idle, busy := r.s.workers[1], r.s.workers[0]
	assert.Zero(t, idle.demand())
	r.spinning.Store(1)
	r.sleepers = 2
	assert.Equal(t, 3, idle.demand())
	busy.push([]int{1})
	busy.holder.Publish()
	assert.Zero(t, busy.demand(), "its queue shows an item")

	s := newIdleScheduler(t, Master, 0)
	ms := s.mode.(*masters[int])
	assert.Zero(t, s.workers[0].demand())
	var l latch // done: await returns once it has asked
	ms.waiting.Add(1)
	assert.Equal(t, 1, s.workers[0].demand())
	ms.waiting.Add(-1)
	assert.False(t, ms.await(context.Background(), &ms.boxes[1], &l))
	assert.Zero(t, s.workers[0].demand(), "the wait ended")
}
