package par

import (
	"cmp"
	"math/bits"
	"strings"
)

// The serial kernel of the unstable sorts: pattern-defeating quicksort
// (Peters, 2021) with the branchless block partition of BlockQuicksort
// (Edelkamp and Weiß, ESA 2016). A block partition first records, for a
// block of elements, the offsets of those on the wrong side, with no branch
// on the comparison: an offset is stored always, and the count grows by the
// comparison's result. Then it swaps the recorded elements pairwise. So a
// random input costs no mispredicted branch per comparison.
//
// Each function comes twice: for an ordered type, with cmp.Less written in
// place, and for a comparison function. They must stay alike, step for
// step: TestSortKernelsAgree runs both on inputs whose equal elements can
// be told apart, and compares their places.
//
// Every step moves elements by swaps, or holds one aside only where no
// comparison can run: a comparison function that panics leaves x a
// permutation of its input.

const (
	// insertionMax is the longest part that insertion sort sorts.
	insertionMax = 20
	// blockLen is the block of a block partition. Offsets fit in a byte.
	blockLen = 128
	// nintherMin is the shortest part whose pivot is a median of medians.
	nintherMin = 50
	// nearlySortedMin is the shortest part that nearlySorted tries to
	// finish by moving a few elements.
	nearlySortedMin = 50
	// nearlySortedFixes is how many misplaced elements it moves at most.
	nearlySortedFixes = 5
)

// sortHint is what the choice of a pivot saw of the order of a part.
type sortHint int

const (
	unknownOrder sortHint = iota
	ascendingOrder
	descendingOrder
)

// b2i returns 1 for true and 0 for false. The compiler turns it into a flag
// store (SETcc), not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// less is cmp.Less: x < y, a NaN below every other value. Written here,
// it costs no lookup of a generic function's dictionary in a hot loop, and
// for the types that have no NaN it is x < y alone.
func less[E cmp.Ordered](x, y E) bool { return x < y || (x != x && y == y) }

// pdqOrdered sorts data[a:b]. When a > 0, data[a-1] is no greater than any
// element of data[a:b]. limit is how many unbalanced cuts it may make before
// it turns to heapsort, which bounds it to O(n log n).
func pdqOrdered[E cmp.Ordered](data []E, a, b, limit int) {
	balanced, partitioned := true, true
	for {
		n := b - a
		if n <= insertionMax {
			insertionOrdered(data[a:b])
			return
		}
		if limit == 0 {
			heapOrdered(data[a:b])
			return
		}
		if !balanced {
			scramble(data[a:b])
			limit--
		}
		p, hint := pivotOrdered(data[a:b])
		p += a
		if hint == descendingOrder {
			reverse(data[a:b])
			p = b - 1 - (p - a)
			hint = ascendingOrder
		}
		if balanced && partitioned && hint == ascendingOrder && nearlySortedOrdered(data[a:b]) {
			return
		}
		if a > 0 && !less(data[a-1], data[p]) {
			// The pivot equals the part's lower bound: put the elements
			// equal to it first. They are in their places.
			mid, _ := cutOrdered(data[a:b], p-a, true)
			a += mid + 1
			continue
		}
		mid, already := cutOrdered(data[a:b], p-a, false)
		mid += a
		partitioned = already
		left, right := mid-a, b-mid-1
		balanced = min(left, right) >= n/8
		if left < right {
			pdqOrdered(data, a, mid, limit)
			a = mid + 1
		} else {
			pdqOrdered(data, mid+1, b, limit)
			b = mid
		}
	}
}

// pdqFunc is pdqOrdered with a comparison function.
func pdqFunc[E any](data []E, a, b, limit int, cmp func(a, b E) int) {
	balanced, partitioned := true, true
	for {
		n := b - a
		if n <= insertionMax {
			insertionFunc(data[a:b], cmp)
			return
		}
		if limit == 0 {
			heapFunc(data[a:b], cmp)
			return
		}
		if !balanced {
			scramble(data[a:b])
			limit--
		}
		p, hint := pivotFunc(data[a:b], cmp)
		p += a
		if hint == descendingOrder {
			reverse(data[a:b])
			p = b - 1 - (p - a)
			hint = ascendingOrder
		}
		if balanced && partitioned && hint == ascendingOrder && nearlySortedFunc(data[a:b], cmp) {
			return
		}
		if a > 0 && cmp(data[a-1], data[p]) >= 0 {
			mid, _ := cutFunc(data[a:b], p-a, true, cmp)
			a += mid + 1
			continue
		}
		mid, already := cutFunc(data[a:b], p-a, false, cmp)
		mid += a
		partitioned = already
		left, right := mid-a, b-mid-1
		balanced = min(left, right) >= n/8
		if left < right {
			pdqFunc(data, a, mid, limit, cmp)
			a = mid + 1
		} else {
			pdqFunc(data, mid+1, b, limit, cmp)
			b = mid
		}
	}
}

// sortLimit is the number of unbalanced cuts that a sort of n elements
// may make before it turns to heapsort.
func sortLimit(n int) int { return bits.Len(uint(n)) }

// cutOrdered moves x[p] to some place mid, the elements below it before
// mid and the others after it, and returns mid. With le, the elements
// equal to x[p] go before it too. already reports that x needed no move
// but the pivot's.
func cutOrdered[E cmp.Ordered](x []E, p int, le bool) (mid int, already bool) {
	x[0], x[p] = x[p], x[0]
	pivot := x[0]
	i, j := 1, len(x)
	if le {
		for i < j && !less(pivot, x[i]) {
			i++
		}
		for i < j && less(pivot, x[j-1]) {
			j--
		}
	} else {
		for i < j && less(x[i], pivot) {
			i++
		}
		for i < j && !less(x[j-1], pivot) {
			j--
		}
	}
	already = i >= j
	if !already {
		i += blockPartitionOrdered(x[i:j], pivot, le)
	}
	mid = i - 1
	x[0], x[mid] = x[mid], x[0]
	return mid, already
}

// cutFunc is cutOrdered with a comparison function.
func cutFunc[E any](x []E, p int, le bool, cmp func(a, b E) int) (mid int, already bool) {
	x[0], x[p] = x[p], x[0]
	pivot := x[0]
	i, j := 1, len(x)
	if le {
		for i < j && cmp(pivot, x[i]) >= 0 {
			i++
		}
		for i < j && cmp(pivot, x[j-1]) < 0 {
			j--
		}
	} else {
		for i < j && cmp(x[i], pivot) < 0 {
			i++
		}
		for i < j && cmp(x[j-1], pivot) >= 0 {
			j--
		}
	}
	already = i >= j
	if !already {
		i += blockPartitionFunc(x[i:j], pivot, le, cmp)
	}
	mid = i - 1
	x[0], x[mid] = x[mid], x[0]
	return mid, already
}

// blockPartitionOrdered moves the elements of x below pivot (with le, no
// greater than it) before the others, and returns how many there are. It
// is BlockQuicksort's partition: a block at each end records the offsets
// of its misplaced elements (offsetsOrdered), and the recorded elements
// swap in one cycle. The cycle holds one element aside, but runs no
// comparison.
func blockPartitionOrdered[E cmp.Ordered](x []E, pivot E, le bool) int {
	var offL, offR [blockLen]uint8
	l, r := 0, len(x) // x[:l] is done, and so is x[r:]
	lenL, lenR := blockLen, blockLen
	startL, endL, startR, endR := 0, 0, 0, 0 // offsets not yet swapped
	for {
		last := r-l <= 2*blockLen
		if last {
			// Shrink the blocks to what is left, keeping a block that
			// still has offsets whole.
			rest := r - l
			if startL < endL || startR < endR {
				rest -= blockLen
			}
			switch {
			case startL < endL:
				lenR = rest
			case startR < endR:
				lenL = rest
			default:
				lenL = rest / 2
				lenR = rest - lenL
			}
		}
		if startL == endL {
			startL, endL = 0, offsetsOrdered(x[l:l+lenL], pivot, le, false, &offL)
		}
		if startR == endR {
			startR, endR = 0, offsetsOrdered(x[r-lenR:r], pivot, le, true, &offR)
		}
		if k := min(endL-startL, endR-startR); k > 0 {
			swapCycle(x, l, r, offL[startL:startL+k], offR[startR:startR+k])
			startL += k
			startR += k
		}
		if startL == endL {
			l += lenL
		}
		if startR == endR {
			r -= lenR
		}
		if last {
			break
		}
	}
	return finishBlocks(x, l, r, offL[startL:endL], offR[startR:endR])
}

// blockPartitionFunc is blockPartitionOrdered with a comparison function.
// It is a copy, not one loop over an offsets kernel passed in: the arrays
// of offsets would then escape to the heap (TestSortKernelAllocs).
func blockPartitionFunc[E any](x []E, pivot E, le bool, cmp func(a, b E) int) int {
	var offL, offR [blockLen]uint8
	l, r := 0, len(x)
	lenL, lenR := blockLen, blockLen
	startL, endL, startR, endR := 0, 0, 0, 0
	for {
		last := r-l <= 2*blockLen
		if last {
			rest := r - l
			if startL < endL || startR < endR {
				rest -= blockLen
			}
			switch {
			case startL < endL:
				lenR = rest
			case startR < endR:
				lenL = rest
			default:
				lenL = rest / 2
				lenR = rest - lenL
			}
		}
		if startL == endL {
			startL, endL = 0, offsetsFunc(x[l:l+lenL], pivot, le, false, &offL, cmp)
		}
		if startR == endR {
			startR, endR = 0, offsetsFunc(x[r-lenR:r], pivot, le, true, &offR, cmp)
		}
		if k := min(endL-startL, endR-startR); k > 0 {
			swapCycle(x, l, r, offL[startL:startL+k], offR[startR:startR+k])
			startL += k
			startR += k
		}
		if startL == endL {
			l += lenL
		}
		if startR == endR {
			r -= lenR
		}
		if last {
			break
		}
	}
	return finishBlocks(x, l, r, offL[startL:endL], offR[startR:endR])
}

// offsetsOrdered records in off the offsets of the elements of xs that
// belong on the other side of pivot, and returns how many there are. A
// left block (!right) records those that belong after the pivot, a right
// block those that belong before it, counting from its end. With le, the
// elements equal to the pivot belong before it. The offset is stored
// whether or not the element belongs elsewhere; only the count depends on
// the comparison, so the loop has no branch on it.
func offsetsOrdered[E cmp.Ordered](xs []E, pivot E, le, right bool, off *[blockLen]uint8) int {
	if _, ok := any(*new(E)).(string); ok {
		// Neither a zero value nor a pointer allocates as an interface.
		return offsetsString(*any(&xs).(*[]string), *any(&pivot).(*string), le, right, off)
	}
	// o is off as a slice; a left block's loop ranges over xs, and a
	// right block's reads the last element of r, xs less those it has
	// read. The compiler then keeps the loops' values in registers.
	n, o := 0, off[:]
	switch {
	case !right && !le:
		for i, e := range xs {
			o[n&(blockLen-1)] = uint8(i)
			n += b2i(!less(e, pivot))
		}
	case !right && le:
		for i, e := range xs {
			o[n&(blockLen-1)] = uint8(i)
			n += b2i(less(pivot, e))
		}
	case right && !le:
		r := xs
		for i := 0; len(r) > 0; i++ {
			o[n&(blockLen-1)] = uint8(i)
			n += b2i(less(r[len(r)-1], pivot))
			r = r[:len(r)-1]
		}
	default:
		r := xs
		for i := 0; len(r) > 0; i++ {
			o[n&(blockLen-1)] = uint8(i)
			n += b2i(!less(pivot, r[len(r)-1]))
			r = r[:len(r)-1]
		}
	}
	return n
}

// offsetsFunc is offsetsOrdered with a comparison function.
func offsetsFunc[E any](xs []E, pivot E, le, right bool, off *[blockLen]uint8, cmp func(a, b E) int) int {
	n := 0
	switch {
	case !right && !le:
		for i := range xs {
			off[n&(blockLen-1)] = uint8(i)
			n += b2i(cmp(xs[i], pivot) >= 0)
		}
	case !right && le:
		for i := range xs {
			off[n&(blockLen-1)] = uint8(i)
			n += b2i(cmp(pivot, xs[i]) < 0)
		}
	case right && !le:
		for i, j := 0, len(xs)-1; j >= 0; i, j = i+1, j-1 {
			off[n&(blockLen-1)] = uint8(i)
			n += b2i(cmp(xs[j], pivot) < 0)
		}
	default:
		for i, j := 0, len(xs)-1; j >= 0; i, j = i+1, j-1 {
			off[n&(blockLen-1)] = uint8(i)
			n += b2i(cmp(pivot, xs[j]) >= 0)
		}
	}
	return n
}

// swapCycle swaps x[l+offL[k]] with x[r-1-offR[k]] for every k, as one
// cycle: each element moves once, and one waits aside. offR is at least
// as long as offL, which is not empty.
func swapCycle[E any](x []E, l, r int, offL, offR []uint8) {
	offR = offR[:len(offL)]
	i, j := l+int(offL[0]), r-1-int(offR[0])
	held := x[i]
	x[i] = x[j]
	for k := 1; k < len(offL); k++ {
		i = l + int(offL[k])
		x[j] = x[i]
		j = r - 1 - int(offR[k])
		x[i] = x[j]
	}
	x[j] = held
}

// finishBlocks ends a block partition of x, in which x[:l] belongs before
// the pivot and x[r:] after it, and the misplaced elements left are those
// of one block: offL of the block at l, or offR of the block that ends at
// r. It swaps them to the block's far side, and returns where the two
// sides meet.
func finishBlocks[E any](x []E, l, r int, offL, offR []uint8) int {
	if len(offL) > 0 {
		// The block x[l:r] belongs before the pivot but for offL: swap
		// those, from the last, to the end.
		for k := len(offL) - 1; k >= 0; k-- {
			i := l + int(offL[k])
			r--
			x[i], x[r] = x[r], x[i]
		}
		return r
	}
	for k := len(offR) - 1; k >= 0; k-- {
		i := r - 1 - int(offR[k])
		x[i], x[l] = x[l], x[i]
		l++
	}
	return l
}

// insertionOrdered sorts x by insertion. An ordered type cannot panic in
// a comparison, so the element being placed may wait aside.
func insertionOrdered[E cmp.Ordered](x []E) {
	for i := 1; i < len(x); i++ {
		v := x[i]
		j := i
		for ; j > 0 && less(v, x[j-1]); j-- {
			x[j] = x[j-1]
		}
		x[j] = v
	}
}

// insertionFunc sorts x by insertion, with swaps: a comparison may panic.
func insertionFunc[E any](x []E, cmp func(a, b E) int) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && cmp(x[j], x[j-1]) < 0; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// heapOrdered sorts x by heapsort.
func heapOrdered[E cmp.Ordered](x []E) {
	for i := len(x)/2 - 1; i >= 0; i-- {
		siftOrdered(x, i)
	}
	for n := len(x) - 1; n > 0; n-- {
		x[0], x[n] = x[n], x[0]
		siftOrdered(x[:n], 0)
	}
}

// siftOrdered moves x[i] down the heap x until no child is above it.
func siftOrdered[E cmp.Ordered](x []E, i int) {
	for {
		c := 2*i + 1
		if c >= len(x) {
			return
		}
		if c+1 < len(x) && less(x[c], x[c+1]) {
			c++
		}
		if !less(x[i], x[c]) {
			return
		}
		x[i], x[c] = x[c], x[i]
		i = c
	}
}

// heapFunc is heapOrdered with a comparison function.
func heapFunc[E any](x []E, cmp func(a, b E) int) {
	for i := len(x)/2 - 1; i >= 0; i-- {
		siftFunc(x, i, cmp)
	}
	for n := len(x) - 1; n > 0; n-- {
		x[0], x[n] = x[n], x[0]
		siftFunc(x[:n], 0, cmp)
	}
}

// siftFunc is siftOrdered with a comparison function.
func siftFunc[E any](x []E, i int, cmp func(a, b E) int) {
	for {
		c := 2*i + 1
		if c >= len(x) {
			return
		}
		if c+1 < len(x) && cmp(x[c], x[c+1]) < 0 {
			c++
		}
		if cmp(x[i], x[c]) >= 0 {
			return
		}
		x[i], x[c] = x[c], x[i]
		i = c
	}
}

// pivotOrdered returns the index of a pivot for x: the median of three
// elements, or for a long x the median of three medians of three (Tukey's
// ninther). The hint says whether the elements it looked at were in
// ascending or descending order.
func pivotOrdered[E cmp.Ordered](x []E) (int, sortHint) {
	n := len(x)
	i, j, k := n/4, n/2, n/4*3
	swaps, most := 0, 3
	if n >= nintherMin {
		i = median3Ordered(x, i-1, i, i+1, &swaps)
		j = median3Ordered(x, j-1, j, j+1, &swaps)
		k = median3Ordered(x, k-1, k, k+1, &swaps)
		most = 12
	}
	j = median3Ordered(x, i, j, k, &swaps)
	return j, orderHint(swaps, most)
}

// median3Ordered returns the index of the median of x[a], x[b] and x[c],
// and counts in swaps how many of its three comparisons found a pair out of
// order.
func median3Ordered[E cmp.Ordered](x []E, a, b, c int, swaps *int) int {
	if less(x[b], x[a]) {
		a, b = b, a
		*swaps++
	}
	if less(x[c], x[b]) {
		b = c
		*swaps++
	}
	if less(x[b], x[a]) {
		b = a
		*swaps++
	}
	return b
}

// pivotFunc is pivotOrdered with a comparison function.
func pivotFunc[E any](x []E, cmp func(a, b E) int) (int, sortHint) {
	n := len(x)
	i, j, k := n/4, n/2, n/4*3
	swaps, most := 0, 3
	if n >= nintherMin {
		i = median3Func(x, i-1, i, i+1, &swaps, cmp)
		j = median3Func(x, j-1, j, j+1, &swaps, cmp)
		k = median3Func(x, k-1, k, k+1, &swaps, cmp)
		most = 12
	}
	j = median3Func(x, i, j, k, &swaps, cmp)
	return j, orderHint(swaps, most)
}

// median3Func is median3Ordered with a comparison function.
func median3Func[E any](x []E, a, b, c int, swaps *int, cmp func(a, b E) int) int {
	if cmp(x[b], x[a]) < 0 {
		a, b = b, a
		*swaps++
	}
	if cmp(x[c], x[b]) < 0 {
		b = c
		*swaps++
	}
	if cmp(x[b], x[a]) < 0 {
		b = a
		*swaps++
	}
	return b
}

// orderHint reads the count of out-of-order pairs that a pivot's choice
// saw, of most possible.
func orderHint(swaps, most int) sortHint {
	switch swaps {
	case 0:
		return ascendingOrder
	case most:
		return descendingOrder
	}
	return unknownOrder
}

// nearlySortedOrdered sorts x if a few moves do it, and reports whether x
// is sorted. It moves at most nearlySortedFixes misplaced elements, each to
// its place by insertion, and none in a short x.
func nearlySortedOrdered[E cmp.Ordered](x []E) bool {
	i := 1
	for range nearlySortedFixes {
		for i < len(x) && !less(x[i], x[i-1]) {
			i++
		}
		if i == len(x) {
			return true
		}
		if len(x) < nearlySortedMin {
			return false
		}
		x[i], x[i-1] = x[i-1], x[i]
		for j := i - 1; j > 0 && less(x[j], x[j-1]); j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
		for j := i + 1; j < len(x) && less(x[j], x[j-1]); j++ {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
	return false
}

// nearlySortedFunc is nearlySortedOrdered with a comparison function.
func nearlySortedFunc[E any](x []E, cmp func(a, b E) int) bool {
	i := 1
	for range nearlySortedFixes {
		for i < len(x) && cmp(x[i], x[i-1]) >= 0 {
			i++
		}
		if i == len(x) {
			return true
		}
		if len(x) < nearlySortedMin {
			return false
		}
		x[i], x[i-1] = x[i-1], x[i]
		for j := i - 1; j > 0 && cmp(x[j], x[j-1]) < 0; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
		for j := i + 1; j < len(x) && cmp(x[j], x[j-1]) < 0; j++ {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
	return false
}

// scramble swaps three elements in the middle of x with others at
// places drawn from a generator seeded by len(x), to break a pattern that
// cut x badly.
func scramble[E any](x []E) {
	n := len(x)
	if n < 8 {
		return
	}
	r := uint64(n)
	mask := uint64(1)<<bits.Len(uint(n)) - 1
	for i := n/4*2 - 1; i <= n/4*2+1; i++ {
		r ^= r << 13 // xorshift64
		r ^= r >> 7
		r ^= r << 17
		j := int(r & mask)
		if j >= n {
			j -= n
		}
		x[i], x[j] = x[j], x[i]
	}
}

// reverse reverses x.
func reverse[E any](x []E) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

// offsetsString is offsetsOrdered for strings. A string of eight bytes or
// more is compared by its first eight, read as an integer, with no call and
// no branch on the result; only when they equal the pivot's, or for a
// shorter string, does it call strings.Compare. So the loads of the
// strings' bytes, which miss the cache in a long part, overlap.
func offsetsString(xs []string, pivot string, le, right bool, off *[blockLen]uint8) int {
	pp := prefix8(pivot)
	thr := b2i(le) // an element belongs after the pivot if it compares at or above thr
	n := 0
	if !right {
		for i, e := range xs {
			c := 0
			if len(e) >= 8 {
				pe := load8(e)
				c = b2i(pe > pp) - b2i(pe < pp)
			}
			if c == 0 {
				c = strings.Compare(e, pivot)
			}
			off[n&(blockLen-1)] = uint8(i)
			n += b2i(c >= thr)
		}
		return n
	}
	for i, j := 0, len(xs)-1; j >= 0; i, j = i+1, j-1 {
		e := xs[j]
		c := 0
		if len(e) >= 8 {
			pe := load8(e)
			c = b2i(pe > pp) - b2i(pe < pp)
		}
		if c == 0 {
			c = strings.Compare(e, pivot)
		}
		off[n&(blockLen-1)] = uint8(i)
		n += b2i(c < thr)
	}
	return n
}

// prefix8 returns the first eight bytes of s as a big-endian integer,
// zeros past its end. Two strings whose prefixes differ are in the order
// of their prefixes.
func prefix8(s string) uint64 {
	if len(s) >= 8 {
		return load8(s)
	}
	return prefixShort(s)
}

// load8 returns the first eight bytes of s, which has at least eight, as a
// big-endian integer. The compiler makes it one load and a byte swap.
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
		uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
}

// prefixShort is prefix8 of a string shorter than eight bytes.
func prefixShort(s string) uint64 {
	var p uint64
	for i := 0; i < len(s) && i < 8; i++ {
		p |= uint64(s[i]) << (56 - 8*i)
	}
	return p
}
