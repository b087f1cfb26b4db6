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
        let span = (count * elem) as usize;
        let pattern: Vec<u8> = bytes.iter().copied().cycle().take(span).collect();
        return b
            .write_bytes((first * elem) as usize, &pattern)
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
    let three_d = dimension == sim_mem::ViewDimension::Texture3D;
    let slices = if three_d {
        0..1
    } else {
        range.first_slice..range.first_slice + v.slice_count()
    };
    for slice in slices {
        let mut data = tex.read_subresource(mip, slice);
        let plane = data.len() / tex.mip_size(mip)[2] as usize;
        let planes = if three_d {
            range.first_slice as usize..(range.first_slice + v.slice_count()) as usize
        } else {
            0..1
        };
        let span = if three_d { plane } else { data.len() };
        for p in planes {
            for (i, b) in data[p * plane..p * plane + span].iter_mut().enumerate() {
                *b = bytes[i % bytes.len()];
            }
        }
        tex.write_subresource(mip, slice, &data)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
