//! Outputs written safely and options that cannot run refused up front
//! (issue 27): dumps, `--trace`, `--profile-json` and `asm -o` go through a
//! temporary file and a rename; every output path is checked before the job
//! runs (its directory exists, it is not an input of the run, no two outputs
//! share a file); `--timeout` and `--threads` beyond what the machine can
//! honour are refused instead of panicking or spawning for minutes; each
//! error is printed once.

use super::{output_text as text, sm5sim};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory holding a copy of the histogram example's shader and
/// listing and a small job file that names them.
fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("outputs")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/histogram");
    for f in ["histogram.dxbc", "histogram.asm"] {
        std::fs::copy(ex.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("job.toml"),
        super::cli::SMALL.replace("SHADER", "histogram.dxbc"),
    )
    .unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 2, the message, nothing run (no step line), and no file changed.
fn refused_before_running(o: &Output, message: &str) {
    let t = text(o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains(message), "{t}");
    assert!(!t.contains("step 0"), "ran: {t}");
    assert_eq!(t.matches("error:").count(), 1, "printed once: {t}");
}

#[test]
fn outputs_are_checked_before_the_job_runs() {
    let dir = workdir("checked");
    let job = dir.join("job.toml");
    let shader = dir.join("histogram.dxbc");
    let before = std::fs::read(&shader).unwrap();
    let job_text = std::fs::read(&job).unwrap();

    // a dump into a directory that does not exist
    let missing = dir.join("no/such/dir/bins.npy");
    let o = sm5sim(&["run", s(&job), "--dump", &format!("bins={}", s(&missing))]);
    refused_before_running(&o, "does not exist");

    // a dump over the job's shader, over the job file itself
    let o = sm5sim(&["run", s(&job), "--dump", &format!("bins={}", s(&shader))]);
    refused_before_running(&o, "is one of this run's inputs");
    let o = sm5sim(&["run", s(&job), "--dump", &format!("keys={}", s(&job))]);
    refused_before_running(&o, "is one of this run's inputs");
    // also when named another way (through ./ and a relative path)
    let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .current_dir(&dir)
        .args(["run", "job.toml", "--dump", "bins=./histogram.dxbc"])
        .output()
        .unwrap();
    refused_before_running(&o, "is one of this run's inputs");

    // a trace or profile over an input, two outputs to one file, a directory
    let o = sm5sim(&["run", s(&job), "--trace", s(&shader)]);
    refused_before_running(&o, "--trace");
    let out = dir.join("out.bin");
    let o = sm5sim(&[
        "run",
        s(&job),
        "--dump",
        &format!("bins={}", s(&out)),
        "--profile-json",
        s(&out),
    ]);
    refused_before_running(&o, "both write");
    let o = sm5sim(&["run", s(&job), "--dump", &format!("bins={}", s(&dir))]);
    refused_before_running(&o, "is a directory");

    assert_eq!(std::fs::read(&shader).unwrap(), before);
    assert_eq!(std::fs::read(&job).unwrap(), job_text);

    // asm onto its own listing
    let listing = dir.join("histogram.asm");
    let listing_text = std::fs::read(&listing).unwrap();
    let o = sm5sim(&["asm", s(&listing), "-o", s(&listing)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("-o") && t.contains("is one of this run's inputs"),
        "{t}"
    );
    assert_eq!(std::fs::read(&listing).unwrap(), listing_text);
}

#[test]
fn outputs_replace_files_whole_and_leave_no_temporary_file() {
    let dir = workdir("atomic");
    let job = dir.join("job.toml");
    let npy = dir.join("bins.npy");
    let bin = dir.join("bins.bin");
    let trace = dir.join("trace.json");
    // an older, longer file at each path is replaced, not overwritten in place
    for f in [&npy, &bin, &trace] {
        std::fs::write(f, vec![0xAB; 100_000]).unwrap();
    }
    let o = sm5sim(&[
        "run",
        s(&job),
        "--dump",
        &format!("bins={}", s(&npy)),
        "--dump",
        &format!("keys={}", s(&bin)),
        "--trace",
        s(&trace),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 20, "5 keys");
    let npy_bytes = std::fs::read(&npy).unwrap();
    assert!(npy_bytes.starts_with(b"\x93NUMPY") && npy_bytes.len() == 128 + 1024);
    assert!(std::fs::read_to_string(&trace)
        .unwrap()
        .trim_end()
        .ends_with(']'));
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // asm -o likewise
    let out = dir.join("out.dxbc");
    std::fs::write(&out, vec![0u8; 100_000]).unwrap();
    let o = sm5sim(&["asm", s(&dir.join("histogram.asm")), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // the container alone: its header's total size is the file's size
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"DXBC"));
    let total = u32::from_le_bytes(bytes[24..28].try_into().unwrap()) as usize;
    assert_eq!(bytes.len(), total);
}

#[test]
fn timeouts_and_thread_counts_beyond_the_machine_are_refused() {
    let dir = workdir("limits");
    let job = dir.join("job.toml");
    for sub in ["run", "check"] {
        for t in ["1e20", "1e19", "1e10"] {
            let o = sm5sim(&[sub, s(&job), "--timeout", t]);
            let out = text(&o);
            assert_eq!(o.status.code(), Some(2), "{sub} --timeout {t}: {out}");
            assert!(out.contains("at most 1000000000 seconds"), "{out}");
            assert!(!out.contains("panicked"), "{out}");
        }
    }
    // the longest allowed timeout runs (the library's deadline saturates)
    let o = sm5sim(&["run", s(&job), "--timeout", "1e9"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let start = std::time::Instant::now();
    let o = sm5sim(&["run", s(&job), "--threads", "100000"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("--threads 100000: at most"), "{out}");
    assert!(start.elapsed().as_secs() < 30, "refused at once");
}

#[test]
fn a_job_naming_no_shader_says_so() {
    let dir = workdir("empty_shader");
    let job = dir.join("job.toml");
    let text_job = std::fs::read_to_string(&job)
        .unwrap()
        .replace("shader = \"histogram.dxbc\"", "shader = \"\"");
    std::fs::write(&job, text_job).unwrap();
    let o = sm5sim(&["run", s(&job)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("shader: names no file"), "{t}");
}

#[test]
fn errors_are_printed_once() {
    // a truncated container: the loader's message once, not again through
    // the error's sources
    let dir = workdir("once");
    let shader = dir.join("histogram.dxbc");
    let bytes = std::fs::read(&shader).unwrap();
    std::fs::write(&shader, &bytes[..100]).unwrap();
    let o = sm5sim(&["run", s(&dir.join("job.toml"))]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert_eq!(t.lines().count(), 1, "{t}");
    let message = t.trim_start_matches("error: ");
    // no clause repeated: each ": "-separated part appears once
    let parts: Vec<&str> = message.split(": ").collect();
    for p in &parts {
        assert_eq!(message.matches(p).count(), 1, "{p:?} repeated in {t}");
    }
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_are_refused_before_reading() {
    // /dev/zero would be read until memory runs out
    let dir = workdir("devices");
    let job = dir.join("job.toml");
    let with_zero = |from: &str, to: &str| {
        let t = std::fs::read_to_string(&job).unwrap().replace(from, to);
        let p = dir.join("zero.toml");
        std::fs::write(&p, t).unwrap();
        p
    };
    let cases = [
        with_zero("shader = \"histogram.dxbc\"", "shader = \"/dev/zero\""),
        with_zero(
            "init = { u32 = [1, 2, 3, 2, 258] }",
            "init = { file = \"/dev/zero\" }",
        ),
    ];
    for p in &cases {
        let o = sm5sim(&["run", s(p)]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{t}");
        assert!(
            t.contains("/dev/zero") && t.contains("not a regular file"),
            "{t}"
        );
    }
    for sub in ["run", "disasm", "info"] {
        let o = sm5sim(&[sub, "/dev/zero"]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{sub}: {t}");
        assert!(t.contains("not a regular file"), "{sub}: {t}");
    }
    // files too large to be inputs are refused by their size, unread
    // (sparse files: nothing is written to the disk)
    let dir = workdir("huge_inputs");
    let huge_job = dir.join("huge.toml");
    std::fs::File::create(&huge_job)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let o = sm5sim(&["run", s(&huge_job)]);
    refused_before_running(&o, "is 314572800 bytes, more than the 268435456");
    let huge_shader = dir.join("huge.dxbc");
    std::fs::File::create(&huge_shader)
        .unwrap()
        .set_len(5 << 30)
        .unwrap();
    let job = dir.join("job.toml");
    let text_job = std::fs::read_to_string(&job).unwrap();
    std::fs::write(&job, text_job.replace("histogram.dxbc", "huge.dxbc")).unwrap();
    for o in [
        sm5sim(&["run", s(&job)]),
        sm5sim(&["disasm", s(&huge_shader)]),
    ] {
        refused_before_running(&o, "is 5368709120 bytes, more than the");
    }
    std::fs::remove_file(&huge_shader).unwrap();
}

#[test]
fn the_steps_before_a_stopped_dispatch_are_reported() {
    // step 1's failed expectation is reported although step 2 hits the
    // instruction budget, in text and in --json
    let dir = workdir("partial");
    let job = dir.join("job.toml");
    let text_job = std::fs::read_to_string(&job).unwrap()
        + "[[steps]]\nexpect = { resource = \"bins\", sum_u32 = 99 }\n[[steps]]\ndispatch = [60000, 1, 1]\n";
    std::fs::write(&job, text_job).unwrap();
    let o = sm5sim(&["run", s(&job), "--max-instructions", "5000"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(out.contains("step 0: dispatch"), "{out}");
    assert!(
        out.contains("step 1: expect bins") && out.contains("FAILED"),
        "{out}"
    );
    assert!(
        err.contains("steps[2]") && err.contains("dispatch stopped"),
        "{err}"
    );

    let o = sm5sim(&["run", s(&job), "--max-instructions", "5000", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["passed"], false);
    assert_eq!(doc["steps"].as_array().unwrap().len(), 2, "{doc}");
    assert_eq!(doc["steps"][1]["passed"], false, "{doc}");
    assert!(
        doc["error"].as_str().unwrap().contains("dispatch stopped"),
        "{doc}"
    );
}

#[test]
fn a_long_line_is_not_echoed_whole() {
    // a value error and a TOML syntax error on a 1 MB line: the message shows
    // a window of it
    let dir = workdir("long_line");
    let long: String = (0..200_000).map(|i| format!("{}, ", i % 10)).collect();
    let job = dir.join("job.toml");
    let base = std::fs::read_to_string(&job).unwrap();
    for (name, line) in [
        ("value.toml", format!("init = {{ u32 = [{long}1] }}")),
        ("syntax.toml", format!("init = {{ u32 = [{long}1 }}")),
    ] {
        let p = dir.join(name);
        // keys holds 4 words, so 200,001 values are a value error
        let text_job = base
            .replace("[resources.keys]\n", "[resources.keys]\nelements = 4\n")
            .replace("init = { u32 = [1, 2, 3, 2, 258] }", &line);
        std::fs::write(&p, text_job).unwrap();
        let o = sm5sim(&["run", s(&p)]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{}", &t[..t.len().min(2000)]);
        assert!(t.len() < 2000, "{name}: {} bytes of message", t.len());
    }
}

#[cfg(unix)]
#[test]
fn smoke_does_not_follow_directory_links() {
    let dir = workdir("smoke_links");
    std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
    let o = sm5sim(&["smoke", s(&dir), "--groups", "1,1,1"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("1 of 1 shaders ran to completion"), "{t}");
}

#[test]
fn tgsm_declarations_are_refused_for_what_they_are() {
    let dir = workdir("tgsm");
    let listing = |decl: &str| {
        let p = dir.join("t.asm");
        std::fs::write(
            &p,
            format!("cs_5_0\ndcl_globalFlags refactoringAllowed\n{decl}\ndcl_thread_group 1, 1, 1\nret\n"),
        )
        .unwrap();
        let o = sm5sim(&["info", s(&p)]);
        (o.status.code(), text(&o))
    };
    // `info` describes what it cannot run (exit 0); the reason names the declaration
    let (_, t) = listing("dcl_tgsm_raw g100000000, 4");
    assert!(
        t.contains("g100000000: TGSM registers are g0 to g8191"),
        "{t}"
    );
    let (_, t) = listing("dcl_tgsm_raw g0, 6");
    assert!(
        t.contains("g0: TGSM size 6 bytes must be a multiple of 4"),
        "{t}"
    );
}

#[test]
fn smoke_runs_each_file_once_however_it_is_named() {
    let dir = workdir("smoke_once");
    let dotted = format!("{}/./", dir.display());
    let o = sm5sim(&[
        "smoke",
        s(&dir),
        &dotted,
        s(&dir.join("histogram.dxbc")),
        "--groups",
        "1,1,1",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("1 of 1 shaders ran to completion"), "{t}");
}

/// The cancellation token (what Ctrl-C sets in the CLI) stops a run between
/// steps too: a job of `set` and `expect` steps, which never dispatch, ends
/// with `Cancelled` at its first step once the token is set, and the steps
/// before the token was set are reported.
#[test]
fn cancellation_stops_a_run_between_steps() {
    use sm5sim::job::{Job, JobError};
    use sm5sim::sim_core::LoadOptions;
    use sm5sim::sim_sched::DispatchOptions;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = workdir("cancel");
    let text_job = super::cli::SMALL.replace("SHADER", "histogram.dxbc")
        + "[[steps]]\nset = { resource = \"bins\", fill_u32 = 1 }\n[[steps]]\nexpect = { resource = \"bins\", fill_u32 = 1 }\n";
    let job = Job::from_toml(
        &text_job,
        &dir.join("job.toml"),
        &dir,
        &LoadOptions::default(),
    )
    .unwrap();
    let token = Arc::new(AtomicBool::new(true));
    let options = DispatchOptions {
        cancel: Some(token.clone()),
        ..DispatchOptions::default()
    };
    let (reports, error) = job.run_partial(&options);
    assert!(reports.is_empty(), "{reports:?}");
    assert!(
        matches!(error, Some(JobError::Cancelled { step: 0 })),
        "{error:?}"
    );
    // not set: every step runs
    token.store(false, std::sync::atomic::Ordering::Relaxed);
    let (reports, error) = job.run_partial(&options);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(reports.len(), 3);
}

/// The token stops loading too: before the shader is compiled or decoded
/// and before each resource is created (`LoadOptions::cancel`).
#[test]
fn cancellation_stops_loading() {
    use sm5sim::job::{Job, JobError};
    use sm5sim::sim_core::LoadOptions;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = workdir("cancel_loading");
    let token = Arc::new(AtomicBool::new(true));
    let load = LoadOptions {
        cancel: Some(token.clone()),
        ..LoadOptions::default()
    };
    match Job::load(&dir.join("job.toml"), &load) {
        Err(e @ JobError::CancelledLoading { .. }) => {
            assert!(
                e.to_string()
                    .ends_with("job.toml: cancelled before loading shader"),
                "{e}"
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    token.store(false, std::sync::atomic::Ordering::Relaxed);
    assert!(Job::load(&dir.join("job.toml"), &load).is_ok());
}

/// Outputs that are not regular files are written through, never replaced
/// (issue 44): `/dev/null` stays a device, `-` is standard output (the
/// report then goes to standard error), a FIFO's reader gets the bytes; a
/// symbolic link is followed (the link stays, its file is replaced), a
/// link to nothing and a directory that takes no new file are refused
/// before the job runs.
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_are_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = workdir("write_through");
    let job = dir.join("job.toml");
    let dump = |target: &str| sm5sim(&["run", s(&job), "--dump", &format!("bins={target}")]);

    let o = dump("/dev/null");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");

    // `-`: the 256 words on stdout, the report on stderr
    let o = dump("-");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        o.stdout.len(),
        1024,
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("step 0: dispatch"));
    let words: Vec<u32> = o
        .stdout
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(&words[..4], &[0, 1, 3, 1]);

    // a FIFO: its reader gets the dump; it stays a FIFO
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let o = dump(s(&fifo));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(reader.join().unwrap(), o_bytes(&words));
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo(), "the FIFO was replaced");

    // a link is followed: it stays a link, the file it names is replaced
    let real = dir.join("real.bin");
    let link = dir.join("link.bin");
    std::fs::write(&real, b"old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = dump(s(&link));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), o_bytes(&words));

    // a link to nothing; a directory that takes no new file (/proc, even
    // for root)
    let dangling = dir.join("dangling.bin");
    std::os::unix::fs::symlink(dir.join("nowhere/x.bin"), &dangling).unwrap();
    refused_before_running(
        &dump(s(&dangling)),
        "is a symbolic link to a file that does not exist",
    );
    refused_before_running(
        &dump("/proc/sm5sim-dump.bin"),
        "cannot write in the directory /proc",
    );
}

fn o_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// SIGTERM and SIGHUP during a dump of 128 MiB (sent once the temporary
/// file exists): one signal lets the dump finish whole; a second ends the
/// process at once (130) with the temporary file removed. Never a
/// temporary file left beside the output, never a partial output, whenever
/// the signals land.
#[cfg(unix)]
#[test]
fn signals_during_a_dump_leave_no_temporary_file() {
    let dir = workdir("signals");
    let job = dir.join("job.toml");
    let text_job = std::fs::read_to_string(&job).unwrap().replace(
        "elements = 256\ninit = { fill_u32 = 0 }",
        "elements = 33554432\ninit = { fill_u32 = 0 }",
    );
    std::fs::write(&job, text_job).unwrap();
    let out = dir.join("out.bin");
    let temps = || -> Vec<String> {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    };
    for signal in ["TERM", "HUP"] {
        for times in [1, 2] {
            let _ = std::fs::remove_file(&out);
            let mut child = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
                .args(["run", s(&job), "--dump", &format!("bins={}", s(&out))])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            // wait for the temporary file, then signal
            let start = std::time::Instant::now();
            while temps().is_empty() && start.elapsed().as_secs() < 120 {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            for _ in 0..times {
                let _ = Command::new("kill")
                    .args([&format!("-{signal}"), &child.id().to_string()])
                    .status();
                // two signals sent at once may arrive as one
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            let status = child.wait().unwrap();
            assert!(temps().is_empty(), "{signal} x{times}: left {:?}", temps());
            if let Ok(m) = std::fs::metadata(&out) {
                assert_eq!(m.len(), 128 << 20, "{signal} x{times}: a partial output");
            }
            // the first signal cancels: the run stops at its next look (2:
            // no output, or a whole one if the dump had been renamed into
            // place, above) or had ended before it (0); the second quits at
            // once (130), unless the two arrived as one
            match status.code() {
                Some(130) if times == 2 => {}
                Some(2) => {}
                Some(0) => assert!(out.exists(), "{signal} x{times}: exit 0 without the dump"),
                other => panic!("{signal} x{times}: exit status {other:?}"),
            }
        }
    }
}

/// A reader that has gone (`sm5sim smoke DIR | head -2`, `check --json |
/// head -c 20`) ends the process quietly with status 141, as a tool killed
/// by SIGPIPE: no panic, no message.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_the_process_quietly() {
    let dir = workdir("closed_stdout");
    let job = dir.join("job.toml");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    for args in [
        vec!["smoke", s(&corpus)],
        vec!["check", s(&job), "--json"],
        vec!["run", s(&job)],
        vec!["disasm", s(&dir.join("histogram.dxbc"))],
    ] {
        // the reader is gone before the process starts (dropping it after
        // the spawn raced a loaded machine: a short output could reach the
        // pipe's buffer first, and the process ended well)
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .args(&args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{err}"
        );
    }
}

/// One exit-status contract: a dispatch stopped by the watchdog or by
/// Ctrl-C (SIGINT) or SIGTERM is status 2 for `run`, `check` and `smoke`
/// alike, after the report of what ran.
#[cfg(unix)]
#[test]
fn stopped_and_cancelled_dispatches_exit_2_everywhere() {
    let dir = workdir("exit_status");
    std::fs::write(
        dir.join("spin.asm"),
        "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_structured u0, 4\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.x, l(0)\nloop\n  iadd r0.x, r0.x, l(1)\nendloop\nstore_structured u0.x, l(0), l(0), r0.x\nret\n",
    )
    .unwrap();
    let job = dir.join("spin.toml");
    std::fs::write(
        &job,
        "shader = \"spin.asm\"\n[resources.out]\nslot = \"u0\"\nview = \"structured\"\nstride = 4\nelements = 4\ninit = { fill_u32 = 0 }\n[[steps]]\ndispatch = [1, 1, 1]\n",
    )
    .unwrap();
    for sub in ["run", "check"] {
        let o = sm5sim(&[sub, s(&job), "--max-instructions", "100"]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{sub}: {t}");
        assert!(
            t.contains("executed more than 100 warp-instructions"),
            "{t}"
        );
    }
    let spin_dxbc = dir.join("spin.dxbc");
    let o = sm5sim(&["asm", s(&dir.join("spin.asm")), "-o", s(&spin_dxbc)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = sm5sim(&["smoke", s(&spin_dxbc), "--max-instructions", "100"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("0 of 1 shaders ran to completion"));
    // smoke's wall-clock watchdog is settable
    let o = sm5sim(&[
        "smoke",
        s(&spin_dxbc),
        "--max-instructions",
        "1000000000000",
        "--timeout",
        "0.3",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("ran longer than 0.300 s"), "{}", text(&o));
    for signal in ["INT", "TERM"] {
        for args in [
            vec!["run", s(&job)],
            vec!["check", s(&job)],
            vec![
                "smoke",
                s(&spin_dxbc),
                "--max-instructions",
                "1000000000000",
            ],
        ] {
            let child = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(700));
            let _ = Command::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status();
            let o = child.wait_with_output().unwrap();
            let t = text(&o);
            assert_eq!(o.status.code(), Some(2), "{signal} {args:?}: {t}");
            assert!(t.contains("cancelled"), "{signal} {args:?}: {t}");
        }
    }
}

/// Input echoed in an error (a resource name of 100 kB in a job file, a
/// `--dump` argument) is cut, with the count of what was cut: an error
/// line is at most about 2,000 bytes.
#[test]
fn an_error_echoes_no_input_whole() {
    let dir = workdir("echo");
    let job = dir.join("job.toml");
    let huge = "a".repeat(100_000); // under the OS's 128 KiB per argument
    let o = sm5sim(&["run", s(&job), "--dump", &format!("{huge}=x.bin")]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{}", &t[..200.min(t.len())]);
    assert!(t.len() < 4000, "{} bytes", t.len());
    assert!(t.contains("more bytes)"), "{t}");
    let named = dir.join("named.toml");
    std::fs::write(
        &named,
        format!(
            "{}\n[resources.{huge}]\nelements = 4\n",
            std::fs::read_to_string(&job).unwrap()
        ),
    )
    .unwrap();
    let o = sm5sim(&["run", s(&named)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{}", &t[..200.min(t.len())]);
    assert!(t.len() < 8000, "{} bytes", t.len());
}
