package par_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/worksteal/wsq/par"
	"github.com/worksteal/wsq/sched"
)

// ExampleFor_main is a parallel loop in a program's main, in one
// statement: a nil Task runs it on the default pool, which starts at its
// first use with GOMAXPROCS workers.
func ExampleFor_main() {
	xs := []float64{1, 4, 9, 16, 25}
	ys := make([]float64, len(xs))
	par.For(nil, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
	fmt.Println(ys)
	// Output: [1 2 3 4 5]
}

// ExampleForRangeErr validates blocks of records from main, and stops at
// the first bad block or when ctx is cancelled.
func ExampleForRangeErr() {
	records := make([]int, 10_000)
	for i := range records {
		records[i] = i
	}
	records[7_777] = -1
	err := sched.Do(context.Background(), func(t *sched.Task) error {
		return par.ForRangeErr(t, len(records), func(t *sched.Task, lo, hi int) error {
			for i := lo; i < hi; i++ {
				if records[i] < 0 {
					return fmt.Errorf("record %d is negative", i)
				}
			}
			return nil
		})
	})
	fmt.Println(err)
	// Output: record 7777 is negative
}

// ExampleMapErr parses numbers from main; the first bad one stops the
// map.
func ExampleMapErr() {
	parse := func(t *sched.Task, s string) (int, error) { return strconv.Atoi(s) }
	n, err := par.MapErr(nil, []string{"1", "22", "333"}, parse)
	fmt.Println(n, err)
	_, err = par.MapErr(nil, []string{"1", "x", "3"}, parse)
	fmt.Println(err)
	// Output:
	// [1 22 333] <nil>
	// strconv.Atoi: parsing "x": invalid syntax
}

// ExampleMap_main maps a slice from main: with a nil Task, Map runs on
// the default pool and returns the new slice when it is done.
func ExampleMap_main() {
	words := []string{"fork", "join", "steal", "park"}
	lengths := par.Map(nil, words, func(t *sched.Task, w string) int { return len(w) })
	fmt.Println(lengths)
	// Output: [4 4 5 4]
}

// ExampleReduce_main sums squares from main, on the default pool.
func ExampleReduce_main() {
	sum := par.Reduce(nil, 100, 0,
		func(t *sched.Task, i int) int { return (i + 1) * (i + 1) },
		func(a, b int) int { return a + b })
	fmt.Println(sum)
	// Output: 338350
}

// ExampleSort_main sorts from main, on the default pool; SortFunc and
// SortStableFunc take a nil Task alike.
func ExampleSort_main() {
	xs := []int{5, 2, 4, 1, 3}
	par.Sort(nil, xs)
	names := []string{"pond", "ants", "conc", "wsq"}
	par.SortFunc(nil, names, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	fmt.Println(xs, names[0])
	// Output: [1 2 3 4 5] wsq
}

// ExampleJoin_main runs two calls in parallel from main, on the default
// pool, and returns both results.
func ExampleJoin_main() {
	square := func(t *sched.Task, n int) int { return n * n }
	upper := func(t *sched.Task, s string) string { return strings.ToUpper(s) }
	n, s := sched.Join(nil, square, 12, upper, "gopher")
	fmt.Println(n, s)
	// Output: 144 GOPHER
}

// ExampleJoinFunc_main sorts two slices in parallel from main: Sort,
// instantiated, is a function of a Task and a slice.
func ExampleJoinFunc_main() {
	xs, ys := []int{3, 1, 2}, []int{9, 7, 8}
	sched.JoinFunc(nil, par.Sort[[]int], xs, par.Sort[[]int], ys)
	fmt.Println(xs, ys)
	// Output: [1 2 3] [7 8 9]
}

// ExampleFor computes square roots in parallel. The loop splits its range
// when other workers look for work: there is no grain to choose.
func ExampleFor() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	xs := make([]float64, 1_000_000)
	for i := range xs {
		xs[i] = float64(i)
	}
	ys := make([]float64, len(xs))
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.For(t, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ys[4], ys[999_999])
	// Output: 2 999.999499999875
}

// ExampleForRange scales a vector: the body loops over a chunk itself, so
// a cheap iteration costs no call.
func ExampleForRange() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	v := make([]int, 10_000_000)
	for i := range v {
		v[i] = i
	}
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.ForRange(t, len(v), func(t *sched.Task, lo, hi int) {
			for i := lo; i < hi; i++ {
				v[i] *= 3
			}
		})
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v[1], v[9_999_999])
	// Output: 3 29999997
}

// ExampleForErr looks for a bad record, and stops at the first one found,
// as errgroup does. The loop runs through Pool.Do, whose context would
// stop it too.
func ExampleForErr() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	records := make([]string, 100_000)
	for i := range records {
		records[i] = fmt.Sprintf("id=%d", i)
	}
	records[71_234] = "garbage"
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		return par.ForErr(t, len(records), func(t *sched.Task, i int) error {
			if !strings.HasPrefix(records[i], "id=") {
				return fmt.Errorf("record %d: %q", i, records[i])
			}
			return nil
		})
	})
	fmt.Println(err)
	// Output: record 71234: "garbage"
}

// ExampleMap measures words in parallel.
func ExampleMap() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	words := strings.Fields("the quick brown fox jumps over the lazy dog")
	var lengths []int
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		lengths = par.Map(t, words, func(t *sched.Task, w string) int { return len(w) })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lengths)
	// Output: [3 5 5 3 5 4 3 4 3]
}

// ExampleReduce sums the series of 1/i², whose floating-point sum depends
// on the order of the additions. Reduce fixes the order by the indices:
// the result has the same bits on every run, on any number of workers.
func ExampleReduce() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var sum float64
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		sum = par.Reduce(t, 10_000_000, 0.0,
			func(t *sched.Task, i int) float64 { k := float64(i + 1); return 1 / (k * k) },
			func(a, b float64) float64 { return a + b })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.12f (π²/6 = %.12f)\n", sum, math.Pi*math.Pi/6)
	// Output: 1.644933966848 (π²/6 = 1.644934066848)
}

// ExampleReduceRange concatenates strings: a combination that is not
// commutative, which the order of the indices fixes.
func ExampleReduceRange() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	var s string
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		s = par.ReduceRange(t, 26, "", func(t *sched.Task, lo, hi int) string {
			var b strings.Builder
			for i := lo; i < hi; i++ {
				b.WriteByte(byte('a' + i))
			}
			return b.String()
		}, func(x, y string) string { return x + y })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output: abcdefghijklmnopqrstuvwxyz
}

// ExampleSort sorts a million integers in parallel.
func ExampleSort() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	xs := make([]int, 1_000_000)
	for i := range xs {
		xs[i] = (i * 37) % len(xs) // a permutation: 37 and 10⁶ are coprime
	}
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.Sort(t, xs)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(xs[:5], xs[len(xs)-1])
	// Output: [0 1 2 3 4] 999999
}

// ExampleSortFunc sorts people by age, oldest first, with a comparison
// function as slices.SortFunc takes.
func ExampleSortFunc() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	type person struct {
		name string
		age  int
	}
	people := []person{{"Gopher", 13}, {"Alice", 55}, {"Bob", 24}, {"Ada", 36}}
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.SortFunc(t, people, func(a, b person) int { return cmp.Compare(b.age, a.age) })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(people)
	// Output: [{Alice 55} {Ada 36} {Bob 24} {Gopher 13}]
}

// ExampleSortStableFunc sorts people by age, keeping the order of names
// among people of the same age.
func ExampleSortStableFunc() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	type person struct {
		name string
		age  int
	}
	people := []person{{"Alex", 24}, {"Bob", 24}, {"Gopher", 13}, {"Ada", 36}, {"Eve", 13}}
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.SortStableFunc(t, people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(people)
	// Output: [{Gopher 13} {Eve 13} {Alex 24} {Bob 24} {Ada 36}]
}

// ExampleLoop gives a loop a grain: each call of the body gets at least
// 64 rows of the image, but the last of a part, and no split leaves
// fewer. A nested loop takes the Task that its body gets.
func ExampleLoop() {
	pool, err := sched.NewPool()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	const rows, cols = 1024, 512
	img := make([]uint8, rows*cols)
	err = pool.Do(context.Background(), func(t *sched.Task) error {
		par.Loop{Grain: 64}.ForRange(t, rows, func(t *sched.Task, lo, hi int) {
			for r := lo; r < hi; r++ {
				par.For(t, cols, func(t *sched.Task, c int) { img[r*cols+c] = uint8(r ^ c) })
			}
		})
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img[3*cols+5], img[1023*cols+511])
	// Output: 6 0
}
