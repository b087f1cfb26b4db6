//! `sm5sim run` and `sm5sim check` with several jobs: a suite
//! ([`sm5sim::suite`] finds the jobs, picks the shard and writes JUnit XML).
//!
//! Each job is isolated: it is loaded, run and reported on its own, so a
//! bad job file, a stopped dispatch, a failed expectation or even a panic
//! ends that job alone. Jobs run a few at a time (`--jobs`, one per core by
//! default), each on a thread of its own. What a job does on its own thread
//! (loading and filling resources, `set`, comparing `expect`s, one-group
//! dispatches, and under `check` every dispatch) goes on side by side with
//! the other jobs, which keeps every core busy with a suite of small jobs.
//! Dispatches that run on the worker pool take turns on it
//! ([`Job::run_partial_taking_turns`]): each has every worker, and its
//! timeout counts its own run, so a runaway job that holds the pool until
//! its watchdog stops it delays the other jobs' dispatches but cannot use
//! up their time. Reports come out in suite order, whatever order the jobs
//! finish in.

use crate::report::{
    check_findings_text, check_json, check_summary, check_text, error_findings, report_json,
    step_text, steps_text,
};
use crate::{cancel_token, compile_note, error_text, schedules_report, SuiteArgs};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use sm5sim::compiler::{CompileError, CompileOptions};
use sm5sim::files;
use sm5sim::job::{Job, JobError, StepReport};
use sm5sim::sim_core::check::CheckOptions;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use sm5sim::suite::{self, CaseResult, Outcome, SuiteJob, Totals};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The error of a suite whose report (stdout) already says what went
/// wrong: exit status 2, no further message.
#[derive(Debug)]
pub(crate) struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a job of the suite had an error")
    }
}

impl std::error::Error for Reported {}

/// What each job of a suite does.
pub(crate) enum Mode {
    /// `run`: the steps.
    Run,
    /// `check`: the steps under the concurrency checker.
    Check(CheckOptions),
    /// `check --schedules N --seed S`.
    Schedules {
        /// N
        n: u64,
        /// S
        seed: u64,
    },
}

/// A suite to run: the command line of `run` or `check` with several jobs.
pub(crate) struct Suite {
    /// `run` or `check`
    pub command: &'static str,
    /// the job files and directories named
    pub paths: Vec<PathBuf>,
    /// `--junit`, `--shard`, `--jobs`
    pub args: SuiteArgs,
    /// `--json`
    pub json: bool,
    /// how each job is loaded
    pub load: LoadOptions,
    /// how an HLSL shader is compiled
    pub compile: CompileOptions,
    /// how each dispatch runs
    pub options: DispatchOptions,
    /// what runs
    pub mode: Mode,
    /// taken by each job's dispatches on the worker pool
    /// ([`Job::run_partial_taking_turns`])
    pub turns: std::sync::Mutex<()>,
}

/// One job's result.
struct JobResult {
    case: CaseResult,
    /// the job's JSON object (as the single job's `--json` prints it, with
    /// `name`, `status` and `seconds`)
    json: serde_json::Value,
}

/// The stack of a job's thread: the main thread's, since a job's checked
/// and scheduled dispatches run on the thread that runs the job, as a
/// single job's do on the main thread.
const JOB_STACK_BYTES: usize = 8 << 20;

/// Run the suite: find its jobs, pick the shard, run them, print the
/// report (text or JSON) and write the JUnit XML.
///
/// # Errors
/// Before any job runs: a directory that cannot be read, no job files, a
/// `--junit` output that cannot be written or would overwrite a job file.
/// After: [`Reported`] when a job had an error (exit status 2), or the
/// error of writing the JUnit XML.
pub(crate) fn run_suite(s: Suite) -> anyhow::Result<bool> {
    let started = Instant::now();
    let cores = sm5sim::sim_sched::cores();
    let max_jobs = sm5sim::sim_sched::max_threads(cores);
    if s.args.parallel > max_jobs {
        bail!(
            "--jobs {}: at most {max_jobs} on this machine ({cores} cores; 0 = one per core)",
            s.args.parallel
        );
    }
    let cwd = std::env::current_dir().context("finding the current directory")?;
    let all = suite::find_jobs(&s.paths, &cwd).map_err(anyhow::Error::msg)?;
    if all.is_empty() {
        let named: Vec<String> = s.paths.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "no job files (*.{}) in {}",
            suite::JOB_EXTENSION,
            named.join(", ")
        );
    }
    if let Some(f) = &s.args.junit {
        let inputs: Vec<PathBuf> = all.iter().map(|j| j.path.clone()).collect();
        files::check_output(&format!("--junit {}", f.display()), f, &inputs)
            .map_err(anyhow::Error::msg)?;
    }
    let found = all.len();
    let mut jobs = match s.args.shard {
        Some(shard) => shard.select(all),
        None => all,
    };
    let mut notes = Vec::new();
    if let Some(k) = &s.args.keyword {
        let before = jobs.len();
        jobs.retain(|j| k.matches(&j.name));
        notes.push(format!("{} of {before} selected by -k", jobs.len()));
    }
    let cache = Path::new(suite::CACHE_DIR);
    let mut last_failed = suite::LastFailed::read(cache);
    if s.args.last_failed {
        let failed: Vec<SuiteJob> = (jobs.iter())
            .filter(|j| last_failed.names.contains(&j.name))
            .cloned()
            .collect();
        if failed.is_empty() {
            notes.push("no job failed when last run: running all".into());
        } else {
            notes.push(format!("{} that failed when last run", failed.len()));
            jobs = failed;
        }
    }
    let results = run_jobs(&s, &jobs);
    // what is not run after -x stops the suite
    let not_run = jobs.len() - results.len();
    if not_run > 0 {
        notes.push(format!(
            "stopped at the first failure (-x): {not_run} not run"
        ));
    }
    last_failed.update(
        results
            .iter()
            .map(|r| (r.case.name.as_str(), r.case.outcome)),
    );
    if let Err(e) = last_failed.write(cache) {
        eprintln!(
            "warning: {}: cannot keep the failed jobs for --last-failed: {e}",
            cache.display()
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    let totals = Totals::of(results.iter().map(|r| r.case.outcome));
    let shard = s.args.shard.map(|sh| sh.to_string());
    if s.json {
        let doc = serde_json::json!({
            "command": s.command,
            "passed": totals.exit_status() == 0,
            "totals": {
                "jobs": totals.jobs,
                "passed": totals.passed,
                "failed": totals.failed,
                "errors": totals.errors,
                "skipped": totals.skipped,
            },
            "shard": shard,
            "suite_jobs": found,
            "notes": notes,
            "seconds": seconds,
            "jobs": results.iter().map(|r| r.json.clone()).collect::<Vec<_>>(),
        });
        println!("{doc}");
    } else {
        let mut part = match &shard {
            Some(sh) if found == 1 => format!("shard {sh} of 1 job; "),
            Some(sh) => format!("shard {sh} of {found} jobs; "),
            None => String::new(),
        };
        for n in &notes {
            part.push_str(n);
            part.push_str("; ");
        }
        println!("{totals} ({part}{seconds:.3} s)");
    }
    if let Some(f) = &s.args.junit {
        crate::stop_if_cancelled(&format!("writing {}", f.display()))?;
        let name = match &shard {
            Some(sh) => format!("sm5sim {} (shard {sh})", s.command),
            None => format!("sm5sim {}", s.command),
        };
        let cases: Vec<CaseResult> = results.into_iter().map(|r| r.case).collect();
        files::write_atomic(f, suite::junit_xml(&name, &cases, seconds).as_bytes())
            .with_context(|| format!("writing {}", f.display()))?;
    }
    match totals.exit_status() {
        0 => Ok(true),
        1 => Ok(false),
        _ => Err(Reported.into()),
    }
}

/// Run `jobs`, a few at a time; print each one's report (text mode) in
/// suite order as soon as it and those before it are done. With `-x`, no
/// job starts after one fails or errs, and those not started are left out
/// of the results.
fn run_jobs(s: &Suite, jobs: &[SuiteJob]) -> Vec<JobResult> {
    let parallel = match s.args.parallel {
        0 => sm5sim::sim_sched::cores(),
        n => n,
    }
    .clamp(1, jobs.len().max(1));
    // the jobs that run at once share the memory (without --max-memory)
    sm5sim::memory::share_among(parallel);
    let bar = ProgressBar::new(jobs.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} jobs") {
        bar.set_style(style);
    }
    bar.set_prefix(s.command);
    let next = AtomicUsize::new(0);
    // -x: set by the first job that fails or errs; no job starts after it
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = |job: &SuiteJob| {
        let r = run_isolated(s, job);
        if s.args.exit_first && matches!(r.case.outcome, Outcome::Failed | Outcome::Error) {
            stop.store(true, Ordering::Relaxed);
        }
        r
    };
    let mut done: Vec<Option<JobResult>> = jobs.iter().map(|_| None).collect();
    let mut printed = 0;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, JobResult)>();
        let mut spawned = 0;
        for w in 0..parallel {
            let (tx, next, stop, run) = (tx.clone(), &next, &stop, &run);
            let worker = move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                if tx.send((i, run(job))).is_err() {
                    break;
                }
            };
            let thread = std::thread::Builder::new()
                .name(format!("sm5sim-job-{w}"))
                .stack_size(JOB_STACK_BYTES)
                .spawn_scoped(scope, worker);
            spawned += usize::from(thread.is_ok());
        }
        if spawned == 0 {
            // no thread could start: the jobs run on this one
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let _ = tx.send((i, run(job)));
            }
        }
        drop(tx);
        for (i, result) in rx {
            done[i] = Some(result);
            bar.inc(1);
            while let Some(Some(r)) = done.get(printed) {
                if !s.json {
                    bar.suspend(|| print!("{}", job_report(&r.case)));
                }
                printed += 1;
            }
        }
    });
    bar.finish_and_clear();
    let stopped = stop.load(Ordering::Relaxed);
    done.into_iter()
        .zip(jobs)
        // -x: the jobs that never started are not reported
        .filter(|(r, _)| r.is_some() || !stopped)
        .map(|(r, job)| {
            // every job sends its result; this is for a worker that died
            r.unwrap_or_else(|| {
                error_result(
                    job,
                    0.0,
                    ErrorText::message("internal error: the job's thread ended without a result"),
                    String::new(),
                    None,
                )
            })
        })
        .collect()
}

/// A job's lines in the text report: `ok`, `FAILED` or `ERROR`, its name
/// and time; under a failure or an error, what the job reported; under a
/// pass, its warnings.
fn job_report(c: &CaseResult) -> String {
    let tag = match c.outcome {
        Outcome::Passed => "ok",
        Outcome::Failed => "FAILED",
        Outcome::Error => "ERROR",
        Outcome::Skipped => "SKIP",
    };
    if c.outcome == Outcome::Skipped {
        return format!("{tag:<6} {}: {}\n", c.name, c.message);
    }
    let mut text = format!("{tag:<6} {} ({:.3} s)\n", c.name, c.seconds);
    let shown: Vec<&str> = match c.outcome {
        Outcome::Passed => c
            .output
            .lines()
            .filter(|l| l.starts_with("warning: "))
            .collect(),
        _ => c.output.lines().collect(),
    };
    for line in shown {
        text.push_str("  ");
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Run one job; a panic is that job's error.
fn run_isolated(s: &Suite, job: &SuiteJob) -> JobResult {
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_one(s, job)));
    outcome.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        error_result(
            job,
            start.elapsed().as_secs_f64(),
            ErrorText::message(&format!("internal error: sm5sim panicked: {what}")),
            String::new(),
            None,
        )
    })
}

/// A job's error as the command line prints it for a single job: what
/// comes before the `error:` line (a compiler's output), and that line's
/// text (a compile error's summary, or the error and its causes).
struct ErrorText {
    prelude: String,
    text: String,
}

impl ErrorText {
    fn of(e: &anyhow::Error) -> Self {
        let compile = e.chain().find_map(|c| {
            c.downcast_ref::<CompileError>()
                .or_else(|| match c.downcast_ref::<JobError>() {
                    Some(JobError::Compile(c)) => Some(c),
                    _ => None,
                })
        });
        match compile {
            Some(c) => {
                let mut prelude = match c {
                    CompileError::Failed { output, .. } => output.clone(),
                    _ => String::new(),
                };
                if !prelude.is_empty() && !prelude.ends_with('\n') {
                    prelude.push('\n');
                }
                ErrorText {
                    prelude,
                    text: c.summary(),
                }
            }
            None => ErrorText {
                prelude: String::new(),
                text: error_text(e),
            },
        }
    }

    fn message(text: &str) -> Self {
        ErrorText {
            prelude: String::new(),
            text: text.to_string(),
        }
    }
}

/// The result of a job that had an error: `output` is what it reported
/// before it (the steps that ran), `json` its JSON object when it loaded.
fn error_result(
    job: &SuiteJob,
    seconds: f64,
    error: ErrorText,
    mut output: String,
    json: Option<serde_json::Value>,
) -> JobResult {
    let message = error.text.lines().next().unwrap_or("").to_string();
    output.push_str(&format!("{}error: {}\n", error.prelude, error.text));
    let json = json.unwrap_or_else(|| {
        serde_json::json!({
            "job": job.path.display().to_string(),
            "passed": false,
            "error": error.text,
        })
    });
    finish(
        job,
        CaseResult {
            name: job.name.clone(),
            outcome: Outcome::Error,
            seconds,
            message,
            details: format!("{}{}", error.prelude, error.text),
            output,
        },
        json,
    )
}

/// The result of a job that did not run: `skip = "reason"`, or HLSL
/// without a compiler.
fn skipped_result(job: &SuiteJob, seconds: f64, reason: String) -> JobResult {
    let json = serde_json::json!({
        "job": job.path.display().to_string(),
        "passed": null,
        "skipped": reason,
    });
    finish(
        job,
        CaseResult {
            name: job.name.clone(),
            outcome: Outcome::Skipped,
            seconds,
            message: reason,
            details: String::new(),
            output: String::new(),
        },
        json,
    )
}

/// The result with its JSON object completed (`name`, `status`, `seconds`).
fn finish(job: &SuiteJob, case: CaseResult, mut json: serde_json::Value) -> JobResult {
    json["name"] = serde_json::json!(job.name);
    json["status"] = serde_json::json!(case.outcome.name());
    json["seconds"] = serde_json::json!(case.seconds);
    JobResult { case, json }
}

/// Load and run one job.
fn run_one(s: &Suite, sj: &SuiteJob) -> JobResult {
    let start = Instant::now();
    let elapsed = || start.elapsed().as_secs_f64();
    if cancel_token().load(Ordering::Relaxed) {
        return error_result(
            sj,
            0.0,
            ErrorText::message("cancelled (Ctrl-C) before this job began"),
            String::new(),
            None,
        );
    }
    match sm5sim::job::skip_reason(&sj.path) {
        Ok(Some(reason)) => return skipped_result(sj, elapsed(), reason),
        Ok(None) => {}
        Err(e) => {
            return error_result(sj, elapsed(), ErrorText::of(&e.into()), String::new(), None);
        }
    }
    let job = match Job::load_with(&sj.path, &s.load, &s.compile) {
        Ok(j) => j,
        Err(JobError::Compile(CompileError::NoCompiler { source_path })) => {
            // HLSL on a machine without a compiler: not this job's fault
            let reason = format!(
                "{} needs an HLSL compiler, and none is installed (tools/fxc/setup.sh)",
                source_path.display()
            );
            return skipped_result(sj, elapsed(), reason);
        }
        Err(e) => {
            return error_result(sj, elapsed(), ErrorText::of(&e.into()), String::new(), None);
        }
    };
    let mut output: String = job.compiled_shaders().map(compile_note).collect();
    if let Some(f) = &s.args.junit {
        if let Err(e) = files::check_output(&format!("--junit {}", f.display()), f, &job.inputs) {
            return error_result(sj, elapsed(), ErrorText::message(&e), output, None);
        }
    }
    match &s.mode {
        Mode::Run => {
            for w in &job.warnings {
                output.push_str(&format!("warning: {w}\n"));
            }
            let (reports, error) = job.run_partial_taking_turns(&s.options, &s.turns);
            output.push_str(&steps_text(&reports));
            if let Some(e) = error {
                let error = ErrorText::of(&e.into());
                let json = report_json(&job, &reports, false, Some(&error.text));
                return error_result(sj, elapsed(), error, output, Some(json));
            }
            let passed = reports.iter().all(StepReport::passed);
            let json = report_json(&job, &reports, passed, None);
            let (message, details) = failed_steps(&reports);
            let outcome = if passed {
                Outcome::Passed
            } else {
                Outcome::Failed
            };
            finish(
                sj,
                case(sj, outcome, elapsed(), message, details, output),
                json,
            )
        }
        Mode::Check(checks) => {
            let report = match job.run_checked(&s.options, *checks) {
                Ok(r) => r,
                Err(e) => {
                    return error_result(sj, elapsed(), ErrorText::of(&e.into()), output, None);
                }
            };
            let errors = error_findings(&report.findings);
            let expectations = report.steps.iter().all(StepReport::passed);
            let stopped = report.stopped.as_deref();
            let json = check_json(&job, &report);
            // the checker's own stop (forward-progress) is a finding: the
            // job fails; a watchdog stop or a cancellation is its error
            let checker_stop =
                report.stop_reason == Some(sm5sim::sim_core::exec::StopReason::NoProgress);
            if let Some(e) = stopped.filter(|_| !checker_stop) {
                // a stopped dispatch is the job's error, after the findings
                // made before it
                output.push_str(&check_findings_text(&job, &report));
                let error = ErrorText {
                    prelude: String::new(),
                    text: e.to_string(),
                };
                return error_result(sj, elapsed(), error, output, Some(json));
            }
            output.push_str(&check_text(&job, &report));
            let passed = errors == 0 && expectations && !checker_stop;
            let (outcome, message, details) = if passed {
                (Outcome::Passed, String::new(), String::new())
            } else {
                // the error findings and the failed expectations
                let mut details: String = report
                    .findings
                    .iter()
                    .filter(|f| f.severity() == sm5sim::sim_core::check::Severity::Error)
                    .map(|f| format!("{f}\n"))
                    .collect();
                details.push_str(&failed_steps(&report.steps).1);
                (Outcome::Failed, check_summary(&report), details)
            };
            finish(
                sj,
                case(sj, outcome, elapsed(), message, details, output),
                json,
            )
        }
        Mode::Schedules { n, seed } => match schedules_report(&job, &s.options, *n, *seed) {
            Ok(r) => {
                output.push_str(&r.text);
                let outcome = if r.passed {
                    Outcome::Passed
                } else {
                    Outcome::Failed
                };
                let details = if r.passed { String::new() } else { r.text };
                finish(
                    sj,
                    case(sj, outcome, elapsed(), r.summary, details, output),
                    r.json,
                )
            }
            Err(e) => error_result(sj, elapsed(), ErrorText::of(&e), output, None),
        },
    }
}

/// A [`CaseResult`] for `sj`.
fn case(
    sj: &SuiteJob,
    outcome: Outcome,
    seconds: f64,
    message: String,
    details: String,
    output: String,
) -> CaseResult {
    CaseResult {
        name: sj.name.clone(),
        outcome,
        seconds,
        message,
        details,
        output,
    }
}

/// The failed expectations among `reports`: the first one's line, and
/// every failed one's lines with their first differing elements.
fn failed_steps(reports: &[StepReport]) -> (String, String) {
    let mut details = String::new();
    let mut message = None;
    for (i, r) in reports.iter().enumerate() {
        if !r.passed() {
            details.push_str(&step_text(i, r));
            // a dispatch fails by its first errorf: the message says which
            if let StepReport::Dispatch { messages, .. } = r {
                if let Some(e) = &messages.first_error {
                    message.get_or_insert(format!(
                        "step {i}: errorf ran {} time(s); the first: {}",
                        messages.errorf,
                        e.line_text()
                    ));
                }
            }
        }
    }
    let message = message.unwrap_or_else(|| details.lines().next().unwrap_or("").to_string());
    (message, details)
}
