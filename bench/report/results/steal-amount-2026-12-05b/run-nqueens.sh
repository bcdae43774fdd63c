#!/bin/bash
cd /work/main/bench
choices=(auto one 0.1 0.5)
for r in $(seq 0 9); do
  echo "# round $((r+1)) $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in 0 1 2 3; do
    c=${choices[$(( (i + r) % 4 ))]}
    /tmp/sa.test -test.run '^$' -test.bench "StealAmount/work=nqueens/.*/steal=${c}\$" -test.benchtime 100x -test.count 1 2>&1 | grep ^Bench
  done
done
