//! What a handler works over: [`Cx`], the narrow context it reads, and the
//! few parts of the executor's state a handler may change, each passed to
//! the handlers that need it and to no other: the instruction budget
//! ([`Budget`]), the group's memory ([`GroupMemory`]) and the kernels
//! chosen for this CPU ([`Kernels`]). The operand scratch
//! (`warp::Scratch`), the counters (`profile::ExecStats`), the observer and
//! the message sink (`ops::message::MessageSink`) are the others.
//!
//! The interpreter loop (`interp.rs`) builds a [`Cx`] once per call from
//! the executor's fields; the handlers (`ops/`, `fast/`, `operands.rs`)
//! are its methods, so that a handler sees the program, the plan and the
//! bindings but none of the group runner's state (warps, barrier rounds,
//! the observers' storage, the watchdog's bookkeeping).

use crate::exec::fast::plan::Step;
use crate::exec::fast::FastPaths;
use crate::exec::kernels::{
    dp_acc_kernel, udiv_by_rows_kernel, udiv_rows_kernel, Kernel, UdivByRows, UdivRows,
};
use crate::exec::ops::atomic::PrivateUav;
use crate::exec::watchdog::WATCHDOG_INTERVAL;
use crate::{Isa, Program};
use sim_mem::{Bindings, Tgsm};

/// A handler's context while one warp runs: what it reads and never
/// changes. Built by the interpreter loop from the executor
/// ([`GroupExecutor::run_warp_body`](super::GroupExecutor)); the handlers are its
/// methods.
#[derive(Clone, Copy)]
pub(super) struct Cx<'a, 'b> {
    /// The program.
    pub prog: &'a Program,
    /// Lanes per warp.
    pub w: usize,
    /// Thread groups per batch (1 unless packed: `GroupExecutor::packed`).
    pub pack: u32,
    /// `SV_GroupID` of the running batch's first group.
    pub first: [u32; 3],
    /// Per pc, what the interpreter runs there (`fast/plan.rs`).
    pub plan: &'a [Step],
    /// The fast paths switched on.
    pub fast_paths: FastPaths,
    /// The lane loops chosen for this CPU.
    pub kernels: Kernels,
    /// Lane-instructions of a compiled tier's region interpreted before it
    /// is compiled (`GroupExecutor::set_compile_after`; `None`: the
    /// default policy).
    pub compile_after: Option<u64>,
    /// The dispatch's resources.
    pub b: &'a Bindings<'b>,
}

impl std::fmt::Debug for Cx<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cx")
            .field("w", &self.w)
            .field("pack", &self.pack)
            .field("first", &self.first)
            .finish_non_exhaustive()
    }
}

/// The lane loops an executor calls through pointers, chosen once for the
/// CPU it runs on (`crate::isa::cpu::isa`; `SM5SIM_ISA` lowers the
/// choice), and the instruction set the interpreter loop is compiled for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The instruction set `run_warp` is compiled for on this CPU.
    pub isa: Isa,
    /// The running-sum kernel of `dp2`–`dp4`.
    pub dp_acc: Kernel,
    /// `udiv`'s lane loop.
    pub udiv_rows: UdivRows,
    /// `udiv`'s lane loop by one divisor.
    pub udiv_by_rows: UdivByRows,
}

impl Kernels {
    /// The kernels of this CPU.
    pub fn detect() -> Self {
        Kernels {
            isa: crate::isa::cpu::isa(),
            dp_acc: dp_acc_kernel(),
            udiv_rows: udiv_rows_kernel(),
            udiv_by_rows: udiv_by_rows_kernel(),
        }
    }
}

/// The instruction budget: how many warp-instructions may run before the
/// next look at the watchdog, or, interleaving, before the warp yields.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// Warp-instructions left before the next look at the watchdog.
    pub until_check: u32,
    /// Warp-instructions between two looks (`Watchdog::interval`); the
    /// count not yet handed in is `interval - until_check`.
    pub interval: u32,
    /// Which watchdog that count belongs to (`Watchdog::id`).
    pub watchdog_id: u64,
    /// Interleaving warps (`GroupExecutor::run_group_interleaved`): a warp
    /// then yields when `until_check` runs out instead of consulting the
    /// watchdog.
    pub interleave: bool,
}

impl Budget {
    /// A fresh budget: a look at the watchdog every
    /// [`WATCHDOG_INTERVAL`] warp-instructions, no watchdog's yet.
    pub fn new() -> Self {
        Budget {
            until_check: WATCHDOG_INTERVAL,
            interval: WATCHDOG_INTERVAL,
            watchdog_id: 0,
            interleave: false,
        }
    }
}

/// What a group's lanes share: its TGSM, and the executor's own words of
/// the UAVs whose atomics it gathers (`GroupExecutor::privatize_atomics`).
#[derive(Debug)]
pub(super) struct GroupMemory {
    /// The group's TGSM arena.
    pub tgsm: Tgsm,
    /// The UAVs whose atomics this executor gathers.
    pub private: Vec<PrivateUav>,
}
