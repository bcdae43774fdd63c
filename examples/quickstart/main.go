package main

import (
	"flag"
	"fmt"
	"os"
	"sync"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
)

// maxItems bounds -n: the items are held in memory (8 bytes each on 64-bit
// platforms). The checksum may wrap around on 32-bit ones, identically on
// both sides of the comparison.
const maxItems = 1 << 26

func main() {
	name := flag.String("queue", "lf", "queue implementation: one of "+fmt.Sprint(catalog.Names()))
	n := flag.Int("n", 100_000, "number of items to process")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "quickstart: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	if *n < 0 || *n > maxItems {
		fmt.Fprintf(os.Stderr, "quickstart: -n %d is outside [0, %d]\n", *n, maxItems)
		os.Exit(2)
	}
	q, err := catalog.New[int](*name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(2)
	}
	owned, stolen, sum := run(q, *n)
	want := *n * (*n + 1) / 2
	fmt.Printf("queue %s: owner processed %d items, thief stole %d\n", *name, owned, stolen)
	if owned+stolen != *n || sum != want {
		fmt.Printf("FAILED: %d items with sum %d, want %d with sum %d\n", owned+stolen, sum, *n, want)
		os.Exit(1)
	}
	fmt.Printf("verified: all %d items processed exactly once (sum %d)\n", *n, sum)
}

// run is the whole pattern: the owner pushes and pops at one end, a thief
// steals from the other, and no item is lost or processed twice.
func run(q wsq.Queue[int], n int) (owned, stolen, sum int) {
	items := make([]int, n)
	for i := range items {
		items[i] = i + 1
	}
	// The owner publishes all n items at once; a bounded queue may take only
	// a prefix, and the owner pushes the rest when it has room again.
	rest := items[q.PushBatch(items):]

	var wg sync.WaitGroup
	var thiefSum int
	wg.Add(1)
	go func() { // the thief: take half of what is left, oldest first
		defer wg.Done()
		var buf []int
		for {
			buf = q.StealBatch(buf[:0], 0.5)
			if len(buf) == 0 {
				return // nothing left to take: the owner pops the rest
			}
			for _, v := range buf {
				thiefSum += process(v)
			}
			stolen += len(buf)
		}
	}()
	for { // the owner: newest first
		v, ok := q.Pop()
		if !ok {
			if len(rest) == 0 {
				break
			}
			rest = rest[q.PushBatch(rest):]
			continue
		}
		sum += process(v)
		owned++
	}
	wg.Wait()
	return owned, stolen, sum + thiefSum
}

// process stands for the real work an item needs (about a microsecond) and
// returns the item.
func process(v int) int {
	x := uint64(v)
	for range 200 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	if x == 0 { // never true for v > 0: keeps the loop from being optimized away
		return 0
	}
	return v
}
