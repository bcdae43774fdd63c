package bench

import (
	"fmt"

	"github.com/worksteal/wsq/chaselev"
	"github.com/worksteal/wsq/internal/check/queuetest"
	"github.com/worksteal/wsq/tfdeque"
)

// The ring-buffer contenders: Taskflow's queues (tfdeque) and the Chase-Lev
// deques they are built on (chaselev).
//
//	push   tf-ub, tf-bd, cl-ub, cl-bd  Push of one item (tf-ub-bulk's Push is tf-ub's)
//	batch  tf-ub, tf-bd            per-item loop of Push, as the paper measured
//	       tf-ub-bulk, tf-bd-bulk  Taskflow v4's bulk push: slot stores, one publication
//	       cl-ub, cl-bd            chaselev's PushBatch (the same one publication)
//	steal  tf-ub                   loop of single steals, as the paper measured
//	       cl-ub                   chaselev's one-step batch steal
//	pop    tf-ub, tf-bd, cl-ub, cl-bd
//
// Every timed push and pop loop calls the concrete type, as the other
// contenders do (see pushContenderOf for why one loop for both types would
// cost more); the steals, which cost hundreds of nanoseconds or
// more, go through the wsq.Queue interface in sliceSteal. Every loop checks
// that it did what its name says: each push took its whole batch
// into a queue of the expected capacity and push style without growing it,
// each pop found an item, each steal took the oldest items in order.
//
// What is timed. Unbounded queues are created with room for the whole window
// (as a long-running queue would have grown to), so the timed loop measures
// pushes, not the copying of a growing ring. Every ring a push contender
// writes is touched once outside the timer (filled and emptied, as a
// long-running queue's memory would have been), so the timed loop does not
// pay the page faults of freshly allocated memory. Bounded queues hold 256 items
// (Taskflow's default), fewer than a window of the harness: their prepare
// step creates as many fresh queues as the window needs, outside the timer,
// and the timed loop fills them one after another, so that every timed push
// goes into a queue with room for it and nothing is drained inside the
// timer. A batch larger than the capacity (1024) cannot go into one bounded
// queue at all; it is pushed as capacity-sized pieces into consecutive
// queues, so the figure is the cost of pushing that many items through
// bounded queues. Pops from bounded queues likewise empty a series of full
// queues filled outside the timer.

// boundedCapacity is the capacity of the bounded contenders.
const boundedCapacity = tfdeque.DefaultBoundedCapacity

func init() {
	for _, c := range []struct {
		name    string
		bounded bool
		style   tfdeque.PushStyle
	}{
		{"tf-ub", false, tfdeque.PerItem},
		{"tf-bd", true, tfdeque.PerItem},
		{"tf-ub-bulk", false, tfdeque.Bulk},
		{"tf-bd-bulk", true, tfdeque.Bulk},
	} {
		newQ := func(capacity int) *tfdeque.Deque[int] {
			var q *tfdeque.Deque[int]
			if c.bounded {
				q = tfdeque.NewBounded[int](tfdeque.WithPushStyle(c.style))
			} else {
				q = tfdeque.NewUnbounded[int](tfdeque.WithPushStyle(c.style), tfdeque.WithCapacity(capacity))
			}
			if q.Style() != c.style || q.Cap() != capacity {
				panic(fmt.Sprintf("bench: %s: push style %v, capacity %d; want %v, %d", c.name, q.Style(), q.Cap(), c.style, capacity))
			}
			return q
		}
		// Push of one item does not depend on the push style: the bulk
		// forms push a batch only.
		single := c.style == tfdeque.PerItem
		if !c.bounded {
			newUnbounded := func(items int) *tfdeque.Deque[int] {
				q := newQ(roomFor(items))
				warm(q)
				return q
			}
			if single {
				pushContenders = append(pushContenders, pushContenderOf(c.name, newUnbounded, tfPushItems))
			}
			batchContenders = append(batchContenders, pushContenderOf(c.name, newUnbounded, tfPushes))
			continue
		}
		newBounded := func() *tfdeque.Deque[int] { return newQ(boundedCapacity) }
		if single {
			pushContenders = append(pushContenders, boundedPushContenderOf(c.name, newBounded, tfBoundedPushItems))
		}
		batchContenders = append(batchContenders, boundedPushContenderOf(c.name, newBounded, tfBoundedPushes))
	}
	clUnbounded := func(items int) *chaselev.Deque[int] {
		q := chaselev.NewUnbounded[int](roomFor(items))
		warm(q)
		return q
	}
	clBounded := func() *chaselev.Deque[int] { return chaselev.NewBounded[int](boundedCapacity) }
	pushContenders = append(pushContenders,
		pushContenderOf("cl-ub", clUnbounded, clPushItems),
		boundedPushContenderOf("cl-bd", clBounded, clBoundedPushItems),
	)
	batchContenders = append(batchContenders,
		pushContenderOf("cl-ub", clUnbounded, clPushes),
		boundedPushContenderOf("cl-bd", clBounded, clBoundedPushes),
	)

	stealContenders = append(stealContenders,
		stealContender{"tf-ub", func(n int, p float64) (func() int, func()) {
			return sliceSteal("tf-ub", tfdeque.NewUnbounded[int](), n, p)
		}},
		stealContender{"cl-ub", func(n int, p float64) (func() int, func()) {
			return sliceSteal("cl-ub", chaselev.NewUnbounded[int](tfdeque.DefaultUnboundedCapacity), n, p)
		}},
	)

	popContenders = append(popContenders,
		popContenderOf("tf-ub", false, func() *tfdeque.Deque[int] { return tfdeque.NewUnbounded[int]() }, tfPops),
		popContenderOf("tf-bd", true, func() *tfdeque.Deque[int] { return tfdeque.NewBounded[int]() }, tfPops),
		popContenderOf("cl-ub", false, func() *chaselev.Deque[int] { return chaselev.NewUnbounded[int](tfdeque.DefaultUnboundedCapacity) }, clPops),
		popContenderOf("cl-bd", true, func() *chaselev.Deque[int] { return chaselev.NewBounded[int](boundedCapacity) }, clPops),
	)
}

// The timed loops of tfdeque and chaselev (see pushContenderOf,
// boundedPushContenderOf and popContenderOf).

func tfPushItems(name string, q *tfdeque.Deque[int], vs []int, ops int) {
	v := vs[0]
	for range ops {
		if !q.Push(v) {
			panic("bench: " + name + ": Push refused an item")
		}
	}
}

func tfBoundedPushItems(name string, plan boundedPlan, queues []*tfdeque.Deque[int]) {
	v := plan.item()
	for i, q := range queues {
		for range plan.fill[i] {
			if !q.Push(v) {
				panic("bench: " + name + ": a bounded queue refused an item it had room for")
			}
		}
	}
}

func tfPushes(name string, q *tfdeque.Deque[int], vs []int, ops int) {
	for range ops {
		if q.PushBatch(vs) != len(vs) {
			panic("bench: " + name + ": a push did not take its whole batch")
		}
	}
}

func tfBoundedPushes(name string, plan boundedPlan, queues []*tfdeque.Deque[int]) {
	next := 0
	for i, q := range queues {
		for range plan.fill[i] {
			if vs := plan.pieces[next]; q.PushBatch(vs) != len(vs) {
				panic("bench: " + name + ": a bounded queue refused items it had room for")
			}
			if next++; next == len(plan.pieces) {
				next = 0
			}
		}
	}
	plan.check(name, next)
}

func tfPops(name string, queues []*tfdeque.Deque[int]) {
	for _, q := range queues {
		for range q.Len() {
			if _, ok := q.Pop(); !ok {
				panic("bench: " + name + ": Pop found the queue empty")
			}
		}
	}
}

func clPushItems(name string, q *chaselev.Deque[int], vs []int, ops int) {
	v := vs[0]
	for range ops {
		if !q.Push(v) {
			panic("bench: " + name + ": Push refused an item")
		}
	}
}

func clBoundedPushItems(name string, plan boundedPlan, queues []*chaselev.Deque[int]) {
	v := plan.item()
	for i, q := range queues {
		for range plan.fill[i] {
			if !q.Push(v) {
				panic("bench: " + name + ": a bounded queue refused an item it had room for")
			}
		}
	}
}

func clPushes(name string, q *chaselev.Deque[int], vs []int, ops int) {
	for range ops {
		if q.PushBatch(vs) != len(vs) {
			panic("bench: " + name + ": a push did not take its whole batch")
		}
	}
}

func clBoundedPushes(name string, plan boundedPlan, queues []*chaselev.Deque[int]) {
	next := 0
	for i, q := range queues {
		for range plan.fill[i] {
			if vs := plan.pieces[next]; q.PushBatch(vs) != len(vs) {
				panic("bench: " + name + ": a bounded queue refused items it had room for")
			}
			if next++; next == len(plan.pieces) {
				next = 0
			}
		}
	}
	plan.check(name, next)
}

func clPops(name string, queues []*chaselev.Deque[int]) {
	for _, q := range queues {
		for range q.Len() {
			if _, ok := q.Pop(); !ok {
				panic("bench: " + name + ": Pop found the queue empty")
			}
		}
	}
}

// boundedPushContenderOf is the push contender name on bounded queues that
// newQ makes: for a window, outside the timer, the plan of how its batches
// go into queues and as many warmed queues as the plan fills; the timed
// loop is pushes, the queue type's own loop that follows the plan and
// panics when a queue refuses items it has room for (the loop calls the
// concrete PushBatch, or Push for batches of one item, as in
// pushContenderOf).
func boundedPushContenderOf[Q ring](name string, newQ func() Q, pushes func(name string, plan boundedPlan, queues []Q)) pushContender {
	return pushContender{name: name, prepare: func(batch, ops int) func() {
		plan := newBoundedPlan(batch, ops)
		queues := make([]Q, len(plan.fill))
		for i := range queues {
			queues[i] = newQ()
			warm(queues[i])
		}
		return func() { pushes(name, plan, queues) }
	}}
}

// ring is what the setup and checks use of tfdeque.Deque and
// chaselev.Deque; the timed loops call the concrete types.
type ring interface {
	Push(v int) bool
	PushBatch(vs []int) int
	Pop() (int, bool)
	Len() int
	Cap() int
}

// warmFill is what warm pushes.
var warmFill []int

// warm touches the slots of the empty queue q that the timed pushes will
// write, and leaves q empty: it fills q to its capacity and pops it empty,
// which brings the positions back to where they were.
func warm(q ring) {
	c := q.Cap()
	if len(warmFill) < c {
		warmFill = make([]int, c)
	}
	if q.PushBatch(warmFill[:c]) != c {
		panic("bench: warm: could not fill the queue")
	}
	for range c {
		q.Pop()
	}
	if q.Len() != 0 || q.Cap() != c {
		panic("bench: warm: the queue is not empty or changed its capacity")
	}
}

// roomFor returns the capacity an unbounded contender starts with: Taskflow's
// default, or the next power of two that holds a whole window.
func roomFor(items int) int {
	c := tfdeque.DefaultUnboundedCapacity
	for c < items {
		c *= 2
	}
	return c
}

// pushCheck returns a check, run once at the end of a timed loop, that the
// unbounded queue q received want items and did not grow.
func pushCheck(name string, q ring, want int) func() {
	capacity := q.Cap()
	return func() {
		if q.Len() != want || q.Cap() != capacity {
			panic(fmt.Sprintf("bench: %s: %d items, capacity %d after the timed loop; want %d, %d", name, q.Len(), q.Cap(), want, capacity))
		}
	}
}

// boundedPlan says how a window of ops batches of batch items goes into
// bounded queues: each batch, cut into pieces no larger than the capacity,
// and fill[i] pieces into the i-th queue, in order.
type boundedPlan struct {
	pieces [][]int // one batch, cut to fit a queue
	fill   []int   // pieces per queue
}

func newBoundedPlan(batch, ops int) boundedPlan {
	var plan boundedPlan
	piece := min(batch, boundedCapacity)
	for vs := queuetest.Seq(0, batch); len(vs) > 0; vs = vs[min(piece, len(vs)):] {
		plan.pieces = append(plan.pieces, vs[:min(piece, len(vs))])
	}
	perQueue := boundedCapacity / piece
	for left := ops * len(plan.pieces); left > 0; left -= perQueue {
		plan.fill = append(plan.fill, min(perQueue, left))
	}
	return plan
}

// item returns the one item of a plan for batches of one item (Push), and
// panics for a larger batch.
func (plan boundedPlan) item() int {
	if len(plan.pieces) != 1 || len(plan.pieces[0]) != 1 {
		panic("bench: a Push contender was prepared with a batch of more than one item")
	}
	return plan.pieces[0][0]
}

// check panics unless the timed loop ended on a batch boundary.
func (plan boundedPlan) check(name string, next int) {
	if next != 0 {
		panic("bench: " + name + ": the timed loop pushed a partial batch")
	}
}

// boundedQueues returns how many bounded queues hold ops items.
func boundedQueues(ops int) int { return (ops + boundedCapacity - 1) / boundedCapacity }

// boundedFill fills the i-th of the bounded queues that hold ops items (see
// popFill).
func boundedFill(name string, q popQueue, i, ops int) {
	if popFill(q, min(boundedCapacity, ops-i*boundedCapacity)) != q.Len() {
		panic("bench: " + name + ": could not fill a bounded queue")
	}
}
