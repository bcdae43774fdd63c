#!/usr/bin/env bash
# Runs wsq's benchmarks of ./bench next to their peers in interleaved
# rounds: Rust's crossbeam-deque and rayon (bench/peers/rust), C++
# Taskflow's queue (bench/peers/cpp), and Go's goroutines, errgroup and
# channels (in ./bench itself). It prints a table of each side's figures,
# then a summary of the ratios wsq ÷ peer, which BENCHMARKS.md quotes.
# See bench/peers/README.md.
#
#   bench/peers/run.sh [-rounds N] [-out DIR] [-cpus "1 2"] [-steals "N:P ..."] [-thieves "1"] [-only "ROW ..."] [-quick]
#
#   -rounds N     interleaved rounds (default 6): in each, every row runs
#                 each of its sides once, in an order that rotates from
#                 round to round; the tables quote medians over rounds
#   -out DIR      where the raw output, the records and the tables go
#                 (default: a new directory under ${TMPDIR:-/tmp})
#   -cpus LIST    worker counts of the fork-join rows (default "1 2")
#   -steals LIST  steal rows as n:percent (default "10000:60 100000:10 100000:60 100000:90")
#   -thieves LIST thief counts of the rows of an owner among thieves,
#                 each at most the number of cores less one (at least 1;
#                 default "1"); their figure is the slowdown, not a time
#   -only LIST    run only these rows (push1 push1024 pop steal-N-P
#                 fj-fine-C fj-coarse-C fib-serial thieves-K thieves-K-part
#                 dag nqueens walk inject-1 inject-4; default all)
#   -quick        one round with few operations: checks that everything
#                 builds and runs, measures nothing worth quoting
#
# Needs Go, g++ (C++20) and, for the rows with a Rust side, cargo and
# Debian's crate sources of crossbeam-deque and rayon
# (/usr/share/cargo/registry). It installs cargo and the crates with
# apt-get when they are missing and apt-get can, and otherwise stops with
# a message saying what to install. Taskflow's queue is vendored under
# bench/peers/cpp/taskflow: nothing is downloaded. It checks its flags
# before it installs or builds anything, and builds every side in a
# temporary directory that it removes. bench/report runs the rounds and
# makes the tables; it warns when the load average exceeds the number of
# cores, before each round and after them. Exit status 2 for a wrong
# command line. Not part of go test or CI.
set -euo pipefail

die() { echo "bench/peers: $*" >&2; exit 1; }
usage() { echo "bench/peers: $* (see -h)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
command_line="bench/peers/run.sh $*"

rounds=6 out= cpus="1 2" steals="10000:60 100000:10 100000:60 100000:90" thieves=1 only= quick=
while [ $# -gt 0 ]; do
  case $1 in
    -rounds) [ $# -ge 2 ] || usage "-rounds needs a value"; rounds=$2; shift 2 ;;
    -out) [ $# -ge 2 ] || usage "-out needs a value"; out=$2; shift 2 ;;
    -cpus) [ $# -ge 2 ] || usage "-cpus needs a value"; cpus=$2; shift 2 ;;
    -steals) [ $# -ge 2 ] || usage "-steals needs a value"; steals=$2; shift 2 ;;
    -thieves) [ $# -ge 2 ] || usage "-thieves needs a value"; thieves=$2; shift 2 ;;
    -only) [ $# -ge 2 ] || usage "-only needs a value"; only=$2; shift 2 ;;
    -quick) quick=1; rounds=1; shift ;;
    -h|-help|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown argument $1" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage "-rounds $rounds: want a positive integer"
for c in $cpus; do [[ $c =~ ^[1-9][0-9]*$ ]] || usage "-cpus: $c is not a positive integer"; done
for s in $steals; do
  [[ $s =~ ^([1-9][0-9]*):([1-9][0-9]?|100)$ ]] || usage "-steals: $s is not n:percent"
done
# Every side runs thieves=0 to K-1 for K the cores (at least 2): Go to
# GOMAXPROCS, the harnesses to the CPUs they may use.
most_thieves=$(( $(nproc) > 2 ? $(nproc) - 1 : 1 ))
for k in $thieves; do
  [[ $k =~ ^[1-9][0-9]*$ ]] || usage "-thieves: $k is not a positive integer"
  [ "$k" -le "$most_thieves" ] || usage "-thieves: $k thieves need $((k + 1)) cores; this machine has $(nproc)"
done
if [ -n "$out" ] && [ -e "$out" ] && [ ! -d "$out" ]; then usage "-out $out: not a directory"; fi

# The builds go here, outside the source tree; it is removed on exit.
bin=$(mktemp -d "${TMPDIR:-/tmp}/wsq-peers-build.XXXXXX")
trap 'rm -rf "$bin"' EXIT
rust=$bin/rust/target/release/wsq-peers
cpp=$bin/wsq-peers-cpp

# ---- the rows ----
# A row: id, operation, metric (the unit whose figure the tables compare:
# a time such as ns/op, or slowdown, a ratio), the Go side (go, the test
# binary, or fibserial) and its arguments, Rust arguments and C++
# arguments (empty: the row has no such side), pairs, and optionally a
# pick (a regexp: only the benchmark lines whose name matches it count,
# the others being run for the figures of these). A pair is GO:SIDE:PEER,
# GO and PEER being contenders (the value of queue= or impl= in a
# benchmark's name, or "serial") and SIDE the peer's side: go, rust or
# cpp. Each side of a row runs in its own process, so that one row's
# garbage and caches do not reach the next. bench/report runs the rows'
# sides in its rounds and makes the tables (its -pairs).

declare -a ids ops metrics gobins goargs rustargs cppargs pairs picks
# gorow ID OP METRIC "$(gobench ...)" RUSTARGS CPPARGS PAIRS [PICK]
gorow() { local b a; { read -r b; read -r a; } <<< "$4"; row "$1" "$2" "$3" "$b" "$a" "$5" "$6" "$7" "${8:-}"; }
row() { ids+=("$1"); ops+=("$2"); metrics+=("$3"); gobins+=("$4"); goargs+=("$5"); rustargs+=("$6"); cppargs+=("$7"); pairs+=("$8"); picks+=("${9:-}"); }
# n COUNT [QUICK]: an op count, or few with -quick.
n() { if [ -n "$quick" ]; then echo "${2:-$1}"; else echo "$1"; fi; }
gobench() { # regex benchtime [cpu]: the Go side and its arguments
  printf '%s\n' go "-test.run ^\$ -test.bench $1 -test.benchtime $2${3:+ -test.cpu $3}"
}

gorow push1 "push 1 item" ns/op \
  "$(gobench '^BenchmarkPush$/^queue=(bq|tf-ub)$' "$(n 2000000x 2048x)")" \
  "-bench BenchmarkPush/queue=cb -benchtime $(n 2000000x 2048x)" \
  "-bench BenchmarkPush/queue=tf-cpp -benchtime $(n 2000000x 2048x)" \
  "bq:rust:cb bq:cpp:tf-cpp tf-ub:cpp:tf-cpp"
gorow push1024 "push a batch of 1024 items" ns/op \
  "$(gobench '^BenchmarkPushBatch$/^queue=(bq|tf-ub|tf-ub-bulk)$/^batch=1024$' "$(n 4000x 2x)")" \
  "-bench BenchmarkPushBatch/queue=cb/batch=1024 -benchtime $(n 4000x 2x)" \
  "-bench BenchmarkPushBatch/queue=tf-cpp*/batch=1024 -benchtime $(n 4000x 2x)" \
  "bq:rust:cb bq:cpp:tf-cpp-bulk tf-ub-bulk:cpp:tf-cpp-bulk tf-ub:cpp:tf-cpp"
gorow pop "pop" ns/op \
  "$(gobench '^BenchmarkPop$/^queue=(bq|tf-ub)$' "$(n 4000000x 65536x)")" \
  "-bench BenchmarkPop/* -benchtime $(n 4000000x 65536x)" \
  "-bench BenchmarkPop/queue=tf-cpp -benchtime $(n 4000000x 65536x)" \
  "bq:rust:cb bq:rust:cb-steady bq:cpp:tf-cpp tf-ub:cpp:tf-cpp"
for s in $steals; do
  sn=${s%:*} sp=${s#*:}
  if [ "$sn" -ge 50000 ]; then gon=$(n 500x 4x) rn=$(n 200x 4x); else gon=$(n 4000x 64x) rn=$(n 1000x 64x); fi
  gorow "steal-$sn-$sp" "steal $sp % of $sn items" ns/op \
    "$(gobench "^BenchmarkSteal\$/^queue=(bq|bq-batch|cl-ub|tf-ub)\$/^n=$sn\$/^p=$sp\$" "$gon")" \
    "-bench BenchmarkSteal/queue=*/n=$sn/p=$sp -benchtime $rn" \
    "-bench BenchmarkSteal/queue=tf-cpp/n=$sn/p=$sp -benchtime $rn" \
    "bq:rust:cb-batch bq-batch:rust:cb-batch cl-ub:rust:cb-fifo-batch tf-ub:rust:cb-single bq:cpp:tf-cpp bq-batch:cpp:tf-cpp tf-ub:cpp:tf-cpp"
done
workers() { if [ "$1" = 1 ]; then echo "1 worker"; else echo "$1 workers"; fi; }
for c in $cpus; do
  gorow "fj-fine-$c" "fork-join fib(27), a task per call, $(workers "$c")" ns/task \
    "$(gobench '^BenchmarkForkJoin$/^impl=(pool-bq|join-bq|goroutines|errgroup)$/^work=fine$' "$(n 10x 1x)" "$c")" \
    "-bench BenchmarkForkJoin/impl=rayon/work=fine -cpu $c -benchtime $(n 10x 1x)" "" \
    "join-bq:rust:rayon pool-bq:rust:rayon join-bq:go:goroutines join-bq:go:errgroup pool-bq:go:goroutines"
  gorow "fj-coarse-$c" "fork-join fib(34), cutoff 17, $(workers "$c")" ns/op \
    "$(gobench '^BenchmarkForkJoin$/^impl=(pool-bq|join-bq|goroutines|errgroup)$/^work=coarse$' "$(n 10x 1x)" "$c")" \
    "-bench BenchmarkForkJoin/impl=rayon/work=coarse -cpu $c -benchtime $(n 10x 1x)" "" \
    "join-bq:rust:rayon pool-bq:rust:rayon join-bq:go:goroutines join-bq:go:errgroup pool-bq:go:goroutines"
done
row fib-serial "serial fib(27), no tasks" ns/op \
  fibserial "-test.benchtime $(n 20x 1x)" \
  "-bench BenchmarkFibSerial/n=27 -benchtime $(n 20x 1x)" "" "serial:rust:serial"
# The owner's push+pop among K thieves (BenchmarkThieves): the figure is
# the slowdown, ns/op with K thieves over ns/op with none in the same
# process, so each side runs thieves=0 too and the tables count only the
# thieves=K lines. Go runs with GOMAXPROCS K+1, a P for the owner and one
# for each thief, as the harnesses give each its thread.
thieves_of() { if [ "$1" = 1 ]; then echo "1 thief"; else echo "$1 thieves"; fi; }
for k in $thieves; do
  for steal in one part; do
    id=thieves-$k what="one item a steal"
    if [ "$steal" = part ]; then id=$id-part what="a tenth of the queue a steal (crossbeam: at most 32 items)"; fi
    gorow "$id" "owner's push+pop, $(thieves_of "$k") taking $what: slowdown" slowdown \
      "$(gobench "^BenchmarkThieves\$/^queue=(bq|tf-ub)\$/^thieves=(0|$k)\$/^steal=$steal\$" "$(n 10000000x 20000x)" "$((k + 1))")" \
      "-bench BenchmarkThieves/queue=cb/thieves=0/steal=$steal|BenchmarkThieves/queue=cb/thieves=$k/steal=$steal -benchtime $(n 10000000x 20000x)" \
      "-bench BenchmarkThieves/queue=tf-cpp/thieves=0/steal=$steal|BenchmarkThieves/queue=tf-cpp/thieves=$k/steal=$steal -benchtime $(n 10000000x 20000x)" \
      "bq:rust:cb bq:cpp:tf-cpp tf-ub:cpp:tf-cpp" "/thieves=$k/"
  done
done
# Go against Go: the scheduler against Taskflow's deque and lfqueue under
# the same scheduler, and the pool against goroutines, errgroup and a
# channel, at GOMAXPROCS (all the cores).
gorow dag "DAG exploration, 10⁵ nodes, irregular costs, Master mode, 2 workers" ns/op \
  "$(gobench '^BenchmarkDAG$/^queue=(bq|tf-ub|lf)$/^mode=master$/^work=irregular$/^workers=2$' "$(n 5x 1x)")" "" "" \
  "bq:go:tf-ub bq:go:lf"
gorow nqueens "12 queens, a task or goroutine per queen down to the last 9 rows" ns/op \
  "$(gobench '^BenchmarkNQueens$/^impl=(pool-bq|goroutines)$' "$(n 20x 1x)")" "" "" \
  "pool-bq:go:goroutines"
gorow walk "directory walk, 200 µs a listing, at most 16 at once" ns/op \
  "$(gobench '^BenchmarkBlockingWalk$/^impl=(pool-max16|goroutines|errgroup)$' "$(n 5x 1x)")" "" "" \
  "pool-max16:go:goroutines pool-max16:go:errgroup"
for p in 1 4; do
  gorow "inject-$p" "tiny tasks fed from outside, $p producer$([ "$p" = 1 ] || echo s), per item" ns/op \
    "$(gobench "^BenchmarkInject\$/^impl=(pool|channel)\$/^producers=$p\$" "$(n 100x 1x)")" "" "" \
    "pool:go:channel"
done

if [ -n "$only" ]; then
  for o in $only; do
    found=
    for id in "${ids[@]}"; do [ "$id" = "$o" ] && found=1; done
    [ -n "$found" ] || usage "-only: no row $o (rows: ${ids[*]})"
  done
fi
selected() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }
need_rust= need_cpp=
for i in "${!ids[@]}"; do
  selected "${ids[$i]}" || continue
  [ -z "${rustargs[$i]}" ] || need_rust=1
  [ -z "${cppargs[$i]}" ] || need_cpp=1
done

# ---- what it needs ----

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# apt_install PACKAGE...: installs the packages with apt-get, quietly; on a
# failure it prints apt-get's last lines and returns 1.
apt_install() {
  if ! command -v apt-get >/dev/null; then
    echo "bench/peers: apt-get not found, so $* cannot be installed here" >&2; return 1
  fi
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    echo "bench/peers: apt-get needs root, and sudo is not installed" >&2; return 1
  fi
  echo "bench/peers: installing $* with apt-get" >&2
  local log=$bin/apt-get.log
  if ! { as_root apt-get update -q && as_root apt-get install -y -q "$@"; } > "$log" 2>&1; then
    echo "bench/peers: apt-get failed; its last lines:" >&2
    tail -n 15 "$log" | sed 's/^/  /' >&2
    return 1
  fi
}

command -v go >/dev/null || die "go not found: install Go (see go.mod for the version)"
if [ -n "$need_cpp" ]; then
  command -v g++ >/dev/null || die "g++ not found: install a C++20 compiler (Debian: apt-get install g++) and rerun"
fi
registry=/usr/share/cargo/registry
have_crates() { compgen -G "$registry/crossbeam-deque-0.8.*" >/dev/null && compgen -G "$registry/rayon-1.*" >/dev/null; }
if [ -n "$need_rust" ]; then
  if ! command -v cargo >/dev/null; then
    apt_install cargo || true
    command -v cargo >/dev/null ||
      die "cargo not found, and apt-get could not install it: install Rust (Debian: apt-get install cargo; elsewhere rustup) and rerun"
  fi
  if ! have_crates; then
    apt_install librust-crossbeam-deque-dev librust-rayon-dev || true
    have_crates || die "Debian's crate sources of crossbeam-deque 0.8 and rayon 1 are not in $registry, and apt-get could not install them (apt-get install librust-crossbeam-deque-dev librust-rayon-dev). Without Debian's packages, delete bench/peers/rust/.cargo/config.toml so that cargo fetches the crates from crates.io, and rerun"
  fi
fi

if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/wsq-peers.XXXXXX"); fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "bench/peers: output in $out" >&2

if [ -n "$need_rust" ]; then
  # Cargo writes target/ and Cargo.lock beside Cargo.toml: build a copy of
  # the project, so that the source tree stays as it is.
  echo "bench/peers: building the Rust harness (cargo build --release, in $bin)" >&2
  mkdir "$bin/rust"
  cp -R bench/peers/rust/Cargo.toml bench/peers/rust/src bench/peers/rust/.cargo "$bin/rust/"
  (cd "$bin/rust" && cargo build --release --quiet) || die "cargo build failed (see above)"
  cp "$bin/rust/Cargo.lock" "$out/Cargo.lock"
fi
if [ -n "$need_cpp" ]; then
  echo "bench/peers: building the C++ harness (g++ -std=c++20 -O3 -march=native)" >&2
  g++ -std=c++20 -O3 -march=native -pthread -I bench/peers/cpp/taskflow \
    bench/peers/cpp/harness.cpp -o "$cpp" || die "g++ failed to build bench/peers/cpp/harness.cpp (see above)"
fi
echo "bench/peers: building the Go benchmarks (go test -c ./bench) and fibserial" >&2
go test -c -o "$bin/bench.test" ./bench || die "go test -c ./bench failed"
go build -o "$bin/fibserial" bench/peers/fibserial.go || die "go build bench/peers/fibserial.go failed"

# ---- the rounds ----
# bench/report runs them: each row's sides are side families of the row
# (peers.plan), and pairs.tsv lists the pairs that its tables compare.

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null)"
  echo "cores: $(nproc)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "command: $command_line"
  echo "go: $(go version)"
  [ -z "$need_rust" ] || echo "rust: $(rustc --version 2>/dev/null)"
  [ -z "$need_rust" ] || echo "crates: $(awk '/^name = "(crossbeam-deque|rayon|rayon-core)"/ {n=$3} /^version/ && n {print n, $3; n=""}' "$out/Cargo.lock" | tr -d '"' | paste -sd, -)"
  [ -z "$need_cpp" ] || echo "c++: $(g++ --version | head -n 1), -O3 -march=native; Taskflow wsq.hpp at $(sed -n 's/^commit: //p' bench/peers/cpp/taskflow/README.md)"
  echo "rounds: $rounds"
} > "$out/machine.txt"

bins=() need_go= need_fib=
printf 'label\tgo\tGo\nlabel\tfibserial\tGo\nlabel\trust\tRust\nlabel\tcpp\tC++\n' > "$out/pairs.tsv"
: > "$out/peers.plan"
for i in "${!ids[@]}"; do
  selected "${ids[$i]}" || continue
  id=${ids[$i]} goside=${gobins[$i]}
  if [ "$goside" = go ]; then need_go=1; else need_fib=1; fi
  {
    echo "$id/$goside: ${goargs[$i]}"
    [ -z "${rustargs[$i]}" ] || echo "$id/rust: ${rustargs[$i]}"
    [ -z "${cppargs[$i]}" ] || echo "$id/cpp: ${cppargs[$i]}"
  } >> "$out/peers.plan"
  ps=
  for p in ${pairs[$i]}; do
    IFS=: read -r g side peer <<< "$p"
    ps="$ps${ps:+ }$goside:$g/$side:$peer"
  done
  printf '%s\t%s\t%s\t%s\t%s\n' "$id" "${ops[$i]}" "${metrics[$i]}" "${picks[$i]}" "$ps" >> "$out/pairs.tsv"
done
[ -z "$need_go" ] || bins+=(-bin "go=$bin/bench.test")
[ -z "$need_fib" ] || bins+=(-bin "fibserial=$bin/fibserial")
[ -z "$need_rust" ] || bins+=(-bin "rust=$rust")
[ -z "$need_cpp" ] || bins+=(-bin "cpp=$cpp")

start=$(date +%s)
(cd bench/report && go run . -root "$root" -rounds "$rounds" "${bins[@]}" -plan "$out/peers.plan" \
  -pairs "$out/pairs.tsv" -command "$command_line" -out "$out") ||
  die "the rounds or the tables failed (see above): compare the names with go test -list . ./bench and the harnesses' -list"
echo "seconds: $(( $(date +%s) - start ))" >> "$out/machine.txt"
echo
cat "$out/machine.txt"
echo "Raw output (benchstat reads it): $out/{go,fibserial,rust,cpp}.txt; every result by side, round and row: $out/rounds.txt" >&2
