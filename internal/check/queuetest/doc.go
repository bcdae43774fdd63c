// Package queuetest is the conformance suite every wsq.Queue implementation
// runs: one copy of the tests, called with a one-line Run from each
// implementation's package (in the manner of golang.org/x/net/nettest).
//
// Run checks, against the executable specification in internal/check/model:
//
//   - sequential semantics: LIFO pop, FIFO steal, batch order, the
//     StealCount rounding, nil and empty batches, invalid proportions, a full
//     bounded queue, and long random operation sequences;
//   - exactly-once delivery under concurrency: one owner mixing Push,
//     PushBatch, any native batch push and Pop against several thieves mixing
//     Steal, StealBatch and any native steal, millions of items at full
//     size, checked by count, checksum and a bitmap, with int items and with
//     four-word structs whose self-check exposes torn reads;
//   - linearizability of many short concurrent histories, checked with
//     porcupine (a result of Unknown fails the test);
//   - that removed items are not kept reachable;
//   - a soak: 1 owner and 8 thieves moving 100,000 items at full size
//     (20,000 at quick size and under testing.Short), or 10^7 with
//     WSQ_SOAK=1, by count, checksum and bitmap;
//   - in the chaos build (build tag wsqchaos, see internal/check/chaos) a chaos
//     check: the exactly-once run with 8 thieves and 1,000 linearizability
//     histories (at full size) under GOMAXPROCS 8 or more, with seeded yields, sleeps and
//     stalls at every atomic operation of the queue and around each of its
//     operations, logging the seed and the counts.
//
// Fuzz drives the same operation sequences from a testing.F fuzzer.
//
// # Sizes
//
// Every check runs at one of three sizes, chosen by internal/check/testenv.Size:
// quick by default, full when the environment variable WSQ_FULL=1 asks
// for it (CI's `WSQ_FULL=1 go test -race ./...`), short under -short (the
// runs CI makes without the race detector, on an emulator and in chaos
// mode; -short wins over WSQ_FULL). The quick size runs every check and
// every pattern with fewer items, histories and rounds:
//
//	check            quick     full        short
//	RandomSequential 30        300         60      operation sequences
//	Retention        4,000     40,000      10,000  items per pattern
//	LenBounds        50,000    1,000,000   200,000 owner operations
//	AtomicPushBatch  4         60          10      batches of 10,000 (or the capacity)
//	ExactlyOnce      Items/40  Items       Items/10 (Items: 2,000,000 unless set)
//	ExactlyOnceWide  a quarter of ExactlyOnce's items
//	Linearizable     100       400         80      histories
//	Soak             20,000    100,000     20,000  items (WSQ_SOAK overrides)
//	Chaos            200       1,000       200     histories, and ExactlyOnce's items
package queuetest
