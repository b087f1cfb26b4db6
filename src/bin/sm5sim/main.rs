//! `sm5sim`: run Direct3D 11 compute shaders on the CPU.
//!
//! Exit status: 0 when every expectation holds (and, for `check`, nothing
//! is wrong), 1 when one fails (or `check` finds an error), 2 on bad input
//! (unreadable or malformed files, bad job files, refused dispatches) and
//! for a dispatch stopped by the watchdog or cancelled (docs/command-line.md,
//! "Exit status"); 130 for a second Ctrl-C (or the first, in a command that
//! runs no job); 141 (128 + SIGPIPE) when the report's reader has gone.

use crate::report::{
    annotated_listing, check_json, check_text, chrome_trace, error_findings, print_profiles,
    print_steps, profiles_json, report_json, steps_json, steps_text,
};
use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use sm5sim::compiler::{self, CompileError, CompileOptions, Compiled, HlslRequest};
use sm5sim::files;
use sm5sim::job::{Job, JobError, StepReport};
use sm5sim::sim_core::check::CheckOptions;
use sm5sim::sim_core::exec::StopReason;
use sm5sim::sim_core::front::container::Container;
use sm5sim::sim_core::front::{asm, disasm, encode};
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_sched::{DispatchOptions, Progress, Schedule, WARP_WIDTH_GROUP};
use sm5sim::suite::{Keyword, Shard};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Where [`print!`] and [`println!`] write: standard output, or standard
/// error when an output file is standard output (`--dump bins=-`), so that
/// the report never mixes into the data.
static REPORT_TO_STDERR: AtomicBool = AtomicBool::new(false);

/// `print!` for the report (the std macro's shadow in this binary): a
/// closed standard output ends the process quietly ([`write_report`]).
macro_rules! print {
    ($($arg:tt)*) => { $crate::write_report(format_args!($($arg)*)) };
}

/// `println!` for the report, as [`print!`].
macro_rules! println {
    () => { $crate::write_report(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::write_report(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprint!` that ends the process quietly when standard error is closed.
macro_rules! eprint {
    ($($arg:tt)*) => { $crate::write_stderr(format_args!($($arg)*)) };
}

/// `eprintln!`, as [`eprint!`].
macro_rules! eprintln {
    () => { $crate::write_stderr(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::write_stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Write the report (standard output, see [`REPORT_TO_STDERR`]). When the
/// reader has gone (`sm5sim smoke DIR | head -2`), the process ends at once
/// with status 141, as shells report a tool killed by SIGPIPE, its
/// temporary files removed; any other write error is status 2.
fn write_report(args: std::fmt::Arguments) {
    use std::io::Write;
    let result = if REPORT_TO_STDERR.load(Ordering::Relaxed) {
        std::io::stderr().lock().write_fmt(args)
    } else {
        std::io::stdout().lock().write_fmt(args)
    };
    if let Err(e) = result {
        output_failed(&e, "standard output");
    }
}

/// Write to standard error; as [`write_report`] when it is closed.
fn write_stderr(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stderr().lock().write_fmt(args) {
        output_failed(&e, "standard error");
    }
}

/// End the process after a failed write to `what`: quietly with 141 for a
/// closed pipe, else with a message (where it can still be written) and 2.
fn output_failed(e: &std::io::Error, what: &str) -> ! {
    use std::io::Write;
    files::remove_temp_files();
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    let _ = writeln!(std::io::stderr(), "error: writing to {what}: {e}");
    std::process::exit(2);
}

mod dump;
mod info;
mod report;
mod run_suite;

#[derive(Parser)]
#[command(
    name = "sm5sim",
    version,
    about = "Run Direct3D 11 compute shaders (SM5 DXBC) on the CPU"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run job files: create each job's resources, run its steps, check its expectations.
    #[command(
        after_help = "Examples:\n  sm5sim run examples/histogram/histogram.toml\n  sm5sim run job.toml --threads 1 --warp-width 1 --dump bins=bins.npy\n  sm5sim run examples/gaussian_blur/gaussian_blur.toml --dump dst=blurred.png\n  sm5sim run job.toml --timeout 5 --json\n  sm5sim run examples --junit results.xml --shard 1/2\n\nSeveral jobs (several files, a directory, --junit or --shard) run as a suite: each job isolated, a few at a time (--jobs), one line per job and a summary; jobs are named by their path relative to the current directory, sorted by name; shard I/N takes the jobs at positions I, I+N, I+2N, ... (1-based) of that order. --dump, --profile, --profile-json and --trace need a single job file.\n\nExit status: 0 every expectation holds, 1 one fails, 2 bad input or a stopped dispatch (in a suite: some job's)."
    )]
    Run {
        /// Job files (TOML), or directories searched recursively for *.toml.
        #[arg(required = true, value_name = "JOB")]
        jobs: Vec<PathBuf>,
        /// Worker threads (default: every core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Lanes per warp: 1 up to the thread-group size, or `group` (one warp
        /// per thread group: the fastest for most shaders; small groups that
        /// cannot observe one another are packed a few to a warp).
        #[arg(long, default_value = "group", value_parser = parse_warp_width)]
        warp_width: usize,
        /// After the last step, write resource NAME to FILE: raw little-endian bytes,
        /// a NumPy array (.npy; a texture's mip 0), every subresource of a texture
        /// (.npz), or a 2D texture's mip 0 as PNG (.png). Repeatable.
        #[arg(long, value_name = "NAME=FILE")]
        dump: Vec<String>,
        /// Load the shader even if its container checksum is wrong.
        #[arg(long)]
        no_checksum: bool,
        /// Watchdog: stop a dispatch that runs longer than this many seconds (0 = no limit).
        #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
        timeout: f64,
        /// Watchdog: stop a dispatch that executes more warp-instructions than this.
        #[arg(long, value_name = "N")]
        max_instructions: Option<u64>,
        /// Keep and print at most N of each dispatch's shader messages
        /// (printf, errorf, abort, debug_break): the first N in order of
        /// SV_GroupID, SV_GroupIndex, then program order; the rest are counted.
        #[arg(long, value_name = "N", default_value_t = sim_sched::DEFAULT_MESSAGE_LIMIT)]
        messages: usize,
        /// Refuse a job whose resources (plus a working copy of the largest)
        /// need more memory than this, e.g. 512MiB or 4GiB (default: what
        /// this process may use: the machine's memory, or `ulimit -v`).
        #[arg(long, value_name = "SIZE", value_parser = sm5sim::memory::parse_size)]
        max_memory: Option<u64>,
        /// Print the results as one JSON document on stdout instead of text.
        #[arg(long)]
        json: bool,
        /// The compiled tier: `hot` compiles a run of ALU instructions to
        /// machine code once it has run about a millisecond interpreted,
        /// where that code beats the interpreter (AVX-512 CPUs, or those
        /// without AVX2); `now` compiles at its first run, on any CPU; `off`
        /// interprets every instruction. The results are the same bits.
        #[arg(long, value_enum, default_value_t = Compile::Hot, value_name = "WHEN")]
        compile: Compile,
        /// Deterministic mode: groups one after another on one thread in
        /// linear order, each warp run until it parks; the same output on every run.
        #[arg(long, conflicts_with = "schedule_seed")]
        deterministic: bool,
        /// Stop each dispatch at the first debug_break a thread executes
        /// (exit status 2, naming the group, thread, instruction and HLSL
        /// line); implies --deterministic unless --schedule-seed is given.
        #[arg(long = "break")]
        break_at_debug_break: bool,
        /// Replay one schedule of `check --schedules` (groups on one thread in
        /// its order, with its warp widths, lane orders and interleaving).
        #[arg(long, value_name = "S", value_parser = parse_u64)]
        schedule_seed: Option<u64>,
        /// Profile each dispatch: wall time, groups/s, lanes/s, lane-instructions
        /// per opcode, SIMD efficiency, barriers, atomics, memory traffic, worker busy time.
        #[arg(long)]
        profile: bool,
        /// Print the shader's listing with each instruction's lane-instructions,
        /// warp-instructions and SIMD efficiency in a margin, summed over the
        /// job's dispatches, like `perf annotate` (implies profiling).
        #[arg(long)]
        annotate: bool,
        /// Write the profile of each dispatch to FILE as JSON (implies profiling).
        #[arg(long, value_name = "FILE")]
        profile_json: Option<PathBuf>,
        /// Write a Chrome/Perfetto trace (JSON) of the groups on their workers to FILE.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        #[command(flatten)]
        suite: SuiteArgs,
        #[command(flatten)]
        hlsl: HlslArgs,
    },
    /// Step through a dispatch of a job: HLSL-line breakpoints (fxc /Zi),
    /// every lane of the warp, HLSL locals by name, break on a race.
    #[command(
        after_help = "Examples:\n  sm5sim debug tests/debug_info/mandelbrot.toml --break mandelbrot.hlsl:17 --thread 3,0,0\n  echo -e 'continue\\nlocals\\nnext\\nprint zx' | sm5sim debug job.toml --break 17\n  sm5sim debug race.toml --break race\n\nCommands are read from stdin (a terminal or a script) or --commands FILE, one per line; `help` lists them. The dispatch runs deterministically (groups in order, warps in order: what `run --deterministic` runs; with --thread, the groups before its group run first at full speed); the job's steps before it run first, those after it when it ends. docs/debugging.md has a session and the limits.\n\nExit status: 0 the session ended, 2 bad input."
    )]
    Debug {
        /// The job file (TOML).
        #[arg(value_name = "JOB")]
        job: PathBuf,
        #[command(flatten)]
        args: DebugArgs,
        #[command(flatten)]
        hlsl: HlslArgs,
    },
    /// Serve the Debug Adapter Protocol on stdin/stdout (for an editor:
    /// docs/debugging.md has VS Code's launch configuration).
    Dap,
    /// Run a job under the concurrency checker: data races on TGSM and UAV
    /// words, divergent barriers, uninitialised TGSM reads, out-of-bounds
    /// accesses (all of them unless some are selected).
    #[command(
        after_help = "Groups run one after another on one thread, so the findings are deterministic.\n\nExamples:\n  sm5sim check tests/texture_races/texture_race_bug.toml --races\n  sm5sim check examples/reduce/reduce.toml --json\n  sm5sim check job.toml --barriers --uninit --warp-width 64\n  sm5sim check examples/cas_float_add/cas_float_add.toml --schedules 32 --seed 7\n  sm5sim check tests/texture_races --junit check.xml\n\nSeveral jobs (several files, a directory, --junit or --shard) are checked as a suite, as `run` runs them (see `sm5sim run --help`).\n\nExit status: 0 nothing wrong, 1 an error found (warnings do not count), an expectation failed, or (--schedules) outputs differ between schedules, 2 bad input or a stopped dispatch (in a suite: the worst of the jobs')."
    )]
    Check {
        /// Job files (TOML), or directories searched recursively for *.toml.
        #[arg(required = true, value_name = "JOB")]
        jobs: Vec<PathBuf>,
        /// Check for data races (within a group: raw, war, waw, atomic vs plain, barrier of the wrong scope; across groups: read-modify-write, visibility, waw).
        #[arg(long)]
        races: bool,
        /// Check that every barrier is reached by every thread of its group.
        #[arg(long)]
        barriers: bool,
        /// Check for groupshared memory read before any thread of the group wrote it.
        #[arg(long)]
        uninit: bool,
        /// Report UAV and groupshared accesses out of bounds (warnings).
        #[arg(long)]
        bounds: bool,
        /// Lanes per warp: 1 up to the thread-group size, or `group` (one
        /// warp per thread group, as `run` does: the fastest; every case of
        /// the race suite is found at it; 32 runs warps as a GPU's are).
        #[arg(long, default_value = "group", value_parser = parse_warp_width)]
        warp_width: usize,
        /// Load the shader even if its container checksum is wrong.
        #[arg(long)]
        no_checksum: bool,
        /// Watchdog: stop a dispatch that runs longer than this many seconds (0 = no limit).
        #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
        timeout: f64,
        /// Watchdog: stop a dispatch that executes more warp-instructions than this.
        #[arg(long, value_name = "N")]
        max_instructions: Option<u64>,
        /// Keep and print at most N of each dispatch's shader messages
        /// (printf, errorf, abort, debug_break): the first N in order of
        /// SV_GroupID, SV_GroupIndex, then program order; the rest are counted.
        #[arg(long, value_name = "N", default_value_t = sim_sched::DEFAULT_MESSAGE_LIMIT)]
        messages: usize,
        /// Refuse a job whose resources (plus a working copy of the largest)
        /// need more memory than this, e.g. 512MiB or 4GiB (default: what
        /// this process may use: the machine's memory, or `ulimit -v`).
        #[arg(long, value_name = "SIZE", value_parser = sm5sim::memory::parse_size)]
        max_memory: Option<u64>,
        /// Print the findings as one JSON document on stdout instead of text.
        #[arg(long)]
        json: bool,
        /// Schedule exploration instead of the checks: run the job under N
        /// schedules and compare the final contents of every UAV between them.
        #[arg(long, value_name = "N", conflicts_with_all = ["races", "barriers", "uninit", "bounds"])]
        schedules: Option<u64>,
        /// The seed the schedules' seeds are derived from (SplitMix64 outputs 0..N).
        #[arg(long, value_name = "S", default_value = "0", value_parser = parse_u64, requires = "schedules")]
        seed: u64,
        #[command(flatten)]
        suite: SuiteArgs,
        #[command(flatten)]
        hlsl: HlslArgs,
    },
    /// Compile HLSL to a DXBC container with fxc (cached; see docs/hlsl.md).
    #[command(
        after_help = "Examples:\n  sm5sim compile examples/scan/scan.hlsl -o scan.dxbc\n  sm5sim compile blur.hlsl -o blur.dxbc -E blur_x -D RADIUS=4 -I include --fxc /opt/fxc/fxc"
    )]
    Compile {
        /// The HLSL source.
        source: PathBuf,
        /// Where to write the container.
        #[arg(short, long)]
        output: PathBuf,
        /// Entry point.
        #[arg(short = 'E', long, default_value = "main")]
        entry: String,
        /// Target profile.
        #[arg(short = 'T', long, default_value = "cs_5_0")]
        profile: String,
        /// Define a macro (VALUE defaults to 1). Repeatable.
        #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
        defines: Vec<String>,
        /// Add an include directory. Repeatable.
        #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
        include_dirs: Vec<PathBuf>,
        #[command(flatten)]
        hlsl: HlslArgs,
    },
    /// Describe a shader: profile, thread group, TGSM, resource bindings, and
    /// which instructions the executor cannot run yet.
    #[command(
        after_help = "Examples:\n  sm5sim info examples/matmul/matmul.dxbc\n  sm5sim info shader.asm"
    )]
    Info {
        /// The shader (.dxbc / .cso).
        file: PathBuf,
        /// Read it even if the container checksum is wrong.
        #[arg(long)]
        no_checksum: bool,
    },
    /// Run shaders once each on synthetic resources, without a job file:
    /// buffers, textures (mip chains, slices, samples) and constant buffers
    /// zero- or pattern-filled, default samplers. Checks that real shaders
    /// load and run to completion.
    #[command(
        after_help = "Examples:\n  sm5sim smoke tests/corpus\n  sm5sim smoke shader.dxbc --fill pattern --groups 4,4,1"
    )]
    Smoke {
        /// Shaders (.dxbc / .cso / .asm), or directories searched recursively for .dxbc and .cso files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// What the resources hold: zero, or pattern (word i = i × 0x9E3779B9).
        #[arg(long, value_enum, default_value = "zero")]
        fill: FillArg,
        /// Thread groups to dispatch, x,y,z.
        #[arg(long, default_value = "1,1,1", value_parser = parse_groups)]
        groups: [u32; 3],
        /// Watchdog: the most warp-instructions per shader.
        #[arg(long, default_value_t = 50_000_000)]
        max_instructions: u64,
        /// Watchdog: the most seconds per shader (0 = no limit).
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Read containers even if their checksum is wrong.
        #[arg(long)]
        no_checksum: bool,
    },
    /// Assemble an fxc listing into a DXBC container (with fxc's checksum).
    #[command(after_help = "Examples:\n  sm5sim asm examples/reduce/reduce.asm -o reduce.dxbc")]
    Asm {
        /// The listing (.asm), as fxc /Fc or D3DDisassemble prints it.
        listing: PathBuf,
        /// Where to write the container.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Print a shader's instructions and declarations in fxc's listing syntax.
    #[command(
        after_help = "Examples:\n  sm5sim disasm examples/histogram/histogram.dxbc\n  sm5sim disasm edited.dxbc --no-checksum"
    )]
    Disasm {
        /// The shader (.dxbc / .cso).
        file: PathBuf,
        /// Disassemble even if the container checksum is wrong.
        #[arg(long)]
        no_checksum: bool,
        /// How to print float literals of 2^64 and more: `msvcrt` (17
        /// significant digits, then zeros: fxc on Windows) or `exact`
        /// (every digit: fxc under Wine).
        #[arg(long, value_name = "STYLE", default_value = "msvcrt")]
        float_digits: FloatDigitsArg,
    },
}

/// `disasm --float-digits` (`sim_core::front::disasm::FloatDigits`).
#[derive(Clone, Copy, clap::ValueEnum)]
enum FloatDigitsArg {
    Msvcrt,
    Exact,
}

/// Suites of jobs (`run` and `check` with several jobs).
#[derive(clap::Args)]
struct SuiteArgs {
    /// Write the results as JUnit XML to FILE (a suite, even of one job).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Run only the I-th of N parts of the suite (1-based), e.g. 2/4: the
    /// jobs at positions I, I+N, I+2N, ... in name order.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Jobs of a suite run at once (0 = one per core).
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 0)]
    parallel: usize,
    /// Run only the jobs whose names match EXPR, as pytest's -k: words
    /// matched case-insensitively within the name, with and, or, not and
    /// parentheses (e.g. -k "sort and not large").
    #[arg(short = 'k', value_name = "EXPR", value_parser = Keyword::parse)]
    keyword: Option<Keyword>,
    /// Stop at the first job that fails or has an error: the jobs not yet
    /// started do not run.
    #[arg(short = 'x', long = "exitfirst")]
    exit_first: bool,
    /// Run only the jobs that failed or had an error when they last ran
    /// (kept in .sm5sim_cache/ in the current directory); every job when
    /// none did.
    #[arg(long = "last-failed", visible_alias = "lf")]
    last_failed: bool,
}

impl SuiteArgs {
    /// Whether `paths` with these options make a suite: several paths, a
    /// directory, `--junit`, `--shard`, `-k`, `-x` or `--last-failed`. One
    /// job file without them runs as a single job.
    fn is_suite(&self, paths: &[PathBuf]) -> bool {
        paths.len() != 1
            || paths[0].is_dir()
            || self.junit.is_some()
            || self.shard.is_some()
            || self.keyword.is_some()
            || self.exit_first
            || self.last_failed
    }
}

/// How HLSL is compiled (`run` and `compile`).
#[derive(clap::Args)]
struct HlslArgs {
    /// The HLSL compiler (before SM5SIM_FXC and an `fxc` on PATH).
    #[arg(long, value_name = "PATH")]
    fxc: Option<PathBuf>,
    /// Compile even if the DXBC is cached, and do not store it.
    #[arg(long)]
    no_cache: bool,
}

impl HlslArgs {
    fn options(self) -> CompileOptions {
        CompileOptions {
            fxc: self.fxc,
            no_cache: self.no_cache,
        }
    }
}

/// Say on stderr what compiling cost, and pass on the compiler's warnings.
fn report_compile(c: &Compiled) {
    eprint!("{}", compile_note(c));
}

/// [`report_compile`]'s text: the compiler's warnings, then a note.
/// `X,Y,Z` (missing components 0).
fn parse_thread(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: want X,Y,Z"));
    }
    let mut out = [0u32; 3];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p
            .parse()
            .map_err(|_| format!("`{s}`: `{p}` is not a number"))?;
    }
    Ok(out)
}

/// `sm5sim debug`'s options.
#[derive(clap::Args)]
struct DebugArgs {
    /// The step to debug, as an index into the job's steps (default: the first dispatch).
    #[arg(long, value_name = "N")]
    step: Option<usize>,
    /// Stop before FILE:LINE (an HLSL line, with fxc /Zi), LINE, `pc N`,
    /// or `race`: at each new checker finding (the dispatch then runs under
    /// the checker). Repeatable.
    #[arg(long = "break", value_name = "WHERE")]
    breaks: Vec<String>,
    /// Focus on this SV_DispatchThreadID (X,Y,Z): groups before its group
    /// run at full speed, and breakpoints stop where it is active.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_thread)]
    thread: Option<[u32; 3]>,
    /// Lanes per warp: 1 up to the thread-group size, or `group`.
    #[arg(long, default_value = "32", value_parser = parse_warp_width)]
    warp_width: usize,
    /// Stop the dispatch after N warp-instructions.
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// Read the commands from FILE (one per line) instead of stdin.
    #[arg(long, value_name = "FILE")]
    commands: Option<PathBuf>,
    /// Do not print the commands read (by default each is echoed after
    /// a `(sm5sim)` prompt when they do not come from a terminal).
    #[arg(long)]
    quiet: bool,
}

/// `sm5sim debug`: a session, commands from stdin or a file.
fn debug_session(path: &std::path::Path, a: DebugArgs, hlsl: HlslArgs) -> anyhow::Result<bool> {
    use sm5sim::debug::{command, Session, SessionOptions, StopReason};
    use std::io::{BufRead, IsTerminal, Write};
    let script = match &a.commands {
        Some(f) => Some(
            std::fs::read_to_string(f)
                .with_context(|| format!("--commands {}: cannot read it", f.display()))?,
        ),
        None => None,
    };
    let job = Job::load_with(path, &LoadOptions::default(), &hlsl.options())?;
    for c in job.compiled_shaders() {
        report_compile(c);
    }
    let options = SessionOptions {
        step: a.step,
        thread: a.thread,
        warp_width: Some(a.warp_width),
        break_on_findings: a.breaks.iter().any(|b| b == "race"),
        max_warp_instructions: a.max_instructions,
    };
    let mut session = Session::start(&job, &options, &DispatchOptions::default())?;
    for b in a.breaks.iter().filter(|b| *b != "race") {
        let n = session.add_breakpoint(b)?;
        let pcs: Vec<String> = session.breakpoints()[n]
            .pcs
            .iter()
            .map(|p| p.to_string())
            .collect();
        println!("breakpoint {n} at {b}: pc {}", pcs.join(", "));
    }
    let (at, name) = session.step();
    let name = if name.is_empty() {
        String::new()
    } else {
        format!(" (shader '{name}')")
    };
    println!("debugging steps[{at}]{name}");
    println!("{}", command::stop_text(&session, &StopReason::Entry));
    let stdin = std::io::stdin();
    let terminal = script.is_none() && stdin.is_terminal();
    let prompt = terminal || !a.quiet;
    let mut out = std::io::stdout();
    let mut lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match script {
        Some(s) => Box::new(
            s.lines()
                .map(|l| Ok(l.to_string()))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
        None => Box::new(stdin.lock().lines()),
    };
    loop {
        if prompt {
            print!("(sm5sim) ");
            out.flush()?;
        }
        let Some(line) = lines.next() else {
            if prompt {
                println!();
            }
            break;
        };
        let line = line?;
        if !terminal && !a.quiet {
            println!("{}", line.trim());
        }
        let o = command::run_command(&mut session, &line);
        if !o.text.is_empty() {
            println!("{}", o.text);
        }
        if o.quit {
            break;
        }
    }
    Ok(true)
}

fn compile_note(c: &Compiled) -> String {
    let mut text = c.diagnostics.clone();
    let note = if c.cached {
        format!(
            "note: {}: DXBC from the cache{}\n",
            c.source.display(),
            c.cache_file
                .as_ref()
                .map(|f| format!(" ({})", f.display()))
                .unwrap_or_default()
        )
    } else {
        format!(
            "note: {}: compiled with {} in {:.3} s\n",
            c.source.display(),
            c.compiler.display(),
            c.compile_time.as_secs_f64()
        )
    };
    text.push_str(&note);
    text
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("SM5SIM_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    // Ctrl-C, SIGTERM and SIGHUP: jobs and smoke stop cleanly (the token:
    // the dispatch stops, nothing more is written, exit 2); a second signal,
    // or the first in the other commands (which write nothing half-way),
    // quits at once (130), removing the temporary file being written.
    let stops_cleanly = matches!(
        cli.command,
        Command::Run { .. } | Command::Check { .. } | Command::Smoke { .. }
    );
    let flag = cancel_token();
    let _ = ctrlc::set_handler(move || {
        if !stops_cleanly || flag.swap(true, Ordering::Relaxed) {
            files::remove_temp_files();
            std::process::exit(130);
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "cancelling (Ctrl-C again to quit at once)"
        );
    });
    if let Err(v) = sm5sim::sim_core::isa_override() {
        let var = sm5sim::sim_core::ISA_ENV;
        eprintln!("error: {var}={v:?}: expected baseline, avx2 or avx512");
        return ExitCode::from(2);
    }
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // a suite whose report already says what went wrong
        Err(e) if e.downcast_ref::<run_suite::Reported>().is_some() => ExitCode::from(2),
        Err(e) => {
            // A compile error: the compiler's messages as it printed them, then one line.
            let compile_error = e.chain().find_map(|c| {
                c.downcast_ref::<CompileError>()
                    .or_else(|| match c.downcast_ref::<JobError>() {
                        Some(JobError::Compile(c)) => Some(c),
                        _ => None,
                    })
            });
            if let Some(c) = compile_error {
                if let CompileError::Failed { output, .. } = c {
                    eprint!("{output}");
                    if !output.is_empty() && !output.ends_with('\n') {
                        eprintln!();
                    }
                }
                eprintln!("error: {}", c.summary());
            } else {
                eprintln!("error: {}", error_text(&e));
            }
            ExitCode::from(2)
        }
    }
}

/// An error and its causes as one message, each cause once
/// (`sm5sim::api::error_text`), each line clipped.
fn error_text(e: &anyhow::Error) -> String {
    clip_lines(&sm5sim::api::error_text(e.as_ref()))
}

/// The most bytes of one line of an error message: input echoed in it (a
/// resource name of megabytes, a `--dump` argument) is cut there.
const MAX_ERROR_LINE: usize = 2000;

/// `text` with each line longer than [`MAX_ERROR_LINE`] cut, and the count
/// of what was cut said.
fn clip_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(64 << 10));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.len() <= MAX_ERROR_LINE {
            out.push_str(line);
        } else {
            let mut end = MAX_ERROR_LINE;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            out.push_str(&line[..end]);
            out.push_str(&format!("… ({} more bytes)", line.len() - end));
        }
    }
    out
}

/// `--warp-width`: a number of lanes ≥ 1, or `group` ([`WARP_WIDTH_GROUP`]).
fn parse_warp_width(s: &str) -> Result<usize, String> {
    if s == "group" {
        return Ok(WARP_WIDTH_GROUP);
    }
    match s.parse::<usize>() {
        Ok(w) if w >= 1 => Ok(w),
        _ => Err(format!(
            "{s:?} is not a warp width: give a number of lanes ≥ 1, or `group`"
        )),
    }
}

/// The watchdog options of `run` and `check`, with Ctrl-C cancelling.
/// The one cancellation token of this process: set by Ctrl-C (the handler
/// is installed at start-up, [`main`]), read by every dispatch, between
/// steps, and before each output is written.
fn cancel_token() -> Arc<AtomicBool> {
    static TOKEN: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    TOKEN
        .get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
}

/// Whether the output `file` is this process's standard output: `-`, or
/// the file standard output is (`/dev/stdout`, `/dev/fd/1`, the file it is
/// redirected to).
fn is_standard_output(file: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let same =
            |a: std::fs::Metadata, b: std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
        if let (Ok(a), Ok(b)) = (std::fs::metadata(file), std::fs::metadata("/dev/stdout")) {
            if same(a, b) {
                return true;
            }
        }
    }
    files::is_stdout(file)
}

/// The last line of a single job's text report: `job.toml: passed (3
/// steps)` or `job.toml: FAILED (1 of 2 expectations)`.
fn verdict(path: &Path, reports: &[StepReport]) -> String {
    let expectations = (reports.iter())
        .filter(|r| matches!(r, StepReport::Expect { .. }))
        .count();
    let failed = (reports.iter())
        .filter(|r| matches!(r, StepReport::Expect { .. }) && !r.passed())
        .count();
    let errorf = (reports.iter())
        .filter(|r| matches!(r, StepReport::Dispatch { .. }) && !r.passed())
        .count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if errorf > 0 {
        format!(
            "{}: FAILED (errorf ran in {}{})",
            path.display(),
            plural(errorf, "dispatch", "dispatches"),
            match failed {
                0 => String::new(),
                n => format!(
                    "; {n} of {}",
                    plural(expectations, "expectation", "expectations")
                ),
            }
        )
    } else if failed == 0 {
        format!(
            "{}: passed ({}, {})",
            path.display(),
            plural(reports.len(), "step", "steps"),
            plural(expectations, "expectation", "expectations")
        )
    } else {
        format!(
            "{}: FAILED ({failed} of {})",
            path.display(),
            plural(expectations, "expectation", "expectations")
        )
    }
}

/// An error when Ctrl-C was pressed: nothing more is written.
fn stop_if_cancelled(what: &str) -> anyhow::Result<()> {
    if cancel_token().load(Ordering::Relaxed) {
        bail!("cancelled (Ctrl-C) before {what}");
    }
    Ok(())
}

/// The longest `--timeout`: about 31 years; longer ones are refused rather
/// than overflowing the clock.
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// When the compiled tier compiles (`run --compile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Compile {
    /// once a region has run `sim_core::exec::COMPILE_AFTER`
    /// lane-instructions, where the code beats the interpreter
    Hot,
    /// at a region's first run
    Now,
    /// never: the interpreter alone
    Off,
}

impl Compile {
    fn apply(self, options: &mut DispatchOptions) {
        match self {
            Compile::Hot => {}
            Compile::Now => options.compile_after = Some(0),
            Compile::Off => {
                options.fast_paths = options.fast_paths.without(sim_sched::FastPaths::COMPILED)
            }
        }
    }
}

fn dispatch_options(
    threads: usize,
    warp_width: usize,
    timeout: f64,
    max_instructions: Option<u64>,
) -> anyhow::Result<DispatchOptions> {
    if warp_width == 0 {
        bail!("--warp-width must be at least 1");
    }
    if !(timeout >= 0.0 && timeout.is_finite()) {
        bail!("--timeout must be a number of seconds ≥ 0");
    }
    if timeout > MAX_TIMEOUT_SECONDS {
        bail!(
            "--timeout {timeout}: at most {MAX_TIMEOUT_SECONDS} seconds (0 turns the timeout off)"
        );
    }
    let cores = sim_sched::cores();
    let max_threads = sim_sched::max_threads(cores);
    if threads > max_threads {
        bail!(
            "--threads {threads}: at most {max_threads} on this machine ({cores} cores; 0 = one per core)"
        );
    }
    // Ctrl-C cancels the running dispatch, or the run between steps
    let cancel = cancel_token();
    Ok(DispatchOptions {
        threads,
        warp_width,
        max_warp_instructions: max_instructions.unwrap_or(u64::MAX),
        timeout: (timeout > 0.0).then(|| Duration::from_secs_f64(timeout)),
        cancel: Some(cancel),
        schedule: None,
        profile: false,
        profile_memory: false,
        trace: false,
        progress: None,
        fast_paths: sim_sched::FastPaths::ALL,
        message_limit: sim_sched::DEFAULT_MESSAGE_LIMIT,
        break_at_debug_break: false,
        compile_after: None,
    })
}

/// A progress bar on stderr for each dispatch that has run longer than a
/// second (indicatif hides it when stderr is not a terminal): a thread reads
/// the dispatch's [`Progress`] ten times a second until dropped.
struct ProgressDisplay {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ProgressDisplay {
    fn start(progress: Arc<Progress>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let (mut current, mut since) = ((0, 0), std::time::Instant::now());
            let mut bar: Option<ProgressBar> = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let s = progress.snapshot();
                // a new dispatch, or a checked dispatch's second pass
                if (s.dispatches, s.pass) != current {
                    if let Some(b) = bar.take() {
                        b.finish_and_clear();
                    }
                    (current, since) = ((s.dispatches, s.pass), std::time::Instant::now());
                }
                if s.dispatches == 0 || s.done >= s.groups {
                    if let Some(b) = bar.take() {
                        b.finish_and_clear();
                    }
                    continue;
                }
                let elapsed = since.elapsed().as_secs_f64();
                if bar.is_none() && elapsed >= 1.0 {
                    let b = ProgressBar::new(s.groups);
                    let style =
                        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} {msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar());
                    b.set_style(style);
                    b.set_prefix(match s.pass {
                        2 => format!("dispatch {}, second pass (suspect words)", s.dispatches),
                        _ => format!("dispatch {}", s.dispatches),
                    });
                    bar = Some(b);
                }
                if let Some(b) = &bar {
                    // the rate since the dispatch began (indicatif's own
                    // would start when the bar appears)
                    let rate = s.done as f64 / elapsed.max(1e-3);
                    let left = (s.groups - s.done) as f64 / rate.max(1e-9);
                    b.set_position(s.done);
                    b.set_message(format!("groups, {rate:.0} groups/s, ~{left:.0} s left"));
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Self {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for ProgressDisplay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<bool> {
    match cli.command {
        Command::Dap => {
            let stdin = std::io::stdin();
            sm5sim::debug::dap::serve(stdin.lock(), std::io::stdout())?;
            Ok(true)
        }
        Command::Debug { job, args, hlsl } => debug_session(&job, args, hlsl),
        Command::Check {
            jobs,
            races,
            barriers,
            uninit,
            bounds,
            warp_width,
            no_checksum,
            timeout,
            max_instructions,
            messages,
            max_memory,
            json,
            schedules,
            seed,
            suite,
            hlsl,
        } => {
            let mut options = dispatch_options(1, warp_width, timeout, max_instructions)?;
            options.message_limit = messages;
            let load = LoadOptions {
                verify_checksum: !no_checksum,
                max_memory,
                cancel: Some(cancel_token()),
            };
            let checks = if races || barriers || uninit || bounds {
                CheckOptions {
                    races,
                    barriers,
                    uninitialised: uninit,
                    bounds,
                }
            } else {
                CheckOptions::default()
            };
            if suite.is_suite(&jobs) {
                if schedules == Some(0) {
                    bail!("--schedules must be at least 1");
                }
                let mode = match schedules {
                    Some(n) => run_suite::Mode::Schedules { n, seed },
                    None => run_suite::Mode::Check(checks),
                };
                return run_suite::run_suite(run_suite::Suite {
                    command: "check",
                    paths: jobs,
                    args: suite,
                    json,
                    load,
                    compile: hlsl.options(),
                    options,
                    mode,
                    turns: Default::default(),
                });
            }
            if let Some(reason) = sm5sim::job::skip_reason(&jobs[0])? {
                println!("skipped: {}: {reason}", jobs[0].display());
                return Ok(true);
            }
            let job = Job::load_with(&jobs[0], &load, &hlsl.options())?;
            for c in job.compiled_shaders() {
                report_compile(c);
            }
            if let Some(n) = schedules {
                return explore_schedules(&job, &options, n, seed, json);
            }
            let report = job.run_checked(&options, checks)?;
            let errors = error_findings(&report.findings);
            let expectations = report.steps.iter().all(|r| r.passed());
            if json {
                println!("{}", check_json(&job, &report));
            } else {
                print!("{}", check_text(&job, &report));
            }
            let checker_stop = report.stop_reason == Some(StopReason::NoProgress);
            if report.stopped.is_some() && !checker_stop {
                // stopped by the watchdog or cancelled: the job is not
                // checked (exit status 2); the report says why
                return Err(run_suite::Reported.into());
            }
            // a forward-progress stop is an error finding (exit status 1)
            Ok(errors == 0 && expectations && !checker_stop)
        }
        Command::Disasm {
            file,
            no_checksum,
            float_digits,
        } => {
            let digits = match float_digits {
                FloatDigitsArg::Msvcrt => disasm::FloatDigits::Msvcrt,
                FloatDigitsArg::Exact => disasm::FloatDigits::Exact,
            };
            let bytes =
                files::read_input(&file).with_context(|| format!("reading {}", file.display()))?;
            let options = sm5sim::memory::for_program(&LoadOptions {
                verify_checksum: !no_checksum,
                ..LoadOptions::default()
            });
            let (decoded, _) = Program::decode_file_bytes(&bytes, &options)
                .with_context(|| file.display().to_string())?;
            if bytes.starts_with(b"DXBC") {
                let container = Container::parse(&bytes, options.checksum_policy())
                    .with_context(|| file.display().to_string())?;
                print!(
                    "{}",
                    disasm::full_listing_with(&container, &decoded, digits)
                );
            } else {
                for (_, line) in disasm::disassemble_lines_with(&decoded, digits) {
                    println!("{line}");
                }
            }
            Ok(true)
        }
        Command::Asm { listing, output } => {
            let text = files::read_input_text(&listing)
                .with_context(|| format!("reading {}", listing.display()))?;
            let decoded =
                asm::assemble(&text).map_err(|e| anyhow::anyhow!("{}:{e}", listing.display()))?;
            let words =
                encode::encode_program(&decoded).with_context(|| listing.display().to_string())?;
            let rdef = sm5sim::sim_core::front::listing_reflection::reflection_from_listing(&text)
                .map_err(|e| anyhow::anyhow!("{}:{e}", listing.display()))?
                .map(|r| sm5sim::sim_core::front::rdef_write::write_rdef(&r, decoded.version));
            let features = sm5sim::sim_core::front::features::for_listing(&text, &decoded)
                .map_err(|e| anyhow::anyhow!("{}:{e}", listing.display()))?;
            let stat = sm5sim::sim_core::front::stat::stat_chunk(&decoded);
            let container = encode::write_container_as(
                &words,
                rdef.as_deref(),
                features,
                Some(&stat),
                sm5sim::sim_core::front::container::ChecksumKind::for_program(&decoded),
            );
            files::check_output("-o", &output, std::slice::from_ref(&listing))
                .map_err(anyhow::Error::msg)?;
            files::write_atomic(&output, &container)
                .with_context(|| format!("writing {}", output.display()))?;
            Ok(true)
        }
        Command::Compile {
            source,
            output,
            entry,
            profile,
            defines,
            include_dirs,
            hlsl,
        } => {
            let mut req = HlslRequest::new(&source);
            req.entry = entry;
            req.profile = profile;
            req.include_dirs = include_dirs;
            for d in &defines {
                let (name, value) = d.split_once('=').unwrap_or((d, "1"));
                if name.is_empty() {
                    bail!("-D {d}: expected NAME or NAME=VALUE");
                }
                req.defines.insert(name.to_string(), value.to_string());
            }
            // the source and the files it includes are inputs, checked before compiling
            let mut inputs = vec![source.clone()];
            if let Ok(text) = files::read_input(&source) {
                inputs.extend(
                    compiler::scan_includes(&source, &text, &req.include_dirs)
                        .into_iter()
                        .filter_map(|i| i.resolved),
                );
            }
            files::check_output("-o", &output, &inputs).map_err(anyhow::Error::msg)?;
            let c = compiler::compile_to_file(&req, &hlsl.options(), &output)?;
            report_compile(&c);
            Ok(true)
        }
        Command::Smoke {
            files,
            fill,
            groups,
            max_instructions,
            timeout,
            no_checksum,
        } => smoke(&files, fill, groups, max_instructions, timeout, no_checksum),
        Command::Info { file, no_checksum } => {
            let bytes =
                files::read_input(&file).with_context(|| format!("reading {}", file.display()))?;
            let options = sm5sim::memory::for_program(&LoadOptions {
                verify_checksum: !no_checksum,
                ..LoadOptions::default()
            });
            let (decoded, reflection) = Program::decode_file_bytes(&bytes, &options)
                .with_context(|| file.display().to_string())?;
            // (`info` lowers the program to say what it runs)
            Program::check_program_memory(&decoded, &options)
                .with_context(|| file.display().to_string())?;
            print!("{}", info::describe(&file, &decoded, reflection.as_ref()));
            Ok(true)
        }
        Command::Run {
            jobs,
            threads,
            warp_width,
            dump,
            no_checksum,
            timeout,
            max_instructions,
            messages,
            max_memory,
            hlsl,
            json,
            deterministic,
            break_at_debug_break,
            schedule_seed,
            profile,
            annotate,
            profile_json,
            trace,
            suite,
            compile,
        } => {
            if warp_width == 0 {
                bail!("--warp-width must be at least 1");
            }
            let load = LoadOptions {
                verify_checksum: !no_checksum,
                max_memory,
                cancel: Some(cancel_token()),
            };
            if suite.is_suite(&jobs) {
                // the options that write or print one job's details
                let single: [(&str, bool); 5] = [
                    ("--dump", !dump.is_empty()),
                    ("--profile", profile),
                    ("--annotate", annotate),
                    ("--profile-json", profile_json.is_some()),
                    ("--trace", trace.is_some()),
                ];
                if let Some((flag, _)) = single.iter().find(|(_, given)| *given) {
                    bail!(
                        "{flag} is for a single job file; it cannot be used with several jobs, a directory, --junit or --shard"
                    );
                }
                let mut options = dispatch_options(threads, warp_width, timeout, max_instructions)?;
                compile.apply(&mut options);
                options.message_limit = messages;
                options.break_at_debug_break = break_at_debug_break;
                options.schedule = match (
                    deterministic || (break_at_debug_break && schedule_seed.is_none()),
                    schedule_seed,
                ) {
                    (true, _) => Some(Schedule::fixed()),
                    (false, Some(s)) => Some(Schedule::seeded(s)),
                    (false, None) => None,
                };
                return run_suite::run_suite(run_suite::Suite {
                    command: "run",
                    paths: jobs,
                    args: suite,
                    json,
                    load,
                    compile: hlsl.options(),
                    options,
                    mode: run_suite::Mode::Run,
                    turns: Default::default(),
                });
            }
            if let Some(reason) = sm5sim::job::skip_reason(&jobs[0])? {
                println!("skipped: {}: {reason}", jobs[0].display());
                return Ok(true);
            }
            let job = Job::load_with(&jobs[0], &load, &hlsl.options())?;
            for c in job.compiled_shaders() {
                report_compile(c);
            }
            let mut dumps = Vec::new();
            for d in &dump {
                let (name, file) = d
                    .split_once('=')
                    .with_context(|| format!("--dump {d}: expected NAME=FILE"))?;
                let Some(r) = job.resource(name) else {
                    let names: Vec<_> = job.resources.iter().map(|r| r.name.as_str()).collect();
                    bail!(
                        "--dump {d}: the job has no resource '{name}' (it has: {})",
                        names.join(", ")
                    );
                };
                // Refuse a dump that cannot be written before anything runs.
                dump::check(r, Path::new(file))?;
                files::check_output(&format!("--dump {d}"), Path::new(file), &job.inputs)
                    .map_err(anyhow::Error::msg)?;
                dumps.push((name.to_string(), PathBuf::from(file)));
            }
            let mut outputs: Vec<(String, PathBuf)> = dumps
                .iter()
                .map(|(n, f)| (format!("--dump {n}={}", f.display()), f.clone()))
                .collect();
            for (flag, file) in [("--profile-json", &profile_json), ("--trace", &trace)] {
                if let Some(f) = file {
                    files::check_output(&format!("{flag} {}", f.display()), f, &job.inputs)
                        .map_err(anyhow::Error::msg)?;
                    outputs.push((format!("{flag} {}", f.display()), f.clone()));
                }
            }
            files::check_distinct(&outputs).map_err(anyhow::Error::msg)?;
            if outputs.iter().any(|(_, f)| is_standard_output(f)) {
                // the data goes to stdout; the report to stderr
                REPORT_TO_STDERR.store(true, Ordering::Relaxed);
            }
            let mut options = dispatch_options(threads, warp_width, timeout, max_instructions)?;
            compile.apply(&mut options);
            options.message_limit = messages;
            options.break_at_debug_break = break_at_debug_break;
            options.schedule = match (
                deterministic || (break_at_debug_break && schedule_seed.is_none()),
                schedule_seed,
            ) {
                (true, _) => Some(Schedule::fixed()),
                (false, Some(s)) => Some(Schedule::seeded(s)),
                (false, None) => None,
            };
            options.profile = profile || annotate || profile_json.is_some() || trace.is_some();
            // the per-instruction memory figures cost more: where they are shown
            options.profile_memory = annotate || profile_json.is_some();
            options.trace = trace.is_some();
            if !json {
                for w in &job.warnings {
                    println!("warning: {w}");
                }
            }
            let progress = Arc::new(Progress::new());
            options.progress = Some(progress.clone());
            let display = ProgressDisplay::start(progress);
            let (reports, error) = job.run_partial(&options);
            drop(display);
            if let Some(e) = error {
                // the steps that ran are reported (stdout) before the error
                // that stopped the run (stderr, exit status 2), and what the
                // stopped dispatch's shader said until then
                let said = match &e {
                    sm5sim::job::JobError::Dispatch {
                        step,
                        source: sim_sched::DispatchError::Runaway(r),
                    } if r.messages.total() > 0 => Some((*step, r.messages.clone())),
                    _ => None,
                };
                let e = anyhow::Error::from(e);
                if json {
                    let mut doc = report_json(&job, &reports, false, Some(&error_text(&e)));
                    if let Some((step, m)) = &said {
                        doc["stopped_step"] = serde_json::json!(step);
                        doc["stopped_messages"] = report::messages_json(m);
                    }
                    println!("{doc}");
                } else {
                    print_steps(&reports);
                    if let Some((step, m)) = &said {
                        println!("step {step}: dispatch stopped; its messages until then:");
                        print!("{}", sm5sim::job::messages_text(m));
                    }
                }
                return Err(e);
            }
            let ok = reports.iter().all(|r| r.passed());
            if json {
                println!("{}", report_json(&job, &reports, ok, None));
            } else {
                print_steps(&reports);
                let program_of = |i: usize| job.dispatch_program(i).unwrap_or(job.program());
                if profile {
                    print_profiles(&reports, &program_of);
                }
                if annotate {
                    // one listing per shader, its dispatches' counts summed
                    for (s, shader) in job.shaders.iter().enumerate() {
                        let mine: Vec<StepReport> = (reports.iter())
                            .filter(|r| matches!(r, StepReport::Dispatch { shader: n, .. } if *n == shader.name))
                            .cloned()
                            .collect();
                        if job.several {
                            if mine.is_empty() {
                                continue;
                            }
                            println!("shader '{}':", job.shaders[s].name);
                        }
                        print!("{}", annotated_listing(&mine, shader.shader.program()));
                    }
                }
                println!("{}", verdict(&jobs[0], &reports));
            }
            if let Some(file) = &profile_json {
                stop_if_cancelled(&format!("writing {}", file.display()))?;
                let doc = serde_json::json!({
                    "job": job.path.display().to_string(),
                    "dispatches": profiles_json(&reports, &|i| job.dispatch_program(i).unwrap_or(job.program())),
                });
                files::write_atomic(file, format!("{doc:#}\n").as_bytes())
                    .with_context(|| format!("writing {}", file.display()))?;
            }
            if let Some(file) = &trace {
                stop_if_cancelled(&format!("writing {}", file.display()))?;
                files::write_atomic(file, chrome_trace(&reports).as_bytes())
                    .with_context(|| format!("writing {}", file.display()))?;
                let dropped: u64 = reports
                    .iter()
                    .filter_map(|r| match r {
                        StepReport::Dispatch {
                            profile: Some(p), ..
                        } => Some(p.spans_dropped),
                        _ => None,
                    })
                    .sum();
                if dropped > 0 {
                    eprintln!(
                        "warning: --trace {}: {dropped} group spans past the first {} of a dispatch were not kept",
                        file.display(),
                        sm5sim::sim_sched::MAX_TRACE_SPANS
                    );
                }
            }
            for (name, file) in dumps {
                stop_if_cancelled(&format!("writing {}", file.display()))?;
                let r = job.resource(&name).context("checked above")?;
                dump::dump(r, job.shaders[r.layout].shader.program(), &file)?;
            }
            Ok(ok)
        }
    }
}

/// `sm5sim check --schedules N --seed S`: true when every schedule left the
/// same outputs and every expectation held under every schedule.
fn explore_schedules(
    job: &Job,
    options: &DispatchOptions,
    n: u64,
    base: u64,
    json: bool,
) -> anyhow::Result<bool> {
    let report = schedules_report(job, options, n, base)?;
    if json {
        println!("{}", report.json);
    } else {
        print!("{}", report.text);
    }
    Ok(report.passed)
}

/// What [`schedules_report`] found, as `check --schedules` reports it.
struct SchedulesOutcome {
    /// every schedule left the same outputs and every expectation held
    passed: bool,
    /// the `--json` document
    json: serde_json::Value,
    /// the text report
    text: String,
    /// one line: why it did not pass (empty when it passed)
    summary: String,
}

/// Run `job` under `n` schedules derived from `base` and compare their
/// outputs ([`explore_schedules`]).
fn schedules_report(
    job: &Job,
    options: &DispatchOptions,
    n: u64,
    base: u64,
) -> anyhow::Result<SchedulesOutcome> {
    use std::fmt::Write as _;
    if n == 0 {
        bail!("--schedules must be at least 1");
    }
    let seeds: Vec<u64> = (0..n).map(|i| Schedule::derive_seed(base, i)).collect();
    let report = job.run_schedules(options, &seeds)?;
    let failed = report.failed_seeds();
    let ok = report.independent() && failed.is_empty();
    let json = {
        use serde_json::json;
        let difference = report.difference.as_ref().map(|d| {
            json!({
                "seed_a": d.seed_a,
                "seed_b": d.seed_b,
                "resource": d.resource,
                "word": d.word,
                "value_a": d.value_a,
                "value_b": d.value_b,
                "words_differ": d.words_differ,
            })
        });
        let failures: Vec<serde_json::Value> = report
            .runs
            .iter()
            .filter(|r| failed.contains(&r.seed))
            .map(|r| json!({ "seed": r.seed, "steps": steps_json(&r.steps) }))
            .collect();
        let counter_difference = report.counter_difference.as_ref().map(|d| {
            json!({
                "seed_a": d.seed_a,
                "seed_b": d.seed_b,
                "resource": d.resource,
                "value_a": d.value_a,
                "value_b": d.value_b,
            })
        });
        json!({
            "job": job.path.display().to_string(),
            "passed": ok,
            "schedules": n,
            "compared_as_multisets": report.multisets,
            "counter_difference": counter_difference,
            "base_seed": base,
            "seeds": seeds,
            "schedule_independent": report.independent(),
            "distinct_outputs": report.distinct_outputs,
            "difference": difference,
            "expectations_passed": failed.is_empty(),
            "failed_expectation_seeds": failed,
            "failed_expectations": failures,
            "job_warnings": job.warnings,
        })
    };
    // (writing to a String cannot fail)
    let mut text = String::new();
    let mut summary = String::new();
    for w in &job.warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    for r in &report.runs {
        if failed.contains(&r.seed) {
            let _ = writeln!(text, "schedule seed {}: an expectation FAILED", r.seed);
            let failing: Vec<StepReport> =
                r.steps.iter().filter(|s| !s.passed()).cloned().collect();
            text.push_str(&steps_text(&failing));
        }
    }
    if !report.multisets.is_empty() {
        let _ = writeln!(
            text,
            "compared as multisets of their elements (their order may depend on the schedule): {}",
            report.multisets.join(", ")
        );
    }
    match (&report.difference, &report.counter_difference) {
        (None, None) => {
            let _ = writeln!(
                text,
                "schedule-independent: {n} schedules gave identical outputs"
            );
        }
        (None, Some(_)) => {
            let _ = writeln!(
                text,
                "{n} schedules gave identical outputs, but not identical counters:"
            );
        }
        (Some(d), _) => {
            summary = format!(
                "schedule-dependent: outputs differ between schedule seeds {} and {}: resource {}, first differing word {} (value {:#010x} vs {:#010x}), {} words differ",
                d.seed_a, d.seed_b, d.resource, d.word, d.value_a, d.value_b, d.words_differ
            );
            let _ = writeln!(text, "{summary}");
            let _ = writeln!(
                text,
                "  {} distinct outputs among {n} schedules; replay one with `sm5sim run {} --schedule-seed {}`",
                report.distinct_outputs,
                job.path.display(),
                d.seed_b
            );
        }
    }
    if let Some(c) = &report.counter_difference {
        let line = format!(
            "schedule-dependent counter: the hidden counter of {} is {} after schedule seed {} and {} after seed {}",
            c.resource, c.value_a, c.seed_a, c.value_b, c.seed_b
        );
        let _ = writeln!(text, "{line}");
        if summary.is_empty() {
            summary = line;
        }
    }
    if !failed.is_empty() {
        let line = format!(
            "an expectation FAILED under {} of {n} schedules",
            failed.len()
        );
        let _ = writeln!(text, "{line}");
        if summary.is_empty() {
            summary = line;
        }
    }
    Ok(SchedulesOutcome {
        passed: ok,
        json,
        text,
        summary,
    })
}

/// A u64 in decimal or with 0x.
fn parse_u64(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("{s}: {e}"))
}

/// `--fill` of `sm5sim smoke`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FillArg {
    /// every word 0
    Zero,
    /// word i = i × 0x9E3779B9
    Pattern,
}

fn parse_groups(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y, z] => {
            let n = |v: &str| v.parse::<u32>().map_err(|e| format!("{v}: {e}"));
            Ok([n(x)?, n(y)?, n(z)?])
        }
        _ => Err(format!("'{s}' is not x,y,z")),
    }
}

/// Shader files named on the command line, directories expanded (sorted,
/// each file once). Links to directories found inside a directory are not
/// followed, so a link back up the tree cannot make the walk endless.
fn shader_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = files::expand_dirs(paths, |f| {
        f.extension().is_some_and(|x| x == "dxbc" || x == "cso")
    })
    .map_err(anyhow::Error::msg)?;
    // each file once, however it was named
    let mut seen = std::collections::HashSet::new();
    out.retain(|f| seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())));
    out.sort();
    Ok(out)
}

/// `sm5sim smoke`: each shader once on synthetic resources; an error
/// ([`run_suite::Reported`], exit status 2) when one did not load or run to
/// completion, or on Ctrl-C.
fn smoke(
    paths: &[PathBuf],
    fill: FillArg,
    groups: [u32; 3],
    max_instructions: u64,
    timeout: f64,
    no_checksum: bool,
) -> anyhow::Result<bool> {
    use sm5sim::smoke::{smoke_run, Fill};
    let files = shader_files(paths)?;
    if files.is_empty() {
        bail!("no .dxbc or .cso files found");
    }
    let fill = match fill {
        FillArg::Zero => Fill::Zero,
        FillArg::Pattern => Fill::Pattern,
    };
    let load = sm5sim::memory::for_program(&LoadOptions {
        verify_checksum: !no_checksum,
        ..LoadOptions::default()
    });
    let options = DispatchOptions {
        max_warp_instructions: max_instructions,
        ..dispatch_options(0, WARP_WIDTH_GROUP, timeout, None)?
    };
    let mut ok = 0;
    for (i, f) in files.iter().enumerate() {
        stop_if_cancelled(&format!(
            "{} (after {i} of {} shaders)",
            f.display(),
            files.len()
        ))?;
        let bytes = files::read_input(f).with_context(|| format!("reading {}", f.display()))?;
        let outcome = Program::from_file_bytes(&bytes, &load)
            .map_err(|e| e.to_string())
            .and_then(|p| smoke_run(&p, fill, groups, &options).map_err(|e| e.to_string()));
        match outcome {
            Ok(stats) => {
                ok += 1;
                println!(
                    "ok    {}  ({} groups, {} warp-instructions)",
                    f.display(),
                    stats.groups,
                    stats.warp_instructions
                );
            }
            Err(e) => println!("FAIL  {}: {e}", f.display()),
        }
    }
    println!("{ok} of {} shaders ran to completion", files.len());
    if cancel_token().load(Ordering::Relaxed) {
        bail!("cancelled (Ctrl-C) during the last shader");
    }
    if ok < files.len() {
        // a shader that does not load or finish is an error (exit status 2)
        return Err(run_suite::Reported.into());
    }
    Ok(true)
}
