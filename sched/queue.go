package sched

import (
	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
)

// defaultQueue returns a new empty queue of the recommended implementation,
// the one a Config with a nil NewQueue gets: a blockq.Queue. It never
// refuses a push, costs its owner one compare-and-swap per push, batch or
// pop, lets any number of thieves take a proportion of it at once, and
// hands a stolen part to a master's worker without copying it.
func defaultQueue[T any]() wsq.Queue[T] {
	return blockq.New[T]()
}
