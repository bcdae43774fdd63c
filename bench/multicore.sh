#!/usr/bin/env bash
# multicore.sh: the many-core run of wsq's benchmarks, in one command or in
# two steps for a machine without Go. Run it with -h for help.
set -euo pipefail

# Each step's share of the time budget, in per cent: it stops there,
# keeping what it wrote. On 16 cores each is about twice what the step is
# expected to take (see -h).
share_race_sched=12 share_race_blockq=12 share_thieves=17 share_dag=30
share_forkjoin=15 share_rayon=4 share_steal=10

usage() {
	cat <<EOF
Usage:
  bench/multicore.sh [-p P] [-count N] [-budget S] [-out RUN] [-quick]
  bench/multicore.sh -build DIR
  bench/multicore.sh -bin DIR [-p P] [-count N] [-budget S] [-out RUN] [-quick]
  bench/multicore.sh -report RUN

Runs the benchmarks that show how wsq scales with the core count P, after
a correctness pass under the race detector. Where the machine with the
cores has no Go, it runs in three steps:

  -build DIR   Here, with Go. Compiles every binary the run needs into
               DIR: go test -c of ./bench, go test -c -race of ./sched
               and ./blockq, and rayon's fork-join (bench/peers/rust)
               when cargo can build it. Each is linked statically for
               plain x86-64 (GOAMD64=v1). Copies what the run reads: this
               script, the package sources that sched's tests parse, and
               build.txt (go version, commit, commands, ldd of each
               binary). Fails when DIR exceeds 64 MiB; it holds about 30.
  -bin DIR     There, with no go, cargo or network: bash, coreutils and
               awk, lscpu if present. Runs DIR's binaries, sized by
               nproc, and writes the raw output into RUN (default
               DIR/multicore-<UTC date-time>-p<P>). It runs DIR's copy of
               this script when that differs from this one. Exit status
               1 when a step failed or hit its time cap, after every
               step ran.
  -report RUN  Here, with Go. Draws report.md, the CSV files and the
               plots into RUN from RUN/bench.txt (the report command:
               cd bench/report && go run . -in RUN/bench.txt -out RUN).

Without -build, -bin or -report it does all three here, with DIR a
temporary directory and RUN a dated directory under bench/report/results/.

RUN holds:
  machine.txt   the build's record, lscpu, nproc, the cgroup's CPU limit,
                and for each step the load average before it, its exact
                command, its duration and its exit status
  race-sched.txt, race-blockq.txt
                the tests of sched and blockq (-test.v) under the race
                detector with GOMAXPROCS P, at their quick sizes (see
                internal/check/testenv); a failure is reported but does not
                stop the benchmarks
  thieves.txt   the owner's push+pop among 0, 1, 3, 7, ..., P-1 thieves
                (BenchmarkThieves): bq, cl-ub, tf-ub, lf, mutex
  dag.txt       DAG exploration at 1, 2, 4, ..., P workers: bq, cl-ub,
                tf-ub, lf, lf-skip, both modes, uniform and irregular
                work; and its busy work alone (BenchmarkDAGCeiling),
                whose speedup shows the parallelism the machine gave
  forkjoin.txt  fork-join fib, coarse and fine, at 1, 2, 4, ..., P cores:
                pool-bq, join-bq, goroutines, errgroup
  rayon.txt     rayon's fork-join at the same core counts, in Go's
                benchmark format (benchstat reads it), when DIR has it
  steal.txt     BenchmarkStealAmount at P workers
  bench.txt     the Go benchmarks' output under the header the report
                command reads: the build's Go version, the date, P

  -p P        the core count to scale to (default: nproc)
  -count N    samples per benchmark (default 3)
  -budget S   seconds for all the steps (default 450). Each step stops at
              its share, keeping its output so far: race-sched $share_race_sched %,
              race-blockq $share_race_blockq %, thieves $share_thieves %, dag $share_dag %, forkjoin $share_forkjoin %,
              rayon $share_rayon %, steal $share_steal %. Raise it for more than 16 cores.
  -out RUN    where the raw output goes
  -quick      tiny sizes and a few tests, to check the script (seconds)
  -h          this help

On 16 cores -bin should take about 5 minutes, and never more than the
budget (7.5 minutes) and a few seconds. The estimate comes from the
16-core run of 2026-12-04 and from 2-core runs: 30 s for each race pass,
thieves 55 s, dag 100 s, forkjoin 45 s, rayon 5 s, steal 25 s. At P = 2 on
the 2-core VM it took 180 and 194 s, under a load average of 7 to 10 from
other work. Run it on a quiet machine: it warns when the load average
exceeds one per core.

For a machine without Go (bench/README.md has the recipe):
  here:   bench/multicore.sh -build tmp/mc
  there:  bench/multicore.sh -bin tmp/mc -out OUT/multicore-p16
  here:   bench/multicore.sh -report OUT/multicore-p16
EOF
}

die() { echo "multicore.sh: $*" >&2; exit 1; }
usage_error() { echo "multicore.sh: $*; run with -h for help" >&2; exit 2; }

mode=all dir="" P="" count=3 budget=450 out="" quick=0 runflags=""
args=("$@")
while [ $# -gt 0 ]; do
	case "$1" in
	-h | -help | --help) usage; exit 0 ;;
	-build | -bin | -report)
		[ "$mode" = all ] || usage_error "-build, -bin and -report go alone"
		mode=${1#-}; dir=${2:?$1 needs a directory}; shift 2 ;;
	-p) P=${2:?-p needs a number}; runflags="$runflags $1"; shift 2 ;;
	-count) count=${2:?-count needs a number}; runflags="$runflags $1"; shift 2 ;;
	-budget) budget=${2:?-budget needs a number of seconds}; runflags="$runflags $1"; shift 2 ;;
	-out) out=${2:?-out needs a directory}; runflags="$runflags $1"; shift 2 ;;
	-quick) quick=1; runflags="$runflags $1"; shift ;;
	*) usage_error "unknown argument $1" ;;
	esac
done
case "$P$count$budget" in *[!0-9]*) usage_error "-p, -count and -budget take whole numbers" ;; esac
# At 100 s the smallest share of the budget is 4 s (timeout 0 would mean none).
if [ "$count" -lt 1 ] || [ "$budget" -lt 100 ]; then usage_error "-count must be at least 1, -budget at least 100"; fi
[ -z "$P" ] || [ "$P" -ge 1 ] || usage_error "-p must be at least 1"
case "$mode" in
build | report) [ -z "$runflags" ] || usage_error "-$mode takes no other flag (given:$runflags)" ;;
esac

# The binaries a build holds, as paths under DIR, and the Rust one.
binaries="bench/bench.test sched/sched-race.test blockq/blockq-race.test"
rayon=peers/wsq-peers
maxkib=$((64 * 1024))

# build DIR: compiles the binaries into DIR and copies what the run reads.
build() {
	local dir=$1 root tmp f
	root=$(cd "$(dirname "$0")/.." && pwd)
	command -v go >/dev/null || die "-build needs go"
	[ "$(go env GOHOSTARCH)" = amd64 ] || die "-build needs an amd64 machine: the race detector's binaries are built with this machine's C compiler"
	if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/build.txt" ]; then
		die "$dir is neither empty nor a former build (no build.txt): give a new directory"
	fi
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	rm -rf "$dir/bench" "$dir/sched" "$dir/blockq" "$dir/peers" "$dir/build.txt" "$dir/multicore.sh" "$dir/go.mod"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT

	# Plain x86-64 for an AMD EPYC or an Intel Xeon alike. -s -w drops the
	# symbol table and DWARF, not the pclntab that stack traces (and the
	# tests that check them) read.
	export GOOS=linux GOARCH=amd64 GOAMD64=v1
	local ldflags='-s -w' raceflags=(-race -tags "netgo,osusergo")
	local static=(-ldflags="$ldflags -linkmode=external -extldflags=-static")
	{
		echo "# multicore.sh -build, $(date -u +%FT%TZ)"
		echo "goversion: $(go env GOVERSION)"
		echo "go: $(go version)"
		echo "commit: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$root" && git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
		echo "built on: $(uname -srm), $(nproc) cores"
		echo "env: GOOS=$GOOS GOARCH=$GOARCH GOAMD64=$GOAMD64"
	} > "$dir/build.txt"
	mkdir -p "$dir/bench" "$dir/sched" "$dir/blockq"

	echo "building bench/bench.test"
	(cd "$root" && CGO_ENABLED=0 go test -c -ldflags="$ldflags" -o "$dir/bench/bench.test" ./bench)
	echo "bench/bench.test: CGO_ENABLED=0 go test -c -ldflags='$ldflags' ./bench" >> "$dir/build.txt"
	# The race detector needs cgo. Linked statically, the binaries need
	# nothing of the far machine's C library. The netgo and osusergo tags
	# keep out glibc's resolver and user lookup, which a static binary
	# cannot use. Where the static link fails, the binaries are linked
	# against the C library, and build.txt says what they need.
	for f in sched blockq; do
		echo "building $f/$f-race.test"
		if (cd "$root" && CGO_ENABLED=1 go test -c "${raceflags[@]}" "${static[@]}" -o "$dir/$f/$f-race.test" "./$f") 2> "$tmp/link.log"; then
			echo "$f/$f-race.test: CGO_ENABLED=1 go test -c ${raceflags[*]} -ldflags='$ldflags -linkmode=external -extldflags=-static' ./$f" >> "$dir/build.txt"
		else
			sed 's/^/  /' "$tmp/link.log" | tail -n 5 >&2
			echo "multicore.sh: the static link of $f's race binary failed (above); linking it against this machine's C library instead" >&2
			(cd "$root" && CGO_ENABLED=1 go test -c "${raceflags[@]}" -ldflags="$ldflags" -o "$dir/$f/$f-race.test" "./$f")
			echo "$f/$f-race.test: CGO_ENABLED=1 go test -c ${raceflags[*]} -ldflags='$ldflags' ./$f (static link failed)" >> "$dir/build.txt"
		fi
	done
	# sched's layer tests parse the package's files from the working
	# directory, which the run makes each binary's own folder under DIR.
	for f in bench sched blockq; do
		cp "$root/$f"/*.go "$dir/$f/"
		[ ! -d "$root/$f/testdata" ] || cp -R "$root/$f/testdata" "$dir/$f/"
	done
	# A module of its own, so that go vet ./... and go test ./... in a tree
	# around DIR do not take the copies for packages of wsq's.
	printf '%s\n' "// The binaries of bench/multicore.sh -build and the sources their tests" \
		"// read: a module of its own, so that ./... around it leaves them out." \
		"module wsq-multicore-build" > "$dir/go.mod"

	if command -v cargo >/dev/null; then
		echo "building $rayon (cargo build --release)"
		mkdir -p "$tmp/rust" "$dir/peers"
		cp -R "$root/bench/peers/rust/Cargo.toml" "$root/bench/peers/rust/src" "$tmp/rust/"
		[ ! -d "$root/bench/peers/rust/.cargo" ] || cp -R "$root/bench/peers/rust/.cargo" "$tmp/rust/"
		# crt-static: the binary needs no C library of the far machine's.
		if (cd "$tmp/rust" && CARGO_PROFILE_RELEASE_STRIP=symbols RUSTFLAGS='-C target-feature=+crt-static' \
			cargo build --release --quiet) > "$tmp/cargo.log" 2>&1; then
			cp "$tmp/rust/target/release/wsq-peers" "$dir/$rayon"
			cp "$tmp/rust/Cargo.lock" "$dir/peers/Cargo.lock"
			echo "$rayon: cargo build --release, RUSTFLAGS='-C target-feature=+crt-static', stripped; $(rustc --version 2>/dev/null)" >> "$dir/build.txt"
		else
			rm -rf "$dir/peers"
			sed 's/^/  /' "$tmp/cargo.log" | tail -n 5 >&2
			echo "multicore.sh: rayon left out: cargo could not build bench/peers/rust (above; Debian: apt-get install librust-crossbeam-deque-dev librust-rayon-dev, see bench/peers/README.md)" >&2
			echo "$rayon: left out, cargo build failed" >> "$dir/build.txt"
		fi
	else
		echo "multicore.sh: rayon left out: no cargo here" >&2
		echo "$rayon: left out, no cargo" >> "$dir/build.txt"
	fi

	cp "$0" "$dir/multicore.sh"
	{
		echo "what each binary needs at run time (ldd):"
		for f in $binaries $rayon; do
			[ -f "$dir/$f" ] || continue
			echo "  $f: $(ldd "$dir/$f" 2>&1 | sed 's/^[[:space:]]*//' | paste -sd';' -)"
		done
	} >> "$dir/build.txt"
	local kib
	kib=$(du -sk "$dir" | cut -f1)
	echo "size: $((kib / 1024)) MiB" >> "$dir/build.txt"
	cat "$dir/build.txt"
	[ "$kib" -le "$maxkib" ] ||
		die "$dir holds $((kib / 1024)) MiB, more than the 64 MiB a copy of the tree may carry: see which binary grew (du -sh $dir/*)"
}

# bin DIR: runs the binaries of DIR, with the raw output in $out.
bin() {
	local dir=$1
	[ -d "$dir" ] || die "$dir: no such directory; build it with -build"
	dir=$(cd "$dir" && pwd)
	[ -f "$dir/build.txt" ] || die "$dir has no build.txt: build it with bench/multicore.sh -build $dir"
	# The script that built the binaries knows their flags: run it.
	if [ -z "${WSQ_MULTICORE_BUILT:-}" ] && [ -f "$dir/multicore.sh" ] &&
		[ "$(cksum < "$dir/multicore.sh")" != "$(cksum < "$0")" ]; then
		echo "multicore.sh: running $dir/multicore.sh, the script the binaries were built with" >&2
		WSQ_MULTICORE_BUILT=1 exec bash "$dir/multicore.sh" "${args[@]}"
	fi
	local f
	for f in $binaries; do
		[ -x "$dir/$f" ] || die "$dir/$f is missing: build again with -build"
	done
	command -v timeout >/dev/null || die "-bin needs timeout (GNU coreutils)"
	[ -n "$P" ] || P=$(nproc)
	[ -n "$out" ] || out="$dir/multicore-$(date -u +%Y-%m-%d-%H%M)-p$P"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)

	# Worker counts 1, 2, 4, ..., P; thief counts 0, 1, 3, 7, ..., P-1.
	local cpus="" thieves="0" k
	for ((k = 1; k < P; k *= 2)); do cpus="$cpus$k,"; done
	cpus="$cpus$P"
	for ((k = 2; k <= P; k *= 2)); do thieves="$thieves|$((k - 1))"; done
	[ "$((P & (P - 1)))" = 0 ] || thieves="$thieves|$((P - 1))"
	# A graph whose exploration takes about 0.75 s at one worker on 16
	# cores (0.8 million nodes), up to the paper's 2.5 million. Sizes and
	# samples fit the budget on 16 cores: a 16-core Xeon explored 1.08
	# million nodes a second on one worker, and the fork-join step's
	# goroutines and errgroup take 0.25 s an op of fine work there.
	local nodes=$((P * 50000)) fjtime=5x thtime=0.2s race=(-test.v)
	[ "$nodes" -le 2500000 ] || nodes=2500000
	local steal=(-test.bench '^BenchmarkStealAmount$')
	if [ "$quick" = 1 ]; then
		nodes=2000 fjtime=1x thtime=1000x count=1
		# The examples, and sched's tests that read its sources.
		race=(-test.v -test.short -test.run '^(Example|TestLayers$|TestMethodsInTheirTypesFile$)')
		steal=(-test.bench '^BenchmarkStealAmount$/^work=(dag-uniform|flat)$/' -dag.nodes 2000)
	fi

	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	if awk -v l="$load" -v p="$(nproc)" 'BEGIN { exit !(l > p) }'; then
		echo "multicore.sh: warning: load average $load exceeds one per core ($(nproc)): the figures will not be clean" >&2
	fi
	{
		echo "# multicore.sh -bin, $(date -u +%FT%TZ)"
		echo "P=$P count=$count budget=${budget}s quick=$quick nodes=$nodes cpus=$cpus thieves=$thieves"
		echo "host: $(uname -srm)"
		echo "nproc: $(nproc)"
		echo "cgroup cpu.max: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo none)"
		echo "env: GOGC=${GOGC:-} GODEBUG=${GODEBUG:-} GOMEMLIMIT=${GOMEMLIMIT:-}"
		echo "load average: $(cat /proc/loadavg)"
		echo
		echo "## the build (build.txt)"
		cat "$dir/build.txt"
		echo
		echo "## lscpu"
		lscpu 2>/dev/null || grep -m1 '^model name' /proc/cpuinfo || true
		echo
		echo "## the steps (commands run in their binary's folder under $dir)"
	} > "$out/machine.txt"

	# step NAME SHARE FOLDER COMMAND...: runs COMMAND in DIR/FOLDER with
	# GOMAXPROCS P for at most SHARE per cent of the budget, its output in
	# NAME.txt, and records it in machine.txt.
	local failed="" start
	start=$(date +%s)
	step() {
		local name=$1 cap=$(($2 * budget / 100)) folder=$3 t0 rc=0 what
		shift 3
		echo "running $name (at most $cap s)"
		{
			echo "$name: load average $(cut -d' ' -f1-3 /proc/loadavg) before, $(date -u +%T)"
			echo "  cd $folder && GOMAXPROCS=$P timeout -k 10 $cap$(printf ' %q' "$@")"
		} >> "$out/machine.txt"
		t0=$(date +%s)
		(cd "$dir/$folder" && GOMAXPROCS=$P timeout -k 10 "$cap" "$@") > "$out/$name.txt" 2>&1 || rc=$?
		case $rc in
		0) what="ok" ;;
		124 | 137) what="stopped at its time cap of $cap s"; failed="$failed $name" ;;
		*) what="FAILED (exit status $rc)"; failed="$failed $name" ;;
		esac
		echo "  $what after $(($(date +%s) - t0)) s" >> "$out/machine.txt"
		[ "$rc" = 0 ] || echo "multicore.sh: $name $what; see $out/$name.txt" >&2
	}

	# The correctness pass first: figures of a scheduler that loses tasks
	# are worth nothing. A failure does not stop the benchmarks.
	# Each level of a -test.bench pattern is anchored: unanchored, queue=lf
	# would match lf-skip too, and thieves=1 would match thieves=10 to 19.
	step race-sched $share_race_sched sched ./sched-race.test \
		-test.timeout "$((share_race_sched * budget / 100 - 5))s" "${race[@]}"
	step race-blockq $share_race_blockq blockq ./blockq-race.test \
		-test.timeout "$((share_race_blockq * budget / 100 - 5))s" "${race[@]}"
	step thieves $share_thieves bench ./bench.test -test.run '^$' \
		-test.bench "^BenchmarkThieves\$/^queue=(bq|cl-ub|tf-ub|lf|mutex)\$/^thieves=($thieves)\$/" \
		-test.cpu "$P" -test.benchtime "$thtime" -test.count "$count"
	step dag $share_dag bench ./bench.test -test.run '^$' \
		-test.bench '^BenchmarkDAG$/^queue=(bq|cl-ub|tf-ub|lf|lf-skip)$/|^BenchmarkDAGCeiling$' \
		-test.benchtime 1x -test.count "$count" -dag.nodes "$nodes" -dag.workers "$cpus"
	# A run per worker count: a test binary runs the first sample of a
	# -test.cpu list at the list's last value (golang/go#49980).
	step forkjoin $share_forkjoin bench bash -c 'for c in ${1//,/ }; do
		./bench.test -test.run "^\$" -test.bench "^BenchmarkForkJoin\$/^impl=(pool-bq|join-bq|goroutines|errgroup)\$/" \
			-test.cpu "$c" -test.benchtime "$2" -test.count "$3" || exit; done' forkjoin "$cpus" "$fjtime" "$count"
	if [ -x "$dir/$rayon" ]; then
		step rayon $share_rayon peers ./wsq-peers -bench 'BenchmarkForkJoin/impl=rayon/*' \
			-cpu "$cpus" -benchtime "$fjtime" -count "$count"
	else
		echo "rayon: left out, not in the build" >> "$out/machine.txt"
	fi
	step steal $share_steal bench ./bench.test -test.run '^$' "${steal[@]}" -test.benchtime 1x -test.count "$count"
	echo "the steps took $(($(date +%s) - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" | tee -a "$out/machine.txt"

	{
		# The header the report command reads (see bench/report).
		echo "# goversion: $(sed -n 's/^goversion: //p' "$dir/build.txt")"
		echo "# date: $(date -u +%FT%TZ)"
		echo "# cores: $P"
		cat "$out"/{thieves,dag,forkjoin,steal}.txt
	} > "$out/bench.txt"
	echo "raw output in $out; draw the report here with: bench/multicore.sh -report $out"
	if [ -n "$failed" ]; then
		echo "multicore.sh: these steps failed or stopped at their cap:$failed (machine.txt has each one's status)" >&2
		return 1
	fi
}

# report RUN: draws the report of RUN's raw output into RUN.
report() {
	local run=$1 root
	root=$(cd "$(dirname "$0")/.." && pwd)
	[ -f "$run/bench.txt" ] || die "$run has no bench.txt: give the directory that -bin wrote"
	command -v go >/dev/null || die "-report needs go"
	run=$(cd "$run" && pwd)
	(cd "$root/bench/report" && go run . -in "$run/bench.txt" -out "$run" -progress=false)
	echo "report in $run/report.md"
}

case "$mode" in
build)
	(build "$dir")
	echo "built into $dir; run there: bench/multicore.sh -bin $dir"
	;;
bin) bin "$dir" ;;
report) report "$dir" ;;
all)
	command -v go >/dev/null || die "needs go; on a machine without it, see -h for -build and -bin"
	root=$(cd "$(dirname "$0")/.." && pwd)
	[ -n "$P" ] || P=$(nproc)
	[ -n "$out" ] || out="$root/bench/report/results/multicore-$(date -u +%Y-%m-%d-%H%M)-p$P"
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	(build "$dir") || die "the build failed"
	rc=0
	WSQ_MULTICORE_BUILT=1 bin "$dir" || rc=$?
	report "$out"
	exit "$rc"
	;;
esac
