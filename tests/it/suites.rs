//! Suites of jobs (issue 34): `run` and `check` take several job files and
//! directories, run each job isolated (a failing, a bad and a runaway job
//! do not stop the others), report every job (text, JSON, JUnit XML) and
//! exit with the worst outcome; `--shard I/N` splits a suite into disjoint
//! parts that together run every job once; options that write one job's
//! details are refused with several jobs.

use super::{output_text as text, sm5sim};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `sm5sim ARGS` run in the directory `cwd`.
fn sm5sim_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("run sm5sim")
}

/// [`sm5sim_in`] on a machine without an HLSL compiler: no `SM5SIM_FXC`,
/// nothing on `PATH`, an empty compile cache.
fn sm5sim_without_fxc(cwd: &Path, args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .current_dir(cwd)
        .args(args)
        .env_remove("SM5SIM_FXC")
        .env("PATH", cache)
        .env("SM5SIM_CACHE_DIR", cache)
        .output()
        .expect("run sm5sim")
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("suites")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A passing job (`SMALL` with the bins summed), a failing one (the bins
/// expected all zero: three differ), a bad job file (in a subdirectory) and
/// a runaway one (a shader that loops forever), in a fresh directory.
fn four_jobs(name: &str) -> PathBuf {
    let dir = scratch(name);
    four_jobs_in(&dir);
    dir
}

/// [`four_jobs`] in `dir`, which is created.
fn four_jobs_in(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(
        root().join("examples/histogram/histogram.dxbc"),
        dir.join("histogram.dxbc"),
    )
    .unwrap();
    let small = super::cli::SMALL.replace("SHADER", "histogram.dxbc");
    let write = |f: &str, t: &str| std::fs::write(dir.join(f), t).unwrap();
    write(
        "pass.toml",
        &format!("{small}\n[[steps]]\nexpect = {{ resource = \"bins\", sum_u32 = 5 }}\n"),
    );
    write(
        "fail.toml",
        &format!("{small}\n[[steps]]\nexpect = {{ resource = \"bins\", fill_u32 = 0 }}\n"),
    );
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    write(
        "sub/bad.toml",
        "shader = \"../histogram.dxbc\"\n[resources.keys\n",
    );
    write(
        "spin.asm",
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nloop\n  iadd r0.x, r0.x, l(1)\nendloop\nret\n",
    );
    write(
        "runaway.toml",
        "shader = \"spin.asm\"\n[resources.out]\nslot = \"u0\"\nelements = 1\n[[steps]]\ndispatch = [1, 1, 1]\n",
    );
    // not a job file: not run
    write("notes.txt", "a file the walk skips\n");
}

/// A JUnit test case: its attributes and its outcome.
#[derive(Debug)]
struct Case {
    classname: String,
    /// `passed`, `failure`, `error` or `skipped`
    outcome: String,
    /// the failure's or error's `message` attribute
    message: String,
    /// the failure's or error's text
    body: String,
}

/// Parse a JUnit XML file with a real XML parser: the test cases by name,
/// after checking the suites' counts against them.
fn junit(path: &Path) -> BTreeMap<String, Case> {
    let xml = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let top = doc.root_element();
    assert_eq!(top.tag_name().name(), "testsuites", "{xml}");
    let mut cases = BTreeMap::new();
    for suite in top.children().filter(|n| n.has_tag_name("testsuite")) {
        let mut counts = [0usize; 4];
        for c in suite.children().filter(|n| n.has_tag_name("testcase")) {
            let result = c.children().find(|n| {
                n.has_tag_name("failure") || n.has_tag_name("error") || n.has_tag_name("skipped")
            });
            let outcome = result.map_or("passed", |r| r.tag_name().name());
            counts[match outcome {
                "passed" => 0,
                "failure" => 1,
                "error" => 2,
                _ => 3,
            }] += 1;
            let name = c.attribute("name").unwrap().to_string();
            assert!(c.attribute("time").unwrap().parse::<f64>().is_ok(), "{xml}");
            let case = Case {
                classname: c.attribute("classname").unwrap().to_string(),
                outcome: outcome.to_string(),
                message: result
                    .and_then(|r| r.attribute("message"))
                    .unwrap_or("")
                    .to_string(),
                body: result.and_then(|r| r.text()).unwrap_or("").to_string(),
            };
            assert!(cases.insert(name, case).is_none(), "a case twice: {xml}");
        }
        let attr = |a: &str| suite.attribute(a).unwrap().parse::<usize>().unwrap();
        assert_eq!(attr("tests"), counts.iter().sum::<usize>(), "{xml}");
        assert_eq!(attr("failures"), counts[1], "{xml}");
        assert_eq!(attr("errors"), counts[2], "{xml}");
        assert_eq!(attr("skipped"), counts[3], "{xml}");
    }
    cases
}

/// The example job files, named as a suite names them from the
/// repository's root.
fn example_jobs() -> BTreeSet<String> {
    let mut jobs = BTreeSet::new();
    for dir in std::fs::read_dir(root().join("examples")).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "toml") {
                let rel = f.strip_prefix(root()).unwrap();
                jobs.insert(rel.to_str().unwrap().replace('\\', "/"));
            }
        }
    }
    jobs
}

#[test]
fn two_shards_of_the_examples_run_every_job_exactly_once() {
    let dir = scratch("shards");
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let xml = dir.join(format!("shard{}.xml", &shard[..1]));
        // on a machine without an HLSL compiler: the HLSL example is
        // skipped, and the suite passes (exit 0)
        let o = sm5sim_without_fxc(
            &root(),
            &["run", "examples", "--junit", s(&xml), "--shard", shard],
            &dir,
        );
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{t}");
        assert!(t.contains(&format!("(shard {shard} of ")), "{t}");
        shards.push(junit(&xml));
    }
    let (a, b) = (&shards[0], &shards[1]);
    let names = |m: &BTreeMap<String, Case>| m.keys().cloned().collect::<BTreeSet<_>>();
    assert!(names(a).is_disjoint(&names(b)), "{a:?}\n{b:?}");
    let all: BTreeSet<String> = names(a).union(&names(b)).cloned().collect();
    assert_eq!(all, example_jobs());
    // shards differ in size by at most one job
    assert!(
        a.len().abs_diff(b.len()) <= 1,
        "{} and {}",
        a.len(),
        b.len()
    );
    for (name, case) in a.iter().chain(b) {
        let dir = Path::new(name).parent().unwrap().to_str().unwrap();
        assert_eq!(case.classname, dir.replace('/', "."), "{name}");
        if super::hlsl::is_hlsl_job(&root().join(name)) {
            assert_eq!(case.outcome, "skipped", "{name}: {case:?}");
            assert!(case.message.contains("needs an HLSL compiler"), "{case:?}");
        } else {
            assert_eq!(case.outcome, "passed", "{name}: {case:?}");
        }
    }
}

#[test]
fn a_suite_reports_each_outcome_and_runs_the_rest() {
    let dir = four_jobs("outcomes");
    let xml = dir.join("results.xml");
    let o = sm5sim_in(
        &dir,
        &["run", ".", "--timeout", "0.5", "--junit", "results.xml"],
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let line = |name: &str| {
        out.lines()
            .find(|l| l.contains(name) && !l.starts_with(' '))
            .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
            .to_string()
    };
    assert!(line("pass.toml").starts_with("ok "), "{out}");
    assert!(line("fail.toml").starts_with("FAILED "), "{out}");
    assert!(line("sub/bad.toml").starts_with("ERROR "), "{out}");
    assert!(line("runaway.toml").starts_with("ERROR "), "{out}");
    // the details under a failure and an error
    assert!(out.contains("    [2] expected 0, got 3"), "{out}");
    assert!(out.contains("TOML parse error"), "{out}");
    assert!(
        out.contains("dispatch stopped: ran longer than 0.500 s"),
        "{out}"
    );
    assert!(!out.contains("notes.txt"), "{out}");
    // jobs in name order, then the summary
    let order: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(order.len(), 5, "{out}");
    for (l, name) in order
        .iter()
        .zip(["fail.toml", "pass.toml", "runaway.toml", "sub/bad.toml"])
    {
        assert!(l.contains(&format!(" {name} (")), "{name}: {out}");
    }
    assert!(
        order[4].starts_with("4 jobs: 1 passed, 1 failed, 2 errors ("),
        "{out}"
    );

    let cases = junit(&xml);
    assert_eq!(cases.len(), 4, "{cases:?}");
    assert_eq!(cases["pass.toml"].outcome, "passed");
    let fail = &cases["fail.toml"];
    assert_eq!(fail.outcome, "failure");
    assert!(
        fail.message.contains("FAILED, 3 element(s) differ"),
        "{fail:?}"
    );
    assert!(fail.body.contains("[1] expected 0, got 1"), "{fail:?}");
    let bad = &cases["sub/bad.toml"];
    assert_eq!(
        (bad.outcome.as_str(), bad.classname.as_str()),
        ("error", "sub")
    );
    assert!(bad.message.contains("TOML parse error"), "{bad:?}");
    assert!(bad.body.contains("invalid table header"), "{bad:?}");
    let runaway = &cases["runaway.toml"];
    assert_eq!(runaway.outcome, "error");
    assert!(runaway.message.contains("dispatch stopped"), "{runaway:?}");

    // JSON: one document, each job's object with its status, and the totals
    let o = sm5sim_in(
        &dir,
        &["run", ".", "--max-instructions", "100000", "--json"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(v["passed"], false);
    assert_eq!(
        v["totals"],
        serde_json::json!({ "jobs": 4, "passed": 1, "failed": 1, "errors": 2, "skipped": 0 })
    );
    let jobs = v["jobs"].as_array().unwrap();
    let by_name = |n: &str| jobs.iter().find(|j| j["name"] == n).unwrap();
    assert_eq!(by_name("pass.toml")["status"], "passed");
    assert_eq!(by_name("pass.toml")["steps"][1]["kind"], "expect");
    let fail = by_name("fail.toml");
    assert_eq!(fail["status"], "failed");
    assert_eq!(fail["passed"], false);
    assert_eq!(fail["steps"][1]["mismatches"], 3);
    assert_eq!(by_name("sub/bad.toml")["status"], "error");
    assert!(by_name("sub/bad.toml")["error"]
        .as_str()
        .unwrap()
        .contains("TOML parse error"));
    let runaway = by_name("runaway.toml");
    assert_eq!(runaway["status"], "error");
    assert!(runaway["error"]
        .as_str()
        .unwrap()
        .contains("executed more than 100000 warp-instructions"));

    // exit 1 when an expectation fails and nothing has an error; 0 when all pass
    let o = sm5sim_in(&dir, &["run", "pass.toml", "fail.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("2 jobs: 1 passed, 1 failed, 0 errors"));
    let o = sm5sim_in(&dir, &["run", "pass.toml", "--junit", "one.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(junit(&dir.join("one.xml")).len(), 1);
}

#[test]
fn check_takes_suites_as_run_does() {
    let dir = four_jobs("check");
    let race = root().join("tests/texture_races/texture_race_bug.toml");
    let xml = dir.join("check.xml");
    let o = sm5sim_in(
        &dir,
        &[
            "check",
            ".",
            s(&race),
            "--max-instructions",
            "100000",
            "--junit",
            s(&xml),
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        out.contains("5 jobs: 1 passed, 2 failed, 2 errors"),
        "{out}"
    );
    let cases = junit(&xml);
    assert_eq!(cases.len(), 5, "{cases:?}");
    assert_eq!(cases["pass.toml"].outcome, "passed");
    assert_eq!(cases["fail.toml"].outcome, "failure");
    assert!(cases["fail.toml"].message.contains("an expectation FAILED"));
    assert_eq!(cases["sub/bad.toml"].outcome, "error");
    assert_eq!(cases["runaway.toml"].outcome, "error");
    // a job outside the current directory, named absolutely: a race found
    let race_case = cases
        .iter()
        .find(|(n, _)| n.ends_with("tests/texture_races/texture_race_bug.toml"))
        .map(|(_, c)| c)
        .unwrap();
    assert_eq!(race_case.outcome, "failure", "{race_case:?}");
    assert!(race_case.message.starts_with("check: "), "{race_case:?}");
    assert!(race_case.body.contains("error"), "{race_case:?}");

    // exit 1 for findings and failed expectations alone; JSON and shards
    let o = sm5sim_in(
        &dir,
        &["check", "pass.toml", s(&race), "--json", "--shard", "1/1"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(v["command"], "check");
    assert_eq!(v["shard"], "1/1");
    assert_eq!(v["totals"]["failed"], 1);
    let race_job = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["status"] == "failed")
        .unwrap();
    assert!(race_job["errors"].as_u64().unwrap() > 0, "{race_job}");
    let o = sm5sim_in(
        &dir,
        &["check", "pass.toml", "fail.toml", "--schedules", "2"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("an expectation FAILED under 2 of 2 schedules"));
    let o = sm5sim(&[
        "check",
        s(&dir.join("pass.toml")),
        s(&race.with_file_name("texture_race_ok.toml")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn bad_shards_and_single_job_options_are_refused() {
    let dir = four_jobs("refused");
    for (bad, says) in [
        ("0/2", "numbered from 1 to 2"),
        ("3/2", "between 1 and 2"),
        ("1/0", "at least 1"),
        ("x", "not a shard"),
    ] {
        for sub in ["run", "check"] {
            let o = sm5sim_in(&dir, &[sub, "pass.toml", "--shard", bad]);
            let t = text(&o);
            assert_eq!(o.status.code(), Some(2), "{sub} {bad}: {t}");
            assert!(
                t.contains(says) && t.contains("--shard"),
                "{sub} {bad}: {t}"
            );
        }
    }
    let xml = dir.join("r.xml");
    for extra in [
        &["--dump", "bins=bins.bin"][..],
        &["--trace", "trace.json"],
        &["--profile-json", "profile.json"],
        &["--profile"],
    ] {
        for jobs in [
            &["pass.toml", "fail.toml"][..],
            &["."],
            &["pass.toml", "--junit", s(&xml)],
        ] {
            let mut args = vec!["run"];
            args.extend(jobs);
            args.extend(extra);
            let o = sm5sim_in(&dir, &args);
            let t = text(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
            assert!(
                t.contains(&format!("{} is for a single job file", extra[0])),
                "{args:?}: {t}"
            );
            assert!(!t.contains("ok ") && !t.contains("step 0"), "ran: {t}");
        }
    }
    assert!(!xml.exists());
    // a JUnit file over a job file, or into a directory that is not there
    let o = sm5sim_in(&dir, &["run", ".", "--junit", "pass.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("is one of this run's inputs"),
        "{}",
        text(&o)
    );
    let o = sm5sim_in(&dir, &["run", ".", "--junit", "no/such/dir/r.xml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("does not exist"), "{}", text(&o));
    assert!(!text(&o).contains("ok "), "{}", text(&o));
    // a directory with no job files
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let o = sm5sim_in(&dir, &["run", "empty"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no job files"), "{}", text(&o));
}

#[test]
fn each_job_runs_once_however_it_is_named() {
    let dir = four_jobs("once");
    #[cfg(unix)]
    {
        // a link back up the tree is not followed; a link to a job file is run
        std::os::unix::fs::symlink(&dir, dir.join("sub/loop")).unwrap();
        std::os::unix::fs::symlink(dir.join("pass.toml"), dir.join("sub/again.toml")).unwrap();
    }
    let o = sm5sim_in(
        &dir,
        &[
            "run",
            ".",
            "pass.toml",
            "./fail.toml",
            s(&dir.join("fail.toml")),
            "--max-instructions",
            "100000",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    let names: Vec<&str> = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    // pass.toml and sub/again.toml are one file: the first name in order stays
    assert_eq!(
        names,
        ["fail.toml", "pass.toml", "runaway.toml", "sub/bad.toml"],
        "{v}"
    );
}

#[test]
fn names_and_shards_do_not_depend_on_where_the_checkout_is() {
    // the same suite in two places, named relatively from one and
    // absolutely from the other: the same names, the same shards
    let a = scratch("place_a").join("checkout");
    let b = scratch("place_b").join("deeper/checkout");
    four_jobs_in(&a);
    four_jobs_in(&b);
    let shard_of = |cwd: &Path, suite: &str| {
        let o = sm5sim_in(
            cwd,
            &[
                "run",
                suite,
                "--shard",
                "2/3",
                "--max-instructions",
                "1000",
                "--json",
            ],
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
        assert_eq!(v["suite_jobs"], 4);
        v["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let from_a = shard_of(a.parent().unwrap(), "checkout");
    let from_b = shard_of(b.parent().unwrap(), s(&b));
    assert_eq!(from_a, from_b);
    // shard 2 of 3 of four jobs: the second in name order
    assert_eq!(from_a, ["checkout/pass.toml"]);
}

#[test]
fn a_runaway_dispatch_does_not_use_up_the_timeout_of_other_jobs() {
    // A runaway job keeps every worker of the pool busy until its watchdog
    // stops it. A job beside it that dispatches in the meantime waits for
    // its turn on the pool; its own timeout starts with its turn, so it
    // passes rather than being stopped for the runaway's time.
    let dir = scratch("turns");
    let write = |f: &str, t: &str| std::fs::write(dir.join(f), t).unwrap();
    write(
        "spin.asm",
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nloop\n  iadd r0.x, r0.x, l(1)\nendloop\nret\n",
    );
    write(
        "a_runaway.toml",
        "shader = \"spin.asm\"\n[resources.out]\nslot = \"u0\"\nelements = 1\n[[steps]]\ndispatch = [1024, 1, 1]\n",
    );
    // 64 groups of 250,000 passes each (a few hundredths of a second in a
    // release build, well under the timeout in a debug build on a loaded
    // machine); the random keys, slow to make, keep its dispatch after the
    // runaway's
    write(
        "count.asm",
        "cs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.x, l(0)\nloop\n  uge r0.y, r0.x, l(250000)\n  breakc_nz r0.y\n  iadd r0.x, r0.x, l(1)\nendloop\nstore_raw u0.x, l(0), r0.x\nret\n",
    );
    write(
        "b_counts.toml",
        "shader = \"count.asm\"\n[resources.out]\nslot = \"u0\"\nelements = 1\n[resources.keys]\nslot = \"u1\"\nelements = 4000000\ninit = { random_u32 = { seed = 1 } }\n[[steps]]\ndispatch = [64, 1, 1]\n[[steps]]\nexpect = { resource = \"out\", u32 = [250000] }\n",
    );
    let o = sm5sim_in(&dir, &["run", ".", "--timeout", "1", "--jobs", "2"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(out.contains("ERROR  a_runaway.toml"), "{out}");
    // (the group that reports may be one that saw another stop first: "cancelled")
    assert!(out.contains("dispatch stopped: "), "{out}");
    assert!(out.contains("ok     b_counts.toml"), "{out}");
    assert!(out.contains("2 jobs: 1 passed, 0 failed, 1 error"), "{out}");
}

/// `skip = "reason"` skips a job (reported, counted, in JSON and JUnit; exit
/// 0 when nothing else failed); a single job file with it prints why.
#[test]
fn a_job_marked_skip_is_reported_skipped() {
    let dir = scratch("skip");
    std::fs::copy(
        root().join("examples/histogram/histogram.dxbc"),
        dir.join("histogram.dxbc"),
    )
    .unwrap();
    let small = super::cli::SMALL.replace("SHADER", "histogram.dxbc");
    std::fs::write(dir.join("pass.toml"), &small).unwrap();
    // a skipped job is not loaded: its shader need not exist
    std::fs::write(
        dir.join("later.toml"),
        "skip = \"needs the v2 shader\"\nshader = \"missing.dxbc\"\n",
    )
    .unwrap();
    let xml = dir.join("r.xml");
    let o = sm5sim_in(&dir, &["run", ".", "--junit", s(&xml)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("SKIP   later.toml: needs the v2 shader"), "{t}");
    assert!(
        t.contains("2 jobs: 1 passed, 0 failed, 0 errors, 1 skipped"),
        "{t}"
    );
    let cases = junit(&xml);
    assert_eq!(cases["later.toml"].outcome, "skipped");
    assert_eq!(cases["later.toml"].message, "needs the v2 shader");
    let o = sm5sim_in(&dir, &["run", ".", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["totals"]["skipped"], 1, "{doc}");
    let later = doc["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == "later.toml");
    assert_eq!(later.unwrap()["status"], "skipped", "{doc}");
    let o = sm5sim_in(&dir, &["run", "later.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("skipped: later.toml: needs the v2 shader"));
    std::fs::write(dir.join("later.toml"), "skip = 3\n").unwrap();
    let o = sm5sim_in(&dir, &["run", "later.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("later.toml:1:1: skip: expected the reason"),
        "{}",
        text(&o)
    );
}

/// `-k EXPR` selects jobs by name, `-x` stops at the first failure or
/// error (the jobs not started are not run or reported), `--last-failed`
/// runs the jobs that failed or erred last time (kept in .sm5sim_cache/ of
/// the current directory), every job when none did.
#[test]
fn keyword_exitfirst_and_last_failed_select_jobs() {
    let dir = four_jobs("select");
    let _ = std::fs::remove_dir_all(dir.join(".sm5sim_cache"));
    let run = |args: &[&str]| {
        let mut all = vec!["run", ".", "--max-instructions", "100000", "-j", "1"];
        all.extend_from_slice(args);
        let o = sm5sim_in(&dir, &all);
        (o.status.code(), text(&o))
    };
    let (code, t) = run(&["-k", "pass or fail"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains("2 jobs: 1 passed, 1 failed, 0 errors"), "{t}");
    assert!(t.contains("2 of 4 selected by -k"), "{t}");
    let (code, t) = run(&["-k", "not (spin or runaway or sub)"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(
        !t.contains("runaway.toml") && !t.contains("bad.toml"),
        "{t}"
    );
    let (code, t) = run(&["-k", "pass and"]);
    assert_eq!(code, Some(2), "{t}");
    assert!(t.contains("expected a word"), "{t}");

    // -x, one job at a time in name order: fail.toml fails, the rest wait
    let (code, t) = run(&["-x"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains("1 job: 0 passed, 1 failed"), "{t}");
    assert!(
        t.contains("stopped at the first failure (-x): 3 not run"),
        "{t}"
    );
    assert!(!t.contains("pass.toml"), "{t}");

    // the full run records fail, runaway and sub/bad; --lf runs just them
    let (code, _) = run(&[]);
    assert_eq!(code, Some(2));
    let kept = std::fs::read_to_string(dir.join(".sm5sim_cache/lastfailed")).unwrap();
    assert_eq!(kept, "fail.toml\nrunaway.toml\nsub/bad.toml\n");
    let (_, t) = run(&["--last-failed"]);
    assert!(t.contains("3 jobs: 0 passed, 1 failed, 2 errors"), "{t}");
    assert!(t.contains("3 that failed when last run"), "{t}");
    // fixed: it leaves the list
    std::fs::write(
        dir.join("fail.toml"),
        std::fs::read(dir.join("pass.toml")).unwrap(),
    )
    .unwrap();
    std::fs::remove_file(dir.join("runaway.toml")).unwrap();
    std::fs::remove_file(dir.join("sub/bad.toml")).unwrap();
    let (code, t) = run(&["--lf"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("1 job: 1 passed"), "{t}");
    let (code, t) = run(&["--lf"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains("no job failed when last run: running all"),
        "{t}"
    );
}

/// A single job's text report ends with one verdict line.
#[test]
fn a_single_job_prints_a_verdict() {
    let dir = four_jobs("verdict");
    let o = sm5sim_in(&dir, &["run", "pass.toml"]);
    let t = text(&o);
    assert!(
        t.trim_end()
            .ends_with("pass.toml: passed (2 steps, 1 expectation)"),
        "{t}"
    );
    let o = sm5sim_in(&dir, &["run", "fail.toml"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out.trim_end()
            .ends_with("fail.toml: FAILED (1 of 1 expectation)"),
        "{out}"
    );
}
