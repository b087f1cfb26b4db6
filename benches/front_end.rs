//! The front end:
//!
//! - `decode`: container parse (checksum verified where fxc's is right),
//!   token decode and RDEF, over every `.dxbc` in the third-party corpus
//!   (`tests/corpus`) and `examples/`; MB/s of DXBC.
//! - `decode/load`: the whole load (`Program::from_dxbc`: decode, validation,
//!   lowering) over those of the same files the executor runs.
//!
//! (The fixed cost of a dispatch is `pipelines.rs`'s.)
//!
//! ```text
//! cargo bench --manifest-path benches/Cargo.toml --bench front_end
//! SM5SIM_BENCH_QUICK=1 cargo bench --manifest-path benches/Cargo.toml --bench front_end   # shorter measurement
//! ```

mod common;

use common::median_ns;
use criterion::{SamplingMode, Throughput};
use sm5sim::sim_core::{LoadOptions, Program};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn dxbc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            dxbc_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(p);
        }
    }
}

/// A shader file and the load options it needs (fxc's checksum verified
/// unless the file's is wrong).
struct Shader {
    bytes: Vec<u8>,
    options: LoadOptions,
}

fn corpus() -> (Vec<Shader>, usize) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut paths = Vec::new();
    dxbc_files(&root.join("tests/corpus"), &mut paths);
    dxbc_files(&root.join("examples"), &mut paths);
    paths.sort();
    let mut shaders = Vec::new();
    let mut undecodable = 0;
    for p in paths {
        let bytes = std::fs::read(&p).unwrap();
        let verify = LoadOptions::default();
        let skip = LoadOptions {
            verify_checksum: false,
            max_memory: None,
            cancel: None,
        };
        let options = if Program::decode_with_reflection(&bytes, &verify).is_ok() {
            verify
        } else if Program::decode_with_reflection(&bytes, &skip).is_ok() {
            skip
        } else {
            eprintln!("{}: does not decode, left out", p.display());
            undecodable += 1;
            continue;
        };
        shaders.push(Shader { bytes, options });
    }
    (shaders, undecodable)
}

fn main() {
    let (benchmarking, quick) = (common::benchmarking(), common::quick_env());
    let (warm_up, measure) = common::warm_up_and_measure(quick);
    let (mut c, dir, since) = common::criterion();

    // ------------------------------------------------------------ decode
    let (shaders, undecodable) = corpus();
    let loadable: Vec<&Shader> = shaders
        .iter()
        .filter(|s| Program::from_dxbc(&s.bytes, &s.options).is_ok())
        .collect();
    let bytes: usize = shaders.iter().map(|s| s.bytes.len()).sum();
    let load_bytes: usize = loadable.iter().map(|s| s.bytes.len()).sum();
    let mut g = c.benchmark_group("decode");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(warm_up)
        .measurement_time(measure);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            for s in &shaders {
                black_box(
                    Program::decode_with_reflection(black_box(&s.bytes), &s.options).unwrap(),
                );
            }
        })
    });
    g.throughput(Throughput::Bytes(load_bytes as u64));
    g.bench_function("load", |b| {
        b.iter(|| {
            for s in &loadable {
                black_box(Program::from_dxbc(black_box(&s.bytes), &s.options).unwrap());
            }
        })
    });
    g.finish();

    c.final_summary();

    if !benchmarking {
        return;
    }
    let mbps = |group: &str, function: &str, bytes: usize| {
        median_ns(&dir, group, function, since).map_or_else(
            || "-".to_string(),
            |ns| format!("{:.1} MB/s", bytes as f64 / ns * 1e3),
        )
    };
    println!();
    println!("front end (medians)");
    println!(
        "decode  {} files, {} bytes{}: {}",
        shaders.len(),
        bytes,
        if undecodable > 0 {
            format!(" ({undecodable} that do not decode left out)")
        } else {
            String::new()
        },
        mbps("decode", "decode", bytes)
    );
    println!(
        "load    {} files the executor runs, {} bytes: {}",
        loadable.len(),
        load_bytes,
        mbps("decode", "load", load_bytes)
    );
}
