//! RDEF reflection: resource bindings, constant-buffer layouts and the
//! creator string (dxbc-format.md §1.3).
//!
//! All offsets inside RDEF are relative to the start of the chunk data.
//! Three layouts occur:
//! - SM4 (`major < 5`): 28-byte header, 32-byte binding desc, 24-byte
//!   variable desc, 16-byte type desc, no type names;
//! - SM5.0: the header continues with magic `RD11` (0x31314452) and the
//!   descriptor sizes (60, 24, 32, 40, 36, 12, 0);
//! - SM5.1: magic 0x25441313 and a 40-byte binding desc that adds the
//!   register space and the range id.
//!
//! Parsing never panics: every read is bounds-checked, type trees are limited
//! in depth ([`MAX_TYPE_DEPTH`]) and total size ([`MAX_TYPE_NODES`]), and a
//! bad chunk yields an [`RdefError`] naming the byte offset at fault.

/// `RD11`, the SM5.0 RDEF magic at byte offset 28 (dxbc-format.md §1.3).
pub const RDEF_MAGIC_5_0: u32 = 0x3131_4452;
/// The SM5.1 RDEF magic at byte offset 28 (dxbc-format.md §1.3).
pub const RDEF_MAGIC_5_1: u32 = 0x2544_1313;

/// Deepest nesting of struct members that [`parse_rdef`] follows; deeper
/// (or cyclic) type graphs give [`RdefError::TypeTooDeep`].
pub const MAX_TYPE_DEPTH: usize = 16;
/// Most type descriptors [`parse_rdef`] expands in one chunk (counting each
/// occurrence in the tree); more gives [`RdefError::TooManyTypes`]. Guards
/// against a small chunk whose members share types exponentially.
pub const MAX_TYPE_NODES: usize = 1 << 16;

/// Parsed RDEF chunk (dxbc-format.md §1.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reflection {
    /// Compiler identification, e.g. "Microsoft (R) HLSL Shader Compiler 10.1".
    pub creator: String,
    /// Shader model: minor | major<<8 (0x0500 for cs_5_0, 0x0501 for cs_5_1).
    pub target_version: u32,
    /// Program type from the target's high half: 0x4353 ("CS") for compute,
    /// 0xFFFF PS, 0xFFFE VS, 0x4753 GS, 0x4853 HS, 0x4453 DS.
    pub program_type: u32,
    /// Compile flags (D3DCOMPILE_*), header dword 5.
    pub compile_flags: u32,
    /// Resource bindings in table order.
    pub bindings: Vec<ResourceBinding>,
    /// Constant-buffer (and resource-bind-info) layouts in table order.
    pub cbuffers: Vec<CbufferDesc>,
}

/// One resource binding descriptor (dxbc-format.md §1.3 "Binding desc").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceBinding {
    /// HLSL name of the resource.
    pub name: String,
    /// D3D_SIT_* resource kind.
    pub input_type: InputType,
    /// D3D_RETURN_TYPE_*: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float, 6 mixed,
    /// 7 double, 8 continued; 0 for cbuffers, samplers, structured and raw.
    pub return_type: u32,
    /// D3D_SRV_DIMENSION_*: 1 buffer … 11 bufferex; 0 for cbuffers/samplers.
    pub dimension: u32,
    /// Sample count, or the stride in bytes for structured buffers.
    pub num_samples_or_stride: u32,
    /// First register (the N of t#/u#/s#/cb#).
    pub bind_point: u32,
    /// Number of registers (array size); 0 for an unbounded SM5.1 range.
    pub bind_count: u32,
    /// D3D_SIF_* flags (1 user-packed, 2 comparison sampler, 0xC component
    /// count bits, …).
    pub flags: u32,
    /// Register space (SM5.1); 0 for older RDEF.
    pub space: u32,
    /// Range id used by SM5.1 instructions (`T0`, `CB1`, …); for older RDEF,
    /// equal to `bind_point` (the normalisation of dxbc-format.md §8).
    pub id: u32,
}

/// D3D_SIT_* resource input types (dxbc-format.md §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputType {
    /// 0: constant buffer (b#).
    CBuffer,
    /// 1: texture buffer (t#).
    TBuffer,
    /// 2: typed texture or buffer SRV (t#).
    Texture,
    /// 3: sampler (s#).
    Sampler,
    /// 4: typed read-write UAV (u#).
    UavRwTyped,
    /// 5: structured buffer SRV (t#).
    Structured,
    /// 6: read-write structured UAV (u#).
    UavRwStructured,
    /// 7: byte-address (raw) SRV (t#).
    ByteAddress,
    /// 8: read-write byte-address UAV (u#).
    UavRwByteAddress,
    /// 9: append structured UAV (u#).
    UavAppendStructured,
    /// 10: consume structured UAV (u#).
    UavConsumeStructured,
    /// 11: read-write structured UAV with counter (u#).
    UavRwStructuredWithCounter,
    /// Any other value (e.g. 12+ for DXR / feedback textures).
    Other(u32),
}

impl InputType {
    /// Maps a D3D_SIT_* value.
    pub fn from_u32(v: u32) -> Self {
        match v {
            0 => Self::CBuffer,
            1 => Self::TBuffer,
            2 => Self::Texture,
            3 => Self::Sampler,
            4 => Self::UavRwTyped,
            5 => Self::Structured,
            6 => Self::UavRwStructured,
            7 => Self::ByteAddress,
            8 => Self::UavRwByteAddress,
            9 => Self::UavAppendStructured,
            10 => Self::UavConsumeStructured,
            11 => Self::UavRwStructuredWithCounter,
            other => Self::Other(other),
        }
    }

    /// The D3D_SIT_* value.
    pub fn as_u32(&self) -> u32 {
        match *self {
            Self::CBuffer => 0,
            Self::TBuffer => 1,
            Self::Texture => 2,
            Self::Sampler => 3,
            Self::UavRwTyped => 4,
            Self::Structured => 5,
            Self::UavRwStructured => 6,
            Self::ByteAddress => 7,
            Self::UavRwByteAddress => 8,
            Self::UavAppendStructured => 9,
            Self::UavConsumeStructured => 10,
            Self::UavRwStructuredWithCounter => 11,
            Self::Other(v) => v,
        }
    }

    /// Register-file prefix the binding occupies: "cb", "t", "s" or "u";
    /// "?" for [`InputType::Other`].
    pub fn register_prefix(&self) -> &'static str {
        match self {
            Self::CBuffer => "cb",
            Self::TBuffer | Self::Texture | Self::Structured | Self::ByteAddress => "t",
            Self::Sampler => "s",
            Self::UavRwTyped
            | Self::UavRwStructured
            | Self::UavRwByteAddress
            | Self::UavAppendStructured
            | Self::UavConsumeStructured
            | Self::UavRwStructuredWithCounter => "u",
            Self::Other(_) => "?",
        }
    }

    /// Whether the binding is an unordered-access view (u#).
    pub fn is_uav(&self) -> bool {
        self.register_prefix() == "u"
    }

    /// Whether `num_samples_or_stride` holds a structure stride.
    pub fn is_structured(&self) -> bool {
        matches!(
            self,
            Self::Structured
                | Self::UavRwStructured
                | Self::UavAppendStructured
                | Self::UavConsumeStructured
                | Self::UavRwStructuredWithCounter
        )
    }
}

/// One constant-buffer descriptor (dxbc-format.md §1.3 "Cbuffer desc").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbufferDesc {
    /// HLSL name; for kind 3 the name of the structured resource it describes.
    pub name: String,
    /// D3D_CBUFFER_TYPE: 0 cbuffer, 1 tbuffer, 2 interface pointers,
    /// 3 resource bind info (a structured buffer's element, `$Element`).
    pub kind: u32,
    /// Size in bytes (for cbuffers, rounded up to 16).
    pub size: u32,
    /// D3D_SHADER_CBUFFER_FLAGS (1 = user packed).
    pub flags: u32,
    /// Variables in table order.
    pub variables: Vec<CbVariable>,
}

/// One variable of a constant buffer (SM4: 24-byte desc, SM5: 40-byte desc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbVariable {
    /// HLSL name (`$Element` for a structured buffer's element).
    pub name: String,
    /// Byte offset in the buffer.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// D3D_SHADER_VARIABLE_FLAGS (2 = used by the shader).
    pub flags: u32,
    /// The variable's type.
    pub ty: TypeDesc,
}

/// A shader type descriptor (SM4: 16 bytes; SM5: 36 bytes with a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDesc {
    /// D3D_SHADER_VARIABLE_CLASS: 0 scalar, 1 vector, 2 matrix rows,
    /// 3 matrix columns, 4 object, 5 struct, …
    pub class: u16,
    /// D3D_SHADER_VARIABLE_TYPE: 1 bool, 2 int, 3 float, 19 uint, 39 double, …
    pub base_type: u16,
    /// Rows (1 for scalars and vectors).
    pub rows: u16,
    /// Columns (vector width).
    pub columns: u16,
    /// Array elements; 0 when not an array.
    pub elements: u16,
    /// Struct members: (name, byte offset in the struct, type). Empty for
    /// non-structs.
    pub members: Vec<(String, u32, TypeDesc)>,
    /// Type name as fxc stores it ("float4", a struct name); empty in SM4
    /// RDEF. Note that fxc stores scalar `uint` as "dword"; listings print
    /// [`TypeDesc::hlsl_name`] instead.
    pub name: String,
}

impl TypeDesc {
    /// The HLSL spelling a listing prints for this type: derived from
    /// class, base type, rows and columns for scalars, vectors and matrices
    /// of bool/int/uint/float/double ("uint", "float4", "float4x4"); the
    /// stored [`TypeDesc::name`] otherwise (structs, objects, other bases).
    pub fn hlsl_name(&self) -> String {
        let base = match self.base_type {
            1 => "bool",
            2 => "int",
            3 => "float",
            19 => "uint",
            39 => "double",
            _ => return self.name.clone(),
        };
        match self.class {
            0 => base.to_string(),
            1 => format!("{base}{}", self.columns),
            2 | 3 => format!("{base}{}x{}", self.rows, self.columns),
            _ => self.name.clone(),
        }
    }
}

/// Why an RDEF chunk cannot be read. Offsets are relative to the RDEF data.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RdefError {
    /// A structure lies (partly) past the end of the chunk.
    #[error("RDEF {what} at byte offset {offset} ({size} bytes) runs past the end of the {len}-byte chunk")]
    OutOfBounds {
        /// What was being read.
        what: &'static str,
        /// Byte offset in the RDEF data (saturated on overflow).
        offset: usize,
        /// Bytes needed there.
        size: usize,
        /// Length of the RDEF data.
        len: usize,
    },
    /// A string offset is past the end, or the string has no NUL terminator.
    #[error("RDEF {what} string at byte offset {offset} is out of bounds or not NUL-terminated before the end of the {len}-byte chunk")]
    BadString {
        /// Which string.
        what: &'static str,
        /// Byte offset in the RDEF data.
        offset: usize,
        /// Length of the RDEF data.
        len: usize,
    },
    /// The SM5 header magic at byte offset 28 is neither `RD11` nor 0x25441313.
    #[error("RDEF magic at byte offset 28 is 0x{found:08x}; expected 0x31314452 (\"RD11\", SM5.0) or 0x25441313 (SM5.1)")]
    BadMagic {
        /// The dword found.
        found: u32,
    },
    /// A descriptor size in the SM5 header is smaller than the fields read.
    #[error(
        "RDEF header at byte offset {offset} gives {what} size {size}; at least {min} is required"
    )]
    BadDescSize {
        /// Which descriptor.
        what: &'static str,
        /// Byte offset of the size field.
        offset: usize,
        /// The size found.
        size: u32,
        /// The smallest size accepted.
        min: u32,
    },
    /// Struct members nest deeper than [`MAX_TYPE_DEPTH`] (or form a cycle).
    #[error(
        "RDEF type at byte offset {offset} nests deeper than {limit} levels (cyclic type graph?)"
    )]
    TypeTooDeep {
        /// Byte offset of the type desc where the limit was hit.
        offset: usize,
        /// The limit.
        limit: usize,
    },
    /// More than [`MAX_TYPE_NODES`] type descriptors would be expanded.
    #[error("RDEF expands more than {limit} type descriptors (type at byte offset {offset}); refusing a pathological type graph")]
    TooManyTypes {
        /// Byte offset of the type desc where the limit was hit.
        offset: usize,
        /// The limit.
        limit: usize,
    },
}

/// Descriptor strides and format details of one RDEF layout.
#[derive(Debug, Clone, Copy)]
struct Layout {
    cbuffer: usize,
    binding: usize,
    variable: usize,
    ty: usize,
    member: usize,
}

/// Bounds-checked reader over the RDEF data.
struct Reader<'a> {
    data: &'a [u8],
    layout: Layout,
    type_nodes: usize,
}

impl<'a> Reader<'a> {
    fn oob(&self, what: &'static str, offset: usize, size: usize) -> RdefError {
        RdefError::OutOfBounds {
            what,
            offset,
            size,
            len: self.data.len(),
        }
    }

    /// The `size` bytes at `offset`.
    fn bytes(&self, what: &'static str, offset: usize, size: usize) -> Result<&'a [u8], RdefError> {
        offset
            .checked_add(size)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| self.oob(what, offset, size))
    }

    fn u32(&self, what: &'static str, offset: usize) -> Result<u32, RdefError> {
        let b = self.bytes(what, offset, 4)?;
        let arr: [u8; 4] = b.try_into().map_err(|_| self.oob(what, offset, 4))?;
        Ok(u32::from_le_bytes(arr))
    }

    fn u16(&self, what: &'static str, offset: usize) -> Result<u16, RdefError> {
        let b = self.bytes(what, offset, 2)?;
        let arr: [u8; 2] = b.try_into().map_err(|_| self.oob(what, offset, 2))?;
        Ok(u16::from_le_bytes(arr))
    }

    /// The NUL-terminated string at `offset` (lossy UTF-8).
    fn cstr(&self, what: &'static str, offset: u32) -> Result<String, RdefError> {
        let bad = || RdefError::BadString {
            what,
            offset: to_usize(offset),
            len: self.data.len(),
        };
        let rest = self.data.get(to_usize(offset)..).ok_or_else(bad)?;
        let nul = rest.iter().position(|&b| b == 0).ok_or_else(bad)?;
        let s = rest.get(..nul).ok_or_else(bad)?;
        Ok(String::from_utf8_lossy(s).into_owned())
    }

    /// Checks that `count` descriptors of `stride` bytes fit at `base` and
    /// returns the offset of each.
    fn table(
        &self,
        what: &'static str,
        base: u32,
        count: u32,
        stride: usize,
    ) -> Result<impl Iterator<Item = usize>, RdefError> {
        let base = to_usize(base);
        let count = to_usize(count);
        let total = count
            .checked_mul(stride)
            .ok_or_else(|| self.oob(what, base, usize::MAX))?;
        if count > 0 {
            self.bytes(what, base, total)?;
        }
        Ok((0..count).map(move |i| base + i * stride))
    }

    fn binding(&self, at: usize) -> Result<ResourceBinding, RdefError> {
        const W: &str = "binding desc";
        let d = |i: usize| self.u32(W, at + 4 * i);
        let name_off = d(0)?;
        let bind_point = d(5)?;
        let (space, id) = if self.layout.binding >= 40 {
            (d(8)?, d(9)?)
        } else {
            (0, bind_point)
        };
        Ok(ResourceBinding {
            name: self.cstr("binding name", name_off)?,
            input_type: InputType::from_u32(d(1)?),
            return_type: d(2)?,
            dimension: d(3)?,
            num_samples_or_stride: d(4)?,
            bind_point,
            bind_count: d(6)?,
            flags: d(7)?,
            space,
            id,
        })
    }

    fn cbuffer(&mut self, at: usize) -> Result<CbufferDesc, RdefError> {
        const W: &str = "cbuffer desc";
        let name = self.cstr("cbuffer name", self.u32(W, at)?)?;
        let var_count = self.u32(W, at + 4)?;
        let var_offset = self.u32(W, at + 8)?;
        let size = self.u32(W, at + 12)?;
        let flags = self.u32(W, at + 16)?;
        let kind = self.u32(W, at + 20)?;
        let offsets: Vec<usize> = self
            .table(
                "variable desc table",
                var_offset,
                var_count,
                self.layout.variable,
            )?
            .collect();
        let mut variables = Vec::with_capacity(offsets.len());
        for v in offsets {
            variables.push(self.variable(v)?);
        }
        Ok(CbufferDesc {
            name,
            kind,
            size,
            flags,
            variables,
        })
    }

    fn variable(&mut self, at: usize) -> Result<CbVariable, RdefError> {
        const W: &str = "variable desc";
        let name = self.cstr("variable name", self.u32(W, at)?)?;
        let offset = self.u32(W, at + 4)?;
        let size = self.u32(W, at + 8)?;
        let flags = self.u32(W, at + 12)?;
        let type_offset = self.u32(W, at + 16)?;
        let ty = self.type_desc(type_offset, 0)?;
        Ok(CbVariable {
            name,
            offset,
            size,
            flags,
            ty,
        })
    }

    fn type_desc(&mut self, offset: u32, depth: usize) -> Result<TypeDesc, RdefError> {
        const W: &str = "type desc";
        let at = to_usize(offset);
        if depth >= MAX_TYPE_DEPTH {
            return Err(RdefError::TypeTooDeep {
                offset: at,
                limit: MAX_TYPE_DEPTH,
            });
        }
        self.type_nodes += 1;
        if self.type_nodes > MAX_TYPE_NODES {
            return Err(RdefError::TooManyTypes {
                offset: at,
                limit: MAX_TYPE_NODES,
            });
        }
        self.bytes(W, at, self.layout.ty)?;
        let class = self.u16(W, at)?;
        let base_type = self.u16(W, at + 2)?;
        let rows = self.u16(W, at + 4)?;
        let columns = self.u16(W, at + 6)?;
        let elements = self.u16(W, at + 8)?;
        let member_count = self.u16(W, at + 10)?;
        let member_offset = self.u32(W, at + 12)?;
        let name = if self.layout.ty >= 36 {
            let name_off = self.u32(W, at + 32)?;
            // fxc writes a name for every SM5 type; 0 would point at the
            // header, so treat it as "no name".
            if name_off == 0 {
                String::new()
            } else {
                self.cstr("type name", name_off)?
            }
        } else {
            String::new()
        };
        let offsets: Vec<usize> = self
            .table(
                "member desc table",
                member_offset,
                u32::from(member_count),
                self.layout.member,
            )?
            .collect();
        let mut members = Vec::with_capacity(offsets.len());
        for m in offsets {
            const M: &str = "member desc";
            let member_name = self.cstr("member name", self.u32(M, m)?)?;
            let member_type = self.u32(M, m + 4)?;
            let member_off = self.u32(M, m + 8)?;
            let ty = self.type_desc(member_type, depth + 1)?;
            members.push((member_name, member_off, ty));
        }
        Ok(TypeDesc {
            class,
            base_type,
            rows,
            columns,
            elements,
            members,
            name,
        })
    }
}

/// u32 → usize; saturates on (hypothetical) 16-bit targets, where the
/// following bounds check then fails.
fn to_usize(v: u32) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Reads the SM5 descriptor size at header `offset`, requiring at least `min`.
fn desc_size(
    r: &Reader<'_>,
    what: &'static str,
    offset: usize,
    min: u32,
) -> Result<usize, RdefError> {
    let size = r.u32("RDEF header", offset)?;
    if size < min {
        return Err(RdefError::BadDescSize {
            what,
            offset,
            size,
            min,
        });
    }
    Ok(to_usize(size))
}

/// Parses an RDEF chunk's data (dxbc-format.md §1.3).
///
/// `data` is the chunk payload (after the 8-byte chunk header); all offsets
/// inside are relative to it. Handles SM4 (7-dword header), SM5.0 (`RD11`)
/// and SM5.1 (0x25441313, 40-byte binding descs with space and id). For SM5
/// the descriptor strides are taken from the header.
///
/// # Errors
/// [`RdefError`] naming the offending byte offset: a table, descriptor or
/// string out of bounds, an unknown SM5 magic, a descriptor size too small
/// for its fields, or a type graph that is too deep or too large.
pub fn parse_rdef(data: &[u8]) -> Result<Reflection, RdefError> {
    const H: &str = "RDEF header";
    let mut r = Reader {
        data,
        layout: Layout {
            cbuffer: 24,
            binding: 32,
            variable: 24,
            ty: 16,
            member: 12,
        },
        type_nodes: 0,
    };
    let cb_count = r.u32(H, 0)?;
    let cb_offset = r.u32(H, 4)?;
    let bind_count = r.u32(H, 8)?;
    let bind_offset = r.u32(H, 12)?;
    let target = r.u32(H, 16)?;
    let compile_flags = r.u32(H, 20)?;
    let creator_offset = r.u32(H, 24)?;
    let major = (target >> 8) & 0xff;
    if major >= 5 {
        let magic = r.u32(H, 28)?;
        if magic != RDEF_MAGIC_5_0 && magic != RDEF_MAGIC_5_1 {
            return Err(RdefError::BadMagic { found: magic });
        }
        // Dword 8 is the header size (60); the tables are located by
        // offsets, so it is read only to check that the header is complete.
        desc_size(&r, "header", 32, 60)?;
        r.layout = Layout {
            cbuffer: desc_size(&r, "cbuffer desc", 36, 24)?,
            binding: desc_size(&r, "binding desc", 40, 32)?,
            variable: desc_size(&r, "variable desc", 44, 24)?,
            ty: desc_size(&r, "type desc", 48, 16)?,
            member: desc_size(&r, "member desc", 52, 12)?,
        };
    }
    let creator = r.cstr("creator", creator_offset)?;
    let binding_offsets: Vec<usize> = r
        .table(
            "binding desc table",
            bind_offset,
            bind_count,
            r.layout.binding,
        )?
        .collect();
    let mut bindings = Vec::with_capacity(binding_offsets.len());
    for at in binding_offsets {
        bindings.push(r.binding(at)?);
    }
    let cb_offsets: Vec<usize> = r
        .table("cbuffer desc table", cb_offset, cb_count, r.layout.cbuffer)?
        .collect();
    let mut cbuffers = Vec::with_capacity(cb_offsets.len());
    for at in cb_offsets {
        cbuffers.push(r.cbuffer(at)?);
    }
    Ok(Reflection {
        creator,
        target_version: target & 0xffff,
        program_type: target >> 16,
        compile_flags,
        bindings,
        cbuffers,
    })
}

impl Reflection {
    /// Shader model major version (5 for cs_5_x).
    pub fn major(&self) -> u32 {
        (self.target_version >> 8) & 0xff
    }

    /// Shader model minor version.
    pub fn minor(&self) -> u32 {
        self.target_version & 0xff
    }

    /// The binding with this HLSL name (case-sensitive).
    pub fn binding(&self, name: &str) -> Option<&ResourceBinding> {
        self.bindings.iter().find(|b| b.name == name)
    }

    /// The binding whose register range in `space` covers `slot` of the
    /// register file named by `prefix` ("cb", "t", "s" or "u", see
    /// [`InputType::register_prefix`]). A `bind_count` of 0 (unbounded
    /// SM5.1 range) covers every slot from `bind_point` on.
    pub fn resource_at(&self, prefix: &str, space: u32, slot: u32) -> Option<&ResourceBinding> {
        self.bindings.iter().find(|b| {
            b.input_type.register_prefix() == prefix
                && b.space == space
                && slot >= b.bind_point
                && (b.bind_count == 0 || slot - b.bind_point < b.bind_count)
        })
    }

    /// The binding of the `prefix` register file ("cb", "t", "s", "u") with
    /// this SM5.1 range id (for SM5.0 RDEF the id is the bind point).
    pub fn resource_by_id(&self, prefix: &str, id: u32) -> Option<&ResourceBinding> {
        self.bindings
            .iter()
            .find(|b| b.input_type.register_prefix() == prefix && b.id == id)
    }

    /// The cbuffer (kind 0 or 1) bound at register b`slot` in space 0: found
    /// through the binding table (type CBuffer, range covering `slot`) and
    /// then the cbuffer desc of the same name.
    pub fn cbuffer_at(&self, slot: u32) -> Option<&CbufferDesc> {
        let b = self.resource_at("cb", 0, slot)?;
        self.cbuffer_named(&b.name)
    }

    /// The cbuffer or tbuffer layout (kind 0 or 1) with this name.
    pub fn cbuffer_named(&self, name: &str) -> Option<&CbufferDesc> {
        self.cbuffers
            .iter()
            .find(|c| c.name == name && (c.kind == 0 || c.kind == 1))
    }

    /// The element layout (cbuffer desc of kind 3, "resource bind info",
    /// holding one `$Element` variable) of the structured resource `name`.
    pub fn element_layout(&self, name: &str) -> Option<&CbufferDesc> {
        self.cbuffers.iter().find(|c| c.name == name && c.kind == 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(v: &mut Vec<u8>, words: &[u32]) {
        for w in words {
            v.extend_from_slice(&w.to_le_bytes());
        }
    }

    #[test]
    fn empty_sm4_header() {
        // 7-dword SM4 header, creator string right after it.
        let mut d = Vec::new();
        put(&mut d, &[0, 0, 0, 0, 0x4353_0400, 0, 28]);
        d.extend_from_slice(b"x\0");
        let r = parse_rdef(&d).unwrap();
        assert_eq!(r.creator, "x");
        assert_eq!(r.target_version, 0x400);
        assert_eq!(r.program_type, 0x4353);
    }

    #[test]
    fn self_referencing_type_is_rejected() {
        // SM4 layout: one cbuffer, one variable whose struct type has a member
        // of the same type.
        let mut d = Vec::new();
        put(&mut d, &[1, 28, 0, 0, 0x4353_0400, 0, 104]); // 0..28
        put(&mut d, &[104, 1, 52, 16, 0, 0]); // cbuffer desc at 28
        put(&mut d, &[104, 0, 4, 0, 76, 0]); // variable desc at 52
                                             // type desc at 76: class 5, type 0, rows 1, cols 1, elements 0,
                                             // members 1, member offset 92
        d.extend_from_slice(&[5, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0]);
        put(&mut d, &[92]);
        put(&mut d, &[104, 76, 0]); // member desc at 92: name, type 76, offset 0
        assert_eq!(d.len(), 104);
        d.extend_from_slice(b"ab\0\0");
        let err = parse_rdef(&d).unwrap_err();
        assert_eq!(
            err,
            RdefError::TypeTooDeep {
                offset: 76,
                limit: MAX_TYPE_DEPTH
            }
        );
    }

    #[test]
    fn unterminated_string() {
        let mut d = Vec::new();
        put(&mut d, &[0, 0, 0, 0, 0x4353_0400, 0, 28]);
        d.extend_from_slice(b"abc");
        assert!(matches!(
            parse_rdef(&d),
            Err(RdefError::BadString { offset: 28, .. })
        ));
    }
}
