#!/usr/bin/env bash
# Runs the loop of steps of ./bench (BenchmarkSteps: Task Bench's
# patterns, T steps of W points) beside C++ OpenMP and oneTBB on the same
# loops (bench/peers/cpp/steps.cpp), in bench/report's interleaved rounds:
# each round runs the Go test binary and the C++ harness once each, in
# turn. The report's steps section then gives each implementation's
# METG(50 %) and its efficiency by task size.
#
#   bench/peers/steps.sh [-rounds N] [-out DIR] [-bench REGEXP] [-quick]
#
#   -rounds N      interleaved rounds (default 5)
#   -out DIR       where rounds.txt, wsq.txt and cpp.txt go (default: a
#                  new directory under ${TMPDIR:-/tmp}); bench/report's -in
#                  reads rounds.txt into its report
#   -bench REGEXP  the rows, as go test's -bench reads it (default every
#                  row of BenchmarkSteps)
#   -quick         one round of one op each: does everything build and run?
#
# Needs Go, and g++ with OpenMP and oneTBB's headers (Debian: apt-get
# install g++ libtbb-dev), which it installs with apt-get when it can. Not
# part of go test or CI.
set -euo pipefail

die() { echo "bench/peers/steps: $*" >&2; exit 1; }
usage() { echo "bench/peers/steps: $* (see the comment at the top of the script)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

rounds=5 out= bench='^BenchmarkSteps$' ops=3x
while [ $# -gt 0 ]; do
  case $1 in
    -rounds) [ $# -ge 2 ] || usage "-rounds needs a value"; rounds=$2; shift 2 ;;
    -out) [ $# -ge 2 ] || usage "-out needs a value"; out=$2; shift 2 ;;
    -bench) [ $# -ge 2 ] || usage "-bench needs a value"; bench=$2; shift 2 ;;
    -quick) rounds=1 ops=1x; shift ;;
    -h|-help|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown argument $1" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage "-rounds $rounds: want a positive integer"
[[ $bench != *" "* ]] || usage "-bench $bench: a regexp without spaces"

command -v go >/dev/null || die "go not found"
have_tbb() { [ -e /usr/include/tbb/parallel_for.h ] || [ -e /usr/include/oneapi/tbb/parallel_for.h ]; }
if ! command -v g++ >/dev/null || ! have_tbb; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq g++ libtbb-dev >/dev/null 2>&1 || die "apt-get install g++ libtbb-dev failed"
  else
    die "g++ and oneTBB's headers are needed (Debian: apt-get install g++ libtbb-dev)"
  fi
fi

bin=$(mktemp -d "${TMPDIR:-/tmp}/wsq-steps-build.XXXXXX")
trap 'rm -rf "$bin"' EXIT
if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/wsq-steps.XXXXXX"); rmdir "$out"; fi
echo "bench/peers/steps: output in $out" >&2

g++ -std=c++20 -O3 -march=native -fopenmp bench/peers/cpp/steps.cpp -ltbb -o "$bin/steps-cpp" ||
  die "g++ failed to build bench/peers/cpp/steps.cpp (see above)"
go test -c -o "$bin/bench.test" ./bench || die "go test -c ./bench failed"
(cd bench/report && go run . -root "$root" -rounds "$rounds" -bin "wsq=$bin/bench.test" -bin "cpp=$bin/steps-cpp" \
  -family "$bench $ops" -out "$out" -progress=false)
