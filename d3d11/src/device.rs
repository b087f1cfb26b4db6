//! `ID3D11Device`: creation of buffers, textures, views, compute shaders,
//! sampler states, queries and class linkages; format and feature queries.
//! Everything outside compute returns `E_NOTIMPL`, logged once.

use crate::child::PrivateData;
use crate::config::Config;
use crate::context::Context;
use crate::format;
use crate::log::{calls, once, say};
use crate::objects::*;
use crate::state::CsState;
use crate::views;
use sim_core::LoadOptions;
use sim_mem::{
    AddressMode, ComparisonFunc, Filter, Format, SamplerDesc, TextureDesc, TextureDimension,
};
use sm5sim::api::{Resource, Shader};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use windows::Win32::Foundation::{E_FAIL, E_INVALIDARG, E_NOTIMPL, E_OUTOFMEMORY, HANDLE, S_FALSE};
use windows::Win32::Graphics::Direct3D::*;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::DXGI_FORMAT;
use windows::Win32::Graphics::Dxgi::*;
use windows_core::{implement, IUnknownImpl, Interface, OutRef, Ref, Result, GUID, PSTR};

/// A dispatch of the trace: its name, number, group counts, counters and
/// profile.
pub type Traced = (
    String,
    usize,
    [u32; 3],
    sim_sched::DispatchStats,
    sim_sched::DispatchProfile,
);

/// What the device and its contexts share.
pub struct Shared {
    /// the feature level it was created at
    pub level: D3D_FEATURE_LEVEL,
    /// `D3D11_CREATE_DEVICE_FLAG`s
    pub flags: u32,
    /// the compute stage's state
    pub cs: Mutex<CsState>,
    /// dispatches so far (numbered from 1 in the log)
    pub dispatches: AtomicU64,
    /// compute shaders created so far
    pub shaders: AtomicU64,
    /// threads run by dispatches so far (pipeline statistics'
    /// `CSInvocations`)
    pub cs_invocations: AtomicU64,
    /// the profile of every dispatch so far (`SM5SIM_PROFILE`)
    pub profile: Mutex<Vec<serde_json::Value>>,
    /// the immediate context while the application holds it: every
    /// `GetImmediateContext` gives this one object
    pub context: Mutex<Option<windows_core::Weak<ID3D11DeviceContext>>>,
    /// every dispatch so far, for the trace (`SM5SIM_TRACE`): its name,
    /// number, group counts, counters and profile
    pub traced: Mutex<Vec<Traced>>,
    /// timestamps count nanoseconds from here
    pub epoch: Instant,
    /// `SetExceptionMode`'s flags
    pub exception_mode: AtomicU32,
    /// `IDXGIDevice::SetGPUThreadPriority`'s value
    pub gpu_priority: std::sync::atomic::AtomicI32,
}

/// `ID3D11Device`, `ID3D11Device1` and `IDXGIDevice` (whose adapter is
/// [`crate::dxgi::Adapter`]).
#[implement(ID3D11Device1, IDXGIDevice)]
pub struct Device {
    /// what its contexts share
    pub shared: Arc<Shared>,
    /// its private data
    pub private: PrivateData,
}

/// The feature levels sm5sim's device has, best first.
pub const LEVELS: [D3D_FEATURE_LEVEL; 4] = [
    D3D_FEATURE_LEVEL_11_1,
    D3D_FEATURE_LEVEL_11_0,
    D3D_FEATURE_LEVEL_10_1,
    D3D_FEATURE_LEVEL_10_0,
];

impl Device {
    /// A device at `level` with its immediate context.
    pub fn create(level: D3D_FEATURE_LEVEL, flags: u32) -> (ID3D11Device, ID3D11DeviceContext) {
        let config = Config::get();
        for p in &config.problems {
            once(p);
        }
        let shared = Arc::new(Shared {
            level,
            flags,
            cs: Mutex::new(CsState::default()),
            dispatches: AtomicU64::new(0),
            shaders: AtomicU64::new(0),
            cs_invocations: AtomicU64::new(0),
            profile: Mutex::new(Vec::new()),
            traced: Mutex::new(Vec::new()),
            context: Mutex::new(None),
            epoch: Instant::now(),
            exception_mode: AtomicU32::new(0),
            gpu_priority: Default::default(),
        });
        let device: ID3D11Device1 = Device {
            shared: shared.clone(),
            private: PrivateData::default(),
        }
        .into();
        let device: ID3D11Device = device.into();
        let context = Context::immediate(&device, shared);
        (device, context)
    }

    fn me(this: &Device_Impl) -> ID3D11Device {
        this.to_interface::<ID3D11Device1>().into()
    }
}

fn invalid(call: &str, message: impl std::fmt::Display) -> windows_core::Error {
    say(&format!("{call}: {message} (E_INVALIDARG)"));
    E_INVALIDARG.into()
}

fn not_compute(call: &str) -> windows_core::Error {
    once(&format!(
        "ID3D11Device::{call}: sm5sim runs compute only; returned E_NOTIMPL"
    ));
    E_NOTIMPL.into()
}

/// A resource's `Usage`, `BindFlags`, `CPUAccessFlags` and `MiscFlags`.
type Flags = (D3D11_USAGE, u32, u32, u32);

impl Device_Impl {
    fn core(
        &self,
        res: Resource,
        flags: Flags,
        mips: u32,
        array_size: u32,
        format: u32,
    ) -> ResourceCore {
        ResourceCore {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            res,
            usage: flags.0 .0,
            bind: flags.1,
            cpu_access: flags.2,
            misc: flags.3,
            mips,
            array_size,
            format,
            byte_width: 0,
            stride: 0,
            eviction: AtomicU32::new(0),
            maps: Mutex::new(Default::default()),
        }
    }

    /// A texture's storage with its initial data, as a resource of this
    /// device, and its mip count.
    ///
    /// # Safety
    /// `init` is null or points to one `D3D11_SUBRESOURCE_DATA` per
    /// subresource, as `CreateTexture*D` takes it.
    unsafe fn texture(
        &self,
        call: &str,
        mut desc: TextureDesc,
        dxgi_format: DXGI_FORMAT,
        flags: Flags,
        init: *const D3D11_SUBRESOURCE_DATA,
        probe: bool,
    ) -> Result<(ResourceCore, u32)> {
        let (usage, bind, _, misc) = flags;
        if usage == D3D11_USAGE_IMMUTABLE && init.is_null() {
            return Err(invalid(call, "an immutable texture needs initial data"));
        }
        if usage == D3D11_USAGE_STAGING && bind != 0 {
            return Err(invalid(call, "a staging texture cannot have BindFlags"));
        }
        if misc & D3D11_RESOURCE_MISC_TEXTURECUBE.0 as u32 != 0
            && !desc.array_size.is_multiple_of(6)
        {
            return Err(invalid(
                call,
                format!(
                    "a cube texture's ArraySize {} is not a multiple of 6",
                    desc.array_size
                ),
            ));
        }
        let Some(fmt) = format::storage(dxgi_format.0 as u32) else {
            return Err(invalid(
                call,
                format!(
                    "format {} is not one sm5sim has",
                    format::name(dxgi_format.0 as u32)
                ),
            ));
        };
        desc.format = fmt;
        if probe {
            // a null out pointer asks whether the description is valid
            sim_mem::Texture::storage_bytes(desc).map_err(|e| invalid(call, e))?;
            return Err(S_FALSE.into());
        }
        let res = Resource::texture(desc).map_err(|e| invalid(call, e))?;
        let Some(mips) = res.as_texture().map(|t| t.desc().mip_levels) else {
            return Err(invalid(call, "no texture storage"));
        };
        let array = desc.array_size;
        let core = self.core(res, flags, mips, array, dxgi_format.0 as u32);
        if !init.is_null() {
            // one entry per subresource, in subresource order (mip + slice ·
            // mips), each written as UpdateSubresource writes a whole one
            for sub in 0..mips * array {
                // SAFETY: one entry per subresource (the caller's promise)
                let data = unsafe { &*init.add(sub as usize) };
                if data.pSysMem.is_null() {
                    return Err(invalid(call, format!("no pSysMem for subresource {sub}")));
                }
                let (src, pitch, slice) =
                    (data.pSysMem.cast(), data.SysMemPitch, data.SysMemSlicePitch);
                // SAFETY: the application's initial data at its pitches
                unsafe { crate::update::update(&core, sub, None, src, pitch, slice) }
                    .map_err(|m| invalid(call, m))?;
            }
        }
        Ok((core, mips))
    }
}

fn sampler_desc(d: &D3D11_SAMPLER_DESC) -> std::result::Result<SamplerDesc, String> {
    let address = |m: D3D11_TEXTURE_ADDRESS_MODE| {
        AddressMode::ALL
            .get((m.0 as usize).wrapping_sub(1))
            .copied()
            .ok_or_else(|| format!("address mode {} is not a D3D11_TEXTURE_ADDRESS_MODE", m.0))
    };
    let s = SamplerDesc {
        filter: Filter::from_d3d11(d.Filter.0 as u32)
            .ok_or_else(|| format!("filter {:#x} is not a D3D11_FILTER", d.Filter.0))?,
        address: [
            address(d.AddressU)?,
            address(d.AddressV)?,
            address(d.AddressW)?,
        ],
        mip_lod_bias: d.MipLODBias,
        max_anisotropy: d.MaxAnisotropy,
        comparison: ComparisonFunc::ALL
            .get((d.ComparisonFunc.0 as usize).wrapping_sub(1))
            .copied()
            .ok_or_else(|| {
                format!(
                    "comparison {} is not a D3D11_COMPARISON_FUNC",
                    d.ComparisonFunc.0
                )
            })?,
        border_color: d.BorderColor,
        min_lod: d.MinLOD,
        max_lod: d.MaxLOD,
    };
    s.validate()?;
    Ok(s)
}

/// `D3D11_FORMAT_SUPPORT` and `D3D11_FORMAT_SUPPORT2` bits of `DXGI_FORMAT`
/// value `v`: what sm5sim's compute shaders can do with it.
pub fn format_support(v: u32) -> (u32, u32) {
    let textures = (D3D11_FORMAT_SUPPORT_TEXTURE1D.0
        | D3D11_FORMAT_SUPPORT_TEXTURE2D.0
        | D3D11_FORMAT_SUPPORT_TEXTURE3D.0
        | D3D11_FORMAT_SUPPORT_TEXTURECUBE.0
        | D3D11_FORMAT_SUPPORT_MIP.0
        | D3D11_FORMAT_SUPPORT_CPU_LOCKABLE.0) as u32;
    if let Some(f) = format::exact(v) {
        let mut s = textures | D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT.0 as u32;
        if f.buffer_viewable() {
            s |= D3D11_FORMAT_SUPPORT_BUFFER.0 as u32;
        }
        if f.srv_viewable() {
            s |= (D3D11_FORMAT_SUPPORT_SHADER_LOAD.0 | D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD.0)
                as u32;
            if !matches!(
                f.kind(),
                sim_mem::ChannelKind::Uint | sim_mem::ChannelKind::Sint
            ) {
                s |= (D3D11_FORMAT_SUPPORT_SHADER_SAMPLE.0
                    | D3D11_FORMAT_SUPPORT_SHADER_GATHER.0
                    | D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON.0
                    | D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON.0) as u32;
            }
        }
        if f.uav_storable() {
            s |= D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW.0 as u32;
        }
        let mut s2 = 0;
        if f.uav_storable() {
            s2 |= D3D11_FORMAT_SUPPORT2_UAV_TYPED_STORE.0 as u32;
        }
        if matches!(f, Format::R32_UINT | Format::R32_SINT | Format::R32_FLOAT) {
            s2 |= D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD.0 as u32;
        }
        if f.allows_atomics() {
            s2 |= (D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD.0
                | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS.0
                | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE.0
                | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE.0
                | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX.0
                | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX.0) as u32;
        }
        (s, s2)
    } else if format::is_typeless(v) && format::storage(v).is_some() {
        let mut s = textures | D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT.0 as u32;
        if v == 39 {
            // R32_TYPELESS: raw buffer views
            s |= D3D11_FORMAT_SUPPORT_BUFFER.0 as u32;
        }
        (s, 0)
    } else {
        (0, 0)
    }
}

/// `CheckFeatureSupport`'s answer for `feature`, as the 32-bit words of its
/// `D3D11_FEATURE_DATA_*` struct; `input` is what the caller put there.
fn feature_words(feature: i32, input: &[u32]) -> Option<Vec<u32>> {
    Some(match feature {
        // THREADING: concurrent creates yes, command lists no
        0 => vec![1, 0],
        // DOUBLES
        1 => vec![1],
        // FORMAT_SUPPORT, FORMAT_SUPPORT2: InFormat, OutFormatSupport
        2 => vec![*input.first()?, format_support(*input.first()?).0],
        3 => vec![*input.first()?, format_support(*input.first()?).1],
        // D3D10_X_HARDWARE_OPTIONS: compute on cs_4_x with raw and structured buffers
        4 => vec![1],
        // D3D11_OPTIONS: 14 BOOLs; sm5sim has ConstantBufferPartialUpdate,
        // ConstantBufferOffsetting, MapNoOverwriteOnDynamicConstantBuffer,
        // MapNoOverwriteOnDynamicBufferSRV, SAD4ShaderInstructions (msad)
        // and ExtendedDoublesShaderInstructions (ddiv, dfma, drcp)
        5 => vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0],
        // ARCHITECTURE_INFO: not tile-based
        6 => vec![0],
        // D3D9_OPTIONS
        7 => vec![1],
        // SHADER_MIN_PRECISION_SUPPORT: full precision only
        8 => vec![0, 0],
        // D3D9_SHADOW_SUPPORT
        9 => vec![0],
        // D3D11_OPTIONS1: no tiled resources, min/max filtering, clear view,
        // map on default buffers
        10 => vec![0, 0, 0, 0],
        // D3D9_SIMPLE_INSTANCING_SUPPORT, MARKER_SUPPORT
        11 | 12 => vec![0],
        // D3D11_OPTIONS2: eight fields, all no
        14 => vec![0; 8],
        // D3D11_OPTIONS3
        15 => vec![0],
        _ => return None,
    })
}

/// `CreateTexture1D/2D/3D`: the description `$desc` made the
/// [`TextureDesc`] `$td` gives (its format set by `Device_Impl::texture`),
/// the storage and initial data, and the `$object` with the mip count
/// resolved in its description.
macro_rules! create_texture {
    ($($call:ident $desc:ident $interface:ident $object:ident |$d:ident| $td:expr;)*) => {$(
        fn $call(
            &self,
            pdesc: *const $desc,
            init: *const D3D11_SUBRESOURCE_DATA,
            out: OutRef<$interface>,
        ) -> Result<()> {
            let call = stringify!($call);
            if pdesc.is_null() {
                return Err(invalid(call, "pDesc is null"));
            }
            // SAFETY: non-null; the application's description
            let mut desc = unsafe { *pdesc };
            calls!("{call}: {desc:?}");
            let td = {
                let $d = &desc;
                $td
            };
            let flags = (desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
            // SAFETY: the application's initial data, one per subresource
            let (core, mips) =
                unsafe { self.texture(call, td, desc.Format, flags, init, out.is_null()) }?;
            desc.MipLevels = mips;
            let t: $interface = $object { core, desc }.into();
            out.write(Some(t))
        }
    )*};
}

impl ID3D11Device_Impl for Device_Impl {
    fn CreateBuffer(
        &self,
        pdesc: *const D3D11_BUFFER_DESC,
        init: *const D3D11_SUBRESOURCE_DATA,
        out: OutRef<ID3D11Buffer>,
    ) -> Result<()> {
        let call = "CreateBuffer";
        if pdesc.is_null() {
            return Err(invalid(call, "pDesc is null"));
        }
        // SAFETY: non-null; the application's description
        let desc = unsafe { *pdesc };
        calls!("{call}: {desc:?}");
        let structured = desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED.0 as u32 != 0;
        if desc.ByteWidth == 0 {
            return Err(invalid(call, "ByteWidth is 0"));
        }
        if structured
            && (desc.StructureByteStride == 0 || desc.ByteWidth % desc.StructureByteStride != 0)
        {
            return Err(invalid(
                call,
                format!(
                    "a structured buffer's ByteWidth {} must be a whole number of StructureByteStride {}",
                    desc.ByteWidth, desc.StructureByteStride
                ),
            ));
        }
        if desc.BindFlags & D3D11_BIND_CONSTANT_BUFFER.0 as u32 != 0 && desc.ByteWidth % 16 != 0 {
            return Err(invalid(
                call,
                format!(
                    "a constant buffer's ByteWidth {} must be a multiple of 16",
                    desc.ByteWidth
                ),
            ));
        }
        if desc.Usage == D3D11_USAGE_STAGING && desc.BindFlags != 0 {
            return Err(invalid(call, "a staging buffer cannot have BindFlags"));
        }
        if desc.Usage == D3D11_USAGE_IMMUTABLE && init.is_null() {
            return Err(invalid(call, "an immutable buffer needs initial data"));
        }
        if structured
            && (!desc.StructureByteStride.is_multiple_of(4) || desc.StructureByteStride > 2048)
        {
            return Err(invalid(
                call,
                format!(
                    "StructureByteStride {} is not a multiple of 4 up to 2048",
                    desc.StructureByteStride
                ),
            ));
        }
        if structured && desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS.0 as u32 != 0 {
            return Err(invalid(call, "a structured buffer cannot allow raw views"));
        }
        // a null out pointer asks whether the description is valid
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        // the storage is whole 32-bit words; the buffer is ByteWidth bytes
        let words = desc.ByteWidth.div_ceil(4) as usize * 4;
        let res = Resource::zeroed(words).map_err(|e| {
            say(&format!("{call}: {e} (E_OUTOFMEMORY)"));
            windows_core::Error::from(E_OUTOFMEMORY)
        })?;
        if !init.is_null() {
            // SAFETY: non-null; the application's initial data
            let data = unsafe { *init };
            if data.pSysMem.is_null() {
                return Err(invalid(call, "pInitialData->pSysMem is null"));
            }
            // SAFETY: pSysMem holds ByteWidth bytes (D3D11's contract)
            let bytes = unsafe {
                std::slice::from_raw_parts(data.pSysMem.cast::<u8>(), desc.ByteWidth as usize)
            };
            res.data()
                .write_bytes(0, bytes)
                .map_err(|e| invalid(call, e))?;
        }
        let mut core = self.core(
            res,
            (
                desc.Usage,
                desc.BindFlags,
                desc.CPUAccessFlags,
                desc.MiscFlags,
            ),
            1,
            1,
            0,
        );
        core.byte_width = u64::from(desc.ByteWidth);
        core.stride = desc.StructureByteStride;
        let b: ID3D11Buffer = Buffer { core, desc }.into();
        out.write(Some(b))
    }

    create_texture! {
        CreateTexture1D D3D11_TEXTURE1D_DESC ID3D11Texture1D Texture1D |d| TextureDesc {
            dimension: TextureDimension::Texture1D,
            format: Format::R8_UNORM,
            width: d.Width,
            height: 1,
            depth: 1,
            array_size: d.ArraySize,
            mip_levels: d.MipLevels,
            sample_count: 1,
        };
        CreateTexture2D D3D11_TEXTURE2D_DESC ID3D11Texture2D Texture2D |d| TextureDesc {
            dimension: TextureDimension::Texture2D,
            format: Format::R8_UNORM,
            width: d.Width,
            height: d.Height,
            depth: 1,
            array_size: d.ArraySize,
            mip_levels: d.MipLevels,
            sample_count: d.SampleDesc.Count,
        };
        CreateTexture3D D3D11_TEXTURE3D_DESC ID3D11Texture3D Texture3D |d| TextureDesc {
            dimension: TextureDimension::Texture3D,
            format: Format::R8_UNORM,
            width: d.Width,
            height: d.Height,
            depth: d.Depth,
            array_size: 1,
            mip_levels: d.MipLevels,
            sample_count: 1,
        };
    }

    fn CreateShaderResourceView(
        &self,
        resource: Ref<ID3D11Resource>,
        pdesc: *const D3D11_SHADER_RESOURCE_VIEW_DESC,
        out: OutRef<ID3D11ShaderResourceView>,
    ) -> Result<()> {
        let call = "CreateShaderResourceView";
        let r = resource
            .ok()
            .map_err(|_| invalid(call, "pResource is null"))?;
        let core = resource_core(r)
            .ok_or_else(|| invalid(call, "pResource is no resource of this device"))?;
        // SAFETY: null or the application's description
        let given = unsafe { pdesc.as_ref() }.copied();
        let (desc, target) =
            views::srv(core, given).map_err(|m| invalid(call, format!("{}: {m}", core.name())))?;
        calls!(
            "{call}: {}: {:?} {:?}",
            core.name(),
            target.view,
            target.elements
        );
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        let v: ID3D11ShaderResourceView = Srv {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            desc,
            resource: r.clone(),
            target,
        }
        .into();
        out.write(Some(v))
    }

    fn CreateUnorderedAccessView(
        &self,
        resource: Ref<ID3D11Resource>,
        pdesc: *const D3D11_UNORDERED_ACCESS_VIEW_DESC,
        out: OutRef<ID3D11UnorderedAccessView>,
    ) -> Result<()> {
        let call = "CreateUnorderedAccessView";
        let r = resource
            .ok()
            .map_err(|_| invalid(call, "pResource is null"))?;
        let core = resource_core(r)
            .ok_or_else(|| invalid(call, "pResource is no resource of this device"))?;
        // SAFETY: null or the application's description
        let given = unsafe { pdesc.as_ref() }.copied();
        let (desc, target, counter) =
            views::uav(core, given).map_err(|m| invalid(call, format!("{}: {m}", core.name())))?;
        calls!(
            "{call}: {}: {:?} {:?}",
            core.name(),
            target.view,
            target.elements
        );
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        let v: ID3D11UnorderedAccessView = Uav {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            desc,
            resource: r.clone(),
            target,
            counter,
        }
        .into();
        out.write(Some(v))
    }

    fn CreateRenderTargetView(
        &self,
        _: Ref<ID3D11Resource>,
        _: *const D3D11_RENDER_TARGET_VIEW_DESC,
        _: OutRef<ID3D11RenderTargetView>,
    ) -> Result<()> {
        Err(not_compute("CreateRenderTargetView"))
    }
    fn CreateDepthStencilView(
        &self,
        _: Ref<ID3D11Resource>,
        _: *const D3D11_DEPTH_STENCIL_VIEW_DESC,
        _: OutRef<ID3D11DepthStencilView>,
    ) -> Result<()> {
        Err(not_compute("CreateDepthStencilView"))
    }
    fn CreateInputLayout(
        &self,
        _: *const D3D11_INPUT_ELEMENT_DESC,
        _: u32,
        _: *const c_void,
        _: usize,
        _: OutRef<ID3D11InputLayout>,
    ) -> Result<()> {
        Err(not_compute("CreateInputLayout"))
    }
    fn CreateVertexShader(
        &self,
        _: *const c_void,
        _: usize,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11VertexShader>,
    ) -> Result<()> {
        Err(not_compute("CreateVertexShader"))
    }
    fn CreateGeometryShader(
        &self,
        _: *const c_void,
        _: usize,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11GeometryShader>,
    ) -> Result<()> {
        Err(not_compute("CreateGeometryShader"))
    }
    fn CreateGeometryShaderWithStreamOutput(
        &self,
        _: *const c_void,
        _: usize,
        _: *const D3D11_SO_DECLARATION_ENTRY,
        _: u32,
        _: *const u32,
        _: u32,
        _: u32,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11GeometryShader>,
    ) -> Result<()> {
        Err(not_compute("CreateGeometryShaderWithStreamOutput"))
    }
    fn CreatePixelShader(
        &self,
        _: *const c_void,
        _: usize,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11PixelShader>,
    ) -> Result<()> {
        Err(not_compute("CreatePixelShader"))
    }
    fn CreateHullShader(
        &self,
        _: *const c_void,
        _: usize,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11HullShader>,
    ) -> Result<()> {
        Err(not_compute("CreateHullShader"))
    }
    fn CreateDomainShader(
        &self,
        _: *const c_void,
        _: usize,
        _: Ref<ID3D11ClassLinkage>,
        _: OutRef<ID3D11DomainShader>,
    ) -> Result<()> {
        Err(not_compute("CreateDomainShader"))
    }

    fn CreateComputeShader(
        &self,
        bytecode: *const c_void,
        length: usize,
        linkage: Ref<ID3D11ClassLinkage>,
        out: OutRef<ID3D11ComputeShader>,
    ) -> Result<()> {
        let call = "CreateComputeShader";
        if bytecode.is_null() || length == 0 {
            return Err(invalid(call, "no bytecode"));
        }
        // SAFETY: the application's bytecode, `length` bytes
        let bytes = unsafe { std::slice::from_raw_parts(bytecode.cast::<u8>(), length) }.to_vec();
        let number = self.shared.shaders.fetch_add(1, Ordering::Relaxed) + 1;
        let name = format!("compute shader #{number}");
        let shader = Shader::from_bytes(bytes, &name, &LoadOptions::default())
            .map_err(|e| invalid(call, e))?;
        calls!("{call}: {name}, thread group {:?}", shader.thread_group());
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        // the linkage learns the class instances the shader declares
        if let (Some(l), Some(cl)) = (
            linkage
                .as_ref()
                .and_then(|l| l.cast_object_ref::<ClassLinkage>().ok()),
            shader.program().class_linkage.as_ref(),
        ) {
            let mut declared = l.declared.lock().unwrap_or_else(|e| e.into_inner());
            for i in &cl.instances {
                if let Some(t) = cl.types.get(usize::from(i.type_id)) {
                    if !declared.iter().any(|(n, _)| *n == i.name) {
                        declared.push((i.name.clone(), t.name.clone()));
                    }
                }
            }
        }
        let s: ID3D11ComputeShader = ComputeShader {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            shader: Arc::new(shader),
            number,
        }
        .into();
        out.write(Some(s))
    }

    fn CreateClassLinkage(&self) -> Result<ID3D11ClassLinkage> {
        Ok(ClassLinkage {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            declared: Mutex::new(Vec::new()),
        }
        .into())
    }
    fn CreateBlendState(
        &self,
        _: *const D3D11_BLEND_DESC,
        _: OutRef<ID3D11BlendState>,
    ) -> Result<()> {
        Err(not_compute("CreateBlendState"))
    }
    fn CreateDepthStencilState(
        &self,
        _: *const D3D11_DEPTH_STENCIL_DESC,
        _: OutRef<ID3D11DepthStencilState>,
    ) -> Result<()> {
        Err(not_compute("CreateDepthStencilState"))
    }
    fn CreateRasterizerState(
        &self,
        _: *const D3D11_RASTERIZER_DESC,
        _: OutRef<ID3D11RasterizerState>,
    ) -> Result<()> {
        Err(not_compute("CreateRasterizerState"))
    }

    fn CreateSamplerState(
        &self,
        pdesc: *const D3D11_SAMPLER_DESC,
        out: OutRef<ID3D11SamplerState>,
    ) -> Result<()> {
        let call = "CreateSamplerState";
        if pdesc.is_null() {
            return Err(invalid(call, "pSamplerDesc is null"));
        }
        // SAFETY: non-null; the application's description
        let desc = unsafe { *pdesc };
        let sampler = sampler_desc(&desc).map_err(|m| invalid(call, m))?;
        calls!("{call}: {sampler:?}");
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        let s: ID3D11SamplerState = Sampler {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            desc,
            sampler,
        }
        .into();
        out.write(Some(s))
    }

    fn CreateQuery(&self, pdesc: *const D3D11_QUERY_DESC, out: OutRef<ID3D11Query>) -> Result<()> {
        let call = "CreateQuery";
        if pdesc.is_null() {
            return Err(invalid(call, "pQueryDesc is null"));
        }
        // SAFETY: non-null; the application's description
        let desc = unsafe { *pdesc };
        if Query::data_size(desc.Query).is_none() {
            once(&format!(
                "CreateQuery: query type {} is not implemented (events, timestamps, timestamp-disjoint and pipeline statistics are); returned E_NOTIMPL",
                desc.Query.0
            ));
            return Err(E_NOTIMPL.into());
        }
        if out.is_null() {
            return Err(S_FALSE.into());
        }
        let q: ID3D11Query = Query {
            child: crate::child::Child::new(&Device::me(self), &self.shared),
            desc,
            state: Mutex::new(QueryState::default()),
        }
        .into();
        out.write(Some(q))
    }

    fn CreatePredicate(
        &self,
        _: *const D3D11_QUERY_DESC,
        _: OutRef<ID3D11Predicate>,
    ) -> Result<()> {
        Err(not_compute("CreatePredicate"))
    }
    fn CreateCounter(&self, _: *const D3D11_COUNTER_DESC, _: OutRef<ID3D11Counter>) -> Result<()> {
        Err(not_compute("CreateCounter"))
    }
    fn CreateDeferredContext(&self, _: u32, _: OutRef<ID3D11DeviceContext>) -> Result<()> {
        once("ID3D11Device::CreateDeferredContext: deferred contexts are not implemented; returned E_NOTIMPL");
        Err(E_NOTIMPL.into())
    }
    fn OpenSharedResource(&self, _: HANDLE, _: *const GUID, _: *mut *mut c_void) -> Result<()> {
        Err(not_compute("OpenSharedResource"))
    }

    fn CheckFormatSupport(&self, format: DXGI_FORMAT) -> Result<u32> {
        match format_support(format.0 as u32).0 {
            0 => Err(E_FAIL.into()),
            s => Ok(s),
        }
    }

    fn CheckMultisampleQualityLevels(&self, format: DXGI_FORMAT, samples: u32) -> Result<u32> {
        let ok =
            format::storage(format.0 as u32).is_some() && matches!(samples, 1 | 2 | 4 | 8 | 16);
        Ok(u32::from(ok))
    }

    fn CheckCounterInfo(&self, info: *mut D3D11_COUNTER_INFO) {
        if !info.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *info = D3D11_COUNTER_INFO::default() };
        }
    }

    fn CheckCounter(
        &self,
        _: *const D3D11_COUNTER_DESC,
        _: *mut D3D11_COUNTER_TYPE,
        _: *mut u32,
        _: PSTR,
        _: *mut u32,
        _: PSTR,
        _: *mut u32,
        _: PSTR,
        _: *mut u32,
    ) -> Result<()> {
        Err(E_INVALIDARG.into())
    }

    fn CheckFeatureSupport(
        &self,
        feature: D3D11_FEATURE,
        data: *mut c_void,
        size: u32,
    ) -> Result<()> {
        if data.is_null() || !size.is_multiple_of(4) {
            return Err(E_INVALIDARG.into());
        }
        // SAFETY: the application's struct of `size` bytes (a multiple of 4)
        let words =
            unsafe { std::slice::from_raw_parts_mut(data.cast::<u32>(), size as usize / 4) };
        let Some(answer) = feature_words(feature.0, words) else {
            once(&format!(
                "CheckFeatureSupport: feature {} is not answered; returned E_INVALIDARG",
                feature.0
            ));
            return Err(E_INVALIDARG.into());
        };
        if answer.len() != words.len() {
            return Err(E_INVALIDARG.into());
        }
        words.copy_from_slice(&answer);
        Ok(())
    }

    fn GetPrivateData(&self, guid: *const GUID, size: *mut u32, data: *mut c_void) -> Result<()> {
        // SAFETY: the application's pointers, as GetPrivateData takes them
        unsafe { self.private.get(guid, size, data) }
    }
    fn SetPrivateData(&self, guid: *const GUID, size: u32, data: *const c_void) -> Result<()> {
        // SAFETY: the application's pointers, as SetPrivateData takes them
        unsafe { self.private.set(guid, size, data) }
    }
    fn SetPrivateDataInterface(
        &self,
        guid: *const GUID,
        value: Ref<windows_core::IUnknown>,
    ) -> Result<()> {
        // SAFETY: the application's pointers, as SetPrivateDataInterface takes them
        unsafe { self.private.set_interface(guid, value) }
    }
    fn GetFeatureLevel(&self) -> D3D_FEATURE_LEVEL {
        self.shared.level
    }
    fn GetCreationFlags(&self) -> u32 {
        self.shared.flags
    }
    fn GetDeviceRemovedReason(&self) -> Result<()> {
        Ok(())
    }
    fn GetImmediateContext(&self, out: OutRef<ID3D11DeviceContext>) {
        let _ = out.write(Some(Context::immediate(
            &Device::me(self),
            self.shared.clone(),
        )));
    }
    fn SetExceptionMode(&self, flags: u32) -> Result<()> {
        self.shared.exception_mode.store(flags, Ordering::Relaxed);
        Ok(())
    }
    fn GetExceptionMode(&self) -> u32 {
        self.shared.exception_mode.load(Ordering::Relaxed)
    }
}

impl ID3D11Device1_Impl for Device_Impl {
    fn GetImmediateContext1(&self, out: OutRef<ID3D11DeviceContext1>) {
        let c = Context::immediate(&Device::me(self), self.shared.clone());
        let _ = out.write(c.cast().ok());
    }
    fn CreateDeferredContext1(&self, _: u32, _: OutRef<ID3D11DeviceContext1>) -> Result<()> {
        once("ID3D11Device1::CreateDeferredContext1: deferred contexts are not implemented; returned E_NOTIMPL");
        Err(E_NOTIMPL.into())
    }
    fn CreateBlendState1(
        &self,
        _: *const D3D11_BLEND_DESC1,
        _: OutRef<ID3D11BlendState1>,
    ) -> Result<()> {
        Err(not_compute("CreateBlendState1"))
    }
    fn CreateRasterizerState1(
        &self,
        _: *const D3D11_RASTERIZER_DESC1,
        _: OutRef<ID3D11RasterizerState1>,
    ) -> Result<()> {
        Err(not_compute("CreateRasterizerState1"))
    }
    fn CreateDeviceContextState(
        &self,
        _: u32,
        _: *const D3D_FEATURE_LEVEL,
        _: u32,
        _: u32,
        _: *const GUID,
        _: *mut D3D_FEATURE_LEVEL,
        _: OutRef<ID3DDeviceContextState>,
    ) -> Result<()> {
        Err(not_compute("CreateDeviceContextState"))
    }
    fn OpenSharedResource1(&self, _: HANDLE, _: *const GUID, _: *mut *mut c_void) -> Result<()> {
        Err(not_compute("OpenSharedResource1"))
    }
    fn OpenSharedResourceByName(
        &self,
        _: &windows_core::PCWSTR,
        _: u32,
        _: *const GUID,
        _: *mut *mut c_void,
    ) -> Result<()> {
        Err(not_compute("OpenSharedResourceByName"))
    }
}

impl IDXGIObject_Impl for Device_Impl {
    fn SetPrivateData(&self, guid: *const GUID, size: u32, data: *const c_void) -> Result<()> {
        // SAFETY: the application's pointers, as SetPrivateData takes them
        unsafe { self.private.set(guid, size, data) }
    }
    fn SetPrivateDataInterface(
        &self,
        guid: *const GUID,
        value: Ref<windows_core::IUnknown>,
    ) -> Result<()> {
        // SAFETY: the application's pointers, as SetPrivateDataInterface takes them
        unsafe { self.private.set_interface(guid, value) }
    }
    fn GetPrivateData(&self, guid: *const GUID, size: *mut u32, data: *mut c_void) -> Result<()> {
        // SAFETY: the application's pointers, as GetPrivateData takes them
        unsafe { self.private.get(guid, size, data) }
    }
    fn GetParent(&self, riid: *const GUID, parent: *mut *mut c_void) -> Result<()> {
        let adapter = IDXGIDevice_Impl::GetAdapter(self)?;
        // SAFETY: the application's IID and out pointer, as QueryInterface takes them
        unsafe { adapter.query(riid, parent).ok() }
    }
}

impl IDXGIDevice_Impl for Device_Impl {
    fn GetAdapter(&self) -> Result<IDXGIAdapter> {
        Ok(crate::dxgi::Adapter::default().into())
    }
    fn CreateSurface(
        &self,
        _: *const DXGI_SURFACE_DESC,
        _: u32,
        _: DXGI_USAGE,
        _: *const DXGI_SHARED_RESOURCE,
        _: *mut Option<IDXGISurface>,
    ) -> Result<()> {
        Err(not_compute("CreateSurface"))
    }
    fn QueryResourceResidency(
        &self,
        _: *const Option<windows_core::IUnknown>,
        status: *mut DXGI_RESIDENCY,
        n: u32,
    ) -> Result<()> {
        if status.is_null() {
            return Err(E_INVALIDARG.into());
        }
        for i in 0..n as usize {
            // SAFETY: the application's array of n statuses
            unsafe { status.add(i).write(DXGI_RESIDENCY_FULLY_RESIDENT) };
        }
        Ok(())
    }
    fn SetGPUThreadPriority(&self, priority: i32) -> Result<()> {
        if !(-7..=7).contains(&priority) {
            return Err(E_INVALIDARG.into());
        }
        self.shared.gpu_priority.store(priority, Ordering::Relaxed);
        Ok(())
    }
    fn GetGPUThreadPriority(&self) -> Result<i32> {
        Ok(self.shared.gpu_priority.load(Ordering::Relaxed))
    }
}
