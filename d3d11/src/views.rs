//! Shader resource and unordered access views: a `D3D11_*_VIEW_DESC` (or
//! none, for the resource's default view) checked against its resource as
//! the D3D11 runtime checks it, and turned into what the shader sees.
//!
//! The descriptions are read as their 32-bit words: `Format`,
//! `ViewDimension`, then the dimension's union member (`d3d11.h`).

use crate::format;
use crate::objects::{ResourceCore, Target};
use sim_mem::{TextureView, ViewDimension, ViewRange};
use sm5sim::api::{same_type_group, View};
use windows::Win32::Graphics::Direct3D11::*;

const ALL: u32 = u32::MAX;

fn words_of_srv(d: D3D11_SHADER_RESOURCE_VIEW_DESC) -> [u32; 6] {
    // SAFETY: the description is 6 plain 32-bit words (d3d11.h)
    unsafe { std::mem::transmute(d) }
}

fn srv_of_words(w: [u32; 6]) -> D3D11_SHADER_RESOURCE_VIEW_DESC {
    // SAFETY: as above; every bit pattern is a description
    unsafe { std::mem::transmute(w) }
}

fn words_of_uav(d: D3D11_UNORDERED_ACCESS_VIEW_DESC) -> [u32; 5] {
    // SAFETY: the description is 5 plain 32-bit words (d3d11.h)
    unsafe { std::mem::transmute(d) }
}

fn uav_of_words(w: [u32; 5]) -> D3D11_UNORDERED_ACCESS_VIEW_DESC {
    // SAFETY: as above
    unsafe { std::mem::transmute(w) }
}

/// A buffer view of `DXGI_FORMAT` value `fmt`, raw or not, with the size
/// of its element in bytes.
fn buffer_view(core: &ResourceCore, fmt: u32, raw: bool) -> Result<View, String> {
    let structured = core.misc & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED.0 as u32 != 0;
    if raw {
        if core.misc & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS.0 as u32 == 0 {
            return Err(
                "a raw view needs a buffer created with D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS"
                    .into(),
            );
        }
        if fmt != 39 {
            return Err(format!(
                "a raw view's format must be R32_TYPELESS, not {}",
                format::name(fmt)
            ));
        }
        return Ok(View::Raw);
    }
    if structured {
        if fmt != 0 {
            return Err(format!(
                "a structured buffer's view has format UNKNOWN, not {}",
                format::name(fmt)
            ));
        }
        return Ok(View::Structured(core.stride));
    }
    match format::exact(fmt) {
        Some(f) if f.buffer_viewable() => Ok(View::Typed(f)),
        _ => Err(format!("{} is no typed-buffer format", format::name(fmt))),
    }
}

fn buffer_range(
    core: &ResourceCore,
    view: View,
    first: u32,
    count: u32,
) -> Result<(u64, u64), String> {
    let elem = view.element_bytes().unwrap_or(4);
    let (first, count) = (u64::from(first), u64::from(count));
    if count == 0 || (first + count) * elem > core.byte_width {
        return Err(format!(
            "elements {first}..{} of {elem} bytes are not inside the buffer's {} bytes",
            first + count,
            core.byte_width
        ));
    }
    Ok((first, count))
}

fn range(first_mip: u32, mips: u32, first_slice: u32, slices: u32) -> ViewRange {
    ViewRange {
        first_mip,
        mip_count: (mips != ALL).then_some(mips),
        first_slice,
        slice_count: (slices != ALL).then_some(slices),
    }
}

/// A texture view's format `f` (`DXGI_FORMAT` value `fmt`) against its
/// resource's `DXGI_FORMAT` value `resource`: the same format for a fully
/// typed resource, a member of its family for a `_TYPELESS` one.
fn view_format_fits(resource: u32, fmt: u32, f: sim_mem::Format) -> Result<(), String> {
    let fits = match format::exact(resource) {
        Some(_) => fmt == resource,
        None => format::storage(resource).is_some_and(|s| same_type_group(s, f)),
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "a view of a {} texture cannot have format {}",
            format::name(resource),
            format::name(fmt)
        ))
    }
}

/// The description D3D11 gives a view made with none.
fn default_srv(core: &ResourceCore) -> Result<[u32; 6], String> {
    let f = core.format;
    if core.res.as_buffer().is_some() {
        if core.misc & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED.0 as u32 == 0 {
            return Err("only a structured buffer has a view without a description".into());
        }
        return Ok([
            0,
            1,
            0,
            (core.byte_width / u64::from(core.stride)) as u32,
            0,
            0,
        ]);
    }
    if format::is_typeless(f) || format::exact(f).is_none() {
        return Err(format!(
            "a view of a {} texture needs a description with a format",
            format::name(f)
        ));
    }
    let Some(t) = core.res.as_texture() else {
        return Err("the resource is neither a buffer nor a texture".into());
    };
    let d = t.desc();
    let (mips, array) = (core.mips, core.array_size);
    let cube = core.misc & D3D11_RESOURCE_MISC_TEXTURECUBE.0 as u32 != 0;
    Ok(match d.dimension {
        sim_mem::TextureDimension::Texture1D if array > 1 => [f, 3, 0, mips, 0, array],
        sim_mem::TextureDimension::Texture1D => [f, 2, 0, mips, 0, 0],
        sim_mem::TextureDimension::Texture3D => [f, 8, 0, mips, 0, 0],
        _ if d.sample_count > 1 && array > 1 => [f, 7, 0, array, 0, 0],
        _ if d.sample_count > 1 => [f, 6, 0, 0, 0, 0],
        _ if cube && array == 6 => [f, 9, 0, mips, 0, 0],
        _ if cube => [f, 10, 0, mips, 0, array / 6],
        _ if array > 1 => [f, 5, 0, mips, 0, array],
        _ => [f, 4, 0, mips, 0, 0],
    })
}

/// A shader resource view of `core` with description `given` (or the
/// default one): its full description and what the shader sees.
///
/// # Errors
/// Why `CreateShaderResourceView` refuses it.
pub fn srv(
    core: &ResourceCore,
    given: Option<D3D11_SHADER_RESOURCE_VIEW_DESC>,
) -> Result<(D3D11_SHADER_RESOURCE_VIEW_DESC, Target), String> {
    if core.bind & D3D11_BIND_SHADER_RESOURCE.0 as u32 == 0 {
        return Err("the resource was not created with D3D11_BIND_SHADER_RESOURCE".into());
    }
    let mut w = match given {
        Some(d) => words_of_srv(d),
        None => default_srv(core)?,
    };
    let (fmt, dim) = (w[0], w[1]);
    if core.res.as_buffer().is_some() {
        let (view, first, count) = match dim {
            1 => (buffer_view(core, fmt, false)?, w[2], w[3]),
            11 => (
                buffer_view(core, fmt, w[4] & D3D11_BUFFEREX_SRV_FLAG_RAW.0 as u32 != 0)?,
                w[2],
                w[3],
            ),
            _ => return Err(format!("view dimension {dim} is no buffer view")),
        };
        let elements = buffer_range(core, view, first, count)?;
        let target = Target {
            res: core.res.clone(),
            view,
            elements: Some(elements),
        };
        return Ok((srv_of_words(w), target));
    }
    let Some(t) = core.res.as_texture() else {
        return Err("the resource is neither a buffer nor a texture".into());
    };
    // UNKNOWN: the resource's own format (as the D3D11 runtime takes it)
    if fmt == 0 {
        w[0] = core.format;
    }
    let fmt = w[0];
    let f = format::exact(fmt)
        .ok_or_else(|| format!("a view cannot have format {}", format::name(fmt)))?;
    view_format_fits(core.format, fmt, f)?;
    let (dimension, r) = match dim {
        2 => (ViewDimension::Texture1D, range(w[2], w[3], 0, ALL)),
        3 => (ViewDimension::Texture1DArray, range(w[2], w[3], w[4], w[5])),
        4 => (ViewDimension::Texture2D, range(w[2], w[3], 0, ALL)),
        5 => (ViewDimension::Texture2DArray, range(w[2], w[3], w[4], w[5])),
        6 => (ViewDimension::Texture2DMS, range(0, ALL, 0, ALL)),
        7 => (ViewDimension::Texture2DMSArray, range(0, ALL, w[2], w[3])),
        8 => (ViewDimension::Texture3D, range(w[2], w[3], 0, ALL)),
        9 => (ViewDimension::TextureCube, range(w[2], w[3], 0, ALL)),
        10 => (
            ViewDimension::TextureCubeArray,
            range(w[2], w[3], w[4], w[5].saturating_mul(6)),
        ),
        _ => return Err(format!("view dimension {dim} is no texture view")),
    };
    let v = TextureView::srv(t, dimension, f, r).map_err(|e| e.to_string())?;
    // the description GetDesc returns says how many mips the view has
    if matches!(dim, 2..=5 | 8..=10) && w[3] == ALL {
        w[3] = v.mip_count();
    }
    let view = View::Texture {
        dimension,
        format: f,
        range: r,
    };
    Ok((
        srv_of_words(w),
        Target {
            res: core.res.clone(),
            view,
            elements: None,
        },
    ))
}

fn default_uav(core: &ResourceCore) -> Result<[u32; 5], String> {
    let f = core.format;
    if core.res.as_buffer().is_some() {
        if core.misc & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED.0 as u32 == 0 {
            return Err("only a structured buffer has a view without a description".into());
        }
        return Ok([
            0,
            1,
            0,
            (core.byte_width / u64::from(core.stride)) as u32,
            0,
        ]);
    }
    if format::is_typeless(f) || format::exact(f).is_none() {
        return Err(format!(
            "a view of a {} texture needs a description with a format",
            format::name(f)
        ));
    }
    let Some(t) = core.res.as_texture() else {
        return Err("the resource is neither a buffer nor a texture".into());
    };
    let d = t.desc();
    let array = core.array_size;
    Ok(match d.dimension {
        sim_mem::TextureDimension::Texture1D if array > 1 => [f, 3, 0, 0, array],
        sim_mem::TextureDimension::Texture1D => [f, 2, 0, 0, 0],
        sim_mem::TextureDimension::Texture3D => [f, 8, 0, 0, d.depth],
        _ if array > 1 => [f, 5, 0, 0, array],
        _ => [f, 4, 0, 0, 0],
    })
}

/// An unordered access view of `core` with description `given` (or the
/// default one): its full description, what the shader sees, and whether
/// it has a hidden counter (`D3D11_BUFFER_UAV_FLAG_APPEND`/`_COUNTER`).
///
/// # Errors
/// Why `CreateUnorderedAccessView` refuses it.
pub fn uav(
    core: &ResourceCore,
    given: Option<D3D11_UNORDERED_ACCESS_VIEW_DESC>,
) -> Result<(D3D11_UNORDERED_ACCESS_VIEW_DESC, Target, bool), String> {
    if core.bind & D3D11_BIND_UNORDERED_ACCESS.0 as u32 == 0 {
        return Err("the resource was not created with D3D11_BIND_UNORDERED_ACCESS".into());
    }
    let mut w = match given {
        Some(d) => words_of_uav(d),
        None => default_uav(core)?,
    };
    let (fmt, dim) = (w[0], w[1]);
    if core.res.as_buffer().is_some() {
        if dim != 1 {
            return Err(format!("view dimension {dim} is no buffer view"));
        }
        let flags = w[4];
        let view = buffer_view(core, fmt, flags & D3D11_BUFFER_UAV_FLAG_RAW.0 as u32 != 0)?;
        let counter =
            flags & (D3D11_BUFFER_UAV_FLAG_APPEND.0 | D3D11_BUFFER_UAV_FLAG_COUNTER.0) as u32 != 0;
        if counter && !matches!(view, View::Structured(_)) {
            return Err("an append or counter view needs a structured buffer".into());
        }
        let elements = buffer_range(core, view, w[2], w[3])?;
        let target = Target {
            res: core.res.clone(),
            view,
            elements: Some(elements),
        };
        return Ok((uav_of_words(w), target, counter));
    }
    let Some(t) = core.res.as_texture() else {
        return Err("the resource is neither a buffer nor a texture".into());
    };
    // UNKNOWN: the resource's own format (as the D3D11 runtime takes it)
    if fmt == 0 {
        w[0] = core.format;
    }
    let fmt = w[0];
    let f = format::exact(fmt)
        .ok_or_else(|| format!("a view cannot have format {}", format::name(fmt)))?;
    view_format_fits(core.format, fmt, f)?;
    let (dimension, r) = match dim {
        2 => (ViewDimension::Texture1D, range(w[2], ALL, 0, ALL)),
        3 => (ViewDimension::Texture1DArray, range(w[2], ALL, w[3], w[4])),
        4 => (ViewDimension::Texture2D, range(w[2], ALL, 0, ALL)),
        5 => (ViewDimension::Texture2DArray, range(w[2], ALL, w[3], w[4])),
        8 => (ViewDimension::Texture3D, range(w[2], ALL, w[3], w[4])),
        _ => return Err(format!("view dimension {dim} is no texture UAV")),
    };
    if !f.uav_storable() {
        return Err(format!("{} cannot be a typed UAV's format", f.name()));
    }
    TextureView::uav(t, dimension, f, r).map_err(|e| e.to_string())?;
    let view = View::Texture {
        dimension,
        format: f,
        range: r,
    };
    Ok((
        uav_of_words(w),
        Target {
            res: core.res.clone(),
            view,
            elements: None,
        },
        false,
    ))
}
