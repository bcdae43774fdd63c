// Package interleave is a deterministic scheduler that explores the
// interleavings of small concurrent programs, in the spirit of Rust's loom:
// the tool behind the exhaustive interleaving checks of the lock-free
// queues. A queue needs only scenarios; package queuecheck runs them against
// a wsq.Queue and checks every execution.
//
// # Scheduling points
//
// The queues perform every atomic operation through internal/atomicx. Built
// with the test-only tag wsqcheck, atomicx calls Point before each operation
// (Load, Store, StoreRelease, Swap, CompareAndSwap), before each Lock, TryLock and Unlock
// of a Mutex, and at each SpinWait: these are the scheduling points. Plain accesses
// (Pointer.Plain and SetPlain, and ordinary fields) are not. Outside an
// exploration a scheduling point costs one atomic load and the program runs
// as usual; in a normal build atomicx has no scheduling points at all.
//
// An execution runs the threads of a Program as goroutines of which exactly
// one runs at a time. Each thread first runs up to its first scheduling
// point; then, at every scheduling point, the scheduler chooses which
// thread performs its next operation. A thread that waits to Lock a mutex
// another thread holds is not runnable, nor is one at a Wait point (a
// spin-wait) until another thread has written the variable it waits on. What a thread does between two
// scheduling points (plain memory accesses, computation) happens as one
// step, invisible to the others.
//
// # Exploration
//
// Exhaustive explores schedules depth-first, starting each execution afresh
// and steering it down the next unexplored branch. With no preemption bound
// it applies dynamic partial-order reduction with sleep sets (Flanagan and
// Godefroid, POPL 2005): two steps of different threads are dependent when
// they touch the same atomic variable or mutex and one of them writes it,
// or when both are calls or returns of operations in the recorded history;
// the exploration runs at least one execution of every class of executions
// equal up to reordering independent steps, and every property checked is
// the same for all executions of a class. With a preemption bound it runs
// every schedule that switches away from a runnable thread at most that many
// times, without reduction.
//
// Random runs executions under the PCT strategy (Burckhardt, Kothari,
// Musuvathi, Nagarakatte, ASPLOS 2010): random thread priorities, with
// Depth-1 points at which the running thread drops to the lowest priority.
// Execution i of a run from seed s is determined by seed s+i (and the
// length of a first, unpreempted execution, which is always the same), so
// one seed replays one execution.
//
// # Checks
//
// An execution fails when a thread panics, when no thread can run while some
// are not finished (a deadlock), when it exceeds its bound on scheduling
// points (a thread that cannot finish while another is preempted, which a
// lock-free algorithm must never need, or an infinite loop), or when the
// Program's Check, run after every thread finished, reports a violated
// property. Begin and End record the calls and returns of the operations
// the threads perform, on a logical clock that counts the steps, so that a
// Check can test the history for linearizability: the call of an operation
// is the tick of its first scheduling point and the return the tick of its
// End, the tightest interval around its effects.
//
// # Failures and replay
//
// The first failure stops the exploration. Its schedule (the thread chosen
// at each scheduling point, one digit per decision, runs of a thread written
// "1*12") is run once more with tracing on: the Failure lists, step by
// step, which thread performed which operation on which variable, with its
// operands and result, interleaved with the calls and returns of the
// operations, and the violated property. Names makes the variables and
// values readable. Replay and TraceSchedule run one schedule again;
// queuecheck reads a schedule or a seed from the environment
// (WSQCHECK_SCHEDULE, WSQCHECK_SEED) and prints the command that replays a
// failure.
//
// # Limits
//
// The scheduler explores sequentially consistent interleavings only: every
// atomic operation takes effect at its scheduling point, in one global
// order. That is exactly Go's memory model for sync/atomic, whose
// operations are all sequentially consistent, so no weaker behaviour is
// missed. Plain memory accesses are not interleaved; a race on a plain field
// is a bug the race detector finds (run the stress tests with -race), not
// this package. The partial-order reduction relies on that: it orders
// steps only by the atomic variables and mutexes they share, which is exact
// for a program whose plain accesses are free of data races (each ordered
// by atomics); for a racy program, explore with NoReduction or a preemption
// bound. The program must be deterministic apart from the schedule
// (no maps iterated in a varying order, no time, no randomness of its own);
// the exploration reports a program that is not. Only one exploration runs
// at a time in a process, and while it runs no goroutine outside its
// threads may use atomicx. Scopes must stay small: the number of
// executions grows exponentially with the steps of the threads, even with
// the reduction; larger scopes are for Random.
package interleave
