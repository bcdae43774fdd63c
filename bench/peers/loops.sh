#!/usr/bin/env bash
# Runs the parallel loops and sorts of ./bench (BenchmarkLoop,
# BenchmarkSort, BenchmarkSortStable) beside their rayon peers
# (bench/peers/rust/src/loops.rs)
# in interleaved rounds, and prints the medians and the ratios that the
# loops are judged by. See bench/peers/loops.md.
#
#   bench/peers/loops.sh [-rounds N] [-cpus "1 2"] [-out DIR] [-only loop|sort] [-sort PAT] [-quick]
#
#   -rounds N   interleaved rounds (default 5): in each, for each worker
#               count, Go's benchmarks run once and Rust's once, in
#               alternating order; the table quotes medians over rounds
#   -cpus LIST  worker counts (default "1 2"): Go's -test.cpu, rayon's
#               threads
#   -out DIR    where the raw output and the table go (default: a new
#               directory under ${TMPDIR:-/tmp})
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
loopn=10x sortn=2x
if [ -n "$quick" ]; then rounds=1 loopn=1x sortn=1x; fi

command -v go >/dev/null || die "go not found"
command -v cargo >/dev/null || die "cargo not found: see bench/peers/README.md"
compgen -G "/usr/share/cargo/registry/rayon-1.*" >/dev/null ||
  die "Debian's crate sources of rayon are not in /usr/share/cargo/registry (apt-get install librust-rayon-dev librust-crossbeam-deque-dev)"

bin=$(mktemp -d "${TMPDIR:-/tmp}/wsq-loops-build.XXXXXX")
trap 'rm -rf "$bin"' EXIT
if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/wsq-loops.XXXXXX"); fi
mkdir -p "$out/raw"
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
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# side ROUND CPU GO|RUST: one run of one side, its lines tagged with the
# round for the table.
side() {
  local f=$out/raw/$1.cpu$2.$3.txt
  : > "$f"
  if [ "$3" = go ]; then
    if [ "$only" != sort ]; then
      "$bin/bench.test" -test.run '^$' -test.bench '^BenchmarkLoop$' -test.benchtime "$loopn" -test.cpu "$2" >> "$f" 2>&1 || { cat "$f" >&2; die "go failed"; }
    fi
    if [ "$only" != loop ]; then
      "$bin/bench.test" -test.run '^$' -test.bench "^BenchmarkSort(Stable)?\$/${sortpat:-.}" -test.benchtime "$sortn" -test.cpu "$2" >> "$f" 2>&1 || { cat "$f" >&2; die "go failed"; }
    fi
  else
    set -f
    if [ "$only" != sort ]; then
      "$bin/rust/target/release/wsq-peers" -bench 'BenchmarkLoop/*' -benchtime "$loopn" -cpu "$2" >> "$f" 2>&1 || { set +f; cat "$f" >&2; die "rust failed"; }
    fi
    if [ "$only" != loop ]; then
      "$bin/rust/target/release/wsq-peers" -bench "BenchmarkSort/data=*${sortpat}*|BenchmarkSortStable/data=*${sortpat}*" -benchtime "$sortn" -cpu "$2" >> "$f" 2>&1 || { set +f; cat "$f" >&2; die "rust failed"; }
    fi
    set +f
  fi
  awk -v r="$1" -v c="$2" '/^Benchmark/ { n = $1; sub(/-[0-9]+$/, "", n); print r, c, n, $3 }' "$f" >> "$out/records.txt"
  grep '^Benchmark' "$f" >> "$out/$3.txt" || true
}

: > "$out/records.txt"; : > "$out/go.txt"; : > "$out/rust.txt"
for ((r = 1; r <= rounds; r++)); do
  for c in $cpus; do
    echo "bench/peers/loops: round $r/$rounds, $c worker(s), load $(cut -d' ' -f1 /proc/loadavg)" >&2
    if (( (r + c) % 2 == 0 )); then side "$r" "$c" go; side "$r" "$c" rust
    else side "$r" "$c" rust; side "$r" "$c" go; fi
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# The table: per worker count and benchmark, the median ns/op over rounds;
# then per workload the median over rounds of wsq's time over each other's
# in the same round (below 1: wsq is faster).
awk '
  function median(s,   a, k, i, j, t) {
    k = split(s, a, " ")
    for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  {
    r = $1; c = $2; name = $3; v = $4
    split(name, p, "/"); work = p[2]; impl = p[3]; sub(/^[a-z]+=/, "", work); sub(/^impl=/, "", impl)
    key = p[1] SUBSEP c SUBSEP work SUBSEP impl
    vals[key, r] = v
    if (!(key in all)) { all[key] = 1; order[++nk] = key }
    runs[key] = runs[key] " " v
    rounds[r] = 1
  }
  END {
    print "| benchmark | workers | impl | median ns/op |"
    print "|---|---:|---|---:|"
    for (i = 1; i <= nk; i++) { split(order[i], q, SUBSEP); printf "| %s %s | %s | %s | %.4g |\n", q[1], q[3], q[2], q[4], median(runs[order[i]]) }
    print ""
    print "| benchmark | workers | wsq / impl (median of ratios within a round) |"
    print "|---|---:|---|"
    for (i = 1; i <= nk; i++) {
      split(order[i], q, SUBSEP)
      if (q[4] != "wsq") continue
      line = ""
      for (j = 1; j <= nk; j++) {
        split(order[j], o, SUBSEP)
        if (o[1] != q[1] || o[2] != q[2] || o[3] != q[3] || o[4] == "wsq") continue
        rs = ""
        for (r in rounds) if (((order[i], r) in vals) && ((order[j], r) in vals)) rs = rs " " vals[order[i], r] / vals[order[j], r]
        if (rs != "") line = line sprintf(" %s %.2f", o[4], median(rs))
      }
      printf "| %s %s | %s |%s |\n", q[1], q[3], q[2], line
    }
  }' "$out/records.txt" > "$out/table.md"
echo
cat "$out/machine.txt"
echo
cat "$out/table.md"
