//! fxc's `STAT` chunk (compiler statistics) as far as the instructions
//! determine it: what `asm` writes beside SHEX.
//!
//! STAT is 37 u32 counters of a compute shader (`reference/dxbc-format.md`
//! §1.2; the order of `D3D11_SHADER_DESC`'s counters). fxc fills them from
//! its own intermediate form, and a few of them cannot be read back from
//! the tokens: whether a `mov` with a source modifier counted as a float
//! instruction or a move, and how a `udiv` with both destinations counted
//! (fxc splits it before it counts). The rules below were fitted to, and
//! are measured against, the 312 fxc containers with STAT in the repository
//! (`tests/it/listing_roundtrip.rs`): the fields marked exact match all of
//! them; the whole chunk matches in most.
//!
//! | word | counter | rule (instructions counted) |
//! |---|---|---|
//! | 0 | instructions | every instruction but declarations, `label` and the immediate constant buffer (a `printf`/`errorf` counts) |
//! | 1 | temps | `dcl_temps` |
//! | 2 | defs | the immediate constant buffer's vec4 elements |
//! | 3 | declarations | `dcl_input` |
//! | 4 | float | float arithmetic and comparisons but `frc`/`round_*`; `swapc`, `dmovc` |
//! | 5 | int | `iadd ieq ige ilt imad imax imin imul ine ineg ishl ishr` |
//! | 6 | uint | `and or xor not udiv uge ult umax umin ushr` |
//! | 7 | static flow | `break continue else ret call` (exact) |
//! | 8 | dynamic flow | `breakc continuec if retc callc switch` (exact) |
//! | 10 | temp arrays | the `x#` registers' elements |
//! | 11 | array instructions | instructions with an `x#` operand |
//! | 15 | texture loads | `ld*` of a resource or UAV (not `g#`), `ldms`, `sample_l` (exact) |
//! | 16 | texture comparisons | `sample_c*` (exact) |
//! | 18 | texture gradients | `sample_d` (exact) |
//! | 19 | moves | `mov` without a source modifier, not of an `x#` |
//! | 20 | conditional moves | `movc` (exact) |
//! | 21 | conversions | `ftoi ftou itof utof frc round_*` and the double conversions (exact) |
//! | 26 | gathers | `gather4`, `gather4_po` and every `_s` form; `gather4_c` and `gather4_po_c` fxc counts nowhere (exact) |
//! | 34 | barriers | `sync*` (exact) |
//! | 35 | interlocked | `atomic_*`, `imm_atomic_*` (exact) |
//! | 36 | stores | `store_*` to a UAV (not `g#`) (exact) |
//!
//! The other words are 0 in a compute shader.

use crate::ir::{DecodedProgram, Instruction, Modifier, OperandType};
use crate::isa::opcodes::{Class, Opcode};

/// Words in a Shader Model 5 STAT chunk.
pub const STAT_WORDS: usize = 37;

/// The STAT words of `program` by the rules in the module docs.
pub fn statistics(program: &DecodedProgram) -> [u32; STAT_WORDS] {
    let mut s = [0u32; STAT_WORDS];
    for ins in &program.instructions {
        count(ins, &mut s);
    }
    s
}

/// STAT's bytes: [`statistics`] as little-endian words.
pub fn stat_chunk(program: &DecodedProgram) -> Vec<u8> {
    statistics(program)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

fn count(ins: &Instruction, s: &mut [u32; STAT_WORDS]) {
    use Opcode as O;
    let raw_word = |k: usize| ins.raw.get(k).copied().unwrap_or(0);
    match ins.opcode {
        O::DclTemps => s[1] = raw_word(0),
        O::DclInput => s[3] += 1,
        // dcl_indexableTemp x#, size, components
        O::DclIndexableTemp => s[10] = s[10].saturating_add(raw_word(1)),
        O::CustomData if ins.token >> 11 == 3 => {
            s[2] += ins.raw.len() as u32 / 4;
        }
        _ => {}
    }
    let message = ins.shader_message().is_some();
    if (ins.opcode.info().class == Class::Decl && !message) || ins.opcode == O::Label {
        return;
    }
    s[0] += 1;
    let on = |ty: OperandType| ins.operands.iter().any(|o| o.ty == ty);
    let array = on(OperandType::IndexableTemp);
    if array {
        s[11] += 1;
    }
    let tgsm = on(OperandType::ThreadGroupSharedMemory);
    let name = ins.opcode.mnemonic();
    let field = match ins.opcode {
        O::Mov => {
            let modified = (ins.operands.iter().skip(1)).any(|o| o.modifier != Modifier::None);
            match (array, modified) {
                (true, _) => None,
                (false, true) => Some(4),
                (false, false) => Some(19),
            }
        }
        O::Movc => Some(20),
        O::Swapc | O::Dmovc => Some(4),
        O::Frc | O::RoundNe | O::RoundNi | O::RoundPi | O::RoundZ => Some(21),
        O::Ftoi | O::Ftou | O::Itof | O::Utof => Some(21),
        O::Dtof | O::Dtoi | O::Dtou | O::Itod | O::Utod | O::Ftod => Some(21),
        O::Add
        | O::Div
        | O::Dp2
        | O::Dp3
        | O::Dp4
        | O::Eq
        | O::Exp
        | O::Ge
        | O::Log
        | O::Lt
        | O::Mad
        | O::Max
        | O::Min
        | O::Mul
        | O::Ne
        | O::Rcp
        | O::Rsq
        | O::Sincos
        | O::Sqrt => Some(4),
        O::Iadd
        | O::Ieq
        | O::Ige
        | O::Ilt
        | O::Imad
        | O::Imax
        | O::Imin
        | O::Imul
        | O::Ine
        | O::Ineg
        | O::Ishl
        | O::Ishr => Some(5),
        O::And
        | O::Or
        | O::Xor
        | O::Not
        | O::Udiv
        | O::Uge
        | O::Ult
        | O::Umax
        | O::Umin
        | O::Ushr => Some(6),
        O::Break | O::Continue | O::Else | O::Ret | O::Call => Some(7),
        O::Breakc | O::Continuec | O::If | O::Retc | O::Callc | O::Switch => Some(8),
        O::Sync => Some(34),
        O::SampleD => Some(18),
        _ if name.starts_with("sample_c") => Some(16),
        // (a gather with a comparison counts nowhere, unless it returns
        // the tiled-resource status)
        _ if name.starts_with("gather4") && (!name.contains("_c") || name.ends_with("_s")) => {
            Some(26)
        }
        _ if name.starts_with("atomic_") || name.starts_with("imm_atomic_") => Some(35),
        _ if name.starts_with("store_") && !tgsm => Some(36),
        _ if (name.starts_with("ld") || name.starts_with("sample_l")) && !tgsm => Some(15),
        _ => None,
    };
    if let Some(f) = field {
        s[f] += 1;
    }
}
