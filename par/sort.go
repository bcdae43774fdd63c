package par

import (
	"cmp"
	"sync/atomic"

	"github.com/worksteal/wsq/sched"
)

// The sorts are parallel forms of the standard library's. While workers
// look for work, none makes a pass over all of a part on one worker: the
// span, the longest chain of steps, grows as a power of log n.
//
//	sort               parts                          kernel, on one worker
//	Sort of integers   quicksort, cut in parallel     radix sort (MSD), with scratch
//	Sort of others     quicksort, cut in parallel     pdqsort, block partitions
//	SortFunc           quicksort, cut in parallel     pdqsort, block partitions
//	SortStableFunc     merge sort, parallel merges    merge sort of insertion runs
//
// A parallel cut partitions the blocks of a part in parallel, each around
// the same pivot. The part then holds, block after block, runs of small
// and large elements; those on the wrong side of the cut swap pairwise,
// in parallel too (sortquick.go). A cut's span is about two blocks. The
// swaps move some elements twice. So a cut runs in parallel only while a
// worker looks for work (sched.Task.Demand); otherwise its worker
// partitions the part in one pass, as pdqsort does.
//
// The kernel is pattern-defeating quicksort with BlockQuicksort's
// branchless partition (Edelkamp and Weiß, ESA 2016): a block records
// which of its elements are misplaced with no branch on a comparison
// (sortblock.go). IPS⁴o (Axtmann, Witt, Ferizovic and Sanders, ESA 2017)
// classifies elements the same way. Strings compare by their first eight
// bytes first, as integers. Integers skip comparisons: a radix sort
// sorts each leaf through a scratch slice that stays in cache
// (sortradix.go).
//
// A long x is first checked in one parallel pass: a sorted x costs that
// pass, and a descending one that pass and a parallel reversal. A short
// one goes to the kernel at once, which finds a sorted x in one pass too.

const (
	// quickLeaf is the longest part that the kernel sorts on one worker.
	// A part of this size takes far longer than the Join that starts it.
	quickLeaf = 1 << 14
	// radixLeaf is the longest part that the radix kernel sorts: its
	// scratch, of this many elements, stays in a core's cache.
	radixLeaf = 1 << 16
	// sortBlock is the block of a parallel pass: of a cut, a check, a
	// reversal.
	sortBlock = 1 << 12
	// mergeLeaf is the size below which a merge runs serially.
	mergeLeaf = 8192
	// stableLeaf is the longest part of the stable sort that one worker
	// sorts.
	stableLeaf = 2048
	// stableRun is the longest run of the stable sort that insertion
	// sorts.
	stableRun = 16
)

// Sort sorts x in ascending order, as slices.Sort does, in parallel when
// other workers look for work. When sorting floating-point numbers, NaNs
// are ordered before other values. The sort is not stable, which no one
// can see in values of an ordered type.
//
//	par.Sort(t, xs) // xs is a []int
//
// Sort is a quicksort whose cuts run in parallel blocks while other
// workers look for work, and in one pass otherwise. Parts of up to
// 16,384 elements are sorted on one worker, by pattern-defeating
// quicksort with branchless block partitions. For the integer types
// (int, int8 to int64, uint, uint8 to uint64, uintptr, but not types
// defined from them) parts of up to 65,536 elements go to a radix sort
// instead. The worst case stays O(n log n). An x that is sorted costs one
// pass; one in descending order, one pass and a reversal.
//
// Sort works in place. A parallel cut allocates a few words per block of
// 4,096 elements. The radix sort takes a scratch slice of up to 65,536
// elements per worker, for all its parts, unless x has fewer than 256
// elements.
//
// Sort of fewer than two elements returns at once. t is the calling task,
// or nil in a goroutine that is not a task: Sort then runs on the default
// pool and returns when x is sorted (see sched.Do). Sort stops when t's
// context is done, as every loop of the package does: x then holds its
// elements in some order, and the caller learns it from t.Context().Err().
func Sort[S ~[]E, E cmp.Ordered](t *sched.Task, x S) {
	if t == nil {
		onDefault(func(t *sched.Task) { Sort(t, x) })
		return
	}
	if len(x) < 2 {
		return
	}
	sortOrdered(t, []E(x), nil, true)
}

// SortFunc sorts x in ascending order as cmp determines it, as
// slices.SortFunc does, in parallel when other workers look for work. cmp
// must be a strict weak ordering, as slices.SortFunc requires; with one
// that is not, SortFunc ends, with x a permutation of its input. The sort
// is not stable.
//
//	par.SortFunc(t, people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
//
// SortFunc is the quicksort of Sort, with pdqsort as its kernel. It works
// in place: a parallel cut allocates a few words per block of 4,096
// elements.
//
// A nil t runs SortFunc on the default pool, and a cancelled context
// stops it, as they do Sort. SortFunc
// panics if cmp is nil, and with a *sched.PanicError if cmp panics. x is then a
// permutation of its input.
func SortFunc[S ~[]E, E any](t *sched.Task, x S, cmp func(a, b E) int) {
	checkLoop("SortFunc", cmp == nil)
	if t == nil {
		onDefault(func(t *sched.Task) { SortFunc(t, x, cmp) })
		return
	}
	if len(x) < 2 {
		return
	}
	sortFunc(t, []E(x), cmp, nil)
}

// SortStableFunc sorts x as SortFunc does, keeping the original order of
// equal elements, as slices.SortStableFunc does. It is a parallel merge
// sort: the halves are sorted in parallel, then merged in parallel, each
// merge cut where a binary search splits both halves. An x that is sorted
// costs one pass; one in strictly descending order, one pass and a
// reversal. Up to 2,048 elements, slices.SortStableFunc sorts x.
//
//	par.SortStableFunc(t, people, func(a, b Person) int { return strings.Compare(a.Name, b.Name) })
//
// SortStableFunc allocates one buffer of len(x) elements, unless x is
// short, sorted or strictly descending.
//
// A nil t runs SortStableFunc on the default pool, and a cancelled context
// stops it, as they do Sort.
// SortStableFunc panics if cmp is nil, and with a *sched.PanicError if cmp
// panics. x is then a permutation of its input: a merge that was writing
// x when cmp panicked copies its halves back from the buffer.
func SortStableFunc[S ~[]E, E any](t *sched.Task, x S, cmp func(a, b E) int) {
	checkLoop("SortStableFunc", cmp == nil)
	if t == nil {
		onDefault(func(t *sched.Task) { SortStableFunc(t, x, cmp) })
		return
	}
	if len(x) < 2 {
		return
	}
	sortStable(t, []E(x), cmp, nil)
}

// join2 is sched.JoinFunc, or with a meter, f and then g in the calling
// goroutine, as the meter's model of a join (see sortMeter).
func join2[A, B any](t *sched.Task, m *sortMeter, f func(*sched.Task, A), a A, g func(*sched.Task, B), b B) {
	if m == nil {
		sched.JoinFunc(t, f, a, g, b)
		return
	}
	m.fork()
	f(t, a)
	m.next()
	g(t, b)
	m.join()
}

// blocks is a parallel pass over the blocks [i*size, min((i+1)*size, n))
// of a range of n: body(t, lo, hi) for each.
type blocks struct {
	n, size int
	body    func(t *sched.Task, lo, hi int)
	m       *sortMeter
}

// forBlocks calls body for each block of a range of n, in parallel, in
// tasks that halve the blocks between them. Its span is a block's.
func forBlocks(t *sched.Task, m *sortMeter, n, size int, body func(t *sched.Task, lo, hi int)) {
	if n <= 0 {
		return
	}
	blockTask(t, blockSpan{p: &blocks{n: n, size: size, body: body, m: m}, lo: 0, hi: (n + size - 1) / size})
}

// blockSpan is a run of blocks of a pass: those from lo to hi-1.
type blockSpan struct {
	p      *blocks
	lo, hi int
}

// blockTask runs the blocks of s, forking half of them while it has more
// than one.
func blockTask(t *sched.Task, s blockSpan) {
	for s.hi-s.lo > 1 {
		mid := s.lo + (s.hi-s.lo)/2
		join2(t, s.p.m, blockTask, blockSpan{s.p, s.lo, mid}, blockTask, blockSpan{s.p, mid, s.hi})
		return
	}
	p := s.p
	p.body(t, s.lo*p.size, min(p.n, (s.lo+1)*p.size))
}

// cancelled reports whether t's context is done: a sort then stops where
// it may leave its parts as they are, a permutation of its input (at a
// split in place, before a merge sort's level), and never inside a pass
// that moves elements.
func cancelled(t *sched.Task) bool { return t.Context().Err() != nil }

// sortedProbe is how many elements at the front of x are checked on the
// calling worker before a parallel pass checks the rest: a random x ends
// the check there.
const sortedProbe = 32

// presorted returns true when x is sorted in ascending order, or was in
// descending order and is now reversed. order(y, up, down) reports
// whether y is sorted (if up asks), and whether it is in the order that
// reverses into a sorted one (if down asks). The check runs in parallel
// blocks, each of which also checks the element before it; a block checks
// only the orders that no other block has ruled out.
func presorted[E any](t *sched.Task, m *sortMeter, x []E, order func(y []E, up, down bool) (bool, bool)) bool {
	if len(x) <= sortBlock { // on this worker
		up, down := order(x, true, true)
		if !up && down {
			reverse(x)
		}
		return up || down
	}
	probe := x[:sortedProbe]
	up, down := order(probe, true, true)
	if !up && !down {
		return false
	}
	// notUp and notDown are set by the blocks that find x out of either
	// order.
	var notUp, notDown atomic.Bool
	notUp.Store(!up)
	notDown.Store(!down)
	forBlocks(t, m, len(x)-len(probe), sortBlock, func(t *sched.Task, lo, hi int) {
		u, d := order(x[len(probe)+lo-1:len(probe)+hi], !notUp.Load(), !notDown.Load())
		if !u {
			notUp.Store(true)
		}
		if !d {
			notDown.Store(true)
		}
	})
	switch {
	case !notUp.Load():
		return true
	case !notDown.Load():
		forBlocks(t, m, len(x)/2, sortBlock, func(t *sched.Task, lo, hi int) {
			n := len(x)
			for i := lo; i < hi; i++ {
				x[i], x[n-1-i] = x[n-1-i], x[i]
			}
		})
		return true
	}
	return false
}

// sortMeter is a model of a sort's parallel run, for a test: the sort's
// work and span, in the units that tick counts. With a meter, the sort runs
// on one goroutine, each join as f and then g; the meter keeps a clock per
// strand, and a join ends at the later of its two strands' clocks, as
// Cilkview's work and span analysis does. Its methods are no-ops on a nil
// meter, which is how the sorts run.
type sortMeter struct {
	work  int64   // every tick
	clock int64   // the ticks on the path to the current strand
	marks []int64 // per open join: its start, then the end of its f
}

// tick adds n units of work to the current strand.
func (m *sortMeter) tick(n int) {
	if m != nil {
		m.work += int64(n)
		m.clock += int64(n)
	}
}

// fork starts a join's f.
func (m *sortMeter) fork() { m.marks = append(m.marks, m.clock) }

// next ends a join's f and starts its g, from the clock at the fork.
func (m *sortMeter) next() {
	i := len(m.marks) - 1
	m.marks[i], m.clock = m.clock, m.marks[i]
}

// join ends a join: its clock is the later of its strands'.
func (m *sortMeter) join() {
	i := len(m.marks) - 1
	m.clock = max(m.clock, m.marks[i])
	m.marks = m.marks[:i]
}
