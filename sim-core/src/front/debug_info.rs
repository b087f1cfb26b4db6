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
}

/// The HLSL file and line of each instruction of a shader compiled with
/// debug information.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    /// The files the lines refer to, in the order first met.
    pub files: Vec<SourceFile>,
    /// The groupshared variables, by their `g#` slot and byte offset.
    pub groupshared: Vec<GroupsharedVariable>,
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
        let mut modules = dbi.modules()?;
        let mut map = SourceMap::default();
        let mut file_index: HashMap<String, usize> = HashMap::new();
        // (start, depth) → (line, the longest length a record there gives)
        let mut records: HashMap<(u32, u32), (SourceLine, u32)> = HashMap::new();
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
            let mut add = |l: pdb::LineInfo, depth: u32, file: usize| {
                let at = SourceLine {
                    file,
                    line: l.line_start,
                };
                let len = l.length.unwrap_or(0);
                let e = records.entry((l.offset.offset, depth)).or_insert((at, len));
                // the statement's line; the longest length of the two records
                if l.kind == pdb::LineInfoKind::Statement {
                    e.0 = at;
                }
                e.1 = e.1.max(len);
            };
            let mut symbols = info.symbols()?;
            let mut procedure = None;
            let mut depth = 0u32;
            while let Some(symbol) = symbols.next()? {
                // (kinds the reader does not parse, such as fxc's register
                // ranges, carry no lines)
                match symbol.parse() {
                    Ok(SymbolData::Procedure(p)) => {
                        procedure = Some(p.offset);
                        let mut lines = program.lines_for_symbol(p.offset);
                        while let Some(l) = lines.next()? {
                            let f = file(l.file_index)?;
                            add(l, 0, f);
                        }
                    }
                    Ok(SymbolData::InlineSite(site)) => {
                        depth += 1;
                        let (Some(inlinee), Some(at)) = (inlinees.get(&site.inlinee), procedure)
                        else {
                            continue;
                        };
                        let mut lines = inlinee.lines(at, &site);
                        while let Some(l) = lines.next()? {
                            let f = file(l.file_index)?;
                            add(l, depth, f);
                        }
                    }
                    Ok(SymbolData::InlineSiteEnd) => depth = depth.saturating_sub(1),
                    Ok(SymbolData::ScopeEnd) => depth = 0,
                    _ => {
                        if let Some(v) = groupshared_variable(symbol.raw_bytes()) {
                            if !map.groupshared.contains(&v) {
                                map.groupshared.push(v);
                            }
                        }
                    }
                }
            }
        }
        map.spans = records
            .into_iter()
            .map(|((start, depth), (at, len))| Span {
                start,
                end: start.saturating_add(len),
                depth,
                at,
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
