//! The DXGI adapter that `IDXGIDevice::GetAdapter` gives: it names sm5sim
//! (`GetDesc`), has no outputs and no factory.

use std::ffi::c_void;
use windows::Win32::Foundation::E_NOINTERFACE;
use windows::Win32::Graphics::Dxgi::*;
use windows_core::{implement, Ref, Result, GUID};

/// What `GetDesc` names the adapter.
pub const DESCRIPTION: &str = "sm5sim (CPU, Direct3D 11 compute)";

/// `IDXGIAdapter`.
#[implement(IDXGIAdapter)]
#[derive(Default)]
pub struct Adapter {
    private: crate::child::PrivateData,
}

impl IDXGIObject_Impl for Adapter_Impl {
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
    fn GetParent(&self, _riid: *const GUID, parent: *mut *mut c_void) -> Result<()> {
        if !parent.is_null() {
            // SAFETY: the application's out pointer
            unsafe { *parent = std::ptr::null_mut() };
        }
        crate::log::once("IDXGIAdapter::GetParent: sm5sim's adapter has no factory; E_NOINTERFACE");
        Err(E_NOINTERFACE.into())
    }
}

impl IDXGIAdapter_Impl for Adapter_Impl {
    fn EnumOutputs(&self, _output: u32) -> Result<IDXGIOutput> {
        Err(DXGI_ERROR_NOT_FOUND.into())
    }
    fn GetDesc(&self) -> Result<DXGI_ADAPTER_DESC> {
        let mut d = DXGI_ADAPTER_DESC::default();
        for (slot, c) in d.Description.iter_mut().zip(DESCRIPTION.encode_utf16()) {
            *slot = c;
        }
        Ok(d)
    }
    fn CheckInterfaceSupport(&self, _name: *const GUID) -> Result<i64> {
        Err(DXGI_ERROR_UNSUPPORTED.into())
    }
}
