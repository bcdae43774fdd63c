package sched_test

import (
	"context"
	"fmt"
	"sync/atomic"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/sched"
)

// Example sums the numbers below one million by divide and conquer: a handler
// splits a large span into two halves and spawns them as one batch, and sums
// a small span itself. Idle workers get work from the master.
func Example() {
	type span struct{ lo, hi int }
	var total atomic.Int64
	cfg := sched.Config[span]{
		NewQueue: func() wsq.Queue[span] { return mutexq.New[span]() },
		Workers:  4,
		Mode:     sched.Master,
	}
	stats, err := sched.Run(context.Background(), cfg, []span{{0, 1_000_000}},
		func(_ context.Context, s span, w *sched.Worker[span]) error {
			if s.hi-s.lo > 1000 {
				mid := (s.lo + s.hi) / 2
				w.Spawn(span{s.lo, mid}, span{mid, s.hi})
				return nil
			}
			sum := 0
			for i := s.lo; i < s.hi; i++ {
				sum += i
			}
			total.Add(int64(sum))
			return nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sum:", total.Load())
	fmt.Println("spans handled:", stats.Processed)
	// Output:
	// sum: 499999500000
	// spans handled: 2047
}

// Example_random counts the nodes of a complete binary tree of depth 16 with
// randomized stealing: an idle worker steals half of a random victim's queue.
func Example_random() {
	type node struct{ depth int }
	var leaves atomic.Int64
	cfg := sched.Config[node]{
		NewQueue:   func() wsq.Queue[node] { return mutexq.New[node]() },
		Mode:       sched.Random,
		Proportion: 0.5,
	}
	stats, err := sched.Run(context.Background(), cfg, []node{{0}},
		func(_ context.Context, n node, w *sched.Worker[node]) error {
			if n.depth == 16 {
				leaves.Add(1)
				return nil
			}
			w.Spawn(node{n.depth + 1}, node{n.depth + 1})
			return nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("leaves:", leaves.Load(), "nodes:", stats.Processed)
	// Output: leaves: 65536 nodes: 131071
}
