//! A job's resources are totalled against a memory limit as they are
//! declared, before each is allocated (issue 27): `--max-memory`, or what
//! the process may use (the machine's memory, or what its address-space
//! limit leaves). A job over it is refused with the figures, exit 2, not
//! aborted by the allocator; and an allocation the allocator refuses anyway
//! is an error too.

use super::{output_text as text, sm5sim};
use sm5sim::job::{Job, JobError};
use sm5sim::sim_core::LoadOptions;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A directory with the histogram shader and `job.toml`, whose `bins`
/// (u0) is `size_bytes` bytes filled with 7.
fn workdir(name: &str, size_bytes: u64) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("memory")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/histogram");
    std::fs::copy(ex.join("histogram.dxbc"), dir.join("histogram.dxbc")).unwrap();
    std::fs::write(
        dir.join("job.toml"),
        super::cli::SMALL
            .replace("SHADER", "histogram.dxbc")
            .replace(
                "elements = 256\ninit = { fill_u32 = 0 }",
                &format!("size_bytes = {size_bytes}\ninit = {{ fill_u32 = 7 }}"),
            ),
    )
    .unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `sm5sim ARGS` under an address-space limit of `kib` KiB (`ulimit -v`).
#[cfg(target_os = "linux")]
fn under_address_space_limit(kib: u64, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sm5sim"))
        .args(args)
        .output()
        .expect("run sh")
}

/// Exit 2 with `message`, once, before any step ran, and no panic or abort.
fn refused(o: &Output, message: &str) {
    let t = text(o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains(message), "{t}");
    assert!(!t.contains("step 0"), "ran: {t}");
    assert!(
        !t.contains("panicked") && !t.contains("memory allocation"),
        "{t}"
    );
    assert_eq!(t.matches("error:").count(), 1, "printed once: {t}");
}

#[test]
fn max_memory_refuses_a_job_over_it_before_anything_runs() {
    let dir = workdir("max_memory", 64 << 20);
    let job = dir.join("job.toml");
    for sub in ["run", "check"] {
        // 64 MiB of bins, plus a working copy of it, is over 100 MiB
        let o = sm5sim(&[sub, s(&job), "--max-memory", "100MiB"]);
        refused(&o, "resources.bins: 64.0 MiB of storage");
        refused(&o, "needs 128.0 MiB");
        refused(
            &o,
            "more than the 100.0 MiB of --max-memory (104857600 bytes)",
        );
    }
    let o = sm5sim(&["run", s(&job), "--max-memory", "200MiB"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = sm5sim(&["run", s(&job), "--max-memory", "lots"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("'lots' is not a size"), "{}", text(&o));

    // the library: the same limit through LoadOptions
    let load = |max_memory| {
        Job::load(
            &job,
            &LoadOptions {
                max_memory,
                ..LoadOptions::default()
            },
        )
    };
    match load(Some(100 << 20)) {
        Err(JobError::Spec { key, message, .. }) => {
            assert_eq!(key, "resources.bins");
            assert!(message.contains("--max-memory"), "{message}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(load(Some(200 << 20)).is_ok());

    // textures too: the example's 512x512 RGBA8 destination is 1 MiB
    let blur =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gaussian_blur/gaussian_blur.toml");
    let o = sm5sim(&["run", s(&blur), "--max-memory", "1MiB"]);
    refused(&o, "resources.dst: 1.0 MiB of storage");
}

/// What `check` keeps besides the resources counts too: two-pass
/// checking's copy of the UAVs and its shadow (3 × the UAVs), schedule
/// exploration's copies (the resources and twice the UAVs). A job that
/// runs under a limit is refused by `check` over it, before any step ran,
/// and checks under a larger one.
#[test]
fn check_counts_its_copies_and_shadow_against_the_limit() {
    let dir = workdir("check_memory", 16 << 20);
    let job = dir.join("job.toml");
    // 16 MiB of bins and a working copy: 32 MiB; checking adds 48 MiB
    let o = sm5sim(&["run", s(&job), "--max-memory", "64MiB"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = sm5sim(&["check", s(&job), "--max-memory", "64MiB"]);
    refused(&o, "checking (a copy of the UAVs and 8 bytes of shadow per UAV word) needs 48.0 MiB besides the job's 16.0 MiB of resources");
    refused(
        &o,
        "80.0 MiB in all, more than the 64.0 MiB of --max-memory",
    );
    let o = sm5sim(&[
        "check",
        s(&job),
        "--schedules",
        "2",
        "--max-memory",
        "64MiB",
    ]);
    refused(
        &o,
        "schedule exploration (a copy of the resources and two of the UAVs) needs 48.0 MiB",
    );
    for args in [&["check"][..], &["check", "--schedules", "2"][..]] {
        let o = sm5sim(&[args, &[s(&job), "--max-memory", "100MiB"]].concat());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
    }
}

/// Under `ulimit -v` (512 MiB of address space), a job of 1 GiB or 4 GiB
/// of buffers is refused with what the limit leaves, a small job still
/// runs, and where `--max-memory` lets a job past the check, the
/// allocator's refusal is an error (exit 2), not an abort.
#[cfg(target_os = "linux")]
#[test]
fn under_an_address_space_limit_a_large_job_is_refused_not_aborted() {
    let limited = |args: &[&str]| under_address_space_limit(524288, args);
    for (name, bytes) in [("gib", 1u64 << 30), ("4gib", 4 << 30)] {
        let dir = workdir(name, bytes);
        let o = limited(&["run", s(&dir.join("job.toml"))]);
        refused(
            &o,
            "what this process's address-space limit (ulimit -v) leaves",
        );
    }
    let dir = workdir("under_limit", 1 << 20);
    let o = limited(&["run", s(&dir.join("job.toml"))]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let dir = workdir("past_the_check", 1 << 30);
    let o = limited(&["run", s(&dir.join("job.toml")), "--max-memory", "100GiB"]);
    refused(
        &o,
        "resources.bins: cannot allocate 1073741824 bytes for a buffer: out of memory",
    );
}

/// A suite's jobs that run at once share what the process may use: under
/// `ulimit -v` (1 GiB), two jobs of 250 MiB of buffers (500 MiB counted
/// each) are refused their share when run two at a time, and run one at a
/// time.
#[cfg(target_os = "linux")]
#[test]
fn a_suites_jobs_share_the_memory() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("memory/share");
    let _ = std::fs::remove_dir_all(&root);
    for name in ["a", "b"] {
        let dir = workdir(&format!("share/{name}"), 250 << 20);
        assert!(dir.join("job.toml").is_file());
    }
    let limited =
        |jobs: &str| under_address_space_limit(1048576, &["run", s(&root), "--jobs", jobs]);
    let o = limited("2");
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("one job's share of what this process may use, among the 2 run at once"),
        "{t}"
    );
    let o = limited("1");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A job file of 16 MB whose `keys` are listed inline (`u32 = [1,1,…]`,
/// 8 million numbers) runs under `ulimit -v` (512 MiB): its long lists are
/// read into words, 4 bytes a number, not into a TOML tree of tens of bytes
/// a value (which took about 80 times the file and aborted). A bad number
/// deep in such a list is reported at its line and column.
#[cfg(target_os = "linux")]
#[test]
fn a_job_file_of_long_lists_is_parsed_in_memory_proportional_to_it() {
    let dir = workdir("long_lists", 1024);
    let n = 8_000_000;
    let list = |bad: &str| {
        let mut l = "1,".repeat(n - 1);
        l.push_str(bad);
        l
    };
    let job = |bad: &str| {
        format!(
            "shader = \"histogram.dxbc\"\n[resources.keys]\nelements = {n}\ninit = {{ u32 = [{}] }}\n[resources.bins]\nelements = 256\ninit = {{ fill_u32 = 0 }}\n[resources.Params]\ninit = {{ fields = {{ key_count = 256 }} }}\n[[steps]]\ndispatch = [1, 1, 1]\n[[steps]]\nexpect = {{ resource = \"bins\", sum_u32 = 256 }}\n",
            list(bad)
        )
    };
    let limited = |path: &Path| under_address_space_limit(524288, &["run", s(path)]);
    let path = dir.join("long.toml");
    std::fs::write(&path, job("1")).unwrap();
    let o = limited(&path);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("expect bins { sum_u32 = 256 }: ok"), "{t}");

    std::fs::write(&path, job("-1")).unwrap();
    let o = limited(&path);
    refused(
        &o,
        &format!(
            "long.toml: u32[{}] at line 4, column {}: -1 does not fit a u32",
            n - 1,
            17 + 2 * (n - 1)
        ),
    );
}

/// An error after a long list (cut out before parsing) is still shown at
/// its line and column in the file as written.
#[test]
fn an_error_after_a_long_list_is_placed_in_the_file_as_written() {
    let dir = workdir("after_long_list", 1024);
    let list = vec!["1"; 1000].join(",\n  ");
    let path = dir.join("after.toml");
    std::fs::write(
        &path,
        format!(
            "shader = \"histogram.dxbc\"\n[resources.keys]\nelements = 1000\ninit = {{ u32 = [{list}], fill_u32 = 3 }}\n[resources.bins]\nelements = 256\ninit = {{ fill_u32 = 0 }}\n[resources.Params]\ninit = {{ fields = {{ key_count = 256 }} }}\n[[steps]]\ndispatch = [1, 1, 1]\n"
        ),
    )
    .unwrap();
    let o = super::sm5sim(&["run", s(&path)]);
    refused(
        &o,
        "after.toml:4:1: resources.keys.init: give exactly one of",
    );
    // a key after the list, on its last line
    std::fs::write(
        &path,
        format!(
            "shader = \"histogram.dxbc\"\n[resources.keys]\nelements = 1000\ninit = {{ u32 = [{list}] }}, slot = 3\n"
        ),
    )
    .unwrap();
    let o = super::sm5sim(&["run", s(&path)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("line 1003"), "{t}");
}

/// A job file of a million TOML values that are not a long number list
/// (which the TOML parser would hold at about 256 bytes each) is refused
/// with the figures before it is parsed, when that cannot fit.
#[test]
fn a_job_file_whose_toml_tree_cannot_fit_is_refused_before_parsing() {
    let dir = workdir("tree", 1024);
    let path = dir.join("tree.toml");
    let mut job = std::fs::read_to_string(dir.join("job.toml")).unwrap();
    job.push_str("[defines]\n");
    job.extend((0..1_000_000).map(|i| format!("k{i} = \"1\"\n")));
    std::fs::write(&path, job).unwrap();
    let o = super::sm5sim(&["run", s(&path), "--max-memory", "100MiB"]);
    refused(&o, "tree.toml: parsing its 1000");
    let t = text(&o);
    assert!(t.contains("more than the 100.0 MiB of --max-memory"), "{t}");
}

/// A shader too large to load in what the process may use is refused
/// before it is lowered, with the figures, where the allocator used to
/// abort the process (issue 44: 300,000 instructions took 1.2 GB, about
/// 4 KB each, and aborted under `ulimit -v`): under 512 MiB of address
/// space, 200,000 instructions (586 MiB counted at
/// `PROGRAM_BYTES_PER_INSTRUCTION`) are refused by `info`, `smoke` and a
/// job, and `--max-memory` refuses them too; `disasm`, which only decodes,
/// still prints the listing.
#[cfg(target_os = "linux")]
#[test]
fn a_shader_too_large_for_memory_is_refused_not_aborted() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("memory/large_shader");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let listing = format!(
        "cs_5_0\ndcl_uav_structured u0, 4\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
         {}store_structured u0.x, l(0), l(0), l(1)\nret\n",
        "nop\n".repeat(200_000)
    );
    let decoded = sm5sim::sim_core::front::asm::assemble(&listing).unwrap();
    let dxbc = sm5sim::sim_core::front::encode::write_container(
        &sm5sim::sim_core::front::encode::encode_program(&decoded).unwrap(),
        None,
    );
    let shader = dir.join("large.dxbc");
    std::fs::write(&shader, dxbc).unwrap();
    let job = dir.join("job.toml");
    std::fs::write(
        &job,
        "shader = \"large.dxbc\"\n[resources.out]\nelements = 1\nstride = 4\n\
         [[steps]]\ndispatch = [1, 1, 1]\n",
    )
    .unwrap();
    let limited = |args: &[&str]| under_address_space_limit(524288, args);
    let message = "lowering and planning this shader would take about 586 MiB of memory \
                   (200005 instructions, about 3072 bytes each), over the ";
    refused(&limited(&["info", s(&shader)]), message);
    refused(&limited(&["run", s(&job)]), message);
    let o = limited(&["smoke", s(&shader)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains(message), "{t}");
    assert!(
        !t.contains("memory allocation") && !t.contains("panicked"),
        "{t}"
    );
    // --max-memory is the limit when given
    let o = sm5sim(&["run", s(&job), "--max-memory", "100MiB"]);
    refused(&o, &format!("{message}100 MiB this load may use"));
    let o = limited(&["disasm", s(&shader)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
