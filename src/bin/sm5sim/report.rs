//! How the `sm5sim` command shows what ran: step lines, the checker's
//! findings, profiles as text and JSON, and the Chrome trace (the Trace
//! Event Format that Perfetto and chrome://tracing read).

use sm5sim::job::{CheckReport, Job, StepReport};
pub(super) use sm5sim::profile::{per_second, profile_json};
use sm5sim::sim_core::check::{Access, Finding, Severity};
use sm5sim::sim_core::front::disasm;
use sm5sim::sim_core::Program;
/// The steps' outcomes as text, one line each (failed expectations with
/// their first differing elements).
pub(super) fn print_steps(reports: &[StepReport]) {
    print!("{}", steps_text(reports));
}

/// [`print_steps`]' text.
pub(super) fn steps_text(reports: &[StepReport]) -> String {
    reports
        .iter()
        .enumerate()
        .map(|(i, r)| step_text(i, r))
        .collect()
}

/// Step `i`'s outcome as text ([`StepReport::text`]).
pub(super) fn step_text(i: usize, r: &StepReport) -> String {
    r.text(i)
}

/// How many of `findings` are errors (warnings do not count).
pub(super) fn error_findings(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .count()
}

/// The last line of `check`'s text report: the counts, and whether an
/// expectation failed or a shader ran `errorf`.
pub(super) fn check_summary(report: &CheckReport) -> String {
    let errors = error_findings(&report.findings);
    let warnings = report.findings.len() - errors;
    let failed = |dispatch: bool| {
        (report.steps.iter())
            .any(|r| matches!(r, StepReport::Dispatch { .. }) == dispatch && !r.passed())
    };
    format!(
        "check: {errors} error(s), {warnings} warning(s){}{}{}{}",
        match report.suppressed.len() {
            0 => String::new(),
            n => format!(", {n} suppressed"),
        },
        if failed(false) {
            "; an expectation FAILED"
        } else {
            ""
        },
        if failed(true) {
            "; a shader ran errorf"
        } else {
            ""
        },
        if report.stopped.is_some() {
            "; a dispatch was STOPPED"
        } else {
            ""
        }
    )
}

/// `check`'s text report: the job's warnings, the steps, the findings,
/// why a dispatch stopped (if one did) and [`check_summary`].
pub(super) fn check_text(job: &Job, report: &CheckReport) -> String {
    let mut text = check_findings_text(job, report);
    if let Some(e) = &report.stopped {
        text.push_str(&format!("error: {e}\n"));
    }
    text.push_str(&check_summary(report));
    text.push('\n');
    text
}

/// The job's warnings, the steps and the findings of `check`'s text report.
pub(super) fn check_findings_text(job: &Job, report: &CheckReport) -> String {
    let mut text = String::new();
    for w in &job.warnings {
        text.push_str(&format!("warning: {w}\n"));
    }
    text.push_str(&steps_text(&report.steps));
    for f in &report.findings {
        text.push_str(&format!("{f}\n"));
    }
    for p in &report.marker_problems {
        text.push_str(&format!(
            "warning: {p}: this sm5sim marker suppresses nothing\n"
        ));
    }
    for s in &report.suppressed {
        let f = &s.finding;
        let mut at = f.resource.clone().unwrap_or_default();
        if let Some(n) = f
            .resource_name
            .as_ref()
            .filter(|n| Some(*n) != f.resource.as_ref())
        {
            at.push_str(&format!(" ('{n}')"));
        }
        let times = match f.count {
            1 => String::new(),
            n => format!(" ({n} times)"),
        };
        text.push_str(&format!(
            "suppressed[{}] {at}{times}: by {}\n",
            f.kind, s.by
        ));
    }
    text
}

/// The results of `run --json`: the job, its warnings, and one object per step.
pub(super) fn report_json(
    job: &Job,
    reports: &[StepReport],
    passed: bool,
    error: Option<&str>,
) -> serde_json::Value {
    use serde_json::json;
    let mut doc = json!({
        "job": job.path.display().to_string(),
        "passed": passed,
        "warnings": job.warnings,
        "steps": steps_json(reports),
    });
    if let Some(e) = error {
        // the run stopped at a step (the watchdog, a refused dispatch): the
        // steps before it are in "steps"
        doc["error"] = json!(e);
    }
    doc
}

/// The results of `check --json`: the job, `passed` (no error finding,
/// every expectation held, no dispatch stopped), the counts, the findings,
/// the suppressed findings (`kind`, `resource`, `count`, `by`), the
/// unreadable source markers, the steps and, when a dispatch stopped, why
/// (`error`).
pub(super) fn check_json(job: &Job, report: &CheckReport) -> serde_json::Value {
    use serde_json::json;
    let (reports, findings) = (&report.steps, &report.findings);
    let expectations = reports.iter().all(StepReport::passed);
    let stopped = report.stopped.as_deref();
    let access = |a: &Access| {
        json!({
            "pc": a.site.pc,
            "dword": a.site.dword,
            "hlsl": a.site.hlsl,
            "line": a.site.line,
            "listing": a.site.listing,
            "instruction": a.site.text,
            "op": a.op.name(),
            "value": a.value,
            "group": a.thread.group,
            "thread": a.thread.thread,
            "thread_index": a.thread.index,
        })
    };
    let errors = findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .count();
    let list: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            json!({
                "kind": f.kind.name(),
                "severity": match f.severity() {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                "description": f.kind.description(),
                "resource": f.resource,
                "resource_name": f.resource_name,
                "byte_offset": f.byte_offset,
                "element": f.element,
                "benign": f.benign,
                "count": f.count,
                "dispatch": f.dispatch,
                "step": f.step,
                "first": access(&f.first),
                "second": f.second.as_ref().map(access),
                "note": f.note,
            })
        })
        .collect();
    let mut doc = json!({
        "job": job.path.display().to_string(),
        "passed": errors == 0 && expectations && stopped.is_none(),
        "errors": errors,
        "warnings": findings.len() - errors,
        "expectations_passed": expectations,
        "findings": list,
        "suppressed": report.suppressed.iter().map(|s| json!({
            "kind": s.finding.kind.name(),
            "resource": s.finding.resource,
            "resource_name": s.finding.resource_name,
            "count": s.finding.count,
            "by": s.by,
        })).collect::<Vec<_>>(),
        "marker_problems": report.marker_problems,
        "job_warnings": job.warnings,
        "steps": steps_json(reports),
    });
    if let Some(e) = stopped {
        doc["error"] = json!(e);
    }
    doc
}

/// Opcodes a text profile lists by name; the rest are summed as "other".
pub(super) const PROFILE_TOP: usize = 15;

/// The instructions `--profile` lists, hottest first.
pub(super) const HOT_INSTRUCTIONS: usize = 10;

/// A count with a k/M/G suffix.
pub(super) fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2} G", x / 1e9),
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.2} k", x / 1e3),
        x => format!("{x:.0} "),
    }
}

/// The profiles of every dispatch step.
/// (`program_of(i)`: the program dispatch step `i` ran.)
pub(super) fn profiles_json<'p>(
    reports: &[StepReport],
    program_of: &dyn Fn(usize) -> &'p Program,
) -> Vec<serde_json::Value> {
    reports
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            StepReport::Dispatch {
                groups,
                stats,
                profile: Some(p),
                ..
            } => Some(profile_json(i, *groups, stats, p, Some(program_of(i)))),
            _ => None,
        })
        .collect()
}

/// `run --profile`: each dispatch's profile as text.
/// (`program_of(i)`: the program dispatch step `i` ran.)
pub(super) fn print_profiles<'p>(
    reports: &[StepReport],
    program_of: &dyn Fn(usize) -> &'p Program,
) {
    for (i, r) in reports.iter().enumerate() {
        let program = program_of(i);
        let StepReport::Dispatch {
            shader,
            stats,
            profile: Some(p),
            ..
        } = r
        else {
            continue;
        };
        let e = &p.exec;
        if shader.is_empty() {
            println!("profile of step {i}:");
        } else {
            println!("profile of step {i} (shader '{shader}'):");
        }
        println!(
            "  wall {:.3} ms; {} groups ({}groups/s), {} lanes ({}lanes/s), {}lane-instructions/s",
            p.wall.as_secs_f64() * 1e3,
            stats.groups,
            si(per_second(stats.groups, p.wall)),
            stats.threads,
            si(per_second(stats.threads, p.wall)),
            si(per_second(e.active_lanes, p.wall)),
        );
        println!(
            "  {} warp-instructions, {} lane-instructions, SIMD efficiency {:.1} %",
            e.warp_instructions,
            e.active_lanes,
            100.0 * e.simd_efficiency()
        );
        let total = e.active_lanes.max(1) as f64;
        println!("  {:<24} {:>16} {:>8}", "opcode", "lane-instr", "share");
        for (m, n) in p.by_opcode.iter().take(PROFILE_TOP) {
            println!("  {m:<24} {n:>16} {:>7.1}%", 100.0 * *n as f64 / total);
        }
        if p.by_opcode.len() > PROFILE_TOP {
            let rest: u64 = p.by_opcode[PROFILE_TOP..].iter().map(|(_, n)| n).sum();
            println!(
                "  {:<24} {rest:>16} {:>7.1}%",
                "other",
                100.0 * rest as f64 / total
            );
        }
        let mut hot = e.by_instruction(program);
        hot.sort_by(|a, b| {
            (b.lane_instructions, b.warp_instructions)
                .cmp(&(a.lane_instructions, a.warp_instructions))
        });
        let w = e.warp_width().max(1) as f64;
        println!(
            "  hottest instructions (warps of {} lanes):\n  {:>7} {:>16} {:>7} {:>14} {:>6}  instruction",
            e.warp_width(),
            "dword",
            "lane-instr",
            "share",
            "warp-instr",
            "SIMD"
        );
        for i in hot.iter().take(HOT_INSTRUCTIONS) {
            let diverged = note(
                (i.diverged, i.lines, i.failed),
                i.warp_instructions,
                (i.sampled_atomic_lanes, i.sampled_atomic_words),
            );
            println!(
                "  {:>7} {:>16} {:>6.1}% {:>14} {:>5.0}%  {}{diverged}",
                i.dword,
                i.lane_instructions,
                100.0 * i.lane_instructions as f64 / total,
                i.warp_instructions,
                100.0 * i.lane_instructions as f64 / (i.warp_instructions as f64 * w),
                i.text
            );
        }
        if let (Some(mut lines), Some(map)) = (e.by_line(program), &program.source_map) {
            lines.sort_by_key(|l| std::cmp::Reverse(l.lane_instructions));
            println!(
                "  hottest HLSL lines:\n  {:>24} {:>16} {:>7} {:>14}  source",
                "line", "lane-instr", "share", "warp-instr"
            );
            for l in lines.iter().take(HOT_INSTRUCTIONS) {
                let text = map.files[l.at.file]
                    .line_text(l.at.line)
                    .unwrap_or("")
                    .trim();
                println!(
                    "  {:>24} {:>16} {:>6.1}% {:>14}  {text}",
                    map.describe(l.at),
                    l.lane_instructions,
                    100.0 * l.lane_instructions as f64 / total,
                    l.warp_instructions,
                );
            }
        }
        println!(
            "  barriers {}; atomics {} (compare-exchange {}, failed = retries {})",
            stats.barriers, e.atomics, e.compare_exchanges, e.cas_failures
        );
        println!(
            "  TGSM bytes read {}, written {}; UAV bytes read {}, written {}; SRV bytes read {}",
            e.tgsm_read, e.tgsm_written, e.uav_read, e.uav_written, e.srv_read
        );
        for r in e.by_resource(program) {
            let name = r.name.map(|n| format!(" ({n})")).unwrap_or_default();
            let mut texture = String::new();
            if r.texels_read + r.texels_written > 0 {
                texture += &format!(
                    "; texels read {}, written {}",
                    r.texels_read, r.texels_written
                );
            }
            let s = &r.samples;
            if s.total() > 0 {
                texture += &format!(
                    "; samples {} (point {}, bilinear {}, trilinear {}, anisotropic {})",
                    s.total(),
                    s.point,
                    s.bilinear,
                    s.trilinear,
                    s.anisotropic
                );
            }
            println!(
                "    {}{}{name}: bytes read {}, written {}; atomics {}{texture}",
                r.register, r.slot, r.bytes_read, r.bytes_written, r.atomics
            );
        }
        let busy: Vec<String> = p
            .worker_busy
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.is_zero())
            .map(|(w, d)| format!("{w}: {:.3}", d.as_secs_f64() * 1e3))
            .collect();
        let sum: f64 = p.worker_busy.iter().map(|d| d.as_secs_f64()).sum();
        println!(
            "  worker busy ms: {} (sum {:.3} ms)",
            busy.join(", "),
            sum * 1e3
        );
    }
}

/// The note after an instruction in `--profile` and `--annotate`: how many
/// compare-exchanges failed (retries), how often a branch diverged, how
/// many 64-byte lines a buffer access touched per warp-instruction.
fn note(
    (diverged, lines, failed): (u64, u64, u64),
    warps: u64,
    (lanes, words): (u64, u64),
) -> String {
    let mut s = String::new();
    if words > 0 {
        s += &format!("    ; {:.1} lanes/word", lanes as f64 / words as f64);
    }
    if failed > 0 {
        s += &format!("    ; {failed} failed");
    }
    if diverged > 0 {
        s += &format!("    ; diverged in {diverged}");
    }
    if lines > 0 {
        s += &format!("    ; {:.1} lines/warp", lines as f64 / warps.max(1) as f64);
    }
    s
}

/// `run --annotate`: the program's listing as `sm5sim disasm` prints it,
/// each executed instruction with its lane-instructions, warp-instructions
/// and SIMD efficiency in a margin (summed over the job's dispatches),
/// like `perf annotate`; declarations and instructions that never ran have
/// an empty margin.
pub(super) fn annotated_listing(reports: &[StepReport], program: &Program) -> String {
    use std::collections::HashMap;
    use std::fmt::Write;
    let mut sum = sm5sim::sim_core::exec::Profile::default();
    for r in reports {
        if let StepReport::Dispatch {
            profile: Some(p), ..
        } = r
        {
            sum.merge(&p.exec);
        }
    }
    // (every dispatch's warps have the job's one width)
    let w = sum.warp_width().max(1) as f64;
    // per instruction (several pcs may share one instruction's dword)
    // lanes, warps, diverged, lines, failed, (sampled atomic lanes, words)
    type Sums = (u64, u64, u64, u64, u64, (u64, u64));
    let mut by_dword: HashMap<u32, Sums> = HashMap::new();
    for i in sum.by_instruction(program) {
        let e = by_dword.entry(i.dword).or_default();
        e.0 += i.lane_instructions;
        e.1 += i.warp_instructions;
        e.2 += i.diverged;
        e.3 += i.lines;
        e.4 += i.failed;
        e.5 .0 += i.sampled_atomic_lanes;
        e.5 .1 += i.sampled_atomic_words;
    }
    let mut out = String::new();
    let blank = format!("{:>14} {:>12} {:>5}  ", "", "", "");
    if let (Some(lines), Some(map)) = (sum.by_line(program), &program.source_map) {
        annotated_source(&mut out, &lines, map, w);
    }
    let _ = writeln!(
        out,
        "{:>14} {:>12} {:>5}  listing (sm5sim disasm; warps of {} lanes)",
        "lane-instr", "warp-instr", "SIMD", w
    );
    let mut last_line = None;
    for (dword, line) in disasm::disassemble_lines_by_offset(&program.decoded) {
        // the HLSL line an instruction comes from, where it changes (as
        // fxc's /Zi listing marks it with #line)
        if let Some(map) = &program.source_map {
            if let Some(at) = dword.and_then(|d| map.line_at(d)) {
                if last_line != Some(at) {
                    last_line = Some(at);
                    let text = map.files[at.file].line_text(at.line).unwrap_or("").trim();
                    let _ = writeln!(out, "{blank}// {}: {text}", map.describe(at));
                }
            }
        }
        match dword.and_then(|d| by_dword.get(&d)) {
            Some(&(lanes, warps, diverged, lines, failed, sampled)) => {
                let eff = 100.0 * lanes as f64 / (warps as f64 * w);
                let _ = write!(out, "{lanes:>14} {warps:>12} {eff:>4.0}%  {line}");
                let _ = writeln!(out, "{}", note((diverged, lines, failed), warps, sampled));
            }
            None => {
                let _ = writeln!(out, "{blank}{line}");
            }
        }
    }
    out
}

/// The HLSL half of `run --annotate`: each source file the debug
/// information carries, every line with the counts of the instructions fxc
/// attributes to it in a margin (lane- and warp-instructions summed, SIMD
/// efficiency, how many instructions); a file whose text the debug
/// information lacks lists its counted lines alone.
fn annotated_source(
    out: &mut String,
    lines: &[sm5sim::sim_core::exec::LineCounts],
    map: &sm5sim::sim_core::front::debug_info::SourceMap,
    w: f64,
) {
    use std::fmt::Write;
    let by_line: std::collections::HashMap<_, _> = lines.iter().map(|l| (l.at, l)).collect();
    let margin = |l: &sm5sim::sim_core::exec::LineCounts| {
        let eff = 100.0 * l.lane_instructions as f64 / (l.warp_instructions.max(1) as f64 * w);
        let n = l.instructions;
        format!(
            "{:>14} {:>12} {eff:>4.0}% {n:>3} instr{}  ",
            l.lane_instructions,
            l.warp_instructions,
            if n == 1 { " " } else { "s" }
        )
    };
    let blank = format!("{:>14} {:>12} {:>5} {:>10}  ", "", "", "", "");
    for (i, f) in map.files.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>14} {:>12} {:>5} {:>10}  {} (HLSL; each line's instructions, summed)",
            "lane-instr", "warp-instr", "SIMD", "instrs", f.name
        );
        match &f.text {
            Some(text) => {
                for (k, t) in text.lines().enumerate() {
                    let at = sm5sim::sim_core::front::debug_info::SourceLine {
                        file: i,
                        line: k as u32 + 1,
                    };
                    let m = by_line
                        .get(&at)
                        .map_or_else(|| blank.clone(), |l| margin(l));
                    let _ = writeln!(out, "{m}{:>5}  {t}", k + 1);
                }
            }
            None => {
                for l in lines.iter().filter(|l| l.at.file == i) {
                    let _ = writeln!(
                        out,
                        "{}{:>5}  (source text not in the debug information)",
                        margin(l),
                        l.at.line
                    );
                }
            }
        }
        let _ = writeln!(out);
    }
}

/// The Chrome/Perfetto trace of the dispatch steps of `reports`
/// ([`sm5sim::profile::chrome_trace`]), each named `dispatch (step N)`.
pub(super) fn chrome_trace(reports: &[StepReport]) -> String {
    let dispatches: Vec<_> = reports
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            StepReport::Dispatch {
                groups,
                stats,
                profile: Some(p),
                ..
            } => Some(sm5sim::profile::TracedDispatch {
                name: format!("dispatch (step {i})"),
                step: i,
                groups: *groups,
                stats,
                profile: p,
            }),
            _ => None,
        })
        .collect();
    sm5sim::profile::chrome_trace(&dispatches)
}

/// A dispatch's messages (`sim_core::messages`): the counts per kind, how
/// many were not kept, the first `errorf`, and the list, each with its
/// kind, `SV_GroupID`, `SV_GroupThreadID`, `SV_DispatchThreadID`, pc, text
/// and HLSL line.
pub fn messages_json(m: &sim_sched::Messages) -> serde_json::Value {
    use serde_json::json;
    let one = |m: &sim_sched::Message| {
        json!({
            "kind": m.kind.name(),
            "group": m.group,
            "thread": m.thread,
            "dispatch_thread": m.dispatch_thread,
            "pc": m.pc,
            "text": m.text,
            "file": m.line.as_ref().map(|l| &l.0),
            "line": m.line.as_ref().map(|l| l.1),
        })
    };
    json!({
        "printf": m.printf,
        "errorf": m.errorf,
        "abort": m.aborts,
        "debug_break": m.debug_breaks,
        "not_kept": m.dropped(),
        "first_error": m.first_error.as_ref().map(one),
        "list": m.list.iter().map(one).collect::<Vec<_>>(),
    })
}

/// One JSON object per step.
pub(super) fn steps_json(reports: &[StepReport]) -> Vec<serde_json::Value> {
    use serde_json::json;
    reports
        .iter()
        .enumerate()
        .map(|(i, r)| match r {
            StepReport::Dispatch {
                shader,
                groups,
                stats,
                elapsed,
                profile,
                messages,
            } => {
                let mut v = json!({
                    "step": i,
                    "kind": "dispatch",
                    "shader": shader,
                    "groups": groups,
                    "threads": stats.threads,
                    "warp_instructions": stats.warp_instructions,
                    "barriers": stats.barriers,
                    "aborted_threads": stats.aborted_threads,
                    "debug_breaks": stats.debug_breaks,
                    "seconds": elapsed.as_secs_f64(),
                    "compile_seconds": stats.compile_time.as_secs_f64(),
                    "passed": !messages.failed(),
                    "messages": messages_json(messages),
                });
                if let Some(p) = profile {
                    v["profile"] = profile_json(i, *groups, stats, p, None);
                }
                v
            }
            StepReport::Set { resource } => {
                json!({ "step": i, "kind": "set", "resource": resource })
            }
            StepReport::Copy { what } => {
                json!({ "step": i, "kind": "copy", "what": what })
            }
            StepReport::Expect {
                what,
                mismatches,
                first,
            } => json!({
                "step": i,
                "kind": "expect",
                "what": what,
                "passed": *mismatches == 0,
                "mismatches": mismatches,
                "first": first
                    .iter()
                    .map(|m| json!({ "index": m.index, "expected": m.expected, "got": m.got }))
                    .collect::<Vec<_>>(),
            }),
        })
        .collect()
}
