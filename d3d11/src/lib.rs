//! sm5sim's `d3d11.dll`: the compute part of Direct3D 11 over sm5sim, for
//! unchanged D3D11 programs on Windows and under Wine (`docs/d3d11.md`).
//!
//! `D3D11CreateDevice` makes a device whose immediate context runs compute
//! shaders on sm5sim; `SM5SIM_*` environment variables choose threads, the
//! concurrency checker, a profile, a trace and the shaders' messages.
#![allow(non_snake_case)]

mod child;
mod clear;
mod config;
mod context;
mod device;
mod dispatch;
mod dxgi;
mod format;
mod log;
mod objects;
mod state;
mod update;
mod views;

use device::{Device, LEVELS};
use std::ffi::c_void;
use windows::Win32::Foundation::{E_INVALIDARG, HMODULE, S_FALSE, S_OK};
use windows::Win32::Graphics::Direct3D::D3D_FEATURE_LEVEL;
use windows::Win32::Graphics::Dxgi::DXGI_ERROR_UNSUPPORTED;
use windows_core::{Interface, HRESULT};

/// `D3D11CreateDevice` (`d3d11.h`): a device at the first of
/// `feature_levels` that sm5sim has (11_1, 11_0, 10_1, 10_0; all of them
/// when null), whatever the adapter and driver type.
///
/// # Safety
/// The pointers are as D3D11's contract says: null, or an array of
/// `num_levels` levels and out pointers to write.
#[no_mangle]
pub unsafe extern "system" fn D3D11CreateDevice(
    _adapter: *mut c_void,
    driver_type: i32,
    _software: HMODULE,
    flags: u32,
    feature_levels: *const D3D_FEATURE_LEVEL,
    num_levels: u32,
    _sdk_version: u32,
    device: *mut *mut c_void,
    level: *mut D3D_FEATURE_LEVEL,
    context: *mut *mut c_void,
) -> HRESULT {
    // the out parameters are null (0) until there is something to give
    // SAFETY: the caller's out pointers, each null or writable
    unsafe {
        if !device.is_null() {
            *device = std::ptr::null_mut();
        }
        if !context.is_null() {
            *context = std::ptr::null_mut();
        }
        if !level.is_null() {
            *level = D3D_FEATURE_LEVEL(0);
        }
    }
    let asked: Vec<D3D_FEATURE_LEVEL> = if feature_levels.is_null() || num_levels == 0 {
        LEVELS[1..].to_vec()
    } else {
        // SAFETY: the caller's array of num_levels levels
        unsafe { std::slice::from_raw_parts(feature_levels, num_levels as usize) }.to_vec()
    };
    let Some(&chosen) = asked.iter().find(|l| LEVELS.contains(l)) else {
        log::say(&format!(
            "D3D11CreateDevice: none of the feature levels {:x?} is one sm5sim has (11_1, 11_0, 10_1, 10_0); E_INVALIDARG",
            asked.iter().map(|l| l.0).collect::<Vec<_>>()
        ));
        return E_INVALIDARG;
    };
    log::calls!(
        "D3D11CreateDevice: driver type {driver_type}, flags {flags:#x}, level {:#x}",
        chosen.0
    );
    if !level.is_null() {
        // SAFETY: the caller's out pointer
        unsafe { *level = chosen };
    }
    if device.is_null() && context.is_null() {
        return S_FALSE;
    }
    let (d, c) = Device::create(chosen, flags);
    if !device.is_null() {
        // SAFETY: the caller's out pointer; it owns the reference
        unsafe { *device = d.into_raw() };
    }
    if !context.is_null() {
        // SAFETY: the caller's out pointer; it owns the reference
        unsafe { *context = c.into_raw() };
    }
    S_OK
}

/// `D3D11CreateDeviceAndSwapChain`: as [`D3D11CreateDevice`] when no swap
/// chain is asked for; a swap chain is refused with
/// `DXGI_ERROR_UNSUPPORTED` (sm5sim runs compute only).
///
/// # Safety
/// As [`D3D11CreateDevice`].
#[no_mangle]
pub unsafe extern "system" fn D3D11CreateDeviceAndSwapChain(
    adapter: *mut c_void,
    driver_type: i32,
    software: HMODULE,
    flags: u32,
    feature_levels: *const D3D_FEATURE_LEVEL,
    num_levels: u32,
    sdk_version: u32,
    swap_chain_desc: *const c_void,
    swap_chain: *mut *mut c_void,
    device: *mut *mut c_void,
    level: *mut D3D_FEATURE_LEVEL,
    context: *mut *mut c_void,
) -> HRESULT {
    for p in [device, context, swap_chain] {
        if !p.is_null() {
            // SAFETY: the caller's out pointer
            unsafe { *p = std::ptr::null_mut() };
        }
    }
    if !swap_chain_desc.is_null() || !swap_chain.is_null() {
        log::say("D3D11CreateDeviceAndSwapChain: sm5sim runs compute only and has no swap chains; DXGI_ERROR_UNSUPPORTED");
        return DXGI_ERROR_UNSUPPORTED;
    }
    // SAFETY: the caller's pointers, passed on
    unsafe {
        D3D11CreateDevice(
            adapter,
            driver_type,
            software,
            flags,
            feature_levels,
            num_levels,
            sdk_version,
            device,
            level,
            context,
        )
    }
}
