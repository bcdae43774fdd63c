#!/usr/bin/env bash
# Runs the parallel loops and sorts of ./bench (BenchmarkLoop,
# BenchmarkSort, BenchmarkSortStable) beside their rayon peers
# (bench/peers/rust/src/loops.rs)
# in bench/report's interleaved rounds, and prints the medians and the
# ratios that the loops are judged by. See bench/peers/loops.md.
#
#   bench/peers/loops.sh [-rounds N] [-cpus "1 2"] [-out DIR] [-only loop|sort] [-sort PAT] [-quick]
#
#   -rounds N   interleaved rounds (default 5): in each, for each workload
#               and worker count, Go's benchmarks run once and Rust's once,
#               in alternating order; the table quotes medians over rounds
#   -cpus LIST  worker counts (default "1 2"): Go's -test.cpu, rayon's
#               threads
#   -out DIR    where rounds.txt, go.txt, rust.txt and ratios.md go
#               (default: a new directory under ${TMPDIR:-/tmp})
#   -only WHAT  only the loops, or only the sorts (stable ones included)
#   -sort PAT   with the sorts, only the inputs whose data=... name
#               contains PAT (ints-random, strings-, zipf, ...)
#   -quick      one round of one op each: does everything build and run?
#
# Needs Go, cargo and Debian's crate sources of rayon, as run.sh does; it
# builds both sides in a temporary directory that it removes. Not part of
# go test or CI.
set -euo pipefail

die() { echo "bench/peers/loops: $*" >&2; exit 1; }
usage() { echo "bench/peers/loops: $* (see the comment at the top of the script)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

rounds=5 cpus="1 2" out= only= quick= sortpat=
while [ $# -gt 0 ]; do
  case $1 in
    -rounds) [ $# -ge 2 ] || usage "-rounds needs a value"; rounds=$2; shift 2 ;;
    -cpus) [ $# -ge 2 ] || usage "-cpus needs a value"; cpus=$2; shift 2 ;;
    -out) [ $# -ge 2 ] || usage "-out needs a value"; out=$2; shift 2 ;;
    -only) [ $# -ge 2 ] || usage "-only needs a value"; only=$2; shift 2 ;;
    -sort) [ $# -ge 2 ] || usage "-sort needs a value"; sortpat=$2; shift 2 ;;
    -quick) quick=1; shift ;;
    -h|-help|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown argument $1" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage "-rounds $rounds: want a positive integer"
for c in $cpus; do [[ $c =~ ^[1-9][0-9]*$ ]] || usage "-cpus: $c is not a positive integer"; done
case $only in ''|loop|sort) ;; *) usage "-only $only: want loop or sort" ;; esac
[[ $sortpat != *[[:space:]]* ]] || usage "-sort $sortpat: a pattern without spaces"
loopn=10x sortn=2x
if [ -n "$quick" ]; then rounds=1 loopn=1x sortn=1x; fi

command -v go >/dev/null || die "go not found"
command -v cargo >/dev/null || die "cargo not found: see bench/peers/README.md"
compgen -G "/usr/share/cargo/registry/rayon-1.*" >/dev/null ||
  die "Debian's crate sources of rayon are not in /usr/share/cargo/registry (apt-get install librust-rayon-dev librust-crossbeam-deque-dev)"

bin=$(mktemp -d "${TMPDIR:-/tmp}/wsq-loops-build.XXXXXX")
trap 'rm -rf "$bin"' EXIT
if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/wsq-loops.XXXXXX"); fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "bench/peers/loops: output in $out" >&2

mkdir "$bin/rust"
cp -R bench/peers/rust/Cargo.toml bench/peers/rust/src bench/peers/rust/.cargo "$bin/rust/"
(cd "$bin/rust" && cargo build --release --quiet) || die "cargo build failed"
go test -c -o "$bin/bench.test" ./bench || die "go test -c ./bench failed"

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null)"
  echo "cores: $(nproc)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "go: $(go version)"
  echo "rust: $(rustc --version 2>/dev/null)"
  echo "rounds: $rounds"
} > "$out/machine.txt"

# A row per workload and worker count, its two sides side families of
# bench/report: the Go test binary and the Rust harness, in turns.
families=()
for c in $cpus; do
  if [ "$only" != sort ]; then
    families+=(-family "loop-$c/go: -test.run ^\$ -test.bench ^BenchmarkLoop\$ -test.benchtime $loopn -test.cpu $c"
      -family "loop-$c/rust: -bench BenchmarkLoop/* -benchtime $loopn -cpu $c")
  fi
  if [ "$only" != loop ]; then
    families+=(-family "sort-$c/go: -test.run ^\$ -test.bench ^BenchmarkSort(Stable)?\$/${sortpat:-.} -test.benchtime $sortn -test.cpu $c"
      -family "sort-$c/rust: -bench BenchmarkSort/data=*${sortpat}*|BenchmarkSortStable/data=*${sortpat}* -benchtime $sortn -cpu $c")
  fi
done
# The ratios: per workload and worker count, the median over rounds of
# wsq's time over each other's in the same round (below 1: wsq is faster).
(cd bench/report && go run . -root "$root" -rounds "$rounds" -bin "go=$bin/bench.test" -bin "rust=$bin/rust/target/release/wsq-peers" \
  "${families[@]}" -ratio 'impl=wsq/impl=*' -across -out "$out") || die "bench/report failed (see above)"
echo
cat "$out/machine.txt"
