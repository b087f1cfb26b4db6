//! A dispatch's profile as JSON (what `sm5sim run --profile-json` writes
//! for each dispatch step, and the d3d11.dll's `SM5SIM_PROFILE` for each
//! `Dispatch`) and dispatches as a Chrome/Perfetto trace (`run --trace`,
//! `SM5SIM_TRACE`) (`docs/profiling.md`).

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

/// One dispatch of a trace ([`chrome_trace`]).
#[derive(Debug, Clone)]
pub struct TracedDispatch<'a> {
    /// its event's name (`dispatch (step 3)`, `Dispatch #2 (blur)`)
    pub name: String,
    /// its number, an argument of its events
    pub step: usize,
    /// its group counts
    pub groups: [u32; 3],
    /// its counters
    pub stats: &'a DispatchStats,
    /// its profile, with the groups' spans (`DispatchOptions::trace`)
    pub profile: &'a DispatchProfile,
}

/// `run --trace FILE`, `SM5SIM_TRACE`: a trace in the Trace Event Format (JSON array form)
/// that Perfetto and chrome://tracing read. Process 0 ("dispatches") has
/// one complete event per dispatch, with its counts as arguments, and
/// a counter track of groups/s and lanes/s (the groups that finished in
/// each of up to [`TRACE_COUNTER_BINS`] intervals of the dispatch); process
/// 1 ("workers") one complete event per group (or packed batch) on its
/// worker's thread, named `worker N`. Dispatches follow one another, each
/// placed after the previous dispatches' wall times (the time between them
/// is not shown). Times are in microseconds.
pub fn chrome_trace(dispatches: &[TracedDispatch]) -> String {
    use serde_json::json;
    let meta = |name: &str, pid: u32, tid: Option<usize>, value: String| {
        let mut e = json!({ "name": name, "ph": "M", "pid": pid, "args": { "name": value } });
        if let Some(t) = tid {
            e["tid"] = json!(t);
        }
        e
    };
    let mut events = vec![
        meta("process_name", 0, None, "dispatches".into()),
        meta("thread_name", 0, Some(0), "dispatch steps".into()),
        meta("process_name", 1, None, "workers".into()),
    ];
    let mut workers = std::collections::BTreeSet::new();
    let mut offset = 0.0f64;
    for d in dispatches {
        let (i, groups, stats, p) = (d.step, d.groups, d.stats, d.profile);
        let wall_us = p.wall.as_secs_f64() * 1e6;
        let e = &p.exec;
        events.push(json!({
            "name": d.name,
            "ph": "X",
            "ts": offset,
            "dur": wall_us,
            "pid": 0,
            "tid": 0,
            "args": {
                "step": i,
                "groups": format!("{}x{}x{}", groups[0], groups[1], groups[2]),
                "thread_groups": stats.groups,
                "threads": stats.threads,
                "warp_instructions": e.warp_instructions,
                "lane_instructions": e.active_lanes,
                "simd_efficiency": e.simd_efficiency(),
                "barriers": stats.barriers,
                "atomics": e.atomics,
            },
        }));
        for s in &p.spans {
            let [x, y, z] = s.group;
            let name = match s.groups {
                1 => format!("group ({x}, {y}, {z})"),
                n => format!("groups ({x}..{}, {y}, {z})", x + n - 1),
            };
            workers.insert(s.worker);
            events.push(json!({
                "name": name,
                "ph": "X",
                "ts": offset + s.start.as_secs_f64() * 1e6,
                "dur": s.duration.as_secs_f64() * 1e6,
                "pid": 1,
                "tid": s.worker,
                "args": { "step": i },
            }));
        }
        // the counter track: groups finished per interval, as rates
        let bins = TRACE_COUNTER_BINS.min(p.spans.len()).max(1);
        let width = wall_us / bins as f64;
        let mut done = vec![0u64; bins];
        for s in &p.spans {
            let end = (s.start + s.duration).as_secs_f64() * 1e6;
            let b = ((end / width.max(f64::MIN_POSITIVE)) as usize).min(bins - 1);
            done[b] += u64::from(s.groups);
        }
        let per_group = stats.threads.checked_div(stats.groups).unwrap_or(0);
        if !p.spans.is_empty() && width > 0.0 {
            for (b, &n) in done.iter().enumerate() {
                let per_s = n as f64 / (width * 1e-6);
                events.push(json!({
                    "name": "throughput",
                    "ph": "C",
                    "ts": offset + b as f64 * width,
                    "pid": 0,
                    "args": { "groups/s": per_s, "lanes/s": per_s * per_group as f64 },
                }));
            }
        }
        offset += wall_us;
    }
    for w in workers {
        events.push(meta("thread_name", 1, Some(w), format!("worker {w}")));
    }
    serde_json::Value::Array(events).to_string()
}

/// The intervals of a dispatch the trace's counter track has at most.
pub const TRACE_COUNTER_BINS: usize = 50;
