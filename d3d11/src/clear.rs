//! `ClearUnorderedAccessViewUint` and `ClearUnorderedAccessViewFloat`
//! (`ID3D11DeviceContext` reference): every element the view sees is set.
//! A raw or structured buffer view takes the first value in each 32-bit
//! word (Uint only); a typed view takes the four values, the low bits of
//! each (Uint) or converted to the format (Float: FLOAT, UNORM and SNORM
//! formats only).

use crate::context::Clear;
use crate::objects::Target;
use sim_mem::{ChannelKind, Format, TextureView};
use sm5sim::api::View;

fn element(format: Format, value: Clear) -> Result<Vec<u8>, String> {
    match value {
        Clear::Uint(v) => Ok(format.pack_bits(v)),
        Clear::Float(v) => match format.kind() {
            ChannelKind::Uint | ChannelKind::Sint => Err(format!(
                "a float clear of a {} view (FLOAT, UNORM and SNORM formats only)",
                format.name()
            )),
            _ => Ok(format.encode(v.map(f32::to_bits))),
        },
    }
}

/// `len` bytes of `element` over and over.
fn repeat(element: &[u8], len: usize) -> Vec<u8> {
    element.iter().copied().cycle().take(len).collect()
}

/// Clear what `t` views to `value`.
///
/// # Errors
/// A message for a float clear of a raw, structured or integer view.
pub fn clear(t: &Target, value: Clear) -> Result<(), String> {
    if let Some(b) = t.res.as_buffer() {
        let (first, count) = t.elements.unwrap_or((0, 0));
        let (bytes, elem) = match (t.view, value) {
            (View::Raw | View::Structured(_), Clear::Uint(v)) => (
                v[0].to_le_bytes().to_vec(),
                t.view.element_bytes().unwrap_or(4),
            ),
            (View::Raw | View::Structured(_), Clear::Float(_)) => {
                return Err("a float clear of a raw or structured view".into())
            }
            (View::Typed(f), _) => (element(f, value)?, u64::from(f.size_bytes())),
            _ => return Err("not a buffer view".into()),
        };
        return b
            .write_bytes(
                (first * elem) as usize,
                &repeat(&bytes, (count * elem) as usize),
            )
            .map_err(|e| e.to_string());
    }
    let (
        Some(tex),
        View::Texture {
            dimension,
            format,
            range,
        },
    ) = (t.res.as_texture(), t.view)
    else {
        return Err("not a texture view".into());
    };
    let v = TextureView::uav(tex, dimension, format, range).map_err(|e| e.to_string())?;
    let bytes = element(format, value)?;
    let mip = range.first_mip;
    let (first, count) = (range.first_slice, v.slice_count());
    if dimension == sim_mem::ViewDimension::Texture3D {
        // W slices first .. first + count of the mip's one subresource
        let mut data = tex.read_subresource(mip, 0);
        let plane = data.len() / tex.mip_size(mip)[2] as usize;
        let (start, end) = (first as usize * plane, (first + count) as usize * plane);
        data[start..end].copy_from_slice(&repeat(&bytes, end - start));
        return tex
            .write_subresource(mip, 0, &data)
            .map_err(|e| e.to_string());
    }
    // array slices first .. first + count: each subresource whole
    for slice in first..first + count {
        let len = tex.subresource_range(mip, slice).map_or(0, |r| r.len());
        tex.write_subresource(mip, slice, &repeat(&bytes, len))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
