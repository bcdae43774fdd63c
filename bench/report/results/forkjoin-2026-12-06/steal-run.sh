#!/bin/bash
# rounds: each choice its own invocation, order rotating
# CHOICES='"new auto" "new one" "new 0.1" "new 0.5" "new 0.9"' ROUNDS=6 BT=40x ./steal-run.sh > steal-amount.txt
# run from a folder holding new.test (go test -c -o new.test ./bench)
eval "choices=(${CHOICES})"
n=${#choices[@]}
for r in $(seq 0 $(( ${ROUNDS:-10} - 1 ))); do
  echo "# round $((r+1)) $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in $(seq 0 $((n-1))); do
    set -- ${choices[$(( (i + r) % n ))]}
    WSQ_DAG_NODES=100000 ./$1.test -test.run '^$' -test.bench "StealAmount/${PAT:-.*}/${MODE:-.*}/steal=${2}\$" -test.benchtime ${BT:-20x} -test.count 1 2>&1 | grep ^Bench | sed "s/^/$1 /"
  done
done
