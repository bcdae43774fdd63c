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
//! - `BenchmarkSort/data=D/impl=rayon`: `par_sort_unstable` of 10^7 random
//!   64-bit integers (`D` = `ints`) or 10^6 random strings of base-36
//!   digits (`strings`), copied in outside the timer; `impl=slice` is
//!   `sort_unstable`, the serial sort, beside Go's `impl=slices`. The inputs are drawn as Go's are,
//!   from another generator. Each op's result is checked outside the
//!   timer.

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

/// run_sort times ops sorts of copies of input, on a rayon pool of threads
/// threads or serially, each checked against a serial sort outside the
/// timer.
fn run_sort<T: Ord + Clone + Send>(input: &[T], par: bool, ops: u64, threads: usize) -> Duration {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("wsq-peers: cannot build a rayon pool of {} threads: {}", threads, e));
    let mut want = input.to_vec();
    want.sort_unstable();
    let mut total = Duration::ZERO;
    for _ in 0..ops {
        let mut x = input.to_vec();
        timed(&mut total, || {
            if par {
                pool.install(|| x.par_sort_unstable());
            } else {
                x.sort_unstable();
            }
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
    for &(imp, par) in &[("rayon", true), ("slice", false)] {
        v.push(Bench {
            name: format!("BenchmarkSort/data=ints/impl={}", imp),
            run: Box::new(move |ops, cpu| {
                let mut s = 1u64;
                let input: Vec<i64> = (0..10_000_000).map(|_| splitmix64(&mut s) as i64).collect();
                Sample::from(run_sort(&input, par, ops, cpu))
            }),
            metrics: vec![],
        });
        v.push(Bench {
            name: format!("BenchmarkSort/data=strings/impl={}", imp),
            run: Box::new(move |ops, cpu| {
                let mut s = 2u64;
                let input: Vec<String> = (0..1_000_000).map(|_| base36(splitmix64(&mut s))).collect();
                Sample::from(run_sort(&input, par, ops, cpu))
            }),
            metrics: vec![],
        });
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
    fn spin_is_gos() {
        // Go: spin(5, 1, 2) (bench/loop_test.go).
        assert_eq!(spin(5, 1, 0), 0);
        assert_eq!(spin(5, 1, 2), spin(4, 0, 2));
    }
}
