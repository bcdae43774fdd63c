package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
)

// synopsis is the one-line description -h prints first.
const synopsis = "quickstart shares a work-stealing queue between an owner and a thief and checks that they process every item exactly once."

// maxItems bounds -n so that a run takes well under a second (about a
// microsecond of work per item, on two goroutines) and needs no progress
// line. The checksum may wrap around on 32-bit platforms, identically on both
// sides of the comparison.
const maxItems = 1_000_000

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.New("quickstart", synopsis, stdout, stderr)
	var name string
	var n int
	fs.QueueVar(&name)
	fs.IntRangeVar(&n, "n", 100_000, 0, maxItems, "number of items to process")
	if err := fs.Parse(args); err != nil {
		return fs.Exit(err)
	}
	q, err := catalog.New[int](name)
	if err != nil { // cannot happen: -queue checked the name
		return fs.Exit(err)
	}
	owned, stolen, sum := share(q, n)
	want := n * (n + 1) / 2
	fmt.Fprintf(stdout, "queue %s: the owner processed %s, the thief stole %s\n", name, cli.Count(owned, "item"), cli.Group(stolen))
	if owned+stolen != n || sum != want {
		fmt.Fprintf(stdout, "FAILED: %s with sum %s, want %s with sum %s\n", cli.Count(owned+stolen, "item"), cli.Group(sum), cli.Group(n), cli.Group(want))
		return 1
	}
	fmt.Fprintf(stdout, "verified: all %s processed exactly once (sum %s)\n", cli.Count(n, "item"), cli.Group(sum))
	return 0
}

// share is the whole pattern: the owner pushes and pops at one end, a thief
// steals from the other, and no item is lost or processed twice.
func share(q wsq.Queue[int], n int) (owned, stolen, sum int) {
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
