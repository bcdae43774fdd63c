// Package par holds the parallel algorithms built on package sched: loops
// over a range, a slice or an iter.Seq, reductions and sorts. Each splits
// its work into tasks of a sched.Pool by demand, and its caller's worker
// helps run them. A program's first line is often a loop from main, in one
// statement:
//
//	par.For(nil, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
//
// The nil says that the caller is not a task: the loop runs on sched's
// default pool (see sched.Default), and For returns when it is done. A task
// passes its own t instead: the loop then runs on t's pool, and t's worker
// runs its parts while it waits. A nil from a task panics, since its wait
// would block its worker.
//
//	function                   does                                      as
//	For, ForRange              body(i), or body(lo, hi) per chunk        a for loop
//	ForErr, ForRangeErr        the same, stopping at the first error     errgroup
//	Map, MapErr                f(s[i]) into a new slice                  conc's iter.Map
//	Reduce, ReduceRange        a fold in an order fixed by the indices   a serial fold
//	Sort, SortFunc             an unstable sort in place                 slices.Sort, slices.SortFunc
//	SortStableFunc             a stable sort                             slices.SortStableFunc
//	ForEach, ForEachErr        body(x) for each item of an iter.Seq      for x := range seq
//	MapSeq, MapSeqErr          f(x) for each item, out in seq's order    rill's OrderedMap
//
// # Splitting by demand
//
// A range splits by demand: between chunks, a worker that sees k workers
// look for work (sched.Task.Demand) keeps 1/(k+1) of its remaining
// iterations and forks the rest as k parts. So there is no grain to
// choose (Loop sets one, for users who know theirs). With nobody looking, a
// loop runs serially on its worker. A nested loop finds the outer loop's
// parts in its worker's queue, and so does not split: nesting never
// oversubscribes. A program that splits its own work does the same with
// sched's exported API alone, as this package does.
//
// A body gets the Task of the part that runs it, for a nested loop, a
// sched.Fork or Task.Block.
//
// # Cancellation
//
// One rule: every function of the package stops when its Task's context
// is done. It starts no new chunk or item, and returns once the calls
// under way have. The ...Err forms and MapSeqErr then report
// context.Cause of the context; the others just return, and their caller
// learns it from t.Context().Err(). Code that is not a task starts from a
// context in sched.Do, whose Task has it:
//
//	err := sched.Do(ctx, func(t *sched.Task) error {
//		return par.ForErr(t, len(urls), func(t *sched.Task, i int) error { return fetch(t, urls[i]) })
//	})
//
// ForEach and MapSeq pull the items of an iter.Seq, a batch at a time, on
// the worker that runs out of items; the sequence itself runs on a
// goroutine of its own. MapSeq yields the results in the sequence's order,
// with at most a window of items in flight.
//
// # Measured runs
//
// In a measured run (sched.Pool.DoMeasured) each loop is a sched.Region: it
// counts its chunks as if all could run at once, whatever split the run
// chose, and the sorts count their splits as forks and joins.
//
// # Panics and Goexit
//
// A panic of a body reaches the caller as a *sched.PanicError, and a
// runtime.Goexit as a Goexit, as in sched. A mistake panics with a message
// that starts with "par: " (a nil function) or "sched: " (a misused Task).
package par
