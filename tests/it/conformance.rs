//! The conformance suite: every job file under `tests/conformance/` (HLSL
//! compiled by fxc, committed with its `.dxbc` and `.asm`, expected values
//! derived from the D3D11.3 functional spec and cited in each job) runs at
//! several warp widths and thread counts, and every expectation must hold.

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};

fn jobs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_conformance_job_passes() {
    let jobs = jobs();
    assert!(!jobs.is_empty());
    let mut failures = Vec::new();
    for path in &jobs {
        // Each shader comes with its source and fxc's listing.
        for ext in ["hlsl", "asm"] {
            assert!(
                path.with_extension(ext).is_file(),
                "{} lacks its .{ext}",
                path.display()
            );
        }
        let job = Job::load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        for (threads, warp_width) in [(1, 1), (2, 32), (2, 1024)] {
            // Re-load so every configuration starts from the initial contents.
            let job = if (threads, warp_width) == (1, 1) {
                &job
            } else {
                &Job::load(path, &LoadOptions::default()).unwrap()
            };
            let reports = job
                .run(&DispatchOptions {
                    threads,
                    warp_width,
                    ..Default::default()
                })
                .unwrap();
            for r in reports {
                if let StepReport::Expect {
                    what,
                    mismatches,
                    first,
                } = &r
                {
                    if *mismatches > 0 {
                        failures.push(format!(
                            "{} (threads {threads}, warp {warp_width}): {what}: {mismatches} differ, first {first:?}",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{} conformance jobs passed", jobs.len());
}
