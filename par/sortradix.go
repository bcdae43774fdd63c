package par

import (
	"cmp"
	"math/bits"
	"sync"
)

// The kernel of Sort for the integer types: a most-significant-digit
// radix sort, from the highest bit in which the keys of a leaf differ. A
// pass counts the digits of its elements, then moves each to its digit's
// bucket in a scratch slice; the buckets are sorted by the next digit,
// moving back. It makes no comparison but in buckets of a few elements,
// and its passes run on a leaf that stays in a core's cache.

const (
	// radixDigit is the widest digit of a pass, in bits.
	radixDigit = 8
	// radixInsertion is the longest bucket that insertion sort sorts.
	radixInsertion = 32
	// radixMin is the shortest leaf that the radix sort takes: a shorter
	// one is not worth its scratch.
	radixMin = 256
)

// integer is the element types of the radix kernel.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// radixSorter returns the radix sort of the element type E, or nil if E
// is not one of the integer types (a type defined from one, as type Age
// int, is not).
func radixSorter[E any]() func(x, buf []E, m *sortMeter) {
	var f any
	switch any(*new(E)).(type) {
	case int:
		f = radixSort[int]
	case int8:
		f = radixSort[int8]
	case int16:
		f = radixSort[int16]
	case int32:
		f = radixSort[int32]
	case int64:
		f = radixSort[int64]
	case uint:
		f = radixSort[uint]
	case uint8:
		f = radixSort[uint8]
	case uint16:
		f = radixSort[uint16]
	case uint32:
		f = radixSort[uint32]
	case uint64:
		f = radixSort[uint64]
	case uintptr:
		f = radixSort[uintptr]
	}
	rs, _ := f.(func(x, buf []E, m *sortMeter))
	return rs
}

// radixSort sorts x with buf, as long, as scratch.
func radixSort[E integer](x, buf []E, m *sortMeter) { newRadixKey[E]().sort(x, buf, m) }

// radixKernel returns the quicksort kernel of a sort of n elements by the
// radix sort rs. Its leaves take scratch slices of up to radixLeaf
// elements from a pool: one per worker that sorts a leaf at a time, reused
// from leaf to leaf.
func radixKernel[E cmp.Ordered](rs func(x, buf []E, m *sortMeter), n int, m *sortMeter) func(data []E, a, b, limit int) {
	size := min(n, radixLeaf)
	scratch := sync.Pool{New: func() any {
		buf := make([]E, size)
		return &buf
	}}
	return func(data []E, a, b, limit int) {
		x := data[a:b]
		if len(x) < radixMin || len(x) > size {
			// Short, or left whole after too many unbalanced cuts.
			pdqMetered(data, a, b, limit, m)
			return
		}
		buf := scratch.Get().(*[]E)
		rs(x, (*buf)[:len(x)], m)
		scratch.Put(buf)
	}
}

// radixKey maps an integer of type E to a uint64 key in the same order:
// its bits, with the sign bit of a signed type flipped.
type radixKey[E integer] struct {
	mask uint64 // the bits of E
	flip uint64 // the sign bit of E if E is signed, else zero
}

// newRadixKey returns the key of E.
func newRadixKey[E integer]() radixKey[E] {
	w := 0
	for v := E(1); v != 0; v <<= 1 {
		w++
	}
	k := radixKey[E]{mask: ^uint64(0) >> (64 - w)}
	if E(0)-1 < 0 {
		k.flip = 1 << (w - 1)
	}
	return k
}

// of returns the key of e.
func (k radixKey[E]) of(e E) uint64 { return uint64(e)&k.mask ^ k.flip }

// sort sorts x with buf, as long, as scratch.
func (k radixKey[E]) sort(x, buf []E, m *sortMeter) {
	var diff uint64 // the bits in which some key differs from x[0]'s
	k0 := uint64(x[0])
	for _, e := range x {
		diff |= uint64(e) ^ k0
	}
	m.tick(len(x))
	if diff &= k.mask; diff != 0 {
		k.pass(x, buf, uint(bits.Len64(diff)), false, m)
	}
}

// pass sorts src, whose keys agree above bit shift, by their bits below
// it, with dst (as long) as scratch. The result ends in dst if toDst, in
// src if not. A digit in which all keys agree is skipped after its count.
func (k radixKey[E]) pass(src, dst []E, shift uint, toDst bool, m *sortMeter) {
	n := len(src)
	if n <= radixInsertion {
		m.tick(n * n / 4)
		insertionOrdered(src)
		if toDst {
			copy(dst, src)
		}
		return
	}
	var count [1 << radixDigit]int
	var r, s uint // the digit's width and shift
	for {
		r = min(radixDigit, shift, uint(max(1, bits.Len(uint(n))-3)))
		s = shift - r
		mask := uint64(1)<<r - 1
		c := count[:1<<r]
		clear(c)
		for _, e := range src {
			c[k.of(e)>>s&mask]++
		}
		m.tick(n)
		if c[k.of(src[0])>>s&mask] < n {
			break // more than one bucket
		}
		if s == 0 { // every key is equal
			if toDst {
				copy(dst, src)
			}
			return
		}
		shift = s
	}
	mask := uint64(1)<<r - 1
	var next [1 << radixDigit]int
	sum := 0
	for d, c := range count[:1<<r] {
		next[d] = sum
		sum += c
	}
	for _, e := range src {
		d := k.of(e) >> s & mask
		dst[next[d]] = e
		next[d]++
	}
	m.tick(n)
	lo := 0
	for _, c := range count[:1<<r] {
		switch {
		case c == 0:
		case c == 1 || s == 0: // sorted: it belongs in src
			if !toDst {
				copy(src[lo:lo+c], dst[lo:lo+c])
			}
		default:
			k.pass(dst[lo:lo+c], src[lo:lo+c], s, !toDst, m)
		}
		lo += c
	}
}
