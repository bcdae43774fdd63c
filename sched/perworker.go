package sched

import (
	"iter"

	"github.com/worksteal/wsq/internal/pad"
)

// PerWorker holds one value of type S for each worker of a Run or a Pool:
// counters, scratch buffers or partial results. A worker updates its own
// without locks, and the program combines them after the run. Each value
// sits on cache lines of its own. Workers that write their own values side
// by side in a plain []S would slow each other down (false sharing).
//
// Size it with the number of workers: Config.Workers for Run (set it, so
// that the count cannot change), Pool.Workers for a Pool.
type PerWorker[S any] struct {
	values []paddedValue[S]
}

type paddedValue[S any] struct {
	v S
	_ pad.Line
}

// NewPerWorker returns a PerWorker with n zero values, for workers 0 to
// n-1. It panics if n is negative.
func NewPerWorker[S any](n int) *PerWorker[S] {
	return &PerWorker[S]{values: make([]paddedValue[S], n)}
}

// Get returns the value of the worker with the given ID (Worker.ID,
// Task.WorkerID). During a run, only that worker may use it; not a task in
// the function of its Task.Block, while another goroutine runs the worker.
// After the run, anyone may: after Run or Pool.Close returns, or after a
// Wait or Join for the tasks that used it.
func (p *PerWorker[S]) Get(id int) *S { return &p.values[id].v }

// All yields each worker's ID and value, in order of ID, for combining the
// values after a run.
func (p *PerWorker[S]) All() iter.Seq2[int, *S] {
	return func(yield func(int, *S) bool) {
		for i := range p.values {
			if !yield(i, &p.values[i].v) {
				return
			}
		}
	}
}
