//! `--dump NAME=FILE`: a resource's contents after the last step, as raw
//! little-endian bytes, or as a NumPy array when FILE ends in `.npy`.

use anyhow::{bail, Context};
use npyz::WriterBuilder;
use sm5sim::job::{Resource, View};
use sm5sim::sim_mem::{BufferView, ChannelKind};
use std::path::Path;

/// Write `r` to `file`: `.npy` → a NumPy array whose dtype and shape follow
/// the view (raw: `uint32[n]`; structured: `uint32[n, stride/4]`; constant:
/// `uint32[n, 4]`; typed: the values a shader load returns, `float32`,
/// `uint32` or `int32`, shape `[n, channels]`); anything else → raw bytes.
pub fn dump(r: &Resource, file: &Path) -> anyhow::Result<()> {
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("npy") => npy(r, file),
        Some("png") => bail!(
            "--dump {}={}: PNG dumps are for 2D textures, which sm5sim does not support yet; use .bin or .npy",
            r.name,
            file.display()
        ),
        _ => std::fs::write(file, r.buffer.to_bytes()).with_context(|| format!("writing {}", file.display())),
    }
}

fn npy(r: &Resource, file: &Path) -> anyhow::Result<()> {
    let words = r.buffer.to_words();
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
            let view = BufferView::typed(&r.buffer, format);
            let n = view.bufinfo();
            let channels = format.channel_bits().len();
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
