//! Disassembler producing fxc's listing syntax (`reference/asm-syntax.md`):
//! the version line, declarations and instructions, indented two spaces per
//! flow-control level, the way `fxc /Fc` prints them (without the header and
//! footer comments).
//!
//! Immediate formatting follows what Microsoft's disassembler does in the
//! workload and corpus listings: an operand the instruction reads as float is
//! printed `%f` (`1.000000`); one read as an integer is printed in decimal,
//! or as `0x%08x` when large; operands of untyped moves and stores are
//! printed per component as a float when the bits look like a normal float
//! (or −0) and as an integer otherwise, with no space after the commas.

use crate::ir::{
    Components, DecodedProgram, Index, Instruction, Modifier, Operand, OperandType, Selection,
    GLOBAL_FLAGS, RESOURCE_DIMENSIONS, RETURN_TYPES,
};
use crate::isa::opcodes::{Class, Opcode, OperandDataType};
use std::fmt::Write;

/// How the instruction reads an immediate operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ImmStyle {
    Float,
    Int,
    Untyped,
}

fn dimension_name(d: u32) -> &'static str {
    RESOURCE_DIMENSIONS
        .get(d as usize)
        .copied()
        .unwrap_or("unknown")
}

fn return_type_name(t: u32) -> &'static str {
    RETURN_TYPES.get(t as usize).copied().unwrap_or("")
}

/// The instruction's full mnemonic with its suffixes, as the listing prints
/// it (`breakc_nz`, `mul_sat`, `sync_g_t`, `ld_structured_indexable(...)(...)`).
/// Without the `[precise]` attribute, which [`disassemble`] adds.
pub fn mnemonic(ins: &Instruction) -> String {
    let op = ins.opcode;
    let mut s = String::from(op.mnemonic());
    if op == Opcode::Sync {
        let c = ins.controls();
        if c & 8 != 0 {
            s.push_str("_uglobal");
        }
        if c & 4 != 0 {
            s.push_str("_ugroup");
        }
        if c & 2 != 0 {
            s.push_str("_g");
        }
        if c & 1 != 0 {
            s.push_str("_t");
        }
        return s;
    }
    if op.has_test() {
        s.push_str(if ins.test_nonzero() { "_nz" } else { "_z" });
    }
    if ins.saturate() {
        s.push_str("_sat");
    }
    if let Some([u, v, w]) = ins.extended.sample_offsets {
        let _ = write!(s, "_aoffimmi");
        if ins.extended.resource_dim.is_none() {
            let _ = write!(s, "({u},{v},{w})");
        }
    }
    if let Some((dim, stride)) = ins.extended.resource_dim {
        s.push_str("_indexable");
        if let Some([u, v, w]) = ins.extended.sample_offsets {
            let _ = write!(s, "({u},{v},{w})");
        }
        if dim == 12 {
            let _ = write!(s, "({}, stride={stride})", dimension_name(dim));
        } else {
            let _ = write!(s, "({})", dimension_name(dim));
        }
    }
    if let Some(t) = ins.extended.return_types {
        let names: Vec<_> = t.iter().map(|&t| return_type_name(t as u32)).collect();
        let _ = write!(s, "({})", names.join(","));
    }
    match op {
        Opcode::Resinfo => match ins.controls() & 3 {
            1 => s.push_str("_rcpFloat"),
            2 => s.push_str("_uint"),
            _ => {}
        },
        Opcode::SampleInfo if ins.controls() & 1 != 0 => s.push_str("_uint"),
        _ => {}
    }
    s
}

/// `[precise]` / `[precise(xy)]` (opcode token bits 19–22, the components
/// whose results must not be refactored), placed as Microsoft's
/// disassembler places it: after the name and suffixes, before the first
/// parenthesised part (`ld_structured_indexable [precise(xyz)](structured_buffer, stride=16)…`).
fn with_precise(mnemonic: String, mask: u32) -> String {
    if mask == 0 {
        return mnemonic;
    }
    let attribute = if mask == 0xf {
        " [precise]".to_string()
    } else {
        let letters: String = (0..4)
            .filter(|c| mask & (1 << c) != 0)
            .map(|c| b"xyzw"[c] as char)
            .collect();
        format!(" [precise({letters})]")
    };
    match mnemonic.find('(') {
        Some(at) => format!("{}{attribute}{}", &mnemonic[..at], &mnemonic[at..]),
        None => mnemonic + &attribute,
    }
}

fn imm_style(op: Opcode, operand: usize) -> ImmStyle {
    match op.operand_type(operand) {
        OperandDataType::Float => ImmStyle::Float,
        OperandDataType::Int => ImmStyle::Int,
        OperandDataType::Untyped => ImmStyle::Untyped,
    }
}

/// How a listing prints float literals of 2⁶⁴ and more: fxc formats them
/// with the C runtime's `%f`, and runtimes differ there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatDigits {
    /// Windows' `msvcrt.dll` (fxc and `D3DDisassemble` on Windows, and the
    /// listings of `tests/corpus/`): 17 significant digits, then zeros
    /// (`FLT_MAX` prints `340282346638528860000000000000000000000.000000`).
    #[default]
    Msvcrt,
    /// Every digit of the value, as the same fxc prints under Wine (whose
    /// `%f` is exact, as glibc's is): `340282346638528859811704183484516925440.000000`.
    Exact,
}

/// What the listing's text depends on beyond the instruction: SM5.1's
/// operand forms, and the float digits.
#[derive(Debug, Clone, Copy)]
struct Fmt {
    sm51: bool,
    digits: FloatDigits,
}

/// `%f` as fxc's C runtime prints it: exact below 2⁶⁴, and above it as
/// `digits` says.
fn fmt_float(bits: u32, digits: FloatDigits) -> String {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        return if f.is_sign_negative() {
            "-1.#QNAN0".into()
        } else {
            "1.#QNAN0".into()
        };
    }
    if f.is_infinite() {
        return if f < 0.0 {
            "-1.#INF00".into()
        } else {
            "1.#INF00".into()
        };
    }
    // Below 2^64 the integer digits are exact (0xDEADBEEF prints
    // -6259853398707798016.000000); above, MSVC's CRT keeps 17 significant
    // digits (FLT_MAX prints 340282346638528860000000000000000000000.000000).
    if f.abs() >= 18446744073709551616.0 && digits == FloatDigits::Msvcrt {
        let e = format!("{:.16e}", f as f64); // d.dddddddddddddddde<exp>
        if let Some((mantissa, exp)) = e.split_once('e') {
            let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
            let sign = if mantissa.starts_with('-') { "-" } else { "" };
            let exp: usize = exp.parse().unwrap_or(16);
            return format!(
                "{sign}{digits}{}.000000",
                "0".repeat(exp.saturating_sub(16))
            );
        }
    }
    format!("{f:.6}")
}

fn fmt_int(bits: u32) -> String {
    let v = bits as i32;
    if (-10000..=10000).contains(&v) {
        v.to_string()
    } else {
        format!("0x{bits:08x}")
    }
}

fn looks_like_float(bits: u32) -> bool {
    let e = (bits >> 23) & 0xff;
    bits == 0x8000_0000 || (e != 0 && e != 0xff)
}

fn fmt_imm(bits: u32, style: ImmStyle, digits: FloatDigits) -> String {
    match style {
        ImmStyle::Float => fmt_float(bits, digits),
        ImmStyle::Int => fmt_int(bits),
        ImmStyle::Untyped => {
            if looks_like_float(bits) {
                fmt_float(bits, digits)
            } else {
                fmt_int(bits)
            }
        }
    }
}

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

fn fmt_components(c: Components) -> String {
    match c {
        Components::Zero | Components::One => String::new(),
        Components::Four(Selection::Mask(m)) => {
            let mut s = String::from(".");
            for (i, l) in LETTERS.iter().enumerate() {
                if m & (1 << i) != 0 {
                    s.push(*l);
                }
            }
            if m == 0 {
                String::new()
            } else {
                s
            }
        }
        Components::Four(Selection::Swizzle(sw)) => {
            let mut s = String::from(".");
            for c in sw {
                s.push(LETTERS[c as usize]);
            }
            s
        }
        Components::Four(Selection::Select1(c)) => format!(".{}", LETTERS[c as usize]),
    }
}

fn fmt_index(i: &Index, f: Fmt) -> String {
    match &i.rel {
        None => i.imm.to_string(),
        Some(r) => format!("{} + {}", fmt_operand(r, ImmStyle::Int, f), i.imm),
    }
}

/// Listing name of a minimum-precision field value (§5.5).
fn min_precision_name(p: u8) -> Option<&'static str> {
    match p {
        1 => Some("min16f"),
        2 => Some("min2_8f"),
        4 => Some("min16i"),
        5 => Some("min16u"),
        _ => None,
    }
}

/// The annotation after operand `i` of `op`: its own minimum precision
/// (` {min16f}`), or where it is read at a different precision than the
/// first destination's, both (` {min16f as def32}`).
fn precision_annotation(op: Opcode, i: usize, dsts: usize, own: u8, dst: u8) -> String {
    let own_name = min_precision_name(own);
    if i >= dsts && op.follows_destination_precision(i) {
        let dst_name = min_precision_name(dst);
        if own_name != dst_name {
            return format!(
                " {{{} as {}}}",
                own_name.unwrap_or("def32"),
                dst_name.unwrap_or("def32")
            );
        }
    }
    own_name.map(|n| format!(" {{{n}}}")).unwrap_or_default()
}

/// Print one operand.
fn fmt_operand(op: &Operand, style: ImmStyle, f: Fmt) -> String {
    fmt_operand_annotated(op, style, f, "")
}

/// Print one operand; `annotation` (e.g. ` {min16f}`) goes after the
/// component selection, inside any `|…|`.
fn fmt_operand_annotated(op: &Operand, style: ImmStyle, f: Fmt, annotation: &str) -> String {
    let mut s = String::new();
    match op.ty {
        OperandType::Immediate32 => {
            let sep = if style == ImmStyle::Untyped {
                ","
            } else {
                ", "
            };
            let parts: Vec<_> = op
                .imm
                .iter()
                .map(|&v| fmt_imm(v, style, f.digits))
                .collect();
            return format!("l({}){annotation}", parts.join(sep));
        }
        OperandType::Immediate64 => {
            let parts: Vec<_> = op
                .imm
                .chunks(2)
                .map(|p| {
                    let v =
                        f64::from_bits(p[0] as u64 | (p.get(1).copied().unwrap_or(0) as u64) << 32);
                    format!("{v:.6}l")
                })
                .collect();
            return format!("d({}){annotation}", parts.join(", "));
        }
        _ => {}
    }
    let name = op.ty.name();
    let range_typed = matches!(
        op.ty,
        OperandType::Resource
            | OperandType::UnorderedAccessView
            | OperandType::Sampler
            | OperandType::ConstantBuffer
    );
    if f.sm51 && range_typed {
        s.push_str(&name.to_uppercase());
    } else {
        s.push_str(name);
    }
    let bracket_all = matches!(op.ty, OperandType::ImmediateConstantBuffer);
    for (k, i) in op.indices.iter().enumerate() {
        if k == 0 && !bracket_all && i.rel.is_none() {
            let _ = write!(s, "{}", i.imm);
        } else {
            let _ = write!(s, "[{}]", fmt_index(i, f));
        }
    }
    s.push_str(&fmt_components(op.components));
    s.push_str(annotation);
    match op.modifier {
        Modifier::None => s,
        Modifier::Neg => format!("-{s}"),
        Modifier::Abs => format!("|{s}|"),
        Modifier::AbsNeg => format!("-|{s}|"),
    }
}

fn global_flags(token: u32) -> String {
    let names: Vec<_> = GLOBAL_FLAGS
        .iter()
        .enumerate()
        .filter(|(i, _)| token & (1 << (11 + i)) != 0)
        .map(|(_, n)| *n)
        .collect();
    names.join(" | ")
}

fn return_types_token(t: u32) -> String {
    let names: Vec<_> = (0..4)
        .map(|i| return_type_name((t >> (4 * i)) & 0xf))
        .collect();
    format!("({})", names.join(","))
}

/// Declaration register operand: `t0`, `CB0[1]`, or SM5.1 `T0[0:0]`.
fn decl_register(op: &Operand, f: Fmt) -> String {
    if f.sm51 && op.indices.len() == 3 {
        let hi = op.indices[2].imm;
        let hi = if hi == 0xffff_ffff {
            "*".to_string()
        } else {
            hi.to_string()
        };
        return format!(
            "{}{}[{}:{}]",
            op.ty.name().to_uppercase(),
            op.indices[0].imm,
            op.indices[1].imm,
            hi
        );
    }
    fmt_operand(op, ImmStyle::Int, f)
}

fn declaration(ins: &Instruction, f: Fmt) -> Option<String> {
    use Opcode as O;
    let raw = |i: usize| ins.raw.get(i).copied().unwrap_or(0);
    let reg = || {
        ins.operands
            .first()
            .map(|o| decl_register(o, f))
            .unwrap_or_default()
    };
    let glc = if ins.token & (1 << 16) != 0 {
        "_glc"
    } else {
        ""
    };
    let space = |i: usize| {
        if f.sm51 {
            format!(", space={}", raw(i))
        } else {
            String::new()
        }
    };
    Some(match ins.opcode {
        O::DclGlobalFlags => format!("dcl_globalFlags {}", global_flags(ins.token)),
        O::DclTemps => format!("dcl_temps {}", raw(0)),
        O::DclIndexableTemp => format!("dcl_indexableTemp x{}[{}], {}", raw(0), raw(1), raw(2)),
        O::DclThreadGroup => format!("dcl_thread_group {}, {}, {}", raw(0), raw(1), raw(2)),
        O::DclConstantBuffer => {
            let access = if ins.token & (1 << 11) != 0 {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            };
            let op = ins.operands.first()?;
            if f.sm51 {
                format!(
                    "dcl_constantbuffer {}[{}], {access}{}",
                    decl_register(op, f),
                    raw(0),
                    space(1)
                )
            } else {
                let slot = op.indices.first().map_or(0, |i| i.imm);
                let size = op.indices.get(1).map_or(0, |i| i.imm);
                format!("dcl_constantbuffer CB{slot}[{size}], {access}")
            }
        }
        O::DclSampler => {
            let mode = match ins.controls() & 0xf {
                1 => "mode_comparison",
                2 => "mode_mono",
                _ => "mode_default",
            };
            format!("dcl_sampler {}, {mode}{}", reg(), space(0))
        }
        O::DclResource => {
            let dim = ins.controls() & 0x1f;
            let samples = (ins.token >> 16) & 0x7f;
            let dim_s = if dim == 4 || dim == 9 {
                format!("{}({samples})", dimension_name(dim))
            } else {
                dimension_name(dim).to_string()
            };
            format!(
                "dcl_resource_{dim_s} {} {}{}",
                return_types_token(raw(0)),
                reg(),
                space(1)
            )
        }
        O::DclUavTyped => format!(
            "dcl_uav_typed_{}{glc} {} {}{}",
            dimension_name(ins.controls() & 0x1f),
            return_types_token(raw(0)),
            reg(),
            space(1)
        ),
        O::DclResourceRaw => format!("dcl_resource_raw {}{}", reg(), space(0)),
        O::DclResourceStructured => {
            format!("dcl_resource_structured {}, {}{}", reg(), raw(0), space(1))
        }
        O::DclUavRaw => format!("dcl_uav_raw{glc} {}{}", reg(), space(0)),
        O::DclUavStructured => {
            let opc = if ins.token & (1 << 23) != 0 {
                "_opc"
            } else {
                ""
            };
            format!(
                "dcl_uav_structured{glc}{opc} {}, {}{}",
                reg(),
                raw(0),
                space(1)
            )
        }
        O::DclTgsmRaw => format!("dcl_tgsm_raw {}, {}", reg(), raw(0)),
        O::DclTgsmStructured => format!("dcl_tgsm_structured {}, {}, {}", reg(), raw(0), raw(1)),
        O::DclInput => format!("dcl_input {}", reg()),
        // Class linkage (TPF "Function Body/Table", "Interface" declarations).
        O::DclFunctionBody => format!("dcl_function_body fb{}", raw(0)),
        O::DclFunctionTable => {
            let bodies: Vec<String> = ins.raw.iter().skip(2).map(|b| format!("fb{b}")).collect();
            format!(
                "dcl_function_table ft{} = {{{}}}",
                raw(0),
                bodies.join(", ")
            )
        }
        O::DclInterface => {
            let dynamic = if ins.token & (1 << 11) != 0 {
                "_dynamicindexed"
            } else {
                ""
            };
            let tables: Vec<String> = ins.raw.iter().skip(3).map(|t| format!("ft{t}")).collect();
            format!(
                "dcl_interface{dynamic} fp{}[{}][{}] = {{{}}}",
                raw(0),
                raw(2) >> 16,
                raw(1),
                tables.join(", ")
            )
        }
        O::CustomData => {
            if ins.token >> 11 != 3 {
                return None;
            }
            let rows: Vec<_> = ins
                .raw
                .chunks(4)
                .map(|r| {
                    let v: Vec<_> = r
                        .iter()
                        .map(|&b| fmt_imm(b, ImmStyle::Untyped, f.digits))
                        .collect();
                    format!("{{ {}}}", v.join(", "))
                })
                .collect();
            format!("dcl_immediateConstantBuffer {{ {} }}", rows.join(",\n"))
        }
        _ => return None,
    })
}

/// A message's format string as fxc's listing prints it: C escapes for
/// the backslash and control characters (`\\`, `\n`, `\t`, …), quotes
/// as they are (checked on fxc's listings: `tests/front_end/messages`).
fn escape_message(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Disassemble a decoded program into listing lines (no trailing newline per line).
pub fn disassemble_lines(p: &DecodedProgram) -> Vec<String> {
    disassemble_lines_by_offset(p)
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

/// [`disassemble_lines`], each line with the dword offset of the
/// instruction it prints (`None` for the version line; a custom-data block
/// other than the immediate constant buffer prints no line).
pub fn disassemble_lines_by_offset(p: &DecodedProgram) -> Vec<(Option<u32>, String)> {
    disassemble_lines_with(p, FloatDigits::default())
}

/// [`disassemble_lines_by_offset`] with float literals of 2⁶⁴ and more
/// printed as `digits` says.
pub fn disassemble_lines_with(
    p: &DecodedProgram,
    digits: FloatDigits,
) -> Vec<(Option<u32>, String)> {
    let v = p.version;
    let f = Fmt {
        sm51: v.is_sm51(),
        digits,
    };
    let mut out = vec![(
        None,
        format!("{}_{}_{}", v.program_type.prefix(), v.major, v.minor),
    )];
    let mut depth: usize = 0;
    for ins in &p.instructions {
        let op = ins.opcode;
        if let Some(m) = ins.shader_message() {
            // `printf "format", operands…`, indented as an instruction
            let mut line = "  ".repeat(depth);
            let _ = write!(
                line,
                "{} \"{}\"",
                if m.error { "errorf" } else { "printf" },
                escape_message(&m.format)
            );
            for o in &ins.operands {
                let _ = write!(line, ", {}", fmt_operand(o, ImmStyle::Untyped, f));
            }
            out.push((Some(ins.offset), line));
            continue;
        }
        if op.info().class == Class::Decl {
            if let Some(line) = declaration(ins, f) {
                out.push((Some(ins.offset), line));
            } else if op != Opcode::CustomData {
                out.push((
                    Some(ins.offset),
                    format!(
                        "{} {}",
                        op.mnemonic(),
                        ins.raw
                            .iter()
                            .map(|r| r.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            continue;
        }
        let level = match op {
            Opcode::Else | Opcode::EndIf | Opcode::EndLoop | Opcode::EndSwitch => {
                depth = depth.saturating_sub(1);
                depth
            }
            Opcode::Case | Opcode::Default => depth.saturating_sub(1) + 1,
            _ => depth,
        };
        let mut line = "  ".repeat(level);
        line.push_str(&with_precise(mnemonic(ins), (ins.token >> 19) & 0xf));
        if ins.operands.is_empty() {
            if op.info().class == Class::Flow {
                line.push(' ');
            }
        } else {
            let dsts = match op.info().shape {
                crate::isa::opcodes::Shape::Ops { dsts, .. } => dsts as usize,
                _ => 0,
            };
            let dst_precision = if dsts > 0 {
                ins.operands[0].min_precision
            } else {
                0
            };
            let ops: Vec<_> = ins
                .operands
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let mut annotation =
                        precision_annotation(op, i, dsts, o.min_precision, dst_precision);
                    if o.non_uniform {
                        // SM5.1: the index may differ between lanes
                        annotation.push_str(" { nonuniform }");
                    }
                    fmt_operand_annotated(o, imm_style(op, i), f, &annotation)
                })
                .collect();
            line.push(' ');
            line.push_str(&ops.join(", "));
            if op == Opcode::InterfaceCall {
                // fcall fp#[array index][call site]: the call site is the raw dword
                let _ = write!(line, "[{}]", ins.raw.first().copied().unwrap_or(0));
            }
        }
        out.push((Some(ins.offset), line));
        if matches!(
            op,
            Opcode::If | Opcode::Else | Opcode::Loop | Opcode::Switch
        ) {
            depth += 1;
        }
    }
    out
}

/// One instruction of `p` as the listing prints it, without indentation.
pub fn instruction_text(p: &DecodedProgram, ins: &Instruction) -> String {
    let one = DecodedProgram {
        version: p.version,
        instructions: vec![ins.clone()],
    };
    disassemble_lines(&one)
        .get(1)
        .map(|l| l.trim().to_string())
        .unwrap_or_default()
}

/// Disassemble a decoded program into one listing, newline-terminated lines.
pub fn disassemble(p: &DecodedProgram) -> String {
    let mut s = disassemble_lines(p).join("\n");
    s.push('\n');
    s
}

/// The whole listing of a container as `fxc /Fc` prints it: the comment
/// header (from RDEF, SFI0, STAT and the signatures, see [`crate::front::header`]),
/// the version line, declarations and instructions, and the
/// "Approximately N instruction slots used" footer. A container whose
/// optional chunks cannot be read gets a one-line note instead of a header.
pub fn full_listing(
    container: &crate::front::container::Container<'_>,
    program: &DecodedProgram,
) -> String {
    full_listing_with(container, program, FloatDigits::default())
}

/// [`full_listing`] with float literals of 2⁶⁴ and more printed as
/// `digits` says.
pub fn full_listing_with(
    container: &crate::front::container::Container<'_>,
    program: &DecodedProgram,
    digits: FloatDigits,
) -> String {
    let mut out = String::new();
    match crate::front::header::listing_header(container) {
        Ok(mut lines) => {
            // fxc's note on a shader with printf/errorf, after the banner
            if lines.len() >= 3
                && program
                    .instructions
                    .iter()
                    .any(|i| i.shader_message().is_some())
            {
                let note = [
                    "//",
                    "// Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.",
                    "//",
                ];
                lines.splice(3..3, note.map(String::from));
            }
            for l in lines {
                out.push_str(&l);
                out.push('\n');
            }
        }
        Err(e) => {
            let _ = writeln!(out, "// (header omitted: {e})");
        }
    }
    for (_, line) in disassemble_lines_with(program, digits) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(footer) = crate::front::header::listing_footer(container) {
        out.push_str(&footer);
        out.push('\n');
    }
    out
}
