#!/bin/bash
# The rounds of this folder: bench/pools's benchmarks built once, then
# ROUNDS interleaved rounds. A round runs each scenario's contenders once
# (-count 1), one scenario after another; before each scenario it waits,
# up to half a minute, for the last minute's load to fall below 1, since
# other jobs share the machine, and it records the load. Run from anywhere:
#   bash bench/report/results/pools-2026-12-06/run.sh [ROUNDS]
set -euo pipefail
D=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${1:-6}
cd "$D/../../../pools"
go test -c -o /tmp/pools.test .
scenarios=(
  'Pools/work=cpu/submitters=1/' 'Pools/work=cpu/submitters=4/' 'Pools/work=cpu/submitters=100/'
  'Pools/work=block/submitters=1/' 'Pools/work=block/submitters=4/' 'Pools/work=block/submitters=100/'
  'OrderedMap/item=1us/' 'OrderedMap/item=100us/'
)
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S') UTC, commit $(git rev-parse --short HEAD), $(go version), GOMAXPROCS=$(nproc)"
  for r in $(seq 1 "$ROUNDS"); do
    for s in "${scenarios[@]}"; do
      for _ in $(seq 1 3); do
        awk '{exit !($1 < 1.0)}' /proc/loadavg && break
        sleep 10
      done
      echo "# round $r, $s, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S)"
      /tmp/pools.test -test.run '^$' -test.bench "$s" -test.count 1 -test.benchmem | grep -E '^Benchmark'
    done
  done
  echo "# end, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S)"
} > "$D/rounds.txt"
python3 "$D/ratios.py" "$D/rounds.txt" > "$D/summary.md"
