//! Dispatch: `Dispatch(x, y, z)` runs x·y·z thread groups of a [`Program`](sim_core::Program).
//! One entry point, [`dispatch_with`], checks D3D's limits, makes the
//! watchdog and tells the progress, then runs the groups in a [`Mode`]:
//!
//! - [`Mode::Parallel`]: on a rayon pool, each group on one worker thread
//!   from start to end. Each worker makes one [`GroupExecutor`](sim_core::exec::GroupExecutor) per
//!   dispatch and takes batches of groups from a shared counter, so
//!   registers, masks and the TGSM arena are allocated once per worker,
//!   whatever the number of groups. The policy is this crate's: how many
//!   groups share a warp ([`packed_groups_limit`], [`groups_per_batch`]),
//!   how the batches are shared, whether atomics are gathered per worker.
//! - [`Mode::Scheduled`] ([`Schedule`], `DispatchOptions::schedule`): the
//!   groups one after another on the calling thread in an order, warp width,
//!   lane order and warp interleaving drawn from a seed, so one seed
//!   replays one schedule exactly; [`Schedule::fixed`] is the deterministic
//!   mode (linear order, the options' warp width, identity lanes, each warp
//!   run until it parks).
//! - [`Mode::Checked`]: the groups one after another on the calling thread,
//!   in linear order (x fastest), with one executor carrying a
//!   [`Checker`](sim_core::check::Checker); the checker's shadow state therefore needs no
//!   synchronisation and its findings are deterministic.
//!
//! [`dispatch`] is [`dispatch_with`] in the mode the options ask for,
//! without the profile.
//!
//! Visibility: the dispatch returns only after every group has finished
//! (rayon's join is a full happens-before edge), so every write of the
//! dispatch is visible to the caller and to the next dispatch
//! (`reference/compute-model.md` §1, "Completion").
//!
//! One file per concept, each imported only from above (`run` → the rest;
//! nothing imports `run`): `options` (what a dispatch is asked: options,
//! [`Mode`], D3D's limits), `schedule` (seeded schedules), `progress`,
//! `outcome` (stats, profile, messages, errors), `batching` (the parallel
//! policy: packing, batch sizes, the worker pool) and `run` (the entry
//! points and the run of each mode, which calls down into `sim_core`'s
//! executor and never back).

#![warn(missing_docs)]

mod batching;
mod options;
mod outcome;
mod progress;
mod run;
mod schedule;
#[cfg(test)]
mod tests;

pub use batching::{
    cores, groups_per_batch, in_pool, max_threads, packed_groups_limit, MAX_THREADS_PER_CORE,
    PACKED_LANES, PACKED_REGISTER_BYTES, PACKED_RETRY_LANES,
};
pub use options::{DispatchOptions, Mode, MAX_GROUPS_PER_DIMENSION, WARP_WIDTH_GROUP};
pub use outcome::{
    DispatchError, DispatchProfile, DispatchStats, Dispatched, GroupSpan, MAX_TRACE_SPANS,
};
pub use progress::{Progress, ProgressSnapshot};
pub use run::{dispatch, dispatch_with};
pub use schedule::{splitmix64, GroupPlan, Schedule};
pub use sim_core::exec::FastPaths;
pub use sim_core::messages::{Message, MessageKind, Messages, DEFAULT_MESSAGE_LIMIT};
