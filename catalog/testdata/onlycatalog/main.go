// Command onlycatalog reaches the queues only through package catalog, as a
// program that picks its queue by name does. TestQueuesInlined builds it and
// disassembles it.
package main

import (
	"fmt"
	"os"

	"github.com/worksteal/wsq/catalog"
)

func main() {
	total := 0
	for _, name := range catalog.Names() {
		q, err := catalog.New[int](name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := range 100 {
			q.Push(i)
		}
		q.PushBatch([]int{1, 2, 3})
		total += len(q.StealBatch(nil, 0.5))
		if _, ok := q.Steal(); ok {
			total++
		}
		for {
			if _, ok := q.Pop(); !ok {
				break
			}
			total++
		}
	}
	fmt.Println(total)
}
