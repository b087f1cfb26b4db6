//! The differential oracle of the executor's fast paths at the job level
//! (`sim-core/src/exec/README.md`): every conformance job and every example
//! job runs under the reference path (`FastPaths::NONE`), under all fast
//! paths, and under all but each one, at several warp widths and thread
//! counts. The final contents of every UAV must be the same bits, and so
//! must the warp-instructions counted on one thread, except where groups
//! are packed several to a warp (one warp-instruction then serves several
//! groups). On two threads the groups of a job whose results depend on the
//! schedule (float atomics: `cas_float_add`; an append buffer's order:
//! `stream_compaction`) may meet in another order, so only its counts on one
//! thread are compared. On one thread every
//! variant also runs profiled: the profile may not change the run, and its
//! per-thread counts (lane-instructions per instruction, atomics,
//! compare-exchanges and their failures, bytes) must be the reference's,
//! packed or not, except that a compare-exchange loop's retries depend on
//! which threads share a warp (lanes on one word succeed one a pass), so
//! a job with failed compare-exchanges is compared unpacked.
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

/// What a job's run leaves: every UAV's words after it, the
/// warp-instructions its dispatches ran, and, profiled, the counts a
/// profile defines per thread (lane-instructions per instruction, summed
/// over the dispatches; atomics, compare-exchanges, failed ones, and bytes
/// per memory class), which no fast path may change.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    uavs: Vec<(String, Vec<u32>)>,
    warp_instructions: u64,
    barriers: u64,
    per_thread: Option<(Vec<u64>, [u64; 8])>,
}

fn run(path: &Path, threads: usize, warp_width: usize, paths: FastPaths, profile: bool) -> Run {
    let job = Job::load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let reports = job
        .run(&DispatchOptions {
            threads,
            warp_width,
            fast_paths: paths,
            profile,
            // the compiled tier's regions compiled at their first run, on
            // any CPU
            compile_after: Some(0),
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut warp_instructions, mut barriers) = (0, 0);
    let mut per_thread: Option<(Vec<u64>, [u64; 8])> = None;
    for r in &reports {
        if let StepReport::Dispatch { stats, profile, .. } = r {
            warp_instructions += stats.warp_instructions;
            barriers += stats.barriers;
            if let Some(p) = profile {
                let e = &p.exec;
                let (by_pc, sums) = per_thread.get_or_insert_with(Default::default);
                by_pc.resize(by_pc.len().max(e.lanes_by_pc.len()), 0);
                for (a, b) in by_pc.iter_mut().zip(&e.lanes_by_pc) {
                    *a += b;
                }
                let add = [
                    e.active_lanes,
                    e.atomics,
                    e.compare_exchanges,
                    e.cas_failures,
                    e.tgsm_read + e.tgsm_written,
                    e.uav_read,
                    e.uav_written,
                    e.srv_read,
                ];
                for (s, a) in sums.iter_mut().zip(add) {
                    *s += a;
                }
            }
        }
    }
    Run {
        uavs: job.outputs(),
        warp_instructions,
        barriers,
        per_thread,
    }
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
            // on one thread, profiled too: the profile must count per
            // thread what the reference counts, and change nothing
            let profiled = threads == 1;
            let reference = run(path, threads, width, FastPaths::NONE, false);
            let reference_profile = profiled
                .then(|| run(path, threads, width, FastPaths::NONE, true).per_thread)
                .flatten();
            for (paths, name) in &variants {
                if threads == 2
                    && !name.contains("packed")
                    && !name.contains("private")
                    && *name != "all"
                {
                    continue;
                }
                let got = run(path, threads, width, *paths, false);
                let at = format!(
                    "{} ({threads} threads, width {width}, {name})",
                    path.display()
                );
                let schedule_free = threads == 1
                    || !["cas_float_add", "stream_compaction"]
                        .iter()
                        .any(|n| path.to_string_lossy().contains(n));
                if schedule_free && got.uavs != reference.uavs {
                    let which: Vec<&str> = got
                        .uavs
                        .iter()
                        .zip(&reference.uavs)
                        .filter(|(a, b)| a != b)
                        .map(|(a, _)| a.0.as_str())
                        .collect();
                    failures.push(format!("{at}: UAVs differ: {which:?}"));
                }
                let packs = width == WARP_WIDTH_GROUP && paths.contains(FastPaths::PACKED_GROUPS);
                // (two workers' compare-exchange loops may retry on each other)
                if threads == 1 && !packs && got.warp_instructions != reference.warp_instructions {
                    failures.push(format!(
                        "{at}: {} warp-instructions, the reference {}",
                        got.warp_instructions, reference.warp_instructions
                    ));
                }
                if threads == 1 && !packs && got.barriers != reference.barriers {
                    failures.push(format!(
                        "{at}: {} barriers, the reference {}",
                        got.barriers, reference.barriers
                    ));
                }
                if profiled {
                    let p = run(path, threads, width, *paths, true);
                    if p.uavs != got.uavs || p.warp_instructions != got.warp_instructions {
                        failures.push(format!("{at}: profiling changed the run"));
                    }
                    // (a retry loop's attempts depend on which threads share
                    // a warp, as lanes on one word succeed one a pass:
                    // packed groups change them)
                    let retries = reference_profile.as_ref().is_some_and(|r| r.1[3] > 0);
                    if p.per_thread != reference_profile && !(packs && retries) {
                        failures.push(format!(
                            "{at}: profile {:?}, the reference's {:?}",
                            p.per_thread.as_ref().map(|x| x.1),
                            reference_profile.as_ref().map(|x| x.1)
                        ));
                    }
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
