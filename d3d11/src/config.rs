//! The DLL's settings, read once from the environment (`docs/d3d11.md`,
//! "Environment variables").

use sim_core::check::CheckOptions;
use sim_sched::Schedule;
use sm5sim::api::Options;
use std::path::PathBuf;
use std::sync::OnceLock;

/// What the environment asked for.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// `SM5SIM_THREADS`: worker threads (0 or unset: one per core)
    pub threads: usize,
    /// `SM5SIM_WARP_WIDTH`: lanes per warp (unset: one warp per group)
    pub warp_width: Option<usize>,
    /// `SM5SIM_CHECK=1`: every dispatch runs under the concurrency checker
    pub check: bool,
    /// `SM5SIM_CHECK_LOG=PATH`: where findings go (unset: the log)
    pub check_log: Option<PathBuf>,
    /// `SM5SIM_PROFILE=PATH.json`: a profile of every dispatch, rewritten
    /// after each
    pub profile: Option<PathBuf>,
    /// `SM5SIM_TRACE=PATH.json`: a Chrome/Perfetto trace of the dispatches,
    /// rewritten after each (`run --trace`)
    pub trace: Option<PathBuf>,
    /// `SM5SIM_CALLS=1`: every D3D11 call the DLL implements, logged
    pub calls: bool,
    /// `SM5SIM_MESSAGES=1`: the shaders' `printf`/`errorf` messages, logged
    pub messages: bool,
    /// `SM5SIM_DETERMINISTIC=1`: groups in order, warps in order, on the
    /// calling thread (`run --deterministic`)
    pub deterministic: bool,
    /// `SM5SIM_SCHEDULE_SEED=N`: a seeded schedule (`run --schedule-seed`)
    pub schedule_seed: Option<u64>,
    /// `SM5SIM_TIMEOUT=SECONDS`: a dispatch's wall-clock limit (unset: the
    /// API's 60 s; 0: none)
    pub timeout: Option<f64>,
    /// `SM5SIM_LOG=PATH`: where the DLL's own lines go (unset: stderr)
    pub log: Option<PathBuf>,
    /// settings that could not be read, reported once by the first device
    pub problems: Vec<String>,
}

fn flag(name: &str, problems: &mut Vec<String>) -> bool {
    match std::env::var(name).as_deref() {
        Err(_) | Ok("") | Ok("0") => false,
        Ok("1") => true,
        Ok(v) => {
            problems.push(format!("{name}={v}: expected 0 or 1; taken as 1"));
            true
        }
    }
}

fn number<T: std::str::FromStr>(name: &str, problems: &mut Vec<String>) -> Option<T> {
    let v = std::env::var(name).ok().filter(|v| !v.is_empty())?;
    match v.trim().parse() {
        Ok(n) => Some(n),
        Err(_) => {
            problems.push(format!("{name}={v}: not a number; ignored"));
            None
        }
    }
}

fn path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Config {
    /// The settings of this process's environment.
    pub fn from_env() -> Config {
        let mut problems = Vec::new();
        let p = &mut problems;
        let mut c = Config {
            threads: number("SM5SIM_THREADS", p).unwrap_or(0),
            warp_width: number("SM5SIM_WARP_WIDTH", p),
            check: flag("SM5SIM_CHECK", p),
            check_log: path("SM5SIM_CHECK_LOG"),
            profile: path("SM5SIM_PROFILE"),
            trace: path("SM5SIM_TRACE"),
            calls: flag("SM5SIM_CALLS", p),
            messages: flag("SM5SIM_MESSAGES", p),
            deterministic: flag("SM5SIM_DETERMINISTIC", p),
            schedule_seed: number("SM5SIM_SCHEDULE_SEED", p),
            timeout: number::<f64>("SM5SIM_TIMEOUT", p).filter(|t| t.is_finite() && *t >= 0.0),
            log: path("SM5SIM_LOG"),
            problems: Vec::new(),
        };
        c.problems = problems;
        c
    }

    /// The process's settings, read at the first call.
    pub fn get() -> &'static Config {
        static CONFIG: OnceLock<Config> = OnceLock::new();
        CONFIG.get_or_init(Config::from_env)
    }

    /// The options every dispatch runs with.
    pub fn options(&self) -> Options {
        let mut o = Options::default().threads(self.threads);
        match self.timeout {
            Some(0.0) => o = o.timeout(None),
            Some(t) => o = o.timeout(Some(std::time::Duration::from_secs_f64(t))),
            None => {}
        }
        if let Some(w) = self.warp_width {
            o = o.warp_width(w);
        }
        o.dispatch.profile = self.profile.is_some() || self.trace.is_some();
        o.dispatch.trace = self.trace.is_some();
        o.dispatch.schedule = match (self.deterministic, self.schedule_seed) {
            (true, _) => Some(Schedule::fixed()),
            (false, Some(s)) => Some(Schedule::seeded(s)),
            (false, None) => None,
        };
        if self.check {
            o = o.check(CheckOptions::default());
        }
        o
    }
}
