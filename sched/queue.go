package sched

import (
	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
)

// defaultQueue returns a new empty queue of the recommended implementation,
// the one a Config with a nil NewQueue gets: a blockq.Queue. It never
// refuses a push. Its owner pays one compare-and-swap per push, batch or
// pop. Any number of thieves may take a proportion of it at once, and a
// master hands a stolen part to a worker without copying it.
func defaultQueue[T any]() wsq.Queue[T] {
	return blockq.New[T]()
}
