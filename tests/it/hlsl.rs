//! HLSL source input (`shader = "x.hlsl"`, `sm5sim compile`): compiler
//! discovery order, the DXBC cache and its key, the no-compiler message and
//! compile errors, tested with fake compilers (shell scripts that copy a known
//! DXBC and log their calls); and, where a real compiler is found, every
//! example compiled from its HLSL.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Whether the job file at `path` names an HLSL shader (`shader = "….hlsl"`).
pub(crate) fn is_hlsl_job(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    let job: toml::Table = text.parse().unwrap();
    job.get("shader")
        .and_then(|s| s.as_str())
        .is_some_and(|s| s.ends_with(".hlsl"))
}

/// The example job files that compile HLSL (the docs' example among them).
fn hlsl_example_jobs() -> Vec<PathBuf> {
    let mut jobs = Vec::new();
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        for f in std::fs::read_dir(entry.unwrap().path()).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "toml") && is_hlsl_job(&f) {
                jobs.push(f);
            }
        }
    }
    jobs.sort();
    assert!(
        jobs.iter()
            .any(|j| j.ends_with("examples/histogram/histogram_hlsl.toml")),
        "{jobs:?}"
    );
    jobs
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hlsl")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `sm5sim` with a controlled environment: no `SM5SIM_FXC` unless given,
/// `PATH` = `path` only, the cache in `cache`.
fn sm5sim(args: &[&str], path: &Path, cache: &Path, fxc_env: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sm5sim"));
    cmd.args(args)
        .env_remove("SM5SIM_FXC")
        .env("PATH", path)
        .env("SM5SIM_CACHE_DIR", cache);
    if let Some(f) = fxc_env {
        cmd.env("SM5SIM_FXC", f);
    }
    cmd.output().expect("run sm5sim")
}

/// A small histogram job whose shader is `shader` (written beside it as a
/// copy of the histogram example's HLSL, with `prefix` before it), plus
/// `extra` top-level keys.
fn hlsl_job(dir: &Path, prefix: &str, extra: &str) -> PathBuf {
    let src = std::fs::read_to_string(root().join("examples/histogram/histogram.hlsl")).unwrap();
    std::fs::write(dir.join("x.hlsl"), format!("{prefix}{src}")).unwrap();
    write_job(dir, "x.hlsl", extra)
}

fn write_job(dir: &Path, shader: &str, extra: &str) -> PathBuf {
    let path = dir.join("job.toml");
    std::fs::write(
        &path,
        format!(
            r#"shader = "{shader}"
{extra}

[resources.keys]
elements = 1024
init = {{ random_u32 = {{ seed = 7 }} }}

[resources.bins]
elements = 256
init = {{ fill_u32 = 0 }}

[resources.Params]
init = {{ fields = {{ key_count = 1024 }} }}

[[steps]]
dispatch = [4, 1, 1]

[[steps]]
expect = {{ resource = "bins", sum_u32 = 1024 }}
"#
        ),
    )
    .unwrap();
    path
}

/// A fake compiler `dir/name`: appends `TAG ARGS...` to `dir/calls.log`,
/// answers `--version`, fails like fxc on sources containing `SYNTAX_ERROR`,
/// else copies the histogram example's DXBC to the `-Fo` path.
#[cfg(unix)]
fn fake_compiler(dir: &Path, name: &str, tag: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let log = dir.join("calls.log");
    let dxbc = root().join("examples/histogram/histogram.dxbc");
    let script = format!(
        r#"#!/bin/sh
PATH=/usr/bin:/bin
echo "{tag} $*" >> '{log}'
if [ "$1" = "--version" ]; then echo "fake fxc {tag}"; exit 0; fi
src="$1"; out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-Fo" ]; then out="$2"; shift; fi
  shift
done
if grep -q SYNTAX_ERROR "$src"; then
  echo "$src(3,5): error X3000: syntax error: unexpected token 'SYNTAX_ERROR'" >&2
  echo "compilation failed; no code produced" >&2
  exit 1
fi
echo "$src(1,1): warning X3206: fake warning" >&2
cp '{dxbc}' "$out"
"#,
        log = log.display(),
        dxbc = dxbc.display()
    );
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The lines a fake compiler in `dir` logged.
fn calls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("calls.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn compiles(dir: &Path) -> usize {
    calls(dir)
        .iter()
        .filter(|l| !l.ends_with("--version"))
        .count()
}

#[test]
fn without_a_compiler_an_hlsl_job_fails_with_one_clear_message() {
    let dir = scratch("no_compiler");
    let empty = dir.join("empty_path");
    std::fs::create_dir_all(&empty).unwrap();
    let cache = dir.join("cache");
    let job = hlsl_job(&dir, "", "");
    let o = sm5sim(&["run", job.to_str().unwrap()], &empty, &cache, None);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "one message: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("x.hlsl: no HLSL compiler found"), "{err}");
    assert!(
        err.contains("--fxc PATH") && err.contains("SM5SIM_FXC"),
        "says where it looked: {err}"
    );
    // ... and names the repository's setup script by a path that exists
    let script = root().join("tools/fxc/setup.sh");
    assert!(script.is_file());
    assert!(
        err.contains(&format!("`{} DIR`", script.display())),
        "names {}: {err}",
        script.display()
    );
    assert!(
        err.contains("Wine")
            && err.contains("d3dcompiler_47.dll")
            && err.contains("under a minute"),
        "says what it installs and how long it takes: {err}"
    );

    let src = dir.join("x.hlsl");
    let o = sm5sim(
        &[
            "compile",
            src.to_str().unwrap(),
            "-o",
            dir.join("x.dxbc").to_str().unwrap(),
        ],
        &empty,
        &cache,
        None,
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no HLSL compiler found"), "{err}");
    assert!(!dir.join("x.dxbc").exists());

    // DXBC and listings keep working without a compiler.
    for shader in ["histogram.dxbc", "histogram.asm"] {
        let abs = root().join("examples/histogram").join(shader);
        let job = write_job(&dir, &abs.display().to_string(), "");
        let o = sm5sim(&["run", job.to_str().unwrap()], &empty, &cache, None);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{shader}: {out}\n{err}");
        assert!(out.contains(": ok"), "{out}");
    }
}

#[test]
fn hlsl_keys_are_rejected_for_other_shaders() {
    let dir = scratch("keys_for_dxbc");
    let abs = root().join("examples/histogram/histogram.dxbc");
    for (extra, key) in [
        ("entry = \"main\"", "entry"),
        ("profile = \"cs_5_0\"", "profile"),
        ("defines = { N = \"1\" }", "defines"),
        ("include_dirs = [\".\"]", "include_dirs"),
    ] {
        let job = write_job(&dir, &abs.display().to_string(), extra);
        let o = sm5sim(&["run", job.to_str().unwrap()], &dir, &dir, None);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("job.toml:2:1: {key}: "))
                && err.contains("apply to HLSL shaders only"),
            "{err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn discovery_order_is_flag_then_env_then_path() {
    let dir = scratch("discovery");
    let flag = fake_compiler(&dir.join("flag"), "my-fxc", "FLAG");
    let env = fake_compiler(&dir.join("env"), "env-fxc", "ENV");
    fake_compiler(&dir.join("path"), "fxc", "PATH");
    let path = dir.join("path");
    let cache = dir.join("cache");
    let job = hlsl_job(&dir, "", "");
    let job = job.to_str().unwrap();
    let flag_s = flag.to_str().unwrap();

    let run = |args: &[&str], env_fxc: Option<&Path>| {
        let o = sm5sim(args, &path, &cache, env_fxc);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
        assert!(out.contains(": ok"), "{out}");
        err
    };
    let err = run(
        &["run", job, "--no-cache", "--fxc", flag_s],
        Some(env.as_path()),
    );
    assert!(
        err.contains("compiled with") && err.contains("my-fxc"),
        "{err}"
    );
    assert_eq!(
        (
            compiles(&dir.join("flag")),
            compiles(&dir.join("env")),
            compiles(&dir.join("path"))
        ),
        (1, 0, 0)
    );
    run(&["run", job, "--no-cache"], Some(env.as_path()));
    assert_eq!(
        (
            compiles(&dir.join("flag")),
            compiles(&dir.join("env")),
            compiles(&dir.join("path"))
        ),
        (1, 1, 0)
    );
    run(&["run", job, "--no-cache"], None);
    assert_eq!(
        (
            compiles(&dir.join("flag")),
            compiles(&dir.join("env")),
            compiles(&dir.join("path"))
        ),
        (1, 1, 1)
    );
    // --no-cache never asks for the version either.
    assert!(calls(&dir.join("path"))
        .iter()
        .all(|l| !l.contains("--version")));

    // A named compiler that is not there is an error, not a fall-through.
    let missing = dir.join("nowhere/fxc");
    let o = sm5sim(
        &["run", job, "--fxc", missing.to_str().unwrap()],
        &path,
        &cache,
        None,
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--fxc names") && err.contains("nowhere"),
        "{err}"
    );
    let o = sm5sim(&["run", job], &path, &cache, Some(&missing));
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("SM5SIM_FXC names"), "{err}");
    assert_eq!(compiles(&dir.join("path")), 1);
}

#[cfg(unix)]
#[test]
fn the_cache_saves_the_compiler_and_its_key_sees_every_input() {
    let dir = scratch("cache");
    let fake_dir = dir.join("bin");
    fake_compiler(&fake_dir, "fxc", "PATH");
    let cache = dir.join("cache");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/common.hlsli"), "#define ONE 1\n").unwrap();
    let prefix = "#include \"common.hlsli\"\n";
    let defines = |n: u32, entry: &str| {
        format!("entry = \"{entry}\"\ndefines = {{ N = \"{n}\", M = 2 }}\ninclude_dirs = [\"inc\"]")
    };
    let job = hlsl_job(&dir, prefix, &defines(1, "main"));
    let job_s = job.to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", job_s.as_str()];
        args.extend_from_slice(extra);
        let o = sm5sim(&args, &fake_dir, &cache, None);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
        assert!(out.contains(": ok"), "{out}");
        err
    };

    let err = run(&[]);
    assert!(err.contains("compiled with"), "{err}");
    assert!(
        err.contains("warning X3206: fake warning"),
        "warnings pass: {err}"
    );
    assert_eq!(compiles(&fake_dir), 1);
    let first = calls(&fake_dir);
    assert_eq!(
        first.len(),
        2,
        "--version once, then the compile: {first:?}"
    );
    let inc = dir.join("inc");
    let compile_line = &first[1];
    for arg in [
        "-E main".to_string(),
        "-T cs_5_0".into(),
        "-D M=2 -D N=1".into(),
        format!("-I {}", inc.display()),
        "-Fo ".into(),
    ] {
        assert!(compile_line.contains(&arg), "{arg} in {compile_line}");
    }
    let entries: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        entries
            .iter()
            .any(|n| n.len() == 64 + 5 && n.ends_with(".dxbc")),
        "{entries:?}"
    );
    assert!(entries.iter().all(|n| !n.ends_with(".tmp")), "{entries:?}");

    // Second run: no compiler process at all, not even --version; the
    // compiler's warnings are replayed.
    let err = run(&[]);
    assert!(err.contains("DXBC from the cache"), "{err}");
    assert!(err.contains("warning X3206: fake warning"), "{err}");
    assert_eq!(calls(&fake_dir).len(), 2);

    // A define, the entry point and an include file each change the key.
    hlsl_job(&dir, prefix, &defines(2, "main"));
    assert!(run(&[]).contains("compiled with"));
    assert_eq!(compiles(&fake_dir), 2);
    hlsl_job(&dir, prefix, &defines(2, "other"));
    assert!(run(&[]).contains("compiled with"));
    assert_eq!(compiles(&fake_dir), 3);
    assert!(calls(&fake_dir)[3].contains("-E other"));
    std::fs::write(dir.join("inc/common.hlsli"), "#define ONE 2\n").unwrap();
    assert!(run(&[]).contains("compiled with"));
    assert_eq!(compiles(&fake_dir), 4);
    assert!(run(&[]).contains("DXBC from the cache"));
    assert_eq!(compiles(&fake_dir), 4);

    // --no-cache compiles every time.
    assert!(run(&["--no-cache"]).contains("compiled with"));
    assert!(run(&["--no-cache"]).contains("compiled with"));
    assert_eq!(compiles(&fake_dir), 6);
    // Still one --version call in all: it is remembered per compiler.
    assert_eq!(
        calls(&fake_dir)
            .iter()
            .filter(|l| l.ends_with("--version"))
            .count(),
        1
    );
}

#[cfg(unix)]
#[test]
fn compile_errors_are_shown_as_the_compiler_printed_them() {
    let dir = scratch("compile_error");
    let fake_dir = dir.join("bin");
    fake_compiler(&fake_dir, "fxc", "PATH");
    let cache = dir.join("cache");
    let job = hlsl_job(&dir, "SYNTAX_ERROR\n", "");
    let src = dir.join("x.hlsl");
    let expected_line = format!(
        "{}(3,5): error X3000: syntax error: unexpected token 'SYNTAX_ERROR'",
        src.display()
    );
    for args in [
        vec!["run", job.to_str().unwrap()],
        vec![
            "compile",
            src.to_str().unwrap(),
            "-o",
            dir.join("x.dxbc").to_str().unwrap(),
        ],
    ] {
        let o = sm5sim(&args, &fake_dir, &cache, None);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines[0], expected_line, "{err}");
        assert_eq!(lines[1], "compilation failed; no code produced", "{err}");
        assert!(
            lines[2].starts_with("error: ")
                && lines[2].contains("x.hlsl: HLSL compilation failed")
                && lines[2].contains("exited with status 1"),
            "{err}"
        );
        assert_eq!(lines.len(), 3, "{err}");
    }
    assert!(!dir.join("x.dxbc").exists());
    // Failures are not cached.
    assert_eq!(compiles(&fake_dir), 2);
}

#[cfg(unix)]
#[test]
fn compile_writes_the_container() {
    let dir = scratch("compile");
    let fake_dir = dir.join("bin");
    fake_compiler(&fake_dir, "fxc", "PATH");
    let cache = dir.join("cache");
    hlsl_job(&dir, "", "");
    let src = dir.join("x.hlsl");
    let out = dir.join("out.dxbc");
    let o = sm5sim(
        &[
            "compile",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-E",
            "cs",
            "-T",
            "cs_5_1",
            "-D",
            "A=1",
            "-DB",
            "-I",
            "/some/dir",
        ],
        &fake_dir,
        &cache,
        None,
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(root().join("examples/histogram/histogram.dxbc")).unwrap()
    );
    let line = calls(&fake_dir).pop().unwrap();
    for arg in [
        "-E cs",
        "-T cs_5_1",
        "-D A=1 -D B=1",
        "-I /some/dir",
        "-nologo",
    ] {
        assert!(line.contains(arg), "{arg} in {line}");
    }
}

/// A real compiler: `SM5SIM_FXC`, else an `fxc` on PATH.
fn real_compiler() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SM5SIM_FXC").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(sm5sim::compiler::FXC_NAME))
        .find(|p| p.is_file())
}

/// Needs Microsoft's compiler, which takes Wine on Linux, so it is opt-in:
/// `tools/fxc/setup.sh DIR`, then
/// `SM5SIM_FXC=DIR/fxc cargo test --test it -- --ignored hlsl::`
/// (`.ci/run` does this). Without a compiler it fails; it never passes
/// vacuously.
#[test]
#[ignore = "needs Microsoft's compiler: tools/fxc/setup.sh DIR, then SM5SIM_FXC=DIR/fxc cargo test --test it -- --ignored hlsl::"]
fn every_example_runs_from_its_hlsl_with_a_real_compiler() {
    let fxc = real_compiler().expect(
        "no HLSL compiler: set SM5SIM_FXC or put fxc on PATH (tools/fxc/setup.sh DIR installs one)",
    );
    let dir = scratch("real");
    let cache = dir.join("cache");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let ex = entry.unwrap().path();
        let name = ex.file_name().unwrap().to_string_lossy().into_owned();
        let hlsl = ex.join(format!("{name}.hlsl"));
        let job = ex.join(format!("{name}.toml"));
        if !hlsl.is_file() || !job.is_file() {
            continue;
        }
        let text_job = std::fs::read_to_string(&job).unwrap();
        let from = format!("shader = \"{name}.dxbc\"");
        assert!(text_job.contains(&from), "{}", job.display());
        let to = format!(
            "shader = \"{}\"",
            hlsl.display().to_string().replace('\\', "/")
        );
        // the job beside copies of its data files (input images, expected outputs)
        let job_dir = dir.join(&name);
        std::fs::create_dir_all(&job_dir).unwrap();
        for f in std::fs::read_dir(&ex).unwrap() {
            let f = f.unwrap().path();
            if f.extension()
                .is_some_and(|e| !["toml", "dxbc", "asm", "hlsl"].contains(&&*e.to_string_lossy()))
            {
                std::fs::copy(&f, job_dir.join(f.file_name().unwrap())).unwrap();
            }
        }
        let new_job = job_dir.join(format!("{name}.toml"));
        std::fs::write(&new_job, text_job.replace(&from, &to)).unwrap();

        let o = sm5sim(
            &[
                "run",
                new_job.to_str().unwrap(),
                "--fxc",
                fxc.to_str().unwrap(),
            ],
            Path::new(&path),
            &cache,
            None,
        );
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{name}:\n{out}\n{err}");
        assert!(out.contains(": ok") && !out.contains("FAILED"), "{out}");
        assert!(err.contains("compiled with"), "{err}");

        // Again through `compile`: from the cache, no compiler.
        let dxbc = dir.join(format!("{name}.dxbc"));
        let o = sm5sim(
            &[
                "compile",
                hlsl.to_str().unwrap(),
                "-o",
                dxbc.to_str().unwrap(),
                "--fxc",
                fxc.to_str().unwrap(),
            ],
            Path::new(&path),
            &cache,
            None,
        );
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains("DXBC from the cache"), "{err}");
        let same = std::fs::read(&dxbc).unwrap()
            == std::fs::read(ex.join(format!("{name}.dxbc"))).unwrap();
        println!(
            "{name}: passes from HLSL; DXBC {} the committed one",
            if same {
                "byte-identical to"
            } else {
                "differs from"
            }
        );
        n += 1;
    }
    assert_eq!(
        n, 10,
        "one job per example: 8 workloads and 2 image examples"
    );
    // The HLSL example jobs, run as the docs run them.
    for job in hlsl_example_jobs() {
        let o = sm5sim(
            &["run", job.to_str().unwrap(), "--fxc", fxc.to_str().unwrap()],
            Path::new(&path),
            &cache,
            None,
        );
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{}:\n{out}\n{err}", job.display());
        assert!(out.contains(": ok") && !out.contains("FAILED"), "{out}");
    }
    println!("compiled with {}", fxc.display());
}

/// `dir/bin/wineserver` and `dir/bin/wine`, stand-ins for Wine: the
/// wineserver says one is already running; `wine wineboot` makes the prefix;
/// `wine EXE ARGS...` logs `EXE ARGS...` and `WINEDLLOVERRIDES` to
/// `dir/calls.log` and acts as `fxc_lite.exe` would: `--version`, or a compile
/// that copies the histogram example's DXBC to the `-Fo` path.
#[cfg(unix)]
fn fake_wine(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("calls.log");
    let dxbc = root().join("examples/histogram/histogram.dxbc");
    let wine = format!(
        r#"#!/bin/sh
if [ "$1" = wineboot ]; then mkdir -p "$WINEPREFIX"; touch "$WINEPREFIX/system.reg"; exit 0; fi
echo "$* | $WINEDLLOVERRIDES" >> '{log}'
shift
for a in "$@"; do [ "$a" = --version ] && echo "fake d3dcompiler_47" && exit 0; done
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-Fo" ]; then out="$2"; shift; fi
  shift
done
cp '{dxbc}' "$out"
"#,
        log = log.display(),
        dxbc = dxbc.display()
    );
    let server = "#!/bin/sh\ncase \"$1\" in -p*) exit 2;; esac\nexit 0\n";
    for (name, text) in [("wine", wine.as_str()), ("wineserver", server)] {
        let p = bin.join(name);
        std::fs::write(&p, text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// The repository's Linux compiler wrapper (`tools/fxc/fxc`, installed by
/// `tools/fxc/setup.sh`) as sm5sim drives it, with Wine replaced by a
/// stand-in: it runs `bin/fxc_lite.exe` beside itself under Wine with
/// `-unix_paths` and sm5sim's arguments, forces Microsoft's DLL
/// (`d3dcompiler_47=n`), makes its prefix on first use; without
/// `fxc_lite.exe` it fails with exit status 3 and says to run setup.sh,
/// which sm5sim passes on. `setup.sh` without arguments prints its usage.
#[cfg(unix)]
#[test]
fn the_repository_fxc_wrapper_runs_the_front_end_under_wine() {
    let dir = scratch("wrapper");
    let fake = dir.join("fake");
    let fake_bin = fake_wine(&fake);
    // DIR as setup.sh lays it out: DIR/fxc and DIR/bin/fxc_lite.exe
    let install = dir.join("install");
    std::fs::create_dir_all(install.join("bin")).unwrap();
    std::fs::copy(root().join("tools/fxc/fxc"), install.join("fxc")).unwrap();
    std::fs::write(install.join("bin/fxc_lite.exe"), b"MZ").unwrap();
    let fxc = install.join("fxc");
    let path = format!("{}:/usr/bin:/bin", fake_bin.display());
    let cache = dir.join("cache");
    // the docs' example job (examples/histogram/histogram_hlsl.toml)
    let job = root().join("examples/histogram/histogram_hlsl.toml");
    assert!(hlsl_example_jobs().contains(&job));
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .args(args)
            .env_remove("SM5SIM_FXC")
            .env("PATH", &path)
            .env("SM5SIM_CACHE_DIR", &cache)
            .env("FXC_WINE", fake_bin.join("wine"))
            .env("FXC_PERSIST", "30")
            .output()
            .unwrap()
    };
    let o = run(&["run", job.to_str().unwrap(), "--fxc", fxc.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(out.contains(": ok"), "{out}");
    assert!(err.contains("compiled with"), "{err}");
    assert!(
        install.join("prefix/system.reg").is_file(),
        "the prefix is made on first use"
    );

    let log = std::fs::read_to_string(fake.join("calls.log")).unwrap();
    let exe = install.join("bin/fxc_lite.exe");
    let compile = log
        .lines()
        .find(|l| l.contains("-Fo"))
        .unwrap_or_else(|| panic!("no compile call: {log}"));
    let src = root().join("examples/histogram/histogram.hlsl");
    let want = format!(
        "{} -unix_paths {} -nologo -E main -T cs_5_0",
        exe.display(),
        src.display()
    );
    assert!(compile.starts_with(&want), "{compile}\nwant {want}");
    assert!(
        compile.contains("| d3dcompiler_47=n;"),
        "native DLL forced: {compile}"
    );
    assert!(
        log.lines()
            .any(|l| l.starts_with(&format!("{} -unix_paths --version", exe.display()))),
        "the cache key asks the compiler's version: {log}"
    );

    // Without the front end the wrapper says to run setup.sh.
    std::fs::remove_file(&exe).unwrap();
    let o = run(&[
        "run",
        job.to_str().unwrap(),
        "--fxc",
        fxc.to_str().unwrap(),
        "--no-cache",
    ]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(
        err.contains("fxc_lite.exe is missing; run setup.sh first"),
        "{err}"
    );

    let o = Command::new("bash")
        .arg(root().join("tools/fxc/setup.sh"))
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("usage: ") && err.contains("setup.sh DIR"),
        "{err}"
    );
}

/// A compiler that never finishes is stopped after `SM5SIM_FXC_TIMEOUT`
/// seconds with one message, and no output is left behind.
#[cfg(unix)]
#[test]
fn a_compiler_that_hangs_is_stopped() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("hang");
    let fxc = dir.join("fxc");
    std::fs::write(&fxc, "#!/bin/sh\nexec sleep 60\n").unwrap();
    std::fs::set_permissions(&fxc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let job = hlsl_job(&dir, "", "");
    let start = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["run", job.to_str().unwrap(), "--fxc", fxc.to_str().unwrap()])
        .env("SM5SIM_CACHE_DIR", dir.join("cache"))
        .env("SM5SIM_FXC_TIMEOUT", "1")
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(
        err.contains(
            "did not finish within 1 s and was stopped (set SM5SIM_FXC_TIMEOUT to allow longer)"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // the --version probe and the compile: a second each, not a minute
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

/// `compile -o` onto its own source (or a file it includes) is refused before
/// the compiler runs.
#[cfg(unix)]
#[test]
fn compile_does_not_overwrite_its_source() {
    let dir = scratch("compile_onto_source");
    let fxc = fake_compiler(&dir, "fxc", "A");
    let job = hlsl_job(&dir, "", "");
    let src = dir.join("x.hlsl");
    let before = std::fs::read(&src).unwrap();
    let _ = job;
    let o = sm5sim(
        &[
            "compile",
            src.to_str().unwrap(),
            "-o",
            src.to_str().unwrap(),
            "--fxc",
            fxc.to_str().unwrap(),
        ],
        Path::new("/usr/bin:/bin"),
        &dir.join("cache"),
        None,
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(
        err.contains("-o") && err.contains("is one of this run's inputs"),
        "{err}"
    );
    assert_eq!(std::fs::read(&src).unwrap(), before);
    assert_eq!(compiles(&dir), 0, "the compiler did not run");
}

/// A job of several HLSL shaders (`[shaders.NAME]`, each with its own keys)
/// compiles each, and says so for each. Opt-in as the test above.
#[test]
#[ignore = "needs Microsoft's compiler: tools/fxc/setup.sh DIR, then SM5SIM_FXC=DIR/fxc cargo test --test it -- --ignored hlsl::"]
fn a_pipeline_compiles_each_of_its_hlsl_shaders() {
    let fxc = real_compiler().expect(
        "no HLSL compiler: set SM5SIM_FXC or put fxc on PATH (tools/fxc/setup.sh DIR installs one)",
    );
    let dir = scratch("real_pipeline");
    let ex = root().join("examples/bitonic_sort");
    let mut text_job = std::fs::read_to_string(ex.join("bitonic_sort.toml")).unwrap();
    for name in ["sort", "transpose"] {
        let from = format!("shader = \"{name}.dxbc\"");
        assert!(text_job.contains(&from));
        let hlsl = ex.join(format!("{name}.hlsl"));
        let to = format!(
            "shader = \"{}\"\nentry = \"main\"\nprofile = \"cs_5_0\"",
            hlsl.display().to_string().replace('\\', "/")
        );
        text_job = text_job.replace(&from, &to);
    }
    for f in ["expected.npy", "rows.npy"] {
        std::fs::copy(ex.join(f), dir.join(f)).unwrap();
    }
    let job = dir.join("bitonic_sort.toml");
    std::fs::write(&job, text_job).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let o = sm5sim(
        &["run", job.to_str().unwrap(), "--fxc", fxc.to_str().unwrap()],
        Path::new(&path),
        &dir.join("cache"),
        None,
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(out.contains(": ok") && !out.contains("FAILED"), "{out}");
    for name in ["sort.hlsl", "transpose.hlsl"] {
        assert!(
            err.lines()
                .any(|l| l.contains(name) && l.contains("compiled with")),
            "{name}: {err}"
        );
    }
}
