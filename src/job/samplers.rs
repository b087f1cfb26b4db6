//! Samplers resolved against the shader's declarations (`docs/jobs.md`).

use crate::job::resources::KeyErr;
use crate::job::schema::SamplerSpec;
use crate::job::Sampler;
use sim_core::front::rdef::InputType;
use sim_core::program::Program;
use sim_mem::{AddressMode, ComparisonFunc, Filter, SamplerDesc};
pub(super) fn resolve_sampler(
    name: &str,
    spec: &SamplerSpec,
    program: &Program,
) -> Result<Sampler, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    let binding = program.reflection.as_ref().and_then(|r| r.binding(name));
    let slot = match (&spec.slot, binding) {
        (Some(s), _) => s
            .trim()
            .to_ascii_lowercase()
            .strip_prefix('s')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n < 16)
            .ok_or_else(|| e("slot", format!("'{s}' is not a sampler slot s0 … s15")))?,
        (None, Some(b)) if b.input_type == InputType::Sampler => b.bind_point,
        (None, Some(b)) => {
            return Err(e(
                "slot",
                format!(
                    "'{name}' is a {}# resource in the shader, not a sampler; resources go under [resources.{name}]",
                    b.input_type.register_prefix()
                ),
            ))
        }
        (None, None) => {
            return Err(e(
                "slot",
                format!("'{name}' is not a sampler name in the shader's RDEF; give slot = \"s0\""),
            ))
        }
    };
    let mut d = SamplerDesc::default();
    if let Some(f) = &spec.filter {
        d.filter = Filter::from_name(f).ok_or_else(|| {
            e(
                "filter",
                format!("'{f}' is not a D3D11_FILTER name (e.g. MIN_MAG_MIP_LINEAR, MIN_MAG_MIP_POINT, MIN_MAG_LINEAR_MIP_POINT, ANISOTROPIC, COMPARISON_MIN_MAG_MIP_LINEAR)"),
            )
        })?;
    }
    let mode = |key: &str, v: &str| {
        AddressMode::from_name(v).ok_or_else(|| {
            e(
                key,
                format!("'{v}' is not WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE"),
            )
        })
    };
    if let Some(a) = &spec.address {
        d.address = [mode("address", a)?; 3];
    }
    for (i, (key, v)) in [
        ("address_u", &spec.address_u),
        ("address_v", &spec.address_v),
        ("address_w", &spec.address_w),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(v) = v {
            d.address[i] = mode(key, v)?;
        }
    }
    if let Some(c) = &spec.comparison {
        d.comparison = ComparisonFunc::from_name(c).ok_or_else(|| {
            let known: Vec<_> = ComparisonFunc::ALL.iter().map(|f| f.name()).collect();
            e(
                "comparison",
                format!("'{c}' is not a comparison ({})", known.join(", ")),
            )
        })?;
    }
    if let Some(b) = &spec.border_color {
        d.border_color = <[f32; 4]>::try_from(b.as_slice()).map_err(|_| {
            e(
                "border_color",
                format!("needs 4 values [r, g, b, a], not {}", b.len()),
            )
        })?;
    }
    if let Some(v) = spec.mip_lod_bias {
        d.mip_lod_bias = v;
    }
    if let Some(v) = spec.max_anisotropy {
        d.max_anisotropy = v;
    }
    if let Some(v) = spec.min_lod {
        d.min_lod = v;
    }
    if let Some(v) = spec.max_lod {
        d.max_lod = v;
    }
    d.validate().map_err(|m| {
        let key = [
            ("max_anisotropy", spec.max_anisotropy.is_some()),
            ("mip_lod_bias", spec.mip_lod_bias.is_some()),
            ("min_lod", spec.min_lod.is_some()),
            ("max_lod", spec.max_lod.is_some()),
        ]
        .into_iter()
        .find(|(k, given)| *given && m.starts_with(k))
        .map_or("", |(k, _)| k);
        e(key, m)
    })?;
    Ok(Sampler {
        name: name.to_string(),
        slot,
        desc: d,
    })
}
