// Package queuetest is the conformance suite every wsq.Queue implementation
// runs: one copy of the tests, called with a one-line Run from each
// implementation's package (in the manner of golang.org/x/net/nettest).
//
// Run checks, against the executable specification in internal/model:
//
//   - sequential semantics: LIFO pop, FIFO steal, batch order, the
//     StealCount rounding, nil and empty batches, invalid proportions, a full
//     bounded queue, and long random operation sequences;
//   - exactly-once delivery under concurrency: one owner mixing Push,
//     PushBatch, any native batch push and Pop against several thieves mixing
//     Steal, StealBatch and any native steal, millions of items, checked by
//     count, checksum and a bitmap, with int items and with four-word structs
//     whose self-check exposes torn reads;
//   - linearizability of many short concurrent histories, checked with
//     porcupine (a result of Unknown fails the test);
//   - that removed items are not kept reachable.
//
// Fuzz drives the same operation sequences from a testing.F fuzzer.
package queuetest
