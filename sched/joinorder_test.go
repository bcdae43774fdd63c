package sched_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/internal/check/testenv"
	"github.com/worksteal/wsq/sched"
)

// joinOrders are the orders in which a task joins n futures, or waits for
// n groups, that it made in the order 0..n-1.
var joinOrders = []struct {
	name  string
	order func(n int) []int
}{
	{"newest", func(n int) []int { s := seq(n); slices.Reverse(s); return s }},
	{"oldest", seq},
	{"middle", func(n int) []int { // from the middle outwards
		s := make([]int, 0, n)
		for lo, hi := n/2-1, n/2; lo >= 0 || hi < n; lo, hi = lo-1, hi+1 {
			if hi < n {
				s = append(s, hi)
			}
			if lo >= 0 {
				s = append(s, lo)
			}
		}
		return s
	}},
	{"random", func(n int) []int {
		s := seq(n)
		rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s
	}},
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// joinInOrder forks n tasks in one task and joins them in the given order,
// checking each result.
func joinInOrder(t *sched.Task, n int, order []int) error {
	fs := make([]sched.Future[int], n)
	for i := range fs {
		fs[i] = sched.Fork(t, double, i)
	}
	for _, i := range order {
		if got := fs[i].Join(t); got != 2*i {
			return fmt.Errorf("future %d joined %d, want %d", i, got, 2*i)
		}
	}
	return nil
}

// waitInOrder makes n groups of one task each in one task and waits for
// them in the given order, checking that each task ran once.
func waitInOrder(t *sched.Task, n int, order []int) error {
	gs := make([]*sched.Group, n)
	ran := make([]int, n)
	for i := range gs {
		gs[i] = t.NewGroup()
		gs[i].Go(t, func(*sched.Task) error { ran[i]++; return nil })
	}
	for _, i := range order {
		if err := gs[i].Wait(t); err != nil {
			return err
		}
		if ran[i] != 1 {
			return fmt.Errorf("group %d: its task ran %d times when Wait returned", i, ran[i])
		}
	}
	return nil
}

// TestJoinOrder joins a task's futures, and waits for its groups, in every
// order. Each Join and Wait costs the same whatever the order: with 200,000
// forks or groups joined oldest first (the full size, testenv.Full), a Join
// or Wait that looked for its own among the task's unjoined ones (as sched
// did until issue 27) takes minutes, and this test times out.
func TestJoinOrder(t *testing.T) {
	for _, kind := range []struct {
		name string
		run  func(t *sched.Task, n int, order []int) error
	}{{"future", joinInOrder}, {"group", waitInOrder}} {
		for _, o := range joinOrders {
			n := 2000
			if o.name == "oldest" {
				// The quick size checks every result and count; only the
				// full size makes a Join that scans its task's unjoined
				// ones slow enough to time the test out.
				n = testenv.Size(20_000, 20_000, 200_000)
			}
			t.Run("kind="+kind.name+"/order="+o.name, func(t *testing.T) {
				p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
				require.NoError(t, err)
				order := o.order(n)
				require.NoError(t, p.Do(ctx, func(t *sched.Task) error { return kind.run(t, n, order) }))
				assert.Equal(t, int64(n+1), p.Close().Processed, "tasks run")
			})
		}
	}
}

// BenchmarkJoinOrder forks 10^5 tasks in one task and joins them newest
// first and oldest first; BenchmarkGroupWaitOrder does the same with 10^5
// groups of one task. One worker, so that nobody steals: the two orders
// do the same work, and a Join or Wait costs the same in both.
func BenchmarkJoinOrder(b *testing.B) {
	benchmarkOrder(b, "join", joinInOrder)
}

func BenchmarkGroupWaitOrder(b *testing.B) {
	benchmarkOrder(b, "wait", waitInOrder)
}

func benchmarkOrder(b *testing.B, what string, run func(t *sched.Task, n int, order []int) error) {
	const n = 100_000
	for _, o := range joinOrders[:2] {
		b.Run("order="+o.name, func(b *testing.B) {
			p, err := sched.NewPool(sched.PoolConfig{Workers: 1})
			require.NoError(b, err)
			defer p.Close()
			order := o.order(n)
			for b.Loop() {
				require.NoError(b, p.Do(ctx, func(t *sched.Task) error { return run(t, n, order) }))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/float64(b.N), "ns/"+what)
		})
	}
}
