//! Pipelines: what an application's many dispatches pay besides their
//! groups' work.
//!
//! - `fixed`: one-group and sixteen-group dispatches of a one-thread shader
//!   that stores one word. `*_caller`: from the bench's own thread with
//!   `threads: 2` (one group runs on the calling thread; more go to
//!   sm5sim's 2-thread pool and back). `*_in_pool`: from a thread of a
//!   2-thread rayon pool with `threads: 0` (what a pipeline that runs inside
//!   the pool pays per dispatch; timed over many dispatches in one
//!   `install`). `one_group_handover`: `pool.install` of one dispatch
//!   (the cost of handing work to a pool and waiting for it, which
//!   `*_caller` at sixteen groups pays too).
//! - `job_steps`: a job of 256 one-group dispatch steps, run by
//!   `Job::run` at 2 threads: the job layer's cost per dispatch step.
//! - `pipelines`: the four pipeline examples (`examples/`), whole jobs at
//!   2 threads, at their own sizes, and two at large sizes (the example's
//!   job with its sizes scaled and its `expect` steps dropped): time per
//!   run, dispatches per run, and time per dispatch.
//! - `copies`: `CopyResource` of a 64 MiB buffer (`Resource::copy_from`)
//!   beside a native `copy_from_slice` of as many words.
//!
//! ```text
//! cargo bench --manifest-path benches/Cargo.toml --bench pipelines
//! SM5SIM_BENCH_QUICK=1 cargo bench --manifest-path benches/Cargo.toml --bench pipelines   # shorter measurement
//! ```

mod common;

use common::median_ns;
use criterion::{BatchSize, SamplingMode};
use sm5sim::api::Resource;
use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Target for a one-group dispatch from inside a pool, µs (#51).
const IN_POOL_TARGET_US: f64 = 5.0;

/// Dispatch steps of the generated `job_steps` job.
const JOB_STEPS: usize = 256;

/// Bytes `CopyResource` copies.
const COPY_BYTES: usize = 64 << 20;

const ONE_THREAD: &str = "
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_thread_group 1, 1, 1
store_raw u0.x, l(0), l(1)
ret
";

fn examples() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples")
}

/// The example job `name` as TOML text.
fn example_text(name: &str) -> String {
    std::fs::read_to_string(examples().join(name).join(format!("{name}.toml"))).unwrap()
}

/// `text` with each `(from, to)` replaced (each must occur) and its
/// `expect` steps dropped (their values are for the example's sizes).
fn scaled(text: &str, replacements: &[(&str, &str)]) -> String {
    let mut t = text.to_string();
    for (from, to) in replacements {
        assert!(t.contains(from), "the example no longer has {from:?}");
        t = t.replace(from, to);
    }
    t.split("[[steps]]")
        .filter(|s| !s.trim_start().starts_with("expect"))
        .collect::<Vec<_>>()
        .join("[[steps]]")
}

/// A pipeline of the bench: its name, the job's directory, its TOML text.
struct Pipeline {
    name: String,
    dir: PathBuf,
    text: String,
}

impl Pipeline {
    fn load(&self) -> Job {
        Job::from_toml(
            &self.text,
            &self.dir.join(format!("{}.toml", self.name)),
            &self.dir,
            &LoadOptions::default(),
        )
        .unwrap()
    }
}

fn pipelines() -> Vec<Pipeline> {
    let example = |name: &str| Pipeline {
        name: name.to_string(),
        dir: examples().join(name),
        text: example_text(name),
    };
    let large = |name: &str, label: &str, replacements: &[(&str, &str)]| Pipeline {
        name: label.to_string(),
        dir: examples().join(name),
        text: scaled(&example_text(name), replacements),
    };
    vec![
        example("bitonic_sort"),
        example("mip_chain"),
        example("stream_compaction"),
        example("multipass_reduce"),
        large(
            "stream_compaction",
            "stream_compaction_2M",
            &[
                ("elements = 16384", "elements = 2097152"),
                ("element_count = 16384", "element_count = 2097152"),
                ("dispatch = [256, 1, 1]", "dispatch = [32768, 1, 1]"),
            ],
        ),
        large(
            "multipass_reduce",
            "multipass_reduce_16M",
            &[
                ("elements = 1000000", "elements = 16000000"),
                ("count = 1000000", "count = 16000000"),
                ("elements = 1954", "elements = 31250"),
                ("dispatch = [1954, 1, 1]", "dispatch = [31250, 1, 1]"),
                ("count = 1954", "count = 31250"),
                ("dispatch = [4, 1, 1]", "dispatch = [62, 1, 1]"),
                ("count = 4 }", "count = 62 }"),
            ],
        ),
    ]
}

fn dispatches(reports: &[StepReport]) -> usize {
    reports
        .iter()
        .filter(|r| matches!(r, StepReport::Dispatch { .. }))
        .count()
}

fn main() {
    // (criterion's test mode runs each function once: the quick sizes)
    let benchmarking = common::benchmarking();
    let quick = common::quick_env() || !benchmarking;
    let (warm_up, measure) = common::warm_up_and_measure(quick);
    let (mut c, dir, since) = common::criterion();

    // -------------------------------------------------------------- fixed
    let p = Program::from_decoded(assemble(ONE_THREAD).unwrap(), None).unwrap();
    let out = Buffer::zeroed(4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let two = DispatchOptions {
        threads: 2,
        ..Default::default()
    };
    let current = DispatchOptions {
        threads: 0,
        ..Default::default()
    };
    for groups in [[1, 1, 1], [16, 1, 1]] {
        dispatch(&p, &b, groups, &two).unwrap();
        assert_eq!(out.to_words(), [1]);
    }
    let mut g = c.benchmark_group("fixed");
    g.sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(warm_up)
        .measurement_time(measure);
    for (id, groups) in [("one_group", [1, 1, 1]), ("sixteen_groups", [16, 1, 1])] {
        g.bench_function(format!("{id}_caller"), |bch| {
            bch.iter(|| dispatch(&p, &b, groups, &two).unwrap())
        });
        g.bench_function(format!("{id}_in_pool"), |bch| {
            bch.iter_custom(|iters| {
                pool.install(|| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        dispatch(&p, &b, groups, &current).unwrap();
                    }
                    start.elapsed()
                })
            })
        });
    }
    g.bench_function("one_group_handover", |bch| {
        bch.iter(|| pool.install(|| dispatch(&p, &b, [1, 1, 1], &current).unwrap()))
    });
    g.finish();

    // ---------------------------------------------------------- job steps
    let tmp = std::env::temp_dir().join(format!("sm5sim-bench-pipelines-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join("one.asm"), ONE_THREAD).unwrap();
    let mut text = String::from(
        "[shaders.one]\nshader = \"one.asm\"\n\n[resources.out]\nview = \"raw\"\nelements = 1\ninit = { fill_u32 = 0 }\n",
    );
    for _ in 0..JOB_STEPS {
        text.push_str(
            "\n[[steps]]\ndispatch = [1, 1, 1]\nshader = \"one\"\nbind = { u0 = \"out\" }\n",
        );
    }
    let steps_job = Job::from_toml(
        &text,
        &tmp.join("steps.toml"),
        &tmp,
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(dispatches(&steps_job.run(&two).unwrap()), JOB_STEPS);
    let mut g = c.benchmark_group("job_steps");
    g.sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(warm_up)
        .measurement_time(measure);
    g.bench_function("run", |bch| bch.iter(|| steps_job.run(&two).unwrap()));
    g.finish();
    let _ = std::fs::remove_dir_all(&tmp);

    // ---------------------------------------------------------- pipelines
    let list = pipelines();
    let mut counts = Vec::new();
    let mut g = c.benchmark_group("pipelines");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(warm_up)
        .measurement_time(measure);
    for pl in &list {
        // the example's own run passes its expectations
        let reports = pl.load().run(&two).unwrap();
        for r in &reports {
            if let StepReport::Expect {
                what, mismatches, ..
            } = r
            {
                assert_eq!(*mismatches, 0, "{}: {what}", pl.name);
            }
        }
        counts.push((pl.name.clone(), dispatches(&reports)));
        g.bench_function(&pl.name, |bch| {
            bch.iter_batched(
                || pl.load(),
                |job| job.run(&two).unwrap(),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();

    // ------------------------------------------------------------- copies
    let words = COPY_BYTES / 4;
    let data: Vec<u32> = (0..words as u32).collect();
    let src = Resource::from_slice(&data).unwrap();
    let dst = Resource::zeroed(COPY_BYTES).unwrap();
    dst.copy_from(&src).unwrap();
    assert!(dst.data().to_words() == data);
    let mut native = vec![0u32; words];
    let mut g = c.benchmark_group("copies");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(warm_up)
        .measurement_time(measure);
    g.bench_function("copy_resource", |bch| {
        bch.iter(|| dst.copy_from(&src).unwrap())
    });
    g.bench_function("native", |bch| bch.iter(|| native.copy_from_slice(&data)));
    g.finish();
    c.final_summary();

    if !benchmarking {
        return;
    }
    let us = |group: &str, f: &str| median_ns(&dir, group, f, since).map(|ns| ns / 1e3);
    let show = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.1}"));
    println!();
    println!("fixed costs, 2 threads, medians in µs per dispatch");
    println!("{:<16} {:>10} {:>10}", "groups", "caller", "in pool");
    for id in ["one_group", "sixteen_groups"] {
        println!(
            "{:<16} {:>10} {:>10}",
            id,
            show(us("fixed", &format!("{id}_caller"))),
            show(us("fixed", &format!("{id}_in_pool")))
        );
    }
    if let Some(x) = us("fixed", "one_group_in_pool") {
        let verdict = if x <= IN_POOL_TARGET_US {
            "met"
        } else {
            "MISSED"
        };
        println!("one group in a pool: {x:.2} µs (target <= {IN_POOL_TARGET_US} µs: {verdict})");
    }
    println!(
        "pool.install of a one-group dispatch (hand-over and back): {} µs",
        show(us("fixed", "one_group_handover"))
    );
    println!(
        "job of {JOB_STEPS} one-group dispatch steps: {} µs per step",
        show(us("job_steps", "run").map(|x| x / JOB_STEPS as f64))
    );
    println!();
    println!("pipelines, 2 threads, medians");
    println!(
        "{:<22} {:>10} {:>11} {:>14}",
        "job", "ms", "dispatches", "µs / dispatch"
    );
    for (name, n) in &counts {
        let t = us("pipelines", name);
        println!(
            "{:<22} {:>10} {:>11} {:>14}",
            name,
            show(t.map(|x| x / 1e3)),
            n,
            show(t.map(|x| x / *n as f64))
        );
    }
    let copy = us("copies", "copy_resource");
    let native = us("copies", "native");
    println!();
    println!(
        "CopyResource of {} MiB: {} µs ({} GB/s); native copy_from_slice {} µs; ratio {}",
        COPY_BYTES >> 20,
        show(copy),
        show(copy.map(|x| COPY_BYTES as f64 / x / 1e3)),
        show(native),
        copy.zip(native)
            .map_or_else(|| "-".to_string(), |(c, n)| format!("{:.2}x", c / n))
    );
}
