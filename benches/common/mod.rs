//! What the benchmarks share: where criterion keeps its estimates, and
//! the medians a run's tables read from them.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
