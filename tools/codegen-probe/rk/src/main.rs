//! The Rust side alone (no Cranelift), to build at several target CPUs:
//! the same block fused, per-instruction, and as 3 superinstructions.
#[path = "../../proto/src/kern.rs"]
mod kern;
use kern::{NROWS, STRIDE};
use std::hint::black_box;
use std::time::Instant;

fn bench_run(f: &dyn Fn(&mut [u32], usize), lanes: usize) -> f64 {
    let mut rows = vec![0u32; NROWS * STRIDE];
    kern::fill(&mut rows, false);
    let iters = 20000;
    let mut v = vec![];
    for _ in 0..15 {
        let t0 = Instant::now();
        for _ in 0..iters {
            f(black_box(&mut rows), black_box(lanes));
        }
        v.push(t0.elapsed().as_secs_f64() * 1e9 / (iters * lanes) as f64);
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let tag = std::env::args().nth(1).unwrap_or_default();
    loops(&tag);
    for lanes in [512usize, 64] {
        println!(
            "{tag} lanes={lanes}: fused {:.3}  per-instruction {:.3}  superinstructions {:.3} ns/lane",
            bench_run(&kern::fused, lanes),
            bench_run(&kern::per_instruction, lanes),
            bench_run(&kern::superinstructions, lanes)
        );
    }
}

#[allow(dead_code)]
pub fn loops(tag: &str) {
    for (name, f) in [("16-lane chunks", kern::loop_rows_16 as fn(&mut [u32], usize, usize)), ("64-lane chunks", kern::loop_rows_64), ("op list, 16-lane chunks", kern::chunked_loop_16), ("op list, 64-lane chunks", kern::chunked_loop_64), ("op list, 128-lane chunks", kern::chunked_loop_128)] {
        let mut rows = vec![0u32; NROWS * STRIDE];
        kern::fill(&mut rows, false);
        let mut v = vec![];
        for _ in 0..9 {
            let t0 = Instant::now();
            f(black_box(&mut rows), STRIDE, kern::ITERS);
            v.push(t0.elapsed().as_secs_f64() * 1e9 / (STRIDE * kern::ITERS) as f64);
        }
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{tag} loop, {name}: min {:.3} median {:.3} ns/lane-iteration", v[0], v[4]);
    }
}
