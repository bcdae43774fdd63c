//! wsq-peers times crossbeam-deque and rayon doing what wsq's `./bench`
//! times wsq doing, and prints the figures in Go's benchmark format, so that
//! benchstat and `../run.sh` read them beside the Go figures.
//!
//! Every figure is a whole timed loop divided by its operation count; queues
//! and inputs are prepared outside the timer, and every loop checks,
//! outside the timer, that it did what its name says. The benchmarks, with
//! the Go benchmark each one mirrors:
//!
//! - `BenchmarkPush/queue=cb` (Go: `BenchmarkPush/queue=Q`): one op is one
//!   `Worker::push` of one item, as Go's is one `Push`.
//! - `BenchmarkPushBatch/queue=cb/batch=B` (Go:
//!   `BenchmarkPushBatch/queue=Q/batch=B`): one op pushes B items with a
//!   loop of `Worker::push` (crossbeam has no bulk push).
//!
//!   For both, windows of 2^20 items (2^20 / B ops) go into a fresh worker
//!   whose buffer was grown to hold the window and touched outside the
//!   timer (filled, then emptied by steals, which never shrink it), as the
//!   Go harness warms its rings; so the timed loop never grows the buffer.
//! - `BenchmarkPop/queue=cb` (Go: `BenchmarkPop/queue=Q`): one op is one
//!   `Worker::pop` of a LIFO worker (the owner takes its newest item, as
//!   wsq's Pop does), in windows that empty a worker of 2^20 items,
//!   filled outside the timer by a loop of pushes. crossbeam's pop halves
//!   the buffer whenever the queue falls below a quarter of it (allocating
//!   the new buffer and copying the items into it); that is part of its
//!   pop.
//! - `BenchmarkPop/queue=cb-steady`: the same pop, in windows of 3/4 of a
//!   worker of 2^20 items, refilled outside the timer, so that the queue
//!   never falls below a quarter of its buffer and the buffer never shrinks:
//!   crossbeam's pop at a steady size, the protocol's own cost.
//! - `BenchmarkSteal/queue=Q/n=N/p=P` (Go: the same name): one op takes the
//!   StealCount(N, P) oldest items of a worker holding N items, its owner
//!   idle; a timed loop steals once from each of up to 64 workers (at most
//!   2^20 items in all), refilled to N outside the timer. Q is
//!   - `cb-batch`: a loop of `Stealer::steal_batch` (at most 32 items a
//!     call, and one compare-and-swap per item, since the victim is a LIFO
//!     worker whose owner could be popping the same end) into the thief's
//!     own LIFO worker, then single steals for the last fewer than 32;
//!   - `cb-fifo-batch`: the same from and into FIFO workers, where
//!     `steal_batch` copies up to 32 items and claims them with one
//!     compare-and-swap (a FIFO worker's owner pops its oldest item, unlike
//!     wsq's);
//!   - `cb-single`: a loop of `Stealer::steal`, one item and one
//!     compare-and-swap each, into a reused `Vec`.
//! - `BenchmarkForkJoin/impl=rayon/work=W` (Go:
//!   `BenchmarkForkJoin/impl=pool-Q/work=W`): one op computes fib(n) by
//!   binary recursion on a rayon pool of `-cpu` threads, every call above
//!   the cutoff forking fib(n-1) (`rayon::join`'s second closure, the one
//!   pushed for thieves) and computing fib(n-2) itself; `fine` is fib(27)
//!   with a task per call (cutoff 1), `coarse` fib(34) with cutoff 17.
//!   `ns/task` divides by the calls that fork.
//! - `BenchmarkFibSerial/n=27` (Go: `../fibserial.go`): the plain recursion,
//!   the code speed under the fork-join figures.
//! - `BenchmarkThieves/queue=cb/thieves=K/steal=S` (Go: the same name, queue
//!   Q): what the owner of a LIFO worker loses to K thieves on threads of
//!   their own. One op is the owner's `push` and `pop` at the new end of a
//!   worker that holds a backlog of 4096 items, topped up every 256 ops by a
//!   loop of pushes (crossbeam has no bulk push) of the items the thieves
//!   took, as read from `Worker::len`; the top-ups are timed apart and left
//!   out of ns/op. The thieves steal from the old end in a tight loop: one
//!   item at a time (`steal`, S = `one`) or a batch (`steal_batch`, S =
//!   `part`: about half the worker, but at most 32 items, where Go's thief
//!   takes a tenth of the queue). K runs from 0 to one less than the
//!   number of CPUs (at least 1), as Go's does to GOMAXPROCS. Metrics, as
//!   Go's: `slowdown` (ns/op over that of the last `thieves=0` run of the
//!   same steal kind in this process: run both), `stolen/op`, `stolen/s`
//!   and `topup-ns/op`. Every run checks that each item was taken exactly
//!   once (count and sum).
//!
//! Flags, as `go test`'s: `-bench` (patterns separated by `|`, each
//! matching a whole name, `*` standing for any run of characters; default
//! `*`), `-benchtime` (`Nx` for exactly N ops, or a duration such as `1s`
//! or `200ms`; default `1s`), `-count` (samples of each benchmark; default
//! 1), `-cpu` (comma-separated thread counts; default the number of CPUs),
//! `-list` (print the names and exit). As in Go, a name carries the suffix
//! `-N` when it ran with N > 1 threads (`-cpu`); only the fork-join
//! benchmarks use that many threads (the thieves' benchmarks start the
//! thieves their name says, whatever `-cpu` is).

mod loops;

use crossbeam_deque::{Steal, Stealer, Worker};
use std::cell::Cell;
use std::process;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

fn main() {
    let cfg = match Config::parse(std::env::args().skip(1)) {
        Ok(cfg) => cfg,
        Err(msg) => {
            eprintln!("wsq-peers: {}", msg);
            eprintln!("usage: wsq-peers [-bench PATTERNS] [-benchtime Nx|DURATION] [-count N] [-cpu N,...] [-list]");
            process::exit(2);
        }
    };
    let benches = benchmarks();
    let selected: Vec<&Bench> = benches
        .iter()
        .filter(|b| cfg.patterns.iter().any(|p| glob(p, &b.name)))
        .collect();
    if selected.is_empty() {
        eprintln!("wsq-peers: no benchmark matches -bench {}", cfg.bench_flag);
        process::exit(2);
    }
    if cfg.list {
        for b in selected {
            println!("{}", b.name);
        }
        return;
    }
    println!("goos: {}", std::env::consts::OS);
    println!("goarch: {}", goarch());
    println!("pkg: wsq-peers (Rust: crossbeam-deque, rayon)");
    if let Some(cpu) = cpu_model() {
        println!("cpu: {}", cpu);
    }
    for b in selected {
        for &cpu in &cfg.cpus {
            let name = if cpu > 1 {
                format!("{}-{}", b.name, cpu)
            } else {
                b.name.clone()
            };
            for _ in 0..cfg.count {
                let (n, sample) = measure(b, cpu, &cfg.benchtime);
                print_result(&name, n, &sample, &b.metrics);
            }
        }
    }
}

// ---- command line ----

enum BenchTime {
    Ops(u64),
    Time(Duration),
}

struct Config {
    patterns: Vec<String>,
    bench_flag: String,
    benchtime: BenchTime,
    count: usize,
    cpus: Vec<usize>,
    list: bool,
}

impl Config {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Config, String> {
        let mut cfg = Config {
            patterns: vec!["*".to_string()],
            bench_flag: "*".to_string(),
            benchtime: BenchTime::Time(Duration::from_secs(1)),
            count: 1,
            cpus: vec![std::thread::available_parallelism().map_or(1, |n| n.get())],
            list: false,
        };
        while let Some(arg) = args.next() {
            // Accept -flag value, --flag value and -flag=value, as Go's flag package does.
            let trimmed = arg.trim_start_matches('-');
            let (flag, inline) = match trimmed.find('=') {
                Some(i) => (trimmed[..i].to_string(), Some(trimmed[i + 1..].to_string())),
                None => (trimmed.to_string(), None),
            };
            if flag == "list" {
                cfg.list = true;
                continue;
            }
            let value = match inline.or_else(|| args.next()) {
                Some(v) => v,
                None => return Err(format!("flag -{} needs a value", flag)),
            };
            match flag.as_str() {
                "bench" => {
                    cfg.patterns = value.split('|').map(str::to_string).collect();
                    cfg.bench_flag = value;
                }
                "benchtime" => cfg.benchtime = parse_benchtime(&value)?,
                "count" => {
                    cfg.count = value
                        .parse()
                        .ok()
                        .filter(|&c: &usize| c > 0)
                        .ok_or_else(|| format!("-count {}: want a positive integer", value))?
                }
                "cpu" => {
                    cfg.cpus = value
                        .split(',')
                        .map(|s| s.trim().parse().ok().filter(|&c: &usize| c > 0))
                        .collect::<Option<Vec<usize>>>()
                        .ok_or_else(|| format!("-cpu {}: want positive integers separated by commas", value))?
                }
                _ => return Err(format!("unknown flag -{}", flag)),
            }
        }
        Ok(cfg)
    }
}

fn parse_benchtime(s: &str) -> Result<BenchTime, String> {
    let bad = || format!("-benchtime {}: want Nx (N > 0) or a duration such as 1s, 500ms, 2.5s", s);
    if let Some(n) = s.strip_suffix('x') {
        return n.parse().ok().filter(|&n: &u64| n > 0).map(BenchTime::Ops).ok_or_else(bad);
    }
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => return Err(bad()),
    };
    let v: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "ns" => v * 1e-9,
        "us" | "µs" => v * 1e-6,
        "ms" => v * 1e-3,
        "s" => v,
        "m" => v * 60.0,
        _ => return Err(bad()),
    };
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(bad());
    }
    Ok(BenchTime::Time(Duration::from_secs_f64(secs)))
}

/// glob reports whether name matches pattern as a whole, where `*` matches
/// any run of characters, possibly empty.
fn glob(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if pi < p.len() && p[pi] == n[ni] {
            pi += 1;
            ni += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

// ---- the harness: whole timed loops, as testing.B ----

/// A benchmark: run(ops, cpu) performs ops operations and returns the time
/// its timed parts took, with any figures of its own; metrics are extra
/// figures per op, each the time per op divided by a count (items per
/// batch, tasks per computation).
struct Bench {
    name: String,
    run: Box<dyn Fn(u64, usize) -> Sample>,
    metrics: Vec<(f64, &'static str)>,
}

/// Sample is what one run measured: the time its timed parts took, and
/// figures it computed itself (value, unit), printed as they are after
/// ns/op, as Go's ReportMetric does.
struct Sample {
    elapsed: Duration,
    extra: Vec<(f64, &'static str)>,
}

impl From<Duration> for Sample {
    fn from(elapsed: Duration) -> Sample {
        Sample { elapsed, extra: Vec::new() }
    }
}

/// measure runs b as Go's testing package runs a benchmark: once with one
/// op (a warm-up whose time is dropped), then with the requested op count,
/// or with growing op counts until the timed parts last the requested time.
fn measure(b: &Bench, cpu: usize, bt: &BenchTime) -> (u64, Sample) {
    let _ = (b.run)(1, cpu);
    match *bt {
        BenchTime::Ops(n) => (n, (b.run)(n, cpu)),
        BenchTime::Time(target) => {
            let mut n: u64 = 1;
            let mut sample = (b.run)(n, cpu);
            while sample.elapsed < target && n < 1_000_000_000 {
                // Aim 20 % past the target, growing at most 100× a step, as Go does.
                let per_op = sample.elapsed.as_nanos().max(1) as f64 / n as f64;
                let goal = (target.as_nanos() as f64 * 1.2 / per_op) as u64;
                n = goal.min(100 * n).max(n + 1);
                sample = (b.run)(n, cpu);
            }
            (n, sample)
        }
    }
}

fn print_result(name: &str, n: u64, sample: &Sample, metrics: &[(f64, &str)]) {
    let per_op = sample.elapsed.as_nanos() as f64 / n as f64;
    let mut line = format!("{}\t{:>10}\t{:>12} ns/op", name, n, fmt_float(per_op));
    for &(div, unit) in metrics {
        line.push_str(&format!("\t{:>12} {}", fmt_float(per_op / div), unit));
    }
    for &(value, unit) in &sample.extra {
        line.push_str(&format!("\t{:>12} {}", fmt_float(value), unit));
    }
    println!("{}", line);
}

/// fmt_float prints v as Go's benchmark output does: more decimals for
/// smaller values.
fn fmt_float(v: f64) -> String {
    if v >= 100.0 {
        format!("{:.0}", v)
    } else if v >= 10.0 {
        format!("{:.1}", v)
    } else if v >= 1.0 {
        format!("{:.2}", v)
    } else {
        format!("{:.3}", v)
    }
}

/// timed runs f and adds the time it took to total.
fn timed<R>(total: &mut Duration, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let r = f();
    *total += start.elapsed();
    r
}

/// opaque hides v from the optimizer (std::hint::black_box needs Rust 1.66;
/// Debian 12 ships 1.63).
#[inline(never)]
fn opaque<T: Copy>(v: T) -> T {
    // SAFETY: v is a valid, initialized value on the stack.
    unsafe { std::ptr::read_volatile(&v) }
}

// ---- the benchmarks ----

const BATCH_SIZES: [usize; 6] = [1, 4, 16, 64, 256, 1024];
const STEAL_SIZES: [usize; 2] = [10_000, 100_000];
const STEAL_SHARES: [usize; 7] = [10, 20, 30, 40, 50, 60, 90];
/// A window of pushes moves WINDOW_ITEMS items (WINDOW_ITEMS / B batches of
/// B) into a fresh worker; a window of pops empties a worker of WINDOW_ITEMS
/// items (the Go harness's windowItems).
const WINDOW_ITEMS: usize = 1 << 20;
/// A timed steal loop steals once from each of up to STEAL_QUEUES workers,
/// which hold at most STEAL_ITEMS items in all (Go: maxStealQueues and
/// stealItems).
const STEAL_QUEUES: usize = 64;
const STEAL_ITEMS: usize = 1 << 20;
/// The fork-join workloads, (n, cutoff): fib(n), forking every call above
/// the cutoff (Go: fibWorks).
const FIB_FINE: (u32, u32) = (27, 1);
const FIB_COARSE: (u32, u32) = (34, 17);
/// The most items crossbeam's steal_batch takes in one call (MAX_BATCH in
/// its source).
const MAX_BATCH: usize = 32;

fn benchmarks() -> Vec<Bench> {
    let mut v = Vec::new();
    v.push(Bench {
        name: "BenchmarkPush/queue=cb".to_string(),
        run: Box::new(|ops, _| windows(ops, WINDOW_ITEMS, |k| push_window(1, k))),
        metrics: vec![],
    });
    for &batch in &BATCH_SIZES {
        v.push(Bench {
            name: format!("BenchmarkPushBatch/queue=cb/batch={}", batch),
            run: Box::new(move |ops, _| windows(ops, (WINDOW_ITEMS / batch).max(1), |k| push_window(batch, k))),
            metrics: vec![(batch as f64, "ns/item")],
        });
    }
    v.push(Bench {
        name: "BenchmarkPop/queue=cb".to_string(),
        run: Box::new(|ops, _| windows(ops, WINDOW_ITEMS, pop_window)),
        metrics: vec![],
    });
    v.push(Bench {
        name: "BenchmarkPop/queue=cb-steady".to_string(),
        run: Box::new(|ops, cpu| pop_steady(ops, cpu)),
        metrics: vec![],
    });
    for &(queue, kind) in &[
        ("cb-batch", StealKind::Batch(Flavor::Lifo)),
        ("cb-fifo-batch", StealKind::Batch(Flavor::Fifo)),
        ("cb-single", StealKind::Single),
    ] {
        for &n in &STEAL_SIZES {
            for &pct in &STEAL_SHARES {
                v.push(Bench {
                    name: format!("BenchmarkSteal/queue={}/n={}/p={}", queue, n, pct),
                    run: Box::new(move |ops, _| steal_bench(kind, n, pct, ops).into()),
                    metrics: vec![],
                });
            }
        }
    }
    for &(work, (n, cutoff)) in &[("fine", FIB_FINE), ("coarse", FIB_COARSE)] {
        v.push(Bench {
            name: format!("BenchmarkForkJoin/impl=rayon/work={}", work),
            run: Box::new(move |ops, cpu| fork_join(n, cutoff, ops, cpu).into()),
            metrics: vec![(fib_forks(n, cutoff) as f64, "ns/task")],
        });
    }
    v.push(Bench {
        name: "BenchmarkFibSerial/n=27".to_string(),
        run: Box::new(|ops, _| {
            let want = fib_serial(27);
            let mut total = Duration::ZERO;
            timed(&mut total, || {
                for _ in 0..ops {
                    if fib_serial(opaque(27)) != want {
                        panic!("wsq-peers: serial fib(27) changed its result");
                    }
                }
            });
            total.into()
        }),
        metrics: vec![],
    });
    // The thieves' benchmarks of each steal kind share the ns/op of their
    // last run without a thief, which their slowdown divides by.
    let most_thieves = thread::available_parallelism().map_or(1, |n| n.get()).max(2);
    for &(steal, batch) in &[("one", false), ("part", true)] {
        let alone = Rc::new(Cell::new(0.0));
        for thieves in 0..most_thieves {
            let alone = Rc::clone(&alone);
            v.push(Bench {
                name: format!("BenchmarkThieves/queue=cb/thieves={}/steal={}", thieves, steal),
                run: Box::new(move |ops, _| {
                    let mut sample = owner_among_thieves(thieves, batch, ops);
                    let ns = sample.elapsed.as_nanos() as f64 / ops as f64;
                    if thieves == 0 {
                        alone.set(ns);
                    }
                    if alone.get() > 0.0 {
                        sample.extra.insert(0, (ns / alone.get(), "slowdown"));
                    }
                    sample
                }),
                metrics: vec![],
            });
        }
    }
    // The parallel loops and sorts: see loops.rs.
    v.extend(loops::benchmarks());
    v
}

/// windows runs ops operations in windows of at most window, each prepared
/// and checked by run outside its timed part, and returns the timed total
/// with the time per op of the fastest whole window (best-ns/op), as Go's
/// timeWindows does.
fn windows(ops: u64, window: usize, mut run: impl FnMut(usize) -> Duration) -> Sample {
    let mut total = Duration::ZERO;
    let mut best: Option<f64> = None;
    let mut done = 0u64;
    while done < ops {
        let k = (ops - done).min(window as u64) as usize;
        let d = run(k);
        if k == window {
            let per_op = d.as_nanos() as f64 / k as f64;
            best = Some(best.map_or(per_op, |b| b.min(per_op)));
        }
        total += d;
        done += k as u64;
    }
    Sample { elapsed: total, extra: best.map(|b| vec![(b, "best-ns/op")]).unwrap_or_default() }
}

/// push_window times ops pushes of batch items each into a fresh LIFO worker
/// whose buffer already holds room for them all, touched.
fn push_window(batch: usize, ops: usize) -> Duration {
    let items = batch * ops;
    let w = Worker::new_lifo();
    // Grow the buffer to the window and touch it: fill it, then empty it by
    // steals, which move the front and never shrink the buffer (a pop would).
    for v in 0..items {
        w.push(v);
    }
    drain_by_steals(&w.stealer(), items);
    let vs: Vec<usize> = (0..batch).collect();
    let mut total = Duration::ZERO;
    timed(&mut total, || {
        for _ in 0..ops {
            for &v in &vs {
                w.push(v);
            }
        }
    });
    if w.len() != items {
        panic!("wsq-peers: push: {} items after the timed loop; want {}", w.len(), items);
    }
    total
}

/// drain_by_steals takes exactly n items from s, which has them.
fn drain_by_steals(s: &Stealer<usize>, n: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        match s.steal() {
            Steal::Success(v) => out.push(v),
            Steal::Retry => {}
            Steal::Empty => panic!("wsq-peers: a worker ran out after {} of {} items", out.len(), n),
        }
    }
    out
}

/// pop_window times popping all of a LIFO worker filled with 0..items.
fn pop_window(items: usize) -> Duration {
    let w = Worker::new_lifo();
    for v in 0..items {
        w.push(v);
    }
    let mut total = Duration::ZERO;
    let sum = timed(&mut total, || {
        let mut sum = 0usize;
        for _ in 0..items {
            match w.pop() {
                Some(v) => sum = sum.wrapping_add(v),
                None => panic!("wsq-peers: pop found the worker empty"),
            }
        }
        sum
    });
    if sum != items * (items - 1) / 2 || !w.is_empty() {
        panic!("wsq-peers: pop: the items popped do not add up to those pushed");
    }
    total
}

/// pop_steady times ops pops from a LIFO worker of WINDOW_ITEMS items, in
/// windows that take at most 3/4 of them, the popped items pushed back
/// outside the timer: the worker never falls below a quarter of its buffer,
/// so its pop never shrinks the buffer.
fn pop_steady(ops: u64, _cpu: usize) -> Sample {
    let w = Worker::new_lifo();
    for v in 0..WINDOW_ITEMS {
        w.push(v);
    }
    windows(ops, WINDOW_ITEMS / 4 * 3, |k| {
        let mut total = Duration::ZERO;
        let sum = timed(&mut total, || {
            let mut sum = 0usize;
            for _ in 0..k {
                match w.pop() {
                    Some(v) => sum = sum.wrapping_add(v),
                    None => panic!("wsq-peers: pop found the worker empty"),
                }
            }
            sum
        });
        // The k newest items, WINDOW_ITEMS-k .. WINDOW_ITEMS-1.
        let lo = WINDOW_ITEMS - k;
        if sum != (lo + WINDOW_ITEMS - 1) * k / 2 || w.len() != lo {
            panic!("wsq-peers: pop: the items popped are not the {} newest", k);
        }
        for v in lo..WINDOW_ITEMS {
            w.push(v);
        }
        total
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    Lifo,
    Fifo,
}

#[derive(Clone, Copy)]
enum StealKind {
    Batch(Flavor),
    Single,
}

/// Victim is one queue of n items and what a thief steals into. It holds a
/// rotation of 0..n-1, whose oldest item is oldest.
struct Victim {
    w: Worker<usize>,
    s: Stealer<usize>,
    dest: Worker<usize>,
    dest_s: Stealer<usize>,
    buf: Vec<usize>,
    oldest: usize,
    n: usize,
}

impl Victim {
    fn new(flavor: Flavor, n: usize) -> Victim {
        let make = || match flavor {
            Flavor::Lifo => Worker::new_lifo(),
            Flavor::Fifo => Worker::new_fifo(),
        };
        let (w, dest) = (make(), make());
        for v in 0..n {
            w.push(v);
        }
        let (s, dest_s) = (w.stealer(), dest.stealer());
        Victim { w, s, dest, dest_s, buf: Vec::with_capacity(n), oldest: 0, n }
    }

    /// steal takes the k oldest items, into dest (Batch) or buf (Single).
    fn steal(&mut self, kind: StealKind, k: usize) {
        match kind {
            StealKind::Single => {
                self.buf.clear();
                while self.buf.len() < k {
                    match self.s.steal() {
                        Steal::Success(v) => self.buf.push(v),
                        Steal::Retry => {}
                        Steal::Empty => panic!("wsq-peers: steal found the victim empty"),
                    }
                }
            }
            StealKind::Batch(_) => {
                // Batches while a whole one is still wanted (the thief's
                // length is two plain loads), then single steals, so that the
                // loop takes exactly k items.
                let mut taken = 0;
                while k - taken >= MAX_BATCH {
                    match self.s.steal_batch(&self.dest) {
                        Steal::Success(()) => taken = self.dest.len(),
                        Steal::Retry => {}
                        Steal::Empty => panic!("wsq-peers: steal_batch found the victim empty"),
                    }
                }
                while taken < k {
                    match self.s.steal() {
                        Steal::Success(v) => {
                            self.dest.push(v);
                            taken += 1;
                        }
                        Steal::Retry => {}
                        Steal::Empty => panic!("wsq-peers: steal found the victim empty"),
                    }
                }
            }
        }
    }

    /// refill checks that the last steal took the k oldest items, oldest
    /// first, and pushes them back at the new end, so that the victim holds
    /// n items again.
    fn refill(&mut self, kind: StealKind, k: usize) {
        if let StealKind::Batch(_) = kind {
            // Empty the thief's worker by steals, oldest first, which leave
            // its buffer as large as the steals made it.
            self.buf = drain_by_steals(&self.dest_s, k);
            if !self.dest.is_empty() {
                panic!("wsq-peers: steal_batch took more than {} items", k);
            }
        }
        if self.buf.len() != k {
            panic!("wsq-peers: a steal took {} items; want {}", self.buf.len(), k);
        }
        for (i, &v) in self.buf.iter().enumerate() {
            let want = (self.oldest + i) % self.n;
            if v != want {
                panic!("wsq-peers: stolen item {} is {}; want {}", i, v, want);
            }
        }
        self.oldest = (self.oldest + k) % self.n;
        for &v in &self.buf {
            self.w.push(v);
        }
        if self.w.len() != self.n {
            panic!("wsq-peers: the refill did not restore the victim");
        }
    }
}

/// steal_count is wsq.StealCount: p % of n, rounded, at least 1.
fn steal_count(n: usize, pct: usize) -> usize {
    ((pct as f64 / 100.0 * n as f64).round() as usize).clamp(1, n)
}

/// steal_bench times ops steals of pct % from victims of n items: one steal
/// from each of up to 64 victims (at most 2^20 items in all) per timed loop,
/// the victims refilled outside the timer, after one untimed round.
fn steal_bench(kind: StealKind, n: usize, pct: usize, ops: u64) -> Duration {
    let flavor = match kind {
        StealKind::Batch(f) => f,
        StealKind::Single => Flavor::Lifo,
    };
    let r = (STEAL_ITEMS / n).clamp(1, STEAL_QUEUES);
    let k = steal_count(n, pct);
    let mut victims: Vec<Victim> = (0..r).map(|_| Victim::new(flavor, n)).collect();
    for v in victims.iter_mut() {
        v.steal(kind, k);
        v.refill(kind, k);
    }
    let mut total = Duration::ZERO;
    let mut done = 0u64;
    while done < ops {
        let m = (ops - done).min(r as u64) as usize;
        timed(&mut total, || {
            for v in victims[..m].iter_mut() {
                v.steal(kind, k);
            }
        });
        for v in victims[..m].iter_mut() {
            v.refill(kind, k);
        }
        done += m as u64;
    }
    total
}

/// The backlog BenchmarkThieves keeps, and how often (in owner ops) the owner
/// tops it up: Go's thievesBacklog and thievesCheck.
const THIEVES_BACKLOG: usize = 4096;
const THIEVES_CHECK: u64 = 256;

/// Tally is what one thief took: how many items and their sum. Each thief
/// keeps its own on its own stack and hands it back when it ends.
#[derive(Default)]
struct Tally {
    stolen: u64,
    sum: u64,
}

impl Tally {
    fn add(&mut self, v: usize) {
        self.stolen += 1;
        self.sum = self.sum.wrapping_add(v as u64);
    }
}

/// owner_among_thieves times ops pushes and pops of a LIFO worker's owner
/// among `thieves` thieves, as Go's ownerAmongThieves does; the sample's
/// time is the owner's pairs alone, without the top-ups.
fn owner_among_thieves(thieves: usize, batch: bool, ops: u64) -> Sample {
    let w = Worker::new_lifo();
    // The next item to push: items are 0, 1, 2, ...
    let mut next = 0usize;
    // crossbeam has no bulk push (and no length on a Stealer): the owner
    // reads Worker::len and pushes the missing items one by one.
    let top_up = |next: &mut usize| {
        for _ in w.len()..THIEVES_BACKLOG {
            w.push(*next);
            *next += 1;
        }
    };
    top_up(&mut next);
    // How many thieves are spinning, and the flags that start and stop
    // them; the thieves borrow them.
    let (ready, start, stop) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicBool::new(false));
    let (ready, start, stop) = (&ready, &start, &stop);
    thread::scope(|s| {
        let handles: Vec<_> = (0..thieves)
            .map(|_| {
                let victim = w.stealer();
                s.spawn(move || thief(&victim, batch, ready, start, stop))
            })
            .collect();
        // Threads start slower than goroutines: the clock starts once
        // every thief is spinning, waiting for the start.
        while ready.load(Ordering::Acquire) < thieves {
            thread::yield_now();
        }
        let mut mine = Tally::default();
        let mut topping = Duration::ZERO;
        let begin = Instant::now();
        start.store(true, Ordering::Release);
        for i in 0..ops {
            w.push(next);
            next += 1;
            if let Some(v) = w.pop() {
                mine.add(v);
            }
            if i % THIEVES_CHECK == THIEVES_CHECK - 1 {
                timed(&mut topping, || top_up(&mut next));
            }
        }
        let wall = begin.elapsed();
        stop.store(true, Ordering::Release);
        let mut stolen = Tally::default();
        for h in handles {
            let t = h.join().unwrap_or_else(|_| panic!("wsq-peers: a thief panicked"));
            stolen.stolen += t.stolen;
            stolen.sum = stolen.sum.wrapping_add(t.sum);
        }
        while let Some(v) = w.pop() {
            mine.add(v);
        }
        // Exactly once: the items 0..next, each popped or stolen once
        // (the sums compared modulo 2^64).
        let n = next as u64;
        let want = (n as u128 * n.saturating_sub(1) as u128 / 2) as u64;
        if mine.stolen + stolen.stolen != n || mine.sum.wrapping_add(stolen.sum) != want {
            panic!(
                "wsq-peers: {} items pushed (sum {}); {} popped and {} stolen (sum {})",
                n,
                want,
                mine.stolen,
                stolen.stolen,
                mine.sum.wrapping_add(stolen.sum)
            );
        }
        let pairs = wall.saturating_sub(topping);
        let ops = ops as f64;
        Sample {
            elapsed: pairs,
            extra: vec![
                (stolen.stolen as f64 / ops, "stolen/op"),
                (stolen.stolen as f64 / wall.as_secs_f64().max(1e-9), "stolen/s"),
                (topping.as_nanos() as f64 / ops, "topup-ns/op"),
            ],
        }
    })
}

/// thief steals from victim until stop, one item a call or, with batch, a
/// batch into a worker of its own, which it then empties; it returns what
/// it took.
fn thief(victim: &Stealer<usize>, batch: bool, ready: &AtomicUsize, start: &AtomicBool, stop: &AtomicBool) -> Tally {
    let own = Worker::new_lifo();
    let mut t = Tally::default();
    ready.fetch_add(1, Ordering::AcqRel);
    while !start.load(Ordering::Acquire) {
        thread::yield_now();
    }
    // Relaxed: the join, not this flag, hands the tally over.
    while !stop.load(Ordering::Relaxed) {
        if batch {
            // crossbeam has no proportional steal: steal_batch takes about
            // half the victim but at most 32 items (MAX_BATCH), and from a
            // LIFO victim, whose owner pops at the back, it claims each
            // item with a compare-and-swap of its own.
            if let Steal::Success(()) = victim.steal_batch(&own) {
                while let Some(v) = own.pop() {
                    t.add(v);
                }
            }
        } else if let Steal::Success(v) = victim.steal() {
            t.add(v);
        }
    }
    t
}

fn fib_serial(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    fib_serial(n - 1) + fib_serial(n - 2)
}

/// fib_forks is how many calls of fib(n) fork: those above cutoff.
fn fib_forks(n: u32, cutoff: u32) -> u64 {
    if n <= cutoff {
        return 0;
    }
    1 + fib_forks(n - 1, cutoff) + fib_forks(n - 2, cutoff)
}

/// fib_join forks fib(n-1) (join's second closure, which it pushes for
/// thieves) and computes fib(n-2) itself (the first, run at once), as the
/// Go benchmark's Fork and Join do.
fn fib_join(n: u32, cutoff: u32) -> u64 {
    if n <= cutoff {
        return fib_serial(n);
    }
    let (y, x) = rayon::join(|| fib_join(n - 2, cutoff), || fib_join(n - 1, cutoff));
    x + y
}

/// fork_join times ops computations of fib(n) on a rayon pool of threads
/// threads, built outside the timer.
fn fork_join(n: u32, cutoff: u32, ops: u64, threads: usize) -> Duration {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("wsq-peers: cannot build a rayon pool of {} threads: {}", threads, e));
    let want = fib_serial(n);
    let mut total = Duration::ZERO;
    timed(&mut total, || {
        for _ in 0..ops {
            let got = pool.install(|| fib_join(opaque(n), cutoff));
            if got != want {
                panic!("wsq-peers: fib({}) = {}; want {}", n, got, want);
            }
        }
    });
    total
}

// ---- the header lines ----

fn goarch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    }
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_whole_names() {
        assert!(glob("*", "BenchmarkPop/queue=cb"));
        assert!(glob("BenchmarkPop/queue=cb", "BenchmarkPop/queue=cb"));
        assert!(glob("BenchmarkPushBatch/*/batch=1", "BenchmarkPushBatch/queue=cb/batch=1"));
        assert!(!glob("BenchmarkPushBatch/*/batch=1", "BenchmarkPushBatch/queue=cb/batch=1024"));
        assert!(!glob("BenchmarkPush/*", "BenchmarkPushBatch/queue=cb/batch=1"));
        assert!(glob("*/n=10000/*", "BenchmarkSteal/queue=cb-single/n=10000/p=60"));
        assert!(!glob("BenchmarkPop", "BenchmarkPop/queue=cb"));
    }

    #[test]
    fn steal_count_is_wsqs() {
        assert_eq!(steal_count(100_000, 60), 60_000);
        assert_eq!(steal_count(10_000, 10), 1_000);
        assert_eq!(steal_count(1, 10), 1);
    }

    #[test]
    fn every_benchmark_runs_and_checks_itself() {
        // One op of each (the steals of 10^5 items included): each loop
        // panics if it did not do what its name says.
        for b in benchmarks() {
            if b.name.contains("coarse") || b.name.starts_with("BenchmarkLoop") || b.name.starts_with("BenchmarkSort") {
                continue; // fib(34), the loops and the sorts: seconds in a debug build
            }
            let _ = (b.run)(2, 2);
        }
    }

    #[test]
    fn thieves_take_each_item_once() {
        // Enough ops for many top-ups; the loop panics if an item was lost
        // or taken twice.
        for &(thieves, batch) in &[(0, false), (1, false), (2, true), (3, false)] {
            let s = owner_among_thieves(thieves, batch, 100_000);
            if thieves == 0 {
                assert_eq!(s.extra[0], (0.0, "stolen/op"));
            }
        }
    }

    #[test]
    fn fib_forks_counts_the_forking_calls() {
        assert_eq!(fib_forks(2, 1), 1);
        assert_eq!(fib_forks(27, 1), 317_810);
        assert_eq!(fib_join(20, 1), fib_serial(20));
    }
}
