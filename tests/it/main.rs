//! The integration tests of the `sm5sim` package (the library facade and the
//! `sm5sim` binary), as one test program: one module per subject, so that a
//! fresh `cargo test` compiles and links one binary instead of one per file
//! (CONTRIBUTING.md, "Tests"). Test data lives beside this folder:
//! `tests/corpus/` (third-party shaders), `tests/conformance/`,
//! `tests/families/`, `tests/races/`, `tests/schedules/`, `tests/shaders/`,
//! `tests/texture_jobs/`, `tests/texture_races/`.

mod api;
mod bad_input;
mod cbuffers;
mod class_linkage;
mod cli;
mod compiled;
mod conformance;
mod conformance_coverage;
mod corpus;
mod corpus_smoke;
mod d3d11;
mod dap;
mod debug;
mod debug_info;
mod differential;
mod disasm;
mod docs;
mod families;
mod feedback;
mod fuzz_corpus;
mod hlsl;
mod job_rules;
mod listing_jobs;
mod listing_roundtrip;
mod memory;
mod messages;
mod native;
mod npy;
mod outputs;
mod packing;
mod pipelines;
mod profile;
mod profiles;
mod progress;
mod races;
mod robustness;
mod schedules;
mod seed_instructions;
mod subroutines;
mod suites;
mod texture_jobs;
mod watchdog;
mod workloads;

/// Run the `sm5sim` binary with `args` (the tests of the command line).
pub(crate) fn sm5sim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(args)
        .output()
        .expect("run sm5sim")
}

/// What a run printed: stdout, then stderr.
pub(crate) fn output_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
