package par

import "github.com/worksteal/wsq/sched"

// maxBlocks is the most blocks a reduction cuts its range into. The
// blocks depend on n alone, so that the result does too (see Reduce).
// Enough blocks for many workers to balance uneven iterations; few enough
// that combining their results costs little beside the loop.
const maxBlocks = 4096

// Reduce combines f(0), f(1), ..., f(n-1) with combine, starting from
// identity, computing the f(i) in parallel when other workers look for
// work. It returns identity for n <= 0.
//
// The order of the combinations is fixed by n alone, never by the
// schedule: Reduce cuts the range into at most 4096 blocks of equal size
// (the last may be shorter), folds each block from identity in index
// order, and folds the blocks' results in block order:
//
//	block b    r_b = combine(...combine(combine(identity, f(lo_b)), f(lo_b+1))..., f(hi_b-1))
//	result     combine(...combine(combine(identity, r_0), r_1)..., r_last)
//
// So a floating-point sum gives the same bits on every run, with any
// number of workers. combine need not be commutative. If it is
// associative and identity is its identity, the result is that of the
// serial fold over the indices.
//
//	sum := par.Reduce(t, len(xs), 0.0,
//		func(t *sched.Task, i int) float64 { return xs[i] * xs[i] },
//		func(a, b float64) float64 { return a + b })
//
// Reduce holds one result per block until the end. It panics if f or
// combine is nil, and with a *sched.PanicError if f or combine panics. It splits
// the blocks as For splits a range: see Loop. With a nil t, it runs on the
// default pool (see sched.Do).
func Reduce[R any](t *sched.Task, n int, identity R, f func(t *sched.Task, i int) R, combine func(x, y R) R) R {
	checkLoop("Reduce", f == nil || combine == nil)
	if t == nil {
		var r R
		onDefault(func(t *sched.Task) { r = Reduce(t, n, identity, f, combine) })
		return r
	}
	return reduce(t, n, identity, func(t *sched.Task, lo, hi int) R {
		acc := identity
		for i := lo; i < hi; i++ {
			acc = combine(acc, f(t, i))
		}
		return acc
	}, combine)
}

// ReduceRange is Reduce for a body that computes the result of a whole
// block [lo, hi) itself, as ForRange is to For: a cheap iteration then
// costs no call. The blocks are Reduce's; the body's result stands for
// that block's fold, and the results are folded in block order as Reduce
// folds them.
//
//	sum := par.ReduceRange(t, len(xs), 0.0, func(t *sched.Task, lo, hi int) float64 {
//		s := 0.0
//		for _, x := range xs[lo:hi] {
//			s += x * x
//		}
//		return s
//	}, func(a, b float64) float64 { return a + b })
func ReduceRange[R any](t *sched.Task, n int, identity R, body func(t *sched.Task, lo, hi int) R, combine func(x, y R) R) R {
	checkLoop("ReduceRange", body == nil || combine == nil)
	if t == nil {
		var r R
		onDefault(func(t *sched.Task) { r = reduce(t, n, identity, body, combine) })
		return r
	}
	return reduce(t, n, identity, body, combine)
}

// reduce is ReduceRange without the checks.
func reduce[R any](t *sched.Task, n int, identity R, body func(t *sched.Task, lo, hi int) R, combine func(x, y R) R) R {
	if n <= 0 {
		return identity
	}
	size := n / maxBlocks
	if size*maxBlocks < n {
		size++
	}
	blocks := n / size
	if blocks*size < n {
		blocks++
	}
	results := make([]R, blocks)
	ForRange(t, blocks, func(t *sched.Task, blo, bhi int) {
		for b := blo; b < bhi; b++ {
			lo := b * size // below n: b < blocks
			results[b] = body(t, lo, lo+min(size, n-lo))
		}
	})
	acc := identity
	asTask(t, func(*sched.Task, struct{}) { // so that a panic of combine is a *sched.PanicError
		for _, r := range results {
			acc = combine(acc, r)
		}
	}, struct{}{})
	return acc
}
