//! The group executor: one thread group, its lanes in warps of W lanes run in
//! lockstep.
//!
//! - Registers are structure-of-arrays: word `(reg·4 + component)·W + lane`.
//! - Divergence uses an execution-mask stack: every lane has a mask word (0 or
//!   !0) in `active`; `if`/`loop`/`switch` push frames that keep the masks to
//!   restore. `break`/`continue`/`ret` move lanes out of `active` into the
//!   frame that will revive them, and clear them from every frame in between.
//!   When `active` empties, the warp jumps to the next point that can revive
//!   lanes (`else`, `endif`, `endloop`, the next `case`), so it never walks
//!   dead code.
//! - A `sync_*_t` parks the warp; once every unfinished warp of the group is
//!   parked they all resume (`reference/compute-model.md` §6.2 choice (a): a
//!   finished thread counts as arrived).
//! - Schedules (`sim_sched::Schedule`): [`GroupExecutor::with_lane_order`]
//!   puts threads in other lane slots, and
//!   [`GroupExecutor::run_group_interleaved`] switches warps after random
//!   quanta of 1–8 instructions instead of running each until it parks (a
//!   warp yields when `until_check` runs out, so a plain run pays nothing
//!   for it).
//! - Memory: UAV/SRV words through [`sim_mem::BufferView`] (relaxed atomics),
//!   TGSM through [`sim_mem::Tgsm`] (plain memory; a group runs on one OS
//!   thread). Lanes of a warp access memory in lane order.
//! - Observers (`observe`): the checker (`sm5sim check`) and the profile
//!   watch a run through the `Observer` the interpreter loop and the
//!   handlers are generic over; a plain run's observer does nothing and
//!   compiles away.
//!
//! The rooms, by role, in the order a dispatch goes down them (and never
//! back up: `tests/it/layout.rs`, `a_dispatch_goes_one_pass_down_sched_plan_exec`):
//! `executor` (the executor's state, built once per worker with its plan,
//! and its settings), `group` (the group runner: batches, barrier rounds,
//! interleaving, the watchdog; it picks a batch's observers), `interp` (the
//! interpreter loop, which builds the handlers' context), `ops` (the
//! handlers, methods of `context::Cx`) and `fast` (the fast-path
//! register, the planner and what only fast paths run), `operands`
//! (operand reads and writes), `observe` (the observer seam), `warp` (a
//! warp's registers, masks and frames) and `context` (`Cx`, what a handler
//! reads, and the state it may be given); the leaves `lines` (access
//! geometry), `profile`, `watchdog`, and `kernels` (the lane and row kernels
//! of the ALU instructions per CPU instruction set, compiled from
//! `crate::isa::lanes`'s lane functions); and `pool`, which parks executors
//! between dispatches for `sim_sched`.
//!
//! Arithmetic follows `reference/sm5-compute-isa.md` and the float rules of
//! `reference/compute-model.md` §8: denormals flushed on float inputs and
//! outputs; `mad` and `dp*` are evaluated unfused, rounding after every
//! multiply and add, in component order (x, y, z, w) — a GPU that fuses may
//! differ by 1 ULP per multiply-add.

// Lane loops index several structure-of-arrays slices with one lane number;
// iterator zips of four or five slices would obscure them.
#![allow(clippy::needless_range_loop)]
mod context;
mod debug;
mod executor;
mod fast;
mod group;
mod interp;
// calling a kernel compiled for AVX2 or AVX-512 is `unsafe` (its docs)
#[allow(unsafe_code)]
mod kernels;
mod lines;
mod observe;
mod operands;
mod ops;
mod pool;
mod profile;
mod warp;
mod watchdog;

pub use debug::{DebugOptions, Debugger, LaneState, Position, Ran};
pub use executor::{
    packing, GroupExecutor, Packing, Shape, MAX_PACKED_LANES, PRIVATE_ATOMICS_MAX_WORDS,
};
pub use fast::compiled::COMPILE_AFTER;
pub use fast::FastPaths;
pub use observe::{LastWrite, WordSpace};
pub use pool::{parked_on_this_thread, MAX_PARKED_PER_THREAD};
pub use profile::{
    ExecStats, InstructionCounts, LineCounts, Profile, ResourceTraffic, SampleCounts,
    ATOMIC_SAMPLES_EXACT, ATOMIC_SAMPLE_EVERY,
};
pub use watchdog::{Runaway, StopReason, Watchdog, EXACT_BUDGET};

#[cfg(test)]
mod tests;

/// The differential oracle of the fast paths (its own docs).
#[cfg(test)]
mod differential;
