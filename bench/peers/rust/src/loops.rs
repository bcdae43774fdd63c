//! The peers of wsq's parallel loops and sort: rayon's `par_iter` and
//! `par_sort_unstable` on the workloads of Go's `BenchmarkLoop` and
//! `BenchmarkSort` (`bench/loop_test.go`), with the same names:
//!
//! - `BenchmarkLoop/work=W/impl=rayon`: one op fills `out[i]` for every
//!   index of workload W with `par_iter_mut().enumerate().for_each`, on a
//!   rayon pool of `-cpu` threads (rayon's adaptive splitter, no grain);
//!   nested work runs `par_iter` over the tiles and `par_iter_mut` in each.
//!   `impl=rust-serial` is the plain loop: the code speed under the
//!   figures, beside Go's `impl=serial`.
//!   The workloads are Go's, step for step: the same mixing rounds, the
//!   same image. Each op's values depend on its salt, and the last op's
//!   output is checked against a serial run, outside the timer.
//! - `BenchmarkSort/data=E-K/impl=rayon`: `par_sort_unstable` of 10^7
//!   64-bit integers (`E` = `ints`) or 10^6 strings of their base-36 digits
//!   (`strings`), of each kind `K` of input of Go's `sortInputs`: random,
//!   sorted, reversed, all equal, drawn from 16 values, Zipf-distributed
//!   (Go's `rand.Zipf`, ported); sorted and reversed strings are in the
//!   order of strings. They are copied in outside the timer;
//!   `impl=slice` is `sort_unstable`, the serial sort, beside Go's
//!   `impl=slices`. The inputs are drawn as Go's are, from another
//!   generator. Each op's result is checked outside the timer.
//! - `BenchmarkSortStable/data=E-K/impl=rayon`: `par_sort`, rayon's stable
//!   parallel merge sort, of the same inputs; `impl=slice` is `sort`.

use super::{opaque, timed, Bench, Sample};
use rayon::prelude::*;
use std::time::Duration;

/// spin is Go's spin: rounds of a dependent mixing step.
#[inline(always)]
fn spin(i: u64, salt: u64, rounds: usize) -> u32 {
    let mut x = i ^ salt;
    for _ in 0..rounds {
        x ^= x >> 29;
        x = x.wrapping_mul(0xBF58476D1CE4E5B9);
    }
    (x >> 32) as u32
}

/// mandel_row is Go's mandelRow.
fn mandel_row(y: usize, w: usize, h: usize, max_iter: usize) -> u32 {
    let ci = -1.2 + 2.4 * y as f64 / h as f64;
    let mut sum = 0usize;
    for px in 0..w {
        let cr = -2.2 + 3.0 * px as f64 / w as f64;
        let (mut zr, mut zi) = (0.0f64, 0.0f64);
        let mut k = 0;
        while k < max_iter && zr * zr + zi * zi <= 4.0 {
            let t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            k += 1;
        }
        sum += k;
    }
    sum as u32
}

/// tiles returns the bounds of the nested workload's tiles: tile j holds
/// (j+1)·2^17 indices.
fn tiles() -> Vec<usize> {
    let mut tiles = Vec::new();
    let mut at = 0;
    for j in 0..=8 {
        tiles.push(at);
        at += (j + 1) << 17;
    }
    tiles
}

/// loop_bench adds the benchmarks of a workload: its name, index count,
/// the value of an index for a salt, and for nested work the bounds of its
/// tiles. elem is a closure of its own type, so that each loop is compiled
/// for it and calls it inline, as Go's fill computes its chunk inline.
fn loop_bench<F>(v: &mut Vec<Bench>, name: &'static str, n: usize, tiles: Option<Vec<usize>>, elem: F)
where
    F: Fn(usize, u64) -> u32 + Sync + Send + Copy + 'static,
{
    for &(imp, par) in &[("rayon", true), ("rust-serial", false)] {
        let tiles = tiles.clone();
        v.push(Bench {
            name: format!("BenchmarkLoop/work={}/impl={}", name, imp),
            run: Box::new(move |ops, cpu| Sample::from(run_loop(name, n, tiles.as_deref(), elem, par, ops, cpu))),
            metrics: vec![],
        });
    }
}

/// run_loop times ops loops over n indices, on a rayon pool of threads
/// threads or serially, and checks the last op's output.
fn run_loop<F>(name: &str, n: usize, tiles: Option<&[usize]>, elem: F, par: bool, ops: u64, threads: usize) -> Duration
where
    F: Fn(usize, u64) -> u32 + Sync + Send + Copy,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("wsq-peers: cannot build a rayon pool of {} threads: {}", threads, e));
    // Touched outside the timer, as Go's is: no op pays the first write of
    // a page.
    let mut out = vec![1u32; n];
    let mut total = Duration::ZERO;
    let mut salt = 0u64;
    for _ in 0..ops {
        salt += 1;
        let s = opaque(salt);
        timed(&mut total, || {
            if !par {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = elem(i, s);
                }
                return;
            }
            pool.install(|| match tiles {
                None => out.par_iter_mut().enumerate().for_each(|(i, o)| *o = elem(i, s)),
                Some(tiles) => {
                    let mut parts = Vec::new();
                    let mut rest: &mut [u32] = &mut out;
                    for j in 0..tiles.len() - 1 {
                        let (tile, more) = rest.split_at_mut(tiles[j + 1] - tiles[j]);
                        parts.push((tiles[j], tile));
                        rest = more;
                    }
                    parts.into_par_iter().for_each(|(base, tile)| {
                        tile.par_iter_mut().enumerate().for_each(|(k, o)| *o = elem(base + k, s))
                    });
                }
            });
        });
    }
    for (i, &o) in out.iter().enumerate() {
        if o != elem(i, salt) {
            panic!("wsq-peers: {}: out[{}] = {}; want {}", name, i, o, elem(i, salt));
        }
    }
    total
}

/// splitmix64 draws the sorts' inputs.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E3779B97F4A7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

/// base36 formats v in base 36, as Go's strconv.FormatUint(v, 36).
fn base36(mut v: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut b = Vec::new();
    loop {
        b.push(DIGITS[(v % 36) as usize]);
        v /= 36;
        if v == 0 {
            break;
        }
    }
    b.reverse();
    String::from_utf8(b).unwrap()
}

/// The sorts' inputs, as Go's (`sortInts`, `sortStrings`, `sortDistinct`,
/// `sortZipf` in bench/loop_test.go; TestPeerConstants checks them): the
/// lengths of the ints and strings; how many values the distinct inputs
/// draw from; the Zipf distribution's s (in thousandths), v and largest
/// value.
const SORT_INTS: usize = 10_000_000;
const SORT_STRINGS: usize = 1_000_000;
const SORT_DISTINCT: usize = 16;
const SORT_ZIPF: [u64; 3] = [1200, 1, 1 << 20];

/// The kinds of input, as Go's `sortInputs`.
const SORT_KINDS: [&str; 6] = ["random", "sorted", "reversed", "equal", "distinct16", "zipf"];

/// uniform returns a float64 in [0, 1) from 53 bits of the generator, as
/// Go's Rand.Float64 does.
fn uniform(state: &mut u64) -> f64 {
    (splitmix64(state) >> 11) as f64 / (1u64 << 53) as f64
}

/// Zipf is Go's rand.Zipf (math/rand/v2/zipf.go): rejection-inversion
/// sampling (Hörmann and Derflinger) of values k in [0, imax] with P(k)
/// proportional to (v + k)^(-s).
struct Zipf {
    imax: f64,
    v: f64,
    q: f64,
    s: f64,
    one_minus_q: f64,
    one_minus_q_inv: f64,
    hxm: f64,
    hx0_minus_hxm: f64,
}

impl Zipf {
    fn new(s: f64, v: f64, imax: u64) -> Zipf {
        let mut z = Zipf {
            imax: imax as f64,
            v,
            q: s,
            s: 0.0,
            one_minus_q: 1.0 - s,
            one_minus_q_inv: 1.0 / (1.0 - s),
            hxm: 0.0,
            hx0_minus_hxm: 0.0,
        };
        z.hxm = z.h(z.imax + 0.5);
        z.hx0_minus_hxm = z.h(0.5) - (z.v.ln() * -z.q).exp() - z.hxm;
        z.s = 1.0 - z.hinv(z.h(1.5) - (-z.q * (z.v + 1.0).ln()).exp());
        z
    }

    fn h(&self, x: f64) -> f64 {
        (self.one_minus_q * (self.v + x).ln()).exp() * self.one_minus_q_inv
    }

    fn hinv(&self, x: f64) -> f64 {
        (self.one_minus_q_inv * (self.one_minus_q * x).ln()).exp() - self.v
    }

    fn next(&self, state: &mut u64) -> u64 {
        loop {
            let r = uniform(state);
            let ur = self.hxm + r * self.hx0_minus_hxm;
            let x = self.hinv(ur);
            let k = (x + 0.5).floor();
            if k - x <= self.s || ur >= self.h(k + 0.5) - (-(k + self.v).ln() * self.q).exp() {
                return k as u64;
            }
        }
    }
}

/// sort_values returns n values of the kind of input, as Go's sortValues
/// draws them, from a generator seeded by seed.
fn sort_values(kind: &str, n: usize, seed: u64) -> Vec<u64> {
    let mut s = seed;
    match kind {
        "random" => (0..n).map(|_| splitmix64(&mut s)).collect(),
        "sorted" => (0..n as u64).map(|i| i * 1_000_003).collect(),
        "reversed" => (0..n as u64).rev().map(|i| i * 1_000_003).collect(),
        "equal" => vec![splitmix64(&mut s); n],
        "distinct16" => {
            let vs: Vec<u64> = (0..SORT_DISTINCT).map(|_| splitmix64(&mut s)).collect();
            (0..n).map(|_| vs[(splitmix64(&mut s) % SORT_DISTINCT as u64) as usize]).collect()
        }
        "zipf" => {
            let z = Zipf::new(SORT_ZIPF[0] as f64 / 1000.0, SORT_ZIPF[1] as f64, SORT_ZIPF[2]);
            (0..n).map(|_| z.next(&mut s)).collect()
        }
        _ => panic!("wsq-peers: no sort input {}", kind),
    }
}

/// How a sort benchmark sorts: rayon's parallel sort or the serial one,
/// unstable or stable.
#[derive(Clone, Copy)]
struct SortImpl {
    par: bool,
    stable: bool,
}

/// run_sort times ops sorts of copies of input, on a rayon pool of threads
/// threads or serially, each checked against a serial sort outside the
/// timer.
fn run_sort<T: Ord + Clone + Send>(input: &[T], imp: SortImpl, ops: u64, threads: usize) -> Duration {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("wsq-peers: cannot build a rayon pool of {} threads: {}", threads, e));
    let mut want = input.to_vec();
    want.sort_unstable();
    let mut total = Duration::ZERO;
    for _ in 0..ops {
        let mut x = input.to_vec();
        timed(&mut total, || match (imp.par, imp.stable) {
            (true, false) => pool.install(|| x.par_sort_unstable()),
            (true, true) => pool.install(|| x.par_sort()),
            (false, false) => x.sort_unstable(),
            (false, true) => x.sort(),
        });
        if x != want {
            panic!("wsq-peers: the sort's result is not sort_unstable's");
        }
    }
    total
}

pub(crate) fn benchmarks() -> Vec<Bench> {
    let mut v = Vec::new();
    loop_bench(&mut v, "uniform-fine", 1 << 23, None, |i, s| spin(i as u64, s, 2));
    loop_bench(&mut v, "uniform-coarse", 2048, None, |i, s| spin(i as u64, s, 4096));
    loop_bench(&mut v, "triangular", 2048, None, |i, s| spin(i as u64, s, 4 * i));
    loop_bench(&mut v, "mandelbrot", 384, None, |y, s| mandel_row(y, 512, 384, 200).wrapping_add(s as u32));
    let t = tiles();
    loop_bench(&mut v, "nested", t[8], Some(t), |i, s| spin(i as u64, s, 2));
    for &(bench, stable) in &[("BenchmarkSort", false), ("BenchmarkSortStable", true)] {
        for kind in SORT_KINDS {
            for &(name, par) in &[("rayon", true), ("slice", false)] {
                let imp = SortImpl { par, stable };
                v.push(Bench {
                    name: format!("{}/data=ints-{}/impl={}", bench, kind, name),
                    run: Box::new(move |ops, cpu| {
                        let input: Vec<i64> = sort_values(kind, SORT_INTS, 1).into_iter().map(|x| x as i64).collect();
                        Sample::from(run_sort(&input, imp, ops, cpu))
                    }),
                    metrics: vec![],
                });
                v.push(Bench {
                    name: format!("{}/data=strings-{}/impl={}", bench, kind, name),
                    run: Box::new(move |ops, cpu| {
                        let mut input: Vec<String> = sort_values(kind, SORT_STRINGS, 2).into_iter().map(base36).collect();
                        // In the order of strings, not of numbers, as Go's.
                        match kind {
                            "sorted" => input.sort(),
                            "reversed" => input.sort_by(|a, b| b.cmp(a)),
                            _ => {}
                        }
                        Sample::from(run_sort(&input, imp, ops, cpu))
                    }),
                    metrics: vec![],
                });
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base36_is_gos() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        assert_eq!(base36(u64::MAX), "3w5e11264sgsf");
    }

    #[test]
    fn zipf_is_gos() {
        // Go: of 100,000 values of rand.NewZipf(r, 1.2, 1, 1<<20), 19,039
        // are 0, 8,271 are 1 and 17,731 are above 1000 (with PCG(1, 2)).
        let z = Zipf::new(1.2, 1.0, 1 << 20);
        let mut s = 1u64;
        let xs: Vec<u64> = (0..100_000).map(|_| z.next(&mut s)).collect();
        let count = |f: &dyn Fn(u64) -> bool| xs.iter().filter(|&&x| f(x)).count();
        let near = |got: usize, want: usize| (got as f64 - want as f64).abs() < 0.03 * 100_000.0;
        assert!(near(count(&|x| x == 0), 19_039), "{} zeros", count(&|x| x == 0));
        assert!(near(count(&|x| x == 1), 8_271), "{} ones", count(&|x| x == 1));
        assert!(near(count(&|x| x > 1000), 17_731), "{} above 1000", count(&|x| x > 1000));
        assert!(xs.iter().all(|&x| x <= 1 << 20));
    }

    #[test]
    fn spin_is_gos() {
        // Go: spin(5, 1, 2) (bench/loop_test.go).
        assert_eq!(spin(5, 1, 0), 0);
        assert_eq!(spin(5, 1, 2), spin(4, 0, 2));
    }
}
