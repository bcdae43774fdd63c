// Package sched is a work-stealing scheduler over wsq.Queue: the loop that
// the module's benchmarks, its example programs and its users share. It
// puts workers to use in two ways, on the same workers and queues:
//
//	API    for                                        a handler or task
//	Run    items that produce items, none waits       pushes children with Worker.Spawn
//	Pool   fork-join tasks that wait for each other   forks (Fork, Group.Go) and joins (Join, Wait)
//
// Package par builds parallel loops, reductions and sorts on the Pool's
// exported API. A program's first line is often one of them, from main:
//
//	par.For(nil, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
//
// The nil says that the caller is not a task: the loop runs on the default
// pool (see The default pool), and For returns when it is done.
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
// Every call that starts or waits for tasks takes the calling task, t. Go
// has no goroutine-local state: t is how the pool knows which worker's
// queue to use. Name the parameter of every task function t, so that an
// inner t shadows the outer one. A goroutine that is not a task passes
// nil (see The default pool).
//
// Join does a fork and its join in one call, as rayon's join does in Rust.
// It costs less than Fork and Future.Join: there is no Future to make, to
// join twice or to forget.
//
//	x, y := sched.Join(t, fib, n-2, fib, n-1) // fib(n-1) may run on another worker
//
// ForkFunc and JoinFunc are Fork and Join for functions without a result.
// A Group is errgroup for tasks: Group.Go starts tasks, and Group.Wait
// waits for them and returns the first error. A group made by
// Pool.NewGroup takes tasks from any goroutine. A goroutine that is not a
// task passes a nil Task: g.Go(nil, f) puts f in the pool's shared entry,
// and g.Wait(nil) blocks until the tasks are done.
//
// A task that returns without joining what it forked, or waiting for a
// group it made, waits for them then, as a Cilk function syncs before it
// returns. So a task never outlives the task that started it, and Do
// returns only when every task it started has finished.
//
// # The default pool
//
// The default pool serves code that is not a task, as rayon's global pool
// does. It starts at its first use with GOMAXPROCS workers and the default
// queue, and is never closed. Its workers park when it is idle, so that it
// costs no processor time then. SetDefault sets it up otherwise, once,
// before its first use; Default returns it.
//
// The rule is one: a goroutine that is not a task passes nil for the
// Task. The calls that take a Task follow it:
//
//	call with a nil Task                     does
//	par's loops, reductions and sorts        run on the default pool, and return when done
//	Do(ctx, f)                               runs f as a task of the default pool, and waits
//	Group.Go, Group.Wait                     puts the task in the pool's shared entry; blocks
//	Join, JoinFunc                           runs both halves on the default pool, and returns when done
//	Future.Join                              blocks until the fork is done
//	Fork, ForkFunc                           panics: a fork belongs to a task; run it in Do
//	Task's methods, Region's methods         panic: they are a task's own; run them in Do
//
// Each call with a nil Task waits as Pool.Do does. It panics with a
// *PanicError if a task panicked, and calls runtime.Goexit if one did. A
// task of any Pool passes its own t: its waits then run other tasks. A nil
// from a task panics, with a message that says so, since its wait would
// block its worker. In a Task.Block function, and in a goroutine that a
// task starts, nil is right: neither is a task.
//
// # Load balancing
//
// A worker takes its next item from the new end of its own queue, last in
// first out, which keeps the pending items few. When its queue runs dry,
// Config.Mode balances the load:
//
//	mode              who steals                from where
//	Random (default)  the idle worker itself    the old end of a queue, from a random starting point
//	Master            the masters, one per 16   the longest of 16 queues, a proportion, handed to the idle worker
//
// A steal takes Config.Proportion of the victim's queue. With the default,
// zero, each steal chooses from what the scheduler sees:
//
//	thief                                     a steal takes
//	alone looking for work                    1/2 of the queue, as in the Go runtime
//	one of k looking                          1/(k+1): a share, if they and the owner split it
//	in a helping wait (Join), others looking  one item
//	in a helping wait, its items coarse       one item, in Master mode
//
// A share needs few steals for many small items. Many thieves take a
// little each, so none takes what the others need. A thief in a helping
// wait returns to its waiting task only when it has run all it took, and
// that task may be on the critical path. So it takes one item while
// others can run the rest. In Master mode it takes one item alone too
// when its recent items were coarse: a microsecond or more each, as a
// worker measures between its looks for work. One such item is worth a
// hand-off. Idle workers search briefly, then park. While another worker
// is busy they search longer: it answers an ask about an item's time
// later, or starts a loop's next step when its task ends, and a parked
// thief would add a wake-up to each. In Master mode the worker polls for
// its delivery as long, and wakes a sleeping master itself. A worker that publishes new work wakes a parked one only
// when nobody searches, in the spirit of the Go runtime's spinning
// threads. An idle scheduler costs no processor time. Run ends exactly
// when its last item is handled: the workers count the items left, and
// the one that counts the last closes the run.
//
// # Work a worker keeps to itself
//
// A fork nobody takes costs no atomic operation. Fork puts it on a stack
// private to the goroutine, and its join pops it and calls its function.
// A fork becomes stealable when some worker wants work:
//
//	when                                       the worker publishes
//	a thief or a master found its queue empty  the oldest half of its private forks, at its next fork or join; with none, the ask waits for the next fork
//	its queue shows none of its forks          its next fork: a busy worker offers its oldest
//	its recent items are long                  every fork, at once
//	Task.Demand sees idle workers              every private fork
//	Task.Block, Group.Go, a join that lends     every private fork, first
//
// A blockq queue may likewise hold its newest items from thieves (see its
// Holding items). Holding saves an atomic operation per item, which only
// short items notice; a long item would keep the held ones waiting. So a
// worker whose recent items are long, 10 µs or more each, holds nothing
// while it runs one. A worker measures its busy time per item now and
// then as it runs them, and counts as long until it has measured. A pop
// that publishes held items while a worker sleeps wakes it.
//
// What can still wait: a worker whose items were short, and that forks and
// then computes for long without forking, joining or waiting, keeps its
// newer forks until it does. Its oldest fork stays stealable. Such a task
// calls Task.Demand now and then, or forks its long part as a task of its
// own.
//
// # Granularity
//
// A fork and its join cost a few stores and a call when nobody takes the
// fork; an item of Run, a push, a pop and a call (BENCHMARKS.md has the
// figures). A Pool reuses its fork records, so that forking allocates
// nothing in steady state. Work split finer than that is mostly overhead,
// however many workers share it. So below some size a computation should
// stop splitting and run serially: the cutoff of the examples. Choose it
// so that a task does at least some microseconds of work, and there are
// still tens of tasks per worker for idle workers to steal.
//
// # Work and span
//
// Whether a program will use 64 cores is decided by its parallelism, its
// work over its span, and by what each steal costs on its longest path.
// Pool.DoMeasured runs a computation as Do does and returns its Profile;
// RunMeasured does the same for Run. A Profile prints as a table, and
// reports two metrics to a benchmark:
//
//	prof, err := pool.DoMeasured(ctx, sched.Measure{}, func(t *sched.Task) error { r = fib(t, 40); return nil })
//	fmt.Print(prof)  // work, span, parallelism, and speedup bounds for 1 to 128 workers
//	prof.Report(b)   // in a benchmark: "parallelism" and "burdened-parallelism"
//
// The dag is the program's: each Fork, Join's g, Group.Go and Run's Spawn
// starts a strand elsewhere, and each join, Wait and task's end waits for
// it. So the figures do not depend on the schedule, with one exception:
//
//	shape                                counts as
//	forks, joins, groups, Run's items    the dag the program made
//	par's sort splits, its reductions    the same: the data or n fix them, not the run
//	a loop of par (For, Map, ...)        its chunks, as if all could run at once
//	a program's own split by Task.Demand the same, through a Region
//	Task.Block's function                work on its path, and Profile.Blocked besides
//
// A loop splits by demand: the parts 2 workers made say little of 64. So
// a loop's span is that of its iteration space, its longest chunk, and
// its burdened span adds a burden per level of a binary split into its
// chunks, whatever split this run chose. A chunk lasts some microseconds,
// or one iteration, the least a loop splits to.
//
// A measured task publishes each fork at once, so that its forks and
// joins take the paths that time them; its goroutine reads a clock at each
// fork, join and end. A measured fine task costs many times an unmeasured
// one; an unmeasured run pays nothing for the measuring. See Profile for
// the clocks, and Measure for the burden.
//
// # Blocking
//
// A task that blocks (on I/O, a system call, a lock, a channel or a sleep)
// stalls its worker, unless it says so with Task.Block. A stalled worker
// may keep its newest tasks from thieves until the task returns (see Work
// a worker keeps to itself):
//
//	t.Block(func() { entries, err = os.ReadDir(dir) })
//
// The task's goroutine then lends its worker to another goroutine, which
// runs the worker's tasks meanwhile. Use Block around any call that may
// wait for something other than the pool's own tasks for more than some
// microseconds. Wait for the pool's own tasks with Join and Wait, which run
// other tasks while they wait; never with a channel or a sync.WaitGroup,
// which block. A handler of Run has no Block: do its I/O in goroutines of
// its own, or use a Pool.
//
// # Panics and Goexit
//
// A panic or runtime.Goexit travels to the goroutine that waits for the
// work, as in a plain call, and the process survives:
//
//	in           a panic                                      runtime.Goexit
//	a handler    stops the run; Run panics with *PanicError   stops the run; Run calls Goexit
//	a task       Join or Wait panics with *PanicError         Join or Wait calls Goexit
//	a Block's f  is the task's                                is the task's
//
// A panic passes on through each wait, up to the goroutine that called Do
// or Wait. A group whose task panicked runs none of its tasks that have not
// started. A task that a panic or Goexit ends still waits for the tasks it
// started, dropping their outcomes: a task never outlives its parent. A
// deferred call that panics while a Goexit unwinds its task does not stop
// the Goexit, in Go as here: the task ends by Goexit.
//
// In a Pool, Goexit ends the goroutine running the worker, and the tasks
// on that goroutine's stack: each of them waits for the task that called
// Goexit (see What a join runs), so the Goexit reaches only the work that
// waits for it. The pool starts a new goroutine for the worker.
//
// # Space and depth
//
// A worker steals only when its queue is empty. So its queue holds tasks
// of the one subtree it works on, never more than the serial run of that
// subtree queues. For divide and conquer, each queue stays within S_1, the
// serial run's queue, and their sum within S_1·P (examples/fib checks
// this). Each goroutine that lent its worker in Task.Block leaves its
// tasks in the worker's queue: S_1·(P+B) then bounds them, where B is
// Stats.PeakBlocked.
//
// # What a join runs
//
// A join that must wait runs other tasks on top of the waiting task's
// frames, on its goroutine's stack. It runs only the waiting task's
// descendants: the tasks it forked, the tasks of groups it made, and so on
// down. Such a task never waits for a task below it on the stack: that
// would be a task waiting for its ancestor, which no schedule can finish.
// So a task may wait for any Future or Group it holds, a sibling's or
// another Do's, and no schedule makes it wait for itself. A join that
// finds no descendant to run lends its worker to another goroutine, which
// runs anything, and sleeps until the wait is over (Stats.PeakBlocked
// counts such goroutines too).
//
// Its own worker's tasks add only what the serial recursion would. A task
// taken from elsewhere adds its own subtree's recursion. A goroutine lets
// at most 16 such joins nest; a join beyond that runs only its own
// worker's tasks, then lends its worker. So a goroutine's stack holds at
// most 17 subtrees' recursion, each no deeper than its serial run.
//
// # Concurrency contract and memory model
//
// A Worker's methods may be called only by the handler it runs, during the
// call. A Task may be used only by its task's function, in its goroutine:
// see Task for what a misuse does. Pool, Group, Future.Join and PerWorker
// may be used from any goroutine. Run's Stats are read after the run. A
// Pool's are read while it runs (Pool.Stats, from any goroutine) or from
// Close.
//
// Worker.Spawn(x) synchronizes before the handler call that handles x.
// Fork, Join and Group.Go synchronize before the call of the task's
// function. The return of a task's function synchronizes before the return
// of the Join or Wait that waits for it. Every handler call and task
// synchronizes before the return of Run, Do or Close. Between tasks that
// do not wait for each other, the scheduler promises no order: share data
// between them as between goroutines.
package sched
