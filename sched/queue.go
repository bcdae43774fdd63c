package sched

import (
	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/chaselev"
)

// defaultQueueCapacity is the initial capacity of DefaultQueue's deques,
// that of the catalog's cl-ub, so that the two compare like for like.
const defaultQueueCapacity = 1 << 10

// DefaultQueue returns a new empty queue of the recommended implementation,
// the one a Config with a nil NewQueue gets: an unbounded Chase-Lev deque
// (chaselev.NewUnbounded), which never refuses a push, costs the owner one
// atomic store per push or pop in the common case, and takes a proportion
// of its items in one batch steal. A program that does not measure
// alternatives should use it.
func DefaultQueue[T any]() wsq.Queue[T] {
	return chaselev.NewUnbounded[T](defaultQueueCapacity)
}
