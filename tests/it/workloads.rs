//! The eight workloads on random inputs, at 1 and 2 worker threads and warp
//! widths 1, 32 and the thread-group size, against native Rust references of
//! the same algorithms.
//!
//! Tolerances: integer results are bit-exact. Float results are bit-exact
//! too where the shader's operation order is deterministic (matmul, saxpy,
//! mandelbrot): sm5sim evaluates `mad` unfused (round after the multiply and
//! after the add), exactly as the native references write `a * b + c`. A GPU
//! that fuses `mad` may differ from both by up to 1 ULP per multiply-add
//! (FS §3.1.3.2 allows either). `cas_float_add` sums in a schedule-dependent
//! order, so each slot is checked against an f64 sum within
//! count × 2⁻²⁴ × (sum of magnitudes) — the bound on the rounding error of
//! `count` f32 additions in any order.

use sm5sim::job::{random_f32_words, random_u32_words};
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::Path;

fn program(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .join(format!("{name}.dxbc"));
    Program::from_dxbc(&std::fs::read(path).unwrap(), &LoadOptions::default()).unwrap()
}

/// Every (threads, warp width) configuration the issue asks for.
fn configs(p: &Program) -> Vec<DispatchOptions> {
    let mut v = Vec::new();
    for threads in [1, 2] {
        for warp_width in [1, 32, p.threads_per_group() as usize] {
            v.push(DispatchOptions {
                threads,
                warp_width,
                ..Default::default()
            });
        }
    }
    v
}

fn f(words: &[u32]) -> Vec<f32> {
    words.iter().map(|&w| f32::from_bits(w)).collect()
}

/// Both histogram workloads: 256 bins of `key & 255` over random keys.
fn check_histogram(name: &str, n: u32, seed: u64) {
    let p = program(name);
    let keys = random_u32_words(seed, 0, u32::MAX, n as usize);
    let mut native = vec![0u32; 256];
    for k in &keys {
        native[(k & 255) as usize] += 1;
    }
    let groups = n.div_ceil(p.threads_per_group());
    for o in configs(&p) {
        let keys_buf = Buffer::from_words(&keys);
        let bins = Buffer::zeroed(1024).unwrap();
        let cb = [n, 0, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![Some(BufferView::raw(&keys_buf))],
            uavs: vec![Some(BufferView::raw(&bins))],
            ..Default::default()
        };
        dispatch(&p, &b, [groups, 1, 1], &o).unwrap();
        assert_eq!(bins.to_words(), native, "{name} {o:?}");
    }
}

#[test]
fn histogram_matches_native() {
    check_histogram("histogram", 100_003, 1); // not a multiple of the group size
}

#[test]
fn global_histogram_matches_native() {
    check_histogram("global_histogram", 50_001, 2);
}

#[test]
fn reduce_matches_native() {
    let p = program("reduce");
    let n = 70_000u32;
    let values = random_u32_words(3, 0, u32::MAX, n as usize);
    let native = values.iter().fold(0u32, |a, &b| a.wrapping_add(b));
    for o in configs(&p) {
        let v = Buffer::from_words(&values);
        let total = Buffer::zeroed(4).unwrap();
        let cb = [n, 0, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![Some(BufferView::structured(&v, 4).unwrap())],
            uavs: vec![Some(BufferView::structured(&total, 4).unwrap())],
            ..Default::default()
        };
        dispatch(&p, &b, [n.div_ceil(256), 1, 1], &o).unwrap();
        assert_eq!(total.to_words(), vec![native], "{o:?}");
    }
}

#[test]
fn scan_matches_native() {
    let p = program("scan");
    let groups = 20u32;
    let n = groups * 512;
    let input = random_u32_words(4, 0, 1 << 20, n as usize);
    let native = crate::native::scan_512(&input);
    for o in configs(&p) {
        let i = Buffer::from_words(&input);
        let out = Buffer::zeroed(n as usize * 4).unwrap();
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![Some(BufferView::structured(&i, 4).unwrap())],
            uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
            ..Default::default()
        };
        dispatch(&p, &b, [groups, 1, 1], &o).unwrap();
        assert_eq!(out.to_words(), native, "{o:?}");
    }
}

#[test]
fn matmul_matches_native() {
    let p = program("matmul");
    let n = 64usize;
    let a = random_f32_words(5, -1.0, 1.0, n * n);
    let bm = random_f32_words(6, -1.0, 1.0, n * n);
    let (fa, fb) = (f(&a), f(&bm));
    let native = crate::native::matmul(&fa, &fb, n);
    for o in configs(&p) {
        let (ab, bb) = (Buffer::from_words(&a), Buffer::from_words(&bm));
        let c = Buffer::zeroed(n * n * 4).unwrap();
        let cb = [n as u32, 0, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![
                Some(BufferView::structured(&ab, 4).unwrap()),
                Some(BufferView::structured(&bb, 4).unwrap()),
            ],
            uavs: vec![Some(BufferView::structured(&c, 4).unwrap())],
            ..Default::default()
        };
        dispatch(&p, &b, [n as u32 / 16, n as u32 / 16, 1], &o).unwrap();
        assert_eq!(f(&c.to_words()), native, "{o:?}");
    }
}

#[test]
fn saxpy_matches_native() {
    let p = program("saxpy_structured");
    let n = 10_001usize; // float4 elements
    let x = random_f32_words(7, -10.0, 10.0, 4 * n);
    let y = random_f32_words(8, -10.0, 10.0, 4 * n);
    let a = 1.7f32;
    let native: Vec<f32> = f(&x).iter().zip(f(&y)).map(|(&x, y)| a * x + y).collect();
    for o in configs(&p) {
        let (xb, yb) = (Buffer::from_words(&x), Buffer::from_words(&y));
        let cb = [a.to_bits(), n as u32, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![Some(BufferView::structured(&xb, 16).unwrap())],
            uavs: vec![Some(BufferView::structured(&yb, 16).unwrap())],
            ..Default::default()
        };
        dispatch(&p, &b, [(n as u32).div_ceil(128), 1, 1], &o).unwrap();
        assert_eq!(f(&yb.to_words()), native, "{o:?}");
    }
}

#[test]
fn mandelbrot_matches_native() {
    let p = program("mandelbrot");
    let (w, h, max_iter) = (100u32, 75u32, 200u32); // not multiples of the 8x8 group
    let native = crate::native::mandelbrot(w, h, max_iter);
    for o in configs(&p) {
        let it = Buffer::zeroed((w * h * 4) as usize).unwrap();
        let cb = [w, h, max_iter, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![],
            uavs: vec![Some(BufferView::structured(&it, 4).unwrap())],
            ..Default::default()
        };
        dispatch(&p, &b, [w.div_ceil(8), h.div_ceil(8), 1], &o).unwrap();
        assert_eq!(it.to_words(), native, "{o:?}");
    }
}

#[test]
fn cas_float_add_matches_native_within_rounding() {
    let p = program("cas_float_add");
    let (n, slots) = (20_000u32, 7u32);
    let values = random_f32_words(9, 0.0, 1.0, n as usize);
    let fv = f(&values);
    let mut exact = vec![0f64; slots as usize];
    let mut magnitude = vec![0f64; slots as usize];
    let mut count = vec![0f64; slots as usize];
    for (i, v) in fv.iter().enumerate() {
        let s = i % slots as usize;
        exact[s] += *v as f64;
        magnitude[s] += v.abs() as f64;
        count[s] += 1.0;
    }
    for o in configs(&p) {
        let vb = Buffer::from_words(&values);
        let sums = Buffer::zeroed(slots as usize * 4).unwrap();
        let cb = [n, slots, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb)],
            srvs: vec![Some(BufferView::structured(&vb, 4).unwrap())],
            uavs: vec![Some(BufferView::raw(&sums))],
            ..Default::default()
        };
        dispatch(&p, &b, [n.div_ceil(64), 1, 1], &o).unwrap();
        for (s, got) in f(&sums.to_words()).iter().enumerate() {
            let bound = count[s] * f32::EPSILON as f64 / 2.0 * magnitude[s];
            assert!(
                (*got as f64 - exact[s]).abs() <= bound,
                "{o:?} slot {s}: got {got}, exact {}, bound {bound}",
                exact[s]
            );
        }
    }
}
