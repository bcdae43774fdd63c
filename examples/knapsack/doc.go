// Command knapsack solves 0/1 knapsack problems by parallel branch and bound
// over the work-stealing scheduler (package sched), in the shape of the
// solver the bulk lock-free queue was built for, and proves each answer
// optimal against dynamic programming.
//
// Usage:
//
//	go run ./examples/knapsack [-n 100] [-type strong] [-seed 1] [-range 1000] [-capacity 0]
//	go run ./examples/knapsack -file examples/knapsack/testdata/sample.txt
//
// Common flags: -queue (any name of package catalog, default bq, the
// recommended blockq), -mode (master, the paper's master-worker balancing
// and the default, or random), -workers (0 means GOMAXPROCS; at most 1,024)
// and -proportion (the part of a victim's queue one steal takes, or auto,
// the default: each steal chooses). -check=false skips the
// dynamic-programming check (see Verification), -progress=false turns off
// the progress line, and -h prints a one-line description and the flags.
//
// While the search runs, a progress line on stderr shows the nodes handled,
// the rate and the best value found so far, and while the DP check runs, the
// items done and the time left; the line is shown only when stderr is a
// terminal. Numbers are printed grouped by thousands, and may be given so.
//
// # Instances
//
// An instance is generated from a seed: -n items with weights drawn
// uniformly from 1 to -range, and values by -type, the classic correlation
// types of knapsack test sets:
//
//	uncorrelated  value uniform in 1..range
//	weak          value = weight ± range/10, at least 1
//	strong        value = weight + range/10 (the default)
//	subset        value = weight (subset sum)
//
// The capacity is -capacity, or half the total weight when it is 0. These
// flags describe a generated instance, and are refused with -file. Strongly
// correlated instances are the hard ones for the fractional bound, and their
// difficulty varies much with the seed: the default instance takes about
// 330,000 nodes, -seed 2 takes about 38 million, and uncorrelated or weakly
// correlated instances of the same size take a few hundred.
//
// Or it is read from a text file given by -file: the first line holds the
// item count n and the capacity, then come n lines with the value and the
// weight of one item, all non-negative integers separated by blanks (weights
// at least 1). Blank lines and lines that start with # are ignored. For
// example:
//
//	# 4 items, capacity 10
//	4 10
//	10 5
//	40 4
//	30 6
//	50 3
//
// A malformed file is reported with its line number and exit status 2, and
// a -file that is missing or is a directory is refused as a bad flag.
//
// # The search
//
// Items are sorted by value density (value per unit of weight). A node of the
// search tree is a partial solution: the items taken so far, all from the
// sorted items before position i, and nothing decided after i. Its children
// are the solutions that take one more item j >= i (skipping the items between
// i and j), so every subset is reached exactly once, and a node yields all its
// children as one batch (Worker.Spawn), as the decision-diagram nodes of the
// paper's solver do. Every node is itself a feasible solution; the best one
// found so far, the incumbent, is shared by all workers through an atomic
// pointer and starts as the greedy solution. A node is pruned when the
// fractional (linear-programming) relaxation over its remaining items, which
// takes items in density order and a fraction of the first that does not fit,
// cannot beat the incumbent. Because that bound only falls as more leading
// items are skipped, a node stops generating children at the first j whose
// bound fails.
//
// The search runs on sched.Run rather than on a sched.Pool: no node waits
// for its children (the incumbent collects the result), so a handler that
// spawns them and returns is all it takes. Each worker keeps its counters
// and its reusable slice of children in a sched.PerWorker, on cache lines of
// its own.
//
// # Verification
//
// The program solves the same instance by dynamic programming over the
// capacity, and checks that the branch-and-bound value equals the DP optimum
// and that the chosen items fit and are worth that value. The DP takes time
// proportional to n × capacity and memory proportional to the capacity, so
// an instance with more than 2³⁰ (about a billion) cells is refused unless
// -check=false skips the DP; the chosen items are still checked then, but
// not the optimality of their value. The program prints the taken items (the
// first 30 of a longer list) and a line starting with "verified:", and exits
// 0 on success; it exits 1 if a check fails, and 2 on bad flags (with one
// message and the hint "run with -h for help"), a bad instance file, or an
// instance too large for the DP check.
package main
