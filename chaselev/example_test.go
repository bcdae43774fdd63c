package chaselev_test

import (
	"fmt"

	"github.com/worksteal/wsq/chaselev"
)

// The owner pushes a batch and pops from the new end while a thief takes
// half of the deque from the old end.
func Example() {
	q := chaselev.NewUnbounded[string](4)
	q.PushBatch([]string{"a", "b", "c", "d", "e"})
	fmt.Println("capacity:", q.Cap())

	stolen := make(chan []string)
	go func() { stolen <- q.StealBatch(nil, 0.5) }()
	fmt.Println("stolen:", <-stolen)

	for {
		v, ok := q.Pop()
		if !ok {
			break
		}
		fmt.Println("popped:", v)
	}
	// Output:
	// capacity: 8
	// stolen: [a b c]
	// popped: e
	// popped: d
}

// A bounded deque refuses what does not fit, and a batch push takes the
// prefix that fits.
func ExampleNewBounded() {
	q := chaselev.NewBounded[int](4)
	fmt.Println(q.PushBatch([]int{1, 2, 3}))
	fmt.Println(q.PushBatch([]int{4, 5}))
	fmt.Println(q.Push(6))
	v, _ := q.Steal()
	fmt.Println(v, q.Push(6), q.Len())
	// Output:
	// 3
	// 1
	// false
	// 1 true 4
}
