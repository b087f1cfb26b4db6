//! What a dispatch gives back: its counters ([`DispatchStats`]), its
//! profile ([`DispatchProfile`]), its messages, or why it stopped
//! ([`DispatchError`]).

use sim_core::exec::{ExecStats, Profile, Runaway};
use sim_core::messages::{MessageLog, Messages};
use sim_core::Program;
use std::time::Duration;

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
    /// More worker threads than [`max_threads`](crate::max_threads) allows on this machine.
    #[error(
        "{threads} worker threads: at most {max} on this machine ({cores} cores; 0 = one per core)"
    )]
    TooManyThreads {
        /// threads asked for
        threads: usize,
        /// the cap, [`max_threads`](crate::max_threads)
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
    /// Time spent compiling regions of the compiled tier
    /// (`FastPaths::COMPILED`) during the dispatch, summed over its
    /// workers: zero when every region it ran hot was compiled by an
    /// earlier dispatch of the program (its code is kept with the program).
    pub compile_time: Duration,
}

impl DispatchStats {
    /// The stats of a dispatch of `program` whose executors counted `s`
    /// and spent `compile_time` compiling.
    pub(crate) fn of(program: &Program, s: &ExecStats, compile_time: Duration) -> Self {
        Self {
            groups: s.groups,
            threads: s.groups * program.threads_per_group() as u64,
            warp_instructions: s.warp_instructions,
            barriers: s.barriers,
            aborted_threads: s.aborted_threads,
            debug_breaks: s.debug_breaks,
            compile_time,
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
    /// [`DispatchOptions::warp_width`](crate::DispatchOptions::warp_width)).
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
pub(crate) struct ProfileSum {
    pub(crate) exec: Profile,
    pub(crate) busy: Vec<Duration>,
    pub(crate) spans: Vec<GroupSpan>,
    pub(crate) spans_dropped: u64,
}

impl ProfileSum {
    pub(crate) fn add_busy(&mut self, worker: usize, d: Duration) {
        if self.busy.len() <= worker {
            self.busy.resize(worker + 1, Duration::ZERO);
        }
        self.busy[worker] += d;
    }

    pub(crate) fn finish(self, program: &Program, wall: Duration) -> DispatchProfile {
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
    /// first [`DispatchOptions::message_limit`](crate::DispatchOptions::message_limit) of them in order.
    pub messages: Messages,
}

/// `messages` when the dispatch ran to its end, else its stop with
/// `messages` attached ([`Runaway::messages`]: what the shader said before).
pub(crate) fn with_messages(
    outcome: Result<(), Runaway>,
    messages: Messages,
) -> Result<Messages, Runaway> {
    match outcome {
        Ok(()) => Ok(messages),
        Err(mut r) => {
            r.messages = Box::new(messages);
            Err(r)
        }
    }
}

/// The dispatch's records, formatted for `program`.
pub(crate) fn finish_messages(program: &Program, log: MessageLog) -> Messages {
    program.messages_of(log)
}
