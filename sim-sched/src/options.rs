//! What a dispatch is asked to do: [`DispatchOptions`] and the [`Mode`]
//! its groups run in, and D3D's limits on a dispatch's size.

use crate::progress::Progress;
use crate::schedule::Schedule;
use sim_core::check::Checker;
use sim_core::exec::FastPaths;
use sim_core::messages::DEFAULT_MESSAGE_LIMIT;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The most thread groups per dimension (`D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`, FS §18.6.2).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65535;

/// [`DispatchOptions::warp_width`] for one warp per thread group (any width
/// at least the group's thread count is clamped to it).
pub const WARP_WIDTH_GROUP: usize = usize::MAX;

/// How to run a dispatch.
#[derive(Debug, Clone)]
pub struct DispatchOptions {
    /// Worker threads; 0 = every core (rayon's default). 1 runs the groups
    /// on the calling thread, so that dispatches from several threads at
    /// once each run on their own; 2 or more use a pool of that many
    /// workers kept for the process and shared by every dispatch of that
    /// count (dispatches from several threads then share its workers).
    pub threads: usize,
    /// Lanes per warp (clamped to 1..=threads per group). Default
    /// [`WARP_WIDTH_GROUP`]: one warp per thread group, which interprets
    /// each instruction once for the whole group and makes barriers free;
    /// and where the groups are small and cannot observe one another (no
    /// TGSM, no group barrier), a few groups consecutive along x in one
    /// warp ([`GroupExecutor::packed`](sim_core::exec::GroupExecutor::packed), [`groups_per_batch`](crate::groups_per_batch)).
    /// Narrower warps pay the per-instruction cost once per warp but idle
    /// fewer lanes in divergent code.
    pub warp_width: usize,
    /// Watchdog: the most warp-instructions the dispatch may execute (summed
    /// over all groups). Exact: a dispatch that executes more is an error,
    /// and up to `sim_core::exec::EXACT_BUDGET` it stops before the
    /// instruction that would pass the budget (beyond, within 4096
    /// warp-instructions per worker of it). Default: no limit.
    pub max_warp_instructions: u64,
    /// Watchdog: wall-clock limit of the dispatch. Default: 60 s.
    pub timeout: Option<Duration>,
    /// Cancels the dispatch promptly once set (e.g. from a Ctrl-C handler).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Run the groups one after another on the calling thread under this
    /// schedule (`threads` is then ignored): what [`DispatchOptions::mode`]
    /// gives [`dispatch`](crate::dispatch). None (the default): in parallel, in whatever
    /// order the pool takes them.
    pub schedule: Option<Schedule>,
    /// Gather a [`DispatchProfile`](crate::DispatchProfile) ([`Dispatched::profile`](crate::Dispatched::profile)): per-opcode
    /// lane-instructions, SIMD efficiency, memory traffic, per-worker busy
    /// time. Default false: a plain run counts nothing extra.
    pub profile: bool,
    /// With `profile`: also count each buffer load's and store's bytes and
    /// 64-byte lines per instruction (coalescing;
    /// `Profile::lines_by_pc`), at the cost of a pass over the lanes'
    /// addresses per memory instruction. Default false.
    pub profile_memory: bool,
    /// With `profile`: also record each group's span on its worker
    /// ([`DispatchProfile::spans`](crate::DispatchProfile::spans), for a Chrome trace).
    pub trace: bool,
    /// Live progress for a display (the CLI's progress bar): each dispatch
    /// with these options announces its group count here and counts its
    /// finished groups. Default None (nothing counted).
    pub progress: Option<Arc<Progress>>,
    /// The executor's fast paths to take (default all; [`FastPaths::NONE`]
    /// runs the reference path). A path switched off changes the speed,
    /// never the results (`tests/it/differential.rs`).
    pub fast_paths: FastPaths,
    /// The most `printf`/`errorf`/`abort`/`debug_break` records
    /// [`Dispatched::messages`](crate::Dispatched::messages) keeps: the first ones in the dispatch's order
    /// (`sim_core::messages`), whatever order the groups ran in; the rest are
    /// counted. Default [`DEFAULT_MESSAGE_LIMIT`]; memory stays within about
    /// twice this many records per worker.
    pub message_limit: usize,
    /// Stop the dispatch at the first `debug_break` a thread executes: the
    /// dispatch ends with [`DispatchError::Runaway`](crate::DispatchError::Runaway) whose reason is
    /// `StopReason::DebugBreak`, naming the group, thread and instruction.
    /// Which `debug_break` is first is the schedule's: with
    /// [`DispatchOptions::schedule`] (`run --break` takes the fixed one),
    /// the first in linear group order. Default false.
    pub break_at_debug_break: bool,
    /// How much of a region of the compiled tier (`FastPaths::COMPILED`)
    /// runs interpreted before it is compiled, in lane-instructions, on any
    /// CPU: `Some(0)` compiles each at its first run. Default `None`: after
    /// [`COMPILE_AFTER`](sim_core::exec::COMPILE_AFTER), where the code beats
    /// the interpreter's row kernels on this CPU, else never
    /// ([`GroupExecutor::set_compile_after`](sim_core::exec::GroupExecutor::set_compile_after)).
    /// The count and the code are kept with the program, across dispatches.
    pub compile_after: Option<u64>,
}

impl Default for DispatchOptions {
    fn default() -> Self {
        Self {
            threads: 0,
            warp_width: WARP_WIDTH_GROUP,
            max_warp_instructions: u64::MAX,
            timeout: Some(Duration::from_secs(60)),
            cancel: None,
            schedule: None,
            profile: false,
            profile_memory: false,
            trace: false,
            progress: None,
            fast_paths: FastPaths::ALL,
            message_limit: DEFAULT_MESSAGE_LIMIT,
            break_at_debug_break: false,
            compile_after: None,
        }
    }
}

/// How a dispatch runs its groups ([`dispatch_with`](crate::dispatch_with)).
pub enum Mode<'a> {
    /// On the worker pool: `options.threads` workers, each with one
    /// executor for the dispatch, taking batches of groups from a shared
    /// counter; small groups that cannot observe one another packed
    /// several to a warp ([`packed_groups_limit`](crate::packed_groups_limit)).
    Parallel,
    /// One group after another on the calling thread, in the order, lane
    /// orders, warp widths and interleavings `schedule` draws
    /// (`options.threads` is ignored).
    Scheduled(&'a Schedule),
    /// The groups in linear order (x fastest) on the calling thread with
    /// `checker` attached to the executor (`options.threads` is ignored).
    /// Findings accumulate in `checker` (see [`sim_core::check`] for the
    /// rules), which must have been made for the program
    /// ([`Checker::new`]); the memory effects are those of a parallel run
    /// with one worker. A dispatch the watchdog stops keeps the findings
    /// made until then.
    Checked(&'a mut Checker),
}

impl DispatchOptions {
    /// The mode these options ask [`dispatch`](crate::dispatch) for: [`Mode::Scheduled`]
    /// under `schedule`, else [`Mode::Parallel`].
    pub fn mode(&self) -> Mode<'_> {
        match &self.schedule {
            Some(s) => Mode::Scheduled(s),
            None => Mode::Parallel,
        }
    }
}
