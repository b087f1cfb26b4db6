//! Token encoder: [`DecodedProgram`] → SHEX/SHDR dwords, the exact inverse of
//! [`crate::front::decode::decode_program`].
//!
//! Layouts: `reference/dxbc-format.md` §2 (version and length tokens), §3
//! (opcode token, length field and the length-0 rule, extended opcode tokens
//! §3.2, custom-data blocks §3.3), §5 (operand token §5.1, index
//! representations §5.3, immediates §5.4, extended operand token §5.5).
//!
//! The encoder trusts `Instruction::token` for the opcode-specific control
//! bits \[23:11\] only; it recomputes the opcode number \[10:0\] from
//! `Instruction::opcode`, the length \[30:24\] and the extended bit \[31\]. A
//! token whose length field is 0 keeps the length-0 rule (so a decoded
//! program that used it re-encodes bit-exactly); otherwise the rule is used
//! only when the instruction is longer than 127 dwords.
//!
//! Every SHEX chunk of the workloads and the corpus re-encodes bit-exactly.
//! Encodings that the decoder normalises away, and that fxc does not write,
//! come back in canonical form: a relative index with immediate 0 is
//! written as representation 2 (fxc never writes representation 3 with 0),
//! a 64-bit index that fits 32 bits as representation 0/3, extended tokens
//! that carry nothing (type 0, or a modifier token with no modifier) are
//! dropped, unused operand-token bits are zero, and extended opcode tokens
//! go in the order 1, 2, 3.

use crate::front::container::ChecksumKind;
use crate::ir::{
    Components, DecodedProgram, ExtendedOpcode, Index, Instruction, Modifier, Operand, OperandType,
    ProgramType, Selection, ShaderVersion,
};
use crate::isa::opcodes::Shape;

/// Why a program could not be encoded: a value does not fit its token field
/// (`reference/dxbc-format.md` §3, §5). `instruction` is the index of the
/// offending instruction in [`DecodedProgram::instructions`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("instruction {instruction} ({mnemonic}): {what}")]
pub struct EncodeError {
    /// Index of the instruction in the program.
    pub instruction: usize,
    /// Its base mnemonic.
    pub mnemonic: &'static str,
    /// What cannot be encoded.
    pub what: String,
}

/// Maximum value of the 7-bit length field of OpcodeToken0 (§3).
const MAX_SHORT_LENGTH: usize = 127;

/// Encode a whole program: version token, length token, then every
/// instruction in order (`reference/dxbc-format.md` §2, §3, §5).
///
/// # Errors
/// [`EncodeError`] when a field does not fit its bits (index dimension > 3,
/// a swizzle component > 3, an immediate operand with the wrong number of
/// values, a sample offset outside −8..7, …) or the program exceeds 2³² dwords.
pub fn encode_program(p: &DecodedProgram) -> Result<Vec<u32>, EncodeError> {
    let v = p.version;
    let mut out = vec![version_token(v), 0];
    for (i, ins) in p.instructions.iter().enumerate() {
        let words = encode_instruction(ins).map_err(|what| EncodeError {
            instruction: i,
            mnemonic: ins.opcode.mnemonic(),
            what,
        })?;
        out.extend_from_slice(&words);
    }
    out[1] = u32::try_from(out.len()).map_err(|_| EncodeError {
        instruction: p.instructions.len().saturating_sub(1),
        mnemonic: "program",
        what: "the program is longer than 2^32 dwords".into(),
    })?;
    Ok(out)
}

/// The version token (§2): bits 3:0 minor, 7:4 major, 31:16 program type.
pub fn version_token(v: ShaderVersion) -> u32 {
    let ty = match v.program_type {
        ProgramType::Pixel => 0,
        ProgramType::Vertex => 1,
        ProgramType::Geometry => 2,
        ProgramType::Hull => 3,
        ProgramType::Domain => 4,
        ProgramType::Compute => 5,
    };
    ty << 16 | (u32::from(v.major) & 0xf) << 4 | (u32::from(v.minor) & 0xf)
}

/// Encode one instruction or declaration, with its opcode token first
/// (`reference/dxbc-format.md` §3). The first returned word is the complete
/// OpcodeToken0 (length and extended bit filled in); the error is a message.
///
/// # Errors
/// A description of the field that does not fit.
pub fn encode_instruction(ins: &Instruction) -> Result<Vec<u32>, String> {
    let number = ins.opcode as u32;
    let info = ins.opcode.info();
    match info.shape {
        Shape::Reserved => return Err("reserved opcodes cannot be encoded".into()),
        Shape::CustomData => {
            // §3.3: class in [31:11], dword 1 = total length.
            let len = u32::try_from(ins.raw.len() + 2)
                .map_err(|_| "custom-data block longer than 2^32 dwords".to_string())?;
            let mut out = Vec::with_capacity(ins.raw.len() + 2);
            out.push((ins.token & !0x7ff) | number);
            out.push(len);
            out.extend_from_slice(&ins.raw);
            return Ok(out);
        }
        _ => {}
    }

    let ext = extended_opcode_tokens(&ins.extended)?;
    let mut body = Vec::new();
    if info.shape == Shape::CallSite {
        // fcall: the call-site dword comes before the interface operand.
        body.extend_from_slice(&ins.raw);
    }
    for op in &ins.operands {
        encode_operand(op, &mut body)?;
    }
    if info.shape != Shape::CallSite {
        body.extend_from_slice(&ins.raw);
    }

    let short_len = 1 + ext.len() + body.len();
    let keep_len0 = (ins.token >> 24) & 0x7f == 0;
    let long = short_len > MAX_SHORT_LENGTH || keep_len0;
    let total = short_len + usize::from(long);
    let mut token = (ins.token & 0x00ff_f800) | number;
    if !ext.is_empty() {
        token |= 0x8000_0000;
    }
    let mut out = Vec::with_capacity(total);
    if long {
        out.push(token);
        out.push(
            u32::try_from(total).map_err(|_| "instruction longer than 2^32 dwords".to_string())?,
        );
    } else {
        out.push(token | (total as u32) << 24);
    }
    out.extend_from_slice(&ext);
    out.extend_from_slice(&body);
    Ok(out)
}

/// Extended opcode tokens (§3.2) in the order fxc writes them — type 1
/// (SAMPLE_CONTROLS), 2 (RESOURCE_DIM), 3 (RESOURCE_RETURN_TYPE) — chained
/// through bit 31.
fn extended_opcode_tokens(e: &ExtendedOpcode) -> Result<Vec<u32>, String> {
    let mut v = Vec::new();
    if let Some(offsets) = e.sample_offsets {
        let mut t = 1u32;
        for (k, &o) in offsets.iter().enumerate() {
            if !(-8..=7).contains(&o) {
                return Err(format!("sample offset {o} is outside -8..7"));
            }
            t |= ((o as u32) & 0xf) << (9 + 4 * k);
        }
        v.push(t);
    }
    if let Some((dim, stride)) = e.resource_dim {
        if dim > 0x1f {
            return Err(format!("resource dimension {dim} does not fit 5 bits"));
        }
        if stride > 0xfff {
            return Err(format!("structure stride {stride} does not fit 12 bits"));
        }
        v.push(2 | dim << 6 | stride << 11);
    }
    if let Some(types) = e.return_types {
        let mut t = 3u32;
        for (k, &r) in types.iter().enumerate() {
            if r > 0xf {
                return Err(format!("return type {r} does not fit 4 bits"));
            }
            t |= u32::from(r) << (6 + 4 * k);
        }
        v.push(t);
    }
    let n = v.len();
    for t in v.iter_mut().take(n.saturating_sub(1)) {
        *t |= 0x8000_0000;
    }
    Ok(v)
}

/// The operand-type number of [`OperandType`] (§5.2); the enum is declared
/// in table order.
fn operand_type_number(ty: OperandType) -> u32 {
    ty as u32
}

/// Encode one operand (`reference/dxbc-format.md` §5.1–§5.5) and append it
/// to `out`: the operand token, its extended operand token when a modifier,
/// minimum precision or the non-uniform flag is set, the immediate values,
/// then each index (immediate dwords and nested relative operands).
///
/// # Errors
/// A description of the field that does not fit.
pub fn encode_operand(op: &Operand, out: &mut Vec<u32>) -> Result<(), String> {
    encode_operand_at(op, out, 0)
}

fn encode_operand_at(op: &Operand, out: &mut Vec<u32>, depth: u32) -> Result<(), String> {
    if depth > 4 {
        return Err("relative indices nest too deeply".into());
    }
    let mut token = match op.components {
        Components::Zero => 0,
        Components::One => 1,
        Components::Four(sel) => {
            2 | match sel {
                Selection::Mask(m) => {
                    if m > 0xf {
                        return Err(format!("write mask {m:#x} does not fit 4 bits"));
                    }
                    u32::from(m) << 4
                }
                Selection::Swizzle(s) => {
                    let mut t = 1 << 2;
                    for (k, &c) in s.iter().enumerate() {
                        if c > 3 {
                            return Err(format!("swizzle component {c} is not 0..3"));
                        }
                        t |= u32::from(c) << (4 + 2 * k);
                    }
                    t
                }
                Selection::Select1(c) => {
                    if c > 3 {
                        return Err(format!("selected component {c} is not 0..3"));
                    }
                    2 << 2 | u32::from(c) << 4
                }
            }
        }
    };
    token |= operand_type_number(op.ty) << 12;
    if op.indices.len() > 3 {
        return Err(format!(
            "{} indices (at most 3 are encodable)",
            op.indices.len()
        ));
    }
    token |= (op.indices.len() as u32) << 20;
    for (d, index) in op.indices.iter().enumerate() {
        token |= index_representation(index) << (22 + 3 * d);
    }
    let ext = op.modifier != Modifier::None || op.min_precision != 0 || op.non_uniform;
    if ext {
        token |= 0x8000_0000;
    }
    out.push(token);
    if ext {
        if op.min_precision > 7 {
            return Err(format!(
                "minimum precision {} does not fit 3 bits",
                op.min_precision
            ));
        }
        let modifier = match op.modifier {
            Modifier::None => 0,
            Modifier::Neg => 1,
            Modifier::Abs => 2,
            Modifier::AbsNeg => 3,
        };
        out.push(
            1 | modifier << 6 | u32::from(op.min_precision) << 14 | u32::from(op.non_uniform) << 17,
        );
    }
    match op.ty {
        OperandType::Immediate32 | OperandType::Immediate64 => {
            let wide = op.ty == OperandType::Immediate64;
            let want = match (op.components, wide) {
                (Components::One, false) => 1,
                (Components::One, true) => 2,
                (Components::Four(_), _) => 4,
                (Components::Zero, _) => return Err("an immediate needs components".into()),
            };
            if op.imm.len() != want {
                return Err(format!(
                    "immediate operand has {} values, its component count needs {want}",
                    op.imm.len()
                ));
            }
            out.extend_from_slice(&op.imm);
        }
        _ => {
            if !op.imm.is_empty() {
                return Err(format!(
                    "a {} operand carries immediate values",
                    op.ty.name()
                ));
            }
        }
    }
    for index in &op.indices {
        let repr = index_representation(index);
        match repr {
            0 => out.push(index.imm as u32),
            2 => {}
            3 => out.push(index.imm as u32),
            _ => {
                out.push((index.imm >> 32) as u32);
                out.push(index.imm as u32);
            }
        }
        if let Some(rel) = &index.rel {
            encode_operand_at(rel, out, depth + 1)?;
        }
    }
    Ok(())
}

/// The index representation (§5.3) for an [`Index`]: immediate only → 0
/// (1 when the value needs 64 bits); relative → 2 (relative only) when the
/// immediate is 0, 3 with a nonzero 32-bit immediate, 4 with a 64-bit one.
/// fxc writes `[r1.x + 0]` as repr 2 and never repr 3 with 0: every
/// relative index of the corpus follows this rule.
fn index_representation(index: &Index) -> u32 {
    let wide = index.imm > u64::from(u32::MAX);
    match (&index.rel, wide) {
        (None, false) => 0,
        (None, true) => 1,
        (Some(_), true) => 4,
        (Some(_), false) => {
            if index.imm == 0 {
                2
            } else {
                3
            }
        }
    }
}

/// Wrap a token stream in a DXBC container (`reference/dxbc-format.md` §1):
/// the header, then the chunks `RDEF` (when `rdef` is given), `ISGN` and
/// `OSGN` (empty signatures: count 0, offset 8 — 8 bytes, as fxc writes them
/// for compute shaders, §1.2) and `SHEX` holding `shex`; finally fxc's
/// checksum (§1.1) via [`crate::front::container::update_checksum`].
///
/// Chunk data is padded with zero bytes to a multiple of 4 (the chunk size
/// field keeps the unpadded length). Sizes are 32-bit fields: inputs of
/// 4 GiB or more cannot be represented and are truncated in the header.
pub fn write_container(shex: &[u32], rdef: Option<&[u8]>) -> Vec<u8> {
    write_container_with_features(shex, rdef, 0)
}

/// [`write_container`] with an `SFI0` chunk after SHEX holding `features`
/// (fxc's required-features mask, [`crate::front::features`]) when it is not 0,
/// as fxc places it.
pub fn write_container_with_features(shex: &[u32], rdef: Option<&[u8]>, features: u64) -> Vec<u8> {
    write_container_as(shex, rdef, features, None, ChecksumKind::Retail)
}

/// [`write_container_with_features`] with a `STAT` chunk after SFI0 when
/// `stat` is given (fxc's statistics, [`crate::front::stat::stat_chunk`]), stamped
/// with the `checksum` variant: fxc stamps [`ChecksumKind::Debug`] on
/// shaders with `printf`/`errorf` (`reference/dxbc-format.md` §1.1.1;
/// [`ChecksumKind::for_program`]).
pub fn write_container_as(
    shex: &[u32],
    rdef: Option<&[u8]>,
    features: u64,
    stat: Option<&[u8]>,
    checksum: ChecksumKind,
) -> Vec<u8> {
    let shex_bytes: Vec<u8> = shex.iter().flat_map(|w| w.to_le_bytes()).collect();
    let sfi0 = features.to_le_bytes();
    let empty_signature = [0u8, 0, 0, 0, 8, 0, 0, 0];
    let mut chunks: Vec<(&[u8; 4], &[u8])> = Vec::new();
    if let Some(r) = rdef {
        chunks.push((b"RDEF", r));
    }
    chunks.push((b"ISGN", &empty_signature));
    chunks.push((b"OSGN", &empty_signature));
    chunks.push((b"SHEX", &shex_bytes));
    if features != 0 {
        chunks.push((b"SFI0", &sfi0));
    }
    if let Some(stat) = stat {
        chunks.push((b"STAT", stat));
    }

    let header = crate::front::container::HEADER_SIZE + 4 * chunks.len();
    let mut out = Vec::with_capacity(header + chunks.iter().map(|c| c.1.len() + 12).sum::<usize>());
    out.extend_from_slice(&crate::front::container::DXBC_MAGIC.to_le_bytes());
    out.extend_from_slice(&[0u8; 16]); // checksum, filled in below
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // total size, filled in below
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let table = out.len();
    out.resize(header, 0);
    for (k, (fourcc, data)) in chunks.iter().enumerate() {
        let at = out.len() as u32;
        out[table + 4 * k..table + 4 * k + 4].copy_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&fourcc[..]);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    let total = out.len() as u32;
    out[24..28].copy_from_slice(&total.to_le_bytes());
    // The file is longer than 20 bytes, so this cannot fail.
    let _ = crate::front::container::update_checksum_as(&mut out, checksum);
    out
}
