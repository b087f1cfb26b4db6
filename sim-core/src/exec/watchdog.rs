//! The watchdog: the limits one dispatch runs under (an instruction
//! budget, a wall-clock timeout, a cancellation token), shared by all its
//! executors, and what a stopped dispatch reports ([`Runaway`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why the watchdog stopped a dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The dispatch executed more warp-instructions than its budget.
    InstructionBudget(u64),
    /// The dispatch ran past its wall-clock limit.
    Timeout(Duration),
    /// The caller cancelled it (e.g. Ctrl-C).
    Cancelled,
    /// The concurrency checker found a thread spinning on memory that no
    /// running thread changes (`forward-progress`,
    /// [`crate::check::SPIN_WINDOW`]): the dispatch would hang.
    NoProgress,
    /// A thread executed `debug_break` and the dispatch was asked to stop
    /// there (`GroupExecutor::set_break_at_debug_break`, `run --break`).
    DebugBreak,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::InstructionBudget(n) => {
                write!(f, "executed more than {n} warp-instructions")
            }
            StopReason::Timeout(d) => write!(f, "ran longer than {:.3} s", d.as_secs_f64()),
            StopReason::Cancelled => write!(f, "cancelled"),
            StopReason::DebugBreak => write!(f, "stopped at a debug_break (--break)"),
            StopReason::NoProgress => write!(
                f,
                "stopped by the checker: a thread spins on memory that no running thread changes (forward-progress)"
            ),
        }
    }
}

/// Where the watchdog stopped a runaway dispatch, like a GPU's timeout
/// detection: the group, the first active lane of the warp, and the
/// instruction it was about to execute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dispatch stopped: {reason}; group ({}, {}, {}), lane {lane} (SV_GroupIndex), at {mnemonic} (dword {token}{})", group[0], group[1], group[2], .hlsl.as_deref().map(|h| format!(", {h}")).unwrap_or_default())]
pub struct Runaway {
    /// Why it stopped.
    pub reason: StopReason,
    /// `SV_GroupID` of the group that was running.
    pub group: [u32; 3],
    /// `SV_GroupIndex` of the warp's first active lane.
    pub lane: u32,
    /// Mnemonic of the instruction about to run.
    pub mnemonic: String,
    /// Its dword offset in the token stream.
    pub token: u32,
    /// The HLSL file and line it comes from (`mandelbrot.hlsl:15`), when the
    /// program carries fxc's debug information (`Program::source_map`).
    pub hlsl: Option<String>,
    /// What the shader said before the stop (`crate::messages`; the
    /// dispatcher fills it in: empty from an executor).
    pub messages: Box<crate::messages::Messages>,
}

impl Runaway {
    /// The [`Runaway`] of thread `lane` (`SV_GroupIndex`) of `group`,
    /// stopped before the instruction at dword `token` of `program`: its
    /// mnemonic ("?" if no instruction starts there) and, with debug
    /// information, its HLSL line.
    pub(crate) fn at(
        program: &crate::program::Program,
        reason: StopReason,
        group: [u32; 3],
        lane: u32,
        token: u32,
    ) -> Self {
        let mnemonic = program
            .decoded
            .instructions
            .iter()
            .find(|i| i.offset == token)
            .map_or_else(|| "?".to_string(), crate::front::disasm::mnemonic);
        let hlsl = program
            .source_map
            .as_ref()
            .and_then(|m| Some(m.describe(m.line_at(token)?)));
        Runaway {
            reason,
            group,
            lane,
            mnemonic,
            token,
            hlsl,
            messages: Box::default(),
        }
    }

    /// The [`Runaway`] of a dispatch stopped before any of its groups
    /// ran (a [`Watchdog::stopped_at_start`] reason): group (0, 0, 0),
    /// lane 0, at the program's first instruction, which nothing executed.
    pub fn at_start(program: &crate::program::Program, reason: StopReason) -> Self {
        let token = program.decoded.instructions.first().map_or(0, |i| i.offset);
        Self::at(program, reason, [0; 3], 0, token)
    }
}

/// The limits one dispatch runs under, shared by all its executors.
#[derive(Debug)]
pub struct Watchdog {
    pub(super) max_warp_instructions: u64,
    pub(super) deadline: Option<(Instant, Duration)>,
    pub(super) cancel: Option<Arc<AtomicBool>>,
    pub(super) executed: AtomicU64,
    pub(super) stop: AtomicBool,
    /// warp-instructions between two looks ([`Watchdog::interval`])
    pub(super) interval: u32,
    /// this watchdog among the process's (from 1), so that an executor
    /// knows a count it holds belongs to another
    pub(super) id: u64,
    /// why the dispatch stopped, as the first executor to stop it saw it
    pub(super) first: std::sync::OnceLock<StopReason>,
}

/// Warp-instructions an executor runs between two looks at the watchdog.
pub(super) const WATCHDOG_INTERVAL: u32 = 4096;

/// The next [`Watchdog::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Instruction budgets up to this many warp-instructions are counted one
/// by one, so that a dispatch stops before the instruction that would pass
/// the budget (a look per instruction costs an atomic add; at most this many).
pub const EXACT_BUDGET: u64 = 1 << 20;

impl Watchdog {
    /// A watchdog allowing `max_warp_instructions` in total (u64::MAX: no
    /// budget) and `timeout` of wall time from now (None: none; a timeout
    /// past what the clock can represent is none too), stopping early once
    /// `cancel` becomes true.
    pub fn new(
        max_warp_instructions: u64,
        timeout: Option<Duration>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Self {
        Self {
            max_warp_instructions,
            deadline: timeout.and_then(|t| Some((Instant::now().checked_add(t)?, t))),
            cancel,
            executed: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            first: std::sync::OnceLock::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            interval: if max_warp_instructions <= EXACT_BUDGET {
                1
            } else {
                WATCHDOG_INTERVAL
            },
        }
    }

    /// No limits.
    pub fn unlimited() -> Self {
        Self::new(u64::MAX, None, None)
    }

    /// Why a dispatch must not start at all: its cancellation token is
    /// already set. Executors look at the watchdog only every
    /// [`Watchdog::interval`] warp-instructions, so without this look a
    /// dispatch shorter than that would run to its end under a set token.
    pub fn stopped_at_start(&self) -> Option<StopReason> {
        self.cancelled().then(|| {
            let first = *self.first.get_or_init(|| StopReason::Cancelled);
            self.stop.store(true, Ordering::Release);
            first
        })
    }

    /// Whether the caller's cancellation token is set.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Account for `n` more warp-instructions; `Some` when the dispatch must stop.
    pub(super) fn check(&self, n: u64) -> Option<StopReason> {
        let total = self.executed.fetch_add(n, Ordering::Relaxed) + n;
        let reason = if self.stop.load(Ordering::Acquire) {
            // another executor stopped the dispatch: its reason (the
            // timeout, say), not "cancelled", whichever error is reported
            return Some(self.first.get().copied().unwrap_or(StopReason::Cancelled));
        } else if total > self.max_warp_instructions {
            Some(StopReason::InstructionBudget(self.max_warp_instructions))
        } else if self.cancelled() {
            Some(StopReason::Cancelled)
        } else {
            match self.deadline {
                Some((at, limit)) if Instant::now() > at => Some(StopReason::Timeout(limit)),
                _ => None,
            }
        };
        if let Some(r) = reason {
            let first = *self.first.get_or_init(|| r);
            self.stop.store(true, Ordering::Release);
            return Some(first);
        }
        None
    }

    /// Warp-instructions between two looks: 1 for a budget up to
    /// [`EXACT_BUDGET`], else [`WATCHDOG_INTERVAL`].
    pub(super) fn interval(&self) -> u32 {
        self.interval
    }

    /// Whether the dispatch has an instruction budget (then every count is
    /// handed in by the end of each batch, so a dispatch that executes more
    /// than its budget never ends as a success).
    pub(super) fn budgeted(&self) -> bool {
        self.max_warp_instructions != u64::MAX
    }

    /// This watchdog's number, unique in the process.
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Warp-instructions the budget still allows (u64::MAX: no budget).
    pub(super) fn left(&self) -> u64 {
        self.max_warp_instructions
            .saturating_sub(self.executed.load(Ordering::Relaxed))
    }

    /// Stop the dispatch for `reason` (an executor's own stop, such as a
    /// `debug_break` under `set_break_at_debug_break`): the other workers
    /// see it at their next look and start no more groups. Returns the
    /// dispatch's reason (the first stop's).
    pub(super) fn stop_for(&self, reason: StopReason) -> StopReason {
        let first = *self.first.get_or_init(|| reason);
        self.stop.store(true, Ordering::Release);
        first
    }

    /// Whether some executor has already stopped the dispatch.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
