//! `--dump NAME=FILE`: a resource's contents after the last step, as raw
//! little-endian bytes, as a NumPy array when FILE ends in `.npy`, or as a
//! PNG image of a 2D texture when FILE ends in `.png`.

use anyhow::{bail, Context};
use npyz::WriterBuilder;
use sm5sim::job::{self, PngImage, Resource, View};
use sm5sim::sim_mem::{BufferView, ChannelKind, Format};
use std::path::Path;

fn extension(file: &Path) -> Option<String> {
    file.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Check, before the job runs, that `r` can be written to `file` in the
/// form its extension asks for.
pub fn check(r: &Resource, file: &Path) -> anyhow::Result<()> {
    let what = || format!("--dump {}={}", r.name, file.display());
    match extension(file).as_deref() {
        Some("png") => {
            if r.texture().is_none() {
                bail!(
                    "{}: PNG dumps are for 2D textures (mip 0, slice 0); '{}' is a buffer: use .bin or .npy",
                    what(),
                    r.name
                );
            }
            job::png_target(r).map_err(|m| anyhow::anyhow!("{}: {m}", what()))?;
        }
        Some("npy") if r.texture().is_some() => {
            texture_npy_layout(r).map_err(|m| anyhow::anyhow!("{}: {m}", what()))?;
        }
        _ => {}
    }
    Ok(())
}

/// Write `r` to `file`: `.npy` → a NumPy array whose dtype and shape follow
/// the view (raw: `uint32[n]`; structured: `uint32[n, stride/4]`; constant:
/// `uint32[n, 4]`; typed: the values a shader load returns, `float32`,
/// `uint32` or `int32`, shape `[n, channels]`; textures: mip 0 slice 0,
/// `[height, width, channels]` in the dtype of the format's channels);
/// `.png` → mip 0 slice 0 of a 2D texture ([`job::texture_image`]);
/// anything else → the raw bytes (for textures, every subresource).
pub fn dump(r: &Resource, file: &Path) -> anyhow::Result<()> {
    check(r, file)?;
    match extension(file).as_deref() {
        Some("npy") if r.texture().is_some() => texture_npy(r, file),
        Some("npy") => npy(r, file),
        Some("png") => {
            let img = job::texture_image(r, None)
                .map_err(|m| anyhow::anyhow!("--dump {}={}: {m}", r.name, file.display()))?;
            write_png(file, &img)
        }
        _ => std::fs::write(file, r.data().to_bytes())
            .with_context(|| format!("writing {}", file.display())),
    }
}

/// Write an 8- or 16-bit gray, gray+alpha, RGB or RGBA image as PNG.
pub fn write_png(file: &Path, img: &PngImage) -> anyhow::Result<()> {
    let color = match img.channels {
        1 => png::ColorType::Grayscale,
        2 => png::ColorType::GrayscaleAlpha,
        3 => png::ColorType::Rgb,
        4 => png::ColorType::Rgba,
        n => anyhow::bail!("writing {}: {n} channels do not make a PNG", file.display()),
    };
    let (depth, data): (_, Vec<u8>) = match img.bit_depth {
        8 => (
            png::BitDepth::Eight,
            img.values.iter().map(|&v| v as u8).collect(),
        ),
        // PNG stores 16-bit samples big-endian
        16 => (
            png::BitDepth::Sixteen,
            img.values.iter().flat_map(|v| v.to_be_bytes()).collect(),
        ),
        bits => anyhow::bail!(
            "writing {}: {bits}-bit samples do not make a PNG",
            file.display()
        ),
    };
    let expected = img.width as usize * img.height as usize * img.channels;
    anyhow::ensure!(
        img.values.len() == expected,
        "writing {}: {} values for a {}x{} image of {} channels",
        file.display(),
        img.values.len(),
        img.width,
        img.height,
        img.channels
    );
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, img.width, img.height);
    encoder.set_color(color);
    encoder.set_depth(depth);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("writing {}", file.display()))?;
    writer
        .write_image_data(&data)
        .and_then(|()| writer.finish())
        .with_context(|| format!("writing {}", file.display()))?;
    std::fs::write(file, bytes).with_context(|| format!("writing {}", file.display()))
}

/// How mip 0 slice 0 of texture `r` is written as `.npy`: the dtype, the
/// shape (`[height, width, channels]`, with depth first for 3D textures),
/// and whether the first and third channels are swapped (B8G8R8A8 → RGBA
/// order). Refused for formats without one simple dtype: packed,
/// block-compressed, shared-exponent, with unused bits, multisampled.
fn texture_npy_layout(r: &Resource) -> Result<(&'static str, Vec<u64>, bool), String> {
    let (Some(tex), View::Texture { format, .. }) = (r.texture(), r.view) else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    let desc = tex.desc();
    let refuse = |why: &str| {
        Err(format!(
            "{} {why}, so it has no simple NumPy dtype; use .bin for the raw storage (or .png for 2D textures)",
            format.name()
        ))
    };
    if desc.sample_count > 1 {
        return Err(format!(
            "'{}' is multisampled; use .bin for the raw storage",
            r.name
        ));
    }
    let bits = format.channel_bits();
    if format.is_block_compressed() {
        return refuse("is block-compressed");
    }
    if bits.is_empty()
        || format.channels() as usize != bits.len()
        || bits.iter().any(|&b| b != bits[0])
    {
        return refuse("packs channels of different sizes or unused bits");
    }
    let descr = match (format.kind(), bits[0]) {
        (ChannelKind::Unorm | ChannelKind::Uint, 8) => "|u1",
        (ChannelKind::Snorm | ChannelKind::Sint, 8) => "|i1",
        (ChannelKind::Unorm | ChannelKind::Uint, 16) => "<u2",
        (ChannelKind::Snorm | ChannelKind::Sint, 16) => "<i2",
        (ChannelKind::Float, 16) => "<f2",
        (ChannelKind::Uint, 32) => "<u4",
        (ChannelKind::Sint, 32) => "<i4",
        (ChannelKind::Float, 32) => "<f4",
        _ => return refuse("has channels of no NumPy type"),
    };
    let [w, h, d] = tex.mip_size(0);
    let n = bits.len() as u64;
    let shape = if desc.dimension == sm5sim::sim_mem::TextureDimension::Texture3D {
        vec![d as u64, h as u64, w as u64, n]
    } else {
        vec![h as u64, w as u64, n]
    };
    Ok((descr, shape, is_bgra(format)))
}

/// B8G8R8A8-style formats, whose memory order is B, G, R, A.
fn is_bgra(f: Format) -> bool {
    f.name().starts_with("B8G8R8A8")
}

fn texture_npy(r: &Resource, file: &Path) -> anyhow::Result<()> {
    let (descr, shape, bgra) = texture_npy_layout(r)
        .map_err(|m| anyhow::anyhow!("--dump {}={}: {m}", r.name, file.display()))?;
    let tex = r.texture().context("a texture")?;
    let mut bytes = tex.read_subresource(0, 0);
    if bgra {
        for texel in bytes.chunks_exact_mut(4) {
            texel.swap(0, 2);
        }
    }
    write_npy_bytes(file, descr, &shape, &bytes)
}

/// A `.npy` file (format 1.0) of little-endian `data` with dtype `descr`.
fn write_npy_bytes(file: &Path, descr: &str, shape: &[u64], data: &[u8]) -> anyhow::Result<()> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // magic (6) + version (2) + length (2) + header + '\n', padded to 64 bytes
    let used = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - used % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    std::fs::write(file, out).with_context(|| format!("writing {}", file.display()))
}

fn npy(r: &Resource, file: &Path) -> anyhow::Result<()> {
    let words = r.data().to_words();
    match r.view {
        View::Raw => write(file, &[words.len() as u64], words),
        View::Structured(stride) => {
            let per = (stride / 4) as usize;
            let n = words.len() / per;
            write(file, &[n as u64, per as u64], words[..n * per].to_vec())
        }
        View::Constant => {
            let n = words.len() / 4;
            write(file, &[n as u64, 4], words[..n * 4].to_vec())
        }
        View::Typed(format) => {
            let view = BufferView::typed(r.data(), format);
            let n = view.bufinfo();
            let channels = format.channels() as usize;
            let values: Vec<u32> = (0..n)
                .flat_map(|e| view.typed_load(e).into_iter().take(channels))
                .collect();
            let shape = [n as u64, channels as u64];
            match format.kind() {
                ChannelKind::Uint => write(file, &shape, values),
                ChannelKind::Sint => {
                    write(file, &shape, values.into_iter().map(|v| v as i32).collect())
                }
                _ => write(
                    file,
                    &shape,
                    values.into_iter().map(f32::from_bits).collect(),
                ),
            }
        }
        View::Texture { .. } => texture_npy(r, file),
    }
}

fn write<T: npyz::AutoSerialize + Copy>(
    file: &Path,
    shape: &[u64],
    data: Vec<T>,
) -> anyhow::Result<()> {
    let f = std::fs::File::create(file).with_context(|| format!("creating {}", file.display()))?;
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(std::io::BufWriter::new(f))
        .begin_nd()
        .with_context(|| format!("writing {}", file.display()))?;
    w.extend(data)
        .with_context(|| format!("writing {}", file.display()))?;
    w.finish()
        .with_context(|| format!("writing {}", file.display()))?;
    Ok(())
}
