// Package chaos injects scheduling noise into real concurrent runs of the
// queues: the chaos mode of the build tag wsqchaos.
//
// In that build internal/atomicx calls Point before every atomic operation
// and every Lock and Unlock of the queues. Point decides, from a seeded
// pseudo-random stream, whether to go on, to yield the processor
// (runtime.Gosched), to sleep for a few microseconds, or, rarely, to stall
// for milliseconds. The decisive steps of an operation (stores, swaps,
// compare-and-swaps, unlocks) are delayed more often than loads, so that
// the window between a load and the compare-and-swap that depends on it,
// which a machine with few cores rarely stretches, becomes long: a thief
// preempted after it read the queue's state while the owner pushes and pops
// thousands of times. Run with GOMAXPROCS above the number of cores, more
// goroutines are preempted in such windows.
//
// The stream is determined by the seed: the n-th point the process reaches,
// in the order the goroutines reach them, takes the n-th decision. The
// seed comes from the environment variable WSQ_CHAOS_SEED, or else from the
// clock, and a test binary prints it to standard error when it starts, so
// the output of a failing run names it. The seed is read when the package
// is initialized, before go test can record what a test reads, so go test's
// cache does not tell seeds apart: run chaos tests with -count=1. Running
// again with the same seed replays the same decisions, but not the same
// interleaving, which the operating system's scheduler still chooses: chaos
// makes rare schedules common, and the interleaving explorer
// (internal/check/interleave) replays one exactly.
//
// In every other build Enabled is false and Point is never called. Chaos
// runs are meant to be run without the race detector: the counter that
// numbers the points is one more atomic variable, and its synchronization
// could hide a data race from the detector.
package chaos
