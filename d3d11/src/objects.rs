//! The device's objects: buffers, textures, views, compute shaders, sampler
//! states, queries and class linkages. Each is an `#[implement]`ed COM
//! object; the context finds its own objects behind the interfaces an
//! application passes with `cast_object_ref`, which answers only for them.

use crate::child::{device_child, Child};
use sim_mem::SamplerDesc;
use sm5sim::api::{Resource, Shader, View};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use windows::Win32::Foundation::E_NOTIMPL;
use windows::Win32::Graphics::Direct3D11::*;
use windows_core::{implement, Interface, OutRef, Result, PCSTR};

/// A subresource the application has mapped: a copy of its bytes (16-byte
/// aligned, as `Map` promises) written back at `Unmap` when the map type
/// writes.
pub struct Mapped {
    /// the bytes, in 16-byte units
    pub data: Vec<u128>,
    /// the subresource's bytes
    pub bytes: usize,
    /// whether `Unmap` writes them back
    pub write: bool,
}

/// What buffers and textures share.
pub struct ResourceCore {
    /// device and private data
    pub child: Child,
    /// the storage
    pub res: Resource,
    /// `D3D11_USAGE`
    pub usage: i32,
    /// `D3D11_BIND_FLAG`s
    pub bind: u32,
    /// `D3D11_CPU_ACCESS_FLAG`s
    pub cpu_access: u32,
    /// `D3D11_RESOURCE_MISC_FLAG`s
    pub misc: u32,
    /// mip levels (1 for a buffer)
    pub mips: u32,
    /// array slices (1 for a buffer or a 3D texture)
    pub array_size: u32,
    /// the `DXGI_FORMAT` it was created with (0 for a buffer)
    pub format: u32,
    /// a buffer's `ByteWidth` (0 for a texture)
    pub byte_width: u64,
    /// a buffer's `StructureByteStride`
    pub stride: u32,
    /// `SetEvictionPriority`'s value
    pub eviction: AtomicU32,
    /// mapped subresources by index
    pub maps: Mutex<HashMap<u32, Mapped>>,
}

impl ResourceCore {
    /// The debug name, or what the resource is.
    pub fn name(&self) -> String {
        self.child
            .private
            .name()
            .unwrap_or_else(|| self.res.describe())
    }

    /// Subresource `index` as (mip, slice), when it exists.
    pub fn subresource(&self, index: u32) -> Option<(u32, u32)> {
        (index < self.mips * self.array_size).then(|| (index % self.mips, index / self.mips))
    }
}

/// `ID3D11Buffer`.
#[implement(ID3D11Buffer)]
pub struct Buffer {
    /// shared parts
    pub core: ResourceCore,
    /// the description it was created with
    pub desc: D3D11_BUFFER_DESC,
}

/// `ID3D11Texture1D`.
#[implement(ID3D11Texture1D)]
pub struct Texture1D {
    /// shared parts
    pub core: ResourceCore,
    /// the description, mip count resolved
    pub desc: D3D11_TEXTURE1D_DESC,
}

/// `ID3D11Texture2D`.
#[implement(ID3D11Texture2D)]
pub struct Texture2D {
    /// shared parts
    pub core: ResourceCore,
    /// the description, mip count resolved
    pub desc: D3D11_TEXTURE2D_DESC,
}

/// `ID3D11Texture3D`.
#[implement(ID3D11Texture3D)]
pub struct Texture3D {
    /// shared parts
    pub core: ResourceCore,
    /// the description, mip count resolved
    pub desc: D3D11_TEXTURE3D_DESC,
}

macro_rules! resource {
    ($($t:ident $dim:ident $desc:ident;)*) => {$(
        device_child!($t => core.child;);
        impl ID3D11Resource_Impl for $t {
            fn GetType(&self, dimension: *mut D3D11_RESOURCE_DIMENSION) {
                if !dimension.is_null() {
                    // SAFETY: the application's non-null out pointer
                    unsafe { *dimension = $dim };
                }
            }
            fn SetEvictionPriority(&self, priority: u32) {
                self.core.eviction.store(priority, Ordering::Relaxed);
            }
            fn GetEvictionPriority(&self) -> u32 {
                self.core.eviction.load(Ordering::Relaxed)
            }
        }
        impl $desc for $t {
            fn GetDesc(&self, desc: *mut <Self as DescOf>::Desc) {
                if !desc.is_null() {
                    // SAFETY: the application's non-null out pointer
                    unsafe { *desc = self.desc };
                }
            }
        }
    )*};
}

/// The description type of an implementation.
pub trait DescOf {
    /// `D3D11_*_DESC`
    type Desc;
}
impl DescOf for Buffer_Impl {
    type Desc = D3D11_BUFFER_DESC;
}
impl DescOf for Texture1D_Impl {
    type Desc = D3D11_TEXTURE1D_DESC;
}
impl DescOf for Texture2D_Impl {
    type Desc = D3D11_TEXTURE2D_DESC;
}
impl DescOf for Texture3D_Impl {
    type Desc = D3D11_TEXTURE3D_DESC;
}
impl DescOf for Srv_Impl {
    type Desc = D3D11_SHADER_RESOURCE_VIEW_DESC;
}
impl DescOf for Uav_Impl {
    type Desc = D3D11_UNORDERED_ACCESS_VIEW_DESC;
}
impl DescOf for Sampler_Impl {
    type Desc = D3D11_SAMPLER_DESC;
}
impl DescOf for Query_Impl {
    type Desc = D3D11_QUERY_DESC;
}

resource! {
    Buffer_Impl D3D11_RESOURCE_DIMENSION_BUFFER ID3D11Buffer_Impl;
    Texture1D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE1D ID3D11Texture1D_Impl;
    Texture2D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE2D ID3D11Texture2D_Impl;
    Texture3D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE3D ID3D11Texture3D_Impl;
}

/// Our resource behind `r`, or None for an object of someone else's.
pub fn resource_core(r: &ID3D11Resource) -> Option<&ResourceCore> {
    if let Ok(b) = r.cast_object_ref::<Buffer>() {
        return Some(&b.core);
    }
    if let Ok(t) = r.cast_object_ref::<Texture2D>() {
        return Some(&t.core);
    }
    if let Ok(t) = r.cast_object_ref::<Texture1D>() {
        return Some(&t.core);
    }
    if let Ok(t) = r.cast_object_ref::<Texture3D>() {
        return Some(&t.core);
    }
    None
}

/// A view's resource as the shader sees it: the storage, the view, and a
/// buffer view's element range (first, count).
#[derive(Clone)]
pub struct Target {
    /// the storage
    pub res: Resource,
    /// how it is viewed
    pub view: View,
    /// a buffer view's elements
    pub elements: Option<(u64, u64)>,
}

/// `ID3D11ShaderResourceView`.
#[implement(ID3D11ShaderResourceView)]
pub struct Srv {
    /// device and private data
    pub child: Child,
    /// the description, defaults filled in
    pub desc: D3D11_SHADER_RESOURCE_VIEW_DESC,
    /// the viewed resource
    pub resource: ID3D11Resource,
    /// what the shader sees
    pub target: Target,
}

/// `ID3D11UnorderedAccessView`.
#[implement(ID3D11UnorderedAccessView)]
pub struct Uav {
    /// device and private data
    pub child: Child,
    /// the description, defaults filled in
    pub desc: D3D11_UNORDERED_ACCESS_VIEW_DESC,
    /// the viewed resource
    pub resource: ID3D11Resource,
    /// what the shader sees
    pub target: Target,
    /// `D3D11_BUFFER_UAV_FLAG_APPEND` or `_COUNTER`: the view has a hidden
    /// counter, which `CSSetUnorderedAccessViews` may set
    pub counter: bool,
}

macro_rules! view {
    ($($t:ident $desc:ident;)*) => {$(
        device_child!($t => child;);
        impl ID3D11View_Impl for $t {
            fn GetResource(&self, resource: OutRef<ID3D11Resource>) {
                let _ = resource.write(Some(self.resource.clone()));
            }
        }
        impl $desc for $t {
            fn GetDesc(&self, desc: *mut <Self as DescOf>::Desc) {
                if !desc.is_null() {
                    // SAFETY: the application's non-null out pointer
                    unsafe { *desc = self.desc };
                }
            }
        }
    )*};
}

view! {
    Srv_Impl ID3D11ShaderResourceView_Impl;
    Uav_Impl ID3D11UnorderedAccessView_Impl;
}

/// `ID3D11ComputeShader`.
#[implement(ID3D11ComputeShader)]
pub struct ComputeShader {
    /// device and private data
    pub child: Child,
    /// the loaded program
    pub shader: Arc<Shader>,
    /// its number on the device, from 1
    pub number: u64,
}

impl ComputeShader {
    /// Its debug name, or "compute shader #N".
    pub fn name(&self) -> String {
        self.child
            .private
            .name()
            .unwrap_or_else(|| format!("compute shader #{}", self.number))
    }
}

device_child!(ComputeShader_Impl => child;);
impl ID3D11ComputeShader_Impl for ComputeShader_Impl {}

/// `ID3D11SamplerState`.
#[implement(ID3D11SamplerState)]
pub struct Sampler {
    /// device and private data
    pub child: Child,
    /// the description
    pub desc: D3D11_SAMPLER_DESC,
    /// as sm5sim samples with it
    pub sampler: SamplerDesc,
}

device_child!(Sampler_Impl => child;);
impl ID3D11SamplerState_Impl for Sampler_Impl {
    fn GetDesc(&self, desc: *mut D3D11_SAMPLER_DESC) {
        if !desc.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *desc = self.desc };
        }
    }
}

/// Where a query stands.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueryState {
    /// `Begin` was called (and `End` not since)
    pub begun: bool,
    /// `End` was called: the data is there
    pub ended: bool,
    /// the device's CS invocations at `Begin` (pipeline statistics)
    pub start: u64,
    /// the result: a timestamp in ns, or CS invocations
    pub value: u64,
}

/// `ID3D11Query`: events, timestamps, timestamp-disjoint and pipeline
/// statistics. Every command has finished when its call returns, so a
/// query's data is there as soon as `End` is called.
#[implement(ID3D11Query)]
pub struct Query {
    /// device and private data
    pub child: Child,
    /// the description
    pub desc: D3D11_QUERY_DESC,
    /// where it stands
    pub state: Mutex<QueryState>,
}

impl Query {
    /// The bytes `GetData` writes for a query of type `q` (`GetDataSize`).
    pub fn data_size(q: D3D11_QUERY) -> Option<u32> {
        match q {
            D3D11_QUERY_EVENT => Some(4),
            D3D11_QUERY_TIMESTAMP => Some(8),
            D3D11_QUERY_TIMESTAMP_DISJOINT => Some(16),
            D3D11_QUERY_PIPELINE_STATISTICS => Some(88),
            _ => None,
        }
    }
}

device_child!(Query_Impl => child;);
impl ID3D11Asynchronous_Impl for Query_Impl {
    fn GetDataSize(&self) -> u32 {
        Query::data_size(self.desc.Query).unwrap_or(0)
    }
}
impl ID3D11Query_Impl for Query_Impl {
    fn GetDesc(&self, desc: *mut D3D11_QUERY_DESC) {
        if !desc.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *desc = self.desc };
        }
    }
}

/// `ID3D11ClassLinkage`: accepted at shader creation; class instances are
/// not implemented (`E_NOTIMPL`).
#[implement(ID3D11ClassLinkage)]
pub struct ClassLinkage {
    /// device and private data
    pub child: Child,
}

device_child!(ClassLinkage_Impl => child;);
impl ID3D11ClassLinkage_Impl for ClassLinkage_Impl {
    fn GetClassInstance(&self, _name: &PCSTR, _index: u32) -> Result<ID3D11ClassInstance> {
        crate::log::once(
            "ID3D11ClassLinkage::GetClassInstance: class instances are not implemented (E_NOTIMPL)",
        );
        Err(E_NOTIMPL.into())
    }
    fn CreateClassInstance(
        &self,
        _name: &PCSTR,
        _cb_offset: u32,
        _cv_offset: u32,
        _texture_offset: u32,
        _sampler_offset: u32,
    ) -> Result<ID3D11ClassInstance> {
        crate::log::once("ID3D11ClassLinkage::CreateClassInstance: class instances are not implemented (E_NOTIMPL)");
        Err(E_NOTIMPL.into())
    }
}
