//! Cancelling a dispatch from another thread: a token attached to kernels.

use crate::ffi::{self, guard, Out};
use crate::{sm5_kernel, sm5_status};
use sm5sim::api::CancelToken;

/// A cancellation flag (`sm5sim::api::CancelToken`): attach it to kernels
/// with `sm5_kernel_set_cancel`, then `sm5_cancel` from any thread stops
/// their dispatches with `SM5_ERROR_CANCELLED`. It stays set until
/// `sm5_cancel_reset`. Unlike the other handles, it may be used by several
/// threads at once (`sm5_cancel` while a dispatch watches it).
#[derive(Debug)]
pub struct sm5_cancel_token {
    pub(crate) token: CancelToken,
}

/// Create a cancellation token, not set.
///
/// # Safety
/// `out` is NULL or points to a writable `sm5_cancel_token*`.
#[no_mangle]
pub unsafe extern "C" fn sm5_cancel_token_create(out: *mut *mut sm5_cancel_token) -> sm5_status {
    guard("sm5_cancel_token_create", || {
        // SAFETY: the caller's contract.
        let out = unsafe { Out::new(out, "out") }?;
        out.set(sm5_cancel_token {
            token: CancelToken::new(),
        });
        Ok(())
    })
}

/// Set `token`: every dispatch of a kernel it is attached to stops — one
/// running now within milliseconds (at its watchdog's next look),
/// one started later at once — and returns `SM5_ERROR_CANCELLED`. Safe to
/// call from any thread, a signal handler excepted, while dispatches run.
///
/// # Safety
/// `token` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn sm5_cancel(token: *const sm5_cancel_token) -> sm5_status {
    guard("sm5_cancel", || {
        // SAFETY: the caller's contract.
        unsafe { ffi::handle(token, "token") }?.token.cancel();
        Ok(())
    })
}

/// Clear `token`, so that the kernels it is attached to dispatch again.
///
/// # Safety
/// `token` is NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn sm5_cancel_reset(token: *const sm5_cancel_token) -> sm5_status {
    guard("sm5_cancel_reset", || {
        // SAFETY: the caller's contract.
        unsafe { ffi::handle(token, "token") }?.token.reset();
        Ok(())
    })
}

/// Whether `token` is set (`*cancelled`: 1, else 0).
///
/// # Safety
/// `token` is NULL or a live token; `cancelled` is NULL or points to a
/// writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sm5_cancel_is_set(
    token: *const sm5_cancel_token,
    cancelled: *mut u32,
) -> sm5_status {
    guard("sm5_cancel_is_set", || {
        // SAFETY (the two calls): the caller's contract.
        let t = unsafe { ffi::handle(token, "token") }?;
        unsafe { ffi::put(cancelled, u32::from(t.token.is_cancelled()), "cancelled") }
    })
}

/// Make `kernel`'s dispatches (`sm5_kernel_dispatch`,
/// `sm5_kernel_dispatch_indirect`) watch `token`; NULL: none (the
/// default). The kernel keeps the flag, so `token` may be destroyed
/// before it (the kernel then watches a flag nobody can set).
///
/// # Safety
/// `kernel` is NULL or a live kernel no other call is using; `token` is
/// NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn sm5_kernel_set_cancel(
    kernel: *mut sm5_kernel,
    token: *const sm5_cancel_token,
) -> sm5_status {
    guard("sm5_kernel_set_cancel", || {
        // SAFETY: the caller's contract.
        let k = unsafe { ffi::handle_mut(kernel, "kernel") }?;
        // SAFETY: the caller's contract: token is NULL or live.
        k.cancel = unsafe { token.as_ref() }.map(|t| t.token.clone());
        Ok(())
    })
}

/// Free a token (NULL: nothing). The kernels it is attached to keep its
/// flag.
///
/// # Safety
/// `token` is NULL or a token not yet destroyed, which no other call is
/// using.
#[no_mangle]
pub unsafe extern "C" fn sm5_cancel_token_destroy(token: *mut sm5_cancel_token) {
    // SAFETY: the caller's contract.
    unsafe { ffi::destroy_guarded(token) };
}
