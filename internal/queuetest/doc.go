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
//   - that removed items are not kept reachable;
//   - a soak: 1 owner and 8 thieves moving 100,000 items (20,000 under
//     testing.Short), or 10^7 with WSQ_SOAK=1, by count, checksum and
//     bitmap;
//   - in the chaos build (build tag wsqchaos, see internal/chaos) a chaos
//     check: the exactly-once run with 8 thieves and 1,000 linearizability
//     histories under GOMAXPROCS 8 or more, with seeded yields, sleeps and
//     stalls at every atomic operation of the queue and around each of its
//     operations, logging the seed and the counts.
//
// Fuzz drives the same operation sequences from a testing.F fuzzer.
package queuetest
