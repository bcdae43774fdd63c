package sched

import (
	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
)

// DefaultQueue returns a new empty queue of the recommended implementation,
// the one a Config with a nil NewQueue gets: a blockq.Queue with its default
// options, which never refuses a push, costs the owner one compare-and-swap
// per push, batch or pop, lets any number of thieves take a proportion of
// its items at once, and hands a stolen part to the master's waiting worker
// without copying it. A program that does not measure alternatives should
// use it.
func DefaultQueue[T any]() wsq.Queue[T] {
	return blockq.New[T]()
}
