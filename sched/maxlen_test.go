package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/sched"
)

// TestMaxLenExact checks WorkerStats.MaxLen against a run whose queue
// lengths are known: one worker takes its newest item first, so the
// lengths after each push are 1 (the root), 1…5, 7 (after taking 5),
// 7 and 8 (after taking 8), and MaxLen is 8. The worker samples the length
// only when its own count says that it may exceed MaxLen, so a count that
// went wrong would show here; the bounded queue of two keeps most items in
// the worker's overflow, which counts too.
func TestMaxLenExact(t *testing.T) {
	queues := map[string]func() wsq.Queue[int]{
		"default": nil,
		"bounded": func() wsq.Queue[int] { return mutexq.NewBounded[int](2) },
	}
	for name, newQueue := range queues {
		for _, mode := range sched.Modes() {
			t.Run(fmt.Sprintf("%s/%s", name, mode), func(t *testing.T) {
				cfg := sched.Config[int]{NewQueue: newQueue, Mode: mode, Workers: 1}
				var order []int
				st, err := sched.Run(context.Background(), cfg, []int{0}, func(_ context.Context, v int, w *sched.Worker[int]) error {
					order = append(order, v)
					switch v {
					case 0:
						for c := 1; c <= 5; c++ {
							w.Spawn(c)
						}
					case 5:
						w.Spawn(6, 7, 8)
					case 8:
						w.Spawn(9)
						w.Spawn(10)
					}
					return nil
				})
				require.NoError(t, err)
				assert.Equal(t, []int{0, 5, 8, 10, 9, 7, 6, 4, 3, 2, 1}, order, "newest first")
				require.Len(t, st.PerWorker, 1)
				assert.Equal(t, 8, st.PerWorker[0].MaxLen)
			})
		}
	}
}
