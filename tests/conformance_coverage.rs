//! Opcode coverage of the conformance suite: every opcode-table row that a
//! compute shader may contain, that is not a texture/sampler instruction nor a
//! declaration, must appear in the shader of at least one job under
//! `tests/conformance/` — unless it is in [`EXCEPTIONS`], each with its reason.
//!
//! The rows come from `OPCODE_TABLE`; the covered set is decoded from the jobs'
//! shaders (a `.dxbc` container or an fxc `.asm` listing), so there is no
//! hand-maintained list of covered opcodes.

use sm5sim::sim_core::opcodes::{Class, Opcode, OPCODE_TABLE};
use sm5sim::sim_core::{LoadOptions, Program};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Rows that are legal in a compute shader but need no conformance job.
const EXCEPTIONS: &[(Opcode, &str)] = &[
    // (none: every such row has a job)
];

fn job_files() -> Vec<PathBuf> {
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

/// The opcodes used by the shader of one job file.
fn opcodes_of_job(job: &Path) -> BTreeSet<u16> {
    let text = std::fs::read_to_string(job).unwrap();
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", job.display()));
    let shader = table
        .get("shader")
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("{} has no shader", job.display()));
    let path = job.parent().unwrap().join(shader);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (decoded, _) = Program::decode_file_bytes(&bytes, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    decoded
        .instructions
        .iter()
        .map(|ins| ins.opcode as u16)
        .collect()
}

/// Whether a row must be covered by a job (before exceptions).
fn required(op: Opcode) -> bool {
    let row = op.info();
    // Declarations include the custom-data block (class Decl); fcall keeps
    // its row although its operand layout is irregular (shape Decl).
    row.compute && row.class != Class::Texture && row.class != Class::Decl
}

#[test]
fn every_compute_opcode_has_a_conformance_job() {
    let mut covered = BTreeSet::new();
    for job in job_files() {
        covered.extend(opcodes_of_job(&job));
    }
    for (op, why) in EXCEPTIONS {
        assert!(
            required(*op),
            "exception {} ({why}) is not a row that needs a job",
            op.mnemonic()
        );
        assert!(
            !covered.contains(&(*op as u16)),
            "exception {} ({why}) is covered by a job; drop it from EXCEPTIONS",
            op.mnemonic()
        );
    }
    let rows: Vec<Opcode> = OPCODE_TABLE
        .iter()
        .map(|r| r.opcode)
        .filter(|&op| required(op) && !EXCEPTIONS.iter().any(|(e, _)| *e == op))
        .collect();
    let missing: Vec<&str> = rows
        .iter()
        .filter(|&&op| !covered.contains(&(op as u16)))
        .map(|op| op.mnemonic())
        .collect();
    println!(
        "conformance opcode coverage: {}/{} compute, non-texture, non-declaration rows ({} more excepted)",
        rows.len() - missing.len(),
        rows.len(),
        EXCEPTIONS.len()
    );
    assert!(
        missing.is_empty(),
        "opcode rows without a conformance job: {}",
        missing.join(", ")
    );
}
