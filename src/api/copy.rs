//! The immediate context's copy commands on resources: `CopyResource`,
//! `CopySubresourceRegion` (buffers and textures) and `CopyStructureCount`,
//! with the D3D11 runtime's rules (`ID3D11DeviceContext` remarks; FS
//! §5.6.3). A copy is a command between dispatches: it sees every write of
//! the dispatches before it, and the dispatches after it see its writes.

use super::{ApiError, Resource, Storage};
use sim_mem::Format;

/// Where a texture region goes or comes from: a subresource and a texel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextureRegion {
    /// the mip level
    pub mip: u32,
    /// the array slice (a cube's face: 6 × cube + face)
    pub slice: u32,
}

/// Whether two formats are in one D3D11 type group (the formats of one
/// `_TYPELESS` family, such as R8G8B8A8_UNORM and R8G8B8A8_UINT), which
/// `CopyResource` and `CopySubresourceRegion` require: the name without its
/// last part (`UNORM`, `UNORM_SRGB`, `UINT`, `FLOAT`, …) is the same.
pub fn same_type_group(a: Format, b: Format) -> bool {
    fn family(f: Format) -> &'static str {
        let n = f.name();
        let n = n.strip_suffix("_SRGB").unwrap_or(n);
        n.rsplit_once('_').map_or(n, |(head, _)| head)
    }
    a == b || family(a) == family(b)
}

impl Resource {
    fn copy_err(&self, what: &str, message: String) -> ApiError {
        ApiError::Resource {
            what: format!("{what} into {}", self.describe()),
            message,
        }
    }

    /// `CopyResource(self, src)`: the whole of `src` into this resource,
    /// which must be of the same kind and size: buffers of the same
    /// `ByteWidth`, or textures of the same dimension, size, mip count,
    /// array size and sample count, with formats of one type group. The
    /// hidden counter is not copied (D3D11 keeps it with a UAV, not the
    /// resource; sm5sim keeps one per buffer, for its UAVs).
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a copy D3D11's runtime drops: the same
    /// resource as source and destination, a buffer and a texture, sizes,
    /// descriptions or formats that differ (the message says which).
    pub fn copy_from(&self, src: &Resource) -> Result<(), ApiError> {
        self.copy_from_if(src, true)
    }

    /// What [`Resource::copy_from`] would refuse, without copying.
    ///
    /// # Errors
    /// As [`Resource::copy_from`].
    pub fn check_copy_from(&self, src: &Resource) -> Result<(), ApiError> {
        self.copy_from_if(src, false)
    }

    fn copy_from_if(&self, src: &Resource, run: bool) -> Result<(), ApiError> {
        let err = |m: String| self.copy_err(&format!("CopyResource from {}", src.describe()), m);
        if self.same(src) {
            return Err(err(
                "the source and the destination are the same resource".into()
            ));
        }
        match (src.storage(), self.storage()) {
            (Storage::Buffer(s), Storage::Buffer(d)) => {
                if s.len_bytes() != d.len_bytes() {
                    return Err(err(format!(
                        "buffers of {} and {} bytes; CopyResource needs the same ByteWidth (copy_region copies part of one)",
                        s.len_bytes(),
                        d.len_bytes()
                    )));
                }
                if !run {
                    return Ok(());
                }
                d.copy_words_from(0, s, 0, s.len_words())
                    .map_err(|e| err(e.to_string()))
            }
            (Storage::Texture(s), Storage::Texture(d)) => {
                let (sd, dd) = (s.desc(), d.desc());
                let shape = |t: &sim_mem::TextureDesc| {
                    (
                        t.dimension,
                        t.width,
                        t.height,
                        t.depth,
                        t.array_size,
                        t.mip_levels,
                        t.sample_count,
                    )
                };
                if shape(sd) != shape(dd) {
                    return Err(err(
                        "the textures differ in dimension, size, mips, array size or samples; CopyResource needs the same description (copy_region copies part of one)".into(),
                    ));
                }
                if !same_type_group(sd.format, dd.format) {
                    return Err(err(format!(
                        "{} and {} are not in one type group",
                        sd.format.name(),
                        dd.format.name()
                    )));
                }
                if !run {
                    return Ok(());
                }
                let words = s.data().len_words();
                d.data()
                    .copy_words_from(0, s.data(), 0, words)
                    .map_err(|e| err(e.to_string()))
            }
            _ => Err(err(
                "one is a buffer and the other a texture; CopyResource copies between resources of one kind".into(),
            )),
        }
    }

    /// `CopySubresourceRegion` on buffers: `bytes` bytes of `src` from byte
    /// `src_offset` (the box `[src_offset, src_offset + bytes)`) into this
    /// buffer at byte `dst_offset`. Offsets and sizes are in bytes, at any
    /// alignment; `bytes` of 0 (an empty box) copies nothing.
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a texture, a box outside `src`, a region
    /// outside this buffer, or a copy within one buffer (the D3D11 runtime
    /// drops a copy whose source and destination are the same subresource,
    /// `CopySubresourceRegion` remarks).
    pub fn copy_region(
        &self,
        dst_offset: u64,
        src: &Resource,
        src_offset: u64,
        bytes: u64,
    ) -> Result<(), ApiError> {
        self.copy_region_if(dst_offset, src, src_offset, bytes, true)
    }

    /// What [`Resource::copy_region`] would refuse, without copying.
    ///
    /// # Errors
    /// As [`Resource::copy_region`].
    pub fn check_copy_region(
        &self,
        dst_offset: u64,
        src: &Resource,
        src_offset: u64,
        bytes: u64,
    ) -> Result<(), ApiError> {
        self.copy_region_if(dst_offset, src, src_offset, bytes, false)
    }

    fn copy_region_if(
        &self,
        dst_offset: u64,
        src: &Resource,
        src_offset: u64,
        bytes: u64,
        run: bool,
    ) -> Result<(), ApiError> {
        let err =
            |m: String| self.copy_err(&format!("CopySubresourceRegion from {}", src.describe()), m);
        let (Storage::Buffer(s), Storage::Buffer(d)) = (src.storage(), self.storage()) else {
            return Err(err(
                "copy_region copies between buffers; textures take copy_texture_region".into(),
            ));
        };
        if self.same(src) {
            return Err(err(
                "the source and the destination are the same buffer, which the D3D11 runtime drops (copy through a second buffer)".into(),
            ));
        }
        let fits = |offset: u64, len: usize| {
            offset
                .checked_add(bytes)
                .is_some_and(|end| end <= len as u64)
        };
        if !fits(src_offset, s.len_bytes()) {
            return Err(err(format!(
                "the source box, bytes {src_offset}..{}, is not inside the source's {} bytes",
                src_offset.saturating_add(bytes),
                s.len_bytes()
            )));
        }
        if !fits(dst_offset, d.len_bytes()) {
            return Err(err(format!(
                "{bytes} bytes at byte {dst_offset} do not fit the destination's {} bytes",
                d.len_bytes()
            )));
        }
        if bytes == 0 || !run {
            return Ok(());
        }
        if (src_offset | dst_offset | bytes).is_multiple_of(4) {
            // whole words: straight from word to word
            let word = |b: u64| (b / 4) as usize;
            return d
                .copy_words_from(word(dst_offset), s, word(src_offset), word(bytes))
                .map_err(|e| err(e.to_string()));
        }
        let mut tmp = vec![0u8; bytes as usize];
        s.read_bytes(src_offset as usize, &mut tmp)
            .and_then(|()| d.write_bytes(dst_offset as usize, &tmp))
            .map_err(|e| err(e.to_string()))
    }

    /// `CopySubresourceRegion` on textures: the box `src_box` of `src`'s
    /// subresource `from` (texels `[x0, y0, z0]` up to but not including
    /// `[x1, y1, z1]`; None: the whole subresource) into this texture's
    /// subresource `to` with its corner at texel `dst`. The formats must be
    /// of one type group and the sample counts equal; block-compressed
    /// coordinates lie on block boundaries. An empty box copies nothing.
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a buffer, a subresource that does not
    /// exist, a box or region outside its subresource, formats of two type
    /// groups, or a copy within one subresource (which the D3D11 runtime
    /// drops).
    pub fn copy_texture_region(
        &self,
        to: TextureRegion,
        dst: [u32; 3],
        src: &Resource,
        from: TextureRegion,
        src_box: Option<[[u32; 3]; 2]>,
    ) -> Result<(), ApiError> {
        self.copy_texture_region_if(to, dst, src, from, src_box, true)
    }

    /// What [`Resource::copy_texture_region`] would refuse, without copying.
    ///
    /// # Errors
    /// As [`Resource::copy_texture_region`].
    pub fn check_copy_texture_region(
        &self,
        to: TextureRegion,
        dst: [u32; 3],
        src: &Resource,
        from: TextureRegion,
        src_box: Option<[[u32; 3]; 2]>,
    ) -> Result<(), ApiError> {
        self.copy_texture_region_if(to, dst, src, from, src_box, false)
    }

    fn copy_texture_region_if(
        &self,
        to: TextureRegion,
        dst: [u32; 3],
        src: &Resource,
        from: TextureRegion,
        src_box: Option<[[u32; 3]; 2]>,
        run: bool,
    ) -> Result<(), ApiError> {
        let err =
            |m: String| self.copy_err(&format!("CopySubresourceRegion from {}", src.describe()), m);
        let (Storage::Texture(s), Storage::Texture(d)) = (src.storage(), self.storage()) else {
            return Err(err(
                "copy_texture_region copies between textures; buffers take copy_region".into(),
            ));
        };
        if self.same(src) && to == from {
            return Err(err(format!(
                "the source and the destination are the same subresource (mip {}, slice {}), which the D3D11 runtime drops",
                to.mip, to.slice
            )));
        }
        if !same_type_group(s.desc().format, d.desc().format) {
            return Err(err(format!(
                "{} and {} are not in one type group",
                s.desc().format.name(),
                d.desc().format.name()
            )));
        }
        if s.subresource_range(from.mip, from.slice).is_none() {
            return Err(err(format!(
                "the source has no subresource mip {} slice {} ({} mips, {} slices)",
                from.mip,
                from.slice,
                s.desc().mip_levels,
                s.desc().array_size
            )));
        }
        let whole = [[0, 0, 0], s.mip_size(from.mip)];
        let b = src_box.unwrap_or(whole);
        if run {
            d.copy_region(to.mip, to.slice, dst, s, from.mip, from.slice, b)
        } else {
            d.check_copy_region(to.mip, to.slice, dst, s, from.mip, from.slice, b)
        }
        .map_err(|e| err(e.to_string()))
    }

    /// `CopyStructureCount(self, dst_offset, src)`: the hidden
    /// append/consume counter of `src` (a structured buffer) written as a
    /// `uint` at byte `dst_offset` of this buffer (FS §18.6.5.1).
    ///
    /// # Errors
    /// [`ApiError::Resource`] when this is not a buffer, `src` is a
    /// texture, `dst_offset` is not a multiple of 4, or the `uint` does not
    /// fit.
    pub fn copy_structure_count(&self, dst_offset: u64, src: &Resource) -> Result<(), ApiError> {
        self.copy_structure_count_if(dst_offset, src, true)
    }

    /// What [`Resource::copy_structure_count`] would refuse, without
    /// copying.
    ///
    /// # Errors
    /// As [`Resource::copy_structure_count`].
    pub fn check_copy_structure_count(
        &self,
        dst_offset: u64,
        src: &Resource,
    ) -> Result<(), ApiError> {
        self.copy_structure_count_if(dst_offset, src, false)
    }

    fn copy_structure_count_if(
        &self,
        dst_offset: u64,
        src: &Resource,
        run: bool,
    ) -> Result<(), ApiError> {
        let err =
            |m: String| self.copy_err(&format!("CopyStructureCount from {}", src.describe()), m);
        let (Storage::Buffer(s), Storage::Buffer(d)) = (src.storage(), self.storage()) else {
            return Err(err(
                "the counter comes from a buffer UAV and goes into a buffer".into(),
            ));
        };
        if !dst_offset.is_multiple_of(4) {
            return Err(err(format!(
                "the destination offset {dst_offset} is not a multiple of 4"
            )));
        }
        if dst_offset
            .checked_add(4)
            .is_none_or(|end| end > d.len_bytes() as u64)
        {
            return Err(err(format!(
                "a uint at byte {dst_offset} does not fit the destination's {} bytes",
                d.len_bytes()
            )));
        }
        if !run {
            return Ok(());
        }
        let count = s.counter().load(sim_mem::sync::Ordering::Relaxed);
        d.write_words((dst_offset / 4) as usize, &[count])
            .map_err(|e| err(e.to_string()))
    }
}
