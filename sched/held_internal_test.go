package sched

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
)

// holdingWorker returns a scheduler of two workers whose first worker
// holds items from thieves: its queue, a blockq, took over its back block
// at a pop. It returns the worker, its queue, and how many items the
// queue holds in all (published and held).
func holdingWorker(t *testing.T, mode Mode) (*scheduler[int], *Worker[int], *blockq.Queue[int], int) {
	t.Helper()
	s, err := newScheduler[int](Config[int]{Workers: 2, Mode: mode}, runHost[int](nil))
	require.NoError(t, err)
	w := s.workers[0]
	w.setLong(false) // short items: the worker may hold
	q := w.queue.(*blockq.Queue[int])
	const n = 200
	items := make([]int, n)
	for i := range items {
		items[i] = i
	}
	w.push(items)
	_, ok := w.next() // a pop that takes the back block over
	require.True(t, ok)
	require.Less(t, q.Len(), n-1, "the owner holds items")
	return s, w, q, n - 1
}

// TestLongItemsHoldNothing: a worker whose items are long publishes what
// its queue holds before it runs the item it took, and after a push; one
// whose items are short may hold items.
func TestLongItemsHoldNothing(t *testing.T) {
	_, w, q, left := holdingWorker(t, Random)
	_, ok := w.next()
	require.True(t, ok)
	left--
	assert.Less(t, q.Len(), left, "short items: the pop keeps holding")

	w.setLong(true)
	_, ok = w.next()
	require.True(t, ok)
	left--
	assert.Equal(t, left, q.Len(), "long items: the pop published what the queue held")

	w.setLong(false)
	_, ok = w.next() // a takeover again: the owner holds
	require.True(t, ok)
	left--
	require.Less(t, q.Len(), left)
	w.setLong(true)
	w.pushOne(-1)
	left++
	assert.Equal(t, left, q.Len(), "long items: the push published what the queue held")
}

// TestPopWakesSleeper: a thief that found nothing published asks the owner
// and parks. The owner's next pop publishes what it holds, and wakes the
// sleeper, in both modes: a parked worker in Random mode, a parked master
// in Master mode.
func TestPopWakesSleeper(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			s, w, q, _ := holdingWorker(t, mode)
			for { // a thief takes every published item, then asks
				if _, res := q.TrySteal(); res != wsq.Taken {
					break
				}
			}
			require.Zero(t, q.Len())
			var woken <-chan struct{}
			switch m := s.mode.(type) {
			case *random[int]:
				sr := &m.ws[1]
				m.sleeping = append(m.sleeping, sr) // parked, as random.park leaves it
				m.sleepers = 1
				woken = sr.wake
			case *masters[int]:
				m.sleepers = 1 // a master parked in awaitWork
				woken = m.wake
			}
			_, ok := w.next()
			require.True(t, ok)
			assert.Positive(t, q.Len(), "the pop answered the ask")
			select {
			case <-woken:
			default:
				t.Fatal("the pop that published held items woke nobody")
			}
		})
	}
}
