//! Memory objects of sm5sim and their access rules.
//!
//! - [`Buffer`]: the storage behind SRVs and UAVs, an array of 32-bit words
//!   held as `AtomicU32`, so plain shader loads and stores are `Relaxed`
//!   atomic accesses (a plain `mov` on x86) and shader atomics are real
//!   read-modify-writes across OS threads.
//! - [`BufferView`]: a raw or structured view with the bounds rules of
//!   `reference/sm5-compute-isa.md` §11.1 and §14.
//! - [`Tgsm`]: the groupshared (TGSM) arena of one thread group, plain memory
//!   because a group runs on one OS thread from start to end.
//! - [`Bindings`]: what a dispatch sees in its cb#, t# and u# slots.
//! - [`sync`]: the one place that swaps std atomics for loom's under `cfg(loom)`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod addressing;
pub mod atomic;
mod bc;
pub mod buffer;
pub mod format;
pub mod sampler;
pub mod sampling;
pub mod sync;
pub mod texture;
pub mod tgsm;

pub use addressing::{
    affine_grid, affine_line, affine_words, affine_words_2d, lane_words, raw_word_index,
    structured_word_index, Extent,
};
pub use atomic::AtomicOp;
pub use buffer::{Buffer, BufferView, Contents, MemError, ViewKind};
pub use format::{ChannelKind, Format};
pub use sampler::{AddressMode, ComparisonFunc, Filter, FilterType, Reduction, SamplerDesc};
pub use texture::{
    Texture, TextureDesc, TextureDimension, TextureError, TextureView, UavTexels, ViewDimension,
    ViewRange,
};
pub use tgsm::{Tgsm, TgsmRegion, MAX_TGSM_BYTES};

/// The resources bound for one dispatch, by slot number.
///
/// An empty slot follows D3D's rule for unbound resources: reads return 0 and
/// writes are dropped (`reference/sm5-compute-isa.md` §14); the job layer
/// refuses to run a shader whose declared slots are empty, so this rule only
/// matters to library users.
#[derive(Debug, Default, Clone)]
pub struct Bindings<'a> {
    /// Constant buffers `cb#`: 32-bit words, four per vec4 element; reads past the end return 0.
    pub constant_buffers: Vec<Option<&'a [u32]>>,
    /// Shader resource views `t#`.
    pub srvs: Vec<Option<BufferView<'a>>>,
    /// Unordered access views `u#`.
    pub uavs: Vec<Option<BufferView<'a>>>,
    /// Texture SRVs `t#` (a slot holds a buffer view in `srvs` or a texture view here).
    pub srv_textures: Vec<Option<TextureView<'a>>>,
    /// Texture UAVs `u#` (a slot holds a buffer view in `uavs` or a texture view here).
    pub uav_textures: Vec<Option<TextureView<'a>>>,
    /// Samplers `s#`.
    pub samplers: Vec<Option<SamplerDesc>>,
}

impl<'a> Bindings<'a> {
    /// The constant buffer in slot `slot`, if bound.
    pub fn constant_buffer(&self, slot: u32) -> Option<&'a [u32]> {
        self.constant_buffers.get(slot as usize).copied().flatten()
    }
    /// The SRV in slot `slot`, if bound.
    pub fn srv(&self, slot: u32) -> Option<BufferView<'a>> {
        self.srvs.get(slot as usize).copied().flatten()
    }
    /// The UAV in slot `slot`, if bound.
    pub fn uav(&self, slot: u32) -> Option<BufferView<'a>> {
        self.uavs.get(slot as usize).copied().flatten()
    }
    /// The texture SRV in slot `slot`, if bound.
    pub fn srv_texture(&self, slot: u32) -> Option<TextureView<'a>> {
        self.srv_textures.get(slot as usize).copied().flatten()
    }
    /// The texture UAV in slot `slot`, if bound.
    pub fn uav_texture(&self, slot: u32) -> Option<TextureView<'a>> {
        self.uav_textures.get(slot as usize).copied().flatten()
    }
    /// The sampler in slot `slot`, if bound.
    pub fn sampler(&self, slot: u32) -> Option<&SamplerDesc> {
        self.samplers.get(slot as usize).and_then(|s| s.as_ref())
    }
}
