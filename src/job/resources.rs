//! Buffers and constant buffers resolved against the shader's declarations
//! and RDEF: slots by name, views, formats, sizes, contents and expectations.

pub(super) fn f32_close(want: u32, have: u32, ulps: u32, abs: Option<f64>) -> bool {
    if want == have {
        return true;
    }
    let (a, b) = (f32::from_bits(want), f32::from_bits(have));
    if a.is_nan() && b.is_nan() {
        return true;
    }
    if let Some(tol) = abs {
        if ((a as f64) - (b as f64)).abs() <= tol {
            return true;
        }
    }
    // distance in units in the last place, on the ordered integer line
    let key = |x: u32| {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7fff_ffff) as i64)
        } else {
            x as i64
        }
    };
    (key(want) - key(have)).unsigned_abs() <= ulps as u64
}

pub(super) fn value_text(v: &toml::Value) -> String {
    let mut t = v.clone();
    let mut previews = Vec::new();
    if let Some(t) = t.as_table_mut() {
        t.remove("resource");
        for (k, v) in t.iter_mut() {
            if let Some(p) = bulk::preview(v) {
                previews.push((format!("{k} = {v}"), format!("{k} = {p}")));
            }
        }
    }
    let mut s = t.to_string();
    for (marker, preview) in previews {
        s = s.replace(&marker, &preview);
    }
    if s.len() > 80 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(77).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

pub(super) fn take_u32(t: &mut toml::Table, key: &str) -> Result<Option<u32>, String> {
    match t.remove(key) {
        None => Ok(None),
        Some(toml::Value::Integer(v)) => u32::try_from(v)
            .map(Some)
            .map_err(|_| format!("{key} = {v} does not fit a u32")),
        Some(other) => Err(format!("{key} must be an integer, not {other}")),
    }
}

pub(super) fn parse_content(mut t: toml::Table) -> Result<Content, String> {
    // long lists cut out of the text (bulk.rs) are read from it here
    let mut lists = Vec::new();
    for (key, kind) in [
        ("u32", bulk::Kind::U32),
        ("i32", bulk::Kind::I32),
        ("f32", bulk::Kind::F32),
    ] {
        if let Some(words) = t.get(key).and_then(|v| bulk::take(v, kind)) {
            t.insert(key.into(), toml::Value::Array(Vec::new()));
            lists.push((kind, words?));
        }
    }
    let mut c: Content = toml::Value::Table(t)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    for (kind, words) in lists {
        match kind {
            bulk::Kind::U32 => c.u32 = Some(words),
            bulk::Kind::I32 => c.i32 = Some(words.into_iter().map(|w| w as i32).collect()),
            bulk::Kind::F32 => c.f32 = Some(words.into_iter().map(f32::from_bits).collect()),
        }
    }
    if c.count() != 1 {
        return Err("give exactly one of u32, i32, f32, fill_u32, fill_f32, iota_u32, iota_f32, random_u32, random_f32, file, fields (textures also: fill_texel, png)".into());
    }
    Ok(c)
}

pub(super) fn parse_check(mut t: toml::Table, counter: Option<u32>) -> Result<Check, String> {
    if let Some(c) = counter {
        return if t.is_empty() {
            Ok(Check::Counter(c))
        } else {
            Err("counter is checked on its own".into())
        };
    }
    for (key, make) in [
        ("sum_u32", Check::SumU32 as fn(u32) -> Check),
        ("min_u32", Check::MinU32),
        ("max_u32", Check::MaxU32),
    ] {
        if let Some(v) = take_u32(&mut t, key)? {
            return if t.is_empty() {
                Ok(make(v))
            } else {
                Err(format!("{key} is checked on its own"))
            };
        }
    }
    let tolerance = take_u32(&mut t, "tolerance")?;
    if let Some(p) = t.remove("png") {
        let toml::Value::String(p) = p else {
            return Err("png must be a file name".into());
        };
        return if t.is_empty() {
            Ok(Check::Png {
                path: PathBuf::from(p),
                tolerance: tolerance.unwrap_or(0),
            })
        } else {
            Err("png is compared on its own (with tolerance = N)".into())
        };
    }
    if tolerance.is_some() {
        return Err("tolerance applies to png expectations (ulps and abs to float forms)".into());
    }
    let ulps = take_u32(&mut t, "ulps")?.unwrap_or(0);
    let abs = match t.remove("abs") {
        None => None,
        Some(toml::Value::Float(f)) if f >= 0.0 => Some(f),
        Some(toml::Value::Integer(i)) if i >= 0 => Some(i as f64),
        Some(_) => return Err("abs must be a non-negative number".into()),
    };
    let content = parse_content(t)?;
    if content.fill_texel.is_some() {
        return Err(
            "expect compares a texture's raw words (u32, fill_u32, …) or its texels with png = \"FILE\"; fill_texel only initialises".into(),
        );
    }
    let npy = content.file.as_ref().is_some_and(|f| crate::npy::is_npy(f));
    if (ulps > 0 || abs.is_some()) && !content.is_float() && !npy {
        return Err(
            "ulps and abs apply to float expectations (f32, fill_f32, iota_f32, random_f32, or a .npy file of floats)".into(),
        );
    }
    Ok(Check::Words {
        content: Box::new(content),
        ulps,
        abs,
    })
}

/// The HLSL name of sampler `s#` in RDEF.
pub(super) fn rdef_sampler_name(program: &Program, slot: u32) -> Option<String> {
    let refl = program.reflection.as_ref()?;
    refl.bindings
        .iter()
        .find(|b| b.input_type == InputType::Sampler && b.bind_point == slot)
        .map(|b| b.name.clone())
}

pub(super) use crate::api::{
    check_return_type, constant_buffer_size, declared_names, rdef_name,
    shader_rdef_texture as rdef_texture,
};
use crate::api::{ApiError, Shader};
use crate::compiler::HlslRequest;
use crate::job::content::{check_generators, generate};
use crate::job::schema::{Content, ResourceSpec, ShaderSpec};
use crate::job::textures::{resolve_texture, TextureDeclared};
use crate::job::{bulk, parse_slot, Check, Compare, JobResource, Slot, SlotKind, Storage, View};
use crate::memory::MemoryBudget;
use sim_core::front::rdef::InputType;
use sim_core::program::{BufferDeclKind, Program};
use sim_mem::{Buffer, Format, ViewDimension};
use std::path::{Path, PathBuf};

pub(super) type KeyErr = (String, String);

/// Resource `name` resolved against `shader`'s declarations at its slot:
/// `at` when given (a several-shader job's reference, [`super::device`]),
/// else `slot` or the name's slot in RDEF.
pub(super) fn resolve_resource(
    name: &str,
    spec: &ResourceSpec,
    shader: &Shader,
    base: &Path,
    budget: &mut MemoryBudget,
    at: Option<Slot>,
) -> Result<JobResource, KeyErr> {
    let program = shader.program();
    let e = |k: &str, m: String| (k.to_string(), m);
    // Slot: given, or found by name in RDEF.
    let binding = program.reflection.as_ref().and_then(|r| r.binding(name));
    let slot = match (&spec.slot, binding) {
        _ if at.is_some() => at.unwrap_or(Slot {
            kind: SlotKind::Uav,
            index: 0,
        }),
        (Some(s), _) => parse_slot(s).ok_or_else(|| {
            if s.trim().to_ascii_lowercase().starts_with('s') {
                e(
                    "slot",
                    format!("'{s}' is a sampler slot; samplers go under [samplers.NAME]"),
                )
            } else {
                e("slot", format!("'{s}' is not a slot like t0, u1, cb0"))
            }
        })?,
        // by name, as the API binds: an RDEF name, or a key that is a slot name
        (None, _) => shader.slot(name).map_err(|err| match err {
            ApiError::UnknownName { declared, .. } => e(
                "slot",
                format!(
                    "'{name}' is neither a resource name in the shader's RDEF nor a slot name; {declared}"
                ),
            ),
            // a sampler's name
            ApiError::Shader { .. } => e(
                "",
                format!("'{name}' is a sampler in the shader; bind it under [samplers.{name}]"),
            ),
            other => e("slot", other.to_string()),
        })?,
    };
    // View, checked against the shader's declaration.
    let declared = match slot.kind {
        SlotKind::Srv => program.srv(slot.index).map(|d| d.kind),
        SlotKind::Uav => program.uav(slot.index).map(|d| d.kind),
        SlotKind::ConstantBuffer => None,
    };
    // A texture: a texture view named, or the shader (or RDEF) declaring one.
    let texture_decl = match slot.kind {
        SlotKind::Srv => program.srv_texture(slot.index),
        SlotKind::Uav => program.uav_texture(slot.index),
        SlotKind::ConstantBuffer => None,
    };
    let rdef = if declared.is_none() && texture_decl.is_none() {
        rdef_texture(program, slot)
    } else {
        None
    };
    let given_dimension = spec.view.as_deref().and_then(ViewDimension::from_name);
    if given_dimension.is_some()
        || (spec.view.is_none() && (texture_decl.is_some() || rdef.is_some()))
    {
        return resolve_texture(
            budget,
            name,
            spec,
            slot,
            TextureDeclared {
                given: given_dimension,
                decl: texture_decl,
                rdef,
                buffer: declared,
            },
            program,
            base,
        );
    }
    if let Some(d) = texture_decl {
        return Err(e(
            "view",
            format!(
                "the shader declares {slot} as a {0}; give view = \"{0}\" (or leave view out), format and width",
                d.dimension.name()
            ),
        ));
    }
    let buffer_view = matches!(
        spec.view.as_deref(),
        None | Some("raw" | "structured" | "typed" | "constant")
    );
    for (key, given) in spec.texture_keys() {
        if given && buffer_view {
            return Err(e(
                key,
                format!("{key} belongs to textures (view = \"texture2d\", …); this is a buffer"),
            ));
        }
    }
    let view = match spec.view.as_deref() {
        Some("typed") => View::Typed(typed_format(spec)?),
        Some("constant") => View::Constant,
        Some("raw") => View::Raw,
        Some("structured") => View::Structured(match (spec.stride, declared) {
            (Some(s), _) => s,
            (None, Some(BufferDeclKind::Structured { stride })) => stride,
            _ => {
                return Err(e(
                    "stride",
                    "a structured view needs stride = N (bytes)".into(),
                ))
            }
        }),
        Some(other) => {
            let textures: Vec<_> = ViewDimension::ALL.iter().map(|d| d.name()).collect();
            return Err(e(
                "view",
                format!(
                    "'{other}' is not raw, structured, typed, constant or a texture view ({})",
                    textures.join(", ")
                ),
            ));
        }
        None => match (slot.kind, declared) {
            (SlotKind::ConstantBuffer, _) => View::Constant,
            (_, Some(BufferDeclKind::Raw)) => View::Raw,
            (_, Some(BufferDeclKind::Structured { stride })) => {
                View::Structured(spec.stride.unwrap_or(stride))
            }
            (_, Some(BufferDeclKind::Typed { .. })) => View::Typed(typed_format(spec)?),
            (_, None) => {
                // a slot given that the shader does not declare: most often
                // the wrong slot for a name the shader binds elsewhere
                let moved =
                    binding.filter(|b| spec.slot.is_some() && b.input_type != InputType::Sampler);
                return Err(match moved {
                    Some(b) => e(
                        "slot",
                        format!(
                            "the shader declares '{name}' at {}{}, not {slot}; leave slot out or give slot = \"{0}{1}\"",
                            b.input_type.register_prefix(),
                            b.bind_point
                        ),
                    ),
                    None => e(
                        if spec.slot.is_some() { "slot" } else { "view" },
                        format!(
                            "the shader declares nothing at {slot}; {} (an undeclared slot needs view = \"raw\", \"structured\" or \"typed\")",
                            declared_names(program)
                        ),
                    ),
                });
            }
        },
    };
    crate::api::check_buffer_view(slot, view, declared).map_err(|p| e(p.key, p.message))?;
    if spec.format.is_some() && !matches!(view, View::Typed(_)) {
        return Err(e(
            "format",
            "formats belong to typed views (view = \"typed\")".into(),
        ));
    }
    if spec.counter.is_some() && slot.kind != SlotKind::Uav {
        return Err(e("counter", "only UAVs have a hidden counter".into()));
    }
    if spec.counter.is_some() && !matches!(view, View::Structured(_)) {
        return Err(e(
            "counter",
            "D3D11 gives a hidden counter (D3D11_BUFFER_UAV_FLAG_APPEND or _COUNTER) to structured buffers' UAVs only".into(),
        ));
    }
    let compare = match spec.compare.as_deref() {
        None if program.counter_uavs().contains(&slot.index) => Compare::Multiset,
        None | Some("exact") => Compare::Exact,
        Some("multiset") => Compare::Multiset,
        Some(other) => {
            return Err(e(
                "compare",
                format!("expected \"exact\" or \"multiset\", not {other:?}"),
            ))
        }
    };
    if spec.compare.is_some() && slot.kind != SlotKind::Uav {
        return Err(e(
            "compare",
            "only UAVs are compared between schedules".into(),
        ));
    }
    let content = match &spec.init {
        Some(toml::Value::Table(t)) => Some(parse_content(t.clone()).map_err(|m| e("init", m))?),
        Some(_) => {
            return Err(e(
                "init",
                "expected a table such as { fill_u32 = 0 } (lists of per-subresource tables are for textures)".into(),
            ))
        }
        None => None,
    };
    // Size.
    let element_bytes = view
        .element_bytes()
        .ok_or_else(|| e("view", "textures are resolved apart".into()))?;
    let size = match (spec.elements, spec.size_bytes) {
        (Some(_), Some(_)) => return Err(e("", "give elements or size_bytes, not both".into())),
        (Some(n), None) => n
            .checked_mul(element_bytes)
            .ok_or_else(|| e("elements", "too large".into()))?,
        (None, Some(b)) => b,
        (None, None) => {
            let natural = match &content {
                Some(c) => c.natural_words(base, view).map_err(|m| e("init", m))?,
                None => None,
            };
            match (natural, view) {
                (Some(w), _) => w as u64 * 4,
                (None, View::Constant) => constant_buffer_size(program, slot.index),
                _ => return Err(e("", "give elements = N or size_bytes = N".into())),
            }
        }
    };
    // the key the size came from, for the rules below
    let size_key = if spec.size_bytes.is_some() {
        "size_bytes"
    } else if spec.elements.is_some() {
        "elements"
    } else {
        "init"
    };
    crate::api::check_buffer_size(size, view)
        .map_err(|p| e(if p.key == "size" { size_key } else { p.key }, p.message))?;
    budget.charge(size).map_err(|m| e("", m))?;
    let buffer = Buffer::zeroed(size as usize).map_err(|m| e("", m.to_string()))?;
    let mut r = JobResource {
        name: name.to_string(),
        slot,
        view,
        storage: Storage::Buffer(buffer).into(),
        compare,
        uav: slot.kind == SlotKind::Uav,
        layout: 0,
        indirect_args: false,
    };
    if let Some(c) = &content {
        check_content(c, &r, program, base, true).map_err(|m| content_key("init", m))?;
        let words =
            generate(c, r.data().len_words(), program, &r, base).map_err(|m| e("init", m))?;
        r.data()
            .write_words(0, &words)
            .map_err(|m| e("init", m.to_string()))?;
    }
    if let Some(c) = spec.counter {
        r.data()
            .counter()
            .store(c, sim_mem::sync::Ordering::Relaxed);
    }
    r.name = name.to_string();
    Ok(r)
}

/// The compilation a job's HLSL shader asks for; include dirs are relative
/// to the job file. Errors are (TOML key, message).
pub(super) fn hlsl_request(
    file: &ShaderSpec,
    shader: &Path,
    base: &Path,
) -> Result<HlslRequest, KeyErr> {
    let mut req = HlslRequest::new(shader);
    for (key, value) in [("entry", &file.entry), ("profile", &file.profile)] {
        if let Some(v) = value {
            if v.is_empty() || v.chars().any(char::is_whitespace) {
                return Err((key.into(), format!("'{v}' is not a name")));
            }
        }
    }
    if let Some(e) = &file.entry {
        req.entry = e.clone();
    }
    if let Some(p) = &file.profile {
        req.profile = p.clone();
    }
    for (name, value) in file.defines.iter().flatten() {
        let key = format!("defines.{name}");
        if name.is_empty() || name.contains('=') || name.chars().any(char::is_whitespace) {
            return Err((key, format!("'{name}' is not a macro name")));
        }
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => u8::from(*b).to_string(),
            _ => {
                return Err((
                    key,
                    "expected a string (or a number or boolean), as in NAME = \"VALUE\"".into(),
                ))
            }
        };
        req.defines.insert(name.clone(), text);
    }
    req.include_dirs = file
        .include_dirs
        .iter()
        .flatten()
        .map(|d| base.join(d))
        .collect();
    Ok(req)
}

pub(super) fn typed_format(spec: &ResourceSpec) -> Result<Format, KeyErr> {
    let name = spec.format.as_deref().ok_or_else(|| {
        (
            "format".to_string(),
            "a typed view needs format = \"R32_UINT\" (a DXGI format name)".to_string(),
        )
    })?;
    crate::api::typed_format(name).map_err(|m| ("format".to_string(), m))
}

/// Check that `c` fits resource `r` exactly (lists and files must have as many words).
pub(super) fn check_content(
    c: &Content,
    r: &JobResource,
    program: &Program,
    base: &Path,
    _init: bool,
) -> Result<(), String> {
    check_content_words(c, r, r.data().len_words(), program, base)
}

/// [`check_content`] for contents of `words` 32-bit words of `r` (an
/// expectation's element range, or the whole resource).
pub(super) fn check_content_words(
    c: &Content,
    r: &JobResource,
    words: usize,
    program: &Program,
    base: &Path,
) -> Result<(), String> {
    if c.is_texel_form() && r.texture().is_none() {
        return Err(format!(
            "{} is for textures; '{}' is a buffer",
            c.form(),
            r.name
        ));
    }
    if c.file.as_ref().is_some_and(|f| crate::npy::is_npy(f)) {
        // the file's dtype and shape against the resource, expected and given
        return generate(c, words, program, r, base).map(drop);
    }
    if let Some(n) = c.natural_words(base, r.view)? {
        if n != words {
            let whole = r.data().len_words();
            return Err(if words == whole {
                format!(
                    "{n} values given but '{}' holds {words} 32-bit words",
                    r.name
                )
            } else {
                format!(
                    "{n} values given but the elements selected by first and count hold {words} 32-bit words"
                )
            });
        }
    }
    check_generators(c)?;
    if c.fields.is_some() {
        if r.view != View::Constant {
            return Err("fields = {...} initialises constant buffers only".into());
        }
        generate(c, words, program, r, base)?;
    }
    Ok(())
}

/// Every file a `file` or `png` key below `v` names, joined to `base`.
pub(super) fn named_files(v: &toml::Value, base: &Path, out: &mut Vec<PathBuf>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                match (k.as_str(), v) {
                    ("file" | "png", toml::Value::String(f)) => out.push(base.join(f)),
                    _ => named_files(v, base, out),
                }
            }
        }
        toml::Value::Array(a) => a.iter().for_each(|v| named_files(v, base, out)),
        _ => {}
    }
}

/// The 32-bit words of elements `first .. first + count` of buffer `r`
/// (`count` defaults to the rest): an element is a word of a raw view, a
/// structure of a structured view, an element of a typed view whose format
/// is a whole number of words, a 16-byte register of a constant buffer.
///
/// # Errors
/// `(key, message)`: a texture, a typed format smaller than a word, a count
/// of 0, or a range past the last element.
pub(super) fn expect_range(
    r: &JobResource,
    first: Option<u32>,
    count: Option<u32>,
) -> Result<std::ops::Range<usize>, (String, String)> {
    let key = if first.is_some() { "first" } else { "count" };
    let err = |k: &str, m: String| Err((k.to_string(), m));
    let element_bytes = match r.view {
        View::Typed(f) if f.size_bytes() % 4 != 0 => {
            return err(
                key,
                format!(
                    "'{}' is a typed view of {}, whose {}-byte elements are not whole 32-bit words; compare the whole resource",
                    r.name,
                    f.name(),
                    f.size_bytes()
                ),
            )
        }
        View::Texture { .. } => {
            return err(
                key,
                format!("'{}' is a texture; first and count select buffer elements", r.name),
            )
        }
        v => v.element_bytes().unwrap_or(4) as usize,
    };
    let per = element_bytes / 4;
    let elements = r.data().len_words() / per;
    let first = first.unwrap_or(0) as usize;
    let count = match count {
        Some(0) => return err("count", "count must be at least 1".into()),
        Some(c) => c as usize,
        None => elements.saturating_sub(first),
    };
    if first >= elements || first + count > elements {
        return err(
            if first >= elements { "first" } else { "count" },
            format!(
                "elements {first}..{} are not all in '{}', which holds {elements} elements of {element_bytes} bytes",
                first + count,
                r.name
            ),
        );
    }
    Ok(first * per..(first + count) * per)
}

/// `fields = { name = value }` for a constant buffer, placed as HLSL packs
/// each variable ([`crate::cbuffer`]). An error about one value is reported
/// with its path bracketed by [`FIELD_ERROR`] ([`content_key`] moves the
/// path into the key).
pub(super) fn cbuffer_fields(
    fields: &toml::Table,
    n: usize,
    program: &Program,
    r: &JobResource,
) -> Result<Vec<u32>, String> {
    pack_cbuffer(fields, program, r, vec![0; n])
}

/// `fields` placed over `words`, by `r`'s layout in `program`.
fn pack_cbuffer(
    fields: &toml::Table,
    program: &Program,
    r: &JobResource,
    words: Vec<u32>,
) -> Result<Vec<u32>, String> {
    let cb = program
        .reflection
        .as_ref()
        .and_then(|refl| cbuffer_of(refl, r))
        .ok_or_else(|| {
            format!(
                "the shader has no reflection (RDEF) for {} ('{}'); give u32 = [...] instead",
                r.slot, r.name
            )
        })?;
    crate::cbuffer::pack_fields_over(fields, cb, words)
        .map_err(|e| format!("{FIELD_ERROR}{}{FIELD_ERROR}{}", e.path, e.message))
}

/// The layout of constant buffer `r` in a shader's RDEF: the cbuffer at its
/// slot when it has `r`'s name, else the one of `r`'s name (a job with
/// `[shaders]` whose `set` names a shader in which `r` sits at another
/// slot), else the one at its slot (a single-shader job's resource keyed
/// by a label).
fn cbuffer_of<'r>(
    refl: &'r sim_core::front::rdef::Reflection,
    r: &JobResource,
) -> Option<&'r sim_core::front::rdef::CbufferDesc> {
    let at = refl.cbuffer_at(r.slot.index);
    match at {
        Some(c) if c.name == r.name => Some(c),
        _ => refl.cbuffer_named(&r.name).or(at),
    }
}

/// [`cbuffer_fields`] over constant buffer `r`'s current words: the
/// variables named change, the others keep their values (a `set` step).
pub(super) fn cbuffer_fields_over(
    fields: &toml::Table,
    program: &Program,
    r: &JobResource,
) -> Result<Vec<u32>, String> {
    pack_cbuffer(fields, program, r, r.data().to_words())
}

/// The key and message of a contents error at `key` (`init`,
/// `steps[2].set`): an error about one value of `fields` names that value,
/// `KEY.fields.w[1]`, so that the position points at it.
pub(super) fn content_key(key: &str, message: String) -> (String, String) {
    if let Some((path, m)) = message
        .strip_prefix(FIELD_ERROR)
        .and_then(|rest| rest.split_once(FIELD_ERROR))
    {
        return (format!("{key}.fields.{path}"), m.to_string());
    }
    (key.to_string(), message)
}

/// Brackets the path of a `fields` error in its message (NUL: no file
/// name contains it, so a message about a file is never taken for one).
pub(super) const FIELD_ERROR: &str = "\u{0}";
