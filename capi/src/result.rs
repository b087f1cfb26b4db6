//! What a dispatch reported: statistics, findings, profile.

use crate::ffi::{self, c_string, guard, Fail};
use crate::sm5_status;
use sm5sim::api::Dispatched;
use sm5sim::sim_core::check::Severity;
use sm5sim::sim_sched::DispatchProfile;
use std::ffi::{c_char, CString};

/// What one dispatch reported (`sm5_kernel_dispatch`): its statistics,
/// the checker's findings, its profile. Strings it hands out live as long
/// as it.
#[derive(Debug)]
pub struct sm5_dispatch_result {
    stats: sm5_dispatch_stats,
    findings: Vec<FindingText>,
    stopped: Option<CString>,
    profile: Option<(sm5_profile, CString)>,
    messages: Vec<MessageText>,
    messages_not_kept: u64,
    errorf: u64,
}

#[derive(Debug)]
struct MessageText {
    kind: CString,
    group: [u32; 3],
    thread: [u32; 3],
    dispatch_thread: [u32; 3],
    pc: u32,
    text: CString,
    file: Option<CString>,
    line: u32,
}

/// One message of a dispatch's threads (`sm5_result_message`): a
/// `printf`, `errorf`, `abort` or `debug_break` (`docs/hlsl.md`). The
/// strings belong to the result.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct sm5_message {
    /// `"printf"`, `"errorf"`, `"abort"` or `"debug_break"`.
    pub kind: *const c_char,
    /// `SV_GroupID` of the thread.
    pub group: [u32; 3],
    /// `SV_GroupThreadID` of the thread.
    pub thread: [u32; 3],
    /// `SV_DispatchThreadID` of the thread.
    pub dispatch_thread: [u32; 3],
    /// The instruction's index in the program.
    pub pc: u32,
    /// The formatted text (C's printf rules), or the kind's name.
    pub text: *const c_char,
    /// The HLSL file's base name with `/Zi`, else NULL.
    pub file: *const c_char,
    /// The HLSL line with `/Zi`, else 0.
    pub line: u32,
}

#[derive(Debug)]
struct FindingText {
    kind: CString,
    severity: CString,
    error: bool,
    resource_name: Option<CString>,
    text: CString,
    count: u64,
}

/// A dispatch's counters (`sm5_result_stats`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct sm5_dispatch_stats {
    /// Thread groups run.
    pub groups: u64,
    /// Threads run (groups × threads per group).
    pub threads: u64,
    /// Warp-instructions executed.
    pub warp_instructions: u64,
    /// Group barriers completed.
    pub barriers: u64,
    /// Threads ended by `abort`.
    pub aborted_threads: u64,
    /// Wall-clock seconds of the dispatch.
    pub seconds: f64,
}

/// One finding of the concurrency checker (`sm5_result_finding`). The
/// strings belong to the result.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct sm5_finding {
    /// The kind: `"raw"`, `"war"`, `"waw"`, `"cross-group-rmw"`,
    /// `"divergent-barrier"`, `"out-of-bounds"`, … (`docs/checking.md`).
    pub kind: *const c_char,
    /// `"error"` (undefined or schedule-dependent behaviour) or
    /// `"warning"` (legal, probably not meant).
    pub severity: *const c_char,
    /// 1 for an error, 0 for a warning.
    pub is_error: u32,
    /// The resource's name as bound (`"hist"`), or NULL (barrier findings).
    pub resource_name: *const c_char,
    /// The finding as `sm5sim check` prints it: a line naming the kind, the
    /// memory and the count, then the two accesses (instruction, group,
    /// thread).
    pub text: *const c_char,
    /// How many times this kind occurred on this resource at these
    /// instructions.
    pub count: u64,
}

/// A dispatch's profile (`sm5_result_profile`; `docs/profiling.md` says
/// what each figure means).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct sm5_profile {
    /// Wall-clock seconds, first group's start to last group's end.
    pub wall_seconds: f64,
    /// Warp-instructions executed.
    pub warp_instructions: u64,
    /// Lane-instructions executed (active lanes summed).
    pub lane_instructions: u64,
    /// Active lanes per lane slot issued, 0 to 1.
    pub simd_efficiency: f64,
    /// Atomic operations (lanes).
    pub atomics: u64,
    /// Compare-exchanges that failed (retries of a CAS loop).
    pub cas_retries: u64,
    /// Groupshared bytes read.
    pub tgsm_bytes_read: u64,
    /// Groupshared bytes written.
    pub tgsm_bytes_written: u64,
    /// UAV bytes read.
    pub uav_bytes_read: u64,
    /// UAV bytes written.
    pub uav_bytes_written: u64,
    /// SRV bytes read.
    pub srv_bytes_read: u64,
}

fn profile(stats: &sm5_dispatch_stats, p: &DispatchProfile) -> (sm5_profile, CString) {
    let e = &p.exec;
    let c = sm5_profile {
        wall_seconds: p.wall.as_secs_f64(),
        warp_instructions: e.warp_instructions,
        lane_instructions: e.active_lanes,
        simd_efficiency: e.simd_efficiency(),
        atomics: e.atomics,
        cas_retries: e.cas_failures,
        tgsm_bytes_read: e.tgsm_read,
        tgsm_bytes_written: e.tgsm_written,
        uav_bytes_read: e.uav_read,
        uav_bytes_written: e.uav_written,
        srv_bytes_read: e.srv_read,
    };
    let total = e.active_lanes.max(1) as f64;
    let opcodes: Vec<_> = p
        .by_opcode
        .iter()
        .map(|(m, n)| {
            serde_json::json!({
                "mnemonic": m,
                "lane_instructions": n,
                "share": *n as f64 / total,
            })
        })
        .collect();
    let json = serde_json::json!({
        "wall_seconds": c.wall_seconds,
        "thread_groups": stats.groups,
        "lanes": stats.threads,
        "warp_instructions": c.warp_instructions,
        "lane_instructions": c.lane_instructions,
        "simd_efficiency": c.simd_efficiency,
        "opcodes": opcodes,
        "barriers": stats.barriers,
        "atomics": c.atomics,
        "compare_exchanges": e.compare_exchanges,
        "cas_retries": c.cas_retries,
        "tgsm_bytes_read": c.tgsm_bytes_read,
        "tgsm_bytes_written": c.tgsm_bytes_written,
        "uav_bytes_read": c.uav_bytes_read,
        "uav_bytes_written": c.uav_bytes_written,
        "srv_bytes_read": c.srv_bytes_read,
        "worker_busy_seconds": p.worker_busy.iter().map(|d| d.as_secs_f64()).collect::<Vec<_>>(),
    });
    (c, c_string(&json.to_string()))
}

impl sm5_dispatch_result {
    pub(crate) fn new(d: Dispatched) -> sm5_dispatch_result {
        let stats = sm5_dispatch_stats {
            groups: d.stats.groups,
            threads: d.stats.threads,
            warp_instructions: d.stats.warp_instructions,
            barriers: d.stats.barriers,
            aborted_threads: d.stats.aborted_threads,
            seconds: d.elapsed.as_secs_f64(),
        };
        let findings = d
            .findings
            .iter()
            .map(|f| {
                let error = f.severity() == Severity::Error;
                FindingText {
                    kind: c_string(f.kind.name()),
                    severity: c_string(if error { "error" } else { "warning" }),
                    error,
                    resource_name: f.resource_name.as_deref().map(c_string),
                    text: c_string(&f.to_string()),
                    count: f.count,
                }
            })
            .collect();
        let profile = d.profile.as_ref().map(|p| profile(&stats, p));
        let messages = (d.messages.list.iter())
            .map(|m| MessageText {
                kind: c_string(m.kind.name()),
                group: m.group,
                thread: m.thread,
                dispatch_thread: m.dispatch_thread,
                pc: m.pc,
                text: c_string(&m.text),
                file: m.line.as_ref().map(|l| c_string(&l.0)),
                line: m.line.as_ref().map_or(0, |l| l.1),
            })
            .collect();
        sm5_dispatch_result {
            stats,
            findings,
            stopped: d.stopped.as_deref().map(c_string),
            profile,
            messages,
            messages_not_kept: d.messages.dropped(),
            errorf: d.messages.errorf,
        }
    }
}

/// The dispatch's counters.
///
/// # Safety
/// `result` is NULL or a live result; `out` is NULL or points to a
/// writable `sm5_dispatch_stats`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_stats(
    result: *const sm5_dispatch_result,
    out: *mut sm5_dispatch_stats,
) -> sm5_status {
    guard("sm5_result_stats", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        unsafe { ffi::put(out, r.stats, "out") }
    })
}

/// How many findings the checker reported (`*count`; 0 without
/// `sm5_device_options.check`). Errors come first.
///
/// # Safety
/// `result` is NULL or a live result; `count` is NULL or points to a
/// writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_finding_count(
    result: *const sm5_dispatch_result,
    count: *mut usize,
) -> sm5_status {
    guard("sm5_result_finding_count", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        unsafe { ffi::put(count, r.findings.len(), "count") }
    })
}

/// Finding `index` (0 ≤ index < `sm5_result_finding_count`).
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` for an index past the end.
///
/// # Safety
/// `result` is NULL or a live result; `out` is NULL or points to a
/// writable `sm5_finding`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_finding(
    result: *const sm5_dispatch_result,
    index: usize,
    out: *mut sm5_finding,
) -> sm5_status {
    guard("sm5_result_finding", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        let f = r.findings.get(index).ok_or_else(|| {
            Fail::invalid(format!(
                "index {index}: the result has {} findings",
                r.findings.len()
            ))
        })?;
        let c = sm5_finding {
            kind: f.kind.as_ptr(),
            severity: f.severity.as_ptr(),
            is_error: u32::from(f.error),
            resource_name: f
                .resource_name
                .as_ref()
                .map_or(std::ptr::null(), |n| n.as_ptr()),
            text: f.text.as_ptr(),
            count: f.count,
        };
        // SAFETY: the caller's contract.
        unsafe { ffi::put(out, c, "out") }
    })
}

/// How many of the shader's messages the result keeps (`*count`): the
/// first 1000 in order — `SV_GroupID` (z, y, x), `SV_GroupIndex`, then
/// each thread's program order — whatever order the groups ran in.
///
/// # Safety
/// `result` is NULL or a live result; `count` is NULL or points to a
/// writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_message_count(
    result: *const sm5_dispatch_result,
    count: *mut usize,
) -> sm5_status {
    guard("sm5_result_message_count", || {
        // SAFETY (the two calls): the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        unsafe { ffi::put(count, r.messages.len(), "count") }
    })
}

/// How many messages the shader made past those kept (`*not_kept`), and
/// how many times `errorf` ran, summed over threads (`*errorf`, which
/// fails a job's dispatch). Either pointer may be NULL.
///
/// # Safety
/// `result` is NULL or a live result; `not_kept` and `errorf` are NULL or
/// point to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_message_totals(
    result: *const sm5_dispatch_result,
    not_kept: *mut u64,
    errorf: *mut u64,
) -> sm5_status {
    guard("sm5_result_message_totals", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        if !not_kept.is_null() {
            // SAFETY: the caller's contract; not NULL.
            unsafe { ffi::put(not_kept, r.messages_not_kept, "not_kept") }?;
        }
        if !errorf.is_null() {
            // SAFETY: the caller's contract; not NULL.
            unsafe { ffi::put(errorf, r.errorf, "errorf") }?;
        }
        Ok(())
    })
}

/// Message `index` (0 ≤ index < `sm5_result_message_count`).
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` for an index past the end.
///
/// # Safety
/// `result` is NULL or a live result; `out` is NULL or points to a
/// writable `sm5_message`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_message(
    result: *const sm5_dispatch_result,
    index: usize,
    out: *mut sm5_message,
) -> sm5_status {
    guard("sm5_result_message", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        let m = r.messages.get(index).ok_or_else(|| {
            Fail::invalid(format!(
                "index {index}: the result has {} messages",
                r.messages.len()
            ))
        })?;
        let c = sm5_message {
            kind: m.kind.as_ptr(),
            group: m.group,
            thread: m.thread,
            dispatch_thread: m.dispatch_thread,
            pc: m.pc,
            text: m.text.as_ptr(),
            file: m.file.as_ref().map_or(std::ptr::null(), |f| f.as_ptr()),
            line: m.line,
        };
        // SAFETY: the caller's contract.
        unsafe { ffi::put(out, c, "out") }
    })
}

/// Why a checked dispatch stopped before its end (`*reason`: the
/// watchdog's message on a hang, the findings until then kept), or NULL
/// when it ran to its end.
///
/// # Safety
/// `result` is NULL or a live result; `reason` is NULL or points to a
/// writable `const char*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_stopped(
    result: *const sm5_dispatch_result,
    reason: *mut *const c_char,
) -> sm5_status {
    guard("sm5_result_stopped", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        let p = r.stopped.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        // SAFETY: the caller's contract.
        unsafe { ffi::put(reason, p, "reason") }
    })
}

fn no_profile() -> Fail {
    Fail::invalid("the dispatch ran without a profile (set sm5_device_options.profile)")
}

/// The dispatch's profile (with `sm5_device_options.profile`).
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` when the device does not profile.
///
/// # Safety
/// `result` is NULL or a live result; `out` is NULL or points to a
/// writable `sm5_profile`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_profile(
    result: *const sm5_dispatch_result,
    out: *mut sm5_profile,
) -> sm5_status {
    guard("sm5_result_profile", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        let p = r.profile.as_ref().ok_or_else(no_profile)?;
        // SAFETY: the caller's contract.
        unsafe { ffi::put(out, p.0, "out") }
    })
}

/// The dispatch's profile as one JSON object (`*json`): the fields of
/// `sm5_profile`, the counts per opcode (`"opcodes"`: mnemonic,
/// lane-instructions, share), the thread groups, lanes and barriers, and
/// each worker's busy seconds. The string belongs to the result.
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` when the device does not profile.
///
/// # Safety
/// `result` is NULL or a live result; `json` is NULL or points to a
/// writable `const char*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_profile_json(
    result: *const sm5_dispatch_result,
    json: *mut *const c_char,
) -> sm5_status {
    guard("sm5_result_profile_json", || {
        // SAFETY: the caller's contract.
        let r = unsafe { ffi::handle(result, "result") }?;
        let p = r.profile.as_ref().ok_or_else(no_profile)?;
        // SAFETY: the caller's contract.
        unsafe { ffi::put(json, p.1.as_ptr(), "json") }
    })
}

/// Free a result (NULL: nothing); the strings it handed out go with it.
///
/// # Safety
/// `result` is NULL or a result not yet destroyed, which no other call is
/// using.
#[no_mangle]
pub unsafe extern "C" fn sm5_result_destroy(result: *mut sm5_dispatch_result) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(result) };
}
