// Package sched is a work-stealing scheduler over wsq.Queue. A Pool runs
// fork-join tasks on GOMAXPROCS workers, each with its own queue, and Run
// explores items that produce items. Package par builds loops, reductions
// and sorts on the Pool; a program's first line is often one of them:
//
//	par.For(nil, len(xs), func(t *sched.Task, i int) { ys[i] = math.Sqrt(xs[i]) })
//
// # Fork-join
//
//	pool, err := sched.NewPool() // GOMAXPROCS workers, the default queue
//	if err != nil { ... }
//	defer pool.Close()
//
//	var fib func(t *sched.Task, n int) int
//	fib = func(t *sched.Task, n int) int {
//		if n < 20 {
//			return fibSerial(n) // serial below a cutoff
//		}
//		x := sched.Fork(t, fib, n-1) // a task that another worker may steal
//		y := fib(t, n-2)             // this worker goes on with the other half
//		return x.Join(t) + y         // runs other tasks until x is done
//	}
//	err = pool.Do(ctx, func(t *sched.Task) error { r = fib(t, 40); return nil })
//
// Every call that starts or waits for tasks takes the calling task, t: Go
// has no goroutine-local state. Name every task function's parameter t,
// so that an inner t shadows the outer one. Join forks and joins in one
// call, as rayon's join does; ForkFunc and JoinFunc take functions without
// a result. A Group is errgroup for tasks. A task waits for what it forked
// and did not join before it returns, as a Cilk function syncs. A fork
// nobody steals costs a few stores and a call: stop splitting where a task
// would do less than some microseconds of work.
//
// # A nil Task
//
// A goroutine that is not a task passes nil for the Task. The call then
// runs on the default pool (Default), which starts at its first use,
// parks when idle, and is never closed; Do runs fork-join code there from
// main. A task passes its own t. A nil from a task panics, since its wait
// would block its worker; in a Task.Block function nil is right.
//
// # Blocking, panics and Goexit
//
// A task that blocks on I/O, a lock or a sleep says so with Task.Block, so
// that its worker runs other tasks meanwhile. Wait for tasks with Join and
// Wait, never with a channel. A panic in a task reaches the goroutine that
// waits for it as a *PanicError, and runtime.Goexit calls Goexit there.
//
// # Modes, measurement, internals
//
// Config.Mode picks the load balancing: Random, the default, or the
// paper's Master mode. Pool.DoMeasured returns a run's work and span.
// INTERNALS.md, beside this file, says how the scheduler works inside: its
// layers, a map of its files, its rules, and the words its code uses.
// Fork, Join and Group.Go synchronize before the call of the task's
// function, whose return synchronizes before the Join or Wait that waits
// for it. Worker.Spawn(x) synchronizes before the handler call of x. Every
// task synchronizes before the return of Do, Run or Close.
package sched
