//! The eight example workloads through the simulator, each beside a native
//! Rust baseline doing the same job on a rayon pool of the same size, then one
//! table of medians and ratios (simulator / native) against the targets.
//!
//! ```text
//! cargo bench --manifest-path benches/Cargo.toml --bench workloads                          # full sizes
//! SM5SIM_BENCH_QUICK=1 cargo bench --manifest-path benches/Cargo.toml --bench workloads     # 1/16 of the sizes
//! ```
//!
//! Each criterion group (one per workload) has the functions `sm5sim` (2
//! worker threads, the default warp width: one warp per thread group),
//! `sm5sim_profile` and `sm5sim_profile_lines` (the same, profiled: per
//! instruction, and with each memory access's bytes and lines; a second
//! table gives their cost against `sm5sim`),
//! `sm5sim_w32` (2 threads, warps of 32 lanes) and `native` (a rayon pool of
//! 2 threads). `cas_float_add`'s `native` is the shader's own algorithm (a
//! compare-exchange loop per value on the 64 shared words), the job the
//! workload exists to measure, and the only baseline against which the
//! issue's lavapipe figure (3.2×) is possible: 4M compare-exchanges on
//! contended words take tens of ms, the sums without atomics 0.5 ms. Its
//! group also times `native_no_atomics` (the same sums from per-task
//! partial sums) and the table prints that ratio too. Before a function is
//! timed, its output is checked against the native one: exactly
//! for integers and for the float workloads whose operation order is fixed
//! (matmul, saxpy, mandelbrot: the simulator's `mad` is unfused, as the
//! native `a * b + c` is); for `cas_float_add`, whose sum order depends on
//! the schedule, each slot within count × 2⁻²⁴ × (sum of magnitudes) of an
//! f64 sum, as `tests/it/workloads.rs` does.
//!
//! Without `--bench` (e.g. `cargo test --benches`) criterion runs every
//! function once; the quick sizes are used then and no table is printed.
//! Quick-mode groups are named `<workload>_quick`, so their estimates never
//! mix with the full-size ones under `target/criterion/`.

mod common;
mod ports;

use common::median_ns;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use rayon::prelude::*;
use sm5sim::job::{random_f32_words, random_u32_words};
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions, FastPaths, WARP_WIDTH_GROUP};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::{Duration, Instant, SystemTime};

/// Worker threads for both the simulator and the native baselines.
const THREADS: usize = 2;

/// A simulator run slower than this (measured on the check) times only the
/// default (group-wide warps) variant.
const SLOW_RUN: Duration = Duration::from_secs(4);

/// The workloads in table order: (group name, target ratio simulator /
/// native at 2 threads). Criterion's throughput counts keys or values,
/// multiply-adds for matmul, float4 elements for saxpy, pixels for
/// mandelbrot.
const TABLE: [(&str, f64); 8] = [
    ("histogram", 25.0),
    ("global_histogram", 30.0),
    ("reduce", 120.0),
    ("scan", 130.0),
    ("matmul", 55.0),
    ("cas_float_add", 3.0),
    ("saxpy", 5.0),
    ("mandelbrot", 6.0),
];

/// Target for the geometric mean over the workloads of sim / port (the
/// shader's own algorithm compiled natively, `ports.rs`), 2 threads.
const PORT_TARGET: f64 = 3.0;

struct Ctx {
    /// 1/16 of the sizes (quick mode or criterion's test mode).
    quick: bool,
    /// The native baselines' pool.
    pool: rayon::ThreadPool,
}

impl Ctx {
    /// `full`, or 1/16 of it in quick mode.
    fn scaled(&self, full: usize) -> usize {
        if self.quick {
            full / 16
        } else {
            full
        }
    }

    fn group<'a>(
        &self,
        c: &'a mut Criterion,
        name: &str,
        elements: u64,
    ) -> BenchmarkGroup<'a, WallTime> {
        let mut g = c.benchmark_group(group_name(name, self.quick));
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(if self.quick { 200 } else { 500 }))
            .measurement_time(Duration::from_secs(if self.quick { 1 } else { 3 }))
            .throughput(Throughput::Elements(elements));
        g
    }
}

fn group_name(name: &str, quick: bool) -> String {
    if quick {
        format!("{name}_quick")
    } else {
        name.to_string()
    }
}

fn program(name: &str) -> Program {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("examples")
        .join(name)
        .join(format!("{name}.dxbc"));
    Program::from_dxbc(&std::fs::read(path).unwrap(), &LoadOptions::default()).unwrap()
}

fn options(warp_width: usize) -> DispatchOptions {
    DispatchOptions {
        threads: THREADS,
        warp_width,
        timeout: None,
        ..Default::default()
    }
}

fn floats(words: &[u32]) -> Vec<f32> {
    words.iter().map(|&w| f32::from_bits(w)).collect()
}

/// The simulator's functions, `sm5sim` (the default: warp width = group
/// size) and `sm5sim_w32` (warp width 32): for each, `check` runs it once and compares
/// its output with the native one, then `run` is timed.
fn sim_functions(
    g: &mut BenchmarkGroup<'_, WallTime>,
    run: impl Fn(&DispatchOptions),
    check: impl Fn(&DispatchOptions),
) {
    // the plain run, then the same profiled: per-instruction counts
    // (`--profile`), and with each memory access's bytes and lines too
    // (`--annotate`, `--profile-json`), at the default width
    let plain = options(WARP_WIDTH_GROUP);
    let profiled = DispatchOptions {
        profile: true,
        ..plain.clone()
    };
    let lines = DispatchOptions {
        profile_memory: true,
        ..profiled.clone()
    };
    // and without the compiled tier: the interpreter alone (`--compile off`)
    let interpreted = DispatchOptions {
        fast_paths: FastPaths::ALL.without(FastPaths::COMPILED),
        ..plain.clone()
    };
    for (id, o) in [
        ("sm5sim_profile", &profiled),
        ("sm5sim_profile_lines", &lines),
        ("sm5sim_interpreted", &interpreted),
    ] {
        check(o);
        g.bench_function(id, |b| b.iter(|| run(o)));
    }
    for (id, warp_width) in [("sm5sim", WARP_WIDTH_GROUP), ("sm5sim_w32", 32)] {
        let o = options(warp_width);
        let start = Instant::now();
        check(&o);
        let one_run = start.elapsed();
        g.bench_function(id, |b| b.iter(|| run(&o)));
        // Criterion times at least 11 runs; the second variant only when
        // that is cheap.
        if one_run > SLOW_RUN {
            eprintln!(
                "one run took {:.1} s: skipping sm5sim_w32 to keep `cargo bench` short",
                one_run.as_secs_f64()
            );
            break;
        }
    }
}

// ---------------------------------------------------------------- histograms

fn native_histogram(keys: &[u32]) -> [u32; 256] {
    keys.par_chunks(1 << 16)
        .fold(
            || [0u32; 256],
            |mut h, chunk| {
                for &k in chunk {
                    h[(k & 255) as usize] += 1;
                }
                h
            },
        )
        .reduce(
            || [0u32; 256],
            |mut a, b| {
                for (a, b) in a.iter_mut().zip(b) {
                    *a += b;
                }
                a
            },
        )
}

/// `histogram` (groupshared bins) and `global_histogram` (every key an
/// atomic on the UAV): the same job, 256 bins of `key & 255`.
fn bench_histogram(c: &mut Criterion, ctx: &Ctx, name: &str, full_n: usize, seed: u64) {
    let n = ctx.scaled(full_n);
    let p = program(name);
    let keys = random_u32_words(seed, 0, u32::MAX, n);
    let keys_buf = Buffer::from_words(&keys);
    let bins = Buffer::zeroed(256 * 4).unwrap();
    let cb = [n as u32, 0, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![Some(BufferView::raw(&keys_buf))],
        uavs: vec![Some(BufferView::raw(&bins))],
        ..Default::default()
    };
    let groups = [(n as u32).div_ceil(p.threads_per_group()), 1, 1];
    let native = || ctx.pool.install(|| native_histogram(&keys));
    let expected = native().to_vec();
    let run = |o: &DispatchOptions| {
        bins.write_words(0, &[0; 256]).unwrap();
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        run(o);
        assert_eq!(bins.to_words(), expected, "{name} {o:?}");
    };
    let port_fn = if name == "histogram" {
        ports::histogram
    } else {
        ports::global_histogram
    };
    let port = || ctx.pool.install(|| port_fn(&keys));
    assert_eq!(port().to_vec(), expected, "{name} port");
    let mut g = ctx.group(c, name, n as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| b.iter(native));
    g.bench_function("port", |b| b.iter(port));
    g.finish();
}

// -------------------------------------------------------------------- reduce

fn native_sum(values: &[u32]) -> u32 {
    values
        .par_chunks(1 << 16)
        .map(|c| c.iter().fold(0u32, |a, &x| a.wrapping_add(x)))
        .reduce(|| 0, u32::wrapping_add)
}

fn bench_reduce(c: &mut Criterion, ctx: &Ctx) {
    let n = ctx.scaled(16_000_000);
    let p = program("reduce");
    let values = random_u32_words(3, 0, u32::MAX, n);
    let v = Buffer::from_words(&values);
    let total = Buffer::zeroed(4).unwrap();
    let cb = [n as u32, 0, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![Some(BufferView::structured(&v, 4).unwrap())],
        uavs: vec![Some(BufferView::structured(&total, 4).unwrap())],
        ..Default::default()
    };
    let groups = [(n as u32).div_ceil(256), 1, 1];
    let native = || ctx.pool.install(|| native_sum(&values));
    let expected = native();
    let run = |o: &DispatchOptions| {
        total.write_words(0, &[0]).unwrap();
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        run(o);
        assert_eq!(total.to_words(), [expected], "reduce {o:?}");
    };
    let port = || ctx.pool.install(|| ports::reduce(&values));
    assert_eq!(port(), expected, "reduce port");
    let mut g = ctx.group(c, "reduce", n as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| b.iter(native));
    g.bench_function("port", |b| b.iter(port));
    g.finish();
}

// ---------------------------------------------------------------------- scan

/// Inclusive prefix sums within each block of 512.
fn native_scan(input: &[u32], out: &mut [u32]) {
    const PER_TASK: usize = 512 * 32;
    out.par_chunks_mut(PER_TASK)
        .zip(input.par_chunks(PER_TASK))
        .for_each(|(o, i)| {
            for (o, i) in o.chunks_mut(512).zip(i.chunks(512)) {
                let mut s = 0u32;
                for (o, &x) in o.iter_mut().zip(i) {
                    s = s.wrapping_add(x);
                    *o = s;
                }
            }
        });
}

fn bench_scan(c: &mut Criterion, ctx: &Ctx) {
    let n = ctx.scaled(4_194_304);
    let p = program("scan");
    let input = random_u32_words(4, 0, 1 << 20, n);
    let i = Buffer::from_words(&input);
    let out = Buffer::zeroed(n * 4).unwrap();
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![Some(BufferView::structured(&i, 4).unwrap())],
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    let groups = [(n / 512) as u32, 1, 1];
    let mut native_out = vec![0u32; n];
    ctx.pool.install(|| native_scan(&input, &mut native_out));
    let run = |o: &DispatchOptions| {
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        out.write_words(0, &vec![0; n]).unwrap();
        run(o);
        assert!(out.to_words() == native_out, "scan {o:?}");
    };
    let mut port_out = vec![0u32; n];
    ctx.pool.install(|| ports::scan(&input, &mut port_out));
    assert!(port_out == native_out, "scan port");
    let mut g = ctx.group(c, "scan", n as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| {
        b.iter(|| ctx.pool.install(|| native_scan(&input, &mut native_out)))
    });
    g.bench_function("port", |b| {
        b.iter(|| ctx.pool.install(|| ports::scan(&input, &mut port_out)))
    });
    g.finish();
}

// -------------------------------------------------------------------- matmul

/// C = A·B, row-major n×n: blocks of 4 rows of C per task, k in blocks of 128
/// so the rows of B in use stay in cache across the 4 rows; each C element
/// still sums its products in k order, as the shader does.
fn native_matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    const ROWS: usize = 4;
    const KB: usize = 128;
    c.par_chunks_mut(ROWS * n)
        .zip(a.par_chunks(ROWS * n))
        .for_each(|(c, a)| {
            c.fill(0.0);
            for k0 in (0..n).step_by(KB) {
                let k1 = (k0 + KB).min(n);
                for (crow, arow) in c.chunks_mut(n).zip(a.chunks(n)) {
                    for (k, &aik) in arow[k0..k1].iter().enumerate() {
                        let brow = &b[(k0 + k) * n..(k0 + k + 1) * n];
                        for (c, &bkj) in crow.iter_mut().zip(brow) {
                            *c += aik * bkj;
                        }
                    }
                }
            }
        });
}

fn bench_matmul(c: &mut Criterion, ctx: &Ctx) {
    let n = if ctx.quick { 256 } else { 1024 };
    let p = program("matmul");
    let a = random_f32_words(5, -1.0, 1.0, n * n);
    let bm = random_f32_words(6, -1.0, 1.0, n * n);
    let (fa, fb) = (floats(&a), floats(&bm));
    let (ab, bb) = (Buffer::from_words(&a), Buffer::from_words(&bm));
    let cbuf = Buffer::zeroed(n * n * 4).unwrap();
    let cb = [n as u32, 0, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![
            Some(BufferView::structured(&ab, 4).unwrap()),
            Some(BufferView::structured(&bb, 4).unwrap()),
        ],
        uavs: vec![Some(BufferView::structured(&cbuf, 4).unwrap())],
        ..Default::default()
    };
    let groups = [n as u32 / 16, n as u32 / 16, 1];
    let mut native_c = vec![0f32; n * n];
    ctx.pool
        .install(|| native_matmul(&fa, &fb, &mut native_c, n));
    let expected: Vec<u32> = native_c.iter().map(|x| x.to_bits()).collect();
    let run = |o: &DispatchOptions| {
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        cbuf.write_words(0, &vec![0; n * n]).unwrap();
        run(o);
        assert!(cbuf.to_words() == expected, "matmul {o:?}");
    };
    let mut port_c = vec![0f32; n * n];
    ctx.pool.install(|| ports::matmul(&fa, &fb, &mut port_c, n));
    assert!(port_c == native_c, "matmul port");
    let mut g = ctx.group(c, "matmul", (n * n * n) as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| {
        b.iter(|| {
            ctx.pool
                .install(|| native_matmul(&fa, &fb, &mut native_c, n))
        })
    });
    g.bench_function("port", |b| {
        b.iter(|| ctx.pool.install(|| ports::matmul(&fa, &fb, &mut port_c, n)))
    });
    g.finish();
}

// ------------------------------------------------------------- cas_float_add

/// The shader's algorithm in Rust: `values[i]` added into slot `i % slots`
/// of shared words by a compare-exchange loop (relaxed: the sums are only
/// read after the join), every value one atomic on one of `slots`
/// contended words, as on the GPU.
fn native_cas_slot_sums(values: &[f32], slots: usize) -> Vec<f32> {
    let sums: Vec<AtomicU32> = (0..slots).map(|_| AtomicU32::new(0)).collect();
    values
        .par_chunks(slots * 1024)
        .enumerate()
        .for_each(|(c, chunk)| {
            let first = c * slots * 1024;
            for (i, &v) in chunk.iter().enumerate() {
                let slot = &sums[(first + i) % slots];
                let mut expected = slot.load(Relaxed);
                while let Err(now) = slot.compare_exchange_weak(
                    expected,
                    (f32::from_bits(expected) + v).to_bits(),
                    Relaxed,
                    Relaxed,
                ) {
                    expected = now;
                }
            }
        });
    sums.iter()
        .map(|s| f32::from_bits(s.load(Relaxed)))
        .collect()
}

/// Sum of `values[i]` into slot `i % slots`, without atomics: per-task
/// partial sums reduced at the end (the fastest way to the same sums).
fn native_slot_sums(values: &[f32], slots: usize) -> Vec<f32> {
    values
        .par_chunks(slots * 1024)
        .fold(
            || vec![0f32; slots],
            |mut acc, chunk| {
                for row in chunk.chunks(slots) {
                    for (a, &v) in acc.iter_mut().zip(row) {
                        *a += v;
                    }
                }
                acc
            },
        )
        .reduce(
            || vec![0f32; slots],
            |mut a, b| {
                for (a, b) in a.iter_mut().zip(b) {
                    *a += b;
                }
                a
            },
        )
}

fn bench_cas_float_add(c: &mut Criterion, ctx: &Ctx) {
    let (n, slots) = (ctx.scaled(4_000_000), 64usize);
    let p = program("cas_float_add");
    let values = random_f32_words(9, 0.0, 1.0, n);
    let fv = floats(&values);
    // An f64 sum per slot and the bound on any f32 summation order's error.
    let mut exact = vec![0f64; slots];
    let mut bound = vec![0f64; slots];
    for (i, &v) in fv.iter().enumerate() {
        exact[i % slots] += v as f64;
        bound[i % slots] += v.abs() as f64;
    }
    for (s, b) in bound.iter_mut().enumerate() {
        let count = (n / slots + usize::from(s < n % slots)) as f64;
        *b *= count * f32::EPSILON as f64 / 2.0;
    }
    let within = |got: &[f32], who: &str| {
        for (s, &g) in got.iter().enumerate() {
            assert!(
                (g as f64 - exact[s]).abs() <= bound[s],
                "cas_float_add {who} slot {s}: got {g}, exact {}, bound {}",
                exact[s],
                bound[s]
            );
        }
    };
    let vb = Buffer::from_words(&values);
    let sums = Buffer::zeroed(slots * 4).unwrap();
    let cb = [n as u32, slots as u32, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![Some(BufferView::structured(&vb, 4).unwrap())],
        uavs: vec![Some(BufferView::raw(&sums))],
        ..Default::default()
    };
    let groups = [(n as u32).div_ceil(64), 1, 1];
    let native = || ctx.pool.install(|| native_cas_slot_sums(&fv, slots));
    let native_no_atomics = || ctx.pool.install(|| native_slot_sums(&fv, slots));
    within(&native(), "native");
    within(&native_no_atomics(), "native_no_atomics");
    let port = || ctx.pool.install(|| ports::cas_float_add(&fv, slots));
    within(&port(), "port");
    let run = |o: &DispatchOptions| {
        sums.write_words(0, &vec![0; slots]).unwrap();
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        run(o);
        within(&floats(&sums.to_words()), &format!("{o:?}"));
    };
    let mut g = ctx.group(c, "cas_float_add", n as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| b.iter(native));
    g.bench_function("native_no_atomics", |b| b.iter(native_no_atomics));
    g.bench_function("port", |b| b.iter(port));
    g.finish();
}

// --------------------------------------------------------------------- saxpy

/// y = a·x + y.
fn native_saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    const PER_TASK: usize = 1 << 14;
    y.par_chunks_mut(PER_TASK)
        .zip(x.par_chunks(PER_TASK))
        .for_each(|(y, x)| {
            for (y, &x) in y.iter_mut().zip(x) {
                *y += a * x;
            }
        });
}

/// The timed loops update y in place, run after run, on both sides (the same
/// work each time; y stays finite); the check runs each side once from the
/// same initial y.
fn bench_saxpy(c: &mut Criterion, ctx: &Ctx) {
    let n = ctx.scaled(4_000_000); // float4 elements
    let p = program("saxpy_structured");
    let x = random_f32_words(7, -10.0, 10.0, 4 * n);
    let y0 = random_f32_words(8, -10.0, 10.0, 4 * n);
    let a = 1.7f32;
    let fx = floats(&x);
    let mut fy = floats(&y0);
    ctx.pool.install(|| native_saxpy(a, &fx, &mut fy));
    let expected: Vec<u32> = fy.iter().map(|v| v.to_bits()).collect();
    let (xb, yb) = (Buffer::from_words(&x), Buffer::from_words(&y0));
    let cb = [a.to_bits(), n as u32, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![Some(BufferView::structured(&xb, 16).unwrap())],
        uavs: vec![Some(BufferView::structured(&yb, 16).unwrap())],
        ..Default::default()
    };
    let groups = [(n as u32).div_ceil(128), 1, 1];
    let run = |o: &DispatchOptions| {
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        yb.write_words(0, &y0).unwrap();
        run(o);
        assert!(yb.to_words() == expected, "saxpy {o:?}");
    };
    let mut port_y = floats(&y0);
    ctx.pool.install(|| ports::saxpy(a, &fx, &mut port_y));
    assert!(port_y == fy, "saxpy port");
    let mut g = ctx.group(c, "saxpy", n as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| {
        b.iter(|| ctx.pool.install(|| native_saxpy(a, &fx, &mut fy)))
    });
    g.bench_function("port", |b| {
        b.iter(|| ctx.pool.install(|| ports::saxpy(a, &fx, &mut port_y)))
    });
    g.finish();
}

// ---------------------------------------------------------------- mandelbrot

/// Escape-time iteration counts of 8 points on one row, 8 lanes at a time
/// (arrays the compiler vectorises). Lane by lane, exactly the shader's loop:
/// `while i < max_iter && zx² + zy² < 4 { …; ++i }`.
#[inline]
fn mandelbrot8(cx: [f32; 8], cy: f32, max_iter: u32) -> [u32; 8] {
    let (mut zx, mut zy) = ([0f32; 8], [0f32; 8]);
    let mut alive = [1u32; 8];
    let mut it = [0u32; 8];
    for _ in 0..max_iter {
        let mut any = 0;
        for l in 0..8 {
            let (x, y) = (zx[l], zy[l]);
            alive[l] &= u32::from(x * x + y * y < 4.0);
            it[l] += alive[l];
            any |= alive[l];
            zx[l] = x * x - y * y + cx[l];
            zy[l] = 2.0 * x * y + cy;
        }
        if any == 0 {
            break;
        }
    }
    it
}

fn native_mandelbrot(out: &mut [u32], w: usize, h: usize, max_iter: u32) {
    out.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        let cy = (y as f32 * 3.0) / h as f32 + -1.5;
        for (x0, px) in (0..w).step_by(8).zip(row.chunks_mut(8)) {
            let cx: [f32; 8] = std::array::from_fn(|l| ((x0 + l) as f32 * 3.0) / w as f32 + -2.0);
            let it = mandelbrot8(cx, cy, max_iter);
            px.copy_from_slice(&it[..px.len()]);
        }
    });
}

fn bench_mandelbrot(c: &mut Criterion, ctx: &Ctx) {
    let side = if ctx.quick { 256 } else { 1024 };
    let (w, h, max_iter) = (side, side, 256u32);
    let p = program("mandelbrot");
    let it = Buffer::zeroed(w * h * 4).unwrap();
    let cb = [w as u32, h as u32, max_iter, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb)],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(&it, 4).unwrap())],
        ..Default::default()
    };
    let groups = [(w as u32).div_ceil(8), (h as u32).div_ceil(8), 1];
    let mut native_out = vec![0u32; w * h];
    ctx.pool
        .install(|| native_mandelbrot(&mut native_out, w, h, max_iter));
    let run = |o: &DispatchOptions| {
        dispatch(&p, &b, groups, o).unwrap();
    };
    let check = |o: &DispatchOptions| {
        it.write_words(0, &vec![0; w * h]).unwrap();
        run(o);
        assert!(it.to_words() == native_out, "mandelbrot {o:?}");
    };
    let mut port_out = vec![0u32; w * h];
    ctx.pool
        .install(|| ports::mandelbrot(&mut port_out, w, h, max_iter));
    assert!(port_out == native_out, "mandelbrot port");
    let mut g = ctx.group(c, "mandelbrot", (w * h) as u64);
    sim_functions(&mut g, run, check);
    g.bench_function("native", |b| {
        b.iter(|| {
            ctx.pool
                .install(|| native_mandelbrot(&mut native_out, w, h, max_iter))
        })
    });
    g.bench_function("port", |b| {
        b.iter(|| {
            ctx.pool
                .install(|| ports::mandelbrot(&mut port_out, w, h, max_iter))
        })
    });
    g.finish();
}

// --------------------------------------------------------------------- table

fn ms(ns: Option<f64>) -> String {
    ns.map_or_else(|| "-".into(), |ns| format!("{:.3}", ns / 1e6))
}

fn print_table(dir: &Path, quick: bool, since: SystemTime) {
    let sizes = |name: &str| -> String {
        let q = |full: usize| if quick { full / 16 } else { full };
        match name {
            "histogram" | "reduce" => q(16_000_000).to_string(),
            "global_histogram" | "saxpy" => q(4_000_000).to_string(),
            "cas_float_add" => format!("{}/64 slots", q(4_000_000)),
            "scan" => q(4_194_304).to_string(),
            "matmul" => format!("n={}", if quick { 256 } else { 1024 }),
            "mandelbrot" => {
                let s = if quick { 256 } else { 1024 };
                format!("{s}x{s}/256 it")
            }
            _ => String::new(),
        }
    };
    println!();
    println!(
        "sm5sim vs native, {THREADS} threads each, medians in ms{}",
        if quick { " (QUICK: 1/16 sizes)" } else { "" }
    );
    println!(
        "{:<17} {:>16} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>7}  result",
        "workload",
        "size",
        "sim",
        "sim w32",
        "native",
        "port",
        "/native",
        "/port",
        "r w32",
        "target"
    );
    let mut met = 0;
    let mut measured = 0;
    // (sim / native, sim / port) of each workload with both
    let mut logs = (Vec::new(), Vec::new());
    for (name, target) in TABLE {
        let group = group_name(name, quick);
        let sim = median_ns(dir, &group, "sm5sim", since);
        let sim_w32 = median_ns(dir, &group, "sm5sim_w32", since);
        let native = median_ns(dir, &group, "native", since);
        let port = median_ns(dir, &group, "port", since);
        if sim.is_none() && sim_w32.is_none() && native.is_none() {
            continue;
        }
        let ratio = |s: Option<f64>, base: Option<f64>| s.zip(base).map(|(s, n)| s / n);
        let r = ratio(sim, native);
        let rp = ratio(sim, port);
        if let Some(r) = r {
            logs.0.push(r.ln());
        }
        if let Some(rp) = rp {
            logs.1.push(rp.ln());
        }
        let fmt = |r: Option<f64>| r.map_or_else(|| "-".into(), |r| format!("{r:.1}x"));
        let result = match r {
            Some(r) if r <= target => {
                met += 1;
                measured += 1;
                "met"
            }
            Some(_) => {
                measured += 1;
                "MISSED"
            }
            None => "-",
        };
        println!(
            "{:<17} {:>16} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>7}  {result}",
            name,
            sizes(name),
            ms(sim),
            ms(sim_w32),
            ms(native),
            ms(port),
            fmt(r),
            fmt(rp),
            fmt(ratio(sim_w32, native)),
            format!("<={target}x"),
        );
    }
    println!(
        "targets met: {met} of {measured} (target = sim / native; sim at its default warp width = group size; 'r w32' = warps of 32 lanes / native)"
    );
    let geo = |l: &[f64]| (l.iter().sum::<f64>() / l.len() as f64).exp();
    if !logs.1.is_empty() {
        let verdict = if geo(&logs.1) <= PORT_TARGET {
            "met"
        } else {
            "MISSED"
        };
        println!(
            "geometric means over {} workloads: sim / native {:.2}x, sim / port {:.2}x (target <= {PORT_TARGET}x: {verdict})",
            logs.1.len(),
            geo(&logs.0),
            geo(&logs.1)
        );
    }
    // what profiling costs, against the plain run of the same bench
    println!();
    println!(
        "{:<17} {:>11} {:>11} {:>8} {:>11} {:>8}  (targets: profile <=1.25x, with lines <=1.5x)",
        "profiling cost", "plain", "profile", "ratio", "+ lines", "ratio"
    );
    for (name, _) in TABLE {
        let group = group_name(name, quick);
        let plain = median_ns(dir, &group, "sm5sim", since);
        let prof = median_ns(dir, &group, "sm5sim_profile", since);
        let lines = median_ns(dir, &group, "sm5sim_profile_lines", since);
        let Some(plain) = plain else {
            continue;
        };
        let ratio = |x: Option<f64>| x.map_or_else(|| "-".into(), |x| format!("{:.2}x", x / plain));
        println!(
            "{:<17} {:>11} {:>11} {:>8} {:>11} {:>8}",
            name,
            ms(Some(plain)),
            ms(prof),
            ratio(prof),
            ms(lines),
            ratio(lines)
        );
    }
    // what the compiled tier gains: the default run against the
    // interpreter alone, and the geometric mean of sim / port without it
    println!();
    println!(
        "{:<17} {:>11} {:>11} {:>8} {:>8}",
        "compiled tier", "default", "interp.", "ratio", "/port"
    );
    let mut interp_logs = Vec::new();
    for (name, _) in TABLE {
        let group = group_name(name, quick);
        let plain = median_ns(dir, &group, "sm5sim", since);
        let interp = median_ns(dir, &group, "sm5sim_interpreted", since);
        let port = median_ns(dir, &group, "port", since);
        let (Some(plain), Some(interp)) = (plain, interp) else {
            continue;
        };
        if let Some(port) = port {
            interp_logs.push((interp / port).ln());
        }
        println!(
            "{:<17} {:>11} {:>11} {:>7.2}x {:>8}",
            name,
            ms(Some(plain)),
            ms(Some(interp)),
            plain / interp,
            port.map_or_else(|| "-".into(), |p| format!("{:.1}x", interp / p)),
        );
    }
    if !interp_logs.is_empty() {
        println!(
            "geometric mean of interpreted sim / port over {} workloads: {:.2}x",
            interp_logs.len(),
            (interp_logs.iter().sum::<f64>() / interp_logs.len() as f64).exp()
        );
    }
    // cas_float_add's target is against the shader's own algorithm in Rust
    // (a compare-exchange loop per value); the same sums without atomics,
    // for the record:
    let group = group_name("cas_float_add", quick);
    let sim = median_ns(dir, &group, "sm5sim", since);
    if let (Some(sim), Some(free)) = (sim, median_ns(dir, &group, "native_no_atomics", since)) {
        println!(
            "cas_float_add against native sums without atomics ({} ms): {:.0}x",
            ms(Some(free)),
            sim / free
        );
    }
}

fn main() {
    // (criterion's test mode runs each function once: the quick sizes)
    let benchmarking = common::benchmarking();
    let quick = common::quick_env() || !benchmarking;
    let (mut c, dir, since) = common::criterion();
    let ctx = Ctx {
        quick,
        pool: rayon::ThreadPoolBuilder::new()
            .num_threads(THREADS)
            .build()
            .unwrap(),
    };
    bench_histogram(&mut c, &ctx, "histogram", 16_000_000, 1);
    bench_histogram(&mut c, &ctx, "global_histogram", 4_000_000, 2);
    bench_reduce(&mut c, &ctx);
    bench_scan(&mut c, &ctx);
    bench_matmul(&mut c, &ctx);
    bench_cas_float_add(&mut c, &ctx);
    bench_saxpy(&mut c, &ctx);
    bench_mandelbrot(&mut c, &ctx);
    c.final_summary();
    if benchmarking {
        print_table(&dir, quick, since);
    }
}
