//! Schedule exploration and the deterministic mode (`sm5sim check
//! --schedules`, `sm5sim run --deterministic / --schedule-seed`), on reduced
//! copies of the example jobs (`tests/schedules/*.toml`, which name the
//! examples' DXBC): cas_float_add's float sums depend on the schedule, the
//! integer and barrier-correct workloads do not, one seed replays one
//! schedule bit for bit, and the deterministic mode gives one output on every
//! run and thread count.

use sm5sim::job::Job;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::{DispatchOptions, Schedule};
use std::path::{Path, PathBuf};
use std::process::Command;

fn job_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schedules")
        .join(format!("{name}.toml"))
}

fn load(name: &str) -> Job {
    Job::load(&job_path(name), &LoadOptions::default()).unwrap()
}

fn sm5sim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh load of `name` run once under `options`; its UAV outputs.
fn outputs(name: &str, options: &DispatchOptions) -> Vec<(String, Vec<u32>)> {
    let job = load(name);
    let steps = job.run(options).unwrap();
    assert!(steps.iter().all(|s| s.passed()), "{name}: {steps:?}");
    job.outputs()
}

fn seeds(base: u64, n: u64) -> Vec<u64> {
    (0..n).map(|i| Schedule::derive_seed(base, i)).collect()
}

#[test]
fn cas_float_add_is_schedule_dependent_and_its_seeds_replay() {
    let path = job_path("cas_float_add");
    let path = path.to_str().unwrap();
    let (code, out, err) = sm5sim(&["check", path, "--schedules", "32", "--seed", "1", "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schedule_independent"], false, "{v}");
    assert_eq!(v["passed"], false);
    assert_eq!(v["seeds"].as_array().unwrap().len(), 32);
    let d = &v["difference"];
    assert_eq!(d["resource"], "sums");
    let word = d["word"].as_u64().unwrap() as usize;
    assert!(d["words_differ"].as_u64().unwrap() >= 1);
    assert!(v["distinct_outputs"].as_u64().unwrap() >= 2);
    // each printed seed replays to the value the report claims
    let dir = std::env::temp_dir().join(format!("sm5sim-schedules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (seed, value) in [("seed_a", "value_a"), ("seed_b", "value_b")] {
        let seed = d[seed].as_u64().unwrap().to_string();
        let file = dir.join(format!("sums-{seed}.bin"));
        let dump = format!("sums={}", file.display());
        let (code, out, err) = sm5sim(&["run", path, "--schedule-seed", &seed, "--dump", &dump]);
        assert_eq!(code, 0, "{out}{err}");
        let bytes = std::fs::read(&file).unwrap();
        let got = u32::from_le_bytes(bytes[word * 4..word * 4 + 4].try_into().unwrap());
        assert_eq!(got as u64, d[value].as_u64().unwrap(), "seed {seed}");
    }
    std::fs::remove_dir_all(&dir).ok();

    // the text report
    let (code, out, _) = sm5sim(&["check", path, "--schedules", "32", "--seed", "1"]);
    assert_eq!(code, 1);
    let line = out
        .lines()
        .find(|l| l.starts_with("schedule-dependent: outputs differ between schedule seeds "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(": resource sums, first differing word ") && line.ends_with(" words differ"),
        "{line}"
    );
}

#[test]
fn integer_and_barrier_correct_workloads_are_schedule_independent() {
    let options = DispatchOptions::default();
    for name in [
        "histogram",
        "global_histogram",
        "reduce",
        "scan",
        "saxpy_structured",
        "matmul",
        "mandelbrot",
    ] {
        let job = load(name);
        let report = job.run_schedules(&options, &seeds(1, 32)).unwrap();
        assert!(
            report.independent(),
            "{name}: {:?}",
            report.difference.as_ref()
        );
        assert_eq!(report.distinct_outputs, 1, "{name}");
        assert!(report.failed_seeds().is_empty(), "{name}");
        // and the same outputs as a plain parallel run
        let plain = outputs(name, &options);
        assert_eq!(job.outputs(), plain, "{name}: schedules vs plain run");
    }
    let (code, out, err) = sm5sim(&[
        "check",
        job_path("scan").to_str().unwrap(),
        "--schedules",
        "4",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("schedule-independent: 4 schedules gave identical outputs"),
        "{out}"
    );
}

#[test]
fn deterministic_mode_is_bit_identical_across_runs_and_thread_counts() {
    let mut all = Vec::new();
    for threads in [1, 2] {
        for _ in 0..3 {
            let options = DispatchOptions {
                threads,
                schedule: Some(Schedule::fixed()),
                ..Default::default()
            };
            all.push(outputs("cas_float_add", &options));
        }
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]));
    // the CLI's --deterministic is that schedule
    let dir = std::env::temp_dir().join(format!("sm5sim-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sums.bin");
    let dump = format!("sums={}", file.display());
    let path = job_path("cas_float_add");
    for threads in ["1", "2"] {
        let (code, out, err) = sm5sim(&[
            "run",
            path.to_str().unwrap(),
            "--deterministic",
            "--threads",
            threads,
            "--dump",
            &dump,
        ]);
        assert_eq!(code, 0, "{out}{err}");
        let bytes = std::fs::read(&file).unwrap();
        let words: Vec<u32> = bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let sums = &all[0].iter().find(|(n, _)| n == "sums").unwrap().1;
        assert_eq!(&words, sums, "--threads {threads}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_schedule_seed_replays_bit_identically() {
    for name in ["cas_float_add", "reduce"] {
        for seed in seeds(99, 3) {
            let options = DispatchOptions {
                schedule: Some(Schedule::seeded(seed)),
                ..Default::default()
            };
            let a = outputs(name, &options);
            let b = outputs(name, &options);
            assert_eq!(a, b, "{name} seed {seed}");
        }
    }
    // run_schedules restores the resources before each schedule: a seed gives
    // the same outputs there as in a fresh run
    let job = load("cas_float_add");
    let s = seeds(5, 2);
    job.run_schedules(&DispatchOptions::default(), &s).unwrap();
    let fresh = outputs(
        "cas_float_add",
        &DispatchOptions {
            schedule: Some(Schedule::seeded(s[1])),
            ..Default::default()
        },
    );
    assert_eq!(job.outputs(), fresh);
}

#[test]
fn a_missing_barrier_is_schedule_dependent() {
    // tests/races' raw race on TGSM: each thread reads its neighbour's word
    // with no barrier between the store and the load
    let dir = std::env::temp_dir().join(format!("sm5sim-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shader =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/races/tgsm_raw_no_barrier_bug.asm");
    let path = dir.join("race.toml");
    std::fs::write(
        &path,
        format!(
            "shader = {:?}\n[resources.out]\nslot = \"u0\"\nelements = 256\ninit = {{ fill_u32 = 0 }}\n[[steps]]\ndispatch = [4, 1, 1]\n",
            shader.display().to_string()
        ),
    )
    .unwrap();
    let job = Job::load(&path, &LoadOptions::default()).unwrap();
    let report = job
        .run_schedules(&DispatchOptions::default(), &seeds(0, 8))
        .unwrap();
    assert!(!report.independent());
    std::fs::remove_dir_all(&dir).ok();
}

/// Group 3's thread 5 loops forever; the watchdog stops a scheduled dispatch
/// too (instruction budget and timeout), naming that group and thread.
#[test]
fn the_watchdog_stops_a_scheduled_dispatch() {
    use sm5sim::sim_core::front::asm::assemble;
    use sm5sim::sim_core::Program;
    use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
    use sm5sim::sim_sched::{dispatch, DispatchError};
    use std::time::Duration;
    const RUNAWAY: &str = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 8, 1, 1
ieq r0.x, vThreadGroupID.x, l(3)
ieq r0.y, vThreadIDInGroupFlattened.x, l(5)
and r0.x, r0.x, r0.y
if_nz r0.x
  loop
    iadd r1.y, r1.y, l(1)
  endloop
endif
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), l(1)
ret
";
    let p = Program::from_decoded(assemble(RUNAWAY).unwrap(), None).unwrap();
    let out = Buffer::zeroed(8 * 4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    for (seed, budget, timeout) in [
        (1, 100_000, None),
        (2, u64::MAX, Some(Duration::from_millis(200))),
    ] {
        let options = DispatchOptions {
            schedule: Some(Schedule::seeded(seed)),
            max_warp_instructions: budget,
            timeout,
            ..Default::default()
        };
        match dispatch(&p, &b, [8, 1, 1], &options) {
            Err(DispatchError::Runaway(r)) => {
                assert_eq!(r.group, [3, 0, 0], "{r}");
                assert_eq!(r.lane, 5, "{r}");
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

/// A failing expectation is reported per schedule without stopping the
/// exploration; the outputs are still compared.
#[test]
fn a_failing_expectation_is_reported_per_schedule() {
    let dir = std::env::temp_dir().join(format!("sm5sim-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(job_path("histogram"))
        .unwrap()
        .replace(
            "../../examples/",
            &format!("{}/examples/", env!("CARGO_MANIFEST_DIR")),
        )
        .replace("sum_u32 = 4096", "sum_u32 = 4095");
    let path = dir.join("histogram.toml");
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = sm5sim(&[
        "check",
        path.to_str().unwrap(),
        "--schedules",
        "3",
        "--json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schedule_independent"], true);
    assert_eq!(v["expectations_passed"], false);
    assert_eq!(v["failed_expectation_seeds"].as_array().unwrap().len(), 3);
    let (code, out, _) = sm5sim(&["check", path.to_str().unwrap(), "--schedules", "3"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("schedule-independent: 3 schedules gave identical outputs"),
        "{out}"
    );
    assert!(
        out.contains("an expectation FAILED under 3 of 3 schedules"),
        "{out}"
    );
    assert!(out.contains("FAILED, 1 element(s) differ"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// An append buffer (`tests/schedules/append.toml`: every thread appends
/// through the hidden counter): its elements' order differs between
/// schedules, so compared word for word (`compare = "exact"`) the job is
/// schedule-dependent; by default (the shader uses the counter) it is
/// compared as a multiset of its 8-byte elements and is not. A job may ask
/// for the multiset itself, and a bad `compare` value is refused at its key.
#[test]
fn append_buffers_are_compared_as_multisets() {
    let path = job_path("append");
    let (code, out, err) = sm5sim(&[
        "check",
        path.to_str().unwrap(),
        "--schedules",
        "8",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schedule_independent"], true, "{v}");
    assert_eq!(
        v["compared_as_multisets"],
        serde_json::json!(["items"]),
        "{v}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let tmp = std::env::temp_dir().join(format!("sm5sim-multiset-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let shader = job_path("append").with_extension("dxbc");
    let variant = |name: &str, compare: &str| {
        let p = tmp.join(format!("{name}.toml"));
        let t = text
            .replace(
                "shader = \"append.dxbc\"",
                &format!("shader = {:?}", shader.to_str().unwrap()),
            )
            .replace(
                "stride = 8\n",
                &format!("stride = 8\ncompare = {compare:?}\n"),
            );
        std::fs::write(&p, t).unwrap();
        p
    };
    let exact = variant("exact", "exact");
    let (code, out, err) = sm5sim(&["check", exact.to_str().unwrap(), "--schedules", "8"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("schedule-dependent: outputs differ"), "{out}");
    assert!(out.contains("resource items"), "{out}");
    let multiset = variant("multiset", "multiset");
    let (code, out, err) = sm5sim(&["check", multiset.to_str().unwrap(), "--schedules", "8"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("compared as multisets of their elements"),
        "{out}"
    );
    let bad = variant("bad", "sorted");
    let (code, out, err) = sm5sim(&["check", bad.to_str().unwrap(), "--schedules", "8"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("compare") && err.contains("\"sorted\""),
        "{err}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// A counter whose final value depends on the schedule
/// (`tests/schedules/records.toml`) while every output word agrees: the
/// report says so separately ("counter_difference"), and the job is not
/// schedule-independent.
#[test]
fn schedule_dependent_counters_are_reported_apart_from_outputs() {
    let path = job_path("records");
    let (code, out, err) = sm5sim(&[
        "check",
        path.to_str().unwrap(),
        "--schedules",
        "16",
        "--json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["difference"], serde_json::Value::Null, "{v}");
    assert_eq!(v["counter_difference"]["resource"], "records", "{v}");
    assert_ne!(
        v["counter_difference"]["value_a"],
        v["counter_difference"]["value_b"]
    );
    assert_eq!(v["schedule_independent"], false);
    let (_, out, _) = sm5sim(&["check", path.to_str().unwrap(), "--schedules", "16"]);
    assert!(
        out.contains("identical outputs, but not identical counters"),
        "{out}"
    );
    assert!(
        out.contains("schedule-dependent counter: the hidden counter of records"),
        "{out}"
    );
}
