//! The differential oracle of the executor's fast paths at the job level
//! (`sim-core/src/exec/README.md`): every conformance job and every example
//! job runs under the reference path (`FastPaths::NONE`), under all fast
//! paths, and under all but each one, at several warp widths and thread
//! counts. The final contents of every UAV must be the same bits, and so
//! must the warp-instructions counted on one thread, except where groups
//! are packed several to a warp (one warp-instruction then serves several
//! groups). On two threads the groups of a job whose results depend on the
//! schedule (float atomics: `cas_float_add`) may meet in another order, so
//! only its counts on one thread are compared.
//! The generated-program half of the oracle, which also compares TGSM and
//! registers, is `sim_core::exec::differential`.

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::{DispatchOptions, FastPaths, WARP_WIDTH_GROUP};
use std::path::{Path, PathBuf};

/// The conformance jobs and the examples (not the one that needs a compiler).
fn jobs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join("tests/conformance"), root.join("examples")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && !p.to_string_lossy().ends_with("_hlsl.toml")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every UAV's words after the job, and the warp-instructions its dispatches ran.
fn run(
    path: &Path,
    threads: usize,
    warp_width: usize,
    paths: FastPaths,
) -> (Vec<(String, Vec<u32>)>, u64) {
    let job = Job::load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let reports = job
        .run(&DispatchOptions {
            threads,
            warp_width,
            fast_paths: paths,
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let count = reports
        .iter()
        .map(|r| match r {
            StepReport::Dispatch { stats, .. } => stats.warp_instructions,
            _ => 0,
        })
        .sum();
    (job.outputs(), count)
}

#[test]
fn every_fast_path_gives_the_reference_results_on_every_job() {
    let jobs = jobs();
    assert!(jobs.len() >= 50, "{}", jobs.len());
    let mut variants = vec![(FastPaths::ALL, "all".to_string())];
    for (p, name) in FastPaths::EACH {
        variants.push((FastPaths::ALL.without(p), format!("all but {name}")));
    }
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in &jobs {
        // one thread: the same group order in every run, so that even a
        // job whose results depend on the schedule (float atomics) must
        // give the same bits; two threads for packing and gathered atomics.
        // The examples (larger) at the default width only.
        let example = path.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"));
        let configs: &[(usize, usize)] = if example {
            &[(1, WARP_WIDTH_GROUP), (2, WARP_WIDTH_GROUP)]
        } else {
            &[
                (1, 1),
                (1, 32),
                (1, WARP_WIDTH_GROUP),
                (2, WARP_WIDTH_GROUP),
            ]
        };
        for &(threads, width) in configs {
            let (reference, count) = run(path, threads, width, FastPaths::NONE);
            for (paths, name) in &variants {
                if threads == 2
                    && !name.contains("packed")
                    && !name.contains("private")
                    && *name != "all"
                {
                    continue;
                }
                let (got, got_count) = run(path, threads, width, *paths);
                let at = format!(
                    "{} ({threads} threads, width {width}, {name})",
                    path.display()
                );
                let schedule_free =
                    threads == 1 || !path.to_string_lossy().contains("cas_float_add");
                if schedule_free && got != reference {
                    let which: Vec<&str> = got
                        .iter()
                        .zip(&reference)
                        .filter(|(a, b)| a != b)
                        .map(|(a, _)| a.0.as_str())
                        .collect();
                    failures.push(format!("{at}: UAVs differ: {which:?}"));
                }
                let packs = width == WARP_WIDTH_GROUP && paths.contains(FastPaths::PACKED_GROUPS);
                // (two workers' compare-exchange loops may retry on each other)
                if threads == 1 && !packs && got_count != count {
                    failures.push(format!(
                        "{at}: {got_count} warp-instructions, the reference {count}"
                    ));
                }
                compared += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!(
        "{} jobs, {compared} runs compared with the reference",
        jobs.len()
    );
}
