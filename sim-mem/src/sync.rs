//! The atomics sm5sim uses, swapped for loom's model-checked ones when built
//! with `RUSTFLAGS="--cfg loom"` (the pattern of tokio's `loom` module).

#[cfg(loom)]
pub use loom::sync::atomic::{fence, AtomicU32, Ordering};
#[cfg(not(loom))]
pub use std::sync::atomic::{fence, AtomicU32, Ordering};
