//! Job files: a TOML description of a shader, its resources and a sequence
//! of steps (dispatches, re-initialisations, expectations), run by
//! `sm5sim run`. The schema is in `docs/job-files.md`.
//!
//! Loading checks everything before anything runs: the shader loads, every
//! resource resolves to a slot whose declaration matches its view, every slot
//! the shader declares is bound, every init and expectation fits its resource.
//! Errors are [`JobError`]s naming the file and the TOML key.

use crate::compiler::{self, CompileError, CompileOptions, Compiled, HlslRequest};
use crate::memory::MemoryBudget;
use serde::Deserialize;
use sim_core::check::{CheckOptions, Checker, Finding};
use sim_core::program::{BufferDeclKind, Program, TextureDecl};
use sim_core::rdef::InputType;
use sim_core::{LoadError, LoadOptions};
use sim_mem::{
    AddressMode, Bindings, Buffer, BufferView, ChannelKind, ComparisonFunc, Filter, Format,
    MemError, SamplerDesc, Texture, TextureDesc, TextureDimension, TextureView, ViewDimension,
    ViewRange,
};
use sim_sched::{
    dispatch_checked, dispatch_profiled, DispatchError, DispatchOptions, DispatchProfile,
    DispatchStats, Schedule,
};
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
                other => {
                    let v = other.get(i)?;
                    span = v.span().or(span);
                    v
                }
            };
        }
    }
    position(text, span?.start)
}

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
    samplers: BTreeMap<String, SamplerSpec>,
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
    /// A contents table; for textures also a list of per-subresource tables.
    init: Option<toml::Value>,
    counter: Option<u32>,
    // Textures.
    width: Option<u32>,
    height: Option<u32>,
    depth: Option<u32>,
    array_size: Option<u32>,
    mips: Option<u32>,
    samples: Option<u32>,
    most_detailed_mip: Option<u32>,
    mip_count: Option<u32>,
    first_slice: Option<u32>,
    slice_count: Option<u32>,
}

impl ResourceSpec {
    /// The keys that only textures take, and whether each is given.
    fn texture_keys(&self) -> [(&'static str, bool); 10] {
        [
            ("width", self.width.is_some()),
            ("height", self.height.is_some()),
            ("depth", self.depth.is_some()),
            ("array_size", self.array_size.is_some()),
            ("mips", self.mips.is_some()),
            ("samples", self.samples.is_some()),
            ("most_detailed_mip", self.most_detailed_mip.is_some()),
            ("mip_count", self.mip_count.is_some()),
            ("first_slice", self.first_slice.is_some()),
            ("slice_count", self.slice_count.is_some()),
        ]
    }

    /// The keys that only buffers take, and whether each is given.
    fn buffer_keys(&self) -> [(&'static str, bool); 4] {
        [
            ("stride", self.stride.is_some()),
            ("elements", self.elements.is_some()),
            ("size_bytes", self.size_bytes.is_some()),
            ("counter", self.counter.is_some()),
        ]
    }

    /// Whether `key` is given (for pointing errors at it).
    fn has(&self, key: &str) -> bool {
        key == "format" && self.format.is_some()
            || key == "view" && self.view.is_some()
            || self
                .texture_keys()
                .iter()
                .chain(self.buffer_keys().iter())
                .any(|&(k, given)| k == key && given)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SamplerSpec {
    slot: Option<String>,
    filter: Option<String>,
    address: Option<String>,
    address_u: Option<String>,
    address_v: Option<String>,
    address_w: Option<String>,
    mip_lod_bias: Option<f32>,
    max_anisotropy: Option<u32>,
    comparison: Option<String>,
    border_color: Option<Vec<f32>>,
    min_lod: Option<f32>,
    max_lod: Option<f32>,
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
    /// Textures: one texel value everywhere, converted by the format.
    fill_texel: Option<Vec<f64>>,
    /// Textures: a PNG file for one subresource.
    png: Option<PathBuf>,
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
            self.fill_texel.is_some(),
            self.png.is_some(),
        ]
        .iter()
        .filter(|&&b| b)
        .count()
    }

    /// The key of the form given (for error positions).
    fn form(&self) -> &'static str {
        [
            ("u32", self.u32.is_some()),
            ("i32", self.i32.is_some()),
            ("f32", self.f32.is_some()),
            ("fill_u32", self.fill_u32.is_some()),
            ("fill_f32", self.fill_f32.is_some()),
            ("iota_u32", self.iota_u32.is_some()),
            ("iota_f32", self.iota_f32.is_some()),
            ("random_u32", self.random_u32.is_some()),
            ("random_f32", self.random_f32.is_some()),
            ("file", self.file.is_some()),
            ("fields", self.fields.is_some()),
            ("fill_texel", self.fill_texel.is_some()),
            ("png", self.png.is_some()),
        ]
        .iter()
        .find(|(_, given)| *given)
        .map_or("", |(k, _)| k)
    }

    /// Whether this is a texture-only form (`fill_texel`, `png`).
    fn is_texel_form(&self) -> bool {
        self.fill_texel.is_some() || self.png.is_some()
    }

    /// Whether the words are floats (for comparisons with a tolerance).
    fn is_float(&self) -> bool {
        self.f32.is_some()
            || self.fill_f32.is_some()
            || self.iota_f32.is_some()
            || self.random_f32.is_some()
    }

    /// Number of words this content has by itself (lists and files), if any.
    /// The 32-bit words a list or file gives, when it fixes a count; for a
    /// `.npy` file, those it holds for a resource of `view`.
    fn natural_words(&self, base: &Path, view: View) -> Result<Option<usize>, String> {
        if let Some(f) = self.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
            let arr = crate::npy::read(&base.join(f))?;
            return Ok(match view {
                View::Typed(format) => {
                    let bytes = arr.layout.shape.first().copied().unwrap_or(0) as usize
                        * format.size_bytes() as usize;
                    bytes.is_multiple_of(4).then_some(bytes / 4)
                }
                View::Texture { .. } => None,
                _ => arr
                    .data
                    .len()
                    .is_multiple_of(4)
                    .then_some(arr.data.len() / 4),
            });
        }
        Ok(if let Some(v) = &self.u32 {
            Some(v.len())
        } else if let Some(v) = &self.i32 {
            Some(v.len())
        } else if let Some(v) = &self.f32 {
            Some(v.len())
        } else if let Some(f) = &self.file {
            let p = base.join(f);
            let meta = std::fs::metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            if !meta.is_file() {
                return Err(format!(
                    "{}: is not a regular file (a directory, device, FIFO or socket); give a file",
                    p.display()
                ));
            }
            let len = meta.len();
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

/// The first resource of `a` whose words differ in `b`: (name, first
/// differing word, its values, how many words differ).
fn first_difference(
    a: &[(String, Vec<u32>)],
    b: &[(String, Vec<u32>)],
) -> Option<(String, usize, u32, u32, usize)> {
    a.iter().zip(b).find_map(|((name, x), (_, y))| {
        let k = x.iter().zip(y).position(|(p, q)| p != q)?;
        let n = x.iter().zip(y).filter(|(p, q)| p != q).count();
        Some((name.clone(), k, x[k], y[k], n))
    })
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
    /// texture view: its dimension, format and range of mips and slices
    Texture {
        /// the view dimension
        dimension: ViewDimension,
        /// the view's format (the texture's)
        format: Format,
        /// the mips and slices it sees
        range: ViewRange,
    },
}

impl View {
    /// The bytes of one element of a buffer view: a word of a raw view, a
    /// structure, a 16-byte constant register, a typed element; None for
    /// textures.
    pub fn element_bytes(self) -> Option<u64> {
        match self {
            View::Raw => Some(4),
            View::Structured(s) => Some(u64::from(s)),
            View::Constant => Some(16),
            View::Typed(f) => Some(f.size_bytes() as u64),
            View::Texture { .. } => None,
        }
    }
}

/// What a resource's contents live in.
#[derive(Debug)]
pub enum Storage {
    /// a buffer (raw, structured, typed or constant views)
    Buffer(Buffer),
    /// a texture
    Texture(Texture),
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
    pub storage: Storage,
}

impl Resource {
    /// The raw storage, as 32-bit words: a buffer's contents, or a texture's
    /// subresources in D3D order (each starting on a 4-byte boundary, rows
    /// tightly packed; see [`sim_mem::texture`]).
    pub fn data(&self) -> &Buffer {
        match &self.storage {
            Storage::Buffer(b) => b,
            Storage::Texture(t) => t.data(),
        }
    }

    /// The buffer, unless this is a texture.
    pub fn buffer(&self) -> Option<&Buffer> {
        match &self.storage {
            Storage::Buffer(b) => Some(b),
            Storage::Texture(_) => None,
        }
    }

    /// The texture, if this is one.
    pub fn texture(&self) -> Option<&Texture> {
        match &self.storage {
            Storage::Texture(t) => Some(t),
            Storage::Buffer(_) => None,
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
enum Step {
    Dispatch([u32; 3]),
    Set {
        resource: usize,
        content: Option<Box<Content>>,
        sub: Option<Subresource>,
        counter: Option<u32>,
    },
    Expect(Expect),
}

#[derive(Debug, Clone)]
struct Expect {
    resource: usize,
    check: Check,
    text: String,
    /// `first`/`count` given: the words compared (else the whole resource)
    words: Option<std::ops::Range<usize>>,
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
    /// the shader
    pub program: Program,
    /// how an HLSL shader was compiled (None for DXBC and listings)
    pub compiled: Option<Compiled>,
    /// resources in name order
    pub resources: Vec<Resource>,
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
    /// the shader file's bytes (DXBC or listing), for the checker's listing lines
    shader_bytes: Vec<u8>,
}

/// What [`Job::run_checked`] found.
#[derive(Debug, Clone)]
pub struct CheckReport {
    /// The steps' outcomes, as [`Job::run`] gives them.
    pub steps: Vec<StepReport>,
    /// The checker's findings, errors first (see [`sim_core::check`]).
    pub findings: Vec<Finding>,
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
    /// None when every schedule left the same outputs
    pub difference: Option<ScheduleDifference>,
    /// how many different outputs the schedules left (1 = independent)
    pub distinct_outputs: usize,
}

impl ScheduleReport {
    /// True when every schedule left the same outputs.
    pub fn independent(&self) -> bool {
        self.difference.is_none()
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
        /// where the time went (only with `DispatchOptions::profile`)
        profile: Option<Box<DispatchProfile>>,
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
            message: clip_lines(&e.to_string()),
        })?;
        if file.shader.as_os_str().is_empty() {
            return Err(JobError::Spec {
                at: locate(text, "shader"),
                path: path.to_owned(),
                key: "shader".into(),
                message: "names no file: give the .dxbc, .cso, .asm or .hlsl to run".into(),
            });
        }
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
        cancelled("shader")?;
        let shader_path = base.join(&file.shader);
        let mut included: Vec<PathBuf> = Vec::new();
        let (bytes, compiled) = if compiler::is_hlsl(&shader_path) {
            let req = hlsl_request(&file, &shader_path, base).map_err(|(k, m)| spec_err(k, m))?;
            let c = compiler::compile(&req, compile)?;
            // the files it includes are inputs too (outputs must not overwrite them)
            if let Ok(source) = crate::files::read_input(&shader_path) {
                included = compiler::scan_includes(&shader_path, &source, &req.include_dirs)
                    .into_iter()
                    .filter_map(|i| i.resolved)
                    .collect();
            }
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
            let bytes = crate::files::read_input(&shader_path).map_err(|source| JobError::Io {
                path: shader_path.clone(),
                source,
            })?;
            (bytes, None)
        };
        let shader_bytes = bytes.clone();
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
        let mut budget = MemoryBudget::for_job(load.max_memory);
        for (name, spec) in &file.resources {
            let key = format!("resources.{name}");
            cancelled(&key)?;
            let r =
                resolve_resource(name, spec, &program, base, &mut budget).map_err(|(k, m)| {
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
        let mut samplers: Vec<Sampler> = Vec::new();
        for (name, spec) in &file.samplers {
            let key = format!("samplers.{name}");
            let s = resolve_sampler(name, spec, &program).map_err(|(k, m)| {
                spec_err(
                    if k.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}.{k}")
                    },
                    m,
                )
            })?;
            if let Some(other) = samplers.iter().find(|o| o.slot == s.slot) {
                return Err(spec_err(
                    key,
                    format!("slot s{} is already bound to '{}'", s.slot, other.name),
                ));
            }
            samplers.push(s);
        }
        // Every slot the shader declares must be bound.
        let declared = program
            .srvs
            .iter()
            .map(|d| d.slot)
            .chain(program.srv_textures.iter().map(|d| d.slot))
            .map(|index| Slot {
                kind: SlotKind::Srv,
                index,
            })
            .chain(
                program
                    .uavs
                    .iter()
                    .map(|d| d.slot)
                    .chain(program.uav_textures.iter().map(|d| d.slot))
                    .map(|index| Slot {
                        kind: SlotKind::Uav,
                        index,
                    }),
            )
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
        for decl in &program.samplers {
            if !samplers.iter().any(|s| s.slot == decl.slot) {
                let name = rdef_sampler_name(&program, decl.slot);
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
                    let r = &resources[ri];
                    let counter =
                        take_u32(&mut t, "counter").map_err(|m| spec_err(key.clone(), m))?;
                    if counter.is_some() && r.texture().is_some() {
                        return Err(spec_err(
                            key,
                            format!("'{rname}' is a texture; only buffer UAVs have a counter"),
                        ));
                    }
                    if kind == "set" {
                        let sub = if r.texture().is_some() {
                            take_subresource(&mut t).map_err(|m| spec_err(key.clone(), m))?
                        } else {
                            None
                        };
                        let content = if t.is_empty() {
                            None
                        } else {
                            let c = parse_content(t).map_err(|m| spec_err(key.clone(), m))?;
                            if r.texture().is_some() {
                                texture_writes(&c, sub, r, &program, base)
                                    .map_err(|m| spec_err(key.clone(), m))?;
                            } else {
                                check_content(&c, r, &program, base, true).map_err(|m| {
                                    let (k, m) = content_key(&key, m);
                                    spec_err(k, m)
                                })?;
                            }
                            Some(Box::new(c))
                        };
                        if content.is_none() && counter.is_none() {
                            return Err(spec_err(key, "set needs contents or counter".into()));
                        }
                        steps.push(Step::Set {
                            resource: ri,
                            content,
                            sub,
                            counter,
                        });
                    } else {
                        let text = format!("{rname} {}", value_text(value));
                        let first =
                            take_u32(&mut t, "first").map_err(|m| spec_err(key.clone(), m))?;
                        let count =
                            take_u32(&mut t, "count").map_err(|m| spec_err(key.clone(), m))?;
                        let words = if first.is_some() || count.is_some() {
                            Some(
                                expect_range(r, first, count)
                                    .map_err(|(k, m)| spec_err(format!("{key}.{k}"), m))?,
                            )
                        } else {
                            None
                        };
                        let check =
                            parse_check(t, counter).map_err(|m| spec_err(key.clone(), m))?;
                        let range_key =
                            format!("{key}.{}", if first.is_some() { "first" } else { "count" });
                        if words.is_some() && matches!(check, Check::Counter(_) | Check::Png { .. })
                        {
                            return Err(spec_err(
                                range_key,
                                "first and count select elements for word and sum/min/max checks, not for counter or png".into(),
                            ));
                        }
                        let whole_form = match &check {
                            Check::Words { content, .. } if content.fields.is_some() => {
                                Some("fields")
                            }
                            Check::Words { content, .. }
                                if content.file.as_ref().is_some_and(|f| crate::npy::is_npy(f)) =>
                            {
                                Some("a .npy file")
                            }
                            _ => None,
                        };
                        if let (Some(_), Some(form)) = (&words, whole_form) {
                            return Err(spec_err(
                                range_key,
                                format!("{form} is compared with the whole resource; drop first and count"),
                            ));
                        }
                        match &check {
                            Check::Words { content, .. } => {
                                let n = words.as_ref().map_or(r.data().len_words(), |w| w.len());
                                check_content_words(content, r, n, &program, base).map_err(
                                    |m| {
                                        let (k, m) = content_key(&key, m);
                                        spec_err(k, m)
                                    },
                                )?;
                            }
                            Check::Png { path, .. } => {
                                let (width, height) =
                                    png_target(r).map_err(|m| spec_err(key.clone(), m))?;
                                let target = PngTarget {
                                    width,
                                    height,
                                    what: format!("'{rname}' (mip 0)"),
                                    named: Some(path.clone()),
                                };
                                read_png(&base.join(path), Some(&target))
                                    .map_err(|m| spec_err(format!("{key}.png"), m))?;
                            }
                            _ => {}
                        }
                        steps.push(Step::Expect(Expect {
                            resource: ri,
                            check,
                            text,
                            words,
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
                if r.data().len_bytes() < declared {
                    warnings.push(format!(
                        "resources.{}: {} bytes bound to {}, which the shader declares as {declared} bytes; reads past the end return 0",
                        r.name,
                        r.data().len_bytes(),
                        r.slot
                    ));
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
        let mut inputs = vec![path.to_owned(), shader_path.clone()];
        inputs.append(&mut included);
        if let Ok(doc) = text.parse::<toml::Table>() {
            named_files(&toml::Value::Table(doc), base, &mut inputs);
        }
        Ok(Job {
            path: path.to_owned(),
            program,
            compiled,
            resources,
            samplers,
            warnings,
            inputs,
            steps,
            base: base.to_owned(),
            shader_bytes,
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
        let mut reports = Vec::new();
        let error = self.run_steps(options, None, None, &mut reports).err();
        (reports, error)
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
            .run_steps(options, None, Some(turns), &mut reports)
            .err();
        (reports, error)
    }

    /// Run every step as [`Job::run`] does, with each dispatch under the
    /// concurrency checker (`sim_sched::dispatch_checked`: the groups run
    /// one after another on this thread, `options.threads` is ignored).
    /// Findings name the job's resource names and the lines of the shader's
    /// listing (the `.asm` file itself, or `fxc /Fc`'s listing as
    /// `sim_core::disasm::full_listing` prints it for a container).
    ///
    /// # Errors
    /// As [`Job::run`].
    pub fn run_checked(
        &self,
        options: &DispatchOptions,
        checks: CheckOptions,
    ) -> Result<CheckReport, JobError> {
        let mut checker = Checker::new(&self.program, checks);
        if let Some(listing) = self.listing() {
            checker.set_listing(&listing);
        }
        for r in &self.resources {
            if r.slot.kind == SlotKind::Uav {
                checker.set_resource_name(&r.slot.to_string(), &r.name);
            }
        }
        let mut steps = Vec::new();
        self.run_steps(options, Some(&mut checker), None, &mut steps)?;
        Ok(CheckReport {
            steps,
            findings: checker.into_findings(),
        })
    }

    /// The outputs a schedule may change: every UAV resource's raw words
    /// (its storage, textures included), in name order.
    pub fn outputs(&self) -> Vec<(String, Vec<u32>)> {
        self.resources
            .iter()
            .filter(|r| r.slot.kind == SlotKind::Uav)
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
        let initial: Vec<(Vec<u32>, u32)> = self
            .resources
            .iter()
            .map(|r| {
                let b = r.data();
                (
                    b.to_words(),
                    b.counter().load(sim_mem::sync::Ordering::Relaxed),
                )
            })
            .collect();
        let mut runs = Vec::new();
        let mut first: Option<Vec<(String, Vec<u32>)>> = None;
        let mut difference = None;
        let mut seen: Vec<Vec<(String, Vec<u32>)>> = Vec::new();
        for &seed in seeds {
            for (r, (words, counter)) in self.resources.iter().zip(&initial) {
                let b = r.data();
                b.write_words(0, words).map_err(|e| JobError::Spec {
                    at: None,
                    path: self.path.clone(),
                    key: format!("resources.{}", r.name),
                    message: e.to_string(),
                })?;
                b.counter()
                    .store(*counter, sim_mem::sync::Ordering::Relaxed);
            }
            let opts = DispatchOptions {
                threads: 1,
                schedule: Some(Schedule::seeded(seed)),
                ..options.clone()
            };
            let steps = self.run(&opts)?;
            runs.push(ScheduleRun { seed, steps });
            let out = self.outputs();
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
            distinct_outputs: seen.len(),
        })
    }

    /// The shader's listing: the file itself when it is one, else what
    /// `fxc /Fc` prints for the container.
    fn listing(&self) -> Option<String> {
        let bytes = &self.shader_bytes;
        if !bytes.starts_with(b"DXBC") {
            return String::from_utf8(bytes.clone()).ok();
        }
        let container =
            sim_core::container::Container::parse(bytes, sim_core::container::ChecksumPolicy::Skip)
                .ok()?;
        Some(sim_core::disasm::full_listing(
            &container,
            &self.program.decoded,
        ))
    }

    /// Run the steps, pushing each one's report to `reports` as it ends;
    /// with `turns`, holding it around each dispatch on the worker pool
    /// ([`Job::run_partial_taking_turns`]).
    fn run_steps(
        &self,
        options: &DispatchOptions,
        mut checker: Option<&mut Checker>,
        turns: Option<&std::sync::Mutex<()>>,
        reports: &mut Vec<StepReport>,
    ) -> Result<(), JobError> {
        for (i, step) in self.steps.iter().enumerate() {
            // the cancellation token stops the run between steps too, not
            // only inside a dispatch (a `set` or `expect` can take seconds)
            if options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                return Err(JobError::Cancelled { step: i });
            }
            match step {
                Step::Dispatch(groups) => {
                    let on_pool = checker.is_none()
                        && options.schedule.is_none()
                        && groups.iter().map(|&g| u64::from(g)).product::<u64>() > 1;
                    // (a poisoned lock guards nothing: a panicking job's turn is over)
                    let _turn = turns
                        .filter(|_| on_pool)
                        .map(|t| t.lock().unwrap_or_else(|p| p.into_inner()));
                    let start = Instant::now();
                    let cbs: Vec<(u32, Vec<u32>)> = self
                        .resources
                        .iter()
                        .filter(|r| r.view == View::Constant)
                        .map(|r| (r.slot.index, r.data().to_words()))
                        .collect();
                    let bindings = self.bindings(&cbs);
                    let (stats, profile) = match checker.as_deref_mut() {
                        Some(c) => dispatch_checked(&self.program, &bindings, *groups, options, c)
                            .map(|s| (s, None)),
                        None => dispatch_profiled(&self.program, &bindings, *groups, options),
                    }
                    .map_err(|source| JobError::Dispatch { step: i, source })?;
                    reports.push(StepReport::Dispatch {
                        groups: *groups,
                        stats,
                        elapsed: start.elapsed(),
                        profile: profile.map(Box::new),
                    });
                }
                Step::Set {
                    resource,
                    content,
                    sub,
                    counter,
                } => {
                    let r = &self.resources[*resource];
                    let err = |message: String| JobError::Spec {
                        at: None,
                        path: self.path.clone(),
                        key: format!("steps[{i}].set"),
                        message,
                    };
                    if let Some(c) = content {
                        if r.texture().is_some() {
                            let w = texture_writes(c, *sub, r, &self.program, &self.base)
                                .map_err(err)?;
                            write_texture(r, w).map_err(err)?;
                        } else {
                            let words =
                                generate(c, r.data().len_words(), &self.program, r, &self.base)
                                    .map_err(err)?;
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

    fn bindings<'a>(&'a self, cbs: &'a [(u32, Vec<u32>)]) -> Bindings<'a> {
        fn put<T: Clone>(list: &mut Vec<Option<T>>, i: usize, v: T) {
            if list.len() <= i {
                list.resize(i + 1, None);
            }
            list[i] = Some(v);
        }
        let mut b = Bindings::default();
        for r in &self.resources {
            let i = r.slot.index as usize;
            let uav = r.slot.kind == SlotKind::Uav;
            let view = match (r.view, &r.storage) {
                (View::Raw, Storage::Buffer(buf)) => BufferView::raw(buf),
                (View::Structured(stride), Storage::Buffer(buf)) => {
                    match BufferView::structured(buf, stride) {
                        Ok(v) => v,
                        Err(_) => continue, // strides are checked at load
                    }
                }
                (View::Typed(f), Storage::Buffer(buf)) => BufferView::typed(buf, f),
                (
                    View::Texture {
                        dimension,
                        format,
                        range,
                    },
                    Storage::Texture(t),
                ) => {
                    let v = if uav {
                        TextureView::uav(t, dimension, format, range)
                    } else {
                        TextureView::srv(t, dimension, format, range)
                    };
                    // views are checked at load
                    if let Ok(v) = v {
                        put(
                            if uav {
                                &mut b.uav_textures
                            } else {
                                &mut b.srv_textures
                            },
                            i,
                            v,
                        );
                    }
                    continue;
                }
                _ => continue,
            };
            put(if uav { &mut b.uavs } else { &mut b.srvs }, i, view);
        }
        for s in &self.samplers {
            put(&mut b.samplers, s.slot as usize, s.desc);
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
        let got = match e.check {
            Check::Png { .. } => Vec::new(), // compared texel by texel
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
        return Err("give exactly one of u32, i32, f32, fill_u32, fill_f32, iota_u32, iota_f32, random_u32, random_f32, file, fields (textures also: fill_texel, png)".into());
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
    let tolerance = take_u32(&mut t, "tolerance")?;
    if let Some(p) = t.remove("png") {
        let toml::Value::String(p) = p else {
            return Err("png must be a file name".into());
        };
        return if t.is_empty() {
            Ok(Check::Png {
                path: PathBuf::from(p),
                tolerance: tolerance.unwrap_or(0),
            })
        } else {
            Err("png is compared on its own (with tolerance = N)".into())
        };
    }
    if tolerance.is_some() {
        return Err("tolerance applies to png expectations (ulps and abs to float forms)".into());
    }
    let ulps = take_u32(&mut t, "ulps")?.unwrap_or(0);
    let abs = match t.remove("abs") {
        None => None,
        Some(toml::Value::Float(f)) if f >= 0.0 => Some(f),
        Some(toml::Value::Integer(i)) if i >= 0 => Some(i as f64),
        Some(_) => return Err("abs must be a non-negative number".into()),
    };
    let content = parse_content(t)?;
    if content.fill_texel.is_some() {
        return Err(
            "expect compares a texture's raw words (u32, fill_u32, …) or its texels with png = \"FILE\"; fill_texel only initialises".into(),
        );
    }
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

/// The HLSL name of sampler `s#` in RDEF.
fn rdef_sampler_name(program: &Program, slot: u32) -> Option<String> {
    let refl = program.reflection.as_ref()?;
    refl.bindings
        .iter()
        .find(|b| b.input_type == InputType::Sampler && b.bind_point == slot)
        .map(|b| b.name.clone())
}

/// What RDEF says of texture slot `slot`: its view dimension and return type
/// (D3D_SRV_DIMENSION; D3D_RESOURCE_RETURN_TYPE, as declarations number them),
/// when RDEF binds a texture (not a buffer) there.
fn rdef_texture(program: &Program, slot: Slot) -> Option<(ViewDimension, u8)> {
    let refl = program.reflection.as_ref()?;
    let prefix = match slot.kind {
        SlotKind::Srv => "t",
        SlotKind::Uav => "u",
        SlotKind::ConstantBuffer => return None,
    };
    let b = refl.resource_at(prefix, 0, slot.index)?;
    if !matches!(b.input_type, InputType::Texture | InputType::UavRwTyped) {
        return None;
    }
    use ViewDimension::*;
    let dim = match b.dimension {
        2 => Texture1D,
        3 => Texture1DArray,
        4 => Texture2D,
        5 => Texture2DArray,
        6 => Texture2DMS,
        7 => Texture2DMSArray,
        8 => Texture3D,
        9 => TextureCube,
        10 => TextureCubeArray,
        _ => return None, // buffers
    };
    Some((dim, u8::try_from(b.return_type).unwrap_or(0)))
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
    budget: &mut MemoryBudget,
) -> Result<Resource, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    // Slot: given, or found by name in RDEF.
    let binding = program.reflection.as_ref().and_then(|r| r.binding(name));
    let slot = match (&spec.slot, binding) {
        (Some(s), _) => parse_slot(s).ok_or_else(|| {
            if s.trim().to_ascii_lowercase().starts_with('s') {
                e(
                    "slot",
                    format!("'{s}' is a sampler slot; samplers go under [samplers.NAME]"),
                )
            } else {
                e("slot", format!("'{s}' is not a slot like t0, u1, cb0"))
            }
        })?,
        (None, Some(b)) if b.input_type == InputType::Sampler => {
            return Err(e(
                "",
                format!("'{name}' is a sampler in the shader; bind it under [samplers.{name}]"),
            ))
        }
        (None, Some(b)) => Slot {
            kind: match b.input_type {
                InputType::CBuffer => SlotKind::ConstantBuffer,
                t if t.is_uav() => SlotKind::Uav,
                _ => SlotKind::Srv,
            },
            index: b.bind_point,
        },
        // a key that is a slot name binds there
        (None, None) => match parse_slot(name) {
            Some(s) => s,
            None => {
                return Err(e(
                    "slot",
                    format!(
                    "'{name}' is neither a resource name in the shader's RDEF nor a slot name; {}",
                    declared_names(program)
                ),
                ))
            }
        },
    };
    // View, checked against the shader's declaration.
    let declared = match slot.kind {
        SlotKind::Srv => program.srv(slot.index).map(|d| d.kind),
        SlotKind::Uav => program.uav(slot.index).map(|d| d.kind),
        SlotKind::ConstantBuffer => None,
    };
    // A texture: a texture view named, or the shader (or RDEF) declaring one.
    let texture_decl = match slot.kind {
        SlotKind::Srv => program.srv_texture(slot.index),
        SlotKind::Uav => program.uav_texture(slot.index),
        SlotKind::ConstantBuffer => None,
    };
    let rdef = if declared.is_none() && texture_decl.is_none() {
        rdef_texture(program, slot)
    } else {
        None
    };
    let given_dimension = spec.view.as_deref().and_then(ViewDimension::from_name);
    if given_dimension.is_some()
        || (spec.view.is_none() && (texture_decl.is_some() || rdef.is_some()))
    {
        return resolve_texture(
            budget,
            name,
            spec,
            slot,
            TextureDeclared {
                given: given_dimension,
                decl: texture_decl,
                rdef,
                buffer: declared,
            },
            program,
            base,
        );
    }
    if let Some(d) = texture_decl {
        return Err(e(
            "view",
            format!(
                "the shader declares {slot} as a {0}; give view = \"{0}\" (or leave view out), format and width",
                d.dimension.name()
            ),
        ));
    }
    let buffer_view = matches!(
        spec.view.as_deref(),
        None | Some("raw" | "structured" | "typed" | "constant")
    );
    for (key, given) in spec.texture_keys() {
        if given && buffer_view {
            return Err(e(
                key,
                format!("{key} belongs to textures (view = \"texture2d\", …); this is a buffer"),
            ));
        }
    }
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
            let textures: Vec<_> = ViewDimension::ALL.iter().map(|d| d.name()).collect();
            return Err(e(
                "view",
                format!(
                    "'{other}' is not raw, structured, typed, constant or a texture view ({})",
                    textures.join(", ")
                ),
            ));
        }
        None => match (slot.kind, declared) {
            (SlotKind::ConstantBuffer, _) => View::Constant,
            (_, Some(BufferDeclKind::Raw)) => View::Raw,
            (_, Some(BufferDeclKind::Structured { stride })) => {
                View::Structured(spec.stride.unwrap_or(stride))
            }
            (_, Some(BufferDeclKind::Typed { .. })) => View::Typed(typed_format(spec)?),
            (_, None) => {
                // a slot given that the shader does not declare: most often
                // the wrong slot for a name the shader binds elsewhere
                let moved =
                    binding.filter(|b| spec.slot.is_some() && b.input_type != InputType::Sampler);
                return Err(match moved {
                    Some(b) => e(
                        "slot",
                        format!(
                            "the shader declares '{name}' at {}{}, not {slot}; leave slot out or give slot = \"{0}{1}\"",
                            b.input_type.register_prefix(),
                            b.bind_point
                        ),
                    ),
                    None => e(
                        if spec.slot.is_some() { "slot" } else { "view" },
                        format!(
                            "the shader declares nothing at {slot}; {} (an undeclared slot needs view = \"raw\", \"structured\" or \"typed\")",
                            declared_names(program)
                        ),
                    ),
                });
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
            check_return_type(return_types[0], f, slot)?;
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
        Some(toml::Value::Table(t)) => Some(parse_content(t.clone()).map_err(|m| e("init", m))?),
        Some(_) => {
            return Err(e(
                "init",
                "expected a table such as { fill_u32 = 0 } (lists of per-subresource tables are for textures)".into(),
            ))
        }
        None => None,
    };
    // Size.
    let element_bytes = view
        .element_bytes()
        .ok_or_else(|| e("view", "textures are resolved apart".into()))?;
    let size = match (spec.elements, spec.size_bytes) {
        (Some(_), Some(_)) => return Err(e("", "give elements or size_bytes, not both".into())),
        (Some(n), None) => n
            .checked_mul(element_bytes)
            .ok_or_else(|| e("elements", "too large".into()))?,
        (None, Some(b)) => b,
        (None, None) => {
            let natural = match &content {
                Some(c) => c.natural_words(base, view).map_err(|m| e("init", m))?,
                None => None,
            };
            match (natural, view) {
                (Some(w), _) => w as u64 * 4,
                (None, View::Constant) => constant_buffer_size(program, slot.index),
                _ => return Err(e("", "give elements = N or size_bytes = N".into())),
            }
        }
    };
    // the key the size came from, for the rules below
    let size_key = if spec.size_bytes.is_some() {
        "size_bytes"
    } else if spec.elements.is_some() {
        "elements"
    } else {
        "init"
    };
    if size == 0 {
        return Err(e(
            size_key,
            "a buffer of 0 bytes: D3D11 refuses a ByteWidth of 0 (ID3D11Device::CreateBuffer, D3D11_BUFFER_DESC)".into(),
        ));
    }
    if size % 4 != 0 {
        return Err(e(
            size_key,
            MemError::UnalignedSize(size as usize).to_string(),
        ));
    }
    match view {
        View::Structured(stride) if size % u64::from(stride) != 0 => {
            return Err(e(
                size_key,
                format!(
                    "{size} bytes is not a whole number of {stride}-byte structures: D3D11 refuses a structured buffer whose ByteWidth is not a multiple of StructureByteStride (ID3D11Device::CreateBuffer, D3D11_BUFFER_DESC); the last {} bytes would be outside every view",
                    size % u64::from(stride)
                ),
            ))
        }
        View::Typed(f) if size % f.size_bytes() as u64 != 0 => {
            return Err(e(
                size_key,
                format!(
                    "{size} bytes is not a whole number of {}-byte {} elements: a typed view covers whole elements (D3D11_BUFFER_SRV / D3D11_BUFFER_UAV NumElements), so the last {} bytes would be outside it",
                    f.size_bytes(),
                    f.name(),
                    size % f.size_bytes() as u64
                ),
            ))
        }
        _ => {}
    }
    const MAX_BYTES: u64 = 1 << 32;
    if size > MAX_BYTES {
        return Err(e(
            "",
            format!("{size} bytes is more than the 4 GiB a view can address"),
        ));
    }
    budget.charge(size).map_err(|m| e("", m))?;
    let buffer = Buffer::zeroed(size as usize).map_err(|m| e("", m.to_string()))?;
    let mut r = Resource {
        name: name.to_string(),
        slot,
        view,
        storage: Storage::Buffer(buffer),
    };
    if let Some(c) = &content {
        check_content(c, &r, program, base, true).map_err(|m| content_key("init", m))?;
        let words =
            generate(c, r.data().len_words(), program, &r, base).map_err(|m| e("init", m))?;
        r.data()
            .write_words(0, &words)
            .map_err(|m| e("init", m.to_string()))?;
    }
    if let Some(c) = spec.counter {
        r.data()
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
    Format::from_name(name)
        .filter(|f| f.buffer_viewable())
        .ok_or_else(|| {
            let known: Vec<_> = Format::ALL
                .iter()
                .filter(|f| f.buffer_viewable())
                .map(|f| f.name())
                .collect();
            (
                "format".to_string(),
                format!(
                    "'{name}' is not a typed-buffer format (known: {})",
                    known.join(", ")
                ),
            )
        })
}

/// Integer declarations need integer formats of the same signedness; float,
/// unorm and snorm declarations need non-integer formats (FS §5.2 view
/// compatibility). `return_type` numbers as declarations do (1 unorm, 2
/// snorm, 3 sint, 4 uint, 5 float).
fn check_return_type(return_type: u8, f: Format, slot: Slot) -> Result<(), KeyErr> {
    let ok = match (return_type, f.kind()) {
        (4, k) => k == ChannelKind::Uint,
        (3, k) => k == ChannelKind::Sint,
        (_, k) => !matches!(k, ChannelKind::Uint | ChannelKind::Sint),
    };
    if ok {
        return Ok(());
    }
    let t = ["", "unorm", "snorm", "sint", "uint", "float"]
        .get(return_type as usize)
        .unwrap_or(&"?");
    Err((
        "format".into(),
        format!(
            "{} does not fit {slot}, which the shader declares as {t}",
            f.name()
        ),
    ))
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
    check_content_words(c, r, r.data().len_words(), program, base)
}

/// [`check_content`] for contents of `words` 32-bit words of `r` (an
/// expectation's element range, or the whole resource).
fn check_content_words(
    c: &Content,
    r: &Resource,
    words: usize,
    program: &Program,
    base: &Path,
) -> Result<(), String> {
    if c.is_texel_form() && r.texture().is_none() {
        return Err(format!(
            "{} is for textures; '{}' is a buffer",
            c.form(),
            r.name
        ));
    }
    if c.file.as_ref().is_some_and(|f| crate::npy::is_npy(f)) {
        // the file's dtype and shape against the resource, expected and given
        return generate(c, words, program, r, base).map(drop);
    }
    if let Some(n) = c.natural_words(base, r.view)? {
        if n != words {
            let whole = r.data().len_words();
            return Err(if words == whole {
                format!(
                    "{n} values given but '{}' holds {words} 32-bit words",
                    r.name
                )
            } else {
                format!(
                    "{n} values given but the elements selected by first and count hold {words} 32-bit words"
                )
            });
        }
    }
    check_generators(c)?;
    if c.fields.is_some() {
        if r.view != View::Constant {
            return Err("fields = {...} initialises constant buffers only".into());
        }
        generate(c, words, program, r, base)?;
    }
    Ok(())
}

/// Every file a `file` or `png` key below `v` names, joined to `base`.
fn named_files(v: &toml::Value, base: &Path, out: &mut Vec<PathBuf>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                match (k.as_str(), v) {
                    ("file" | "png", toml::Value::String(f)) => out.push(base.join(f)),
                    _ => named_files(v, base, out),
                }
            }
        }
        toml::Value::Array(a) => a.iter().for_each(|v| named_files(v, base, out)),
        _ => {}
    }
}

/// The 32-bit words of elements `first .. first + count` of buffer `r`
/// (`count` defaults to the rest): an element is a word of a raw view, a
/// structure of a structured view, an element of a typed view whose format
/// is a whole number of words, a 16-byte register of a constant buffer.
///
/// # Errors
/// `(key, message)`: a texture, a typed format smaller than a word, a count
/// of 0, or a range past the last element.
fn expect_range(
    r: &Resource,
    first: Option<u32>,
    count: Option<u32>,
) -> Result<std::ops::Range<usize>, (String, String)> {
    let key = if first.is_some() { "first" } else { "count" };
    let err = |k: &str, m: String| Err((k.to_string(), m));
    let element_bytes = match r.view {
        View::Typed(f) if f.size_bytes() % 4 != 0 => {
            return err(
                key,
                format!(
                    "'{}' is a typed view of {}, whose {}-byte elements are not whole 32-bit words; compare the whole resource",
                    r.name,
                    f.name(),
                    f.size_bytes()
                ),
            )
        }
        View::Texture { .. } => {
            return err(
                key,
                format!("'{}' is a texture; first and count select buffer elements", r.name),
            )
        }
        v => v.element_bytes().unwrap_or(4) as usize,
    };
    let per = element_bytes / 4;
    let elements = r.data().len_words() / per;
    let first = first.unwrap_or(0) as usize;
    let count = match count {
        Some(0) => return err("count", "count must be at least 1".into()),
        Some(c) => c as usize,
        None => elements.saturating_sub(first),
    };
    if first >= elements || first + count > elements {
        return err(
            if first >= elements { "first" } else { "count" },
            format!(
                "elements {first}..{} are not all in '{}', which holds {elements} elements of {element_bytes} bytes",
                first + count,
                r.name
            ),
        );
    }
    Ok(first * per..(first + count) * per)
}

/// "it declares u0 ('bins'), t0 ('keys'), cb0 ('Params')": the shader's
/// resource slots with their RDEF names, for messages about a name or slot
/// the job gives wrongly.
fn declared_names(program: &Program) -> String {
    let Some(refl) = program.reflection.as_ref() else {
        return "the shader has no RDEF names; give slot = \"t0\" (or u#, cb#)".into();
    };
    let names: Vec<String> = refl
        .bindings
        .iter()
        .filter(|b| b.input_type != InputType::Sampler)
        .map(|b| {
            format!(
                "{}{} ('{}')",
                b.input_type.register_prefix(),
                b.bind_point,
                b.name
            )
        })
        .collect();
    if names.is_empty() {
        "the shader declares no resources".into()
    } else {
        format!("it declares {}", names.join(", "))
    }
}

/// Check the ranges of random generators.
fn check_generators(c: &Content) -> Result<(), String> {
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
    if let Some(f) = c.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
        let p = base.join(f);
        let arr = crate::npy::read(&p)?;
        let words = if let Some(tex) = r.texture() {
            // the storage as it is, with mip 0 slice 0 from the file: an
            // expectation then compares that subresource only
            let sub = crate::npy::texture_bytes(&arr, &p, r, 0)?;
            let mut bytes = r.data().to_bytes();
            let range = tex
                .subresource_range(0, 0)
                .ok_or_else(|| format!("'{}' has no mip 0, slice 0", r.name))?;
            bytes[range].copy_from_slice(&sub);
            crate::npy::le_words(&bytes)
        } else {
            crate::npy::buffer_words(&arr, &p, r, program)?
        };
        if words.len() != n {
            return Err(format!(
                "{}: {} values for the {n} 32-bit words selected",
                p.display(),
                words.len()
            ));
        }
        return Ok(words);
    }
    if let Some(f) = &c.file {
        let p = base.join(f);
        let bytes = crate::files::read_input(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() != n * 4 {
            return Err(format!(
                "{}: {} bytes, but the resource holds {} bytes",
                p.display(),
                bytes.len(),
                n * 4
            ));
        }
        return Ok(crate::npy::le_words(&bytes));
    }
    if let Some(fields) = &c.fields {
        return cbuffer_fields(fields, n, program, r);
    }
    Err("no contents given".into())
}

/// `fields = { name = value }` for a constant buffer, placed as HLSL packs
/// each variable ([`crate::cbuffer`]). An error about one value is reported
/// with its path bracketed by [`FIELD_ERROR`] ([`content_key`] moves the
/// path into the key).
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
    crate::cbuffer::pack_fields(fields, cb, n)
        .map_err(|e| format!("{FIELD_ERROR}{}{FIELD_ERROR}{}", e.path, e.message))
}

/// The key and message of a contents error at `key` (`init`,
/// `steps[2].set`): an error about one value of `fields` names that value,
/// `KEY.fields.w[1]`, so that the position points at it.
fn content_key(key: &str, message: String) -> (String, String) {
    if let Some((path, m)) = message
        .strip_prefix(FIELD_ERROR)
        .and_then(|rest| rest.split_once(FIELD_ERROR))
    {
        return (format!("{key}.fields.{path}"), m.to_string());
    }
    (key.to_string(), message)
}

/// Brackets the path of a `fields` error in its message (NUL: no file
/// name contains it, so a message about a file is never taken for one).
const FIELD_ERROR: &str = "\u{0}";

// ---------------------------------------------------------------------------
// Textures

/// What the shader (or its RDEF) says of a texture resource's slot.
struct TextureDeclared<'a> {
    /// the view the job names
    given: Option<ViewDimension>,
    /// the shader's texture declaration
    decl: Option<&'a TextureDecl>,
    /// RDEF's dimension and return type, when the shader declares nothing
    rdef: Option<(ViewDimension, u8)>,
    /// the shader's buffer declaration of the slot (an error for a texture)
    buffer: Option<BufferDeclKind>,
}

/// The key of `spec` that an error message from sim-mem is about: the first
/// of `candidates` whose needle the message contains and which the spec
/// gives, else `fallback`.
fn error_key(
    message: &str,
    spec: &ResourceSpec,
    candidates: &[(&str, &str)],
    fallback: &str,
) -> String {
    candidates
        .iter()
        .find(|(needle, key)| message.contains(needle) && spec.has(key))
        .map_or(fallback, |(_, key)| key)
        .to_string()
}

fn resolve_texture(
    budget: &mut MemoryBudget,
    name: &str,
    spec: &ResourceSpec,
    slot: Slot,
    declared: TextureDeclared,
    program: &Program,
    base: &Path,
) -> Result<Resource, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    let view_key = if spec.view.is_some() { "view" } else { "" };
    if slot.kind == SlotKind::ConstantBuffer {
        return Err(e(
            view_key,
            format!("textures go with t# or u# slots (this is {slot})"),
        ));
    }
    if let Some(b) = declared.buffer {
        let what = match b {
            BufferDeclKind::Raw => "a raw buffer".to_string(),
            BufferDeclKind::Structured { stride } => {
                format!("a structured buffer (stride {stride})")
            }
            BufferDeclKind::Typed { .. } => "a typed buffer".to_string(),
        };
        return Err(e(
            view_key,
            format!("the shader declares {slot} as {what}, not a texture"),
        ));
    }
    for (key, given) in spec.buffer_keys() {
        if given {
            return Err(e(
                key,
                format!("{key} belongs to buffers; a texture's size is width, height, depth, array_size, mips and samples"),
            ));
        }
    }
    let declared_dimension = declared
        .decl
        .map(|d| d.dimension)
        .or(declared.rdef.map(|r| r.0));
    let dimension = match (declared.given, declared_dimension) {
        (Some(g), Some(d)) if g != d => {
            return Err(e(
                "view",
                format!(
                    "the shader declares {slot} as {}, not {}",
                    d.name(),
                    g.name()
                ),
            ))
        }
        (Some(g), _) => g,
        (None, Some(d)) => d,
        (None, None) => {
            return Err(e(
                "view",
                format!("the shader does not declare {slot}; give view = ..."),
            ))
        }
    };
    if slot.kind == SlotKind::Uav && !dimension.allowed_for_uav() {
        return Err(e(
            view_key,
            format!(
                "a UAV cannot be a {} (no multisampled or cube UAVs)",
                dimension.name()
            ),
        ));
    }
    // Format: required, and of the declared return type's kind.
    let format = texture_format(spec)?;
    let return_type = declared
        .decl
        .map(|d| d.return_types[0])
        .or(declared.rdef.map(|r| r.1))
        .filter(|&t| (1..=5).contains(&t));
    if let Some(t) = return_type {
        check_return_type(t, format, slot)?;
    }
    if slot.kind == SlotKind::Uav && !format.uav_storable() {
        return Err(e(
            "format",
            format!("{} cannot be the format of a texture UAV", format.name()),
        ));
    }
    // Size.
    let resource_dimension = dimension.resource_dimension();
    let width = spec.width.ok_or_else(|| {
        e(
            "",
            format!(
                "a {} needs width = N{}",
                dimension.name(),
                match resource_dimension {
                    TextureDimension::Texture1D => "",
                    TextureDimension::Texture2D => " and height = N",
                    TextureDimension::Texture3D => ", height = N and depth = N",
                }
            ),
        )
    })?;
    let height = spec.height.unwrap_or(1);
    if resource_dimension == TextureDimension::Texture1D && height != 1 {
        return Err(e(
            "height",
            format!("a {} has no height; leave height out", dimension.name()),
        ));
    }
    let depth = spec.depth.unwrap_or(1);
    if resource_dimension != TextureDimension::Texture3D && depth != 1 {
        return Err(e(
            "depth",
            "depth is for texture3d; slices are array_size".into(),
        ));
    }
    let array_size = spec
        .array_size
        .unwrap_or(if dimension.is_cube() { 6 } else { 1 });
    if resource_dimension == TextureDimension::Texture3D && array_size != 1 {
        return Err(e(
            "array_size",
            "a texture3d has no slices; give depth = N".into(),
        ));
    }
    let declared_samples = declared.decl.map(|d| d.sample_count).filter(|&n| n != 0);
    let samples = match (spec.samples, declared_samples) {
        (Some(n), Some(d)) if n != d => {
            return Err(e(
                "samples",
                format!("the shader declares {slot} with {d} samples"),
            ))
        }
        (Some(n), _) => n,
        (None, Some(d)) => d,
        (None, None) if dimension.is_multisampled() => {
            return Err(e(
                "",
                format!("a {} needs samples = N (2, 4, 8 or 16)", dimension.name()),
            ))
        }
        (None, None) => 1,
    };
    if !dimension.is_multisampled() && samples != 1 {
        return Err(e(
            "samples",
            "samples is for texture2dms and texture2dmsarray views".into(),
        ));
    }
    let desc = TextureDesc {
        dimension: resource_dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels: spec.mips.unwrap_or(1),
        sample_count: samples,
    };
    // (a description D3D11 refuses is refused by `Texture::new` below)
    if let Ok(bytes) = Texture::storage_bytes(desc) {
        budget.charge(bytes).map_err(|m| e("", m))?;
    }
    let texture = Texture::new(desc).map_err(|err| {
        let m = err.to_string();
        let key = error_key(
            &m,
            spec,
            &[
                ("width", "width"),
                ("height", "height"),
                ("depth", "depth"),
                ("array_size", "array_size"),
                ("mips", "mips"),
                ("sample", "samples"),
                (format.name(), "format"),
            ],
            "",
        );
        (key, m)
    })?;
    // The view's range, checked by making the view.
    if slot.kind == SlotKind::Uav && spec.mip_count.is_some_and(|n| n != 1) {
        return Err(e(
            "mip_count",
            "a UAV sees one mip, most_detailed_mip; mip_count is for SRVs".into(),
        ));
    }
    let range = ViewRange {
        first_mip: spec.most_detailed_mip.unwrap_or(0),
        mip_count: if slot.kind == SlotKind::Uav {
            None
        } else {
            spec.mip_count
        },
        first_slice: spec.first_slice.unwrap_or(0),
        slice_count: spec.slice_count,
    };
    let made = if slot.kind == SlotKind::Uav {
        TextureView::uav(&texture, dimension, format, range).map(|_| ())
    } else {
        TextureView::srv(&texture, dimension, format, range).map(|_| ())
    };
    if let Err(err) = made {
        // the rule's source: the view description D3D11 checks
        let source = if slot.kind == SlotKind::Uav {
            "ID3D11Device::CreateUnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC"
        } else {
            "ID3D11Device::CreateShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC"
        };
        let m = format!("{err} (D3D11 refuses such a view: {source})");
        let key = error_key(
            &m,
            spec,
            &[
                ("first mip", "most_detailed_mip"),
                ("mips", "mip_count"),
                ("mips", "most_detailed_mip"),
                ("mips", "mips"),
                ("slice", "slice_count"),
                ("slice", "first_slice"),
                ("slice", "array_size"),
                ("square", "height"),
                ("samples", "samples"),
                ("format", "format"),
            ],
            view_key,
        );
        return Err((key, m));
    }
    let r = Resource {
        name: name.to_string(),
        slot,
        view: View::Texture {
            dimension,
            format,
            range,
        },
        storage: Storage::Texture(texture),
    };
    if let Some(init) = &spec.init {
        for (key, sub, content) in parse_texture_init(init)? {
            let w = texture_writes(&content, sub, &r, program, base).map_err(|m| e(&key, m))?;
            write_texture(&r, w).map_err(|m| e(&key, m))?;
        }
    }
    Ok(r)
}

fn texture_format(spec: &ResourceSpec) -> Result<Format, KeyErr> {
    let name = spec.format.as_deref().ok_or_else(|| {
        (
            String::new(),
            "a texture needs format = \"R8G8B8A8_UNORM\" (a DXGI format name)".to_string(),
        )
    })?;
    Format::from_name(name).ok_or_else(|| {
        let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
        (
            "format".to_string(),
            format!(
                "'{name}' is not a DXGI format sm5sim knows (known: {})",
                known.join(", ")
            ),
        )
    })
}

/// `mip = M, slice = S` of a texture contents table, removed from it.
fn take_subresource(t: &mut toml::Table) -> Result<Option<Subresource>, String> {
    let mip = take_u32(t, "mip")?;
    let slice = take_u32(t, "slice")?;
    Ok((mip.is_some() || slice.is_some()).then(|| Subresource {
        mip: mip.unwrap_or(0),
        slice: slice.unwrap_or(0),
    }))
}

/// A texture's `init`: one contents table (optionally with mip and slice),
/// or a list of them, one per subresource. Each with the key its errors
/// point at.
fn parse_texture_init(
    v: &toml::Value,
) -> Result<Vec<(String, Option<Subresource>, Content)>, KeyErr> {
    let entry = |key: String, t: &toml::Table, list: bool| {
        let mut t = t.clone();
        let sub = take_subresource(&mut t).map_err(|m| (key.clone(), m))?;
        let sub = if list {
            Some(sub.unwrap_or(Subresource { mip: 0, slice: 0 }))
        } else {
            sub
        };
        let c = parse_content(t).map_err(|m| (key.clone(), m))?;
        Ok((format!("{key}.{}", c.form()), sub, c))
    };
    match v {
        toml::Value::Table(t) => Ok(vec![entry("init".into(), t, false)?]),
        toml::Value::Array(a) if !a.is_empty() => a
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                toml::Value::Table(t) => entry(format!("init[{i}]"), t, true),
                _ => Err((
                    format!("init[{i}]"),
                    "expected { mip = M, slice = S, <contents> }".into(),
                )),
            })
            .collect(),
        _ => Err((
            "init".into(),
            "expected a contents table such as { png = \"in.png\" }, or a list of { mip = M, slice = S, <contents> }".into(),
        )),
    }
}

/// What a texture contents form writes.
enum TexWrite {
    /// every word of the storage
    Words(Vec<u32>),
    /// whole subresources
    Subresources(Vec<(Subresource, Vec<u8>)>),
}

/// The writes content `c` makes to texture resource `r`: word forms fill the
/// whole storage (or, with `sub`, one subresource), `fill_texel` every texel
/// of every subresource (or of `sub`), `png` mip 0 slice 0 (or `sub`).
fn texture_writes(
    c: &Content,
    sub: Option<Subresource>,
    r: &Resource,
    program: &Program,
    base: &Path,
) -> Result<TexWrite, String> {
    let (Some(tex), View::Texture { format, .. }) = (r.texture(), r.view) else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    let desc = tex.desc();
    if let Some(s) = sub {
        if s.mip >= desc.mip_levels || s.slice >= desc.array_size {
            return Err(format!(
                "mip {} slice {} is not a subresource of '{}' ({} mips, {} slices)",
                s.mip, s.slice, r.name, desc.mip_levels, desc.array_size
            ));
        }
    }
    let size_of = |s: Subresource| tex.subresource_range(s.mip, s.slice).map_or(0, |r| r.len());
    if let Some(f) = c.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
        let s = sub.unwrap_or(Subresource { mip: 0, slice: 0 });
        let p = base.join(f);
        let arr = crate::npy::read(&p)?;
        let bytes = crate::npy::texture_bytes(&arr, &p, r, s.mip)?;
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    if let Some(p) = &c.png {
        let s = sub.unwrap_or(Subresource { mip: 0, slice: 0 });
        let [width, height, _] = tex.mip_size(s.mip);
        let target = PngTarget {
            width,
            height,
            what: format!("mip {} of '{}'", s.mip, r.name),
            named: Some(p.clone()),
        };
        let png = read_png(&base.join(p), Some(&target))?;
        let bytes = png_subresource(&png, p, r, tex, format, s)?;
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    if let Some(v) = &c.fill_texel {
        let texel = encode_texel(format, texel_registers(v, format)?)?;
        let all: Vec<Subresource> = match sub {
            Some(s) => vec![s],
            None => (0..desc.array_size)
                .flat_map(|slice| (0..desc.mip_levels).map(move |mip| Subresource { mip, slice }))
                .collect(),
        };
        return Ok(TexWrite::Subresources(
            all.into_iter()
                .map(|s| (s, texel.repeat(size_of(s) / texel.len().max(1))))
                .collect(),
        ));
    }
    if c.fields.is_some() {
        return Err("fields = {...} initialises constant buffers only".into());
    }
    check_generators(c)?;
    let Some(s) = sub else {
        let words = r.data().len_words();
        if let Some(n) = c.natural_words(base, r.view)? {
            if n != words {
                return Err(format!(
                    "{n} values given but '{}' holds {words} 32-bit words (all its subresources)",
                    r.name
                ));
            }
        }
        return Ok(TexWrite::Words(generate(c, words, program, r, base)?));
    };
    let size = size_of(s);
    if let Some(f) = &c.file {
        let p = base.join(f);
        let bytes = crate::files::read_input(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() != size {
            return Err(format!(
                "{}: {} bytes, but mip {} slice {} of '{}' holds {size} bytes",
                p.display(),
                bytes.len(),
                s.mip,
                s.slice,
                r.name
            ));
        }
        return Ok(TexWrite::Subresources(vec![(s, bytes)]));
    }
    let words = size.div_ceil(4);
    if let Some(n) = c.natural_words(base, r.view)? {
        if n != words {
            return Err(format!(
                "{n} values given but mip {} slice {} of '{}' holds {words} 32-bit words",
                s.mip, s.slice, r.name
            ));
        }
    }
    let mut bytes: Vec<u8> = generate(c, words, program, r, base)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    bytes.truncate(size);
    Ok(TexWrite::Subresources(vec![(s, bytes)]))
}

fn write_texture(r: &Resource, w: TexWrite) -> Result<(), String> {
    let Some(tex) = r.texture() else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    match w {
        TexWrite::Words(words) => tex.data().write_words(0, &words).map_err(|e| e.to_string()),
        TexWrite::Subresources(list) => list.into_iter().try_for_each(|(s, bytes)| {
            tex.write_subresource(s.mip, s.slice, &bytes)
                .map_err(|e| e.to_string())
        }),
    }
}

/// `fill_texel = [r, g, b, a]` as register values for `format`: integers
/// for UINT/SINT formats, floats otherwise; missing channels 0 (alpha 1).
fn texel_registers(values: &[f64], format: Format) -> Result<[u32; 4], String> {
    if values.is_empty() || values.len() > 4 {
        return Err("fill_texel takes 1 to 4 values [r, g, b, a]".into());
    }
    let kind = format.kind();
    let mut regs = match kind {
        ChannelKind::Uint | ChannelKind::Sint => [0, 0, 0, 1],
        _ => [0, 0, 0, 1.0f32.to_bits()],
    };
    for (reg, &v) in regs.iter_mut().zip(values) {
        *reg = match kind {
            ChannelKind::Uint if v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v) => {
                v as u32
            }
            ChannelKind::Sint
                if v.fract() == 0.0 && (i32::MIN as f64..=i32::MAX as f64).contains(&v) =>
            {
                v as i32 as u32
            }
            ChannelKind::Uint | ChannelKind::Sint => {
                return Err(format!(
                    "{v} is not a 32-bit {} integer, as {} needs",
                    if kind == ChannelKind::Uint {
                        "unsigned"
                    } else {
                        "signed"
                    },
                    format.name()
                ))
            }
            _ => (v as f32).to_bits(),
        };
    }
    Ok(regs)
}

/// One texel of `format` holding register values `regs`.
fn encode_texel(format: Format, regs: [u32; 4]) -> Result<Vec<u8>, String> {
    format.encode_texel(regs).ok_or_else(|| {
        format!(
            "{} texels cannot be converted from values; give the raw contents (file = \"…\", u32 = [...])",
            format.name()
        )
    })
}

/// The format whose conversions give an sRGB format's stored values (the
/// UNORM format of the same layout), or `f` itself.
fn stored_format(f: Format) -> Format {
    if f.is_srgb() {
        Format::from_name(f.name().trim_end_matches("_SRGB")).unwrap_or(f)
    } else {
        f
    }
}

/// Whether every channel of `f` is an 8-bit UNORM (or UNORM_SRGB) one.
fn is_8bit_unorm(f: Format) -> bool {
    !f.is_block_compressed()
        && f.kind() == ChannelKind::Unorm
        && !f.channel_bits().is_empty()
        && f.channel_bits().iter().all(|&b| b == 8)
}

/// The bit depth (8 or 16) of the PNG a texture of `format` dumps to: 8 for
/// 8-bit UNORM and UNORM_SRGB formats, 16 for the others.
pub fn png_bit_depth(format: Format) -> u8 {
    if is_8bit_unorm(format) {
        8
    } else {
        16
    }
}

/// An 8- or 16-bit image: `channels` values per pixel (1 gray, 2 gray and
/// alpha, 3 RGB, 4 RGBA), pixels row by row from the top left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngImage {
    /// width in pixels
    pub width: u32,
    /// height in pixels
    pub height: u32,
    /// values per pixel: 1, 2, 3 or 4
    pub channels: usize,
    /// 8 or 16
    pub bit_depth: u8,
    /// `width × height × channels` values
    pub values: Vec<u16>,
}

impl PngImage {
    /// The largest value: 255 or 65535.
    pub fn max(&self) -> u16 {
        if self.bit_depth == 8 {
            255
        } else {
            u16::MAX
        }
    }

    /// Pixel `i` as (R, G, B, A): gray is copied to R, G and B; a missing
    /// alpha is the largest value.
    fn rgba(&self, i: usize) -> [u16; 4] {
        let p = &self.values[i * self.channels..(i + 1) * self.channels];
        let max = self.max();
        match *p {
            [g] => [g, g, g, max],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, max],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, max],
        }
    }
}

/// What a PNG must be to be read: `width` x `height` pixels, for the
/// image described by `what` (such as `'dst' (mip 0)`).
#[derive(Debug, Clone)]
pub struct PngTarget {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// The image it is for, in messages.
    pub what: String,
    /// The file as the job names it, in messages (else its path).
    pub named: Option<PathBuf>,
}

/// Read an 8- or 16-bit gray, gray+alpha, RGB or RGBA PNG (palette and
/// low-bit-depth images are expanded to 8 bits). With a `target`, the
/// header's size is checked against it before any pixel is decoded, and the
/// decoder may allocate no more than that size's 16-bit RGBA image; without
/// one, up to 2 GiB (a 16384 x 16384 RGBA16 image, D3D11's largest 2D texture).
///
/// # Errors
/// A message naming the file when it cannot be read or decoded, or when its
/// size is not the target's.
pub fn read_png(path: &Path, target: Option<&PngTarget>) -> Result<PngImage, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let bytes = crate::files::read_input(path).map_err(|e| at(&e))?;
    // the png crate's default limit (64 MiB) refuses legal textures
    // (16384 x 8193 RGBA8 is 512 MiB): the limit comes from the job instead
    let bytes_limit = target.map_or(1 << 31, |t| {
        (t.width as usize * t.height as usize * 8).max(64 << 20)
    });
    let limits = png::Limits { bytes: bytes_limit };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    // palette → RGB(A), gray below 8 bits → 8 bits, tRNS → an alpha channel
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| at(&e))?;
    if let Some(t) = target {
        let info = reader.info();
        if (info.width, info.height) != (t.width, t.height) {
            return Err(format!(
                "{} is {}x{}, but {} is {}x{}",
                t.named.as_deref().unwrap_or(path).display(),
                info.width,
                info.height,
                t.what,
                t.width,
                t.height
            ));
        }
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| at(&"the image is too large for this machine's memory"))?;
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf).map_err(|e| at(&e))?;
    buf.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(at(&"an indexed image was not expanded to RGB"));
        }
    };
    let (bit_depth, values) = match info.bit_depth {
        png::BitDepth::Eight => (8, buf.into_iter().map(u16::from).collect()),
        // PNG stores 16-bit samples big-endian
        png::BitDepth::Sixteen => (
            16,
            buf.chunks_exact(2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .collect(),
        ),
        other => {
            return Err(at(&format!(
                "{other:?}-bit samples are not supported (8- or 16-bit gray, gray+alpha, RGB or RGBA)"
            )));
        }
    };
    Ok(PngImage {
        width: info.width,
        height: info.height,
        channels,
        bit_depth,
        values,
    })
}

/// The bytes of subresource `s` of `tex` from `png`: 8-bit RGBA into
/// R8G8B8A8_UNORM(_SRGB) byte for byte; otherwise each pixel as (R, G, B,
/// A) values, divided by 255 or 65535 into [0, 1] (the integers themselves
/// for UINT/SINT formats) and converted by the format (sRGB formats: the PNG
/// values are the stored values, as their UNORM twins convert them).
fn png_subresource(
    png: &PngImage,
    file: &Path,
    r: &Resource,
    tex: &Texture,
    format: Format,
    s: Subresource,
) -> Result<Vec<u8>, String> {
    let [w, h, d] = tex.mip_size(s.mip);
    if tex.desc().sample_count > 1 {
        return Err("png initialises single-sample textures".into());
    }
    if d != 1 {
        return Err(format!(
            "png fills a 2D image, but mip {} of '{}' is {w}x{h}x{d}",
            s.mip, r.name
        ));
    }
    if (png.width, png.height) != (w, h) {
        return Err(format!(
            "{} is {}x{}, but mip {} of '{}' is {w}x{h}",
            file.display(),
            png.width,
            png.height,
            s.mip,
            r.name
        ));
    }
    if matches!(format.name(), "R8G8B8A8_UNORM" | "R8G8B8A8_UNORM_SRGB")
        && png.channels == 4
        && png.bit_depth == 8
    {
        return Ok(png.values.iter().map(|&v| v as u8).collect());
    }
    let f = stored_format(format);
    let integer = matches!(f.kind(), ChannelKind::Uint | ChannelKind::Sint);
    let max = png.max() as f64;
    let mut out = Vec::with_capacity(w as usize * h as usize * f.size_bytes() as usize);
    for i in 0..(w as usize * h as usize) {
        let rgba = png.rgba(i);
        let regs = rgba.map(|v| {
            if integer {
                v as u32
            } else {
                ((v as f64 / max) as f32).to_bits()
            }
        });
        out.extend(encode_texel(f, regs)?);
    }
    Ok(out)
}

/// The size of mip 0 of a texture that PNGs can stand for (2D, single
/// sample), or why not.
///
/// # Errors
/// A message when `r` is a buffer or not a single-sample 2D texture.
pub fn png_target(r: &Resource) -> Result<(u32, u32), String> {
    let Some(tex) = r.texture() else {
        return Err(format!(
            "'{}' is a buffer; PNGs are for 2D textures (mip 0, slice 0)",
            r.name
        ));
    };
    let desc = tex.desc();
    if desc.dimension != TextureDimension::Texture2D {
        return Err(format!(
            "'{}' is a {:?} texture; PNGs are for 2D textures (mip 0, slice 0)",
            r.name, desc.dimension
        ));
    }
    if desc.sample_count > 1 {
        return Err(format!(
            "'{}' is multisampled; PNGs are for single-sample 2D textures",
            r.name
        ));
    }
    Ok((desc.width, desc.height))
}

/// Mip 0, slice 0 of a 2D texture resource as an image, as `--dump
/// NAME=FILE.png` writes it: gray for 1-channel formats, RGB for 2- and
/// 3-channel ones (missing channels 0), RGBA for 4 channels; `bit_depth` 8
/// or 16 (None: [`png_bit_depth`] of the format). Values: 8-bit UNORM and
/// UNORM_SRGB formats their stored bytes (× 257 for 16 bits); UINT/SINT
/// formats the integer clamped to the range; others decoded to float,
/// clamped to [0, 1], × 255 or 65535, + 0.5, truncated (NaN → 0).
///
/// # Errors
/// A message when the resource is not a single-sample 2D texture.
pub fn texture_image(r: &Resource, bit_depth: Option<u8>) -> Result<PngImage, String> {
    let (width, height) = png_target(r)?;
    let (Some(tex), View::Texture { format, .. }) = (r.texture(), r.view) else {
        return Err(format!("'{}' is not a texture", r.name));
    };
    let bit_depth = bit_depth.unwrap_or_else(|| png_bit_depth(format));
    let f = stored_format(format);
    let max: u32 = if bit_depth == 8 { 255 } else { 65535 };
    let channels = match format.channels() {
        1 => 1,
        2 | 3 => 3,
        _ => 4,
    };
    let kind = f.kind();
    let level = |reg: u32| -> u16 {
        let v = match kind {
            ChannelKind::Uint => reg.min(max),
            ChannelKind::Sint => (reg as i32).clamp(0, max as i32) as u32,
            _ => {
                let x = f32::from_bits(reg);
                if x > 0.0 {
                    (x.min(1.0) as f64 * max as f64 + 0.5) as u32
                } else {
                    0 // negative, zero or NaN
                }
            }
        };
        v as u16
    };
    let mut values = Vec::with_capacity(width as usize * height as usize * channels);
    for y in 0..height {
        for x in 0..width {
            let regs = tex.read_texel(f, 0, 0, [x, y, 0], 0).unwrap_or_default();
            values.extend(regs[..channels].iter().map(|&v| level(v)));
        }
    }
    Ok(PngImage {
        width,
        height,
        channels,
        bit_depth,
        values,
    })
}

/// Compare mip 0 slice 0 of `r` with the PNG at `path`, converted to its bit
/// depth as [`texture_image`] does; values may differ by `tolerance`. R, G
/// and B are compared (only the first when both images are gray), alpha when
/// the PNG has it. Returns how many values differ and the first few.
fn compare_png(
    r: &Resource,
    path: &Path,
    tolerance: u32,
) -> Result<(usize, Vec<Mismatch>), String> {
    let [width, height, _] = match &r.storage {
        Storage::Texture(t) => t.mip_size(0),
        Storage::Buffer(_) => return Err(format!("'{}' is not a texture", r.name)),
    };
    let target = PngTarget {
        width,
        height,
        what: format!("'{}' (mip 0)", r.name),
        named: None,
    };
    let want = read_png(path, Some(&target))?;
    let have = texture_image(r, Some(want.bit_depth))?;
    if (want.width, want.height) != (have.width, have.height) {
        return Err(format!(
            "{} is {}x{}, but '{}' (mip 0) is {}x{}",
            path.display(),
            want.width,
            want.height,
            r.name,
            have.width,
            have.height
        ));
    }
    let gray = want.channels <= 2 && have.channels <= 2;
    let alpha = want.channels == 2 || want.channels == 4;
    let compared: Vec<usize> = (0..4)
        .filter(|&c| match c {
            3 => alpha,
            0 => true,
            _ => !gray,
        })
        .collect();
    let mut count = 0;
    let mut first = Vec::new();
    for i in 0..(want.width as usize * want.height as usize) {
        let (a, b) = (want.rgba(i), have.rgba(i));
        for &c in &compared {
            if (a[c] as u32).abs_diff(b[c] as u32) > tolerance {
                count += 1;
                if first.len() < MISMATCHES_SHOWN {
                    let (x, y) = (i % want.width as usize, i / want.width as usize);
                    first.push(Mismatch {
                        index: i,
                        expected: format!("{} (x {x}, y {y}, {})", a[c], ["R", "G", "B", "A"][c]),
                        got: b[c].to_string(),
                    });
                }
            }
        }
    }
    Ok((count, first))
}

// ---------------------------------------------------------------------------
// Samplers

fn resolve_sampler(name: &str, spec: &SamplerSpec, program: &Program) -> Result<Sampler, KeyErr> {
    let e = |k: &str, m: String| (k.to_string(), m);
    let binding = program.reflection.as_ref().and_then(|r| r.binding(name));
    let slot = match (&spec.slot, binding) {
        (Some(s), _) => s
            .trim()
            .to_ascii_lowercase()
            .strip_prefix('s')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n < 16)
            .ok_or_else(|| e("slot", format!("'{s}' is not a sampler slot s0 … s15")))?,
        (None, Some(b)) if b.input_type == InputType::Sampler => b.bind_point,
        (None, Some(b)) => {
            return Err(e(
                "slot",
                format!(
                    "'{name}' is a {}# resource in the shader, not a sampler; resources go under [resources.{name}]",
                    b.input_type.register_prefix()
                ),
            ))
        }
        (None, None) => {
            return Err(e(
                "slot",
                format!("'{name}' is not a sampler name in the shader's RDEF; give slot = \"s0\""),
            ))
        }
    };
    let mut d = SamplerDesc::default();
    if let Some(f) = &spec.filter {
        d.filter = Filter::from_name(f).ok_or_else(|| {
            e(
                "filter",
                format!("'{f}' is not a D3D11_FILTER name (e.g. MIN_MAG_MIP_LINEAR, MIN_MAG_MIP_POINT, MIN_MAG_LINEAR_MIP_POINT, ANISOTROPIC, COMPARISON_MIN_MAG_MIP_LINEAR)"),
            )
        })?;
    }
    let mode = |key: &str, v: &str| {
        AddressMode::from_name(v).ok_or_else(|| {
            e(
                key,
                format!("'{v}' is not WRAP, MIRROR, CLAMP, BORDER or MIRROR_ONCE"),
            )
        })
    };
    if let Some(a) = &spec.address {
        d.address = [mode("address", a)?; 3];
    }
    for (i, (key, v)) in [
        ("address_u", &spec.address_u),
        ("address_v", &spec.address_v),
        ("address_w", &spec.address_w),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(v) = v {
            d.address[i] = mode(key, v)?;
        }
    }
    if let Some(c) = &spec.comparison {
        d.comparison = ComparisonFunc::from_name(c).ok_or_else(|| {
            let known: Vec<_> = ComparisonFunc::ALL.iter().map(|f| f.name()).collect();
            e(
                "comparison",
                format!("'{c}' is not a comparison ({})", known.join(", ")),
            )
        })?;
    }
    if let Some(b) = &spec.border_color {
        d.border_color = <[f32; 4]>::try_from(b.as_slice()).map_err(|_| {
            e(
                "border_color",
                format!("needs 4 values [r, g, b, a], not {}", b.len()),
            )
        })?;
    }
    if let Some(v) = spec.mip_lod_bias {
        d.mip_lod_bias = v;
    }
    if let Some(v) = spec.max_anisotropy {
        d.max_anisotropy = v;
    }
    if let Some(v) = spec.min_lod {
        d.min_lod = v;
    }
    if let Some(v) = spec.max_lod {
        d.max_lod = v;
    }
    d.validate().map_err(|m| {
        let key = [
            ("max_anisotropy", spec.max_anisotropy.is_some()),
            ("mip_lod_bias", spec.mip_lod_bias.is_some()),
            ("min_lod", spec.min_lod.is_some()),
            ("max_lod", spec.max_lod.is_some()),
        ]
        .into_iter()
        .find(|(k, given)| *given && m.starts_with(k))
        .map_or("", |(k, _)| k);
        e(key, m)
    })?;
    Ok(Sampler {
        name: name.to_string(),
        slot,
        desc: d,
    })
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
