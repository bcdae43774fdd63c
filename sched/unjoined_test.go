package sched

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkUnjoined checks a task's record of unjoined forks and groups
// against the ones the test expects: it counts exactly the forks; those
// published are on its list, newest first, linked back, and the others lie
// among its goroutine's private forks; the group list holds exactly the
// groups, newest first, and links back.
func checkUnjoined(t *Task, forks map[*record]bool, groups map[*Group]bool) error {
	if t.forks.unjoined != len(forks) {
		return fmt.Errorf("%d unjoined forks counted, want %d", t.forks.unjoined, len(forks))
	}
	n := 0
	var newer *record
	for b := t.forks.newest; b != nil; newer, b = b, b.prev {
		if !forks[b] || !b.tracked || b.next != newer {
			return fmt.Errorf("fork %d from the newest: expected %v, counted %v, next linked back %v", n, forks[b], b.tracked, b.next == newer)
		}
		n++
	}
	for _, b := range t.runner.forks.slots[:t.runner.forks.n] {
		if forks[b] {
			if !b.tracked || b.parent != t {
				return fmt.Errorf("a private fork is not counted as t's")
			}
			n++
		}
	}
	if n != len(forks) {
		return fmt.Errorf("%d unjoined forks found, published or private, want %d", n, len(forks))
	}
	n = 0
	var newerG *Group
	newest, _ := t.groups.(*Group)
	for g := newest; g != nil; newerG, g = g, g.older {
		if !groups[g] || g.newer != newerG || g.parent != t {
			return fmt.Errorf("group %d from the newest: expected %v, linked back %v", n, groups[g], g.newer == newerG)
		}
		n++
	}
	if n != len(groups) {
		return fmt.Errorf("%d groups linked, want %d", n, len(groups))
	}
	return nil
}

// TestUnjoinedLists joins a task's forks and waits for its groups in a
// random order, and checks the task's lists after each: what was joined
// is off the list, with its links cleared, and the rest is linked.
func TestUnjoinedLists(t *testing.T) {
	for _, private := range []bool{false, true} {
		t.Run(fmt.Sprintf("private=%v", private), func(t *testing.T) { testUnjoinedLists(t, private) })
	}
}

// testUnjoinedLists is TestUnjoinedLists with forks published at once (the
// worker's items count as long) or kept private.
func testUnjoinedLists(t *testing.T, private bool) {
	const n = 64
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	id := func(_ *Task, x int) int { return x }
	rng := rand.New(rand.NewPCG(3, 4))
	err = p.Do(context.Background(), func(t *Task) error {
		if private {
			t.runner.w.setLong(false)
			t.runner.w.asked.Store(0)
			t.runner.forks.published = 1 // as if the queue showed a fork: none is published
		}
		fs := make([]Future[int], n)
		forks := map[*record]bool{}
		for i := range fs {
			fs[i] = Fork(t, id, i)
			forks[&fs[i].rec.record] = true
		}
		gs := make([]*Group, n)
		groups := map[*Group]bool{}
		for i := range gs {
			gs[i] = t.NewGroup()
			groups[gs[i]] = true
		}
		if err := checkUnjoined(t, forks, groups); err != nil {
			return err
		}
		for _, i := range rng.Perm(n) {
			b := &fs[i].rec.record
			if got := fs[i].Join(t); got != i {
				return fmt.Errorf("future %d joined %d", i, got)
			}
			delete(forks, b)
			if b.prev != nil || b.next != nil || b.tracked {
				return fmt.Errorf("future %d: its record still links or counts", i)
			}
			if err := gs[i].Wait(t); err != nil {
				return err
			}
			delete(groups, gs[i])
			if gs[i].older != nil || gs[i].newer != nil || gs[i] == t.groups {
				return fmt.Errorf("group %d still links", i)
			}
			if err := checkUnjoined(t, forks, groups); err != nil {
				return fmt.Errorf("after joining %d: %w", i, err)
			}
		}
		return nil
	})
	require.NoError(t, err)
}

// TestJoinAfterReturn joins a Future after the task that forked it
// returned (which waited for it), in a later task that runs on the same
// frame: the Join leaves that task's own forks and groups alone.
func TestJoinAfterReturn(t *testing.T) {
	p, err := NewPool(Config[Job]{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	id := func(_ *Task, x int) int { return x }
	var kept Future[int]
	var frame *Task
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		kept, frame = Fork(t, id, 7), t
		return nil
	}))
	require.NoError(t, p.Do(context.Background(), func(t *Task) error {
		if t != frame {
			return fmt.Errorf("the second task runs on another frame") // one worker: its first
		}
		f := Fork(t, id, 1)
		g := t.NewGroup()
		if got := kept.Join(t); got != 7 {
			return fmt.Errorf("kept Future joined %d", got)
		}
		if err := checkUnjoined(t, map[*record]bool{&f.rec.record: true}, map[*Group]bool{g: true}); err != nil {
			return err
		}
		if got := f.Join(t); got != 1 {
			return fmt.Errorf("future joined %d", got)
		}
		return g.Wait(t)
	}))
}
