package blockq_test

import (
	"fmt"
	"sync"

	"github.com/worksteal/wsq/blockq"
)

// An owner pushes a batch, two thieves steal at the same time, each taking
// a share of what is left in one operation, and the owner pops the rest,
// newest first.
func Example() {
	q := blockq.New[int]()
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	q.PushBatch(items)

	var wg sync.WaitGroup
	stolen := make([][]int, 2)
	for t := range stolen {
		wg.Add(1)
		go func() { // a thief
			defer wg.Done()
			stolen[t] = q.StealBatch(nil, 0.25)
		}()
	}
	wg.Wait()

	popped := 0
	for {
		if _, ok := q.Pop(); !ok {
			break
		}
		popped++
	}
	fmt.Println("stolen:", len(stolen[0])+len(stolen[1]), "popped:", popped)
	// Output:
	// stolen: 44 popped: 56
}

// A batch built as a List is pushed in constant time, and the oldest part
// of a queue moves to another queue without copying: StealParcel hands over
// the stolen slots and PushParcel links them in.
func ExampleQueue_StealParcel() {
	busy, idle := blockq.New[string](), blockq.New[string]()
	var l blockq.List[string]
	for _, s := range []string{"a", "b", "c", "d"} {
		l.Append(s)
	}
	busy.PushList(&l)

	parcel := busy.StealParcel(0.5) // the oldest half: a, b
	idle.PushParcel(parcel)

	for _, q := range []*blockq.Queue[string]{busy, idle} {
		fmt.Println(q.StealBatch(nil, 1))
	}
	// Output:
	// [c d]
	// [a b]
}
