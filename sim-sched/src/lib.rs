//! Dispatch: `Dispatch(x, y, z)` runs x·y·z thread groups of a [`Program`] on
//! a rayon pool, one group per task, each group on one worker thread from
//! start to end (`../shared/DESIGN.md`, "the executor").
//!
//! Executors are reused: each rayon task split gets one [`GroupExecutor`]
//! (`for_each_init`), so registers, masks and the TGSM arena are allocated a
//! handful of times per dispatch, not once per group.
//!
//! Visibility: the dispatch returns only after every group has finished
//! (rayon's join is a full happens-before edge), so every write of the
//! dispatch is visible to the caller and to the next dispatch
//! (`reference/compute-model.md` §1, "Completion").
//!
//! Checking ([`dispatch_checked`]): the groups run one after another on the
//! calling thread, in linear order (x fastest), with one executor carrying a
//! [`Checker`]; the checker's shadow state therefore needs no
//! synchronisation and its findings are deterministic.

use rayon::prelude::*;
use sim_core::check::Checker;
use sim_core::exec::{ExecStats, GroupExecutor};
use sim_core::exec::{Runaway, Watchdog};
use sim_core::Program;
use sim_mem::Bindings;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The most thread groups per dimension (`D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION`, FS §18.6.2).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65535;

/// How to run a dispatch.
#[derive(Debug, Clone)]
pub struct DispatchOptions {
    /// Worker threads; 0 = every core (rayon's default).
    pub threads: usize,
    /// Lanes per warp (clamped to 1..=threads per group). Default 32.
    pub warp_width: usize,
    /// Watchdog: the most warp-instructions the dispatch may execute (summed
    /// over all groups, counted in steps of 4096). Default: no limit.
    pub max_warp_instructions: u64,
    /// Watchdog: wall-clock limit of the dispatch. Default: 60 s.
    pub timeout: Option<Duration>,
    /// Cancels the dispatch promptly once set (e.g. from a Ctrl-C handler).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for DispatchOptions {
    fn default() -> Self {
        Self {
            threads: 0,
            warp_width: 32,
            max_warp_instructions: u64::MAX,
            timeout: Some(Duration::from_secs(60)),
            cancel: None,
        }
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

/// Run `Dispatch(groups[0], groups[1], groups[2])`.
///
/// A zero in any dimension runs nothing and is not an error (FS §18.6.2).
///
/// # Errors
/// [`DispatchError`] when the group counts break D3D's limits or the worker
/// pool cannot start; nothing has run then.
pub fn dispatch(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
) -> Result<DispatchStats, DispatchError> {
    let [x, y, z] = groups;
    let total = admit(program, groups)?;
    if total == 0 {
        return Ok(DispatchStats::default());
    }
    let _span = tracing::debug_span!("dispatch", x, y, z, total).entered();
    let sum = Mutex::new(ExecStats::default());
    let watchdog = Watchdog::new(
        options.max_warp_instructions,
        options.timeout,
        options.cancel.clone(),
    );
    let run = || {
        (0..total).into_par_iter().try_for_each_init(
            || Collect {
                exec: GroupExecutor::new(program, options.warp_width),
                sum: &sum,
            },
            |c, g| {
                let gid = [
                    (g % x as u64) as u32,
                    ((g / x as u64) % y as u64) as u32,
                    (g / (x as u64 * y as u64)) as u32,
                ];
                c.exec.run_group_watched(gid, bindings, &watchdog)
            },
        )
    };
    let outcome = if options.threads == 0 {
        run()
    } else {
        pool(options.threads)?.install(run)
    };
    outcome?;
    let s = sum
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    Ok(DispatchStats {
        groups: s.groups,
        threads: s.groups * program.threads_per_group() as u64,
        warp_instructions: s.warp_instructions,
        barriers: s.barriers,
        aborted_threads: s.aborted_threads,
        debug_breaks: s.debug_breaks,
    })
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

/// Run `Dispatch(groups[0], groups[1], groups[2])` under the concurrency
/// checker: the groups run one after another on the calling thread, in
/// linear order (x fastest; `options.threads` is ignored), with `checker`
/// attached to the executor. Findings accumulate in `checker` (see
/// [`sim_core::check`] for the rules); the memory effects are those of a
/// plain run with one worker.
///
/// `checker` must have been made for `program`
/// ([`Checker::new`]).
///
/// # Errors
/// As [`dispatch`]; a dispatch the watchdog stops keeps the findings made
/// until then.
pub fn dispatch_checked(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
    checker: &mut Checker,
) -> Result<DispatchStats, DispatchError> {
    let [x, y, _] = groups;
    let total = admit(program, groups)?;
    if total == 0 {
        return Ok(DispatchStats::default());
    }
    let _span = tracing::debug_span!("dispatch_checked", total).entered();
    let watchdog = Watchdog::new(
        options.max_warp_instructions,
        options.timeout,
        options.cancel.clone(),
    );
    let mut exec = GroupExecutor::new(program, options.warp_width);
    checker.begin_dispatch(bindings, groups);
    exec.set_checker(Some(Box::new(std::mem::take(checker))));
    let mut outcome = Ok(());
    for g in 0..total {
        let gid = [
            (g % x as u64) as u32,
            ((g / x as u64) % y as u64) as u32,
            (g / (x as u64 * y as u64)) as u32,
        ];
        outcome = exec.run_group_watched(gid, bindings, &watchdog);
        if outcome.is_err() {
            break;
        }
    }
    if let Some(c) = exec.take_checker() {
        *checker = *c;
    }
    checker.end_dispatch();
    outcome?;
    let s = exec.stats();
    Ok(DispatchStats {
        groups: s.groups,
        threads: s.groups * program.threads_per_group() as u64,
        warp_instructions: s.warp_instructions,
        barriers: s.barriers,
        aborted_threads: s.aborted_threads,
        debug_breaks: s.debug_breaks,
    })
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

/// A worker's executor, which adds its counters to the dispatch total when dropped.
struct Collect<'a, 'p> {
    exec: GroupExecutor<'p>,
    sum: &'a Mutex<ExecStats>,
}

impl Drop for Collect<'_, '_> {
    fn drop(&mut self) {
        let s = self.exec.stats();
        let mut total = self.sum.lock().unwrap_or_else(|p| p.into_inner());
        total.groups += s.groups;
        total.warp_instructions += s.warp_instructions;
        total.barriers += s.barriers;
        total.aborted_threads += s.aborted_threads;
        total.debug_breaks += s.debug_breaks;
    }
}
