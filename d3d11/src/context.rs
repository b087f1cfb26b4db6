//! `ID3D11DeviceContext`, the immediate context: the compute stage's
//! state (`CS*`), `Dispatch`/`DispatchIndirect`, copies, updates, maps,
//! UAV clears and queries. Every other call is a documented no-op (its
//! getters return nulls and zeros), logged once.
//!
//! Commands run when they are called: each has finished, and its results
//! are in the resources, when the call returns (`Flush` has nothing to do,
//! and a query's data is there at `End`).

use crate::child::{device_child, Child};
use crate::device::Shared;
use crate::dispatch::{dispatch, Groups};
use crate::log::{calls, once, say};
use crate::objects::*;
use crate::state::{Bound, CbData, CsState, ShaderData, UavData};
use sm5sim::api::TextureRegion;
use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use windows::Win32::Foundation::{E_INVALIDARG, E_NOTIMPL, RECT, S_FALSE};
use windows::Win32::Graphics::Direct3D::D3D_PRIMITIVE_TOPOLOGY;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::DXGI_FORMAT;
use windows_core::{implement, Interface, OutRef, Ref, Result, BOOL};

/// `ID3D11DeviceContext` and `ID3D11DeviceContext1`: the immediate context.
/// Its state is the device's ([`Shared`]): a context made after the
/// application released the last one has it too.
#[implement(ID3D11DeviceContext1)]
pub struct Context {
    /// device and private data
    pub child: Child,
    /// the device's state
    pub shared: Arc<Shared>,
}

impl Context {
    /// The immediate context of `device`: the one the application holds, or
    /// a new one when it holds none (its state is the device's, kept
    /// either way).
    pub fn immediate(device: &ID3D11Device, shared: Arc<Shared>) -> ID3D11DeviceContext {
        let mut held = shared.context.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = held.as_ref().and_then(|w| w.upgrade()) {
            return c;
        }
        let c: ID3D11DeviceContext1 = Context {
            child: Child::new(device, &shared),
            shared: shared.clone(),
        }
        .into();
        let c: ID3D11DeviceContext = c.into();
        *held = c.downgrade().ok();
        c
    }
}

device_child!(Context_Impl => child;);

fn ignored(call: &str) {
    once(&format!(
        "ID3D11DeviceContext::{call}: sm5sim runs compute only; ignored"
    ));
}

/// Write `n` nulls to the application's array `p`.
///
/// # Safety
/// `p` is null or holds `n` elements.
unsafe fn nulls<T>(p: *mut Option<T>, n: u32) {
    // no stage has more slots than an SRV's 128: a larger count is no array
    if p.is_null() || n > D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT {
        return;
    }
    for i in 0..n as usize {
        // SAFETY: the caller's promise; the memory is the application's
        // uninitialised out array
        unsafe { p.add(i).write(None) };
    }
}

/// Copy `n` interfaces from the application's array `p` (null: all null).
///
/// # Safety
/// `p` is null or holds `n` elements.
unsafe fn read_array<T: Clone>(p: *const Option<T>, n: u32) -> Vec<Option<T>> {
    if p.is_null() {
        return vec![None; n as usize];
    }
    // SAFETY: the caller's promise
    unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec()
}

/// Write the interfaces bound at slots `start..start + n` (counted
/// references) to the application's array `p`; past the slots, nulls.
///
/// # Safety
/// `p` is null or holds `n` elements.
unsafe fn write_array<T: Interface, D>(
    slots: &[Option<Bound<T, D>>],
    start: u32,
    n: u32,
    p: *mut Option<T>,
) {
    // a call past the slots is dropped, as the runtime drops it
    if p.is_null() || !fits("a getter", start, n, slots.len()) {
        return;
    }
    for i in 0..n as usize {
        let v = slots
            .get(start as usize + i)
            .and_then(|b| b.as_ref())
            .and_then(Bound::interface);
        // SAFETY: the caller's promise
        unsafe { p.add(i).write(v) };
    }
}

/// Whether slots `start..start + n` are among the `len` there are; a call
/// past them is dropped (logged), as the D3D11 runtime drops it.
fn fits(call: &str, start: u32, n: u32, len: usize) -> bool {
    let end = u64::from(start) + u64::from(n);
    if end > len as u64 {
        say(&format!(
            "{call}: slots {start}..{end} are past the {len} there are; ignored"
        ));
        return false;
    }
    true
}

/// Store `values` in `slots[start..]`, when they fit.
fn set_slots<T>(call: &str, slots: &mut [Option<T>], start: u32, values: Vec<Option<T>>) -> bool {
    let end = start as usize + values.len();
    if end > slots.len() {
        say(&format!(
            "{call}: slots {start}..{end} are past the {} there are; ignored",
            slots.len()
        ));
        return false;
    }
    for (slot, v) in slots[start as usize..end].iter_mut().zip(values) {
        *slot = v;
    }
    true
}

/// The application's array behind an `OutRef` that the bindings type as
/// one out parameter (`*GetConstantBuffers1`).
fn out_array<T: windows_core::Interface>(o: &OutRef<T>) -> *mut Option<T> {
    // SAFETY: OutRef is repr(transparent) over the `*mut *mut c_void` the
    // application passed, and Option<T> of an interface is one nullable
    // pointer: both are the array's address
    unsafe { std::mem::transmute_copy(o) }
}

/// `shader` with the class instances `given` bound to its interface slots
/// in order: each instance's class type names the function table its slot
/// calls through ([`sim_core::front::ifce::ClassLinkage::table_for`]). A
/// shader without interfaces is itself.
fn with_instances(
    shader: &Arc<sm5sim::api::Shader>,
    given: &[Option<ID3D11ClassInstance>],
) -> std::result::Result<Arc<sm5sim::api::Shader>, String> {
    let Some(cl) = shader.program().class_linkage.as_ref() else {
        return Ok(shader.clone());
    };
    let slots = cl.slot_count();
    if slots == 0 {
        return Ok(shader.clone());
    }
    if given.len() < slots as usize {
        return Err(format!(
            "it has {slots} interface slots and {} class instances were given",
            given.len()
        ));
    }
    let mut tables = Vec::with_capacity(slots as usize);
    for (slot, inst) in given.iter().take(slots as usize).enumerate() {
        let inst = inst
            .as_ref()
            .and_then(|i| i.cast_object_ref::<ClassInstance>().ok())
            .ok_or_else(|| format!("interface slot {slot} has no class instance of this device"))?;
        let table = cl.table_for(slot as u32, &inst.type_name).ok_or_else(|| {
            format!(
                "interface slot {slot} does not take class {} (a class of the shader's interface)",
                inst.type_name
            )
        })?;
        tables.push(table);
    }
    let mut bound = (**shader).clone();
    bound
        .bind_class_instances(&tables)
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(bound))
}

/// D3D11's hazard rule: a resource bound as a UAV of the compute stage is
/// unbound from its SRV slots.
fn unbind_srvs_of_uavs(cs: &mut CsState) {
    let written: Vec<_> = cs
        .uavs
        .iter()
        .flatten()
        .map(|u| u.data.target.res.clone())
        .collect();
    for (i, slot) in cs.srvs.iter_mut().enumerate() {
        let hazard = slot
            .as_ref()
            .is_some_and(|s| written.iter().any(|w| w.same(&s.data.res)));
        if hazard {
            once(&format!(
                "CSSetUnorderedAccessViews: a resource bound to t{i} is now a UAV; t{i} is unbound (D3D11's hazard rule)"
            ));
            *slot = None;
        }
    }
}

fn our<'a>(call: &str, r: &'a Ref<ID3D11Resource>) -> Option<&'a ResourceCore> {
    let core = r.as_ref().and_then(resource_core);
    if core.is_none() {
        say(&format!(
            "{call}: the resource is null or not this device's; ignored"
        ));
    }
    core
}

/// The bytes of subresource `sub` of `core`, with its row and depth pitch.
fn read_subresource(core: &ResourceCore, sub: u32) -> Option<(Vec<u8>, u32, u32)> {
    if let Some(b) = core.res.as_buffer() {
        if sub != 0 {
            return None;
        }
        let mut bytes = vec![0u8; core.byte_width as usize];
        b.read_bytes(0, &mut bytes).ok()?;
        let n = bytes.len() as u32;
        return Some((bytes, n, n));
    }
    let t = core.res.as_texture()?;
    let (mip, slice) = core.subresource(sub)?;
    let bytes = t.read_subresource(mip, slice);
    let [_, h, d] = t.mip_size(mip);
    let rows = h.div_ceil(t.desc().format.block_size()[1]);
    let depth_pitch = bytes.len() as u32 / d;
    Some((bytes, depth_pitch / rows, depth_pitch))
}

fn write_subresource(
    core: &ResourceCore,
    sub: u32,
    bytes: &[u8],
) -> std::result::Result<(), String> {
    if let Some(b) = core.res.as_buffer() {
        return b.write_bytes(0, bytes).map_err(|e| e.to_string());
    }
    let t = core.res.as_texture().ok_or("no storage")?;
    let (mip, slice) = core.subresource(sub).ok_or("no such subresource")?;
    t.write_subresource(mip, slice, bytes)
        .map_err(|e| e.to_string())
}

impl Context_Impl {
    fn clear_uav(&self, call: &str, uav: Ref<ID3D11UnorderedAccessView>, value: Clear) {
        let Some(u) = uav.as_ref().and_then(|u| u.cast_object_ref::<Uav>().ok()) else {
            say(&format!(
                "{call}: the view is null or not this device's; ignored"
            ));
            return;
        };
        if let Err(m) = crate::clear::clear(&u.target, value) {
            say(&format!("{call}: {m}; ignored"));
        }
    }
}

/// What a UAV clear writes.
#[derive(Debug, Clone, Copy)]
pub enum Clear {
    /// `ClearUnorderedAccessViewUint`: the low bits of each value
    Uint([u32; 4]),
    /// `ClearUnorderedAccessViewFloat`: converted to the view's format
    Float([f32; 4]),
}

impl ID3D11DeviceContext_Impl for Context_Impl {
    fn Dispatch(&self, x: u32, y: u32, z: u32) {
        dispatch(&self.shared, Groups::Direct([x, y, z]));
    }

    fn DispatchIndirect(&self, args: Ref<ID3D11Buffer>, offset: u32) {
        let Some(b) = args
            .as_ref()
            .and_then(|b| b.cast_object_ref::<Buffer>().ok())
        else {
            say("DispatchIndirect: the arguments buffer is null or not this device's; ignored");
            return;
        };
        if b.core.misc & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS.0 as u32 == 0 {
            say("DispatchIndirect: the arguments buffer was not created with D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS; ignored");
            return;
        }
        dispatch(&self.shared, Groups::Indirect(&b.core, offset));
    }

    fn CSSetShader(
        &self,
        shader: Ref<ID3D11ComputeShader>,
        instances: *const Option<ID3D11ClassInstance>,
        n: u32,
    ) {
        let bound = match shader.as_ref() {
            None => None,
            Some(s) => {
                let Ok(obj) = s.cast_object_ref::<ComputeShader>() else {
                    say("CSSetShader: the shader is not this device's; ignored");
                    return;
                };
                // SAFETY: the application's array of n class instances
                let given = unsafe { read_array(instances, n.min(D3D11_SHADER_MAX_INTERFACES)) };
                let shader = match with_instances(&obj.shader, &given) {
                    Ok(s) => s,
                    Err(m) => {
                        say(&format!(
                            "CSSetShader: {}: {m}; its dispatches will not run",
                            obj.name()
                        ));
                        obj.shader.clone()
                    }
                };
                let data = ShaderData {
                    shader,
                    name: obj.name(),
                    instances: given
                        .iter()
                        .map(|i| i.as_ref().and_then(|i| i.downgrade().ok()))
                        .collect(),
                };
                Some(Bound::new(s, data))
            }
        };
        calls!(
            "CSSetShader: {}",
            bound.as_ref().map_or("null", |b| b.data.name.as_str())
        );
        self.shared
            .cs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .shader = bound;
    }

    fn CSGetShader(
        &self,
        shader: OutRef<ID3D11ComputeShader>,
        instances: OutRef<ID3D11ClassInstance>,
        n: *mut u32,
    ) {
        let (s, bound) = {
            let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
            let bound: Vec<Option<ID3D11ClassInstance>> = cs
                .shader
                .as_ref()
                .map(|b| {
                    b.data
                        .instances
                        .iter()
                        .map(|w| w.as_ref().and_then(|w| w.upgrade()))
                        .collect()
                })
                .unwrap_or_default();
            (cs.shader.as_ref().and_then(Bound::interface), bound)
        };
        let _ = shader.write(s);
        if n.is_null() {
            return;
        }
        // in: the array's length; out: how many instances are bound
        // SAFETY: the application's non-null in/out pointer
        let room = unsafe { *n } as usize;
        let p = out_array(&instances);
        if !p.is_null() {
            for (i, inst) in bound.iter().take(room).enumerate() {
                // SAFETY: the application's array of `room` instances
                unsafe { p.add(i).write(inst.clone()) };
            }
        }
        // SAFETY: as above
        unsafe { *n = bound.len() as u32 };
    }

    fn CSSetShaderResources(
        &self,
        start: u32,
        n: u32,
        views: *const Option<ID3D11ShaderResourceView>,
    ) {
        if !fits(
            "CSSetShaderResources",
            start,
            n,
            D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT as usize,
        ) {
            return;
        }
        // SAFETY: the application's array of n views
        let given = unsafe { read_array(views, n) };
        let mut values = Vec::with_capacity(given.len());
        for (i, v) in given.iter().enumerate() {
            values.push(v.as_ref().and_then(|v| match v.cast_object_ref::<Srv>() {
                Ok(obj) => Some(Bound::new(v, obj.target.clone())),
                Err(_) => {
                    say(&format!(
                        "CSSetShaderResources: t{} is not this device's view; bound as null",
                        start as usize + i
                    ));
                    None
                }
            }));
        }
        calls!("CSSetShaderResources: t{start}, {n} views");
        let mut cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        let written: Vec<_> = cs
            .uavs
            .iter()
            .flatten()
            .map(|u| u.data.target.res.clone())
            .collect();
        for (i, v) in values.iter_mut().enumerate() {
            if v.as_ref()
                .is_some_and(|b| written.iter().any(|w| w.same(&b.data.res)))
            {
                once(&format!(
                    "CSSetShaderResources: t{} is bound as a UAV too; bound as null (D3D11's hazard rule)",
                    start as usize + i
                ));
                *v = None;
            }
        }
        set_slots("CSSetShaderResources", &mut cs.srvs, start, values);
        drop(cs);
        drop(given);
    }

    fn CSGetShaderResources(
        &self,
        start: u32,
        n: u32,
        views: *mut Option<ID3D11ShaderResourceView>,
    ) {
        let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the application's array of n views
        unsafe { write_array(&cs.srvs, start, n, views) };
    }

    fn CSSetUnorderedAccessViews(
        &self,
        start: u32,
        n: u32,
        views: *const Option<ID3D11UnorderedAccessView>,
        counts: *const u32,
    ) {
        if !fits(
            "CSSetUnorderedAccessViews",
            start,
            n,
            D3D11_1_UAV_SLOT_COUNT as usize,
        ) {
            return;
        }
        // SAFETY: the application's array of n views
        let given = unsafe { read_array(views, n) };
        let mut values = Vec::with_capacity(given.len());
        for (i, v) in given.iter().enumerate() {
            values.push(v.as_ref().and_then(|v| match v.cast_object_ref::<Uav>() {
                Ok(obj) => {
                    if obj.counter && !counts.is_null() {
                        // SAFETY: the application's array of n initial counts
                        let c = unsafe { *counts.add(i) };
                        if c != u32::MAX {
                            obj.target.res.set_counter(c);
                        }
                    }
                    let data = UavData {
                        target: obj.target.clone(),
                        counter: obj.counter,
                    };
                    Some(Bound::new(v, data))
                }
                Err(_) => {
                    say(&format!(
                        "CSSetUnorderedAccessViews: u{} is not this device's view; bound as null",
                        start as usize + i
                    ));
                    None
                }
            }));
        }
        calls!("CSSetUnorderedAccessViews: u{start}, {n} views");
        let mut cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        if set_slots("CSSetUnorderedAccessViews", &mut cs.uavs, start, values) {
            unbind_srvs_of_uavs(&mut cs);
        }
        drop(cs);
        drop(given);
    }

    fn CSGetUnorderedAccessViews(
        &self,
        start: u32,
        n: u32,
        views: *mut Option<ID3D11UnorderedAccessView>,
    ) {
        let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the application's array of n views
        unsafe { write_array(&cs.uavs, start, n, views) };
    }

    fn CSSetConstantBuffers(&self, start: u32, n: u32, buffers: *const Option<ID3D11Buffer>) {
        if !fits(
            "CSSetConstantBuffers",
            start,
            n,
            D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT as usize,
        ) {
            return;
        }
        // SAFETY: the application's array of n buffers
        let given = unsafe { read_array(buffers, n) };
        let mut values = Vec::with_capacity(given.len());
        for (i, b) in given.iter().enumerate() {
            values.push(b.as_ref().and_then(|b| match b.cast_object_ref::<Buffer>() {
                Ok(obj) => {
                    if obj.core.bind & D3D11_BIND_CONSTANT_BUFFER.0 as u32 == 0 {
                        say(&format!(
                            "CSSetConstantBuffers: the buffer at cb{} was not created with D3D11_BIND_CONSTANT_BUFFER; bound as null",
                            start as usize + i
                        ));
                        return None;
                    }
                    let data = CbData { res: obj.core.res.clone(), byte_width: obj.core.byte_width };
                    Some(Bound::new(b, data))
                }
                Err(_) => {
                    say(&format!("CSSetConstantBuffers: cb{} is not this device's buffer; bound as null", start as usize + i));
                    None
                }
            }));
        }
        calls!("CSSetConstantBuffers: cb{start}, {n} buffers");
        let mut cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        if set_slots("CSSetConstantBuffers", &mut cs.cbs, start, values) {
            let ranges = vec![None; n as usize];
            set_slots("CSSetConstantBuffers", &mut cs.cb_ranges, start, ranges);
        }
        drop(cs);
        drop(given);
    }

    fn CSGetConstantBuffers(&self, start: u32, n: u32, buffers: *mut Option<ID3D11Buffer>) {
        let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the application's array of n buffers
        unsafe { write_array(&cs.cbs, start, n, buffers) };
    }

    fn CSSetSamplers(&self, start: u32, n: u32, samplers: *const Option<ID3D11SamplerState>) {
        if !fits(
            "CSSetSamplers",
            start,
            n,
            D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT as usize,
        ) {
            return;
        }
        // SAFETY: the application's array of n samplers
        let given = unsafe { read_array(samplers, n) };
        let mut values = Vec::with_capacity(given.len());
        for (i, s) in given.iter().enumerate() {
            values.push(
                s.as_ref()
                    .and_then(|s| match s.cast_object_ref::<Sampler>() {
                        Ok(obj) => Some(Bound::new(s, obj.sampler)),
                        Err(_) => {
                            say(&format!(
                                "CSSetSamplers: s{} is not this device's sampler; bound as null",
                                start as usize + i
                            ));
                            None
                        }
                    }),
            );
        }
        let mut cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        set_slots("CSSetSamplers", &mut cs.samplers, start, values);
        drop(cs);
        drop(given);
    }

    fn CSGetSamplers(&self, start: u32, n: u32, samplers: *mut Option<ID3D11SamplerState>) {
        let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the application's array of n samplers
        unsafe { write_array(&cs.samplers, start, n, samplers) };
    }

    fn ClearState(&self) {
        *self.shared.cs.lock().unwrap_or_else(|e| e.into_inner()) = CsState::default();
    }

    fn Flush(&self) {}

    fn GetType(&self) -> D3D11_DEVICE_CONTEXT_TYPE {
        D3D11_DEVICE_CONTEXT_IMMEDIATE
    }

    fn GetContextFlags(&self) -> u32 {
        0
    }

    fn CopyResource(&self, dst: Ref<ID3D11Resource>, src: Ref<ID3D11Resource>) {
        let call = "CopyResource";
        let (Some(d), Some(s)) = (our(call, &dst), our(call, &src)) else {
            return;
        };
        if d.usage == D3D11_USAGE_IMMUTABLE.0 {
            say(&format!("{call}: the destination is immutable; ignored"));
            return;
        }
        if let Err(e) = d.res.copy_from(&s.res) {
            say(&format!("{call}: {e}; ignored"));
        }
    }

    fn CopySubresourceRegion(
        &self,
        dst: Ref<ID3D11Resource>,
        dst_sub: u32,
        x: u32,
        y: u32,
        z: u32,
        src: Ref<ID3D11Resource>,
        src_sub: u32,
        src_box: *const D3D11_BOX,
    ) {
        let call = "CopySubresourceRegion";
        let (Some(d), Some(s)) = (our(call, &dst), our(call, &src)) else {
            return;
        };
        if d.usage == D3D11_USAGE_IMMUTABLE.0 {
            say(&format!("{call}: the destination is immutable; ignored"));
            return;
        }
        // SAFETY: null or the application's box
        let bx = unsafe { src_box.as_ref() }.copied();
        let r = if d.res.as_buffer().is_some() {
            let (from, bytes) = match bx {
                Some(b) => (u64::from(b.left), u64::from(b.right.saturating_sub(b.left))),
                None => (0, s.byte_width),
            };
            if dst_sub != 0 || src_sub != 0 {
                say(&format!("{call}: a buffer has only subresource 0; ignored"));
                return;
            }
            d.res.copy_region(u64::from(x), &s.res, from, bytes)
        } else {
            let (Some(to), Some(from)) = (d.subresource(dst_sub), s.subresource(src_sub)) else {
                say(&format!(
                    "{call}: no subresource {dst_sub} or {src_sub}; ignored"
                ));
                return;
            };
            d.res.copy_texture_region(
                TextureRegion {
                    mip: to.0,
                    slice: to.1,
                },
                [x, y, z],
                &s.res,
                TextureRegion {
                    mip: from.0,
                    slice: from.1,
                },
                bx.map(|b| [[b.left, b.top, b.front], [b.right, b.bottom, b.back]]),
            )
        };
        if let Err(e) = r {
            say(&format!("{call}: {e}; ignored"));
        }
    }

    fn CopyStructureCount(
        &self,
        dst: Ref<ID3D11Buffer>,
        offset: u32,
        view: Ref<ID3D11UnorderedAccessView>,
    ) {
        let call = "CopyStructureCount";
        let d = dst
            .as_ref()
            .and_then(|b| b.cast_object_ref::<Buffer>().ok());
        let u = view.as_ref().and_then(|v| v.cast_object_ref::<Uav>().ok());
        let (Some(d), Some(u)) = (d, u) else {
            say(&format!(
                "{call}: the buffer or view is null or not this device's; ignored"
            ));
            return;
        };
        if !u.counter {
            say(&format!(
                "{call}: the view has no append or counter flag; ignored"
            ));
            return;
        }
        if let Err(e) = d
            .core
            .res
            .copy_structure_count(u64::from(offset), &u.target.res)
        {
            say(&format!("{call}: {e}; ignored"));
        }
    }

    fn UpdateSubresource(
        &self,
        dst: Ref<ID3D11Resource>,
        sub: u32,
        dst_box: *const D3D11_BOX,
        data: *const c_void,
        row_pitch: u32,
        depth_pitch: u32,
    ) {
        let call = "UpdateSubresource";
        let Some(d) = our(call, &dst) else { return };
        if data.is_null() {
            say(&format!("{call}: pSrcData is null; ignored"));
            return;
        }
        if d.usage != D3D11_USAGE_DEFAULT.0 {
            say(&format!(
                "{call}: only a resource of D3D11_USAGE_DEFAULT can be updated; ignored"
            ));
            return;
        }
        // SAFETY: null or the application's box
        let bx = unsafe { dst_box.as_ref() }.copied();
        // SAFETY: the application's data covers the box at its pitches
        let r = unsafe { crate::update::update(d, sub, bx, data.cast(), row_pitch, depth_pitch) };
        if let Err(m) = r {
            say(&format!("{call}: {m}; ignored"));
        }
    }

    fn Map(
        &self,
        resource: Ref<ID3D11Resource>,
        sub: u32,
        map_type: D3D11_MAP,
        _flags: u32,
        out: *mut D3D11_MAPPED_SUBRESOURCE,
    ) -> Result<()> {
        let call = "Map";
        let Some(core) = our(call, &resource) else {
            return Err(E_INVALIDARG.into());
        };
        let t = map_type.0;
        let cpu = core.cpu_access;
        let (read, write) = (
            cpu & D3D11_CPU_ACCESS_READ.0 as u32 != 0,
            cpu & D3D11_CPU_ACCESS_WRITE.0 as u32 != 0,
        );
        let allowed = match core.usage {
            u if u == D3D11_USAGE_STAGING.0 => match t {
                1 => read,
                2 => write,
                3 => read && write,
                _ => false,
            },
            u if u == D3D11_USAGE_DYNAMIC.0 => matches!(t, 4 | 5) && write,
            _ => false,
        };
        if !allowed {
            say(&format!(
                "{call}: map type {t} is not allowed on {} (usage {}, CPU access {cpu:#x}); E_INVALIDARG",
                core.name(),
                core.usage
            ));
            return Err(E_INVALIDARG.into());
        }
        let Some((bytes, row, depth)) = read_subresource(core, sub) else {
            say(&format!(
                "{call}: {} has no subresource {sub}; E_INVALIDARG",
                core.name()
            ));
            return Err(E_INVALIDARG.into());
        };
        let mut maps = core.maps.lock().unwrap_or_else(|e| e.into_inner());
        if maps.contains_key(&sub) {
            say(&format!(
                "{call}: subresource {sub} of {} is mapped already; E_INVALIDARG",
                core.name()
            ));
            return Err(E_INVALIDARG.into());
        }
        let mut data = vec![0u128; bytes.len().div_ceil(16)];
        // SAFETY: `data` holds at least bytes.len() bytes
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                data.as_mut_ptr().cast::<u8>(),
                bytes.len(),
            )
        };
        let mapped = maps.entry(sub).or_insert(Mapped {
            data,
            bytes: bytes.len(),
            write: t != 1,
        });
        if !out.is_null() {
            // SAFETY: the application's non-null out pointer; the bytes stay
            // where they are (a Vec is not moved by the map's growth) until Unmap
            unsafe {
                *out = D3D11_MAPPED_SUBRESOURCE {
                    pData: mapped.data.as_mut_ptr().cast(),
                    RowPitch: row,
                    DepthPitch: depth,
                }
            };
        }
        calls!("{call}: {} subresource {sub}, type {t}", core.name());
        Ok(())
    }

    fn Unmap(&self, resource: Ref<ID3D11Resource>, sub: u32) {
        let call = "Unmap";
        let Some(core) = our(call, &resource) else {
            return;
        };
        let Some(m) = core
            .maps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&sub)
        else {
            say(&format!(
                "{call}: subresource {sub} of {} is not mapped; ignored",
                core.name()
            ));
            return;
        };
        if m.write {
            // SAFETY: the Vec holds m.bytes bytes
            let bytes =
                unsafe { std::slice::from_raw_parts(m.data.as_ptr().cast::<u8>(), m.bytes) };
            if let Err(e) = write_subresource(core, sub, bytes) {
                say(&format!("{call}: {e}"));
            }
        }
    }

    fn ClearUnorderedAccessViewUint(
        &self,
        view: Ref<ID3D11UnorderedAccessView>,
        values: *const u32,
    ) {
        if values.is_null() {
            return;
        }
        // SAFETY: the application's four values
        let v = unsafe { *values.cast::<[u32; 4]>() };
        self.clear_uav("ClearUnorderedAccessViewUint", view, Clear::Uint(v));
    }

    fn ClearUnorderedAccessViewFloat(
        &self,
        view: Ref<ID3D11UnorderedAccessView>,
        values: *const f32,
    ) {
        if values.is_null() {
            return;
        }
        // SAFETY: the application's four values
        let v = unsafe { *values.cast::<[f32; 4]>() };
        self.clear_uav("ClearUnorderedAccessViewFloat", view, Clear::Float(v));
    }

    fn Begin(&self, query: Ref<ID3D11Asynchronous>) {
        let Some(q) = query
            .as_ref()
            .and_then(|q| q.cast_object_ref::<Query>().ok())
        else {
            return;
        };
        let mut s = q.state.lock().unwrap_or_else(|e| e.into_inner());
        match q.desc.Query {
            D3D11_QUERY_EVENT | D3D11_QUERY_TIMESTAMP => {
                say("Begin: an event or timestamp query has End only; ignored");
            }
            _ => {
                *s = QueryState {
                    begun: true,
                    ended: false,
                    start: self.shared.cs_invocations.load(Ordering::Relaxed),
                    value: 0,
                }
            }
        }
    }

    fn End(&self, query: Ref<ID3D11Asynchronous>) {
        let Some(q) = query
            .as_ref()
            .and_then(|q| q.cast_object_ref::<Query>().ok())
        else {
            return;
        };
        let mut s = q.state.lock().unwrap_or_else(|e| e.into_inner());
        let kind = q.desc.Query;
        if !s.begun && !matches!(kind, D3D11_QUERY_EVENT | D3D11_QUERY_TIMESTAMP) {
            say("End: the query was not begun; ignored");
            return;
        }
        s.begun = false;
        s.ended = true;
        s.value = match kind {
            D3D11_QUERY_TIMESTAMP => self.shared.epoch.elapsed().as_nanos() as u64,
            D3D11_QUERY_PIPELINE_STATISTICS => {
                self.shared.cs_invocations.load(Ordering::Relaxed) - s.start
            }
            _ => 0,
        };
    }

    fn GetData(
        &self,
        query: Ref<ID3D11Asynchronous>,
        data: *mut c_void,
        size: u32,
        _flags: u32,
    ) -> Result<()> {
        let Some(q) = query
            .as_ref()
            .and_then(|q| q.cast_object_ref::<Query>().ok())
        else {
            return Err(E_INVALIDARG.into());
        };
        let s = *q.state.lock().unwrap_or_else(|e| e.into_inner());
        if !s.ended {
            return Err(S_FALSE.into());
        }
        if data.is_null() {
            return Ok(());
        }
        let words: Vec<u64> = match q.desc.Query {
            // BOOL TRUE
            D3D11_QUERY_EVENT => vec![1],
            D3D11_QUERY_TIMESTAMP => vec![s.value],
            // Frequency 1 GHz (ns), Disjoint FALSE
            D3D11_QUERY_TIMESTAMP_DISJOINT => vec![1_000_000_000, 0],
            // IAVertices … CSInvocations: only the last is counted
            _ => {
                let mut w = vec![0u64; 11];
                w[10] = s.value;
                w
            }
        };
        let want = Query::data_size(q.desc.Query).unwrap_or(0);
        if size != want {
            say(&format!(
                "GetData: DataSize {size} is not the query's {want} bytes; E_INVALIDARG"
            ));
            return Err(E_INVALIDARG.into());
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        // SAFETY: the application's buffer of `size` bytes
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data.cast::<u8>(), size as usize) };
        Ok(())
    }

    fn GenerateMips(&self, _view: Ref<ID3D11ShaderResourceView>) {
        once("ID3D11DeviceContext::GenerateMips: not implemented; ignored");
    }

    fn SetResourceMinLOD(&self, _r: Ref<ID3D11Resource>, _lod: f32) {
        once("ID3D11DeviceContext::SetResourceMinLOD: not implemented; ignored");
    }

    fn GetResourceMinLOD(&self, _r: Ref<ID3D11Resource>) -> f32 {
        0.0
    }

    fn ExecuteCommandList(&self, _list: Ref<ID3D11CommandList>, _restore: BOOL) {
        once("ID3D11DeviceContext::ExecuteCommandList: command lists are not implemented; ignored");
    }

    fn FinishCommandList(&self, _restore: BOOL, _list: OutRef<ID3D11CommandList>) -> Result<()> {
        once("ID3D11DeviceContext::FinishCommandList: an immediate context has no command list; E_NOTIMPL");
        Err(E_NOTIMPL.into())
    }

    // Not compute: no-ops, logged once.

    fn VSSetConstantBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppconstantbuffers: *const Option<ID3D11Buffer>,
    ) {
        ignored("VSSetConstantBuffers");
    }

    fn PSSetShaderResources(
        &self,
        _startslot: u32,
        _numviews: u32,
        _ppshaderresourceviews: *const Option<ID3D11ShaderResourceView>,
    ) {
        ignored("PSSetShaderResources");
    }

    fn PSSetShader(
        &self,
        _ppixelshader: Ref<ID3D11PixelShader>,
        _ppclassinstances: *const Option<ID3D11ClassInstance>,
        _numclassinstances: u32,
    ) {
        ignored("PSSetShader");
    }

    fn PSSetSamplers(
        &self,
        _startslot: u32,
        _numsamplers: u32,
        _ppsamplers: *const Option<ID3D11SamplerState>,
    ) {
        ignored("PSSetSamplers");
    }

    fn VSSetShader(
        &self,
        _pvertexshader: Ref<ID3D11VertexShader>,
        _ppclassinstances: *const Option<ID3D11ClassInstance>,
        _numclassinstances: u32,
    ) {
        ignored("VSSetShader");
    }

    fn DrawIndexed(&self, _indexcount: u32, _startindexlocation: u32, _basevertexlocation: i32) {
        ignored("DrawIndexed");
    }

    fn Draw(&self, _vertexcount: u32, _startvertexlocation: u32) {
        ignored("Draw");
    }

    fn PSSetConstantBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppconstantbuffers: *const Option<ID3D11Buffer>,
    ) {
        ignored("PSSetConstantBuffers");
    }

    fn IASetInputLayout(&self, _pinputlayout: Ref<ID3D11InputLayout>) {
        ignored("IASetInputLayout");
    }

    fn IASetVertexBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppvertexbuffers: *const Option<ID3D11Buffer>,
        _pstrides: *const u32,
        _poffsets: *const u32,
    ) {
        ignored("IASetVertexBuffers");
    }

    fn IASetIndexBuffer(
        &self,
        _pindexbuffer: Ref<ID3D11Buffer>,
        _format: DXGI_FORMAT,
        _offset: u32,
    ) {
        ignored("IASetIndexBuffer");
    }

    fn DrawIndexedInstanced(
        &self,
        _indexcountperinstance: u32,
        _instancecount: u32,
        _startindexlocation: u32,
        _basevertexlocation: i32,
        _startinstancelocation: u32,
    ) {
        ignored("DrawIndexedInstanced");
    }

    fn DrawInstanced(
        &self,
        _vertexcountperinstance: u32,
        _instancecount: u32,
        _startvertexlocation: u32,
        _startinstancelocation: u32,
    ) {
        ignored("DrawInstanced");
    }

    fn GSSetConstantBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppconstantbuffers: *const Option<ID3D11Buffer>,
    ) {
        ignored("GSSetConstantBuffers");
    }

    fn GSSetShader(
        &self,
        _pshader: Ref<ID3D11GeometryShader>,
        _ppclassinstances: *const Option<ID3D11ClassInstance>,
        _numclassinstances: u32,
    ) {
        ignored("GSSetShader");
    }

    fn IASetPrimitiveTopology(&self, _topology: D3D_PRIMITIVE_TOPOLOGY) {
        ignored("IASetPrimitiveTopology");
    }

    fn VSSetShaderResources(
        &self,
        _startslot: u32,
        _numviews: u32,
        _ppshaderresourceviews: *const Option<ID3D11ShaderResourceView>,
    ) {
        ignored("VSSetShaderResources");
    }

    fn VSSetSamplers(
        &self,
        _startslot: u32,
        _numsamplers: u32,
        _ppsamplers: *const Option<ID3D11SamplerState>,
    ) {
        ignored("VSSetSamplers");
    }

    fn SetPredication(&self, _ppredicate: Ref<ID3D11Predicate>, _predicatevalue: BOOL) {
        ignored("SetPredication");
    }

    fn GSSetShaderResources(
        &self,
        _startslot: u32,
        _numviews: u32,
        _ppshaderresourceviews: *const Option<ID3D11ShaderResourceView>,
    ) {
        ignored("GSSetShaderResources");
    }

    fn GSSetSamplers(
        &self,
        _startslot: u32,
        _numsamplers: u32,
        _ppsamplers: *const Option<ID3D11SamplerState>,
    ) {
        ignored("GSSetSamplers");
    }

    fn OMSetRenderTargets(
        &self,
        _numviews: u32,
        _pprendertargetviews: *const Option<ID3D11RenderTargetView>,
        _pdepthstencilview: Ref<ID3D11DepthStencilView>,
    ) {
        ignored("OMSetRenderTargets");
    }

    fn OMSetRenderTargetsAndUnorderedAccessViews(
        &self,
        _numrtvs: u32,
        _pprendertargetviews: *const Option<ID3D11RenderTargetView>,
        _pdepthstencilview: Ref<ID3D11DepthStencilView>,
        _uavstartslot: u32,
        _numuavs: u32,
        _ppunorderedaccessviews: *const Option<ID3D11UnorderedAccessView>,
        _puavinitialcounts: *const u32,
    ) {
        ignored("OMSetRenderTargetsAndUnorderedAccessViews");
    }

    fn OMSetBlendState(
        &self,
        _pblendstate: Ref<ID3D11BlendState>,
        _blendfactor: *const f32,
        _samplemask: u32,
    ) {
        ignored("OMSetBlendState");
    }

    fn OMSetDepthStencilState(
        &self,
        _pdepthstencilstate: Ref<ID3D11DepthStencilState>,
        _stencilref: u32,
    ) {
        ignored("OMSetDepthStencilState");
    }

    fn SOSetTargets(
        &self,
        _numbuffers: u32,
        _ppsotargets: *const Option<ID3D11Buffer>,
        _poffsets: *const u32,
    ) {
        ignored("SOSetTargets");
    }

    fn DrawAuto(&self) {
        ignored("DrawAuto");
    }

    fn DrawIndexedInstancedIndirect(
        &self,
        _pbufferforargs: Ref<ID3D11Buffer>,
        _alignedbyteoffsetforargs: u32,
    ) {
        ignored("DrawIndexedInstancedIndirect");
    }

    fn DrawInstancedIndirect(
        &self,
        _pbufferforargs: Ref<ID3D11Buffer>,
        _alignedbyteoffsetforargs: u32,
    ) {
        ignored("DrawInstancedIndirect");
    }

    fn RSSetState(&self, _prasterizerstate: Ref<ID3D11RasterizerState>) {
        ignored("RSSetState");
    }

    fn RSSetViewports(&self, _numviewports: u32, _pviewports: *const D3D11_VIEWPORT) {
        ignored("RSSetViewports");
    }

    fn RSSetScissorRects(&self, _numrects: u32, _prects: *const RECT) {
        ignored("RSSetScissorRects");
    }

    fn ClearRenderTargetView(
        &self,
        _prendertargetview: Ref<ID3D11RenderTargetView>,
        _colorrgba: *const f32,
    ) {
        ignored("ClearRenderTargetView");
    }

    fn ClearDepthStencilView(
        &self,
        _pdepthstencilview: Ref<ID3D11DepthStencilView>,
        _clearflags: u32,
        _depth: f32,
        _stencil: u8,
    ) {
        ignored("ClearDepthStencilView");
    }

    fn ResolveSubresource(
        &self,
        _pdstresource: Ref<ID3D11Resource>,
        _dstsubresource: u32,
        _psrcresource: Ref<ID3D11Resource>,
        _srcsubresource: u32,
        _format: DXGI_FORMAT,
    ) {
        ignored("ResolveSubresource");
    }

    fn HSSetShaderResources(
        &self,
        _startslot: u32,
        _numviews: u32,
        _ppshaderresourceviews: *const Option<ID3D11ShaderResourceView>,
    ) {
        ignored("HSSetShaderResources");
    }

    fn HSSetShader(
        &self,
        _phullshader: Ref<ID3D11HullShader>,
        _ppclassinstances: *const Option<ID3D11ClassInstance>,
        _numclassinstances: u32,
    ) {
        ignored("HSSetShader");
    }

    fn HSSetSamplers(
        &self,
        _startslot: u32,
        _numsamplers: u32,
        _ppsamplers: *const Option<ID3D11SamplerState>,
    ) {
        ignored("HSSetSamplers");
    }

    fn HSSetConstantBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppconstantbuffers: *const Option<ID3D11Buffer>,
    ) {
        ignored("HSSetConstantBuffers");
    }

    fn DSSetShaderResources(
        &self,
        _startslot: u32,
        _numviews: u32,
        _ppshaderresourceviews: *const Option<ID3D11ShaderResourceView>,
    ) {
        ignored("DSSetShaderResources");
    }

    fn DSSetShader(
        &self,
        _pdomainshader: Ref<ID3D11DomainShader>,
        _ppclassinstances: *const Option<ID3D11ClassInstance>,
        _numclassinstances: u32,
    ) {
        ignored("DSSetShader");
    }

    fn DSSetSamplers(
        &self,
        _startslot: u32,
        _numsamplers: u32,
        _ppsamplers: *const Option<ID3D11SamplerState>,
    ) {
        ignored("DSSetSamplers");
    }

    fn DSSetConstantBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        _ppconstantbuffers: *const Option<ID3D11Buffer>,
    ) {
        ignored("DSSetConstantBuffers");
    }

    fn VSGetConstantBuffers(
        &self,
        _startslot: u32,
        numbuffers: u32,
        ppconstantbuffers: *mut Option<ID3D11Buffer>,
    ) {
        ignored("VSGetConstantBuffers");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppconstantbuffers, numbuffers) };
    }

    fn PSGetShaderResources(
        &self,
        _startslot: u32,
        numviews: u32,
        ppshaderresourceviews: *mut Option<ID3D11ShaderResourceView>,
    ) {
        ignored("PSGetShaderResources");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(ppshaderresourceviews, numviews) };
    }

    fn PSGetShader(
        &self,
        pppixelshader: OutRef<ID3D11PixelShader>,
        ppclassinstances: OutRef<ID3D11ClassInstance>,
        pnumclassinstances: *mut u32,
    ) {
        ignored("PSGetShader");
        let _ = pppixelshader.write(None);
        let _ = ppclassinstances.write(None);
        if !pnumclassinstances.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumclassinstances = 0 };
        }
    }

    fn PSGetSamplers(
        &self,
        _startslot: u32,
        numsamplers: u32,
        ppsamplers: *mut Option<ID3D11SamplerState>,
    ) {
        ignored("PSGetSamplers");
        // SAFETY: the application's array of numsamplers elements
        unsafe { nulls(ppsamplers, numsamplers) };
    }

    fn VSGetShader(
        &self,
        ppvertexshader: OutRef<ID3D11VertexShader>,
        ppclassinstances: OutRef<ID3D11ClassInstance>,
        pnumclassinstances: *mut u32,
    ) {
        ignored("VSGetShader");
        let _ = ppvertexshader.write(None);
        let _ = ppclassinstances.write(None);
        if !pnumclassinstances.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumclassinstances = 0 };
        }
    }

    fn PSGetConstantBuffers(
        &self,
        _startslot: u32,
        numbuffers: u32,
        ppconstantbuffers: *mut Option<ID3D11Buffer>,
    ) {
        ignored("PSGetConstantBuffers");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppconstantbuffers, numbuffers) };
    }

    fn IAGetInputLayout(&self, ppinputlayout: OutRef<ID3D11InputLayout>) {
        ignored("IAGetInputLayout");
        let _ = ppinputlayout.write(None);
    }

    fn IAGetVertexBuffers(
        &self,
        _startslot: u32,
        _numbuffers: u32,
        ppvertexbuffers: OutRef<ID3D11Buffer>,
        _pstrides: *mut u32,
        _poffsets: *mut u32,
    ) {
        ignored("IAGetVertexBuffers");
        let _ = ppvertexbuffers.write(None);
    }

    fn IAGetIndexBuffer(
        &self,
        pindexbuffer: OutRef<ID3D11Buffer>,
        _format: *mut DXGI_FORMAT,
        _offset: *mut u32,
    ) {
        ignored("IAGetIndexBuffer");
        let _ = pindexbuffer.write(None);
    }

    fn GSGetConstantBuffers(
        &self,
        _startslot: u32,
        numbuffers: u32,
        ppconstantbuffers: *mut Option<ID3D11Buffer>,
    ) {
        ignored("GSGetConstantBuffers");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppconstantbuffers, numbuffers) };
    }

    fn GSGetShader(
        &self,
        ppgeometryshader: OutRef<ID3D11GeometryShader>,
        ppclassinstances: OutRef<ID3D11ClassInstance>,
        pnumclassinstances: *mut u32,
    ) {
        ignored("GSGetShader");
        let _ = ppgeometryshader.write(None);
        let _ = ppclassinstances.write(None);
        if !pnumclassinstances.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumclassinstances = 0 };
        }
    }

    fn IAGetPrimitiveTopology(&self, _ptopology: *mut D3D_PRIMITIVE_TOPOLOGY) {
        ignored("IAGetPrimitiveTopology");
    }

    fn VSGetShaderResources(
        &self,
        _startslot: u32,
        numviews: u32,
        ppshaderresourceviews: *mut Option<ID3D11ShaderResourceView>,
    ) {
        ignored("VSGetShaderResources");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(ppshaderresourceviews, numviews) };
    }

    fn VSGetSamplers(
        &self,
        _startslot: u32,
        numsamplers: u32,
        ppsamplers: *mut Option<ID3D11SamplerState>,
    ) {
        ignored("VSGetSamplers");
        // SAFETY: the application's array of numsamplers elements
        unsafe { nulls(ppsamplers, numsamplers) };
    }

    fn GetPredication(&self, pppredicate: OutRef<ID3D11Predicate>, _ppredicatevalue: *mut BOOL) {
        ignored("GetPredication");
        let _ = pppredicate.write(None);
    }

    fn GSGetShaderResources(
        &self,
        _startslot: u32,
        numviews: u32,
        ppshaderresourceviews: *mut Option<ID3D11ShaderResourceView>,
    ) {
        ignored("GSGetShaderResources");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(ppshaderresourceviews, numviews) };
    }

    fn GSGetSamplers(
        &self,
        _startslot: u32,
        numsamplers: u32,
        ppsamplers: *mut Option<ID3D11SamplerState>,
    ) {
        ignored("GSGetSamplers");
        // SAFETY: the application's array of numsamplers elements
        unsafe { nulls(ppsamplers, numsamplers) };
    }

    fn OMGetRenderTargets(
        &self,
        numviews: u32,
        pprendertargetviews: *mut Option<ID3D11RenderTargetView>,
        ppdepthstencilview: OutRef<ID3D11DepthStencilView>,
    ) {
        ignored("OMGetRenderTargets");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(pprendertargetviews, numviews) };
        let _ = ppdepthstencilview.write(None);
    }

    fn OMGetRenderTargetsAndUnorderedAccessViews(
        &self,
        numrtvs: u32,
        pprendertargetviews: *mut Option<ID3D11RenderTargetView>,
        ppdepthstencilview: OutRef<ID3D11DepthStencilView>,
        _uavstartslot: u32,
        numuavs: u32,
        ppunorderedaccessviews: *mut Option<ID3D11UnorderedAccessView>,
    ) {
        ignored("OMGetRenderTargetsAndUnorderedAccessViews");
        // SAFETY: the application's array of numrtvs elements
        unsafe { nulls(pprendertargetviews, numrtvs) };
        let _ = ppdepthstencilview.write(None);
        // SAFETY: the application's array of numuavs elements
        unsafe { nulls(ppunorderedaccessviews, numuavs) };
    }

    fn OMGetBlendState(
        &self,
        ppblendstate: OutRef<ID3D11BlendState>,
        _blendfactor: *mut f32,
        _psamplemask: *mut u32,
    ) {
        ignored("OMGetBlendState");
        let _ = ppblendstate.write(None);
    }

    fn OMGetDepthStencilState(
        &self,
        ppdepthstencilstate: OutRef<ID3D11DepthStencilState>,
        _pstencilref: *mut u32,
    ) {
        ignored("OMGetDepthStencilState");
        let _ = ppdepthstencilstate.write(None);
    }

    fn SOGetTargets(&self, numbuffers: u32, ppsotargets: *mut Option<ID3D11Buffer>) {
        ignored("SOGetTargets");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppsotargets, numbuffers) };
    }

    fn RSGetState(&self, pprasterizerstate: OutRef<ID3D11RasterizerState>) {
        ignored("RSGetState");
        let _ = pprasterizerstate.write(None);
    }

    fn RSGetViewports(&self, pnumviewports: *mut u32, _pviewports: *mut D3D11_VIEWPORT) {
        ignored("RSGetViewports");
        if !pnumviewports.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumviewports = 0 };
        }
    }

    fn RSGetScissorRects(&self, pnumrects: *mut u32, _prects: *mut RECT) {
        ignored("RSGetScissorRects");
        if !pnumrects.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumrects = 0 };
        }
    }

    fn HSGetShaderResources(
        &self,
        _startslot: u32,
        numviews: u32,
        ppshaderresourceviews: *mut Option<ID3D11ShaderResourceView>,
    ) {
        ignored("HSGetShaderResources");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(ppshaderresourceviews, numviews) };
    }

    fn HSGetShader(
        &self,
        pphullshader: OutRef<ID3D11HullShader>,
        ppclassinstances: OutRef<ID3D11ClassInstance>,
        pnumclassinstances: *mut u32,
    ) {
        ignored("HSGetShader");
        let _ = pphullshader.write(None);
        let _ = ppclassinstances.write(None);
        if !pnumclassinstances.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumclassinstances = 0 };
        }
    }

    fn HSGetSamplers(
        &self,
        _startslot: u32,
        numsamplers: u32,
        ppsamplers: *mut Option<ID3D11SamplerState>,
    ) {
        ignored("HSGetSamplers");
        // SAFETY: the application's array of numsamplers elements
        unsafe { nulls(ppsamplers, numsamplers) };
    }

    fn HSGetConstantBuffers(
        &self,
        _startslot: u32,
        numbuffers: u32,
        ppconstantbuffers: *mut Option<ID3D11Buffer>,
    ) {
        ignored("HSGetConstantBuffers");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppconstantbuffers, numbuffers) };
    }

    fn DSGetShaderResources(
        &self,
        _startslot: u32,
        numviews: u32,
        ppshaderresourceviews: *mut Option<ID3D11ShaderResourceView>,
    ) {
        ignored("DSGetShaderResources");
        // SAFETY: the application's array of numviews elements
        unsafe { nulls(ppshaderresourceviews, numviews) };
    }

    fn DSGetShader(
        &self,
        ppdomainshader: OutRef<ID3D11DomainShader>,
        ppclassinstances: OutRef<ID3D11ClassInstance>,
        pnumclassinstances: *mut u32,
    ) {
        ignored("DSGetShader");
        let _ = ppdomainshader.write(None);
        let _ = ppclassinstances.write(None);
        if !pnumclassinstances.is_null() {
            // SAFETY: the application's non-null out pointer
            unsafe { *pnumclassinstances = 0 };
        }
    }

    fn DSGetSamplers(
        &self,
        _startslot: u32,
        numsamplers: u32,
        ppsamplers: *mut Option<ID3D11SamplerState>,
    ) {
        ignored("DSGetSamplers");
        // SAFETY: the application's array of numsamplers elements
        unsafe { nulls(ppsamplers, numsamplers) };
    }

    fn DSGetConstantBuffers(
        &self,
        _startslot: u32,
        numbuffers: u32,
        ppconstantbuffers: *mut Option<ID3D11Buffer>,
    ) {
        ignored("DSGetConstantBuffers");
        // SAFETY: the application's array of numbuffers elements
        unsafe { nulls(ppconstantbuffers, numbuffers) };
    }
}

/// A stage outside compute's `*SetConstantBuffers1` (ignored, logged
/// once) and `*GetConstantBuffers1` (nulls and zeros).
macro_rules! other_stages_cb1 {
    ($($set:ident $get:ident;)*) => {$(
        fn $set(&self, _: u32, _: u32, _: *const Option<ID3D11Buffer>, _: *const u32, _: *const u32) {
            ignored(stringify!($set));
        }
        fn $get(&self, _: u32, n: u32, buffers: OutRef<ID3D11Buffer>, first: *mut u32, count: *mut u32) {
            // SAFETY: the application's arrays of n elements
            unsafe { null_ranges(out_array(&buffers), first, count, n) };
        }
    )*};
}

impl ID3D11DeviceContext1_Impl for Context_Impl {
    fn CopySubresourceRegion1(
        &self,
        dst: Ref<ID3D11Resource>,
        dst_sub: u32,
        x: u32,
        y: u32,
        z: u32,
        src: Ref<ID3D11Resource>,
        src_sub: u32,
        src_box: *const D3D11_BOX,
        _flags: u32,
    ) {
        // D3D11_COPY_NO_OVERWRITE and _DISCARD are hints: every command has
        // finished when it returns
        self.CopySubresourceRegion(dst, dst_sub, x, y, z, src, src_sub, src_box);
    }

    fn UpdateSubresource1(
        &self,
        dst: Ref<ID3D11Resource>,
        sub: u32,
        dst_box: *const D3D11_BOX,
        data: *const c_void,
        row_pitch: u32,
        depth_pitch: u32,
        _flags: u32,
    ) {
        self.UpdateSubresource(dst, sub, dst_box, data, row_pitch, depth_pitch);
    }

    fn DiscardResource(&self, _resource: Ref<ID3D11Resource>) {}

    fn DiscardView(&self, _view: Ref<ID3D11View>) {}

    fn DiscardView1(&self, _view: Ref<ID3D11View>, _rects: *const RECT, _n: u32) {}

    fn CSSetConstantBuffers1(
        &self,
        start: u32,
        n: u32,
        buffers: *const Option<ID3D11Buffer>,
        first: *const u32,
        count: *const u32,
    ) {
        let ranges: Vec<Option<(u32, u32)>> = if first.is_null() || count.is_null() {
            Vec::new()
        } else {
            (0..n as usize)
                // SAFETY: the application's arrays of n constants each
                .map(|i| unsafe { Some((*first.add(i), *count.add(i))) })
                .collect()
        };
        // D3D11.1: each range starts and ends on a multiple of 16 constants
        // (256 bytes) and has at most 4096 of them; the runtime drops a call
        // that breaks it
        let bad = ranges
            .iter()
            .flatten()
            .find(|(f, c)| f % 16 != 0 || c % 16 != 0 || *c == 0 || *c > 4096);
        if let Some((f, c)) = bad {
            say(&format!(
                "CSSetConstantBuffers1: constants {f}..{} are not a range of whole 16-constant blocks of at most 4096 constants; ignored",
                u64::from(*f) + u64::from(*c)
            ));
            return;
        }
        self.CSSetConstantBuffers(start, n, buffers);
        if ranges.is_empty() {
            return;
        }
        let mut cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        set_slots("CSSetConstantBuffers1", &mut cs.cb_ranges, start, ranges);
    }

    fn CSGetConstantBuffers1(
        &self,
        start: u32,
        n: u32,
        buffers: OutRef<ID3D11Buffer>,
        first: *mut u32,
        count: *mut u32,
    ) {
        let cs = self.shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the application's array of n buffers
        unsafe { write_array(&cs.cbs, start, n, out_array(&buffers)) };
        for i in 0..n as usize {
            let slot = start as usize + i;
            let whole = cs
                .cbs
                .get(slot)
                .and_then(|b| b.as_ref())
                .map(|b| (0, (b.data.byte_width / 16) as u32));
            let (f, c) = cs
                .cb_ranges
                .get(slot)
                .copied()
                .flatten()
                .or(whole)
                .unwrap_or((0, 0));
            // SAFETY: the application's arrays of n constants each, when given
            unsafe {
                if !first.is_null() {
                    *first.add(i) = f;
                }
                if !count.is_null() {
                    *count.add(i) = c;
                }
            }
        }
    }

    other_stages_cb1! {
        VSSetConstantBuffers1 VSGetConstantBuffers1;
        HSSetConstantBuffers1 HSGetConstantBuffers1;
        DSSetConstantBuffers1 DSGetConstantBuffers1;
        GSSetConstantBuffers1 GSGetConstantBuffers1;
        PSSetConstantBuffers1 PSGetConstantBuffers1;
    }
    fn SwapDeviceContextState(
        &self,
        _state: Ref<ID3DDeviceContextState>,
        previous: OutRef<ID3DDeviceContextState>,
    ) {
        ignored("SwapDeviceContextState");
        let _ = previous.write(None);
    }
    fn ClearView(&self, _view: Ref<ID3D11View>, _color: *const f32, _rects: *const RECT, _n: u32) {
        once("ID3D11DeviceContext1::ClearView: not implemented (ClearUnorderedAccessView* is); ignored");
    }
}

/// Nulls and zeros for a stage outside compute's `*GetConstantBuffers1`.
///
/// # Safety
/// Each pointer is null or holds `n` elements.
unsafe fn null_ranges(
    buffers: *mut Option<ID3D11Buffer>,
    first: *mut u32,
    count: *mut u32,
    n: u32,
) {
    // SAFETY: the caller's promise
    unsafe {
        nulls(buffers, n);
        for p in [first, count] {
            if !p.is_null() {
                std::ptr::write_bytes(p, 0, n as usize);
            }
        }
    }
}
