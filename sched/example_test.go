package sched_test

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing/fstest"
	"time"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/mutexq"
	"github.com/worksteal/wsq/sched"
)

// Example sums the numbers below one million by divide and conquer: a handler
// splits a large span into two halves and spawns them as one batch, and sums
// a small span itself. Idle workers get work from the master. (A Pool does
// this with Fork and Join; Run suits computations whose items never wait.)
func Example() {
	type span struct{ lo, hi int }
	var total atomic.Int64
	cfg := sched.Config[span]{Workers: 4, Mode: sched.Master} // the default queue
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

// Example_nQueens counts the solutions of the 10-queens puzzle by tree
// search. A board with queens on its first rows is one item; the handler
// spawns one child per queen that fits in the next row, one at a time
// (Spawn does not allocate), and solves the last rows of a board by serial
// recursion rather than as items of their own: see Granularity in the
// package documentation. Each worker counts in its own slot of a PerWorker.
func Example_nQueens() {
	const n, cutoff = 10, 7 // the last 7 rows of a board are solved serially
	type board struct {
		row                int
		cols, diag1, diag2 uint32 // columns and diagonals under attack in the next row
	}
	free := func(b board) uint32 { return ^(b.cols | b.diag1 | b.diag2) & (1<<n - 1) }
	place := func(b board, bit uint32) board {
		return board{b.row + 1, b.cols | bit, (b.diag1 | bit) << 1, (b.diag2 | bit) >> 1}
	}
	var serial func(b board) int
	serial = func(b board) int {
		if b.row == n {
			return 1
		}
		count := 0
		for f := free(b); f != 0; f &= f - 1 {
			count += serial(place(b, f&-f))
		}
		return count
	}

	cfg := sched.Config[board]{Mode: sched.Random, Workers: runtime.GOMAXPROCS(0)}
	counts := sched.NewPerWorker[int](cfg.Workers)
	stats, err := sched.Run(context.Background(), cfg, []board{{}}, func(_ context.Context, b board, w *sched.Worker[board]) error {
		if n-b.row <= cutoff {
			*counts.Get(w.ID()) += serial(b)
			return nil
		}
		for f := free(b); f != 0; f &= f - 1 {
			w.Spawn(place(b, f&-f))
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	total := 0
	for _, c := range counts.All() {
		total += *c
	}
	fmt.Println("solutions:", total, "items:", stats.Processed)
	// Output: solutions: 724 items: 447
}

// fibSerial is the plain recursion, for the examples' cutoffs.
func fibSerial(n int) int {
	if n < 2 {
		return n
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

// ExamplePool computes a Fibonacci number by fork-join: each call above a
// cutoff forks one recursive call as a task, makes the other itself, and
// joins. Join runs other tasks while it waits.
func ExamplePool() {
	pool, err := sched.NewPool() // GOMAXPROCS workers, the default queue
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var fib func(t *sched.Task, n int) int
	fib = func(t *sched.Task, n int) int {
		if n < 20 {
			return fibSerial(n) // serial below a cutoff: see Granularity
		}
		x := sched.Fork(t, fib, n-1) // a task that another worker may steal
		y := fib(t, n-2)             // this worker goes on with the other half
		return x.Join(t) + y         // runs other tasks until x is done
	}
	var r int
	if err := pool.Do(context.Background(), func(t *sched.Task) error {
		r = fib(t, 30)
		return nil
	}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fib(30) =", r)
	// Output: fib(30) = 832040
}

// ExampleJoin sums a slice by halves: each call above a cutoff runs the
// two halves with Join, which puts the second half where another worker
// may steal it and sums the first itself.
func ExampleJoin() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var sum func(t *sched.Task, xs []int64) int64
	sum = func(t *sched.Task, xs []int64) int64 {
		if len(xs) <= 1000 {
			var s int64
			for _, x := range xs {
				s += x
			}
			return s
		}
		mid := len(xs) / 2
		left, right := sched.Join(t, sum, xs[:mid], sum, xs[mid:])
		return left + right
	}
	xs := make([]int64, 1_000_000)
	for i := range xs {
		xs[i] = int64(i)
	}
	var total int64
	if err := pool.Do(context.Background(), func(t *sched.Task) error {
		total = sum(t, xs)
		return nil
	}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sum:", total)
	// Output: sum: 499999500000
}

// ExampleJoinFunc sorts a slice in place with a parallel quicksort: the
// halves return nothing, so JoinFunc takes them.
func ExampleJoinFunc() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var sort func(t *sched.Task, xs []int)
	sort = func(t *sched.Task, xs []int) {
		if len(xs) <= 1000 {
			slices.Sort(xs)
			return
		}
		// Partition around the middle item (Hoare).
		pivot := xs[len(xs)/2]
		i, j := 0, len(xs)-1
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		sched.JoinFunc(t, sort, xs[:j+1], sort, xs[i:])
	}
	xs := make([]int, 1_000_000)
	for i := range xs {
		xs[i] = int(int64(i) * 7919 % int64(len(xs))) // a permutation of 0..n-1
	}
	if err := pool.Do(context.Background(), func(t *sched.Task) error {
		sort(t, xs)
		return nil
	}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sorted:", slices.IsSorted(xs), xs[0], xs[len(xs)-1])
	// Output: sorted: true 0 999999
}

// ExampleGroup counts the words of the files in a directory tree, with a
// task per file and per directory, all in one Group: a directory's task adds
// a task to the group for each entry, passing its own Task (the parameter t
// of each function is that task's own), and Wait returns when the walk is
// done, with its first error. Each task reads from the file system inside
// Task.Block, so that its worker runs other tasks while a disk or a server
// answers (see Blocking in the package documentation); the tree is in
// memory here.
func ExampleGroup() {
	fsys := fstest.MapFS{
		"a.txt":          {Data: []byte("one two three")},
		"docs/b.txt":     {Data: []byte("four five")},
		"docs/old/c.txt": {Data: []byte("six")},
		"src/d.txt":      {Data: []byte("seven eight nine ten")},
	}
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	wordCount := func(root string) (int64, error) {
		var words atomic.Int64
		g := pool.NewGroup(context.Background())
		var walk func(t *sched.Task, dir string) error
		walk = func(t *sched.Task, dir string) error {
			var entries []fs.DirEntry
			var err error
			t.Block(func() { entries, err = fs.ReadDir(fsys, dir) })
			if err != nil {
				return err // cancels g.Context(); Wait returns it
			}
			for _, e := range entries {
				name := path.Join(dir, e.Name())
				if e.IsDir() {
					g.Go(t, func(t *sched.Task) error { return walk(t, name) })
					continue
				}
				g.Go(t, func(t *sched.Task) error {
					var data []byte
					var err error
					t.Block(func() { data, err = fs.ReadFile(fsys, name) })
					words.Add(int64(len(strings.Fields(string(data)))))
					return err
				})
			}
			return nil
		}
		g.Go(nil, func(t *sched.Task) error { return walk(t, root) }) // nil: not called by a task
		err := g.Wait(nil)
		return words.Load(), err
	}

	fmt.Println(wordCount("."))
	fmt.Println(wordCount("docs"))
	fmt.Println(wordCount("nowhere"))
	// Output:
	// 10 <nil>
	// 3 <nil>
	// 0 open nowhere: file does not exist
}

// ExamplePool_producers feeds a pool from a goroutine that keeps producing:
// each item becomes a task of one Group as it arrives (Go with a nil Task,
// from outside the pool), and Wait returns once every item has been
// handled.
func ExamplePool_producers() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	items := make(chan int)
	go func() { // the producer
		defer close(items)
		for i := 1; i <= 1000; i++ {
			items <- i
		}
	}()
	var sum atomic.Int64
	g := pool.NewGroup(context.Background())
	for v := range items {
		g.Go(nil, func(*sched.Task) error {
			sum.Add(int64(v * v))
			return nil
		})
	}
	if err := g.Wait(nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sum of squares:", sum.Load())
	// Output: sum of squares: 333833500
}

// ExamplePool_Stats watches a running pool, as a service would, from a
// goroutine that reads its Stats now and then. A worker publishes its
// figures when it looks for work, so a snapshot may be behind, never
// ahead: it never counts more tasks than have run.
func ExamplePool_Stats() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}

	var ran atomic.Int64
	stop, watched := make(chan struct{}), make(chan bool)
	go func() { // the watcher: a service would log or export the figures
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		behind := true
		for {
			select {
			case <-tick.C:
				st := pool.Stats()
				behind = behind && st.Processed <= ran.Load() // a task adds to ran before it returns
			case <-stop:
				watched <- behind
				return
			}
		}
	}()
	g := pool.NewGroup(context.Background())
	for range 1000 {
		g.Go(nil, func(*sched.Task) error {
			ran.Add(1)
			return nil
		})
	}
	if err := g.Wait(nil); err != nil {
		fmt.Println(err)
		return
	}
	close(stop)
	fmt.Println("never ahead of the tasks:", <-watched)
	fmt.Println("tasks run:", pool.Close().Processed)
	// Output:
	// never ahead of the tasks: true
	// tasks run: 1000
}

// ExamplePool_DoMeasured measures the work and span of fib(30), forking
// above a cutoff. Its figures are times and vary from run to run; the
// count of forks does not. fmt.Print(prof) prints them all as a table,
// with the speedups they bound for 1 to 128 workers.
func ExamplePool_DoMeasured() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var fib func(t *sched.Task, n int) int
	fib = func(t *sched.Task, n int) int {
		if n < 20 {
			return fibSerial(n)
		}
		x, y := sched.Join(t, fib, n-2, fib, n-1)
		return x + y
	}
	var r int
	prof, err := pool.DoMeasured(context.Background(), sched.Measure{}, func(t *sched.Task) error {
		r = fib(t, 30)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fib(30):", r)
	fmt.Println("forks:", prof.Forks)
	fmt.Println("parallel:", prof.Parallelism() > 1, prof.BurdenedParallelism() <= prof.Parallelism())
	lo, hi := prof.Bounds(16)
	fmt.Println("bounds on 16 workers:", lo <= hi, hi <= 16)
	// Output:
	// fib(30): 832040
	// forks: 232
	// parallel: true true
	// bounds on 16 workers: true true
}

// ExamplePanicError recovers a panic of a task: it reaches the goroutine
// that waits for the computation, with the task's panic value and stack.
func ExamplePanicError() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	defer func() {
		pe := recover().(*sched.PanicError)
		fmt.Println("recovered:", pe.Value)
		fmt.Println("the stack shows the task:", strings.Contains(string(pe.Stack), "ExamplePanicError.func"))
	}()
	_ = pool.Do(context.Background(), func(t *sched.Task) error {
		quotient := sched.Fork(t, func(t *sched.Task, d int) int { return 100 / d }, 0)
		fmt.Println(quotient.Join(t)) // panics: the forked task did
		return nil
	})
	// Output:
	// recovered: runtime error: integer divide by zero
	// the stack shows the task: true
}
