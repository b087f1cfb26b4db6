//! Job files: a TOML description of a shader, its resources and a sequence
//! of steps (dispatches, re-initialisations, expectations), run by
//! `sm5sim run`. The schema is in the README ("Job files").
//!
//! Loading checks everything before anything runs: the shader loads, every
//! resource resolves to a slot whose declaration matches its view, every slot
//! the shader declares is bound, every init and expectation fits its resource.
//! Errors are [`JobError`]s naming the file and the TOML key.

use crate::compiler::{self, CompileError, CompileOptions, Compiled, HlslRequest};
use serde::Deserialize;
use sim_core::program::{BufferDeclKind, Program};
use sim_core::rdef::InputType;
use sim_core::{LoadError, LoadOptions};
use sim_mem::{Bindings, Buffer, BufferView, ChannelKind, Format, MemError};
use sim_sched::{dispatch, DispatchError, DispatchOptions, DispatchStats};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
/// stands in `text`: the deepest part of the path that exists.
fn locate(text: &str, key: &str) -> Option<TextPosition> {
    let doc = toml_edit::ImDocument::parse(text.to_string()).ok()?;
    let mut span = None;
    let mut item: &toml_edit::Item = doc.as_item();
    for part in key.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let table = item.as_table_like()?;
        let (k, next) = table.get_key_value(name)?;
        span = k.span().or(span);
        item = next;
        if let Some(i) = index {
            item = match item {
                toml_edit::Item::ArrayOfTables(a) => {
                    let t = a.get(i)?;
                    span = t.span().or(span);
                    // an array-of-tables element is reached as a table
                    return position(text, span?.start).map(|p| {
                        let rest: Vec<&str> = key.splitn(2, ']').collect();
                        match rest
                            .get(1)
                            .map(|r| r.trim_start_matches('.'))
                            .filter(|r| !r.is_empty())
                        {
                            Some(sub) => t
                                .get_key_value(sub.split('.').next().unwrap_or(sub))
                                .and_then(|(k, _)| k.span())
                                .and_then(|s| position(text, s.start))
                                .unwrap_or(p),
                            None => p,
                        }
                    });
                }
                other => other.get(i)?,
            };
        }
    }
    position(text, span?.start)
}

fn position(text: &str, offset: usize) -> Option<TextPosition> {
    let before = text.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    let line_text = text[line_start..].lines().next().unwrap_or("");
    Some(TextPosition {
        line,
        column,
        excerpt: format!("{line_text}\n{}^", " ".repeat(column - 1)),
    })
}

// ---------------------------------------------------------------------------
// Schema

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JobFile {
    shader: PathBuf,
    /// HLSL only: entry point (default `main`).
    entry: Option<String>,
    /// HLSL only: target profile (default `cs_5_0`).
    profile: Option<String>,
    /// HLSL only: `NAME = "VALUE"` macros.
    defines: Option<toml::Table>,
    /// HLSL only: include directories, relative to the job file.
    include_dirs: Option<Vec<PathBuf>>,
    /// Class linkage: the function table (`ft#`) of the class instance bound
    /// to each interface slot, as D3D's `SetShader` binds class instances.
    class_instances: Option<Vec<u32>>,
    #[serde(default)]
    resources: BTreeMap<String, ResourceSpec>,
    #[serde(default)]
    steps: Vec<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourceSpec {
    slot: Option<String>,
    view: Option<String>,
    stride: Option<u32>,
    format: Option<String>,
    elements: Option<u64>,
    size_bytes: Option<u64>,
    init: Option<toml::Table>,
    counter: Option<u32>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct RandomU32 {
    seed: u64,
    #[serde(default)]
    min: u32,
    #[serde(default = "u32_max")]
    max: u32,
}

fn u32_max() -> u32 {
    u32::MAX
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct RandomF32 {
    seed: u64,
    #[serde(default)]
    min: f64,
    #[serde(default = "one")]
    max: f64,
}

fn one() -> f64 {
    1.0
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct IotaU32 {
    #[serde(default)]
    start: u32,
    #[serde(default = "one_u32")]
    step: u32,
}

fn one_u32() -> u32 {
    1
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct IotaF32 {
    #[serde(default)]
    start: f32,
    #[serde(default = "one_f32")]
    step: f32,
}

fn one_f32() -> f32 {
    1.0
}

/// One way to give a resource's contents: exactly one field is set.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Content {
    u32: Option<Vec<u32>>,
    i32: Option<Vec<i32>>,
    f32: Option<Vec<f32>>,
    fill_u32: Option<u32>,
    fill_f32: Option<f32>,
    iota_u32: Option<IotaU32>,
    iota_f32: Option<IotaF32>,
    random_u32: Option<RandomU32>,
    random_f32: Option<RandomF32>,
    file: Option<PathBuf>,
    fields: Option<toml::Table>,
}

impl Content {
    fn count(&self) -> usize {
        [
            self.u32.is_some(),
            self.i32.is_some(),
            self.f32.is_some(),
            self.fill_u32.is_some(),
            self.fill_f32.is_some(),
            self.iota_u32.is_some(),
            self.iota_f32.is_some(),
            self.random_u32.is_some(),
            self.random_f32.is_some(),
            self.file.is_some(),
            self.fields.is_some(),
        ]
        .iter()
        .filter(|&&b| b)
        .count()
    }

    /// Whether the words are floats (for comparisons with a tolerance).
    fn is_float(&self) -> bool {
        self.f32.is_some()
            || self.fill_f32.is_some()
            || self.iota_f32.is_some()
            || self.random_f32.is_some()
    }

    /// Number of words this content has by itself (lists and files), if any.
    fn natural_words(&self, base: &Path) -> Result<Option<usize>, String> {
        Ok(if let Some(v) = &self.u32 {
            Some(v.len())
        } else if let Some(v) = &self.i32 {
            Some(v.len())
        } else if let Some(v) = &self.f32 {
            Some(v.len())
        } else if let Some(f) = &self.file {
            let p = base.join(f);
            let len = std::fs::metadata(&p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .len();
            if len % 4 != 0 {
                return Err(format!(
                    "{}: {len} bytes is not a whole number of 32-bit words",
                    p.display()
                ));
            }
            Some((len / 4) as usize)
        } else {
            None
        })
    }
}

// ---------------------------------------------------------------------------
// Generators

/// The SplitMix64 generator of job files: `state += 0x9E3779B97F4A7C15;
/// z = state; z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) *
/// 0x94D049BB133111EB; z ^= z>>31` (all wrapping), one step per 32-bit word,
/// whose value is the high 32 bits of z.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 32-bit value.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 32) as u32
    }
}

/// `random_u32`: `min + ((u as u64 * (max - min + 1)) >> 32)` for each generated `u`.
pub fn random_u32_words(seed: u64, min: u32, max: u32, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    let range = max as u64 - min as u64 + 1;
    (0..n)
        .map(|_| min + ((g.next_u32() as u64 * range) >> 32) as u32)
        .collect()
}

/// `random_f32`: `min + (u >> 8) · 2⁻²⁴ · (max − min)`, computed in double
/// precision and rounded to the nearest f32, for each generated `u`.
pub fn random_f32_words(seed: u64, min: f64, max: f64, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let u = (g.next_u32() >> 8) as f64 * (1.0 / 16_777_216.0);
            ((min + u * (max - min)) as f32).to_bits()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The loaded job

/// Which register file a resource is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SlotKind {
    /// `t#`
    Srv,
    /// `u#`
    Uav,
    /// `cb#` (also written `b#`)
    ConstantBuffer,
}

/// A resource slot such as `t0`, `u3`, `cb1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    /// register file
    pub kind: SlotKind,
    /// register number
    pub index: u32,
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = match self.kind {
            SlotKind::Srv => "t",
            SlotKind::Uav => "u",
            SlotKind::ConstantBuffer => "cb",
        };
        write!(f, "{p}{}", self.index)
    }
}

fn parse_slot(s: &str) -> Option<Slot> {
    let s = s.trim().to_ascii_lowercase();
    let (kind, n) = if let Some(n) = s.strip_prefix("cb") {
        (SlotKind::ConstantBuffer, n)
    } else if let Some(n) = s.strip_prefix('b') {
        (SlotKind::ConstantBuffer, n)
    } else if let Some(n) = s.strip_prefix('t') {
        (SlotKind::Srv, n)
    } else if let Some(n) = s.strip_prefix('u') {
        (SlotKind::Uav, n)
    } else {
        return None;
    };
    Some(Slot {
        kind,
        index: n.parse().ok()?,
    })
}

/// How a resource is viewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// byte-address
    Raw,
    /// structured with this stride in bytes
    Structured(u32),
    /// constant buffer
    Constant,
    /// typed buffer of this DXGI format
    Typed(Format),
}

/// A resource of a job.
#[derive(Debug)]
pub struct Resource {
    /// its key in `[resources]`
    pub name: String,
    /// where it is bound
    pub slot: Slot,
    /// how it is viewed
    pub view: View,
    /// its contents
    pub buffer: Buffer,
}

#[derive(Debug, Clone)]
enum Step {
    Dispatch([u32; 3]),
    Set {
        resource: usize,
        content: Option<Content>,
        counter: Option<u32>,
    },
    Expect(Expect),
}

#[derive(Debug, Clone)]
struct Expect {
    resource: usize,
    check: Check,
    text: String,
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
}

/// A job ready to run: the shader loaded, resources created and initialised.
#[derive(Debug)]
pub struct Job {
    /// the job file
    pub path: PathBuf,
    /// the shader
    pub program: Program,
    /// how an HLSL shader was compiled (None for DXBC and listings)
    pub compiled: Option<Compiled>,
    /// resources in name order
    pub resources: Vec<Resource>,
    /// Things that are legal but probably not meant, e.g. a constant buffer
    /// smaller than the shader declares (reads past it return 0, FS §7.5).
    pub warnings: Vec<String>,
    steps: Vec<Step>,
    base: PathBuf,
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

/// The outcome of one step.
#[derive(Debug, Clone)]
pub enum StepReport {
    /// A dispatch ran.
    Dispatch {
        /// group counts
        groups: [u32; 3],
        /// counters
        stats: DispatchStats,
        /// wall-clock time
        elapsed: Duration,
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
        !matches!(self, StepReport::Expect { mismatches, .. } if *mismatches > 0)
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
        let text = std::fs::read_to_string(path).map_err(|source| JobError::Io {
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
        Self::parse(text, path, base, load, compile).map_err(|e| match e {
            JobError::Spec {
                path,
                key,
                message,
                at: None,
            } => JobError::Spec {
                at: locate(text, &key),
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
            message: e.to_string(),
        })?;
        let shader_path = base.join(&file.shader);
        let (bytes, compiled) = if compiler::is_hlsl(&shader_path) {
            let req = hlsl_request(&file, &shader_path, base).map_err(|(k, m)| spec_err(k, m))?;
            let c = compiler::compile(&req, compile)?;
            (c.dxbc.clone(), Some(c))
        } else {
            let given = [
                ("entry", file.entry.is_some()),
                ("profile", file.profile.is_some()),
                ("defines", file.defines.is_some()),
                ("include_dirs", file.include_dirs.is_some()),
            ];
            if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
                return Err(spec_err(
                    (*key).into(),
                    format!(
                        "entry, profile, defines and include_dirs apply to HLSL shaders only \
                         (shader = \"{}\" is not a .hlsl file)",
                        file.shader.display()
                    ),
                ));
            }
            let bytes = std::fs::read(&shader_path).map_err(|source| JobError::Io {
                path: shader_path.clone(),
                source,
            })?;
            (bytes, None)
        };
        let mut program =
            Program::from_file_bytes(&bytes, load).map_err(|source| JobError::Shader {
                path: shader_path.clone(),
                source,
            })?;
        match (&file.class_instances, program.unbound_interface_slot()) {
            (Some(tables), _) => program
                .bind_class_instances(tables)
                .map_err(|e| spec_err("class_instances".into(), e.to_string()))?,
            (None, Some(_)) => {
                let slots: u32 = program.interfaces.iter().map(|i| i.array_len).sum();
                return Err(spec_err(
                    "class_instances".into(),
                    format!(
                        "the shader calls through {slots} interface slot(s); give class_instances = [ft#, …], one function table per slot"
                    ),
                ));
            }
            (None, None) => {}
        }

        let mut resources = Vec::new();
        for (name, spec) in &file.resources {
            let key = format!("resources.{name}");
            let r = resolve_resource(name, spec, &program, base).map_err(|(k, m)| {
                spec_err(
                    if k.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}.{k}")
                    },
                    m,
                )
            })?;
            if let Some(other) = resources.iter().find(|o: &&Resource| o.slot == r.slot) {
                return Err(spec_err(
                    key,
                    format!("slot {} is already bound to '{}'", r.slot, other.name),
                ));
            }
            resources.push(r);
        }
        // Every slot the shader declares must be bound.
        let declared = program
            .srvs
            .iter()
            .map(|d| Slot {
                kind: SlotKind::Srv,
                index: d.slot,
            })
            .chain(program.uavs.iter().map(|d| Slot {
                kind: SlotKind::Uav,
                index: d.slot,
            }))
            .chain(program.constant_buffers.iter().map(|c| Slot {
                kind: SlotKind::ConstantBuffer,
                index: c.slot,
            }));
        for slot in declared {
            if !resources.iter().any(|r| r.slot == slot) {
                let named = rdef_name(&program, slot)
                    .map(|n| format!(" ('{n}')"))
                    .unwrap_or_default();
                return Err(spec_err(
                    "resources".into(),
                    format!("the shader declares {slot}{named} but the job binds nothing there"),
                ));
            }
        }

        let find = |key: &str, name: &str| -> Result<usize, JobError> {
            resources
                .iter()
                .position(|r| r.name == name || r.slot.to_string() == name.to_ascii_lowercase())
                .ok_or_else(|| spec_err(key.into(), format!("no resource named '{name}'")))
        };
        let mut steps = Vec::new();
        for (i, table) in file.steps.iter().enumerate() {
            let key = format!("steps[{i}]");
            let kinds: Vec<&String> = table.keys().collect();
            if kinds.len() != 1 {
                let found: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
                return Err(spec_err(
                    key,
                    format!(
                        "each step has exactly one of dispatch, set, expect (found: {})",
                        if found.is_empty() {
                            "nothing".into()
                        } else {
                            found.join(", ")
                        }
                    ),
                ));
            }
            let Some((kind, value)) = table.iter().next() else {
                continue; // unreachable: exactly one key was checked above
            };
            let key = format!("{key}.{kind}");
            match kind.as_str() {
                "dispatch" => {
                    let g: [u32; 3] = value.clone().try_into().map_err(|_| {
                        spec_err(key.clone(), "expected [x, y, z] group counts".into())
                    })?;
                    steps.push(Step::Dispatch(g));
                }
                "set" | "expect" => {
                    let mut t = value
                        .as_table()
                        .cloned()
                        .ok_or_else(|| spec_err(key.clone(), "expected an inline table".into()))?;
                    let rname = match t.remove("resource") {
                        Some(toml::Value::String(s)) => s,
                        _ => return Err(spec_err(key, "needs resource = \"NAME\"".into())),
                    };
                    let ri = find(&key, &rname)?;
                    let counter =
                        take_u32(&mut t, "counter").map_err(|m| spec_err(key.clone(), m))?;
                    if kind == "set" {
                        let content = if t.is_empty() {
                            None
                        } else {
                            let c = parse_content(t).map_err(|m| spec_err(key.clone(), m))?;
                            check_content(&c, &resources[ri], &program, base, true)
                                .map_err(|m| spec_err(key.clone(), m))?;
                            Some(c)
                        };
                        if content.is_none() && counter.is_none() {
                            return Err(spec_err(key, "set needs contents or counter".into()));
                        }
                        steps.push(Step::Set {
                            resource: ri,
                            content,
                            counter,
                        });
                    } else {
                        let text = format!("{rname} {}", value_text(value));
                        let check =
                            parse_check(t, counter).map_err(|m| spec_err(key.clone(), m))?;
                        if let Check::Words { content, .. } = &check {
                            check_content(content, &resources[ri], &program, base, false)
                                .map_err(|m| spec_err(key.clone(), m))?;
                        }
                        steps.push(Step::Expect(Expect {
                            resource: ri,
                            check,
                            text,
                        }));
                    }
                }
                other => return Err(spec_err(key, format!("unknown step kind '{other}'"))),
            }
        }
        let mut warnings = Vec::new();
        for r in resources.iter().filter(|r| r.view == View::Constant) {
            if let Some(decl) = program
                .constant_buffers
                .iter()
                .find(|c| c.slot == r.slot.index)
            {
                let declared = decl.size_vec4 as usize * 16;
                if r.buffer.len_bytes() < declared {
                    warnings.push(format!(
                        "resources.{}: {} bytes bound to {}, which the shader declares as {declared} bytes; reads past the end return 0",
                        r.name,
                        r.buffer.len_bytes(),
                        r.slot
                    ));
                }
            }
        }
        Ok(Job {
            path: path.to_owned(),
            program,
            compiled,
            resources,
            warnings,
            steps,
            base: base.to_owned(),
        })
    }

    /// The resource called `name` (its key, or its slot such as `u0`).
    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.name == name || r.slot.to_string() == name.to_ascii_lowercase())
    }

    /// Run every step in order. Failed expectations do not stop the run; they
    /// are in the reports (see [`StepReport::passed`]).
    ///
    /// # Errors
    /// [`JobError::Dispatch`] when a dispatch is refused (its limits), or
    /// [`JobError::Io`] when a `set` reads a file that has gone.
    pub fn run(&self, options: &DispatchOptions) -> Result<Vec<StepReport>, JobError> {
        let mut reports = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::Dispatch(groups) => {
                    let start = Instant::now();
                    let cbs: Vec<(u32, Vec<u32>)> = self
                        .resources
                        .iter()
                        .filter(|r| r.view == View::Constant)
                        .map(|r| (r.slot.index, r.buffer.to_words()))
                        .collect();
                    let bindings = self.bindings(&cbs);
                    let stats = dispatch(&self.program, &bindings, *groups, options)
                        .map_err(|source| JobError::Dispatch { step: i, source })?;
                    reports.push(StepReport::Dispatch {
                        groups: *groups,
                        stats,
                        elapsed: start.elapsed(),
                    });
                }
                Step::Set {
                    resource,
                    content,
                    counter,
                } => {
                    let r = &self.resources[*resource];
                    if let Some(c) = content {
                        let words = generate(c, r.buffer.len_words(), &self.program, r, &self.base)
                            .map_err(|m| JobError::Spec {
                                at: None,
                                path: self.path.clone(),
                                key: format!("steps[{i}].set"),
                                message: m,
                            })?;
                        r.buffer
                            .write_words(0, &words)
                            .map_err(|e| JobError::Spec {
                                at: None,
                                path: self.path.clone(),
                                key: format!("steps[{i}].set"),
                                message: e.to_string(),
                            })?;
                    }
                    if let Some(v) = counter {
                        r.buffer
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
        Ok(reports)
    }

    fn bindings<'a>(&'a self, cbs: &'a [(u32, Vec<u32>)]) -> Bindings<'a> {
        let mut b = Bindings::default();
        for r in &self.resources {
            let i = r.slot.index as usize;
            let view = match r.view {
                View::Raw => BufferView::raw(&r.buffer),
                View::Structured(stride) => match BufferView::structured(&r.buffer, stride) {
                    Ok(v) => v,
                    Err(_) => continue, // strides are checked at load
                },
                View::Typed(f) => BufferView::typed(&r.buffer, f),
                View::Constant => continue,
            };
            let list = if r.slot.kind == SlotKind::Srv {
                &mut b.srvs
            } else {
                &mut b.uavs
            };
            if list.len() <= i {
                list.resize(i + 1, None);
            }
            list[i] = Some(view);
        }
        for (slot, words) in cbs {
            let i = *slot as usize;
            if b.constant_buffers.len() <= i {
                b.constant_buffers.resize(i + 1, None);
            }
            b.constant_buffers[i] = Some(words);
        }
        b
    }

    fn check(&self, e: &Expect, step: usize) -> Result<StepReport, JobError> {
        let r = &self.resources[e.resource];
        let got = r.buffer.to_words();
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
                let c = r.buffer.counter().load(sim_mem::sync::Ordering::Relaxed);
                scalar(c != *v, *v, c)
            }
            Check::Words { content, ulps, abs } => {
                let expected =
                    generate(content, got.len(), &self.program, r, &self.base).map_err(|m| {
                        JobError::Spec {
                            at: None,
                            path: self.path.clone(),
                            key: format!("steps[{step}].expect"),
                            message: m,
                        }
                    })?;
                let float = content.is_float();
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
                                index: i,
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

fn f32_close(want: u32, have: u32, ulps: u32, abs: Option<f64>) -> bool {
    if want == have {
        return true;
    }
    let (a, b) = (f32::from_bits(want), f32::from_bits(have));
    if a.is_nan() && b.is_nan() {
        return true;
    }
    if let Some(tol) = abs {
        if ((a as f64) - (b as f64)).abs() <= tol {
            return true;
        }
    }
    // distance in units in the last place, on the ordered integer line
    let key = |x: u32| {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7fff_ffff) as i64)
        } else {
            x as i64
        }
    };
    (key(want) - key(have)).unsigned_abs() <= ulps as u64
}

fn value_text(v: &toml::Value) -> String {
    let mut t = v.clone();
    if let Some(t) = t.as_table_mut() {
        t.remove("resource");
    }
    let s = t.to_string();
    if s.len() > 80 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(77).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

fn take_u32(t: &mut toml::Table, key: &str) -> Result<Option<u32>, String> {
    match t.remove(key) {
        None => Ok(None),
        Some(toml::Value::Integer(v)) => u32::try_from(v)
            .map(Some)
            .map_err(|_| format!("{key} = {v} does not fit a u32")),
        Some(other) => Err(format!("{key} must be an integer, not {other}")),
    }
}

fn parse_content(t: toml::Table) -> Result<Content, String> {
    let c: Content = toml::Value::Table(t)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    if c.count() != 1 {
        return Err("give exactly one of u32, i32, f32, fill_u32, fill_f32, iota_u32, iota_f32, random_u32, random_f32, file, fields".into());
    }
    Ok(c)
}

fn parse_check(mut t: toml::Table, counter: Option<u32>) -> Result<Check, String> {
    if let Some(c) = counter {
        return if t.is_empty() {
            Ok(Check::Counter(c))
        } else {
            Err("counter is checked on its own".into())
        };
    }
    for (key, make) in [
        ("sum_u32", Check::SumU32 as fn(u32) -> Check),
        ("min_u32", Check::MinU32),
        ("max_u32", Check::MaxU32),
    ] {
        if let Some(v) = take_u32(&mut t, key)? {
            return if t.is_empty() {
                Ok(make(v))
            } else {
                Err(format!("{key} is checked on its own"))
            };
        }
    }
    let ulps = take_u32(&mut t, "ulps")?.unwrap_or(0);
    let abs = match t.remove("abs") {
        None => None,
        Some(toml::Value::Float(f)) if f >= 0.0 => Some(f),
        Some(toml::Value::Integer(i)) if i >= 0 => Some(i as f64),
        Some(_) => return Err("abs must be a non-negative number".into()),
    };
    let content = parse_content(t)?;
    if (ulps > 0 || abs.is_some()) && !content.is_float() {
        return Err(
            "ulps and abs apply to float expectations (f32, fill_f32, iota_f32, random_f32)".into(),
        );
    }
    Ok(Check::Words {
        content: Box::new(content),
        ulps,
        abs,
    })
}

fn rdef_name(program: &Program, slot: Slot) -> Option<String> {
    let refl = program.reflection.as_ref()?;
    refl.bindings
        .iter()
        .find(|b| {
            b.bind_point == slot.index
                && match slot.kind {
                    SlotKind::ConstantBuffer => b.input_type == InputType::CBuffer,
                    SlotKind::Uav => b.input_type.is_uav(),
                    SlotKind::Srv => {
                        !b.input_type.is_uav()
                            && !matches!(b.input_type, InputType::CBuffer | InputType::Sampler)
                    }
                }
        })
        .map(|b| b.name.clone())
}

type KeyErr = (String, String);

fn resolve_resource(
    name: &str,
    spec: &ResourceSpec,
    program: &Program,
    base: &Path,
) -> Result<Resource, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    // Slot: given, or found by name in RDEF.
    let binding = program.reflection.as_ref().and_then(|r| r.binding(name));
    let slot = match (&spec.slot, binding) {
        (Some(s), _) => parse_slot(s).ok_or_else(|| e("slot", format!("'{s}' is not a slot like t0, u1, cb0")))?,
        (None, Some(b)) => Slot {
            kind: match b.input_type {
                InputType::CBuffer => SlotKind::ConstantBuffer,
                t if t.is_uav() => SlotKind::Uav,
                _ => SlotKind::Srv,
            },
            index: b.bind_point,
        },
        (None, None) => {
            return Err(e(
                "slot",
                format!("'{name}' is not a resource name in the shader's RDEF; give slot = \"t0\" (or u#, cb#)"),
            ))
        }
    };
    // View, checked against the shader's declaration.
    let declared = match slot.kind {
        SlotKind::Srv => program.srv(slot.index).map(|d| d.kind),
        SlotKind::Uav => program.uav(slot.index).map(|d| d.kind),
        SlotKind::ConstantBuffer => None,
    };
    let view = match spec.view.as_deref() {
        Some("typed") => View::Typed(typed_format(spec)?),
        Some("constant") => View::Constant,
        Some("raw") => View::Raw,
        Some("structured") => View::Structured(match (spec.stride, declared) {
            (Some(s), _) => s,
            (None, Some(BufferDeclKind::Structured { stride })) => stride,
            _ => {
                return Err(e(
                    "stride",
                    "a structured view needs stride = N (bytes)".into(),
                ))
            }
        }),
        Some(other) => {
            return Err(e(
                "view",
                format!("'{other}' is not raw, structured, typed or constant"),
            ))
        }
        None => match (slot.kind, declared) {
            (SlotKind::ConstantBuffer, _) => View::Constant,
            (_, Some(BufferDeclKind::Raw)) => View::Raw,
            (_, Some(BufferDeclKind::Structured { stride })) => {
                View::Structured(spec.stride.unwrap_or(stride))
            }
            (_, Some(BufferDeclKind::Typed { .. })) => View::Typed(typed_format(spec)?),
            (_, None) => {
                return Err(e(
                    "view",
                    format!("the shader does not declare {slot}; give view = ..."),
                ))
            }
        },
    };
    match (slot.kind, view, declared) {
        (SlotKind::ConstantBuffer, View::Constant, _) => {}
        (SlotKind::ConstantBuffer, _, _) | (_, View::Constant, _) => {
            return Err(e(
                "view",
                format!("constant views go with cb# slots (this is {slot})"),
            ))
        }
        (_, View::Raw, Some(BufferDeclKind::Structured { stride })) => {
            return Err(e(
                "view",
                format!("the shader declares {slot} structured with stride {stride}, not raw"),
            ))
        }
        (_, View::Structured(s), Some(BufferDeclKind::Raw)) => {
            return Err(e(
                "view",
                format!("the shader declares {slot} raw, not structured (stride {s})"),
            ))
        }
        (_, View::Structured(s), Some(BufferDeclKind::Structured { stride })) if s != stride => {
            return Err(e(
                "stride",
                format!("stride {s} differs from the shader's declared stride {stride} for {slot}"),
            ))
        }
        (_, View::Typed(f), Some(BufferDeclKind::Typed { return_types })) => {
            // Integer declarations need integer formats of the same signedness; float,
            // unorm and snorm declarations need non-integer formats (FS §5.2 view compatibility).
            let ok = match (return_types[0], f.kind()) {
                (4, k) => k == ChannelKind::Uint,
                (3, k) => k == ChannelKind::Sint,
                (_, k) => !matches!(k, ChannelKind::Uint | ChannelKind::Sint),
            };
            if !ok {
                let t = ["", "unorm", "snorm", "sint", "uint", "float"]
                    .get(return_types[0] as usize)
                    .unwrap_or(&"?");
                return Err(e(
                    "format",
                    format!(
                        "{} does not fit {slot}, which the shader declares as {t}",
                        f.name()
                    ),
                ));
            }
        }
        (_, View::Typed(_), Some(_))
        | (_, View::Raw | View::Structured(_), Some(BufferDeclKind::Typed { .. })) => {
            return Err(e(
                "view",
                format!("the shader declares {slot} {}", describe_decl(declared)),
            ))
        }
        _ => {}
    }
    if let View::Structured(s) = view {
        if s == 0 || s % 4 != 0 || s > 2048 {
            return Err(e("stride", MemError::BadStride(s).to_string()));
        }
    }
    if spec.format.is_some() && !matches!(view, View::Typed(_)) {
        return Err(e(
            "format",
            "formats belong to typed views (view = \"typed\")".into(),
        ));
    }
    if spec.counter.is_some() && slot.kind != SlotKind::Uav {
        return Err(e("counter", "only UAVs have a hidden counter".into()));
    }
    let content = match &spec.init {
        Some(t) => Some(parse_content(t.clone()).map_err(|m| e("init", m))?),
        None => None,
    };
    // Size.
    let element_bytes = match view {
        View::Raw => 4,
        View::Structured(s) => s as u64,
        View::Constant => 16,
        View::Typed(f) => f.size_bytes() as u64,
    };
    let size = match (spec.elements, spec.size_bytes) {
        (Some(_), Some(_)) => return Err(e("", "give elements or size_bytes, not both".into())),
        (Some(n), None) => n
            .checked_mul(element_bytes)
            .ok_or_else(|| e("elements", "too large".into()))?,
        (None, Some(b)) => b,
        (None, None) => {
            let natural = match &content {
                Some(c) => c.natural_words(base).map_err(|m| e("init", m))?,
                None => None,
            };
            match (natural, view) {
                (Some(w), _) => w as u64 * 4,
                (None, View::Constant) => constant_buffer_size(program, slot.index),
                _ => return Err(e("", "give elements = N or size_bytes = N".into())),
            }
        }
    };
    if size % 4 != 0 {
        return Err(e(
            "size_bytes",
            MemError::UnalignedSize(size as usize).to_string(),
        ));
    }
    const MAX_BYTES: u64 = 1 << 32;
    if size > MAX_BYTES {
        return Err(e(
            "",
            format!("{size} bytes is more than the 4 GiB a view can address"),
        ));
    }
    let buffer = Buffer::zeroed(size as usize).map_err(|m| e("", m.to_string()))?;
    let mut r = Resource {
        name: name.to_string(),
        slot,
        view,
        buffer,
    };
    if let Some(c) = &content {
        check_content(c, &r, program, base, true).map_err(|m| e("init", m))?;
        let words =
            generate(c, r.buffer.len_words(), program, &r, base).map_err(|m| e("init", m))?;
        r.buffer
            .write_words(0, &words)
            .map_err(|m| e("init", m.to_string()))?;
    }
    if let Some(c) = spec.counter {
        r.buffer
            .counter()
            .store(c, sim_mem::sync::Ordering::Relaxed);
    }
    r.name = name.to_string();
    Ok(r)
}

/// The compilation a job's HLSL shader asks for; include dirs are relative
/// to the job file. Errors are (TOML key, message).
fn hlsl_request(file: &JobFile, shader: &Path, base: &Path) -> Result<HlslRequest, KeyErr> {
    let mut req = HlslRequest::new(shader);
    for (key, value) in [("entry", &file.entry), ("profile", &file.profile)] {
        if let Some(v) = value {
            if v.is_empty() || v.chars().any(char::is_whitespace) {
                return Err((key.into(), format!("'{v}' is not a name")));
            }
        }
    }
    if let Some(e) = &file.entry {
        req.entry = e.clone();
    }
    if let Some(p) = &file.profile {
        req.profile = p.clone();
    }
    for (name, value) in file.defines.iter().flatten() {
        let key = format!("defines.{name}");
        if name.is_empty() || name.contains('=') || name.chars().any(char::is_whitespace) {
            return Err((key, format!("'{name}' is not a macro name")));
        }
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => u8::from(*b).to_string(),
            _ => {
                return Err((
                    key,
                    "expected a string (or a number or boolean), as in NAME = \"VALUE\"".into(),
                ))
            }
        };
        req.defines.insert(name.clone(), text);
    }
    req.include_dirs = file
        .include_dirs
        .iter()
        .flatten()
        .map(|d| base.join(d))
        .collect();
    Ok(req)
}

fn typed_format(spec: &ResourceSpec) -> Result<Format, KeyErr> {
    let name = spec.format.as_deref().ok_or_else(|| {
        (
            "format".to_string(),
            "a typed view needs format = \"R32_UINT\" (a DXGI format name)".to_string(),
        )
    })?;
    Format::from_name(name).ok_or_else(|| {
        let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
        (
            "format".to_string(),
            format!(
                "'{name}' is not a typed-buffer format (known: {})",
                known.join(", ")
            ),
        )
    })
}

fn describe_decl(d: Option<BufferDeclKind>) -> String {
    match d {
        Some(BufferDeclKind::Raw) => "raw".into(),
        Some(BufferDeclKind::Structured { stride }) => format!("structured with stride {stride}"),
        Some(BufferDeclKind::Typed { .. }) => "typed (give view = \"typed\" and format)".into(),
        None => "nothing".into(),
    }
}

fn constant_buffer_size(program: &Program, slot: u32) -> u64 {
    let declared = program
        .constant_buffers
        .iter()
        .find(|c| c.slot == slot)
        .map_or(0, |c| c.size_vec4 as u64 * 16);
    let reflected = program
        .reflection
        .as_ref()
        .and_then(|r| r.cbuffer_at(slot))
        .map_or(0, |c| (c.size as u64).div_ceil(16) * 16);
    declared.max(reflected)
}

/// Check that `c` fits resource `r` exactly (lists and files must have as many words).
fn check_content(
    c: &Content,
    r: &Resource,
    program: &Program,
    base: &Path,
    _init: bool,
) -> Result<(), String> {
    let words = r.buffer.len_words();
    if let Some(n) = c.natural_words(base)? {
        if n != words {
            return Err(format!(
                "{n} values given but '{}' holds {words} 32-bit words",
                r.name
            ));
        }
    }
    if let Some(rnd) = &c.random_u32 {
        if rnd.min > rnd.max {
            return Err(format!("random_u32: min {} > max {}", rnd.min, rnd.max));
        }
    }
    if let Some(rnd) = &c.random_f32 {
        if rnd.min.is_nan() || rnd.max.is_nan() || rnd.min > rnd.max {
            return Err("random_f32: needs min ≤ max".into());
        }
    }
    if c.fields.is_some() {
        if r.view != View::Constant {
            return Err("fields = {...} initialises constant buffers only".into());
        }
        generate(c, words, program, r, base)?;
    }
    Ok(())
}

/// The words of content `c` for a resource of `n` words.
fn generate(
    c: &Content,
    n: usize,
    program: &Program,
    r: &Resource,
    base: &Path,
) -> Result<Vec<u32>, String> {
    if let Some(v) = &c.u32 {
        return Ok(v.clone());
    }
    if let Some(v) = &c.i32 {
        return Ok(v.iter().map(|&x| x as u32).collect());
    }
    if let Some(v) = &c.f32 {
        return Ok(v.iter().map(|x| x.to_bits()).collect());
    }
    if let Some(v) = c.fill_u32 {
        return Ok(vec![v; n]);
    }
    if let Some(v) = c.fill_f32 {
        return Ok(vec![v.to_bits(); n]);
    }
    if let Some(i) = c.iota_u32 {
        return Ok((0..n as u32)
            .map(|k| i.start.wrapping_add(k.wrapping_mul(i.step)))
            .collect());
    }
    if let Some(i) = c.iota_f32 {
        return Ok((0..n)
            .map(|k| (i.start + k as f32 * i.step).to_bits())
            .collect());
    }
    if let Some(g) = c.random_u32 {
        return Ok(random_u32_words(g.seed, g.min, g.max, n));
    }
    if let Some(g) = c.random_f32 {
        return Ok(random_f32_words(g.seed, g.min, g.max, n));
    }
    if let Some(f) = &c.file {
        let p = base.join(f);
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() != n * 4 {
            return Err(format!(
                "{}: {} bytes, but the resource holds {} bytes",
                p.display(),
                bytes.len(),
                n * 4
            ));
        }
        return Ok(bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect());
    }
    if let Some(fields) = &c.fields {
        return cbuffer_fields(fields, n, program, r);
    }
    Err("no contents given".into())
}

/// `fields = { name = value }` for a constant buffer, placed by RDEF offsets.
/// Integers go into int/uint variables as is and into float variables as
/// floats; floats go into float variables only.
fn cbuffer_fields(
    fields: &toml::Table,
    n: usize,
    program: &Program,
    r: &Resource,
) -> Result<Vec<u32>, String> {
    let cb = program
        .reflection
        .as_ref()
        .and_then(|refl| refl.cbuffer_at(r.slot.index))
        .ok_or_else(|| {
            format!(
                "the shader has no reflection (RDEF) for {}; give u32 = [...] instead",
                r.slot
            )
        })?;
    let mut words = vec![0u32; n];
    for (name, value) in fields {
        let var = cb
            .variables
            .iter()
            .find(|v| &v.name == name)
            .ok_or_else(|| {
                let known: Vec<_> = cb.variables.iter().map(|v| v.name.as_str()).collect();
                format!(
                    "cbuffer {} has no variable '{name}' (it has: {})",
                    cb.name,
                    known.join(", ")
                )
            })?;
        // D3D_SVT_*: 1 bool, 2 int, 3 float, 19 uint
        let is_float = var.ty.base_type == 3;
        let values: Vec<&toml::Value> = match value {
            toml::Value::Array(a) => a.iter().collect(),
            v => vec![v],
        };
        if values.len() * 4 > var.size as usize {
            return Err(format!(
                "{name}: {} values do not fit its {} bytes",
                values.len(),
                var.size
            ));
        }
        for (k, v) in values.iter().enumerate() {
            let bits = match (v, is_float) {
                (toml::Value::Integer(i), true) => (*i as f32).to_bits(),
                (toml::Value::Float(f), true) => (*f as f32).to_bits(),
                (toml::Value::Integer(i), false) => {
                    if *i < i32::MIN as i64 || *i > u32::MAX as i64 {
                        return Err(format!("{name} = {i} does not fit 32 bits"));
                    }
                    *i as u32
                }
                (toml::Value::Boolean(b), false) => *b as u32,
                (other, _) => {
                    return Err(format!(
                        "{name}: {other} does not fit a {} variable",
                        if is_float { "float" } else { "integer" }
                    ))
                }
            };
            let w = var.offset as usize / 4 + k;
            *words.get_mut(w).ok_or_else(|| {
                format!("{name} lies past the end of the {}-byte buffer", n * 4)
            })? = bits;
        }
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference code):
        // 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u32(), 0xe220a839);
        assert_eq!(g.next_u32(), 0x6e789e6a);
        assert_eq!(g.next_u32(), 0x06c45d18);
    }

    #[test]
    fn random_ranges_are_inclusive_and_bounded() {
        let v = random_u32_words(7, 10, 12, 1000);
        assert!(v.iter().all(|&x| (10..=12).contains(&x)));
        assert!(v.contains(&10) && v.contains(&12));
        let f = random_f32_words(1, -1.0, 1.0, 1000);
        assert!(f.iter().all(|&x| (-1.0..1.0).contains(&f32::from_bits(x))));
        assert_eq!(random_u32_words(3, 0, u32::MAX, 4), {
            let mut g = SplitMix64::new(3);
            (0..4).map(|_| g.next_u32()).collect::<Vec<_>>()
        });
    }

    #[test]
    fn ulp_distance_crosses_zero() {
        assert!(f32_close(0x8000_0000, 0, 0, None));
        assert!(f32_close(1.0f32.to_bits(), 1.0f32.to_bits() + 2, 2, None));
        assert!(!f32_close(1.0f32.to_bits(), 1.0f32.to_bits() + 3, 2, None));
        assert!(f32_close(1.0f32.to_bits(), 1.1f32.to_bits(), 0, Some(0.2)));
    }

    #[test]
    fn slots_parse() {
        assert_eq!(
            parse_slot("u3"),
            Some(Slot {
                kind: SlotKind::Uav,
                index: 3
            })
        );
        assert_eq!(
            parse_slot("b1"),
            Some(Slot {
                kind: SlotKind::ConstantBuffer,
                index: 1
            })
        );
        assert_eq!(
            parse_slot("CB0"),
            Some(Slot {
                kind: SlotKind::ConstantBuffer,
                index: 0
            })
        );
        assert_eq!(parse_slot("x1"), None);
        assert_eq!(parse_slot("t"), None);
    }
}
