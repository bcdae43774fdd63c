#!/usr/bin/env bash
# run.sh: the runs of span-2026-12-06 (see README.md), from the repository
# root:  bash bench/report/results/span-2026-12-06/run.sh [step ...]
# Steps (default all, in this order): span, cost, burden, timed, paired,
# report.
set -euo pipefail
out=bench/report/results/span-2026-12-06
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(span cost burden timed paired report)
bin=$(mktemp -d)/bench.test
go test -c -o "$bin" ./bench
hdr() { printf '# goversion: %s\n# date: %s\n# cores: %s\n# commit: %s\n' "$(go env GOVERSION)" "$(date -u +%FT%TZ)" "$(nproc)" "$(git rev-parse --short HEAD)"; }
load() { echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"; }
{ hdr; lscpu | sed 's/^/# /'; } > "$out/machine.txt"

for step in "${steps[@]}"; do
case $step in
span)
	# The work and span of every workload: three measured runs a sample,
	# five samples, on the thread's CPU clock (the default); then the
	# fork-join workloads on the wall clock too.
	{ hdr; load; (cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkSpan$' -test.cpu 2 -test.benchtime 3x -test.count 5); load; } > "$out/span.txt" 2>&1
	{ hdr; load; (cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkSpan$/^work=forkjoin-' -test.cpu 2 -test.benchtime 3x -test.count 5 -span.wallclock); load; } > "$out/span-wallclock.txt" 2>&1
	;;
cost)
	# What measuring costs a run: paired unmeasured and measured runs.
	{ hdr; load; (cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkSpanCost$' -test.cpu 2 -test.benchtime 7x -test.count 1); load; } > "$out/cost.txt" 2>&1
	;;
burden)
	# What a migration costs: the burden.
	{ hdr; load; (cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkBurden$' -test.cpu 2 -test.benchtime 3000x -test.count 5); load; } > "$out/burden.txt" 2>&1
	;;
timed)
	# The timed workloads at 1 and 2 workers, in interleaved rounds of one
	# sample each: each round runs each benchmark at -cpu 1, then at 2 (the
	# DAG and the busy work alone at -cpu 2, where they run 1 worker, then
	# 2). BenchmarkDAGCeiling's speedup is what the machine gave meanwhile.
	timed=('^BenchmarkForkJoin$/^impl=join-bq$' '^BenchmarkNQueens$/^impl=pool-bq$' '^BenchmarkLoop$/^work=/^impl=wsq$'
		'^BenchmarkSort$/^data=/^impl=wsq$' '^BenchmarkBlockingWalk$/^impl=pool$')
	{ hdr; for round in $(seq "${ROUNDS:-6}"); do
		echo "# round $round"; load
		for pat in "${timed[@]}"; do
			(cd bench && "$bin" -test.run '^$' -test.bench "$pat" -test.cpu 1,2 -test.benchtime 5x -test.count 1)
		done
		(cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkDAG$/^queue=bq$' -test.cpu 2 -test.benchtime 5x -test.count 1)
		(cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkDAGCeiling$' -test.cpu 2 -test.benchtime 5x -test.count 1)
	done; load; } > "$out/timed.txt" 2>&1
	;;
paired)
	# Short attempts, each bracketed by the busy work alone at 1 and 2
	# workers: the analysis keeps the attempts in which the machine gave
	# its second core (both brackets 1.7x or more). For a machine whose
	# other jobs never leave a quiet minute.
	ceiling() { (cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkDAGCeiling$' -test.cpu 2 -test.benchtime 3x -test.count 1); }
	{ hdr; for attempt in $(seq "${ATTEMPTS:-40}"); do
		echo "# attempt $attempt"; load
		ceiling
		(cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkNQueens$/^impl=pool-bq$' -test.cpu 1,2 -test.benchtime 20x -test.count 1)
		(cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkBlockingWalk$/^impl=pool$' -test.cpu 1,2 -test.benchtime 5x -test.count 1)
		(cd bench && "$bin" -test.run '^$' -test.bench '^BenchmarkForkJoin$/^impl=join-bq$/^work=coarse$' -test.cpu 1,2 -test.benchtime 5x -test.count 1)
		ceiling
	done; load; } > "$out/paired.txt" 2>&1
	;;
report)
	# The measured speedups at 2 workers come from the latest runs on this
	# VM at low load, as the machine gave no second core to timed.txt or
	# paired.txt (see README.md): report-2026-12-06 (load 0.0-1.9) for
	# fork-join, the DAG and the busy work alone, loops-2026-12-06b (load
	# 1.1-1.5) for the loops and sorts. Their rows, and both runs of
	# BenchmarkSpan, make the report command's input; the 16-core runs of
	# 2026-12-04 go beside them.
	r=bench/report/results
	{ echo "# rows of $r/report-2026-12-06/bench.txt and $r/loops-2026-12-06b/go.txt"
	  grep -E '^(goos|goarch|pkg|cpu):' "$r/report-2026-12-06/bench.txt" | head -4
	  grep -E '^BenchmarkForkJoin/impl=join-bq/|^BenchmarkDAG/queue=bq/|^BenchmarkDAGCeiling/' "$r/report-2026-12-06/bench.txt"
	  grep -E '^Benchmark(Loop|Sort)/[^ ]*impl=wsq' "$r/loops-2026-12-06b/go.txt"; } > "$out/quiet.txt"
	cat "$out/span-1.txt" "$out/span.txt" "$out/quiet.txt" > "$out/bench.txt"
	(cd bench/report && go run . -in "results/span-2026-12-06/bench.txt" -out results/span-2026-12-06 -progress=false \
		-multicore results/multicore-2026-12-04/forkjoin-after.txt,results/multicore-2026-12-04/dag.txt)
	;;
*) echo "run.sh: unknown step $step" >&2; exit 2 ;;
esac
done
