// Package wsq defines the contract shared by the work-stealing queues of
// this module. It holds the [Queue] interface and [StealCount], the rule
// that turns a steal proportion into an item count.
//
// A work-stealing queue has one owner and any number of thieves. The owner
// pushes and pops at the new end, last in first out. That is the order a
// depth-first worker wants for its own tasks. Thieves take from the old
// end, first in first out. The oldest and usually largest pieces of work
// wait there.
//
// The implementations live in subpackages:
//
//   - blockq: a lock-free bulk queue of linked blocks, the recommended
//     queue. Its owner pushes with a plain store and pops a held item with
//     no atomic operation. It pushes a pre-built batch in constant time.
//     Any number of thieves steal a proportion at once, each in one atomic
//     step, and can hand it to another queue without copying.
//   - lfqueue: the bulk lock-free linked-list queue of Kataru, Davarnia and
//     Jannesari (2026). Its owner pushes a whole batch in constant time.
//     Its thief takes a proportion of the queue in one operation.
//   - chaselev: Chase-Lev ring-buffer deques, bounded and unbounded, with
//     native batch push and proportional batch steal.
//   - tfdeque: Go models of C++ Taskflow's UnboundedWSQ and BoundedWSQ, the
//     baselines of the paper's evaluation.
//   - mutexq: a slice behind a sync.Mutex, the queue most programs would
//     write first. It is kept as the baseline that tells whether
//     lock-freedom pays.
//
// Every implementation satisfies [Queue]. So code written against the
// interface (the benchmarks, the scheduler, the examples) can switch queues
// by name. Each says in its [Contract] which of the interface's rules it
// relaxes.
package wsq
