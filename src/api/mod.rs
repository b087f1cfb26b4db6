//! The Rust API by name: load a shader, create resources from typed slices,
//! bind them by their HLSL names (or slots), set constant buffers by field
//! name, dispatch, and read the results back as typed slices — no job file.
//!
//! ```
//! use sm5sim::api::{Kernel, Options, Resource, Shader};
//! let shader = Shader::load("examples/saxpy_structured/saxpy_structured.dxbc")?;
//! let x = Resource::from_slice(&[[1.0f32, 2.0, 3.0, 4.0]])?;
//! let y = Resource::from_slice(&[[1.0f32; 4]])?;
//! let mut k = Kernel::new(shader);
//! k.bind("x", &x)?.bind("y", &y)?;
//! k.set_constants("Params", &[("a", 2.0f32.into()), ("element_count", 1u32.into())])?;
//! k.dispatch([1, 1, 1], &Options::default())?;
//! assert_eq!(y.read::<[f32; 4]>()?, vec![[3.0, 5.0, 7.0, 9.0]]);
//! # Ok::<(), sm5sim::api::ApiError>(())
//! ```
//!
//! The pieces: a [`Shader`] (the program, its reflection: names → slots,
//! cbuffer layouts), [`Resource`]s (shared handles to a buffer's or a
//! texture's storage), a [`Kernel`] (a shader with what is bound to it), and
//! [`Options`] for [`Kernel::dispatch`]. Every failure is one [`ApiError`]
//! whose message says which resource, slot or field and what is wrong; no
//! input makes the API panic. `docs/rust-api.md` is the guide. The job layer
//! ([`crate::job`]) builds its runs on these types: its resources are
//! [`Resource`]s bound to a [`Kernel`], and its dispatches are
//! [`Kernel::run`].

mod cancel;
mod clip;
mod copy;
mod kernel;
mod resource;
mod shader;
mod value;

pub use cancel::CancelToken;
pub(crate) use clip::clip_message;
pub use clip::{clip, clip_to, error_text, ECHO_LIMIT};
pub use copy::{same_type_group, TextureRegion};
pub use kernel::{Dispatched, Kernel, Options};
pub use resource::{Element, Resource, Storage};
pub use shader::{ResourceInfo, Shader};
pub use value::Value;

pub(crate) use shader::rdef_texture as shader_rdef_texture;

/// `docs/rust-api.md`, whose Rust blocks run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/rust-api.md")]
pub struct RustApiGuide;
pub(crate) use shader::{
    check_buffer_size, check_buffer_view, check_return_type, constant_buffer_size, declared_names,
    describe_decl, rdef_name,
};

use crate::compiler::CompileError;
use sim_core::LoadError;
use sim_mem::{Format, ViewDimension, ViewRange};
use sim_sched::DispatchError;
use std::path::PathBuf;

/// Everything the API can refuse. Each message names where (the shader, a
/// resource's name and slot, a cbuffer field's path) and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A file could not be read.
    #[error("{}: {source}", clip(&path.display().to_string()))]
    Io {
        /// the file
        path: PathBuf,
        /// the OS error
        source: std::io::Error,
    },
    /// An HLSL shader could not be compiled (the error names the file).
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The shader's bytes are no program sm5sim runs.
    #[error("{}: {source}", clip(shader))]
    Load {
        /// the shader's name (its file name, or the name given with the bytes)
        shader: String,
        /// why
        source: LoadError,
    },
    /// A name that is neither an HLSL name in the shader's RDEF nor a slot
    /// (`t0`, `u1`, `cb0`, `b0`, `s0`).
    #[error(
        "{}: '{}' is neither a resource name in the shader's RDEF nor a slot name; {}",
        clip(shader),
        clip(name),
        clip_message(declared)
    )]
    UnknownName {
        /// the shader
        shader: String,
        /// the name given
        name: String,
        /// what the shader does declare ("it declares u0 ('bins'), …")
        declared: String,
    },
    /// A resource does not fit the slot it is bound to: the wrong kind
    /// (buffer for texture, sampler for resource), view, stride or format.
    #[error("'{}' ({slot}): {}", clip(name), clip_message(message))]
    Binding {
        /// the name the binding was asked by
        name: String,
        /// the slot it resolved to
        slot: Slot,
        /// what does not fit
        message: String,
    },
    /// A kernel has nothing bound by this name ([`Kernel::read`]).
    #[error("nothing is bound as '{}' ({})", clip(name), clip_message(bound))]
    NotBound {
        /// the name asked for
        name: String,
        /// what is bound ("bound: t0 ('keys'), …" or "nothing is bound")
        bound: String,
    },
    /// A slot the shader declares has nothing bound at dispatch.
    #[error("{slot}{}: the shader declares it but nothing is bound there", name.as_ref().map(|n| format!(" ('{}')", clip(n))).unwrap_or_default())]
    Unbound {
        /// the slot
        slot: Slot,
        /// its RDEF name, when the shader has one
        name: Option<String>,
    },
    /// A constant-buffer field that names no variable, or whose value does
    /// not have the variable's HLSL shape or range.
    #[error("cbuffer {}: {}: {}", clip(cbuffer), clip(path), clip_message(message))]
    Field {
        /// the cbuffer's name (or slot)
        cbuffer: String,
        /// the value's path: `w`, `w[1]`, `light.pos`
        path: String,
        /// what was expected and given
        message: String,
    },
    /// A resource could not be made, written or read as asked: a size of
    /// zero or not a whole number of words or elements, a texture
    /// description D3D11 refuses, a read past the end.
    #[error("{}: {}", clip_message(what), clip_message(message))]
    Resource {
        /// the resource ("a buffer of 12 bytes", "'y' (u0)", …)
        what: String,
        /// what is wrong
        message: String,
    },
    /// The shader cannot run as it is (an interface slot without a class
    /// instance, no reflection for a cbuffer set by field).
    #[error("{}: {}", clip(shader), clip_message(message))]
    Shader {
        /// the shader
        shader: String,
        /// what is wrong
        message: String,
    },
    /// A dispatch was refused or stopped (D3D's group limits, the threads
    /// asked for, the watchdog). The message is the dispatch's own (it
    /// names the group counts, or the group, lane and instruction stopped).
    #[error("{source}")]
    Dispatch {
        /// the group counts
        groups: [u32; 3],
        /// why
        source: DispatchError,
    },
}

impl ApiError {
    /// Whether this is a dispatch stopped because its
    /// [`CancelToken`] was cancelled (not a watchdog stop or a refusal).
    pub fn is_cancelled(&self) -> bool {
        matches!(
            self,
            ApiError::Dispatch {
                source: DispatchError::Runaway(r),
                ..
            } if r.reason == sim_core::exec::StopReason::Cancelled
        )
    }
}

/// Which register file a resource is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SlotKind {
    /// `t#`
    Srv,
    /// `u#`
    Uav,
    /// `cb#` (also written `b#`)
    ConstantBuffer,
}

/// A resource slot such as `t0`, `u3`, `cb1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// register file
    pub kind: SlotKind,
    /// register number
    pub index: u32,
}

impl Slot {
    /// `t0`, `u1`, `cb2` or `b2` (any case, surrounding spaces ignored);
    /// None for anything else (samplers `s#` included: they are bound apart).
    pub fn parse(s: &str) -> Option<Slot> {
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

/// How a resource is viewed at its slot (D3D11's SRV/UAV descriptions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// byte-address (`ByteAddressBuffer`)
    Raw,
    /// structured with this stride in bytes (`StructuredBuffer<T>`)
    Structured(u32),
    /// constant buffer (`cbuffer`)
    Constant,
    /// typed buffer of this DXGI format (`Buffer<T>`)
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

    /// A typed-buffer view of the DXGI format named `format`
    /// (`"R32_FLOAT"`, `"DXGI_FORMAT_R8G8B8A8_UNORM"`).
    ///
    /// # Errors
    /// [`ApiError::Resource`] for a name that is no format a typed buffer
    /// can have (the message lists those).
    pub fn typed(format: &str) -> Result<View, ApiError> {
        typed_format(format)
            .map(View::Typed)
            .map_err(|message| ApiError::Resource {
                what: "a typed view".into(),
                message,
            })
    }

    /// A texture view of `format` covering every mip and slice.
    pub fn texture(dimension: ViewDimension, format: Format) -> View {
        View::Texture {
            dimension,
            format,
            range: ViewRange::default(),
        }
    }
}

/// The typed-buffer format named `name`, or a message listing those there are.
pub(crate) fn typed_format(name: &str) -> Result<Format, String> {
    Format::from_name(name)
        .filter(|f| f.buffer_viewable())
        .ok_or_else(|| {
            let known: Vec<_> = Format::ALL
                .iter()
                .filter(|f| f.buffer_viewable())
                .map(|f| f.name())
                .collect();
            format!(
                "'{}' is not a typed-buffer format (known: {})",
                clip(name),
                known.join(", ")
            )
        })
}
