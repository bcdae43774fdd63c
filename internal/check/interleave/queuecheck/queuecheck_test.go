package queuecheck_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/interleave"
	qc "github.com/worksteal/wsq/internal/check/interleave/queuecheck"
	"github.com/worksteal/wsq/internal/check/model"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// stepQueue is the executable specification behind one scheduling point
// per operation, so every operation is atomic: a linearizable queue in
// every build. bug selects a deliberate defect.
type stepQueue struct {
	d   model.Deque[int]
	bug string
}

func (q *stepQueue) step() { interleave.Point(interleave.Store, q) }

func (q *stepQueue) Push(v int) bool { q.step(); return q.d.Push(v) }

func (q *stepQueue) PushBatch(vs []int) int {
	q.step()
	if q.bug == "lose" && len(vs) > 1 {
		return q.d.PushBatch(vs[1:]) + 1 // claims to take vs[0] but drops it
	}
	return q.d.PushBatch(vs)
}

func (q *stepQueue) Pop() (int, bool) {
	q.step()
	if q.bug == "pop-keeps" {
		vs := q.d.Items(nil)
		if len(vs) == 0 {
			return 0, false
		}
		return vs[len(vs)-1], true // returns the newest but leaves it
	}
	return q.d.Pop()
}

func (q *stepQueue) Steal() (int, bool) {
	q.step()
	if q.bug == "steal-newest" {
		return q.d.Pop()
	}
	return q.d.Steal()
}

func (q *stepQueue) StealBatch(dst []int, p float64) []int {
	q.step()
	return q.d.StealBatch(dst, p)
}

func (q *stepQueue) TrySteal() (int, wsq.StealResult) {
	if v, ok := q.Steal(); ok {
		return v, wsq.Taken
	}
	return 0, wsq.Empty
}

func (q *stepQueue) TryStealBatch(dst []int, p float64) ([]int, wsq.StealResult) {
	n := len(dst)
	if dst = q.StealBatch(dst, p); len(dst) > n {
		return dst, wsq.Taken
	}
	return dst, wsq.Empty
}

func (q *stepQueue) Len() int { return q.d.Len() }

func (q *stepQueue) Contract() wsq.Contract { return wsq.Contract{} }

func config(bug string) qc.Config {
	return qc.Config{
		New: func() wsq.Queue[int] { return &stepQueue{bug: bug} },
		Names: func(q wsq.Queue[int]) interleave.Names {
			return interleave.Names{Object: func(obj any) string {
				if obj == q {
					return "queue"
				}
				return ""
			}}
		},
	}
}

var race = qc.Scenario{
	Name: "race", Prefill: 2, Bound: qc.Unbounded,
	Owner:   []qc.Op{qc.PushBatch(2), qc.Pop()},
	Thieves: [][]qc.Op{{qc.Steal()}, {qc.StealBatch(0.5)}},
}

func TestCorrectQueuePasses(t *testing.T) {
	r := qc.Explore(config(""), race)
	require.Nil(t, r.Failure, "%v", r.Failure)
	assert.True(t, r.Complete)
	// Every operation is one step on one object, so no two steps commute:
	// the executions are the 4!/2! orders of the four steps.
	assert.Equal(t, 12, r.Executions)
	assert.Positive(t, r.Histories)
	t.Log(r.Describe(race))

	rnd := race
	rnd.Random, rnd.Seed = 50, 7
	r = qc.Explore(config(""), rnd)
	require.Nil(t, r.Failure)
	assert.Equal(t, 51, r.Executions)
}

func TestBrokenQueuesFound(t *testing.T) {
	for bug, want := range map[string]string{
		"pop-keeps":    "exactly-once: item 4 removed twice",
		"lose":         "exactly-once: items [1 3] lost",
		"steal-newest": "not linearizable (porcupine: Illegal)",
	} {
		r := qc.Explore(config(bug), race)
		require.NotNil(t, r.Failure, bug)
		assert.ErrorContains(t, r.Failure.Err, want, bug)
		assert.True(t, r.Failure.Replayed, bug)
		assert.Contains(t, r.Failure.Trace, "queue.Store()", bug)
		t.Logf("%s:\n%s", bug, r.Failure)
	}
}

func TestInvariantsChecked(t *testing.T) {
	cfg := config("")
	cfg.Invariants = func(q wsq.Queue[int]) error {
		if q.Len() > 0 {
			return errors.New("items remain")
		}
		return nil
	}
	r := qc.Explore(cfg, race)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "invariant after the threads finished: items remain")
}

func TestOwnerOnlyOperations(t *testing.T) {
	s := qc.Scenario{Name: "bad", Thieves: [][]qc.Op{{qc.Pop()}}, Bound: qc.Unbounded}
	r := qc.Explore(config(""), s)
	require.NotNil(t, r.Failure)
	assert.ErrorContains(t, r.Failure.Err, "queuecheck: only the owner may Pop")
}
