//! A dispatch's profile as JSON: what `sm5sim run --profile-json` writes
//! for each dispatch step, and the d3d11.dll's `SM5SIM_PROFILE` for each
//! `Dispatch` (`docs/profiling.md`).

use sim_core::Program;
use sim_sched::{DispatchProfile, DispatchStats};
use std::time::Duration;

/// Per second, guarding a zero duration.
pub fn per_second(n: u64, d: Duration) -> f64 {
    let s = d.as_secs_f64();
    if s > 0.0 {
        n as f64 / s
    } else {
        0.0
    }
}

/// One dispatch's profile as JSON (`--profile-json`, and under `--json`).
pub fn profile_json(
    step: usize,
    groups: [u32; 3],
    stats: &DispatchStats,
    p: &DispatchProfile,
    program: Option<&Program>,
) -> serde_json::Value {
    use serde_json::json;
    let e = &p.exec;
    let total = e.active_lanes.max(1) as f64;
    let opcodes: Vec<_> = p
        .by_opcode
        .iter()
        .map(|(m, n)| json!({ "mnemonic": m, "lane_instructions": n, "share": *n as f64 / total }))
        .collect();
    let mut v = json!({
        "step": step,
        "groups": groups,
        "wall_seconds": p.wall.as_secs_f64(),
        "thread_groups": stats.groups,
        "lanes": stats.threads,
        "groups_per_second": per_second(stats.groups, p.wall),
        "lanes_per_second": per_second(stats.threads, p.wall),
        "warp_instructions": e.warp_instructions,
        "lane_instructions": e.active_lanes,
        "lane_instructions_per_second": per_second(e.active_lanes, p.wall),
        "simd_efficiency": e.simd_efficiency(),
        "opcodes": opcodes,
        "barriers": stats.barriers,
        "atomics": e.atomics,
        "compare_exchanges": e.compare_exchanges,
        "cas_retries": e.cas_failures,
        "tgsm_bytes_read": e.tgsm_read,
        "tgsm_bytes_written": e.tgsm_written,
        "uav_bytes_read": e.uav_read,
        "uav_bytes_written": e.uav_written,
        "srv_bytes_read": e.srv_read,
        "worker_busy_seconds": p.worker_busy.iter().map(|d| d.as_secs_f64()).collect::<Vec<_>>(),
    });
    if let Some(program) = program {
        let w = e.warp_width().max(1) as f64;
        let instructions: Vec<_> = e
            .by_instruction(program)
            .iter()
            .map(|i| {
                json!({
                    "pc": i.pc,
                    "dword": i.dword,
                    "text": i.text,
                    "lane_instructions": i.lane_instructions,
                    "warp_instructions": i.warp_instructions,
                    "simd_efficiency": i.lane_instructions as f64 / (i.warp_instructions as f64 * w),
                    "diverged": i.diverged,
                    "bytes": i.bytes,
                    "lines": i.lines,
                    "failed_compare_exchanges": i.failed,
                    "sampled_atomic_lanes": i.sampled_atomic_lanes,
                    "sampled_atomic_words": i.sampled_atomic_words,
                    "hlsl": hlsl_at(program, i.dword),
                })
            })
            .collect();
        v["warp_width"] = json!(e.warp_width());
        v["instructions"] = json!(instructions);
        if let (Some(lines), Some(map)) = (e.by_line(program), &program.source_map) {
            let lines: Vec<_> = lines
                .iter()
                .map(|l| {
                    json!({
                        "file": map.files[l.at.file].name,
                        "line": l.at.line,
                        "instructions": l.instructions,
                        "lane_instructions": l.lane_instructions,
                        "warp_instructions": l.warp_instructions,
                        "diverged": l.diverged,
                        "bytes": l.bytes,
                        "lines": l.lines,
                        "failed_compare_exchanges": l.failed,
                    })
                })
                .collect();
            v["source_lines"] = json!(lines);
        }
        let resources: Vec<_> = e
            .by_resource(program)
            .iter()
            .map(|r| {
                json!({
                    "register": format!("{}{}", r.register, r.slot),
                    "name": r.name,
                    "bytes_read": r.bytes_read,
                    "bytes_written": r.bytes_written,
                    "atomics": r.atomics,
                    "texels_read": r.texels_read,
                    "texels_written": r.texels_written,
                    "samples": {
                        "point": r.samples.point,
                        "bilinear": r.samples.bilinear,
                        "trilinear": r.samples.trilinear,
                        "anisotropic": r.samples.anisotropic,
                    },
                })
            })
            .collect();
        v["resources"] = json!(resources);
    }
    v
}

/// `file:line` of the instruction at `dword`, when the program carries
/// fxc's debug information (`/Zi`).
fn hlsl_at(program: &Program, dword: u32) -> Option<String> {
    let map = program.source_map.as_ref()?;
    Some(map.describe(map.line_at(dword)?))
}
