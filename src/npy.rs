//! NumPy `.npy` arrays in and out of resources: what `--dump X=F.npy`
//! writes and what `file = "F.npy"` in `init`, `set` and `expect` reads.
//!
//! One layout per resource ([`buffer_layout`], [`texture_layout`]), used both
//! ways, so a dump read back as `init` gives the same resource and a second
//! dump the same file:
//! - raw views: `uint32[n]`;
//! - structured views: `[n, stride/4]` of the element type RDEF gives the
//!   structure (`float32` when every member is float, `int32` when every
//!   member is int, else `uint32`); on input also a 1-D array of a
//!   structured dtype whose itemsize is the stride, and `[n]` for a stride
//!   of 4;
//! - constant buffers: `uint32[n, 4]` (16-byte registers);
//! - typed views: `[n, channels]` of the values a shader load returns
//!   (`float32` for FLOAT, UNORM and SNORM formats, `uint32` for UINT,
//!   `int32` for SINT); on input converted as a typed store converts them
//!   (FS §3.2), `[n]` for one channel;
//! - textures: mip 0, slice 0 (or the subresource given) as `[height, width,
//!   channels]` (`[depth, …]` for 3D) in the channels' own dtype, RGBA order.
//!
//! Input is checked against the resource: little-endian, C order, the
//! dtype and the shape (element count) above; a mismatch names the expected
//! and the given.

use crate::api::{Resource, Slot, SlotKind, View};
use sim_core::front::rdef::TypeDesc;
use sim_core::Program;
use sim_mem::{Buffer, BufferView, ChannelKind, Format, Texture};
use std::path::Path;

/// A resource as a `.npy` array meets it: the resource (its storage, a
/// buffer's words or a texture's subresources), the view it is bound
/// through (which sets the dtype and shape, see the module doc) and the
/// slot that view is bound at (a structured view's element type comes from
/// the shader's RDEF declaration there). A job's resource gives one with
/// [`crate::job::JobResource::npy`]; an API caller builds it from its own
/// [`Resource`].
#[derive(Debug, Clone, Copy)]
pub struct NpyTarget<'a> {
    /// the resource's name, for messages
    pub name: &'a str,
    /// the resource's storage
    pub resource: &'a Resource,
    /// how it is viewed
    pub view: View,
    /// where it is bound
    pub slot: Slot,
}

impl NpyTarget<'_> {
    fn data(&self) -> &Buffer {
        self.resource.data()
    }

    fn texture(&self) -> Option<&Texture> {
        self.resource.as_texture()
    }
}

/// A `.npy` array's element type (NumPy's `descr`, e.g. `<f4`) and shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpyLayout {
    /// the dtype as NumPy writes it: `<u4`, `<f4`, `|u1`, …
    pub descr: String,
    /// the shape, outermost first
    pub shape: Vec<u64>,
}

impl std::fmt::Display for NpyLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dims: Vec<String> = self.shape.iter().map(u64::to_string).collect();
        write!(f, "{} [{}]", dtype_name(&self.descr), dims.join(", "))
    }
}

/// `float32` for `<f4`, etc.; the descr itself for others.
pub fn dtype_name(descr: &str) -> String {
    let name = match descr.trim_start_matches(['<', '|', '=']) {
        "u1" => "uint8",
        "i1" => "int8",
        "u2" => "uint16",
        "i2" => "int16",
        "f2" => "float16",
        "u4" => "uint32",
        "i4" => "int32",
        "f4" => "float32",
        "u8" => "uint64",
        "i8" => "int64",
        "f8" => "float64",
        _ => return descr.to_string(),
    };
    name.to_string()
}

/// The one 32-bit type of every leaf of `ty` (1 bool, 2 int, 3 float, 19
/// uint), if they share one.
fn leaf_type(ty: &TypeDesc) -> Option<u16> {
    if ty.class == 5 {
        let mut kinds = ty.members.iter().map(|(_, _, m)| leaf_type(m));
        let first = kinds.next()??;
        return kinds.all(|k| k == Some(first)).then_some(first);
    }
    Some(ty.base_type)
}

/// The NumPy dtype of a structured buffer's words, from RDEF's element type.
fn structured_descr(r: &NpyTarget<'_>, program: &Program) -> &'static str {
    let element = program.reflection.as_ref().and_then(|refl| {
        let prefix = match r.slot.kind {
            SlotKind::Srv => "t",
            SlotKind::Uav => "u",
            SlotKind::ConstantBuffer => "cb",
        };
        let name = &refl.resource_at(prefix, 0, r.slot.index)?.name;
        refl.element_layout(name)?.variables.first().map(|v| &v.ty)
    });
    match element.and_then(leaf_type) {
        Some(3) => "<f4",
        Some(2) => "<i4",
        _ => "<u4",
    }
}

fn typed_descr(format: Format) -> &'static str {
    match format.kind() {
        ChannelKind::Uint => "<u4",
        ChannelKind::Sint => "<i4",
        _ => "<f4",
    }
}

/// The layout buffer `r` dumps as and loads from (see the module doc).
///
/// # Errors
/// For a texture (see [`texture_layout`]).
pub fn buffer_layout(r: &NpyTarget<'_>, program: &Program) -> Result<NpyLayout, String> {
    let words = r.data().len_words() as u64;
    let (descr, shape) = match r.view {
        View::Raw => ("<u4", vec![words]),
        View::Structured(stride) => {
            let per = u64::from(stride / 4);
            (structured_descr(r, program), vec![words / per, per])
        }
        View::Constant => ("<u4", vec![words / 4, 4]),
        View::Typed(f) => {
            let n = r.data().len_bytes() as u64 / f.size_bytes() as u64;
            (typed_descr(f), vec![n, u64::from(f.channels())])
        }
        View::Texture { .. } => return Err(format!("'{}' is a texture", r.name)),
    };
    Ok(NpyLayout {
        descr: descr.into(),
        shape,
    })
}

/// B8G8R8A8-style formats, whose memory order is B, G, R, A.
fn is_bgra(f: Format) -> bool {
    f.name().starts_with("B8G8R8A8")
}

/// The layout of subresource (`mip`, `slice`) of texture `r`, and whether
/// its first and third channels are swapped in memory (B8G8R8A8 → RGBA
/// order).
///
/// # Errors
/// For formats without one simple dtype: packed, block-compressed,
/// shared-exponent, with unused bits; and for multisampled textures.
pub fn texture_layout(r: &NpyTarget<'_>, mip: u32) -> Result<(NpyLayout, bool), String> {
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
    let [w, h, d] = tex.mip_size(mip);
    let n = bits.len() as u64;
    let shape = if desc.dimension == sim_mem::TextureDimension::Texture3D {
        vec![u64::from(d), u64::from(h), u64::from(w), n]
    } else {
        vec![u64::from(h), u64::from(w), n]
    };
    Ok((
        NpyLayout {
            descr: descr.into(),
            shape,
        },
        is_bgra(format),
    ))
}

/// Every subresource of texture `r` as `--dump F.npz` writes them: for
/// each, in D3D order (mip + slice × mips), its name `mip{M}_slice{S}`, its
/// layout ([`texture_layout`] of that mip) and its little-endian data.
///
/// # Errors
/// A buffer, or a texture without a NumPy layout ([`texture_layout`]).
pub fn dump_subresources(r: &NpyTarget<'_>) -> Result<Vec<(String, NpyLayout, Vec<u8>)>, String> {
    let Some(tex) = r.texture() else {
        return Err(format!("'{}' is a buffer", r.name));
    };
    let d = tex.desc();
    let mut out = Vec::new();
    for slice in 0..d.array_size {
        for mip in 0..d.mip_levels {
            let (layout, bgra) = texture_layout(r, mip)?;
            let mut bytes = tex.read_subresource(mip, slice);
            if bgra {
                swap_rb(&mut bytes);
            }
            out.push((format!("mip{mip}_slice{slice}"), layout, bytes));
        }
    }
    Ok(out)
}

/// The layout and little-endian data of `r` as `--dump` writes it.
///
/// # Errors
/// A texture without a NumPy layout ([`texture_layout`]).
pub fn dump(r: &NpyTarget<'_>, program: &Program) -> Result<(NpyLayout, Vec<u8>), String> {
    if let Some(tex) = r.texture() {
        let (layout, bgra) = texture_layout(r, 0)?;
        let mut bytes = tex.read_subresource(0, 0);
        if bgra {
            swap_rb(&mut bytes);
        }
        return Ok((layout, bytes));
    }
    let layout = buffer_layout(r, program)?;
    let words: Vec<u32> = match r.view {
        View::Typed(f) => {
            let view = BufferView::typed(r.data(), f);
            let channels = f.channels() as usize;
            (0..view.bufinfo())
                .flat_map(|e| view.typed_load(e).into_iter().take(channels))
                .collect()
        }
        _ => {
            let n = layout.shape.iter().product::<u64>() as usize;
            let mut w = r.data().to_words();
            w.truncate(n);
            w
        }
    };
    Ok((layout, words.iter().flat_map(|w| w.to_le_bytes()).collect()))
}

fn swap_rb(bytes: &mut [u8]) {
    for texel in bytes.chunks_exact_mut(4) {
        texel.swap(0, 2);
    }
}

/// The bytes of a `.npy` file (format 1.0) of little-endian `data`.
pub fn encode(layout: &NpyLayout, data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = layout.shape.iter().map(u64::to_string).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    // a plain dtype is a quoted string, a structured one a list of fields
    let descr = if layout.descr.starts_with('[') {
        layout.descr.clone()
    } else {
        format!("'{}'", layout.descr)
    };
    let mut header = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    // magic (6) + version (2) + length (2) + header + '\n', padded to 64 bytes
    let used = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - used % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

/// A `.npy` file read: its dtype (`descr`, e.g. `<f4`; a structured dtype's
/// fields as `[('a', '<u4'), …]`), shape, itemsize, and data bytes.
#[derive(Debug, Clone)]
pub struct NpyArray {
    /// dtype and shape
    pub layout: NpyLayout,
    /// bytes per item
    pub itemsize: usize,
    /// the data, C order
    pub data: Vec<u8>,
}

/// Read a `.npy` file (any format version) through `npyz`.
///
/// # Errors
/// The file cannot be read, is not a `.npy` file, is in Fortran order (with
/// more than one dimension), has an object dtype, or holds fewer bytes than
/// its header says.
pub fn read(path: &Path) -> Result<NpyArray, String> {
    let at = |m: String| format!("{}: {m}", path.display());
    let bytes = crate::files::read_input(path).map_err(|e| at(e.to_string()))?;
    check_shape(&bytes).map_err(at)?;
    let npy = npyz::NpyFile::new(&bytes[..]).map_err(|e| at(format!("not a .npy file: {e}")))?;
    let dtype = npy.dtype();
    let shape = npy.shape().to_vec();
    if npy.order() == npyz::Order::Fortran && shape.len() > 1 {
        return Err(at(
            "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)".into(),
        ));
    }
    let itemsize = dtype
        .num_bytes()
        .ok_or_else(|| at(format!("dtype {} has no fixed size", dtype.descr())))?;
    let len = shape.iter().product::<u64>() as usize;
    let data_start = bytes.len() - npy.into_inner().len();
    let data = &bytes[data_start..];
    let want = len
        .checked_mul(itemsize)
        .ok_or_else(|| at("the shape is too large".into()))?;
    if data.len() < want {
        return Err(at(format!(
            "the header says {len} items of {itemsize} bytes, but the file holds {} data bytes",
            data.len()
        )));
    }
    Ok(NpyArray {
        layout: NpyLayout {
            // a plain type as NumPy spells it (`<f4`), a structured dtype as
            // its field list
            descr: match &dtype {
                npyz::DType::Plain(t) => t.to_string(),
                other => other.descr(),
            },
            shape,
        },
        itemsize,
        data: data[..want].to_vec(),
    })
}

/// Refuse a header whose shape holds more items than the file has bytes
/// (or more than a u64 counts) before the header parser multiplies it out.
fn check_shape(bytes: &[u8]) -> Result<(), String> {
    if !bytes.starts_with(b"\x93NUMPY") || bytes.len() < 10 {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (len, start): (usize, usize) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!("not a .npy file (format version {v})")),
    };
    let header = bytes
        .get(start..start.saturating_add(len))
        .ok_or("not a .npy file (its header runs past the end)")?;
    let text = String::from_utf8_lossy(header);
    let Some(dims) = text
        .find("'shape'")
        .and_then(|i| text[i..].find('(').map(|j| i + j + 1))
        .and_then(|i| text[i..].find(')').map(|j| &text[i..i + j]))
    else {
        return Err("not a .npy file (its header has no shape)".into());
    };
    let mut items: u64 = 1;
    for d in dims.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let d: u64 = d
            .trim_end_matches('L')
            .parse()
            .map_err(|_| format!("not a .npy file (shape ({dims}))"))?;
        items = items.saturating_mul(d);
    }
    if items > bytes.len() as u64 {
        return Err(format!(
            "the shape ({dims}) holds more items than the file's {} bytes",
            bytes.len()
        ));
    }
    Ok(())
}

/// Whether `descr` is a little-endian (or byte-sized) 4-byte integer or
/// float, or a structured dtype of such fields.
fn words_dtype(descr: &str) -> bool {
    matches!(descr, "<u4" | "<i4" | "<f4")
}

fn mismatch(path: &Path, r: &NpyTarget<'_>, want: &str, given: &NpyLayout) -> String {
    format!(
        "{}: '{}' takes {want}; the file holds {given}",
        path.display(),
        r.name
    )
}

/// The 32-bit words of buffer `r` that `arr` (read from `path`) holds,
/// checked against [`buffer_layout`]; typed views convert the values as a
/// typed store does.
///
/// # Errors
/// A dtype or shape that does not fit, naming the expected and the given.
pub fn buffer_words(
    arr: &NpyArray,
    path: &Path,
    r: &NpyTarget<'_>,
    program: &Program,
) -> Result<Vec<u32>, String> {
    let want = buffer_layout(r, program)?;
    let given = &arr.layout;
    let words = || le_words(&arr.data);
    match r.view {
        View::Raw | View::Constant => {
            // raw words: any 4-byte dtype, any shape of the right count
            let n: u64 = want.shape.iter().product();
            if !words_dtype(&given.descr) || given.shape.iter().product::<u64>() != n {
                return Err(mismatch(
                    path,
                    r,
                    &format!("{n} 32-bit values (uint32, int32 or float32), such as {want}"),
                    given,
                ));
            }
            Ok(words())
        }
        View::Structured(stride) => {
            let n = want.shape[0];
            let per = want.shape[1];
            let plain_fits = given.descr == want.descr
                && (given.shape == want.shape || (per == 1 && given.shape == [n]));
            // a structured dtype of the stride: its fields are the words
            let record_fits = given.descr.starts_with('[')
                && arr.itemsize == stride as usize
                && given.shape == [n]
                && all_fields_are_words(&given.descr);
            if !plain_fits && !record_fits {
                return Err(mismatch(
                    path,
                    r,
                    &format!(
                        "{want}, or [{n}] of a structured dtype of {stride} bytes made of 4-byte fields"
                    ),
                    given,
                ));
            }
            Ok(words())
        }
        View::Typed(f) => {
            let n = want.shape[0];
            let channels = want.shape[1];
            let fits = given.descr == want.descr
                && (given.shape == want.shape || (channels == 1 && given.shape == [n]));
            if !fits {
                return Err(mismatch(path, r, &want.to_string(), given));
            }
            // store each element as a shader's typed store would
            let scratch = Buffer::zeroed(r.data().len_bytes()).map_err(|e| e.to_string())?;
            let view = BufferView::typed(&scratch, f);
            for (e, values) in words().chunks_exact(channels as usize).enumerate() {
                let mut regs = [0u32; 4];
                regs[..values.len()].copy_from_slice(values);
                view.typed_store(e as u32, regs);
            }
            Ok(scratch.to_words())
        }
        View::Texture { .. } => Err(format!("'{}' is a texture", r.name)),
    }
}

/// Whether every field of the structured dtype `descr` is a 4-byte word.
fn all_fields_are_words(descr: &str) -> bool {
    let Ok(dtype) = npyz::DType::parse(descr) else {
        return false;
    };
    fn words(d: &npyz::DType) -> bool {
        match d {
            npyz::DType::Plain(t) => words_dtype(&t.to_string()),
            npyz::DType::Array(_, inner) => words(inner),
            npyz::DType::Record(fields) => fields.iter().all(|f| words(&f.dtype)),
        }
    }
    words(&dtype)
}

/// The bytes of subresource (`mip`, `slice`) of texture `r` that `arr`
/// (read from `path`) holds, in storage order.
///
/// # Errors
/// A texture without a NumPy layout, or a dtype or shape that does not fit.
pub fn texture_bytes(
    arr: &NpyArray,
    path: &Path,
    r: &NpyTarget<'_>,
    mip: u32,
) -> Result<Vec<u8>, String> {
    let (want, bgra) = texture_layout(r, mip)?;
    if arr.layout != want {
        return Err(mismatch(
            path,
            r,
            &format!("{want} (mip {mip})"),
            &arr.layout,
        ));
    }
    let mut bytes = arr.data.clone();
    if bgra {
        swap_rb(&mut bytes);
    }
    Ok(bytes)
}

/// Little-endian bytes as 32-bit words (a partial last word is dropped).
pub(crate) fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `.npy` by its extension.
pub fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}
