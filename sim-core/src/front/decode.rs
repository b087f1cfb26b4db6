//! Token decoder: SHEX/SHDR dwords → [`DecodedProgram`].
//!
//! Layouts: `reference/dxbc-format.md` §2 (header), §3 (opcode tokens and
//! extended opcode tokens, the length-0 rule, custom data), §5 (operands,
//! indices, immediates, extended operand tokens). Every read is bounds
//! checked; malformed input yields [`LoadError::Decode`] with the dword offset.

use crate::front::error::{DecodeErrorKind, LoadError};
use crate::ir::{
    Components, DecodedProgram, ExtendedOpcode, Index, Instruction, Modifier, Operand, OperandType,
    ProgramType, Selection, ShaderVersion,
};
use crate::isa::opcodes::{Opcode, Shape};

/// Relative indices nest at most one level in valid code (FS §7.3); we accept
/// a few more and refuse deeper nesting rather than recurse without bound.
const MAX_OPERAND_NESTING: u32 = 4;

/// Decode a token stream given as little-endian bytes (the SHEX/SHDR payload).
///
/// `file_byte` is the byte offset of the payload in its file, used only in
/// error messages. Trailing bytes after the program length are ignored.
pub fn decode_program_bytes(bytes: &[u8], file_byte: usize) -> Result<DecodedProgram, LoadError> {
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    decode_program(&words).map_err(|e| match e {
        LoadError::Decode { token, kind, .. } => LoadError::Decode {
            token,
            file_byte: file_byte + token as usize * 4,
            kind,
        },
        other => other,
    })
}

/// Decode a token stream given as dwords.
pub fn decode_program(words: &[u32]) -> Result<DecodedProgram, LoadError> {
    let err = |token: usize, kind| LoadError::Decode {
        token: token as u32,
        file_byte: 0,
        kind,
    };
    if words.len() < 2 {
        return Err(err(
            0,
            DecodeErrorKind::Truncated("missing version and length tokens"),
        ));
    }
    let vt = words[0];
    let program_type =
        ProgramType::from_raw(vt >> 16).ok_or(err(0, DecodeErrorKind::BadVersion(vt)))?;
    let version = ShaderVersion {
        program_type,
        major: ((vt >> 4) & 0xf) as u8,
        minor: (vt & 0xf) as u8,
    };
    let declared = words[1];
    if declared < 2 || declared as usize > words.len() {
        return Err(err(
            1,
            DecodeErrorKind::BadLength {
                declared,
                available: words.len() as u32,
            },
        ));
    }
    let words = &words[..declared as usize];
    let mut instructions = Vec::new();
    let mut pos = 2usize;
    while pos < words.len() {
        let ins = decode_instruction(words, pos).map_err(|(at, kind)| err(at, kind))?;
        pos = ins.1;
        instructions.push(ins.0);
    }
    Ok(DecodedProgram {
        version,
        instructions,
    })
}

type DecodeResult<T> = Result<T, (usize, DecodeErrorKind)>;

/// The operands of the shader message (`printf`/`errorf`) in the
/// custom-data block `words[start..end]`, whose layout fxc writes as: the
/// two header dwords, the message ID, the format kind, the format string's
/// length in bytes, the operand count, the operands' length in dwords, the
/// operands (as an instruction's), then the NUL-terminated format string
/// padded to a dword (`reference/dxbc-format.md` §3.3, checked on fxc's
/// output). The string's place and length are checked too
/// ([`crate::ir::Instruction::shader_message`] reads it).
fn message_operands(words: &[u32], start: usize, end: usize) -> DecodeResult<Vec<Operand>> {
    let bad = |what| (start, DecodeErrorKind::BadMessage(what));
    // (after the custom-data block's two header dwords)
    let ops = start + 2 + crate::ir::SHADER_MESSAGE_HEADER;
    let header = words
        .get(start + 2..ops)
        .ok_or(bad("a header of 5 dwords"))?;
    let (bytes, count, op_words) = (header[2] as usize, header[3], header[4] as usize);
    let ops_end = ops.checked_add(op_words).filter(|&e| e <= end);
    let ops_end = ops_end.ok_or(bad("operands past the block"))?;
    if (end - ops_end) * 4 != (bytes + 1).next_multiple_of(4) {
        return Err(bad("the format string's length disagrees with the block's"));
    }
    let mut cur = Cursor {
        words,
        pos: ops,
        end: ops_end,
    };
    let mut operands = Vec::new();
    for _ in 0..count {
        operands.push(decode_operand(&mut cur, 0)?);
    }
    if cur.pos != ops_end {
        return Err(bad("the operands' length disagrees with their count"));
    }
    Ok(operands)
}

/// A cursor over one instruction's dwords.
struct Cursor<'a> {
    words: &'a [u32],
    pos: usize,
    end: usize,
}

impl Cursor<'_> {
    fn next(&mut self, what: &'static str) -> DecodeResult<u32> {
        if self.pos >= self.end {
            return Err((self.pos, DecodeErrorKind::Truncated(what)));
        }
        let w = self.words[self.pos];
        self.pos += 1;
        Ok(w)
    }
}

fn decode_instruction(words: &[u32], start: usize) -> DecodeResult<(Instruction, usize)> {
    let token = words[start];
    let number = token & 0x7ff;
    let opcode =
        Opcode::from_number(number).ok_or((start, DecodeErrorKind::UnknownOpcode(number)))?;
    let info = opcode.info();
    let remaining = (words.len() - start) as u32;
    let mut ins = Instruction {
        offset: start as u32,
        opcode,
        token,
        extended: ExtendedOpcode::default(),
        operands: Vec::new(),
        raw: Vec::new(),
    };

    if info.shape == Shape::CustomData {
        // Dword 1 holds the block length, counting both header dwords (§3.3).
        let len = *words
            .get(start + 1)
            .ok_or((start, DecodeErrorKind::Truncated("custom-data length")))?;
        if len < 2 || len > remaining {
            return Err((
                start,
                DecodeErrorKind::BadInstructionLength { len, remaining },
            ));
        }
        let end = start + len as usize;
        ins.raw = words[start + 2..end].to_vec();
        if token >> 11 == crate::ir::CUSTOMDATA_SHADER_MESSAGE {
            ins.operands = message_operands(words, start, end)?;
        }
        return Ok((ins, end));
    }
    if info.shape == Shape::Reserved {
        return Err((start, DecodeErrorKind::UnknownOpcode(number)));
    }

    let mut len = (token >> 24) & 0x7f;
    let mut body = start + 1;
    if len == 0 {
        // The length-0 rule: the next dword holds the real length.
        len = *words.get(start + 1).ok_or((
            start,
            DecodeErrorKind::Truncated("instruction length dword"),
        ))?;
        body += 1;
    }
    if len == 0 || len > remaining || (body - start) as u32 > len {
        return Err((
            start,
            DecodeErrorKind::BadInstructionLength { len, remaining },
        ));
    }
    let end = start + len as usize;
    let mut cur = Cursor {
        words,
        pos: body,
        end,
    };

    // Extended opcode tokens (§3.2).
    let mut extended = token & 0x8000_0000 != 0;
    while extended {
        let e = cur.next("extended opcode token")?;
        extended = e & 0x8000_0000 != 0;
        match e & 0x3f {
            1 => {
                let f = |shift: u32| (((e >> shift) & 0xf) as i8) << 4 >> 4;
                ins.extended.sample_offsets = Some([f(9), f(13), f(17)]);
            }
            2 => ins.extended.resource_dim = Some(((e >> 6) & 0x1f, (e >> 11) & 0xfff)),
            3 => {
                let f = |i: u32| ((e >> (6 + 4 * i)) & 0xf) as u8;
                ins.extended.return_types = Some([f(0), f(1), f(2), f(3)]);
            }
            _ => {}
        }
    }

    if info.shape == Shape::CallSite {
        ins.raw = vec![cur.next("fcall call-site index")?];
        ins.operands.push(decode_operand(&mut cur, 0)?);
        if cur.pos != end {
            return Err((
                start,
                DecodeErrorKind::OperandCount {
                    mnemonic: info.mnemonic,
                    expected: 1,
                    found: 2,
                },
            ));
        }
        return Ok((ins, end));
    }
    let (operand_count, raw_rest) = match info.shape {
        Shape::Ops { dsts, srcs } => (None, Some((dsts + srcs) as usize)),
        Shape::Decl { ops } => (Some(ops as usize), None),
        _ => (Some(0), None),
    };
    match (operand_count, raw_rest) {
        (Some(n), _) => {
            for _ in 0..n {
                ins.operands.push(decode_operand(&mut cur, 0)?);
            }
            ins.raw = words[cur.pos..end].to_vec();
        }
        (None, Some(expected)) => {
            while cur.pos < end && ins.operands.len() < expected {
                let op = decode_operand(&mut cur, 0).map_err(|(at, kind)| match kind {
                    DecodeErrorKind::Truncated(_) => (
                        at,
                        DecodeErrorKind::OperandOverrun {
                            mnemonic: info.mnemonic,
                        },
                    ),
                    k => (at, k),
                })?;
                ins.operands.push(op);
            }
            // fxc pads `samplepos`, and `sample_l_s` / `sample_c_lz_s` without
            // `_aoffimmi`, with one zero dword; trailing zeros are kept (in
            // `raw`) so the instruction re-encodes bit for bit.
            let rest = &words[cur.pos..end];
            if ins.operands.len() == expected && !rest.is_empty() && rest.iter().all(|&w| w == 0) {
                ins.raw = rest.to_vec();
            } else if !rest.is_empty() {
                let mut extra = 0;
                while cur.pos < end && decode_operand(&mut cur, 0).is_ok() {
                    extra += 1;
                }
                return Err((
                    start,
                    DecodeErrorKind::OperandCount {
                        mnemonic: info.mnemonic,
                        expected,
                        found: ins.operands.len() + extra.max(1),
                    },
                ));
            }
            if ins.operands.len() != expected {
                return Err((
                    start,
                    DecodeErrorKind::OperandCount {
                        mnemonic: info.mnemonic,
                        expected,
                        found: ins.operands.len(),
                    },
                ));
            }
        }
        (None, None) => {}
    }
    Ok((ins, end))
}

fn decode_operand(cur: &mut Cursor<'_>, depth: u32) -> DecodeResult<Operand> {
    let at = cur.pos;
    let token = cur.next("operand token")?;
    let bad = |what| (at, DecodeErrorKind::BadOperand { token, what });
    if depth > MAX_OPERAND_NESTING {
        return Err(bad("relative indices nest too deeply"));
    }
    let components = match token & 3 {
        0 => Components::Zero,
        1 => Components::One,
        2 => Components::Four(match (token >> 2) & 3 {
            0 => Selection::Mask(((token >> 4) & 0xf) as u8),
            1 => {
                let s = |i: u32| ((token >> (4 + 2 * i)) & 3) as u8;
                Selection::Swizzle([s(0), s(1), s(2), s(3)])
            }
            2 => Selection::Select1(((token >> 4) & 3) as u8),
            _ => return Err(bad("selection mode 3 is undefined")),
        }),
        _ => return Err(bad("N-component operands are not used by SM4/SM5")),
    };
    let ty = OperandType::from_raw((token >> 12) & 0xff).ok_or(bad("unknown operand type"))?;
    let index_dim = (token >> 20) & 3;
    let mut op = Operand {
        ty,
        components,
        indices: Vec::new(),
        modifier: Modifier::None,
        min_precision: 0,
        non_uniform: false,
        imm: Vec::new(),
    };
    let mut extended = token & 0x8000_0000 != 0;
    while extended {
        let e = cur.next("extended operand token")?;
        extended = e & 0x8000_0000 != 0;
        if e & 0x3f == 1 {
            op.modifier = match (e >> 6) & 0xff {
                0 => Modifier::None,
                1 => Modifier::Neg,
                2 => Modifier::Abs,
                3 => Modifier::AbsNeg,
                _ => return Err(bad("unknown operand modifier")),
            };
            op.min_precision = ((e >> 14) & 7) as u8;
            op.non_uniform = e & (1 << 17) != 0;
        }
    }
    match ty {
        OperandType::Immediate32 => {
            let n = match components {
                Components::One => 1,
                Components::Four(_) => 4,
                Components::Zero => return Err(bad("an immediate needs components")),
            };
            for _ in 0..n {
                op.imm.push(cur.next("immediate value")?);
            }
        }
        OperandType::Immediate64 => {
            let n = match components {
                Components::One => 2,
                Components::Four(_) => 4,
                Components::Zero => return Err(bad("an immediate needs components")),
            };
            for _ in 0..n {
                op.imm.push(cur.next("immediate value")?);
            }
        }
        _ => {}
    }
    for d in 0..index_dim {
        let repr = (token >> (22 + 3 * d)) & 7;
        let index = match repr {
            0 => Index {
                imm: cur.next("index")? as u64,
                rel: None,
            },
            1 => {
                let hi = cur.next("index")? as u64;
                let lo = cur.next("index")? as u64;
                Index {
                    imm: hi << 32 | lo,
                    rel: None,
                }
            }
            2 => Index {
                imm: 0,
                rel: Some(Box::new(decode_operand(cur, depth + 1)?)),
            },
            3 => {
                let imm = cur.next("index")? as u64;
                Index {
                    imm,
                    rel: Some(Box::new(decode_operand(cur, depth + 1)?)),
                }
            }
            4 => {
                let hi = cur.next("index")? as u64;
                let lo = cur.next("index")? as u64;
                Index {
                    imm: hi << 32 | lo,
                    rel: Some(Box::new(decode_operand(cur, depth + 1)?)),
                }
            }
            _ => return Err(bad("unknown index representation")),
        };
        op.indices.push(index);
    }
    Ok(op)
}
