//! The C programs: `tests/c/workloads.c` (six workloads against C
//! references, the checker, the profile, the bad-input cases),
//! `tests/c/cancel.c` (`sm5_cancel` from another thread, and input echoed
//! clipped in messages),
//! `tests/c/pipeline.c` (examples/stream_compaction end to end: copies,
//! CopyStructureCount, DispatchIndirect, null views, texture views of one
//! mip, and their refusals) and the C blocks of `docs/c-api.md` (the
//! complete example, the pipeline example), each compiled with the system C
//! compiler (`$CC`, else `cc`) against `include/sm5sim.h`, linked with the
//! `libsm5sim_capi` that Cargo built for these tests, and run; exit status
//! 0 is a pass. A missing compiler fails the tests (they never pass
//! without running the C).

use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn repository() -> PathBuf {
    crate_dir().parent().unwrap().to_path_buf()
}

/// Where Cargo put the library for these tests: beside the test binary
/// (`<profile>/deps/`), where the tests' dependencies go, or one level up
/// when it was built as a target of its own.
pub(crate) fn library_dir() -> PathBuf {
    let file = format!(
        "{}sm5sim_capi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let dir = [deps, deps.parent().unwrap()]
        .into_iter()
        .find(|d| d.join(&file).exists())
        .unwrap_or_else(|| {
            panic!(
                "{file} is not in {} nor its parent: Cargo builds it with the tests \
                 (cargo test -p sm5sim-capi)",
                deps.display()
            )
        })
        .to_path_buf();
    dir
}

/// Compile `source` into an executable called `name`, beside the library.
fn compile(source: &Path, name: &str) -> PathBuf {
    compile_with(source, name, &[])
}

/// [`compile`] with more compiler arguments (`-pthread`).
fn compile_with(source: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let lib = library_dir();
    let out_dir = lib.join("capi-c-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1"])
        // the references compute a * b + c unfused, as sm5sim does
        .arg("-ffp-contract=off")
        .args(extra)
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .arg("-lsm5sim_capi")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .unwrap_or_else(|e| {
            panic!("the C compiler '{cc}' did not start ({e}); the C API's tests need one (set CC)")
        });
    assert!(
        output.status.success(),
        "{cc} failed on {}:\n{}{}",
        source.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Run `exe` in the repository with `args`; its output on failure.
fn run(exe: &Path, args: &[&Path]) -> String {
    let output = Command::new(exe)
        .args(args)
        .current_dir(repository())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "{} exited with {}:\n{text}",
        exe.display(),
        output.status
    );
    text
}

#[test]
fn workloads_program_passes() {
    let exe = compile(&crate_dir().join("tests/c/workloads.c"), "workloads");
    let out = run(&exe, &[&repository()]);
    assert!(out.starts_with("ok: "), "{out}");
}

/// The C blocks of `docs/c-api.md`, each a complete program.
fn guide_examples() -> Vec<String> {
    let guide = std::fs::read_to_string(repository().join("docs/c-api.md")).unwrap();
    let mut blocks = Vec::new();
    let mut rest = guide.as_str();
    while let Some(start) = rest.find("```c\n") {
        let body = &rest[start + 5..];
        let len = body.find("```").expect("a ```c block ends");
        blocks.push(body[..len].to_string());
        rest = &body[len + 3..];
    }
    assert!(!blocks.is_empty(), "docs/c-api.md has a ```c block");
    blocks
}

/// Compile `docs/c-api.md`'s C block `index` and run it from the
/// repository's root; its output.
fn run_guide_example(index: usize, name: &str) -> String {
    let dir = library_dir().join("capi-c-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join(format!("{name}.c"));
    let blocks = guide_examples();
    std::fs::write(&source, &blocks[index]).unwrap();
    let exe = compile(&source, name);
    run(&exe, &[])
}

#[test]
fn guide_example_builds_and_runs() {
    let out = run_guide_example(0, "guide_example");
    assert!(out.contains("y[10] = (21, 21, 21, 21)"), "{out}");
}

/// The second C block: the section "Pipelines: several kernels, copies,
/// indirect dispatch".
#[test]
fn guide_pipeline_example_builds_and_runs() {
    let out = run_guide_example(1, "guide_pipeline");
    assert!(
        out.contains("334 kept, 6 groups: totals 111277611 334 999"),
        "{out}"
    );
}

#[test]
fn pipeline_program_passes() {
    let exe = compile(&crate_dir().join("tests/c/pipeline.c"), "pipeline");
    let out = run(&exe, &[&repository()]);
    assert!(out.starts_with("ok: "), "{out}");
}

/// `tests/c/cancel.c`: `sm5_cancel` from a second thread stops a dispatch
/// that would never end with `SM5_ERROR_CANCELLED`, and a 16 MiB name is
/// echoed clipped by each entry point that names what it was given.
#[test]
fn cancel_program_passes() {
    let exe = compile_with(
        &crate_dir().join("tests/c/cancel.c"),
        "cancel",
        &["-pthread"],
    );
    let out = run(&exe, &[&repository()]);
    assert!(out.contains("ok: "), "{out}");
    eprint!("{out}");
}
