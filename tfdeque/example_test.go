package tfdeque_test

import (
	"fmt"

	"github.com/worksteal/wsq/tfdeque"
)

// Taskflow's unbounded queue: the owner pushes and pops at one end, thieves
// steal from the other, and a proportional steal is a loop of single steals.
func Example() {
	q := tfdeque.NewUnbounded[string]()
	fmt.Println("capacity:", q.Cap(), "push style:", q.Style())
	q.PushBatch([]string{"a", "b", "c", "d", "e"})

	stolen := make(chan []string)
	go func() { stolen <- q.StealBatch(nil, 0.4) }()
	fmt.Println("stolen:", <-stolen)

	v, _ := q.Pop()
	fmt.Println("popped:", v, "left:", q.Len())
	// Output:
	// capacity: 1024 push style: per-item
	// stolen: [a b]
	// popped: e left: 2
}

// Taskflow's bounded queue with v4's bulk push refuses what does not fit,
// like try_bulk_push.
func ExampleNewBounded() {
	q := tfdeque.NewBounded[int](tfdeque.WithCapacity(4), tfdeque.WithPushStyle(tfdeque.Bulk))
	fmt.Println(q.PushBatch([]int{1, 2, 3, 4, 5, 6}))
	fmt.Println(q.Push(7))
	v, _ := q.Steal()
	fmt.Println(v, q.Len())
	// Output:
	// 4
	// false
	// 1 3
}
