package queuetest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/steal"
	"github.com/worksteal/wsq/mutexq"
)

// The suite must be able to fail. Each broken queue below breaks one rule,
// and the test asserts that the checks meant to catch it do.

// recorder is a testing.TB that records failures instead of reporting them.
// FailNow ends the goroutine that calls it, as it does for a real test.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any)   { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fail()               { r.Errorf("failed") }
func (r *recorder) FailNow()            { r.Fatalf("failed") }
func (r *recorder) Failed() bool        { r.mu.Lock(); defer r.mu.Unlock(); return r.failed }
func (r *recorder) Helper()             {}
func (r *recorder) Log(args ...any)     {}
func (r *recorder) Logf(string, ...any) {}

// runCheck runs the named check against cfg and returns the recorder.
func runCheck(t *testing.T, name string, cfg Config) *recorder {
	r := &recorder{TB: t}
	for _, c := range checks {
		if c.name != name {
			continue
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if p := recover(); p != nil {
					r.Errorf("panic: %v", p)
				}
			}()
			c.run(r, cfg)
		}()
		<-done
		return r
	}
	t.Fatalf("no check named %s", name)
	return nil
}

// broken wraps mutexq and misbehaves in the ways its flags say.
type broken[T any] struct {
	*mutexq.Queue[T]
	mu       sync.Mutex
	fifoPop  bool // Pop takes the oldest item
	floor    bool // StealBatch rounds p·n down
	noPanic  bool // StealBatch ignores an invalid proportion
	dropOne  int  // PushBatch silently drops the last item of every dropOne-th batch
	batches  int
	dupEvery int64 // every dupEvery-th Steal returns the item and leaves it in place
	steals   atomic.Int64
	splitSB  bool  // StealBatch is two separate steals of half each, not atomic
	giveUp   int64 // every giveUp-th Steal reports false without looking, as a lost race would
	falseMT  int64 // every falseMT-th TrySteal reports Empty without looking
	tries    atomic.Int64
	retain   []T  // removed items kept reachable
	keep     bool // keep removed items in retain
	tear     func(T) T
}

// out is applied to every item the queue hands out.
func (b *broken[T]) out(v T) T {
	if b.tear != nil {
		v = b.tear(v)
	}
	if b.keep {
		b.mu.Lock()
		b.retain = append(b.retain, v)
		b.mu.Unlock()
	}
	return v
}

func (b *broken[T]) PushBatch(vs []T) int {
	b.batches++
	if b.dropOne > 0 && b.batches%b.dropOne == 0 && len(vs) > 1 {
		return b.Queue.PushBatch(vs[:len(vs)-1]) + 1
	}
	return b.Queue.PushBatch(vs)
}

func (b *broken[T]) Pop() (T, bool) {
	var v T
	var ok bool
	if b.fifoPop {
		v, ok = b.Queue.Steal()
	} else {
		v, ok = b.Queue.Pop()
	}
	if ok {
		v = b.out(v)
	}
	return v, ok
}

func (b *broken[T]) TrySteal() (T, wsq.StealResult) {
	if b.falseMT > 0 && b.tries.Add(1)%b.falseMT == 0 {
		var zero T
		return zero, wsq.Empty
	}
	v, r := b.Queue.TrySteal()
	if r == wsq.Taken {
		v = b.out(v)
	}
	return v, r
}

func (b *broken[T]) Steal() (T, bool) {
	if b.giveUp > 0 && b.steals.Add(1)%b.giveUp == 0 {
		var zero T
		return zero, false
	}
	v, ok := b.Queue.Steal()
	if !ok {
		return v, ok
	}
	if b.dupEvery > 0 && b.steals.Add(1)%b.dupEvery == 0 {
		b.reinsertOldest(v) // hand v out and keep it: a duplicate
	}
	return b.out(v), ok
}

// reinsertOldest puts v back at the old end by rebuilding the queue.
func (b *broken[T]) reinsertOldest(v T) {
	rest := b.Queue.StealBatch(nil, 1)
	b.Queue.PushBatch(append([]T{v}, rest...))
}

func (b *broken[T]) StealBatch(dst []T, p float64) []T {
	if !wsq.ValidProportion(p) && b.noPanic {
		return dst
	}
	steal.MustProportion(p)
	n := len(dst)
	switch {
	case b.floor:
		k := int(p * float64(b.Len()))
		for i := 0; i < k; i++ {
			if v, ok := b.Queue.Steal(); ok {
				dst = append(dst, v)
			}
		}
	case b.splitSB:
		// The right count, taken in two halves that the owner may
		// interleave with.
		k := wsq.StealCount(b.Len(), p)
		for i := 0; i < k; i++ {
			if i == k/2 {
				runtime.Gosched()
			}
			if v, ok := b.Queue.Steal(); ok {
				dst = append(dst, v)
			}
		}
	default:
		dst = b.Queue.StealBatch(dst, p)
	}
	for i := n; i < len(dst); i++ {
		dst[i] = b.out(dst[i])
	}
	return dst
}

func brokenConfig(mod func(b *broken[int])) Config {
	return Config{
		New: func() wsq.Queue[int] {
			b := &broken[int]{Queue: mutexq.New[int]()}
			mod(b)
			return b
		},
		NewWide: func() wsq.Queue[Wide] { return mutexq.New[Wide]() },
		NewPtr:  func() wsq.Queue[*Payload] { return mutexq.New[*Payload]() },
		Items:   100_000,
	}
}

func TestSuiteCatchesBrokenQueues(t *testing.T) {
	cases := []struct {
		what   string
		cfg    Config
		checks []string
	}{
		{"FIFO pop", brokenConfig(func(b *broken[int]) { b.fifoPop = true }),
			[]string{"Order", "RandomSequential", "Linearizable"}},
		{"rounding down", brokenConfig(func(b *broken[int]) { b.floor = true }),
			[]string{"Rounding", "RandomSequential"}},
		{"invalid proportion accepted", brokenConfig(func(b *broken[int]) { b.noPanic = true }),
			[]string{"BadInput", "RandomSequential"}},
		{"lost item", brokenConfig(func(b *broken[int]) { b.dropOne = 50 }),
			[]string{"ExactlyOnce"}},
		{"duplicated steal", brokenConfig(func(b *broken[int]) { b.dupEvery = 5 }),
			[]string{"ExactlyOnce"}},
		{"non-atomic StealBatch", brokenConfig(func(b *broken[int]) { b.splitSB = true }),
			[]string{"Linearizable"}},
		{"Steal gives up on a non-empty queue", brokenConfig(func(b *broken[int]) { b.giveUp = 3 }),
			[]string{"RandomSequential", "Linearizable"}},
		{"TrySteal reports Empty on a non-empty queue", brokenConfig(func(b *broken[int]) { b.falseMT = 3 }),
			[]string{"RandomSequential", "Linearizable"}},
	}
	for _, c := range cases {
		for _, name := range c.checks {
			r := runCheck(t, name, c.cfg)
			assert.True(t, r.Failed(), "%s: check %s passed a broken queue", c.what, name)
		}
	}

	// Removed items kept reachable.
	cfg := brokenConfig(func(*broken[int]) {})
	cfg.NewPtr = func() wsq.Queue[*Payload] {
		return &broken[*Payload]{Queue: mutexq.New[*Payload](), keep: true}
	}
	defer func(d time.Duration) { releaseDeadline = d }(releaseDeadline)
	releaseDeadline = time.Second
	r := runCheck(t, "Release", cfg)
	assert.True(t, r.Failed(), "Release passed a queue that keeps removed items")
	assert.Contains(t, strings.Join(r.msgs, "\n"), "still reachable")

	// A torn multi-word item.
	cfg = brokenConfig(func(*broken[int]) {})
	cfg.NewWide = func() wsq.Queue[Wide] {
		return &broken[Wide]{Queue: mutexq.New[Wide](), tear: func(w Wide) Wide {
			if w.ID%97 == 0 {
				w.Mix = MakeWide(int(w.ID) + 1).Mix
			}
			return w
		}}
	}
	r = runCheck(t, "ExactlyOnceWide", cfg)
	assert.True(t, r.Failed(), "ExactlyOnceWide passed a queue that tears items")
	assert.Contains(t, strings.Join(r.msgs, "\n"), "torn item")
}
