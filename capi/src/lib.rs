//! The C API of sm5sim: flat C functions over opaque handles, shaped like
//! the Direct3D 11 calls a compute test makes — create a device with
//! options, create buffers and textures, bind them as SRVs and UAVs by
//! their HLSL names (or slots) with D3D-style view descriptions, set
//! constant buffers by field name or as bytes, dispatch, read back, and
//! get the dispatch's statistics, the concurrency checker's findings and
//! the profile.
//!
//! The header, `include/sm5sim.h`, is generated from this crate by
//! cbindgen; `tests/it/header.rs` fails while the committed header differs
//! from cbindgen's output. `docs/c-api.md` is the guide, and its complete
//! example is compiled and run by `tests/it/c_programs.rs`.
//!
//! Rules every entry point follows:
//!
//! - it returns an [`sm5_status`]; on failure
//!   [`sm5_last_error_message`] holds a message naming the function and
//!   what is wrong (the shader, the resource name and slot, the field);
//! - it never unwinds into C: a panic is caught and reported as
//!   [`sm5_status::SM5_ERROR_PANIC`];
//! - a null pointer where one is required is
//!   [`sm5_status::SM5_ERROR_NULL_POINTER`], a string that is not UTF-8
//!   or a size that does not fit is
//!   [`sm5_status::SM5_ERROR_INVALID_ARGUMENT`], before anything is done;
//! - an output handle pointer is set to NULL first, and to the new handle
//!   on success; each handle is freed by its `sm5_*_destroy` function
//!   (which takes NULL too).
//!
//! The unsafe code is the pointer handling in `ffi`'s helpers; the entry
//! points call them, each call with its `SAFETY` comment.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// The C names (sm5_device, SM5_OK) are the API.
#![allow(non_camel_case_types)]

mod cancel;
mod device;
mod ffi;
mod kernel;
mod resource;
mod result;

pub use cancel::*;
pub use device::*;
pub use kernel::*;
pub use resource::*;
pub use result::*;

use std::ffi::{c_char, CStr};

/// What a call returned: `SM5_OK`, or why it failed (then
/// `sm5_last_error_message()` says where and what).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum sm5_status {
    /// Success.
    SM5_OK = 0,
    /// A pointer argument that must not be NULL was NULL.
    SM5_ERROR_NULL_POINTER = 1,
    /// An argument out of range: a string that is not UTF-8, a size that
    /// does not match the resource, an index past the end, an unknown
    /// constant (view kind, texture dimension, format, filter name).
    SM5_ERROR_INVALID_ARGUMENT = 2,
    /// A file could not be read.
    SM5_ERROR_IO = 3,
    /// HLSL could not be compiled (or no compiler was found).
    SM5_ERROR_COMPILE = 4,
    /// The bytes are no shader sm5sim runs (not DXBC or a listing, invalid).
    SM5_ERROR_LOAD = 5,
    /// A name that is neither an HLSL name in the shader's reflection nor a
    /// slot name (`t0`, `u1`, `cb0`, `s0`).
    SM5_ERROR_UNKNOWN_NAME = 6,
    /// A resource or view that does not fit the slot: the wrong kind
    /// (buffer for texture, SRV for UAV), view, stride or format.
    SM5_ERROR_BINDING = 7,
    /// A slot the shader declares has nothing bound at dispatch.
    SM5_ERROR_UNBOUND = 8,
    /// A constant-buffer field that is no variable of the cbuffer, or a
    /// value of the wrong shape or range.
    SM5_ERROR_FIELD = 9,
    /// A resource that cannot be made, written or read as asked (a size of
    /// zero or not a whole number of words, a texture D3D11 refuses).
    SM5_ERROR_RESOURCE = 10,
    /// The shader cannot run as it is (a sampler with nothing bound, an
    /// unbound interface slot).
    SM5_ERROR_SHADER = 11,
    /// The dispatch was refused or stopped: D3D's group limits, too many
    /// threads, the watchdog or timeout.
    SM5_ERROR_DISPATCH = 12,
    /// An internal error (a panic, caught): a bug in sm5sim.
    SM5_ERROR_PANIC = 13,
    /// The dispatch was stopped by `sm5_cancel` on the token attached to
    /// its kernel (`sm5_kernel_set_cancel`); what it had written stays in
    /// the resources.
    SM5_ERROR_CANCELLED = 14,
}

/// The library's version, e.g. `"0.1.0"` (a static string).
#[no_mangle]
pub extern "C" fn sm5_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The message of the last call on this thread that failed: the function,
/// then where and what (`"sm5_kernel_bind: histogram.dxbc: 'kyes' is
/// neither a resource name …"`). An empty string if no call failed yet.
/// The pointer stays valid until the next failing call on this thread.
#[no_mangle]
pub extern "C" fn sm5_last_error_message() -> *const c_char {
    ffi::last_error()
}

/// The name of a status, e.g. `"SM5_ERROR_UNKNOWN_NAME"` (a static
/// string); `"SM5_UNKNOWN_STATUS"` for a value that is no `sm5_status`.
#[no_mangle]
pub extern "C" fn sm5_status_name(status: i32) -> *const c_char {
    sm5_status::ALL
        .into_iter()
        .find(|s| *s as i32 == status)
        .map_or(c"SM5_UNKNOWN_STATUS", sm5_status::name)
        .as_ptr()
}

impl sm5_status {
    const ALL: [sm5_status; 15] = [
        Self::SM5_OK,
        Self::SM5_ERROR_NULL_POINTER,
        Self::SM5_ERROR_INVALID_ARGUMENT,
        Self::SM5_ERROR_IO,
        Self::SM5_ERROR_COMPILE,
        Self::SM5_ERROR_LOAD,
        Self::SM5_ERROR_UNKNOWN_NAME,
        Self::SM5_ERROR_BINDING,
        Self::SM5_ERROR_UNBOUND,
        Self::SM5_ERROR_FIELD,
        Self::SM5_ERROR_RESOURCE,
        Self::SM5_ERROR_SHADER,
        Self::SM5_ERROR_DISPATCH,
        Self::SM5_ERROR_PANIC,
        Self::SM5_ERROR_CANCELLED,
    ];

    fn name(self) -> &'static CStr {
        match self {
            Self::SM5_OK => c"SM5_OK",
            Self::SM5_ERROR_NULL_POINTER => c"SM5_ERROR_NULL_POINTER",
            Self::SM5_ERROR_INVALID_ARGUMENT => c"SM5_ERROR_INVALID_ARGUMENT",
            Self::SM5_ERROR_IO => c"SM5_ERROR_IO",
            Self::SM5_ERROR_COMPILE => c"SM5_ERROR_COMPILE",
            Self::SM5_ERROR_LOAD => c"SM5_ERROR_LOAD",
            Self::SM5_ERROR_UNKNOWN_NAME => c"SM5_ERROR_UNKNOWN_NAME",
            Self::SM5_ERROR_BINDING => c"SM5_ERROR_BINDING",
            Self::SM5_ERROR_UNBOUND => c"SM5_ERROR_UNBOUND",
            Self::SM5_ERROR_FIELD => c"SM5_ERROR_FIELD",
            Self::SM5_ERROR_RESOURCE => c"SM5_ERROR_RESOURCE",
            Self::SM5_ERROR_SHADER => c"SM5_ERROR_SHADER",
            Self::SM5_ERROR_DISPATCH => c"SM5_ERROR_DISPATCH",
            Self::SM5_ERROR_PANIC => c"SM5_ERROR_PANIC",
            Self::SM5_ERROR_CANCELLED => c"SM5_ERROR_CANCELLED",
        }
    }
}
