// Command quicksort sorts a slice of integers by parallel quicksort on the
// fork-join tasks of a sched.Pool, and checks the result against the
// standard library's slices.Sort: ordinary parallel work, written as the
// serial recursion with one sched.Join added.
//
// Usage:
//
//	go run ./examples/quicksort [-n 10,000,000] [-input random] [-seed 1]
//	                            [-cutoff 4,096] [-queue bq] [-mode random] [-workers 0]
//
// Flags:
//
//	-n         number of integers, 0 to 100,000,000 (default 10,000,000)
//	-input     random (uniform 64-bit values, the default), few (values 0
//	           to 9, many duplicates), sorted or reversed
//	-seed      seed of the random inputs (default 1)
//	-cutoff    parts of at most this many integers are sorted serially with
//	           slices.Sort in one task, at least 2 (default 4,096)
//	-queue     queue implementation, any name of package catalog (default
//	           bq, blockq, as in the other examples)
//	-mode      random (randomized stealing, the default) or master
//	-workers   number of workers; 0 (the default) means GOMAXPROCS; at most
//	           1,024
//	-progress  show a progress line on stderr (default true)
//	-h         print a one-line description and the flags, and exit
//
// The progress line shows the integers in finished parts, the rate and the
// expected time left; it is shown only when stderr is a terminal. Numbers
// are printed grouped by thousands, and may be given so.
//
// # The sort
//
// A task partitions its part of the slice around the median of its first,
// middle and last elements (Hoare's scheme, which both halves leave
// non-empty) and sorts the two halves with sched.Join, which puts the left
// half into the worker's queue as a new task that another worker may
// steal, sorts the right half itself, and then sorts the left half too,
// unless a thief took it, or waits for the thief, running other tasks
// meanwhile:
//
//	sched.Join(t, sort, xs[p:], sort, xs[:p])
//
// The two halves are disjoint subslices, so the tasks share no element, and
// Join orders the left half's writes before its return. A part of
// at most -cutoff integers is sorted serially, which keeps each task long
// enough (about 200 µs at the default) that the cost of a task, a few
// tens of nanoseconds, does not show. The program times slices.Sort on a
// copy of the input, then the parallel sort, and prints the speedup.
//
// # Verification
//
// The program checks that the parallel result equals the copy sorted by
// slices.Sort, element by element (so it is sorted, and a permutation of the
// input). It prints a line starting with "verified:" and exits 0 on
// success, exits 1 if the check fails, and exits 2 on bad flags, with one
// message and the hint "run with -h for help".
package main
