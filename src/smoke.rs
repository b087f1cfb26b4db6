//! Smoke runs: a shader dispatched on synthetic resources, without a job
//! file — what `sm5sim smoke` does for a whole directory of real shaders
//! (issue 5: "each of them runs to completion on synthetic resources, zero
//! or pattern filled, of plausible sizes").
//!
//! Every declared slot gets a resource that fits its declaration:
//! - buffers: 64 KiB (raw, structured with the declared stride, typed
//!   R32_UINT / R32_SINT / R32G32B32A32_FLOAT by the declared return type);
//! - textures: 64×64 2D (16³ 3D, 64 wide 1D), a full mip chain for SRVs,
//!   4 slices for arrays, 6 or 12 for cubes and cube arrays, 4 samples (or
//!   the declared count) for multisampled ones; R32_UINT / R32_SINT for
//!   integer declarations, R32G32B32A32_FLOAT for float SRVs, and for float
//!   UAVs a storable format of the declared kind;
//! - every constant-buffer slot: 4096 vec4s; every sampler slot: D3D11's
//!   default sampler state.

use crate::sim_core::program::{BufferDecl, BufferDeclKind, TextureDecl};
use crate::sim_core::Program;
use sim_mem::{
    Bindings, Buffer, BufferView, Format, SamplerDesc, Texture, TextureDesc, TextureDimension,
    TextureView, ViewDimension, ViewRange,
};
use sim_sched::{dispatch, DispatchError, DispatchOptions, DispatchStats};

/// What the synthetic resources hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// every word 0
    Zero,
    /// word i = i × 0x9E3779B9 (wrapping): varied bits, deterministic
    Pattern,
    /// every word this value
    Word(u32),
}

impl Fill {
    fn word(self, i: usize) -> u32 {
        match self {
            Fill::Zero => 0,
            Fill::Pattern => (i as u32).wrapping_mul(0x9E37_79B9),
            Fill::Word(w) => w,
        }
    }
}

/// The synthetic resources of one program, owned; [`Synthetic::bindings`]
/// borrows them for a dispatch.
#[derive(Debug)]
pub struct Synthetic {
    cbs: Vec<Vec<u32>>,
    srvs: Vec<(BufferDecl, Buffer)>,
    uavs: Vec<(BufferDecl, Buffer)>,
    srv_textures: Vec<(TextureDecl, Texture)>,
    uav_textures: Vec<(TextureDecl, Texture)>,
}

/// How big the synthetic resources are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// as the module describes: buffers of 64 KiB, 64×64 textures
    Plausible,
    /// for fuzzing: buffers of 256 bytes, 4×4 textures (4³ for 3D), 64-word constant buffers
    Tiny,
}

fn texture_for(d: &TextureDecl, uav: bool, size: Size) -> Texture {
    let dim = d.dimension;
    let format = match (d.return_types[0], uav) {
        (3, _) => Format::R32_SINT,
        (4, _) => Format::R32_UINT,
        (1, true) => Format::R8G8B8A8_UNORM,
        (2, true) => Format::R8G8B8A8_SNORM,
        _ => Format::R32G32B32A32_FLOAT,
    };
    let dimension = dim.resource_dimension();
    let (width, height, depth) = match (dimension, size) {
        (TextureDimension::Texture1D, Size::Plausible) => (64, 1, 1),
        (TextureDimension::Texture2D, Size::Plausible) => (64, 64, 1),
        (TextureDimension::Texture3D, Size::Plausible) => (16, 16, 16),
        (TextureDimension::Texture1D, Size::Tiny) => (4, 1, 1),
        (TextureDimension::Texture2D, Size::Tiny) => (4, 4, 1),
        (TextureDimension::Texture3D, Size::Tiny) => (4, 4, 4),
    };
    let array_size = match dim {
        ViewDimension::TextureCube => 6,
        ViewDimension::TextureCubeArray => 12,
        _ if dim.is_array() => 4,
        _ => 1,
    };
    let ms = dim.is_multisampled();
    Texture::new(TextureDesc {
        dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels: if ms || uav { 1 } else { 0 },
        sample_count: if ms {
            match d.sample_count {
                2 | 4 | 8 | 16 => d.sample_count,
                _ => 4,
            }
        } else {
            1
        },
    })
    .expect("synthetic texture descriptions are within D3D11's limits")
}

impl Synthetic {
    /// Resources of `size` for every slot `program` declares, filled with `fill`.
    pub fn new(program: &Program, fill: Fill, size: Size) -> Self {
        let (buffer_words, cb_words) = match size {
            Size::Plausible => (1 << 14, 4096 * 4),
            Size::Tiny => (64, 64),
        };
        let buffer = || {
            let words: Vec<u32> = (0..buffer_words).map(|i| fill.word(i)).collect();
            Buffer::from_words(&words)
        };
        let texture = |d: &TextureDecl, uav: bool| {
            let t = texture_for(d, uav, size);
            let words: Vec<u32> = (0..t.data().len_words()).map(|i| fill.word(i)).collect();
            t.data()
                .write_words(0, &words)
                .expect("the words fill the texture exactly");
            (*d, t)
        };
        Self {
            cbs: (0..15)
                .map(|_| (0..cb_words).map(|i| fill.word(i)).collect())
                .collect(),
            srvs: program.srvs.iter().map(|d| (*d, buffer())).collect(),
            uavs: program.uavs.iter().map(|d| (*d, buffer())).collect(),
            srv_textures: program
                .srv_textures
                .iter()
                .map(|d| texture(d, false))
                .collect(),
            uav_textures: program
                .uav_textures
                .iter()
                .map(|d| texture(d, true))
                .collect(),
        }
    }

    /// The words of every UAV, buffers then textures, in declaration order:
    /// what a dispatch left in them.
    pub fn uav_words(&self) -> Vec<Vec<u32>> {
        let buffers = self.uavs.iter().map(|(_, b)| b.to_words());
        let textures = self.uav_textures.iter().map(|(_, t)| t.data().to_words());
        buffers.chain(textures).collect()
    }

    /// Bindings of these resources by slot.
    pub fn bindings(&self) -> Bindings<'_> {
        fn view(b: &Buffer, kind: BufferDeclKind) -> Option<BufferView<'_>> {
            match kind {
                BufferDeclKind::Raw => Some(BufferView::raw(b)),
                BufferDeclKind::Structured { stride } => BufferView::structured(b, stride).ok(),
                BufferDeclKind::Typed { return_types } => Some(BufferView::typed(
                    b,
                    match return_types[0] {
                        3 => Format::R32_SINT,
                        4 => Format::R32_UINT,
                        _ => Format::R32G32B32A32_FLOAT,
                    },
                )),
            }
        }
        fn place<T: Clone>(list: &mut Vec<Option<T>>, slot: u32, v: Option<T>) {
            let s = slot as usize;
            if list.len() <= s {
                list.resize(s + 1, None);
            }
            list[s] = v;
        }
        let mut b = Bindings {
            constant_buffers: self.cbs.iter().map(|c| Some(&c[..])).collect(),
            samplers: vec![Some(SamplerDesc::default()); 16],
            ..Default::default()
        };
        for (d, buf) in &self.srvs {
            place(&mut b.srvs, d.slot, view(buf, d.kind));
        }
        for (d, buf) in &self.uavs {
            place(&mut b.uavs, d.slot, view(buf, d.kind));
        }
        for (d, t) in &self.srv_textures {
            let v = TextureView::srv(t, d.dimension, t.desc().format, ViewRange::default());
            place(&mut b.srv_textures, d.slot, v.ok());
        }
        for (d, t) in &self.uav_textures {
            let v = TextureView::uav(t, d.dimension, t.desc().format, ViewRange::default());
            place(&mut b.uav_textures, d.slot, v.ok());
        }
        b
    }
}

/// Dispatch `groups` thread groups of `program` on synthetic resources.
///
/// # Errors
/// As [`sim_sched::dispatch`]: too many groups, unbound class instances,
/// or a runaway shader stopped by the watchdog in `options`.
pub fn smoke_run(
    program: &Program,
    fill: Fill,
    groups: [u32; 3],
    options: &DispatchOptions,
) -> Result<DispatchStats, DispatchError> {
    let resources = Synthetic::new(program, fill, Size::Plausible);
    dispatch(program, &resources.bindings(), groups, options)
}
