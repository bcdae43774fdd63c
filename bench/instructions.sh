#!/usr/bin/env bash
# instructions.sh: instructions per fine fork-join task, counted by
# cachegrind, which unlike time is the same in every run.
#
#   bench/instructions.sh [-bin bench.test] [impl ...]
#
# It runs BenchmarkForkJoin's work=fine (fib(27), a task per call) on one
# worker at -benchtime 2x and 12x under cachegrind, and prints
# (I12 - I2) / (10 x the forks of one run) for each impl (default: join-bq
# pool-bq). -bin runs a test binary built before (go test -c ./bench), to
# compare two commits. valgrind 3.19 stops on RDTSCP in some Go runs: a
# run whose log shows "Unrecognised instruction" is tried again, up to
# ten times.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=""
if [ "${1:-}" = "-bin" ]; then bin=$2; shift 2; fi
impls=("$@")
[ ${#impls[@]} -gt 0 ] || impls=(join-bq pool-bq)
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
	(cd "$root" && go test -c -o "$tmp/bench.test" ./bench)
	bin=$tmp/bench.test
fi
forks=317810 # fibForks(27, 1)
count() { # impl, benchtime
	local log=$tmp/cg.$1.$2
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		if GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file="$log" \
			"$bin" -test.run '^$' -test.bench "^BenchmarkForkJoin\$/impl=$1/work=fine\$" \
			-test.benchtime "$2" -test.cpu 1 >"$log.out" 2>&1 &&
			! grep -q "Unrecognised instruction" "$log"; then
			sed -n 's/.*I *refs: *//p' "$log" | tr -d ,
			return
		fi
		grep -q "Unrecognised instruction" "$log" || { cat "$log" "$log.out" >&2; exit 1; }
	done
	echo "instructions.sh: valgrind could not decode an instruction ten times" >&2
	exit 1
}
for impl in "${impls[@]}"; do
	i2=$(count "$impl" 2x)
	i12=$(count "$impl" 12x)
	awk -v a="$i2" -v b="$i12" -v f="$forks" -v n="$impl" 'BEGIN { printf "%s %.1f instructions/task\n", n, (b - a) / (10 * f) }'
done
