package queuetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/internal/check/model"
	"github.com/worksteal/wsq/internal/check/testenv"
)

// drain empties q and returns its items oldest first. It steals until a
// steal finds nothing, then pops: a queue whose owner holds items (see
// wsq.Contract.OwnerHolds) publishes them at that pop, after the failed
// steal asked for them, and drain steals again. A queue that holds nothing
// is empty at the pop.
func drain[T any](t testing.TB, q wsq.Queue[T]) []T {
	t.Helper()
	var out, popped []T // popped: newest first
	for {
		for {
			v, ok := q.Steal()
			if !ok {
				break
			}
			out = append(out, v)
		}
		v, ok := q.Pop()
		if !ok {
			break
		}
		popped = append(popped, v)
	}
	slices.Reverse(popped)
	require.Equal(t, 0, q.Len(), "Len after draining")
	return append(out, popped...)
}

// Seq returns from, from+1, ..., from+n-1.
func Seq(from, n int) []int {
	vs := make([]int, n)
	for i := range vs {
		vs[i] = from + i
	}
	return vs
}

func testEmpty(t testing.TB, cfg Config) {
	q := cfg.New()
	assert.Equal(t, 0, q.Len())
	_, ok := q.Pop()
	assert.False(t, ok, "Pop on an empty queue")
	_, ok = q.Steal()
	assert.False(t, ok, "Steal on an empty queue")
	dst := []int{42}
	got := q.StealBatch(dst, 0.5)
	assert.Equal(t, []int{42}, got, "StealBatch on an empty queue must return dst unchanged")
	assert.Nil(t, q.StealBatch(nil, 1))
	v, r := q.TrySteal()
	assert.Equal(t, wsq.Empty, r, "TrySteal on an empty queue")
	assert.Equal(t, 0, v, "TrySteal on an empty queue returns the zero item")
	got, r = q.TryStealBatch(dst, 0.5)
	assert.Equal(t, wsq.Empty, r, "TryStealBatch on an empty queue")
	assert.Equal(t, []int{42}, got, "TryStealBatch on an empty queue must return dst unchanged")
	assert.Equal(t, 0, q.Len())
}

func testOrder(t testing.TB, cfg Config) {
	q := cfg.New()
	require.True(t, q.Push(1))
	require.Equal(t, 3, q.PushBatch([]int{2, 3, 4}))
	require.True(t, q.Push(5))
	assert.Equal(t, 5, q.Len())

	v, ok := q.Pop()
	assert.True(t, ok)
	assert.Equal(t, 5, v, "Pop takes the newest item")
	v, ok = q.Pop()
	assert.True(t, ok)
	assert.Equal(t, 4, v, "the last item of a batch is the newest")
	v, ok = q.Steal()
	assert.True(t, ok)
	assert.Equal(t, 1, v, "Steal takes the oldest item")
	// A queue whose owner holds items after its pops shows thieves the
	// published ones, oldest first; drain finds the rest.
	holds := q.Contract().OwnerHolds
	got := q.StealBatch(nil, 1)
	if holds {
		got = append(got, drain(t, q)...)
	}
	assert.Equal(t, []int{2, 3}, got, "StealBatch appends oldest first")
	assert.Equal(t, 0, q.Len())

	// A batch behaves as its items pushed one by one.
	a, b := cfg.New(), cfg.New()
	vs := Seq(100, 37)
	require.Equal(t, len(vs), a.PushBatch(vs))
	for _, v := range vs {
		require.True(t, b.Push(v))
	}
	vs[0] = -1 // PushBatch must not retain vs
	assert.Equal(t, drain(t, b), drain(t, a))

	// Pop across batch boundaries, then refill and steal across them.
	q = cfg.New()
	for i := 0; i < 10; i++ {
		require.Equal(t, 3, q.PushBatch(Seq(i*3, 3)))
	}
	for want := 29; want >= 20; want-- {
		v, ok := q.Pop()
		require.True(t, ok)
		require.Equal(t, want, v)
	}
	require.Equal(t, 2, q.PushBatch([]int{100, 101}))
	n := 22
	if holds {
		n = q.Len() // the published items
		require.LessOrEqual(t, n, 22)
	}
	k := wsq.StealCount(n, 0.25) // 6 of 22
	assert.Equal(t, Seq(0, k), q.StealBatch(nil, 0.25), "round(0.25*n) oldest items")
	assert.Equal(t, append(Seq(k, 20-k), 100, 101), drain(t, q))
}

func testRounding(t testing.TB, cfg Config) {
	for _, n := range []int{1, 2, 3, 4, 5, 7, 10, 16, 33, 100, 1000} {
		if c := cfg.contract().Capacity; c > 0 && n > c {
			continue
		}
		for _, p := range []float64{0.01, 0.1, 0.25, 1.0 / 3, 0.5, 0.6, 0.9, 0.99, 1} {
			q := cfg.New()
			require.Equal(t, n, q.PushBatch(Seq(0, n)))
			k := wsq.StealCount(n, p)
			got := q.StealBatch([]int{-1}, p)
			require.Equal(t, append([]int{-1}, Seq(0, k)...), got, "StealBatch(p=%v) of %d items", p, n)
			require.Equal(t, n-k, q.Len(), "Len after StealBatch(p=%v) of %d items", p, n)
			q = cfg.New()
			require.Equal(t, n, q.PushBatch(Seq(0, n)))
			got, r := q.TryStealBatch([]int{-1}, p)
			require.Equal(t, wsq.Taken, r, "TryStealBatch(p=%v) of %d items with nobody else at work", p, n)
			require.Equal(t, append([]int{-1}, Seq(0, k)...), got, "TryStealBatch(p=%v) of %d items", p, n)
			require.Equal(t, n-k, q.Len(), "Len after TryStealBatch(p=%v) of %d items", p, n)
			if cfg.StealNative != nil {
				q := cfg.New()
				require.Equal(t, n, q.PushBatch(Seq(0, n)))
				got := cfg.StealNative(q, nil, p)
				require.Equal(t, Seq(0, k), got, "native steal(p=%v) of %d items", p, n)
			}
		}
	}
}

var invalidProportions = []float64{0, math.Copysign(0, -1), -0.5, -1, 1.0000001, 1.5, 2, math.NaN(), math.Inf(1), math.Inf(-1)}

func testBadInput(t testing.TB, cfg Config) {
	q := cfg.New()
	assert.Equal(t, 0, q.PushBatch(nil), "PushBatch(nil)")
	assert.Equal(t, 0, q.PushBatch([]int{}), "PushBatch of an empty slice")
	assert.Equal(t, 0, q.Len())
	if cfg.PushNative != nil {
		assert.Equal(t, 0, cfg.PushNative(q, nil), "native push of nothing")
		assert.Equal(t, 0, q.Len())
	}
	for _, p := range invalidProportions {
		// On an empty queue, and on a full one: the panic comes first and
		// nothing is lost.
		assert.Panics(t, func() { q.StealBatch(nil, p) }, "StealBatch(p=%v) on an empty queue", p)
		assert.Panics(t, func() { q.TryStealBatch(nil, p) }, "TryStealBatch(p=%v) on an empty queue", p)
	}
	require.Equal(t, 5, q.PushBatch(Seq(1, 5)))
	for _, p := range invalidProportions {
		assert.PanicsWithValue(t, fmt.Sprintf("wsq: steal proportion %v is outside (0, 1]", p),
			func() { q.StealBatch([]int{0}, p) }, "StealBatch(p=%v)", p)
		assert.PanicsWithValue(t, fmt.Sprintf("wsq: steal proportion %v is outside (0, 1]", p),
			func() { q.TryStealBatch([]int{0}, p) }, "TryStealBatch(p=%v)", p)
		if cfg.StealNative != nil {
			assert.Panics(t, func() { cfg.StealNative(q, nil, p) }, "native steal(p=%v)", p)
		}
		require.Equal(t, 5, q.Len(), "an invalid proportion must leave the queue unchanged")
	}
	assert.Equal(t, Seq(1, 5), drain(t, q))
	// The queue still works after the panics.
	require.True(t, q.Push(9))
	assert.Equal(t, []int{9}, q.StealBatch(nil, 0.5))
}

func testBounded(t testing.TB, cfg Config) {
	q := cfg.New()
	c := q.Contract().Capacity
	for i := 0; i < c; i++ {
		require.True(t, q.Push(i), "Push %d of capacity %d", i, c)
	}
	assert.Equal(t, c, q.Len())
	assert.False(t, q.Push(-1), "Push to a full queue")
	assert.Equal(t, 0, q.PushBatch([]int{-1, -2}), "PushBatch to a full queue")
	if cfg.PushNative != nil {
		assert.Equal(t, 0, cfg.PushNative(q, []int{-1}), "native push to a full queue")
	}
	assert.Equal(t, c, q.Len())
	v, ok := q.Steal()
	require.True(t, ok)
	assert.Equal(t, 0, v)
	assert.Equal(t, 1, q.PushBatch([]int{c, -3, -4}), "PushBatch takes the prefix that fits")
	assert.Equal(t, Seq(1, c), drain(t, q), "nothing lost or reordered by refused pushes")

	// Wrap around the capacity many times with a queue kept near full.
	q = cfg.New()
	d := model.New[int](c)
	next := 0
	rng := rand.New(rand.NewPCG(1, uint64(c)))
	for round := 0; round < 50*c/max(c/4, 1)+100; round++ {
		vs := Seq(next, 1+rng.IntN(max(c/2, 1)))
		n := q.PushBatch(vs)
		require.Equal(t, d.PushBatch(vs), n, "PushBatch near full, round %d", round)
		next += n
		k := 1 + rng.IntN(max(c/3, 1))
		got := q.StealBatch(nil, float64(min(k, c))/float64(c))
		want := d.StealBatch(nil, float64(min(k, c))/float64(c))
		require.Equal(t, want, got, "StealBatch near full, round %d", round)
		if rng.IntN(2) == 0 {
			v1, ok1 := q.Pop()
			v2, ok2 := d.Pop()
			require.Equal(t, ok2, ok1)
			require.Equal(t, v2, v1)
		}
	}
	assert.Equal(t, d.Items(nil), drain(t, q))
}

func testRandomSequential(t testing.TB, cfg Config) {
	rounds := testenv.Size(60, 30, 300)
	for seed := 0; seed < rounds; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		data := make([]byte, 50+rng.IntN(2000))
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		if !runScript(t, cfg, data) {
			t.Fatalf("random operation sequence %d diverged from the model", seed)
		}
	}
}

// Fuzz registers a fuzz target that decodes operation sequences from the
// fuzzer's bytes, applies them to a new queue and to the reference model, and
// fails on the first difference.
func Fuzz(f *testing.F, cfg Config) {
	cfg.validate(f)
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{1, 40, 1, 40, 4, 5, 2, 2, 3, 4, 9, 6, 3})
	f.Add([]byte{5, 30, 6, 2, 6, 7, 4, 250})
	f.Add([]byte{1, 255, 1, 255, 4, 0, 4, 1, 4, 2, 2, 3, 4, 4})
	f.Add([]byte{7, 1, 9, 7, 8, 3, 0, 7, 8, 255, 8, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		runScript(t, cfg, data)
	})
}

// runScript applies the operations encoded in data to a queue and to the
// model and checks that they agree after every step. Each operation takes one
// byte for its kind and, where it needs one, one byte for its argument. It
// reports whether everything agreed.
func runScript(t testing.TB, cfg Config, data []byte) bool {
	t.Helper()
	q := cfg.New()
	d := model.New[int](q.Contract().Capacity)
	// A queue whose owner holds items shows thieves only the published
	// ones, which Len counts (exactly, with nobody else at work): a
	// steal takes StealCount of those, the model's oldest. The owner holds
	// items only after a Pop, and publishes them all by its next push or
	// pop after a steal that found nothing published (asked).
	holds := q.Contract().OwnerHolds
	popped, asked := false, false
	visible := func() int {
		if holds {
			return q.Len()
		}
		return d.Len()
	}
	next := 1
	arg := func(i *int) int {
		if *i < len(data) {
			*i++
			return int(data[*i-1])
		}
		return 0
	}
	var trace []string
	fail := func(format string, args ...any) bool {
		t.Helper()
		t.Errorf("after %v: %s", trace, fmt.Sprintf(format, args...))
		return false
	}
	for i := 0; i < len(data); {
		op := data[i] % 9
		i++
		pub := visible()
		if pub > d.Len() {
			return fail("Len = %d, model %d", pub, d.Len())
		}
		// owner: the op is a push or pop that may answer a request (an
		// empty batch is no push); steal: a steal that reached the queue
		// (an invalid proportion panics first).
		owner, steal := op == 0 || op == 2, op == 3 || op == 7
		switch op {
		case 0: // Push
			trace = append(trace, fmt.Sprintf("Push(%d)", next))
			want := d.Push(next)
			if got := q.Push(next); got != want {
				return fail("Push = %v, model %v", got, want)
			}
			if want {
				next++
			}
		case 1, 5: // PushBatch, native push
			vs := Seq(next, arg(&i)%70)
			owner = len(vs) > 0
			var got int
			if op == 5 && cfg.PushNative != nil {
				trace = append(trace, fmt.Sprintf("PushNative(%d items)", len(vs)))
				got = cfg.PushNative(q, vs)
			} else {
				trace = append(trace, fmt.Sprintf("PushBatch(%d items)", len(vs)))
				got = q.PushBatch(vs)
			}
			want := d.PushBatch(vs)
			if got != want {
				return fail("push of %d items took %d, model %d", len(vs), got, want)
			}
			next += want
		case 2: // Pop
			trace = append(trace, "Pop")
			v1, ok1 := q.Pop()
			v2, ok2 := d.Pop()
			if v1 != v2 || ok1 != ok2 {
				return fail("Pop = %d, %v; model %d, %v", v1, ok1, v2, ok2)
			}
			popped = true
		case 3: // Steal
			trace = append(trace, "Steal")
			v1, ok1 := q.Steal()
			v2, ok2 := d.StealN(nil, min(pub, 1)), pub > 0
			if ok1 != ok2 || ok1 && v1 != v2[0] {
				return fail("Steal = %d, %v; model %v", v1, ok1, v2)
			}
		case 7: // TrySteal: nobody else is at work, so never Contended
			trace = append(trace, "TrySteal")
			v1, r := q.TrySteal()
			v2 := d.StealN(nil, min(pub, 1))
			if want := resultOf(pub > 0); r != want || pub > 0 && v1 != v2[0] || pub == 0 && v1 != 0 {
				return fail("TrySteal = %d, %v; model %v, %v", v1, r, v2, want)
			}
		case 4, 6, 8: // StealBatch, native steal, TryStealBatch
			b := arg(&i)
			p := float64(b%10+1) / 10
			if b >= 250 { // now and then an invalid proportion
				p = invalidProportions[b%len(invalidProportions)]
			}
			native := op == 6 && cfg.StealNative != nil
			try := op == 8
			trace = append(trace, fmt.Sprintf("StealBatch(p=%v, native=%v, try=%v)", p, native, try))
			if !wsq.ValidProportion(p) {
				var panicked bool
				func() {
					defer func() { panicked = recover() != nil }()
					switch {
					case native:
						cfg.StealNative(q, nil, p)
					case try:
						q.TryStealBatch(nil, p)
					default:
						q.StealBatch(nil, p)
					}
				}()
				if !panicked {
					return fail("an invalid proportion did not panic")
				}
				break
			}
			steal = true
			var got []int
			r := wsq.Taken
			switch {
			case native:
				got = cfg.StealNative(q, nil, p)
			case try:
				got, r = q.TryStealBatch([]int{-1}, p)
				if len(got) == 0 || got[0] != -1 {
					return fail("TryStealBatch = %v, did not keep dst", got)
				}
				got = got[1:]
			default:
				got = q.StealBatch(nil, p)
			}
			want := d.StealN(nil, wsq.StealCount(pub, p))
			if !slices.Equal(got, want) {
				return fail("StealBatch = %v, model %v", got, want)
			}
			if try && r != resultOf(len(want) > 0) {
				return fail("TryStealBatch reported %v, model %v", r, resultOf(len(want) > 0))
			}
		}
		switch n := q.Len(); {
		case !holds || !popped || owner && asked:
			// All is published: the queue holds nothing back, or has
			// never popped, or has just answered a request.
			if n != d.Len() {
				return fail("Len = %d, model %d", n, d.Len())
			}
		case n > d.Len():
			return fail("Len = %d, model %d", n, d.Len())
		}
		if owner {
			asked = false
		} else if steal && pub == 0 && d.Len() > 0 {
			asked = true // a steal found nothing published
		}
	}
	if got, want := drain(t, q), d.Items(nil); !slices.Equal(got, want) {
		return fail("final contents %v, model %v", got, want)
	}
	return true
}

// resultOf is the result a one-attempt steal must report when nobody else is
// at work: Taken if the model took something, otherwise Empty.
func resultOf(took bool) wsq.StealResult {
	if took {
		return wsq.Taken
	}
	return wsq.Empty
}
