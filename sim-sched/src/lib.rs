//! Dispatch: `Dispatch(x, y, z)` runs x·y·z thread groups of a [`Program`].
//! One entry point, [`dispatch_with`], checks D3D's limits, makes the
//! watchdog and tells the progress, then runs the groups in a [`Mode`]:
//!
//! - [`Mode::Parallel`]: on a rayon pool, each group on one worker thread
//!   from start to end. Each worker makes one [`GroupExecutor`] per
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
//!   [`Checker`]; the checker's shadow state therefore needs no
//!   synchronisation and its findings are deterministic.
//!
//! [`dispatch`] is [`dispatch_with`] in the mode the options ask for,
//! without the profile.
//!
//! Visibility: the dispatch returns only after every group has finished
//! (rayon's join is a full happens-before edge), so every write of the
//! dispatch is visible to the caller and to the next dispatch
//! (`reference/compute-model.md` §1, "Completion").

use rayon::prelude::*;
use sim_core::check::Checker;
pub use sim_core::exec::FastPaths;
use sim_core::exec::{packing, ExecStats, GroupExecutor, Profile, Shape, MAX_PACKED_LANES};
use sim_core::exec::{Runaway, Watchdog};
use sim_core::messages::MessageLog;
pub use sim_core::messages::{Message, MessageKind, Messages, DEFAULT_MESSAGE_LIMIT};
use sim_core::Program;
use sim_mem::{Bindings, Buffer, Contents};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

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
    /// warp ([`GroupExecutor::packed`], [`groups_per_batch`]).
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
    /// gives [`dispatch`]. None (the default): in parallel, in whatever
    /// order the pool takes them.
    pub schedule: Option<Schedule>,
    /// Gather a [`DispatchProfile`] ([`Dispatched::profile`]): per-opcode
    /// lane-instructions, SIMD efficiency, memory traffic, per-worker busy
    /// time. Default false: a plain run counts nothing extra.
    pub profile: bool,
    /// With `profile`: also count each buffer load's and store's bytes and
    /// 64-byte lines per instruction (coalescing;
    /// `Profile::lines_by_pc`), at the cost of a pass over the lanes'
    /// addresses per memory instruction. Default false.
    pub profile_memory: bool,
    /// With `profile`: also record each group's span on its worker
    /// ([`DispatchProfile::spans`], for a Chrome trace).
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
    /// [`Dispatched::messages`] keeps: the first ones in the dispatch's order
    /// (`sim_core::messages`), whatever order the groups ran in; the rest are
    /// counted. Default [`DEFAULT_MESSAGE_LIMIT`]; memory stays within about
    /// twice this many records per worker.
    pub message_limit: usize,
    /// Stop the dispatch at the first `debug_break` a thread executes: the
    /// dispatch ends with [`DispatchError::Runaway`] whose reason is
    /// `StopReason::DebugBreak`, naming the group, thread and instruction.
    /// Which `debug_break` is first is the schedule's: with
    /// [`DispatchOptions::schedule`] (`run --break` takes the fixed one),
    /// the first in linear group order. Default false.
    pub break_at_debug_break: bool,
}

/// One SplitMix64 step: advance `state` and return the next 64-bit output.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in `0..n` (n ≥ 1) from one SplitMix64 output.
fn below(state: &mut u64, n: u64) -> u64 {
    ((splitmix64(state) >> 32) * n) >> 32
}

/// A single-threaded, reproducible order of execution for a dispatch.
///
/// A seeded schedule draws, from SplitMix64 streams derived from its seed
/// and the dispatch's group count:
/// - the order of the groups (a Fisher–Yates permutation of 0..groups);
/// - per group (by linear group index, so independent of the order), the
///   warp width, one of 1, 2, 4, 8, 16, 32 and the group size (clamped to
///   the group size);
/// - per group, the mapping of threads to lane slots (a permutation of the
///   group's threads: which threads share a warp, and the order in which a
///   warp's lanes perform their memory operations and atomics; system values
///   stay each thread's own);
/// - per group, the interleaving of its warps: a random runnable warp runs
///   a random quantum of 1 to 8 instructions, then another is drawn
///   (barriers still hold every warp until all have arrived).
///
/// [`Schedule::fixed`] is the deterministic mode: linear group order,
/// `DispatchOptions::warp_width`, identity lanes, each warp run until it
/// parks (as `dispatch` runs a group), so the output is the same on every run
/// and machine.
///
/// Several dispatches under one schedule draw from the same seed; a
/// dispatch with a different group count draws a different group order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Schedule {
    seed: u64,
    fixed: bool,
}

/// How one group runs under a [`Schedule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupPlan {
    /// lanes per warp
    pub warp_width: usize,
    /// thread (`SV_GroupIndex`) in each lane slot; None = identity
    pub lane_order: Option<Vec<u32>>,
    /// the interleaving's seed; None = each warp runs until it parks
    pub interleave: Option<u64>,
}

impl Schedule {
    /// The schedule drawn from `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self { seed, fixed: false }
    }

    /// The deterministic mode's fixed schedule (seed 0, nothing drawn).
    pub fn fixed() -> Self {
        Self {
            seed: 0,
            fixed: true,
        }
    }

    /// The `i`-th schedule seed derived from `base`: output `i` (from 0) of
    /// SplitMix64 seeded with `base` (what `sm5sim check --schedules N
    /// --seed S` runs).
    pub fn derive_seed(base: u64, i: u64) -> u64 {
        let mut state = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        splitmix64(&mut state)
    }

    /// The seed (0 for the fixed schedule).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether this is the deterministic mode's fixed schedule.
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }

    /// The order in which the `total` groups of a dispatch run (linear
    /// indices, x fastest).
    pub fn group_order(&self, total: u64) -> Vec<u64> {
        let mut order: Vec<u64> = (0..total).collect();
        if !self.fixed {
            let mut st = self.seed ^ 0x6772_6f75_7073_0000 ^ total.rotate_left(17);
            for i in (1..order.len()).rev() {
                let j = below(&mut st, i as u64 + 1) as usize;
                order.swap(i, j);
            }
        }
        order
    }

    /// How group `g` (linear index) of a program with `threads` threads per
    /// group runs; `warp_width` is the options' width (the fixed schedule's).
    pub fn group_plan(&self, g: u64, threads: usize, warp_width: usize) -> GroupPlan {
        let n = threads.max(1);
        if self.fixed {
            return GroupPlan {
                warp_width: warp_width.clamp(1, n),
                lane_order: None,
                interleave: None,
            };
        }
        let mut st = self.seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03);
        splitmix64(&mut st);
        let widths = [1, 2, 4, 8, 16, 32, n];
        let w = widths[below(&mut st, widths.len() as u64) as usize].min(n);
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = below(&mut st, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        GroupPlan {
            warp_width: w,
            lane_order: Some(order),
            interleave: Some(splitmix64(&mut st)),
        }
    }
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
        }
    }
}

/// Live progress of the dispatches that share it through
/// [`DispatchOptions::progress`]: which dispatch is running, its number of
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
    dispatches: AtomicU64,
    groups: AtomicU64,
    done: AtomicU64,
    pass: AtomicU64,
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

    fn begin(&self, groups: u64) {
        self.done.store(0, Ordering::Relaxed);
        self.groups.store(groups, Ordering::Relaxed);
        self.pass.store(1, Ordering::Relaxed);
        self.dispatches.fetch_add(1, Ordering::Relaxed);
    }

    /// The current dispatch's second pass begins: its groups are counted
    /// again from 0.
    fn begin_second_pass(&self) {
        self.done.store(0, Ordering::Relaxed);
        self.pass.store(2, Ordering::Relaxed);
    }

    fn group_done(&self) {
        self.groups_done(1);
    }

    fn groups_done(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// Errors that stop a dispatch before any group runs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// A dimension exceeds 65535 groups, which D3D leaves undefined.
    #[error("Dispatch({x}, {y}, {z}): each dimension must be at most 65535 thread groups")]
    TooManyGroups {
        /// groups in x
        x: u32,
        /// groups in y
        y: u32,
        /// groups in z
        z: u32,
    },
    /// cs_4_x dispatches must have z = 1 (FS §18.7.2.1).
    #[error("Dispatch({x}, {y}, {z}): cs_4_x requires z = 1")]
    Cs4Z {
        /// groups in x
        x: u32,
        /// groups in y
        y: u32,
        /// groups in z
        z: u32,
    },
    /// The watchdog stopped a runaway (or cancelled) dispatch.
    #[error(transparent)]
    Runaway(#[from] Runaway),
    /// The shader calls through an interface slot with no class instance bound
    /// (see `Program::bind_class_instances`).
    #[error("interface slot {slot} has no class instance bound (Program::bind_class_instances)")]
    UnboundInterface {
        /// the interface slot
        slot: u32,
    },
    /// More worker threads than [`max_threads`] allows on this machine.
    #[error(
        "{threads} worker threads: at most {max} on this machine ({cores} cores; 0 = one per core)"
    )]
    TooManyThreads {
        /// threads asked for
        threads: usize,
        /// the cap, [`max_threads`]
        max: usize,
        /// the cores `std::thread::available_parallelism` reports
        cores: usize,
    },
    /// The rayon pool could not be built.
    #[error("cannot start {threads} worker threads: {message}")]
    Pool {
        /// threads asked for
        threads: usize,
        /// rayon's message
        message: String,
    },
}

/// What a dispatch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DispatchStats {
    /// Thread groups run.
    pub groups: u64,
    /// Threads run (groups × threads per group).
    pub threads: u64,
    /// Warp-instructions executed, summed over all groups.
    pub warp_instructions: u64,
    /// Group barriers completed, summed over all groups.
    pub barriers: u64,
    /// Threads ended by `abort`.
    pub aborted_threads: u64,
    /// `debug_break` instructions executed, per thread.
    pub debug_breaks: u64,
}

impl DispatchStats {
    /// The stats of a dispatch of `program` whose executors counted `s`.
    fn of(program: &Program, s: &ExecStats) -> Self {
        Self {
            groups: s.groups,
            threads: s.groups * program.threads_per_group() as u64,
            warp_instructions: s.warp_instructions,
            barriers: s.barriers,
            aborted_threads: s.aborted_threads,
            debug_breaks: s.debug_breaks,
        }
    }
}

/// Where a dispatch's time went (`DispatchOptions::profile`).
#[derive(Debug, Clone, Default)]
pub struct DispatchProfile {
    /// Wall time of the dispatch, from the first group's start to the last's end
    /// as seen by the caller.
    pub wall: Duration,
    /// The executors' counters, summed.
    pub exec: Profile,
    /// Lane-instructions per opcode mnemonic, most executed first.
    pub by_opcode: Vec<(String, u64)>,
    /// Time spent running groups, per worker (rayon thread index; one
    /// entry for a dispatch run on the calling thread): from taking a share
    /// of the batches to finishing it, or with `trace`, the sum of the
    /// worker's batch spans.
    pub worker_busy: Vec<Duration>,
    /// Each group's span, in the order they ended per worker (only with
    /// `DispatchOptions::trace`); at most [`MAX_TRACE_SPANS`] in all.
    pub spans: Vec<GroupSpan>,
    /// The spans not kept past [`MAX_TRACE_SPANS`] (the first spans to end
    /// are kept, whichever worker ran them).
    pub spans_dropped: u64,
}

/// The most group spans one traced dispatch keeps (about 40 MB of spans, and
/// a Chrome trace of about 100 MB); the rest are counted in
/// [`DispatchProfile::spans_dropped`], so that tracing a huge dispatch
/// cannot grow without bound.
pub const MAX_TRACE_SPANS: usize = 1 << 20;

/// One group's run on a worker, relative to the dispatch's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupSpan {
    /// `SV_GroupID` (of the first group, when packed).
    pub group: [u32; 3],
    /// The groups it ran: `group` and the `groups − 1` after it along x
    /// (more than 1 when the groups were packed into one warp, see
    /// [`DispatchOptions::warp_width`]).
    pub groups: u32,
    /// The worker (rayon thread index; 0 on the calling thread).
    pub worker: usize,
    /// When it started, after the dispatch's start.
    pub start: Duration,
    /// How long it ran.
    pub duration: Duration,
}

/// What profiling workers add up.
#[derive(Debug, Default)]
struct ProfileSum {
    exec: Profile,
    busy: Vec<Duration>,
    spans: Vec<GroupSpan>,
    spans_dropped: u64,
}

impl ProfileSum {
    fn add_busy(&mut self, worker: usize, d: Duration) {
        if self.busy.len() <= worker {
            self.busy.resize(worker + 1, Duration::ZERO);
        }
        self.busy[worker] += d;
    }

    fn finish(self, program: &Program, wall: Duration) -> DispatchProfile {
        DispatchProfile {
            wall,
            by_opcode: self.exec.by_opcode(program),
            exec: self.exec,
            worker_busy: self.busy,
            spans: self.spans,
            spans_dropped: self.spans_dropped,
        }
    }
}

/// How a dispatch runs its groups ([`dispatch_with`]).
pub enum Mode<'a> {
    /// On the worker pool: `options.threads` workers, each with one
    /// executor for the dispatch, taking batches of groups from a shared
    /// counter; small groups that cannot observe one another packed
    /// several to a warp ([`packed_groups_limit`]).
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
    /// The mode these options ask [`dispatch`] for: [`Mode::Scheduled`]
    /// under `schedule`, else [`Mode::Parallel`].
    pub fn mode(&self) -> Mode<'_> {
        match &self.schedule {
            Some(s) => Mode::Scheduled(s),
            None => Mode::Parallel,
        }
    }
}

/// What a dispatch reports besides its effects on memory.
#[derive(Debug, Clone, Default)]
pub struct Dispatched {
    /// Its counters.
    pub stats: DispatchStats,
    /// Its profile, when `options.profile` was set (None otherwise, and for
    /// an empty dispatch).
    pub profile: Option<DispatchProfile>,
    /// What the shader said: its `printf`/`errorf` records and the threads
    /// that executed `abort` or `debug_break` (`sim_core::messages`), the
    /// first [`DispatchOptions::message_limit`] of them in order.
    pub messages: Messages,
}

/// `messages` when the dispatch ran to its end, else its stop with
/// `messages` attached ([`Runaway::messages`]: what the shader said before).
fn with_messages(outcome: Result<(), Runaway>, messages: Messages) -> Result<Messages, Runaway> {
    match outcome {
        Ok(()) => Ok(messages),
        Err(mut r) => {
            r.messages = Box::new(messages);
            Err(r)
        }
    }
}

/// The dispatch's records, formatted for `program`.
fn finish_messages(program: &Program, log: MessageLog) -> Messages {
    program.messages_of(log)
}

/// Run `Dispatch(groups[0], groups[1], groups[2])` in the mode
/// `options.schedule` asks for ([`DispatchOptions::mode`]): [`dispatch_with`]
/// less the profile.
///
/// # Errors
/// As [`dispatch_with`].
pub fn dispatch(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
) -> Result<DispatchStats, DispatchError> {
    dispatch_with(program, bindings, groups, options, options.mode()).map(|d| d.stats)
}

/// Run `Dispatch(groups[0], groups[1], groups[2])` in `mode`: the one
/// entry point of every dispatch. The limits D3D sets are checked, the
/// watchdog made (`options.max_warp_instructions`, `timeout`, `cancel`)
/// and the progress told, then the mode runs the groups. A profile
/// (`options.profile`) observes the run in any mode without changing it.
///
/// A zero in any dimension runs nothing and is not an error (FS §18.6.2).
///
/// # Errors
/// [`DispatchError`] when the group counts break D3D's limits, the
/// threads asked for are too many or the worker pool cannot start
/// (nothing has run then), or the watchdog stopped the dispatch.
pub fn dispatch_with(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
    mode: Mode<'_>,
) -> Result<Dispatched, DispatchError> {
    let threads = match options.threads {
        0 => rayon::current_num_threads(),
        t => {
            let cores = cores();
            let max = max_threads(cores);
            if t > max {
                return Err(DispatchError::TooManyThreads {
                    threads: t,
                    max,
                    cores,
                });
            }
            t
        }
    };
    let total = admit(program, groups)?;
    if total == 0 {
        return Ok(Dispatched::default());
    }
    let watchdog = Watchdog::new(
        options.max_warp_instructions,
        options.timeout,
        options.cancel.clone(),
    );
    // a token set before the dispatch stops it before any group runs
    if let Some(reason) = watchdog.stopped_at_start() {
        return Err(Runaway::at_start(program, reason).into());
    }
    if let Some(p) = &options.progress {
        p.begin(total);
    }
    let run = Run {
        program,
        bindings,
        groups,
        total,
        options,
        watchdog: &watchdog,
    };
    match mode {
        Mode::Parallel => run.parallel(threads),
        Mode::Scheduled(schedule) => run.scheduled(schedule),
        Mode::Checked(checker) => run.checked(checker),
    }
}

/// One dispatch, set up by [`dispatch_with`].
struct Run<'r, 'p, 'b> {
    program: &'p Program,
    bindings: &'r Bindings<'b>,
    groups: [u32; 3],
    total: u64,
    options: &'r DispatchOptions,
    watchdog: &'r Watchdog,
}

impl Run<'_, '_, '_> {
    /// [`Mode::Parallel`].
    fn parallel(&self, threads: usize) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            watchdog,
        } = *self;
        let [x, y, z] = groups;
        let _span = tracing::debug_span!("dispatch", x, y, z, total).entered();
        let progress = options.progress.as_deref();
        let sum = Mutex::new(ExecStats::default());
        let messages = Mutex::new(MessageLog::new(options.message_limit));
        let profile = options.profile.then(|| Mutex::new(ProfileSum::default()));
        let spans_kept = std::sync::atomic::AtomicUsize::new(0);
        let start = Instant::now();
        let pack = match options.warp_width {
            _ if !options.fast_paths.contains(FastPaths::PACKED_GROUPS) => 1,
            // (a profile runs the plan a plain run does: the same packing)
            WARP_WIDTH_GROUP => groups_per_batch(program, groups, threads),
            _ => 1,
        };
        // batches of `pack` groups along x; a row of x groups ends a batch
        let per_row = x.div_ceil(pack) as u64;
        let batches = per_row * y as u64 * z as u64;
        let init = || {
            // (this worker's executor of the last dispatch, when it was of
            // this program in this shape)
            let shape = match pack {
                1 => Shape::Warps(options.warp_width),
                k => Shape::Packed(k),
            };
            let mut exec = GroupExecutor::pooled(program, shape, options.fast_paths);
            exec.set_profiling(profile.is_some());
            exec.set_memory_profiling(options.profile_memory);
            exec.set_message_limit(options.message_limit);
            exec.set_break_at_debug_break(options.break_at_debug_break);
            if options.fast_paths.contains(FastPaths::PRIVATE_ATOMICS) {
                exec.privatize_atomics(bindings);
            }
            Collect {
                exec,
                bindings,
                sum: &sum,
                messages: &messages,
                profile: profile.as_ref().map(|p| WorkerProfile {
                    sum: p,
                    worker: rayon::current_thread_index().unwrap_or(0),
                    busy: Duration::ZERO,
                    spans: Vec::new(),
                    kept: &spans_kept,
                    dropped: 0,
                    trace: options.trace,
                    start,
                    began: Instant::now(),
                }),
                progress,
                unreported: 0,
                step: progress_step(total),
            }
        };
        let one = |c: &mut Collect<'_, '_, '_>, b: u64| {
            let (row, i) = (b / per_row, (b % per_row) as u32);
            let first = group_id(row * x as u64 + (i * pack) as u64, groups);
            let count = pack.min(x - first[0]);
            let r = match &mut c.profile {
                Some(p) if p.trace => {
                    let t0 = Instant::now();
                    let r = c.exec.run_groups_watched(first, count, bindings, watchdog);
                    p.record(first, count, t0, Instant::now());
                    r
                }
                _ => c.exec.run_groups_watched(first, count, bindings, watchdog),
            };
            c.groups_done(count);
            r
        };
        // One executor per worker, made once per dispatch whatever the number
        // of groups (rayon's splits of a range would each make one, and with
        // them their scratch: allocations and page faults that grow with the
        // groups). The workers take batches from a shared counter in chunks
        // that shrink as the work runs out (guided scheduling), so that they
        // finish together.
        let workers = (threads as u64).min(batches).max(1);
        let next = AtomicU64::new(0);
        let work = |_worker: u64| -> Result<(), Runaway> {
            // (made when there is a batch to run)
            let mut c = None;
            let outcome = (|| loop {
                // another worker stopped the dispatch: its error is the one
                // returned, and no more groups start
                if watchdog.stopped() {
                    return Ok(());
                }
                let left = batches.saturating_sub(next.load(Ordering::Relaxed));
                let chunk = (left / (4 * workers)).clamp(1, MAX_CHUNK_BATCHES);
                let first = next.fetch_add(chunk, Ordering::Relaxed);
                if first >= batches {
                    return Ok(());
                }
                let c = c.get_or_insert_with(init);
                for b in first..(first + chunk).min(batches) {
                    one(c, b)?;
                }
            })();
            // also after an error, so that no operation a group made is lost
            if let Some(c) = c {
                c.finish();
            }
            outcome
        };
        let run = || (0..workers).into_par_iter().try_for_each(work);
        let outcome = if batches == 1 {
            // One group runs on the calling thread: handing it to the pool and
            // waiting for it to come back would cost more than many small groups.
            let mut c = init();
            let r = one(&mut c, 0);
            c.finish();
            r
        } else if options.threads == 0 {
            run()
        } else if options.threads == 1 {
            // One worker is the calling thread: dispatches from several
            // threads at once (Python threads, a suite's jobs) each run on
            // their own, where a one-thread pool made them take turns.
            work(0)
        } else {
            pool(options.threads)?.install(run)
        };
        let wall = start.elapsed();
        let messages = messages
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        let messages = finish_messages(program, messages);
        let messages = with_messages(outcome, messages)?;
        let s = sum
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        let profile = profile.map(|p| {
            p.into_inner()
                .unwrap_or_else(|poison| poison.into_inner())
                .finish(program, wall)
        });
        Ok(Dispatched {
            stats: DispatchStats::of(program, &s),
            profile,
            messages,
        })
    }

    /// [`Mode::Scheduled`].
    fn scheduled(&self, schedule: &Schedule) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            watchdog,
        } = *self;
        let _span =
            tracing::debug_span!("dispatch_scheduled", total, seed = schedule.seed).entered();
        let n = program.threads_per_group() as usize;
        let mut sum = ExecStats::default();
        let mut messages = MessageLog::new(options.message_limit);
        // one executor per warp width: a group with a new lane order gets a new one
        let mut fixed_exec: Option<GroupExecutor<'_>> = None;
        let mut outcome = Ok(());
        let mut profile = options.profile.then(ProfileSum::default);
        let start = Instant::now();
        for g in schedule.group_order(total) {
            let gid = group_id(g, groups);
            let plan = schedule.group_plan(g, n, options.warp_width);
            let mut fresh;
            let exec = match &plan.lane_order {
                None => fixed_exec.get_or_insert_with(|| {
                    GroupExecutor::pooled(
                        program,
                        Shape::Warps(plan.warp_width),
                        options.fast_paths,
                    )
                }),
                Some(order) => {
                    fresh = GroupExecutor::with_lane_order(program, plan.warp_width, Some(order))
                        .with_fast_paths(options.fast_paths);
                    &mut fresh
                }
            };
            let before = exec.stats();
            exec.set_message_limit(options.message_limit);
            exec.set_break_at_debug_break(options.break_at_debug_break);
            if profile.is_some() {
                exec.set_profiling(true);
                exec.set_memory_profiling(options.profile_memory);
            }
            let t0 = Instant::now();
            outcome = match plan.interleave {
                None => exec.run_group_watched(gid, bindings, watchdog),
                Some(seed) => exec.run_group_interleaved(gid, bindings, watchdog, seed),
            };
            if let Some(p) = &options.progress {
                p.group_done();
            }
            if let Some(p) = &mut profile {
                let t1 = Instant::now();
                p.add_busy(0, t1 - t0);
                if options.trace && p.spans.len() >= MAX_TRACE_SPANS {
                    p.spans_dropped += 1;
                } else if options.trace {
                    p.spans.push(GroupSpan {
                        group: gid,
                        groups: 1,
                        worker: 0,
                        start: t0 - start,
                        duration: t1 - t0,
                    });
                }
                if let Some(e) = exec.profile() {
                    p.exec.merge(e);
                }
            }
            let s = exec.stats();
            sum.groups += s.groups - before.groups;
            sum.warp_instructions += s.warp_instructions - before.warp_instructions;
            sum.barriers += s.barriers - before.barriers;
            sum.aborted_threads += s.aborted_threads - before.aborted_threads;
            sum.debug_breaks += s.debug_breaks - before.debug_breaks;
            messages.merge(&mut exec.take_messages());
            if outcome.is_err() {
                break;
            }
        }
        let wall = start.elapsed();
        if let Some(e) = fixed_exec {
            e.recycle();
        }
        let messages = with_messages(outcome, finish_messages(program, messages))?;
        Ok(Dispatched {
            stats: DispatchStats::of(program, &sum),
            profile: profile.map(|p| p.finish(program, wall)),
            messages,
        })
    }

    /// [`Mode::Checked`]: the groups one after another in their linear
    /// order. With `FastPaths::CHECK_SCREEN`, in two passes (`sim_core::check`'s
    /// two-pass checking): a screening pass, then, when some word could be
    /// part of a finding or the pass stopped, a second from the memory the
    /// dispatch began with.
    fn checked(&self, checker: &mut Checker) -> Result<Dispatched, DispatchError> {
        let total = self.total;
        let _span = tracing::debug_span!("dispatch_checked", total).entered();
        let (bindings, groups) = (self.bindings, self.groups);
        if !self.options.fast_paths.contains(FastPaths::CHECK_SCREEN) {
            checker.begin_dispatch(bindings, groups);
            let run = self.checked_pass(checker, self.watchdog);
            checker.end_dispatch();
            return run;
        }
        let start = Snapshot::take(bindings);
        checker.begin_screened_dispatch(bindings, groups);
        let first = self.checked_pass(checker, self.watchdog);
        let cancelled = self
            .options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || !checker.end_screening(bindings, groups, first.is_err()) {
            checker.end_dispatch();
            return first;
        }
        start.restore();
        let watchdog = Watchdog::new(
            self.options.max_warp_instructions,
            self.options.timeout,
            self.options.cancel.clone(),
        );
        if let Some(p) = &self.options.progress {
            p.begin_second_pass();
        }
        let run = self.checked_pass(checker, &watchdog);
        checker.end_dispatch();
        run
    }

    /// One pass of [`Run::checked`] over every group, with the checker's
    /// dispatch (or pass) begun, counting each group on the progress.
    fn checked_pass(
        &self,
        checker: &mut Checker,
        watchdog: &Watchdog,
    ) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            ..
        } = *self;
        let mut exec = GroupExecutor::pooled(
            program,
            Shape::Warps(options.warp_width),
            options.fast_paths,
        );
        exec.set_profiling(options.profile);
        exec.set_memory_profiling(options.profile_memory);
        exec.set_checker(Some(Box::new(std::mem::take(checker))));
        exec.set_message_limit(options.message_limit);
        exec.set_break_at_debug_break(options.break_at_debug_break);
        if options.fast_paths.contains(FastPaths::PRIVATE_ATOMICS) {
            exec.privatize_atomics(bindings);
        }
        let start = Instant::now();
        let mut outcome = Ok(());
        for g in 0..total {
            let gid = group_id(g, groups);
            outcome = exec.run_group_watched(gid, bindings, watchdog);
            if let Some(p) = &options.progress {
                p.group_done();
            }
            if outcome.is_err() {
                break;
            }
        }
        // (a stopped pass's memory is as a plain run's stop leaves it)
        exec.flush_atomics(bindings);
        let wall = start.elapsed();
        if let Some(c) = exec.take_checker() {
            *checker = *c;
        }
        let outcome = with_messages(outcome, finish_messages(program, exec.take_messages()));
        let messages = match outcome {
            Ok(m) => m,
            Err(e) => {
                exec.recycle();
                return Err(e.into());
            }
        };
        let profile = exec.profile().map(|e| {
            let mut p = ProfileSum::default();
            p.exec.merge(e);
            p.add_busy(0, wall);
            p.finish(program, wall)
        });
        let stats = DispatchStats::of(program, &exec.stats());
        exec.recycle();
        Ok(Dispatched {
            stats,
            profile,
            messages,
        })
    }
}

/// The words and hidden counters of the UAVs a dispatch binds, as it
/// found them: two-pass checking runs the dispatch again from them.
struct Snapshot<'b> {
    buffers: Vec<(&'b Buffer, Contents)>,
}

impl<'b> Snapshot<'b> {
    fn take(bindings: &Bindings<'b>) -> Self {
        let views = bindings.uavs.iter().flatten().map(|v| v.buffer());
        let textures = bindings
            .uav_textures
            .iter()
            .flatten()
            .map(|t| t.texture().data());
        let mut buffers: Vec<(&'b Buffer, Contents)> = Vec::new();
        for b in views.chain(textures) {
            if !buffers.iter().any(|(x, _)| std::ptr::eq(*x, b)) {
                buffers.push((b, b.contents()));
            }
        }
        Self { buffers }
    }

    fn restore(&self) {
        for (b, contents) in &self.buffers {
            b.restore(contents);
        }
    }
}

/// The most groups a dispatch runs as one warp for `program`
/// ([`GroupExecutor::packed`]): 1 where its groups may not share a warp
/// ([`sim_core::exec::Packing::allowed`]); else as many as give about
/// [`PACKED_LANES`] lanes, within the executor's most and a register file
/// of at most [`PACKED_REGISTER_BYTES`], so that it stays in the L1 cache.
/// (Packing cas_float_add's groups eight to a warp made it 1.9 times
/// faster at one thread.)
pub fn packed_groups_limit(program: &Program) -> u32 {
    let p = packing(program);
    if !p.allowed {
        return 1;
    }
    let n = p.threads_per_group as usize;
    let by_regs = PACKED_REGISTER_BYTES / (4 * p.register_words_per_lane * n);
    let lanes = match p.retry_loops {
        true => PACKED_RETRY_LANES,
        false => PACKED_LANES,
    }
    .min(MAX_PACKED_LANES);
    (lanes / n).min(by_regs).max(1) as u32
}

/// The lanes a packed warp aims at when the program has a compare-exchange
/// retry loop the executor runs at once ([`sim_core::exec::Packing::retry_loops`]):
/// the lanes of a warp that meet on a word share one compare-exchange, so
/// that on cas_float_add (4,000,000 values, 2 threads, medians) 1,024
/// lanes took 10.3 / 14.9 / 18.7 ms at 64 / 128 / 256 slots where 512 took
/// 12.9 / 19.2 / 29.0 ms (and 14.8 ms where 17.8 ms at 32 slots); the other
/// workloads, without such loops, stay at [`PACKED_LANES`] (saxpy took 6%
/// longer at 1,024).
pub const PACKED_RETRY_LANES: usize = 1024;

/// The lanes a packed warp aims at ([`packed_groups_limit`]): on
/// mandelbrot's 8×8 groups, 256 lanes took 0.22 s where 64 took 0.41 s
/// (1 thread, a 2-vCPU Xeon VM); with unblended writes, 512 run it in 12%
/// fewer instructions than 256 (callgrind, 256² pixels: 149.0M → 131.4M;
/// 128 lanes: 181.9M) and 0.091 s where 256 took 0.103 s (1 thread,
/// medians; 2 threads 0.045 s and 0.054 s); 1024 (640 lanes within the
/// register budget) gained nothing more.
pub const PACKED_LANES: usize = 512;

/// The largest register file, in bytes, a packed warp may have.
pub const PACKED_REGISTER_BYTES: usize = 32 << 10;

/// The groups a plain dispatch of `groups` on `threads` workers runs as
/// one warp ([`GroupExecutor::packed`]): [`packed_groups_limit`], at most
/// the groups along x, and halved while that leaves fewer than four
/// batches per worker (so that small dispatches still spread).
pub fn groups_per_batch(program: &Program, groups: [u32; 3], threads: usize) -> u32 {
    batch_groups(packed_groups_limit(program), groups, threads)
}

/// [`groups_per_batch`] for a `limit` of groups per batch.
fn batch_groups(limit: u32, groups: [u32; 3], threads: usize) -> u32 {
    let [x, y, z] = groups;
    let mut k = limit.min(x).max(1);
    let rows = y as u64 * z as u64;
    while k > 1 && x.div_ceil(k) as u64 * rows < 4 * threads as u64 {
        k /= 2;
    }
    k
}

/// Refuse a dispatch D3D would not run; else the number of groups.
fn admit(program: &Program, groups: [u32; 3]) -> Result<u64, DispatchError> {
    let [x, y, z] = groups;
    if groups.iter().any(|&g| g > MAX_GROUPS_PER_DIMENSION) {
        return Err(DispatchError::TooManyGroups { x, y, z });
    }
    if program.version.major == 4 && z > 1 {
        return Err(DispatchError::Cs4Z { x, y, z });
    }
    if let Some(slot) = program.unbound_interface_slot() {
        return Err(DispatchError::UnboundInterface { slot });
    }
    Ok(x as u64 * y as u64 * z as u64)
}

/// The most batches a worker takes from the shared counter at once: the
/// chunks start at a quarter of each worker's share and shrink as the work
/// runs out, within this.
const MAX_CHUNK_BATCHES: u64 = 1024;

/// `SV_GroupID` of linear group `g` of a dispatch of `groups` (x fastest).
fn group_id(g: u64, [x, y, _]: [u32; 3]) -> [u32; 3] {
    let (x, y) = (x as u64, y as u64);
    [(g % x) as u32, ((g / x) % y) as u32, (g / (x * y)) as u32]
}

/// Worker threads allowed per core: more only cost start-up time (100,000
/// threads took 100 s to spawn) and memory for their stacks.
pub const MAX_THREADS_PER_CORE: usize = 16;

/// The most worker threads a dispatch may ask for on a machine with `cores`
/// cores: 16 per core, and never fewer than 64. More are refused with
/// [`DispatchError::TooManyThreads`] before any thread starts.
pub fn max_threads(cores: usize) -> usize {
    (cores.saturating_mul(MAX_THREADS_PER_CORE)).max(64)
}

/// The cores this machine offers (1 when it cannot tell), read once per
/// process (reading it costs microseconds: cgroup files).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The worker pool for `threads` threads, built once per thread count and
/// kept for the process: starting threads costs far more than a small
/// dispatch (the single-group benchmark in `benches/front_end.rs`).
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, DispatchError> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("sm5sim-{threads}-{i}"))
            .build()
            .map_err(|e| DispatchError::Pool {
                threads,
                message: e.to_string(),
            })?,
    );
    pools.insert(threads, p.clone());
    Ok(p)
}

/// A worker's executor, which adds its counters to the dispatch total when
/// the worker is done ([`Collect::finish`]).
struct Collect<'a, 'p, 'b> {
    exec: GroupExecutor<'p>,
    /// the dispatch's bindings, to apply the executor's gathered atomics to
    bindings: &'a Bindings<'b>,
    sum: &'a Mutex<ExecStats>,
    /// the dispatch's records (`sim_core::messages`)
    messages: &'a Mutex<MessageLog>,
    profile: Option<WorkerProfile<'a>>,
    /// the display's progress, with the groups this worker finished and
    /// has not yet counted there, and how many it counts at once
    /// ([`progress_step`])
    progress: Option<&'a Progress>,
    unreported: u64,
    step: u64,
}

/// How many finished groups a worker counts in a dispatch's [`Progress`]
/// at once: a thousandth of the dispatch's `groups` (at least 1), finer
/// than a progress bar shows. Each count is an atomic add on a word all
/// workers share; one per group made the CLI's `run` of cas_float_add
/// (62,500 groups of 64 threads) spend about 8% of its time at 2 threads
/// waiting for that word's cache line (perf); one add per 62 groups
/// there took about 1%.
fn progress_step(groups: u64) -> u64 {
    (groups / 1000).max(1)
}

impl Collect<'_, '_, '_> {
    /// Count `n` more finished groups: in the [`Progress`] once at
    /// least [`Collect::step`] have gathered since the last count there.
    fn groups_done(&mut self, n: u32) {
        if let Some(p) = self.progress {
            self.unreported += u64::from(n);
            if self.unreported >= self.step {
                p.groups_done(self.unreported);
                self.unreported = 0;
            }
        }
    }
}

/// A profiling worker's time inside groups: with `trace`, each batch's span
/// (recorded in `spans` and summed in `busy`); without, the time from
/// `began` (its share of the batches taken, its executor set up) until it
/// stops, so that a plain profile reads the clock twice per share, not per
/// batch (two reads per batch were 5% of cas_float_add's profiled run at
/// 1 thread, 62,500 one-group batches: perf, `__vdso_clock_gettime`).
struct WorkerProfile<'a> {
    sum: &'a Mutex<ProfileSum>,
    worker: usize,
    busy: Duration,
    spans: Vec<GroupSpan>,
    /// spans kept by every worker of the dispatch, against [`MAX_TRACE_SPANS`]
    kept: &'a std::sync::atomic::AtomicUsize,
    /// spans past `span_cap`, not kept
    dropped: u64,
    trace: bool,
    start: Instant,
    began: Instant,
}

impl WorkerProfile<'_> {
    fn record(&mut self, group: [u32; 3], groups: u32, t0: Instant, t1: Instant) {
        self.busy += t1 - t0;
        if !self.trace {
        } else if self.kept.fetch_add(1, Ordering::Relaxed) >= MAX_TRACE_SPANS {
            self.dropped += 1;
        } else {
            self.spans.push(GroupSpan {
                group,
                groups,
                worker: self.worker,
                start: t0 - self.start,
                duration: t1 - t0,
            });
        }
    }
}

impl Collect<'_, '_, '_> {
    /// This worker's share of the groups is done (or stopped): its gathered
    /// atomics go to the buffers, its counters and profile to the
    /// dispatch's, and its executor is parked for the next dispatch
    /// ([`GroupExecutor::recycle`]).
    fn finish(mut self) {
        if let Some(p) = self.profile.as_mut().filter(|p| !p.trace) {
            p.busy += p.began.elapsed();
        }
        self.exec.flush_atomics(self.bindings);
        if let (Some(p), n @ 1..) = (self.progress, self.unreported) {
            p.groups_done(n);
        }
        if let Some(p) = &mut self.profile {
            let mut sum = p.sum.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = self.exec.profile() {
                sum.exec.merge(e);
            }
            sum.add_busy(p.worker, p.busy);
            sum.spans.append(&mut p.spans);
            sum.spans_dropped += p.dropped;
        }
        let s = self.exec.stats();
        let mut total = self.sum.lock().unwrap_or_else(|p| p.into_inner());
        total.groups += s.groups;
        total.warp_instructions += s.warp_instructions;
        total.barriers += s.barriers;
        total.aborted_threads += s.aborted_threads;
        total.debug_breaks += s.debug_breaks;
        drop(total);
        let mut mine = self.exec.take_messages();
        if !mine.is_empty() {
            let mut all = self.messages.lock().unwrap_or_else(|p| p.into_inner());
            all.merge(&mut mine);
        }
        self.exec.recycle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        let decoded =
            sim_core::front::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    /// Each thread adds 1 to bin `SV_DispatchThreadID.x & 7` of u0 (a UAV
    /// only atomics change: its atomics are gathered per executor).
    const BINS8: &str = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
        dcl_thread_group 64, 1, 1\nand r0.x, vThreadID.x, l(7)\nishl r0.x, r0.x, l(2)\n\
        atomic_iadd u0, r0.x, l(1)\nret\n";

    /// Each thread counts to 10 in a loop and stores the count.
    const COUNT10: &str = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 2\n\
        dcl_thread_group 64, 1, 1\nmov r0.x, l(0)\nloop\nuge r0.y, r0.x, l(10)\n\
        breakc_nz r0.y\niadd r0.x, r0.x, l(1)\nendloop\nishl r1.x, vThreadID.x, l(2)\n\
        store_raw u0.x, r1.x, r0.x\nret\n";

    fn bins(p: &Program, words: usize, groups: u32, options: &DispatchOptions) -> Vec<u32> {
        let out = sim_mem::Buffer::zeroed(4 * words).unwrap();
        let b = Bindings {
            uavs: vec![Some(sim_mem::BufferView::raw(&out))],
            ..Default::default()
        };
        dispatch(p, &b, [groups, 1, 1], options).unwrap();
        out.to_words()
    }

    /// A dispatch takes up the executors the last one of its program parked
    /// (issue 30) and computes what new ones compute: gathered atomics start
    /// from nothing (also into a buffer of another size), a profile from
    /// zero, and an executor the watchdog stopped mid-group is not parked.
    #[test]
    fn parked_executors_run_the_next_dispatch_as_new_ones() {
        let p = program(BINS8);
        let one = DispatchOptions {
            threads: 1,
            ..Default::default()
        };
        // one group runs on this thread, so its executor is parked here
        let parked = sim_core::exec::parked_on_this_thread();
        assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
        let after = sim_core::exec::parked_on_this_thread();
        assert_eq!(
            after,
            (parked + 1).min(sim_core::exec::MAX_PARKED_PER_THREAD)
        );
        for _ in 0..3 {
            assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
            // taken up and parked again, not one more
            assert_eq!(sim_core::exec::parked_on_this_thread(), after);
        }
        let mut sixteen = vec![8; 8];
        sixteen.extend([0; 8]);
        assert_eq!(bins(&p, 16, 1, &one), sixteen);
        assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
        for threads in [1, 2] {
            let o = DispatchOptions {
                threads,
                ..Default::default()
            };
            for _ in 0..3 {
                assert_eq!(bins(&p, 8, 1000, &o), vec![8000; 8], "{threads} threads");
            }
        }

        // the same counts in each profile
        let profiled = DispatchOptions {
            profile: true,
            ..one.clone()
        };
        let out = sim_mem::Buffer::zeroed(4 * 8).unwrap();
        let b = Bindings {
            uavs: vec![Some(sim_mem::BufferView::raw(&out))],
            ..Default::default()
        };
        let counts = |b: &Bindings<'_>| {
            let d = dispatch_with(&p, b, [4, 1, 1], &profiled, Mode::Parallel).unwrap();
            (d.stats, d.profile.expect("profiled").exec.lanes_by_pc)
        };
        let first = counts(&b);
        assert_eq!(first.1.iter().sum::<u64>(), 4 * 64 * 4);
        assert_eq!(first.0.groups, 4);
        assert_eq!(counts(&b), first);
        assert_eq!(counts(&b), first);

        // a dispatch the watchdog stops mid-group, then whole ones
        let q = program(COUNT10);
        let out = sim_mem::Buffer::zeroed(4 * 64).unwrap();
        let b = Bindings {
            uavs: vec![Some(sim_mem::BufferView::raw(&out))],
            ..Default::default()
        };
        let budget = DispatchOptions {
            max_warp_instructions: 5,
            ..one.clone()
        };
        assert!(dispatch(&q, &b, [1, 1, 1], &budget).is_err());
        for _ in 0..2 {
            out.write_words(0, &[0; 64]).unwrap();
            dispatch(&q, &b, [1, 1, 1], &one).unwrap();
            assert_eq!(out.to_words(), vec![10; 64]);
        }
    }

    /// Every mode goes through the one setup: D3D's limits, an empty
    /// dispatch, the watchdog, the progress and the profile are the same
    /// in each.
    #[test]
    fn every_mode_shares_the_limits_the_watchdog_and_the_profile() {
        let p = program(
            "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
             dcl_thread_group 4, 1, 1\nishl r0.x, vThreadID.x, l(2)\n\
             store_raw u0.x, r0.x, vThreadID.x\nret\n",
        );
        let out = sim_mem::Buffer::zeroed(4 * 64).unwrap();
        let b = Bindings {
            uavs: vec![Some(sim_mem::BufferView::raw(&out))],
            ..Default::default()
        };
        let schedule = Schedule::seeded(7);
        let mut checker = Checker::new(&p, Default::default());
        fn mode<'a>(k: usize, s: &'a Schedule, c: &'a mut Checker) -> Mode<'a> {
            match k {
                0 => Mode::Parallel,
                1 => Mode::Scheduled(s),
                _ => Mode::Checked(c),
            }
        }
        for k in 0..3 {
            let plain = DispatchOptions {
                threads: 1,
                ..Default::default()
            };
            let too_many = dispatch_with(
                &p,
                &b,
                [65536, 1, 1],
                &plain,
                mode(k, &schedule, &mut checker),
            );
            assert!(
                matches!(too_many, Err(DispatchError::TooManyGroups { .. })),
                "mode {k}: {too_many:?}"
            );
            let empty =
                dispatch_with(&p, &b, [0, 4, 1], &plain, mode(k, &schedule, &mut checker)).unwrap();
            assert_eq!(empty.stats, DispatchStats::default(), "mode {k}");
            let progress = Arc::new(Progress::default());
            let profiled = DispatchOptions {
                profile: true,
                progress: Some(progress.clone()),
                ..plain.clone()
            };
            out.write_words(0, &[0; 64]).unwrap();
            let d = dispatch_with(
                &p,
                &b,
                [16, 1, 1],
                &profiled,
                mode(k, &schedule, &mut checker),
            )
            .unwrap();
            assert_eq!(d.stats.threads, 64, "mode {k}");
            assert_eq!(out.to_words(), (0..64).collect::<Vec<u32>>(), "mode {k}");
            assert_eq!(progress.snapshot().done, 16, "mode {k}");
            let prof = d.profile.expect("profiled");
            // three instructions a thread, every mode
            assert_eq!(prof.exec.active_lanes, 3 * 64, "mode {k}");
            let budget = DispatchOptions {
                max_warp_instructions: 5,
                ..plain.clone()
            };
            let stopped = dispatch_with(
                &p,
                &b,
                [16, 1, 1],
                &budget,
                mode(k, &schedule, &mut checker),
            );
            assert!(
                matches!(stopped, Err(DispatchError::Runaway(_))),
                "mode {k}: {stopped:?}"
            );
        }
    }

    /// The packing policy: groups that could observe one another are never
    /// packed; others to about PACKED_LANES lanes, within the register
    /// budget and the executor's most.
    #[test]
    fn packing_aims_at_packed_lanes_within_the_register_budget() {
        let head = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n";
        let body = "store_raw u0.x, l(0), vThreadIDInGroupFlattened.x\nret\n";
        let limit = |temps: u32, group: [u32; 3], extra: &str| {
            packed_groups_limit(&program(&format!(
                "{head}dcl_temps {temps}\ndcl_thread_group {}, {}, {}\n{extra}{body}",
                group[0], group[1], group[2]
            )))
        };
        assert_eq!(limit(1, [8, 8, 1], ""), (PACKED_LANES / 64) as u32);
        assert_eq!(limit(1, [8, 8, 1], "dcl_tgsm_raw g0, 16\n"), 1);
        assert_eq!(limit(1, [8, 8, 1], "sync_uglobal_t\n"), 1);
        assert_eq!(
            limit(1, [8, 8, 1], "sync_uglobal\n"),
            (PACKED_LANES / 64) as u32
        );
        // 64 temps: 1 KiB a lane, 32 lanes' worth, under one group
        assert_eq!(limit(64, [8, 8, 1], ""), 1);
        // 16 temps: 256 bytes a lane, 128 lanes: two groups of 64
        assert_eq!(limit(16, [8, 8, 1], ""), 2);
        assert_eq!(limit(1, [512, 1, 1], ""), 1);
        assert_eq!(limit(1, [1, 1, 1], ""), PACKED_LANES as u32);
        // a compare-exchange retry loop run at once: more lanes to a warp
        let retry = "mov r0.x, l(0)\nloop\niadd r0.y, r0.x, l(1)\n\
            imm_atomic_cmp_exch r0.z, u0, l(0), r0.x, r0.y\nieq r0.w, r0.z, r0.x\n\
            if_nz r0.w\nbreak\nendif\nmov r0.x, r0.z\nendloop\n";
        assert!(
            packing(&program(&format!(
                "{head}dcl_temps 1\ndcl_thread_group 8, 8, 1\n{retry}{body}"
            )))
            .retry_loops
        );
        assert_eq!(limit(1, [8, 8, 1], retry), (PACKED_RETRY_LANES / 64) as u32);
        const { assert!(PACKED_RETRY_LANES > PACKED_LANES) };
    }

    fn is_permutation(v: &[u64], n: u64) -> bool {
        let mut s = v.to_vec();
        s.sort_unstable();
        s == (0..n).collect::<Vec<_>>()
    }

    #[test]
    fn seeded_schedules_draw_permutations_and_widths() {
        let mut widths = std::collections::BTreeSet::new();
        let mut orders = std::collections::BTreeSet::new();
        for i in 0..64 {
            let s = Schedule::seeded(Schedule::derive_seed(7, i));
            let order = s.group_order(37);
            assert!(is_permutation(&order, 37));
            assert_eq!(order, s.group_order(37), "replays");
            orders.insert(order);
            for g in 0..4 {
                let p = s.group_plan(g, 48, 32);
                assert_eq!(p, s.group_plan(g, 48, 32), "replays");
                assert!([1, 2, 4, 8, 16, 32, 48].contains(&p.warp_width));
                widths.insert(p.warp_width);
                let lanes: Vec<u64> = p.lane_order.unwrap().iter().map(|&t| t as u64).collect();
                assert!(is_permutation(&lanes, 48));
                assert!(p.interleave.is_some());
            }
        }
        assert_eq!(widths.len(), 7, "{widths:?}");
        assert!(orders.len() > 60);
        // widths are clamped to the group size
        for i in 0..32 {
            let p = Schedule::seeded(i).group_plan(0, 3, 32);
            assert!((1..=3).contains(&p.warp_width));
        }
    }

    #[test]
    fn the_fixed_schedule_is_linear_and_identity() {
        let s = Schedule::fixed();
        assert!(s.is_fixed());
        assert_eq!(s.group_order(5), vec![0, 1, 2, 3, 4]);
        let p = s.group_plan(3, 256, 32);
        assert_eq!(
            p,
            GroupPlan {
                warp_width: 32,
                lane_order: None,
                interleave: None
            }
        );
        assert_eq!(s.group_plan(0, 8, 32).warp_width, 8);
    }

    #[test]
    fn derived_seeds_are_splitmix64_outputs() {
        let mut st = 42u64;
        let a = splitmix64(&mut st);
        let b = splitmix64(&mut st);
        assert_eq!(Schedule::derive_seed(42, 0), a);
        assert_eq!(Schedule::derive_seed(42, 1), b);
    }
}
