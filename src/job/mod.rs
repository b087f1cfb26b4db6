//! Job files: a TOML description of a shader, its resources and a sequence
//! of steps (dispatches, re-initialisations, expectations), run by
//! `sm5sim run`. The schema is in `docs/job-files.md`.
//!
//! Loading checks everything before anything runs: the shader loads, every
//! resource resolves to a slot whose declaration matches its view, every slot
//! the shader declares is bound, every init and expectation fits its resource.
//! Errors are [`JobError`]s naming the file and the TOML key.

use crate::api::{ApiError, Kernel, Shader};
use crate::compiler::{self, CompileError, CompileOptions, Compiled};
use crate::job::content::{first_difference, generate};
use crate::job::images::compare_png;
use crate::job::resources::{
    cbuffer_fields_over, content_key, f32_close, hlsl_request, named_files, rdef_name,
    rdef_sampler_name, resolve_resource, KeyErr,
};
use crate::job::samplers::resolve_sampler;
use crate::job::schema::{Content, JobFile, ShaderSpec, StepSpec};
use crate::job::steps::{CopyCommand, Expect, Groups, Resolve, Step};
use crate::job::textures::{texture_writes, write_texture, TexWrite};
use crate::memory::MemoryBudget;
use sim_core::check::{Allow, CheckOptions, Checker, Finding, FindingKind, Suppressed};
use sim_core::program::Program;
use sim_core::{LoadError, LoadOptions};
use sim_mem::{Buffer, SamplerDesc, Texture, ViewDimension};
use sim_sched::{DispatchError, DispatchOptions, DispatchProfile, DispatchStats, Schedule};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod bulk;
mod content;
mod device;
mod images;
mod parts;
mod resources;
mod samplers;
mod schema;
mod steps;
mod textures;
pub use content::{random_f32_words, random_u32_words, SplitMix64};
pub use device::{JobShader, UNBOUND_SLOT};
pub use images::{png_bit_depth, png_target, read_png, texture_image, PngImage, PngTarget};
pub use parts::DispatchStep;

/// Everything that can be wrong with a job.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// the file
        path: PathBuf,
        /// the OS error
        source: std::io::Error,
    },
    /// The job file is not valid TOML or does not fit the schema.
    #[error("{path}: {message}")]
    Parse {
        /// the job file
        path: PathBuf,
        /// the parser's message (with line and column)
        message: String,
    },
    /// A value in the job file is wrong.
    #[error("{path}{}: {key}: {message}{}", at.as_ref().map_or(String::new(), |a| format!(":{}:{}", a.line, a.column)), at.as_ref().map_or(String::new(), |a| format!("\n{}", a.excerpt)))]
    Spec {
        /// the job file
        path: PathBuf,
        /// the TOML key, e.g. `resources.keys.init`
        key: String,
        /// what is wrong
        message: String,
        /// where the key stands in the file, when it can be found
        at: Option<TextPosition>,
    },
    /// The shader could not be loaded.
    #[error("{path}: {source}")]
    Shader {
        /// the shader file
        path: PathBuf,
        /// why
        source: LoadError,
    },
    /// The HLSL shader could not be compiled (the error names the file).
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The run was cancelled (`DispatchOptions::cancel`, Ctrl-C in the CLI)
    /// before step `step` began.
    #[error("steps[{step}]: cancelled before this step began")]
    Cancelled {
        /// step index
        step: usize,
    },
    /// Loading was cancelled (`LoadOptions::cancel`, Ctrl-C in the CLI)
    /// before `what` (the shader, or a resource's key) was loaded.
    #[error("{}: cancelled before loading {what}", path.display())]
    CancelledLoading {
        /// the job file
        path: PathBuf,
        /// what was to be loaded next
        what: String,
    },
    /// What a run keeps besides the resources does not fit in the memory
    /// the job may use (`--max-memory`, or what the process may use): the
    /// checker's copy of the UAVs and its shadow, schedule exploration's
    /// copies. Nothing ran.
    #[error("{}: {message}", path.display())]
    Memory {
        /// the job file
        path: PathBuf,
        /// the figures
        message: String,
    },
    /// A dispatch was refused.
    #[error("steps[{step}]: {source}")]
    Dispatch {
        /// step index
        step: usize,
        /// why
        source: DispatchError,
    },
}

/// A place in a job file: 1-based line and column, and the line with a caret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextPosition {
    /// 1-based line
    pub line: usize,
    /// 1-based column (characters)
    pub column: usize,
    /// the line, a newline, and a caret under the column
    pub excerpt: String,
}

/// Where the key path `key` (`resources.keys.init`, `steps[2].expect`)
/// stands in `parsed` (the text with its long lists cut out, bulk.rs): the
/// deepest part of the path that exists, shown from `text`, the file as
/// written (`original` maps an offset in `parsed` to one in `text`).
fn locate(
    parsed: &str,
    text: &str,
    key: &str,
    original: impl Fn(usize) -> usize,
) -> Option<TextPosition> {
    let doc = toml_edit::ImDocument::parse(parsed.to_string()).ok()?;
    let mut span = None;
    let mut item: &toml_edit::Item = doc.as_item();
    for part in key.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        // a part that is not there: the deepest part found
        let Some((k, next)) = item.as_table_like().and_then(|t| t.get_key_value(name)) else {
            break;
        };
        span = k.span().or(span);
        item = next;
        if let Some(i) = index {
            item = match item {
                toml_edit::Item::ArrayOfTables(a) => {
                    let t = a.get(i)?;
                    span = t.span().or(span);
                    // an array-of-tables element is reached as a table
                    return position(text, original(span?.start)).map(|p| {
                        let rest: Vec<&str> = key.splitn(2, ']').collect();
                        match rest
                            .get(1)
                            .map(|r| r.trim_start_matches('.'))
                            .filter(|r| !r.is_empty())
                        {
                            Some(sub) => t
                                .get_key_value(sub.split('.').next().unwrap_or(sub))
                                .and_then(|(k, _)| k.span())
                                .and_then(|s| position(text, original(s.start)))
                                .unwrap_or(p),
                            None => p,
                        }
                    });
                }
                other => {
                    let v = other.get(i)?;
                    span = v.span().or(span);
                    v
                }
            };
        }
    }
    position(text, original(span?.start))
}

/// The reason a job file gives to be skipped (`skip = "reason"` at its top
/// level), read without loading its shader or resources; `None` when it
/// has none, or when the file does not parse (loading it reports that).
///
/// # Errors
/// [`JobError::Io`] when the file cannot be read; [`JobError::Spec`] at
/// `skip` when it is not a string.
pub fn skip_reason(path: &Path) -> Result<Option<String>, JobError> {
    let text = crate::files::read_input_text(path).map_err(|source| JobError::Io {
        path: path.to_owned(),
        source,
    })?;
    if !text.lines().any(|l| l.trim_start().starts_with("skip")) {
        return Ok(None);
    }
    let Ok(masked) = bulk::mask(&text) else {
        return Ok(None);
    };
    let Ok(doc) = masked.text.parse::<toml::Table>() else {
        return Ok(None);
    };
    match doc.get("skip") {
        None => Ok(None),
        Some(toml::Value::String(reason)) => Ok(Some(reason.clone())),
        Some(_) => Err(JobError::Spec {
            at: locate(&masked.text, &text, "skip", |o| masked.original_offset(o)),
            path: path.to_owned(),
            key: "skip".into(),
            message: "expected the reason the job is skipped, as a string".into(),
        }),
    }
}

/// What the TOML parser takes for each value of a job file (measured: 3
/// million values in 755 MB), for refusing a file whose tree cannot fit
/// before it is parsed. Long number lists are not parsed as TOML
/// (bulk.rs).
const TOML_BYTES_PER_VALUE: u64 = 256;

/// The most characters of a job-file line an error message shows.
const EXCERPT_CHARS: usize = 120;

fn position(text: &str, offset: usize) -> Option<TextPosition> {
    let before = text.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    let line_text = text[line_start..].lines().next().unwrap_or("");
    // a long line: a window of it around the column, never megabytes
    let chars = line_text.chars().count();
    let (shown, caret) = if chars <= EXCERPT_CHARS {
        (line_text.to_string(), column - 1)
    } else {
        let from = (column - 1)
            .saturating_sub(EXCERPT_CHARS / 2)
            .min(chars - EXCERPT_CHARS);
        let window: String = line_text.chars().skip(from).take(EXCERPT_CHARS).collect();
        let lead = if from > 0 { "…" } else { "" };
        let tail = if from + EXCERPT_CHARS < chars {
            "…"
        } else {
            ""
        };
        (
            format!("{lead}{window}{tail}"),
            column - 1 - from + lead.chars().count(),
        )
    };
    Some(TextPosition {
        line,
        column,
        excerpt: format!("{shown}\n{}^", " ".repeat(caret)),
    })
}

/// `message` with each line longer than [`EXCERPT_CHARS`] cut short (a TOML
/// parser's message quotes the line it stopped in).
fn clip_lines(message: &str) -> String {
    message
        .lines()
        .map(|l| {
            let n = l.chars().count();
            if n > EXCERPT_CHARS {
                let head: String = l.chars().take(EXCERPT_CHARS).collect();
                format!("{head}… ({} more characters)", n - EXCERPT_CHARS)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------
// The loaded job

pub use crate::api::{Slot, SlotKind, Storage, View};

fn parse_slot(s: &str) -> Option<Slot> {
    Slot::parse(s)
}

/// A resource of a job.
#[derive(Debug)]
pub struct JobResource {
    /// its key in `[resources]`
    pub name: String,
    /// where it is bound
    pub slot: Slot,
    /// how it is viewed
    pub view: View,
    /// its contents: a handle to the storage the job's [`Kernel`] binds
    pub storage: crate::api::Resource,
    /// how `check --schedules` compares it between schedules
    pub compare: Compare,
    /// whether a dispatch of the job binds it as a UAV: what a dispatch may
    /// change (a single-shader job's UAVs; in a job with `[shaders]`, every
    /// resource some dispatch step binds at a `u#` slot)
    pub uav: bool,
    /// the index in [`Job::shaders`] of the shader whose declaration gave
    /// its layout (a constant buffer's `fields`, a `.npy` file's dtype)
    pub layout: usize,
    /// `indirect_args = true`: it may hold `DispatchIndirect`'s arguments
    pub indirect_args: bool,
}

/// How schedule exploration ([`Job::run_schedules`]) compares a UAV's
/// contents between schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// word for word (the default)
    Exact,
    /// as a multiset of its elements (structures of a structured view,
    /// words otherwise): their order may depend on the schedule by design.
    /// The default of an append or consume buffer (a UAV whose hidden
    /// counter the program uses, `Program::counter_uavs`); a job sets it
    /// with `compare = "multiset"`.
    Multiset,
}

impl JobResource {
    /// The raw storage, as 32-bit words: a buffer's contents, or a texture's
    /// subresources in D3D order (each starting on a 4-byte boundary, rows
    /// tightly packed; see [`sim_mem::texture`]).
    pub fn data(&self) -> &Buffer {
        self.storage.data()
    }

    /// The buffer, unless this is a texture.
    pub fn buffer(&self) -> Option<&Buffer> {
        self.storage.as_buffer()
    }

    /// The texture, if this is one.
    pub fn texture(&self) -> Option<&Texture> {
        self.storage.as_texture()
    }

    /// The resource as a `.npy` array meets it (its storage, view and
    /// slot), for [`crate::npy`].
    pub fn npy(&self) -> crate::npy::NpyTarget<'_> {
        crate::npy::NpyTarget {
            name: &self.name,
            resource: &self.storage,
            view: self.view,
            slot: self.slot,
        }
    }
}

/// A sampler of a job (`[samplers.NAME]`).
#[derive(Debug, Clone)]
pub struct Sampler {
    /// its key in `[samplers]`
    pub name: String,
    /// its slot `s#`
    pub slot: u32,
    /// its state
    pub desc: SamplerDesc,
}

/// Where a texture contents form goes: one subresource, or (None) the whole
/// texture (word forms and `fill_texel`) or mip 0 slice 0 (`png`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Subresource {
    mip: u32,
    slice: u32,
}

#[derive(Debug, Clone)]
enum Check {
    Words {
        content: Box<Content>,
        ulps: u32,
        abs: Option<f64>,
    },
    SumU32(u32),
    MinU32(u32),
    MaxU32(u32),
    Counter(u32),
    /// mip 0 slice 0 of a 2D texture against a PNG, texel by texel
    Png {
        path: PathBuf,
        tolerance: u32,
    },
}

/// A job ready to run: the shader loaded, resources created and initialised.
#[derive(Debug)]
pub struct Job {
    /// the job file
    pub path: PathBuf,
    /// The job's shaders: `[shaders]` in name order, or the one `shader`
    /// (named "").
    pub shaders: Vec<JobShader>,
    /// whether the job has `[shaders]`
    pub several: bool,
    /// each dispatch step's kernel (in a single-shader job, the one kernel
    /// all its dispatches run); never empty ([`Job::kernel`])
    kernels: Vec<Kernel>,
    /// resources in name order
    pub resources: Vec<JobResource>,
    /// samplers in name order
    pub samplers: Vec<Sampler>,
    /// Things that are legal but probably not meant, e.g. a constant buffer
    /// smaller than the shader declares (reads past it return 0, FS §7.5).
    pub warnings: Vec<String>,
    /// The files this job reads: the job file, the shader, and every file a
    /// `file` or `png` key names (outputs must not overwrite them,
    /// [`crate::files::check_output`]).
    pub inputs: Vec<PathBuf>,
    steps: Vec<Step>,
    base: PathBuf,
    /// the memory the resources were counted against at load
    budget: MemoryBudget,
    /// `[check] allow`: the findings `check` suppresses
    /// (`sim_core::check::Checker::set_allow`)
    pub allow: Vec<sim_core::check::Allow>,
}

/// What [`Job::run_checked`] found.
#[derive(Debug, Clone)]
pub struct CheckReport {
    /// The steps' outcomes, as [`Job::run`] gives them.
    pub steps: Vec<StepReport>,
    /// The checker's findings, errors first (see [`sim_core::check`]).
    pub findings: Vec<Finding>,
    /// Why a dispatch stopped before its end, when one did: the watchdog,
    /// or the checker on a forward-progress hang. The steps before it are
    /// in `steps`, and every finding made until then in `findings`.
    pub stopped: Option<String>,
    /// Why, when a dispatch stopped: [`sim_core::exec::StopReason::NoProgress`]
    /// is the checker's own stop (its `forward-progress` finding says why);
    /// the others (watchdog, cancellation) leave the job unchecked.
    pub stop_reason: Option<sim_core::exec::StopReason>,
    /// The findings `[check] allow` or a marker in the HLSL source
    /// suppressed: not in `findings`, counted apart.
    pub suppressed: Vec<sim_core::check::Suppressed>,
    /// Markers in the HLSL source that could not be read, `file:line: why`
    /// (`sim_core::check::Checker::marker_problems`).
    pub marker_problems: Vec<String>,
}

/// One schedule's run in [`Job::run_schedules`].
#[derive(Debug, Clone)]
pub struct ScheduleRun {
    /// its seed (`--schedule-seed` replays it)
    pub seed: u64,
    /// the steps' outcomes (failed expectations included)
    pub steps: Vec<StepReport>,
}

/// Where two schedules' outputs first differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleDifference {
    /// the seed of the first schedule run
    pub seed_a: u64,
    /// the seed of the first schedule whose outputs differ from it
    pub seed_b: u64,
    /// the first resource (in name order) that differs
    pub resource: String,
    /// its first differing 32-bit word
    pub word: usize,
    /// that word under `seed_a`
    pub value_a: u32,
    /// that word under `seed_b`
    pub value_b: u32,
    /// how many words of the resource differ
    pub words_differ: usize,
}

/// What [`Job::run_schedules`] found.
#[derive(Debug, Clone)]
pub struct ScheduleReport {
    /// one per schedule, in the order run
    pub runs: Vec<ScheduleRun>,
    /// None when every schedule left the same outputs (a [`Compare::Multiset`]
    /// resource's elements in any order)
    pub difference: Option<ScheduleDifference>,
    /// None when every schedule left every UAV's hidden counter at the
    /// same value
    pub counter_difference: Option<CounterDifference>,
    /// how many different outputs the schedules left (1 = independent)
    pub distinct_outputs: usize,
    /// the resources compared as multisets ([`Compare::Multiset`])
    pub multisets: Vec<String>,
}

/// A UAV's hidden counter left at different values by two schedules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterDifference {
    /// the first schedule's seed, and the counter's value after it
    pub seed_a: u64,
    /// the counter's value after the first schedule
    pub value_a: u32,
    /// the other schedule's seed
    pub seed_b: u64,
    /// the counter's value after the other schedule
    pub value_b: u32,
    /// the resource
    pub resource: String,
}

impl ScheduleReport {
    /// True when every schedule left the same outputs and counters.
    pub fn independent(&self) -> bool {
        self.difference.is_none() && self.counter_difference.is_none()
    }

    /// The seeds of the schedules under which an expectation failed.
    pub fn failed_seeds(&self) -> Vec<u64> {
        self.runs
            .iter()
            .filter(|r| !r.steps.iter().all(StepReport::passed))
            .map(|r| r.seed)
            .collect()
    }
}

/// An element that differs from its expectation.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// 32-bit word index in the resource
    pub index: usize,
    /// expected value, as text
    pub expected: String,
    /// actual value, as text
    pub got: String,
}

/// A dispatch's messages as `run` prints them under its step line: one
/// line each (`  [group (0,0,0) thread (1,0,0)] text`), then how many more
/// there were when the limit cut them.
pub fn messages_text(messages: &sim_sched::Messages) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for m in &messages.list {
        let _ = writeln!(out, "  {}", m.line_text());
    }
    if messages.dropped() > 0 {
        let _ = writeln!(
            out,
            "  … and {} more message(s) not kept (the first {} are; --messages N keeps more)",
            messages.dropped(),
            messages.limit
        );
    }
    out
}

/// The outcome of one step.
#[derive(Debug, Clone)]
pub enum StepReport {
    /// A dispatch ran.
    Dispatch {
        /// the shader's key in `[shaders]` (empty in a single-shader job)
        shader: String,
        /// group counts (read from the arguments, for `dispatch_indirect`)
        groups: [u32; 3],
        /// counters
        stats: DispatchStats,
        /// wall-clock time
        elapsed: Duration,
        /// where the time went (only with `DispatchOptions::profile`)
        profile: Option<Box<DispatchProfile>>,
        /// what the shader said (`printf`, `errorf`, `abort`,
        /// `debug_break`; `sim_core::messages`)
        messages: Box<sim_sched::Messages>,
    },
    /// A copy ran: what it copied, as text.
    Copy {
        /// `copy a -> b`, …
        what: String,
    },
    /// A resource was re-initialised.
    Set {
        /// resource name
        resource: String,
    },
    /// An expectation was checked.
    Expect {
        /// what was expected, as text
        what: String,
        /// how many 32-bit elements differ (0 = passed)
        mismatches: usize,
        /// the first few differing elements
        first: Vec<Mismatch>,
    },
}

impl StepReport {
    /// False for a failed expectation.
    pub fn passed(&self) -> bool {
        match self {
            StepReport::Expect { mismatches, .. } => *mismatches == 0,
            // an `errorf` fails its dispatch
            StepReport::Dispatch { messages, .. } => !messages.failed(),
            _ => true,
        }
    }

    /// The step's outcome as the command line prints it, as step `i`: its
    /// line (`step 2: expect bins …: ok`), the warnings and notes of a
    /// dispatch, and the first differing elements of a failed expectation
    /// (at most [`MISMATCHES_SHOWN`]), each line ending in a newline.
    pub fn text(&self, i: usize) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        // (writing to a String cannot fail)
        match self {
            StepReport::Dispatch {
                shader,
                groups,
                stats,
                elapsed,
                messages,
                ..
            } => {
                let _ = writeln!(
                    out,
                    "step {i}: dispatch{}{} {}x{}x{}: {} groups, {} threads, {} warp-instructions, {:.3} s",
                    if shader.is_empty() { "" } else { " " },
                    shader,
                    groups[0],
                    groups[1],
                    groups[2],
                    stats.groups,
                    stats.threads,
                    stats.warp_instructions,
                    elapsed.as_secs_f64()
                );
                out.push_str(&messages_text(messages));
                if stats.aborted_threads > 0 {
                    let _ = writeln!(
                        out,
                        "  warning: {} threads executed abort",
                        stats.aborted_threads
                    );
                }
                if stats.debug_breaks > 0 {
                    let _ = writeln!(
                        out,
                        "  note: debug_break executed {} times (no debugger attached)",
                        stats.debug_breaks
                    );
                }
                if let Some(e) = &messages.first_error {
                    let _ = writeln!(
                        out,
                        "  error: errorf ran {} time(s); the first: {}",
                        messages.errorf,
                        e.line_text()
                    );
                }
            }
            StepReport::Set { resource } => {
                let _ = writeln!(out, "step {i}: set {resource}");
            }
            StepReport::Copy { what } => {
                let _ = writeln!(out, "step {i}: {what}");
            }
            StepReport::Expect {
                what,
                mismatches,
                first,
            } => {
                if *mismatches == 0 {
                    let _ = writeln!(out, "step {i}: expect {what}: ok");
                } else {
                    let _ = writeln!(
                        out,
                        "step {i}: expect {what}: FAILED, {mismatches} element(s) differ"
                    );
                    for m in first {
                        let _ = writeln!(
                            out,
                            "  [{}] expected {}, got {}",
                            m.index, m.expected, m.got
                        );
                    }
                    if *mismatches > first.len() {
                        let _ = writeln!(out, "  … and {} more", mismatches - first.len());
                    }
                }
            }
        }
        out
    }
}

/// How many differing elements a report lists.
pub const MISMATCHES_SHOWN: usize = 10;

impl Job {
    /// Read and check a job file; create and initialise its resources.
    ///
    /// # Errors
    /// [`JobError`] naming the file and TOML key of the first problem.
    pub fn load(path: &Path, load: &LoadOptions) -> Result<Self, JobError> {
        Self::load_with(path, load, &CompileOptions::default())
    }

    /// [`Job::load`] with options for compiling an HLSL shader (`--fxc`,
    /// `--no-cache`).
    ///
    /// # Errors
    /// As [`Job::load`], and [`JobError::Compile`].
    pub fn load_with(
        path: &Path,
        load: &LoadOptions,
        compile: &CompileOptions,
    ) -> Result<Self, JobError> {
        let text = crate::files::read_input_text(path).map_err(|source| JobError::Io {
            path: path.to_owned(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new(".")).to_owned();
        Self::from_toml_with(&text, path, &base, load, compile)
    }

    /// Check a job given as TOML text; relative paths are resolved against `base`.
    ///
    /// # Errors
    /// As [`Job::load`].
    pub fn from_toml(
        text: &str,
        path: &Path,
        base: &Path,
        load: &LoadOptions,
    ) -> Result<Self, JobError> {
        Self::from_toml_with(text, path, base, load, &CompileOptions::default())
    }

    /// [`Job::from_toml`] with options for compiling an HLSL shader.
    ///
    /// # Errors
    /// As [`Job::load_with`].
    pub fn from_toml_with(
        text: &str,
        path: &Path,
        base: &Path,
        load: &LoadOptions,
        compile: &CompileOptions,
    ) -> Result<Self, JobError> {
        // long number lists are read from the text, not parsed as TOML
        let mut masked = bulk::mask(text).map_err(|message| JobError::Parse {
            path: path.to_owned(),
            message,
        })?;
        let _lists = masked.install();
        // the rest is parsed as TOML, a tree node of about
        // TOML_BYTES_PER_VALUE for each value: refused up front when that
        // cannot fit, not aborted by the allocator
        let values = masked
            .text
            .bytes()
            .filter(|&c| c == b',' || c == b'=')
            .count() as u64;
        let tree = values.saturating_mul(TOML_BYTES_PER_VALUE);
        if tree > 64 << 20 {
            MemoryBudget::for_job(load.max_memory)
                .check_extra(
                    tree,
                    &format!(
                        "parsing its {values} TOML values (outside long number lists, which take 4 bytes a number) at about {TOML_BYTES_PER_VALUE} bytes each"
                    ),
                )
                .map_err(|message| JobError::Parse {
                    path: path.to_owned(),
                    message,
                })?;
        }
        let parsed = &masked.text;
        Self::parse(parsed, path, base, load, compile).map_err(|e| match e {
            JobError::Spec {
                path,
                key,
                message,
                at: None,
            } => JobError::Spec {
                at: locate(parsed, text, &key, |o| masked.original_offset(o)),
                path,
                key,
                message,
            },
            other => other,
        })
    }

    fn parse(
        text: &str,
        path: &Path,
        base: &Path,
        load: &LoadOptions,
        compile: &CompileOptions,
    ) -> Result<Self, JobError> {
        let spec_err = |key: String, message: String| JobError::Spec {
            at: None,
            path: path.to_owned(),
            key,
            message,
        };
        let file: JobFile = toml::from_str(text).map_err(|e| JobError::Parse {
            path: path.to_owned(),
            message: clip_lines(&e.to_string()),
        })?;
        let cancelled = |what: &str| {
            if load
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                Err(JobError::CancelledLoading {
                    path: path.to_owned(),
                    what: what.to_owned(),
                })
            } else {
                Ok(())
            }
        };
        let several = !file.shaders.is_empty();
        let mut specs: Vec<(String, ShaderSpec)> = Vec::new();
        if several {
            if file.shader.is_some() {
                return Err(spec_err(
                    "shader".into(),
                    "a job has one top-level shader or [shaders.NAME] tables, not both; move it under [shaders.NAME]".into(),
                ));
            }
            let top = [
                ("entry", file.entry.is_some()),
                ("profile", file.profile.is_some()),
                ("defines", file.defines.is_some()),
                ("include_dirs", file.include_dirs.is_some()),
                ("class_instances", file.class_instances.is_some()),
            ];
            if let Some((key, _)) = top.iter().find(|(_, g)| *g) {
                return Err(spec_err(
                    (*key).into(),
                    format!("with [shaders], {key} goes in the shader's own [shaders.NAME] table"),
                ));
            }
            specs.extend(file.shaders.iter().map(|(n, s)| (n.clone(), s.clone())));
        } else {
            specs.push((
                String::new(),
                ShaderSpec {
                    shader: file.shader.clone().unwrap_or_default(),
                    entry: file.entry.clone(),
                    profile: file.profile.clone(),
                    defines: file.defines.clone(),
                    include_dirs: file.include_dirs.clone(),
                    class_instances: file.class_instances.clone(),
                },
            ));
        }
        let mut inputs = vec![path.to_owned()];
        let mut shaders: Vec<JobShader> = Vec::new();
        for (name, spec) in &specs {
            let prefix = if several {
                format!("shaders.{name}.")
            } else {
                String::new()
            };
            cancelled(&format!("{prefix}shader"))?;
            let (shader, shader_path, mut included) =
                load_shader(spec, &prefix, path, base, load, compile)?;
            inputs.push(shader_path);
            inputs.append(&mut included);
            shaders.push(JobShader {
                name: name.clone(),
                shader: std::sync::Arc::new(shader),
            });
        }
        let shader_index = |name: &str| shaders.iter().position(|s| s.name == name);

        // what the dispatch steps name, for resolving resources: the
        // shaders in the order steps use them, and every (shader, bind key,
        // resource) a bind table holds
        let mut order: Vec<usize> = Vec::new();
        let mut binds: Vec<(usize, String, String)> = Vec::new();
        if several {
            for table in &file.steps {
                let Some(s) = table
                    .get("shader")
                    .and_then(|v| v.as_str())
                    .and_then(shader_index)
                else {
                    continue;
                };
                if !order.contains(&s) {
                    order.push(s);
                }
                for (k, v) in table
                    .get("bind")
                    .and_then(|b| b.as_table())
                    .into_iter()
                    .flatten()
                {
                    if let Ok(device::BindValue::Resource { name, .. }) =
                        device::parse_bind_value(v)
                    {
                        binds.push((s, k.clone(), name));
                    }
                }
            }
            let rest: Vec<usize> = (0..shaders.len()).filter(|s| !order.contains(s)).collect();
            order.extend(rest);
        } else {
            order.push(0);
        }

        let mut resources: Vec<JobResource> = Vec::new();
        let mut budget = MemoryBudget::for_job(load.max_memory);
        for (name, spec) in &file.resources {
            let key = format!("resources.{name}");
            cancelled(&key)?;
            let sub_err = |(k, m): KeyErr| {
                spec_err(
                    if k.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}.{k}")
                    },
                    m,
                )
            };
            let mut r = if several {
                if spec.slot.is_some() {
                    return Err(spec_err(
                        format!("{key}.slot"),
                        format!(
                            "with [shaders], a resource binds by name in each shader that declares '{name}', or by a step's bind (bind = {{ u0 = \"{name}\" }})"
                        ),
                    ));
                }
                match device::reference_of(name, spec.view.is_some(), &shaders, &order, &binds) {
                    Some((s, slot)) => {
                        let mut r = resolve_resource(
                            name,
                            spec,
                            &shaders[s].shader,
                            base,
                            &mut budget,
                            Some(slot),
                        )
                        .map_err(sub_err)?;
                        r.layout = s;
                        r
                    }
                    None => {
                        let Some(view) = spec.view.as_deref() else {
                            return Err(spec_err(
                                key,
                                format!(
                                    "no shader declares '{name}' and no step binds it, so its kind is not known: give view = \"raw\", \"structured\", \"typed\", \"constant\" or a texture dimension"
                                ),
                            ));
                        };
                        if matches!(&spec.init, Some(toml::Value::Table(t)) if t.contains_key("fields"))
                        {
                            return Err(spec_err(
                                format!("{key}.init"),
                                format!("fields take the layout of a shader that declares '{name}', and none does; give u32 = [...]"),
                            ));
                        }
                        let kind = if ViewDimension::from_name(view).is_some() {
                            SlotKind::Srv
                        } else if view == "constant" {
                            SlotKind::ConstantBuffer
                        } else {
                            SlotKind::Uav
                        };
                        let slot = Slot {
                            kind,
                            index: device::UNBOUND_SLOT,
                        };
                        let mut r = resolve_resource(
                            name,
                            spec,
                            &shaders[0].shader,
                            base,
                            &mut budget,
                            Some(slot),
                        )
                        .map_err(sub_err)?;
                        r.uav = false;
                        r
                    }
                }
            } else {
                resolve_resource(name, spec, &shaders[0].shader, base, &mut budget, None)
                    .map_err(sub_err)?
            };
            if let Some(on) = spec.indirect_args {
                if on && r.texture().is_some() {
                    return Err(spec_err(
                        format!("{key}.indirect_args"),
                        "indirect arguments live in a buffer, not a texture".into(),
                    ));
                }
                if on && matches!(r.view, View::Structured(_)) {
                    return Err(spec_err(
                        format!("{key}.indirect_args"),
                        "a structured buffer cannot hold indirect arguments (D3D11 refuses DRAWINDIRECT_ARGS with BUFFER_STRUCTURED); use a raw view".into(),
                    ));
                }
                r.indirect_args = on;
            }
            if !several {
                if let Some(other) = resources.iter().find(|o: &&JobResource| o.slot == r.slot) {
                    return Err(spec_err(
                        key,
                        format!("slot {} is already bound to '{}'", r.slot, other.name),
                    ));
                }
            }
            resources.push(r);
        }
        let mut samplers: Vec<Sampler> = Vec::new();
        for (name, spec) in &file.samplers {
            let key = format!("samplers.{name}");
            let mut found = Err((String::new(), String::new()));
            for &s in &order {
                found = resolve_sampler(name, spec, shaders[s].shader.program());
                if found.is_ok() {
                    break;
                }
            }
            let s = found.map_err(|(k, m)| {
                spec_err(
                    if k.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}.{k}")
                    },
                    m,
                )
            })?;
            // (with [shaders], each dispatch binds samplers by name: two
            // shaders may have different samplers at one slot)
            if let Some(other) = samplers.iter().find(|o| o.slot == s.slot && !several) {
                return Err(spec_err(
                    key,
                    format!("slot s{} is already bound to '{}'", s.slot, other.name),
                ));
            }
            samplers.push(s);
        }
        let program = shaders[0].shader.program();
        let mut kernels: Vec<Kernel> = Vec::new();
        if !several {
            // Every slot the shader declares must be bound.
            for slot in shaders[0].shader.declared_slots() {
                if !resources.iter().any(|r| r.slot == slot) {
                    let named = rdef_name(program, slot)
                        .map(|n| format!(" ('{n}')"))
                        .unwrap_or_default();
                    return Err(spec_err(
                        "resources".into(),
                        format!(
                            "the shader declares {slot}{named} but the job binds nothing there"
                        ),
                    ));
                }
            }
            for decl in &program.samplers {
                if !samplers.iter().any(|s| s.slot == decl.slot) {
                    let name = rdef_sampler_name(program, decl.slot);
                    let hint = name.as_deref().unwrap_or("NAME");
                    return Err(spec_err(
                        "samplers".into(),
                        format!(
                            "the shader declares s{}{} but the job binds no sampler there; add [samplers.{hint}]",
                            decl.slot,
                            name.as_ref().map(|n| format!(" ('{n}')")).unwrap_or_default()
                        ),
                    ));
                }
            }
            let mut kernel = Kernel::new(shaders[0].shader.clone());
            for r in &resources {
                kernel.attach(&r.name, r.slot, &r.storage, r.view);
            }
            for s in &samplers {
                kernel.attach_sampler(&s.name, s.slot, s.desc);
            }
            kernels.push(kernel);
        }

        let mut warnings = Vec::new();
        let mut uav_bound = vec![false; resources.len()];
        let mut steps = Vec::new();
        let mut resolve = Resolve {
            several,
            shaders: &shaders,
            resources: &resources,
            samplers: &samplers,
            base,
            kernels: &mut kernels,
            uav_bound: &mut uav_bound,
            warnings: &mut warnings,
        };
        for (i, table) in file.steps.iter().enumerate() {
            let step = StepSpec::read(i, table, several).and_then(|spec| resolve.step(i, spec));
            steps.push(step.map_err(|(key, message)| spec_err(key, message))?);
        }
        if several {
            for (r, bound) in resources.iter_mut().zip(&uav_bound) {
                r.uav = *bound;
            }
        }
        for shader in &shaders {
            let program = shader.shader.program();
            for r in resources.iter().filter(|r| r.view == View::Constant) {
                let slot = if several {
                    program
                        .reflection
                        .as_ref()
                        .and_then(|refl| refl.cbuffer_named(&r.name))
                        .and_then(|_| shader.shader.slot(&r.name).ok())
                } else {
                    Some(r.slot)
                };
                let Some(slot) = slot.filter(|s| s.kind == SlotKind::ConstantBuffer) else {
                    continue;
                };
                if let Some(decl) = program
                    .constant_buffers
                    .iter()
                    .find(|c| c.slot == slot.index)
                {
                    let declared = decl.size_vec4 as usize * 16;
                    if r.data().len_bytes() < declared {
                        let of = if several {
                            format!(" of shader '{}'", shader.name)
                        } else {
                            String::new()
                        };
                        warnings.push(format!(
                            "resources.{}: {} bytes bound to {slot}{of}, which the shader declares as {declared} bytes; reads past the end return 0",
                            r.name,
                            r.data().len_bytes(),
                        ));
                    }
                }
            }
        }
        for decl in &program.samplers {
            let comparison = decl.mode == sim_core::program::SamplerMode::Comparison;
            if let Some(s) = samplers.iter().find(|s| s.slot == decl.slot) {
                let compares = s.desc.filter.reduction == sim_mem::Reduction::Comparison;
                if comparison && !compares {
                    warnings.push(format!(
                        "samplers.{}: s{} is declared for comparisons (SampleCmp) but its filter {} is not a COMPARISON_ one",
                        s.name,
                        s.slot,
                        s.desc.filter.name()
                    ));
                }
            }
        }
        if let Ok(doc) = text.parse::<toml::Table>() {
            named_files(&toml::Value::Table(doc), base, &mut inputs);
        }
        if kernels.is_empty() {
            // a job with [shaders] and no dispatch: Job::kernel's
            kernels.push(Kernel::new(shaders[0].shader.clone()));
        }
        let allow = allow_rules(file.check.as_ref(), &resources)
            .map_err(|(key, message)| spec_err(key, message))?;
        Ok(Job {
            path: path.to_owned(),
            shaders,
            several,
            kernels,
            resources,
            samplers,
            warnings,
            inputs,
            steps,
            base: base.to_owned(),
            budget,
            allow,
        })
    }

    /// The shader with every resource and sampler bound: what runs each
    /// dispatch ([`Kernel::run`]). In a job with `[shaders]`, the kernel of
    /// its first dispatch step (each step has its own; the first shader with
    /// nothing bound when there is no dispatch).
    pub fn kernel(&self) -> &Kernel {
        // (parse leaves `kernels` with at least one kernel)
        &self.kernels[0]
    }

    /// The shader's program (in a job with `[shaders]`, the first
    /// shader's; [`Job::dispatch_program`] gives each dispatch's).
    pub fn program(&self) -> &Program {
        self.shaders[0].shader.program()
    }

    /// The program that step `step` runs, when it is a dispatch.
    pub fn dispatch_program(&self, step: usize) -> Option<&Program> {
        match self.steps.get(step)? {
            Step::Dispatch { shader, .. } => Some(self.shaders[*shader].shader.program()),
            _ => None,
        }
    }

    /// How an HLSL shader was compiled (None for DXBC and listings); in a
    /// job with `[shaders]`, the first shader's ([`Job::compiled_shaders`]
    /// gives every one's).
    pub fn compiled(&self) -> Option<&Compiled> {
        self.shaders[0].shader.compiled()
    }

    /// How each of the job's HLSL shaders was compiled, in [`Job::shaders`]'
    /// order (DXBC and listings have none).
    pub fn compiled_shaders(&self) -> impl Iterator<Item = &Compiled> {
        self.shaders.iter().filter_map(|s| s.shader.compiled())
    }

    /// The resource called `name` (its key, or, in a single-shader job, its
    /// slot such as `u0`).
    pub fn resource(&self, name: &str) -> Option<&JobResource> {
        self.resources.iter().find(|r| {
            r.name == name || (!self.several && r.slot.to_string() == name.to_ascii_lowercase())
        })
    }

    /// Run every step in order. Failed expectations do not stop the run; they
    /// are in the reports (see [`StepReport::passed`]).
    ///
    /// # Errors
    /// [`JobError::Dispatch`] when a dispatch is refused (its limits), or
    /// [`JobError::Io`] when a `set` reads a file that has gone.
    pub fn run(&self, options: &DispatchOptions) -> Result<Vec<StepReport>, JobError> {
        match self.run_partial(options) {
            (reports, None) => Ok(reports),
            (_, Some(e)) => Err(e),
        }
    }

    /// Run every step as [`Job::run`] does, keeping the reports of the
    /// steps that ran when one fails: the reports (every step's when the
    /// error is None; else those before the step that failed, a failed
    /// expectation among them), and the error that stopped the run.
    pub fn run_partial(&self, options: &DispatchOptions) -> (Vec<StepReport>, Option<JobError>) {
        self.run_range(options, 0..self.steps.len())
    }

    /// [`Job::run_partial`] for jobs that run side by side (`sm5sim run`
    /// with several jobs): `turns` is held while each dispatch that runs
    /// on the worker pool runs (more than one group, no
    /// `options.schedule`), so such dispatches of different jobs take turns
    /// on the pool. Each then has every worker, and its timeout
    /// (`DispatchOptions::timeout`) counts its own run, not time spent
    /// waiting for workers that another job's dispatch (a runaway one,
    /// say) kept busy. The rest of a job (loading, `set`, `expect`,
    /// one-group and scheduled dispatches, which run on the calling
    /// thread) goes on beside other jobs' dispatches.
    pub fn run_partial_taking_turns(
        &self,
        options: &DispatchOptions,
        turns: &std::sync::Mutex<()>,
    ) -> (Vec<StepReport>, Option<JobError>) {
        let mut reports = Vec::new();
        let error = self
            .run_steps(
                options,
                None,
                Some(turns),
                &mut reports,
                0..self.steps.len(),
            )
            .err();
        (reports, error)
    }

    /// Run every step as [`Job::run`] does, with each dispatch under the
    /// concurrency checker (`sim_sched::Mode::Checked`: the groups run
    /// one after another on this thread, `options.threads` is ignored).
    /// Findings name the job's resource names and the lines of the shader's
    /// listing (the `.asm` file itself, or `fxc /Fc`'s listing as
    /// `sim_core::front::disasm::full_listing` prints it for a container).
    ///
    /// # Errors
    /// As [`Job::run`].
    pub fn run_checked(
        &self,
        options: &DispatchOptions,
        checks: CheckOptions,
    ) -> Result<CheckReport, JobError> {
        // two-pass checking's copy of each UAV (its second pass starts from
        // it) and the screen's 8 bytes per UAV word: three times the UAVs
        if (options.fast_paths).contains(sim_core::exec::FastPaths::CHECK_SCREEN) {
            let what = "checking (a copy of the UAVs and 8 bytes of shadow per UAV word)";
            self.check_memory(3 * self.uav_bytes(), what)?;
        }
        let mut checkers = Checkers {
            checks,
            allow: self.allow.clone(),
            by_shader: (0..self.shaders.len()).map(|_| None).collect(),
        };
        let mut steps = Vec::new();
        // a stopped dispatch keeps what the checker found before the stop
        let all = 0..self.steps.len();
        let (stopped, stop_reason) =
            match self.run_steps(options, Some(&mut checkers), None, &mut steps, all) {
                Ok(()) => (None, None),
                Err(
                    e @ JobError::Dispatch {
                        source: DispatchError::Runaway(_),
                        ..
                    },
                ) => {
                    let reason = match &e {
                        JobError::Dispatch {
                            source: DispatchError::Runaway(r),
                            ..
                        } => Some(r.reason),
                        _ => None,
                    };
                    (Some(e.to_string()), reason)
                }
                Err(e) => return Err(e),
            };
        let (findings, suppressed, marker_problems) = checkers.into_findings();
        Ok(CheckReport {
            steps,
            findings,
            stopped,
            stop_reason,
            suppressed,
            marker_problems,
        })
    }

    /// The bytes of the job's UAV resources.
    fn uav_bytes(&self) -> u64 {
        (self.resources.iter())
            .filter(|r| r.uav)
            .map(|r| r.storage.len_bytes() as u64)
            .sum()
    }

    /// [`MemoryBudget::check_extra`] on the budget the job was loaded
    /// under, as a [`JobError::Memory`].
    fn check_memory(&self, bytes: u64, what: &str) -> Result<(), JobError> {
        self.budget
            .check_extra(bytes, what)
            .map_err(|message| JobError::Memory {
                path: self.path.clone(),
                message,
            })
    }

    /// The outputs a schedule may change: every UAV resource's raw words
    /// (its storage, textures included), in name order.
    pub fn outputs(&self) -> Vec<(String, Vec<u32>)> {
        self.resources
            .iter()
            .filter(|r| r.uav)
            .map(|r| (r.name.clone(), r.data().to_words()))
            .collect()
    }

    /// Run the job once per seed, each time from the resources' contents and
    /// counters as they are now, under `Schedule::seeded(seed)` (one thread;
    /// `options.schedule` and `options.threads` are ignored), and compare
    /// [`Job::outputs`] between the runs. Failed expectations are kept in
    /// each run's steps and do not stop the exploration. The resources are
    /// left as the last schedule left them.
    ///
    /// # Errors
    /// As [`Job::run`], for the first schedule that fails.
    pub fn run_schedules(
        &self,
        options: &DispatchOptions,
        seeds: &[u64],
    ) -> Result<ScheduleReport, JobError> {
        // a copy of every resource, the first schedule's outputs and the
        // current one's
        let all: u64 = (self.resources.iter())
            .map(|r| r.storage.len_bytes() as u64)
            .sum();
        let what = "schedule exploration (a copy of the resources and two of the UAVs)";
        self.check_memory(all + 2 * self.uav_bytes(), what)?;
        let initial: Vec<sim_mem::Contents> =
            self.resources.iter().map(|r| r.data().contents()).collect();
        let mut runs = Vec::new();
        let mut first: Option<Vec<(String, Vec<u32>)>> = None;
        let mut first_counters: Option<Vec<(String, u32)>> = None;
        let mut difference = None;
        let mut counter_difference = None;
        let mut seen: Vec<Vec<(String, Vec<u32>)>> = Vec::new();
        for &seed in seeds {
            for (r, contents) in self.resources.iter().zip(&initial) {
                r.data().restore(contents);
            }
            let opts = DispatchOptions {
                threads: 1,
                schedule: Some(Schedule::seeded(seed)),
                ..options.clone()
            };
            let steps = self.run(&opts)?;
            runs.push(ScheduleRun { seed, steps });
            let out = self.compared_outputs();
            let counters = self.counters();
            match &first_counters {
                None => first_counters = Some(counters),
                Some(a) if counter_difference.is_none() => {
                    counter_difference = a.iter().zip(&counters).find_map(|((name, x), (_, y))| {
                        (x != y).then(|| CounterDifference {
                            seed_a: seeds[0],
                            value_a: *x,
                            seed_b: seed,
                            value_b: *y,
                            resource: name.clone(),
                        })
                    });
                }
                Some(_) => {}
            }
            match &first {
                None => first = Some(out.clone()),
                Some(a) if difference.is_none() => {
                    difference = first_difference(a, &out).map(|(resource, word, va, vb, n)| {
                        ScheduleDifference {
                            seed_a: seeds[0],
                            seed_b: seed,
                            resource,
                            word,
                            value_a: va,
                            value_b: vb,
                            words_differ: n,
                        }
                    });
                }
                Some(_) => {}
            }
            if !seen.contains(&out) {
                seen.push(out);
            }
        }
        Ok(ScheduleReport {
            runs,
            difference,
            counter_difference,
            distinct_outputs: seen.len(),
            multisets: self
                .resources
                .iter()
                .filter(|r| r.uav && r.compare == Compare::Multiset)
                .map(|r| r.name.clone())
                .collect(),
        })
    }

    /// [`Job::outputs`] as schedules are compared: a [`Compare::Multiset`]
    /// resource's elements sorted (a structure of a structured view, else a
    /// word), so that their order does not count.
    fn compared_outputs(&self) -> Vec<(String, Vec<u32>)> {
        let mut out = self.outputs();
        for (name, words) in &mut out {
            let Some(r) = self.resources.iter().find(|r| &r.name == name) else {
                continue;
            };
            if r.compare == Compare::Multiset {
                let k = match r.view {
                    View::Structured(stride) => (stride as usize / 4).max(1),
                    _ => 1,
                };
                let mut elements: Vec<&[u32]> = words.chunks(k).collect();
                elements.sort_unstable();
                *words = elements.concat();
            }
        }
        out
    }

    /// Every UAV's hidden counter, in name order.
    fn counters(&self) -> Vec<(String, u32)> {
        self.resources
            .iter()
            .filter(|r| r.uav)
            .map(|r| {
                let c = r.data().counter().load(sim_mem::sync::Ordering::Relaxed);
                (r.name.clone(), c)
            })
            .collect()
    }

    /// Run the steps of `range`, pushing each one's report to `reports` as it ends;
    /// with `turns`, holding it around each dispatch on the worker pool
    /// ([`Job::run_partial_taking_turns`]).
    fn run_steps(
        &self,
        options: &DispatchOptions,
        mut checkers: Option<&mut Checkers>,
        turns: Option<&std::sync::Mutex<()>>,
        reports: &mut Vec<StepReport>,
        range: std::ops::Range<usize>,
    ) -> Result<(), JobError> {
        let steps = self.steps.iter().enumerate();
        for (i, step) in steps.skip(range.start).take(range.len()) {
            // the cancellation token stops the run between steps too, not
            // only inside a dispatch (a `set` or `expect` can take seconds)
            if options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                return Err(JobError::Cancelled { step: i });
            }
            let err = |message: String| JobError::Spec {
                at: None,
                path: self.path.clone(),
                key: format!("steps[{i}]"),
                message,
            };
            match step {
                Step::Dispatch {
                    groups,
                    kernel,
                    shader,
                } => {
                    let kernel = &self.kernels[*kernel];
                    let groups = match *groups {
                        Groups::Direct(g) => g,
                        Groups::Indirect { args, offset } => kernel
                            .indirect_groups(&self.resources[args].storage, offset)
                            .map_err(|e| err(e.to_string()))?,
                    };
                    let checker = match checkers.as_deref_mut() {
                        Some(c) => {
                            let c = c.for_step(*shader, kernel);
                            if self.several {
                                let name = &self.shaders[*shader].name;
                                c.set_step(&format!("steps[{i}] (shader '{name}')"));
                            }
                            Some(c)
                        }
                        None => None,
                    };
                    let on_pool = checker.is_none()
                        && options.schedule.is_none()
                        && groups.iter().map(|&g| u64::from(g)).product::<u64>() > 1;
                    // (a poisoned lock guards nothing: a panicking job's turn is over)
                    let _turn = turns
                        .filter(|_| on_pool)
                        .map(|t| t.lock().unwrap_or_else(|p| p.into_inner()));
                    let start = Instant::now();
                    let d = kernel
                        .run(groups, options, checker)
                        .map_err(|source| JobError::Dispatch { step: i, source })?;
                    let (stats, profile) = (d.stats, d.profile);
                    reports.push(StepReport::Dispatch {
                        shader: self.shaders[*shader].name.clone(),
                        groups,
                        stats,
                        elapsed: start.elapsed(),
                        profile: profile.map(Box::new),
                        messages: Box::new(d.messages),
                    });
                }
                Step::Copy(c) => {
                    let name = |r: usize| &self.resources[r].name;
                    let storage = |r: usize| &self.resources[r].storage;
                    let (what, done) = match *c {
                        CopyCommand::Resource { from, to } => (
                            format!("copy {} -> {}", name(from), name(to)),
                            storage(to).copy_from(storage(from)),
                        ),
                        CopyCommand::Bytes {
                            from,
                            to,
                            src_offset,
                            dst_offset,
                            bytes,
                        } => (
                            format!(
                                "copy_region {} bytes {src_offset}..{} -> {} at byte {dst_offset}",
                                name(from),
                                src_offset + bytes,
                                name(to)
                            ),
                            storage(to).copy_region(dst_offset, storage(from), src_offset, bytes),
                        ),
                        CopyCommand::Texels {
                            from,
                            to,
                            src,
                            dst,
                            src_box,
                            at,
                        } => (
                            format!(
                                "copy_region {} mip {} slice {} -> {} mip {} slice {} at {:?}",
                                name(from),
                                src.mip,
                                src.slice,
                                name(to),
                                dst.mip,
                                dst.slice,
                                at
                            ),
                            storage(to).copy_texture_region(dst, at, storage(from), src, src_box),
                        ),
                        CopyCommand::StructureCount { from, to, offset } => (
                            format!(
                                "copy_structure_count {} -> {} at byte {offset}",
                                name(from),
                                name(to)
                            ),
                            storage(to).copy_structure_count(offset, storage(from)),
                        ),
                    };
                    done.map_err(|e| err(e.to_string()))?;
                    reports.push(StepReport::Copy { what });
                }
                Step::Set {
                    resource,
                    content,
                    sub,
                    counter,
                    layout,
                } => {
                    let r = &self.resources[*resource];
                    let program = self.shaders[*layout].shader.program();
                    let err = |message: String| JobError::Spec {
                        at: None,
                        path: self.path.clone(),
                        key: format!("steps[{i}].set"),
                        message,
                    };
                    if let Some(c) = content {
                        if r.texture().is_some() {
                            let w = texture_writes(c, *sub, r, program, &self.base).map_err(err)?;
                            write_texture(r, w).map_err(err)?;
                        } else {
                            let words = match &c.fields {
                                // the variables given change, the others keep their values
                                Some(fields) => cbuffer_fields_over(fields, program, r)
                                    .map_err(|m| err(content_key("", m).1))?,
                                None => generate(c, r.data().len_words(), program, r, &self.base)
                                    .map_err(err)?,
                            };
                            r.data()
                                .write_words(0, &words)
                                .map_err(|e| err(e.to_string()))?;
                        }
                    }
                    if let Some(v) = counter {
                        r.data()
                            .counter()
                            .store(*v, sim_mem::sync::Ordering::Relaxed);
                    }
                    reports.push(StepReport::Set {
                        resource: r.name.clone(),
                    });
                }
                Step::Expect(e) => reports.push(self.check(e, i)?),
            }
        }
        Ok(())
    }

    fn check(&self, e: &Expect, step: usize) -> Result<StepReport, JobError> {
        let r = &self.resources[e.resource];
        let program = self.shaders[e.layout].shader.program();
        let spec = |m: String| JobError::Spec {
            at: None,
            path: self.path.clone(),
            key: format!("steps[{step}].expect"),
            message: m,
        };
        // one subresource: its bytes as words, and the expected ones
        let subresource = match (e.sub, &e.check, r.texture()) {
            (Some(s), Check::Words { content, .. }, Some(t)) => {
                let words = |bytes: &[u8]| -> Vec<u32> {
                    bytes
                        .chunks(4)
                        .map(|c| {
                            let mut w = [0u8; 4];
                            w[..c.len()].copy_from_slice(c);
                            u32::from_le_bytes(w)
                        })
                        .collect()
                };
                let got = words(&t.read_subresource(s.mip, s.slice));
                let expected =
                    match texture_writes(content, Some(s), r, program, &self.base).map_err(spec)? {
                        TexWrite::Subresources(subs) => {
                            subs.first().map(|(_, b)| words(b)).unwrap_or_default()
                        }
                        TexWrite::Words(w) => w,
                    };
                Some((got, expected))
            }
            _ => None,
        };
        let got = match e.check {
            Check::Png { .. } => Vec::new(), // compared texel by texel
            _ if subresource.is_some() => Vec::new(),
            _ => {
                let mut words = r.data().to_words();
                if let Some(range) = &e.words {
                    words.truncate(range.end);
                    words.drain(..range.start);
                }
                words
            }
        };
        // mismatches name the resource's own word index
        let base_index = e.words.as_ref().map_or(0, |w| w.start);
        let scalar = |mismatch: bool, expected: u32, got: u32| StepReport::Expect {
            what: e.text.clone(),
            mismatches: mismatch as usize,
            first: if mismatch {
                vec![Mismatch {
                    index: 0,
                    expected: expected.to_string(),
                    got: got.to_string(),
                }]
            } else {
                vec![]
            },
        };
        Ok(match &e.check {
            Check::SumU32(v) => {
                let s = got.iter().fold(0u32, |a, &b| a.wrapping_add(b));
                scalar(s != *v, *v, s)
            }
            Check::MinU32(v) => {
                let m = got.iter().copied().min().unwrap_or(0);
                scalar(m != *v, *v, m)
            }
            Check::MaxU32(v) => {
                let m = got.iter().copied().max().unwrap_or(0);
                scalar(m != *v, *v, m)
            }
            Check::Counter(v) => {
                let c = r.data().counter().load(sim_mem::sync::Ordering::Relaxed);
                scalar(c != *v, *v, c)
            }
            Check::Png { path, tolerance } => {
                let (mismatches, first) = compare_png(r, &self.base.join(path), *tolerance)
                    .map_err(|m| JobError::Spec {
                        at: None,
                        path: self.path.clone(),
                        key: format!("steps[{step}].expect"),
                        message: m,
                    })?;
                StepReport::Expect {
                    what: e.text.clone(),
                    mismatches,
                    first,
                }
            }
            Check::Words { content, ulps, abs } => {
                let (got, expected) = match subresource {
                    Some(pair) => pair,
                    None => {
                        let expected =
                            generate(content, got.len(), program, r, &self.base).map_err(spec)?;
                        (got, expected)
                    }
                };
                let npy = content.file.as_ref().is_some_and(|f| crate::npy::is_npy(f));
                let float = content.is_float() || (npy && (*ulps > 0 || abs.is_some()));
                let mut first = Vec::new();
                let mut count = 0;
                for (i, (&want, &have)) in expected.iter().zip(&got).enumerate() {
                    let ok = if float {
                        f32_close(want, have, *ulps, *abs)
                    } else {
                        want == have
                    };
                    if !ok {
                        count += 1;
                        if first.len() < MISMATCHES_SHOWN {
                            let text = |v: u32| {
                                if float {
                                    format!("{:?} ({v:#010x})", f32::from_bits(v))
                                } else if content.i32.is_some() {
                                    (v as i32).to_string()
                                } else {
                                    v.to_string()
                                }
                            };
                            first.push(Mismatch {
                                index: base_index + i,
                                expected: text(want),
                                got: text(have),
                            });
                        }
                    }
                }
                StepReport::Expect {
                    what: e.text.clone(),
                    mismatches: count,
                    first,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests;

/// Load the shader `spec` (`prefix`: `""`, or `shaders.NAME.` for its keys
/// in errors): the shader, its path, and the files an HLSL shader includes.
fn load_shader(
    spec: &ShaderSpec,
    prefix: &str,
    path: &Path,
    base: &Path,
    load: &LoadOptions,
    compile: &CompileOptions,
) -> Result<(Shader, PathBuf, Vec<PathBuf>), JobError> {
    let spec_err = |key: String, message: String| JobError::Spec {
        at: None,
        path: path.to_owned(),
        key: format!("{prefix}{key}"),
        message,
    };
    if spec.shader.as_os_str().is_empty() {
        return Err(spec_err(
            "shader".into(),
            "names no file: give the .dxbc, .cso, .asm or .hlsl to run".into(),
        ));
    }
    let shader_path = base.join(&spec.shader);
    let mut included: Vec<PathBuf> = Vec::new();
    // the API's errors as the job's: the shader file named
    let shader_err = |e: ApiError| match e {
        ApiError::Compile(c) => JobError::Compile(c),
        ApiError::Load { source, .. } => JobError::Shader {
            path: shader_path.clone(),
            source,
        },
        ApiError::Io { path, source } => JobError::Io { path, source },
        other => spec_err("shader".into(), other.to_string()),
    };
    let mut shader = if compiler::is_hlsl(&shader_path) {
        let req = hlsl_request(spec, &shader_path, base).map_err(|(k, m)| spec_err(k, m))?;
        let shader = Shader::compile(&req, load, compile).map_err(shader_err)?;
        // the files it includes are inputs too (outputs must not overwrite them)
        if let Ok(source) = crate::files::read_input(&shader_path) {
            included = compiler::scan_includes(&shader_path, &source, &req.include_dirs)
                .into_iter()
                .filter_map(|i| i.resolved)
                .collect();
        }
        shader
    } else {
        let given = [
            ("entry", spec.entry.is_some()),
            ("profile", spec.profile.is_some()),
            ("defines", spec.defines.is_some()),
            ("include_dirs", spec.include_dirs.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
            return Err(spec_err(
                (*key).into(),
                format!(
                    "entry, profile, defines and include_dirs apply to HLSL shaders only \
                     (shader = \"{}\" is not a .hlsl file)",
                    spec.shader.display()
                ),
            ));
        }
        let bytes = crate::files::read_input(&shader_path).map_err(|source| JobError::Io {
            path: shader_path.clone(),
            source,
        })?;
        let name = shader_path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        Shader::from_bytes(bytes, &name, load).map_err(shader_err)?
    };
    match (
        &spec.class_instances,
        shader.program().unbound_interface_slot(),
    ) {
        (Some(tables), _) => shader.bind_class_instances(tables).map_err(|e| {
            let m = match e {
                ApiError::Shader { message, .. } => message,
                other => other.to_string(),
            };
            spec_err("class_instances".into(), m)
        })?,
        (None, Some(_)) => {
            let slots: u32 = shader
                .program()
                .interfaces
                .iter()
                .map(|i| i.array_len)
                .sum();
            return Err(spec_err(
                "class_instances".into(),
                format!(
                    "the shader calls through {slots} interface slot(s); give class_instances = [ft#, …], one function table per slot"
                ),
            ));
        }
        (None, None) => {}
    }
    Ok((shader, shader_path, included))
}

/// `[check] allow`'s rules, each kind a known one and each resource one
/// of the job's or a slot; `Err` is the key and why.
fn allow_rules(
    check: Option<&schema::CheckSpec>,
    resources: &[JobResource],
) -> Result<Vec<Allow>, (String, String)> {
    let rules = check.map(|c| c.allow.as_slice()).unwrap_or_default();
    let mut out = Vec::new();
    for (i, a) in rules.iter().enumerate() {
        let Some(&kind) = FindingKind::ALL.iter().find(|k| k.name() == a.kind) else {
            let names = FindingKind::ALL.map(FindingKind::name).join(", ");
            return Err((
                format!("check.allow[{i}].kind"),
                format!("'{}' is not a kind of finding (they are: {names})", a.kind),
            ));
        };
        if let Some(r) = &a.resource {
            let slot = r.len() > 1
                && matches!(r.as_bytes()[0].to_ascii_lowercase(), b'u' | b't' | b'g')
                && r[1..].bytes().all(|c| c.is_ascii_digit());
            if !slot && !resources.iter().any(|x| &x.name == r) {
                let names: Vec<&str> = resources.iter().map(|x| x.name.as_str()).collect();
                return Err((
                    format!("check.allow[{i}].resource"),
                    format!(
                        "'{r}' is neither a resource of the job ({}) nor a slot (u0, t1, g0)",
                        names.join(", ")
                    ),
                ));
            }
        }
        out.push(Allow {
            kind,
            resource: a.resource.clone(),
        });
    }
    Ok(out)
}

/// The checkers of a checked run: one per shader, which all its dispatch
/// steps share (each names its UAVs by the resources it binds).
struct Checkers {
    checks: CheckOptions,
    allow: Vec<Allow>,
    by_shader: Vec<Option<Checker>>,
}

impl Checkers {
    fn for_step(&mut self, shader: usize, kernel: &Kernel) -> &mut Checker {
        let (checks, allow) = (self.checks, &self.allow);
        let c = self.by_shader[shader].get_or_insert_with(|| {
            let mut c = kernel.checker(checks);
            c.set_allow(allow.clone());
            c
        });
        kernel.name_resources(c);
        c
    }

    /// Every shader's findings, errors first; the suppressed ones; the
    /// source markers that could not be read.
    fn into_findings(self) -> (Vec<Finding>, Vec<Suppressed>, Vec<String>) {
        let (mut all, mut suppressed, mut problems) = (Vec::new(), Vec::new(), Vec::new());
        for c in self.by_shader.into_iter().flatten() {
            suppressed.extend_from_slice(c.suppressed());
            problems.extend_from_slice(c.marker_problems());
            all.extend(c.into_findings());
        }
        all.sort_by_key(Finding::severity);
        (all, suppressed, problems)
    }
}
