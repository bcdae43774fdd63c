#!/usr/bin/env bash
# The run of this folder: every benchmark family that BENCHMARKS.md plots,
# -count 6, each with an op count that keeps a sample short, joined into
# bench.txt with the report's header, then the report command over it.
# Run from the repository root: bash bench/report/results/report-2026-12-06/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=${OUT:-bench/report/results/report-$(date -u +%F)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/bench.test" ./bench
b() { # regex benchtime [more flags]: one family, 6 samples
  echo "# load before $1: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/loads.txt"
  (cd bench && "$bin/bench.test" -test.run '^$' -test.bench "$1" -test.benchtime "$2" -test.count 6 "${@:3}")
}
{
  echo "# goversion: $(go env GOVERSION)"
  echo "# date: $(date -u +%FT%TZ)"
  echo "# cores: $(nproc)"
  b '^BenchmarkPush$' 1000000x
  b '^BenchmarkPushBatch$' 2000x
  b '^BenchmarkPop$' 2000000x
  b '^BenchmarkSteal$' 200x
  b '^BenchmarkDAG$|^BenchmarkDAGCeiling$' 5x
  b '^BenchmarkMasterCapacity$' 3x
  b '^BenchmarkForkJoin$/^impl=(goroutines|errgroup|pool-bq|join-bq|pool-cl-ub|pool-lf)$' 5x -test.cpu 1,2
  b '^BenchmarkThieves$/^queue=(bq|cl-ub|tf-ub|lf|mutex)$' 2000000x
  b '^BenchmarkNQueens$' 20x
  b '^BenchmarkBlockingWalk$/^impl=(pool|pool-max16|goroutines|errgroup)$' 5x
  b '^BenchmarkInject$' 100x
} > "$out/bench.txt"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/loads.txt"
(cd bench/report && go run . -in "$out/bench.txt" -out "$out" -progress=false)
