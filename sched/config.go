package sched

import (
	"fmt"
	"runtime"

	wsq "github.com/worksteal/wsq"
	"github.com/worksteal/wsq/blockq"
)

// Mode selects how a scheduler balances load between its workers.
type Mode int

const (
	// Random is decentralized randomized stealing, the default (the zero
	// Mode). A worker that runs out of work visits the others from a
	// random starting point, and steals from the old end of the first
	// non-empty queue. A steal that reports wsq.Contended is tried once
	// more at the same queue, then elsewhere; one that reports wsq.Empty
	// moves on at once. Several thieves may meet at a queue, which every
	// wsq.Queue allows.
	Random Mode = iota
	// Master is the paper's master-worker balancing. A worker that runs
	// out of work tells the masters and waits. A master, the only thief,
	// takes a proportion of the longest queue from its old end in one
	// operation, and the worker pushes it into its own queue. Up to 16
	// workers, each queue has at most two goroutines on it: its owner and
	// the master. Beyond, there is one master per 16 workers, each looking
	// at 16 queues per hand-off. From a wsq.Handoff queue, a large steal is
	// a Parcel that the worker links in without copying.
	//
	// A master is a goroutine beyond the workers. The Go runtime runs a
	// goroutine that a busy worker wakes on that worker's processor, after
	// its task, unless another processor takes it: a hand-off waits for
	// that. So a loop of steps, whose every step starts with a hand-off,
	// gains less in Master mode (BENCHMARKS.md has both modes).
	Master
)

// String returns the mode's name: "master" or "random".
func (m Mode) String() string {
	switch m {
	case Master:
		return "master"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// defaultSpin is the Spin of a Config that leaves it zero.
const defaultSpin = 4

// defaultMaxBlocked is the MaxBlocked of a Config that leaves it zero: as
// many blocking calls at once as Java's ForkJoinPool allows spare threads.
const defaultMaxBlocked = 256

// Config describes a scheduler: the workers of a Run or of a Pool. The zero
// Config is valid: GOMAXPROCS workers, each with the default queue, in
// Random mode.
type Config[T any] struct {
	// NewQueue returns a new empty queue. Run and NewPool call it once per
	// worker. Nil means the default queue, a blockq.Queue: the one a
	// program should use unless it measures others (see package catalog).
	// Any wsq.Queue works in both modes. Thieves steal with TrySteal and
	// TryStealBatch, which never wait for another thief.
	NewQueue func() wsq.Queue[T]

	// Workers is the number of worker goroutines; zero means
	// runtime.GOMAXPROCS(0). Set it to size per-worker state before a run
	// (see PerWorker). Master mode runs one more goroutine per 16 workers,
	// the masters, which sleep while no worker is idle.
	Workers int

	// Mode selects randomized stealing (the zero value) or master-worker
	// balancing.
	Mode Mode

	// Proportion is the part of a victim's queue that one steal takes, with
	// 0 < Proportion <= 1 (see wsq.StealCount). Zero means that each steal
	// chooses (see Load balancing in INTERNALS.md): the
	// default, for Run and for a Pool.
	Proportion float64

	// MaxBlocked is, for a Pool, the most functions of Task.Block that run
	// at once; zero means 256. A Block beyond it waits for one of them to
	// return, as with a semaphore, while its worker runs other tasks. Run
	// ignores it.
	MaxBlocked int

	// StealOne makes Random mode steal one item at a time with TrySteal,
	// as in Cilk, instead of a proportion with TryStealBatch. Master mode
	// ignores it. A Proportion of wsq.OneItem takes one item in both modes.
	StealOne bool

	// spin is the number of rounds an idle worker (in Random mode) or a
	// master looks for work, yielding between rounds, before it parks.
	spin int
}

// workerCount returns the number of workers of c: c.Workers, or
// runtime.GOMAXPROCS(0) when that is zero.
func (c Config[T]) workerCount() int {
	if c.Workers == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return c.Workers
}

// defaultQueue returns a new empty queue of the recommended implementation,
// the one a Config with a nil NewQueue gets: a blockq.Queue. It never
// refuses a push. Its owner pushes and pops without a locked instruction
// while it holds its newest items from thieves. Any number of thieves may
// take a proportion of it at once, and a master hands a stolen part to a
// worker without copying it.
func defaultQueue[T any]() wsq.Queue[T] {
	return blockq.New[T]()
}
