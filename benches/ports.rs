//! Native ports of the eight workloads' own algorithms: the limit an
//! executor of *these shaders* on this CPU could reach.
//!
//! The idiomatic baselines in `workloads.rs` solve the same problems the
//! way a CPU programmer would (`par_iter().sum()`, per-thread bins, a
//! cache-blocked matmul). A port here runs the shader's algorithm as an
//! SPMD compiler for the CPU (ISPC, a JIT like llvmpipe's) would run it:
//!
//! - the same thread groups, each run by one worker thread from start to
//!   end, in group order within a task of consecutive groups;
//! - the group's lanes as arrays the compiler vectorises, one loop over the
//!   lanes per stretch of code between barriers (a barrier is the end of a
//!   loop), so every TGSM step and barrier of the shader is there;
//! - TGSM as a local array of the group's size; an atomic on TGSM a plain
//!   read-modify-write (one thread runs the group);
//! - a UAV atomic whose result is unused, of a commutative integer kind,
//!   on a UAV that is never read (histogram bins, reduce's total),
//!   accumulated in the worker's own words and added at the end: what
//!   sm5sim does too (`FastPaths::PRIVATE_ATOMICS`, docs/semantics.md), and
//!   legal for any executor, since no thread can tell the order;
//! - a compare-exchange loop (cas_float_add) as it is written: one
//!   compare-exchange per lane on the shared word. sm5sim runs the lanes of
//!   a packed warp that meet on a word as one chain with one
//!   compare-exchange, a schedule a literal port does not take, so the port
//!   of that workload is slower than sm5sim.
//!
//! Each group's body is compiled for the widest instruction set the CPU
//! has (AVX-512, AVX2 or baseline x86-64), chosen at run time as sm5sim's
//! row kernels are, so the comparison is of execution strategies and not
//! of compile flags. Float arithmetic is in the shader's order with
//! separate multiply and add, as sm5sim's `mad` is: the outputs equal
//! sm5sim's bit for bit (checked before timing).

// (lane loops index several arrays by lane, as the shader's lanes do)
#![allow(clippy::needless_range_loop)]

use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Lanes (shader threads) a rayon task runs: enough groups that a task's
/// start costs nothing against its work.
const LANES_PER_TASK: usize = 1 << 14;

/// `fn name(args) body` compiled three times (AVX-512, AVX2, baseline) and
/// called at the widest the CPU supports. The body is inlined into each
/// copy, so its lane loops are vectorised for that instruction set.
macro_rules! widest {
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$m])*
        fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn body($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
                fn avx512($($arg: $ty),*) {
                    body($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2($($arg: $ty),*) {
                    body($($arg),*)
                }
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("avx512vl")
                {
                    // SAFETY: the CPU has every feature `avx512` is compiled for.
                    return unsafe { avx512($($arg),*) };
                }
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    // SAFETY: the CPU has every feature `avx2` is compiled for.
                    return unsafe { avx2($($arg),*) };
                }
            }
            body($($arg),*)
        }
    };
}

/// The groups `0..groups` in tasks of consecutive groups, about
/// [`LANES_PER_TASK`] lanes each.
fn tasks(
    groups: usize,
    lanes_per_group: usize,
) -> impl IndexedParallelIterator<Item = Range<usize>> {
    let per = (LANES_PER_TASK / lanes_per_group).max(1);
    (0..groups.div_ceil(per))
        .into_par_iter()
        .map(move |t| t * per..((t + 1) * per).min(groups))
}

fn add_bins(mut a: [u32; 256], b: [u32; 256]) -> [u32; 256] {
    for (a, b) in a.iter_mut().zip(b) {
        *a = a.wrapping_add(b);
    }
    a
}

// ------------------------------------------------------------- histogram

widest! {
    /// histogram.hlsl, `[numthreads(256, 1, 1)]`, for `groups`.
    fn histogram_groups(keys: &[u32], groups: Range<usize>, bins: &mut [u32; 256]) {
        for g in groups {
            // local_bins[gi] = 0; barrier
            let mut local = [0u32; 256];
            // if (dtid.x < key_count) InterlockedAdd(local_bins[key & 255], 1)
            let first = g * 256;
            let last = (first + 256).min(keys.len());
            for &k in &keys[first..last] {
                local[(k & 255) as usize] += 1;
            }
            // barrier; bins.InterlockedAdd(gi * 4, local_bins[gi])
            for (b, l) in bins.iter_mut().zip(local) {
                *b = b.wrapping_add(l);
            }
        }
    }
}

/// histogram.hlsl's algorithm: 256 bins of `key & 255`.
pub fn histogram(keys: &[u32]) -> [u32; 256] {
    tasks(keys.len().div_ceil(256), 256)
        .fold(
            || [0u32; 256],
            |mut bins, groups| {
                histogram_groups(keys, groups, &mut bins);
                bins
            },
        )
        .reduce(|| [0; 256], add_bins)
}

widest! {
    /// global_histogram.hlsl, `[numthreads(64, 1, 1)]`, for `groups`.
    fn global_histogram_groups(keys: &[u32], groups: Range<usize>, bins: &mut [u32; 256]) {
        for g in groups {
            // if (dtid.x < key_count) bins.InterlockedAdd((key & 255) * 4, 1)
            let first = g * 64;
            let last = (first + 64).min(keys.len());
            for &k in &keys[first..last] {
                bins[(k & 255) as usize] += 1;
            }
        }
    }
}

/// global_histogram.hlsl's algorithm: every key one add to a bin.
pub fn global_histogram(keys: &[u32]) -> [u32; 256] {
    tasks(keys.len().div_ceil(64), 64)
        .fold(
            || [0u32; 256],
            |mut bins, groups| {
                global_histogram_groups(keys, groups, &mut bins);
                bins
            },
        )
        .reduce(|| [0; 256], add_bins)
}

// ---------------------------------------------------------------- reduce

widest! {
    /// reduce.hlsl, `[numthreads(256, 1, 1)]`, for `groups`.
    fn reduce_groups(values: &[u32], groups: Range<usize>, total: &mut u32) {
        for g in groups {
            // partial[gi] = dtid.x < value_count ? values[dtid.x] : 0; barrier
            let mut partial = [0u32; 256];
            let first = g * 256;
            let last = (first + 256).min(values.len());
            partial[..last - first].copy_from_slice(&values[first..last]);
            // for stride = 128 ... 1: if (gi < stride) partial[gi] += partial[gi + stride]; barrier
            let mut stride = 128;
            while stride > 0 {
                let (low, high) = partial.split_at_mut(stride);
                for (a, b) in low.iter_mut().zip(&high[..stride]) {
                    *a = a.wrapping_add(*b);
                }
                stride >>= 1;
            }
            // if (gi == 0) InterlockedAdd(total[0], partial[0])
            *total = total.wrapping_add(partial[0]);
        }
    }
}

/// reduce.hlsl's algorithm: a TGSM tree per group of 256, one add per group.
pub fn reduce(values: &[u32]) -> u32 {
    tasks(values.len().div_ceil(256), 256)
        .fold(
            || 0u32,
            |mut total, groups| {
                reduce_groups(values, groups, &mut total);
                total
            },
        )
        .reduce(|| 0, u32::wrapping_add)
}

// ------------------------------------------------------------------ scan

widest! {
    /// scan.hlsl, `[numthreads(512, 1, 1)]`, for the groups of `input`
    /// (whole groups), writing `output`.
    fn scan_groups(input: &[u32], output: &mut [u32]) {
        for (i, o) in input.chunks_exact(512).zip(output.chunks_exact_mut(512)) {
            // buf[0][gi] = input[dtid.x]; barrier
            let mut buf = [[0u32; 512]; 2];
            buf[0].copy_from_slice(i);
            let mut src = 0;
            let mut offset = 1;
            while offset < 512 {
                // v = buf[src][gi]; if (gi >= offset) v += buf[src][gi - offset];
                // buf[1 - src][gi] = v; barrier
                let [b0, b1] = &mut buf;
                let (s, d) = if src == 0 { (&*b0, b1) } else { (&*b1, b0) };
                d[..offset].copy_from_slice(&s[..offset]);
                for ((d, &a), &b) in d[offset..].iter_mut().zip(&s[offset..]).zip(&s[..512 - offset]) {
                    *d = a.wrapping_add(b);
                }
                src = 1 - src;
                offset <<= 1;
            }
            // output[dtid.x] = buf[src][gi]
            o.copy_from_slice(&buf[src]);
        }
    }
}

/// scan.hlsl's algorithm: a Hillis–Steele scan in TGSM per group of 512.
/// `input.len()` is a multiple of 512.
pub fn scan(input: &[u32], output: &mut [u32]) {
    let per = LANES_PER_TASK;
    output
        .par_chunks_mut(per)
        .zip(input.par_chunks(per))
        .for_each(|(o, i)| scan_groups(i, o));
}

// ---------------------------------------------------------------- matmul

widest! {
    /// matmul.hlsl, `[numthreads(16, 16, 1)]`, for the row of groups `gy`:
    /// `c` is that row's 16 rows of C.
    fn matmul_row(a: &[f32], b: &[f32], c: &mut [f32], gy: usize, n: usize) {
        for gx in 0..n / 16 {
            let mut acc = [[0f32; 16]; 16];
            let mut t = 0;
            while t < n {
                // tile_a[y][x] = A[row * n + t + x]; tile_b[y][x] = B[(t + y) * n + col]; barrier
                let mut tile_a = [[0f32; 16]; 16];
                let mut tile_b = [[0f32; 16]; 16];
                for y in 0..16 {
                    tile_a[y].copy_from_slice(&a[(gy * 16 + y) * n + t..][..16]);
                    tile_b[y].copy_from_slice(&b[(t + y) * n + gx * 16..][..16]);
                }
                // for k: acc = mad(tile_a[y][k], tile_b[k][x], acc); barrier
                for (acc, ta) in acc.iter_mut().zip(&tile_a) {
                    for (&av, tb) in ta.iter().zip(&tile_b) {
                        for (acc, &bv) in acc.iter_mut().zip(tb) {
                            *acc += av * bv;
                        }
                    }
                }
                t += 16;
            }
            // C[row * n + col] = acc
            for (y, acc) in acc.iter().enumerate() {
                c[y * n + gx * 16..][..16].copy_from_slice(acc);
            }
        }
    }
}

/// matmul.hlsl's algorithm: C = A·B by 16×16 tiles through TGSM, `n` a
/// multiple of 16.
pub fn matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    c.par_chunks_mut(16 * n)
        .enumerate()
        .for_each(|(gy, c)| matmul_row(a, b, c, gy, n));
}

// --------------------------------------------------------- cas_float_add

widest! {
    /// cas_float_add.hlsl, `[numthreads(64, 1, 1)]`, for `groups`.
    fn cas_groups(values: &[f32], sums: &[AtomicU32], groups: Range<usize>) {
        let slots = sums.len();
        for g in groups {
            let first = g * 64;
            let last = (first + 64).min(values.len());
            for (i, &v) in values[first..last].iter().enumerate() {
                // expected = sums.Load(address); loop InterlockedCompareExchange
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
        }
    }
}

/// cas_float_add.hlsl's algorithm: `values[i]` added into slot
/// `i % slots` by a compare-exchange loop per value.
pub fn cas_float_add(values: &[f32], slots: usize) -> Vec<f32> {
    let sums: Vec<AtomicU32> = (0..slots).map(|_| AtomicU32::new(0)).collect();
    tasks(values.len().div_ceil(64), 64).for_each(|groups| cas_groups(values, &sums, groups));
    sums.iter()
        .map(|s| f32::from_bits(s.load(Relaxed)))
        .collect()
}

// ----------------------------------------------------------------- saxpy

widest! {
    /// saxpy_structured.hlsl, `[numthreads(128, 1, 1)]`, for whole groups
    /// of float4 elements (`x` and `y` as floats).
    fn saxpy_groups(a: f32, x: &[f32], y: &mut [f32]) {
        // if (dtid.x < element_count) y[dtid.x] = a * x[dtid.x] + y[dtid.x]
        for (y, x) in y.chunks_mut(128 * 4).zip(x.chunks(128 * 4)) {
            for (y, &x) in y.iter_mut().zip(x) {
                *y += a * x;
            }
        }
    }
}

/// saxpy_structured.hlsl's algorithm: y = a·x + y on float4 elements.
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let per = LANES_PER_TASK * 4;
    y.par_chunks_mut(per)
        .zip(x.par_chunks(per))
        .for_each(|(y, x)| saxpy_groups(a, x, y));
}

// ------------------------------------------------------------ mandelbrot

widest! {
    /// mandelbrot.hlsl, `[numthreads(8, 8, 1)]`, for the row of groups
    /// `gy`: `out` is that row's 8 rows of the image (fewer at its end).
    fn mandelbrot_row(out: &mut [u32], gy: usize, w: usize, h: usize, max_iter: u32) {
        for gx in 0..w.div_ceil(8) {
            // the 64 lanes of group (gx, gy), lane = 8 * y + x
            let mut cx = [0f32; 64];
            let mut cy = [0f32; 64];
            let mut alive = [0u32; 64];
            for l in 0..64 {
                let (x, y) = (gx * 8 + l % 8, gy * 8 + l / 8);
                // if (dtid.x >= width || dtid.y >= height) return
                alive[l] = u32::from(x < w && y < h);
                cx[l] = (x as f32 * 3.0) / w as f32 + -2.0;
                cy[l] = (y as f32 * 3.0) / h as f32 + -1.5;
            }
            let (mut zx, mut zy) = ([0f32; 64], [0f32; 64]);
            let mut it = [0u32; 64];
            // while (i < max_iter && zx * zx + zy * zy < 4) { ...; ++i }
            for _ in 0..max_iter {
                let mut any = 0;
                for l in 0..64 {
                    let (x, y) = (zx[l], zy[l]);
                    alive[l] &= u32::from(x * x + y * y < 4.0);
                    it[l] += alive[l];
                    any |= alive[l];
                    zx[l] = x * x - y * y + cx[l];
                    zy[l] = 2.0 * x * y + cy[l];
                }
                if any == 0 {
                    break;
                }
            }
            // iterations[dtid.y * width + dtid.x] = i
            for l in 0..64 {
                let (x, y) = (gx * 8 + l % 8, l / 8);
                if x < w && gy * 8 + y < h {
                    out[y * w + x] = it[l];
                }
            }
        }
    }
}

/// mandelbrot.hlsl's algorithm: escape counts of a `w`×`h` image in
/// groups of 8×8.
pub fn mandelbrot(out: &mut [u32], w: usize, h: usize, max_iter: u32) {
    out.par_chunks_mut(8 * w)
        .enumerate()
        .for_each(|(gy, rows)| mandelbrot_row(rows, gy, w, h, max_iter));
}
