// Command fib computes Fibonacci numbers by fork-join over the work-stealing
// scheduler (package sched), in the style of Cilk and of Go's runtime: a task
// spawns its children into its worker's own queue and works on the newest one
// next, and a worker that runs dry steals the oldest tasks of another worker.
// It shows the two classic results of randomized work stealing: the answer
// comes out right whatever the interleaving, and the queues stay small.
//
// Usage:
//
//	go run ./examples/fib [-n 27] [-queue lf] [-mode random] [-workers 0]
//	                      [-one] [-proportion 0.5] [-cutoff 1]
//
// Flags:
//
//	-n           compute fib(n), 0 <= n <= 90 (default 27)
//	-queue       queue implementation, any name of package catalog (default lf)
//	-mode        random (decentralized randomized stealing, the default) or
//	             master (the paper's master-worker balancing)
//	-workers     number of workers P, at most 1,024 and at most the number
//	             of tasks; 0 (the default) means GOMAXPROCS, or the number of
//	             tasks if that is fewer
//	-one         random mode: a thief takes the single oldest task, as Cilk
//	             does, instead of -proportion of the queue (default false,
//	             as in dagexplore)
//	-proportion  the part of a victim's queue one steal takes (default 0.5,
//	             the half the Go runtime steals)
//	-cutoff      calls fib(k) with k <= cutoff run serially inside one task
//	             (default 1: every call with k >= 2 forks)
//	-progress    show a progress line on stderr (default true)
//	-h           print a one-line description and the flags, and exit
//
// A flag that does nothing in the chosen mode is refused rather than
// ignored: -one in master mode, and -proportion with -one. The progress line
// shows the tasks done, the rate and the expected time left; it is shown only
// when stderr is a terminal. Numbers are printed grouped by thousands, and
// may be given so.
//
// # Joins without continuation stealing
//
// Cilk and the Go runtime steal continuations: the code after a spawn is
// itself a stealable piece of work, and a join that is not ready stalls. A
// library scheduler such as sched runs one handler call per item and cannot
// suspend it, so it steals children ("child stealing"), and the join must be
// an item of its own. Every call fib(k) with k above the cutoff allocates a
// join frame with two result slots and a counter set to 2, and spawns the two
// calls fib(k-1) and fib(k-2) as one batch, fib(k-1) newest so that its worker
// runs it next. A call that finishes writes its value into its slot of the
// parent frame and decrements the counter. The child that brings the counter
// to zero is the last to arrive; it spawns a sum task for the frame, the
// continuation, which adds the two slots and delivers the total to the
// frame's own parent in the same way. No task ever waits: the join is not
// executed until both results are there, and exactly one child creates it.
// The write of a slot happens before the atomic decrement, which happens
// before the last child's decrement, which happens before the sum task runs,
// so the sum task reads both slots safely.
//
// # The space bound
//
// Blumofe and Leiserson's Busy-Leaves argument bounds the space of a
// P-processor run of a fully strict computation by S_P <= S_1·P, where S_1 is
// the space of the serial run. Here space is queued tasks: the program runs
// fib(n) once with one worker to measure S_1 (the longest its queue got;
// about n) and once with P workers. A worker's queue holds at most one pending
// sibling per level of the path it is working on, and thieves take the oldest
// tasks, so no worker's queue outgrows S_1, and S_P, the sum over workers of
// each one's longest queue (an upper bound for the most tasks queued at any
// one time), stays within S_1·P.
//
// # Verification
//
// The program checks fib(n) against the iterative value, checks in both runs
// that the scheduler handled exactly the number of tasks the recursion
// defines (calls plus sum tasks), and checks S_P <= S_1·P. It prints a line
// starting with "verified:" and exits 0 on success, exits 1 if a check
// fails, and exits 2 on bad flags, with one message and the usage.
package main
