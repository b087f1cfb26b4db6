//! Resources: buffers and textures, written and read back as bytes.

use crate::ffi::{self, guard, Fail, Out, Res};
use crate::{sm5_device, sm5_status};
use sm5sim::api::TextureRegion;
use sm5sim::sim_mem::{Format, TextureDesc, TextureDimension};
use sm5sim::Resource;
use std::ffi::{c_char, c_void};

/// A buffer or texture (`ID3D11Buffer`, `ID3D11Texture1D/2D/3D`). Its
/// storage is shared with the kernels it is bound to: a dispatch's writes
/// are read back through this handle. Storage is little-endian 32-bit
/// words; a buffer is a C array of its elements.
#[derive(Debug)]
pub struct sm5_resource {
    pub(crate) resource: Resource,
}

/// `sm5_texture_desc.dimension`: a 1D texture (or 1D array).
pub const SM5_TEXTURE_1D: u32 = 1;
/// `sm5_texture_desc.dimension`: a 2D texture (or 2D array, cube array,
/// multisampled).
pub const SM5_TEXTURE_2D: u32 = 2;
/// `sm5_texture_desc.dimension`: a 3D texture.
pub const SM5_TEXTURE_3D: u32 = 3;

/// A texture (`D3D11_TEXTURE1D_DESC` / `2D` / `3D` in one). Size fields
/// left 0 take the value in brackets.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct sm5_texture_desc {
    /// `SM5_TEXTURE_1D`, `SM5_TEXTURE_2D` or `SM5_TEXTURE_3D`.
    pub dimension: u32,
    /// The DXGI format's name: `"R8G8B8A8_UNORM"` or
    /// `"DXGI_FORMAT_R8G8B8A8_UNORM"`, `"R32_FLOAT"`, `"R16G16B16A16_FLOAT"`.
    pub format: *const c_char,
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 (1).
    pub height: u32,
    /// Depth of mip 0, 3D only (1).
    pub depth: u32,
    /// Array slices, 1D and 2D only (1); 6 per cube.
    pub array_size: u32,
    /// Mip levels; 0: the full chain down to 1×1×1, as in D3D.
    pub mip_levels: u32,
    /// Samples per texel, 2D only (1).
    pub sample_count: u32,
}

fn format(name: &str) -> Result<Format, Fail> {
    Format::from_name(name).ok_or_else(|| {
        Fail::invalid(format!(
            "'{}' is no DXGI format sm5sim knows (e.g. R8G8B8A8_UNORM, R32_FLOAT)",
            sm5sim::api::clip(name)
        ))
    })
}

/// Create a buffer of `size` bytes (`ByteWidth`) holding the bytes at
/// `data`, or zeros when `data` is NULL.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for 0 bytes or a size that is not a multiple of 4.
///
/// # Safety
/// `device` is NULL or a live device; `data` is NULL or points to `size`
/// readable bytes; `out` is NULL or points to a writable `sm5_resource*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_buffer_create(
    device: *const sm5_device,
    data: *const c_void,
    size: usize,
    out: *mut *mut sm5_resource,
) -> sm5_status {
    guard("sm5_buffer_create", || {
        // SAFETY (the two calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        unsafe { ffi::handle(device, "device") }?;
        let resource = if data.is_null() {
            Resource::zeroed(size)?
        } else {
            // SAFETY: the caller's contract.
            Resource::from_bytes(unsafe { ffi::bytes(data, size, "data") }?)?
        };
        out.set(sm5_resource { resource });
        Ok(())
    })
}

/// Create a zero-filled texture as `desc` describes; fill it with
/// `sm5_texture_write`.
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` for an unknown dimension or format name,
/// `SM5_ERROR_RESOURCE` for a description D3D11 refuses (the message names
/// the field).
///
/// # Safety
/// `device` is NULL or a live device; `desc` is NULL or points to an
/// `sm5_texture_desc` whose `format` is NULL or a NUL-terminated string;
/// `out` is NULL or points to a writable `sm5_resource*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_texture_create(
    device: *const sm5_device,
    desc: *const sm5_texture_desc,
    out: *mut *mut sm5_resource,
) -> sm5_status {
    guard("sm5_texture_create", || {
        // SAFETY (the four calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        unsafe { ffi::handle(device, "device") }?;
        let d = unsafe { ffi::handle(desc, "desc") }?;
        let format = format(unsafe { ffi::string(d.format, "desc->format") }?)?;
        let dimension = match d.dimension {
            SM5_TEXTURE_1D => TextureDimension::Texture1D,
            SM5_TEXTURE_2D => TextureDimension::Texture2D,
            SM5_TEXTURE_3D => TextureDimension::Texture3D,
            n => {
                return Err(Fail::invalid(format!(
                    "desc->dimension {n} is none of SM5_TEXTURE_1D (1), SM5_TEXTURE_2D (2), SM5_TEXTURE_3D (3)"
                )))
            }
        };
        let or1 = |v: u32| v.max(1);
        let desc = TextureDesc {
            dimension,
            format,
            width: d.width,
            height: or1(d.height),
            depth: or1(d.depth),
            array_size: or1(d.array_size),
            mip_levels: d.mip_levels,
            sample_count: or1(d.sample_count),
        };
        out.set(sm5_resource {
            resource: Resource::texture(desc)?,
        });
        Ok(())
    })
}

/// Create a `width` × `height` 2D texture of the DXGI format named
/// `format`, one mip and slice, holding `data` (`size` bytes, rows tightly
/// packed: `width · height ·` the texel size), or zeros when `data` is
/// NULL.
///
/// # Errors
/// As `sm5_texture_create`, and `SM5_ERROR_RESOURCE` when `size` is not
/// the texture's.
///
/// # Safety
/// `device` is NULL or a live device; `format` is NULL or a NUL-terminated
/// string; `data` is NULL or points to `size` readable bytes; `out` is NULL
/// or points to a writable `sm5_resource*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_texture2d_create(
    device: *const sm5_device,
    format: *const c_char,
    width: u32,
    height: u32,
    data: *const c_void,
    size: usize,
    out: *mut *mut sm5_resource,
) -> sm5_status {
    guard("sm5_texture2d_create", || {
        // SAFETY (the three calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        unsafe { ffi::handle(device, "device") }?;
        let format = self::format(unsafe { ffi::string(format, "format") }?)?;
        let resource = Resource::texture(TextureDesc::texture2d(format, width, height))?;
        if !data.is_null() {
            // SAFETY: the caller's contract.
            let data = unsafe { ffi::bytes(data, size, "data") }?;
            resource.write_subresource(0, 0, data)?;
        }
        out.set(sm5_resource { resource });
        Ok(())
    })
}

/// The resource's size in bytes (`*size`): a buffer's `ByteWidth`, or all
/// of a texture's subresources.
///
/// # Safety
/// `resource` is NULL or a live resource; `size` is NULL or points to a
/// writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_resource_size(
    resource: *const sm5_resource,
    size: *mut usize,
) -> sm5_status {
    guard("sm5_resource_size", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        unsafe { ffi::put(size, r.resource.len_bytes(), "size") }
    })
}

/// Copy the whole resource to `dst` (D3D's map for reading, or a copy to
/// a staging buffer): `size` must be its size. A texture's subresources
/// come in D3D order (mips of slice 0, then slice 1, …), rows tightly
/// packed; `sm5_texture_read` reads one. Call it when no dispatch that
/// writes the resource is running.
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` when `size` is not the resource's size.
///
/// # Safety
/// `resource` is NULL or a live resource; `dst` is NULL or points to
/// `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sm5_resource_read(
    resource: *const sm5_resource,
    dst: *mut c_void,
    size: usize,
) -> sm5_status {
    guard("sm5_resource_read", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        let data = r.resource.data().to_bytes();
        // SAFETY: the caller's contract.
        unsafe { ffi::copy_out(dst, size, &data, "the resource") }
    })
}

/// Overwrite the whole resource with the `size` bytes at `src` (D3D's
/// `UpdateSubresource` of a buffer): `size` must be its size.
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` when `size` is not the resource's size.
///
/// # Safety
/// `resource` is NULL or a live resource; `src` is NULL or points to
/// `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sm5_resource_write(
    resource: *const sm5_resource,
    src: *const c_void,
    size: usize,
) -> sm5_status {
    guard("sm5_resource_write", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        let src = unsafe { ffi::bytes(src, size, "src") }?;
        let len = r.resource.len_bytes();
        if size != len {
            return Err(Fail::invalid(format!(
                "the resource holds {len} bytes, but src is {size} bytes"
            )));
        }
        Ok(r.resource.write(0, src)?)
    })
}

/// Copy subresource (`mip`, `slice`) of a texture to `dst`, rows tightly
/// packed: a 2D RGBA8 mip is `height · width · 4` bytes, row-major.
/// `size` must be the subresource's size.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a buffer or a subresource out of range,
/// `SM5_ERROR_INVALID_ARGUMENT` when `size` is not its size.
///
/// # Safety
/// `resource` is NULL or a live resource; `dst` is NULL or points to
/// `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sm5_texture_read(
    resource: *const sm5_resource,
    mip: u32,
    slice: u32,
    dst: *mut c_void,
    size: usize,
) -> sm5_status {
    guard("sm5_texture_read", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        let data = r.resource.read_subresource::<u8>(mip, slice)?;
        // SAFETY: the caller's contract.
        unsafe { ffi::copy_out(dst, size, &data, "the subresource") }
    })
}

/// Overwrite subresource (`mip`, `slice`) of a texture with the `size`
/// bytes at `src` (rows tightly packed; exactly the subresource's size).
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a buffer, a subresource out of range, or data
/// of another size.
///
/// # Safety
/// `resource` is NULL or a live resource; `src` is NULL or points to
/// `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sm5_texture_write(
    resource: *const sm5_resource,
    mip: u32,
    slice: u32,
    src: *const c_void,
    size: usize,
) -> sm5_status {
    guard("sm5_texture_write", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        let src = unsafe { ffi::bytes(src, size, "src") }?;
        Ok(r.resource.write_subresource(mip, slice, src)?)
    })
}

/// A box of texels (`D3D11_BOX`): from (`left`, `top`, `front`) up to but
/// not including (`right`, `bottom`, `back`); a 2D texture's box has
/// `front` 0 and `back` 1.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct sm5_box {
    /// The first x.
    pub left: u32,
    /// The first y.
    pub top: u32,
    /// The first z (a 3D texture's depth slice).
    pub front: u32,
    /// One past the last x.
    pub right: u32,
    /// One past the last y.
    pub bottom: u32,
    /// One past the last z.
    pub back: u32,
}

/// `CopyResource(dst, src)`: all of `src` into `dst`, which must be of the
/// same kind and size: buffers of the same size, or textures of the same
/// dimension, size, mip count, array size and sample count with formats
/// of one type group (`R8G8B8A8_UNORM` and `R8G8B8A8_UINT`). The hidden
/// counter is not copied. Copies run between dispatches: they see what
/// the dispatches before wrote.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a copy D3D11's runtime drops: the same
/// resource as source and destination, a buffer and a texture, sizes,
/// descriptions or formats that differ (the message says which).
///
/// # Safety
/// `dst` and `src` are NULL or live resources.
#[no_mangle]
pub unsafe extern "C" fn sm5_resource_copy(
    dst: *const sm5_resource,
    src: *const sm5_resource,
) -> sm5_status {
    guard("sm5_resource_copy", || {
        // SAFETY (the two calls): the caller's contract.
        let dst = unsafe { ffi::handle(dst, "dst") }?;
        let src = unsafe { ffi::handle(src, "src") }?;
        Ok(dst.resource.copy_from(&src.resource)?)
    })
}

/// `CopySubresourceRegion` on buffers: `size` bytes of `src` from byte
/// `src_offset` (the box `[src_offset, src_offset + size)`) into `dst` at
/// byte `dst_offset`, at any alignment; a `size` of 0 copies nothing.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a texture, a box outside `src`, a region
/// outside `dst`, or `src` and `dst` the same buffer (which the D3D11
/// runtime drops).
///
/// # Safety
/// `dst` and `src` are NULL or live resources.
#[no_mangle]
pub unsafe extern "C" fn sm5_buffer_copy_region(
    dst: *const sm5_resource,
    dst_offset: usize,
    src: *const sm5_resource,
    src_offset: usize,
    size: usize,
) -> sm5_status {
    guard("sm5_buffer_copy_region", || {
        // SAFETY (the two calls): the caller's contract.
        let dst = unsafe { ffi::handle(dst, "dst") }?;
        let src = unsafe { ffi::handle(src, "src") }?;
        Ok(dst.resource.copy_region(
            dst_offset as u64,
            &src.resource,
            src_offset as u64,
            size as u64,
        )?)
    })
}

/// `CopySubresourceRegion` on textures: the box `src_box` of subresource
/// (`src_mip`, `src_slice`) of `src` (NULL: all of it) into subresource
/// (`dst_mip`, `dst_slice`) of `dst` with its corner at texel (`dst_x`,
/// `dst_y`, `dst_z`). The formats must be of one type group and the
/// sample counts equal; an empty box copies nothing.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a buffer, a subresource that does not exist,
/// a box or region outside its subresource, formats of two type groups,
/// or a copy within one subresource (which the D3D11 runtime drops).
///
/// # Safety
/// `dst` and `src` are NULL or live resources; `src_box` is NULL or points
/// to an `sm5_box`.
#[no_mangle]
pub unsafe extern "C" fn sm5_texture_copy_region(
    dst: *const sm5_resource,
    dst_mip: u32,
    dst_slice: u32,
    dst_x: u32,
    dst_y: u32,
    dst_z: u32,
    src: *const sm5_resource,
    src_mip: u32,
    src_slice: u32,
    src_box: *const sm5_box,
) -> sm5_status {
    guard("sm5_texture_copy_region", || {
        // SAFETY (the two calls): the caller's contract.
        let dst = unsafe { ffi::handle(dst, "dst") }?;
        let src = unsafe { ffi::handle(src, "src") }?;
        // SAFETY: the caller's contract: src_box is NULL or valid.
        let b = unsafe { src_box.as_ref() }
            .map(|b| [[b.left, b.top, b.front], [b.right, b.bottom, b.back]]);
        let to = TextureRegion {
            mip: dst_mip,
            slice: dst_slice,
        };
        let from = TextureRegion {
            mip: src_mip,
            slice: src_slice,
        };
        Ok(dst
            .resource
            .copy_texture_region(to, [dst_x, dst_y, dst_z], &src.resource, from, b)?)
    })
}

/// `CopyStructureCount(dst, dst_offset, src)`: the hidden append/consume
/// counter of buffer `src` (what its UAV's `Append` calls counted) written
/// as a `uint32_t` at byte `dst_offset` of buffer `dst`.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` when `dst` or `src` is a texture, `dst_offset` is
/// not a multiple of 4, or the `uint32_t` does not fit in `dst`.
///
/// # Safety
/// `dst` and `src` are NULL or live resources.
#[no_mangle]
pub unsafe extern "C" fn sm5_buffer_copy_structure_count(
    dst: *const sm5_resource,
    dst_offset: usize,
    src: *const sm5_resource,
) -> sm5_status {
    guard("sm5_buffer_copy_structure_count", || {
        // SAFETY (the two calls): the caller's contract.
        let dst = unsafe { ffi::handle(dst, "dst") }?;
        let src = unsafe { ffi::handle(src, "src") }?;
        Ok(dst
            .resource
            .copy_structure_count(dst_offset as u64, &src.resource)?)
    })
}

/// A buffer's handle, or `SM5_ERROR_RESOURCE` for a texture.
fn buffer_only(r: &sm5_resource) -> Res<&Resource> {
    match r.resource.as_buffer() {
        Some(_) => Ok(&r.resource),
        None => Err(Fail::new(
            sm5_status::SM5_ERROR_RESOURCE,
            format!(
                "{}: only a buffer has a hidden append/consume counter",
                r.resource.describe()
            ),
        )),
    }
}

/// The hidden append/consume counter of a buffer (`*value`): what the
/// `Append` and `Consume` calls of its UAVs left it.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a texture.
///
/// # Safety
/// `resource` is NULL or a live resource; `value` is NULL or points to a
/// writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_buffer_counter(
    resource: *const sm5_resource,
    value: *mut u32,
) -> sm5_status {
    guard("sm5_buffer_counter", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        let count = buffer_only(r)?.counter();
        // SAFETY: the caller's contract.
        unsafe { ffi::put(value, count, "value") }
    })
}

/// Set the hidden append/consume counter of a buffer (the initial count
/// of `CSSetUnorderedAccessViews`).
///
/// # Errors
/// `SM5_ERROR_RESOURCE` for a texture.
///
/// # Safety
/// `resource` is NULL or a live resource.
#[no_mangle]
pub unsafe extern "C" fn sm5_buffer_set_counter(
    resource: *const sm5_resource,
    value: u32,
) -> sm5_status {
    guard("sm5_buffer_set_counter", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(resource, "resource") }?;
        buffer_only(r)?.set_counter(value);
        Ok(())
    })
}

/// Free a resource handle (NULL: nothing). Kernels it is bound to keep
/// its storage.
///
/// # Safety
/// `resource` is NULL or a resource not yet destroyed, which no other call
/// is using.
#[no_mangle]
pub unsafe extern "C" fn sm5_resource_destroy(resource: *mut sm5_resource) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(resource) };
}
