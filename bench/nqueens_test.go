package bench

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/sched"
)

// BenchmarkNQueens counts the solutions of the n-queens puzzle (n = 12,
// 14,200 solutions) by tree search, the natural program for sched.Run:
//
//   - serial: plain recursion;
//   - goroutines: a goroutine per child above the cutoff, joined with a
//     WaitGroup: the same forks as pool-Q, so that the two compare like
//     with like;
//   - run-Q: sched.Run on queue Q with the handler of the package's
//     Example (nQueens): one child per queen that fits in the next row,
//     spawned one at a time, and serial recursion for the last
//     queensCutoff rows;
//   - run-Q-nocutoff: the same handler without the cutoff, every node a
//     task, to show what the cutoff buys;
//   - pool-Q: a sched.Pool, forking a task per child above the cutoff.
//
// One op is one count. The pool-Q rows also report the workload's
// parallelism and burdened-parallelism, from one measured run of
// BenchmarkSpan's workload before the timed loop (spanProfile). Run it
// with -cpu 2 (the scheduler uses GOMAXPROCS workers):
//
//	go test -run '^$' -bench 'NQueens' -cpu 2 -count 5 ./bench
func BenchmarkNQueens(b *testing.B) {
	const n = 12
	want := queensSerial(n, board{})
	for _, impl := range nQueensImpls() {
		b.Run("impl="+impl.name, func(b *testing.B) {
			var prof *sched.Profile
			if strings.HasPrefix(impl.name, "pool-") {
				p := spanProfile("nqueens")
				prof = &p
			}
			count, stop := impl.prepare()
			defer stop()
			b.ReportAllocs()
			for b.Loop() {
				if got := count(n); got != want {
					b.Fatalf("%d solutions, want %d", got, want)
				}
			}
			if prof != nil {
				prof.Report(b)
			}
		})
	}
}

// queensCutoff is the number of last rows that a task solves by serial
// recursion: with n = 12, the boards with queens on at most 3 rows are items
// (879 of them), and the 756 boards with 3 queens hold about 12 µs of serial
// work each.
const queensCutoff = 9

// board is a partial solution: queens on rows 0 to row-1, and the columns
// and diagonals they attack in the next row, as bit sets.
type board struct {
	row                int
	cols, diag1, diag2 uint32
}

// free returns the columns of the next row that no queen attacks.
func (b board) free(n int) uint32 { return ^(b.cols | b.diag1 | b.diag2) & (1<<n - 1) }

// place returns the board with a queen added in the next row at column bit.
func (b board) place(bit uint32) board {
	return board{b.row + 1, b.cols | bit, (b.diag1 | bit) << 1, (b.diag2 | bit) >> 1}
}

// queensSerial counts the solutions that complete b.
func queensSerial(n int, b board) int {
	if b.row == n {
		return 1
	}
	count := 0
	for free := b.free(n); free != 0; free &= free - 1 {
		count += queensSerial(n, b.place(free&-free))
	}
	return count
}

type nQueensImpl struct {
	name    string
	prepare func() (count func(n int) int, stop func())
}

func nQueensImpls() []nQueensImpl {
	impls := []nQueensImpl{
		{"serial", func() (func(int) int, func()) {
			return func(n int) int { return queensSerial(n, board{}) }, func() {}
		}},
		{"goroutines", func() (func(int) int, func()) {
			return queensGoroutines, func() {}
		}},
	}
	for _, q := range forkJoinQueues {
		if _, ok := catalog.Lookup(q); !ok {
			continue
		}
		impls = append(impls,
			nQueensImpl{"run-" + q, func() (func(int) int, func()) {
				return func(n int) int { return queensRun(q, n, queensCutoff) }, func() {}
			}},
			nQueensImpl{"run-" + q + "-nocutoff", func() (func(int) int, func()) {
				return func(n int) int { return queensRun(q, n, 0) }, func() {}
			}},
			nQueensImpl{"pool-" + q, func() (func(int) int, func()) {
				newQueue, err := catalog.Factory[sched.Job](q)
				if err != nil {
					panic(err) // the name comes from the catalog
				}
				return queensPool(sched.PoolConfig{NewQueue: newQueue, Mode: benchMode})
			}})
	}
	return impls
}

// queensGoroutines counts with a goroutine per child above the cutoff, as
// queensPool forks a task per child.
func queensGoroutines(n int) int { return queensGo(n, board{}) }

func queensGo(n int, b board) int {
	if n-b.row <= queensCutoff {
		return queensSerial(n, b)
	}
	var counts [32]int
	var wg sync.WaitGroup
	k := 0
	for free := b.free(n); free != 0; free &= free - 1 {
		wg.Add(1)
		go func(i int, c board) {
			defer wg.Done()
			counts[i] = queensGo(n, c)
		}(k, b.place(free&-free))
		k++
	}
	wg.Wait()
	total := 0
	for _, c := range counts[:k] {
		total += c
	}
	return total
}

// queensRun is the handler of the package's Example on queue q: boards
// with at most cutoff rows left are solved serially, others spawn a child
// per free column.
func queensRun(q string, n, cutoff int) int {
	newQueue, err := catalog.Factory[board](q)
	if err != nil {
		panic(err)
	}
	cfg := sched.Config[board]{NewQueue: newQueue, Mode: benchMode, Workers: runtime.GOMAXPROCS(0)}
	counts := sched.NewPerWorker[int](cfg.Workers)
	_, err = sched.Run(context.Background(), cfg, []board{{}}, func(_ context.Context, b board, w *sched.Worker[board]) error {
		if n-b.row <= cutoff {
			*counts.Get(w.ID()) += queensSerial(n, b)
			return nil
		}
		for free := b.free(n); free != 0; free &= free - 1 {
			w.Spawn(b.place(free & -free))
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	total := 0
	for _, c := range counts.All() {
		total += *c
	}
	return total
}

// queensPool makes a pool as cfg says and returns the count on it: a task
// per child above the cutoff, joined in reverse order.
func queensPool(cfg sched.PoolConfig) (func(int) int, func()) {
	pool, err := sched.NewPool(cfg)
	if err != nil {
		panic(err)
	}
	type arg struct {
		n int
		b board
	}
	var count func(t *sched.Task, a arg) int
	count = func(t *sched.Task, a arg) int {
		if a.n-a.b.row <= queensCutoff {
			return queensSerial(a.n, a.b)
		}
		var futures [32]sched.Future[int]
		k := 0
		for free := a.b.free(a.n); free != 0; free &= free - 1 {
			futures[k] = sched.Fork(t, count, arg{a.n, a.b.place(free & -free)})
			k++
		}
		total := 0
		for i := k - 1; i >= 0; i-- {
			total += futures[i].Join(t)
		}
		return total
	}
	run := func(n int) int {
		var total int
		if err := pool.Do(context.Background(), func(t *sched.Task) error {
			total = count(t, arg{n, board{}})
			return nil
		}); err != nil {
			panic(fmt.Sprint(err))
		}
		return total
	}
	return run, func() { pool.Close() }
}
