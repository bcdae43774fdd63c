#!/bin/bash
# rounds: each choice its own invocation, order rotating
cd /work/main/bench
eval "choices=(${CHOICES})"
n=${#choices[@]}
for r in $(seq 0 $(( ${ROUNDS:-10} - 1 ))); do
  echo "# round $((r+1)) $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in $(seq 0 $((n-1))); do
    set -- ${choices[$(( (i + r) % n ))]}
    WSQ_DAG_NODES=100000 /tmp/$1.test -test.run '^$' -test.bench "StealAmount/${PAT:-.*}/${MODE:-.*}/steal=${2}\$" -test.benchtime 20x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$1 /"
  done
done
