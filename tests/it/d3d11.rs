//! sm5sim's `d3d11.dll` (`d3d11/`, `docs/d3d11.md`) under Wine: D3D11
//! console programs in C (`d3d11/tests/*.c`), built with mingw-w64 against
//! its `d3d11.h`, run unchanged with the DLL beside them, with no X server
//! (`DISPLAY` unset). Each program checks its results against what the
//! functional spec and the API reference say, prints `NAME: ok` and exits
//! with 0; a failed check prints `FAIL file:line: …`.
//!
//! Opt-in, as they need Wine, mingw-w64 and the built DLL: `d3d11/build.sh`,
//! then `SM5SIM_FXC=DIR/fxc cargo test --test it -- --ignored d3d11::`
//! (`.ci/run` does both; the program that compiles HLSL at run time takes
//! Microsoft's `d3dcompiler_47.dll` from `DIR/bin`, where
//! `tools/fxc/setup.sh DIR` put it; `SM5SIM_D3D11_DIST` names another
//! folder holding the DLLs). Without them the tests fail; they never pass
//! vacuously.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder with `d3d11.dll` and `bcryptprimitives.dll`.
fn dist() -> PathBuf {
    let dir = std::env::var_os("SM5SIM_D3D11_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("d3d11/target/dist"));
    for dll in ["d3d11.dll", "bcryptprimitives.dll"] {
        assert!(
            dir.join(dll).is_file(),
            "{} is missing: run d3d11/build.sh first",
            dir.join(dll).display()
        );
    }
    dir
}

/// The Wine prefix the tests share, made once (Wine makes a prefix at its
/// first run; two runs at once must not both make it).
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("d3d11-wineprefix");
        let status = Command::new("wineboot")
            .arg("-i")
            .env("WINEPREFIX", &p)
            .env("WINEDEBUG", "-all")
            .env_remove("DISPLAY")
            .status()
            .expect("wineboot (Wine) is not installed");
        assert!(status.success(), "wineboot -i: {status}");
        // wait for the prefix's wineserver to finish setting it up
        let _ = Command::new("wineserver")
            .arg("-w")
            .env("WINEPREFIX", &p)
            .status();
        p
    })
}

/// What a program printed and how it ended.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Build `d3d11/tests/NAME.c` into a folder of its own beside the DLLs and
/// run it with `args` after the shader folder, and `env`.
fn run(name: &str, args: &[&str], env: &[(&str, &str)]) -> Ran {
    run_with(name, args, env, &[])
}

/// As [`run`], with `dlls` copied beside the program too and Wine told to
/// take them (native) instead of its own.
fn run_with(name: &str, args: &[&str], env: &[(&str, &str)], dlls: &[PathBuf]) -> Ran {
    // a folder of this run's own: tests run the same program at once
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("d3d11")
        .join(format!("{name}-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tests = root().join("d3d11/tests");
    let exe = dir.join(format!("{name}.exe"));
    let out = Command::new("x86_64-w64-mingw32-gcc")
        .args(["-O1", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(tests.join(format!("{name}.c")))
        .args(["-ld3d11", "-ld3dcompiler_47", "-ldxguid"])
        .output()
        .expect("x86_64-w64-mingw32-gcc (mingw-w64) is not installed");
    assert!(
        out.status.success(),
        "building {name}.c:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dist = dist();
    for dll in ["d3d11.dll", "bcryptprimitives.dll"] {
        std::fs::copy(dist.join(dll), dir.join(dll)).unwrap();
    }
    let mut native = vec!["d3d11".to_string()];
    for dll in dlls {
        let file = dll.file_name().unwrap();
        std::fs::copy(dll, dir.join(file)).unwrap();
        native.push(dll.file_stem().unwrap().to_string_lossy().into_owned());
    }
    let mut cmd = Command::new("wine");
    cmd.arg(&exe)
        .arg(".")
        .args(args)
        .current_dir(tests.join("shaders"))
        .env("WINEPREFIX", prefix())
        .env("WINEDEBUG", "-all")
        // ours, never Wine's own d3d11
        .env("WINEDLLOVERRIDES", format!("{}=n", native.join(",")))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    for (k, _) in std::env::vars() {
        if k.starts_with("SM5SIM_") && k != "SM5SIM_D3D11_DIST" {
            cmd.env_remove(k);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("wine is not installed");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run `name` and assert that every check passed.
fn passes(name: &str, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let r = run(name, args, env);
    assert!(
        r.code == Some(0)
            && r.stdout.contains(&format!("{}: ok", name))
            && !r.stdout.contains("FAIL"),
        "{name} {args:?}: exit {:?}\nstdout:\n{}\nstderr:\n{}",
        r.code,
        r.stdout,
        r.stderr
    );
    r
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn saxpy_structured_buffers_constant_buffer_staging_map() {
    passes("saxpy", &[], &[]);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn a_two_pass_reduction_is_right_and_the_checker_finds_nothing() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("d3d11-reduce-clean");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("findings.txt");
    let _ = std::fs::remove_file(&log);
    let r = passes(
        "reduce",
        &[],
        &[
            ("SM5SIM_CHECK", "1"),
            ("SM5SIM_CHECK_LOG", log.to_str().unwrap()),
        ],
    );
    assert!(r.stdout.contains("total 196603.0"), "{}", r.stdout);
    let findings = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        findings.is_empty(),
        "findings on the right reduction:\n{findings}"
    );
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn the_checker_finds_the_seeded_race_of_a_multi_pass_program() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("d3d11-reduce-race");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("findings.txt");
    let _ = std::fs::remove_file(&log);
    let r = run(
        "reduce",
        &["race"],
        &[
            ("SM5SIM_CHECK", "1"),
            ("SM5SIM_CHECK_LOG", log.to_str().unwrap()),
        ],
    );
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    let findings = std::fs::read_to_string(&log).expect("SM5SIM_CHECK_LOG was not written");
    // the missing barrier: thread 0 reads s[128] which thread 128 wrote,
    // in both passes, each named by its dispatch number and shader
    for pass in [
        "Dispatch #1 (compute shader #1, 256x1x1 groups)",
        "Dispatch #2 (compute shader #1, 1x1x1 groups)",
    ] {
        assert!(
            findings
                .lines()
                .any(|l| l.starts_with(pass) && l.contains("error[raw] g0[128]")),
            "no race reported for {pass}:\n{findings}"
        );
    }
    // docs/d3d11.md shows the first finding as it is written
    let doc = std::fs::read_to_string(root().join("docs/d3d11.md")).unwrap();
    let sample = doc
        .split("<!-- findings sample: checked by tests/it/d3d11.rs -->\n```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/d3d11.md has no findings sample");
    let first: String = findings.lines().take(5).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        sample, first,
        "docs/d3d11.md's sample is not what the DLL writes"
    );
    // without the checker nothing is reported
    let quiet = run("reduce", &["race"], &[]);
    assert!(!quiet.stderr.contains("error[raw]"), "{}", quiet.stderr);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn buffer_views_updates_copies_clears_and_maps() {
    passes("buffers", &[], &[]);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn textures_mips_arrays_volumes_typeless_samplers_maps_and_copies() {
    passes("textures", &[], &[]);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn append_consume_counters_copy_structure_count_and_dispatch_indirect() {
    passes("append", &[], &[]);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn device_creation_com_private_data_getters_hazards_queries_features_and_refusals() {
    let r = passes("state", &[], &[]);
    // each refusal says why, once
    for said in [
        "CreateBuffer: ByteWidth is 0 (E_INVALIDARG)",
        "ID3D11Device::CreatePixelShader: sm5sim runs compute only; returned E_NOTIMPL",
        "ID3D11DeviceContext::Draw: sm5sim runs compute only; ignored",
        "Dispatch #1: no compute shader is set; nothing ran",
    ] {
        assert_eq!(r.stderr.matches(said).count(), 1, "{said}:\n{}", r.stderr);
    }
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("d3d11-files")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn the_environment_gives_a_profile_a_trace_messages_calls_a_log_and_schedules() {
    let dir = scratch("environment");
    // SM5SIM_PROFILE: every dispatch, named, with its counts
    let profile = dir.join("profile.json");
    passes(
        "saxpy",
        &[],
        &[("SM5SIM_PROFILE", profile.to_str().unwrap())],
    );
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).expect("no profile written"))
            .unwrap();
    let d = p["dispatches"].as_array().expect("a list of dispatches");
    assert_eq!(d.len(), 2, "{p}");
    for (i, e) in d.iter().enumerate() {
        assert_eq!(e["step"], i + 1);
        assert_eq!(e["thread_groups"], 16);
        assert_eq!(e["lanes"], 16 * 64);
        assert!(e["shader"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Dispatch #{} (compute shader #1", i + 1)));
        assert!(e["lane_instructions"].as_u64().unwrap() > 1000, "{e}");
    }
    // SM5SIM_MESSAGES: the shader's printf, with its dispatch and thread
    let said = "Dispatch #2 (compute shader #1, 1x1x1 groups): [group (0,0,0) thread (0,0,0)] total 196603.000000";
    let r = passes("reduce", &[], &[("SM5SIM_MESSAGES", "1")]);
    assert!(r.stderr.contains(said), "{}", r.stderr);
    let r = passes("reduce", &[], &[]);
    assert!(!r.stderr.contains("total 196603"), "{}", r.stderr);
    // SM5SIM_TRACE: a Chrome/Perfetto trace, each dispatch named, its
    // groups on their workers
    let trace = dir.join("trace.json");
    passes("saxpy", &[], &[("SM5SIM_TRACE", trace.to_str().unwrap())]);
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).expect("no trace written")).unwrap();
    let events = t.as_array().expect("a JSON array of events");
    let dispatches: Vec<_> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == 0)
        .collect();
    assert_eq!(dispatches.len(), 2, "{t}");
    assert_eq!(
        dispatches[1]["name"],
        "Dispatch #2 (compute shader #1, 16x1x1 groups)"
    );
    assert_eq!(dispatches[1]["args"]["thread_groups"], 16);
    assert!(
        events.iter().any(|e| e["ph"] == "X" && e["pid"] == 1),
        "no group events: {t}"
    );
    // SM5SIM_CALLS: the calls
    let r = passes("saxpy", &[], &[("SM5SIM_CALLS", "1")]);
    for call in [
        "D3D11CreateDevice: driver type 1",
        "CSSetShader: compute shader #1",
        "Dispatch #2 (compute shader #1, 16x1x1 groups)",
    ] {
        assert!(r.stderr.contains(call), "{call}:\n{}", r.stderr);
    }
    // schedules: deterministic on one thread, seeded, and 1 worker thread
    passes("reduce", &[], &[("SM5SIM_DETERMINISTIC", "1")]);
    passes(
        "reduce",
        &[],
        &[("SM5SIM_SCHEDULE_SEED", "7"), ("SM5SIM_WARP_WIDTH", "8")],
    );
    passes("append", &[], &[("SM5SIM_THREADS", "1")]);
    // a setting that cannot be read is said once, and ignored
    let log = dir.join("log.txt");
    let r = passes(
        "saxpy",
        &[],
        &[
            ("SM5SIM_THREADS", "many"),
            ("SM5SIM_LOG", log.to_str().unwrap()),
        ],
    );
    let text = std::fs::read_to_string(&log).expect("SM5SIM_LOG was not written");
    assert_eq!(
        text.matches("SM5SIM_THREADS=many: not a number; ignored")
            .count(),
        1,
        "{text}"
    );
    assert!(!r.stderr.contains("SM5SIM_THREADS"), "{}", r.stderr);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn device1_context1_constant_buffer_offsets_and_the_dxgi_adapter() {
    passes("device1", &[], &[]);
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn a_dispatch_that_never_ends_is_stopped_and_the_checker_names_the_wait() {
    let r = passes("hang", &[], &[("SM5SIM_TIMEOUT", "1")]);
    assert!(
        r.stderr.contains(
            "Dispatch #1 (compute shader #1, 1x1x1 groups): dispatch stopped: ran longer than 1.000 s"
        ) && r.stderr.contains("its writes until then stay"),
        "{}",
        r.stderr
    );
    let dir = scratch("hang");
    let log = dir.join("findings.txt");
    passes(
        "hang",
        &[],
        &[
            ("SM5SIM_TIMEOUT", "1"),
            ("SM5SIM_CHECK", "1"),
            ("SM5SIM_CHECK_LOG", log.to_str().unwrap()),
        ],
    );
    let findings = std::fs::read_to_string(&log).expect("no findings written");
    assert!(
        findings.starts_with("Dispatch #1 (compute shader #1, 1x1x1 groups): "),
        "{findings}"
    );
    assert!(
        findings.contains("error[forward-progress] u0[0] byte 0"),
        "{findings}"
    );
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn the_basic_compute_sample_flow_structured_and_raw() {
    let r = passes("basic_compute", &[], &[("SM5SIM_CALLS", "1")]);
    // the debug name names the shader
    assert!(
        r.stderr.contains("Dispatch #1 (CSMain, 1024x1x1 groups)"),
        "{}",
        r.stderr
    );
    passes("basic_compute", &["raw"], &[]);
}

/// Microsoft's `d3dcompiler_47.dll`, which `tools/fxc/setup.sh DIR` puts in
/// `DIR/bin/` (named by `SM5SIM_FXC=DIR/fxc`, as the HLSL tests take it).
fn microsoft_compiler() -> PathBuf {
    let fxc = std::env::var_os("SM5SIM_FXC")
        .map(PathBuf::from)
        .expect("SM5SIM_FXC is not set: tools/fxc/setup.sh DIR, then SM5SIM_FXC=DIR/fxc");
    let dll = fxc.parent().unwrap().join("bin/d3dcompiler_47.dll");
    assert!(dll.is_file(), "{} is missing", dll.display());
    dll
}

#[test]
#[ignore = "needs Wine, mingw-w64, the DLL and SM5SIM_FXC: d3d11/build.sh, then SM5SIM_FXC=DIR/fxc cargo test --test it -- --ignored d3d11::"]
fn hlsl_compiled_at_run_time_runs_and_its_race_is_named_by_hlsl_line() {
    let compiler = [microsoft_compiler()];
    let r = run_with("runtime_compile", &[], &[], &compiler);
    assert!(
        r.code == Some(0) && r.stdout.contains("runtime_compile: ok"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let dir = scratch("runtime_compile");
    let log = dir.join("findings.txt");
    let env = [
        ("SM5SIM_CHECK", "1"),
        ("SM5SIM_CHECK_LOG", log.to_str().unwrap()),
    ];
    let r = run_with("runtime_compile", &["race"], &env, &compiler);
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    let findings = std::fs::read_to_string(&log).expect("no findings written");
    // with D3DCOMPILE_DEBUG the finding names the groupshared variable and
    // the HLSL lines of the write and the read
    assert!(
        findings
            .starts_with("Dispatch #1 (compute shader #1, 4x1x1 groups): error[raw] g0[63] ('s')"),
        "{findings}"
    );
    assert!(
        findings.contains("reverse.hlsl:6: store_structured"),
        "{findings}"
    );
    assert!(
        findings.contains("reverse.hlsl:10: ld_structured"),
        "{findings}"
    );
}

#[test]
#[ignore = "needs Wine, mingw-w64 and the DLL: d3d11/build.sh, then cargo test --test it -- --ignored d3d11::"]
fn class_instances_bound_at_cs_set_shader_choose_the_methods() {
    let r = passes("classes", &[], &[]);
    assert!(
        r.stderr.contains(
            "CSSetShader: compute shader #1: interface slot 0 does not take class Times3"
        ),
        "{}",
        r.stderr
    );
}
