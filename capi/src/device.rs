//! Devices (the dispatch options) and shaders.

use crate::ffi::{self, guard, Fail, Out};
use crate::sm5_status;
use sm5sim::api::ResourceInfo;
use sm5sim::sim_core::check::CheckOptions;
use sm5sim::sim_core::LoadOptions;
use sm5sim::{Options, Shader};
use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;
use std::time::Duration;

/// How a device's kernels dispatch. A zero-filled struct
/// (`sm5_device_options o = {0};`) is the defaults, as is passing NULL to
/// `sm5_device_create`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct sm5_device_options {
    /// Worker threads; 0: one per core.
    pub threads: u32,
    /// Lanes per warp (clamped to the thread group); 0: one warp per
    /// thread group.
    pub warp_width: u32,
    /// Nonzero: run the groups on the calling thread in the order, warp
    /// widths, lane orders and interleavings drawn from `schedule_seed`
    /// (reproducible; `threads` is then ignored).
    pub use_schedule: u32,
    /// The seed of the schedule, with `use_schedule`.
    pub schedule_seed: u64,
    /// Watchdog: the most warp-instructions one dispatch may execute
    /// before it is stopped with `SM5_ERROR_DISPATCH`; 0: no limit.
    pub watchdog_warp_instructions: u64,
    /// Wall-clock limit of one dispatch in seconds; 0: the default (60 s);
    /// negative: none.
    pub timeout_seconds: f64,
    /// Nonzero: gather a profile of each dispatch
    /// (`sm5_result_profile`, `sm5_result_profile_json`).
    pub profile: u32,
    /// Nonzero: run each dispatch under the concurrency checker (races,
    /// barriers, uninitialised groupshared reads, out-of-bounds accesses):
    /// the groups one after another on the calling thread, the findings in
    /// `sm5_result_finding`. A dispatch the watchdog stops then returns its
    /// findings, `sm5_result_stopped` saying why.
    pub check: u32,
}

/// A device: the options its kernels dispatch with (D3D's
/// `ID3D11Device` and the immediate context's settings). Shaders loaded on
/// it keep what they need, so it may be destroyed before them.
#[derive(Debug)]
pub struct sm5_device {
    pub(crate) options: Arc<Options>,
}

/// A compute shader (`ID3D11ComputeShader`) and its reflection.
#[derive(Debug)]
pub struct sm5_shader {
    pub(crate) shader: Arc<Shader>,
    pub(crate) options: Arc<Options>,
    resources: Vec<ResourceEntry>,
}

#[derive(Debug)]
struct ResourceEntry {
    name: Option<CString>,
    slot: CString,
    declared: CString,
}

/// One resource slot a shader declares (`sm5_shader_resource`). The
/// strings belong to the shader and live as long as it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct sm5_resource_info {
    /// Its HLSL name, or NULL when the shader has no reflection.
    pub name: *const c_char,
    /// Its slot: `t0`, `u1`, `cb0`.
    pub slot: *const c_char,
    /// What the shader declares there: `raw`, `structured with stride 16`,
    /// `typed`, `texture2d`, `constant (16 bytes)`.
    pub declared: *const c_char,
}

fn options(o: &sm5_device_options) -> Result<Options, Fail> {
    let mut options = Options::default().threads(o.threads as usize);
    if o.warp_width != 0 {
        options = options.warp_width(o.warp_width as usize);
    }
    if o.use_schedule != 0 {
        options = options.schedule(o.schedule_seed);
    }
    if o.watchdog_warp_instructions != 0 {
        options = options.watchdog(o.watchdog_warp_instructions);
    }
    let t = o.timeout_seconds;
    if t.is_nan() {
        return Err(Fail::invalid("timeout_seconds is NaN"));
    }
    if t < 0.0 {
        options = options.timeout(None);
    } else if t > 0.0 {
        let d = Duration::try_from_secs_f64(t)
            .map_err(|e| Fail::invalid(format!("timeout_seconds {t}: {e}")))?;
        options = options.timeout(Some(d));
    }
    if o.check != 0 {
        options = options.check(CheckOptions::default());
    }
    Ok(options.profile(o.profile != 0))
}

/// Create a device whose kernels dispatch with `options` (NULL: the
/// defaults). `*out` is the new device, to be freed with
/// `sm5_device_destroy`.
///
/// # Safety
/// `options` is NULL or points to an `sm5_device_options`; `out` is NULL
/// or points to a writable `sm5_device*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_device_create(
    options: *const sm5_device_options,
    out: *mut *mut sm5_device,
) -> sm5_status {
    guard("sm5_device_create", || {
        // SAFETY: the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        // SAFETY: the caller's contract; NULL is the defaults.
        let o = match unsafe { ffi::handle(options, "options") } {
            Ok(o) => *o,
            Err(_) => sm5_device_options::default(),
        };
        out.set(sm5_device {
            options: Arc::new(self::options(&o)?),
        });
        Ok(())
    })
}

/// Free a device (NULL: nothing). Its shaders, kernels and resources stay
/// usable.
///
/// # Safety
/// `device` is NULL or a device not yet destroyed, which no other call is
/// using.
#[no_mangle]
pub unsafe extern "C" fn sm5_device_destroy(device: *mut sm5_device) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(device) };
}

fn shader(device: &sm5_device, shader: Shader) -> sm5_shader {
    let resources = shader
        .resources()
        .into_iter()
        .map(
            |ResourceInfo {
                 name,
                 slot,
                 declared,
             }| ResourceEntry {
                name: name.as_deref().map(ffi::c_string),
                slot: ffi::c_string(&slot.to_string()),
                declared: ffi::c_string(&declared),
            },
        )
        .collect();
    sm5_shader {
        shader: Arc::new(shader),
        options: device.options.clone(),
        resources,
    }
}

/// Load a compute shader file: DXBC (`.dxbc`, `.cso`), an fxc listing
/// (`.asm`), or HLSL (`.hlsl`, entry `main`, profile `cs_5_0`, compiled by
/// the fxc that sm5sim's compiler discovery finds; see `docs/hlsl.md`).
///
/// # Errors
/// `SM5_ERROR_IO` (the file cannot be read), `SM5_ERROR_COMPILE`,
/// `SM5_ERROR_LOAD` (no shader sm5sim runs).
///
/// # Safety
/// `device` is NULL or a live device; `path` is NULL or a NUL-terminated
/// string; `out` is NULL or points to a writable `sm5_shader*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_load(
    device: *const sm5_device,
    path: *const c_char,
    out: *mut *mut sm5_shader,
) -> sm5_status {
    guard("sm5_shader_load", || {
        // SAFETY (the three calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        let device = unsafe { ffi::handle(device, "device") }?;
        let path = unsafe { ffi::string(path, "path") }?;
        out.set(shader(device, Shader::load(path)?));
        Ok(())
    })
}

/// Load a compute shader from memory: a DXBC container (as
/// `CreateComputeShader` takes) or the text of an fxc listing. `name`
/// (NULL: `"shader"`) stands for it in messages.
///
/// # Errors
/// `SM5_ERROR_LOAD`.
///
/// # Safety
/// `device` is NULL or a live device; `bytes` is NULL or points to `size`
/// readable bytes; `name` is NULL or a NUL-terminated string; `out` is
/// NULL or points to a writable `sm5_shader*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_from_bytes(
    device: *const sm5_device,
    bytes: *const c_void,
    size: usize,
    name: *const c_char,
    out: *mut *mut sm5_shader,
) -> sm5_status {
    guard("sm5_shader_from_bytes", || {
        // SAFETY (the four calls): the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        let device = unsafe { ffi::handle(device, "device") }?;
        let bytes = unsafe { ffi::bytes(bytes, size, "bytes") }?;
        let name = unsafe { ffi::opt_string(name, "name") }?.unwrap_or("shader");
        let s = Shader::from_bytes(bytes.to_vec(), name, &LoadOptions::default())?;
        out.set(shader(device, s));
        Ok(())
    })
}

/// The shader's `[numthreads(x, y, z)]`, written to `out[0..3]`.
///
/// # Safety
/// `shader` is NULL or a live shader; `out` is NULL or points to three
/// writable `uint32_t`s.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_thread_group(
    shader: *const sm5_shader,
    out: *mut u32,
) -> sm5_status {
    guard("sm5_shader_thread_group", || {
        // SAFETY: the caller's contract.
        let shader = unsafe { ffi::handle(shader, "shader") }?;
        let [x, y, z] = shader.shader.thread_group();
        // SAFETY: the caller's contract: out is NULL or three u32s.
        unsafe { ffi::put(out.cast::<[u32; 3]>(), [x, y, z], "out") }
    })
}

/// How many t#, u# and cb# slots the shader declares (`*count`).
///
/// # Safety
/// `shader` is NULL or a live shader; `count` is NULL or points to a
/// writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_resource_count(
    shader: *const sm5_shader,
    count: *mut usize,
) -> sm5_status {
    guard("sm5_shader_resource_count", || {
        // SAFETY (the two calls): the caller's contract.
        let shader = unsafe { ffi::handle(shader, "shader") }?;
        unsafe { ffi::put(count, shader.resources.len(), "count") }
    })
}

/// Slot `index` (0 ≤ index < `sm5_shader_resource_count`) of those the
/// shader declares, in slot order (t#, u#, cb#).
///
/// # Errors
/// `SM5_ERROR_INVALID_ARGUMENT` for an index past the end.
///
/// # Safety
/// `shader` is NULL or a live shader; `out` is NULL or points to a
/// writable `sm5_resource_info`.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_resource(
    shader: *const sm5_shader,
    index: usize,
    out: *mut sm5_resource_info,
) -> sm5_status {
    guard("sm5_shader_resource", || {
        // SAFETY: the caller's contract.
        let shader = unsafe { ffi::handle(shader, "shader") }?;
        let r = shader.resources.get(index).ok_or_else(|| {
            Fail::invalid(format!(
                "index {index}: the shader declares {} slots",
                shader.resources.len()
            ))
        })?;
        let info = sm5_resource_info {
            name: r.name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            slot: r.slot.as_ptr(),
            declared: r.declared.as_ptr(),
        };
        // SAFETY: the caller's contract.
        unsafe { ffi::put(out, info, "out") }
    })
}

/// Free a shader (NULL: nothing). Kernels made from it stay usable.
///
/// # Safety
/// `shader` is NULL or a shader not yet destroyed, which no other call is
/// using.
#[no_mangle]
pub unsafe extern "C" fn sm5_shader_destroy(shader: *mut sm5_shader) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(shader) };
}
