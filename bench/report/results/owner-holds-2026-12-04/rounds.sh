#!/bin/bash
# rounds.sh OUT ROUNDS: interleaved rounds of the base and head bench binaries
out=$1; rounds=${2:-6}
cd /work/main/bench
: > $out
for r in $(seq $rounds); do
  for v in base head; do
    b=/tmp/bench_$v.test
    if [ $v = base ]; then pb='^BenchmarkPush$/queue=bq/batch=(1|1024)$'; else pb='^BenchmarkPushBatch$/queue=bq/batch=(1|1024)$|^BenchmarkPush$/queue=bq$'; fi
    echo "# round $r $v $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
    $b -test.run '^$' -test.bench "^BenchmarkPop\$/queue=(bq|cl-ub)\$|$pb" -test.benchtime 2000000x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /" >> $out
    $b -test.run '^$' -test.bench '^BenchmarkSteal$/queue=bq/n=100000/p=60$' -test.benchtime 3000x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /" >> $out
    $b -test.run '^$' -test.bench '^BenchmarkForkJoin$/impl=(pool-bq|join-bq)/work=fine$' -test.cpu 1,2 -test.benchtime 20x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /" >> $out
    WSQ_DAG_NODES=100000 $b -test.run '^$' -test.bench '^BenchmarkDAG$/queue=bq/mode=(master|random)/work=irregular/' -test.benchtime 5x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /" >> $out
  done
  /tmp/bench_head.test -test.run '^$' -test.bench '^BenchmarkThieves$/queue=(bq|cl-ub|tf-ub)/' -test.benchtime 0.3s -test.count 1 2>&1 | grep ^Bench | sed "s/^/head /" >> $out
done
