// Package wsq defines the contract shared by the work-stealing queues of this
// module: the [Queue] interface and the rule that turns a steal proportion into
// an item count ([StealCount]).
//
// A work-stealing queue has one owner and any number of thieves. The owner
// pushes and pops at the new end, last in first out, the way a depth-first
// worker wants its own tasks; thieves take from the old end, first in first
// out, where the oldest and usually largest pieces of work wait. The
// implementations live in subpackages:
//
//   - blockq: a lock-free bulk queue of linked blocks, the recommended queue:
//     ring-speed push and pop, constant-time push of a pre-built batch, and
//     proportional steals by any number of thieves at once, each in one
//     atomic step, handed to another queue without copying.
//   - lfqueue: the bulk lock-free linked-list queue of Kataru, Davarnia and
//     Jannesari (2026), whose owner pushes a whole batch in constant time and
//     whose thief takes a proportion of the queue in one operation.
//   - chaselev: Chase-Lev ring-buffer deques, bounded and unbounded, with
//     native batch push and proportional batch steal.
//   - tfdeque: Go models of C++ Taskflow's UnboundedWSQ and BoundedWSQ, the
//     baselines of the paper's evaluation.
//   - mutexq: a slice behind a sync.Mutex, the queue most programs would
//     write first, kept as the baseline that tells whether lock-freedom pays.
//
// Every implementation satisfies [Queue], so code written against the
// interface (the benchmarks, the scheduler, the examples) can switch queues by
// name, and says in its [Contract] which of the interface's rules it
// relaxes.
package wsq
