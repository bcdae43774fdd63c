// Command fib computes Fibonacci numbers by fork-join over the work-stealing
// workers of a sched.Pool, in the style of Cilk: a task forks its children
// into its worker's own queue and works on the newest one next, a worker
// that runs dry steals the oldest tasks of another worker, and a task that
// joins a child runs other tasks while it waits. It shows the two classic
// results of randomized work stealing: the answer comes out right whatever
// the interleaving, and the queues stay small.
//
// Usage:
//
//	go run ./examples/fib [-n 27] [-queue bq] [-mode random] [-workers 0]
//	                      [-one] [-proportion auto] [-cutoff 1]
//
// Flags:
//
//	-n           compute fib(n), 0 <= n <= 90 (default 27)
//	-queue       queue implementation, any name of package catalog (default
//	             bq, blockq, the queue the module recommends)
//	-mode        random (decentralized randomized stealing, the default) or
//	             master (the paper's master-worker balancing)
//	-workers     number of workers P, at most 1,024 and at most the number
//	             of tasks; 0 (the default) means GOMAXPROCS, or the number of
//	             tasks if that is fewer
//	-one         random mode: a thief takes the single oldest task, as Cilk
//	             does, instead of -proportion of the queue (default false,
//	             as in dagexplore)
//	-proportion  the part of a victim's queue one steal takes, or auto (the
//	             default): each steal chooses, as sched's Load balancing
//	             says: a share of the queue, or one task from a helping
//	             wait
//	-cutoff      calls fib(k) with k <= cutoff run serially inside their task
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
// # Fork and join
//
// The computation is the recursion itself, on a sched.Pool: a call fib(k)
// above the cutoff forks fib(k-1) as a task with sched.Fork, computes
// fib(k-2) itself, and joins the first with Future.Join:
//
//	x := sched.Fork(t, fib, n-1)
//	y := fib(t, n-2)
//	return x.Join(t) + y
//
// The forked task goes into the worker's own queue, newest, and the worker
// takes it back as soon as it joins, unless a thief stole it meanwhile. A
// join whose task was stolen does not wait idle: it runs the worker's other
// tasks, then steals like an idle worker, until the task it waits for is
// done (a helping join). So a task may wait for its children, as in Cilk,
// although a library scheduler cannot steal continuations: it steals
// children, and the waiting task's frame stays on its worker's stack while
// the worker helps. Each run counts the root task and one task per call that
// forks; fork-join with hand-written continuations, as on sched.Run, needs
// twice as many tasks (a sum task per fork) and a join frame per fork;
// package bench measures both (BenchmarkForkJoin).
//
// # The space bound
//
// Blumofe and Leiserson's Busy-Leaves argument bounds the space of a
// P-processor run of a fully strict computation by S_P <= S_1·P, where S_1 is
// the space of the serial run. Here space is queued tasks: the program runs
// fib(n) once with one worker to measure S_1 (the longest its queue got:
// n/2, one pending fork per call on the path fib(n), fib(n-2), fib(n-4), ...)
// and once with P workers. A worker steals only when its queue is empty, so
// what its queue holds belongs to the one subtree it is working on, which
// never holds more than S_1 pending forks, and S_P, the sum over workers of
// each one's longest queue (an upper bound for the most tasks queued at any
// one time), stays within S_1·P. A helping join also keeps the frames of
// the task that waits on its worker's stack; package sched says how deep
// that stack may grow.
//
// # Verification
//
// The program checks fib(n) against the iterative value, checks in both runs
// that the pool ran exactly the number of tasks the recursion defines (the
// root and one per call that forks), and checks S_P <= S_1·P. It prints a
// line starting with "verified:" and exits 0 on success, exits 1 if a check
// fails, and exits 2 on bad flags, with one message and the hint
// "run with -h for help".
package main
