package lfqueue_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/internal/pad"
	"github.com/worksteal/wsq/lfqueue"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func config(opts ...lfqueue.Option) queuetest.Config {
	return queuetest.Config{
		New:     func() wsq.Queue[int] { return lfqueue.New[int](opts...) },
		NewWide: func() wsq.Queue[queuetest.Wide] { return lfqueue.New[queuetest.Wide](opts...) },
		NewPtr:  func() wsq.Queue[*queuetest.Payload] { return lfqueue.New[*queuetest.Payload](opts...) },
		PushNative: func(q wsq.Queue[int], vs []int) int {
			var l lfqueue.List[int]
			l.Grow(len(vs))
			for _, v := range vs {
				l.Append(v)
			}
			return q.(*lfqueue.Queue[int]).PushList(&l)
		},
		StealNative: func(q wsq.Queue[int], dst []int, p float64) []int {
			pc := q.(*lfqueue.Queue[int]).StealParcel(p)
			if pc == nil {
				return dst
			}
			return pc.(*lfqueue.List[int]).Drain(dst)
		},
	}
}

func TestBasic(t *testing.T)     { queuetest.Run(t, config()) }
func TestSkipCount(t *testing.T) { queuetest.Run(t, config(lfqueue.WithSkipCount())) }

// Several concurrent thieves are serialized, never unsafe.
func TestFourThieves(t *testing.T) {
	cfg := config(lfqueue.WithSkipCount())
	cfg.Thieves = 4
	queuetest.Run(t, cfg)
}

func FuzzBasic(f *testing.F)     { queuetest.Fuzz(f, config()) }
func FuzzSkipCount(f *testing.F) { queuetest.Fuzz(f, config(lfqueue.WithSkipCount())) }

func TestZeroValue(t *testing.T) {
	var q lfqueue.Queue[string]
	assert.True(t, q.Push("a"))
	assert.Equal(t, 2, q.PushBatch([]string{"b", "c"}))
	v, ok := q.Steal()
	assert.True(t, ok)
	assert.Equal(t, "a", v)
	v, ok = q.Pop()
	assert.True(t, ok)
	assert.Equal(t, "c", v)
	assert.Equal(t, "", q.CheckInvariants())
}

func TestLayout(t *testing.T) {
	own, lastPush, ctl, thief := lfqueue.Layout[int]()
	ownSize, thiefSize := lfqueue.Sizes[int]()
	assert.GreaterOrEqual(t, lastPush-(own+ownSize), pad.Size, "owner state and lastPush share a cache line")
	assert.GreaterOrEqual(t, ctl-lastPush, pad.Size, "lastPush and ctl share a cache line")
	assert.GreaterOrEqual(t, thief-ctl, pad.Size, "ctl and thief state share a cache line")
	assert.GreaterOrEqual(t, own, pad.Size, "owner state is not padded from the previous object")
	_ = thiefSize
}

func TestInvalidOptionsAndOverflow(t *testing.T) {
	q := lfqueue.New[int]()
	var l lfqueue.List[int]
	assert.Equal(t, 0, q.PushList(&l), "PushList of an empty list")
	assert.Equal(t, 0, q.PushList(nil), "PushList(nil)")
	assert.Equal(t, 0, q.PushParcel(nil), "PushParcel(nil)")
	assert.Nil(t, q.StealParcel(0.5), "StealParcel from an empty queue")
	assert.PanicsWithValue(t, "wsq: steal proportion 0 is outside (0, 1]", func() { q.StealParcel(0) })
	assert.Equal(t, "", q.CheckInvariants())

	// An invalid proportion is refused before anything is taken.
	q.PushBatch(queuetest.Seq(1, 4))
	assert.PanicsWithValue(t, "wsq: steal proportion 1.5 is outside (0, 1]", func() { q.StealParcel(1.5) })
	assert.Equal(t, "", q.CheckInvariants())
	assert.Equal(t, queuetest.Seq(1, 4), q.StealBatch(nil, 1), "the refused steal took nothing")
}

// TestListHandoff moves stolen sub-lists between queues and back, in
// constant time, and checks that nothing is lost or reordered.
func TestListHandoff(t *testing.T) {
	for _, opts := range [][]lfqueue.Option{nil, {lfqueue.WithSkipCount()}} {
		a, b := lfqueue.New[int](opts...), lfqueue.New[int](opts...)
		var l lfqueue.List[int]
		l.Grow(100)
		for i := 0; i < 100; i++ {
			l.Append(i)
		}
		require.Equal(t, 100, l.Len())
		require.Equal(t, 100, a.PushList(&l))
		require.Equal(t, 0, l.Len(), "PushList empties the list")

		stolen := a.StealParcel(0.3)
		require.NotNil(t, stolen)
		require.Equal(t, 30, b.PushList(stolen.(*lfqueue.List[int])))
		require.Equal(t, 0, stolen.Len(), "PushList empties the stolen list")
		require.Equal(t, 70, a.Len())
		require.Equal(t, "", a.CheckInvariants())
		require.Equal(t, "", b.CheckInvariants())

		// b holds 0..29; steal a third of a again and push it on top of b.
		p := a.StealParcel(1.0 / 3)
		require.NotNil(t, p)
		require.Equal(t, 23, p.Len())
		require.Equal(t, 23, b.PushParcel(p))
		require.Equal(t, 0, p.Len())
		assert.Equal(t, append(queuetest.Seq(0, 30), queuetest.Seq(30, 23)...), b.StealBatch(nil, 1))
		assert.Equal(t, queuetest.Seq(53, 47), a.StealBatch(nil, 1))
		assert.Equal(t, "", a.CheckInvariants())
	}
}

// TestStealParcelList checks the List that StealParcel hands over: it holds
// the stolen items in order, and Append adds above them.
func TestStealParcelList(t *testing.T) {
	q := lfqueue.New[int](lfqueue.WithSkipCount())
	q.PushBatch(queuetest.Seq(10, 5))
	pc := q.StealParcel(0.5)
	require.NotNil(t, pc)
	require.Equal(t, 3, pc.Len(), "round(0.5·5) = 3, halves away from zero")
	l := pc.(*lfqueue.List[int])
	l.Append(1)
	l.Append(2)
	assert.Equal(t, 5, l.Len())
	assert.Equal(t, []int{2, 1, 12, 11, 10}, slices.Collect(l.Backward()), "Backward: newest first, list unchanged")
	for v := range l.Backward() {
		assert.Equal(t, 2, v, "Backward stops when the loop breaks")
		break
	}
	assert.Equal(t, []int{10, 11, 12, 1, 2}, l.Drain(nil), "appended items go above the stolen ones, oldest first")
	assert.Equal(t, 0, l.Len())
	assert.Equal(t, []int{13, 14}, q.StealBatch(nil, 1))
}

func TestSizeLimit(t *testing.T) {
	q := lfqueue.New[int]()
	q.FakeLen(lfqueue.MaxLen - 1)
	assert.True(t, q.Push(1), "the last item that fits")
	msg := "lfqueue: pushing 1 items would make the queue hold more than " + strconv.FormatUint(lfqueue.MaxLen, 10)
	assert.PanicsWithValue(t, msg, func() { q.Push(2) })
	assert.Panics(t, func() { q.PushBatch([]int{1, 2}) })
	var l lfqueue.List[int]
	l.Append(3)
	assert.Panics(t, func() { q.PushList(&l) })
	assert.Equal(t, 1, l.Len(), "a refused list keeps its items")
	assert.Equal(t, lfqueue.MaxLen, q.Len(), "refused pushes change nothing")
}
