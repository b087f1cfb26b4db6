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
use windows::Win32::Foundation::E_INVALIDARG;
use windows::Win32::Graphics::Direct3D11::*;
use windows_core::{implement, IUnknownImpl, Interface, OutRef, Result, PCSTR};

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
    ($($t:ident $dim:ident;)*) => {$(
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
    )*};
}

/// `GetDesc` of each `$t` (`$interface` has it alone), which gives its
/// `desc` field of type `$ty`.
macro_rules! get_desc {
    ($($t:ident $interface:ident $ty:ident;)*) => {$(
        impl $interface for $t {
            fn GetDesc(&self, desc: *mut $ty) {
                if !desc.is_null() {
                    // SAFETY: the application's non-null out pointer
                    unsafe { *desc = self.desc };
                }
            }
        }
    )*};
}

get_desc! {
    Buffer_Impl ID3D11Buffer_Impl D3D11_BUFFER_DESC;
    Texture1D_Impl ID3D11Texture1D_Impl D3D11_TEXTURE1D_DESC;
    Texture2D_Impl ID3D11Texture2D_Impl D3D11_TEXTURE2D_DESC;
    Texture3D_Impl ID3D11Texture3D_Impl D3D11_TEXTURE3D_DESC;
    Srv_Impl ID3D11ShaderResourceView_Impl D3D11_SHADER_RESOURCE_VIEW_DESC;
    Uav_Impl ID3D11UnorderedAccessView_Impl D3D11_UNORDERED_ACCESS_VIEW_DESC;
    Sampler_Impl ID3D11SamplerState_Impl D3D11_SAMPLER_DESC;
    Query_Impl ID3D11Query_Impl D3D11_QUERY_DESC;
}

resource! {
    Buffer_Impl D3D11_RESOURCE_DIMENSION_BUFFER;
    Texture1D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    Texture2D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    Texture3D_Impl D3D11_RESOURCE_DIMENSION_TEXTURE3D;
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
    ($($t:ident;)*) => {$(
        device_child!($t => child;);
        impl ID3D11View_Impl for $t {
            fn GetResource(&self, resource: OutRef<ID3D11Resource>) {
                let _ = resource.write(Some(self.resource.clone()));
            }
        }
    )*};
}

view! {
    Srv_Impl;
    Uav_Impl;
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

/// `ID3D11ClassLinkage`: the class instances of the shaders created with
/// it (`GetClassInstance`) and those the application creates by type
/// (`CreateClassInstance`).
#[implement(ID3D11ClassLinkage)]
pub struct ClassLinkage {
    /// device and private data
    pub child: Child,
    /// the instances the shaders created with it declare: (name, type)
    pub declared: Mutex<Vec<(String, String)>>,
}

/// `ID3D11ClassInstance`: an instance of a class type, bound to an
/// interface slot at `CSSetShader` by its type's name. Only the function
/// table is bound: a class whose methods read its data (`this[]`) is
/// refused when its shader is created.
#[implement(ID3D11ClassInstance)]
pub struct ClassInstance {
    /// device and private data
    pub child: Child,
    /// its linkage
    pub linkage: ID3D11ClassLinkage,
    /// the instance's name (empty for a created one)
    pub instance: String,
    /// its class type's name
    pub type_name: String,
    /// the description
    pub desc: D3D11_CLASS_INSTANCE_DESC,
}

/// Copy `text` and its NUL to the application's buffer of `*length` bytes
/// (null: the length alone), as `GetInstanceName`/`GetTypeName` do.
///
/// # Safety
/// `buffer` is null or holds `*length` bytes; `length` is null or valid.
unsafe fn give_name(text: &str, buffer: windows_core::PSTR, length: *mut usize) {
    if length.is_null() {
        return;
    }
    // SAFETY: the caller's promise
    unsafe {
        let need = text.len() + 1;
        if buffer.is_null() {
            *length = need;
            return;
        }
        let n = (*length).min(need);
        if n == 0 {
            return;
        }
        let p = buffer.0;
        std::ptr::copy_nonoverlapping(text.as_ptr(), p, n - 1);
        *p.add(n - 1) = 0;
        *length = n;
    }
}

device_child!(ClassInstance_Impl => child;);
impl ID3D11ClassInstance_Impl for ClassInstance_Impl {
    fn GetClassLinkage(&self, linkage: OutRef<ID3D11ClassLinkage>) {
        let _ = linkage.write(Some(self.linkage.clone()));
    }
    fn GetDesc(&self, desc: *mut D3D11_CLASS_INSTANCE_DESC) {
        if !desc.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *desc = self.desc };
        }
    }
    fn GetInstanceName(&self, name: windows_core::PSTR, length: *mut usize) {
        // SAFETY: the application's buffer and length
        unsafe { give_name(&self.instance, name, length) };
    }
    fn GetTypeName(&self, name: windows_core::PSTR, length: *mut usize) {
        // SAFETY: the application's buffer and length
        unsafe { give_name(&self.type_name, name, length) };
    }
}

fn c_name(p: &PCSTR) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null NUL-terminated string of the application's
    Some(String::from_utf8_lossy(unsafe { p.as_bytes() }).into_owned())
}

device_child!(ClassLinkage_Impl => child;);
impl ID3D11ClassLinkage_Impl for ClassLinkage_Impl {
    fn GetClassInstance(&self, name: &PCSTR, index: u32) -> Result<ID3D11ClassInstance> {
        let name = c_name(name).ok_or(windows_core::Error::from(E_INVALIDARG))?;
        let declared = self.declared.lock().unwrap_or_else(|e| e.into_inner());
        let Some((_, type_name)) = declared.iter().find(|(n, _)| *n == name) else {
            crate::log::say(&format!(
                "ID3D11ClassLinkage::GetClassInstance: no shader of this linkage declares a class instance '{name}'; E_INVALIDARG"
            ));
            return Err(E_INVALIDARG.into());
        };
        let desc = D3D11_CLASS_INSTANCE_DESC {
            InstanceIndex: index,
            Created: false.into(),
            ..Default::default()
        };
        Ok(ClassInstance {
            child: Child::new(&self.child.device, &self.child.shared),
            linkage: self.to_interface(),
            instance: name,
            type_name: type_name.clone(),
            desc,
        }
        .into())
    }
    fn CreateClassInstance(
        &self,
        type_name: &PCSTR,
        cb_offset: u32,
        cv_offset: u32,
        texture_offset: u32,
        sampler_offset: u32,
    ) -> Result<ID3D11ClassInstance> {
        let type_name = c_name(type_name).ok_or(windows_core::Error::from(E_INVALIDARG))?;
        let desc = D3D11_CLASS_INSTANCE_DESC {
            ConstantBuffer: cb_offset,
            BaseConstantBufferOffset: cv_offset,
            BaseTexture: texture_offset,
            BaseSampler: sampler_offset,
            Created: true.into(),
            ..Default::default()
        };
        Ok(ClassInstance {
            child: Child::new(&self.child.device, &self.child.shared),
            linkage: self.to_interface(),
            instance: String::new(),
            type_name,
            desc,
        }
        .into())
    }
}
