// Package queuecheck runs interleaving scenarios against a wsq.Queue[int]
// under the deterministic scheduler of package interleave and checks every
// execution. A queue's checks are a Config and a list of Scenarios; Run
// explores each as a subtest. The scenarios every queue runs, whatever its
// structure (OneItem, PushPop, DrainRefill), are built here for each kind
// of steal (StealKinds, PerSteal), beside the queue's own.
//
// A Scenario prefills the queue with items 1..Prefill, then runs an owner
// thread and thief threads, each a short sequence of operations (Push,
// PushBatch, a native batch push, Pop; Steal, StealBatch, a native steal).
// The harness assigns every pushed item a unique value. After the threads
// finish, each execution is checked, outside the scheduler:
//
//   - the queue's own invariants (Config.Invariants), if it has any;
//   - a drain: the remaining items are stolen one by one, and Len must be 0;
//   - exactly once: every pushed item was removed exactly once, by a Pop, a
//     steal or the drain, and nothing else came out;
//   - linearizability: the history of the execution (the prefill, each
//     operation with its call and return ticks from the scheduler's clock,
//     the drain) is checked with porcupine against the model of
//     internal/check/queuetest, the one model of the Queue semantics; Unknown is
//     a failure. Equal histories of different executions are checked once.
//
// Run logs, for each scenario, how it was explored and how many executions
// and distinct histories that took, and a summary line for the whole run.
// A failure prints the counterexample trace and the command that replays
// it: the environment variable WSQCHECK_SCHEDULE (a schedule) or
// WSQCHECK_SEED (a seed of a random exploration), with -run selecting the
// scenario.
package queuecheck
