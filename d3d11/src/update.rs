//! `UpdateSubresource` (`ID3D11DeviceContext` reference): the application's
//! rows, at its row and depth pitches, into a box of a subresource (a byte
//! range of a buffer). A block-compressed texture's box is in texels and its
//! rows are rows of blocks.

use crate::objects::ResourceCore;
use windows::Win32::Graphics::Direct3D11::D3D11_BOX;

/// Write the application's data at `src` into subresource `sub` of `core`.
///
/// # Errors
/// A message for a subresource that does not exist or a box outside it.
///
/// # Safety
/// `src` holds the box's rows at `row_pitch` and its slices at
/// `depth_pitch` (D3D11's contract).
pub unsafe fn update(
    core: &ResourceCore,
    sub: u32,
    bx: Option<D3D11_BOX>,
    src: *const u8,
    row_pitch: u32,
    depth_pitch: u32,
) -> Result<(), String> {
    if let Some(b) = core.res.as_buffer() {
        if sub != 0 {
            return Err(format!("a buffer has only subresource 0, not {sub}"));
        }
        let (left, right) = bx.map_or((0, core.byte_width), |b| {
            (u64::from(b.left), u64::from(b.right))
        });
        if left > right || right > core.byte_width {
            return Err(format!(
                "bytes {left}..{right} are not inside the buffer's {}",
                core.byte_width
            ));
        }
        // SAFETY: the caller's promise: right - left bytes at src
        let data = unsafe { std::slice::from_raw_parts(src, (right - left) as usize) };
        return b
            .write_bytes(left as usize, data)
            .map_err(|e| e.to_string());
    }
    let t = core.res.as_texture().ok_or("no storage")?;
    let (mip, slice) = core
        .subresource(sub)
        .ok_or_else(|| format!("no subresource {sub}"))?;
    let [w, h, d] = t.mip_size(mip);
    let format = t.desc().format;
    let [bw, bh] = format.block_size();
    let bx = bx.unwrap_or(D3D11_BOX {
        left: 0,
        top: 0,
        front: 0,
        right: w,
        bottom: h,
        back: d,
    });
    if bx.left > bx.right
        || bx.top > bx.bottom
        || bx.front > bx.back
        || bx.right > w
        || bx.bottom > h
        || bx.back > d
    {
        return Err(format!(
            "box ({}, {}, {})..({}, {}, {}) is not inside mip {mip}'s {w}x{h}x{d}",
            bx.left, bx.top, bx.front, bx.right, bx.bottom, bx.back
        ));
    }
    // a box over the whole subresource overwrites every byte: nothing to read
    let whole = (bx.left, bx.top, bx.front, bx.right, bx.bottom, bx.back) == (0, 0, 0, w, h, d);
    let mut data = match (whole, t.subresource_range(mip, slice)) {
        (true, Some(r)) => vec![0u8; r.len()],
        _ => t.read_subresource(mip, slice),
    };
    let rows = h.div_ceil(bh) as usize;
    let row = data.len() / (rows * d as usize);
    let plane = row * rows;
    let elem = format.size_bytes() as usize;
    let x0 = (bx.left / bw) as usize * elem;
    let span = (bx.right.div_ceil(bw) - bx.left / bw) as usize * elem;
    let (y0, y1) = ((bx.top / bh) as usize, bx.bottom.div_ceil(bh) as usize);
    // a pitch of 0 is taken as tightly packed rows (slices) of the box
    let row_pitch = match row_pitch {
        0 => span,
        p => p as usize,
    };
    let depth_pitch = match depth_pitch {
        0 => row_pitch * (y1 - y0),
        p => p as usize,
    };
    for z in bx.front as usize..bx.back as usize {
        for y in y0..y1 {
            let from = (z - bx.front as usize) * depth_pitch + (y - y0) * row_pitch;
            // SAFETY: the caller's promise: each row of the box at its pitch
            let s = unsafe { std::slice::from_raw_parts(src.add(from), span) };
            let at = z * plane + y * row + x0;
            data[at..at + span].copy_from_slice(s);
        }
    }
    t.write_subresource(mip, slice, &data)
        .map_err(|e| e.to_string())
}
