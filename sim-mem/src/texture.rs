//! Textures: 1D/2D/3D resources with mip chains, array slices and
//! multisamples, stored as `AtomicU32` words like buffers, and the views
//! (SRV and UAV) through which a compute shader sees them.
//!
//! Layout: subresources in D3D order (subresource = mip + slice × mips, FS
//! §5.3.x "Subresources"), each starting on a 4-byte boundary, rows tightly
//! packed (`width × element bytes`, or block columns × block bytes for the
//! block-compressed formats), 3D depth slices one after another, and the
//! samples of a multisampled texel next to each other. Host code reads and
//! writes this layout through [`Texture::subresource_range`].
//!
//! Shader-facing rules (`reference/sm5-compute-isa.md` §10, §14; FS §22.4.6–9,
//! §22.4.14): loads out of range (coordinate, slice, mip or sample) return 0
//! in the format's present channels and the default (A = 1) in the missing
//! ones; stores out of range are dropped; views re-base mips and slices.

use crate::atomic::AtomicOp;
use crate::buffer::Buffer;
use crate::format::Format;
use crate::sync::{AtomicU32, Ordering};

/// D3D11 limits a texture must respect (FS §21, "System limits").
pub mod limits {
    /// `D3D11_REQ_TEXTURE1D_U_DIMENSION`
    pub const TEXTURE1D_WIDTH: u32 = 16384;
    /// `D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION` (also cube faces)
    pub const TEXTURE2D_SIZE: u32 = 16384;
    /// `D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION`
    pub const TEXTURE3D_SIZE: u32 = 2048;
    /// `D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION` and the 2D one
    pub const ARRAY_SIZE: u32 = 2048;
    /// Largest total size sm5sim accepts for one texture, in bytes (4 GiB).
    pub const MAX_BYTES: u64 = 1 << 32;
}

/// Errors creating textures and views.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// A size, count or format breaks a D3D11 rule.
    #[error("{0}")]
    Invalid(String),
    /// The allocator refused the texture's storage.
    #[error("cannot allocate {bytes} bytes for a texture: out of memory")]
    OutOfMemory {
        /// bytes asked for
        bytes: usize,
    },
    /// Host data does not fit the subresource.
    #[error("{given} bytes given for mip {mip} slice {slice}, which holds {size} bytes")]
    SizeMismatch {
        /// bytes given
        given: usize,
        /// bytes the subresource holds
        size: usize,
        /// mip level
        mip: u32,
        /// array slice
        slice: u32,
    },
}

fn invalid<T>(what: impl Into<String>) -> Result<T, TextureError> {
    Err(TextureError::Invalid(what.into()))
}

/// The dimension of a texture resource (`D3D11_RESOURCE_DIMENSION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureDimension {
    /// 1D, optionally an array
    Texture1D,
    /// 2D, optionally an array, a cube array (6 slices per cube) or multisampled
    Texture2D,
    /// 3D
    Texture3D,
}

/// What a texture is made of (`D3D11_TEXTUREnD_DESC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureDesc {
    /// 1D, 2D or 3D.
    pub dimension: TextureDimension,
    /// Element format of the resource and of its views.
    pub format: Format,
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 (1 for 1D).
    pub height: u32,
    /// Depth of mip 0 (1 unless 3D).
    pub depth: u32,
    /// Array slices (1 for 3D; 6 × cubes for a cube texture).
    pub array_size: u32,
    /// Mip levels; 0 means the full chain down to 1×1×1.
    pub mip_levels: u32,
    /// Samples per texel (1, or 2/4/8/16 for a multisampled 2D texture).
    pub sample_count: u32,
}

impl TextureDesc {
    /// A single-mip, single-slice 2D texture.
    pub fn texture2d(format: Format, width: u32, height: u32) -> Self {
        Self {
            dimension: TextureDimension::Texture2D,
            format,
            width,
            height,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            sample_count: 1,
        }
    }
}

/// Size of mip `mip` of a dimension of `size` texels: `max(1, size >> mip)`.
pub fn mip_extent(size: u32, mip: u32) -> u32 {
    size.checked_shr(mip).unwrap_or(0).max(1)
}

/// Number of mips of a full chain for these sizes: ⌊log₂ max⌋ + 1.
pub fn full_mip_count(width: u32, height: u32, depth: u32) -> u32 {
    32 - width.max(height).max(depth).max(1).leading_zeros()
}

#[derive(Debug, Clone, Copy)]
struct Subresource {
    offset: usize,
    row_pitch: usize,
    slice_pitch: usize,
    size: usize,
    extent: [u32; 3],
}

/// A texture resource: its description and its storage.
#[derive(Debug)]
pub struct Texture {
    desc: TextureDesc,
    data: Buffer,
    subresources: Vec<Subresource>,
}

impl Texture {
    /// A zero-filled texture.
    ///
    /// # Errors
    /// [`TextureError::Invalid`] when the description breaks a D3D11 rule:
    /// zero or too large sizes (limits in [`limits`]), more mips than the
    /// chain has, a sample count other than 1, 2, 4, 8 or 16, multisampling
    /// on anything but a single-mip 2D texture, a 1D block-compressed texture,
    /// or a texture larger than [`limits::MAX_BYTES`];
    /// [`TextureError::OutOfMemory`] when the allocator refuses the storage.
    pub fn new(desc: TextureDesc) -> Result<Self, TextureError> {
        let (desc, subresources, bytes) = Self::layout(desc)?;
        let data = Buffer::zeroed(bytes as usize).map_err(|e| match e {
            crate::MemError::OutOfMemory { bytes } => TextureError::OutOfMemory { bytes },
            e => TextureError::Invalid(e.to_string()),
        })?;
        Ok(Self {
            desc,
            data,
            subresources,
        })
    }

    /// The bytes a texture of `desc` stores (every subresource, in the
    /// layout the module describes), without allocating them: for a caller
    /// that totals its resources before creating them.
    ///
    /// # Errors
    /// As [`Texture::new`], but never [`TextureError::OutOfMemory`].
    pub fn storage_bytes(desc: TextureDesc) -> Result<u64, TextureError> {
        Self::layout(desc).map(|(_, _, bytes)| bytes)
    }

    /// `desc` checked, with its mips resolved; its subresources; its bytes.
    fn layout(desc: TextureDesc) -> Result<(TextureDesc, Vec<Subresource>, u64), TextureError> {
        let mut d = desc;
        let (w_max, h_max, d_max, a_max) = match d.dimension {
            TextureDimension::Texture1D => (limits::TEXTURE1D_WIDTH, 1, 1, limits::ARRAY_SIZE),
            TextureDimension::Texture2D => (
                limits::TEXTURE2D_SIZE,
                limits::TEXTURE2D_SIZE,
                1,
                limits::ARRAY_SIZE,
            ),
            TextureDimension::Texture3D => (
                limits::TEXTURE3D_SIZE,
                limits::TEXTURE3D_SIZE,
                limits::TEXTURE3D_SIZE,
                1,
            ),
        };
        for (name, v, max) in [
            ("width", d.width, w_max),
            ("height", d.height, h_max),
            ("depth", d.depth, d_max),
            ("array_size", d.array_size, a_max),
        ] {
            if v == 0 || v > max {
                return invalid(format!(
                    "{name} {v} is out of range for a {:?} (1..={max})",
                    d.dimension
                ));
            }
        }
        let full = full_mip_count(d.width, d.height, d.depth);
        if d.mip_levels == 0 {
            d.mip_levels = full;
        }
        if d.mip_levels > full {
            return invalid(format!(
                "{} mips requested; a {}x{}x{} texture has {full}",
                d.mip_levels, d.width, d.height, d.depth
            ));
        }
        if !matches!(d.sample_count, 1 | 2 | 4 | 8 | 16) {
            return invalid(format!(
                "sample count {} is not 1, 2, 4, 8 or 16",
                d.sample_count
            ));
        }
        if d.sample_count > 1 && (d.dimension != TextureDimension::Texture2D || d.mip_levels != 1) {
            return invalid("multisampled textures are 2D with one mip");
        }
        if d.sample_count > 1 && d.format.block_size() != [1, 1] {
            return invalid("block-compressed and sub-sampled formats cannot be multisampled");
        }
        if d.format.is_block_compressed() && d.dimension == TextureDimension::Texture1D {
            return invalid(format!("{} cannot be a 1D texture", d.format.name()));
        }
        let [bw, bh] = d.format.block_size();
        let bytes = d.format.size_bytes() as usize;
        let mut subresources = Vec::new();
        let mut offset = 0u64;
        for _slice in 0..d.array_size {
            for mip in 0..d.mip_levels {
                let extent = [
                    mip_extent(d.width, mip),
                    mip_extent(d.height, mip),
                    mip_extent(d.depth, mip),
                ];
                let cols = extent[0].div_ceil(bw) as u64;
                let rows = extent[1].div_ceil(bh) as u64;
                let row_pitch = cols * bytes as u64 * d.sample_count as u64;
                let slice_pitch = row_pitch * rows;
                let size = slice_pitch * extent[2] as u64;
                subresources.push(Subresource {
                    offset: offset as usize,
                    row_pitch: row_pitch as usize,
                    slice_pitch: slice_pitch as usize,
                    size: size as usize,
                    extent,
                });
                offset = (offset + size).next_multiple_of(4);
                if offset > limits::MAX_BYTES {
                    return invalid(format!(
                        "the texture needs more than {} bytes",
                        limits::MAX_BYTES
                    ));
                }
            }
        }
        Ok((d, subresources, offset))
    }

    /// The description, with `mip_levels` resolved (never 0).
    pub fn desc(&self) -> &TextureDesc {
        &self.desc
    }

    /// The storage: every subresource, in the layout the module describes.
    pub fn data(&self) -> &Buffer {
        &self.data
    }

    /// Size of mip `mip` in texels (width, height, depth).
    pub fn mip_size(&self, mip: u32) -> [u32; 3] {
        [
            mip_extent(self.desc.width, mip),
            mip_extent(self.desc.height, mip),
            mip_extent(self.desc.depth, mip),
        ]
    }

    /// Byte range of subresource (mip, slice) within [`Texture::data`], or
    /// `None` out of range. Rows are tightly packed: width × element bytes
    /// (× samples), or block columns × block bytes for BC formats.
    pub fn subresource_range(&self, mip: u32, slice: u32) -> Option<std::ops::Range<usize>> {
        let s = self.subresource(mip, slice)?;
        Some(s.offset..s.offset + s.size)
    }

    fn subresource(&self, mip: u32, slice: u32) -> Option<&Subresource> {
        if mip >= self.desc.mip_levels || slice >= self.desc.array_size {
            return None;
        }
        self.subresources
            .get((slice * self.desc.mip_levels + mip) as usize)
    }

    /// Overwrite subresource (mip, slice) with `bytes` in its layout.
    ///
    /// # Errors
    /// [`TextureError::SizeMismatch`] unless `bytes` is exactly its size;
    /// [`TextureError::Invalid`] for a mip or slice out of range.
    pub fn write_subresource(
        &self,
        mip: u32,
        slice: u32,
        bytes: &[u8],
    ) -> Result<(), TextureError> {
        let Some(s) = self.subresource(mip, slice) else {
            return invalid(format!("no subresource mip {mip} slice {slice}"));
        };
        if bytes.len() != s.size {
            return Err(TextureError::SizeMismatch {
                given: bytes.len(),
                size: s.size,
                mip,
                slice,
            });
        }
        write_bytes(self.data.words(), s.offset, bytes);
        Ok(())
    }

    /// Copy the box `src_box` (texels `[x0, y0, z0]` up to but not
    /// including `[x1, y1, z1]`) of subresource (`src_mip`, `src_slice`) of
    /// `src` into subresource (`dst_mip`, `dst_slice`) of this texture, its
    /// corner at texel `dst`: `CopySubresourceRegion` on textures (FS
    /// §5.6.3). The bytes are copied as they are stored (no format
    /// conversion), so the two formats must store elements of the same size
    /// and block shape, and the sample counts must agree. An empty box
    /// copies nothing.
    ///
    /// # Errors
    /// [`TextureError::Invalid`] naming what is wrong: a subresource that
    /// does not exist, a box that is not inside the source subresource or a
    /// region not inside the destination's, coordinates of a
    /// block-compressed format that are not on block boundaries (a box may
    /// end at the mip's own edge), elements of different sizes or sample
    /// counts, part of a multisampled subresource (one is copied whole).
    /// Nothing is copied then.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_region(
        &self,
        dst_mip: u32,
        dst_slice: u32,
        dst: [u32; 3],
        src: &Texture,
        src_mip: u32,
        src_slice: u32,
        src_box: [[u32; 3]; 2],
    ) -> Result<(), TextureError> {
        self.copy_region_if(
            dst_mip, dst_slice, dst, src, src_mip, src_slice, src_box, true,
        )
    }

    /// What [`Texture::copy_region`] would refuse, without copying.
    ///
    /// # Errors
    /// As [`Texture::copy_region`].
    #[allow(clippy::too_many_arguments)]
    pub fn check_copy_region(
        &self,
        dst_mip: u32,
        dst_slice: u32,
        dst: [u32; 3],
        src: &Texture,
        src_mip: u32,
        src_slice: u32,
        src_box: [[u32; 3]; 2],
    ) -> Result<(), TextureError> {
        self.copy_region_if(
            dst_mip, dst_slice, dst, src, src_mip, src_slice, src_box, false,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn copy_region_if(
        &self,
        dst_mip: u32,
        dst_slice: u32,
        dst: [u32; 3],
        src: &Texture,
        src_mip: u32,
        src_slice: u32,
        src_box: [[u32; 3]; 2],
        run: bool,
    ) -> Result<(), TextureError> {
        let (sf, df) = (src.desc.format, self.desc.format);
        if sf.size_bytes() != df.size_bytes() || sf.block_size() != df.block_size() {
            return invalid(format!(
                "{} and {} do not store elements of the same size and block shape",
                sf.name(),
                df.name()
            ));
        }
        if src.desc.sample_count != self.desc.sample_count {
            return invalid(format!(
                "the source has {} samples per texel and the destination {}",
                src.desc.sample_count, self.desc.sample_count
            ));
        }
        let Some(s) = src.subresource(src_mip, src_slice) else {
            return invalid(format!(
                "the source has no subresource mip {src_mip} slice {src_slice}"
            ));
        };
        let Some(d) = self.subresource(dst_mip, dst_slice) else {
            return invalid(format!(
                "the destination has no subresource mip {dst_mip} slice {dst_slice}"
            ));
        };
        let [lo, hi] = src_box;
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return Ok(()); // an empty box: nothing to copy
        }
        // a multisampled subresource is copied whole (CopySubresourceRegion
        // remarks: no box, the destination at 0, 0, 0)
        if self.desc.sample_count > 1 && (lo != [0; 3] || hi != s.extent || dst != [0; 3]) {
            return invalid(
                "a multisampled subresource is copied whole: no source box, the destination at [0, 0, 0]",
            );
        }
        let size = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
        for a in 0..3 {
            if hi[a] > s.extent[a] {
                return invalid(format!(
                    "the source box {:?}..{:?} is not inside mip {src_mip} ({}x{}x{})",
                    lo, hi, s.extent[0], s.extent[1], s.extent[2]
                ));
            }
            if dst[a].checked_add(size[a]).is_none_or(|e| e > d.extent[a]) {
                return invalid(format!(
                    "a {}x{}x{} region at {:?} is not inside the destination's mip {dst_mip} ({}x{}x{})",
                    size[0], size[1], size[2], dst, d.extent[0], d.extent[1], d.extent[2]
                ));
            }
        }
        let [bw, bh] = df.block_size();
        let on_block = |v: u32, b: u32, edge: u32| v.is_multiple_of(b) || v == edge;
        if !(on_block(lo[0], bw, s.extent[0])
            && on_block(hi[0], bw, s.extent[0])
            && on_block(lo[1], bh, s.extent[1])
            && on_block(hi[1], bh, s.extent[1])
            && on_block(dst[0], bw, d.extent[0])
            && on_block(dst[1], bh, d.extent[1]))
        {
            return invalid(format!(
                "{} is stored in {bw}x{bh} blocks: the box and the destination corner must lie on block boundaries",
                df.name()
            ));
        }
        if !run {
            return Ok(());
        }
        // one row of blocks at a time, through a buffer (source and
        // destination may be two subresources of one texture)
        let elem = df.size_bytes() as usize * self.desc.sample_count as usize;
        let cols = (hi[0] - lo[0]).div_ceil(bw) as usize;
        let mut row = vec![0u8; cols * elem];
        for z in 0..size[2] {
            for by in 0..size[1].div_ceil(bh) {
                let sy = lo[1] + by * bh;
                let dy = dst[1] + by * bh;
                let from = s.offset
                    + (lo[2] + z) as usize * s.slice_pitch
                    + (sy / bh) as usize * s.row_pitch
                    + (lo[0] / bw) as usize * elem;
                let to = d.offset
                    + (dst[2] + z) as usize * d.slice_pitch
                    + (dy / bh) as usize * d.row_pitch
                    + (dst[0] / bw) as usize * elem;
                read_bytes(src.data.words(), from, &mut row);
                write_bytes(self.data.words(), to, &row);
            }
        }
        Ok(())
    }

    /// A copy of subresource (mip, slice) in its layout (empty out of range).
    pub fn read_subresource(&self, mip: u32, slice: u32) -> Vec<u8> {
        let Some(s) = self.subresource(mip, slice) else {
            return Vec::new();
        };
        let mut out = vec![0; s.size];
        read_bytes(self.data.words(), s.offset, &mut out);
        out
    }

    /// Byte offset of the element (or BC block) holding texel (x, y, z),
    /// sample `sample`, of subresource (mip, slice); `None` out of range.
    fn element_offset(&self, mip: u32, slice: u32, xyz: [u32; 3], sample: u32) -> Option<usize> {
        let s = self.subresource(mip, slice)?;
        if xyz[0] >= s.extent[0]
            || xyz[1] >= s.extent[1]
            || xyz[2] >= s.extent[2]
            || sample >= self.desc.sample_count
        {
            return None;
        }
        let [bw, bh] = self.desc.format.block_size();
        let bytes = self.desc.format.size_bytes() as usize;
        Some(
            s.offset
                + xyz[2] as usize * s.slice_pitch
                + (xyz[1] / bh) as usize * s.row_pitch
                + ((xyz[0] / bw) as usize * self.desc.sample_count as usize + sample as usize)
                    * bytes,
        )
    }

    /// Texel (x, y, z) of subresource (mip, slice), sample `sample`,
    /// converted to register values by `format` (the view's), or `None` out
    /// of range.
    pub fn read_texel(
        &self,
        format: Format,
        mip: u32,
        slice: u32,
        xyz: [u32; 3],
        sample: u32,
    ) -> Option<[u32; 4]> {
        let at = self.element_offset(mip, slice, xyz, sample)?;
        let mut buf = [0u8; 16];
        let n = format.size_bytes() as usize;
        read_bytes(self.data.words(), at, &mut buf[..n]);
        let [bw, bh] = format.block_size();
        let texel = ((xyz[1] % bh) * bw + xyz[0] % bw) as usize;
        Some(format.decode_texel(&buf[..n], texel))
    }

    /// Store register values into texel (x, y, z) of subresource (mip,
    /// slice) with `format`'s typed-store conversion; dropped out of range
    /// or for formats that cannot be stored ([`Format::uav_storable`]).
    /// Elements narrower than a word are merged with a compare-exchange loop,
    /// so neighbours written by other threads survive.
    pub fn write_texel(
        &self,
        format: Format,
        mip: u32,
        slice: u32,
        xyz: [u32; 3],
        value: [u32; 4],
    ) {
        if !format.uav_storable() || format.block_size() != [1, 1] {
            return;
        }
        let Some(at) = self.element_offset(mip, slice, xyz, 0) else {
            return;
        };
        write_bytes(self.data.words(), at, &format.encode(value));
    }

    /// The word holding a 4-byte texel, for atomics on R32 texture UAVs.
    fn texel_word(&self, mip: u32, slice: u32, xyz: [u32; 3]) -> Option<&AtomicU32> {
        if self.desc.format.size_bytes() != 4 || self.desc.format.block_size() != [1, 1] {
            return None;
        }
        let at = self.element_offset(mip, slice, xyz, 0)?;
        self.data.words().get(at / 4)
    }
}

/// Copy bytes out of little-endian words.
pub(crate) fn read_bytes(words: &[AtomicU32], start: usize, out: &mut [u8]) {
    let mut i = 0;
    while i < out.len() {
        let at = start + i;
        let w = words.get(at / 4).map_or(0, |w| w.load(Ordering::Relaxed));
        let shift = at % 4;
        let take = (4 - shift).min(out.len() - i);
        let le = w.to_le_bytes();
        out[i..i + take].copy_from_slice(&le[shift..shift + take]);
        i += take;
    }
}

/// Write bytes into little-endian words; whole words are stored, partial
/// words merged with a compare-exchange loop.
pub(crate) fn write_bytes(words: &[AtomicU32], start: usize, bytes: &[u8]) {
    let mut i = 0;
    while i < bytes.len() {
        let at = start + i;
        let Some(w) = words.get(at / 4) else { return };
        let shift = at % 4;
        let take = (4 - shift).min(bytes.len() - i);
        if take == 4 {
            let v = u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
            w.store(v, Ordering::Relaxed);
        } else {
            let mut bits = 0u32;
            let mut mask = 0u32;
            for k in 0..take {
                bits |= (bytes[i + k] as u32) << (8 * (shift + k));
                mask |= 0xff << (8 * (shift + k));
            }
            let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some((old & !mask) | bits)
            });
        }
        i += take;
    }
}

/// How a shader sees a texture (`D3D11_SRV_DIMENSION` / `D3D11_UAV_DIMENSION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ViewDimension {
    /// `Texture1D`
    Texture1D,
    /// `Texture1DArray`
    Texture1DArray,
    /// `Texture2D`
    Texture2D,
    /// `Texture2DArray`
    Texture2DArray,
    /// `Texture2DMS`
    Texture2DMS,
    /// `Texture2DMSArray`
    Texture2DMSArray,
    /// `Texture3D`
    Texture3D,
    /// `TextureCube` (6 slices)
    TextureCube,
    /// `TextureCubeArray` (6 slices per cube)
    TextureCubeArray,
}

impl ViewDimension {
    /// The resource dimension a view of this kind needs.
    pub fn resource_dimension(self) -> TextureDimension {
        match self {
            Self::Texture1D | Self::Texture1DArray => TextureDimension::Texture1D,
            Self::Texture3D => TextureDimension::Texture3D,
            _ => TextureDimension::Texture2D,
        }
    }

    /// Whether it indexes slices (an array, cube or cube array).
    pub fn is_array(self) -> bool {
        matches!(
            self,
            Self::Texture1DArray
                | Self::Texture2DArray
                | Self::Texture2DMSArray
                | Self::TextureCubeArray
        )
    }

    /// Whether it is multisampled.
    pub fn is_multisampled(self) -> bool {
        matches!(self, Self::Texture2DMS | Self::Texture2DMSArray)
    }

    /// Whether it is a cube or cube array.
    pub fn is_cube(self) -> bool {
        matches!(self, Self::TextureCube | Self::TextureCubeArray)
    }

    /// Whether a UAV may have this dimension (FS §5.3.9: no MS, no cubes).
    pub fn allowed_for_uav(self) -> bool {
        !self.is_multisampled() && !self.is_cube()
    }

    /// Number of coordinate components before the slice (1, 2 or 3; cubes: 3, a direction).
    pub fn coordinate_count(self) -> usize {
        match self {
            Self::Texture1D | Self::Texture1DArray => 1,
            Self::Texture3D | Self::TextureCube | Self::TextureCubeArray => 3,
            _ => 2,
        }
    }

    /// The lower-case HLSL-ish name (`texture2darray`), as job files spell it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Texture1D => "texture1d",
            Self::Texture1DArray => "texture1darray",
            Self::Texture2D => "texture2d",
            Self::Texture2DArray => "texture2darray",
            Self::Texture2DMS => "texture2dms",
            Self::Texture2DMSArray => "texture2dmsarray",
            Self::Texture3D => "texture3d",
            Self::TextureCube => "texturecube",
            Self::TextureCubeArray => "texturecubearray",
        }
    }

    /// Every view dimension.
    pub const ALL: [ViewDimension; 9] = [
        Self::Texture1D,
        Self::Texture1DArray,
        Self::Texture2D,
        Self::Texture2DArray,
        Self::Texture2DMS,
        Self::Texture2DMSArray,
        Self::Texture3D,
        Self::TextureCube,
        Self::TextureCubeArray,
    ];

    /// The view dimension called `name` (as [`ViewDimension::name`], any case).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// A view of a texture: an SRV (a range of mips and slices) or a UAV (one
/// mip and a range of slices, or of depth slices for 3D).
#[derive(Debug, Clone, Copy)]
pub struct TextureView<'a> {
    texture: &'a Texture,
    dimension: ViewDimension,
    format: Format,
    first_mip: u32,
    mip_count: u32,
    first_slice: u32,
    slice_count: u32,
    uav: bool,
}

/// A UAV view's texels, owned ([`TextureView::uav_texels`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UavTexels {
    dimension: ViewDimension,
    element_bytes: usize,
    /// the view's mip's size (width, height, depth)
    size: [u32; 3],
    /// a 3D view's first W slice (an array view's slices are in
    /// `slices`, its first one first)
    first_slice: u32,
    /// the view's mip of the resource
    mip: u32,
    /// per view slice (one for a 3D view), its bytes in the storage
    slices: Vec<std::ops::Range<usize>>,
}

impl UavTexels {
    /// The address (x, y or slice, z or slice, per the view's dimension,
    /// FS §22.4.6) whose texel is storage element `element` (byte offset ÷
    /// element size, as [`TextureView::uav_element`] gives it), or `None`
    /// outside the view.
    pub fn address(&self, element: usize) -> Option<[u32; 3]> {
        let at = element.checked_mul(self.element_bytes)?;
        let (s, range) = self
            .slices
            .iter()
            .enumerate()
            .find(|(_, r)| r.contains(&at))?;
        let local = at - range.start;
        let row = self.size[0] as usize * self.element_bytes;
        let h = self.size[1].max(1) as usize;
        let x = (local % row / self.element_bytes) as u32;
        let y = (local / row % h) as u32;
        let z = (local / (row * h)) as u32;
        use ViewDimension::*;
        Some(match self.dimension {
            Texture1D => [x, 0, 0],
            Texture1DArray => [x, s as u32, 0],
            Texture3D => [x, y, z.checked_sub(self.first_slice)?],
            Texture2DArray | Texture2DMSArray | TextureCube | TextureCubeArray => [x, y, s as u32],
            Texture2D | Texture2DMS => [x, y, 0],
        })
    }

    /// The texel of storage element `element` as a report names it, in the
    /// shader's address: `(x)`, `(x, y)`, `(x, y, z)`, `(x, y) slice s`,
    /// followed by ` mip m` when the view's mip is not the resource's first.
    pub fn describe(&self, element: usize) -> Option<String> {
        let [x, y, z] = self.address(element)?;
        use ViewDimension::*;
        let mut t = match self.dimension {
            Texture1D => format!("({x})"),
            Texture1DArray => format!("({x}) slice {y}"),
            Texture3D => format!("({x}, {y}, {z})"),
            Texture2D | Texture2DMS => format!("({x}, {y})"),
            _ => format!("({x}, {y}) slice {z}"),
        };
        if self.mip > 0 {
            t.push_str(&format!(" mip {}", self.mip));
        }
        Some(t)
    }
}

/// The range a view covers; `None` fields mean "all that remain".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ViewRange {
    /// `MostDetailedMip` (SRV) or `MipSlice` (UAV).
    pub first_mip: u32,
    /// `MipLevels` (SRV only; UAVs see one mip).
    pub mip_count: Option<u32>,
    /// `FirstArraySlice` (`First2DArrayFace` for cube arrays; `FirstWSlice` for 3D UAVs).
    pub first_slice: u32,
    /// `ArraySize` (slices, so 6 × cubes for cube arrays; `WSize` for 3D UAVs).
    pub slice_count: Option<u32>,
}

impl<'a> TextureView<'a> {
    /// A shader resource view (t#).
    ///
    /// # Errors
    /// [`TextureError::Invalid`] when the dimension does not fit the
    /// resource (e.g. a cube view of a texture without 6 slices, an MS view
    /// of a single-sample texture), the range leaves the resource, or the
    /// format's size differs from the resource's (views may reinterpret the
    /// format only within the same element size, FS §19.1).
    pub fn srv(
        texture: &'a Texture,
        dimension: ViewDimension,
        format: Format,
        range: ViewRange,
    ) -> Result<Self, TextureError> {
        Self::new(texture, dimension, format, range, false)
    }

    /// An unordered access view (u#): one mip (`range.first_mip`).
    ///
    /// # Errors
    /// As [`TextureView::srv`], plus dimensions UAVs cannot have (MS, cubes).
    /// Block-compressed and sRGB formats are refused (FS §5.3.9).
    pub fn uav(
        texture: &'a Texture,
        dimension: ViewDimension,
        format: Format,
        range: ViewRange,
    ) -> Result<Self, TextureError> {
        if !dimension.allowed_for_uav() {
            return invalid(format!("a UAV cannot be a {}", dimension.name()));
        }
        if format.is_block_compressed() || format.is_subsampled() || format.is_srgb() {
            return invalid(format!("a UAV cannot have format {}", format.name()));
        }
        Self::new(texture, dimension, format, range, true)
    }

    fn new(
        texture: &'a Texture,
        dimension: ViewDimension,
        format: Format,
        range: ViewRange,
        uav: bool,
    ) -> Result<Self, TextureError> {
        let d = texture.desc();
        if dimension.resource_dimension() != d.dimension {
            return invalid(format!(
                "a {} view needs a {:?} resource, not {:?}",
                dimension.name(),
                dimension.resource_dimension(),
                d.dimension
            ));
        }
        if dimension.is_multisampled() != (d.sample_count > 1) {
            return invalid(format!(
                "a {} view of a texture with {} samples",
                dimension.name(),
                d.sample_count
            ));
        }
        if format.size_bytes() != d.format.size_bytes()
            || format.block_size() != d.format.block_size()
        {
            return invalid(format!(
                "view format {} does not have the element size of the resource's {}",
                format.name(),
                d.format.name()
            ));
        }
        if range.first_mip >= d.mip_levels {
            return invalid(format!(
                "first mip {} of a texture with {} mips",
                range.first_mip, d.mip_levels
            ));
        }
        let mip_count = if uav {
            1
        } else {
            range.mip_count.unwrap_or(d.mip_levels - range.first_mip)
        };
        if mip_count == 0 || range.first_mip + mip_count > d.mip_levels {
            return invalid(format!(
                "mips {}..{} of a texture with {}",
                range.first_mip,
                range.first_mip as u64 + mip_count as u64,
                d.mip_levels
            ));
        }
        // Slices: 3D UAVs range over depth slices of the mip.
        let slices = if d.dimension == TextureDimension::Texture3D {
            if uav {
                mip_extent(d.depth, range.first_mip)
            } else {
                1
            }
        } else {
            d.array_size
        };
        let default_count = match dimension {
            _ if dimension.is_array() || d.dimension == TextureDimension::Texture3D => {
                slices.saturating_sub(range.first_slice)
            }
            ViewDimension::TextureCube => 6,
            _ => 1,
        };
        let slice_count = range.slice_count.unwrap_or(default_count);
        if slice_count == 0 || range.first_slice as u64 + slice_count as u64 > slices as u64 {
            return invalid(format!(
                "slices {}..{} of a texture with {slices}",
                range.first_slice,
                range.first_slice as u64 + slice_count as u64
            ));
        }
        if !dimension.is_array()
            && dimension != ViewDimension::TextureCube
            && d.dimension != TextureDimension::Texture3D
            && slice_count != 1
        {
            return invalid(format!("a {} view sees one slice", dimension.name()));
        }
        if dimension == ViewDimension::TextureCube && slice_count != 6 {
            return invalid("a cube view sees 6 slices");
        }
        if dimension == ViewDimension::TextureCubeArray && !slice_count.is_multiple_of(6) {
            return invalid("a cube array view sees a multiple of 6 slices");
        }
        if dimension.is_cube() && d.width != d.height {
            return invalid("cube faces are square");
        }
        Ok(Self {
            texture,
            dimension,
            format,
            first_mip: range.first_mip,
            mip_count,
            first_slice: range.first_slice,
            slice_count,
            uav,
        })
    }

    /// The texture viewed.
    pub fn texture(&self) -> &'a Texture {
        self.texture
    }

    /// The view dimension.
    pub fn dimension(&self) -> ViewDimension {
        self.dimension
    }

    /// The view format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Mips the view sees.
    pub fn mip_count(&self) -> u32 {
        self.mip_count
    }

    /// Slices the view sees (6 × cubes for cube arrays; depth slices for a 3D UAV).
    pub fn slice_count(&self) -> u32 {
        self.slice_count
    }

    /// Samples per texel.
    pub fn sample_count(&self) -> u32 {
        self.texture.desc.sample_count
    }

    /// Size in texels of the view's mip `level` (0 = its most detailed).
    pub fn level_size(&self, level: u32) -> [u32; 3] {
        self.texture.mip_size(self.first_mip + level)
    }

    /// The value a load out of range returns: 0 in the present channels,
    /// the format's defaults (A = 1) in the missing ones.
    pub fn out_of_range(&self) -> [u32; 4] {
        self.format
            .decode_texel(&[0u8; 16][..self.format.size_bytes() as usize], 0)
    }

    /// Split a shader address into (x, y, z) and the view-relative slice
    /// (FS §22.4.6: 1D arrays take the slice in .y, 2D arrays in .z).
    fn split(&self, a: [u32; 3]) -> ([u32; 3], u32) {
        use ViewDimension::*;
        match self.dimension {
            Texture1D => ([a[0], 0, 0], 0),
            Texture1DArray => ([a[0], 0, 0], a[1]),
            Texture2D | Texture2DMS => ([a[0], a[1], 0], 0),
            Texture2DArray | Texture2DMSArray => ([a[0], a[1], 0], a[2]),
            Texture3D => ([a[0], a[1], a[2]], 0),
            TextureCube | TextureCubeArray => ([a[0], a[1], 0], a[2]),
        }
    }

    /// Resolve a view-relative (mip, slice) to the resource's, or `None`.
    fn resolve(&self, level: u32, slice: u32) -> Option<(u32, u32)> {
        if level >= self.mip_count || slice >= self.slice_count {
            return None;
        }
        if self.texture.desc.dimension == TextureDimension::Texture3D {
            return Some((self.first_mip + level, 0));
        }
        Some((self.first_mip + level, self.first_slice + slice))
    }

    /// `ld` / `ldms` / `ld_uav_typed`: the texel at address `addr`
    /// (unsigned; x, y/slice, z/slice per the dimension, FS §22.4.6) of the
    /// view's mip `level`, sample `sample` (UAVs: their one mip, sample 0);
    /// out of range → [`Self::out_of_range`].
    pub fn load(&self, addr: [u32; 3], level: u32, sample: u32) -> [u32; 4] {
        if self.uav {
            return match self.uav_target(addr) {
                Some((mip, s, xyz)) => self
                    .texture
                    .read_texel(self.format, mip, s, xyz, 0)
                    .unwrap_or_else(|| self.out_of_range()),
                None => self.out_of_range(),
            };
        }
        let (xyz, slice) = self.split(addr);
        let Some((mip, s)) = self.resolve(level, slice) else {
            return self.out_of_range();
        };
        self.texture
            .read_texel(self.format, mip, s, xyz, sample)
            .unwrap_or_else(|| self.out_of_range())
    }

    /// Whether this is a UAV.
    pub fn is_uav(&self) -> bool {
        self.uav
    }

    /// `store_uav_typed` on a texture UAV: converts by the view's format;
    /// dropped out of range.
    pub fn store(&self, addr: [u32; 3], value: [u32; 4]) {
        let Some((mip, s, xyz)) = self.uav_target(addr) else {
            return;
        };
        self.texture.write_texel(self.format, mip, s, xyz, value);
    }

    /// Atomic read-modify-write of an R32_UINT/R32_SINT texel (FS §22.17);
    /// the old value, or `None` (nothing written) out of range.
    pub fn atomic(&self, addr: [u32; 3], op: AtomicOp) -> Option<u32> {
        let (mip, s, xyz) = self.uav_target(addr)?;
        let w = self.texture.texel_word(mip, s, xyz)?;
        Some(op.apply(w))
    }

    /// The texels this UAV view sees, owned: [`UavTexels::address`] turns
    /// an element of [`TextureView::uav_element`] back into the address
    /// the shader gave, for reports that outlive the view.
    pub fn uav_texels(&self) -> UavTexels {
        let mip = self.first_mip;
        let size = self.texture.mip_size(mip);
        let slices = if self.texture.desc.dimension == TextureDimension::Texture3D {
            vec![self.texture.subresource_range(mip, 0).unwrap_or(0..0)]
        } else {
            (0..self.slice_count)
                .map(|s| {
                    (self.texture)
                        .subresource_range(mip, self.first_slice + s)
                        .unwrap_or(0..0)
                })
                .collect()
        };
        UavTexels {
            dimension: self.dimension,
            element_bytes: self.format.size_bytes().max(1) as usize,
            size,
            first_slice: self.first_slice,
            mip,
            slices,
        }
    }

    /// The element a UAV access at `addr` touches, as an index into the
    /// texture's storage in units of the element size (byte offset ÷
    /// `format.size_bytes()`), or `None` out of range: a key that tells two
    /// accesses to the same texel apart from others, for the concurrency
    /// checker.
    pub fn uav_element(&self, addr: [u32; 3]) -> Option<usize> {
        let (mip, s, xyz) = self.uav_target(addr)?;
        let at = self.texture.element_offset(mip, s, xyz, 0)?;
        Some(at / self.format.size_bytes().max(1) as usize)
    }

    fn uav_target(&self, addr: [u32; 3]) -> Option<(u32, u32, [u32; 3])> {
        let (mut xyz, slice) = self.split(addr);
        if self.texture.desc.dimension == TextureDimension::Texture3D {
            // a 3D UAV's W range re-bases z
            if xyz[2] >= self.slice_count {
                return None;
            }
            xyz[2] += self.first_slice;
        }
        let (mip, s) = self.resolve(0, slice)?;
        Some((mip, s, xyz))
    }

    /// Texel (x, y, z) of the view's mip `level` and slice `slice`, for the
    /// sampler; `None` out of range (the sampler applies its address modes
    /// first, so this is only reached by border and bugs).
    pub fn texel(&self, level: u32, slice: u32, xyz: [u32; 3]) -> Option<[u32; 4]> {
        let (mip, s) = self.resolve(level, slice)?;
        self.texture.read_texel(self.format, mip, s, xyz, 0)
    }

    /// `resinfo` in integers: (width, height, depth or array size, mip
    /// count) of the view's mip `level` as FS §22.4.14 lists them per
    /// dimension (unused sizes 0; cubes report the cube count for cube
    /// arrays); a mip out of range gives 0 sizes and the mip count.
    pub fn resinfo(&self, level: u32) -> [u32; 4] {
        use ViewDimension::*;
        let mips = self.mip_count;
        if level >= mips {
            return [0, 0, 0, mips];
        }
        let [w, h, d] = self.level_size(level);
        let n = self.slice_count;
        match self.dimension {
            Texture1D => [w, 0, 0, mips],
            Texture1DArray => [w, n, 0, mips],
            Texture2D | Texture2DMS => [w, h, 0, mips],
            Texture2DArray | Texture2DMSArray => [w, h, n, mips],
            Texture3D if self.uav => [w, h, n, mips],
            Texture3D => [w, h, d, mips],
            TextureCube => [w, h, 0, mips],
            TextureCubeArray => [w, h, n / 6, mips],
        }
    }
}
