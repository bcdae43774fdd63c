//go:build wsqcheck

package sched

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
	"github.com/worksteal/wsq/internal/check/interleave"
)

// The interleaving checks of the private forks (see runner): an owner
// forks while a thief steals from the worker's queue and asks when it
// finds nothing, under the deterministic scheduler of internal/check/interleave.
// The queue is a blockq of two-slot blocks, whose atomic operations are
// the scheduling points; the owner yields between its forks. Every
// schedule, up to a bound on preemptions, must keep:
//
//   - exactly once: each fork runs once, by the thief or by the owner's
//     drain after the threads finish;
//   - the order: the owner's drain (next: private forks first, then the
//     queue) meets its forks newest first, which holds only if every
//     private fork is newer than every item of the queue.
//
// Run them with
//
//	go test -tags wsqcheck -run InterleavePrivateForks ./sched/

// nopHost is a host that runs nothing: the scenarios call the runner and
// the queue themselves.
type nopHost struct{}

func (nopHost) handle(context.Context, Job, *Worker[Job]) error { return nil }
func (nopHost) serve(*Worker[Job])                              {}

// privateScenario is one exploration: the owner's forks, how it starts,
// and the thief's attempts.
type privateScenario struct {
	name      string
	forks     int
	published bool // the worker's queue shows a fork already: no fork is published to show one
	long      bool // the worker's items are long: every fork is published
	steals    int  // the thief's attempts: a steal, or an ask when it finds nothing
}

var privateScenarios = []privateScenario{
	{name: "ask-answered", forks: 3, published: true, steals: 2},
	{name: "first-fork-public", forks: 3, steals: 2},
	{name: "long-items", forks: 3, published: true, long: true, steals: 2},
	{name: "two-asks", forks: 4, published: true, steals: 3},
}

// privateProgram builds the scenario's instance.
func privateProgram(sc privateScenario) interleave.Program {
	return func() interleave.Instance {
		s, err := newScheduler[Job](Config[Job]{
			Workers:  2,
			NewQueue: func() wsq.Queue[Job] { return blockq.New[Job](blockq.WithBlockSize(2)) },
		}, nopHost{})
		if err != nil {
			panic(err)
		}
		w := s.workers[0]
		w.setLong(sc.long)
		if !sc.long {
			w.asked.Store(0)
		}
		r := &runner{w: w}
		root := r.enter()
		root.ctxOf = root
		if sc.published {
			r.forks.published = 1
		}
		ran := make([]int32, sc.forks)
		fn := func(_ *Task, i int) int {
			atomic.AddInt32(&ran[i], 1) // not a scheduling point: each thread's own step
			return i
		}
		var drained []int
		return interleave.Instance{
			Threads: []interleave.Thread{
				{Name: "owner", Run: func() {
					for i := range sc.forks {
						Fork(root, fn, i)
						interleave.Point(interleave.Yield, r) // a thief may act between forks
					}
				}},
				{Name: "thief", Run: func() {
					thief := &Task{}
					for range sc.steals {
						if j, res := w.queue.TrySteal(); res == wsq.Taken {
							j.kind.(*record).task.call(thief)
						} else {
							w.ask() // as random.steal does
						}
					}
				}},
			},
			Check: func() error {
				for {
					j, ok := r.next()
					if !ok {
						break
					}
					b := j.kind.(*record).task.(*taskRecord[int, int])
					drained = append(drained, b.a)
					b.call(root)
				}
				for i, n := range ran {
					if n != 1 {
						return fmt.Errorf("exactly once: fork %d ran %d times", i, n)
					}
				}
				for k := 1; k < len(drained); k++ {
					if drained[k] >= drained[k-1] {
						return fmt.Errorf("order: the owner's drain met fork %d after fork %d (%v): a private fork older than an item of the queue", drained[k], drained[k-1], drained)
					}
				}
				if r.forks.n != 0 || w.queue.Len() != 0 {
					return fmt.Errorf("after the drain: %d private forks, %d in the queue", r.forks.n, w.queue.Len())
				}
				return nil
			},
		}
	}
}

// TestInterleavePrivateForks explores every scenario, up to two
// preemptions (a bounded exploration does not reduce: the owner's ask word
// is not a scheduling point of its own).
func TestInterleavePrivateForks(t *testing.T) {
	for _, sc := range privateScenarios {
		t.Run(sc.name, func(t *testing.T) {
			opt := interleave.Options{PreemptionBound: 2}
			p := privateProgram(sc)
			if sched := os.Getenv("WSQCHECK_SCHEDULE"); sched != "" {
				r := interleave.Replay(p, sched, opt)
				if r.Failure != nil {
					t.Fatalf("violation: %v\n%s", r.Failure.Err, r.Failure)
				}
				return
			}
			r := interleave.Exhaustive(p, opt)
			if r.Failure != nil {
				t.Fatalf("violation: %v\n%s\nreplay: WSQCHECK_SCHEDULE=%q go test -tags wsqcheck -run 'TestInterleavePrivateForks/%s' ./sched", r.Failure.Err, r.Failure, r.Failure.Schedule, sc.name)
			}
			if !r.Complete {
				t.Fatalf("the exploration stopped after %d executions", r.Executions)
			}
			t.Logf("%d executions, longest %d steps", r.Executions, r.MaxSteps)
		})
	}
}
