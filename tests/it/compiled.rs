//! The compiled tier (`FastPaths::COMPILED`) from the outside: what a
//! dispatch reports of its compiling, that a shader's code is compiled once
//! and kept for its later dispatches, and the command line's `--compile`.
//! (Its results are the differential oracle's: `differential.rs`, and
//! `sim-core`'s `compiled_regions_match_the_row_kernels`.)

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::{DispatchOptions, DispatchStats, FastPaths};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn mandelbrot() -> Job {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mandelbrot/mandelbrot.toml");
    Job::load(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The dispatch's statistics and the job's outputs after one run.
fn run(job: &Job, options: &DispatchOptions) -> (DispatchStats, Vec<(String, Vec<u32>)>) {
    let reports = job.run(options).unwrap_or_else(|e| panic!("{e}"));
    let stats = reports
        .iter()
        .find_map(|r| match r {
            StepReport::Dispatch { stats, .. } => Some(*stats),
            _ => None,
        })
        .expect("a dispatch step");
    (stats, job.outputs())
}

/// The first dispatch of a shader pays for compiling its regions and says
/// how long; a second dispatch of the same loaded shader finds the code
/// compiled and pays nothing; without the tier nothing is compiled; all
/// three compute the same words and count the same warp-instructions.
#[cfg(feature = "jit")]
#[test]
fn a_shader_is_compiled_once_and_its_dispatches_say_what_compiling_cost() {
    let job = mandelbrot();
    let now = DispatchOptions {
        threads: 1,
        compile_after: Some(0),
        ..Default::default()
    };
    let (first, out) = run(&job, &now);
    assert!(first.compile_time > Duration::ZERO, "{first:?}");
    let (again, out_again) = run(&job, &now);
    assert_eq!(again.compile_time, Duration::ZERO, "{again:?}");
    let off = DispatchOptions {
        fast_paths: FastPaths::ALL.without(FastPaths::COMPILED),
        ..now.clone()
    };
    let (interpreted, out_interpreted) = run(&job, &off);
    assert_eq!(interpreted.compile_time, Duration::ZERO);
    assert_eq!(out, out_again);
    assert_eq!(out, out_interpreted);
    assert_eq!(first.warp_instructions, interpreted.warp_instructions);
    assert_eq!(again.warp_instructions, interpreted.warp_instructions);
}

/// `run --compile now` reports the dispatch's compiling in `--json`
/// (`compile_seconds`), `--compile off` none, and both pass the job's
/// expectations with the same warp-instructions; a value that is not a
/// choice is refused, naming the choices.
#[cfg(feature = "jit")]
#[test]
fn run_compile_chooses_when_and_json_reports_compile_seconds() {
    let job = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mandelbrot/mandelbrot.toml");
    let run = |when: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .args(["run", "--threads", "1", "--json", "--compile", when])
            .arg(&job)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["passed"], true, "{v}");
        let step = v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["kind"] == "dispatch")
            .unwrap()
            .clone();
        (
            step["compile_seconds"].as_f64().unwrap(),
            step["warp_instructions"].as_u64().unwrap(),
        )
    };
    let (now, counted_now) = run("now");
    let (off, counted_off) = run("off");
    assert!(now > 0.0, "{now}");
    assert_eq!(off, 0.0);
    assert_eq!(counted_now, counted_off);
    let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["run", "--compile", "soon"])
        .arg(&job)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--compile") && err.contains("hot") && err.contains("off"),
        "{err}"
    );
    assert_eq!(err.matches("error").count(), 1, "printed once: {err}");
}
