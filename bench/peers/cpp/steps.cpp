// wsq-peers-steps times C++ OpenMP and oneTBB on the loop of steps of
// ./bench's BenchmarkSteps (package bench/steps: Task Bench's patterns,
// Slaughter et al., SC20): T steps of W points, each step started and
// waited for before the next, every point a kernel of set cost that reads
// the points of the step before that its pattern names. It computes the
// same values as the Go side, from the same kernel (bench/dag's Spin) and
// the same dependencies, checks each implementation's last run against its
// own serial run, and prints Go's benchmark format with the Go names, so
// that bench/report reads both sides:
//
//   BenchmarkSteps/pattern=P/width=W/grain=Gus/impl=serial-cpp-N  the points in order
//   BenchmarkSteps/pattern=P/width=W/grain=Gus/impl=openmp-N   #pragma omp for per step,
//                                                            in one parallel region
//   BenchmarkSteps/pattern=P/width=W/grain=Gus/impl=tbb-N      tbb::parallel_for per step,
//                                                            a task per point
//
// N is the threads (-threads, default 2), as go test appends GOMAXPROCS.
// Each row reports ns/op (one op is the whole loop of steps, about 20 ms
// of kernels), efficiency (the kernels' time over N × the op's time, the
// kernel's time per round calibrated once, the least of three) and
// granularity-us (the op's time × N ÷ the tasks), as the Go rows do.
//
// Flags, as a Go test binary's, so that bench/report runs it as one in
// its rounds: -test.bench REGEXP (a regexp per level of the name, split at
// '/', as go test matches; default all), -test.benchtime Nx (ops per row,
// default 3x), -test.count N (default 1), -test.cpu N (the threads,
// default 2); -test.run and -test.timeout are accepted and ignored. Build
// (bench/peers/steps.sh does):
//
//   g++ -std=c++20 -O3 -march=native -fopenmp steps.cpp -ltbb -o wsq-peers-steps

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <regex>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// The sizes of BenchmarkSteps (bench/steps_test.go).
const int kWidths[] = {2, 8};
const int kGrainsNs[] = {250, 500, 1000, 2000, 4000, 8000, 16000, 22000, 32000, 64000, 90000, 128000, 256000};
const double kWorkNs = 20e6;  // stepsWork: the kernels' time of one op
const char *kPatterns[] = {"trivial", "stencil", "tree", "fft", "nearest"};
enum Pattern { kTrivial, kStencil, kTree, kFFT, kNearest };
const int kRadix = 3;

// spin is bench/dag's Spin: n rounds of xorshift from x.
uint64_t spin(int n, uint64_t x) {
  x |= 1;
  for (int k = 0; k < n; k++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

volatile uint64_t sink;

// calibrate is bench/dag's Calibrate: one round's time in nanoseconds,
// timing about 20 ms.
double calibrate() {
  for (long n = 1 << 16;; n *= 2) {
    auto start = Clock::now();
    sink = spin(int(n), uint64_t(n));
    double el = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    if (el >= 20e6 || n >= (1L << 30)) return el / double(n);
  }
}

int bitLen(unsigned long x) { return x == 0 ? 0 : 64 - __builtin_clzl(x); }

struct Graph {
  Pattern pattern;
  int width, steps, iterations;

  int widthAt(int t) const {
    if (pattern == kTree && t < 62) return std::min(width, 1 << std::min(t, 30));
    return width;
  }
  long tasks() const {
    long n = 0;
    for (int t = 0; t < steps; t++) n += widthAt(t);
    return n;
  }
  // deps writes the points of step t-1 that point i of step t reads, as
  // steps.Graph.Deps, and returns how many.
  int deps(int *dst, int t, int i) const {
    if (t == 0) return 0;
    int w = widthAt(t - 1), n = 0;
    auto add = [&](int j) {
      if (j >= 0 && j < w) dst[n++] = j;
    };
    switch (pattern) {
      case kTrivial:
        break;
      case kStencil:
        add(i - 1), add(i), add(i + 1);
        break;
      case kTree:
        add(i / 2);
        break;
      case kFFT: {
        int l = std::max(bitLen(unsigned(width - 1)), 1);
        int d = 1 << ((t + l - 1) % l);
        add(i - d), add(i), add(i + d);
        break;
      }
      case kNearest:
        for (int j = i - kRadix / 2; j <= i + (kRadix - 1) / 2; j++) add(j);
        break;
    }
    return n;
  }
};

// Run is steps.Run: the last two steps' values and each point's sum.
struct Run {
  const Graph *g;
  std::vector<uint64_t> rows[2], sum;
  explicit Run(const Graph &gr) : g(&gr), sum(gr.width) {
    rows[0].assign(gr.width, 0);
    rows[1].assign(gr.width, 0);
  }
  void point(int t, int i) {
    int deps[kRadix + 2];
    uint64_t x = uint64_t(t) << 32 ^ uint64_t(i);
    const std::vector<uint64_t> &prev = rows[(t + 1) % 2];
    int n = g->deps(deps, t, i);
    for (int k = 0; k < n; k++) x = x * 0x9e3779b97f4a7c15ULL + prev[deps[k]];
    uint64_t v = spin(g->iterations, x);
    rows[t % 2][i] = v;
    sum[i] += v;
  }
};

void runSerial(Run &r) {
  const Graph &g = *r.g;
  for (int t = 0; t < g.steps; t++)
    for (int i = 0; i < g.widthAt(t); i++) r.point(t, i);
}

void runOpenMP(Run &r, int threads) {
  const Graph &g = *r.g;
#pragma omp parallel num_threads(threads)
  for (int t = 0; t < g.steps; t++) {
#pragma omp for schedule(static)
    for (int i = 0; i < g.widthAt(t); i++) r.point(t, i);
    // the implicit barrier of omp for ends the step
  }
}

void runTBB(Run &r) {
  const Graph &g = *r.g;
  for (int t = 0; t < g.steps; t++) {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, g.widthAt(t), 1),
        [&](const tbb::blocked_range<int> &rg) {
          for (int i = rg.begin(); i != rg.end(); i++) r.point(t, i);
        },
        tbb::simple_partitioner());
  }
}

// split returns s cut at each '/'.
std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); i++) {
    if (i == s.size() || s[i] == '/') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// matches reports whether the benchmark name (without its -N suffix)
// matches the levels of a -test.bench pattern, as go test matches: each
// level's regexp found somewhere in the name's level of the same depth,
// and a pattern with fewer levels matching every deeper level.
bool matches(const std::vector<std::regex> &levels, const std::string &name) {
  std::vector<std::string> parts = split(name);
  for (size_t k = 0; k < levels.size() && k < parts.size(); k++) {
    if (!std::regex_search(parts[k], levels[k])) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::regex> levels;
  int ops = 3, count = 1, threads = 2;
  for (int a = 1; a < argc; a++) {
    std::string f = argv[a];
    std::string v;
    if (size_t eq = f.find('='); eq != std::string::npos) {
      v = f.substr(eq + 1), f = f.substr(0, eq);
    } else if (a + 1 < argc) {
      v = argv[++a];
    } else {
      std::fprintf(stderr, "wsq-peers-steps: %s needs a value\n", f.c_str());
      return 2;
    }
    if (f == "-test.bench") {
      levels.clear();
      for (const std::string &level : split(v)) levels.emplace_back(level);
    } else if (f == "-test.benchtime" && !v.empty() && v.back() == 'x') {
      ops = std::atoi(v.c_str());
    } else if (f == "-test.count") {
      count = std::atoi(v.c_str());
    } else if (f == "-test.cpu") {
      threads = std::atoi(v.c_str());
    } else if (f == "-test.run" || f == "-test.timeout") {
      // go test's: nothing here runs tests or times out
    } else {
      std::fprintf(stderr, "wsq-peers-steps: unknown flag %s %s\n", f.c_str(), v.c_str());
      return 2;
    }
  }
  if (ops < 1 || count < 1 || threads < 1) {
    std::fprintf(stderr, "wsq-peers-steps: -test.benchtime, -test.count and -test.cpu must be positive\n");
    return 2;
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  double iter = std::min({calibrate(), calibrate(), calibrate()});
  for (int c = 0; c < count; c++) {
    for (int p = 0; p < 5; p++) {
      for (int w : kWidths) {
        for (int grainNs : kGrainsNs) {
          Graph g{Pattern(p), w, 0, 0};
          double grain = grainNs;
          char grainName[16];
          if (grainNs < 1000) {
            std::snprintf(grainName, sizeof grainName, "%dns", grainNs);
          } else {
            std::snprintf(grainName, sizeof grainName, "%dus", grainNs / 1000);
          }
          g.steps = std::max(10, std::min(5000, int(kWorkNs / (w * grain))));
          g.iterations = std::max(1, int(grain / iter));
          Run want(g);
          runSerial(want);
          const char *impls[] = {"serial-cpp", "openmp", "tbb"};
          for (const char *impl : impls) {
            char name[160];
            std::snprintf(name, sizeof name, "BenchmarkSteps/pattern=%s/width=%d/grain=%s/impl=%s",
                          kPatterns[p], w, grainName, impl);
            if (!matches(levels, name)) continue;
            std::function<void(Run &)> run = runSerial;
            if (std::strcmp(impl, "openmp") == 0) run = [&](Run &r) { runOpenMP(r, threads); };
            if (std::strcmp(impl, "tbb") == 0) run = runTBB;
            Run warm(g);  // the threads start outside the timed loop
            run(warm);
            Run last(g);
            auto start = Clock::now();
            for (int k = 0; k < ops; k++) {
              last = Run(g);
              run(last);
            }
            double el = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
            if (last.sum != want.sum) {
              std::fprintf(stderr, "wsq-peers-steps: %s computed other values than its serial run\n", name);
              return 1;
            }
            double perOp = el / ops, tasks = double(g.tasks());
            double kernels = tasks * g.iterations * iter;
            std::printf("%s-%d\t%8d\t%12.0f ns/op\t%10.4f efficiency\t%10.2f granularity-us\n", name, threads, ops,
                        perOp, kernels / (threads * perOp), perOp * threads / tasks / 1e3);
            std::fflush(stdout);
          }
        }
      }
    }
  }
  return 0;
}
