//! The boundary: errors and the thread's last message, the panic guard
//! every entry point runs in, and the pointer helpers — the crate's only
//! unsafe operations.

use crate::sm5_status::{self, *};
use sm5sim::ApiError;
use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a call failed: its status and message.
#[derive(Debug)]
pub(crate) struct Fail {
    pub status: sm5_status,
    pub message: String,
}

impl Fail {
    pub fn new(status: sm5_status, message: impl Into<String>) -> Fail {
        Fail {
            status,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Fail {
        Fail::new(SM5_ERROR_INVALID_ARGUMENT, message)
    }
}

impl From<ApiError> for Fail {
    fn from(e: ApiError) -> Fail {
        let status = match &e {
            e if e.is_cancelled() => SM5_ERROR_CANCELLED,
            ApiError::Io { .. } => SM5_ERROR_IO,
            ApiError::Compile(_) => SM5_ERROR_COMPILE,
            ApiError::Load { .. } => SM5_ERROR_LOAD,
            ApiError::UnknownName { .. } => SM5_ERROR_UNKNOWN_NAME,
            ApiError::Binding { .. } => SM5_ERROR_BINDING,
            ApiError::NotBound { .. } | ApiError::Unbound { .. } => SM5_ERROR_UNBOUND,
            ApiError::Field { .. } => SM5_ERROR_FIELD,
            ApiError::Resource { .. } => SM5_ERROR_RESOURCE,
            ApiError::Shader { .. } => SM5_ERROR_SHADER,
            ApiError::Dispatch { .. } => SM5_ERROR_DISPATCH,
        };
        Fail::new(status, e.to_string())
    }
}

pub(crate) type Res<T = ()> = Result<T, Fail>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The most characters of a message kept for `sm5_last_error_message`: a
/// backstop (each input a message echoes is clipped where it is written,
/// `sm5sim::api::clip`).
const MESSAGE_LIMIT: usize = 64 * 1024;

fn set_last_error(message: String) {
    let message = sm5sim::api::clip_to(&message, MESSAGE_LIMIT);
    // a NUL inside the message would end it early in C
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// The thread's last message; its buffer lives until the next failure.
pub(crate) fn last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Run an entry point's body: its result as a status, the message of a
/// failure kept for `sm5_last_error_message` (prefixed with `func`), and a
/// panic caught (it never unwinds into C).
pub(crate) fn guard(func: &str, body: impl FnOnce() -> Res) -> sm5_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SM5_OK,
        Ok(Err(fail)) => {
            set_last_error(format!("{func}: {}", fail.message));
            fail.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            set_last_error(format!("{func}: internal error, please report it: {what}"));
            SM5_ERROR_PANIC
        }
    }
}

fn null(what: &str) -> Fail {
    Fail::new(SM5_ERROR_NULL_POINTER, format!("{what} is NULL"))
}

/// The handle `p` points to.
///
/// # Safety
/// `p` is NULL or points to a live `T` that no other call uses mutably
/// for `'a` (a handle this library made and has not destroyed).
pub(crate) unsafe fn handle<'a, T>(p: *const T, what: &str) -> Res<&'a T> {
    // SAFETY: by this function's contract, p is NULL or valid for 'a.
    unsafe { p.as_ref() }.ok_or_else(|| null(what))
}

/// The handle `p` points to, mutably.
///
/// # Safety
/// `p` is NULL or points to a live `T` that no other call uses for `'a`.
pub(crate) unsafe fn handle_mut<'a, T>(p: *mut T, what: &str) -> Res<&'a mut T> {
    // SAFETY: by this function's contract, p is NULL or valid and
    // unaliased for 'a.
    unsafe { p.as_mut() }.ok_or_else(|| null(what))
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn string<'a>(p: *const c_char, what: &str) -> Res<&'a str> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: p is not NULL, and by this function's contract points to a
    // NUL-terminated string living for 'a.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|e| Fail::invalid(format!("{what} is not UTF-8: {e}")))
}

/// An optional string argument: None for NULL.
///
/// # Safety
/// As [`string`].
pub(crate) unsafe fn opt_string<'a>(p: *const c_char, what: &str) -> Res<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    unsafe { string(p, what) }.map(Some)
}

fn check_len(len: usize, unit: usize, what: &str) -> Res {
    match len.checked_mul(unit) {
        Some(b) if b <= isize::MAX as usize => Ok(()),
        _ => Err(Fail::invalid(format!(
            "{what}: {len} elements is too large"
        ))),
    }
}

/// `len` elements from `p` (NULL allowed when `len` is 0).
///
/// # Safety
/// `p` is NULL or points to `len` initialised `T`s that outlive `'a` and
/// that nothing writes meanwhile.
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize, what: &str) -> Res<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(null(what));
    }
    if !p.is_aligned() {
        return Err(Fail::invalid(format!("{what} is not aligned")));
    }
    check_len(len, size_of::<T>(), what)?;
    // SAFETY: p is not NULL, aligned, and by this function's contract
    // points to len initialised Ts living for 'a; their size fits isize.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// `len` bytes from `p` (NULL allowed when `len` is 0).
///
/// # Safety
/// As [`slice`].
pub(crate) unsafe fn bytes<'a>(p: *const c_void, len: usize, what: &str) -> Res<&'a [u8]> {
    // SAFETY: forwarded contract.
    unsafe { slice(p.cast::<u8>(), len, what) }
}

/// Copy `data` to the `len` bytes at `dst`, which must be exactly as many.
///
/// # Safety
/// `dst` is NULL or points to `len` writable bytes that nothing else
/// reads or writes meanwhile.
pub(crate) unsafe fn copy_out(dst: *mut c_void, len: usize, data: &[u8], what: &str) -> Res {
    if len != data.len() {
        return Err(Fail::invalid(format!(
            "{what} holds {} bytes, but the destination is {len} bytes",
            data.len()
        )));
    }
    if len == 0 {
        return Ok(());
    }
    if dst.is_null() {
        return Err(null("dst"));
    }
    // SAFETY: dst is not NULL and by this function's contract points to
    // len = data.len() writable bytes, not overlapping data (a Vec of ours).
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst.cast::<u8>(), len) };
    Ok(())
}

/// Write `value` to the out-parameter `out`.
///
/// # Safety
/// `out` is NULL or points to a writable, aligned `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Res {
    if out.is_null() {
        return Err(null(what));
    }
    // SAFETY: out is not NULL and by this function's contract writable;
    // write does not drop what was there (C data, or nothing).
    unsafe { out.write(value) };
    Ok(())
}

/// An out-parameter for a new handle: checked and set to NULL now, filled
/// by [`Out::set`] on success.
pub(crate) struct Out<T>(*mut *mut T);

impl<T> Out<T> {
    /// # Safety
    /// `out` is NULL or points to a writable `T*`.
    pub unsafe fn new(out: *mut *mut T, what: &str) -> Res<Out<T>> {
        // SAFETY: forwarded contract.
        unsafe { put(out, std::ptr::null_mut(), what) }?;
        Ok(Out(out))
    }

    /// Hand `value` to C as a new handle.
    pub fn set(self, value: T) {
        let p = Box::into_raw(Box::new(value));
        // SAFETY: Out::new checked that self.0 is not NULL, and its
        // contract makes it writable.
        unsafe { self.0.write(p) };
    }
}

/// Free a handle made by [`Out::set`] (NULL: nothing); a panic in a
/// destructor is caught (there is no status to report it).
///
/// # Safety
/// `p` is NULL or a handle of type `T` from this library, not yet freed,
/// that no other call is using.
pub(crate) unsafe fn destroy_guarded<T>(p: *mut T) {
    if p.is_null() {
        return;
    }
    // SAFETY: by the contract, p came from Box::into_raw in Out::set and
    // is freed once.
    let b = unsafe { Box::from_raw(p) };
    let _ = catch_unwind(AssertUnwindSafe(move || drop(b)));
}

/// A string for C: NULs replaced, so that it is whole.
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\\0")).unwrap_or_default()
}
