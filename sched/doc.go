// Package sched is a work-stealing scheduler over wsq.Queue: the scheduling
// loop that the module's benchmarks, its example programs and its users
// share. It offers two ways to put workers to use, on the same workers and
// queues:
//
//   - Run, for a computation that unfolds into items, each of which may
//     produce more items (a tree search, a graph exploration), where no item
//     waits for another: a Handler handles one item and pushes its children
//     with Worker.Spawn.
//   - Pool, for fork-join tasks that wait for each other: a function forks
//     a task (Fork, Group.Go) and joins it (Future.Join, Group.Wait), and a
//     join runs other tasks while it waits, so the worker never sits idle
//     while there is work.
//
// # Run
//
// Run starts a number of worker goroutines, gives each one its own queue,
// hands the initial items out and calls the Handler for every item exactly
// once. A handler pushes the children of its item into its own worker's
// queue with Worker.Spawn. Run returns when every item has been handled,
// when a handler returns an error, or when the context is cancelled. An item
// may be of any type, a function included (type item func(*sched.Worker[item])
// with a handler that calls it runs closures), but a handler cannot wait for
// the items it spawns: work that forks and joins belongs on a Pool.
//
// # Pool
//
// A Pool is made once and runs tasks for as long as the program needs it.
// Fork-join in a few lines:
//
//	pool, err := sched.NewPool() // GOMAXPROCS workers, the default queue
//	if err != nil { ... }
//	defer pool.Close()
//
//	var fib func(t *sched.Task, n int) int
//	fib = func(t *sched.Task, n int) int {
//		if n < 20 {
//			return fibSerial(n) // serial below a cutoff: see Granularity
//		}
//		x := sched.Fork(t, fib, n-1) // a task that another worker may steal
//		y := fib(t, n-2)             // this worker goes on with the other half
//		return x.Join(t) + y         // runs other tasks until x is done
//	}
//	var r int
//	err = pool.Do(ctx, func(t *sched.Task) error { r = fib(t, 40); return nil })
//
// Every call that starts or waits for tasks takes the calling task, t: Go
// has no goroutine-local state, and t is how the pool knows which worker's
// queue to use. Name the parameter of every task function t, so that inside
// a task t is always that task's (an inner t shadows the outer one). A task
// whose function has no result is forked with ForkFunc.
//
// When a task splits its work in two halves and waits for both, as fib
// does, Join does the fork and the join in one call, as rayon's join does
// in Rust, and costs less (no Future, and nothing to join twice or forget):
//
//	x, y := sched.Join(t, fib, n-2, fib, n-1) // fib(n-1) may run on another worker
//	return x + y
//
// JoinFunc is Join for halves without a result, such as an in-place sort.
//
// A Group is errgroup for tasks: Group.Go starts tasks, Group.Wait waits for
// them and returns the first error, which also cancels the group's context.
// Tasks may add tasks to the group they belong to (a directory walk adds one
// per subdirectory). A group made by Pool.NewGroup takes tasks from any
// goroutine, which is how a program whose producers keep producing feeds the
// pool. A goroutine that is not a task has no Task to pass, so it passes
// nil: each producer calls g.Go(nil, f) as items arrive, which puts the task
// in the pool's shared entry, and one goroutine calls g.Wait(nil) at the
// end, which blocks it until the tasks are done (a task passes its own t
// instead, and its Wait runs other tasks while it waits).
//
// NewPool() makes the pool most programs want; a PoolConfig chooses the
// number of workers, their queues and the load balancing (see Config).
//
// A task that returns without joining what it forked, or waiting for a group
// it made, joins them then, as a Cilk function syncs before it returns: a
// task never outlives the task that forked it or made its group (unless a
// Goexit ends that task early), and Do returns only when every task started
// that way has finished. Stats.Processed of a Pool counts the tasks that
// ran.
//
// # Load balancing
//
// A worker takes its next item from the new end of its own queue (last in,
// first out, which keeps the set of pending items small). When its queue runs
// dry, the load is balanced in one of two ways, chosen by Config.Mode:
//
//   - Master: the paper's master-worker balancing. A worker that runs out of
//     work tells the master and waits. The master, the only thief, picks the
//     worker with the longest queue, takes a proportion of its items from the
//     old end in one operation and hands them to the waiting worker, which
//     pushes them into its own queue as owner. Up to 16 workers, every
//     queue has at most two goroutines on it: its owner and the master.
//     Beyond, there is one master per 16 workers, and each looks at 16
//     queues per hand-off, in turn, so that the masters keep up with any
//     number of workers. When
//     the queues implement
//     wsq.Handoff (blockq and lfqueue do), the master steals a Parcel and
//     the idle worker links it into its queue without copying; otherwise,
//     and for steals of at most 32 items, where a parcel's allocation costs
//     more than a copy, it uses StealBatch and PushBatch.
//   - Random: decentralized randomized stealing. A worker that runs out of
//     work visits the other workers from a random starting point and steals
//     from the old end of the first non-empty queue, either one item or a
//     proportion in one operation, with TrySteal or TryStealBatch, which
//     never wait for another thief. Several thieves may meet at one queue;
//     every wsq.Queue allows that, so both modes work with every queue of
//     package catalog. A steal that reports wsq.Contended (a lost race, a
//     thief mid-steal, a thieves' lock held) is tried once more at the same
//     queue and then sends the thief on to the next; one that reports
//     wsq.Empty sends it on at once. Stats counts both (EmptySteals,
//     ContendedSteals).
//
// How much a steal takes is Config.Proportion: by default half of the
// victim's queue for Run, whose items are independent (the paper's
// workloads), and one task for a Pool, whose oldest task is the largest
// piece of fork-join work a queue holds; see PoolConfig for why and for
// the measurements.
//
// Idle workers search briefly and then park; a worker that publishes new
// work wakes a parked one only when nobody is already searching, in the
// spirit of the Go runtime's spinning threads. An idle Pool costs no
// processor time. Termination of Run is exact: the scheduler counts the items
// that are not yet handled (workers settle their share lazily, when they run
// out of work, so the count is not a contended hot spot), and the worker
// that brings the count to zero ends the run. Items in flight (held by the
// master, or between a thief's steal and its push) are counted, so the run
// never ends early. A missed wake-up could only cost parallelism, never
// completion: every worker works through its own queue before it goes
// looking for more.
//
// # Queues
//
// Config.NewQueue makes each worker's queue; nil means DefaultQueue, the
// recommended queue, which a first program should use. Package catalog
// names every implementation of the module, and catalog.Factory turns a
// name into a NewQueue. A Pool's queues hold Jobs: catalog.Factory[Job].
//
// # Granularity
//
// A task or an item costs the scheduler a few tens of nanoseconds: a push,
// a pop and a call (a Fork and its Join, when nobody steals the task, 25
// to 40 ns on the machine of the module's benchmarks, a Join 18 to 30 ns; a
// Pool reuses its fork records, so forking allocates nothing in steady
// state). Work split finer
// than that is mostly overhead, however many workers share it, so below
// some size a computation should stop splitting and run serially: the
// cutoff of the examples. Choose it so that a task does at least some
// microseconds of work (then the overhead is a few per cent) and there are
// still tens of tasks per worker (so that idle workers find something to
// steal).
//
// For example, counting the 14,200 solutions of the 12-queens puzzle by
// serial recursion over its 856,000 boards takes 7 to 10 ms on the machine
// of the module's benchmarks, about 10 ns a board. With one item per board
// (the handler of Example (nQueens) with n = 12 and no cutoff), the
// scheduler's overhead dominates: two workers take 2.5 times the serial
// time with the default queue, 3.4 times with a Chase-Lev deque and 16
// times with lfqueue, which allocates per item. Solving the last 9 rows of
// each board serially leaves 879 items (756 of them about 12 µs of work
// each), and the scheduler's share disappears in the noise: one worker
// takes as long as the serial recursion, so more workers divide the whole
// time (two take 0.47 of the serial time). Package bench measures both
// (BenchmarkNQueens).
//
// # Blocking
//
// A task that blocks (on I/O, a system call, a lock, a channel or a sleep)
// stalls its worker unless it says so: nothing else runs on that worker
// while it waits, the tasks in its queue wait until a thief takes them,
// and if every worker blocks, the pool does nothing until something
// unblocks. A blockq queue may even hold its newest tasks from thieves
// (see blockq's Holding items) until the task returns. A directory walk with a task per directory, on storage that
// takes 200 µs to list a directory, runs seven times slower on a
// pool of two workers than with a goroutine per directory
// (BenchmarkBlockingWalk in package bench).
//
// Task.Block says so. It runs a function that blocks while the task's
// worker goes on running other tasks, as the Go runtime hands the
// processor of a thread blocked in a system call to another thread:
//
//	var entries []fs.DirEntry
//	var err error
//	t.Block(func() { entries, err = os.ReadDir(dir) })
//
// The task's goroutine lends its worker (the worker's queue, its ID and
// its share of Stats) to another goroutine of the pool, a parked spare or a
// new one, which runs the worker's tasks and steals for it; the worker's
// queue stays stealable throughout. When the function returns, the task
// goes on, on the same worker (Task.WorkerID does not change), once the
// goroutine that ran the worker meanwhile gives it back: when it finishes
// the task it is running (as a helping join that ran a task finishes it
// before it returns), waits in a join with nothing of its own to run, or
// blocks in turn. The function must not use the Task; a panic or
// runtime.Goexit in it is the task's.
//
// Use Block around any call that may wait for something other than the
// pool's own tasks for longer than some microseconds: reading files and
// directories, network calls, a database query, a lock held for long, a
// sleep. It costs a few microseconds (two hand-overs of the worker between
// goroutines; a new goroutine the first times), and each goroutine blocked
// at once costs its stack. Config.MaxBlocked (DefaultMaxBlocked, 256)
// bounds how many Block functions run at once, as a semaphore would. A
// Block beyond it lends its worker all the same, and waits for a free slot
// before it calls its function. So at equal limits the pool runs what a
// goroutine per task with a semaphore runs. A function of Block that waits
// for tasks which Block in turn needs the limit to leave them slots. Once
// the blocking calls have returned, the extra goroutines end, except at
// most one parked spare per worker, kept to serve the next Block: an idle
// pool holds one goroutine per worker (and in Master mode the masters')
// plus those spares, and costs no processor time. Stats.Blocks, BlockWaits
// and PeakBlocked count the calls.
//
// Wait for the pool's own tasks with Future.Join and Group.Wait, which run
// other tasks while they wait, never with a channel or a sync.WaitGroup,
// which block; and never in Task.Block, whose function has no Task. A
// handler of Run has no Block: do its I/O in goroutines of its own and hand
// the results to the scheduler (a Pool's Group takes tasks from any
// goroutine), or use a Pool.
//
// # Panics and Goexit
//
// A panic in a handler stops its Run: the other workers finish their current
// call and stop, and Run panics in its caller with a *PanicError that holds
// the original value and the panicking goroutine's stack. A panic in a task
// stops at the task: Join and Wait panic with the *PanicError in the task
// that waits, and so on up to the goroutine that called Do or Wait; a group
// whose task panicked runs none of its tasks that have not started. Join
// panics with the *PanicError of g, or of f (after waiting for g), when
// either panics, wherever it ran. The
// process survives, and the pool goes on. A handler or task that calls
// runtime.Goexit (t.FailNow or t.Fatal in a test) is treated in the same
// way, except that the caller of Run, Do, Wait or Join calls runtime.Goexit
// instead of panicking. In a Pool, Goexit ends the goroutine running the
// worker, and with it every task on that goroutine's stack: the task that
// called it and the tasks whose helping waits were running it, which report
// Goexit too; the pool starts a new goroutine for the worker. A panic or
// Goexit in the function of a Task.Block is the task's.
//
// # Space and depth
//
// Blumofe and Leiserson's Busy-Leaves argument bounds the space of a
// P-processor run of a fully strict computation (one in which a task joins
// only its own children) by S_P <= S_1·P, where S_1 is the space of the
// serial run, for a scheduler that steals continuations. A library cannot
// steal continuations: a Pool steals children, and a join that must wait
// keeps the waiting task's frames on its worker's goroutine stack and runs
// other tasks above them. Two kinds of space follow from that.
//
// Queued tasks: a worker steals only when its queue is empty, so its queue
// holds only tasks of the one subtree it is working on, never more than the
// serial run of that subtree queued; for divide and conquer, where a subtree
// queues no more than the whole, each worker's queue stays within S_1 and
// their sum within S_1·P (examples/fib measures and checks this).
//
// Stack depth: a join that runs its own worker's tasks adds only what the
// serial recursion would (they are its own descendants). A join that steals
// runs another subtree on top of the waiting task, as deep as that subtree's
// recursion. A worker lets at most 16 joins that took work from elsewhere
// nest on its goroutine's stack; a join beyond that runs only its own
// worker's tasks and then sleeps until the tasks it waits for are done (the
// one case in which a worker sleeps while other workers have queued work).
// So a goroutine's stack holds at most 17 subtrees' recursion, each no
// deeper than the serial recursion of its task; goroutine stacks grow as
// needed, up to the runtime's limit (1 GB on 64-bit systems by default).
// Deep recursion itself is bounded only by the program: a computation that
// recurses n levels deep needs n frames whether it runs serially or not.
//
// Task.Block adds goroutines, not depth: the goroutine that runs a worker
// while a task blocks starts with an empty stack. Each goroutine that has
// lent its worker leaves the tasks its stack's frames forked in the
// worker's queue, for the worker to run, so the queued tasks of a run with
// blocking calls stay within S_1·(P+B), where B is the most goroutines that
// had lent their workers at once (Stats.PeakBlocked).
//
// # Memory
//
// A Pool keeps what its next tasks need, not what its past tasks made.
// Once a task is joined (or waited for in its Group, or has finished when
// nobody waits), nothing of it stays reachable from the pool: its closure,
// argument, result and context are dropped from the frame that ran it and
// from the fork record it used. Each goroutine of the pool (one per
// worker, plus those of Task.Block: see Blocking) keeps, for reuse:
//
//   - up to 64 task frames; a deeper recursion grows the frames with its
//     depth (one small object per nested task) and gives back those beyond
//     64 when the goroutine is back at depth zero;
//   - up to 64 finished fork records, cleared of the function, argument
//     and result of their last use.
//
// Each worker keeps:
//
//   - its buffers for stolen items, deliveries from the master, Spawn's
//     copy and a bounded queue's overflow: a busy worker keeps what its
//     largest steal or fan-out made them, so that a steady stream of large
//     steals does not allocate, and a worker that parks (or, in Master
//     mode, asks the master for work) gives back any of them that grew
//     beyond 1024 items; so does the pool's entry for tasks from outside
//     once it is empty, and every buffer when the Pool is closed;
//   - its queue, whose memory is the queue's own: with the default queue it
//     follows what the queue holds (see package blockq), which for an
//     empty queue is a block or two and the blocks thieves emptied since
//     the queue's owner last looked at its front. Close lets go of the
//     queues.
//
// Goroutine stacks grow with the depth of the recursion that runs on them
// and are shrunk by the runtime's garbage collector. Run's workers keep the
// same buffers, with the same bound. After a burst of blocking calls, a
// Pool keeps at most one parked spare goroutine per worker.
//
// # Misuse
//
// A mistake in the use of a Pool is named by a panic whose message starts
// with "sched: " and says what was wrong, before it can corrupt anything:
//
//   - Fork, Join, Task.NewGroup, Task.Context and Task.WorkerID, and
//     Group.Go, Group.Wait and Future.Join given a Task, panic if the Task
//     is nil
//     (Go, Wait and Future.Join accept nil from outside the pool: see
//     Group), or is not the calling task's own: a Task kept after its function
//     returned, or the Task of an enclosing task used in a task it
//     started. That is seen whenever the Task's worker is not running the
//     Task's frame at that moment; a Task is only ever valid in its own
//     function, during the call.
//   - Pool.Do called by a task blocks the task's worker, and panics, rather
//     than wait forever, when every worker is running a task at that
//     moment (with one worker, always): nobody would be left to run it.
//     A task forks and waits with Fork, Join, Task.NewGroup and Wait.
//   - Pool.Close called by a task panics: it would wait for itself.
//   - Group.Go after the group's Wait returned panics: a Group serves one
//     round of Go calls and one Wait.
//   - Pool.Do, and Group.Go with a nil Task, after Close has begun panic,
//     and the refused task is not counted: a Wait for the group returns.
//   - A task that waits for a Group it belongs to panics ("a task waits
//     for itself"); a Future joined twice, or not made by Fork, panics.
//   - A Task used in the function of a Task.Block, by any of the calls
//     above or Task.Block itself, panics: the goroutine runs no task while
//     it blocks.
//   - A task that passes nil to Future.Join or Group.Wait panics. It
//     passes its own t, so that its worker runs other tasks meanwhile.
//   - A nil function panics at the call, before anything is started. That
//     holds for Fork, ForkFunc, Join, Group.Go, Pool.Do and Task.Block.
//   - A Task used by another goroutine panics, even while its function
//     runs. A goroutine that a task starts has no Task of its own. The
//     race detector sees every such use. Other builds see it only when the
//     task is not innermost on its worker: a check on every call costs too
//     much.
//   - An invalid Config makes Run and NewPool return an error.
//
// # Concurrency contract and memory model
//
// A Worker's methods may be called only by the handler it runs, during the
// call, and a Task only by the task's function, in its goroutine. Pool,
// Group (given the calling Task, or nil outside the pool), Future.Join and
// PerWorker (each worker its own value) may be used from any goroutine.
// Stats are written by the workers and read after the run or Close.
//
// In the terms of the Go memory model: Worker.Spawn(x) synchronizes before
// the handler call that handles x; Fork and Group.Go synchronize before the
// call of the task's function (Join before the calls of f and g); what a
// task does before Task.Block
// synchronizes before the call of Block's function, and the return of that
// function before the return of Block; the return of a task's function
// synchronizes before the return of the Join or Wait that waits for it (the
// returns of f and g before the return of Join); and
// every handler call and task synchronizes before the return of Run, Do or
// Close. Between tasks that do not wait for each other, the scheduler
// promises no order: share data between them as between goroutines.
//
// # Per-worker state
//
// Worker.ID and Task.WorkerID number the workers from 0, which lets a
// handler or task keep state per worker without locks. Size such state with
// Config.WorkerCount or Pool.Workers, and keep each worker's on cache lines
// of its own: workers that write their own counters side by side in a plain
// slice slow each other down (false sharing). PerWorker does both.
//
// # Statistics
//
// Run and Pool.Close return Stats: items handled, steals and items moved,
// each worker's handled count, longest queue and time spent idle, in
// master mode the time the master spent working, from which
// Stats.MasterCapacity derives the hand-offs per second one master can
// sustain, and for a Pool the blocking calls.
package sched
