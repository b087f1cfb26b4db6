//! The compute stage's bindings (the immediate context's CS state).
//!
//! A slot keeps what a dispatch needs of the object bound there (the
//! shader, a view's storage and description, a sampler's state) and the
//! application's interface pointer, which it does not count: binding does
//! not hold the object's public reference count up, as in D3D11, where a
//! device whose application has released everything is destroyed however
//! much is still bound. An object the application releases while it is
//! bound stays bound for dispatches; only the getters then give null for it
//! (D3D11 would give the object back).

use crate::objects::Target;
use sim_mem::SamplerDesc;
use sm5sim::api::{Resource, Shader};
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use windows::Win32::Graphics::Direct3D11::*;
use windows_core::Interface;

/// A number no other object of the process has, for [`CsState::forget`].
pub fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// An object bound to a slot: its interface pointer while it lives, and
/// what a dispatch needs of it.
pub struct Bound<T, D> {
    /// the application's `T*`, 0 once the object is destroyed
    raw: usize,
    /// the object's [`next_id`]
    id: u64,
    /// what a dispatch needs
    pub data: D,
    kind: PhantomData<fn() -> T>,
}

impl<T: Interface, D> Bound<T, D> {
    /// `iface`, object `id`, bound with `data`.
    pub fn new(iface: &T, id: u64, data: D) -> Self {
        Bound {
            raw: iface.as_raw() as usize,
            id,
            data,
            kind: PhantomData,
        }
    }

    /// A counted reference for a getter; None once the object is destroyed.
    pub fn interface(&self) -> Option<T> {
        if self.raw == 0 {
            return None;
        }
        let raw = self.raw as *mut c_void;
        // SAFETY: `raw` is a live `T*`: the object's destruction clears it
        // (`CsState::forget`, under the state's lock, which the caller holds)
        unsafe { T::from_raw_borrowed(&raw) }.cloned()
    }
}

/// What a dispatch needs of a compute shader.
pub struct ShaderData {
    /// the program
    pub shader: Arc<Shader>,
    /// its name when it was bound
    pub name: String,
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

fn empty<T, D>(n: u32) -> Slots<T, D> {
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

fn forget_in<T, D>(slots: &mut [Option<Bound<T, D>>], id: u64) {
    for b in slots.iter_mut().flatten() {
        if b.id == id {
            b.raw = 0;
        }
    }
}

impl CsState {
    /// Object `id` is being destroyed: its slots keep its data, and lose
    /// its pointer.
    pub fn forget(&mut self, id: u64) {
        if let Some(s) = self.shader.as_mut() {
            if s.id == id {
                s.raw = 0;
            }
        }
        forget_in(&mut self.srvs, id);
        forget_in(&mut self.uavs, id);
        forget_in(&mut self.cbs, id);
        forget_in(&mut self.samplers, id);
    }
}
