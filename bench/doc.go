// Package bench holds the module's benchmarks: the experiments of the paper
// "A Lock-Free Work-Stealing Algorithm for Bulk Operations" (push latency by
// batch size, steal latency by proportion, pop latency, DAG exploration) as
// Go benchmarks over every implementation in package catalog. The DAG
// exploration is package bench/dag, which examples/dagexplore runs too.
//
// Run them with
//
//	go test -run '^$' -bench . -count 5 ./bench
//
// and compare runs with benchstat. The timed benchmarks of the workloads
// of BenchmarkSpan (fork-join, DAG, n-queens, the loops, the sorts of
// random input, the blocking walk) report the workload's parallelism and
// burdened-parallelism on their sched rows: one measured run per process,
// made before the timed loop, which stays unmeasured. BENCHMARKS.md in the repository root has
// this machine's figures, the commands that produced them, and the recipe
// for a large server.
package bench
