#!/bin/bash
cd /work/main/bench
for r in 1 2 3 4 5 6; do
  for v in old new; do
    echo "# round $r $v $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    /tmp/$v.test -test.run '^$' -test.bench 'Inject' -test.benchtime 300x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /"
    /tmp/$v.test -test.run '^$' -test.bench 'ForkJoin$/impl=(pool-bq|join-bq)' -test.benchtime 10x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /"
  done
done
cd /work/main/sched
for r in 1 2 3; do
  for v in old new; do
    /tmp/${v}sched.test -test.run '^$' -test.bench 'GroupWaitOrder' -test.benchtime 10x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /"
  done
done
cd /work/main/bench
for r in 1 2 3; do
  for v in old new; do
    /tmp/$v.test -test.run '^$' -test.bench 'BlockingWalk/impl=(pool|pool-max16|goroutines)$' -test.benchtime 5x -test.count 1 2>&1 | grep ^Bench | sed "s/^/$v /"
  done
done
echo "# end $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
