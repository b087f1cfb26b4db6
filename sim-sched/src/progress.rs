//! A dispatch's progress as it runs ([`Progress`]), for a caller's progress
//! bar and watchdog.

use std::sync::atomic::{AtomicU64, Ordering};

/// Live progress of the dispatches that share it through
/// [`DispatchOptions::progress`](crate::DispatchOptions::progress): which dispatch is running, its number of
/// groups and how many have finished. Written with relaxed atomics (a
/// plain dispatch's workers each add their finished groups a thousandth of
/// the dispatch at a time, and the rest when they stop; the scheduled and
/// checked dispatches, which run groups one after another, add each
/// group; two-pass checking counts its second pass's groups afresh), read
/// from another thread by a display; the numbers of a
/// [`Progress::snapshot`] may be a moment apart, and `done` equals
/// `groups` once the dispatch has returned.
#[derive(Debug, Default)]
pub struct Progress {
    pub(crate) dispatches: AtomicU64,
    pub(crate) groups: AtomicU64,
    pub(crate) done: AtomicU64,
    pub(crate) pass: AtomicU64,
}

/// What a [`Progress`] says at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Dispatches begun so far (the current one is number `dispatches`).
    pub dispatches: u64,
    /// Groups of the current dispatch.
    pub groups: u64,
    /// Groups of the current dispatch finished so far (in its current
    /// pass).
    pub done: u64,
    /// The current dispatch's pass: 1, or 2 while two-pass checking runs
    /// its second pass (the groups counted again from 0; `sim_core`'s
    /// `FastPaths::CHECK_SCREEN`). 0 before any dispatch.
    pub pass: u64,
}

impl Progress {
    /// A fresh counter (no dispatch begun).
    pub fn new() -> Self {
        Self::default()
    }

    /// The current numbers.
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            dispatches: self.dispatches.load(Ordering::Relaxed),
            groups: self.groups.load(Ordering::Relaxed),
            done: self.done.load(Ordering::Relaxed),
            pass: self.pass.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn begin(&self, groups: u64) {
        self.done.store(0, Ordering::Relaxed);
        self.groups.store(groups, Ordering::Relaxed);
        self.pass.store(1, Ordering::Relaxed);
        self.dispatches.fetch_add(1, Ordering::Relaxed);
    }

    /// The current dispatch's second pass begins: its groups are counted
    /// again from 0.
    pub(crate) fn begin_second_pass(&self) {
        self.done.store(0, Ordering::Relaxed);
        self.pass.store(2, Ordering::Relaxed);
    }

    pub(crate) fn group_done(&self) {
        self.groups_done(1);
    }

    pub(crate) fn groups_done(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}
