//! Cancelling a dispatch from another thread: a [`CancelToken`] set on
//! [`Options::cancel`](super::Options::cancel), which the dispatch's
//! watchdog reads (`sim_sched::DispatchOptions::cancel`) as it reads its
//! instruction budget: within 4,096 warp-instructions per worker. A
//! dispatch started with the token already set stops before any group
//! runs, however short it is. A cancelled dispatch ends with
//! [`ApiError::Dispatch`](super::ApiError::Dispatch) whose stop reason is
//! `StopReason::Cancelled` ([`super::ApiError::is_cancelled`]); what it had
//! written stays in the resources, as after a watchdog stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared by the thread that cancels and the dispatches that watch
/// it. Clones share the flag. It stays set until [`CancelToken::reset`]:
/// a dispatch started with a set token stops before any of its groups runs.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask the dispatches watching this token to stop (from any thread).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called since the last reset.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clear the flag, for the next dispatch.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// The flag itself, as `sim_sched::DispatchOptions::cancel` and
    /// `sim_core::LoadOptions::cancel` take it.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}
