//! The concurrency checker against the race benchmark (`tests/races/`,
//! `MANIFEST.toml`): every seeded bug is reported with its kind and its
//! instructions (disassembly text and listing line), every correct twin
//! produces no finding at all; and the example workloads produce none.

use serde::Deserialize;
use sm5sim::job::Job;
use sm5sim::sim_core::check::{CheckOptions, Checker, Finding, FindingKind, Severity};
use sm5sim::sim_core::exec::StopReason;
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{
    dispatch_with, DispatchError, DispatchOptions, FastPaths, Mode, WARP_WIDTH_GROUP,
};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Manifest {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[allow(dead_code)] // `word` and `resource` document the case
struct Case {
    name: String,
    kind: String,
    benign: bool,
    dxbc: bool,
    resource: String,
    word: String,
    instructions: Vec<String>,
    lines: Vec<u32>,
    dispatch: [u32; 3],
    resources: Vec<ResourceSpec>,
}

#[derive(Deserialize)]
struct ResourceSpec {
    slot: String,
    view: String,
    stride: u32,
    elements: u32,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/races")
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(dir().join("MANIFEST.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

/// Run `<case>_<variant>` (its DXBC when there is one, else its listing)
/// under the checker at `warp_width`, on zeroed resources built from the
/// manifest; the findings, with listing lines from the `.asm`.
fn check_case(case: &Case, variant: &str, warp_width: usize) -> Vec<Finding> {
    check_case_with(case, variant, warp_width, FastPaths::ALL)
}

/// [`check_case`] with these fast paths.
fn check_case_with(
    case: &Case,
    variant: &str,
    warp_width: usize,
    fast_paths: FastPaths,
) -> Vec<Finding> {
    check_case_memory(case, variant, warp_width, fast_paths).0
}

/// [`check_case_with`]'s findings, and the words of its buffers after the
/// dispatch, in the manifest's order.
fn check_case_memory(
    case: &Case,
    variant: &str,
    warp_width: usize,
    fast_paths: FastPaths,
) -> (Vec<Finding>, Vec<Vec<u32>>) {
    let stem = format!("{}_{variant}", case.name);
    let listing = std::fs::read_to_string(dir().join(format!("{stem}.asm"))).unwrap();
    let program = if variant == "ok" || case.dxbc {
        let bytes = std::fs::read(dir().join(format!("{stem}.dxbc"))).unwrap();
        Program::from_dxbc(&bytes, &LoadOptions::default()).unwrap()
    } else {
        // The hand-edited listings open with a note above fxc's banner.
        Program::from_listing(&listing).unwrap()
    };
    let buffers: Vec<(u32, &ResourceSpec, Buffer)> = case
        .resources
        .iter()
        .map(|r| {
            let slot: u32 = r.slot[1..].parse().unwrap();
            let bytes = r.elements as usize
                * if r.view == "raw" {
                    4
                } else {
                    r.stride as usize
                };
            (slot, r, Buffer::zeroed(bytes).unwrap())
        })
        .collect();
    let mut bindings = Bindings::default();
    for (slot, r, buf) in &buffers {
        let view = match r.view.as_str() {
            "raw" => BufferView::raw(buf),
            _ => BufferView::structured(buf, r.stride).unwrap(),
        };
        let i = *slot as usize;
        let views = match r.slot.starts_with('t') {
            true => &mut bindings.srvs,
            false => &mut bindings.uavs,
        };
        if views.len() <= i {
            views.resize(i + 1, None);
        }
        views[i] = Some(view);
    }
    let mut checker = Checker::new(&program, CheckOptions::default());
    checker.set_listing(&listing);
    let options = DispatchOptions {
        warp_width,
        fast_paths,
        ..Default::default()
    };
    let mode = Mode::Checked(&mut checker);
    // a forward-progress hang stops the dispatch; the findings stay
    match dispatch_with(&program, &bindings, case.dispatch, &options, mode) {
        Ok(_) => {}
        Err(DispatchError::Runaway(r)) if r.reason == StopReason::NoProgress => {}
        Err(e) => panic!("{stem}: {e}"),
    }
    let words = buffers.iter().map(|(_, _, b)| b.to_words()).collect();
    (checker.into_findings(), words)
}

/// A job in `tmp` running case `name`'s DXBC over 4 groups with
/// `resources` (TOML tables); its path.
fn case_job(tmp: &Path, name: &str, resources: &str) -> PathBuf {
    let path = tmp.join(format!("{name}.toml"));
    let text = format!(
        "shader = \"{}\"\n{resources}[[steps]]\ndispatch = [4, 1, 1]\n",
        dir().join(format!("{name}.dxbc")).display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// The `sm5sim` command run with `args`.
fn sm5sim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(args)
        .output()
        .unwrap()
}

fn describe(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{f}\n"))
        .collect::<String>()
}

/// Whether `f` is the case's seeded bug: its kind, its instructions' text
/// and listing lines (in program order).
fn matches(case: &Case, f: &Finding) -> bool {
    if f.kind.name() != case.kind || f.benign != case.benign {
        return false;
    }
    let mut sites = vec![&f.first.site];
    if case.instructions.len() == 2 {
        match &f.second {
            Some(s) => sites.push(&s.site),
            None => return false,
        }
    }
    sites
        .iter()
        .zip(case.instructions.iter().zip(&case.lines))
        .all(|(s, (text, line))| s.text == text.trim() && s.line == Some(*line))
}

#[test]
fn manifest_lists_every_case_of_the_directory() {
    let m = manifest();
    assert_eq!(m.case.len(), 44);
    for c in &m.case {
        for f in [
            format!("{}_bug.asm", c.name),
            format!("{}_ok.asm", c.name),
            format!("{}_ok.dxbc", c.name),
        ] {
            assert!(dir().join(&f).exists(), "{f}");
        }
        assert_eq!(dir().join(format!("{}_bug.dxbc", c.name)).exists(), c.dxbc);
    }
}

#[test]
fn every_seeded_bug_is_reported_and_no_correct_twin_is() {
    let mut failures = Vec::new();
    for warp_width in [32, 1, 64, WARP_WIDTH_GROUP] {
        for case in &manifest().case {
            let bug = check_case(case, "bug", warp_width);
            if !bug.iter().any(|f| matches(case, f)) {
                failures.push(format!(
                    "{} (warp width {warp_width}): expected {} {:?} at lines {:?}; found:\n{}",
                    case.name,
                    case.kind,
                    case.instructions,
                    case.lines,
                    describe(&bug)
                ));
            }
            let ok = check_case(case, "ok", warp_width);
            if !ok.is_empty() {
                failures.push(format!(
                    "{}_ok (warp width {warp_width}) should be clean; found:\n{}",
                    case.name,
                    describe(&ok)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Two-pass checking (`FastPaths::CHECK_SCREEN`: a screen, then the
/// suspect words exactly) finds exactly what one exact pass finds — the
/// same findings, examples and counts — on every case, bug and twin, at
/// warp widths 1, 32 and the group's.
#[test]
fn two_pass_checking_finds_what_one_exact_pass_finds() {
    let exact = FastPaths::ALL.without(FastPaths::CHECK_SCREEN);
    let mut screened_some = false;
    for warp_width in [32, 1, WARP_WIDTH_GROUP] {
        for case in &manifest().case {
            for variant in ["bug", "ok"] {
                let two = check_case_with(case, variant, warp_width, FastPaths::ALL);
                let one = check_case_with(case, variant, warp_width, exact);
                assert_eq!(
                    two,
                    one,
                    "{}_{variant} at warp width {warp_width}:\ntwo passes:\n{}one:\n{}",
                    case.name,
                    describe(&two),
                    describe(&one)
                );
                screened_some |= !one.is_empty();
            }
        }
    }
    assert!(screened_some);
}

/// The checker sees the atomics that a checked run gathers
/// (`FastPaths::PRIVATE_ATOMICS`: a UAV only updated by one kind of
/// atomic that returns nothing) as it sees them applied one by one: every
/// race case, bug and twin, gives the same findings and leaves the same
/// words with and without gathering (at the group's width, where the
/// cases that add to a total without reading it gather).
#[test]
fn checked_runs_that_gather_atomics_find_and_leave_the_same() {
    let plain = FastPaths::ALL.without(FastPaths::PRIVATE_ATOMICS);
    for case in &manifest().case {
        for variant in ["bug", "ok"] {
            let gathered = check_case_memory(case, variant, WARP_WIDTH_GROUP, FastPaths::ALL);
            let one_by_one = check_case_memory(case, variant, WARP_WIDTH_GROUP, plain);
            assert_eq!(gathered.0, one_by_one.0, "{}_{variant}", case.name);
            assert_eq!(gathered.1, one_by_one.1, "{}_{variant}", case.name);
        }
    }
}

/// The eight workloads, as their job files describe them, at warp widths
/// 32 and the group size: no finding but one, which is legal and meant:
/// reduce's padding threads (past the million values) read `values` past
/// its end, which reads 0, and mask the value with their bounds test.
#[test]
fn the_workloads_are_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut failures = Vec::new();
    for name in [
        "histogram",
        "global_histogram",
        "reduce",
        "scan",
        "matmul",
        "saxpy_structured",
        "cas_float_add",
        "mandelbrot",
    ] {
        let path = root.join(name).join(format!("{name}.toml"));
        for warp_width in [32, 1024] {
            let job = Job::load(&path, &LoadOptions::default()).unwrap();
            let options = DispatchOptions {
                warp_width,
                ..Default::default()
            };
            let report = job.run_checked(&options, CheckOptions::default()).unwrap();
            assert!(
                report.steps.iter().all(|s| s.passed()),
                "{name}: an expectation failed under checking"
            );
            let expected = |f: &Finding| {
                name == "reduce"
                    && f.kind.name() == "out-of-bounds"
                    && f.resource.as_deref() == Some("t0")
                    && f.byte_offset == Some(4_000_000)
            };
            if report.findings.len() != usize::from(name == "reduce")
                || !report.findings.iter().all(expected)
            {
                failures.push(format!(
                    "{name} (warp width {warp_width}):\n{}",
                    describe(&report.findings)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Run an assembled listing under the checker with one zeroed raw UAV of
/// `words` words per entry of `uavs`.
fn check_listing(text: &str, uavs: &[usize], groups: [u32; 3]) -> Vec<Finding> {
    let decoded = sm5sim::sim_core::front::asm::assemble(text).unwrap();
    let program = Program::from_decoded(decoded, None).unwrap();
    let buffers: Vec<Buffer> = uavs
        .iter()
        .map(|&w| Buffer::zeroed(w * 4).unwrap())
        .collect();
    let bindings = Bindings {
        uavs: buffers.iter().map(|b| Some(BufferView::raw(b))).collect(),
        ..Default::default()
    };
    let mut checker = Checker::new(&program, CheckOptions::default());
    checker.set_listing(text);
    let mode = Mode::Checked(&mut checker);
    dispatch_with(
        &program,
        &bindings,
        groups,
        &DispatchOptions::default(),
        mode,
    )
    .unwrap();
    checker.into_findings()
}

#[test]
fn out_of_bounds_uav_accesses_are_warnings_naming_the_address() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
store_raw u0.x, r0.x, l(1)
ret
";
    let f = check_listing(text, &[2], [1, 1, 1]);
    assert_eq!(f.len(), 1, "{}", describe(&f));
    let f = &f[0];
    assert_eq!(f.kind.name(), "out-of-bounds");
    assert_eq!(f.severity(), Severity::Warning);
    assert_eq!(f.resource.as_deref(), Some("u0"));
    assert_eq!(f.byte_offset, Some(8), "thread 2 stores at byte 8 of 8");
    assert_eq!(f.first.thread.index, 2);
    assert_eq!(f.first.site.text, "store_raw u0.x, r0.x, l(1)");
    assert_eq!(f.first.site.line, Some(7));
    assert_eq!(f.count, 2);
}

/// The "last group" reduction of `loom-tests` (one thread per group): each
/// group stores its partial, fences, bumps a counter; the last one reads all
/// partials. Clean only with `_glc` and the writer's `sync_uglobal`.
#[test]
fn last_group_pattern_needs_globallycoherent_and_the_device_barrier() {
    let text = "cs_5_0
dcl_uav_raw_glc u0
dcl_uav_raw_glc u1
dcl_input vThreadGroupID.x
dcl_temps 3
dcl_thread_group 1, 1, 1
ishl r0.x, vThreadGroupID.x, l(2)
iadd r0.y, vThreadGroupID.x, l(10)
store_raw u0.x, r0.x, r0.y
sync_uglobal
imm_atomic_iadd r1.x, u1, l(0), l(1)
ieq r1.y, r1.x, l(3)
if_nz r1.y
  sync_uglobal
  mov r2.x, l(0)
  mov r2.y, l(0)
  loop
    uge r2.z, r2.y, l(4)
    breakc_nz r2.z
    ishl r2.w, r2.y, l(2)
    ld_raw r2.z, r2.w, u0.xxxx
    iadd r2.x, r2.x, r2.z
    iadd r2.y, r2.y, l(1)
  endloop
  store_raw u1.x, l(4), r2.x
endif
ret
";
    let clean = check_listing(text, &[4, 2], [4, 1, 1]);
    assert!(clean.is_empty(), "{}", describe(&clean));
    let expect_visibility = |text: &str, what: &str| {
        let f = check_listing(text, &[4, 2], [4, 1, 1]);
        assert!(
            f.iter().any(|f| f.kind.name() == "cross-group-visibility"
                && f.first.site.text == "store_raw u0.x, r0.x, r0.y"
                && f.second.as_ref().map(|s| s.site.text.as_str())
                    == Some("ld_raw r2.z, r2.w, u0.xxxx")
                && f.first.thread.group != f.second.as_ref().unwrap().thread.group),
            "{what}: {}",
            describe(&f)
        );
    };
    expect_visibility(
        &text.replacen("sync_uglobal\n", "", 1),
        "no writer-side sync_uglobal",
    );
    expect_visibility(
        &text.replace("dcl_uav_raw_glc u0", "dcl_uav_raw u0"),
        "u0 not _glc",
    );
}

/// `sm5sim check`: text, JSON and the exit status.
#[test]
fn the_check_command_reports_in_text_and_json() {
    let tmp = std::env::temp_dir().join(format!("sm5sim-races-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let job = |name: &str| {
        let resources = "[resources.o]\nelements = 256\n";
        case_job(&tmp, name, resources)
    };

    let bug = job("tgsm_raw_no_barrier_bug");
    let out = sm5sim(&["check", bug.to_str().unwrap(), "--races"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[raw] g0[1] byte 4"), "{text}");
    assert!(
        // (the lines are of the listing `sm5sim disasm` prints: the job's
        // shader is a container)
        text.contains("line 43 of sm5sim disasm (dword 30) store_structured g0.x"),
        "{text}"
    );
    assert!(
        !text.contains("uninitialised-read"),
        "--races selects races only: {text}"
    );
    assert!(text.contains("check: 1 error(s), 0 warning(s)"), "{text}");
    // a job whose shader is the listing names that file
    let asm = tmp.join("asm.toml");
    let listing = dir().join("tgsm_raw_no_barrier_bug.asm");
    let spec = format!(
        "shader = \"{}\"\n[resources.o]\nelements = 256\n[[steps]]\ndispatch = [4, 1, 1]\n",
        listing.display()
    );
    std::fs::write(&asm, spec).unwrap();
    let out = sm5sim(&["check", asm.to_str().unwrap(), "--races"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("line 43 of tgsm_raw_no_barrier_bug.asm (dword 30)"),
        "{text}"
    );

    // at warp width 32 the second warp's words are read before that warp
    // writes them: uninitialised too (at the group's width every thread
    // writes first)
    let out = sm5sim(&[
        "check",
        bug.to_str().unwrap(),
        "--json",
        "--warp-width",
        "32",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], false);
    let kinds: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["raw", "uninitialised-read"]);
    let raw = &v["findings"][0];
    assert_eq!(raw["resource"], "g0");
    assert_eq!(raw["first"]["line"], 43);
    assert_eq!(raw["second"]["line"], 46);
    assert_eq!(raw["first"]["listing"], "sm5sim disasm");
    assert_eq!(
        raw["second"]["instruction"],
        "ld_structured r0.x, r0.x, l(0), g0.xxxx"
    );
    assert_eq!(raw["first"]["thread_index"], 1);

    let ok = job("tgsm_raw_no_barrier_ok");
    let out = sm5sim(&["check", ok.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("check: 0 error(s), 0 warning(s)"), "{text}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Texture UAVs are shadowed per texel like buffer words: a neighbour's
/// texel read without a barrier is a race, and the twin with
/// `DeviceMemoryBarrierWithGroupSync` (`sync_uglobal_t`) is clean.
#[test]
fn texture_uav_races_are_found_and_the_synced_twin_is_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/texture_races");
    for warp_width in [1, 32, 64, WARP_WIDTH_GROUP] {
        let options = DispatchOptions {
            warp_width,
            ..Default::default()
        };
        let bug = Job::load(&dir.join("texture_race_bug.toml"), &LoadOptions::default()).unwrap();
        let report = bug.run_checked(&options, CheckOptions::default()).unwrap();
        assert_eq!(report.findings.len(), 1, "{}", describe(&report.findings));
        let f = &report.findings[0];
        assert_eq!(f.kind.name(), "raw", "{}", describe(&report.findings));
        // the texel by its address (group 0 writes row 0)
        assert!(
            f.element
                .as_deref()
                .is_some_and(|e| e.starts_with('(') && e.ends_with(", 0)")),
            "{}",
            describe(&report.findings)
        );
        assert!(
            f.first.site.text.starts_with("store_uav_typed u0"),
            "{}",
            describe(&report.findings)
        );
        let second = f.second.as_ref().unwrap();
        assert!(
            second
                .site
                .text
                .starts_with("ld_uav_typed_indexable(texture2d)"),
            "{}",
            describe(&report.findings)
        );
        // two-pass checking finds what one exact pass finds
        let exact = DispatchOptions {
            fast_paths: FastPaths::ALL.without(FastPaths::CHECK_SCREEN),
            ..options.clone()
        };
        let one = bug.run_checked(&exact, CheckOptions::default()).unwrap();
        assert_eq!(one.findings, report.findings);
        let ok = Job::load(&dir.join("texture_race_ok.toml"), &LoadOptions::default()).unwrap();
        let report = ok.run_checked(&options, CheckOptions::default()).unwrap();
        assert!(report.findings.is_empty(), "{}", describe(&report.findings));
    }
}

/// A compare-exchange retry loop runs at once under the checker too
/// (`FastPaths::CAS_LOOP`), and the checker finds what it finds in
/// lockstep: here a plain store by thread 0 and the other threads'
/// compare-exchanges on the same word with no barrier between them (and
/// nothing else).
#[test]
fn the_checker_finds_the_same_whether_retry_loops_run_at_once_or_in_lockstep() {
    let text = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 32, 1, 1
if_z vThreadIDInGroupFlattened.x
  store_raw u0.x, l(4), l(5)
endif
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, l(0), u0.xxxx
loop
  iadd r1.x, r0.w, l(1)
  imm_atomic_cmp_exch r1.x, u0, l(4), r0.w, r1.x
  ieq r1.y, r0.w, r1.x
  breakc_nz r1.y
  mov r0.w, r1.x
endloop
ret
";
    let decoded = sm5sim::sim_core::front::asm::assemble(text).unwrap();
    let program = Program::from_decoded(decoded, None).unwrap();
    let run = |paths: FastPaths| {
        let buffer = Buffer::zeroed(16).unwrap();
        let bindings = Bindings {
            uavs: vec![Some(BufferView::raw(&buffer))],
            ..Default::default()
        };
        let mut checker = Checker::new(&program, CheckOptions::default());
        checker.set_listing(text);
        let options = DispatchOptions {
            fast_paths: paths,
            ..Default::default()
        };
        let mode = Mode::Checked(&mut checker);
        dispatch_with(&program, &bindings, [2, 1, 1], &options, mode).unwrap();
        (describe(&checker.into_findings()), buffer.to_words())
    };
    let (at_once, words) = run(FastPaths::ALL);
    let (lockstep, lockstep_words) = run(FastPaths::ALL.without(FastPaths::CAS_LOOP));
    assert_eq!(at_once, lockstep);
    assert_eq!(words, lockstep_words);
    // the groups in order: each stores 5, then its 32 threads add 1
    assert_eq!(words[1], 37, "{words:?}");
    assert!(
        at_once.contains("imm_atomic_cmp_exch") && at_once.contains("store_raw"),
        "{at_once}"
    );
}

/// Run an assembled listing under the checker with `bindings`.
fn check_bound(text: &str, bindings: &Bindings<'_>, groups: [u32; 3]) -> Vec<Finding> {
    let decoded = sm5sim::sim_core::front::asm::assemble(text).unwrap();
    let program = Program::from_decoded(decoded, None).unwrap();
    let mut checker = Checker::new(&program, CheckOptions::default());
    checker.set_listing(text);
    let mode = Mode::Checked(&mut checker);
    dispatch_with(
        &program,
        bindings,
        groups,
        &DispatchOptions::default(),
        mode,
    )
    .unwrap();
    checker.into_findings()
}

/// Undefined behaviour is an error citing its FS section (issue 32): a TGSM
/// write outside its declaration, a misaligned raw address, a structure's
/// byte offset past its stride; an SRV read past its view is a legal
/// warning naming the SRV.
#[test]
fn undefined_accesses_are_errors_and_srv_reads_past_the_view_warnings() {
    // g0 holds 4 words; thread 4's store lands past it
    let tgsm = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_raw g0, 16
dcl_thread_group 5, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r0.x, l(1)
ret
";
    let f = check_listing(tgsm, &[4], [1, 1, 1]);
    assert_eq!(f.len(), 1, "{}", describe(&f));
    assert_eq!(f[0].kind.name(), "tgsm-out-of-bounds");
    assert_eq!(f[0].severity(), Severity::Error);
    assert_eq!(f[0].resource.as_deref(), Some("g0"));
    assert_eq!(f[0].element.as_deref(), Some("[4]"), "dword 4 of g0");
    assert_eq!(f[0].first.thread.index, 4);
    assert!(f[0].to_string().contains("FS §22.4.13"), "{}", f[0]);

    // byte address 2: misaligned, though in bounds
    let misaligned = "cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
store_raw u0.x, l(2), l(7)
ret
";
    let f = check_listing(misaligned, &[4], [1, 1, 1]);
    assert_eq!(f.len(), 1, "{}", describe(&f));
    assert_eq!(f[0].kind.name(), "misaligned-address");
    assert_eq!(f[0].severity(), Severity::Error);
    // the address as the shader gave it, in dword 0
    assert_eq!(f[0].byte_offset, Some(2));
    assert_eq!(f[0].element.as_deref(), Some("[0]"));
    assert!(f[0].to_string().contains("FS §7.13"), "{}", f[0]);

    // structures of 8 bytes, 4 of them: byte offset 8 of structure 1 is
    // past the stride (undefined: the executor writes the dword at its
    // flat address, 16, as DXVK does); structure 9 is past the view
    // (dropped)
    let structured = "cs_5_0
dcl_uav_structured u0, 8
dcl_temps 1
dcl_thread_group 1, 1, 1
store_structured u0.x, l(1), l(8), l(5)
store_structured u0.x, l(9), l(0), l(5)
ret
";
    let buf = Buffer::zeroed(32).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&buf, 8).unwrap())],
        ..Default::default()
    };
    let f = check_bound(structured, &b, [1, 1, 1]);
    let kinds: Vec<&str> = f.iter().map(|f| f.kind.name()).collect();
    assert_eq!(
        kinds,
        ["structure-out-of-bounds", "out-of-bounds"],
        "{}",
        describe(&f)
    );
    assert_eq!(f[0].severity(), Severity::Error);
    assert_eq!(f[1].severity(), Severity::Warning);
    // located as the shader indexes them: structure 1's byte 8, structure 9
    assert_eq!(f[0].element.as_deref(), Some("[1].8"));
    assert_eq!(f[1].element.as_deref(), Some("[9].0"));
    assert!(f[0].to_string().contains("u0[1].8 byte 16"), "{}", f[0]);
    assert_eq!(buf.to_words(), vec![0, 0, 0, 0, 5, 0, 0, 0]);

    // an SRV of 2 words read at words 0..4
    let srv = "cs_5_0
dcl_resource_raw t0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.y, r0.x, t0.xxxx
store_raw u0.x, r0.x, r0.y
ret
";
    let values = Buffer::from_words(&[7, 8]);
    let out = Buffer::zeroed(16).unwrap();
    let b = Bindings {
        srvs: vec![Some(BufferView::raw(&values))],
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let f = check_bound(srv, &b, [1, 1, 1]);
    assert_eq!(f.len(), 1, "{}", describe(&f));
    assert_eq!(f[0].kind.name(), "out-of-bounds");
    assert_eq!(f[0].severity(), Severity::Warning);
    assert_eq!(f[0].resource.as_deref(), Some("t0"));
    assert_eq!((f[0].byte_offset, f[0].count), (Some(8), 2));
    assert_eq!(out.to_words(), vec![7, 8, 0, 0]);
}

/// `imm_atomic_alloc` and `imm_atomic_consume` on one UAV's counter in one
/// dispatch: an error naming both instructions (FS §22.17.17–18); either
/// alone is clean.
#[test]
fn incrementing_and_decrementing_one_counter_is_an_error() {
    let both = "cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 2, 1, 1
if_z vThreadIDInGroupFlattened.x
  imm_atomic_alloc r0.x, u0
else
  imm_atomic_consume r0.x, u0
endif
ret
";
    let buf = Buffer::zeroed(16).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&buf, 4).unwrap())],
        ..Default::default()
    };
    let f = check_bound(both, &b, [1, 1, 1]);
    assert_eq!(f.len(), 1, "{}", describe(&f));
    assert_eq!(f[0].kind.name(), "counter-increment-and-decrement");
    assert_eq!(f[0].severity(), Severity::Error);
    assert_eq!(f[0].first.site.text, "imm_atomic_alloc r0.x, u0");
    assert_eq!(
        f[0].second.as_ref().map(|s| s.site.text.as_str()),
        Some("imm_atomic_consume r0.x, u0")
    );
    let alloc_only = both.replace("imm_atomic_consume", "imm_atomic_alloc");
    let f = check_bound(&alloc_only, &b, [1, 1, 1]);
    assert!(f.is_empty(), "{}", describe(&f));
}

/// A forward-progress hang under `sm5sim check`: the checker stops the
/// dispatch (long before the watchdog), the report keeps its finding —
/// the spin, with the groups that could change the word — says the
/// dispatch stopped, and the status is 1; in JSON too, with the stop as
/// "error". The correct twin runs to its end.
#[test]
fn a_forward_progress_hang_stops_the_check_and_keeps_its_findings() {
    let tmp = std::env::temp_dir().join(format!("sm5sim-progress-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let job = |name: &str| {
        let resources = "[resources.flag]\nslot = \"u0\"\nelements = 1\n\
                         [resources.o]\nslot = \"u1\"\nelements = 1\n";
        case_job(&tmp, name, resources)
    };
    let bug = job("wait_for_later_group_bug");
    let started = std::time::Instant::now();
    let out = sm5sim(&["check", bug.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the checker, not the 60 s watchdog, stops it: {text}"
    );
    assert!(
        text.contains("error[forward-progress] u0[0] ('flag')"),
        "{text}"
    );
    assert!(text.contains("imm_atomic_or r0.x, u0"), "{text}");
    assert!(
        text.contains("no finished group changed it; 3 group(s) had not started"),
        "{text}"
    );
    assert!(
        text.contains("error: steps[0]: dispatch stopped: stopped by the checker"),
        "{text}"
    );
    assert!(text.contains("a dispatch was STOPPED"), "{text}");
    let out = sm5sim(&["check", bug.to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["passed"], false);
    assert!(
        doc["error"].as_str().unwrap().contains("forward-progress"),
        "{doc}"
    );
    let kinds: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"forward-progress"), "{doc}");
    assert!(doc["findings"][0]["note"].is_string(), "{doc}");
    let ok = job("wait_for_later_group_ok");
    let out = sm5sim(&["check", ok.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    std::fs::remove_dir_all(&tmp).ok();
}

/// The screen counts a plain load of a resource that the program
/// compare-exchanges on as a compare-exchange loop's guess only once its
/// thread's compare-exchange on the word validates it: a load that no
/// compare-exchange of its thread follows (within the group, or in another
/// group than the compare-exchanges) is still found as one exact pass
/// finds it, also where no store touches the UAV (no shadow for it).
#[test]
fn two_pass_checking_finds_plain_loads_that_no_compare_exchange_validates() {
    let within = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\ndcl_temps 2\n\
        dcl_thread_group 64, 1, 1\nif_z vThreadIDInGroupFlattened.x\n  ld_raw r0.x, l(0), u0.xxxx\n  \
        store_raw u0.x, l(4), r0.x\nelse\n  \
        imm_atomic_cmp_exch r1.x, u0, l(0), l(0), vThreadIDInGroupFlattened.x\nendif\nret\n";
    let across = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadGroupID.x\ndcl_temps 2\n\
        dcl_thread_group 4, 1, 1\nif_z vThreadGroupID.x\n  \
        imm_atomic_cmp_exch r1.x, u0, l(0), l(0), l(7)\nelse\n  ld_raw r0.x, l(0), u0.xxxx\n  \
        store_raw u0.x, l(4), r0.x\nendif\nret\n";
    // the loaded value stored elsewhere: u0 has no store, so the screen
    // keeps no shadow for it (only atomics and guesses touch it), and the
    // guess rule alone marks the word
    let quiet = |text: &str| {
        text.replace("dcl_uav_raw u0\n", "dcl_uav_raw u0\ndcl_uav_raw u1\n")
            .replace("store_raw u0.x, l(4), r0.x", "store_raw u1.x, l(4), r0.x")
    };
    let (within_quiet, across_quiet) = (quiet(within), quiet(across));
    assert!(within_quiet.contains("store_raw u1.x") && across_quiet.contains("store_raw u1.x"));
    for (name, text) in [
        ("within", within),
        ("across", across),
        ("within, u0 only guessed", &within_quiet),
        ("across, u0 only guessed", &across_quiet),
    ] {
        let program = Program::from_listing(text).unwrap();
        let run = |fast_paths: FastPaths| {
            let (buffer, other) = (Buffer::zeroed(64).unwrap(), Buffer::zeroed(64).unwrap());
            let bindings = Bindings {
                uavs: vec![
                    Some(BufferView::raw(&buffer)),
                    Some(BufferView::raw(&other)),
                ],
                ..Default::default()
            };
            let mut checker = Checker::new(&program, CheckOptions::default());
            let options = DispatchOptions {
                fast_paths,
                ..Default::default()
            };
            dispatch_with(
                &program,
                &bindings,
                [2, 1, 1],
                &options,
                Mode::Checked(&mut checker),
            )
            .unwrap();
            checker.into_findings()
        };
        let two = run(FastPaths::ALL);
        let one = run(FastPaths::ALL.without(FastPaths::CHECK_SCREEN));
        assert!(!one.is_empty(), "{name}: the exact pass finds the race");
        assert_eq!(two, one, "{name}:\n{}", describe(&two));
    }
}

/// A load into `null` reads no dword: the screen takes it without a word
/// (it once indexed an empty list of dwords when every lane's address was
/// the same), at warp width 1 and the group's, and finds nothing.
#[test]
fn a_load_into_null_has_no_access_to_screen() {
    let listing = std::fs::read_to_string(dir().join("uav_waw_across_groups_ok.asm")).unwrap();
    let listing = listing.replace(
        "store_structured u0.x, r0.x, l(0), vThreadGroupID.x",
        "ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) null, l(0), l(0), u0.xxxx\nstore_structured u0.x, r0.x, l(0), vThreadGroupID.x",
    );
    assert!(listing.contains("null, l(0)"));
    let program = Program::from_listing(&listing).unwrap();
    let buf = Buffer::zeroed(4 * 256).unwrap();
    let bindings = Bindings {
        uavs: vec![Some(BufferView::structured(&buf, 4).unwrap())],
        ..Default::default()
    };
    for warp_width in [1, WARP_WIDTH_GROUP] {
        let mut checker = Checker::new(&program, CheckOptions::default());
        let options = DispatchOptions {
            warp_width,
            ..Default::default()
        };
        dispatch_with(
            &program,
            &bindings,
            [4, 1, 1],
            &options,
            Mode::Checked(&mut checker),
        )
        .unwrap();
        let findings = checker.into_findings();
        assert!(findings.is_empty(), "{}", describe(&findings));
        // every group wrote its own words
        assert_eq!(buf.to_words()[64 * 3 + 5], 3);
    }
}

/// The last-group protocol holds for texture UAVs as for buffers: on a
/// `globallycoherent RWTexture2D` (fence, then ticket) the last group's
/// reads are clean; on one that is not globally coherent they are
/// `cross-group-visibility`, whose note says that is what is missing. (The
/// checker took only buffer declarations' `_glc` and reported the
/// globally coherent texture too.)
#[test]
fn the_last_group_protocol_on_a_texture_is_that_of_buffers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/texture_races");
    for warp_width in [1, 64] {
        let options = DispatchOptions {
            warp_width,
            ..Default::default()
        };
        let run = |name: &str| {
            let job = Job::load(&dir.join(name), &LoadOptions::default()).unwrap();
            let report = job.run_checked(&options, CheckOptions::default()).unwrap();
            assert!(report.steps.iter().all(|s| s.passed()), "{name}");
            report.findings
        };
        let ok = run("last_group_texture_ok.toml");
        assert!(ok.is_empty(), "{}", describe(&ok));
        let bug = run("last_group_texture_bug.toml");
        assert!(!bug.is_empty());
        assert!(
            bug.iter().all(|f| f.kind.name() == "cross-group-visibility"
                && f.note
                    .as_deref()
                    .is_some_and(|n| n.contains("globallycoherent"))),
            "{}",
            describe(&bug)
        );
    }
}

/// A `cross-group-visibility` finding says which step of the protocol is
/// missing: the fence after the ticket (its place), the reader's part
/// (a barrier that fences groupshared memory only does not carry the
/// ticket), no fence, no globallycoherent.
#[test]
fn visibility_findings_name_the_missing_step() {
    let m = manifest();
    let note = |name: &str| {
        let case = m.case.iter().find(|c| c.name == name).unwrap();
        let findings = check_case(case, "bug", WARP_WIDTH_GROUP);
        let f = findings
            .iter()
            .find(|f| f.kind.name() == "cross-group-visibility")
            .unwrap_or_else(|| panic!("{name}: {}", describe(&findings)));
        f.note.clone().unwrap_or_default()
    };
    assert!(
        note("last_group_fence_after_ticket").contains("the fence is after the signalling atomic")
    );
    assert!(note("last_group_barrier_carries_ticket").contains("the reading thread takes no part"));
    assert!(note("last_group_no_device_barrier")
        .contains("a DeviceMemoryBarrier (sync_uglobal) after the write"));
    assert!(note("last_group_not_globallycoherent").contains("not declared globallycoherent"));
}

/// A wait on another group says whether this run saw it hang or the rule
/// found it (the awaited group had finished first), and a wait on a group
/// that took its ticket first (a decoupled look-back) is the
/// occupancy-dependent warning, naming the ticket; a work queue's own
/// atomic on the word it tests is no wait, even in the groups that find
/// the queue empty.
#[test]
fn forward_progress_says_what_was_seen_and_whether_the_group_had_started() {
    let m = manifest();
    let finding = |name: &str, variant: &str, kind: &str| {
        let case = m.case.iter().find(|c| c.name == name).unwrap();
        let findings = check_case(case, variant, WARP_WIDTH_GROUP);
        findings.iter().find(|f| f.kind.name() == kind).cloned()
    };
    let note = |name: &str, kind: &str| {
        let f = finding(name, "bug", kind).unwrap_or_else(|| panic!("{name}: no {kind}"));
        (f.severity(), f.note.unwrap_or_default())
    };
    let (sev, n) = note("wait_for_earlier_group", "forward-progress");
    assert_eq!(sev, Severity::Error);
    assert!(
        n.starts_with("this run saw no wait that did not end"),
        "{n}"
    );
    let (_, n) = note("wait_for_later_group", "forward-progress");
    assert!(n.contains("in 65536 reads"), "{n}");
    let (sev, n) = note("look_back_started_group", "occupancy-dependent-progress");
    assert_eq!(sev, Severity::Warning);
    assert!(n.contains("both took a ticket from u0[0]"), "{n}");
    assert!(finding("look_back_started_group", "bug", "forward-progress").is_none());
    for kind in ["forward-progress", "cross-group-atomic-vs-plain"] {
        assert!(
            finding("work_queue_own_atomic", "ok", kind).is_none(),
            "{kind}"
        );
    }
}

/// docs/checking.md's example reports ("Example reports": one of each
/// kind, from a seeded bug of `tests/races/`) are what `sm5sim check`
/// prints for that case, run as a job with zeroed resources named by their
/// slots: each block, line for line (`SM5SIM_BLESS=1` rewrites the
/// blocks from the output).
#[test]
fn checking_md_example_reports_are_the_checks_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/checking.md")).unwrap();
    let m = manifest();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("checking_md_examples");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let mut compared = 0;
    // SM5SIM_BLESS=1: write what was printed into the doc instead
    let bless = std::env::var_os("SM5SIM_BLESS").is_some_and(|v| v == "1");
    let mut blessed = text.clone();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        // "`kind` (`tests/races/NAME_bug.hlsl`):", a blank line, the block
        let Some((kind, rest)) = line
            .strip_prefix('`')
            .and_then(|l| l.split_once("` (`tests/races/"))
        else {
            continue;
        };
        let Some(name) = rest.strip_suffix("_bug.hlsl`):") else {
            continue;
        };
        assert_eq!(lines.next(), Some(""), "{name}");
        let mut block = Vec::new();
        while let Some(l) = lines.peek().and_then(|l| l.strip_prefix("    ")) {
            block.push(l.to_string());
            lines.next();
        }
        let case = m
            .case
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        let shader = dir().join(format!(
            "{name}_bug.{}",
            if case.dxbc { "dxbc" } else { "asm" }
        ));
        let mut job = format!("shader = \"{}\"\n", shader.display());
        for r in &case.resources {
            let size = match r.view.as_str() {
                "raw" => format!("size_bytes = {}", r.elements * 4),
                _ => format!("elements = {}", r.elements),
            };
            job += &format!("[resources.{}]\n{size}\n", r.slot);
        }
        let [x, y, z] = case.dispatch;
        job += &format!("[[steps]]\ndispatch = [{x}, {y}, {z}]\n");
        let path = tmp.join(format!("{name}.toml"));
        std::fs::write(&path, job).unwrap();
        let out = sm5sim(&["check", path.to_str().unwrap()]);
        let printed = String::from_utf8_lossy(&out.stdout);
        // the finding of the kind: its first line and the indented ones after it
        let mut got = Vec::new();
        for l in printed.lines() {
            if got.is_empty() {
                if l.starts_with(&format!("error[{kind}]"))
                    || l.starts_with(&format!("warning[{kind}]"))
                {
                    got.push(l.to_string());
                }
            } else if l.starts_with("  ") {
                got.push(l.to_string());
            } else {
                break;
            }
        }
        if bless {
            let old: String = block.iter().map(|l| format!("    {l}\n")).collect();
            let new: String = got.iter().map(|l| format!("    {l}\n")).collect();
            blessed = blessed.replacen(&old, &new, 1);
        } else {
            assert_eq!(
                got, block,
                "docs/checking.md's `{kind}` example (SM5SIM_BLESS=1 rewrites it); sm5sim check printed:\n{printed}"
            );
        }
        compared += 1;
    }
    // one example of every kind
    let shown: Vec<&str> = (text.lines())
        .filter_map(|l| l.strip_prefix('`')?.split_once("` (`tests/races/"))
        .map(|(kind, _)| kind)
        .collect();
    for kind in FindingKind::ALL {
        assert!(
            shown.contains(&kind.name()),
            "docs/checking.md has no `{kind}` example"
        );
    }
    assert_eq!(compared, FindingKind::ALL.len(), "{compared} examples");
    if bless {
        std::fs::write(root.join("docs/checking.md"), blessed).unwrap();
    }
}

/// Findings a job's `[check] allow` rule or a marker in the HLSL source
/// suppresses are not reported: they are counted apart with what
/// suppressed each (text and JSON), the exit status ignores them, and a
/// marker naming no kind is said and suppresses nothing; a rule naming no
/// kind or no resource of the job is refused at its key.
#[test]
fn suppressions_by_rule_and_marker_are_counted_apart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let job = root.join("tests/debug_info/allowed.toml");
    let o = sm5sim(&["check", job.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "suppressed[raw] g0 ('s') (256 times): by sm5sim: allow(raw) at allowed.hlsl:12"
        ),
        "{text}"
    );
    assert!(text.contains("suppressed[out-of-bounds] u0 ('o') (128 times): by allow kind = \"out-of-bounds\", resource = \"o\""), "{text}");
    assert!(
        text.contains("warning: allowed.hlsl:13: 'oob' is not a kind of finding"),
        "{text}"
    );
    assert!(
        text.ends_with("check: 0 error(s), 0 warning(s), 2 suppressed\n"),
        "{text}"
    );
    let o = sm5sim(&["check", job.to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["errors"], 0);
    let kinds: Vec<&str> = (doc["suppressed"].as_array().unwrap().iter())
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["raw", "out-of-bounds"]);
    assert_eq!(doc["marker_problems"].as_array().unwrap().len(), 1);
    // without the rule the stores past the end are warnings again; the
    // marker still holds
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("suppressions");
    std::fs::create_dir_all(&tmp).unwrap();
    let text = std::fs::read_to_string(&job).unwrap();
    let shader = root.join("tests/debug_info/allowed.dxbc");
    let with = |check: &str| {
        let t = text
            .replace(
                "shader = \"allowed.dxbc\"",
                &format!("shader = {:?}", shader.to_str().unwrap()),
            )
            .replace(
                "allow = [{ kind = \"out-of-bounds\", resource = \"o\" }]",
                check,
            );
        let p = tmp.join("job.toml");
        std::fs::write(&p, t).unwrap();
        sm5sim(&["check", p.to_str().unwrap()])
    };
    let o = with("allow = []");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("warning[out-of-bounds] u0[128] ('o')"),
        "{out}"
    );
    assert!(
        out.ends_with("check: 0 error(s), 1 warning(s), 1 suppressed\n"),
        "{out}"
    );
    // a bad rule is refused at its key
    let o = with("allow = [{ kind = \"races\" }]");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("check.allow[0].kind: 'races' is not a kind of finding"),
        "{err}"
    );
    let o = with("allow = [{ kind = \"raw\", resource = \"bins\" }]");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "check.allow[0].resource: 'bins' is neither a resource of the job (o) nor a slot"
        ),
        "{err}"
    );
    let o = with("allow = [{ kind = \"raw\", where = \"u0\" }]");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("where"));
}
