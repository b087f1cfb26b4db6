//! Entry points of the fuzz targets in `fuzz/` (cargo-fuzz). The same
//! functions run over the saved fuzz corpora in `tests/it/fuzz_corpus.rs`, so CI
//! replays every input the fuzzers kept without needing a nightly toolchain.
//!
//! Each function must return normally for every input: a panic is a bug.

use sim_core::front::decode::decode_program_bytes;
use sim_core::front::disasm::disassemble;
use sim_core::{LoadOptions, Program};

/// Container, RDEF, token decoder, disassembler, survey and validation on
/// arbitrary bytes (checksum not verified, so mutations reach the decoder).
pub fn container_and_decoder(data: &[u8]) {
    let options = LoadOptions {
        verify_checksum: false,
        max_memory: None,
        cancel: None,
    };
    if let Ok((decoded, reflection)) = Program::decode_with_reflection(data, &options) {
        let _ = disassemble(&decoded);
        let _ = Program::survey(&decoded, reflection.clone());
        let _ = Program::from_decoded(decoded, reflection);
    }
    // The token decoder alone, on the raw bytes as a token stream.
    if let Ok(decoded) = decode_program_bytes(data, 0) {
        let _ = disassemble(&decoded);
        let _ = Program::from_decoded(decoded, None);
    }
}

/// The assembler on arbitrary text, and on success the encoder, decoder,
/// disassembler and validation of what it produced.
pub fn assembler(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(decoded) = sim_core::front::asm::assemble(text) {
        if let Ok(words) = sim_core::front::encode::encode_program(&decoded) {
            if let Ok(back) = sim_core::front::decode::decode_program(&words) {
                let listing = disassemble(&back);
                let _ = sim_core::front::asm::assemble(&listing);
            }
        }
        let _ = Program::from_decoded(decoded, None);
    }
}

/// The program the bytes decode to, as a container (checksum not
/// verified) or as a bare token stream, when it loads and is small enough
/// to run as a fuzz input (at most 256 threads a group, no unbound class
/// instance).
fn runnable_program(data: &[u8]) -> Option<Program> {
    let options = LoadOptions {
        verify_checksum: false,
        max_memory: None,
        cancel: None,
    };
    let program = Program::from_file_bytes(data, &options)
        .or_else(|_| decode_program_bytes(data, 0).and_then(|d| Program::from_decoded(d, None)))
        .ok()?;
    (program.threads_per_group() <= 256 && program.unbound_interface_slot().is_none())
        .then_some(program)
}

/// Execute whatever program the bytes decode to (as a container, checksum
/// not verified, or as a bare token stream), with tiny pattern-filled
/// synthetic resources in every declared slot ([`crate::smoke`]), one thread group, under a tight watchdog: the executor
/// must neither panic nor hang on any program that passes validation.
pub fn execute(data: &[u8]) {
    use sim_sched::{dispatch, DispatchOptions};

    let Some(program) = runnable_program(data) else {
        return;
    };
    let resources = crate::smoke::Synthetic::new(
        &program,
        crate::smoke::Fill::Pattern,
        crate::smoke::Size::Tiny,
    );
    let bindings = resources.bindings();
    let options = DispatchOptions {
        threads: 1,
        warp_width: 8,
        max_warp_instructions: 50_000,
        timeout: Some(std::time::Duration::from_millis(500)),
        ..DispatchOptions::default()
    };
    let _ = dispatch(&program, &bindings, [1, 1, 1], &options);
}

/// The differential oracle of the executor's fast paths
/// (`sim-core/src/exec/README.md`) on arbitrary programs: whatever program
/// the bytes decode to (as [`execute`] reads them) runs one thread group
/// on fresh tiny synthetic resources under the reference path
/// (`FastPaths::NONE`), under every path (the compiled tier's regions
/// compiled at their first run), and under all but one path (the
/// one the input's length picks), at a warp width of 1, 8 or the group (by
/// the input's first byte). Where the reference finishes, every variant
/// must finish too, leaving the same UAV words and the same
/// warp-instruction count; a difference panics (a fuzz finding). Runs that
/// the watchdog stops by time are not compared.
///
/// # Panics
/// Where a fast path computes other words or counts than the reference.
pub fn differential(data: &[u8]) {
    use sim_sched::{dispatch, DispatchError, DispatchOptions, FastPaths, WARP_WIDTH_GROUP};

    let Some(program) = runnable_program(data) else {
        return;
    };
    let warp_width = match data.first().map_or(0, |b| b % 3) {
        0 => 1,
        1 => 8,
        _ => WARP_WIDTH_GROUP,
    };
    let run = |paths: FastPaths| {
        let resources = crate::smoke::Synthetic::new(
            &program,
            crate::smoke::Fill::Pattern,
            crate::smoke::Size::Tiny,
        );
        let options = DispatchOptions {
            threads: 1,
            warp_width,
            max_warp_instructions: 50_000,
            timeout: Some(std::time::Duration::from_millis(500)),
            fast_paths: paths,
            // the compiled tier's regions compiled at their first run
            compile_after: Some(0),
            ..DispatchOptions::default()
        };
        let r = dispatch(&program, &resources.bindings(), [1, 1, 1], &options);
        (r, resources.uav_words())
    };
    let timed_out = |r: &Result<sim_sched::DispatchStats, DispatchError>| {
        matches!(r, Err(DispatchError::Runaway(e))
            if matches!(e.reason, sim_core::exec::StopReason::Timeout(_)))
    };
    let (reference, words) = run(FastPaths::NONE);
    let Ok(reference) = reference else {
        return;
    };
    let (one, name) = FastPaths::EACH[data.len() % FastPaths::EACH.len()];
    for (paths, what) in [
        (FastPaths::ALL, "all paths"),
        (FastPaths::ALL.without(one), name),
    ] {
        let (got, got_words) = run(paths);
        if timed_out(&got) {
            continue;
        }
        match got {
            Ok(stats) => {
                assert_eq!(
                    stats.warp_instructions, reference.warp_instructions,
                    "{what} (warp width {warp_width}): warp-instructions differ from the reference"
                );
                assert!(
                    got_words == words,
                    "{what} (warp width {warp_width}): UAV words differ from the reference"
                );
            }
            Err(e) => panic!("{what} (warp width {warp_width}): {e}, where the reference finished"),
        }
    }
}

/// The job-file parser and loader on arbitrary text (shaders resolved
/// against the examples directory).
pub fn job_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The target is the parser and its checks: skip jobs whose numbers would
    // make resources of megabytes (they are valid, only slow to fill).
    fn small(v: &toml::Value) -> bool {
        match v {
            toml::Value::Integer(i) => i.unsigned_abs() <= 1 << 16,
            toml::Value::Array(a) => a.len() <= 1 << 16 && a.iter().all(small),
            toml::Value::Table(t) => t.values().all(small),
            _ => true,
        }
    }
    if toml::from_str::<toml::Value>(text).is_ok_and(|v| !small(&v)) {
        return;
    }
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/histogram");
    let _ = crate::job::Job::from_toml(
        text,
        &base.join("fuzz.toml"),
        &base,
        &LoadOptions::default(),
    );
}
