//! RDEF writer: [`Reflection`] → RDEF chunk data, the inverse of
//! [`crate::front::rdef::parse_rdef`] (dxbc-format.md §1.3).
//!
//! Layouts, chosen by the shader model given:
//! - SM5.0 (`RD11`): 60-byte header, 32-byte binding descs, 24-byte cbuffer
//!   descs, 40-byte variable descs, 36-byte type descs with a name, 12-byte
//!   member descs;
//! - SM5.1 (magic 0x25441313): the same with 40-byte binding descs that add
//!   the register space and range id;
//! - SM4 (`major < 5`): 28-byte header, 24-byte variable descs and 16-byte
//!   type descs without names (type names are lost).
//!
//! In fxc's order: the header, the binding descs and their names, the
//! cbuffer descs, then the strings, variable tables and type trees they
//! point to, then the creator string. Variables get no default value (D3D reflection keeps none) and
//! the texture/sampler fields fxc writes for SM5 (start 0xFFFFFFFF, size 0).
//!
//! `parse_rdef(&write_rdef(&r, v))` equals `r` when `r.target_version` and
//! `r.program_type` match `v`, no name holds a NUL, type trees are at most
//! [`MAX_TYPE_DEPTH`] deep (deeper members are dropped) and, for SM5.0 and
//! SM4, every binding's `id` equals its `bind_point` and `space` is 0 (those
//! layouts cannot store them); for SM4 also every type name is empty.

use crate::front::rdef::{Reflection, TypeDesc, MAX_TYPE_DEPTH, RDEF_MAGIC_5_0, RDEF_MAGIC_5_1};
use crate::ir::{ProgramType, ShaderVersion};

/// The creator string written when [`Reflection::creator`] is empty.
pub const DEFAULT_CREATOR: &str = crate::front::listing_reflection::DEFAULT_CREATOR;

/// The program type code of the RDEF target's high half (0x4353 "CS" for
/// compute, 0xFFFF pixel, 0xFFFE vertex, 0x4753 geometry, 0x4853 hull,
/// 0x4453 domain).
pub fn program_type_code(p: ProgramType) -> u32 {
    match p {
        ProgramType::Pixel => 0xFFFF,
        ProgramType::Vertex => 0xFFFE,
        ProgramType::Geometry => 0x4753,
        ProgramType::Hull => 0x4853,
        ProgramType::Domain => 0x4453,
        ProgramType::Compute => 0x4353,
    }
}

/// Descriptor sizes of one layout.
#[derive(Debug, Clone, Copy)]
struct Layout {
    header: usize,
    binding: usize,
    variable: usize,
    ty: usize,
    sm5: bool,
    sm51: bool,
}

/// A little-endian byte buffer with back-patching.
struct Blob {
    buf: Vec<u8>,
}

/// usize → u32, saturating (only for sizes beyond 4 GiB, which no RDEF has).
fn to_u32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

impl Blob {
    fn here(&self) -> u32 {
        to_u32(self.buf.len())
    }

    fn align4(&mut self) {
        while !self.buf.len().is_multiple_of(4) {
            self.buf.push(0);
        }
    }

    /// `n` zero bytes at a 4-aligned offset; returns that offset.
    fn reserve(&mut self, n: usize) -> u32 {
        self.align4();
        let at = self.here();
        self.buf.resize(self.buf.len().saturating_add(n), 0);
        at
    }

    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Overwrites the dword at `at` (reserved before, so always in bounds).
    fn set(&mut self, at: usize, v: u32) {
        if let Some(d) = at.checked_add(4).and_then(|end| self.buf.get_mut(at..end)) {
            d.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// A NUL-terminated string; returns its offset.
    fn string(&mut self, s: &str) -> u32 {
        let at = self.here();
        self.buf.extend_from_slice(s.as_bytes());
        self.buf.push(0);
        at
    }

    /// A type desc and, before it, its members' types, its member table and
    /// its name; returns the type desc's offset.
    fn type_desc(&mut self, ty: &TypeDesc, depth: usize, layout: Layout) -> u32 {
        // parse_rdef reads members up to depth MAX_TYPE_DEPTH - 1.
        let members = if depth + 1 < MAX_TYPE_DEPTH {
            &ty.members[..ty.members.len().min(usize::from(u16::MAX))]
        } else {
            &[]
        };
        let types: Vec<u32> = members
            .iter()
            .map(|(_, _, t)| self.type_desc(t, depth + 1, layout))
            .collect();
        let names: Vec<u32> = members.iter().map(|(n, _, _)| self.string(n)).collect();
        let member_table = if members.is_empty() {
            0
        } else {
            let at = self.reserve(0);
            for (((_, offset, _), ty), name) in members.iter().zip(&types).zip(&names) {
                self.u32(*name);
                self.u32(*ty);
                self.u32(*offset);
            }
            at
        };
        let name = if layout.sm5 && !ty.name.is_empty() {
            self.string(&ty.name)
        } else {
            0
        };
        let at = self.reserve(0);
        self.u16(ty.class);
        self.u16(ty.base_type);
        self.u16(ty.rows);
        self.u16(ty.columns);
        self.u16(ty.elements);
        self.u16(u16::try_from(members.len()).unwrap_or(u16::MAX));
        self.u32(member_table);
        if layout.sm5 {
            for _ in 0..4 {
                self.u32(0);
            }
            self.u32(name);
        }
        at
    }
}

/// Writes `r` as RDEF chunk data (without the 8-byte chunk header) in the
/// layout of shader model `version` — SM5.0 `RD11`, SM5.1 with 40-byte
/// binding descs, or SM4 — with target `version` (program type in the high
/// half) and [`Reflection::creator`] (or [`DEFAULT_CREATOR`] when empty).
///
/// See the [module documentation](self) for what round-trips through
/// [`crate::front::rdef::parse_rdef`]. Never panics.
pub fn write_rdef(r: &Reflection, version: ShaderVersion) -> Vec<u8> {
    let sm5 = version.major >= 5;
    let sm51 = version.is_sm51();
    let layout = Layout {
        header: if sm5 { 60 } else { 28 },
        binding: if sm51 { 40 } else { 32 },
        variable: if sm5 { 40 } else { 24 },
        ty: if sm5 { 36 } else { 16 },
        sm5,
        sm51,
    };
    let mut b = Blob { buf: Vec::new() };
    b.reserve(layout.header);
    let bind_table = b.reserve(r.bindings.len().saturating_mul(layout.binding)) as usize;

    for (i, binding) in r.bindings.iter().enumerate() {
        let name = b.string(&binding.name);
        let at = bind_table + i * layout.binding;
        let mut fields = vec![
            name,
            binding.input_type.as_u32(),
            binding.return_type,
            binding.dimension,
            binding.num_samples_or_stride,
            binding.bind_point,
            binding.bind_count,
            binding.flags,
        ];
        if layout.sm51 {
            fields.push(binding.space);
            fields.push(binding.id);
        }
        for (k, v) in fields.into_iter().enumerate() {
            b.set(at + 4 * k, v);
        }
    }

    // (fxc's order: the binding names, then the cbuffer table)
    b.align4();
    let cb_table = b.reserve(r.cbuffers.len().saturating_mul(24)) as usize;
    for (i, cb) in r.cbuffers.iter().enumerate() {
        let name = b.string(&cb.name);
        let var_table = b.reserve(cb.variables.len().saturating_mul(layout.variable));
        for (j, var) in cb.variables.iter().enumerate() {
            let var_name = b.string(&var.name);
            let ty = b.type_desc(&var.ty, 0, layout);
            let at = var_table as usize + j * layout.variable;
            let mut fields = vec![var_name, var.offset, var.size, var.flags, ty, 0];
            if layout.sm5 {
                // start texture, texture size, start sampler, sampler size.
                fields.extend([u32::MAX, 0, u32::MAX, 0]);
            }
            for (k, v) in fields.into_iter().enumerate() {
                b.set(at + 4 * k, v);
            }
        }
        let at = cb_table + i * 24;
        for (k, v) in [
            name,
            to_u32(cb.variables.len()),
            var_table,
            cb.size,
            cb.flags,
            cb.kind,
        ]
        .into_iter()
        .enumerate()
        {
            b.set(at + 4 * k, v);
        }
    }

    let creator = if r.creator.is_empty() {
        DEFAULT_CREATOR
    } else {
        &r.creator
    };
    let creator = b.string(creator);
    b.align4();

    let target = (program_type_code(version.program_type) << 16)
        | (u32::from(version.major) << 8)
        | u32::from(version.minor);
    let mut header = vec![
        to_u32(r.cbuffers.len()),
        if r.cbuffers.is_empty() {
            0
        } else {
            to_u32(cb_table)
        },
        to_u32(r.bindings.len()),
        if r.bindings.is_empty() {
            0
        } else {
            to_u32(bind_table)
        },
        target,
        r.compile_flags,
        creator,
    ];
    if layout.sm5 {
        header.extend([
            if sm51 { RDEF_MAGIC_5_1 } else { RDEF_MAGIC_5_0 },
            to_u32(layout.header),
            24,
            to_u32(layout.binding),
            to_u32(layout.variable),
            to_u32(layout.ty),
            12,
            0,
        ]);
    }
    for (k, v) in header.into_iter().enumerate() {
        b.set(4 * k, v);
    }
    b.buf
}
