//! The executor's fast paths: [`FastPaths`], declared once by
//! `fast_paths!`, and the code that only they run: the planner (`plan`), row
//! kernels (`rows`) and compare-exchange loops run at once (`cas`). Their
//! register is `exec/README.md`.

/// The executor's fast paths, each one switchable: a set of option bits.
/// Every fast path computes what the reference path (the lockstep
/// interpreter, [`FastPaths::NONE`]) computes — the same memory, registers
/// and counts — only sooner; `tests/it/differential.rs` holds each to that.
/// The register of what each recognises, its precondition and why it is
/// equivalent is `sim-core/src/exec/README.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FastPaths(u32);

/// Declares the fast paths once: each one's bit (in order, from 0), its
/// name and its documentation; [`FastPaths::EACH`] and [`FastPaths::ALL`]
/// follow from the list (a new fast path is one line here, its planner
/// rule, its op and its handler: `exec/README.md`).
macro_rules! fast_paths {
    ($($(#[doc = $doc:literal])* $name:ident = $text:literal;)*) => {
        impl FastPaths {
            fast_paths!(@bits 0u32; $($(#[doc = $doc])* $name)*);
            /// Every fast path, each with its name (for messages and the harness).
            pub const EACH: [(Self, &'static str); [$($text),*].len()] = [$((Self::$name, $text)),*];
            /// All of them (the default).
            pub const ALL: Self = Self((1 << Self::EACH.len()) - 1);
        }
    };
    (@bits $n:expr; $(#[doc = $doc:literal])* $name:ident $($rest:tt)*) => {
        $(#[doc = $doc])*
        pub const $name: Self = Self(1 << $n);
        fast_paths!(@bits $n + 1; $($rest)*);
    };
    (@bits $n:expr;) => {};
}

fast_paths! {
    /// Component-wise ALU instructions on pre-resolved register rows, with
    /// per-ISA lane kernels (sources known flushed folded in).
    ROW_ALU = "row_alu";
    /// `if_z/if_nz` + `break`/`continue`/`ret` + `endif` run as one step.
    FUSED_LEAVE = "fused_leave";
    /// A compare-exchange retry loop (`crate::analysis::cas_loop`) run to its end at
    /// once, lane by lane in lane order, as lockstep would settle it.
    CAS_LOOP = "cas_loop";
    /// A condition the analysis knows is the same in every lane
    /// (`crate::analysis::affine`) is read from the first active lane only.
    UNIFORM_IF = "uniform_if";
    /// Loads and stores whose addresses step by a known stride per lane
    /// (`crate::analysis::affine`) move whole lines (SSE2 quads where the words are
    /// consecutive) instead of one word per lane.
    MEMORY_LINES = "memory_lines";
    /// An `endloop` of a loop without `continue` skips reviving lanes
    /// (`crate::analysis::liveness::loop_continues`).
    LOOP_WITHOUT_CONTINUE = "loop_without_continue";
    /// `udiv` by one divisor in every lane: a multiplication per lane.
    UDIV_BY_ONE = "udiv_by_one";
    /// Small groups that cannot observe one another run several to a warp
    /// ([`GroupExecutor::packed`](crate::exec::GroupExecutor::packed); the dispatcher's choice).
    PACKED_GROUPS = "packed_groups";
    /// Atomics on a small UAV that the program only updates with one kind
    /// of atomic are gathered per worker and applied when its groups end
    /// ([`GroupExecutor::privatize_atomics`](crate::exec::GroupExecutor::privatize_atomics); the dispatcher's choice).
    PRIVATE_ATOMICS = "private_atomics";
    /// A row kernel on flushed sources leaves a NaN result with the CPU's
    /// payload instead of the canonical NaN where no instruction observes
    /// the payload (`crate::analysis::payload`: it feeds float arithmetic
    /// and comparisons only, through moves).
    LAZY_NAN = "lazy_nan";
    /// A checked dispatch runs a screening pass with a few bytes of shadow
    /// per word, and checks exactly, in a second pass from the same
    /// memory, only the words that could be part of a finding
    /// (`crate::check` two-pass checking; the dispatcher's choice).
    CHECK_SCREEN = "check_screen";
    /// Runs of row ALU instructions compiled to machine code (Cranelift,
    /// cargo feature `jit`) once they are hot, keeping rows in registers
    /// from one instruction to the next (`fast::compiled`).
    COMPILED = "compiled";
    /// A barrier of a group that runs as one warp completes where the warp
    /// stands, inside the interpreter loop (the warp is the last of its
    /// group to arrive), instead of a barrier round of the group's loop.
    LONE_BARRIER = "lone_barrier";
}

impl FastPaths {
    /// None: the reference path.
    pub const NONE: Self = Self(0);

    /// Whether every path of `other` is on.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// These, less `other`.
    pub const fn without(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// These and `other`.
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl Default for FastPaths {
    fn default() -> Self {
        Self::ALL
    }
}

pub(super) mod cas;
pub(crate) mod compiled;
pub(super) mod plan;
pub(super) mod rows;
