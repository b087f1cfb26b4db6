//! The compute stage's bindings (the immediate context's CS state).
//!
//! A slot keeps what a dispatch needs of the object bound there (the
//! shader, a view's storage and description, a sampler's state) and a weak
//! reference to the object, which does not count: binding does
//! not hold the object's public reference count up, as in D3D11, where a
//! device whose application has released everything is destroyed however
//! much is still bound. An object the application releases while it is
//! bound stays bound for dispatches; only the getters then give null for it
//! (D3D11 would give the object back).

use crate::objects::Target;
use sim_mem::SamplerDesc;
use sm5sim::api::{Resource, Shader};
use std::sync::Arc;
use windows::Win32::Graphics::Direct3D11::*;
use windows_core::{Interface, Weak};

/// An object bound to a slot: a weak reference to it (for the getters) and
/// what a dispatch needs of it.
pub struct Bound<T: Interface, D> {
    /// the object while anyone holds it
    weak: Option<Weak<T>>,
    /// what a dispatch needs
    pub data: D,
}

impl<T: Interface, D> Bound<T, D> {
    /// `iface`, bound with `data`.
    pub fn new(iface: &T, data: D) -> Self {
        Bound {
            weak: iface.downgrade().ok(),
            data,
        }
    }

    /// A counted reference for a getter; None once the object is destroyed
    /// (an upgrade never revives an object whose count reached 0).
    pub fn interface(&self) -> Option<T> {
        self.weak.as_ref()?.upgrade()
    }
}

/// What a dispatch needs of a compute shader.
pub struct ShaderData {
    /// the program
    pub shader: Arc<Shader>,
    /// its name when it was bound
    pub name: String,
    /// the class instances bound with it (`CSGetShader` gives them back)
    pub instances: Vec<Option<Weak<ID3D11ClassInstance>>>,
}

/// What a dispatch needs of a UAV.
#[derive(Clone)]
pub struct UavData {
    /// the storage and view
    pub target: Target,
    /// whether it has a hidden counter
    pub counter: bool,
}

/// What a dispatch needs of a constant buffer.
#[derive(Clone)]
pub struct CbData {
    /// the storage
    pub res: Resource,
    /// its `ByteWidth`
    pub byte_width: u64,
}

type Slots<T, D> = Vec<Option<Bound<T, D>>>;

/// The compute stage's bindings.
pub struct CsState {
    /// `CSSetShader`
    pub shader: Option<Bound<ID3D11ComputeShader, ShaderData>>,
    /// `CSSetShaderResources`, t0–t127
    pub srvs: Slots<ID3D11ShaderResourceView, Target>,
    /// `CSSetUnorderedAccessViews`, u0–u63
    pub uavs: Slots<ID3D11UnorderedAccessView, UavData>,
    /// `CSSetConstantBuffers`, cb0–cb13
    pub cbs: Slots<ID3D11Buffer, CbData>,
    /// `CSSetConstantBuffers1`'s ranges: first constant and count, in
    /// 16-byte constants (None: the whole buffer)
    pub cb_ranges: Vec<Option<(u32, u32)>>,
    /// `CSSetSamplers`, s0–s15
    pub samplers: Slots<ID3D11SamplerState, SamplerDesc>,
}

fn empty<T: Interface, D>(n: u32) -> Slots<T, D> {
    (0..n).map(|_| None).collect()
}

impl Default for CsState {
    fn default() -> Self {
        CsState {
            shader: None,
            srvs: empty(D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT),
            uavs: empty(D3D11_1_UAV_SLOT_COUNT),
            cbs: empty(D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT),
            cb_ranges: vec![None; D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT as usize],
            samplers: empty(D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT),
        }
    }
}
