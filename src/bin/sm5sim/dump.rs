//! `--dump NAME=FILE`: a resource's contents after the last step, as raw
//! little-endian bytes, as a NumPy array when FILE ends in `.npy`, or as a
//! PNG image of a 2D texture when FILE ends in `.png`.

use anyhow::{bail, Context};
use sm5sim::job::{self, JobResource, PngImage};
use sm5sim::sim_core::Program;
use sm5sim::{files, npy};
use std::path::Path;

fn extension(file: &Path) -> Option<String> {
    file.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Check, before the job runs, that `r` can be written to `file` in the
/// form its extension asks for.
pub fn check(r: &JobResource, file: &Path) -> anyhow::Result<()> {
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
            npy::texture_layout(&r.npy(), 0).map_err(|m| anyhow::anyhow!("{}: {m}", what()))?;
        }
        Some("npz") => {
            let Some(t) = r.texture() else {
                bail!(
                    "{}: .npz dumps hold a texture's subresources; '{}' is a buffer: use .npy or .bin",
                    what(),
                    r.name
                );
            };
            for mip in 0..t.desc().mip_levels {
                npy::texture_layout(&r.npy(), mip)
                    .map_err(|m| anyhow::anyhow!("{}: {m}", what()))?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Write `r` to `file`: `.npy` → a NumPy array in the layout
/// [`sm5sim::npy`] gives the resource (raw `uint32[n]`; structured `[n,
/// stride/4]` of RDEF's element type; constant `uint32[n, 4]`; typed the
/// values a shader load returns, `[n, channels]`; textures mip 0 slice 0,
/// `[height, width, channels]` in the channels' dtype), which `file =
/// "F.npy"` reads back; `.npz` → a texture's every subresource, one array
/// each named `mip{M}_slice{S}` (in the `.npy` layout of its mip), in a
/// NumPy archive (`numpy.load`); `.png` → mip 0 slice 0 of a 2D texture
/// ([`job::texture_image`]); anything else → the raw bytes (for textures,
/// every subresource).
pub fn dump(r: &JobResource, program: &Program, file: &Path) -> anyhow::Result<()> {
    check(r, file)?;
    match extension(file).as_deref() {
        Some("npy") => {
            let (layout, data) = npy::dump(&r.npy(), program)
                .map_err(|m| anyhow::anyhow!("--dump {}={}: {m}", r.name, file.display()))?;
            files::write_atomic(file, &npy::encode(&layout, &data))
                .with_context(|| format!("writing {}", file.display()))
        }
        Some("npz") => {
            let arrays = npy::dump_subresources(&r.npy())
                .map_err(|m| anyhow::anyhow!("--dump {}={}: {m}", r.name, file.display()))?;
            let bytes = npz(&arrays).with_context(|| format!("writing {}", file.display()))?;
            files::write_atomic(file, &bytes).with_context(|| format!("writing {}", file.display()))
        }
        Some("png") => {
            let img = job::texture_image(r, None)
                .map_err(|m| anyhow::anyhow!("--dump {}={}: {m}", r.name, file.display()))?;
            write_png(file, &img)
        }
        _ => files::write_atomic(file, &r.data().to_bytes())
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
    files::write_atomic(file, &bytes).with_context(|| format!("writing {}", file.display()))
}

/// A NumPy archive (`.npz`: a zip of `.npy` files, stored) of `arrays`.
fn npz(arrays: &[(String, npy::NpyLayout, Vec<u8>)]) -> anyhow::Result<Vec<u8>> {
    use std::io::Write as _;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(arrays.iter().map(|a| a.2.len()).sum::<usize>() > u32::MAX as usize / 2);
    for (name, layout, data) in arrays {
        zip.start_file(format!("{name}.npy"), options)?;
        zip.write_all(&npy::encode(layout, data))?;
    }
    Ok(zip.finish()?.into_inner())
}
