package queuetest

import (
	"runtime"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/chaos"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// ChaosProcs is the GOMAXPROCS of the chaos check: at least 8, and twice the
// number of cores on larger machines, so that more goroutines are runnable
// than there are processors and the operating system preempts them
// anywhere, in the middle of the windows chaos stretches.
func ChaosProcs() int { return max(8, 2*runtime.NumCPU()) }

// chaosThieves is the number of thieves of the chaos check's exactly-once
// run.
const chaosThieves = 8

// testChaos is the chaos check, which runs only in the chaos build (build
// tag wsqchaos, see internal/check/chaos): there every atomic operation of the
// lock-free queues may yield, sleep or stall, and the check adds the same
// noise before and after every operation of the queue, so that a queue
// without atomic operations of its own (mutexq) is preempted between its
// operations too. Under GOMAXPROCS ChaosProcs it runs the exactly-once run
// with 1 owner and chaosThieves thieves (as many items as the ExactlyOnce
// check), then records 1,000 short histories at full size (200 at quick
// size and under testing.Short) as the Linearizable check does and checks each with porcupine, and logs the
// seed and what chaos did.
func testChaos(t testing.TB, cfg Config) {
	procs := ChaosProcs()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	items, histories := cfg.items(), testenv.Size(200, 200, 1000)
	c := cfg
	c.Thieves = chaosThieves
	c.New = func() wsq.Queue[int] { return &chaotic[int]{cfg.New()} }
	var nat natives[int]
	if cfg.PushNative != nil {
		nat.push = func(q wsq.Queue[int], vs []int) int {
			chaos.Point(true)
			return cfg.PushNative(q.(*chaotic[int]).Queue, vs)
		}
	}
	if cfg.StealNative != nil {
		nat.steal = func(q wsq.Queue[int], dst []int, p float64) []int {
			chaos.Point(true)
			return cfg.StealNative(q.(*chaotic[int]).Queue, dst, p)
		}
	}
	start, began := chaos.Snapshot(), time.Now()
	exactlyOnce(t, c, c.New, intCodec, nat, items)
	model := linearizabilityModel(cfg.contract())
	for h := range histories {
		ops := recordHistory(c, uint64(h))
		if res := porcupine.CheckOperationsTimeout(model, ops, 10*time.Second); res != porcupine.Ok {
			for _, op := range ops {
				t.Logf("client %d [%d, %d] %s", op.ClientId, op.Call, op.Return, model.DescribeOperation(op.Input, op.Output))
			}
			t.Fatalf("chaos seed %d: history %d: porcupine says %s", chaos.Seed(), h, res)
		}
	}
	t.Logf("chaos seed %d, GOMAXPROCS %d on %d cores: %d items exactly once (1 owner, %d thieves), %d histories linearizable, in %v; %v",
		chaos.Seed(), procs, runtime.NumCPU(), items, chaosThieves, histories,
		time.Since(began).Round(time.Millisecond), chaos.Snapshot().Sub(start))
}

// chaotic is a queue whose every operation is preceded and followed by a
// chaos point.
type chaotic[T any] struct{ wsq.Queue[T] }

func (q *chaotic[T]) Push(v T) bool {
	chaos.Point(true)
	defer chaos.Point(false)
	return q.Queue.Push(v)
}

func (q *chaotic[T]) PushBatch(vs []T) int {
	chaos.Point(true)
	defer chaos.Point(false)
	return q.Queue.PushBatch(vs)
}

func (q *chaotic[T]) Pop() (T, bool) {
	chaos.Point(true)
	defer chaos.Point(false)
	return q.Queue.Pop()
}

func (q *chaotic[T]) Steal() (T, bool) {
	chaos.Point(true)
	defer chaos.Point(false)
	return q.Queue.Steal()
}

func (q *chaotic[T]) StealBatch(dst []T, p float64) []T {
	chaos.Point(true)
	defer chaos.Point(false)
	return q.Queue.StealBatch(dst, p)
}

func (q *chaotic[T]) Len() int {
	chaos.Point(false)
	return q.Queue.Len()
}
