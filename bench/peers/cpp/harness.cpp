// wsq-peers-cpp times C++ Taskflow's work-stealing queue (tf::UnboundedWSQ
// of taskflow/core/wsq.hpp, vendored under taskflow/ at the commit that
// taskflow/README.md names) doing what wsq's ./bench times the Go queues
// doing. It prints its figures in Go's benchmark format, so that benchstat
// and ../run.sh read them beside the Go figures.
//
// Every figure is a whole timed loop divided by its operation count. Queues
// and inputs are prepared outside the timer, and every loop checks, outside
// the timer, that it did what its name says. Items are machine words, as in
// Go (int) and Rust (usize). The loops use the windows and sizes of the Go
// benchmarks (the constants below; TestPeerConstants in ./bench compares
// them with Go's):
//
//   BenchmarkPush/queue=tf-cpp             one push of one item; windows of
//                                          WINDOW_ITEMS pushes into a fresh
//                                          queue with room for them, touched
//                                          (Go: BenchmarkPush/queue=tf-ub)
//   BenchmarkPushBatch/queue=tf-cpp/batch=B       a batch of B items by a
//                                          loop of push, as the paper timed
//                                          Taskflow (Go: tf-ub)
//   BenchmarkPushBatch/queue=tf-cpp-bulk/batch=B  one bulk_push of B items
//                                          (Go: tf-ub-bulk); both in windows
//                                          of WINDOW_ITEMS items
//   BenchmarkPop/queue=tf-cpp              one pop; windows that empty a
//                                          queue of WINDOW_ITEMS items,
//                                          filled in batches of
//                                          POP_FILL_BATCH (Go: tf-ub)
//   BenchmarkSteal/queue=tf-cpp/n=N/p=P    the StealCount(N, P) oldest items
//                                          by a loop of steal (Taskflow has
//                                          no batch steal), owner idle; one
//                                          steal from each of up to
//                                          STEAL_QUEUES queues (STEAL_ITEMS
//                                          items in all) per timed loop
//                                          (Go: tf-ub)
//   BenchmarkThieves/queue=tf-cpp/thieves=K/steal=S  the owner's push and
//                                          pop among K thieves that steal
//                                          one item (S = one) or a tenth of
//                                          the queue by a loop of steal
//                                          (S = part); the slowdown over
//                                          thieves=0 (Go: tf-ub)
//
// Flags, as go test's: -bench (patterns separated by |, each matching a
// whole name, * for any run of characters), -benchtime (Nx, or a duration
// such as 1s or 200ms), -count, -list. Build (../run.sh does):
//
//   g++ -std=c++20 -O3 -march=native -pthread -I taskflow harness.cpp -o wsq-peers-cpp

#include "taskflow/core/wsq.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

// ---- the Go benchmarks' windows and sizes ----

constexpr std::size_t WINDOW_ITEMS = 1 << 20;  // Go: windowItems
constexpr std::array<std::size_t, 6> BATCH_SIZES = {1, 4, 16, 64, 256, 1024};  // Go: batchSizes
constexpr std::array<std::size_t, 2> STEAL_SIZES = {10000, 100000};  // Go: stealSizes
constexpr std::array<std::size_t, 7> STEAL_SHARES = {10, 20, 30, 40, 50, 60, 90};  // Go: stealShares
constexpr std::size_t STEAL_QUEUES = 64;  // Go: maxStealQueues
constexpr std::size_t STEAL_ITEMS = 1 << 20;  // Go: stealItems
constexpr std::size_t POP_FILL_BATCH = 16;  // Go: popFillBatch
constexpr std::size_t DEFAULT_CAPACITY = 1024;  // Go: tfdeque.DefaultUnboundedCapacity
constexpr std::size_t THIEVES_BACKLOG = 4096;  // Go: thievesBacklog
constexpr std::size_t THIEVES_CHECK = 256;  // Go: thievesCheck
constexpr std::size_t THIEVES_PART = 10;  // Go: thievesPart, in percent

using Item = std::int64_t;  // Go's int
using Queue = tf::UnboundedWSQ<Item>;
using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "wsq-peers-cpp: %s\n", msg.c_str());
  std::exit(1);
}

// log2 of a power of two.
int64_t log2of(std::size_t c) {
  int64_t l = 0;
  while ((std::size_t{1} << l) < c) ++l;
  return l;
}

// roomFor is the capacity an unbounded queue starts with: Taskflow's
// default, or the next power of two that holds a whole window (Go: roomFor).
std::size_t roomFor(std::size_t items) {
  std::size_t c = DEFAULT_CAPACITY;
  while (c < items) c *= 2;
  return c;
}

// stealCount is wsq.StealCount: p % of n, rounded, at least 1.
std::size_t stealCount(std::size_t n, std::size_t pct) {
  auto k = static_cast<std::size_t>(std::llround(double(pct) / 100.0 * double(n)));
  if (k < 1) k = 1;
  if (k > n) k = n;
  return k;
}

// A Sample is what one run measured: the time of its timed parts, the time
// per op of its fastest whole window (0: none), and figures of its own.
struct Sample {
  double ns = 0;
  double best = 0;
  std::vector<std::pair<double, std::string>> extra;
};

// Windows runs ops operations in windows of at most window, each prepared
// outside the timer (prepare returns the timed loop), and records the
// fastest whole window, as Go's timeWindows does.
Sample windows(uint64_t ops, std::size_t window, const std::function<std::function<void()>(std::size_t)>& prepare) {
  Sample s;
  for (uint64_t done = 0; done < ops;) {
    std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(window, ops - done));
    auto run = prepare(n);
    auto t0 = Clock::now();
    run();
    double d = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    s.ns += d;
    if (n == window && (s.best == 0 || d / double(n) < s.best)) s.best = d / double(n);
    done += n;
  }
  return s;
}

// warm fills q to its capacity and empties it, so that a timed loop does
// not pay the page faults of fresh memory (Go: warm).
void warm(Queue& q) {
  std::size_t c = q.capacity();
  std::vector<Item> fill(c, 0);
  auto first = fill.data();
  q.bulk_push(first, c);
  for (std::size_t i = 0; i < c; ++i) q.pop();
  if (!q.empty() || q.capacity() != c) fail("warm: the queue is not empty or changed its capacity");
}

// pushWindow prepares a window of ops pushes of batch items into a fresh,
// warmed queue with room for all of them: by a loop of push, or by one
// bulk_push a batch.
std::function<void()> pushWindow(std::size_t batch, std::size_t ops, bool bulk) {
  std::size_t items = batch * ops;
  auto q = std::make_shared<Queue>(log2of(roomFor(items)));
  warm(*q);
  auto vs = std::make_shared<std::vector<Item>>(batch);
  for (std::size_t i = 0; i < batch; ++i) (*vs)[i] = Item(i);
  std::size_t capacity = q->capacity();
  return [q, vs, batch, ops, items, bulk, capacity] {
    if (bulk) {
      for (std::size_t i = 0; i < ops; ++i) {
        auto first = vs->data();
        q->bulk_push(first, batch);
      }
    } else {
      for (std::size_t i = 0; i < ops; ++i) {
        for (std::size_t j = 0; j < batch; ++j) q->push((*vs)[j]);
      }
    }
    if (q->size() != items || q->capacity() != capacity) fail("push: the queue does not hold the window, or it grew");
  };
}

// popWindow prepares a window that pops ops items from a queue filled
// with 0..ops-1 in batches of POP_FILL_BATCH.
std::function<void()> popWindow(std::size_t ops) {
  auto q = std::make_shared<Queue>(log2of(DEFAULT_CAPACITY));
  std::vector<Item> vs(POP_FILL_BATCH);
  for (std::size_t i = 0; i < ops; i += POP_FILL_BATCH) {
    std::size_t m = std::min(POP_FILL_BATCH, ops - i);
    for (std::size_t j = 0; j < m; ++j) vs[j] = Item(i + j);
    auto first = vs.data();
    q->bulk_push(first, m);
  }
  if (q->size() != ops) fail("pop: could not fill the queue");
  return [q, ops] {
    Item sum = 0;
    for (std::size_t i = 0; i < ops; ++i) {
      auto v = q->pop();
      if (!v) fail("pop found the queue empty");
      sum += *v;
    }
    if (sum != Item(ops) * Item(ops - 1) / 2 || !q->empty()) fail("pop: the items popped do not add up to those pushed");
  };
}

// A Victim is one queue of n items that a thief steals from. It holds a
// rotation of 0..n-1, whose oldest item is oldest.
struct Victim {
  std::unique_ptr<Queue> q;
  std::vector<Item> buf;
  std::size_t oldest = 0, n;

  explicit Victim(std::size_t n) : q(std::make_unique<Queue>(log2of(DEFAULT_CAPACITY))), n(n) {
    for (std::size_t v = 0; v < n; ++v) q->push(Item(v));
    buf.reserve(n);
  }

  // steal takes the k oldest items by a loop of steal.
  void steal(std::size_t k) {
    buf.clear();
    while (buf.size() < k) {
      auto v = q->steal();
      if (!v) fail("steal found the victim empty");
      buf.push_back(*v);
    }
  }

  // refill checks that the last steal took the k oldest items, oldest
  // first, and pushes them back at the new end.
  void refill() {
    for (std::size_t i = 0; i < buf.size(); ++i) {
      if (buf[i] != Item((oldest + i) % n)) fail("a steal did not take the oldest items in order");
    }
    oldest = (oldest + buf.size()) % n;
    for (Item v : buf) q->push(v);
    if (q->size() != n) fail("the refill did not restore the victim");
  }
};

// stealBench times ops steals of pct % from victims of n items, as Go's
// BenchmarkSteal: one steal from each victim per timed loop, the victims
// refilled outside the timer, after one untimed round.
Sample stealBench(std::size_t n, std::size_t pct, uint64_t ops) {
  std::size_t r = std::max<std::size_t>(1, std::min(STEAL_QUEUES, STEAL_ITEMS / n));
  std::size_t k = stealCount(n, pct);
  std::vector<Victim> victims;
  victims.reserve(r);
  for (std::size_t i = 0; i < r; ++i) victims.emplace_back(n);
  for (auto& v : victims) {
    v.steal(k);
    v.refill();
  }
  Sample s;
  for (uint64_t done = 0; done < ops;) {
    std::size_t m = static_cast<std::size_t>(std::min<uint64_t>(r, ops - done));
    auto t0 = Clock::now();
    for (std::size_t i = 0; i < m; ++i) victims[i].steal(k);
    s.ns += std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    for (std::size_t i = 0; i < m; ++i) victims[i].refill();
    done += m;
  }
  return s;
}

// ownerAmongThieves times ops pushes and pops of the owner of a queue with
// a backlog of THIEVES_BACKLOG items, among `thieves` thieves on threads of
// their own, as Go's ownerAmongThieves does; the time is the owner's pairs
// alone, without the top-ups (a loop of push, as Go's tf-ub pushes).
Sample ownerAmongThieves(std::size_t thieves, bool part, uint64_t ops) {
  Queue q(log2of(DEFAULT_CAPACITY));
  Item next = 0;
  auto topUp = [&] {
    for (std::size_t n = q.size(); n < THIEVES_BACKLOG; ++n) q.push(next++);
  };
  topUp();
  struct alignas(64) Tally {
    uint64_t stolen = 0, sum = 0;
  };
  std::vector<Tally> tallies(thieves);
  std::atomic<std::size_t> ready{0};
  std::atomic<bool> start{false}, stop{false};
  std::vector<std::thread> ts;
  for (std::size_t i = 0; i < thieves; ++i) {
    ts.emplace_back([&, i] {
      Tally t;
      ready.fetch_add(1);
      while (!start.load(std::memory_order_acquire)) std::this_thread::yield();
      while (!stop.load(std::memory_order_relaxed)) {
        std::size_t want = part ? std::max<std::size_t>(1, stealCount(std::max<std::size_t>(q.size(), 1), THIEVES_PART)) : 1;
        for (std::size_t j = 0; j < want; ++j) {
          auto v = q.steal();
          if (!v) break;
          t.stolen++;
          t.sum += uint64_t(*v);
        }
      }
      tallies[i] = t;
    });
  }
  // Threads start slower than goroutines: the clock starts once every
  // thief is spinning.
  while (ready.load() < thieves) std::this_thread::yield();
  uint64_t popped = 0, sum = 0;
  double topping = 0;
  auto begin = Clock::now();
  start.store(true, std::memory_order_release);
  for (uint64_t i = 0; i < ops; ++i) {
    q.push(next++);
    if (auto v = q.pop()) {
      popped++;
      sum += uint64_t(*v);
    }
    if (i % THIEVES_CHECK == THIEVES_CHECK - 1) {
      auto t0 = Clock::now();
      topUp();
      topping += std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    }
  }
  double wall = std::chrono::duration<double, std::nano>(Clock::now() - begin).count();
  stop.store(true, std::memory_order_release);
  for (auto& t : ts) t.join();
  while (auto v = q.pop()) {
    popped++;
    sum += uint64_t(*v);
  }
  uint64_t stolen = 0;
  for (auto& t : tallies) {
    stolen += t.stolen;
    sum += t.sum;
  }
  uint64_t n = uint64_t(next);
  if (popped + stolen != n || sum != n * (n - 1) / 2) fail("thieves: an item was lost or taken twice");
  Sample s;
  s.ns = wall - topping;
  double o = double(ops);
  s.extra = {{double(stolen) / o, "stolen/op"}, {double(stolen) / (wall / 1e9), "stolen/s"}, {topping / o, "topup-ns/op"}};
  return s;
}

// ---- the harness ----

struct Bench {
  std::string name;
  std::function<Sample(uint64_t)> run;
  double perItem = 0;  // items per op, for ns/item; 0: none
};

std::vector<Bench> benchmarks() {
  std::vector<Bench> v;
  v.push_back({"BenchmarkPush/queue=tf-cpp", [](uint64_t ops) {
                 return windows(ops, WINDOW_ITEMS, [](std::size_t n) { return pushWindow(1, n, false); });
               }});
  for (bool bulk : {false, true}) {
    for (std::size_t batch : BATCH_SIZES) {
      std::string name = std::string("BenchmarkPushBatch/queue=") + (bulk ? "tf-cpp-bulk" : "tf-cpp") + "/batch=" + std::to_string(batch);
      v.push_back({name, [batch, bulk](uint64_t ops) {
                     std::size_t window = std::max<std::size_t>(1, WINDOW_ITEMS / batch);
                     return windows(ops, window, [batch, bulk](std::size_t n) { return pushWindow(batch, n, bulk); });
                   },
                   double(batch)});
    }
  }
  v.push_back({"BenchmarkPop/queue=tf-cpp", [](uint64_t ops) { return windows(ops, WINDOW_ITEMS, popWindow); }});
  for (std::size_t n : STEAL_SIZES) {
    for (std::size_t pct : STEAL_SHARES) {
      v.push_back({"BenchmarkSteal/queue=tf-cpp/n=" + std::to_string(n) + "/p=" + std::to_string(pct),
                   [n, pct](uint64_t ops) { return stealBench(n, pct, ops); }});
    }
  }
  // The thieves' benchmarks of each steal kind share the ns/op of their
  // last run without a thief, which their slowdown divides by.
  std::size_t most = std::max(2u, std::thread::hardware_concurrency());
  for (bool part : {false, true}) {
    auto alone = std::make_shared<double>(0);
    for (std::size_t k = 0; k < most; ++k) {
      v.push_back({"BenchmarkThieves/queue=tf-cpp/thieves=" + std::to_string(k) + "/steal=" + (part ? "part" : "one"),
                   [k, part, alone](uint64_t ops) {
                     Sample s = ownerAmongThieves(k, part, ops);
                     double ns = s.ns / double(ops);
                     if (k == 0) *alone = ns;
                     if (*alone > 0) s.extra.insert(s.extra.begin(), {ns / *alone, "slowdown"});
                     return s;
                   }});
    }
  }
  return v;
}

// glob reports whether name matches pattern as a whole; * matches any run
// of characters.
bool glob(const std::string& p, const std::string& n, std::size_t pi = 0, std::size_t ni = 0) {
  if (pi == p.size()) return ni == n.size();
  if (p[pi] == '*') {
    for (std::size_t k = ni; k <= n.size(); ++k) {
      if (glob(p, n, pi + 1, k)) return true;
    }
    return false;
  }
  return ni < n.size() && p[pi] == n[ni] && glob(p, n, pi + 1, ni + 1);
}

std::string fmtFloat(double v) {
  char b[64];
  if (v >= 100) std::snprintf(b, sizeof b, "%.0f", v);
  else if (v >= 10) std::snprintf(b, sizeof b, "%.1f", v);
  else if (v >= 1) std::snprintf(b, sizeof b, "%.2f", v);
  else std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

void printResult(const Bench& b, uint64_t n, const Sample& s) {
  double perOp = s.ns / double(n);
  std::printf("%s\t%llu\t%s ns/op", b.name.c_str(), static_cast<unsigned long long>(n), fmtFloat(perOp).c_str());
  if (s.best > 0) std::printf("\t%s best-ns/op", fmtFloat(s.best).c_str());
  if (b.perItem > 0) std::printf("\t%s ns/item", fmtFloat(perOp / b.perItem).c_str());
  for (auto& [value, unit] : s.extra) std::printf("\t%s %s", fmtFloat(value).c_str(), unit.c_str());
  std::printf("\n");
  std::fflush(stdout);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr, "wsq-peers-cpp: %s\nusage: wsq-peers-cpp [-bench PATTERNS] [-benchtime Nx|DURATION] [-count N] [-list]\n", msg.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> patterns{"*"};
  uint64_t ops = 0;          // -benchtime Nx
  double seconds = 1;        // -benchtime as a duration
  int count = 1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    while (!flag.empty() && flag[0] == '-') flag.erase(0, 1);
    std::string value;
    if (auto eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
    } else if (flag != "list") {
      if (i + 1 >= argc) usage("flag -" + flag + " needs a value");
      value = argv[++i];
    }
    if (flag == "list") {
      list = true;
    } else if (flag == "bench") {
      patterns = split(value, '|');
    } else if (flag == "benchtime") {
      char* end = nullptr;
      double v = std::strtod(value.c_str(), &end);
      std::string unit = end;
      if (!(v > 0)) usage("-benchtime " + value + ": want Nx or a duration");
      if (unit == "x") ops = uint64_t(v);
      else if (unit == "s") seconds = v;
      else if (unit == "ms") seconds = v / 1e3;
      else usage("-benchtime " + value + ": want Nx or a duration such as 1s or 200ms");
    } else if (flag == "count") {
      count = std::atoi(value.c_str());
      if (count < 1) usage("-count " + value + ": want a positive integer");
    } else {
      usage("unknown flag -" + flag);
    }
  }
  auto all = benchmarks();
  std::vector<const Bench*> selected;
  for (auto& b : all) {
    for (auto& p : patterns) {
      if (glob(p, b.name)) {
        selected.push_back(&b);
        break;
      }
    }
  }
  if (selected.empty()) usage("no benchmark matches -bench");
  if (list) {
    for (auto* b : selected) std::printf("%s\n", b->name.c_str());
    return 0;
  }
  std::printf("goos: linux\ngoarch: amd64\npkg: wsq-peers-cpp (C++: Taskflow wsq.hpp)\n");
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      std::printf("cpu: %s\n", line.substr(line.find(':') + 2).c_str());
      break;
    }
  }
  for (auto* b : selected) {
    for (int c = 0; c < count; ++c) {
      b->run(1);  // a warm-up, whose time is dropped, as go test's first run
      uint64_t n = ops;
      Sample s;
      if (n > 0) {
        s = b->run(n);
      } else {
        // Grow the op count until the timed parts last the time asked for,
        // aiming 20 % past it and growing at most 100× a step, as Go does.
        n = 1;
        s = b->run(n);
        while (s.ns < seconds * 1e9 && n < 1000000000) {
          double perOp = std::max(s.ns, 1.0) / double(n);
          uint64_t goal = uint64_t(seconds * 1e9 * 1.2 / perOp);
          n = std::max(n + 1, std::min(goal, 100 * n));
          s = b->run(n);
        }
      }
      printResult(*b, n, s);
    }
  }
  return 0;
}
