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
//! - Checking (`sm5sim check`): an executor may carry a
//!   [`crate::check::Checker`]; memory instructions, `sync`s and barrier
//!   releases then report to it. Without one, each memory instruction tests
//!   `Option::is_some` once (not per lane), and nothing else changes.
//!
//! Arithmetic follows `reference/sm5-compute-isa.md` and the float rules of
//! `reference/compute-model.md` §8: denormals flushed on float inputs and
//! outputs; `mad` and `dp*` are evaluated unfused, rounding after every
//! multiply and add, in component order (x, y, z, w) — a GPU that fuses may
//! differ by 1 ULP per multiply-add.

// Lane loops index several structure-of-arrays slices with one lane number;
// iterator zips of four or five slices would obscure them.
#![allow(clippy::needless_range_loop)]

#[cfg(test)]
use crate::analysis::affine::address_steps;
use crate::analysis::affine::PcFacts;
use crate::analysis::cas_loop::{CasLoop, Val};
use crate::analysis::fusion::Leave;
#[cfg(test)]
use crate::analysis::fusion::{fused_leaves, thread_id_comps};
use crate::check::{Checker, MemOp};
use crate::exec::alu::apply_modifier;
use crate::exec::atomic::PrivateUav;
use crate::exec::rows::{lower, per_batch_rows, reads_group_id, resolve_fast, AlignedWords, Arena};
use crate::ir::lowered::{AtomicKind, Dst, DstKind, Idx, OpKind, Rel, Res, Src, SrcKind, SrcMod};
use crate::isa::lanes::{
    bool_mask, dp_acc_kernel, udiv_by_rows_kernel, udiv_rows_kernel, Kernel, UdivByRows, UdivRows,
    ZEROS,
};
use crate::{Isa, Program};
use sim_mem::{Bindings, Tgsm};
use std::collections::HashMap;
use std::sync::Arc;

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
    /// ([`GroupExecutor::packed`]; the dispatcher's choice).
    PACKED_GROUPS = "packed_groups";
    /// Atomics on a small UAV that the program only updates with one kind
    /// of atomic are gathered per worker and applied when its groups end
    /// ([`GroupExecutor::privatize_atomics`]; the dispatcher's choice).
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    If {
        else_pc: Option<u32>,
        endif_pc: u32,
        in_else: bool,
    },
    Loop {
        start_pc: u32,
        end_pc: u32,
    },
    Switch {
        id: u32,
    },
    /// A subroutine call: masks 0 = lanes that have returned, 1 = lanes that skipped a `callc`.
    Call {
        return_pc: u32,
    },
}

/// Return addresses a warp may stack; a further `call` is skipped (FS §7.12).
const MAX_CALL_DEPTH: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    Barrier,
    Done,
    /// The warp's quantum ran out (interleaved runs only).
    Yield,
    Stopped(StopReason),
}

/// One warp's state.
#[derive(Debug, Clone)]
struct Warp {
    regs: AlignedWords,
    xregs: Vec<u32>,
    /// vThreadIDInGroup per component, and flattened, per lane
    tig: [Vec<u32>; 3],
    flat: Vec<u32>,
    /// vThreadID, per component, per lane (depends on the group)
    tid: [Vec<u32>; 3],
    /// vThreadGroupID, per component, per lane
    gid: [Vec<u32>; 3],
    /// per lane, which group of a batch it runs (0 unless packed:
    /// [`GroupExecutor::packed`])
    batch: Vec<u32>,
    /// per lane, vThreadID.x less the batch's first group's x times the
    /// group width: `batch·width + vThreadIDInGroup.x`
    x_offset: Vec<u32>,
    /// lanes that exist (the last warp may be partial)
    exists: AlignedWords,
    alive: AlignedWords,
    /// (on a cache line, as the rows: the row kernels blend under it)
    active: AlignedWords,
    frames: Vec<Frame>,
    /// four masks of W words per frame
    masks: Vec<u32>,
    pc: usize,
    done: bool,
    /// every one of the W lanes is active (kept by `settle` and `endloop`):
    /// a register write is then a plain copy
    full: bool,
    /// from the first active lane to the last (empty if none; all W lanes
    /// when `full`), kept with `full` by [`Warp::note_active`]: lane loops
    /// of a partial warp run over these lanes only
    span: std::ops::Range<usize>,
    /// lane l runs the thread after lane 0's by l in the executor's order
    /// (`SV_GroupIndex`, or group after group when packed; not so under a
    /// shuffled lane order): the lane-linear address forms apply
    linear: bool,
    /// the number of active lanes, once counted since `active` last
    /// changed (profiling counts per instruction)
    count: std::cell::Cell<Option<u64>>,
    /// the word each of the arena's four constant-buffer scratch rows
    /// holds in every lane (None: not filled yet); only `run_fast`'s fills
    /// write those rows
    splats: [Option<u32>; 4],
}

/// Scratch space for operands: 4 components × W lanes each.
#[derive(Debug, Clone)]
struct Scratch {
    s: [Vec<u32>; 4],
    r: Vec<u32>,
    /// lanes leaving with break/continue/ret (4·W so `fetch` can fill it)
    lanes: Vec<u32>,
    /// `alu`/`alu2`: results (2 × 4·W) and one W-word buffer per source (4·W)
    alu: Vec<u32>,
    /// a compare-exchange loop's changes per word ([`WordCounts`])
    words: WordCounts,
    /// observers of a compare-exchange loop run at once: each lane's attempts
    attempts: Vec<u32>,
}

/// [`GroupExecutor::cas_loop`]'s chains run this many words at a time (of
/// consecutive words, two cache lines), so that little time passes between
/// reading a word and writing it while another thread writes it too.
const CHAIN_WORDS: usize = 32;

/// W zeros: a slice of [`ZEROS`] (the operand `l(0)` and a missing
/// offset, without a fill), or `buf` filled should W ever exceed it.
#[inline]
fn zeros(w: usize, buf: &mut [u32]) -> &[u32] {
    match ZEROS.get(..w) {
        Some(z) => z,
        None => {
            let o = &mut buf[..w];
            o.fill(0);
            o
        }
    }
}

/// Scratch rows in a warp's arena: four for constant-buffer words, four
/// for results computed before any is written, and the row kernels' spare
/// row ([`RowArgs::spare`]).
const SCRATCH_ROWS: usize = 9;

/// `d[l] = v[l]` where the mask word `m[l]` is all ones, `d[l]` kept where
/// it is 0: a masked write, branch-free so that it vectorises.
#[inline]
fn blend(d: &mut [u32], v: &[u32], m: &[u32]) {
    for ((d, &v), &m) in d.iter_mut().zip(v).zip(m) {
        *d = (v & m) | (*d & !m);
    }
}

/// A result row `v` into the register row `d` (W words each) for a warp's
/// active lanes: a copy when every lane is active, else a [`blend`] under
/// `active` over the span from the first active lane to the last.
#[inline]
fn commit(d: &mut [u32], v: &[u32], active: &[u32], full: bool, span: &std::ops::Range<usize>) {
    if full {
        copy_lanes(d, v);
    } else {
        let s = span.clone();
        blend(&mut d[s.clone()], &v[s.clone()], &active[s]);
    }
}

/// `d.copy_from_slice(s)` for a warp's lanes, in fixed 8-word chunks that
/// compile to a few vector moves instead of a call to `memcpy` (a register
/// row is only W words).
#[inline]
fn copy_lanes(d: &mut [u32], s: &[u32]) {
    let mut dc = d.chunks_exact_mut(8);
    let mut sc = s.chunks_exact(8);
    for (d, s) in (&mut dc).zip(&mut sc) {
        d.copy_from_slice(s);
    }
    for (d, &s) in dc.into_remainder().iter_mut().zip(sc.remainder()) {
        *d = s;
    }
}

/// From the first set mask word to the last (`None` if none is set): 16
/// words at a time, each block OR-reduced in a loop that vectorises, so a
/// wide warp with few active lanes is not scanned word by word.
fn active_lanes(m: &[u32]) -> Option<std::ops::Range<usize>> {
    const B: usize = 16;
    let (blocks, rest) = m.as_chunks::<B>();
    let any = |c: &[u32; B]| c.iter().fold(0, |a, &x| a | x) != 0;
    let tail = blocks.len() * B;
    let l0 = match blocks.iter().position(any) {
        Some(i) => i * B + blocks[i].iter().position(|&x| x != 0)?,
        None => tail + rest.iter().position(|&x| x != 0)?,
    };
    let l1 = match rest.iter().rposition(|&x| x != 0) {
        Some(r) => tail + r,
        None => {
            let i = blocks.iter().rposition(any)?;
            i * B + blocks[i].iter().rposition(|&x| x != 0)?
        }
    };
    Some(l0..l1 + 1)
}

/// Executes thread groups of one program, one at a time; create one per
/// worker thread and reuse it for many groups.
#[derive(Debug)]
pub struct GroupExecutor<'p> {
    prog: &'p Program,
    w: usize,
    warps: Vec<Warp>,
    tgsm: Tgsm,
    sc: Scratch,
    /// thread groups per batch: consecutive along x, their threads one
    /// after another in the lanes (1 unless [`GroupExecutor::packed`])
    pack: u32,
    stats: ExecStats,
    /// warp-instructions left before the next look at the watchdog
    until_check: u32,
    /// warp-instructions between two looks ([`Watchdog::interval`]); the
    /// count not yet handed in is `interval - until_check`
    interval: u32,
    /// which watchdog that count belongs to ([`Watchdog::id`])
    watchdog_id: u64,
    /// the profile and the checker, when kept (none in a plain run): the
    /// observers of the run (`observe.rs`)
    observers: Observers,
    /// per warp, the barrier it parked at in this round (checking only)
    round: Vec<Option<u32>>,
    /// interleaving warps ([`GroupExecutor::run_group_interleaved`]): a warp
    /// then yields when `until_check` runs out instead of consulting the watchdog
    interleave: bool,
    /// per pc, what the interpreter runs there (`plan.rs`)
    plan: Arc<Vec<Step>>,
    /// where the rows of each warp's arena (`Warp::regs`) lie
    arena: Arena,
    /// the arena rows of system values that change per batch and that the
    /// fast instructions read ([`per_batch_rows`])
    batch_rows: u8,
    /// `SV_GroupID` of the running batch's first group
    first: [u32; 3],
    /// the program reads vThreadGroupID ([`reads_group_id`]): `Warp::gid`
    /// is kept (else it is left alone)
    group_rows: bool,
    /// the running-sum kernel of `dp2`–`dp4`
    dp_acc: Kernel,
    /// the instruction set `run_warp` is compiled for on this CPU
    isa: Isa,
    /// the UAVs whose atomics this executor gathers
    /// ([`GroupExecutor::privatize_atomics`])
    private: Vec<PrivateUav>,
    /// `udiv`'s lane loop for this CPU
    udiv_rows: UdivRows,
    /// `udiv`'s lane loop by one divisor for this CPU
    udiv_by_rows: UdivByRows,
    /// the fast paths switched on ([`GroupExecutor::with_fast_paths`])
    fast_paths: FastPaths,
    /// the components of vThreadID (bits 0–2) an operand reads
    /// ([`thread_id_comps`](crate::analysis::fusion::thread_id_comps)): a batch computes only those
    tid_comps: u8,
    /// whether a batch starts with its register file zeroed: only when a
    /// lane may read a temp before writing it (`crate::analysis::liveness`)
    zero_regs: bool,
    /// made with a lane order ([`GroupExecutor::with_lane_order`]): never
    /// parked ([`GroupExecutor::recycle`])
    lane_ordered: bool,
    /// no batch has been stopped mid-way by the watchdog (false after one
    /// was: the executor is then never parked)
    settled: bool,
    /// `printf`/`errorf`/`abort`/`debug_break` records not yet taken
    /// ([`GroupExecutor::take_messages`])
    messages: crate::messages::MessageLog,
    /// the last record's sequence number (`message.rs`)
    message_seq: u64,
    /// a `debug_break` stops the dispatch
    /// ([`GroupExecutor::set_break_at_debug_break`])
    break_at_debug_break: bool,
}

/// What a dispatcher needs to know to pack a program's groups several to a
/// warp ([`GroupExecutor::packed`]); how many it packs is its policy
/// (`sim_sched::packed_groups_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packing {
    /// Whether the program's groups may share a warp: false when they could
    /// observe one another in it — the program declares TGSM or has a group
    /// barrier (`sync_*_t`) — or when it has a compare-exchange that returns
    /// the old value outside a retry loop the executor runs at once
    /// (`crate::analysis::cas_loop`: a lock, say, where the lanes of one
    /// warp that meet on a word succeed one per pass, so that a wider warp
    /// only waits longer). A retry loop's lanes that meet on a word run as
    /// one chain (`GroupExecutor::cas_loop`), so those groups pack.
    pub allowed: bool,
    /// Threads per group.
    pub threads_per_group: u32,
    /// 32-bit register words per lane: temps and indexable temps, four per
    /// register.
    pub register_words_per_lane: usize,
    /// Whether the program has a compare-exchange retry loop that the
    /// executor runs at once (`crate::analysis::cas_loop`): its lanes that
    /// meet on a word share one compare-exchange, so the more lanes a warp
    /// has, the fewer compare-exchanges reach memory.
    pub retry_loops: bool,
}

/// [`Packing`] of `prog`.
pub fn packing(prog: &Program) -> Packing {
    let in_loop = |pc: usize| {
        prog.info()
            .cas_loops
            .iter()
            .flatten()
            .any(|c| c.cas_pc == pc)
    };
    let apart = prog.code.iter().enumerate().all(|(pc, op)| match op.kind {
        OpKind::Sync { threads, .. } => !threads,
        OpKind::Atomic {
            kind: AtomicKind::CmpExch,
            ref ret,
            ..
        } => ret.is_none() || in_loop(pc),
        _ => true,
    });
    let xwords: usize = prog
        .indexable_temps
        .iter()
        .map(|x| x.size as usize * 4)
        .sum();
    Packing {
        retry_loops: prog.info().cas_loops.iter().flatten().next().is_some(),
        allowed: prog.tgsm.is_empty() && apart,
        threads_per_group: prog.threads_per_group().max(1),
        register_words_per_lane: (prog.temps as usize * 4 + xwords).max(1),
    }
}

/// The most lanes a packed warp may have ([`GroupExecutor::packed`]).
pub const MAX_PACKED_LANES: usize = 1024;

/// The largest buffer, in 32-bit words, whose atomics an executor gathers
/// in words of its own (256 KiB: a histogram's bins, not a frame).
pub const PRIVATE_ATOMICS_MAX_WORDS: usize = 1 << 16;

/// (some lane set, every lane set), in one pass that vectorises.
#[inline]
fn any_all(m: &[u32]) -> (bool, bool) {
    let (or, and) = m.iter().fold((0, !0), |(o, a), &x| (o | x, a & x));
    (or != 0, and != 0)
}

impl<'p> GroupExecutor<'p> {
    /// An executor with warps of `warp_width` lanes (clamped to 1..=threads per group).
    pub fn new(prog: &'p Program, warp_width: usize) -> Self {
        Self::with_lane_order(prog, warp_width, None)
    }

    /// This executor with only `paths` of its fast paths (the others take
    /// the reference path). Call it before the first group runs.
    /// [`FastPaths::PACKED_GROUPS`] and [`FastPaths::PRIVATE_ATOMICS`] are
    /// the dispatcher's to honour ([`GroupExecutor::packed`],
    /// [`GroupExecutor::privatize_atomics`]).
    pub fn with_fast_paths(mut self, paths: FastPaths) -> Self {
        self.fast_paths = paths;
        if paths != FastPaths::ALL {
            // (the plan of every path is shared: this executor's own copy)
            let steps: &mut Vec<Step> = Arc::make_mut(&mut self.plan);
            restrict(steps, paths);
        }
        self
    }

    /// The fast paths this executor takes.
    pub fn fast_paths(&self) -> FastPaths {
        self.fast_paths
    }

    /// An executor with warps of `warp_width` lanes whose lane slots hold the
    /// threads in `lane_order`: slot `s` (warp `s / W`, lane `s % W`) runs
    /// the thread whose `SV_GroupIndex` is `lane_order[s]` (None: slot `s`
    /// runs thread `s`). Only the slot a thread occupies changes — which
    /// threads share a warp, and the order in which a warp's lanes perform
    /// their memory operations and atomics; every system value stays the
    /// thread's own. `lane_order` must be a permutation of
    /// `0..threads per group` (else it is ignored).
    pub fn with_lane_order(
        prog: &'p Program,
        warp_width: usize,
        lane_order: Option<&[u32]>,
    ) -> Self {
        Self::build(prog, warp_width, lane_order, 1)
    }

    /// An executor that runs up to `groups` thread groups at once, as one
    /// warp: the groups are consecutive along x (`SV_GroupID` `first`,
    /// `first + (1, 0, 0)`, …, [`GroupExecutor::run_groups_watched`]) and
    /// lane `k·n + i` runs thread `i` (its `SV_GroupIndex`) of the `k`-th,
    /// `n` being the threads per group. Each instruction then serves
    /// `groups` times the lanes for one pass of the interpreter, which is
    /// what a long ALU loop over small groups (mandelbrot's 8×8) spends its
    /// time on.
    ///
    /// Only a program whose groups cannot observe each other's lanes is
    /// packed ([`Packing::allowed`]; else the executor is an ordinary one,
    /// a warp per group), and at most [`MAX_PACKED_LANES`] lanes to a warp. Every system value stays each thread's own, and
    /// what the groups do to memory is what one execution of them side by
    /// side may do (`reference/compute-model.md` §6.1: a dispatch orders no
    /// two groups): their stores land as if the groups ran one after
    /// another in lane order, but a load of one group may come before
    /// another group's earlier store. Attaching a checker turns the executor back into an
    /// ordinary one ([`GroupExecutor::set_checker`]).
    pub fn packed(prog: &'p Program, groups: u32) -> Self {
        let (_, pack) = Shape::Packed(groups).resolve(prog);
        Self::build(prog, usize::MAX, None, pack)
    }

    /// Warps of `warp_width` lanes over batches of `pack` groups (a lane
    /// order only when `pack` is 1).
    fn build(prog: &'p Program, warp_width: usize, lane_order: Option<&[u32]>, pack: u32) -> Self {
        let per_group = prog.threads_per_group() as usize;
        let n = per_group * pack as usize;
        let lane_order = lane_order.filter(|o| {
            let mut seen = vec![false; n];
            o.len() == n
                && o.iter()
                    .all(|&t| (t as usize) < n && !std::mem::replace(&mut seen[t as usize], true))
        });
        let w = warp_width.clamp(1, n.max(1));
        let [gx, gy, _] = prog.thread_group;
        let xwords: usize = prog
            .indexable_temps
            .iter()
            .map(|x| x.size as usize * 4)
            .sum();
        let planned = prog.info().plans.get((w, pack, prog.thread_group), || {
            let (fast, imm) = resolve_fast(prog, w, n.div_ceil(w));
            let arena = Arena::new(prog, w, imm.len());
            let batch_rows = per_batch_rows(&fast);
            let rows = fast
                .iter()
                .map(|f| f.as_ref().and_then(|f| lower(f, &arena)));
            Planned {
                steps: Arc::new(plan(prog, rows, pack)),
                imm,
                arena,
                batch_rows,
            }
        });
        let (arena, fast_imm) = (planned.arena, &planned.imm[..]);
        let warps = (0..n.div_ceil(w))
            .map(|wi| {
                let mut tig = [vec![0; w], vec![0; w], vec![0; w]];
                let mut flat = vec![0; w];
                let mut batch = vec![0; w];
                let mut exists = AlignedWords::zeroed(w);
                for l in 0..w {
                    let s = wi * w + l;
                    if s < n {
                        exists[l] = !0;
                    }
                    // `v`: the thread's place in the executor's order
                    let v = match lane_order {
                        Some(o) if s < n => o[s],
                        _ => s as u32,
                    };
                    let f = v % per_group.max(1) as u32;
                    batch[l] = v / per_group.max(1) as u32;
                    flat[l] = f;
                    tig[0][l] = f % gx;
                    tig[1][l] = (f / gx) % gy;
                    tig[2][l] = f / (gx * gy);
                }
                let linear = match lane_order {
                    Some(o) => {
                        (0..w).all(|l| o.get(wi * w + l).is_none_or(|&v| v == o[wi * w] + l as u32))
                    }
                    None => true,
                };
                let x_offset = (batch.iter().zip(&tig[0]))
                    .map(|(&k, &x)| k.wrapping_mul(gx).wrapping_add(x))
                    .collect();
                Warp {
                    linear,
                    count: std::cell::Cell::new(None),
                    regs: {
                        // the register file, then the rows `arena` places
                        let mut a = AlignedWords::zeroed(arena.len);
                        a[arena.imm..arena.scratch].copy_from_slice(fast_imm);
                        for (k, r) in tig.iter().enumerate() {
                            let at = arena.sys + (3 + k) * w;
                            a[at..at + w].copy_from_slice(r);
                        }
                        a[arena.sys + 9 * w..arena.sys + 10 * w].copy_from_slice(&flat);
                        a
                    },
                    xregs: vec![0; xwords * w],
                    tig,
                    flat,
                    tid: [vec![0; w], vec![0; w], vec![0; w]],
                    gid: [vec![0; w], vec![0; w], vec![0; w]],
                    x_offset,
                    batch,
                    alive: exists.clone(),
                    active: exists.clone(),
                    exists,
                    frames: Vec::new(),
                    masks: Vec::new(),
                    pc: 0,
                    done: false,
                    full: false,
                    span: 0..0,
                    splats: [None; 4],
                }
            })
            .collect();
        let batch_rows = planned.batch_rows;
        Self {
            prog,
            w,
            warps,
            tgsm: Tgsm::new(prog.tgsm_regions()),
            sc: Scratch {
                s: [
                    vec![0; 4 * w],
                    vec![0; 4 * w],
                    vec![0; 4 * w],
                    vec![0; 4 * w],
                ],
                r: vec![0; 4 * w],
                lanes: vec![0; 4 * w],
                alu: vec![0; 12 * w],
                words: WordCounts::default(),
                attempts: Vec::new(),
            },
            pack,
            stats: ExecStats::default(),
            until_check: WATCHDOG_INTERVAL,
            interval: WATCHDOG_INTERVAL,
            watchdog_id: 0,
            observers: Observers::default(),
            round: Vec::new(),
            interleave: false,
            plan: planned.steps.clone(),
            arena,
            batch_rows,
            group_rows: reads_group_id(prog),
            first: [0; 3],
            dp_acc: dp_acc_kernel(),
            isa: crate::isa::lanes::isa(),
            private: Vec::new(),
            udiv_rows: udiv_rows_kernel(),
            udiv_by_rows: udiv_by_rows_kernel(),
            tid_comps: prog.info().thread_id_comps | batch_rows & 7,
            fast_paths: FastPaths::ALL,
            zero_regs: prog.info().liveness.reads_unwritten,
            lane_ordered: lane_order.is_some(),
            settled: true,
            messages: Default::default(),
            message_seq: 0,
            break_at_debug_break: false,
        }
    }

    /// Attach a concurrency checker (or detach it with `None`): from now on
    /// every group this executor runs reports its memory accesses, `sync`s
    /// and barriers to it. The caller brackets each dispatch with
    /// [`Checker::begin_dispatch`] and [`Checker::end_dispatch`]
    /// (`sim_sched::Mode::Checked` does all of this).
    ///
    /// A packed executor ([`GroupExecutor::packed`]) becomes an ordinary
    /// one with a warp per group first, keeping its counters, profile and
    /// gathered atomics: the checker follows one group at a time.
    pub fn set_checker(&mut self, checker: Option<Box<Checker>>) {
        if checker.is_some() && self.pack > 1 {
            let mut one = Self::new(self.prog, usize::MAX);
            one.stats = self.stats;
            one.observers = std::mem::take(&mut self.observers);
            one.private = std::mem::take(&mut self.private);
            one.messages = self.take_messages();
            one.message_seq = self.message_seq;
            one.break_at_debug_break = self.break_at_debug_break;
            *self = one;
        }
        self.observers.check = checker.map(|c| Box::new(Checking::new(c)));
    }

    /// Take the attached checker back.
    pub fn take_checker(&mut self) -> Option<Box<Checker>> {
        self.observers.check.take().map(|c| c.checker)
    }

    /// Switch throughput profiling on (fresh counters) or off.
    pub fn set_profiling(&mut self, on: bool) {
        let lines = self.observers.lines;
        self.observers.profile = on.then(|| Box::new(Profiling::new(self.prog, lines)));
    }

    /// With profiling: also count each buffer load's and store's bytes and
    /// 64-byte lines ([`Profile::bytes_by_pc`], [`Profile::lines_by_pc`]),
    /// which costs a pass over the lanes' addresses per instruction.
    pub fn set_memory_profiling(&mut self, on: bool) {
        self.observers.lines = on;
        if let Some(p) = self.observers.profile.as_deref_mut() {
            p.lines = on;
        }
    }

    /// The profile gathered since profiling was switched on (None when off).
    pub fn profile(&self) -> Option<&Profile> {
        self.observers.profile.as_deref().map(|p| &*p.profile)
    }

    /// The warp width in use.
    pub fn warp_width(&self) -> usize {
        self.w
    }

    /// Counters accumulated so far.
    pub fn stats(&self) -> ExecStats {
        self.stats
    }

    /// The TGSM arena as the last group left it (for tests).
    pub fn tgsm(&self) -> &Tgsm {
        &self.tgsm
    }

    /// Run thread group `group` (its `SV_GroupID`) to completion against `bindings`.
    pub fn run_group(&mut self, group: [u32; 3], bindings: &Bindings<'_>) {
        // Without limits the watchdog can never fire.
        let _ = self.run_group_watched(group, bindings, &Watchdog::unlimited());
    }

    /// Run thread group `group` under `watchdog`.
    ///
    /// # Errors
    /// [`Runaway`] when the watchdog stops the dispatch while this group runs;
    /// the group's memory effects so far remain.
    pub fn run_group_watched(
        &mut self,
        group: [u32; 3],
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        self.run_batch(group, 1, bindings, watchdog)
    }

    /// The groups per batch: how many groups one pass of a packed executor
    /// runs ([`GroupExecutor::packed`]; 1 for any other).
    pub fn groups_per_batch(&self) -> u32 {
        self.pack
    }

    /// Run the `count` thread groups `first`, `first + (1, 0, 0)`, …,
    /// `first + (count − 1, 0, 0)` under `watchdog`: in batches of
    /// [`GroupExecutor::groups_per_batch`], each as one warp when packed,
    /// else one after another.
    ///
    /// # Errors
    /// [`Runaway`] (naming the group of the first active lane) when the
    /// watchdog stops the dispatch while they run; the memory effects so
    /// far remain, and the groups after that batch do not run.
    pub fn run_groups_watched(
        &mut self,
        first: [u32; 3],
        count: u32,
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        let mut done = 0;
        while done < count {
            let n = (count - done).min(self.pack);
            let at = [first[0].wrapping_add(done), first[1], first[2]];
            self.run_batch(at, n, bindings, watchdog)?;
            done += n;
        }
        Ok(())
    }

    /// One batch of `count` ≤ `pack` groups from `first` (x consecutive).
    fn run_batch(
        &mut self,
        group: [u32; 3],
        count: u32,
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        self.start_batch(group, count);
        self.watch(watchdog);
        // The observers leave `self` for the batch, and the loop compiled
        // for them runs it (none: a plain run's, which observes nothing).
        let mut observers = std::mem::take(&mut self.observers);
        let outcome = match (
            observers.profile.as_deref_mut(),
            observers.check.as_deref_mut(),
        ) {
            (None, None) => self.run_observed(&mut Plain, group, bindings, watchdog),
            (Some(p), None) => self.run_observed(p, group, bindings, watchdog),
            (None, Some(c)) => self.run_observed(c, group, bindings, watchdog),
            (Some(p), Some(c)) => self.run_observed(&mut Both(p, c), group, bindings, watchdog),
        };
        self.observers = observers;
        outcome
    }

    /// [`GroupExecutor::run_batch`] under observer `obs`.
    fn run_observed<O: Observer>(
        &mut self,
        obs: &mut O,
        group: [u32; 3],
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        obs.begin_group(group, self.w);
        // The warps leave `self` for the group, so each runs in place.
        let mut warps = std::mem::take(&mut self.warps);
        let outcome = self.run_rounds(obs, &mut warps, bindings, watchdog);
        self.warps = warps;
        if outcome.is_err() {
            // stopped mid-group: never parked ([`GroupExecutor::recycle`])
            self.settled = false;
        }
        outcome?;
        if watchdog.budgeted() {
            // hand in the count since the last look
            let pending = self.interval - self.until_check;
            self.until_check = self.interval;
            if pending > 0 {
                if let Some(reason) = watchdog.check(u64::from(pending)) {
                    return Err(self.runaway_after(reason));
                }
            }
        }
        obs.end_group();
        Ok(())
    }

    /// Barrier rounds: every unfinished warp runs until it parks at a
    /// barrier or finishes; a round in which none parked ends the group.
    fn run_rounds<O: Observer>(
        &mut self,
        obs: &mut O,
        warps: &mut [Warp],
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        let checking = O::CHECKS;
        loop {
            let mut parked = 0;
            if checking {
                self.round.clear();
            }
            for warp in warps.iter_mut() {
                if warp.done {
                    if checking {
                        self.round.push(None);
                    }
                    continue;
                }
                let exit = self.run_warp(obs, warp, bindings, watchdog);
                if let Exit::Stopped(reason) = exit {
                    return Err(self.runaway(warp, reason));
                }
                if checking {
                    // a parked warp's pc is just past its sync
                    let at = (exit == Exit::Barrier).then(|| warp.pc as u32 - 1);
                    self.round.push(at);
                }
                if exit == Exit::Barrier {
                    parked += 1;
                }
            }
            if parked == 0 {
                return Ok(());
            }
            obs.barrier_round(&self.round);
            self.stats.barriers += 1;
        }
    }

    /// Run thread group `group` under `watchdog` with its warps interleaved
    /// at instruction granularity: repeatedly a runnable warp, drawn at
    /// random, runs a quantum of 1 to 8 instructions (drawn at random), until
    /// it yields, parks at a barrier or finishes; when every unfinished warp
    /// is parked, the barrier completes and all resume, as in
    /// [`GroupExecutor::run_group_watched`]. The draws come from SplitMix64
    /// seeded with `seed`, so one seed gives one interleaving. Not for
    /// checking runs (an attached checker is not told about this group).
    ///
    /// # Errors
    /// As [`GroupExecutor::run_group_watched`].
    pub fn run_group_interleaved(
        &mut self,
        group: [u32; 3],
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
        seed: u64,
    ) -> Result<(), Runaway> {
        let mut rng = seed;
        let mut draw = |n: usize| -> usize {
            rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = rng;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (((z >> 32) * n as u64) >> 32) as usize
        };
        self.start_batch(group, 1);
        self.watch(watchdog);
        // (the checker is not told: only a profile observes)
        let mut observers = std::mem::take(&mut self.observers);
        let outcome = match observers.profile.as_deref_mut() {
            None => self.interleave(&mut Plain, bindings, watchdog, &mut draw),
            Some(p) => self.interleave(p, bindings, watchdog, &mut draw),
        };
        self.observers = observers;
        outcome
    }

    /// [`GroupExecutor::run_group_interleaved`] under observer `obs`, its
    /// draws from `draw` (a number below its argument).
    fn interleave<O: Observer>(
        &mut self,
        obs: &mut O,
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
        draw: &mut impl FnMut(usize) -> usize,
    ) -> Result<(), Runaway> {
        self.interleave = true;
        let nw = self.warps.len();
        // warps that may run, and those parked at the current barrier
        let mut runnable: Vec<usize> = (0..nw).collect();
        let mut parked: Vec<usize> = Vec::with_capacity(nw);
        let mut unaccounted = 0u64;
        let mut outcome = Ok(());
        loop {
            if runnable.is_empty() {
                if parked.is_empty() {
                    break;
                }
                // every unfinished warp has arrived: the barrier completes
                parked.sort_unstable();
                std::mem::swap(&mut runnable, &mut parked);
                self.stats.barriers += 1;
                continue;
            }
            let pick = draw(runnable.len());
            let wi = runnable[pick];
            // `run_warp` yields when the count reaches 0 before an
            // instruction: a quantum of `until_check - 1` instructions,
            // within an exact budget's warp-instructions left
            self.until_check = draw(8) as u32 + 2;
            if self.interval == 1 {
                let left = watchdog.left();
                if left == 0 {
                    // the next instruction would pass the budget
                    let reason = watchdog.check(1);
                    let warp = &self.warps[wi];
                    outcome =
                        Err(self.runaway(warp, reason.unwrap_or(StopReason::InstructionBudget(0))));
                    break;
                }
                self.until_check = self.until_check.min((left + 1).min(9) as u32);
            }
            let before = self.stats.warp_instructions;
            let mut warp = std::mem::replace(&mut self.warps[wi], Warp::empty());
            let exit = self.run_warp(obs, &mut warp, bindings, watchdog);
            unaccounted += self.stats.warp_instructions - before;
            let mut stop = None;
            if unaccounted >= u64::from(self.interval) {
                stop = watchdog.check(unaccounted);
                unaccounted = 0;
            }
            match exit {
                Exit::Barrier => {
                    runnable.swap_remove(pick);
                    parked.push(wi);
                }
                Exit::Done => {
                    runnable.swap_remove(pick);
                }
                Exit::Stopped(reason) => stop = Some(reason),
                Exit::Yield => {}
            }
            if let Some(reason) = stop {
                outcome = Err(self.runaway(&warp, reason));
            }
            self.warps[wi] = warp;
            if outcome.is_err() {
                break;
            }
        }
        if outcome.is_ok() && unaccounted > 0 {
            if let Some(reason) = watchdog.check(unaccounted) {
                outcome = Err(self.runaway_after(reason));
            }
        }
        self.interleave = false;
        self.until_check = self.interval;
        if outcome.is_err() {
            self.settled = false;
        }
        outcome
    }

    /// Reset registers, masks and TGSM for the `count` groups (at most
    /// `pack`, consecutive along x) from `first`.
    fn start_batch(&mut self, first: [u32; 3], count: u32) {
        self.first = first;
        // Empty slices are skipped: glibc's AVX-512 memset clears a short
        // tail with a masked store, and on the dangling pointer of an empty
        // Vec that store takes a microcode assist (perf: ~12% of
        // global_histogram's dispatch went to two empty fills per group).
        self.tgsm.reset();
        let tg = self.prog.thread_group;
        for warp in &mut self.warps {
            // the register file (when a lane may read a word it has not
            // written); the arena's other rows stay
            if self.zero_regs {
                warp.regs[..self.arena.sys].fill(0);
            }
            if !warp.xregs.is_empty() {
                warp.xregs.fill(0);
            }
            warp.alive.copy_from_slice(&warp.exists);
            if count < self.pack {
                for (a, &k) in warp.alive.iter_mut().zip(&warp.batch) {
                    *a &= bool_mask(k < count);
                }
            }
            warp.active.copy_from_slice(&warp.alive);
            warp.frames.clear();
            warp.pc = 0;
            // a warp of a short batch's missing groups has nothing to run
            warp.done = !warp.note_active();
            let Warp {
                regs,
                tid,
                tig,
                gid,
                batch,
                x_offset,
                ..
            } = warp;
            let (sys, w) = (self.arena.sys, self.w);
            for c in 0..3 {
                let g = &mut gid[c];
                if self.group_rows {
                    if c == 0 && self.pack > 1 {
                        for (g, &k) in g.iter_mut().zip(batch.iter()) {
                            *g = first[0].wrapping_add(k);
                        }
                    } else {
                        g.fill(first[c]);
                    }
                }
                // vThreadID's components the program reads: a multiply per
                // row, not per lane: x is the first group's plus each lane's
                // offset in the batch
                if self.tid_comps & (1 << c) != 0 {
                    let base = first[c].wrapping_mul(tg[c]);
                    let offset = if c == 0 { &x_offset[..] } else { &tig[c][..] };
                    for (t, &i) in tid[c].iter_mut().zip(offset) {
                        *t = base.wrapping_add(i);
                    }
                }
                // their rows in the arena, where fast ALU instructions read them
                if self.batch_rows & (1 << c) != 0 {
                    let at = sys + c * w;
                    regs[at..at + w].copy_from_slice(&tid[c]);
                }
                if self.batch_rows & (8 << c) != 0 {
                    let at = sys + (6 + c) * w;
                    regs[at..at + w].copy_from_slice(g);
                }
            }
        }
        self.stats.groups += u64::from(count);
    }

    /// Take `watchdog`'s look interval; a count not handed in to another
    /// watchdog is dropped (it belonged to another dispatch).
    fn watch(&mut self, watchdog: &Watchdog) {
        let interval = watchdog.interval();
        if interval != self.interval || watchdog.id() != self.watchdog_id {
            self.interval = interval;
            self.until_check = interval;
            self.watchdog_id = watchdog.id();
        }
    }

    /// The [`Runaway`] of a batch that finished but whose last count passed
    /// the budget: its first group, lane 0, at the program's last instruction.
    fn runaway_after(&self, reason: StopReason) -> Runaway {
        let token = self.prog.code.last().map_or(0, |op| op.token);
        Runaway::at(self.prog, reason, self.first, 0, token)
    }

    fn runaway(&self, warp: &Warp, reason: StopReason) -> Runaway {
        let lane = warp.active.iter().position(|&a| a != 0).unwrap_or(0);
        let token = self.prog.code.get(warp.pc).map_or(0, |op| op.token);
        let [x, y, z] = self.first;
        let group = [x.wrapping_add(warp.batch[lane]), y, z];
        Runaway::at(self.prog, reason, group, warp.flat[lane], token)
    }

    // -- operand access ------------------------------------------------

    fn idx_value(&self, warp: &Warp, idx: &Idx, lane: usize) -> u32 {
        let w = self.w;
        match idx.rel {
            None => idx.imm,
            Some(Rel::Temp { reg, comp }) => idx
                .imm
                .wrapping_add(warp.regs[(reg as usize * 4 + comp as usize) * w + lane]),
            Some(Rel::XTemp { x, elem, comp }) => {
                let (base, _) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                let word = (base as usize + elem as usize * 4 + comp as usize) * w + lane;
                idx.imm
                    .wrapping_add(warp.xregs.get(word).copied().unwrap_or(0))
            }
        }
    }

    fn cb_word(&self, bindings: &Bindings<'_>, slot: u32, word: u64) -> u32 {
        bindings
            .constant_buffer(slot)
            .and_then(|cb| cb.get(usize::try_from(word).ok()?))
            .copied()
            .unwrap_or(0)
    }

    /// Fetch `src` into `out` for the destination components in `comps`:
    /// `out[c·W + lane]` = source component `swz[c]`, modifier applied.
    fn fetch(&self, warp: &Warp, b: &Bindings<'_>, src: &Src, comps: u8, out: &mut [u32]) {
        let w = self.w;
        for c in 0..4 {
            if comps & (1 << c) != 0 {
                self.fetch_comp(warp, b, src, c, &mut out[c * w..(c + 1) * w]);
            }
        }
    }

    /// Destination component `c` of `src` (source component `swz[c]`, modifier
    /// applied) for all W lanes: a slice of the warp's registers or system
    /// values when no copy is needed (no modifier), else `buf` (≥ W words),
    /// filled. The hot path of every ALU instruction.
    #[inline]
    fn operand<'a>(
        &self,
        warp: &'a Warp,
        b: &Bindings<'_>,
        src: &Src,
        c: usize,
        buf: &'a mut [u32],
    ) -> &'a [u32] {
        let w = self.w;
        let sc = src.swz[c] as usize;
        if matches!(
            src.modifier,
            SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg
        ) {
            match src.kind {
                SrcKind::Temp(r) => {
                    let base = (r as usize * 4 + sc) * w;
                    return &warp.regs[base..base + w];
                }
                SrcKind::ThreadId if sc < 3 => return &warp.tid[sc],
                SrcKind::ThreadIdInGroup if sc < 3 => return &warp.tig[sc],
                SrcKind::GroupId if sc < 3 => return &warp.gid[sc],
                SrcKind::Flattened => return &warp.flat,
                SrcKind::Imm(v) if v[sc] == 0 => return zeros(w, buf),
                _ => {}
            }
        }
        let o = &mut buf[..w];
        self.fetch_comp(warp, b, src, c, o);
        o
    }

    /// Destination component `c` of `src` when it is the same word in every
    /// lane by its kind: an immediate or a constant-buffer word at an
    /// immediate index, before any modifier. `None` for any other operand
    /// (which may still happen to be uniform).
    fn uniform_word(&self, b: &Bindings<'_>, src: &Src, c: usize) -> Option<u32> {
        let sc = src.swz[c] as usize;
        match src.kind {
            SrcKind::Imm(v) => Some(v[sc]),
            SrcKind::Cb { slot, index } if index.rel.is_none() => {
                Some(self.cb_word(b, slot, index.imm as u64 * 4 + sc as u64))
            }
            _ => None,
        }
    }

    /// Destination component `c` of `src` into `o` (W words).
    fn fetch_comp(&self, warp: &Warp, b: &Bindings<'_>, src: &Src, c: usize, o: &mut [u32]) {
        let w = self.w;
        let sc = src.swz[c] as usize;
        match src.kind {
            SrcKind::Temp(r) => {
                let base = (r as usize * 4 + sc) * w;
                o.copy_from_slice(&warp.regs[base..base + w]);
            }
            SrcKind::Imm(v) => o.fill(v[sc]),
            SrcKind::ThreadId => match warp.tid.get(sc) {
                Some(t) => o.copy_from_slice(t),
                None => o.fill(0),
            },
            SrcKind::ThreadIdInGroup => match warp.tig.get(sc) {
                Some(t) => o.copy_from_slice(t),
                None => o.fill(0),
            },
            SrcKind::GroupId => match warp.gid.get(sc) {
                Some(g) => o.copy_from_slice(g),
                None => o.fill(0),
            },
            SrcKind::Flattened => o.copy_from_slice(&warp.flat),
            SrcKind::Cb { slot, index } => {
                if index.rel.is_none() {
                    o.fill(self.cb_word(b, slot, index.imm as u64 * 4 + sc as u64));
                } else {
                    for (l, v) in o.iter_mut().enumerate() {
                        let e = self.idx_value(warp, &index, l) as u64;
                        *v = self.cb_word(b, slot, e * 4 + sc as u64);
                    }
                }
            }
            SrcKind::Icb { index } => {
                let icb = &self.prog.icb;
                for (l, v) in o.iter_mut().enumerate() {
                    let e = self.idx_value(warp, &index, l) as usize;
                    *v = e
                        .checked_mul(4)
                        .and_then(|i| icb.get(i + sc))
                        .copied()
                        .unwrap_or(0);
                }
            }
            SrcKind::XTemp { x, index } => {
                let (base, size) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                for (l, v) in o.iter_mut().enumerate() {
                    let e = self.idx_value(warp, &index, l);
                    // out of range is undefined (FS §7.3): read 0
                    *v = if e < size {
                        warp.xregs[((base + e * 4) as usize + sc) * w + l]
                    } else {
                        0
                    };
                }
            }
        }
        apply_modifier(o, src.modifier);
    }

    /// Moves `warp` past the instruction at its pc, counting it: in the
    /// statistics, and to the observer. (A function of the fields it
    /// changes, so that a caller may hold the fast forms.)
    #[inline(always)]
    fn step<O: Observer>(stats: &mut ExecStats, obs: &mut O, warp: &mut Warp) {
        warp.pc += 1;
        stats.warp_instructions += 1;
        obs.instruction(warp);
    }

    /// Write `res[c·W + lane]` to `dst` for its masked components and the active lanes.
    fn write(&self, warp: &mut Warp, dst: &Dst, res: &[u32]) {
        let w = self.w;
        match dst.kind {
            DstKind::Null => {}
            DstKind::Temp(r) => {
                for c in 0..4 {
                    if dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let base = (r as usize * 4 + c) * w;
                    let d = &mut warp.regs[base..base + w];
                    let v = &res[c * w..(c + 1) * w];
                    commit(d, v, &warp.active, warp.full, &warp.span);
                }
            }
            DstKind::XTemp { x, index } => {
                let (base, size) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                for l in 0..w {
                    if warp.active[l] == 0 {
                        continue;
                    }
                    let e = self.idx_value(warp, &index, l);
                    if e >= size {
                        continue; // undefined (FS §7.3): dropped
                    }
                    for c in 0..4 {
                        if dst.mask & (1 << c) != 0 {
                            warp.xregs[((base + e * 4) as usize + c) * w + l] = res[c * w + l];
                        }
                    }
                }
            }
        }
    }

    // -- flow control -------------------------------------------------

    // -- the interpreter loop -----------------------------------------

    /// Run `warp` until it is done, parks (barrier), yields or is stopped:
    /// [`GroupExecutor::run_warp_body`] in the copy compiled for the widest
    /// instruction set this CPU runs (`lanes::isa`), so that the lane loops
    /// inlined into it (masks, blends, copies, conditions) use its vectors.
    /// The copies are the same code; `tests/it/cli.rs` compares their results.
    #[allow(unsafe_code)]
    fn run_warp<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Exit {
        #[cfg(target_arch = "x86_64")]
        match self.isa {
            // SAFETY: `isa()` is never wider than what the CPU reports
            // (runtime detection; `SM5SIM_ISA` can only lower it).
            Isa::Avx512 => return unsafe { self.run_warp_avx512(obs, warp, b, watchdog) },
            // SAFETY: as above.
            Isa::Avx2 => return unsafe { self.run_warp_avx2(obs, warp, b, watchdog) },
            Isa::Baseline => {}
        }
        self.run_warp_body(obs, warp, b, watchdog)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx2<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        w: &Watchdog,
    ) -> Exit {
        self.run_warp_body(obs, warp, b, w)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx512<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        w: &Watchdog,
    ) -> Exit {
        self.run_warp_body(obs, warp, b, w)
    }

    /// The interpreter loop: one instruction of `warp` after another.
    #[inline(always)]
    fn run_warp_body<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Exit {
        let prog = self.prog;
        let w = self.w;
        loop {
            if warp.done {
                return Exit::Done;
            }
            let Some(op) = prog.code.get(warp.pc) else {
                warp.done = true;
                return Exit::Done;
            };
            self.until_check -= 1;
            if self.until_check == 0 {
                if self.interleave {
                    return Exit::Yield;
                }
                self.until_check = self.interval;
                if let Some(reason) = watchdog.check(u64::from(self.interval)) {
                    return Exit::Stopped(reason);
                }
                if obs.stalled() {
                    return Exit::Stopped(StopReason::NoProgress);
                }
            }
            Self::step(&mut self.stats, obs, warp);
            match op.kind {
                OpKind::Alu {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => match &self.plan[warp.pc - 1].op {
                    PlanOp::RowAlu(f) => {
                        self.run_fast(warp, b, f);
                        self.run_fast_after(obs, warp, b);
                    }
                    _ => self.alu(warp, b, op, dst, src, sat),
                },
                OpKind::Alu2 {
                    op,
                    ref dst,
                    ref src,
                } => self.alu2(warp, b, op, dst, src),
                OpKind::Double {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => self.double(warp, b, op, dst, src, sat),
                OpKind::If {
                    ref cond,
                    nz,
                    else_pc,
                    endif_pc,
                } => {
                    if let PlanOp::FusedLeave(kind) = self.plan[warp.pc - 1].op {
                        if self.leave_fused(obs, warp, (cond, nz), kind, endif_pc) {
                            continue;
                        }
                    }
                    let base = self.frame_masks(warp);
                    // every active lane takes the same branch: one decides
                    if let Some(taken) = self.uniform_condition(warp, b, cond, nz) {
                        let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                        m0.copy_from_slice(&warp.active);
                        if taken {
                            m1.fill(0);
                        } else {
                            m1.copy_from_slice(&warp.active);
                            warp.active.fill(0);
                        }
                        warp.frames.push(Frame::If {
                            else_pc,
                            endif_pc,
                            in_else: false,
                        });
                        if !taken {
                            // no lane left in this branch
                            warp.note_any_all(false, false);
                            self.revive(warp);
                        }
                        continue;
                    }
                    let mut t = std::mem::take(&mut self.sc.lanes);
                    let full_before = warp.full;
                    self.condition(warp, b, cond, nz, &mut t[..w]);
                    let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                    let lanes = m0.iter_mut().zip(m1).zip(warp.active.iter_mut());
                    // whether some and whether every lane stays active, in
                    // the same pass
                    let (mut or, mut and) = (0, !0);
                    for (((m0, m1), a), &t) in lanes.zip(&t[..w]) {
                        let av = *a;
                        *m0 = av;
                        *m1 = av & !t;
                        let now = av & t;
                        *a = now;
                        or |= now;
                        and &= now;
                    }
                    self.sc.lanes = t;
                    if O::ON {
                        // diverged: some lane took it and some active lane
                        // did not (with every lane active, not all took it)
                        let skipped = if full_before {
                            and == 0
                        } else {
                            warp.masks[base + w..base + 2 * w].iter().any(|&m| m != 0)
                        };
                        obs.divergence(warp.pc - 1, or != 0 && skipped);
                    }
                    warp.frames.push(Frame::If {
                        else_pc,
                        endif_pc,
                        in_else: false,
                    });
                    if !warp.note_any_all(or != 0, and != 0) {
                        self.revive(warp);
                    }
                }
                OpKind::Else { .. } => {
                    let d = warp.frames.len() - 1;
                    if let Some(Frame::If { in_else, .. }) = warp.frames.last_mut() {
                        *in_else = true;
                    }
                    let start = (d * 4 + 1) * w;
                    let (masks, active) = (&warp.masks, &mut warp.active);
                    active.copy_from_slice(&masks[start..start + w]);
                    self.settle(warp);
                }
                OpKind::EndIf => {
                    let d = warp.frames.len() - 1;
                    let start = d * 4 * w;
                    let (mut or, mut and) = (0, !0);
                    for (a, &m) in warp.active.iter_mut().zip(&warp.masks[start..start + w]) {
                        *a = m;
                        or |= m;
                        and &= m;
                    }
                    warp.frames.pop();
                    if !warp.note_any_all(or != 0, and != 0) {
                        self.revive(warp);
                    }
                }
                OpKind::Loop { end_pc } => {
                    if let PlanOp::CasLoop(cl) = &self.plan[warp.pc - 1].op {
                        let cl = CasLoop::clone(cl);
                        match self.cas_loop(obs, warp, b, &cl, watchdog) {
                            Ok(true) => continue,
                            Ok(false) => {}
                            Err(reason) => return Exit::Stopped(reason),
                        }
                    }
                    let base = self.frame_masks(warp);
                    warp.masks[base..base + 2 * w].fill(0);
                    warp.frames.push(Frame::Loop {
                        start_pc: warp.pc as u32 - 1,
                        end_pc,
                    });
                }
                OpKind::EndLoop { start_pc } => {
                    let continued =
                        !matches!(self.plan[warp.pc - 1].op, PlanOp::EndLoopWithoutContinue);
                    self.end_loop(warp, start_pc, continued);
                }
                OpKind::Break { ref cond } => self.leave(obs, warp, b, cond, Leave::Break),
                OpKind::Continue { ref cond } => self.leave(obs, warp, b, cond, Leave::Continue),
                OpKind::Ret { ref cond } => self.leave(obs, warp, b, cond, Leave::Ret),
                OpKind::Call { label, ref cond } => {
                    let depth = warp
                        .frames
                        .iter()
                        .filter(|f| matches!(f, Frame::Call { .. }))
                        .count();
                    if depth >= MAX_CALL_DEPTH {
                        continue;
                    }
                    let mut lanes = std::mem::take(&mut self.sc.lanes);
                    self.leaving(warp, b, cond, &mut lanes[..w]);
                    let base = self.frame_masks(warp);
                    let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                    let it = m0.iter_mut().zip(m1).zip(warp.active.iter_mut());
                    for (((m0, m1), a), &l) in it.zip(&lanes[..w]) {
                        *m0 = 0;
                        *m1 = *a & !l;
                        *a = l;
                    }
                    self.sc.lanes = lanes;
                    warp.frames.push(Frame::Call {
                        return_pc: warp.pc as u32,
                    });
                    warp.pc = label as usize;
                    self.settle(warp);
                }
                OpKind::Switch { ref sel, id } => {
                    let mut s = std::mem::take(&mut self.sc.s[0]);
                    self.fetch(warp, b, sel, 1, &mut s);
                    let base = self.frame_masks(warp);
                    let values = &prog.switches[id as usize].values;
                    for l in 0..w {
                        let a = warp.active[l];
                        warp.masks[base + l] = 0; // break
                        warp.masks[base + w + l] = a; // pending
                        warp.masks[base + 2 * w + l] = a & bool_mask(!values.contains(&s[l])); // default
                        warp.masks[base + 3 * w + l] = s[l]; // selector
                        warp.active[l] = 0;
                    }
                    self.sc.s[0] = s;
                    warp.frames.push(Frame::Switch { id });
                    self.settle(warp);
                }
                OpKind::Case { value } => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    let (_, rest) = warp.masks[base..base + 4 * w].split_at_mut(w);
                    let (pending, rest) = rest.split_at_mut(w);
                    let selector = &rest[w..];
                    let it = pending.iter_mut().zip(selector).zip(warp.active.iter_mut());
                    for ((p, &sel), a) in it {
                        let join = *p & bool_mask(sel == value);
                        *a |= join;
                        *p &= !join;
                    }
                    self.settle(warp);
                }
                OpKind::Default => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    let (_, rest) = warp.masks[base..base + 3 * w].split_at_mut(w);
                    let (pending, default) = rest.split_at_mut(w);
                    let it = pending
                        .iter_mut()
                        .zip(&*default)
                        .zip(warp.active.iter_mut());
                    for ((p, &d), a) in it {
                        let join = *p & d;
                        *a |= join;
                        *p &= !join;
                    }
                    self.settle(warp);
                }
                OpKind::EndSwitch => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    for l in 0..w {
                        warp.active[l] |= warp.masks[base + l];
                    }
                    warp.frames.pop();
                    self.settle(warp);
                }
                OpKind::Sync { threads, uglobal } => {
                    obs.sync(warp.pc as u32 - 1, warp);
                    if uglobal {
                        sim_mem::sync::fence(sim_mem::sync::Ordering::SeqCst);
                    }
                    if threads {
                        return Exit::Barrier;
                    }
                }
                OpKind::Nop => {}
                // Dispatch refuses a program with unbound interfaces, so an
                // unbound `fcall` is never reached; if it were, it does nothing.
                OpKind::InterfaceCall { .. } => {}
                OpKind::DebugBreak => {
                    self.stats.debug_breaks +=
                        warp.active.iter().filter(|&&a| a != 0).count() as u64;
                    let pc = warp.pc as u32 - 1;
                    self.thread_event(
                        warp,
                        &warp.active,
                        crate::messages::MessageKind::DebugBreak,
                        pc,
                    );
                    if self.break_at_debug_break && warp.active.iter().any(|&a| a != 0) {
                        // stopped at the debug_break itself: the report names
                        // it; the other workers stop too
                        warp.pc -= 1;
                        return Exit::Stopped(watchdog.stop_for(StopReason::DebugBreak));
                    }
                }
                OpKind::Message { site } => {
                    let pc = warp.pc as u32 - 1;
                    self.message(warp, b, site, pc);
                }
                OpKind::Abort => {
                    // The active lanes end wherever they are, even inside a subroutine.
                    let lanes = warp.active.clone();
                    let pc = warp.pc as u32 - 1;
                    self.thread_event(warp, &lanes, crate::messages::MessageKind::Abort, pc);
                    self.stats.aborted_threads += lanes.iter().filter(|&&a| a != 0).count() as u64;
                    self.retire_lanes(warp, 0, &lanes);
                    for (a, &l) in warp.alive.iter_mut().zip(&lanes) {
                        *a &= !l;
                    }
                    for d in 0..warp.frames.len() {
                        if matches!(warp.frames[d], Frame::Call { .. }) {
                            // lanes waiting to return or skipping a callc end too
                            for k in 0..2 {
                                let m = self.mask(warp, d, k);
                                m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m &= !l);
                            }
                        }
                    }
                    self.settle(warp);
                }
                OpKind::LdRaw {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => self.load(obs, warp, b, dst, addr, None, res, swz),
                OpKind::LdStructured {
                    ref dst,
                    ref index,
                    ref offset,
                    res,
                    swz,
                } => self.load(obs, warp, b, dst, index, Some(offset), res, swz),
                OpKind::LdTyped {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => {
                    let mut sa = std::mem::take(&mut self.sc.s[0]);
                    let mut r = std::mem::take(&mut self.sc.r);
                    self.fetch(warp, b, addr, 1, &mut sa);
                    let view = Self::view(b, res);
                    if O::ON {
                        obs.memory(&self.typed_access(warp, res, view, MemOp::Read, &sa, None));
                    }
                    for l in 0..w {
                        if warp.active[l] == 0 {
                            continue;
                        }
                        let v = view.map_or([0; 4], |v| v.typed_load(sa[l]));
                        for c in 0..4 {
                            r[c * w + l] = v[swz[c] as usize];
                        }
                    }
                    self.write(warp, dst, &r);
                    self.sc.s[0] = sa;
                    self.sc.r = r;
                }
                OpKind::StoreTyped {
                    res,
                    ref addr,
                    ref value,
                } => {
                    let mut sa = std::mem::take(&mut self.sc.s[0]);
                    let mut sv = std::mem::take(&mut self.sc.s[1]);
                    self.fetch(warp, b, addr, 1, &mut sa);
                    self.fetch(warp, b, value, 0b1111, &mut sv);
                    if O::ON {
                        let view = Self::view(b, res);
                        let m = self.typed_access(warp, res, view, MemOp::Write, &sa, Some(&sv));
                        obs.memory(&m);
                    }
                    if let Some(view) = Self::view(b, res) {
                        for l in 0..w {
                            if warp.active[l] != 0 {
                                let v = [sv[l], sv[w + l], sv[2 * w + l], sv[3 * w + l]];
                                view.typed_store(sa[l], v);
                            }
                        }
                    }
                    self.sc.s[0] = sa;
                    self.sc.s[1] = sv;
                }
                OpKind::StoreRaw {
                    res,
                    count,
                    ref addr,
                    ref value,
                } => self.store(obs, warp, b, res, count, addr, None, value),
                OpKind::StoreStructured {
                    res,
                    count,
                    ref index,
                    ref offset,
                    ref value,
                } => self.store(obs, warp, b, res, count, index, Some(offset), value),
                OpKind::Atomic {
                    kind,
                    ref ret,
                    res,
                    structured,
                    ref addr,
                    ref a,
                    b: ref bsrc,
                } => self.atomic(
                    obs,
                    warp,
                    b,
                    kind,
                    ret.as_ref(),
                    (res, structured),
                    addr,
                    a,
                    bsrc,
                ),
                OpKind::Counter {
                    ref dst,
                    uav,
                    alloc,
                } => {
                    let mut r = std::mem::take(&mut self.sc.r);
                    let counter = b.uav(uav).map(|v| v.buffer().counter());
                    obs.counter(warp.pc as u32 - 1, uav, alloc, warp);
                    for l in 0..w {
                        if warp.active[l] == 0 {
                            continue;
                        }
                        let v = match counter {
                            Some(c) if alloc => c.fetch_add(1, sim_mem::sync::Ordering::Relaxed),
                            Some(c) => c
                                .fetch_sub(1, sim_mem::sync::Ordering::Relaxed)
                                .wrapping_sub(1),
                            None => 0,
                        };
                        r[l..].iter_mut().step_by(w).take(4).for_each(|x| *x = v);
                    }
                    self.write(warp, dst, &r);
                    self.sc.r = r;
                }
                OpKind::Texture { index } => {
                    self.texture(obs, warp, b, &prog.tex_ops[index as usize]);
                }
                OpKind::Bufinfo { ref dst, res } => {
                    let v = match res {
                        Res::Srv(s) => b.srv(s).map_or(0, |v| v.bufinfo()),
                        Res::Uav(s) => b.uav(s).map_or(0, |v| v.bufinfo()),
                        _ => 0,
                    };
                    let mut r = std::mem::take(&mut self.sc.r);
                    r.fill(v);
                    self.write(warp, dst, &r);
                    self.sc.r = r;
                }
            }
        }
    }

    /// `endloop`: the lanes still in the loop go back to `start_pc` + 1;
    /// with `continued`, those that continued rejoin them first (a loop
    /// without a `continue` has none: its mask stays all zeros,
    /// `FastPaths::LOOP_WITHOUT_CONTINUE`). When none is left, the lanes
    /// that broke out go on past it.
    #[inline(always)]
    fn end_loop(&mut self, warp: &mut Warp, start_pc: u32, continued: bool) {
        let w = self.w;
        let d = warp.frames.len() - 1;
        let (brk, cont) = ((d * 4) * w, (d * 4 + 1) * w);
        if continued {
            let cm = &mut warp.masks[cont..cont + w];
            for (a, c) in warp.active.iter_mut().zip(cm) {
                *a |= std::mem::take(c);
            }
        }
        if warp.note_active() {
            warp.pc = start_pc as usize + 1;
        } else {
            warp.active.copy_from_slice(&warp.masks[brk..brk + w]);
            warp.frames.pop();
            self.settle(warp);
        }
    }

    // -- memory ---------------------------------------------------------

    /// What the analysis knows of the current instruction
    /// (`crate::analysis::affine`), less what the switched-off fast paths
    /// would use: its plan step's.
    #[inline]
    fn facts_here(&self, warp: &Warp) -> PcFacts {
        self.plan[warp.pc - 1].facts
    }

    // -- ALU ------------------------------------------------------------
}

impl Warp {
    /// After `active` changed: note whether every lane is active (`full`)
    /// and which lanes span the active ones (`span`); whether any is.
    #[inline]
    fn note_active(&mut self) -> bool {
        let (some, all) = any_all(&self.active);
        self.note_any_all(some, all)
    }

    /// [`Warp::note_active`] when the caller has already found whether some
    /// and whether every lane of `active` is set.
    #[inline]
    fn note_any_all(&mut self, some: bool, all: bool) -> bool {
        self.count.set(None);
        self.full = all;
        self.span = match (some, all) {
            (_, true) => 0..self.active.len(),
            (true, false) => active_lanes(&self.active).unwrap_or(0..0),
            (false, _) => 0..0,
        };
        some
    }

    /// The number of active lanes (counted once per change of `active`).
    fn active_count(&self) -> u64 {
        if let Some(n) = self.count.get() {
            return n;
        }
        let n = self.active[self.span.clone()]
            .iter()
            .filter(|&&a| a != 0)
            .count() as u64;
        self.count.set(Some(n));
        n
    }

    fn empty() -> Self {
        Warp {
            regs: AlignedWords::default(),
            xregs: Vec::new(),
            tig: [Vec::new(), Vec::new(), Vec::new()],
            flat: Vec::new(),
            tid: [Vec::new(), Vec::new(), Vec::new()],
            gid: [Vec::new(), Vec::new(), Vec::new()],
            batch: Vec::new(),
            x_offset: Vec::new(),
            exists: AlignedWords::default(),
            alive: AlignedWords::default(),
            active: AlignedWords::default(),
            frames: Vec::new(),
            masks: Vec::new(),
            pc: 0,
            done: true,
            full: false,
            span: 0..0,
            splats: [None; 4],
            linear: false,
            count: std::cell::Cell::new(None),
        }
    }
}

mod alu;
mod atomic;
mod cas;
mod flow;
mod memory;
mod message;
mod observe;
use observe::{Both, CasLoopRun, Checking, Mem, MemKind, Observer, Observers, Plain, Profiling};
mod plan;
use plan::{plan, restrict, PlanOp, Planned, Step};
mod pool;
pub use pool::{parked_on_this_thread, Shape, MAX_PARKED_PER_THREAD};
mod profile;
pub use profile::{
    ExecStats, InstructionCounts, LineCounts, Profile, ResourceTraffic, SampleCounts,
    ATOMIC_SAMPLES_EXACT, ATOMIC_SAMPLE_EVERY,
};
mod rows;
mod texture;

use cas::WordCounts;
mod lines;
use lines::{line_of, load_line, store_line, Line};
mod watchdog;
use watchdog::WATCHDOG_INTERVAL;
pub use watchdog::{Runaway, StopReason, Watchdog, EXACT_BUDGET};

#[cfg(test)]
mod tests;

/// The differential oracle of the fast paths (its own docs).
#[cfg(test)]
mod differential;
