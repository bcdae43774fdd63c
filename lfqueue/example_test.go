package lfqueue_test

import (
	"fmt"
	"sync"

	"github.com/worksteal/wsq/lfqueue"
)

// An owner pushes a batch, a thief steals the older 60 % of the queue in one
// operation, and the owner pops what is left, newest first.
func Example() {
	q := lfqueue.New[string]()
	q.PushBatch([]string{"a", "b", "c", "d", "e"})

	var stolen []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the thief
		defer wg.Done()
		stolen = q.StealBatch(nil, 0.6)
	}()
	wg.Wait()

	fmt.Println("stolen:", stolen)
	for {
		v, ok := q.Pop()
		if !ok {
			break
		}
		fmt.Println("popped:", v)
	}
	// Output:
	// stolen: [a b c]
	// popped: e
	// popped: d
}

// A batch built as a List is pushed in constant time, and a stolen part of
// the queue moves to another queue as a linked sub-list, without copying.
func ExampleQueue_StealParcel() {
	busy := lfqueue.New[int](lfqueue.WithSkipCount())
	var batch lfqueue.List[int]
	batch.Grow(1000) // one allocation for all the nodes
	for i := 0; i < 1000; i++ {
		batch.Append(i)
	}
	busy.PushList(&batch) // O(1), whatever the batch length

	// A master takes half of the busy queue and hands it to an idle worker,
	// which pushes it into its own queue as that queue's owner.
	parcel := busy.StealParcel(0.5)
	idle := lfqueue.New[int]()
	idle.PushParcel(parcel) // O(1) again

	oldest, _ := idle.Steal()
	fmt.Println(busy.Len(), idle.Len(), oldest)
	// Output: 500 499 0
}
