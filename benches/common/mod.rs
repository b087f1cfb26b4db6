//! What the benchmarks share: criterion set up on where it keeps its
//! estimates, the medians a run's tables read from them, and when to
//! print the tables.

use criterion::Criterion;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Criterion writing to [`criterion_dir`] and configured from the command
/// line, that directory, and the time the run began (the tables read only
/// estimates written since: [`median_ns`]).
pub fn criterion() -> (Criterion, PathBuf, SystemTime) {
    let dir = criterion_dir();
    let since = SystemTime::now();
    let c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    (c, dir, since)
}

/// Warm-up and measurement times of a group: 0.2 s and 1 s when `quick`,
/// else 1 s and 3 s.
// (the workloads and checking benches size their groups themselves)
#[allow(dead_code)]
pub fn warm_up_and_measure(quick: bool) -> (Duration, Duration) {
    if quick {
        (Duration::from_millis(200), Duration::from_secs(1))
    } else {
        (Duration::from_secs(1), Duration::from_secs(3))
    }
}

/// Where criterion writes its estimates (set explicitly, so the table reads
/// the same place): `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else `target/criterion` in the workspace.
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")).to_path_buf()
        });
    target.join("criterion")
}

/// The median (ns) criterion estimated for group/function in this run
/// (an estimates file older than `since` is a previous run's: None).
pub fn median_ns(dir: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = dir
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

/// Whether criterion times (`cargo bench`: `--bench`), as opposed to
/// running each function once as a test (`cargo test --benches`, or
/// `--test`) or listing them: criterion's own rule. Only then do the
/// benches print their tables.
pub fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    has("--bench") && !has("--test") && !has("--list")
}

/// Whether `SM5SIM_BENCH_QUICK` asks for the short variant (set, not "0").
// (the checking bench has no short variant)
#[allow(dead_code)]
pub fn quick_env() -> bool {
    std::env::var_os("SM5SIM_BENCH_QUICK").is_some_and(|v| v != "0" && !v.is_empty())
}
