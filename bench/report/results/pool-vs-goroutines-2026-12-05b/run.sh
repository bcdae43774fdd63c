#!/bin/bash
cd /work/main/bench
D=/work/main/bench/report/results/pool-vs-goroutines-2026-12-05b
echo "# The run of bench.txt, $(date -u '+%Y-%m-%d %H:%M:%S') UTC, on the 2-core machine, at commit $(git rev-parse --short HEAD)." > $D/run.txt
echo "# Built once (go test -c -o /tmp/new.test ./bench), then three phases, each equivalent to:" >> $D/run.txt
echo "#   go test -run '^$' -bench 'ForkJoin/impl=(pool-bq|join-bq|goroutines|errgroup)/' -count 3 -benchtime 10x ./bench" >> $D/run.txt
echo "#   go test -run '^$' -bench 'BlockingWalk/impl=(pool-max16|goroutines|errgroup)$' -count 3 -benchtime 5x ./bench" >> $D/run.txt
echo "#   go test -run '^$' -bench 'NQueens/impl=(pool-bq|goroutines)$|Inject' -count 3 ./bench" >> $D/run.txt
{
echo "load before forkjoin: $(cut -d' ' -f1-3 /proc/loadavg)" >> $D/run.txt
/tmp/new.test -test.run '^$' -test.bench 'ForkJoin/impl=(pool-bq|join-bq|goroutines|errgroup)/' -test.count 3 -test.benchtime 10x
echo "load before walk: $(cut -d' ' -f1-3 /proc/loadavg)" >> $D/run.txt
/tmp/new.test -test.run '^$' -test.bench 'BlockingWalk/impl=(pool-max16|goroutines|errgroup)$' -test.count 3 -test.benchtime 5x | grep -v '^goos\|^goarch\|^pkg\|^cpu\|^PASS'
echo "load before nqueens-inject: $(cut -d' ' -f1-3 /proc/loadavg)" >> $D/run.txt
/tmp/new.test -test.run '^$' -test.bench 'NQueens/impl=(pool-bq|goroutines)$|Inject' -test.count 3 | grep -v '^goos\|^goarch\|^pkg\|^cpu'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> $D/run.txt
} > $D/bench.txt 2>&1
echo "# Report: cd bench/report && go run . -in results/pool-vs-goroutines-2026-12-05b/bench.txt -out results/pool-vs-goroutines-2026-12-05b -md none -progress=false" >> $D/run.txt
