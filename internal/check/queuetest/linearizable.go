package queuetest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/model"
	"github.com/worksteal/wsq/internal/check/testenv"
)

type opKind int

const (
	opPush opKind = iota
	opPushBatch
	opPop
	opSteal
	opStealBatch
	opTrySteal
	opTryStealBatch
	opPushItem // one item of a looped PushBatch
)

type lzInput struct {
	kind  opKind
	v     int     // Push, PushItem
	after int     // PushItem: the batch's item before v, or 0 for its first
	vs    []int   // PushBatch
	p     float64 // StealBatch, TryStealBatch
}

type lzOutput struct {
	v  int             // Pop, Steal, TrySteal
	ok bool            // Push, Pop, Steal
	n  int             // PushBatch
	vs []int           // StealBatch, TryStealBatch
	r  wsq.StealResult // TrySteal, TryStealBatch
}

// lzState is the abstract queue, oldest item first, and the last item of a
// looped batch push applied so far, which keeps the items of one such batch
// in their order (item values are positive). Steps never modify a state in
// place.
type lzState struct {
	items []int
	last  int
	pubs  []int // OwnerHolds: the published lengths the history allows, ascending
}

// holdsStep is the step of the model for a queue whose owner holds items
// (wsq.Contract.OwnerHolds). Thieves see only the oldest pub items, and
// pub is not observed directly: the state keeps every value of it the
// history so far allows. A push publishes nothing more or everything; a
// pop of a held item may publish everything left; a pop of the newest
// published item may take over any number of the published items but the
// oldest. A steal needs pub > 0 and takes StealCount of pub; a steal that
// finds nothing needs pub == 0. An empty set of values is a violation.
func holdsStep(s lzState, in lzInput, out lzOutput) (bool, lzState) {
	n := len(s.items)
	var pubs []int
	add := func(p int) {
		if !slices.Contains(pubs, p) {
			pubs = append(pubs, p)
		}
	}
	items := s.items
	last := s.last
	switch in.kind {
	case opPush, opPushItem, opPushBatch:
		vs := in.vs
		if in.kind != opPushBatch {
			if !out.ok {
				return false, s // unbounded
			}
			vs = []int{in.v}
			if in.kind == opPushItem {
				if in.after != 0 && s.last != in.after {
					return false, s
				}
				last = in.v
			}
		} else if out.n != len(vs) {
			return false, s
		}
		items = append(slices.Clip(items), vs...)
		for _, p := range s.pubs {
			add(p)
			add(len(items))
		}
	case opPop:
		if !out.ok || n == 0 {
			return !out.ok && n == 0, s
		}
		if items[n-1] != out.v {
			return false, s
		}
		items = items[: n-1 : n-1]
		for _, p := range s.pubs {
			if p < n { // a held item: the pop may publish the rest
				add(p)
				add(n - 1)
				continue
			}
			for q := min(1, n-1); q <= n-1; q++ { // a claim of n-q items
				add(q)
			}
		}
	default: // the steals
		var k int
		switch in.kind {
		case opSteal:
			if out.ok {
				k = 1
			}
		case opTrySteal:
			if out.r == wsq.Contended {
				return out.v == 0, s
			}
			if out.r == wsq.Taken {
				k = 1
			}
		default:
			k = len(out.vs)
			if in.kind == opTryStealBatch && (out.r == wsq.Contended || out.r == wsq.Empty) {
				if k != 0 {
					return false, s
				}
				if out.r == wsq.Contended {
					return true, s
				}
			}
		}
		if k > n {
			return false, s
		}
		got := out.vs
		if in.kind == opSteal || in.kind == opTrySteal {
			got = nil
			if k == 1 {
				got = []int{out.v}
			}
		}
		if !slices.Equal(items[:k], got) {
			return false, s
		}
		items = items[k:]
		batch := in.kind == opStealBatch || in.kind == opTryStealBatch
		for _, p := range s.pubs {
			switch {
			case k == 0 && p == 0:
				add(0)
			case k > 0 && p > 0 && (!batch && k == 1 || batch && wsq.StealCount(p, in.p) == k):
				add(p - k)
			}
		}
	}
	if len(pubs) == 0 {
		return false, s
	}
	slices.Sort(pubs)
	return true, lzState{items: items, last: last, pubs: pubs}
}

// linearizabilityModel is the porcupine model of wsq.Queue. Its step
// replays the operation on internal/check/model (the one copy of the semantics)
// and compares the outputs, except where the queue's Contract declares a
// tolerance: a batch steal that may take another count than the model's,
// oldest first all the same. A Steal that reports false and a StealBatch
// that takes nothing must find the model empty, as must a TrySteal or
// TryStealBatch that reports wsq.Empty; one that reports wsq.Contended is a
// no-op at any point, and must come with no item; one that reports
// wsq.Taken must take what Steal or StealBatch would.
func linearizabilityModel(c wsq.Contract) porcupine.Model {
	return porcupine.Model{
		Init: func() any { return lzState{pubs: []int{0}} },
		Step: func(state, input, output any) (bool, any) {
			s, in, out := state.(lzState), input.(lzInput), output.(lzOutput)
			if c.OwnerHolds {
				return holdsStep(s, in, out)
			}
			d := model.New[int](c.Capacity)
			d.PushBatch(s.items)
			last := s.last
			var ok bool
			switch in.kind {
			case opPush:
				ok = d.Push(in.v) == out.ok
			case opPushItem:
				ok = (in.after == 0 || s.last == in.after) && d.Push(in.v) == out.ok
				last = in.v
			case opPushBatch:
				ok = d.PushBatch(in.vs) == out.n
			case opPop:
				v, got := d.Pop()
				ok = got == out.ok && (!got || v == out.v)
			case opSteal:
				v, got := d.Steal()
				ok = got == out.ok && (!got || v == out.v)
			case opTrySteal:
				switch out.r {
				case wsq.Contended:
					return out.v == 0, s // a no-op, with no item
				case wsq.Empty:
					ok = out.v == 0 && d.Len() == 0
				case wsq.Taken:
					v, got := d.Steal()
					ok = got && v == out.v
				}
			case opStealBatch, opTryStealBatch:
				k := len(out.vs)
				if in.kind == opTryStealBatch {
					switch out.r {
					case wsq.Contended:
						return k == 0, s // a no-op, with no items
					case wsq.Empty:
						return k == 0 && d.Len() == 0, s
					case wsq.Taken:
						if k == 0 {
							return false, s
						}
					default:
						return false, s
					}
				}
				if c.InexactStealBatch && k > 0 {
					ok = k <= d.Len() && slices.Equal(d.StealN(nil, k), out.vs)
				} else {
					ok = slices.Equal(d.StealBatch(nil, in.p), out.vs)
				}
			}
			if !ok {
				return false, s
			}
			return true, lzState{items: d.Items(nil), last: last, pubs: s.pubs}
		},
		Equal: func(a, b any) bool {
			x, y := a.(lzState), b.(lzState)
			return x.last == y.last && slices.Equal(x.items, y.items) && slices.Equal(x.pubs, y.pubs)
		},
		DescribeOperation: func(input, output any) string {
			in, out := input.(lzInput), output.(lzOutput)
			switch in.kind {
			case opPush:
				return fmt.Sprintf("Push(%d) -> %v", in.v, out.ok)
			case opPushItem:
				return fmt.Sprintf("Push(%d), in a looped PushBatch -> %v", in.v, out.ok)
			case opPushBatch:
				return fmt.Sprintf("PushBatch(%v) -> %d", in.vs, out.n)
			case opPop:
				return fmt.Sprintf("Pop() -> %d, %v", out.v, out.ok)
			case opSteal:
				return fmt.Sprintf("Steal() -> %d, %v", out.v, out.ok)
			case opTrySteal:
				return fmt.Sprintf("TrySteal() -> %d, %v", out.v, out.r)
			case opTryStealBatch:
				return fmt.Sprintf("TryStealBatch(%v) -> %v, %v", in.p, out.vs, out.r)
			default:
				return fmt.Sprintf("StealBatch(%v) -> %v", in.p, out.vs)
			}
		},
		DescribeState: func(state any) string {
			if s := state.(lzState); c.OwnerHolds {
				return fmt.Sprintf("%v, published %v", s.items, s.pubs)
			}
			return fmt.Sprint(state.(lzState).items)
		},
	}
}

// testLinearizable records many short concurrent histories of one owner and
// two thieves and checks each with porcupine.
func testLinearizable(t testing.TB, cfg Config) {
	histories := testenv.Size(80, 100, 400)
	model := linearizabilityModel(cfg.contract())
	for h := 0; h < histories; h++ {
		ops := recordHistory(cfg, uint64(h))
		res, info := porcupine.CheckOperationsVerbose(model, ops, 10*time.Second)
		if res == porcupine.Ok {
			continue
		}
		path := filepath.Join(t.TempDir(), fmt.Sprintf("history-%d.html", h))
		if f, err := os.Create(path); err == nil {
			_ = porcupine.Visualize(model, info, f)
			_ = f.Close()
		}
		for _, op := range ops {
			t.Logf("client %d [%d, %d] %s", op.ClientId, op.Call, op.Return, model.DescribeOperation(op.Input, op.Output))
		}
		t.Fatalf("history %d: porcupine says %s (visualization: %s)", h, res, path)
	}
}

// recordHistory runs one short concurrent history on a new queue and returns
// its operations. Item values are unique, so every output names the push it
// came from.
func recordHistory(cfg Config, seed uint64) []porcupine.Operation {
	q := cfg.New()
	contract := q.Contract()
	var clock atomic.Int64
	var mu sync.Mutex
	var ops []porcupine.Operation
	record := func(client int, in lzInput, call int64, out lzOutput) {
		ret := clock.Add(1)
		mu.Lock()
		ops = append(ops, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
		mu.Unlock()
	}
	rng := rand.New(rand.NewPCG(seed, 0x11ea))
	// A prefix, recorded as the owner's, so that histories start from
	// queues of varied length.
	next := 1
	if pre := rng.IntN(12); pre > 0 {
		in := lzInput{kind: opPushBatch, vs: Seq(next, pre)}
		call := clock.Add(1)
		n := q.PushBatch(in.vs)
		record(0, in, call, lzOutput{n: n})
		next += n
	}
	const thieves = 2
	var start sync.WaitGroup
	start.Add(1)
	var wg sync.WaitGroup
	for c := 1; c <= thieves; c++ {
		wg.Add(1)
		go func(client int, rng *rand.Rand) {
			defer wg.Done()
			start.Wait()
			for i := 0; i < 6; i++ {
				if rng.IntN(3) == 0 {
					runtime.Gosched()
				}
				// A looped batch steal is not one operation: such queues
				// are recorded stealing one item at a time.
				batch := !contract.LoopedStealBatch && rng.IntN(2) == 0
				switch try := rng.IntN(2) == 0; {
				case !batch && !try:
					call := clock.Add(1)
					v, ok := q.Steal()
					record(client, lzInput{kind: opSteal}, call, lzOutput{v: v, ok: ok})
				case !batch:
					call := clock.Add(1)
					v, r := q.TrySteal()
					record(client, lzInput{kind: opTrySteal}, call, lzOutput{v: v, r: r})
				case !try:
					in := lzInput{kind: opStealBatch, p: proportions[rng.IntN(len(proportions))]}
					call := clock.Add(1)
					vs := q.StealBatch(nil, in.p)
					record(client, in, call, lzOutput{vs: vs})
				default:
					in := lzInput{kind: opTryStealBatch, p: proportions[rng.IntN(len(proportions))]}
					call := clock.Add(1)
					vs, r := q.TryStealBatch(nil, in.p)
					record(client, in, call, lzOutput{vs: vs, r: r})
				}
			}
		}(c, rand.New(rand.NewPCG(seed, uint64(c))))
	}
	start.Done()
	for i := 0; i < 10; i++ {
		if rng.IntN(3) == 0 {
			runtime.Gosched()
		}
		switch r := rng.IntN(10); {
		case r < 3:
			in := lzInput{kind: opPush, v: next}
			call := clock.Add(1)
			ok := q.Push(in.v)
			record(0, in, call, lzOutput{ok: ok})
			if ok {
				next++
			}
		case r < 6:
			in := lzInput{kind: opPushBatch, vs: Seq(next, 1+rng.IntN(4))}
			call := clock.Add(1)
			n := q.PushBatch(in.vs)
			if contract.LoopedPushBatch {
				// A looped batch push is not one operation: a thief may
				// find the queue empty between two of its items. It is
				// recorded as a push of each item it took, all within the
				// batch's interval, in their order.
				for i, v := range in.vs[:n] {
					item := lzInput{kind: opPushItem, v: v}
					if i > 0 {
						item.after = in.vs[i-1]
					}
					record(0, item, call, lzOutput{ok: true})
				}
			} else {
				record(0, in, call, lzOutput{n: n})
			}
			next += n
		default:
			call := clock.Add(1)
			v, ok := q.Pop()
			record(0, lzInput{kind: opPop}, call, lzOutput{v: v, ok: ok})
		}
	}
	wg.Wait()
	return ops
}
