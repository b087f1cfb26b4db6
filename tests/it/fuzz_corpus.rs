//! Replays every input kept by the fuzzers (`fuzz/corpus/<target>/`) through
//! the same entry points the fuzz targets call: a regression test for the
//! fuzzers' findings that runs on stable Rust.

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        run(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn container_decoder_corpus_replays_without_panic() {
    let n = replay("container_decoder", sm5sim::fuzzing::container_and_decoder);
    assert!(
        n >= 8,
        "the corpus holds at least the eight workload seeds ({n})"
    );
}

#[test]
fn assembler_corpus_replays_without_panic() {
    let n = replay("assembler", sm5sim::fuzzing::assembler);
    assert!(
        n >= 8,
        "the corpus holds at least the eight workload listings ({n})"
    );
}

#[test]
fn execute_corpus_replays_without_panic() {
    let n = replay("execute", sm5sim::fuzzing::execute);
    assert!(n >= 8, "{n}");
}

/// The differential target (`fuzz/fuzz_targets/differential.rs`) replays
/// the execute corpus: every program there gives the reference path's
/// words and counts under the fast paths.
#[test]
fn execute_corpus_runs_alike_under_every_fast_path() {
    let n = replay("execute", sm5sim::fuzzing::differential);
    assert!(n >= 8, "{n}");
}

#[test]
fn job_file_corpus_replays_without_panic() {
    let n = replay("job_file", sm5sim::fuzzing::job_file);
    assert!(n >= 8, "{n}");
}
