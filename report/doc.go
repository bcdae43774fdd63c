// Command report runs the module's benchmarks (or reads saved `go test
// -bench` output) and writes the figures of the paper's evaluation beside
// ours: CSV files, Markdown tables and PNG plots of push latency by batch
// size, steal latency by proportion, pop latency, DAG exploration time and
// speedup by worker count (uniform and irregular work), and the master's
// capacity. It rewrites the region of BENCHMARKS.md between the markers
//
//	<!-- report:begin -->
//	<!-- report:end -->
//
// and leaves the rest of the file alone (it creates the file, or appends the
// region, if needed).
//
// It lives in its own module so that users of the library never download its
// plotting and progress-bar dependencies. From the repository root:
//
//	cd report && go run . -count 5                   # run ./bench, write results
//	cd report && go run . -in ../bench.txt           # from saved output
//	go test -run '^$' -bench . ./bench | (cd report && go run . -in -)
//
// Results go to report/results (bench.txt, samples.csv, summary.csv,
// report.md and the plots) unless -out says otherwise. Run with -h for all
// flags.
package main
