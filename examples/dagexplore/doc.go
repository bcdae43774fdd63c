// Command dagexplore runs the DAG-exploration workload of the paper "A
// Lock-Free Work-Stealing Algorithm for Bulk Operations": workers explore an
// implicit, seeded graph (package bench/dag, which the benchmarks share), each
// handled node spinning for its cost and pushing all its children as one
// batch, while the scheduler (package sched) balances the load with the
// paper's master-worker proportional steals or with randomized stealing. It
// shows live progress, prints a summary (nodes per second, steals, items
// moved, per-worker figures, optionally the speedup over one worker) and
// checks that every node was handled exactly once. It first names the queue,
// with the description of package catalog, and the scheduler's settings:
//
//	queue: bq, lock-free bulk queue of linked blocks (blockq), the recommended queue
//	scheduler: master mode, proportion auto, 2 workers
//
// Usage:
//
//	go run ./examples/dagexplore [flags]
//
// Flags:
//
//	-nodes       number of nodes of the graph (default 1,000,000)
//	-queue       queue implementation, any name of package catalog (default
//	             bq, blockq, the queue the module recommends; -queue lf runs
//	             the paper's queue)
//	-mode        master (the paper's master-worker balancing, the default)
//	             or random (decentralized randomized stealing)
//	-workers     number of workers, at most 1,024 and at most -nodes; 0 (the
//	             default) means GOMAXPROCS, or -nodes if that is fewer
//	-proportion  the part of a victim's queue one steal takes, or auto (the
//	             default): each steal chooses (see sched's Load balancing)
//	-one         random mode: steal one item at a time instead of
//	             -proportion of the queue (default false, as in fib)
//	-work        per-node cost distribution: uniform (the default) or
//	             irregular (heavy-tailed, same mean)
//	-cost        mean busy-work iterations per node (default 400, about a
//	             microsecond; 0 for none)
//	-fanout      mean number of children of an inner node (default 8)
//	-seed        seed of the graph's shape and costs (default 1)
//	-speedup     also explore the graph with one worker first and report the
//	             speedup; needs at least 2 workers
//	-progress    show a progress line on stderr (default true)
//	-h           print a one-line description and the flags, and exit
//
// Numbers may be grouped, as in -nodes 2,500,000 or -nodes 2_500_000, and
// the program groups the numbers it prints the same way. A flag that does
// nothing in the chosen mode is refused rather than ignored: -one in master
// mode, and -proportion with -one.
//
// The progress line shows the nodes done, the rate and the expected time
// left. It is rewritten in place a few times a second, and shown only when
// stderr is a terminal, so logs and pipes get none.
//
// # The paper's runs
//
// The paper explored graphs of 2.5 million and 300 million nodes with 1 to
// 128 threads on two 32-core Xeons, with its own queue (lf here) and
// Taskflow's (tf-ub). On such a machine (one run per queue and mode;
// -speedup adds the one-worker baseline, which for 300 million nodes takes
// about five minutes):
//
//	go run ./examples/dagexplore -nodes 2500000 -workers 64 -queue lf -speedup
//	go run ./examples/dagexplore -nodes 2500000 -workers 128 -queue tf-ub -speedup
//	go run ./examples/dagexplore -nodes 300000000 -workers 128 -queue lf -mode master
//	go run ./examples/dagexplore -nodes 300000000 -workers 128 -queue lf -work irregular
//
// Build once with go build to leave compilation out of the timings, and
// compare every queue with a loop over the names of package catalog. The
// benchmark package runs the same workload as Go benchmarks.
//
// # Verification
//
// Node ids are 0 to nodes-1. dag.Explore counts the nodes handled and sums
// their ids and squared ids; the totals must equal the closed forms for
// 0..nodes-1 and the scheduler's own count, which pins down a node handled
// twice or never. With -speedup, the checksum of the busy work must also be
// the same for both runs. The program prints a line starting with
// "verified:" and exits 0 on success, exits 1 if a check fails or the run is
// interrupted, and exits 2 on bad flags, with one message and the hint
// "run with -h for help".
package main
