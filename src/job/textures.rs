//! Textures resolved against the shader's declarations: formats,
//! subresources, initial texels and writes.

use crate::job::content::{check_generators, generate};
use crate::job::images::png_subresource;
use crate::job::resources::{check_return_type, parse_content, take_u32, KeyErr};
use crate::job::schema::{Content, ResourceSpec};
use crate::job::{
    read_png, Compare, JobResource, PngTarget, Slot, SlotKind, Storage, Subresource, View,
};
use crate::memory::MemoryBudget;
use sim_core::program::{BufferDeclKind, Program, TextureDecl};
use sim_mem::{
    ChannelKind, Format, Texture, TextureDesc, TextureDimension, TextureView, ViewDimension,
    ViewRange,
};
use std::path::Path;
/// What the shader (or its RDEF) says of a texture resource's slot.
pub(super) struct TextureDeclared<'a> {
    /// the view the job names
    pub(super) given: Option<ViewDimension>,
    /// the shader's texture declaration
    pub(super) decl: Option<&'a TextureDecl>,
    /// RDEF's dimension and return type, when the shader declares nothing
    pub(super) rdef: Option<(ViewDimension, u8)>,
    /// the shader's buffer declaration of the slot (an error for a texture)
    pub(super) buffer: Option<BufferDeclKind>,
}

/// The key of `spec` that an error message from sim-mem is about: the first
/// of `candidates` whose needle the message contains and which the spec
/// gives, else `fallback`.
pub(super) fn error_key(
    message: &str,
    spec: &ResourceSpec,
    candidates: &[(&str, &str)],
    fallback: &str,
) -> String {
    candidates
        .iter()
        .find(|(needle, key)| message.contains(needle) && spec.has(key))
        .map_or(fallback, |(_, key)| key)
        .to_string()
}

pub(super) fn resolve_texture(
    budget: &mut MemoryBudget,
    name: &str,
    spec: &ResourceSpec,
    slot: Slot,
    declared: TextureDeclared,
    program: &Program,
    base: &Path,
) -> Result<JobResource, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    let view_key = if spec.view.is_some() { "view" } else { "" };
    if slot.kind == SlotKind::ConstantBuffer {
        return Err(e(
            view_key,
            format!("textures go with t# or u# slots (this is {slot})"),
        ));
    }
    if let Some(b) = declared.buffer {
        let what = match b {
            BufferDeclKind::Raw => "a raw buffer".to_string(),
            BufferDeclKind::Structured { stride } => {
                format!("a structured buffer (stride {stride})")
            }
            BufferDeclKind::Typed { .. } => "a typed buffer".to_string(),
        };
        return Err(e(
            view_key,
            format!("the shader declares {slot} as {what}, not a texture"),
        ));
    }
    for (key, given) in spec.buffer_keys() {
        if given {
            return Err(e(
                key,
                format!("{key} belongs to buffers; a texture's size is width, height, depth, array_size, mips and samples"),
            ));
        }
    }
    let declared_dimension = declared
        .decl
        .map(|d| d.dimension)
        .or(declared.rdef.map(|r| r.0));
    let dimension = match (declared.given, declared_dimension) {
        (Some(g), Some(d)) if g != d => {
            return Err(e(
                "view",
                format!(
                    "the shader declares {slot} as {}, not {}",
                    d.name(),
                    g.name()
                ),
            ))
        }
        (Some(g), _) => g,
        (None, Some(d)) => d,
        (None, None) => {
            return Err(e(
                "view",
                format!("the shader does not declare {slot}; give view = ..."),
            ))
        }
    };
    if slot.kind == SlotKind::Uav && !dimension.allowed_for_uav() {
        return Err(e(
            view_key,
            format!(
                "a UAV cannot be a {} (no multisampled or cube UAVs)",
                dimension.name()
            ),
        ));
    }
    // Format: required, and of the declared return type's kind.
    let format = texture_format(spec)?;
    let return_type = declared
        .decl
        .map(|d| d.return_types[0])
        .or(declared.rdef.map(|r| r.1))
        .filter(|&t| (1..=5).contains(&t));
    if let Some(t) = return_type {
        check_return_type(t, format, slot)?;
    }
    if slot.kind == SlotKind::Uav && !format.uav_storable() {
        return Err(e(
            "format",
            format!("{} cannot be the format of a texture UAV", format.name()),
        ));
    }
    // Size.
    let resource_dimension = dimension.resource_dimension();
    let width = spec.width.ok_or_else(|| {
        e(
            "",
            format!(
                "a {} needs width = N{}",
                dimension.name(),
                match resource_dimension {
                    TextureDimension::Texture1D => "",
                    TextureDimension::Texture2D => " and height = N",
                    TextureDimension::Texture3D => ", height = N and depth = N",
                }
            ),
        )
    })?;
    let height = spec.height.unwrap_or(1);
    if resource_dimension == TextureDimension::Texture1D && height != 1 {
        return Err(e(
            "height",
            format!("a {} has no height; leave height out", dimension.name()),
        ));
    }
    let depth = spec.depth.unwrap_or(1);
    if resource_dimension != TextureDimension::Texture3D && depth != 1 {
        return Err(e(
            "depth",
            "depth is for texture3d; slices are array_size".into(),
        ));
    }
    let array_size = spec
        .array_size
        .unwrap_or(if dimension.is_cube() { 6 } else { 1 });
    if resource_dimension == TextureDimension::Texture3D && array_size != 1 {
        return Err(e(
            "array_size",
            "a texture3d has no slices; give depth = N".into(),
        ));
    }
    let declared_samples = declared.decl.map(|d| d.sample_count).filter(|&n| n != 0);
    let samples = match (spec.samples, declared_samples) {
        (Some(n), Some(d)) if n != d => {
            return Err(e(
                "samples",
                format!("the shader declares {slot} with {d} samples"),
            ))
        }
        (Some(n), _) => n,
        (None, Some(d)) => d,
        (None, None) if dimension.is_multisampled() => {
            return Err(e(
                "",
                format!("a {} needs samples = N (2, 4, 8 or 16)", dimension.name()),
            ))
        }
        (None, None) => 1,
    };
    if !dimension.is_multisampled() && samples != 1 {
        return Err(e(
            "samples",
            "samples is for texture2dms and texture2dmsarray views".into(),
        ));
    }
    let desc = TextureDesc {
        dimension: resource_dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels: spec.mips.unwrap_or(1),
        sample_count: samples,
    };
    // (a description D3D11 refuses is refused by `Texture::new` below)
    if let Ok(bytes) = Texture::storage_bytes(desc) {
        budget.charge(bytes).map_err(|m| e("", m))?;
    }
    let texture = Texture::new(desc).map_err(|err| {
        let m = err.to_string();
        let key = error_key(
            &m,
            spec,
            &[
                ("width", "width"),
                ("height", "height"),
                ("depth", "depth"),
                ("array_size", "array_size"),
                ("mips", "mips"),
                ("sample", "samples"),
                (format.name(), "format"),
            ],
            "",
        );
        (key, m)
    })?;
    // The view's range, checked by making the view.
    if slot.kind == SlotKind::Uav && spec.mip_count.is_some_and(|n| n != 1) {
        return Err(e(
            "mip_count",
            "a UAV sees one mip, most_detailed_mip; mip_count is for SRVs".into(),
        ));
    }
    let range = ViewRange {
        first_mip: spec.most_detailed_mip.unwrap_or(0),
        mip_count: if slot.kind == SlotKind::Uav {
            None
        } else {
            spec.mip_count
        },
        first_slice: spec.first_slice.unwrap_or(0),
        slice_count: spec.slice_count,
    };
    let made = if slot.kind == SlotKind::Uav {
        TextureView::uav(&texture, dimension, format, range).map(|_| ())
    } else {
        TextureView::srv(&texture, dimension, format, range).map(|_| ())
    };
    if let Err(err) = made {
        // the rule's source: the view description D3D11 checks
        let source = if slot.kind == SlotKind::Uav {
            "ID3D11Device::CreateUnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC"
        } else {
            "ID3D11Device::CreateShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC"
        };
        let m = format!("{err} (D3D11 refuses such a view: {source})");
        let key = error_key(
            &m,
            spec,
            &[
                ("first mip", "most_detailed_mip"),
                ("mips", "mip_count"),
                ("mips", "most_detailed_mip"),
                ("mips", "mips"),
                ("slice", "slice_count"),
                ("slice", "first_slice"),
                ("slice", "array_size"),
                ("square", "height"),
                ("samples", "samples"),
                ("format", "format"),
            ],
            view_key,
        );
        return Err((key, m));
    }
    let r = JobResource {
        name: name.to_string(),
        slot,
        view: View::Texture {
            dimension,
            format,
            range,
        },
        storage: Storage::Texture(texture).into(),
        compare: Compare::Exact,
        uav: slot.kind == SlotKind::Uav,
        layout: 0,
        indirect_args: false,
    };
    if let Some(init) = &spec.init {
        for (key, sub, content) in parse_texture_init(init)? {
            let w = texture_writes(&content, sub, &r, program, base).map_err(|m| e(&key, m))?;
            write_texture(&r, w).map_err(|m| e(&key, m))?;
        }
    }
    Ok(r)
}

pub(super) fn texture_format(spec: &ResourceSpec) -> Result<Format, KeyErr> {
    let name = spec.format.as_deref().ok_or_else(|| {
        (
            String::new(),
            "a texture needs format = \"R8G8B8A8_UNORM\" (a DXGI format name)".to_string(),
        )
    })?;
    Format::from_name(name).ok_or_else(|| {
        let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
        (
            "format".to_string(),
            format!(
                "'{name}' is not a DXGI format sm5sim knows (known: {})",
                known.join(", ")
            ),
        )
    })
}

/// `mip = M, slice = S` of a texture contents table, removed from it.
pub(super) fn take_subresource(t: &mut toml::Table) -> Result<Option<Subresource>, String> {
    let mip = take_u32(t, "mip")?;
    let slice = take_u32(t, "slice")?;
    Ok((mip.is_some() || slice.is_some()).then(|| Subresource {
        mip: mip.unwrap_or(0),
        slice: slice.unwrap_or(0),
    }))
}

/// A texture's `init`: one contents table (optionally with mip and slice),
/// or a list of them, one per subresource. Each with the key its errors
/// point at.
pub(super) fn parse_texture_init(
    v: &toml::Value,
) -> Result<Vec<(String, Option<Subresource>, Content)>, KeyErr> {
    let entry = |key: String, t: &toml::Table, list: bool| {
        let mut t = t.clone();
        let sub = take_subresource(&mut t).map_err(|m| (key.clone(), m))?;
        let sub = if list {
            Some(sub.unwrap_or(Subresource { mip: 0, slice: 0 }))
        } else {
            sub
        };
        let c = parse_content(t).map_err(|m| (key.clone(), m))?;
        Ok((format!("{key}.{}", c.form()), sub, c))
    };
    match v {
        toml::Value::Table(t) => Ok(vec![entry("init".into(), t, false)?]),
        toml::Value::Array(a) if !a.is_empty() => a
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                toml::Value::Table(t) => entry(format!("init[{i}]"), t, true),
                _ => Err((
                    format!("init[{i}]"),
                    "expected { mip = M, slice = S, <contents> }".into(),
                )),
            })
            .collect(),
        _ => Err((
            "init".into(),
            "expected a contents table such as { png = \"in.png\" }, or a list of { mip = M, slice = S, <contents> }".into(),
        )),
    }
}

/// What a texture contents form writes.
pub(super) enum TexWrite {
    /// every word of the storage
    Words(Vec<u32>),
    /// whole subresources
    Subresources(Vec<(Subresource, Vec<u8>)>),
}

/// The writes content `c` makes to texture resource `r`: word forms fill the
/// whole storage (or, with `sub`, one subresource), `fill_texel` every texel
/// of every subresource (or of `sub`), `png` mip 0 slice 0 (or `sub`).
pub(super) fn texture_writes(
    c: &Content,
    sub: Option<Subresource>,
    r: &JobResource,
    program: &Program,
    base: &Path,
) -> Result<TexWrite, String> {
    let (Some(tex), View::Texture { format, .. }) = (r.texture(), r.view) else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    let desc = tex.desc();
    if let Some(s) = sub {
        if s.mip >= desc.mip_levels || s.slice >= desc.array_size {
            return Err(format!(
                "mip {} slice {} is not a subresource of '{}' ({} mips, {} slices)",
                s.mip, s.slice, r.name, desc.mip_levels, desc.array_size
            ));
        }
    }
    let size_of = |s: Subresource| tex.subresource_range(s.mip, s.slice).map_or(0, |r| r.len());
    if let Some(f) = c.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
        let s = sub.unwrap_or(Subresource { mip: 0, slice: 0 });
        let p = base.join(f);
        let arr = crate::npy::read(&p)?;
        let bytes = crate::npy::texture_bytes(&arr, &p, &r.npy(), s.mip)?;
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    if let Some(p) = &c.png {
        let s = sub.unwrap_or(Subresource { mip: 0, slice: 0 });
        let [width, height, _] = tex.mip_size(s.mip);
        let target = PngTarget {
            width,
            height,
            what: format!("mip {} of '{}'", s.mip, r.name),
            named: Some(p.clone()),
        };
        let png = read_png(&base.join(p), Some(&target))?;
        let bytes = png_subresource(&png, p, r, tex, format, s)?;
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    if let Some(v) = &c.fill_texel {
        let texel = encode_texel(format, texel_registers(v, format)?)?;
        let all: Vec<Subresource> = match sub {
            Some(s) => vec![s],
            None => (0..desc.array_size)
                .flat_map(|slice| (0..desc.mip_levels).map(move |mip| Subresource { mip, slice }))
                .collect(),
        };
        return Ok(TexWrite::Subresources(
            all.into_iter()
                .map(|s| (s, texel.repeat(size_of(s) / texel.len().max(1))))
                .collect(),
        ));
    }
    if c.fields.is_some() {
        return Err("fields = {...} initialises constant buffers only".into());
    }
    check_generators(c)?;
    let Some(s) = sub else {
        let words = r.data().len_words();
        if let Some(n) = c.natural_words(base, r.view)? {
            if n != words {
                return Err(format!(
                    "{n} values given but '{}' holds {words} 32-bit words (all its subresources)",
                    r.name
                ));
            }
        }
        return Ok(TexWrite::Words(generate(c, words, program, r, base)?));
    };
    let size = size_of(s);
    if let Some(f) = &c.file {
        let p = base.join(f);
        let bytes = crate::files::read_input(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() != size {
            return Err(format!(
                "{}: {} bytes, but mip {} slice {} of '{}' holds {size} bytes",
                p.display(),
                bytes.len(),
                s.mip,
                s.slice,
                r.name
            ));
        }
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    let words = size.div_ceil(4);
    if let Some(n) = c.natural_words(base, r.view)? {
        if n != words {
            return Err(format!(
                "{n} values given but mip {} slice {} of '{}' holds {words} 32-bit words",
                s.mip, s.slice, r.name
            ));
        }
    }
    let mut bytes: Vec<u8> = generate(c, words, program, r, base)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    bytes.truncate(size);
    Ok(TexWrite::Subresources(vec![(s, bytes)]))
}

pub(super) fn write_texture(r: &JobResource, w: TexWrite) -> Result<(), String> {
    let Some(tex) = r.texture() else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    match w {
        TexWrite::Words(words) => tex.data().write_words(0, &words).map_err(|e| e.to_string()),
        TexWrite::Subresources(list) => list.into_iter().try_for_each(|(s, bytes)| {
            tex.write_subresource(s.mip, s.slice, &bytes)
                .map_err(|e| e.to_string())
        }),
    }
}

/// `fill_texel = [r, g, b, a]` as register values for `format`: integers
/// for UINT/SINT formats, floats otherwise; missing channels 0 (alpha 1).
pub(super) fn texel_registers(values: &[f64], format: Format) -> Result<[u32; 4], String> {
    if values.is_empty() || values.len() > 4 {
        return Err("fill_texel takes 1 to 4 values [r, g, b, a]".into());
    }
    let kind = format.kind();
    let mut regs = match kind {
        ChannelKind::Uint | ChannelKind::Sint => [0, 0, 0, 1],
        _ => [0, 0, 0, 1.0f32.to_bits()],
    };
    for (reg, &v) in regs.iter_mut().zip(values) {
        *reg = match kind {
            ChannelKind::Uint if v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v) => {
                v as u32
            }
            ChannelKind::Sint
                if v.fract() == 0.0 && (i32::MIN as f64..=i32::MAX as f64).contains(&v) =>
            {
                v as i32 as u32
            }
            ChannelKind::Uint | ChannelKind::Sint => {
                return Err(format!(
                    "{v} is not a 32-bit {} integer, as {} needs",
                    if kind == ChannelKind::Uint {
                        "unsigned"
                    } else {
                        "signed"
                    },
                    format.name()
                ))
            }
            _ => (v as f32).to_bits(),
        };
    }
    Ok(regs)
}

/// One texel of `format` holding register values `regs`.
pub(super) fn encode_texel(format: Format, regs: [u32; 4]) -> Result<Vec<u8>, String> {
    format.encode_texel(regs).ok_or_else(|| {
        format!(
            "{} texels cannot be converted from values; give the raw contents (file = \"…\", u32 = [...])",
            format.name()
        )
    })
}

/// The format whose conversions give an sRGB format's stored values (the
/// UNORM format of the same layout), or `f` itself.
pub(super) fn stored_format(f: Format) -> Format {
    if f.is_srgb() {
        Format::from_name(f.name().trim_end_matches("_SRGB")).unwrap_or(f)
    } else {
        f
    }
}

/// Whether every channel of `f` is an 8-bit UNORM (or UNORM_SRGB) one.
pub(super) fn is_8bit_unorm(f: Format) -> bool {
    !f.is_block_compressed()
        && f.kind() == ChannelKind::Unorm
        && !f.channel_bits().is_empty()
        && f.channel_bits().iter().all(|&b| b == 8)
}
