package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/model"
)

func TestDeque(t *testing.T) {
	d := model.New[int](0)
	assert.Equal(t, 3, d.PushBatch([]int{1, 2, 3}))
	assert.True(t, d.Push(4))
	v, ok := d.Pop()
	assert.True(t, ok)
	assert.Equal(t, 4, v)
	v, ok = d.Steal()
	assert.True(t, ok)
	assert.Equal(t, 1, v)
	assert.Equal(t, []int{2}, d.StealBatch(nil, 0.5)) // round(0.5*2) = 1
	assert.Equal(t, []int{3}, d.Items(nil))
	assert.Equal(t, []int{9, 3}, d.StealBatch([]int{9}, 1))
	_, ok = d.Pop()
	assert.False(t, ok)
	_, ok = d.Steal()
	assert.False(t, ok)
	assert.Equal(t, []int(nil), d.StealBatch(nil, 1))
	assert.Panics(t, func() { d.StealBatch(nil, 0) })
}

func TestDequeBounded(t *testing.T) {
	d := model.New[int](3)
	assert.Equal(t, 2, d.PushBatch([]int{1, 2}))
	assert.Equal(t, 1, d.PushBatch([]int{3, 4, 5}))
	assert.False(t, d.Push(6))
	assert.Equal(t, 0, d.PushBatch([]int{7}))
	assert.Equal(t, []int{1, 2, 3}, d.Items(nil))
	_, _ = d.Steal()
	assert.True(t, d.Push(8))
	assert.Equal(t, []int{2, 3, 8}, d.Items(nil))
	assert.Panics(t, func() { model.New[int](-1) })
}

// TestDequeCompacts checks that a Deque used as a FIFO keeps a bounded
// backing array.
func TestDequeCompacts(t *testing.T) {
	d := model.New[int](0)
	for i := range 100000 {
		require.True(t, d.Push(i))
		v, ok := d.Steal()
		require.True(t, ok)
		require.Equal(t, i, v)
	}
	assert.Less(t, cap(d.Items(nil)), 64)
	assert.Equal(t, 0, d.Len())
}
