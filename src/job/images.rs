//! PNG in and out of textures: reading with the size checked first,
//! writing, and comparing against an expected image.

use crate::job::textures::{encode_texel, is_8bit_unorm, stored_format};
use crate::job::{JobResource, Mismatch, Storage, Subresource, View, MISMATCHES_SHOWN};
use sim_mem::{ChannelKind, Format, Texture, TextureDimension};
use std::path::{Path, PathBuf};
/// The bit depth (8 or 16) of the PNG a texture of `format` dumps to: 8 for
/// 8-bit UNORM and UNORM_SRGB formats, 16 for the others.
pub fn png_bit_depth(format: Format) -> u8 {
    if is_8bit_unorm(format) {
        8
    } else {
        16
    }
}

/// An 8- or 16-bit image: `channels` values per pixel (1 gray, 2 gray and
/// alpha, 3 RGB, 4 RGBA), pixels row by row from the top left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngImage {
    /// width in pixels
    pub width: u32,
    /// height in pixels
    pub height: u32,
    /// values per pixel: 1, 2, 3 or 4
    pub channels: usize,
    /// 8 or 16
    pub bit_depth: u8,
    /// `width × height × channels` values
    pub values: Vec<u16>,
}

impl PngImage {
    /// The largest value: 255 or 65535.
    pub fn max(&self) -> u16 {
        if self.bit_depth == 8 {
            255
        } else {
            u16::MAX
        }
    }

    /// Pixel `i` as (R, G, B, A): gray is copied to R, G and B; a missing
    /// alpha is the largest value.
    pub(super) fn rgba(&self, i: usize) -> [u16; 4] {
        let p = &self.values[i * self.channels..(i + 1) * self.channels];
        let max = self.max();
        match *p {
            [g] => [g, g, g, max],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, max],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, max],
        }
    }
}

/// What a PNG must be to be read: `width` x `height` pixels, for the
/// image described by `what` (such as `'dst' (mip 0)`).
#[derive(Debug, Clone)]
pub struct PngTarget {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// The image it is for, in messages.
    pub what: String,
    /// The file as the job names it, in messages (else its path).
    pub named: Option<PathBuf>,
}

/// Read an 8- or 16-bit gray, gray+alpha, RGB or RGBA PNG (palette and
/// low-bit-depth images are expanded to 8 bits). With a `target`, the
/// header's size is checked against it before any pixel is decoded, and the
/// decoder may allocate no more than that size's 16-bit RGBA image; without
/// one, up to 2 GiB (a 16384 x 16384 RGBA16 image, D3D11's largest 2D texture).
///
/// # Errors
/// A message naming the file when it cannot be read or decoded, or when its
/// size is not the target's.
pub fn read_png(path: &Path, target: Option<&PngTarget>) -> Result<PngImage, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let bytes = crate::files::read_input(path).map_err(|e| at(&e))?;
    // the png crate's default limit (64 MiB) refuses legal textures
    // (16384 x 8193 RGBA8 is 512 MiB): the limit comes from the job instead
    let bytes_limit = target.map_or(1 << 31, |t| {
        (t.width as usize * t.height as usize * 8).max(64 << 20)
    });
    let limits = png::Limits { bytes: bytes_limit };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    // palette → RGB(A), gray below 8 bits → 8 bits, tRNS → an alpha channel
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| at(&e))?;
    if let Some(t) = target {
        let info = reader.info();
        if (info.width, info.height) != (t.width, t.height) {
            return Err(format!(
                "{} is {}x{}, but {} is {}x{}",
                t.named.as_deref().unwrap_or(path).display(),
                info.width,
                info.height,
                t.what,
                t.width,
                t.height
            ));
        }
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| at(&"the image is too large for this machine's memory"))?;
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf).map_err(|e| at(&e))?;
    buf.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(at(&"an indexed image was not expanded to RGB"));
        }
    };
    let (bit_depth, values) = match info.bit_depth {
        png::BitDepth::Eight => (8, buf.into_iter().map(u16::from).collect()),
        // PNG stores 16-bit samples big-endian
        png::BitDepth::Sixteen => (
            16,
            buf.chunks_exact(2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .collect(),
        ),
        other => {
            return Err(at(&format!(
                "{other:?}-bit samples are not supported (8- or 16-bit gray, gray+alpha, RGB or RGBA)"
            )));
        }
    };
    Ok(PngImage {
        width: info.width,
        height: info.height,
        channels,
        bit_depth,
        values,
    })
}

/// The bytes of subresource `s` of `tex` from `png`: 8-bit RGBA into
/// R8G8B8A8_UNORM(_SRGB) byte for byte; otherwise each pixel as (R, G, B,
/// A) values, divided by 255 or 65535 into [0, 1] (the integers themselves
/// for UINT/SINT formats) and converted by the format (sRGB formats: the PNG
/// values are the stored values, as their UNORM twins convert them).
pub(super) fn png_subresource(
    png: &PngImage,
    file: &Path,
    r: &JobResource,
    tex: &Texture,
    format: Format,
    s: Subresource,
) -> Result<Vec<u8>, String> {
    let [w, h, d] = tex.mip_size(s.mip);
    if tex.desc().sample_count > 1 {
        return Err("png initialises single-sample textures".into());
    }
    if d != 1 {
        return Err(format!(
            "png fills a 2D image, but mip {} of '{}' is {w}x{h}x{d}",
            s.mip, r.name
        ));
    }
    if (png.width, png.height) != (w, h) {
        return Err(format!(
            "{} is {}x{}, but mip {} of '{}' is {w}x{h}",
            file.display(),
            png.width,
            png.height,
            s.mip,
            r.name
        ));
    }
    if matches!(format.name(), "R8G8B8A8_UNORM" | "R8G8B8A8_UNORM_SRGB")
        && png.channels == 4
        && png.bit_depth == 8
    {
        return Ok(png.values.iter().map(|&v| v as u8).collect());
    }
    let f = stored_format(format);
    let integer = matches!(f.kind(), ChannelKind::Uint | ChannelKind::Sint);
    let max = png.max() as f64;
    let mut out = Vec::with_capacity(w as usize * h as usize * f.size_bytes() as usize);
    for i in 0..(w as usize * h as usize) {
        let rgba = png.rgba(i);
        let regs = rgba.map(|v| {
            if integer {
                v as u32
            } else {
                ((v as f64 / max) as f32).to_bits()
            }
        });
        out.extend(encode_texel(f, regs)?);
    }
    Ok(out)
}

/// The size of mip 0 of a texture that PNGs can stand for (2D, single
/// sample), or why not.
///
/// # Errors
/// A message when `r` is a buffer or not a single-sample 2D texture.
pub fn png_target(r: &JobResource) -> Result<(u32, u32), String> {
    let Some(tex) = r.texture() else {
        return Err(format!(
            "'{}' is a buffer; PNGs are for 2D textures (mip 0, slice 0)",
            r.name
        ));
    };
    let desc = tex.desc();
    if desc.dimension != TextureDimension::Texture2D {
        return Err(format!(
            "'{}' is a {:?} texture; PNGs are for 2D textures (mip 0, slice 0)",
            r.name, desc.dimension
        ));
    }
    if desc.sample_count > 1 {
        return Err(format!(
            "'{}' is multisampled; PNGs are for single-sample 2D textures",
            r.name
        ));
    }
    Ok((desc.width, desc.height))
}

/// Mip 0, slice 0 of a 2D texture resource as an image, as `--dump
/// NAME=FILE.png` writes it: gray for 1-channel formats, RGB for 2- and
/// 3-channel ones (missing channels 0), RGBA for 4 channels; `bit_depth` 8
/// or 16 (None: [`png_bit_depth`] of the format). Values: 8-bit UNORM and
/// UNORM_SRGB formats their stored bytes (× 257 for 16 bits); UINT/SINT
/// formats the integer clamped to the range; others decoded to float,
/// clamped to [0, 1], × 255 or 65535, + 0.5, truncated (NaN → 0).
///
/// # Errors
/// A message when the resource is not a single-sample 2D texture.
pub fn texture_image(r: &JobResource, bit_depth: Option<u8>) -> Result<PngImage, String> {
    let (width, height) = png_target(r)?;
    let (Some(tex), View::Texture { format, .. }) = (r.texture(), r.view) else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    let bit_depth = bit_depth.unwrap_or_else(|| png_bit_depth(format));
    let f = stored_format(format);
    let max: u32 = if bit_depth == 8 { 255 } else { 65535 };
    let channels = match format.channels() {
        1 => 1,
        2 | 3 => 3,
        _ => 4,
    };
    let kind = f.kind();
    let level = |reg: u32| -> u16 {
        let v = match kind {
            ChannelKind::Uint => reg.min(max),
            ChannelKind::Sint => (reg as i32).clamp(0, max as i32) as u32,
            _ => {
                let x = f32::from_bits(reg);
                if x > 0.0 {
                    (x.min(1.0) as f64 * max as f64 + 0.5) as u32
                } else {
                    0 // negative, zero or NaN
                }
            }
        };
        v as u16
    };
    let mut values = Vec::with_capacity(width as usize * height as usize * channels);
    for y in 0..height {
        for x in 0..width {
            let regs = tex.read_texel(f, 0, 0, [x, y, 0], 0).unwrap_or_default();
            values.extend(regs[..channels].iter().map(|&v| level(v)));
        }
    }
    Ok(PngImage {
        width,
        height,
        channels,
        bit_depth,
        values,
    })
}

/// Compare mip 0 slice 0 of `r` with the PNG at `path`, converted to its bit
/// depth as [`texture_image`] does; values may differ by `tolerance`. R, G
/// and B are compared (only the first when both images are gray), alpha when
/// the PNG has it. Returns how many values differ and the first few.
pub(super) fn compare_png(
    r: &JobResource,
    path: &Path,
    tolerance: u32,
) -> Result<(usize, Vec<Mismatch>), String> {
    let [width, height, _] = match r.storage.storage() {
        Storage::Texture(t) => t.mip_size(0),
        Storage::Buffer(_) => return Err(format!("'{}' is not a texture", r.name)),
    };
    let target = PngTarget {
        width,
        height,
        what: format!("'{}' (mip 0)", r.name),
        named: None,
    };
    let want = read_png(path, Some(&target))?;
    let have = texture_image(r, Some(want.bit_depth))?;
    if (want.width, want.height) != (have.width, have.height) {
        return Err(format!(
            "{} is {}x{}, but '{}' (mip 0) is {}x{}",
            path.display(),
            want.width,
            want.height,
            r.name,
            have.width,
            have.height
        ));
    }
    let gray = want.channels <= 2 && have.channels <= 2;
    let alpha = want.channels == 2 || want.channels == 4;
    let compared: Vec<usize> = (0..4)
        .filter(|&c| match c {
            3 => alpha,
            0 => true,
            _ => !gray,
        })
        .collect();
    let mut count = 0;
    let mut first = Vec::new();
    for i in 0..(want.width as usize * want.height as usize) {
        let (a, b) = (want.rgba(i), have.rgba(i));
        for &c in &compared {
            if (a[c] as u32).abs_diff(b[c] as u32) > tolerance {
                count += 1;
                if first.len() < MISMATCHES_SHOWN {
                    let (x, y) = (i % want.width as usize, i / want.width as usize);
                    first.push(Mismatch {
                        index: i,
                        expected: format!("{} (x {x}, y {y}, {})", a[c], ["R", "G", "B", "A"][c]),
                        got: b[c].to_string(),
                    });
                }
            }
        }
    }
    Ok((count, first))
}
