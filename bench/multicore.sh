#!/usr/bin/env bash
# multicore.sh: the many-core run of wsq's benchmarks in one command.
# Run it with -h for help.
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: bench/multicore.sh [-p P] [-count N] [-out DIR] [-quick] [-h]

Runs the benchmarks that show how wsq scales with the core count, sized
by the core count P, and writes into a dated directory under
bench/report/results/ (or DIR):

  machine.txt    lscpu, go version, the load, the commands
  dag.txt        DAG exploration at 1, 2, 4, ..., P workers: bq, cl-ub,
                 tf-ub, lf, lf-skip, both modes, uniform and irregular work
  forkjoin.txt   fork-join fib, coarse and fine, at 1, 2, 4, ..., P cores:
                 pool-bq, join-bq, goroutines, errgroup
  thieves.txt    the owner's push+pop under 0, 1, 3, 7, ..., P-1 thieves
                 (BenchmarkThieves): bq, cl-ub, tf-ub, lf, mutex
  steal.txt      BenchmarkStealAmount, when the package has it
  peers/         rayon's fork-join at the same core counts, when cargo is
                 installed (bench/peers/run.sh)
  report.md, *.png, *.csv
                 the report command's tables and plots of all of it

  -p P      the core count to scale to (default: nproc)
  -count N  samples per benchmark (default 3)
  -out DIR  the output directory
  -quick    tiny sizes, to check the script (seconds, not minutes)
  -h        this help

On 16 cores it takes about 5 minutes. Run it on a quiet machine: it warns
when the load average exceeds one per core.
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
P=$(nproc)
count=3
out=""
quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h | -help | --help) usage; exit 0 ;;
	-p) P=${2:?-p needs a number}; shift 2 ;;
	-count) count=${2:?-count needs a number}; shift 2 ;;
	-out) out=${2:?-out needs a directory}; shift 2 ;;
	-quick) quick=1; shift ;;
	*) echo "multicore.sh: unknown argument $1; run with -h for help" >&2; exit 2 ;;
	esac
done
case "$P$count" in *[!0-9]*) echo "multicore.sh: -p and -count take whole numbers" >&2; exit 2 ;; esac
[ "$P" -ge 1 ] && [ "$count" -ge 1 ] || { echo "multicore.sh: -p and -count must be at least 1" >&2; exit 2; }
[ -n "$out" ] || out="$root/bench/report/results/multicore-$(date -u +%Y-%m-%d-%H%M)-p$P"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Worker counts 1, 2, 4, ..., P; thief counts 0, 1, 3, 7, ..., P-1.
cpus="" thieves="0"
for ((k = 1; k < P; k *= 2)); do cpus="$cpus$k,"; done
cpus="$cpus$P"
for ((k = 2; k <= P; k *= 2)); do thieves="$thieves|$((k - 1))"; done
[ "$((P & (P - 1)))" = 0 ] || thieves="$thieves|$((P - 1))"
# A graph whose exploration takes about a second at one worker on 16
# cores, up to the paper's 2.5 million nodes.
nodes=$((P * 100000))
[ "$nodes" -le 2500000 ] || nodes=2500000
fjtime=10x thtime=0.2s
if [ "$quick" = 1 ]; then
	nodes=2000 fjtime=1x thtime=1000x count=1
fi

load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v p="$(nproc)" 'BEGIN { exit !(l > p) }'; then
	echo "multicore.sh: warning: load average $load exceeds one per core ($(nproc)): the figures will not be clean" >&2
fi

bin="$out/bench.test"
echo "building the benchmarks"
(cd "$root" && go test -c -o "$bin" ./bench)
{
	echo "# multicore.sh, $(date -u +%FT%TZ)"
	echo "P=$P count=$count nodes=$nodes cpus=$cpus thieves=$thieves"
	echo "load average: $(cat /proc/loadavg)"
	echo "commit: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	go version
	nproc
	lscpu 2>/dev/null || true
} > "$out/machine.txt"

# run NAME ARGS...: runs the benchmark binary from the package directory,
# with its output in NAME.txt and the command in machine.txt.
run() {
	local name=$1
	shift
	echo "running $name"
	echo "$name: bench.test $*" >> "$out/machine.txt"
	(cd "$root/bench" && "$bin" -test.run '^$' "$@") > "$out/$name.txt"
}

start=$(date +%s)
GOMAXPROCS=$P run dag -test.bench '^BenchmarkDAG$/queue=(bq|cl-ub|tf-ub|lf|lf-skip)/' \
	-test.benchtime 1x -test.count "$count" -dag.nodes "$nodes" -dag.workers "$cpus"
run forkjoin -test.bench '^BenchmarkForkJoin$/impl=(pool-bq|join-bq|goroutines|errgroup)/' \
	-test.cpu "$cpus" -test.benchtime "$fjtime" -test.count "$count"
run thieves -test.bench "^BenchmarkThieves\$/queue=(bq|cl-ub|tf-ub|lf|mutex)/thieves=($thieves)/" \
	-test.cpu "$P" -test.benchtime "$thtime" -test.count "$count"
if "$bin" -test.list '^BenchmarkStealAmount$' | grep -q StealAmount; then
	GOMAXPROCS=$P run steal -test.bench '^BenchmarkStealAmount$' -test.benchtime 1x -test.count "$count"
fi
if command -v cargo >/dev/null && [ -x "$root/bench/peers/run.sh" ]; then
	echo "running peers (rayon)"
	rows="" peercpus=${cpus//,/ }
	for c in $peercpus; do rows="$rows fj-fine-$c fj-coarse-$c"; done
	peerflags=(-rounds "$count")
	[ "$quick" = 0 ] || peerflags=(-quick)
	if ! "$root/bench/peers/run.sh" "${peerflags[@]}" -only "${rows# }" -cpus "$peercpus" -out "$out/peers" > "$out/peers.log" 2>&1; then
		echo "multicore.sh: the peers run failed; see $out/peers.log" >&2
	fi
fi
echo "benchmarks took $(($(date +%s) - start)) s" | tee -a "$out/machine.txt"

{
	# The header the report command reads (see bench/report).
	echo "# goversion: $(go env GOVERSION)"
	echo "# date: $(date -u +%FT%TZ)"
	echo "# cores: $P"
	cat "$out"/{dag,forkjoin,thieves}.txt
	[ ! -f "$out/steal.txt" ] || cat "$out/steal.txt"
} > "$out/bench.txt"
(cd "$root/bench/report" && go run . -in "$out/bench.txt" -out "$out" -progress=false)
rm -f "$bin"
echo "results in $out"
