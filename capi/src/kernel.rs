//! Kernels: a shader with its bindings and constants, dispatched.

use crate::ffi::{self, guard, Fail, Out, Res};
use crate::{sm5_dispatch_result, sm5_resource, sm5_shader, sm5_status};
use sm5sim::api::{clip, CancelToken, Slot, SlotKind, View};
use sm5sim::sim_mem::{AddressMode, Filter, Format, SamplerDesc, ViewDimension, ViewRange};
use sm5sim::{Kernel, Options, Value};
use std::borrow::Cow;
use std::ffi::{c_char, c_void};
use std::sync::Arc;

/// A shader and what is bound to it: what a D3D11 device context holds
/// between `CSSetShader` and `Dispatch`. One kernel is not to be used by
/// two threads at once; kernels of one shader are independent.
#[derive(Debug)]
pub struct sm5_kernel {
    kernel: Kernel,
    options: Arc<Options>,
    /// what `sm5_kernel_set_cancel` attached
    pub(crate) cancel: Option<CancelToken>,
}

impl sm5_kernel {
    /// The device's options, with the attached token.
    fn options(&self) -> Cow<'_, Options> {
        match &self.cancel {
            None => Cow::Borrowed(&*self.options),
            Some(t) => Cow::Owned((*self.options).clone().cancel(t)),
        }
    }
}

/// `sm5_view_desc.kind`: the view the shader declares at the slot, as
/// `sm5_kernel_bind` binds (raw, structured with the declared stride, a
/// texture view of the declared dimension in the texture's format).
pub const SM5_VIEW_DECLARED: u32 = 0;
/// `sm5_view_desc.kind`: a raw (byte-address) buffer view.
pub const SM5_VIEW_RAW: u32 = 1;
/// `sm5_view_desc.kind`: a structured buffer view of
/// `structure_stride`-byte elements.
pub const SM5_VIEW_STRUCTURED: u32 = 2;
/// `sm5_view_desc.kind`: a typed buffer view of DXGI format `format`.
pub const SM5_VIEW_TYPED: u32 = 3;
/// `sm5_view_desc.kind`: a texture view: `dimension`, `format`, and a range
/// of mips and slices.
pub const SM5_VIEW_TEXTURE: u32 = 4;

/// How a slot sees a resource (`D3D11_SHADER_RESOURCE_VIEW_DESC`,
/// `D3D11_UNORDERED_ACCESS_VIEW_DESC`). A zero-filled struct is
/// `SM5_VIEW_DECLARED`. The view is checked against the shader's
/// declaration and the resource.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct sm5_view_desc {
    /// `SM5_VIEW_DECLARED`, `SM5_VIEW_RAW`, `SM5_VIEW_STRUCTURED`,
    /// `SM5_VIEW_TYPED` or `SM5_VIEW_TEXTURE`.
    pub kind: u32,
    /// `SM5_VIEW_STRUCTURED`: bytes per structure.
    pub structure_stride: u32,
    /// `SM5_VIEW_TYPED`: the DXGI format's name (`"R32_UINT"`);
    /// `SM5_VIEW_TEXTURE`: the view's format, NULL for the texture's.
    pub format: *const c_char,
    /// `SM5_VIEW_TEXTURE`: `"texture2d"`, `"texture2darray"`,
    /// `"texture3d"`, …; NULL for the dimension the shader declares.
    pub dimension: *const c_char,
    /// `SM5_VIEW_TEXTURE`: the first mip (`MostDetailedMip`, or a UAV's
    /// `MipSlice`).
    pub first_mip: u32,
    /// `SM5_VIEW_TEXTURE`: mips seen (SRVs); 0: all from `first_mip`.
    pub mip_count: u32,
    /// `SM5_VIEW_TEXTURE`: the first array slice (`FirstArraySlice`).
    pub first_slice: u32,
    /// `SM5_VIEW_TEXTURE`: slices seen; 0: all from `first_slice`.
    pub slice_count: u32,
    /// Buffer views: the first element the view sees (`FirstElement`: a
    /// 32-bit word of a raw view, a structure, a typed element).
    pub first_element: u64,
    /// Buffer views: the elements the view sees (`NumElements`); 0: the
    /// whole buffer (then `first_element` must be 0).
    pub num_elements: u64,
}

/// Create a kernel of `shader` with nothing bound.
///
/// # Safety
/// `shader` is NULL or a live shader; `out` is NULL or points to a
/// writable `sm5_kernel*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_create(
    shader: *const sm5_shader,
    out: *mut *mut sm5_kernel,
) -> sm5_status {
    guard("sm5_kernel_create", || {
        // SAFETY (the two calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        let shader = unsafe { ffi::handle(shader, "shader") }?;
        out.set(sm5_kernel {
            kernel: Kernel::new(shader.shader.clone()),
            options: shader.options.clone(),
            cancel: None,
        });
        Ok(())
    })
}

/// Bind `resource` to the slot called `name` — its HLSL name (`"keys"`)
/// or a slot (`"t0"`, `"u1"`, `"cb0"`) — with the view the shader
/// declares there: raw, structured with the declared stride, a constant
/// buffer, or a texture view of the declared dimension. A typed buffer
/// (`Buffer<T>`) needs `sm5_kernel_bind_srv` / `_uav` with
/// `SM5_VIEW_TYPED`. Binding a slot again replaces what was there.
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME` (the message lists what the shader declares),
/// `SM5_ERROR_BINDING` when the resource does not fit the declaration.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `name` is
/// NULL or a NUL-terminated string; `resource` is NULL or a live resource.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_bind(
    kernel: *mut sm5_kernel,
    name: *const c_char,
    resource: *const sm5_resource,
) -> sm5_status {
    guard("sm5_kernel_bind", || {
        // SAFETY (the three calls): the caller's contract.
        let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
        let name = unsafe { ffi::string(name, "name") }?;
        let r = unsafe { ffi::handle(resource, "resource") }?;
        k.kernel.bind(name, &r.resource)?;
        Ok(())
    })
}

/// [`sm5_kernel_bind_srv`] and [`sm5_kernel_bind_uav`].
///
/// # Safety
/// As those.
unsafe fn bind_as(
    kind: SlotKind,
    kernel: *mut sm5_kernel,
    name: *const c_char,
    resource: *const sm5_resource,
    view: *const sm5_view_desc,
) -> Res {
    // SAFETY (the three calls): the caller's contract.
    let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
    let name = unsafe { ffi::string(name, "name") }?;
    let r = unsafe { ffi::handle(resource, "resource") }?;
    let slot = k.kernel.shader().slot(name)?;
    if slot.kind != kind {
        let (want, other) = match kind {
            SlotKind::Srv => ("a shader-resource view slot (t#)", "sm5_kernel_bind_uav"),
            _ => ("an unordered-access view slot (u#)", "sm5_kernel_bind_srv"),
        };
        let hint = match slot.kind {
            SlotKind::ConstantBuffer => "sm5_kernel_bind or sm5_kernel_set_constants_bytes",
            _ => other,
        };
        return Err(Fail::new(
            sm5_status::SM5_ERROR_BINDING,
            format!(
                "'{}' is {slot}, not {want}; bind it with {hint}",
                clip(name)
            ),
        ));
    }
    // SAFETY: the caller's contract: view is NULL or a valid desc.
    let desc = unsafe { view.as_ref() };
    let view = match desc {
        None => None,
        // SAFETY: the caller's contract: the desc's strings are NULL or
        // NUL-terminated.
        Some(v) => unsafe { view_of(v, &k.kernel, slot, &r.resource) }?,
    };
    let elements = desc.map_or((0, 0), |d| (d.first_element, d.num_elements));
    match (elements, view) {
        ((0, 0), None) => k.kernel.bind(name, &r.resource)?,
        ((0, 0), Some(v)) => k.kernel.bind_view(name, &r.resource, v)?,
        ((first, 0), _) => {
            return Err(Fail::new(
                sm5_status::SM5_ERROR_BINDING,
                format!(
                "'{}': first_element {first} needs num_elements (NumElements), the range's length",
                clip(name)
            ),
            ))
        }
        ((first, n), v) => k.kernel.bind_elements(name, &r.resource, v, first, n)?,
    };
    Ok(())
}

/// The view `v` describes at `slot` (None: the declared one).
///
/// # Safety
/// `v.format` and `v.dimension` are NULL or NUL-terminated strings.
unsafe fn view_of(
    v: &sm5_view_desc,
    kernel: &Kernel,
    slot: Slot,
    resource: &sm5sim::Resource,
) -> Res<Option<View>> {
    // SAFETY (the two calls): the caller's contract.
    let format = unsafe { ffi::opt_string(v.format, "view->format") }?;
    let dimension = unsafe { ffi::opt_string(v.dimension, "view->dimension") }?;
    Ok(Some(match v.kind {
        SM5_VIEW_DECLARED => return Ok(None),
        SM5_VIEW_RAW => View::Raw,
        SM5_VIEW_STRUCTURED => View::Structured(v.structure_stride),
        SM5_VIEW_TYPED => {
            let f = format.ok_or_else(|| {
                Fail::new(
                    sm5_status::SM5_ERROR_NULL_POINTER,
                    "view->format is NULL (SM5_VIEW_TYPED needs a format)",
                )
            })?;
            View::typed(f)?
        }
        SM5_VIEW_TEXTURE => {
            let dimension = match dimension {
                Some(d) => ViewDimension::from_name(d).ok_or_else(|| {
                    let known: Vec<_> = ViewDimension::ALL.iter().map(|d| d.name()).collect();
                    Fail::invalid(format!(
                        "view->dimension '{}' is no view dimension (known: {})",
                        clip(d),
                        known.join(", ")
                    ))
                })?,
                None => kernel
                    .shader()
                    .resources()
                    .into_iter()
                    .find(|r| r.slot == slot)
                    .and_then(|r| ViewDimension::from_name(&r.declared))
                    .ok_or_else(|| {
                        Fail::new(
                            sm5_status::SM5_ERROR_BINDING,
                            format!(
                                "the shader declares no texture at {slot}: give view->dimension"
                            ),
                        )
                    })?,
            };
            let format = match format {
                Some(f) => Format::from_name(f).ok_or_else(|| {
                    Fail::invalid(format!("view->format '{}' is no DXGI format", clip(f)))
                })?,
                None => match resource.as_texture() {
                    Some(t) => t.desc().format,
                    None => {
                        return Err(Fail::new(
                            sm5_status::SM5_ERROR_BINDING,
                            format!("{slot}: SM5_VIEW_TEXTURE needs a texture, not a buffer"),
                        ))
                    }
                },
            };
            let nonzero = |n: u32| (n != 0).then_some(n);
            View::Texture {
                dimension,
                format,
                range: ViewRange {
                    first_mip: v.first_mip,
                    mip_count: nonzero(v.mip_count),
                    first_slice: v.first_slice,
                    slice_count: nonzero(v.slice_count),
                },
            }
        }
        n => {
            return Err(Fail::invalid(format!(
                "view->kind {n} is none of SM5_VIEW_DECLARED (0), SM5_VIEW_RAW (1), \
                 SM5_VIEW_STRUCTURED (2), SM5_VIEW_TYPED (3), SM5_VIEW_TEXTURE (4)"
            )))
        }
    }))
}

/// Bind `resource` as a shader-resource view (`CSSetShaderResources`) at
/// the t# slot called `name` (HLSL name or `"t0"`), seen as `view`
/// describes (NULL: the declared view, as `sm5_kernel_bind`).
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME`; `SM5_ERROR_BINDING` when `name` is no t#
/// slot or the view does not fit the declaration or the resource (a
/// stride other than the declared one, a format of the wrong kind, a size
/// that is not a whole number of elements); `SM5_ERROR_INVALID_ARGUMENT`
/// for an unknown view kind, format or dimension.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `name` is
/// NULL or a NUL-terminated string; `resource` is NULL or a live resource;
/// `view` is NULL or points to an `sm5_view_desc` whose strings are NULL
/// or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_bind_srv(
    kernel: *mut sm5_kernel,
    name: *const c_char,
    resource: *const sm5_resource,
    view: *const sm5_view_desc,
) -> sm5_status {
    // SAFETY: the caller's contract is bind_as's.
    guard("sm5_kernel_bind_srv", || unsafe {
        bind_as(SlotKind::Srv, kernel, name, resource, view)
    })
}

/// Bind `resource` as an unordered-access view
/// (`CSSetUnorderedAccessViews`) at the u# slot called `name` (HLSL name
/// or `"u0"`), seen as `view` describes (NULL: the declared view).
///
/// # Errors
/// As `sm5_kernel_bind_srv`, for u# slots.
///
/// # Safety
/// As `sm5_kernel_bind_srv`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_bind_uav(
    kernel: *mut sm5_kernel,
    name: *const c_char,
    resource: *const sm5_resource,
    view: *const sm5_view_desc,
) -> sm5_status {
    // SAFETY: the caller's contract is bind_as's.
    guard("sm5_kernel_bind_uav", || unsafe {
        bind_as(SlotKind::Uav, kernel, name, resource, view)
    })
}

/// Bind D3D11's null view to the slot called `name` (its HLSL name or a
/// slot: `"t0"`, `"u1"`, `"cb0"`), as `CSSetShaderResources`,
/// `CSSetUnorderedAccessViews` or `CSSetConstantBuffers` with a NULL view:
/// loads read 0, stores and atomics are dropped (an atomic that returns
/// the old value returns 0), the hidden counter reads 0. The slot counts
/// as bound at dispatch.
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME`.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `name` is
/// NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_bind_null(
    kernel: *mut sm5_kernel,
    name: *const c_char,
) -> sm5_status {
    guard("sm5_kernel_bind_null", || {
        // SAFETY (the two calls): the caller's contract.
        let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
        let name = unsafe { ffi::string(name, "name") }?;
        k.kernel.bind_null(name)?;
        Ok(())
    })
}

/// Bind sampler state to the sampler called `name` (its HLSL name or
/// `"s0"`…`"s15"`): `filter` a `D3D11_FILTER` name without its prefix
/// (`"MIN_MAG_MIP_LINEAR"`, `"MIN_MAG_MIP_POINT"`; NULL: linear) and
/// `address` a `D3D11_TEXTURE_ADDRESS_MODE` name for u, v and w
/// (`"CLAMP"`, `"WRAP"`, `"MIRROR"`, `"BORDER"`, `"MIRROR_ONCE"`; NULL:
/// clamp). The rest is D3D's default sampler state.
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME`, `SM5_ERROR_INVALID_ARGUMENT` for an unknown
/// filter or address mode.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `name`,
/// `filter` and `address` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_bind_sampler(
    kernel: *mut sm5_kernel,
    name: *const c_char,
    filter: *const c_char,
    address: *const c_char,
) -> sm5_status {
    guard("sm5_kernel_bind_sampler", || {
        // SAFETY (the four calls): the caller's contract.
        let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
        let name = unsafe { ffi::string(name, "name") }?;
        let filter = unsafe { ffi::opt_string(filter, "filter") }?;
        let address = unsafe { ffi::opt_string(address, "address") }?;
        let mut desc = SamplerDesc::default();
        if let Some(f) = filter {
            desc.filter = Filter::from_name(f)
                .ok_or_else(|| Fail::invalid(format!("'{}' is no D3D11 filter", clip(f))))?;
        }
        if let Some(a) = address {
            let mode = AddressMode::from_name(a)
                .ok_or_else(|| Fail::invalid(format!("'{}' is no D3D11 address mode", clip(a))))?;
            desc.address = [mode; 3];
        }
        k.kernel.bind_sampler(name, desc)?;
        Ok(())
    })
}

/// Set field `field` of the constant buffer called `cbuffer`, the other
/// variables keeping their values (`Kernel::set_constants`).
fn set_field(k: &mut sm5_kernel, cbuffer: &str, field: &str, value: Value) -> Res {
    k.kernel.set_constants(cbuffer, &[(field, value)])?;
    Ok(())
}

/// [`set_field`] from C arguments.
///
/// # Safety
/// As the `sm5_kernel_set_constant_*` functions.
unsafe fn set_field_c(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    value: impl FnOnce() -> Res<Value>,
) -> Res {
    // SAFETY (the three calls): the caller's contract.
    let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
    let cbuffer = unsafe { ffi::string(cbuffer, "cbuffer") }?;
    let field = unsafe { ffi::string(field, "field") }?;
    set_field(k, cbuffer, field, value()?)
}

/// Set the scalar variable `field` of the constant buffer called
/// `cbuffer` (its HLSL name or `"cb0"`) to `value`, placed by HLSL's
/// packing rules where the shader's reflection puts it. The other
/// variables keep their values (as an `UpdateSubresource` of this one
/// variable would leave them): 0 at first, or what
/// `sm5_kernel_set_constants_bytes` or an earlier call set.
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME` for the cbuffer; `SM5_ERROR_FIELD` for a field
/// that is no variable of it (the message lists them) or whose type does
/// not take the value (a float for an `int`); `SM5_ERROR_SHADER` for a
/// shader without reflection.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `cbuffer` and
/// `field` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_f32(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    value: f32,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's.
    guard("sm5_kernel_set_constant_f32", || unsafe {
        set_field_c(kernel, cbuffer, field, || Ok(value.into()))
    })
}

/// `sm5_kernel_set_constant_f32` for a `uint` (or `float`) variable.
///
/// # Safety
/// As `sm5_kernel_set_constant_f32`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_u32(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    value: u32,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's.
    guard("sm5_kernel_set_constant_u32", || unsafe {
        set_field_c(kernel, cbuffer, field, || Ok(value.into()))
    })
}

/// `sm5_kernel_set_constant_f32` for an `int` (or `float`) variable.
///
/// # Safety
/// As `sm5_kernel_set_constant_f32`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_i32(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    value: i32,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's.
    guard("sm5_kernel_set_constant_i32", || unsafe {
        set_field_c(kernel, cbuffer, field, || Ok(value.into()))
    })
}

/// A vector or array variable from `count` values at `values`.
///
/// # Safety
/// `values` is NULL or points to `count` `T`s.
unsafe fn list<T: Copy + Into<Value>>(values: *const T, count: usize) -> Res<Value> {
    // SAFETY: the caller's contract.
    let v = unsafe { ffi::slice(values, count, "values") }?;
    Ok(Value::List(v.iter().map(|&x| x.into()).collect()))
}

/// Set the vector or array variable `field` (`float2`, `float4`,
/// `float w[8]`) of the constant buffer called `cbuffer` to the `count`
/// floats at `values`, as `sm5_kernel_set_constant_f32` does (the count
/// must be the variable's components or elements).
///
/// # Safety
/// As `sm5_kernel_set_constant_f32`, and `values` is NULL or points to
/// `count` floats.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_f32v(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    values: *const f32,
    count: usize,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's and list's.
    guard("sm5_kernel_set_constant_f32v", || unsafe {
        set_field_c(kernel, cbuffer, field, || list(values, count))
    })
}

/// `sm5_kernel_set_constant_f32v` for a `uint2`, `uint4`, `uint[N]`.
///
/// # Safety
/// As `sm5_kernel_set_constant_f32v`, with `uint32_t`s.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_u32v(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    values: *const u32,
    count: usize,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's and list's.
    guard("sm5_kernel_set_constant_u32v", || unsafe {
        set_field_c(kernel, cbuffer, field, || list(values, count))
    })
}

/// `sm5_kernel_set_constant_f32v` for an `int2`, `int4`, `int[N]`.
///
/// # Safety
/// As `sm5_kernel_set_constant_f32v`, with `int32_t`s.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constant_i32v(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    field: *const c_char,
    values: *const i32,
    count: usize,
) -> sm5_status {
    // SAFETY: the caller's contract is set_field_c's and list's.
    guard("sm5_kernel_set_constant_i32v", || unsafe {
        set_field_c(kernel, cbuffer, field, || list(values, count))
    })
}

/// Set the whole constant buffer called `cbuffer` (its HLSL name or
/// `"cb0"`) to the `size` bytes at `data` (`UpdateSubresource`; a
/// multiple of 4 bytes, 16 per register), replacing every field set by
/// name. Works for shaders without reflection.
///
/// # Errors
/// `SM5_ERROR_UNKNOWN_NAME`, `SM5_ERROR_BINDING` when `cbuffer` is no
/// constant buffer, `SM5_ERROR_INVALID_ARGUMENT` for 0 bytes or a size
/// that is not a multiple of 4.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `cbuffer` is
/// NULL or a NUL-terminated string; `data` is NULL or points to `size`
/// readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_constants_bytes(
    kernel: *mut sm5_kernel,
    cbuffer: *const c_char,
    data: *const c_void,
    size: usize,
) -> sm5_status {
    guard("sm5_kernel_set_constants_bytes", || {
        // SAFETY (the three calls): the caller's contract.
        let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
        let cbuffer = unsafe { ffi::string(cbuffer, "cbuffer") }?;
        let data = unsafe { ffi::bytes(data, size, "data") }?;
        if size == 0 || !size.is_multiple_of(4) {
            return Err(Fail::invalid(format!(
                "{size} bytes: a constant buffer is a nonzero multiple of 4 bytes"
            )));
        }
        let words: Vec<u32> = data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        k.kernel.set_constant_words(cbuffer, &words)?;
        Ok(())
    })
}

/// Run `Dispatch(x, y, z)` with the device's options. The bound resources
/// hold the results when it returns. `*out` (when `out` is not NULL) is
/// the dispatch's result — statistics, findings, profile — to be freed
/// with `sm5_result_destroy`.
///
/// # Errors
/// `SM5_ERROR_UNBOUND` for a declared slot with nothing bound,
/// `SM5_ERROR_SHADER` for a declared sampler with none bound,
/// `SM5_ERROR_DISPATCH` when D3D's limits refuse the group counts (at
/// most 65535 each; 1024 threads per group) or the watchdog or timeout
/// stops the dispatch (under the checker, a stop is a result with
/// `sm5_result_stopped` instead); `SM5_ERROR_CANCELLED` when the token
/// attached with `sm5_kernel_set_cancel` is set (`sm5_cancel`, from
/// another thread), checked or not.
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `out` is NULL
/// or points to a writable `sm5_dispatch_result*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_dispatch(
    kernel: *const sm5_kernel,
    x: u32,
    y: u32,
    z: u32,
    out: *mut *mut sm5_dispatch_result,
) -> sm5_status {
    guard("sm5_kernel_dispatch", || {
        let out = if out.is_null() {
            None
        } else {
            // SAFETY: the caller's contract.
            Some(unsafe { Out::new(out, "out") }?)
        };
        // SAFETY: the caller's contract.
        let k = unsafe { ffi::handle(kernel, "kernel") }?;
        let d = k.kernel.dispatch([x, y, z], &k.options())?;
        if let Some(out) = out {
            out.set(sm5_dispatch_result::new(d));
        }
        Ok(())
    })
}

/// Run `DispatchIndirect(args, offset)` with the device's options: the
/// group counts are the three `uint32_t`s at byte `offset` of the buffer
/// `args` (as an earlier dispatch or copy left them), read when the
/// dispatch starts; then as `sm5_kernel_dispatch`. A count of 0 runs
/// nothing. `*out` (when `out` is not NULL) is the dispatch's result.
///
/// # Errors
/// `SM5_ERROR_RESOURCE` when `args` is a texture, `offset` is not a
/// multiple of 4, or the 12 bytes are not inside `args`;
/// `SM5_ERROR_BINDING` when `args` is bound as a UAV of this kernel;
/// `SM5_ERROR_SHADER` for a cs_4_x shader; then as `sm5_kernel_dispatch`
/// (a count over 65535 is `SM5_ERROR_DISPATCH`).
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `args` is
/// NULL or a live resource; `out` is NULL or points to a writable
/// `sm5_dispatch_result*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_dispatch_indirect(
    kernel: *const sm5_kernel,
    args: *const sm5_resource,
    offset: usize,
    out: *mut *mut sm5_dispatch_result,
) -> sm5_status {
    guard("sm5_kernel_dispatch_indirect", || {
        let out = if out.is_null() {
            None
        } else {
            // SAFETY: the caller's contract.
            Some(unsafe { Out::new(out, "out") }?)
        };
        // SAFETY (the two calls): the caller's contract.
        let k = unsafe { ffi::handle(kernel, "kernel") }?;
        let args = unsafe { ffi::handle(args, "args") }?;
        let d = k
            .kernel
            .dispatch_indirect(&args.resource, offset as u64, &k.options())?;
        if let Some(out) = out {
            out.set(sm5_dispatch_result::new(d));
        }
        Ok(())
    })
}

/// Free a kernel (NULL: nothing). The resources bound to it stay usable
/// through their own handles.
///
/// # Safety
/// `kernel` is NULL or a kernel not yet destroyed, which no other call is
/// using.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_destroy(kernel: *mut sm5_kernel) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(kernel) };
}
