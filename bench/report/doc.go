// Command report runs the module's benchmarks (or reads saved `go test
// -bench` output) and writes the figures of the paper's evaluation beside
// ours: CSV files, Markdown tables and PNG plots of push latency (Push of
// one item, and PushBatch by batch size), steal latency by proportion, pop
// latency, DAG exploration time and speedup by worker count (uniform and
// irregular work), the master's capacity, and of the scheduler: fork-join
// speedup by core count, the owner's slowdown among thieves, the pool
// against goroutines and errgroup, how much a steal takes, the speedup
// bounds that each workload's work and span give, and the loop of steps'
// METG(50 %) and efficiency by task size.
//
// It lives in its own module so that users of the library never download its
// plotting, statistics and progress-bar dependencies. From the repository
// root:
//
//	cd bench/report && go run .                                # run ./bench, write results/report-DATE
//	cd bench/report && go run . -in ../../bench.txt -out /tmp/r # from saved output, into /tmp/r only
//	go test -run '^$' -bench . -count 6 ./bench | (cd bench/report && go run . -in - -out /tmp/r)
//	cd bench/report && go run . -plan benchmarks.plan          # what BENCHMARKS.md plots
//
// # Families, rounds and ratios
//
// A family is what one run of the test binary measures, written on one
// line: a -test.bench regexp, an optional -test.benchtime, and more flags
// of the test binary. -plan reads families from a file, a line each;
// -family gives one on the command line. With families the command builds
// the test binary once and runs each family in turn, -count samples each;
// loads.txt records the load average before each. benchmarks.plan holds
// the families that BENCHMARKS.md plots, each with an iteration count that
// keeps a sample short.
//
// Two builds, or two settings, compare best in interleaved rounds: with
// -rounds N every binary runs every family once per round, one sample.
// The families start one place later each round, and so do the binaries
// within a family, so that a drift of the machine's speed falls on all
// alike. It warns when the load average exceeds the number of cores. -bin NAME=PATH names the test
// binaries, built with go test -c at the commits to compare; without it
// the command builds the checkout's, named head. rounds.txt keeps each
// result line after its binary's name and round:
//
//	cd bench/report && go run . -rounds 8 -bin old=/tmp/old.test -bin new=/tmp/new.test \
//		-family '^BenchmarkForkJoin$/impl=(pool|join)-bq/ 20x -test.cpu 1,2' -ratio new/old
//
// A side family runs one binary with arguments of its own, as they are:
// "[ROW/]NAME: ARG ...". So a peer's harness that prints Go's benchmark
// format takes part in the rounds beside the test binary. The side
// families of one ROW run one after the other, in turns, as a family's
// binaries do. rounds.txt writes the row after the round, and NAME.txt
// keeps each binary's result lines, for benchstat:
//
//	go run . -rounds 5 -bin go=/tmp/bench.test -bin rust=/tmp/wsq-peers //		-family 'loop-2/go: -test.run ^$ -test.bench ^BenchmarkLoop$ -test.cpu 2' //		-family 'loop-2/rust: -bench BenchmarkLoop/* -cpu 2' -ratio 'impl=wsq/impl=*' -across
//
// A family's -test.cpu list runs as one family per value: a test binary
// runs the first sample of a list at the list's last GOMAXPROCS (Go issue
// golang/go#49980), which with one sample a round would be every sample.
//
// -ratio NUM/DEN then writes ratios.md: per benchmark the median of each
// side over the rounds, and the median over rounds of NUM ÷ DEN in the
// same round, with the smallest and largest. NUM and DEN are binary names,
// or two values of one element of the benchmark names: queue=bq/queue=cl-ub
// compares the rows that differ only there. DEN * compares NUM with every
// other value in turn, and DEN a comma-separated list (impl=wsq/impl=ants,pond,conc)
// with those listed; with several it adds the median over rounds of NUM
// ÷ the least of them in the same round, and the ratio of NUM's median to
// the least of their medians (steal=auto/steal=*: the scheduler's choice
// against the best fixed one). -metric picks the unit, ns/op by default.
// A KEY ratio compares the values within each binary's results; with
// -across, across binaries, as a side family's results beside another's.
// With -in, -ratio
// reads saved rounds and prints the tables: rounds.txt, or any file whose
// result lines carry their round (a number, or r and a number) and a tag
// before the name, or sit under "# round N" comment lines, as bench/peers'
// loops.sh wrote its records.txt before it ran these rounds. Without
// -ratio, -in reads rounds.txt as samples of one run, the tags dropped:
// so the report's tables and plots take the rounds of several binaries,
// such as bench/peers/steps.sh's.
//
// -pairs FILE writes table.md and summary.md, the tables of
// bench/peers/run.sh. FILE lists rows, a line each, its fields separated
// by tabs: the ROW of side families, the operation, the metric, a regexp
// that picks the names that count (or nothing), and pairs
// BIN:CONTENDER/BIN:CONTENDER. A contender is the value of queue= or
// impl= in a name, or serial for a name without either. A line "label
// BIN LABEL" names a binary's side in the tables. Per pair, table.md
// gives each side's median over the rounds with its smallest and
// largest, and the median over rounds of the ratio in the same round,
// with its smallest and largest; summary.md the ratios alone, under a
// caption of the machine, the loads and the -command.
//
// # What it writes
//
// Results go to the -out folder (default bench/report/results/report-DATE,
// DATE the day of the run, or of saved output): bench.txt (the raw
// output, benchstat's input), samples.csv (every sample), summary.csv (per
// benchmark and metric the median, the smallest and largest sample, and the
// 95 % confidence interval of the median, empty with fewer than 6 samples),
// report.md and the plots. It prints the name of every file it writes.
//
// With -md, a run also rewrites the region of that Markdown file between
// the markers
//
//	<!-- report:begin -->
//	<!-- report:end -->
//
// and leaves the rest of the file alone (it creates the file, or appends
// the region, if needed). Without -md it changes no document:
// BENCHMARKS.md quotes its figures from report.md. The input, and the
// markers of the document, are checked before anything is created: a
// failed run leaves nothing behind.
//
// # Statistics
//
// Output is read with golang.org/x/perf/benchfmt, the reader of benchstat,
// and summarized with golang.org/x/perf/benchmath as benchstat does: each
// figure is the median of the -count samples with its 95 % confidence
// interval, printed "± 3%", or "± ∞" when there are fewer than 6 samples.
// The plots draw the interval as whiskers when every point has one, and the
// range of the samples otherwise, and say which in their caption. An
// interval of ± 100 % or more (it reaches zero or twice the median) is too
// wide to mean anything: the plots leave its whisker out and mark the median
// with a dagger (†), the tables mark the figure so, and the caption counts
// them.
//
// # The plots
//
// Every queue of the benchmarks (a contender) has a colour and a marker of
// its own in every plot, the forms of one queue in related colours (bq,
// bq-list and bq-batch in blues); a queue name the report does not know
// takes the next free style. Each plot's caption names the machine and says
// what the figures are, and the push and steal plots say what each
// contender's timed loop does: bq, lf and lf-skip steal by handing the
// stolen blocks or nodes over, the others copy; bq-list and lf-list push a
// List built outside the timer. The batch-push plot has a panel for each
// kind of push, each with its few queues in colour and the other queues in
// grey behind. An axis whose values span a factor of 20 or more is
// logarithmic, so that no queue is drawn as a sliver. A bar's length means
// nothing on a logarithmic axis: there a bar chart draws a marker at each
// median instead. A reference far above every measurement on a linear axis
// (the paper's 213 ns pop) is written at the top of the plot and in the
// caption instead of setting the scale. The DAG speedups over one worker
// make one chart: a group of bars per work distribution and mode when the
// runs have one worker count besides 1, a panel of curves for each with
// more. The master's capacity at one worker count is a chart of the queues.
//
// The scheduler's figures: forkjoin-scaling.png, from BenchmarkForkJoin run
// with -cpu 1,2,4,..., has a panel per work (coarse, fine) with the speedup
// of each implementation over its own time on one core against the core
// count, and the linear speedup dashed; it is left out when the results
// hold one core count. thieves.png, from BenchmarkThieves, has a panel per
// kind of steal with the owner's slowdown against the number of thieves,
// a line per queue, or with one thief count besides 0 (two cores) the
// queues side by side at it. pool-vs-goroutines.png puts, for every
// workload whose benchmark has like-for-like contenders (fork-join coarse
// and fine, n-queens, the blocking walk at 16 listings at once, Inject from
// 1 and 4 producers), the time of the pool's forms and errgroup over the
// goroutines' as bars on a linear scale, each labelled with its value; in
// BenchmarkInject a goroutine worker pool on a channel plays the
// goroutines' part. The implementations of these benchmarks (pool-bq,
// join-bq, goroutines, errgroup, ...) have colours and markers of their
// own among themselves, as the queues do.
//
// steal-amount.png, from BenchmarkStealAmount, asks whether the
// scheduler's own choice (steal=auto) is as good as the best fixed one.
// It has a panel per mode, one above the other, and a group per
// workload. Each steal choice is drawn as its median time over the best
// fixed choice's: the fixed choice with the least median, 1 by
// definition. The values lie near 1, so markers show them on a linear
// axis that spans them only. A dashed line marks auto's target, 1.05,
// and the caption counts the rows where auto meets it. The auto choice
// is red; the fixed ones are green and blue.
//
// span-speedup.png and span-speedup-loops.png, from BenchmarkSpan and the
// timed benchmarks of the same workloads, have a panel per workload:
// the speedup against the workers P, from 1 to 64 on a logarithmic axis.
// Each draws Cilkview's two bounds from the workload's measured work T₁,
// span T∞ and burdened span: the span bound min(P, T₁/T∞) as a dashed
// reference, and the burdened-dag estimate T₁/(T₁/P + burdened span) in
// grey. Beside them, the speedups measured on this machine, and with
// -multicore those of a machine with more cores, read from its saved
// output, in blue and orange. report.md has a table of the same figures.
//
//	cd bench/report && go run . -in ../../span.txt -out /tmp/r \
//		-multicore results/multicore-2026-12-04/forkjoin-after.txt,results/multicore-2026-12-04/dag.txt
//
// Saved output from before BenchmarkPush timed Push of one item names the
// batch pushes BenchmarkPush/queue=Q/batch=B; the report reads them as
// BenchmarkPushBatch's.
//
// The raw output of a run starts with comment lines that go test does not
// print:
//
//	# goversion: go1.26.8
//	# date: 2026-12-02T18:13:23Z
//	# cores: 2
//
// They are comments, which benchstat ignores, rather than configuration
// lines, because benchstat splits its tables by configuration and would
// then never compare two runs made on different days. Saved output without
// them is accepted; the captions then say what was not recorded. The CPU
// model, GOOS and GOARCH come from go test's own header lines, and GOMAXPROCS
// from the -N suffix of the benchmark names.
//
// # Exit status
//
// 0 after a run or -h, 2 for a wrong command line, 1 for any other error;
// each error is printed once, prefixed "report: ".
package main
