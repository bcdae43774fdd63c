// Package sched is a work-stealing scheduler over wsq.Queue: the one
// scheduling loop that the module's benchmarks, its example programs and its
// users share.
//
// Use it when a computation unfolds into items that each may produce more
// items (a tree search, a graph exploration, a divide-and-conquer job) and the
// shape is not known in advance. Run starts a number of worker goroutines,
// gives each one its own queue made by a factory, hands the initial items out
// and calls a Handler for every item exactly once. A handler pushes the
// children of its item into its own worker's queue with Worker.Spawn, as one
// batch. Run returns when every item has been handled, when the handler
// returns an error, or when the context is cancelled.
//
// A worker takes its next item from the new end of its own queue (last in,
// first out, which keeps the set of pending items small). When its queue runs
// dry, the load is balanced in one of two ways, chosen by Config.Mode:
//
//   - Master: the paper's master-worker balancing. A worker that runs out of
//     work tells the master and waits. The master, the only thief, picks the
//     worker with the longest queue, takes a proportion of its items from the
//     old end in one operation and hands them to the waiting worker, which
//     pushes them into its own queue as owner. Every queue has at most two
//     goroutines on it: its owner and the master. When the queues implement
//     wsq.Handoff (lfqueue does), the master steals a Parcel and the idle
//     worker links it into its queue without copying; otherwise it uses
//     StealBatch and PushBatch.
//   - Random: decentralized randomized stealing. A worker that runs out of
//     work visits the other workers from a random starting point and steals
//     from the old end of the first non-empty queue, either one item or a
//     proportion in one StealBatch. Several thieves may meet at one queue, so
//     this mode needs queues that allow concurrent thieves.
//
// Idle workers search briefly and then park; a worker that publishes new
// work wakes a parked one only when nobody is already searching, in the
// spirit of the Go runtime's spinning threads. Termination is exact: the
// scheduler counts the items that are not yet handled (workers settle their
// share lazily, when they run out of work, so the count is not a contended
// hot spot), and the worker that brings the count to zero ends the run.
// Items in flight (held by the master, or between a thief's steal and its
// push) are counted, so the run never ends early. A missed wake-up could
// only cost parallelism, never completion: every worker works through its
// own queue before it goes looking for more.
//
// Run returns Stats: items handled, steals and items moved, each worker's
// handled count, longest queue and time spent idle, and in master mode the
// time the master spent working, from which Stats.MasterCapacity derives the
// hand-offs per second one master can sustain.
package sched
