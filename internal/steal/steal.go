// Package steal holds what the queue implementations share about a
// proportional steal and what their users need not see: the check of the
// proportion a thief passes to StealBatch or StealParcel. The public side,
// wsq.ValidProportion and wsq.StealCount, is built on it.
package steal

import "fmt"

// Valid reports whether p is a valid steal proportion: a number with
// 0 < p <= 1. NaN and the infinities are not valid.
func Valid(p float64) bool {
	return p > 0 && p <= 1 // false for NaN, which compares false with everything
}

// MustProportion panics with a message that names p unless Valid(p). The
// queue implementations call it at the start of StealBatch (and of their
// other proportional steals), before they touch the queue.
func MustProportion(p float64) {
	if !Valid(p) {
		panic(fmt.Sprintf("wsq: steal proportion %v is outside (0, 1]", p))
	}
}
