#!/usr/bin/env bash
# Builds every example program and runs it on small inputs: each run must
# exit 0 and print a line starting with "verified:", and a bad flag must
# give exit status 2 with a message and no panic trace. Run from anywhere:
#
#   bash examples/ci.sh
#
# It takes under a minute on two cores. Set EXAMPLES_CI_KEEP=1 to keep the
# binaries and logs (the script prints where they are).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
if [ "${EXAMPLES_CI_KEEP:-}" = 1 ]; then
  echo "examples/ci.sh: binaries and logs in $work"
else
  trap 'rm -rf "$work"' EXIT
fi

examples=(quickstart dagexplore knapsack fib)
for ex in "${examples[@]}"; do
  go build -o "$work/$ex" "./examples/$ex"
done

failed=0
runs=0

# ok EXAMPLE ARGS...: the run must exit 0 and print a "verified:" line.
ok() {
  local ex=$1; shift
  local log="$work/$ex.$runs.log"
  runs=$((runs + 1))
  local code=0
  "$work/$ex" "$@" >"$log" 2>&1 || code=$?
  if [ "$code" -ne 0 ] || ! grep -q '^verified:' "$log"; then
    echo "FAIL: $ex $* (exit $code, want 0 and a verified: line)"
    sed 's/^/    /' "$log"
    failed=1
  else
    echo "ok    $ex $*: $(grep '^verified:' "$log" | head -1 | cut -c1-100)"
  fi
}

# usage EXAMPLE ARGS...: the run must exit 2 with a message, no panic.
usage() {
  local ex=$1; shift
  local log="$work/$ex.$runs.log"
  runs=$((runs + 1))
  local code=0
  "$work/$ex" "$@" >"$log" 2>&1 || code=$?
  if [ "$code" -ne 2 ] || [ ! -s "$log" ] || grep -q -e '^panic' -e '^goroutine ' "$log"; then
    echo "FAIL: $ex $* (exit $code, want 2 with a message and no panic)"
    sed 's/^/    /' "$log"
    failed=1
  else
    echo "ok    $ex $*: exit 2: $(head -1 "$log" | cut -c1-80)"
  fi
}

# Every queue of package catalog, as its unknown-queue message lists them.
queues=$( ("$work/quickstart" -queue '?' 2>&1 || true) | sed -n 's/.*known queues: //p' | tr -d ',')
if [ -z "$queues" ]; then
  echo "FAIL: cannot list the queues from quickstart's message"
  exit 1
fi

for q in $queues; do
  ok quickstart -n 20000 -queue "$q"
done
usage quickstart -queue nope
usage quickstart -n -1

for q in $queues; do
  ok dagexplore -nodes 20000 -queue "$q" -progress 0
done
ok dagexplore -nodes 20000 -queue cl-bd -mode random -work irregular -workers 3 -progress 0
ok dagexplore -nodes 5000 -workers 2 -speedup -progress 0
usage dagexplore -mode both
usage dagexplore -nodes 0

ok knapsack -n 30 -seed 3
ok knapsack -n 30 -type weak -queue tf-ub -mode random -workers 3
ok knapsack -file examples/knapsack/testdata/sample.txt
usage knapsack -type hard
bad="$work/bad-instance.txt"
printf '2 10\n1 2\nthree 4\n' >"$bad"
usage knapsack -file "$bad"

ok fib -n 16
ok fib -n 16 -queue lf-skip -mode master -workers 3
ok fib -n 16 -queue mutex -one=false -proportion 0.3
usage fib -n 100

if [ "$failed" -ne 0 ]; then
  echo "examples/ci.sh: FAILED"
  exit 1
fi
echo "examples/ci.sh: all $runs runs passed"
