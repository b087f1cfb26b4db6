//! HLSL files and lines of a shader's instructions, from the debug
//! information fxc writes with `/Zi`: the container's `SPDB` chunk, which
//! is a whole PDB file (an MSF file of streams, "Microsoft C/C++ MSF 7.00").
//! The `pdb` crate reads it; what this module adds is the DXBC meaning of
//! its line records.
//!
//! Facts (checked against fxc's `/Zi` listings, whose `#line` comments fxc
//! writes from the same records):
//! - The PDB has one module, whose symbols hold one procedure (`S_GPROC32`,
//!   the entry point) and its C13 line table (`DEBUG_S_LINES`), and
//!   whose inlined calls are `S_INLINESITE` symbols (nested as the calls
//!   are) with their lines in binary annotations (`DEBUG_S_INLINEELINES`).
//! - A line record's offset is the byte offset of an instruction's opcode
//!   token in the shader chunk's token stream, counted from the version
//!   token (byte 0): four times the instruction's dword offset.
//!   Declarations have no records.
//! - The procedure's table maps an inlined call's instructions to the line
//!   of the call; the innermost inline site holds the line they come from,
//!   which is the one the listing prints (and this module returns).
//! - fxc writes each record twice at one offset, a statement and an
//!   expression (the same line, other columns).
//! - File names are as the compiler was given them (the main file's full
//!   path, an included file as the `#include` wrote it); the text of each
//!   file is in the named stream `/src/files/<name in lower case>`.
//! - Each global variable has an `S_GDATA_HLSL` (0x1151) or `S_LDATA_HLSL`
//!   (0x1152) record (`DATASYMHLSL` of Microsoft's `cvinfo.h`): after the
//!   record kind, a 4-byte type index, then 2-byte fields: the register
//!   type (`CV_HLSLREG_e`: 31 for groupshared memory, 30 for a UAV), the
//!   data slot (the `g#` of a groupshared variable) and its byte offset
//!   there, the texture, sampler and UAV slots (0xFFFF: none), then the
//!   NUL-terminated name. This module reads the groupshared ones.
//! - Each local variable and parameter of the entry point and of each
//!   inlined function is an `S_LOCAL` (0x113E) record inside its procedure
//!   or inline site, followed by one `S_DEFRANGE_HLSL` (0x1150,
//!   `DEFRANGESYMHLSL` of `cvinfo.h`) per piece of it that lives in a
//!   register: after the record kind, 2-byte fields: the register type (the
//!   DXBC operand type: 0 `r#`, 3 `x#`, 32 `vThreadID`, 33
//!   `vThreadGroupID`, 34 `vThreadIDInGroup`, 36 `vThreadIDInGroupFlattened`),
//!   a bit field whose low two bits are the number of register indices, the
//!   piece's byte offset in the variable and its size in bytes; then the
//!   live range (`CV_LVAR_ADDR_RANGE`: a 4-byte start, as the line records
//!   count it, a 2-byte section, a 2-byte length in bytes); then gaps in it
//!   (`CV_LVAR_ADDR_GAP`: 2-byte start from the range's start, 2-byte
//!   length), then the register indices, 4 bytes each. For `r#` the one
//!   index is a byte offset in the register file (`16·r + 4·component`:
//!   `r2.y` is 36); for `x#` the first is the array, the second a byte
//!   offset in it; for the input registers only the low four bits count
//!   (`4·component`). A range starts at the instruction after the one that
//!   wrote the register (fxc's listing annotates that one: `// r0.x <- cx`).

use pdb::{FallibleIterator, SymbolData, PDB};
use std::collections::HashMap;
use std::io::Cursor;

/// Why a `SPDB` chunk could not be read: the PDB reader's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the SPDB chunk (fxc /Zi debug information) could not be read: {0}")]
pub struct DebugInfoError(pub String);

impl From<pdb::Error> for DebugInfoError {
    fn from(e: pdb::Error) -> Self {
        Self(e.to_string())
    }
}

/// An HLSL source file named by the debug information.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The name as the compiler recorded it (e.g.
    /// `Z:\work\examples\mandelbrot\mandelbrot.hlsl` from fxc under Wine,
    /// `helpers.hlsli` for an include).
    pub name: String,
    /// Its text as the compiler read it, when the PDB carries it.
    pub text: Option<String>,
}

impl SourceFile {
    /// The file name without its directories (either separator).
    pub fn base_name(&self) -> &str {
        self.name.rsplit(['\\', '/']).next().unwrap_or(&self.name)
    }

    /// Line `line` (1-based) of its text, without the line break.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let i = (line as usize).checked_sub(1)?;
        self.text.as_deref()?.lines().nth(i)
    }
}

/// A place in the HLSL source: an index into [`SourceMap::files`] and a
/// 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceLine {
    /// Index into [`SourceMap::files`].
    pub file: usize,
    /// 1-based line number.
    pub line: u32,
}

/// A run of instructions attributed to one line: byte offsets
/// `start..end` of the token stream, at inline depth `depth` (0: the
/// entry point's own table).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    start: u32,
    end: u32,
    depth: u32,
    at: SourceLine,
    /// the function whose table it comes from
    function: String,
}

/// The HLSL file and line of each instruction of a shader compiled with
/// debug information.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    /// The files the lines refer to, in the order first met.
    pub files: Vec<SourceFile>,
    /// The groupshared variables, by their `g#` slot and byte offset.
    pub groupshared: Vec<GroupsharedVariable>,
    /// The local variables and parameters, in the order of their records.
    pub locals: Vec<LocalVariable>,
    spans: Vec<Span>,
}

/// A groupshared (TGSM) variable named by the debug information.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupsharedVariable {
    /// Its HLSL name.
    pub name: String,
    /// The `g#` register it lives in.
    pub slot: u32,
    /// Its first byte in that register's memory.
    pub offset: u32,
}

/// What the 32-bit words of an HLSL variable hold, from its type record
/// (the base type of a vector, matrix or array; a structure's words are
/// [`ScalarKind::Unknown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    /// `float` (and `half`, `min16float`, which fxc gives 32 bits).
    Float,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `bool` (0 or 0xFFFFFFFF in a register).
    Bool,
    /// A `double`'s half, a structure's word, or a type not read.
    Unknown,
}

/// The register a piece of a variable lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableRegister {
    /// Temp `r{reg}`, component `comp` (0–3: x–w).
    Temp {
        /// Register number.
        reg: u32,
        /// Component, 0–3.
        comp: u32,
    },
    /// Indexable temp `x{array}[element]`, component `comp`.
    IndexableTemp {
        /// The `x#` array.
        array: u32,
        /// Element of the array.
        element: u32,
        /// Component, 0–3.
        comp: u32,
    },
    /// An input register of a compute shader: `vThreadID` (operand type
    /// 32), `vThreadGroupID` (33), `vThreadIDInGroup` (34) or
    /// `vThreadIDInGroupFlattened` (36), component `comp`.
    Input {
        /// The DXBC operand type.
        operand_type: u16,
        /// Component, 0–3.
        comp: u32,
    },
}

/// A piece of a variable that lives in one register component over some
/// instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariablePiece {
    /// Byte offset of the piece in the variable (4 per component: `.y` of a
    /// vector is 4).
    pub offset: u32,
    /// Its size in bytes (4: one 32-bit component).
    pub size: u32,
    /// Where it lives.
    pub register: VariableRegister,
    /// Dword offsets of the token stream (as [`SourceMap::line_at`] takes
    /// them) of the instructions before which the register holds it:
    /// half-open ranges, gaps removed.
    pub live: Vec<std::ops::Range<u32>>,
}

impl VariablePiece {
    /// Whether the register holds this piece before the instruction at
    /// dword `dword` runs.
    pub fn live_at(&self, dword: u32) -> bool {
        self.live.iter().any(|r| r.contains(&dword))
    }
}

/// A local variable or parameter of the entry point or of an inlined
/// function, from its `S_LOCAL` record and the `S_DEFRANGE_HLSL` records
/// after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalVariable {
    /// Its HLSL name.
    pub name: String,
    /// The function it belongs to (`main`, or an inlined function's name).
    pub function: String,
    /// The inline depth of that function (0: the entry point).
    pub depth: u32,
    /// Whether it is a parameter.
    pub parameter: bool,
    /// What its words hold.
    pub kind: ScalarKind,
    /// Its size in bytes, as far as the pieces cover it (the end of the
    /// last piece).
    pub size: u32,
    /// The pieces that live in registers; none when fxc optimized it away.
    pub pieces: Vec<VariablePiece>,
}

/// A frame of the HLSL call stack at an instruction: the innermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The function's name.
    pub function: String,
    /// Its inline depth (0: the entry point).
    pub depth: u32,
    /// The line it is at: the instruction's own for the innermost frame,
    /// the call's for the others.
    pub at: SourceLine,
}

/// `S_DEFRANGE_HLSL`.
const DEFRANGE_HLSL: u16 = 0x1150;

/// A piece from an `S_DEFRANGE_HLSL` record's bytes (the record kind
/// first), or `None` for a register type the debugger does not read.
fn variable_piece(raw: &[u8]) -> Option<VariablePiece> {
    let u16_at = |i: usize| Some(u16::from_le_bytes([*raw.get(i)?, *raw.get(i + 1)?]));
    let u32_at = |i: usize| Some(u32::from_le_bytes(raw.get(i..i + 4)?.try_into().ok()?));
    if u16_at(0)? != DEFRANGE_HLSL {
        return None;
    }
    let (reg_type, bits) = (u16_at(2)?, u16_at(4)?);
    let (offset, size) = (u32::from(u16_at(6)?), u32::from(u16_at(8)?));
    let (start, length) = (u32_at(10)?, u32::from(u16_at(16)?));
    let indices = usize::from(bits & 3);
    let tail = raw.len().checked_sub(18 + 4 * indices)?;
    let gaps = tail / 4;
    let index = |k: usize| u32_at(18 + 4 * gaps + 4 * k);
    let register = match (reg_type, indices) {
        (0, 1) => {
            let b = index(0)?;
            VariableRegister::Temp {
                reg: b / 16,
                comp: b % 16 / 4,
            }
        }
        (3, 2) => {
            let b = index(1)?;
            VariableRegister::IndexableTemp {
                array: index(0)?,
                element: b / 16,
                comp: b % 16 / 4,
            }
        }
        (32..=34 | 36, _) => VariableRegister::Input {
            operand_type: reg_type,
            comp: index(0).map_or(offset / 4 % 4, |b| b % 16 / 4),
        },
        _ => return None,
    };
    // the range less its gaps, in bytes, then dwords
    let whole = start..start.saturating_add(length);
    let mut live: Vec<_> = std::iter::once(whole).collect();
    for g in 0..gaps {
        let gs = start.saturating_add(u32::from(u16_at(18 + 4 * g)?));
        let ge = gs.saturating_add(u32::from(u16_at(20 + 4 * g)?));
        live = live
            .into_iter()
            .flat_map(|r| [r.start..r.end.min(gs), r.start.max(ge)..r.end])
            .filter(|r| r.start < r.end)
            .collect();
    }
    let live = live
        .into_iter()
        .map(|r| r.start / 4..r.end.div_ceil(4))
        .collect();
    Some(VariablePiece {
        offset,
        size,
        register,
        live,
    })
}

/// The scalar kind of a CodeView primitive type index (`T_REAL32`,
/// `T_INT4`, `T_UINT4`, `T_BOOL32`, ...), or `None` for another.
fn primitive_kind(index: u32) -> Option<ScalarKind> {
    Some(match index {
        0x40 | 0x46 => ScalarKind::Float,
        0x74 | 0x12 | 0x13 => ScalarKind::Int,
        0x75 | 0x22 | 0x23 => ScalarKind::Uint,
        0x30..=0x33 => ScalarKind::Bool,
        _ => return None,
    })
}

/// `S_GDATA_HLSL` and `S_LDATA_HLSL`: an HLSL global variable.
const HLSL_DATA_KINDS: [u16; 2] = [0x1151, 0x1152];
/// `CV_HLSLREG_THREAD_GROUP_SHARED_MEMORY`.
const HLSLREG_TGSM: u16 = 31;

/// A groupshared variable from an `S_*DATA_HLSL` record's bytes (the
/// record kind first), or `None` for another register type.
fn groupshared_variable(raw: &[u8]) -> Option<GroupsharedVariable> {
    let u16_at = |i: usize| Some(u16::from_le_bytes([*raw.get(i)?, *raw.get(i + 1)?]));
    if !HLSL_DATA_KINDS.contains(&u16_at(0)?) || u16_at(6)? != HLSLREG_TGSM {
        return None;
    }
    let name = raw.get(18..)?;
    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
    Some(GroupsharedVariable {
        name: String::from_utf8_lossy(name).into_owned(),
        slot: u32::from(u16_at(8)?),
        offset: u32::from(u16_at(10)?),
    })
}

/// The names of the inlined functions, by their id (`LF_FUNC_ID`,
/// `LF_MFUNC_ID` of the id stream).
fn function_names<'a>(
    pdb: &mut PDB<'a, Cursor<&'a [u8]>>,
) -> Result<HashMap<pdb::IdIndex, String>, DebugInfoError> {
    let ids = pdb.id_information()?;
    let mut out = HashMap::new();
    let mut iter = ids.iter();
    while let Some(id) = iter.next()? {
        let name = match id.parse() {
            Ok(pdb::IdData::Function(f)) => f.name,
            Ok(pdb::IdData::MemberFunction(f)) => f.name,
            _ => continue,
        };
        out.insert(id.index(), name.to_string().into_owned());
    }
    Ok(out)
}

/// The element type of each HLSL `LF_VECTOR` (0x151B) and `LF_MATRIX`
/// (0x151C) record of the type stream (stream 2: a 56-byte header whose
/// third and fifth dwords are the first type index and the records' byte
/// count, then records of a 2-byte length, a 2-byte kind and the data),
/// which the `pdb` crate does not parse: the element type is the data's
/// first 4 bytes.
fn hlsl_vector_elements<'a>(pdb: &mut PDB<'a, Cursor<&'a [u8]>>) -> HashMap<u32, u32> {
    let mut out = HashMap::new();
    let Ok(Some(stream)) = pdb.raw_stream(pdb::StreamIndex(2)) else {
        return out;
    };
    let bytes = stream.as_slice();
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let (Some(header), Some(mut index)) = (u32_at(4), u32_at(8)) else {
        return out;
    };
    let mut at = header as usize;
    while let Some(len) = bytes.get(at..at + 2) {
        let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
        let kind = bytes
            .get(at + 2..at + 4)
            .map(|k| u16::from_le_bytes([k[0], k[1]]));
        if let (Some(0x151b | 0x151c), Some(element)) = (kind, u32_at(at + 4)) {
            out.insert(index, element);
        }
        at += 2 + len;
        index += 1;
    }
    out
}

/// The [`ScalarKind`] of type `index`: a primitive's, or the element's of
/// an array, a modifier, or (`vectors`: [`hlsl_vector_elements`]) a
/// vector or matrix.
fn scalar_kind(
    finder: &pdb::TypeFinder<'_>,
    vectors: &HashMap<u32, u32>,
    index: pdb::TypeIndex,
    depth: u32,
) -> ScalarKind {
    if let Some(k) = primitive_kind(index.0) {
        return k;
    }
    if depth > 8 {
        return ScalarKind::Unknown;
    }
    if let Some(&e) = vectors.get(&index.0) {
        return scalar_kind(finder, vectors, pdb::TypeIndex(e), depth + 1);
    }
    match finder.find(index).and_then(|t| t.parse()) {
        Ok(pdb::TypeData::Array(a)) => scalar_kind(finder, vectors, a.element_type, depth + 1),
        Ok(pdb::TypeData::Modifier(m)) => {
            scalar_kind(finder, vectors, m.underlying_type, depth + 1)
        }
        _ => ScalarKind::Unknown,
    }
}

impl SourceMap {
    /// Read the data of a `SPDB` chunk (the bytes after its 8-byte header).
    ///
    /// # Errors
    /// [`DebugInfoError`] when the bytes are not a PDB file the reader
    /// understands, or its module, line tables or string table are
    /// malformed.
    pub fn from_spdb(data: &[u8]) -> Result<Self, DebugInfoError> {
        let mut pdb = PDB::open(Cursor::new(data))?;
        let strings = pdb.string_table()?;
        let dbi = pdb.debug_information()?;
        let names = function_names(&mut pdb)?;
        let vectors = hlsl_vector_elements(&mut pdb);
        let types = pdb.type_information()?;
        let mut finder = types.finder();
        let mut all = types.iter();
        while all.next()?.is_some() {
            finder.update(&all);
        }
        let mut modules = dbi.modules()?;
        let mut map = SourceMap::default();
        let mut file_index: HashMap<String, usize> = HashMap::new();
        // (start, depth) → (line, the longest length a record there gives,
        // the function)
        let mut records: HashMap<(u32, u32), (SourceLine, u32, String)> = HashMap::new();
        while let Some(module) = modules.next()? {
            let Some(info) = pdb.module_info(&module)? else {
                continue;
            };
            let program = info.line_program()?;
            let inlinees: HashMap<_, _> = info.inlinees()?.map(|i| Ok((i.index(), i))).collect()?;
            let mut file = |index| -> Result<usize, DebugInfoError> {
                let f = program.get_file_info(index)?;
                let name = f.name.to_string_lossy(&strings)?.into_owned();
                let next = map.files.len();
                let i = *file_index.entry(name.clone()).or_insert(next);
                if i == next {
                    map.files.push(SourceFile { name, text: None });
                }
                Ok(i)
            };
            let mut add = |l: pdb::LineInfo, depth: u32, file: usize, function: &str| {
                let at = SourceLine {
                    file,
                    line: l.line_start,
                };
                let len = l.length.unwrap_or(0);
                let e = (records.entry((l.offset.offset, depth)))
                    .or_insert_with(|| (at, len, function.to_string()));
                // the statement's line; the longest length of the two records
                if l.kind == pdb::LineInfoKind::Statement {
                    e.0 = at;
                }
                e.1 = e.1.max(len);
            };
            let mut symbols = info.symbols()?;
            let mut procedure = None;
            // the functions of the procedure and the inline sites open here
            let mut functions: Vec<String> = Vec::new();
            while let Some(symbol) = symbols.next()? {
                let depth = functions.len().saturating_sub(1) as u32;
                // (kinds the reader does not parse, such as fxc's register
                // ranges, carry no lines)
                match symbol.parse() {
                    Ok(SymbolData::Procedure(p)) => {
                        procedure = Some(p.offset);
                        let name = p.name.to_string().into_owned();
                        let mut lines = program.lines_for_symbol(p.offset);
                        while let Some(l) = lines.next()? {
                            let f = file(l.file_index)?;
                            add(l, 0, f, &name);
                        }
                        functions = vec![name];
                    }
                    Ok(SymbolData::InlineSite(site)) => {
                        let name = (names.get(&site.inlinee).cloned())
                            .unwrap_or_else(|| format!("inline#{}", site.inlinee.0));
                        functions.push(name.clone());
                        let depth = depth + 1;
                        let (Some(inlinee), Some(at)) = (inlinees.get(&site.inlinee), procedure)
                        else {
                            continue;
                        };
                        let mut lines = inlinee.lines(at, &site);
                        while let Some(l) = lines.next()? {
                            let f = file(l.file_index)?;
                            add(l, depth, f, &name);
                        }
                    }
                    Ok(SymbolData::InlineSiteEnd) => {
                        functions.pop();
                    }
                    Ok(SymbolData::ScopeEnd) => functions.clear(),
                    Ok(SymbolData::Local(l)) => map.locals.push(LocalVariable {
                        name: l.name.to_string().into_owned(),
                        function: functions.last().cloned().unwrap_or_default(),
                        depth,
                        parameter: l.flags.isparam,
                        kind: scalar_kind(&finder, &vectors, l.type_index, 0),
                        size: 0,
                        pieces: Vec::new(),
                    }),
                    _ => {
                        let raw = symbol.raw_bytes();
                        if let Some(v) = groupshared_variable(raw) {
                            if !map.groupshared.contains(&v) {
                                map.groupshared.push(v);
                            }
                        } else if let (Some(piece), Some(local)) =
                            (variable_piece(raw), map.locals.last_mut())
                        {
                            local.size = local.size.max(piece.offset + piece.size);
                            local.pieces.push(piece);
                        }
                    }
                }
            }
        }
        map.spans = records
            .into_iter()
            .map(|((start, depth), (at, len, function))| Span {
                start,
                end: start.saturating_add(len),
                depth,
                at,
                function,
            })
            .collect();
        map.spans.sort_by_key(|s| (s.start, s.depth));
        for f in &mut map.files {
            let stream = format!("/src/files/{}", f.name.to_lowercase());
            if let Ok(s) = pdb.named_stream(stream.as_bytes()) {
                let bytes = s.as_slice();
                let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
                f.text = Some(String::from_utf8_lossy(bytes).into_owned());
            }
        }
        Ok(map)
    }

    /// The HLSL line of the instruction at dword offset `dword` of the token
    /// stream (the version token at 0: `Op::token`, the listing's offsets):
    /// the innermost inline site's where the instruction comes from an
    /// inlined function, else the entry point's. `None` where no record
    /// covers it (a declaration).
    pub fn line_at(&self, dword: u32) -> Option<SourceLine> {
        let byte = dword.checked_mul(4)?;
        self.spans
            .iter()
            .filter(|s| s.start <= byte && (byte < s.end || byte == s.start))
            .max_by_key(|s| (s.depth, s.start))
            .map(|s| s.at)
    }

    /// The HLSL call stack at the instruction at dword offset `dword`
    /// (inlined calls: fxc inlines every call), the innermost frame first;
    /// empty where no record covers it.
    pub fn frames_at(&self, dword: u32) -> Vec<Frame> {
        let Some(byte) = dword.checked_mul(4) else {
            return Vec::new();
        };
        let mut by_depth: Vec<&Span> = Vec::new();
        for s in self
            .spans
            .iter()
            .filter(|s| s.start <= byte && (byte < s.end || byte == s.start))
        {
            match by_depth.iter_mut().find(|d| d.depth == s.depth) {
                Some(d) if d.start < s.start => *d = s,
                Some(_) => {}
                None => by_depth.push(s),
            }
        }
        by_depth.sort_by_key(|s| std::cmp::Reverse(s.depth));
        by_depth
            .into_iter()
            .map(|s| Frame {
                function: s.function.clone(),
                depth: s.depth,
                at: s.at,
            })
            .collect()
    }

    /// The HLSL line of the instruction at dword `dword` ([`SourceMap::line_at`])
    /// and how many frames its call stack has ([`SourceMap::frames_at`]'s
    /// length), without building the frames (a line step asks at every
    /// instruction).
    pub fn line_and_depth(&self, dword: u32) -> Option<(SourceLine, usize)> {
        let byte = dword.checked_mul(4)?;
        let mut depths = 0u64;
        for s in
            (self.spans.iter()).filter(|s| s.start <= byte && (byte < s.end || byte == s.start))
        {
            depths |= 1 << s.depth.min(63);
        }
        Some((self.line_at(dword)?, depths.count_ones() as usize))
    }

    /// The index in [`SourceMap::files`] of the file named `name`: its
    /// full name, or its base name, compared without case (Windows file
    /// names); `None` when no file has that name.
    pub fn file_named(&self, name: &str) -> Option<usize> {
        let base = name.rsplit(['\\', '/']).next().unwrap_or(name);
        (self
            .files
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name)))
        .or_else(|| (self.files.iter()).position(|f| f.base_name().eq_ignore_ascii_case(base)))
    }

    /// `file:line`, the file by its base name (`mandelbrot.hlsl:15`).
    pub fn describe(&self, at: SourceLine) -> String {
        match self.files.get(at.file) {
            Some(f) => format!("{}:{}", f.base_name(), at.line),
            None => format!("?:{}", at.line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_a_pdb_are_an_error() {
        let e = SourceMap::from_spdb(b"not a pdb file at all").unwrap_err();
        assert!(e.to_string().contains("SPDB"), "{e}");
        let e = SourceMap::from_spdb(&[]).unwrap_err();
        assert!(e.to_string().contains("could not be read"), "{e}");
    }

    #[test]
    fn a_groupshared_record_names_its_register() {
        // fxc's S_LDATA_HLSL for `groupshared uint s[64]` in g0
        let raw = [
            0x52, 0x11, 0x06, 0x10, 0, 0, 0x1f, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            b's', 0, 0, 0,
        ];
        let v = groupshared_variable(&raw).unwrap();
        assert_eq!((v.name.as_str(), v.slot, v.offset), ("s", 0, 0));
        // a UAV's record (register type 30) is not one
        let mut uav = raw;
        uav[6] = 0x1e;
        assert_eq!(groupshared_variable(&uav), None);
        assert_eq!(groupshared_variable(&raw[..10]), None);
    }

    #[test]
    fn a_file_name_has_a_base_name_and_numbered_lines() {
        let f = SourceFile {
            name: r"Z:\work\a\mandelbrot.hlsl".into(),
            text: Some("first\nsecond\n".into()),
        };
        assert_eq!(f.base_name(), "mandelbrot.hlsl");
        assert_eq!(f.line_text(2), Some("second"));
        assert_eq!(f.line_text(0), None);
        assert_eq!(f.line_text(3), None);
    }
}
