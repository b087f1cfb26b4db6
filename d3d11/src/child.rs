//! What every device child has: its device (`GetDevice`) and its private
//! data (`GetPrivateData`/`SetPrivateData`/`SetPrivateDataInterface`), with
//! the D3D11 runtime's rules (`ID3D11DeviceChild` reference).

use crate::device::Shared;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};
use windows::Win32::Foundation::{E_INVALIDARG, E_POINTER};
use windows::Win32::Graphics::Direct3D11::ID3D11Device;
use windows::Win32::Graphics::Dxgi::{DXGI_ERROR_MORE_DATA, DXGI_ERROR_NOT_FOUND};
use windows_core::{IUnknown, Interface, Ref, Result, GUID};

/// `WKPDID_D3DDebugObjectName`: an object's debug name, which the log and
/// the checker's findings use.
pub const DEBUG_OBJECT_NAME: GUID = GUID::from_u128(0x429b8c22_9188_4b0c_8742_acb0bf85c200);

enum Private {
    Bytes(Vec<u8>),
    Interface(IUnknown),
}

/// Private data by GUID.
#[derive(Default)]
pub struct PrivateData(Mutex<HashMap<GUID, Private>>);

impl PrivateData {
    /// `GetPrivateData`: with `data` null, the size alone.
    ///
    /// # Safety
    /// `size` and `data` as the caller of `GetPrivateData` passes them.
    pub unsafe fn get(&self, guid: *const GUID, size: *mut u32, data: *mut c_void) -> Result<()> {
        if guid.is_null() || size.is_null() {
            return Err(E_INVALIDARG.into());
        }
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: both checked non-null; the caller's pointers
        let (guid, size) = unsafe { (&*guid, &mut *size) };
        let Some(value) = map.get(guid) else {
            *size = 0;
            return Err(DXGI_ERROR_NOT_FOUND.into());
        };
        let bytes: Vec<u8> = match value {
            Private::Bytes(b) => b.clone(),
            Private::Interface(i) => (i.as_raw() as usize).to_ne_bytes().to_vec(),
        };
        if data.is_null() {
            *size = bytes.len() as u32;
            return Ok(());
        }
        if (*size as usize) < bytes.len() {
            *size = bytes.len() as u32;
            return Err(DXGI_ERROR_MORE_DATA.into());
        }
        // SAFETY: `data` holds `*size` ≥ `bytes.len()` bytes (the caller's word)
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data.cast::<u8>(), bytes.len()) };
        *size = bytes.len() as u32;
        if let Private::Interface(i) = value {
            // the caller owns a reference to what it gets
            std::mem::forget(i.clone());
        }
        Ok(())
    }

    /// `SetPrivateData`: `size` bytes at `data`; size 0 or null data
    /// removes the entry.
    ///
    /// # Safety
    /// `data` holds `size` bytes, as the caller of `SetPrivateData` promises.
    pub unsafe fn set(&self, guid: *const GUID, size: u32, data: *const c_void) -> Result<()> {
        if guid.is_null() {
            return Err(E_INVALIDARG.into());
        }
        // SAFETY: checked non-null
        let guid = unsafe { *guid };
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if size == 0 || data.is_null() {
            map.remove(&guid);
            return Ok(());
        }
        // SAFETY: the caller's promise
        let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) };
        map.insert(guid, Private::Bytes(bytes.to_vec()));
        Ok(())
    }

    /// `SetPrivateDataInterface`: keeps a reference; null removes the entry.
    ///
    /// # Safety
    /// `guid` is null or points to a GUID.
    pub unsafe fn set_interface(&self, guid: *const GUID, value: Ref<IUnknown>) -> Result<()> {
        if guid.is_null() {
            return Err(E_POINTER.into());
        }
        // SAFETY: checked non-null
        let guid = unsafe { *guid };
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match value.as_ref() {
            Some(i) => map.insert(guid, Private::Interface(i.clone())),
            None => map.remove(&guid),
        };
        Ok(())
    }

    /// The debug name the application gave (`WKPDID_D3DDebugObjectName`).
    pub fn name(&self) -> Option<String> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&DEBUG_OBJECT_NAME)? {
            Private::Bytes(b) => {
                let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                Some(String::from_utf8_lossy(&b[..end]).into_owned())
            }
            Private::Interface(_) => None,
        }
    }
}

/// A device child's device and private data.
pub struct Child {
    /// the device that made it (a counted reference, as D3D11 keeps)
    pub device: ID3D11Device,
    /// the device's state
    pub shared: Arc<Shared>,
    /// its private data
    pub private: PrivateData,
}

impl Child {
    /// A child of `device`, whose state is `shared`.
    pub fn new(device: &ID3D11Device, shared: &Arc<Shared>) -> Child {
        Child {
            device: device.clone(),
            shared: shared.clone(),
            private: PrivateData::default(),
        }
    }
}

/// `ID3D11DeviceChild` for the `#[implement]`ed type `$t` whose field
/// path `$f` is a [`Child`].
macro_rules! device_child {
    ($($t:ty => $($f:ident).+;)*) => {$(
        impl windows::Win32::Graphics::Direct3D11::ID3D11DeviceChild_Impl for $t {
            fn GetDevice(&self, device: windows_core::OutRef<windows::Win32::Graphics::Direct3D11::ID3D11Device>) {
                let _ = device.write(Some(self.$($f).+.device.clone()));
            }
            fn GetPrivateData(&self, guid: *const windows_core::GUID, size: *mut u32, data: *mut core::ffi::c_void) -> windows_core::Result<()> {
                // SAFETY: the application's pointers, as GetPrivateData takes them
                unsafe { self.$($f).+.private.get(guid, size, data) }
            }
            fn SetPrivateData(&self, guid: *const windows_core::GUID, size: u32, data: *const core::ffi::c_void) -> windows_core::Result<()> {
                // SAFETY: the application's pointers, as SetPrivateData takes them
                unsafe { self.$($f).+.private.set(guid, size, data) }
            }
            fn SetPrivateDataInterface(&self, guid: *const windows_core::GUID, value: windows_core::Ref<windows_core::IUnknown>) -> windows_core::Result<()> {
                // SAFETY: the application's pointers, as SetPrivateDataInterface takes them
                unsafe { self.$($f).+.private.set_interface(guid, value) }
            }
        }
    )*};
}
pub(crate) use device_child;
