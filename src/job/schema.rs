//! The job file's schema as serde reads it (`docs/jobs.md`), before it is
//! resolved against the shader.

use crate::job::View;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JobFile {
    /// `skip = "reason"`: the job is reported as skipped, not run
    /// ([`super::skip_reason`]).
    #[allow(dead_code)]
    pub(super) skip: Option<String>,
    /// The one shader of a single-shader job (absent with `[shaders]`).
    pub(super) shader: Option<PathBuf>,
    /// HLSL only: entry point (default `main`).
    pub(super) entry: Option<String>,
    /// HLSL only: target profile (default `cs_5_0`).
    pub(super) profile: Option<String>,
    /// HLSL only: `NAME = "VALUE"` macros.
    pub(super) defines: Option<toml::Table>,
    /// HLSL only: include directories, relative to the job file.
    pub(super) include_dirs: Option<Vec<PathBuf>>,
    /// Class linkage: the function table (`ft#`) of the class instance bound
    /// to each interface slot, as D3D's `SetShader` binds class instances.
    pub(super) class_instances: Option<Vec<u32>>,
    /// Named shaders: a job of several shaders, each dispatch naming one.
    #[serde(default)]
    pub(super) shaders: BTreeMap<String, ShaderSpec>,
    #[serde(default)]
    pub(super) resources: BTreeMap<String, ResourceSpec>,
    #[serde(default)]
    pub(super) samplers: BTreeMap<String, SamplerSpec>,
    #[serde(default)]
    pub(super) steps: Vec<toml::Table>,
    /// `[check]`: what `sm5sim check` is told about the job.
    pub(super) check: Option<CheckSpec>,
}

/// `[check]`: `allow = [{ kind = "out-of-bounds", resource = "keys" }]`
/// (`docs/checking.md`, "Suppressions").
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CheckSpec {
    #[serde(default)]
    pub(super) allow: Vec<AllowSpec>,
}

/// One rule of `[check] allow`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AllowSpec {
    /// a kind of finding (`FindingKind::name`)
    pub(super) kind: String,
    /// a resource of the job, or a slot (`u0`, `t1`, `g0`); absent: any
    pub(super) resource: Option<String>,
}

/// A shader of `[shaders.NAME]`: the keys a single-shader job's top level
/// takes for its shader.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShaderSpec {
    pub(super) shader: PathBuf,
    pub(super) entry: Option<String>,
    pub(super) profile: Option<String>,
    pub(super) defines: Option<toml::Table>,
    pub(super) include_dirs: Option<Vec<PathBuf>>,
    pub(super) class_instances: Option<Vec<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ResourceSpec {
    pub(super) slot: Option<String>,
    pub(super) view: Option<String>,
    pub(super) stride: Option<u32>,
    pub(super) format: Option<String>,
    pub(super) elements: Option<u64>,
    pub(super) size_bytes: Option<u64>,
    /// A contents table; for textures also a list of per-subresource tables.
    pub(super) init: Option<toml::Value>,
    pub(super) counter: Option<u32>,
    /// How `check --schedules` compares the resource: `exact` or `multiset`.
    pub(super) compare: Option<String>,
    /// The buffer may hold `DispatchIndirect`'s arguments
    /// (`D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS`).
    pub(super) indirect_args: Option<bool>,
    // Textures.
    pub(super) width: Option<u32>,
    pub(super) height: Option<u32>,
    pub(super) depth: Option<u32>,
    pub(super) array_size: Option<u32>,
    pub(super) mips: Option<u32>,
    pub(super) samples: Option<u32>,
    pub(super) most_detailed_mip: Option<u32>,
    pub(super) mip_count: Option<u32>,
    pub(super) first_slice: Option<u32>,
    pub(super) slice_count: Option<u32>,
}

impl ResourceSpec {
    /// The keys that only textures take, and whether each is given.
    pub(super) fn texture_keys(&self) -> [(&'static str, bool); 10] {
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
    pub(super) fn buffer_keys(&self) -> [(&'static str, bool); 6] {
        [
            ("indirect_args", self.indirect_args.is_some()),
            ("stride", self.stride.is_some()),
            ("elements", self.elements.is_some()),
            ("size_bytes", self.size_bytes.is_some()),
            ("counter", self.counter.is_some()),
            ("compare", self.compare.is_some()),
        ]
    }

    /// Whether `key` is given (for pointing errors at it).
    pub(super) fn has(&self, key: &str) -> bool {
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
pub(super) struct SamplerSpec {
    pub(super) slot: Option<String>,
    pub(super) filter: Option<String>,
    pub(super) address: Option<String>,
    pub(super) address_u: Option<String>,
    pub(super) address_v: Option<String>,
    pub(super) address_w: Option<String>,
    pub(super) mip_lod_bias: Option<f32>,
    pub(super) max_anisotropy: Option<u32>,
    pub(super) comparison: Option<String>,
    pub(super) border_color: Option<Vec<f32>>,
    pub(super) min_lod: Option<f32>,
    pub(super) max_lod: Option<f32>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct RandomU32 {
    pub(super) seed: u64,
    #[serde(default)]
    pub(super) min: u32,
    #[serde(default = "u32_max")]
    pub(super) max: u32,
}

pub(super) fn u32_max() -> u32 {
    u32::MAX
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct RandomF32 {
    pub(super) seed: u64,
    #[serde(default)]
    pub(super) min: f64,
    #[serde(default = "one")]
    pub(super) max: f64,
}

pub(super) fn one() -> f64 {
    1.0
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct IotaU32 {
    #[serde(default)]
    pub(super) start: u32,
    #[serde(default = "one_u32")]
    pub(super) step: u32,
}

pub(super) fn one_u32() -> u32 {
    1
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct IotaF32 {
    #[serde(default)]
    pub(super) start: f32,
    #[serde(default = "one_f32")]
    pub(super) step: f32,
}

pub(super) fn one_f32() -> f32 {
    1.0
}

/// One way to give a resource's contents: exactly one field is set.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct Content {
    pub(super) u32: Option<Vec<u32>>,
    pub(super) i32: Option<Vec<i32>>,
    pub(super) f32: Option<Vec<f32>>,
    pub(super) fill_u32: Option<u32>,
    pub(super) fill_f32: Option<f32>,
    pub(super) iota_u32: Option<IotaU32>,
    pub(super) iota_f32: Option<IotaF32>,
    pub(super) random_u32: Option<RandomU32>,
    pub(super) random_f32: Option<RandomF32>,
    pub(super) file: Option<PathBuf>,
    pub(super) fields: Option<toml::Table>,
    /// Textures: one texel value everywhere, converted by the format.
    pub(super) fill_texel: Option<Vec<f64>>,
    /// Textures: a PNG file for one subresource.
    pub(super) png: Option<PathBuf>,
}

impl Content {
    pub(super) fn count(&self) -> usize {
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
    pub(super) fn form(&self) -> &'static str {
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
    pub(super) fn is_texel_form(&self) -> bool {
        self.fill_texel.is_some() || self.png.is_some()
    }

    /// Whether the words are floats (for comparisons with a tolerance).
    pub(super) fn is_float(&self) -> bool {
        self.f32.is_some()
            || self.fill_f32.is_some()
            || self.iota_f32.is_some()
            || self.random_f32.is_some()
    }

    /// Number of words this content has by itself (lists and files), if any.
    /// The 32-bit words a list or file gives, when it fixes a count; for a
    /// `.npy` file, those it holds for a resource of `view`.
    pub(super) fn natural_words(&self, base: &Path, view: View) -> Result<Option<usize>, String> {
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

/// Declares the step kinds once: the key a `[[steps]]` table names its kind
/// by, the [`StepKind`] variant serde reads `KEY = VALUE` into with its
/// payload's type, and what the payload must look like (the message when
/// serde refuses it). A new kind of step is one line here and its arm in
/// `steps::Resolve::step` (and in `Job::run_steps` when it is a new kind of
/// `Step`).
macro_rules! step_kinds {
    ($($(#[$doc:meta])* $variant:ident($payload:ty) = $key:literal, $shape:expr;)*) => {
        /// A step's kind and its payload, as serde reads the one `KIND =
        /// VALUE` entry of a `[[steps]]` table (`docs/job-files.md`,
        /// "Steps"). A table payload is checked key by key when the step is
        /// resolved against the job, so that an error names the key.
        #[derive(Debug, Deserialize)]
        pub(super) enum StepKind {
            $($(#[$doc])* #[serde(rename = $key)] $variant($payload),)*
        }

        impl StepKind {
            /// Every kind's key, in declaration order.
            pub(super) const KEYS: &'static [&'static str] = &[$($key),*];

            /// The kind's key (`dispatch`, `copy_region`, …).
            pub(super) fn key(&self) -> &'static str {
                match self {
                    $(StepKind::$variant(_) => $key,)*
                }
            }

            /// What the payload of kind `key` must look like.
            fn shape(key: &str) -> &'static str {
                match key {
                    $($key => $shape,)*
                    _ => "",
                }
            }
        }
    };
}

/// The message for a copy step whose value is not a table.
const COPY_SHAPE: &str = "expected an inline table { from = \"A\", to = \"B\", … }";

step_kinds! {
    /// `dispatch = [x, y, z]`: group counts (`Dispatch`)
    Dispatch([u32; 3]) = "dispatch", "expected [x, y, z] group counts";
    /// `dispatch_indirect = { args = "NAME", offset = BYTES }`
    /// (`DispatchIndirect`)
    DispatchIndirect(toml::Table) = "dispatch_indirect", "expected { args = \"NAME\", offset = BYTES }";
    /// `set = { resource = "NAME", … }`: new contents or counter
    Set(toml::Table) = "set", "expected an inline table";
    /// `expect = { resource = "NAME", … }`: an expectation
    Expect(toml::Table) = "expect", "expected an inline table";
    /// `copy = { from, to }` (`CopyResource`)
    Copy(toml::Table) = "copy", COPY_SHAPE;
    /// `copy_region = { from, to, … }` (`CopySubresourceRegion`)
    CopyRegion(toml::Table) = "copy_region", COPY_SHAPE;
    /// `copy_structure_count = { from, to, offset }` (`CopyStructureCount`)
    CopyStructureCount(toml::Table) = "copy_structure_count", COPY_SHAPE;
}

/// One `[[steps]]` table read: its kind with its payload, and the keys a
/// dispatch of a job with `[shaders]` takes beside it.
#[derive(Debug)]
pub(super) struct StepSpec {
    /// `steps[i]`, for messages
    pub(super) key: String,
    /// the kind and its payload
    pub(super) kind: StepKind,
    /// `shader = "NAME"` (dispatches of a job with `[shaders]`)
    pub(super) shader: Option<toml::Value>,
    /// `bind = { … }` (dispatches of a job with `[shaders]`)
    pub(super) bind: Option<toml::Value>,
}

impl StepSpec {
    /// Step `i`'s table: exactly one kind's key, `shader` and `bind` only
    /// beside a dispatch of a job with `[shaders]` (`several`), no other
    /// key, and a payload of the kind's shape.
    ///
    /// # Errors
    /// The key at fault (`steps[i]`, `steps[i].KEY`) and why.
    pub(super) fn read(
        i: usize,
        table: &toml::Table,
        several: bool,
    ) -> Result<StepSpec, (String, String)> {
        let key = format!("steps[{i}]");
        let kinds: Vec<&str> = table
            .keys()
            .map(String::as_str)
            .filter(|k| StepKind::KEYS.contains(k))
            .collect();
        let [kind] = kinds[..] else {
            let found = if kinds.is_empty() {
                table
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                kinds.join(", ")
            };
            return Err((
                key,
                format!(
                    "each step has exactly one of {} (found: {found})",
                    StepKind::KEYS.join(", ")
                ),
            ));
        };
        let dispatches = matches!(kind, "dispatch" | "dispatch_indirect");
        for extra in table
            .keys()
            .filter(|k| !StepKind::KEYS.contains(&k.as_str()))
        {
            let ok = several && dispatches && matches!(extra.as_str(), "shader" | "bind");
            if !ok {
                let m = match extra.as_str() {
                    "shader" | "bind" if !several => format!(
                        "{extra} belongs to dispatch steps of a job with [shaders]; this job has one shader"
                    ),
                    "shader" | "bind" => format!("{extra} belongs to dispatch steps"),
                    _ => format!("unknown key '{extra}' beside {kind}"),
                };
                return Err((format!("{key}.{extra}"), m));
            }
        }
        let mut one = toml::Table::new();
        one.insert(kind.to_owned(), table[kind].clone());
        let kind: StepKind = toml::Value::Table(one)
            .try_into()
            .map_err(|_| (format!("{key}.{kind}"), StepKind::shape(kind).to_owned()))?;
        Ok(StepSpec {
            key,
            kind,
            shader: table.get("shader").cloned(),
            bind: table.get("bind").cloned(),
        })
    }
}
