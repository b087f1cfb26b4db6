//! `sm5sim info`: a human-readable summary of a shader.

use sm5sim::sim_core::front::disasm::disassemble_lines;
use sm5sim::sim_core::front::rdef::{InputType, Reflection, ResourceBinding};
use sm5sim::sim_core::ir::DecodedProgram;
use sm5sim::sim_core::isa::opcodes::{Class, Opcode};
use sm5sim::sim_core::{LoadError, Program};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// HLSL spelling of a typed SRV/UAV binding from its RDEF dimension, return
/// type and component count, e.g. `Texture2D<float4>`, `RWTexture2D<unorm float4>`.
fn typed_name(b: &ResourceBinding, uav: bool) -> String {
    const DIMS: [&str; 12] = [
        "?",
        "Buffer",
        "Texture1D",
        "Texture1DArray",
        "Texture2D",
        "Texture2DArray",
        "Texture2DMS",
        "Texture2DMSArray",
        "Texture3D",
        "TextureCube",
        "TextureCubeArray",
        "Buffer",
    ];
    let dim = DIMS.get(b.dimension as usize).copied().unwrap_or("?");
    let ty = match b.return_type {
        1 => "unorm float",
        2 => "snorm float",
        3 => "int",
        4 => "uint",
        5 => "float",
        7 => "double",
        _ => "mixed",
    };
    let n = ((b.flags >> 2) & 3) + 1;
    let n = if n > 1 { n.to_string() } else { String::new() };
    format!("{}{dim}<{ty}{n}>", if uav { "RW" } else { "" })
}

fn type_name(b: &ResourceBinding) -> String {
    match b.input_type {
        InputType::CBuffer => "cbuffer".into(),
        InputType::TBuffer => "tbuffer".into(),
        InputType::Texture => typed_name(b, false),
        InputType::Sampler if b.flags & 2 != 0 => "SamplerComparisonState".into(),
        InputType::Sampler => "SamplerState".into(),
        InputType::UavRwTyped => typed_name(b, true),
        InputType::Structured => "StructuredBuffer".into(),
        InputType::UavRwStructured => "RWStructuredBuffer".into(),
        InputType::ByteAddress => "ByteAddressBuffer".into(),
        InputType::UavRwByteAddress => "RWByteAddressBuffer".into(),
        InputType::UavAppendStructured => "AppendStructuredBuffer".into(),
        InputType::UavConsumeStructured => "ConsumeStructuredBuffer".into(),
        InputType::UavRwStructuredWithCounter => "RWStructuredBuffer with counter".into(),
        InputType::Other(n) => format!("input type {n}"),
    }
}

/// The report, as text.
pub fn describe(file: &Path, d: &DecodedProgram, refl: Option<&Reflection>) -> String {
    let mut s = String::new();
    let v = d.version;
    let _ = writeln!(s, "file:          {}", file.display());
    let _ = writeln!(
        s,
        "profile:       {}_{}_{}",
        v.program_type.prefix(),
        v.major,
        v.minor
    );
    let mut tgsm = 0u64;
    let mut executable = 0usize;
    for ins in &d.instructions {
        match ins.opcode {
            Opcode::DclThreadGroup => {
                let g: Vec<u32> = ins.raw.iter().take(3).copied().collect();
                let n: u128 = g.iter().map(|&x| x as u128).product();
                let _ = writeln!(
                    s,
                    "thread group:  {} ({n} threads)",
                    g.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" x ")
                );
            }
            Opcode::DclTgsmRaw => {
                tgsm = tgsm.saturating_add(ins.raw.first().copied().unwrap_or(0) as u64)
            }
            Opcode::DclTgsmStructured => {
                tgsm += ins.raw.first().copied().unwrap_or(0) as u64
                    * ins.raw.get(1).copied().unwrap_or(0) as u64
            }
            op if op.info().class != Class::Decl => executable += 1,
            _ => {}
        }
    }
    let _ = writeln!(s, "TGSM:          {tgsm} bytes per group");
    let _ = writeln!(s, "instructions:  {executable}");
    match refl {
        None => {
            let _ = writeln!(s, "bindings:      (no RDEF chunk: names unknown)");
        }
        Some(r) => {
            let _ = writeln!(s, "bindings:");
            for b in &r.bindings {
                let prefix = b.input_type.register_prefix();
                let mut line = format!(
                    "  {:<24} {prefix}{:<4} {}",
                    b.name,
                    b.bind_point,
                    type_name(b)
                );
                if matches!(
                    b.input_type,
                    InputType::Structured
                        | InputType::UavRwStructured
                        | InputType::UavAppendStructured
                        | InputType::UavConsumeStructured
                        | InputType::UavRwStructuredWithCounter
                ) {
                    let _ = write!(line, ", stride {}", b.num_samples_or_stride);
                    // the element's type: RDEF's resource bind info ($Element)
                    let element = (r.cbuffers.iter())
                        .find(|c| c.kind == 3 && c.name == b.name)
                        .and_then(|c| c.variables.first());
                    if let Some(v) = element {
                        let _ = write!(line, ", element {}", type_text(&v.ty));
                    }
                }
                if b.bind_count != 1 {
                    let _ = write!(line, ", {} registers", b.bind_count);
                }
                if b.space != 0 {
                    let _ = write!(line, ", space {}", b.space);
                }
                let _ = writeln!(s, "{line}");
                if b.input_type == InputType::CBuffer {
                    if let Some(cb) = r.cbuffers.iter().find(|c| c.name == b.name) {
                        for var in &cb.variables {
                            let _ = writeln!(
                                s,
                                "  {:<24}   {:<24} {:<12} offset {:>5}, {} bytes",
                                "",
                                var.name,
                                type_text(&var.ty),
                                var.offset,
                                var.size
                            );
                        }
                    }
                }
            }
        }
    }
    let _ = writeln!(s, "declarations:");
    for line in disassemble_lines(d).iter().skip(1) {
        if line.starts_with("dcl_") {
            let _ = writeln!(s, "  {line}");
        }
    }
    match Program::survey(d, refl.cloned()) {
        Ok(list) if list.is_empty() => {
            let _ = writeln!(s, "executor:      runs every instruction");
        }
        Ok(list) => {
            let mut by_mnemonic: BTreeMap<String, (usize, u32, String)> = BTreeMap::new();
            for e in &list {
                if let LoadError::Unsupported {
                    mnemonic,
                    token,
                    what,
                } = e
                {
                    let base = mnemonic.split('(').next().unwrap_or(mnemonic).to_string();
                    let entry = by_mnemonic.entry(base).or_insert((0, *token, what.clone()));
                    entry.0 += 1;
                }
            }
            let _ = writeln!(
                s,
                "executor:      cannot run yet ({} instructions):",
                list.len()
            );
            for (m, (n, token, what)) in by_mnemonic {
                let _ = writeln!(s, "  {m} ×{n} (first at dword {token}): {what}");
            }
        }
        Err(e) => {
            let _ = writeln!(s, "executor:      cannot run: {e}");
        }
    }
    // printf/errorf: run, printed by run and check (sim_core::messages)
    let messages: Vec<_> = (d.instructions.iter())
        .filter_map(|i| i.shader_message())
        .collect();
    if !messages.is_empty() {
        let errors = messages.iter().filter(|m| m.error).count();
        let _ = writeln!(
            s,
            "messages:      {} printf, {errors} errorf (printed by run and check; an errorf fails its dispatch)",
            messages.len() - errors
        );
    }
    s
}

/// A variable's HLSL type as a listing prints it, with its array length
/// (`float4`, `uint[4]`, a struct's name).
fn type_text(ty: &sim_core::front::rdef::TypeDesc) -> String {
    let name = ty.hlsl_name();
    let name = if name.is_empty() {
        "struct".to_string()
    } else {
        name
    };
    if ty.elements > 0 {
        format!("{name}[{}]", ty.elements)
    } else {
        name
    }
}
