package sched

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Master mode runs one master per masterSpan workers, and the Stats are
// the masters' together.
func TestMasterCount(t *testing.T) {
	for workers, want := range map[int]int{1: 1, masterSpan: 1, masterSpan + 1: 2, 2*masterSpan + 3: 3} {
		const n = 20_000
		s, err := newScheduler[int](Config[int]{Mode: Master, Workers: workers}, runHost[int](func(_ context.Context, v int, w *Worker[int]) error {
			if v < n/2 {
				w.Spawn(2*v+1, 2*v+2)
			}
			return nil
		}))
		require.NoError(t, err)
		ms := s.mode.(*masters[int])
		require.Len(t, ms.all, want, "%d workers", workers)
		st, err := s.run(context.Background(), []int{0})
		require.NoError(t, err)
		assert.Equal(t, int64(n+1), st.Processed, "%d workers", workers)
		var steals int64
		for _, m := range ms.all {
			steals += m.st.steals
		}
		assert.Equal(t, st.Steals, steals, "%d workers", workers)
	}
}
