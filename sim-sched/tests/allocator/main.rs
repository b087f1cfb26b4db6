//! The tests that measure what the executor allocates, under a global
//! allocator of their own (a global allocator is the whole process's, which
//! is why they are a test program apart; CONTRIBUTING.md, "Tests"): how many
//! allocations a dispatch makes ([`allocations`]), and the peak bytes that
//! loading and planning a program take ([`program_memory`]). The two run one
//! at a time ([`serial`]): each reads counters the other would move.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

mod allocations;
mod program_memory;

/// The system allocator, counting the allocations made through it and
/// keeping the bytes allocated now and their peak.
struct Counting;

/// Allocations (and reallocations) made so far.
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Bytes allocated now.
static NOW: AtomicUsize = AtomicUsize::new(0);
/// The most bytes allocated at once since [`PEAK`] was last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// counters are only read, never used to decide anything about memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` through `alloc` or `realloc` above
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // (counted as a new block beside the old, as it may be)
        grew(new_size);
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Held by each test for its whole run: the tests of this program run one
/// at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}
