//! Opcode coverage of the conformance suite: every opcode-table row that a
//! compute shader may contain, that is not a declaration, must appear in the
//! shader of at least one job under `tests/conformance/` — unless it is in
//! [`EXCEPTIONS`], each with its reason. Texture instructions must also be
//! covered on every view dimension they allow, and sampling instructions with
//! every address mode (issue 5's matrix).
//!
//! The rows come from `OPCODE_TABLE`; the covered set is decoded from the jobs'
//! shaders (a `.dxbc` container or an fxc `.asm` listing), so there is no
//! hand-maintained list of covered opcodes.

use sm5sim::sim_core::ir::OperandType;
use sm5sim::sim_core::isa::opcodes::{Class, Opcode, OPCODE_TABLE};
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::ViewDimension;
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

/// The shader files of a job: its top-level `shader`, or each of
/// `[shaders.NAME]`'s.
fn shaders_of(job: &Path, table: &toml::Table) -> Vec<std::path::PathBuf> {
    let dir = job.parent().unwrap();
    if let Some(s) = table.get("shader").and_then(|v| v.as_str()) {
        return vec![dir.join(s)];
    }
    let shaders: Vec<_> = (table.get("shaders").and_then(|v| v.as_table()))
        .into_iter()
        .flatten()
        .filter_map(|(_, s)| s.get("shader").and_then(|v| v.as_str()))
        .map(|s| dir.join(s))
        .collect();
    assert!(!shaders.is_empty(), "{} has no shader", job.display());
    shaders
}

/// The opcodes used by the shaders of one job file.
fn opcodes_of_job(job: &Path) -> BTreeSet<u16> {
    let text = std::fs::read_to_string(job).unwrap();
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", job.display()));
    let mut out = BTreeSet::new();
    for path in shaders_of(job, &table) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (decoded, _) = Program::decode_file_bytes(&bytes, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.extend(decoded.instructions.iter().map(|ins| ins.opcode as u16));
    }
    out
}

/// Whether a row must be covered by a job (before exceptions).
fn required(op: Opcode) -> bool {
    let row = op.info();
    // Declarations include the custom-data block (class Decl); fcall keeps
    // its row although its operand layout is irregular (shape Decl).
    row.compute && row.class != Class::Decl
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
        "conformance opcode coverage: {}/{} compute, non-declaration rows ({} more excepted)",
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

/// The view dimension declared for each t#/u# of a decoded shader.
fn declared_dimensions(
    decoded: &sm5sim::sim_core::ir::DecodedProgram,
) -> Vec<((OperandType, u32), ViewDimension)> {
    let p = Program::from_decoded(decoded.clone(), None).unwrap();
    let mut out = Vec::new();
    for d in &p.srv_textures {
        out.push(((OperandType::Resource, d.slot), d.dimension));
    }
    for d in &p.uav_textures {
        out.push(((OperandType::UnorderedAccessView, d.slot), d.dimension));
    }
    out
}

/// The address modes of the job's samplers (`address`, `address_u/v/w`).
fn address_modes_of_job(job: &Path) -> BTreeSet<String> {
    let table: toml::Table = std::fs::read_to_string(job).unwrap().parse().unwrap();
    let mut out = BTreeSet::new();
    if let Some(samplers) = table.get("samplers").and_then(|v| v.as_table()) {
        for s in samplers.values() {
            for key in ["address", "address_u", "address_v", "address_w"] {
                if let Some(m) = s.get(key).and_then(|v| v.as_str()) {
                    out.insert(m.to_ascii_uppercase());
                }
            }
            if s.get("address").is_none() && s.get("address_u").is_none() {
                out.insert("CLAMP".into()); // D3D11's default
            }
        }
    }
    out
}

/// (opcode, view dimension, address mode) triples the jobs exercise; the
/// address mode is "-" for instructions without a sampler.
fn texture_coverage() -> BTreeSet<(u16, ViewDimension, String)> {
    let mut covered = BTreeSet::new();
    for job in job_files() {
        let text = std::fs::read_to_string(&job).unwrap();
        let table: toml::Table = text.parse().unwrap();
        // (the texture jobs have one shader; jobs of several do not sample)
        let Some(shader) = shaders_of(&job, &table).into_iter().next() else {
            continue;
        };
        let bytes = std::fs::read(&shader).unwrap();
        let (decoded, _) = Program::decode_file_bytes(&bytes, &LoadOptions::default()).unwrap();
        let dims = declared_dimensions(&decoded);
        let modes = address_modes_of_job(&job);
        for ins in &decoded.instructions {
            let info = ins.opcode.info();
            if !info.compute || info.class == Class::Decl {
                continue;
            }
            let sampled = ins.operands.iter().any(|o| o.ty == OperandType::Sampler);
            for o in &ins.operands {
                let reg = if decoded.version.is_sm51() {
                    o.indices.get(1).map(|i| i.imm as u32)
                } else {
                    o.reg()
                };
                let Some(reg) = reg else { continue };
                let Some((_, dim)) = dims.iter().find(|(k, _)| *k == (o.ty, reg)) else {
                    continue;
                };
                if sampled {
                    for m in &modes {
                        covered.insert((ins.opcode as u16, *dim, m.clone()));
                    }
                } else {
                    covered.insert((ins.opcode as u16, *dim, "-".to_string()));
                }
            }
        }
    }
    covered
}

#[test]
fn every_texture_instruction_dimension_and_address_mode_has_a_job() {
    use ViewDimension::*;
    const MODES: [&str; 5] = ["WRAP", "MIRROR", "CLAMP", "BORDER", "MIRROR_ONCE"];
    let all_sampled = [
        Texture1D,
        Texture1DArray,
        Texture2D,
        Texture2DArray,
        Texture3D,
        TextureCube,
        TextureCubeArray,
    ];
    let uav_dims = [
        Texture1D,
        Texture1DArray,
        Texture2D,
        Texture2DArray,
        Texture3D,
    ];
    // (instruction, dimensions it allows in a compute shader, sampled?)
    let matrix: Vec<(Opcode, Vec<ViewDimension>, bool)> = vec![
        (Opcode::SampleL, all_sampled.to_vec(), true),
        (Opcode::SampleD, all_sampled.to_vec(), true),
        (
            Opcode::SampleCLz,
            vec![
                Texture1D,
                Texture1DArray,
                Texture2D,
                Texture2DArray,
                TextureCube,
                TextureCubeArray,
            ],
            true,
        ),
        (
            Opcode::Gather4,
            vec![Texture2D, Texture2DArray, TextureCube, TextureCubeArray],
            true,
        ),
        (
            Opcode::Gather4C,
            vec![Texture2D, Texture2DArray, TextureCube, TextureCubeArray],
            true,
        ),
        (Opcode::Gather4Po, vec![Texture2D, Texture2DArray], true),
        (Opcode::Gather4PoC, vec![Texture2D, Texture2DArray], true),
        (Opcode::Ld, uav_dims.to_vec(), false),
        (Opcode::LdMs, vec![Texture2DMS, Texture2DMSArray], false),
        (Opcode::LdUavTyped, uav_dims.to_vec(), false),
        (Opcode::StoreUavTyped, uav_dims.to_vec(), false),
        (Opcode::Resinfo, ViewDimension::ALL.to_vec(), false),
        (Opcode::SampleInfo, vec![Texture2DMS], false),
        (Opcode::SamplePos, vec![Texture2DMS], false),
    ];
    let covered = texture_coverage();
    let mut missing = Vec::new();
    let mut total = 0;
    for (op, dims, sampled) in &matrix {
        for d in dims {
            let modes: Vec<&str> = if *sampled && !d.is_cube() {
                MODES.to_vec()
            } else if *sampled {
                // cubes ignore the address mode (FS 7.18.7): any one will do
                vec![""]
            } else {
                vec!["-"]
            };
            for m in modes {
                total += 1;
                let hit = covered
                    .iter()
                    .any(|(o, cd, cm)| *o == *op as u16 && cd == d && (m.is_empty() || cm == m));
                if !hit {
                    missing.push(format!("{} {} {m}", op.mnemonic(), d.name()));
                }
            }
        }
    }
    println!(
        "texture coverage: {}/{total} instruction x dimension x address-mode cells",
        total - missing.len()
    );
    assert!(
        missing.is_empty(),
        "texture cells without a conformance job:\n{}",
        missing.join("\n")
    );
}
