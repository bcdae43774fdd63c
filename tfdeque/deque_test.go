package tfdeque_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/tfdeque"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// variant is one way to construct a deque for the conformance suite.
type variant struct {
	bounded bool
	style   tfdeque.PushStyle
}

func newDeque[T any](v variant) *tfdeque.Deque[T] {
	var q *tfdeque.Deque[T]
	if v.bounded {
		q = tfdeque.NewBounded[T](tfdeque.WithPushStyle(v.style))
	} else {
		q = tfdeque.NewUnbounded[T](tfdeque.WithPushStyle(v.style))
	}
	return q
}

func config(v variant) queuetest.Config {
	cfg := queuetest.Config{
		New:     func() wsq.Queue[int] { return newDeque[int](v) },
		NewWide: func() wsq.Queue[queuetest.Wide] { return newDeque[queuetest.Wide](v) },
		NewPtr:  func() wsq.Queue[*queuetest.Payload] { return newDeque[*queuetest.Payload](v) },
		// The batch push of the other style, mixed in by the suite.
		PushNative: func(q wsq.Queue[int], vs []int) int {
			if v.style == tfdeque.Bulk {
				return q.(*tfdeque.Deque[int]).PushPerItem(vs)
			}
			return q.(*tfdeque.Deque[int]).PushBulk(vs)
		},
		Thieves: 8,
		Items:   2_000_000,
	}
	return cfg
}

func TestUnbounded(t *testing.T)     { queuetest.Run(t, config(variant{})) }
func TestUnboundedBulk(t *testing.T) { queuetest.Run(t, config(variant{style: tfdeque.Bulk})) }
func TestBounded(t *testing.T)       { queuetest.Run(t, config(variant{bounded: true})) }
func TestBoundedBulk(t *testing.T) {
	queuetest.Run(t, config(variant{bounded: true, style: tfdeque.Bulk}))
}

// The positions and their wrap-around are chaselev's, whose tests run its
// suite across the 32-bit wrap; this package adds policies on top.

func FuzzUnbounded(f *testing.F) { queuetest.Fuzz(f, config(variant{})) }
func FuzzBounded(f *testing.F) {
	queuetest.Fuzz(f, config(variant{bounded: true, style: tfdeque.Bulk}))
}

func TestDefaults(t *testing.T) {
	u := tfdeque.NewUnbounded[int]()
	assert.Equal(t, 1024, u.Cap())
	assert.False(t, u.Bounded())
	assert.Equal(t, tfdeque.PerItem, u.Style())
	b := tfdeque.NewBounded[int]()
	assert.Equal(t, 256, b.Cap())
	assert.True(t, b.Bounded())
	assert.Equal(t, tfdeque.PerItem, b.Style())
	assert.Equal(t, 64, tfdeque.NewBounded[int](tfdeque.WithCapacity(64)).Cap())
	assert.Equal(t, 2, tfdeque.NewUnbounded[int](tfdeque.WithCapacity(2)).Cap())
	bulk := tfdeque.NewBounded[int](tfdeque.WithPushStyle(tfdeque.Bulk))
	assert.Equal(t, tfdeque.Bulk, bulk.Style())
	assert.Equal(t, "per-item", tfdeque.PerItem.String())
	assert.Equal(t, "bulk", tfdeque.Bulk.String())
	assert.Equal(t, "PushStyle(7)", tfdeque.PushStyle(7).String())
}

func TestBadOptions(t *testing.T) {
	for _, c := range []int{0, 1, 3, -2, 1000, 2 * chaselev.MaxCapacity} {
		msg := fmt.Sprintf("tfdeque: capacity %d is not a power of two between 2 and %d", c, chaselev.MaxCapacity)
		assert.PanicsWithValue(t, msg, func() { tfdeque.NewBounded[int](tfdeque.WithCapacity(c)) })
		assert.PanicsWithValue(t, msg, func() { tfdeque.NewUnbounded[int](tfdeque.WithCapacity(c)) })
	}
	assert.PanicsWithValue(t, "tfdeque: unknown PushStyle(7)", func() {
		tfdeque.NewBounded[int](tfdeque.WithPushStyle(7))
	})
}

// Taskflow's growth rules: a push doubles the capacity; a bulk push of N
// items into a deque of capacity C that cannot hold them grows it to
// bit_ceil(C+N).
func TestGrowth(t *testing.T) {
	q := tfdeque.NewUnbounded[int]()
	require.Equal(t, 1024, q.PushPerItem(queuetest.Seq(0, 1024)))
	assert.Equal(t, 1024, q.Cap())
	require.True(t, q.Push(1024))
	assert.Equal(t, 2048, q.Cap(), "push doubles")

	q = tfdeque.NewUnbounded[int]()
	require.Equal(t, 100, q.PushBulk(queuetest.Seq(0, 100)))
	require.Equal(t, 1500, q.PushBulk(queuetest.Seq(100, 1500)))
	assert.Equal(t, 4096, q.Cap(), "bulk push grows to bit_ceil(1024+1500)")
	assert.Equal(t, queuetest.Seq(0, 1600), q.StealBatch(nil, 1))

	q = tfdeque.NewUnbounded[int](tfdeque.WithPushStyle(tfdeque.Bulk))
	require.Equal(t, 924, q.PushBatch(queuetest.Seq(0, 924)))
	require.Equal(t, 100, q.PushBatch(queuetest.Seq(924, 100)))
	assert.Equal(t, 1024, q.Cap(), "a batch that fits does not grow the deque")
	require.Equal(t, 1, q.PushBatch([]int{1024}))
	assert.Equal(t, 2048, q.Cap(), "bit_ceil(1024+1)")

	q = tfdeque.NewUnbounded[int]()
	require.Equal(t, 100, q.PushBatch(queuetest.Seq(0, 100)))
	require.Equal(t, 1500, q.PushBatch(queuetest.Seq(100, 1500)))
	assert.Equal(t, 2048, q.Cap(), "the loop doubles item by item")
}

// A full bounded deque takes nothing and loses nothing, in both push
// styles, however often it fills up.
func TestBoundedFull(t *testing.T) {
	for _, style := range []tfdeque.PushStyle{tfdeque.PerItem, tfdeque.Bulk} {
		q := newDeque[int](variant{bounded: true, style: style})
		for range 3 {
			c := q.Cap()
			require.Equal(t, 200, q.PushBatch(queuetest.Seq(0, 200)))
			require.Equal(t, c-200, q.PushBatch(queuetest.Seq(200, 100)), "the prefix that fits")
			for range 3 {
				assert.False(t, q.Push(-1))
				assert.Equal(t, 0, q.PushBatch([]int{-1, -2}))
				assert.Equal(t, 0, q.PushPerItem([]int{-1}))
				assert.Equal(t, 0, q.PushBulk([]int{-1}))
				assert.Equal(t, c, q.Len())
			}
			v, ok := q.Steal()
			require.True(t, ok)
			require.Equal(t, 0, v)
			v, ok = q.Pop()
			require.True(t, ok)
			require.Equal(t, c-1, v)
			assert.Equal(t, 2, q.PushBatch([]int{c - 1, c, -3}))
			assert.Equal(t, queuetest.Seq(1, c), q.StealBatch(nil, 1), "nothing lost or reordered")
			assert.Zero(t, q.Len())
		}
	}
}
