//! Jobs of several shaders (`[shaders.NAME]`): the device model of
//! `docs/job-files.md` ("Several shaders"). Resources are device objects,
//! resolved once against a shader that declares them (their creation
//! description and default view); each dispatch step binds its shader's
//! slots afresh, from its own `bind` table and by name, as the immediate
//! context's CS state at that `Dispatch`.

use crate::api::{ApiError, Kernel, Shader};
use crate::job::resources::{rdef_name, rdef_sampler_name, rdef_texture, take_u32, KeyErr};
use crate::job::{JobResource, Sampler, Slot, SlotKind, View};
use sim_core::front::rdef::InputType;
use sim_mem::{Format, ViewDimension};
use std::sync::Arc;

/// A named shader of the job.
#[derive(Debug, Clone)]
pub struct JobShader {
    /// its key in `[shaders]` (empty for a single-shader job's `shader`)
    pub name: String,
    /// the loaded shader
    pub shader: Arc<Shader>,
}

/// The slot index of a resource that no shader declares by its name nor
/// binds (a copy's source or destination, indirect arguments): its
/// [`JobResource::slot`] has this index, which no shader can declare.
pub const UNBOUND_SLOT: u32 = u32::MAX;

/// A `bind` value of a dispatch step, parsed.
pub(super) enum BindValue {
    /// `"null"`: D3D11's null view
    Null,
    /// a resource key, with the view keys given (empty: its default view)
    /// and a buffer view's element range (`first_element`, `elements`)
    Resource {
        name: String,
        view: toml::Table,
        elements: Option<(u64, u64)>,
    },
}

/// The view keys a `bind` table takes besides `resource`.
const VIEW_KEYS: [&str; 8] = [
    "view",
    "format",
    "stride",
    "mip",
    "mip_count",
    "first_slice",
    "slice_count",
    "most_detailed_mip",
];

pub(super) fn parse_bind_value(v: &toml::Value) -> Result<BindValue, String> {
    match v {
        toml::Value::String(s) if s == "null" => Ok(BindValue::Null),
        toml::Value::String(s) => Ok(BindValue::Resource {
            name: s.clone(),
            view: toml::Table::new(),
            elements: None,
        }),
        toml::Value::Table(t) => {
            let mut t = t.clone();
            let name = match t.remove("resource") {
                Some(toml::Value::String(s)) => s,
                _ => return Err("a bind table needs resource = \"NAME\"".into()),
            };
            let first = take_u32(&mut t, "first_element")?;
            let count = take_u32(&mut t, "elements")?;
            let elements = match (first, count) {
                (None, None) => None,
                (f, Some(c)) => Some((u64::from(f.unwrap_or(0)), u64::from(c))),
                (Some(_), None) => {
                    return Err(
                        "first_element needs elements = N (NumElements), the range's length"
                            .into(),
                    )
                }
            };
            if let Some(k) = t.keys().find(|k| !VIEW_KEYS.contains(&k.as_str())) {
                return Err(format!(
                    "unknown key '{k}' in a bind table (it takes resource, view, format, stride, first_element, elements, mip, mip_count, first_slice, slice_count)"
                ));
            }
            Ok(BindValue::Resource {
                name,
                view: t,
                elements,
            })
        }
        other => Err(format!(
            "expected a resource name, \"null\" or a table {{ resource = \"NAME\", mip = 1, … }}, not {other}"
        )),
    }
}

/// The shader and slot a resource of a several-shader job is resolved
/// against: the first shader (in the order of the dispatch steps, then of
/// `[shaders]`) whose RDEF declares its key; else, when the resource does
/// not give its own `view` (`described`), the first dispatch step whose
/// `bind` names it; else none (it is described by its own keys, and each
/// binding is checked at its step).
pub(super) fn reference_of(
    key: &str,
    described: bool,
    shaders: &[JobShader],
    order: &[usize],
    binds: &[(usize, String, String)],
) -> Option<(usize, Slot)> {
    for &s in order {
        let shader = &shaders[s].shader;
        let declared = (shader.program().reflection.as_ref())
            .and_then(|r| r.binding(key))
            .is_some_and(|b| b.input_type != InputType::Sampler);
        if declared {
            if let Ok(slot) = shader.slot(key) {
                return Some((s, slot));
            }
        }
    }
    if described {
        return None;
    }
    binds
        .iter()
        .find(|b| b.2 == key)
        .and_then(|(s, slot, _)| shaders[*s].shader.slot(slot).ok().map(|slot| (*s, slot)))
}

/// The default view of resource `r` at `slot` of `shader`: its own view
/// for a buffer; for a texture, the dimension the shader declares there
/// (else its own) with its format and range.
pub(super) fn default_view(shader: &Shader, slot: Slot, r: &JobResource) -> View {
    match r.view {
        View::Texture {
            dimension,
            format,
            range,
        } => {
            let declared = shader
                .texture_decl(slot)
                .map(|d| d.dimension)
                .or_else(|| rdef_texture(shader.program(), slot).map(|d| d.0));
            View::Texture {
                dimension: declared.unwrap_or(dimension),
                format,
                range,
            }
        }
        v => v,
    }
}

/// The view a `bind` table asks for: `r`'s default view at `slot` with the
/// keys given changed.
pub(super) fn bind_view(
    shader: &Shader,
    slot: Slot,
    r: &JobResource,
    keys: &toml::Table,
) -> Result<View, String> {
    let mut view = default_view(shader, slot, r);
    let mut t = keys.clone();
    let format = match t.remove("format") {
        None => None,
        Some(toml::Value::String(f)) => Some(
            Format::from_name(&f)
                .ok_or_else(|| format!("format: '{f}' is not a DXGI format name"))?,
        ),
        Some(other) => return Err(format!("format must be a DXGI format name, not {other}")),
    };
    let given_view = match t.remove("view") {
        None => None,
        Some(toml::Value::String(v)) => Some(v),
        Some(other) => return Err(format!("view must be a name, not {other}")),
    };
    let stride = take_u32(&mut t, "stride")?;
    let mip = take_u32(&mut t, "mip")?.or(take_u32(&mut t, "most_detailed_mip")?);
    let mip_count = take_u32(&mut t, "mip_count")?;
    let first_slice = take_u32(&mut t, "first_slice")?;
    let slice_count = take_u32(&mut t, "slice_count")?;
    match &mut view {
        View::Texture {
            dimension,
            format: f,
            range,
        } => {
            if stride.is_some() {
                return Err(format!(
                    "stride belongs to structured buffer views; '{}' is a texture",
                    r.name
                ));
            }
            if let Some(v) = given_view {
                *dimension = ViewDimension::from_name(&v).ok_or_else(|| {
                    format!("view: '{v}' is not a texture view dimension (texture2d, texture2darray, …)")
                })?;
            }
            if let Some(fmt) = format {
                *f = fmt;
            }
            if let Some(m) = mip {
                range.first_mip = m;
                if range.mip_count.is_some() && mip_count.is_none() {
                    range.mip_count = None;
                }
            }
            if mip_count.is_some() {
                range.mip_count = mip_count;
            }
            if let Some(s) = first_slice {
                range.first_slice = s;
                if range.slice_count.is_some() && slice_count.is_none() {
                    range.slice_count = None;
                }
            }
            if slice_count.is_some() {
                range.slice_count = slice_count;
            }
        }
        buffer => {
            if let Some(k) = [
                ("mip", mip.is_some()),
                ("mip_count", mip_count.is_some()),
                ("first_slice", first_slice.is_some()),
                ("slice_count", slice_count.is_some()),
            ]
            .iter()
            .find(|k| k.1)
            {
                return Err(format!(
                    "{} belongs to texture views; '{}' is a buffer",
                    k.0, r.name
                ));
            }
            *buffer = match given_view.as_deref() {
                None => match (*buffer, format, stride) {
                    (View::Typed(_), Some(f), _) => View::Typed(f),
                    (View::Structured(_), _, Some(s)) => View::Structured(s),
                    (v, None, None) => v,
                    (_, Some(_), _) => {
                        return Err("format needs a typed view (view = \"typed\")".into())
                    }
                    (_, _, Some(_)) => {
                        return Err("stride needs a structured view (view = \"structured\")".into())
                    }
                },
                Some("raw") => View::Raw,
                Some("constant") => View::Constant,
                Some("structured") => View::Structured(match (stride, *buffer) {
                    (Some(s), _) => s,
                    (None, View::Structured(s)) => s,
                    _ => return Err("a structured view needs stride = N (bytes)".into()),
                }),
                Some("typed") => View::Typed(match (format, *buffer) {
                    (Some(f), _) => f,
                    (None, View::Typed(f)) => f,
                    _ => {
                        return Err(
                            "a typed view needs format = \"R32_UINT\" (a DXGI format name)".into(),
                        )
                    }
                }),
                Some(other) => {
                    return Err(format!(
                    "view: '{other}' is not raw, structured, typed or constant ('{}' is a buffer)",
                    r.name
                ))
                }
            };
        }
    }
    Ok(view)
}

/// The kernel of dispatch step `i` of `shader`: its `bind` table's
/// bindings, then the resources named as the shader's declared slots, the
/// samplers likewise. Marks the resources bound at a `u#` slot in
/// `uav_bound`; an SRV displaced by a UAV of the same subresources is a
/// warning. Errors are (TOML key, message).
pub(super) fn step_kernel(
    i: usize,
    shader: &JobShader,
    bind: Option<&toml::Value>,
    resources: &[JobResource],
    samplers: &[Sampler],
    uav_bound: &mut [bool],
    warnings: &mut Vec<String>,
) -> Result<Kernel, KeyErr> {
    let s = &shader.shader;
    let program = s.program();
    let mut k = Kernel::new(s.clone());
    let bkey = format!("steps[{i}].bind");
    let mut bound_by: Vec<(Slot, String)> = Vec::new();
    let mut attach = |k: &mut Kernel, key: &str, name: &str, slot: Slot, ri: usize, view: View| {
        let r = &resources[ri];
        k.bind_view_at(&r.name, slot, &r.storage, view)
            .map_err(|e| {
                let m = match e {
                    ApiError::Binding { message, .. } => message,
                    other => other.to_string(),
                };
                (
                    key.to_string(),
                    format!(
                        "'{}' at {slot} ('{name}') of shader '{}': {m}",
                        r.name, shader.name
                    ),
                )
            })?;
        if slot.kind == SlotKind::Uav {
            uav_bound[ri] = true;
        }
        Ok::<(), KeyErr>(())
    };
    if let Some(b) = bind {
        let t = b.as_table().ok_or_else(|| {
            (
                bkey.clone(),
                "expected a table { NAME = \"RESOURCE\", … } (NAME: an HLSL name or a slot)"
                    .to_string(),
            )
        })?;
        for (name, v) in t {
            let ekey = format!("{bkey}.{name}");
            let slot = s.slot(name).map_err(|e| {
                let m = match e {
                    ApiError::UnknownName { declared, .. } => format!(
                        "shader '{}' has no resource '{name}' and it is no slot name; {declared}",
                        shader.name
                    ),
                    other => other.to_string(),
                };
                (ekey.clone(), m)
            })?;
            if let Some((_, other)) = bound_by.iter().find(|b| b.0 == slot) {
                return Err((
                    ekey,
                    format!("'{name}' and '{other}' are both {slot}; bind it once"),
                ));
            }
            bound_by.push((slot, name.clone()));
            match parse_bind_value(v).map_err(|m| (ekey.clone(), m))? {
                BindValue::Null => k.attach_null(name, slot),
                BindValue::Resource {
                    name: rname,
                    view,
                    elements,
                } => {
                    let ri = resources
                        .iter()
                        .position(|r| r.name == rname)
                        .ok_or_else(|| (ekey.clone(), format!("no resource named '{rname}'")))?;
                    let r = &resources[ri];
                    if slot.kind == SlotKind::ConstantBuffer && r.view != View::Constant {
                        return Err((
                            ekey,
                            format!("'{rname}' is not a constant buffer (view = \"constant\")"),
                        ));
                    }
                    let v = bind_view(s, slot, r, &view).map_err(|m| (ekey.clone(), m))?;
                    attach(&mut k, &ekey, name, slot, ri, v)?;
                    if let Some(range) = elements {
                        k.bind_elements_at(&r.name, slot, &r.storage, v, range)
                            .map_err(|e| {
                                let m = match e {
                                    ApiError::Binding { message, .. } => message,
                                    other => other.to_string(),
                                };
                                (ekey.clone(), format!("'{rname}' at {slot}: {m}"))
                            })?;
                    }
                }
            }
        }
    }
    // the declared slots not bound by the table: by name
    for slot in s.declared_slots() {
        if k.is_bound(slot) {
            continue;
        }
        let name = rdef_name(program, slot);
        let ri = name
            .as_deref()
            .and_then(|n| resources.iter().position(|r| r.name == n));
        let Some(ri) = ri else {
            let named = name
                .as_ref()
                .map(|n| format!(" ('{n}')"))
                .unwrap_or_default();
            let hint = name.as_deref().unwrap_or("");
            return Err((
                format!("steps[{i}]"),
                format!(
                    "shader '{}' declares {slot}{named}, which this step does not bind{}: add bind = {{ {} = \"RESOURCE\" }} (or \"null\")",
                    shader.name,
                    if hint.is_empty() {
                        String::new()
                    } else {
                        format!(" and no resource is named '{hint}'")
                    },
                    if hint.is_empty() { slot.to_string() } else { hint.to_string() }
                ),
            ));
        };
        let r = &resources[ri];
        let v = default_view(s, slot, r);
        attach(&mut k, &format!("steps[{i}]"), &r.name.clone(), slot, ri, v)?;
    }
    for decl in &program.samplers {
        let name = rdef_sampler_name(program, decl.slot);
        // by RDEF name; by slot only for a shader without the name
        let found = match &name {
            Some(n) => samplers.iter().find(|x| &x.name == n),
            None => samplers.iter().find(|x| x.slot == decl.slot),
        };
        let Some(x) = found else {
            return Err((
                format!("steps[{i}]"),
                format!(
                    "shader '{}' declares sampler s{}{}, and the job has no sampler of that name or slot; add [samplers.{}]",
                    shader.name,
                    decl.slot,
                    name.as_ref().map(|n| format!(" ('{n}')")).unwrap_or_default(),
                    name.as_deref().unwrap_or("NAME")
                ),
            ));
        };
        k.attach_sampler(&x.name, decl.slot, x.desc);
    }
    for ((srv, srv_name), (uav, _)) in k.srv_uav_hazards() {
        warnings.push(format!(
            "steps[{i}]: '{srv_name}' is bound as {srv} and as {uav} of shader '{}' at once; the SRV reads as null, as D3D11's runtime unbinds an SRV whose subresources a bound UAV holds",
            shader.name
        ));
    }
    Ok(k)
}

/// A `set` of `fields` on constant buffer `name` with no `shader` key: refused
/// when the shaders that declare it by name lay it out differently.
pub(super) fn check_unambiguous_layout(name: &str, shaders: &[JobShader]) -> Result<(), String> {
    let layouts: Vec<(&str, &sim_core::front::rdef::CbufferDesc)> = shaders
        .iter()
        .filter_map(|s| {
            let refl = s.shader.program().reflection.as_ref()?;
            refl.cbuffer_named(name).map(|c| (s.name.as_str(), c))
        })
        .collect();
    let Some((first, layout)) = layouts.first() else {
        return Ok(());
    };
    fn same_type(a: &sim_core::front::rdef::TypeDesc, b: &sim_core::front::rdef::TypeDesc) -> bool {
        (a.class, a.base_type, a.rows, a.columns, a.elements)
            == (b.class, b.base_type, b.rows, b.columns, b.elements)
            && a.members.len() == b.members.len()
            && (a.members.iter().zip(&b.members))
                .all(|(x, y)| x.0 == y.0 && x.1 == y.1 && same_type(&x.2, &y.2))
    }
    let same = |a: &sim_core::front::rdef::CbufferDesc, b: &sim_core::front::rdef::CbufferDesc| {
        a.variables.len() == b.variables.len()
            && a.variables.iter().zip(&b.variables).all(|(x, y)| {
                x.name == y.name
                    && x.offset == y.offset
                    && x.size == y.size
                    && same_type(&x.ty, &y.ty)
            })
    };
    if let Some((other, _)) = layouts.iter().find(|(_, l)| !same(layout, l)) {
        return Err(format!(
            "shaders '{first}' and '{other}' lay out cbuffer '{name}' differently; say whose layout fields take with shader = \"{first}\""
        ));
    }
    Ok(())
}
