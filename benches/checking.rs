//! The cost of checking: each of the eight example jobs
//! (`examples/W/W.toml`, at its own size) run plain on one worker thread and
//! under the checker (`sm5sim check`: one OS thread, the group's warp width,
//! two-pass checking), then one table of medians and ratios (check / plain)
//! against the target, 6× (issue #32).
//!
//! ```text
//! cargo bench --manifest-path benches/Cargo.toml --bench checking
//! cargo bench --manifest-path benches/Cargo.toml --bench checking -- scan     # one job (a criterion filter)
//! ```
//!
//! Each criterion group (`check_<W>`) has the functions `plain_1thread` and
//! `check`. The time of an iteration is the job's dispatch steps' elapsed
//! time, which `--json` reports as each step's `"seconds"`: the job is
//! loaded afresh for each iteration (its resources start from the job's own
//! contents), and loading it and its expectations are not timed. Before a
//! function is timed its run is checked: every expectation of the job
//! passes, and the checker finds nothing but reduce's one meant
//! out-of-bounds read (as `tests/it/races.rs` has it).
//!
//! Without `--bench` (e.g. `cargo test --benches`) criterion runs every
//! function once and no table is printed.

mod common;

use common::median_ns;
use criterion::{Criterion, SamplingMode};
use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::check::CheckOptions;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The workloads, in table order.
const JOBS: [&str; 8] = [
    "histogram",
    "global_histogram",
    "reduce",
    "scan",
    "matmul",
    "saxpy_structured",
    "cas_float_add",
    "mandelbrot",
];

/// Issue #32's target: `check` at most this many times a plain one-thread
/// run.
const TARGET: f64 = 6.0;

fn job_path(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("examples")
        .join(name)
        .join(format!("{name}.toml"))
}

fn options() -> DispatchOptions {
    DispatchOptions {
        threads: 1,
        timeout: None,
        ..Default::default()
    }
}

/// The dispatch steps' elapsed time of a run's step reports; panics when an
/// expectation failed.
fn dispatch_time(name: &str, steps: &[StepReport]) -> Duration {
    assert!(
        steps.iter().all(StepReport::passed),
        "{name}: an expectation failed"
    );
    steps
        .iter()
        .map(|s| match s {
            StepReport::Dispatch { elapsed, .. } => *elapsed,
            _ => Duration::ZERO,
        })
        .sum()
}

/// One plain run of job `name` on one worker thread: its dispatch time.
fn plain(name: &str) -> Duration {
    let job = Job::load(&job_path(name), &LoadOptions::default()).unwrap();
    dispatch_time(name, &job.run(&options()).unwrap())
}

/// One checked run of job `name`: its dispatch time; panics on a finding
/// other than reduce's meant one.
fn checked(name: &str) -> Duration {
    let job = Job::load(&job_path(name), &LoadOptions::default()).unwrap();
    let report = job
        .run_checked(&options(), CheckOptions::default())
        .unwrap();
    let meant = |kind: &str, resource: Option<&str>| {
        name == "reduce" && kind == "out-of-bounds" && resource == Some("t0")
    };
    for f in &report.findings {
        assert!(
            meant(f.kind.name(), f.resource.as_deref()),
            "{name}: unexpected finding {} on {:?}",
            f.kind.name(),
            f.resource
        );
    }
    assert!(report.stopped.is_none(), "{name}: {:?}", report.stopped);
    dispatch_time(name, &report.steps)
}

fn bench(c: &mut Criterion) {
    for name in JOBS {
        let mut g = c.benchmark_group(format!("check_{name}"));
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("plain_1thread", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| plain(name)).sum())
        });
        g.bench_function("check", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| checked(name)).sum())
        });
        g.finish();
    }
}

fn print_table(dir: &Path, since: SystemTime) {
    println!();
    println!("the cost of checking: example jobs, dispatch medians in ms");
    println!(
        "{:18} {:>10} {:>10} {:>8} {:>8}",
        "job", "plain 1t", "check", "ratio", "target"
    );
    let (mut met, mut measured) = (0, 0);
    for name in JOBS {
        let group = format!("check_{name}");
        let plain = median_ns(dir, &group, "plain_1thread", since);
        let check = median_ns(dir, &group, "check", since);
        let ratio = plain.zip(check).map(|(p, c)| c / p);
        if let Some(r) = ratio {
            measured += 1;
            met += usize::from(r <= TARGET);
        }
        let ms = |ns: Option<f64>| ns.map_or_else(|| "-".into(), |ns| format!("{:.1}", ns / 1e6));
        println!(
            "{name:18} {:>10} {:>10} {:>8} {:>7}x",
            ms(plain),
            ms(check),
            ratio.map_or_else(|| "-".into(), |r| format!("{r:.2}x")),
            TARGET
        );
    }
    println!("targets met: {met} of {measured} (ratio = check / plain one-thread run)");
}

fn main() {
    let (mut c, dir, since) = common::criterion();
    bench(&mut c);
    c.final_summary();
    // (criterion's test mode, `cargo test --benches`, runs each function
    // once and writes no estimates)
    if common::benchmarking() {
        print_table(&dir, since);
    }
}
