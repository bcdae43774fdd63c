#!/bin/bash
# Eight rounds; within a round each steal choice runs as its own
# invocation, in an order that rotates from round to round.
cd /work/main/bench
choices=(auto one 0.1 0.5 0.9)
echo "# commit $(git rev-parse --short HEAD); WSQ_DAG_NODES=100000; -test.benchtime 20x"
for r in $(seq 0 7); do
  echo "# round $((r+1)) $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in 0 1 2 3 4; do
    c=${choices[$(( (i + r) % 5 ))]}
    WSQ_DAG_NODES=100000 /tmp/sa.test -test.run '^$' -test.bench "StealAmount/.*/.*/steal=${c}\$" -test.benchtime 20x -test.count 1 2>&1 | grep ^Bench
  done
done
echo "# end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
