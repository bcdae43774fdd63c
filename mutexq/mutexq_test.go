package mutexq_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/model"
	"github.com/worksteal/wsq/mutexq"
)

// The conformance suite runs on this package from internal/check/queuetest, where
// it also checks the suite itself; here the constructors, and the ring's
// wrapping and growth against the reference model.
func TestConstructors(t *testing.T) {
	for _, c := range []int{0, -1} {
		assert.PanicsWithValue(t, "mutexq: capacity "+map[int]string{0: "0", -1: "-1"}[c]+" is not positive",
			func() { mutexq.NewBounded[int](c) })
	}
	assert.Equal(t, wsq.Contract{Capacity: 3, Locking: true}, mutexq.NewBounded[int](3).Contract())
	assert.Equal(t, wsq.Contract{Locking: true}, mutexq.New[int]().Contract())
}

// TestAgainstModel runs long random sequences of every operation, with
// batches of up to 40 items so that the ring wraps around its end and
// grows with items on both sides of the wrap, and compares each result with
// the reference model's.
func TestAgainstModel(t *testing.T) {
	for _, capacity := range []int{0, 1, 3, 8, 9, 100} {
		q := mutexq.New[int]()
		if capacity > 0 {
			q = mutexq.NewBounded[int](capacity)
		}
		m := model.New[int](capacity)
		r := rand.New(rand.NewPCG(uint64(capacity), 1))
		next := 0
		batch := func() []int {
			vs := make([]int, r.IntN(41))
			for i := range vs {
				vs[i] = next
				next++
			}
			return vs
		}
		for step := range 20_000 {
			switch op := r.IntN(7); op {
			case 0:
				require.Equal(t, m.Push(next), q.Push(next), "cap %d step %d: Push", capacity, step)
				next++
			case 1:
				vs := batch()
				require.Equal(t, m.PushBatch(vs), q.PushBatch(vs), "cap %d step %d: PushBatch of %d", capacity, step, len(vs))
			case 2:
				want, wantOK := m.Pop()
				got, ok := q.Pop()
				require.Equal(t, wantOK, ok, "cap %d step %d: Pop", capacity, step)
				require.Equal(t, want, got, "cap %d step %d: Pop", capacity, step)
			case 3:
				want, wantOK := m.Steal()
				got, ok := q.Steal()
				require.Equal(t, wantOK, ok, "cap %d step %d: Steal", capacity, step)
				require.Equal(t, want, got, "cap %d step %d: Steal", capacity, step)
			case 4, 5:
				p := []float64{0.1, 0.5, 0.9, 1}[r.IntN(4)]
				require.Equal(t, m.StealBatch([]int{-1}, p), q.StealBatch([]int{-1}, p), "cap %d step %d: StealBatch(%v)", capacity, step, p)
			case 6:
				want := m.StealBatch(nil, 0.5)
				got, res := q.TryStealBatch(nil, 0.5)
				require.Equal(t, want, got, "cap %d step %d: TryStealBatch", capacity, step)
				require.Equal(t, map[bool]wsq.StealResult{true: wsq.Taken, false: wsq.Empty}[len(want) > 0], res)
			}
			require.Equal(t, m.Len(), q.Len(), "cap %d step %d: Len", capacity, step)
		}
	}
}
