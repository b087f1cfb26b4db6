//! Assembler for fxc listings (`reference/asm-syntax.md`): listing text →
//! [`DecodedProgram`], which [`crate::front::encode::encode_program`] turns into
//! SHEX tokens and [`crate::front::encode::write_container`] into a DXBC file.
//!
//! It accepts what `fxc /Fc`, `D3DDisassemble`, 3DMigoto dumps and this
//! crate's [`crate::front::disasm`] print (§1): `//` comments, header and footer,
//! blank lines, indentation, `#line` lines, the version line, every
//! declaration form of §4 (including SM5.1 ranges `T0[0:0], space=0` and the
//! multi-line `dcl_immediateConstantBuffer`), and instructions with their
//! suffixes and parenthesised groups (§2), operands with modifiers and
//! minimum-precision annotations (§3), and literals in every form of §5.
//! Keywords and register names are case-insensitive; the VKD3D spellings of
//! §7 are accepted.
//!
//! Operand encodings follow §3 "Choosing the operand encoding": destinations
//! use mask mode; a source with a 1-letter selector is select-1 and one with
//! 4 letters a swizzle; operands printed without a selector get the
//! component count the format uses for their type and position (0 for
//! samplers, labels, `null`, resources in SM5.0 declarations and the targets
//! of atomics; the full mask or identity swizzle otherwise). 4-component
//! immediates use mask mode with an empty mask, as fxc writes them.
//!
//! Every instruction is assembled to the same [`Instruction`] the decoder
//! would produce from fxc's bytecode: `token` holds the whole OpcodeToken0
//! (length and extended bit included) and `offset` its dword offset.

use crate::front::encode::{encode_instruction, encode_operand};
use crate::ir::{
    Components, DecodedProgram, ExtendedOpcode, Index, Instruction, Modifier, Operand, OperandType,
    ProgramType, Selection, ShaderVersion, CUSTOMDATA_SHADER_MESSAGE, GLOBAL_FLAGS,
    RESOURCE_DIMENSIONS, RETURN_TYPES, SHADER_MESSAGE_ERRORF, SHADER_MESSAGE_HEADER,
    SHADER_MESSAGE_PRINTF,
};
use crate::isa::opcodes::{Class, Opcode, OperandDataType, Shape, OPCODE_TABLE};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// An assembly error with its position (1-based line and column, counted
/// in characters of the original text) and an excerpt: the source line and
/// a caret under the column. Raised for text outside the listing grammar of
/// `reference/asm-syntax.md` §1–§5 or values that do not fit their token
/// fields (`reference/dxbc-format.md` §3, §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The source line, a newline, and a caret under the column.
    pub excerpt: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}\n{}",
            self.line, self.column, self.message, self.excerpt
        )
    }
}

impl std::error::Error for AsmError {}

/// One literal value of the listing and the dwords it became
/// (`reference/asm-syntax.md` §5): a component of `l(...)`, of `d(...)`, or
/// a value of `dcl_immediateConstantBuffer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    /// Dword offset of the value in the token stream (version token = 0).
    pub dword: u32,
    /// Number of dwords: 1 for 32-bit values, 2 for a `d(...)` double (low dword first).
    pub words: u8,
    /// 1-based line of the literal text.
    pub line: usize,
    /// 1-based column of the literal text.
    pub column: usize,
    /// The literal as written (`0.333333`, `-24`, `0x3f800000`, `1.#INF0000`).
    pub text: String,
    /// Whether the text is float-styled (contains `.`, `e`, `E` or `#`, or is
    /// `inf`/`nan`) and so was rounded to the nearest float (§5, §5.1).
    pub float_styled: bool,
}

/// An assembled program with the position of every literal value
/// (`reference/asm-syntax.md` §5.1: listings may print floats with too few
/// digits, so callers comparing with bytecode need to know where they are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// The program, as [`crate::front::decode::decode_program`] would return it.
    pub program: DecodedProgram,
    /// Every literal value, in token order.
    pub literals: Vec<Literal>,
}

/// Assemble an fxc listing (`reference/asm-syntax.md`) into a program.
///
/// # Errors
/// [`AsmError`] with the line and column of the first problem.
pub fn assemble(text: &str) -> Result<DecodedProgram, AsmError> {
    assemble_with_literals(text).map(|a| a.program)
}

/// Assemble an fxc listing and report where every literal value went, so
/// that callers can tell the values that a listing prints with too few
/// digits (`reference/asm-syntax.md` §5.1).
///
/// # Errors
/// [`AsmError`] with the line and column of the first problem.
pub fn assemble_with_literals(text: &str) -> Result<Assembly, AsmError> {
    let lines: Vec<&str> = text.lines().collect();
    let stmts = statements(text);
    let make_err = |st: Option<&Stmt>, off: usize, msg: String| -> AsmError {
        let (line, column) = match st {
            Some(st) => st.position(off),
            None => (1, 1),
        };
        error_at(&lines, line, column, msg)
    };
    let mut it = stmts.iter();
    let first = it.next().ok_or_else(|| {
        make_err(
            None,
            0,
            "empty listing: expected a version line such as cs_5_0".into(),
        )
    })?;
    let version = parse_version(&first.text).map_err(|(o, m)| make_err(Some(first), o, m))?;
    let mut asm = Assembler {
        version,
        instructions: Vec::new(),
        literals: Vec::new(),
        offset: 2,
    };
    for st in it {
        asm.statement(st)
            .map_err(|(o, m)| make_err(Some(st), o, m))?;
    }
    Ok(Assembly {
        program: DecodedProgram {
            version,
            instructions: asm.instructions,
        },
        literals: asm.literals,
    })
}

fn error_at(lines: &[&str], line: usize, column: usize, message: String) -> AsmError {
    let src = lines.get(line.wrapping_sub(1)).copied().unwrap_or("");
    let mut caret: String = src
        .chars()
        .take(column.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let have = caret.chars().count();
    caret.extend(std::iter::repeat_n(' ', column.saturating_sub(1 + have)));
    caret.push('^');
    AsmError {
        line,
        column,
        message,
        excerpt: format!("{src}\n{caret}"),
    }
}

// ---------------------------------------------------------------------------
// Source handling: comments, `#line`, blank lines, the multi-line ICB (§1).

/// A piece of a statement's text and where it came from.
#[derive(Debug, Clone, Copy)]
struct Seg {
    /// Byte offset in the statement text.
    at: usize,
    /// 1-based line.
    line: usize,
    /// 1-based column of the first character of the piece.
    col: usize,
}

/// One statement (a line, or the lines of an ICB declaration joined by spaces).
#[derive(Debug, Clone)]
struct Stmt {
    text: String,
    segs: Vec<Seg>,
}

impl Stmt {
    fn position(&self, off: usize) -> (usize, usize) {
        let seg = self
            .segs
            .iter()
            .rev()
            .find(|s| s.at <= off)
            .or(self.segs.first())
            .copied()
            .unwrap_or(Seg {
                at: 0,
                line: 1,
                col: 1,
            });
        let off = off.min(self.text.len());
        let chars = self
            .text
            .get(seg.at.min(off)..off)
            .map_or(0, |s| s.chars().count());
        (seg.line, seg.col + chars)
    }
}

fn statements(text: &str) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut icb: Option<(Stmt, i64, bool)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let code = raw.find("//").map_or(raw, |p| &raw[..p]);
        let body = code.trim_start();
        let lead = code.len() - body.len();
        let body = body.trim_end();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let col = raw[..lead].chars().count() + 1;
        let opens = body.matches('{').count() as i64;
        let closes = body.matches('}').count() as i64;
        if let Some((mut st, depth, seen)) = icb.take() {
            st.text.push(' ');
            st.segs.push(Seg {
                at: st.text.len(),
                line,
                col,
            });
            st.text.push_str(body);
            let depth = depth + opens - closes;
            let seen = seen || opens > 0;
            if seen && depth <= 0 {
                out.push(st);
            } else {
                icb = Some((st, depth, seen));
            }
            continue;
        }
        let st = Stmt {
            text: body.to_string(),
            segs: vec![Seg { at: 0, line, col }],
        };
        let is_icb = body
            .get(..27)
            .is_some_and(|p| p.eq_ignore_ascii_case("dcl_immediateConstantBuffer"));
        if is_icb && (opens == 0 || opens > closes) {
            icb = Some((st, opens - closes, opens > 0));
        } else {
            out.push(st);
        }
    }
    if let Some((st, _, _)) = icb {
        out.push(st);
    }
    out
}

// ---------------------------------------------------------------------------
// Tables derived from the opcode table and the operand-type table.

type PResult<T> = Result<T, (usize, String)>;

/// Mnemonic aliases (`reference/asm-syntax.md` §7; VKD3D spells the
/// conditional break/continue/return `breakp`/`continuep`/`retp`).
const ALIASES: [(&str, Opcode); 9] = [
    ("ld2dms", Opcode::LdMs),
    ("sample_info", Opcode::SampleInfo),
    ("sample_pos", Opcode::SamplePos),
    ("dsx", Opcode::DerivRtx),
    ("dsy", Opcode::DerivRty),
    ("dcl_index_range", Opcode::DclIndexRange),
    ("breakp", Opcode::Breakc),
    ("continuep", Opcode::Continuec),
    ("retp", Opcode::Retc),
];

fn mnemonics() -> &'static HashMap<String, Opcode> {
    static MAP: OnceLock<HashMap<String, Opcode>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m: HashMap<String, Opcode> = OPCODE_TABLE
            .iter()
            .filter(|r| !matches!(r.shape, Shape::Reserved | Shape::CustomData))
            .map(|r| (r.mnemonic.to_ascii_lowercase(), r.opcode))
            .collect();
        for (a, op) in ALIASES {
            m.insert(a.to_string(), op);
        }
        m
    })
}

fn register_names() -> &'static HashMap<String, OperandType> {
    static MAP: OnceLock<HashMap<String, OperandType>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m = HashMap::new();
        for n in 0..=255u32 {
            if let Some(t) = OperandType::from_raw(n) {
                // `l`/`d` are immediates only as `l(`/`d(`; `l3` is a label.
                if matches!(t, OperandType::Immediate32 | OperandType::Immediate64) {
                    continue;
                }
                m.insert(t.name().to_ascii_lowercase(), t);
            }
        }
        // FS/DOC prose name of the group id (§3, §7).
        m.insert("vgroupid".into(), OperandType::InputThreadGroupId);
        m
    })
}

fn dimension(name: &str) -> Option<u32> {
    RESOURCE_DIMENSIONS
        .iter()
        .position(|d| d.eq_ignore_ascii_case(name))
        .map(|p| p as u32)
}

fn return_type(name: &str) -> Option<u8> {
    RETURN_TYPES
        .iter()
        .skip(1)
        .position(|d| d.eq_ignore_ascii_case(name))
        .map(|p| p as u8 + 1)
}

const IDENTITY: Selection = Selection::Swizzle([0, 1, 2, 3]);

// ---------------------------------------------------------------------------
// Small text helpers. Offsets are byte offsets into the statement text.

/// Split `s` (starting at statement offset `base`) at commas outside
/// `()`, `[]`, `{}`; returns trimmed pieces with their offsets.
fn split_top(s: &str, base: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(trimmed(&s[start..i], base + start));
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = trimmed(&s[start..], base + start);
    if !(out.is_empty() && last.0.is_empty()) {
        out.push(last);
    }
    out
}

fn trimmed(s: &str, base: usize) -> (&str, usize) {
    let t = s.trim_start();
    (t.trim_end(), base + (s.len() - t.len()))
}

fn parse_u32(s: &str, off: usize, what: &str) -> PResult<u32> {
    let t = s.trim();
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else {
        t.parse::<u32>().ok()
    };
    v.ok_or_else(|| {
        (
            off,
            format!("expected {what} (an unsigned integer), found '{t}'"),
        )
    })
}

/// Find the `)` matching the `(` at byte `open` of `s`.
fn matching(s: &str, open: usize, close: u8) -> Option<usize> {
    let b = s.as_bytes();
    let opener = *b.get(open)?;
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate().skip(open) {
        if c == opener {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Parse one 32-bit literal component (§5): float-styled text (with `.`,
/// `e`/`E`, `#`, or `inf`/`nan`) → the nearest f32; `0x…` → raw bits;
/// otherwise a signed or unsigned decimal masked to 32 bits.
fn parse_literal32(t: &str, off: usize) -> PResult<(u32, bool)> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = body.to_ascii_lowercase();
    let bad = || (off, format!("'{t}' is not a literal value"));
    if lower.contains('#') {
        let bits = if lower.contains("#inf") {
            0x7f80_0000
        } else if lower.contains("#qnan") || lower.contains("#ind") || lower.contains("#snan") {
            0x7fc0_0000
        } else {
            return Err(bad());
        };
        return Ok((bits | if neg { 0x8000_0000 } else { 0 }, true));
    }
    if let Some(h) = lower.strip_prefix("0x") {
        let v = u32::from_str_radix(h, 16).map_err(|_| bad())?;
        return Ok((if neg { v.wrapping_neg() } else { v }, false));
    }
    let float_styled =
        lower.contains(['.', 'e']) || matches!(lower.as_str(), "inf" | "infinity" | "nan");
    if float_styled {
        let f: f32 = lower.parse().map_err(|_| bad())?;
        let bits = f.to_bits();
        return Ok((if neg { bits ^ 0x8000_0000 } else { bits }, true));
    }
    if lower.is_empty() || !lower.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let v: u64 = lower
        .parse()
        .map_err(|_| (off, format!("'{t}' does not fit 32 bits")))?;
    if neg {
        if v > 1 << 31 {
            return Err((off, format!("'{t}' does not fit 32 bits")));
        }
        Ok(((v as u32).wrapping_neg(), false))
    } else {
        let v = u32::try_from(v).map_err(|_| (off, format!("'{t}' does not fit 32 bits")))?;
        Ok((v, false))
    }
}

/// The literal rule (§5, §5.1):
/// - Decimal text with a `.`, an exponent, `#` or `inf`/`nan` means the
///   float32 nearest to the written number, in every position: `l(0.0)`,
///   `l(0.)` and `l(0.00)` are 0, `l(1e-40)` the denormal nearest 1e-40.
/// - Integers (`-24`, `4294967295`) and hexadecimal (`0x3f800000`) are the
///   bits written.
/// - One exception, for fxc's own spelling: in an untyped position (a
///   `mov`'s source, a stored value; `Opcode::operand_type`) Microsoft's
///   disassembler prints bits as a float only when they look like a normal
///   float or −0, and prints 0 bits as `l(0)`. So its exact text
///   `0.000000` there stands for a tiny normal float printed with 6
///   decimals, and is assembled to the smallest one, FLT_MIN (0x00800000);
///   `-0.000000` stays −0 (0x80000000), which it prints that way.
fn untyped_float(text: &str, bits: u32) -> u32 {
    match text.trim() {
        "0.000000" | "+0.000000" => 0x0080_0000,
        _ => bits,
    }
}

/// Parse one `d(...)` component: a decimal double, optionally ending in `l`.
fn parse_literal64(t: &str, off: usize) -> PResult<u64> {
    let body = t
        .strip_suffix('l')
        .or_else(|| t.strip_suffix('L'))
        .unwrap_or(t);
    let lower = body.to_ascii_lowercase();
    if lower.contains('#') {
        let neg = lower.starts_with('-');
        let bits: u64 = if lower.contains("#inf") {
            0x7ff0_0000_0000_0000
        } else {
            0x7ff8_0000_0000_0000
        };
        return Ok(bits | if neg { 1 << 63 } else { 0 });
    }
    let f: f64 = lower
        .parse()
        .map_err(|_| (off, format!("'{t}' is not a double literal")))?;
    Ok(f.to_bits())
}

// ---------------------------------------------------------------------------
// Operands.

/// Where an operand stands, for choosing its encoding (§3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Dest,
    Source,
    Decl,
}

/// A literal component before its dword offset is known.
#[derive(Debug, Clone)]
struct LitText {
    off: usize,
    text: String,
    float_styled: bool,
    words: u8,
}

/// Types whose operands carry one component (FS §22: scalar system values).
fn is_scalar_type(ty: OperandType) -> bool {
    use OperandType as T;
    matches!(
        ty,
        T::InputPrimitiveId
            | T::OutputDepth
            | T::OutputCoverageMask
            | T::InputCoverageMask
            | T::InputGsInstanceId
            | T::InputForkInstanceId
            | T::InputJoinInstanceId
            | T::OutputControlPointId
            | T::OutputDepthGreaterEqual
            | T::OutputDepthLessEqual
            | T::OutputStencilRef
            | T::InnerCoverage
    )
}

/// Components of an operand written without a selector (§3, §5.1).
fn default_components(ty: OperandType, role: Role, class: Class) -> Components {
    use OperandType as T;
    match ty {
        T::Null
        | T::Label
        | T::Sampler
        | T::FunctionBody
        | T::FunctionTable
        | T::Interface
        | T::ThisPointer
        | T::Stream
        | T::Rasterizer => Components::Zero,
        T::Resource | T::UnorderedAccessView | T::ThreadGroupSharedMemory => {
            if role == Role::Decl || class == Class::Atomic {
                Components::Zero
            } else if role == Role::Dest {
                Components::Four(Selection::Mask(0xf))
            } else {
                Components::Four(IDENTITY)
            }
        }
        T::InputThreadIdInGroupFlattened => match role {
            Role::Decl => Components::Zero,
            Role::Dest => Components::Four(Selection::Mask(1)),
            Role::Source => Components::Four(Selection::Select1(0)),
        },
        t if is_scalar_type(t) => {
            if role == Role::Decl {
                Components::Zero
            } else {
                Components::One
            }
        }
        _ => match role {
            Role::Source => Components::Four(IDENTITY),
            _ => Components::Four(Selection::Mask(0xf)),
        },
    }
}

fn component_letter(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

fn selector_components(letters: &str, off: usize, role: Role) -> PResult<Components> {
    let comps: Vec<u8> = letters
        .chars()
        .map(component_letter)
        .collect::<Option<_>>()
        .ok_or_else(|| {
            (
                off,
                format!("'.{letters}' is not a component selector (use x, y, z, w)"),
            )
        })?;
    if comps.is_empty() || comps.len() > 4 {
        return Err((
            off,
            format!("'.{letters}' selects {} components", comps.len()),
        ));
    }
    Ok(match role {
        Role::Dest | Role::Decl => {
            let mut m = 0u8;
            for c in comps {
                if m & (1 << c) != 0 {
                    return Err((
                        off,
                        format!("component repeated in write mask '.{letters}'"),
                    ));
                }
                m |= 1 << c;
            }
            Components::Four(Selection::Mask(m))
        }
        Role::Source => {
            if comps.len() == 1 {
                Components::Four(Selection::Select1(comps[0]))
            } else {
                let last = comps[comps.len() - 1];
                let mut s = [last; 4];
                s[..comps.len()].copy_from_slice(&comps);
                Components::Four(Selection::Swizzle(s))
            }
        }
    })
}

fn min_precision(name: &str) -> Option<u8> {
    match name.to_ascii_lowercase().as_str() {
        "min16f" => Some(1),
        "min2_8f" | "min10f" => Some(2),
        "min16i" => Some(4),
        "min16u" => Some(5),
        _ => None,
    }
}

/// A parsed register name with its leading number and bracketed indices.
struct Register<'a> {
    ty: OperandType,
    /// Index 0 written right after the name (`r5`, `cb3`).
    number: Option<u32>,
    /// Bracketed index texts with their offsets.
    brackets: Vec<(&'a str, usize)>,
    /// Offset just past the register (before any selector).
    end: usize,
}

/// Parse `name[number][[...]...]` at byte `i` of `s` (statement offset `base`).
fn parse_register<'a>(s: &'a str, i: usize, base: usize) -> PResult<Register<'a>> {
    let b = s.as_bytes();
    let mut j = i;
    while j < b.len() && b[j].is_ascii_alphabetic() {
        j += 1;
    }
    let name = &s[i..j];
    if name.is_empty() {
        let found = s[i..]
            .chars()
            .next()
            .map_or("end of line".to_string(), |c| format!("'{c}'"));
        return Err((base + i, format!("expected an operand, found {found}")));
    }
    let ty = *register_names()
        .get(&name.to_ascii_lowercase())
        .ok_or_else(|| (base + i, format!("unknown register type '{name}'")))?;
    let mut k = j;
    while k < b.len() && b[k].is_ascii_digit() {
        k += 1;
    }
    let number = if k > j {
        Some(s[j..k].parse::<u32>().map_err(|_| {
            (
                base + j,
                format!("register number '{}' is too large", &s[j..k]),
            )
        })?)
    } else {
        None
    };
    let mut brackets = Vec::new();
    let mut p = k;
    while p < b.len() && b[p] == b'[' {
        let close = matching(s, p, b']').ok_or((base + p, "unclosed '['".to_string()))?;
        brackets.push((&s[p + 1..close], base + p + 1));
        p = close + 1;
    }
    Ok(Register {
        ty,
        number,
        brackets,
        end: p,
    })
}

/// Parse an index expression: `7`, `r1.x + 7`, `7 + r1.x`, `r1.x` (§3, §5.3).
fn parse_index(s: &str, base: usize) -> PResult<Index> {
    let mut depth = 0i32;
    let mut plus = None;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '+' if depth == 0 => {
                plus = Some(i);
                break;
            }
            _ => {}
        }
    }
    let is_int = |t: &str| {
        let t = t.trim();
        !t.is_empty() && (t.bytes().all(|c| c.is_ascii_digit()) || t.starts_with("0x"))
    };
    let parts: Vec<(&str, usize)> = match plus {
        Some(p) => vec![trimmed(&s[..p], base), trimmed(&s[p + 1..], base + p + 1)],
        None => vec![trimmed(s, base)],
    };
    let mut imm = 0u64;
    let mut rel = None;
    for (t, off) in parts {
        if t.is_empty() {
            return Err((off, "empty index".into()));
        }
        if is_int(t) {
            let v = if let Some(h) = t.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else {
                t.parse::<u64>().ok()
            };
            imm = v.ok_or((off, format!("index '{t}' is too large")))?;
        } else {
            if rel.is_some() {
                return Err((off, "an index has at most one relative register".into()));
            }
            // Literal values inside an index are not recorded: they are
            // addresses, never lossy floats.
            let (op, _) = parse_operand(t, off, Role::Source, Class::Other, false)?;
            rel = Some(Box::new(op));
        }
    }
    Ok(Index { imm, rel })
}

/// Parse one operand (§3): modifiers, register or immediate, indices,
/// selector, minimum-precision annotation.
fn parse_operand(
    s: &str,
    base: usize,
    role: Role,
    class: Class,
    bare_literal: bool,
) -> PResult<(Operand, Vec<LitText>)> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut lits = Vec::new();
    let neg = b.first() == Some(&b'-');
    if neg {
        i += 1;
    }
    let abs = b.get(i) == Some(&b'|');
    if abs {
        i += 1;
    }
    let mut op = Operand {
        ty: OperandType::Null,
        components: Components::Zero,
        indices: Vec::new(),
        modifier: match (neg, abs) {
            (false, false) => Modifier::None,
            (true, false) => Modifier::Neg,
            (false, true) => Modifier::Abs,
            (true, true) => Modifier::AbsNeg,
        },
        min_precision: 0,
        non_uniform: false,
        imm: Vec::new(),
    };
    let lower2 = s.get(i..i + 2).map(|p| p.to_ascii_lowercase());
    let is_imm = |p: &str| lower2.as_deref() == Some(p);
    if bare_literal && !neg && b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        let (v, float_styled) = parse_literal32(s, base)?;
        op.ty = OperandType::Immediate32;
        op.components = Components::One;
        op.imm.push(v);
        lits.push(LitText {
            off: base,
            text: s.to_string(),
            float_styled,
            words: 1,
        });
        return Ok((op, lits));
    }
    if is_imm("l(") || is_imm("d(") {
        let wide = is_imm("d(");
        let open = i + 1;
        let close = matching(s, open, b')').ok_or((base + open, "unclosed '('".to_string()))?;
        let items = split_top(&s[open + 1..close], base + open + 1);
        op.ty = if wide {
            OperandType::Immediate64
        } else {
            OperandType::Immediate32
        };
        for (t, off) in &items {
            if wide {
                let v = parse_literal64(t, *off)?;
                op.imm.push(v as u32);
                op.imm.push((v >> 32) as u32);
                lits.push(LitText {
                    off: *off,
                    text: t.to_string(),
                    float_styled: true,
                    words: 2,
                });
            } else {
                let (v, float_styled) = parse_literal32(t, *off)?;
                op.imm.push(v);
                lits.push(LitText {
                    off: *off,
                    text: t.to_string(),
                    float_styled,
                    words: 1,
                });
            }
        }
        op.components = match (items.len(), wide) {
            (1, _) => Components::One,
            (4, false) | (2, true) => Components::Four(Selection::Mask(0)),
            (n, false) => return Err((base + i, format!("l(...) holds 1 or 4 values, found {n}"))),
            (n, true) => return Err((base + i, format!("d(...) holds 1 or 2 values, found {n}"))),
        };
        i = close + 1;
    } else {
        let reg = parse_register(s, i, base)?;
        op.ty = reg.ty;
        if let Some(n) = reg.number {
            op.indices.push(Index {
                imm: u64::from(n),
                rel: None,
            });
        }
        for (t, off) in reg.brackets {
            op.indices.push(parse_index(t, off)?);
        }
        if op.indices.len() > 3 {
            return Err((base + i, "an operand has at most 3 indices".into()));
        }
        i = reg.end;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_alphabetic() {
                j += 1;
            }
            op.components = selector_components(&s[start..j], base + start, role)?;
            i = j;
        } else {
            op.components = default_components(op.ty, role, class);
        }
    }
    // Annotations and the closing `|`, in either order.
    let mut closed = !abs;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        match b.get(i) {
            Some(b'{') => {
                let close = matching(s, i, b'}').ok_or((base + i, "unclosed '{'".to_string()))?;
                let inner = s[i + 1..close].trim();
                if inner.eq_ignore_ascii_case("nonuniform") {
                    // SM5.1: the operand's index may differ between lanes
                    op.non_uniform = true;
                } else {
                    // `{min16f}`, or `{own as destination's}`: the operand's
                    // own precision is the first (`def32`: the default)
                    let own = inner
                        .split_once(" as ")
                        .map_or(inner, |(own, _)| own)
                        .trim();
                    if !own.eq_ignore_ascii_case("def32") {
                        op.min_precision = min_precision(own).ok_or_else(|| {
                            (
                                base + i,
                                format!("unknown precision annotation '{{{inner}}}'"),
                            )
                        })?;
                    }
                }
                i = close + 1;
            }
            Some(b'|') if !closed => {
                closed = true;
                i += 1;
            }
            None => break,
            Some(_) => {
                return Err((
                    base + i,
                    format!("unexpected '{}' after the operand", &s[i..]),
                ))
            }
        }
    }
    if !closed {
        return Err((base + s.len(), "missing closing '|'".into()));
    }
    Ok((op, lits))
}

// ---------------------------------------------------------------------------
// Statements.

/// The version line: `cs_5_0`, `cs_5_1`, `cs_4_0`, … (§1).
fn parse_version(s: &str) -> PResult<ShaderVersion> {
    let bad = || {
        (
            0,
            format!("expected a version line such as cs_5_0, found '{s}'"),
        )
    };
    let lower = s.to_ascii_lowercase();
    let mut parts = lower.split('_');
    let (Some(prefix), Some(major), Some(minor), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let program_type = (0..6)
        .filter_map(ProgramType::from_raw)
        .find(|t| t.prefix() == prefix)
        .ok_or_else(bad)?;
    let major: u8 = major.parse().map_err(|_| bad())?;
    let minor: u8 = minor.parse().map_err(|_| bad())?;
    if major > 15 || minor > 15 {
        return Err(bad());
    }
    Ok(ShaderVersion {
        program_type,
        major,
        minor,
    })
}

/// A mnemonic split into its base opcode, suffix words and groups (§2).
struct Mnemonic<'a> {
    opcode: Option<Opcode>,
    /// The whole name (identifier parts joined), lower case.
    name: String,
    /// Suffix words after the base mnemonic, lower case, with offsets.
    suffixes: Vec<(String, usize)>,
    /// Parenthesised groups: contents and offset of the contents.
    groups: Vec<(&'a str, usize)>,
}

fn split_mnemonic(tok: &str) -> PResult<Mnemonic<'_>> {
    let b = tok.as_bytes();
    let mut name = String::new();
    let mut offs = Vec::new();
    let mut groups = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'(' {
            let close = matching(tok, i, b')').ok_or((i, "unclosed '('".to_string()))?;
            groups.push((&tok[i + 1..close], i + 1));
            i = close + 1;
        } else {
            let c = b[i];
            if !(c.is_ascii_alphanumeric() || c == b'_') {
                return Err((i, format!("unexpected '{}' in the mnemonic", char::from(c))));
            }
            name.push(char::from(c.to_ascii_lowercase()));
            offs.push(i);
            i += 1;
        }
    }
    let pieces: Vec<(&str, usize)> = {
        let mut v = Vec::new();
        let mut start = 0;
        for (k, c) in name.char_indices() {
            if c == '_' {
                v.push((&name[start..k], start));
                start = k + 1;
            }
        }
        v.push((&name[start..], start));
        v
    };
    let at = |k: usize| offs.get(k).copied().unwrap_or(tok.len());
    let map = mnemonics();
    for n in (1..=pieces.len()).rev() {
        let base = pieces[..n]
            .iter()
            .map(|p| p.0)
            .collect::<Vec<_>>()
            .join("_");
        if let Some(&op) = map.get(&base) {
            let suffixes = pieces[n..]
                .iter()
                .map(|(p, k)| (p.to_string(), at(*k)))
                .collect();
            return Ok(Mnemonic {
                opcode: Some(op),
                name,
                suffixes,
                groups,
            });
        }
    }
    Ok(Mnemonic {
        opcode: None,
        name,
        suffixes: Vec::new(),
        groups,
    })
}

/// A parsed `_indexable`/`_aoffimmi` group set (§2, §3.2).
fn classify_groups(groups: &[(&str, usize)], ext: &mut ExtendedOpcode) -> PResult<()> {
    for &(g, off) in groups {
        let items = split_top(g, off);
        let names: Vec<&str> = items.iter().map(|i| i.0).collect();
        if names.len() == 4 && names.iter().all(|n| return_type(n).is_some()) {
            if ext.return_types.is_some() {
                return Err((off, "return types given twice".into()));
            }
            let mut t = [0u8; 4];
            for (k, n) in names.iter().enumerate() {
                t[k] = return_type(n).unwrap_or(0);
            }
            ext.return_types = Some(t);
        } else if let Some(dim) = names.first().and_then(|n| dimension(n)) {
            if ext.resource_dim.is_some() {
                return Err((off, "resource dimension given twice".into()));
            }
            let mut stride = 0;
            for &(item, ioff) in &items[1..] {
                let (key, value) = item
                    .split_once('=')
                    .ok_or((ioff, format!("expected 'stride=N', found '{item}'")))?;
                if !key.trim().eq_ignore_ascii_case("stride") {
                    return Err((ioff, format!("expected 'stride=N', found '{item}'")));
                }
                stride = parse_u32(value, ioff + key.len() + 1, "a stride")?;
            }
            ext.resource_dim = Some((dim, stride));
        } else if items.len() == 3 {
            let mut o = [0i8; 3];
            for (k, &(t, ioff)) in items.iter().enumerate() {
                o[k] = t
                    .parse::<i8>()
                    .ok()
                    .filter(|v| (-8..=7).contains(v))
                    .ok_or((
                        ioff,
                        format!("texel offset '{t}' is not an integer in -8..7"),
                    ))?;
            }
            ext.sample_offsets = Some(o);
        } else {
            return Err((
                off,
                format!("'({g})' is neither texel offsets, a resource dimension nor return types"),
            ));
        }
    }
    Ok(())
}

/// Where the word from `start` ends: the first whitespace outside
/// parentheses (a mnemonic with its `(…)` parts is one word).
fn word_end(b: &[u8], start: usize) -> usize {
    let mut depth = 0i32;
    let mut end = start;
    while end < b.len() {
        match b[end] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            c if depth == 0 && c.is_ascii_whitespace() => break,
            _ => {}
        }
        end += 1;
    }
    end
}

struct Assembler {
    version: ShaderVersion,
    instructions: Vec<Instruction>,
    literals: Vec<Literal>,
    offset: u32,
}

impl Assembler {
    fn statement(&mut self, st: &Stmt) -> PResult<()> {
        let s = st.text.as_str();
        let b = s.as_bytes();
        let end = word_end(b, 0);
        let mut rest_start = end;
        while rest_start < b.len() && b[rest_start].is_ascii_whitespace() {
            rest_start += 1;
        }
        // `[precise]` / `[precise(xyz)]` (§2): after the name, and before
        // the parenthesised parts where there are any, as Microsoft prints
        // it (`ld_structured_indexable [precise](structured_buffer, …)(…)`);
        // those parts then follow the `]` and belong to the mnemonic
        let mut mnemonic_text = s[..end].to_string();
        let mut precise = 0u32;
        if s[rest_start..].to_ascii_lowercase().starts_with("[precise") {
            let close = matching(s, rest_start, b']')
                .ok_or((rest_start, "unclosed '[precise'".to_string()))?;
            if b.get(close + 1) == Some(&b'(') {
                mnemonic_text.push_str(&s[close + 1..word_end(b, close + 1)]);
            }
            let inner = &s[rest_start + 8..close];
            precise = if inner.trim().is_empty() {
                0xf
            } else {
                let letters = inner
                    .trim()
                    .strip_prefix('(')
                    .and_then(|t| t.strip_suffix(')'))
                    .ok_or((
                        rest_start,
                        format!("bad precise annotation '{}'", &s[rest_start..=close]),
                    ))?;
                let mut m = 0;
                for c in letters.chars() {
                    m |= 1
                        << component_letter(c).ok_or((
                            rest_start,
                            format!("bad component '{c}' in the precise annotation"),
                        ))?;
                }
                m
            };
            rest_start = close + 1 + (mnemonic_text.len() - end);
            while rest_start < b.len() && b[rest_start].is_ascii_whitespace() {
                rest_start += 1;
            }
        }
        let mn = split_mnemonic(&mnemonic_text)?;
        let rest = &s[rest_start..];
        if mn.name == "dcl_immediateconstantbuffer" {
            let (ins, lits) = self.icb(rest, rest_start)?;
            return self.push(ins, lits, st);
        }
        if mn.name == "printf" || mn.name == "errorf" {
            return self.message(mn.name == "errorf", rest, rest_start, st);
        }
        let opcode = mn
            .opcode
            .ok_or_else(|| (0, format!("unknown instruction '{}'", &s[..end])))?;
        let mut ins = Instruction {
            offset: self.offset,
            opcode,
            token: opcode as u32 | precise << 19,
            extended: ExtendedOpcode::default(),
            operands: Vec::new(),
            raw: Vec::new(),
        };
        let mut lits = Vec::new();
        if opcode.info().class == Class::Decl {
            self.declaration(&mut ins, &mn, rest, rest_start, &mut lits)?;
        } else {
            self.instruction(&mut ins, &mn, rest, rest_start, &mut lits)?;
        }
        self.push(ins, lits, st)
    }

    /// Fill in the token and offset, record literal positions, append.
    fn push(&mut self, mut ins: Instruction, lits: Vec<LitText>, st: &Stmt) -> PResult<()> {
        if ins.opcode != Opcode::CustomData {
            // A nonzero placeholder length: the encoder computes the real one.
            ins.token |= 1 << 24;
        }
        let words = encode_instruction(&ins).map_err(|m| (0, m))?;
        ins.token = words[0];
        // Where the immediates landed (§5.4: after the operand token and its extended token).
        let mut body_len = ins.raw.len();
        let mut spans = Vec::new();
        for op in &ins.operands {
            let mut w = Vec::new();
            encode_operand(op, &mut w).map_err(|m| (0, m))?;
            spans.push(w.len());
            body_len += w.len();
        }
        // a shader message's operands follow its header inside the block
        let message = ins.shader_message().is_some();
        let mut pos = match message {
            true => self.offset as usize + 2 + SHADER_MESSAGE_HEADER,
            false => self.offset as usize + words.len() - body_len,
        };
        let mut lit_iter = lits.into_iter();
        let mut record = |dword: usize, lt: LitText| {
            let (line, column) = st.position(lt.off);
            self.literals.push(Literal {
                dword: dword as u32,
                words: lt.words,
                line,
                column,
                text: lt.text,
                float_styled: lt.float_styled,
            });
        };
        if ins.opcode == Opcode::CustomData && !message {
            for (k, lt) in lit_iter.enumerate() {
                record(self.offset as usize + 2 + k, lt);
            }
        } else {
            for (op, len) in ins.operands.iter().zip(&spans) {
                if matches!(op.ty, OperandType::Immediate32 | OperandType::Immediate64) {
                    let ext = usize::from(
                        op.modifier != Modifier::None || op.min_precision != 0 || op.non_uniform,
                    );
                    let mut at = pos + 1 + ext;
                    let n = if op.ty == OperandType::Immediate64 {
                        op.imm.len() / 2
                    } else {
                        op.imm.len()
                    };
                    for lt in lit_iter.by_ref().take(n) {
                        let w = lt.words as usize;
                        record(at, lt);
                        at += w;
                    }
                }
                pos += len;
            }
        }
        self.offset = self
            .offset
            .checked_add(words.len() as u32)
            .ok_or((0, "the program is longer than 2^32 dwords".to_string()))?;
        self.instructions.push(ins);
        Ok(())
    }

    fn instruction(
        &self,
        ins: &mut Instruction,
        mn: &Mnemonic<'_>,
        rest: &str,
        base: usize,
        lits: &mut Vec<LitText>,
    ) -> PResult<()> {
        let op = ins.opcode;
        let mut test = None;
        let (mut aoff, mut indexable) = (false, false);
        for (suf, off) in &mn.suffixes {
            let off = *off;
            let bad = || {
                (
                    off,
                    format!("'_{suf}' is not a suffix of {}", op.mnemonic()),
                )
            };
            match suf.as_str() {
                "sat" if op.has_saturate() || op == Opcode::Sync => ins.token |= 1 << 13,
                "z" if op.has_test() => test = Some(false),
                "nz" if op.has_test() => {
                    test = Some(true);
                    ins.token |= 1 << 18;
                }
                "t" if op == Opcode::Sync => ins.token |= 1 << 11,
                "g" if op == Opcode::Sync => ins.token |= 1 << 12,
                "ugroup" if op == Opcode::Sync => ins.token |= 1 << 13,
                "uglobal" if op == Opcode::Sync => ins.token |= 1 << 14,
                "uint" if op == Opcode::Resinfo => ins.token = (ins.token & !(3 << 11)) | 2 << 11,
                "rcpfloat" if op == Opcode::Resinfo => {
                    ins.token = (ins.token & !(3 << 11)) | 1 << 11
                }
                "uint" if op == Opcode::SampleInfo => ins.token |= 1 << 11,
                "aoffimmi" => aoff = true,
                "indexable" => indexable = true,
                _ => return Err(bad()),
            }
        }
        if op.has_test() && test.is_none() {
            return Err((0, format!("{} needs a _z or _nz suffix", op.mnemonic())));
        }
        classify_groups(&mn.groups, &mut ins.extended)?;
        let first_group = mn.groups.first().map_or(0, |g| g.1);
        if ins.extended.sample_offsets.is_some() != aoff {
            return Err((
                first_group,
                if aoff {
                    "_aoffimmi needs a (u,v,w) group".to_string()
                } else {
                    "texel offsets need the _aoffimmi suffix".to_string()
                },
            ));
        }
        if ins.extended.resource_dim.is_some() != indexable {
            return Err((
                first_group,
                if indexable {
                    "_indexable needs a (dimension) group".to_string()
                } else {
                    "a resource dimension needs the _indexable suffix".to_string()
                },
            ));
        }
        ins.raw = vec![0; op.fxc_padding(ins.extended.sample_offsets.is_some())];
        let parts = split_top(rest, base);
        match op.info().shape {
            Shape::Ops { dsts, srcs } => {
                let n = usize::from(dsts + srcs);
                if parts.len() != n {
                    let at = parts.get(n).map_or(base + rest.len(), |p| p.1);
                    return Err((
                        at,
                        format!(
                            "{} takes {n} operand{}, found {}",
                            op.mnemonic(),
                            if n == 1 { "" } else { "s" },
                            parts.len()
                        ),
                    ));
                }
                for (k, (t, off)) in parts.into_iter().enumerate() {
                    if t.is_empty() {
                        return Err((off, "empty operand".into()));
                    }
                    let role = if k < usize::from(dsts) {
                        Role::Dest
                    } else {
                        Role::Source
                    };
                    let (mut o, l) =
                        parse_operand(t, off, role, op.info().class, op == Opcode::Case)?;
                    if o.ty == OperandType::Immediate32
                        && op.operand_type(k) == OperandDataType::Untyped
                    {
                        for (v, lt) in o.imm.iter_mut().zip(&l) {
                            if lt.float_styled {
                                *v = untyped_float(&lt.text, *v);
                            }
                        }
                    }
                    lits.extend(l);
                    ins.operands.push(o);
                }
            }
            Shape::CallSite => {
                // `fcall fp#[array index][call site]`: the call site is a raw dword
                // before the operand, which keeps the other two indices.
                let [(t, off)] = parts.as_slice() else {
                    return Err((base, "fcall takes one operand 'fp#[i][site]'".into()));
                };
                let (mut o, l) = parse_operand(t, *off, Role::Source, op.info().class, false)?;
                let site = o
                    .indices
                    .pop()
                    .filter(|i| i.rel.is_none() && o.ty == OperandType::Interface)
                    .ok_or((*off, "expected 'fp#[i][site]'".to_string()))?;
                ins.raw.push(
                    u32::try_from(site.imm)
                        .map_err(|_| (*off, "call site too large".to_string()))?,
                );
                lits.extend(l);
                ins.operands.push(o);
            }
            _ => {
                for (t, off) in parts {
                    ins.raw.push(parse_u32(t, off, "a value")?);
                }
            }
        }
        Ok(())
    }

    /// Declarations (`reference/asm-syntax.md` §4; layouts in
    /// `reference/dxbc-format.md` §6, SM5.1 forms in §8).
    fn declaration(
        &self,
        ins: &mut Instruction,
        mn: &Mnemonic<'_>,
        rest: &str,
        base: usize,
        lits: &mut Vec<LitText>,
    ) -> PResult<()> {
        use Opcode as O;
        let op = ins.opcode;
        let mut dim = None;
        for (suf, off) in &mn.suffixes {
            match (op, suf.as_str()) {
                (O::DclUavTyped | O::DclUavRaw | O::DclUavStructured, "glc") => {
                    ins.token |= 1 << 16
                }
                (O::DclUavTyped | O::DclUavRaw | O::DclUavStructured, "rov") => {
                    ins.token |= 1 << 17
                }
                (O::DclUavStructured, "opc") => ins.token |= 1 << 23,
                (O::DclInterface, "dynamicindexed") => ins.token |= 1 << 11,
                (O::DclResource | O::DclUavTyped, d) if dim.is_none() && dimension(d).is_some() => {
                    dim = dimension(d)
                }
                _ => {
                    return Err((
                        *off,
                        format!("'_{suf}' is not a suffix of {}", op.mnemonic()),
                    ))
                }
            }
        }
        let mn_end = base.saturating_sub(1);
        let mut groups = mn.groups.iter();
        if matches!(op, O::DclResource | O::DclUavTyped) {
            let d = dim.ok_or((
                mn_end,
                format!(
                    "{} needs a dimension suffix such as _texture2d",
                    op.mnemonic()
                ),
            ))?;
            ins.token |= d << 11;
            if op == O::DclResource && (d == 4 || d == 9) {
                if let Some(&(g, off)) = groups.next() {
                    let n = parse_u32(g, off, "a sample count")?;
                    if n > 0x7f {
                        return Err((off, format!("sample count {n} does not fit 7 bits")));
                    }
                    ins.token |= n << 16;
                }
            }
        }
        if let Some(&(g, off)) = groups.next() {
            return Err((off, format!("unexpected group '({g})'")));
        }

        let mut rest = rest;
        let mut base = base;
        if matches!(op, O::DclResource | O::DclUavTyped) {
            // `(float,float,float,float) t0`: the return-type token (§6).
            if !rest.starts_with('(') {
                return Err((
                    base,
                    "expected the return types '(float,float,float,float)'".into(),
                ));
            }
            let close = matching(rest, 0, b')').ok_or((base, "unclosed '('".to_string()))?;
            let types = split_top(&rest[1..close], base + 1);
            if types.len() != 4 {
                return Err((
                    base,
                    format!("expected 4 return types, found {}", types.len()),
                ));
            }
            let mut token = 0;
            for (k, (t, off)) in types.iter().enumerate() {
                let r = return_type(t).ok_or((*off, format!("unknown return type '{t}'")))?;
                token |= u32::from(r) << (4 * k);
            }
            ins.raw.push(token);
            let after = &rest[close + 1..];
            let t = after.trim_start();
            base += close + 1 + (after.len() - t.len());
            rest = t;
        }
        let mut items = split_top(rest, base);
        let end = base + rest.len();
        let need = |items: &[(&str, usize)], n: usize, what: &str| -> PResult<()> {
            if items.len() == n {
                Ok(())
            } else {
                let at = items.get(n).map_or(end, |i| i.1);
                Err((at, format!("{} expects {what}", op.mnemonic())))
            }
        };
        match op {
            O::DclGlobalFlags => {
                let mut at = base;
                for name in rest.split('|') {
                    let (t, off) = trimmed(name, at);
                    at += name.len() + 1;
                    if t.is_empty() && rest.trim().is_empty() {
                        continue;
                    }
                    let k = GLOBAL_FLAGS
                        .iter()
                        .position(|f| f.eq_ignore_ascii_case(t))
                        .ok_or((off, format!("unknown global flag '{t}'")))?;
                    ins.token |= 1 << (11 + k);
                }
            }
            O::DclTemps => {
                need(&items, 1, "a register count")?;
                ins.raw
                    .push(parse_u32(items[0].0, items[0].1, "a register count")?);
            }
            O::DclIndexableTemp => {
                need(&items, 2, "'x#[size], components'")?;
                let (t, off) = items[0];
                let reg = parse_register(t, 0, off)?;
                let (Some(n), [(size, soff)], true) =
                    (reg.number, reg.brackets.as_slice(), reg.end == t.len())
                else {
                    return Err((off, format!("expected 'x#[size]', found '{t}'")));
                };
                if reg.ty != OperandType::IndexableTemp {
                    return Err((off, format!("expected an x# register, found '{t}'")));
                }
                ins.raw.push(n);
                ins.raw.push(parse_u32(size, *soff, "an element count")?);
                ins.raw
                    .push(parse_u32(items[1].0, items[1].1, "a component count")?);
            }
            O::DclThreadGroup => {
                need(&items, 3, "three sizes 'x, y, z'")?;
                for (t, off) in items {
                    ins.raw.push(parse_u32(t, off, "a thread-group size")?);
                }
            }
            O::DclConstantBuffer => {
                let space = take_space(&mut items)?;
                if items.is_empty() || items.len() > 2 {
                    return Err((
                        base,
                        "expected 'cb#[size], immediateIndexed|dynamicIndexed'".into(),
                    ));
                }
                let (mut operand, extra) = decl_register(items[0].0, items[0].1)?;
                operand.components = Components::Four(IDENTITY);
                if operand.indices.len() == 3 {
                    let [size] = extra.as_slice() else {
                        return Err((items[0].1, "expected 'CB#[lo:hi][size]'".into()));
                    };
                    ins.raw.push(*size);
                } else if operand.indices.len() != 2 || !extra.is_empty() {
                    return Err((items[0].1, "expected 'cb#[size]'".into()));
                }
                if let Some(&(access, off)) = items.get(1) {
                    if access.eq_ignore_ascii_case("dynamicIndexed") {
                        ins.token |= 1 << 11;
                    } else if !access.eq_ignore_ascii_case("immediateIndexed") {
                        return Err((off, format!("unknown access pattern '{access}'")));
                    }
                }
                ins.operands.push(operand);
                self.space(ins, space)?;
            }
            O::DclSampler => {
                let space = take_space(&mut items)?;
                if items.is_empty() || items.len() > 2 {
                    return Err((base, "expected 's#, mode_default'".into()));
                }
                ins.operands.push(self.plain_register(items[0])?);
                if let Some(&(mode, off)) = items.get(1) {
                    let m = ["mode_default", "mode_comparison", "mode_mono"]
                        .iter()
                        .position(|n| n.eq_ignore_ascii_case(mode))
                        .ok_or((off, format!("unknown sampler mode '{mode}'")))?;
                    ins.token |= (m as u32) << 11;
                }
                self.space(ins, space)?;
            }
            O::DclResource | O::DclUavTyped | O::DclResourceRaw | O::DclUavRaw => {
                let space = take_space(&mut items)?;
                need(&items, 1, "one register")?;
                ins.operands.push(self.plain_register(items[0])?);
                self.space(ins, space)?;
            }
            O::DclResourceStructured | O::DclUavStructured => {
                let space = take_space(&mut items)?;
                need(&items, 2, "'register, stride'")?;
                ins.operands.push(self.plain_register(items[0])?);
                ins.raw.push(parse_u32(items[1].0, items[1].1, "a stride")?);
                self.space(ins, space)?;
            }
            O::DclTgsmRaw => {
                need(&items, 2, "'g#, byte count'")?;
                ins.operands.push(self.plain_register(items[0])?);
                ins.raw
                    .push(parse_u32(items[1].0, items[1].1, "a byte count")?);
            }
            // Class linkage (TPF "Function Body/Table", "Interface").
            O::DclFunctionBody => {
                need(&items, 1, "'fb#'")?;
                ins.raw.push(prefixed_u32(items[0], "fb")?);
            }
            O::DclFunctionTable | O::DclInterface => {
                // `ft# = {fb#, …}` / `fp#[array][call sites] = {ft#, …}`
                let eq = rest
                    .find('=')
                    .ok_or((end, "expected '= {…}'".to_string()))?;
                let (head, hoff) = trimmed(&rest[..eq], base);
                let list = rest[eq + 1..].trim();
                let lbase = base + rest.len() - rest[eq + 1..].trim_start().len();
                let inner = list
                    .strip_prefix('{')
                    .and_then(|l| l.strip_suffix('}'))
                    .ok_or((lbase, "expected '{…}'".to_string()))?;
                let entries: Vec<_> = split_top(inner, lbase + 1)
                    .into_iter()
                    .filter(|(t, _)| !t.is_empty())
                    .collect();
                let (prefix, item) = if op == O::DclFunctionTable {
                    ("ft", "fb")
                } else {
                    ("fp", "ft")
                };
                let reg = parse_register(head, 0, hoff)?;
                let id = reg.number.ok_or((hoff, format!("expected {prefix}#")))?;
                if !head.to_ascii_lowercase().starts_with(prefix) {
                    return Err((hoff, format!("expected {prefix}#, found '{head}'")));
                }
                ins.raw.push(id);
                if op == O::DclFunctionTable {
                    ins.raw.push(entries.len() as u32);
                } else {
                    let [(arr, aoff), (sites, soff)] = reg.brackets.as_slice() else {
                        return Err((hoff, "expected 'fp#[array length][call sites]'".into()));
                    };
                    let arr = parse_u32(arr, *aoff, "an array length")?;
                    ins.raw.push(parse_u32(sites, *soff, "a call-site count")?);
                    if arr > 0xffff || entries.len() > 0xffff {
                        return Err((hoff, "array length and table count must fit 16 bits".into()));
                    }
                    ins.raw.push(arr << 16 | entries.len() as u32);
                }
                for e in entries {
                    ins.raw.push(prefixed_u32(e, item)?);
                }
            }
            O::DclTgsmStructured => {
                need(&items, 3, "'g#, stride, count'")?;
                ins.operands.push(self.plain_register(items[0])?);
                ins.raw.push(parse_u32(items[1].0, items[1].1, "a stride")?);
                ins.raw
                    .push(parse_u32(items[2].0, items[2].1, "a structure count")?);
            }
            _ => {
                // Any other declaration: its operands, then raw dwords.
                let n = match op.info().shape {
                    Shape::Decl { ops } => usize::from(ops),
                    _ => 0,
                };
                if items.len() < n {
                    return Err((end, format!("{} expects {n} operand(s)", op.mnemonic())));
                }
                for (k, (t, off)) in items.into_iter().enumerate() {
                    if k < n {
                        let (o, l) = parse_operand(t, off, Role::Decl, Class::Decl, false)?;
                        lits.extend(l);
                        ins.operands.push(o);
                    } else {
                        ins.raw.push(parse_u32(t, off, "a value")?);
                    }
                }
            }
        }
        Ok(())
    }

    /// A declaration register written `t3` (SM5.0: 0 components) or
    /// `T3[3:3]` (SM5.1: identity swizzle, indices [id, lo, hi]; §8).
    fn plain_register(&self, (t, off): (&str, usize)) -> PResult<Operand> {
        let (mut op, extra) = decl_register(t, off)?;
        if !extra.is_empty() || op.indices.len() == 2 {
            return Err((off, format!("unexpected index in '{t}'")));
        }
        op.components = if op.indices.len() == 3 {
            Components::Four(IDENTITY)
        } else {
            Components::Zero
        };
        Ok(op)
    }

    /// Append the SM5.1 `space=N` dword (default 0); refuse it before SM5.1 (§8).
    fn space(&self, ins: &mut Instruction, space: Option<(u32, usize)>) -> PResult<()> {
        match (self.version.is_sm51(), space) {
            (true, s) => ins.raw.push(s.map_or(0, |s| s.0)),
            (false, Some((_, off))) => return Err((off, "'space=' needs shader model 5.1".into())),
            (false, None) => {}
        }
        Ok(())
    }

    /// `dcl_immediateConstantBuffer { { a, b, c, d}, … }` (§4; custom data
    /// class 3, dxbc-format.md §3.3).
    fn icb(&self, rest: &str, base: usize) -> PResult<(Instruction, Vec<LitText>)> {
        let t = rest.trim_end();
        let inner = t
            .strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .ok_or((
                base,
                "expected '{ { …}, … }' after dcl_immediateConstantBuffer".to_string(),
            ))?;
        let mut raw = Vec::new();
        let mut lits = Vec::new();
        for (row, roff) in split_top(inner, base + 1) {
            if row.is_empty() {
                continue;
            }
            let values = row
                .strip_prefix('{')
                .and_then(|x| x.strip_suffix('}'))
                .ok_or((
                    roff,
                    format!("expected a row '{{ a, b, c, d}}', found '{row}'"),
                ))?;
            for (v, voff) in split_top(values, roff + 1) {
                let (bits, float_styled) = parse_literal32(v, voff)?;
                raw.push(if float_styled {
                    untyped_float(v, bits)
                } else {
                    bits
                });
                lits.push(LitText {
                    off: voff,
                    text: v.to_string(),
                    float_styled,
                    words: 1,
                });
            }
        }
        let ins = Instruction {
            offset: self.offset,
            opcode: Opcode::CustomData,
            token: Opcode::CustomData as u32 | 3 << 11,
            extended: ExtendedOpcode::default(),
            operands: Vec::new(),
            raw,
        };
        Ok((ins, lits))
    }
}

impl Assembler {
    /// `printf "format", operands…` or `errorf …`: a custom-data block of
    /// class [`CUSTOMDATA_SHADER_MESSAGE`] in the layout fxc writes
    /// (`crate::ir::Instruction::shader_message`). The format string runs
    /// to the line's last `"` (fxc prints quotes inside it as they are) and
    /// takes C escapes (`\\`, `\n`, `\t`, `\xHH`, …).
    fn message(&mut self, error: bool, rest: &str, base: usize, st: &Stmt) -> PResult<()> {
        let open = rest
            .strip_prefix('"')
            .ok_or((base, "expected '\"format\"'".to_string()))?;
        let close = open
            .rfind('"')
            .ok_or((base, "the format string has no closing '\"'".to_string()))?;
        let text = unescape_message(&open[..close], base + 1)?;
        let after = open[close + 1..].trim_start();
        let after_at = base + 1 + close + 1 + (open[close + 1..].len() - after.len());
        let mut operands = Vec::new();
        let mut lits = Vec::new();
        if !after.is_empty() {
            let list = after.strip_prefix(',').ok_or((
                after_at,
                "expected ',' and the operands after the format string".to_string(),
            ))?;
            for (t, off) in split_top(list, after_at + 1) {
                let class = Opcode::Mov.info().class;
                let (mut o, l) = parse_operand(t, off, Role::Source, class, false)?;
                if o.ty == OperandType::Immediate32 {
                    for (v, lt) in o.imm.iter_mut().zip(&l) {
                        if lt.float_styled {
                            *v = untyped_float(&lt.text, *v);
                        }
                    }
                }
                lits.extend(l);
                operands.push(o);
            }
        }
        let mut op_words = Vec::new();
        for o in &operands {
            encode_operand(o, &mut op_words).map_err(|m| (base, m))?;
        }
        let id = if error {
            SHADER_MESSAGE_ERRORF
        } else {
            SHADER_MESSAGE_PRINTF
        };
        let mut raw = vec![
            id,
            1,
            text.len() as u32,
            operands.len() as u32,
            op_words.len() as u32,
        ];
        raw.extend_from_slice(&op_words);
        let mut bytes = text.into_bytes();
        bytes.push(0);
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        raw.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        let ins = Instruction {
            offset: self.offset,
            opcode: Opcode::CustomData,
            token: Opcode::CustomData as u32 | CUSTOMDATA_SHADER_MESSAGE << 11,
            extended: ExtendedOpcode::default(),
            operands,
            raw,
        };
        self.push(ins, lits, st)
    }
}

/// A listing's format string with its C escapes undone (`escape_message`
/// in the disassembler prints them).
fn unescape_message(s: &str, base: usize) -> PResult<String> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next().map(|(_, e)| e);
        out.push(match e {
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('a') => '\u{7}',
            Some('b') => '\u{8}',
            Some('v') => '\u{b}',
            Some('f') => '\u{c}',
            Some('x') => {
                let hex: String = chars.by_ref().take(2).map(|(_, h)| h).collect();
                u8::from_str_radix(&hex, 16).map(char::from).map_err(|_| {
                    (
                        base + i,
                        format!("'\\x{hex}' is not an escape of two hex digits"),
                    )
                })?
            }
            _ => {
                return Err((
                    base + i,
                    "an unknown escape in the format string".to_string(),
                ))
            }
        });
    }
    Ok(out)
}

/// Remove a trailing `space=N` item (§8) and return its value and offset.
/// `fb3` → 3 (a register written with a fixed prefix).
fn prefixed_u32((t, off): (&str, usize), prefix: &str) -> PResult<u32> {
    let lower = t.to_ascii_lowercase();
    let digits = lower
        .strip_prefix(prefix)
        .ok_or((off, format!("expected {prefix}#, found '{t}'")))?;
    parse_u32(digits, off + prefix.len(), "a register number")
}

fn take_space(items: &mut Vec<(&str, usize)>) -> PResult<Option<(u32, usize)>> {
    let Some(&(last, off)) = items.last() else {
        return Ok(None);
    };
    let Some((key, value)) = last.split_once('=') else {
        return Ok(None);
    };
    if !key.trim().eq_ignore_ascii_case("space") {
        return Err((off, format!("unknown setting '{key}'")));
    }
    let v = parse_u32(value, off + key.len() + 1, "a register space")?;
    items.pop();
    Ok(Some((v, off)))
}

/// Parse a declaration register: `t0`, `CB0[20]` (indices [0, 20]), or the
/// SM5.1 range form `T0[0:0]`, `U1[2:*]`, `CB0[0:0][1]` (indices
/// [id, lo, hi]; `*` = 0xFFFFFFFF; later brackets returned as `extra`).
fn decl_register(t: &str, off: usize) -> PResult<(Operand, Vec<u32>)> {
    let reg = parse_register(t, 0, off)?;
    if reg.end != t.len() {
        return Err((
            off + reg.end,
            format!("unexpected '{}' after the register", &t[reg.end..]),
        ));
    }
    let id = reg
        .number
        .ok_or((off, format!("'{t}' needs a register number")))?;
    let mut indices = vec![Index {
        imm: u64::from(id),
        rel: None,
    }];
    let mut extra = Vec::new();
    let mut brackets = reg.brackets.iter();
    let range = reg.brackets.first().is_some_and(|b| b.0.contains(':'));
    if range {
        if let Some(&(r, roff)) = brackets.next() {
            let (lo, hi) = r.split_once(':').unwrap_or((r, r));
            let lo = parse_u32(lo, roff, "a range start")?;
            let hi = if hi.trim() == "*" {
                u32::MAX
            } else {
                parse_u32(hi, roff + r.find(':').map_or(0, |p| p + 1), "a range end")?
            };
            for v in [lo, hi] {
                indices.push(Index {
                    imm: u64::from(v),
                    rel: None,
                });
            }
        }
        for &(b, boff) in brackets {
            extra.push(parse_u32(b, boff, "a size")?);
        }
    } else {
        for &(b, boff) in brackets {
            indices.push(Index {
                imm: u64::from(parse_u32(b, boff, "an index")?),
                rel: None,
            });
        }
    }
    Ok((
        Operand {
            ty: reg.ty,
            components: Components::Zero,
            indices,
            modifier: Modifier::None,
            min_precision: 0,
            non_uniform: false,
            imm: Vec::new(),
        },
        extra,
    ))
}
