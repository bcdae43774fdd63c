#!/usr/bin/env bash
# rounds.sh OLD.test NEW.test [ROUNDS]: the binaries of ./bench before the
# private fork stack (old) and after (new), in turn, into rounds.txt.
# Build each with: go test -c -o X.test ./bench
set -u
old=$1 new=$2
for r in $(seq 1 "${3:-8}"); do for v in old new; do
  bin=${!v}
  echo "# round $r $v load $(cut -d' ' -f1 /proc/loadavg)" >> rounds.txt
  $bin -test.run '^$' -test.bench '^BenchmarkForkJoin$/impl=(pool|join)-bq/' -test.benchtime 20x -test.cpu 1,2 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
  WSQ_DAG_NODES=200000 $bin -test.run '^$' -test.bench '^BenchmarkDAG$/queue=bq/mode=(master|random)/work=(uniform|irregular)/workers=2$' -test.benchtime 5x 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
  $bin -test.run '^$' -test.bench '^BenchmarkNQueens$/impl=(pool-bq|run-bq)$' -test.benchtime 20x -test.cpu 2 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
  $bin -test.run '^$' -test.bench 'BlockingWalk/impl=pool-max16$' -test.benchtime 5x 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
  $bin -test.run '^$' -test.bench 'StealAmount/work=flat/mode=.*/steal=auto$' -test.benchtime 40x 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
  $bin -test.run '^$' -test.bench '^BenchmarkPop$/queue=(bq|cl-ub)$' -test.benchtime 1s 2>&1 | grep '^Benchmark' | sed "s/^/$v r$r /" >> rounds.txt
done; done
