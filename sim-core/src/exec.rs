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
use crate::check::{Checker, MemOp, Space};
use crate::ir::lowered::*;
use crate::lanes::*;
use crate::program::*;
use sim_mem::{
    sampling, AtomicOp, Bindings, BufferView, Extent, TextureView, Tgsm, ViewDimension, ViewKind,
};
use std::collections::HashMap;

/// The executor's fast paths, each one switchable: a set of option bits.
/// Every fast path computes what the reference path (the lockstep
/// interpreter, [`FastPaths::NONE`]) computes — the same memory, registers
/// and counts — only sooner; `tests/it/differential.rs` holds each to that.
/// The register of what each recognises, its precondition and why it is
/// equivalent is `sim-core/src/exec/README.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FastPaths(u32);

impl FastPaths {
    /// Component-wise ALU instructions on pre-resolved register rows, with
    /// per-ISA lane kernels (sources known flushed folded in).
    pub const ROW_ALU: Self = Self(1 << 0);
    /// `if_z/if_nz` + `break`/`continue`/`ret` + `endif` run as one step.
    pub const FUSED_LEAVE: Self = Self(1 << 1);
    /// A compare-exchange retry loop (`crate::analysis::cas_loop`) run to its end at
    /// once, lane by lane in lane order, as lockstep would settle it.
    pub const CAS_LOOP: Self = Self(1 << 2);
    /// A condition the analysis knows is the same in every lane
    /// (`crate::analysis::affine`) is read from the first active lane only.
    pub const UNIFORM_IF: Self = Self(1 << 3);
    /// Loads and stores whose addresses step by a known stride per lane
    /// (`crate::analysis::affine`) move whole lines (SSE2 quads where the words are
    /// consecutive) instead of one word per lane.
    pub const MEMORY_LINES: Self = Self(1 << 4);
    /// An `endloop` of a loop without `continue` skips reviving lanes
    /// (`crate::analysis::liveness::loop_continues`).
    pub const LOOP_WITHOUT_CONTINUE: Self = Self(1 << 5);
    /// `udiv` by one divisor in every lane: a multiplication per lane.
    pub const UDIV_BY_ONE: Self = Self(1 << 6);
    /// Small groups that cannot observe one another run several to a warp
    /// ([`GroupExecutor::packed`]; the dispatcher's choice).
    pub const PACKED_GROUPS: Self = Self(1 << 7);
    /// Atomics on a small UAV that the program only updates with one kind
    /// of atomic are gathered per worker and applied when its groups end
    /// ([`GroupExecutor::privatize_atomics`]; the dispatcher's choice).
    pub const PRIVATE_ATOMICS: Self = Self(1 << 8);

    /// Every fast path, each with its name (for messages and the harness).
    pub const EACH: [(Self, &'static str); 9] = [
        (Self::ROW_ALU, "row_alu"),
        (Self::FUSED_LEAVE, "fused_leave"),
        (Self::CAS_LOOP, "cas_loop"),
        (Self::UNIFORM_IF, "uniform_if"),
        (Self::MEMORY_LINES, "memory_lines"),
        (Self::LOOP_WITHOUT_CONTINUE, "loop_without_continue"),
        (Self::UDIV_BY_ONE, "udiv_by_one"),
        (Self::PACKED_GROUPS, "packed_groups"),
        (Self::PRIVATE_ATOMICS, "private_atomics"),
    ];
    /// All of them (the default).
    pub const ALL: Self = Self((1 << 9) - 1);
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

/// Counters of one executor, summed over the groups it ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecStats {
    /// Warp-instructions executed (one per instruction per warp, however many lanes were active).
    pub warp_instructions: u64,
    /// Thread groups run.
    pub groups: u64,
    /// Barriers (`sync_*_t`) completed, counted once per group.
    pub barriers: u64,
    /// Threads ended by `abort`.
    pub aborted_threads: u64,
    /// `debug_break` instructions executed, per thread.
    pub debug_breaks: u64,
}

/// Throughput counters of one executor (`sm5sim run --profile`), kept only
/// when profiling is switched on ([`GroupExecutor::set_profiling`]): a plain
/// run tests one `Option` per warp-instruction and per memory instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Per instruction (program counter): lane-instructions executed, i.e.
    /// the active lanes when it issued, summed over warp-instructions.
    pub lanes_by_pc: Vec<u64>,
    /// Warp-instructions executed.
    pub warp_instructions: u64,
    /// Lane slots issued: warp-instructions × warp width.
    pub lane_slots: u64,
    /// Lane-instructions executed (the sum of `lanes_by_pc`).
    pub active_lanes: u64,
    /// Atomic operations (per lane; `imm_atomic_*` and `atomic_*`, UAV or TGSM).
    pub atomics: u64,
    /// Of those, compare-exchanges.
    pub compare_exchanges: u64,
    /// Compare-exchanges that failed (the value found differed from the
    /// comparand): a shader's CAS loop retries once per failure.
    pub cas_failures: u64,
    /// TGSM bytes read (loads, and 4 per atomic).
    pub tgsm_read: u64,
    /// TGSM bytes written (stores, and 4 per atomic).
    pub tgsm_written: u64,
    /// UAV bytes read (raw, structured and typed buffer loads; 4 per atomic).
    pub uav_read: u64,
    /// UAV bytes written (raw, structured and typed buffer stores; 4 per atomic).
    pub uav_written: u64,
    /// SRV bytes read (raw, structured and typed buffer loads).
    pub srv_read: u64,
}

impl Profile {
    fn new(prog: &Program) -> Self {
        Self {
            lanes_by_pc: vec![0; prog.code.len()],
            ..Self::default()
        }
    }

    /// Add `other`'s counters (of the same program) to these.
    pub fn merge(&mut self, other: &Profile) {
        if self.lanes_by_pc.len() < other.lanes_by_pc.len() {
            self.lanes_by_pc.resize(other.lanes_by_pc.len(), 0);
        }
        for (a, b) in self.lanes_by_pc.iter_mut().zip(&other.lanes_by_pc) {
            *a += b;
        }
        self.warp_instructions += other.warp_instructions;
        self.lane_slots += other.lane_slots;
        self.active_lanes += other.active_lanes;
        self.atomics += other.atomics;
        self.compare_exchanges += other.compare_exchanges;
        self.cas_failures += other.cas_failures;
        self.tgsm_read += other.tgsm_read;
        self.tgsm_written += other.tgsm_written;
        self.uav_read += other.uav_read;
        self.uav_written += other.uav_written;
        self.srv_read += other.srv_read;
    }

    /// SIMD efficiency: active lanes / warp width over all executed
    /// warp-instructions (1.0 when nothing ran).
    pub fn simd_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            1.0
        } else {
            self.active_lanes as f64 / self.lane_slots as f64
        }
    }

    /// Lane-instructions per opcode mnemonic (`mad`, `ld_structured`, …;
    /// without modifiers such as `_sat`), most executed first, ties by name.
    pub fn by_opcode(&self, prog: &Program) -> Vec<(String, u64)> {
        let names: HashMap<u32, &'static str> = prog
            .decoded
            .instructions
            .iter()
            .map(|i| (i.offset, i.opcode.mnemonic()))
            .collect();
        let mut sums: std::collections::BTreeMap<&'static str, u64> = Default::default();
        for (pc, &n) in self.lanes_by_pc.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let name = prog
                .code
                .get(pc)
                .and_then(|op| names.get(&op.token).copied())
                .unwrap_or("?");
            *sums.entry(name).or_default() += n;
        }
        let mut v: Vec<(String, u64)> = sums.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
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
    regs: Vec<u32>,
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
    exists: Vec<u32>,
    alive: Vec<u32>,
    active: Vec<u32>,
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
}

/// A relaxed compare-exchange of `word` from `e` to `n`: the word found.
#[inline(always)]
fn cas(word: &sim_mem::sync::AtomicU32, e: u32, n: u32) -> u32 {
    sim_mem::AtomicOp::CompareExchange {
        compare: e,
        value: n,
    }
    .apply(word)
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

/// Where a pre-resolved source's W lane values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    /// word offset of a temp component in the warp's register file
    Temp(u32),
    /// word offset of an immediate's W copies among the immediate rows
    /// ([`Arena::imm`])
    Imm(u32),
    /// vThreadID component
    Tid(u8),
    /// vThreadIDInGroup component
    Tig(u8),
    /// vThreadIDInGroupFlattened
    Flat,
    /// vThreadGroupID component (uniform: filled per instruction)
    Group(u8),
    /// a constant-buffer word at an immediate index (uniform: filled per instruction)
    Cb { slot: u32, word: u64 },
}

/// A source of one destination component of a [`FastAlu`]: the swizzle
/// applied, the modifier still to apply (immediates are pre-modified).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FastSrc {
    row: Row,
    modifier: SrcMod,
}

/// One destination component: its word offset in the register file and its
/// sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FastComp {
    dst: u32,
    src: [FastSrc; 4],
}

/// An ALU instruction into a temp whose sources are temps,
/// immediates, system values or immediately indexed constant-buffer words,
/// resolved once per executor: per destination component, the lane kernel
/// and where each source's lane values are; then lowered onto the warps'
/// arena ([`RowAlu`]). The hot path of every shader; the general
/// [`GroupExecutor::alu`] handles everything else, with kernels made from
/// the same lane functions (`lanes::lane_ops!`).
#[derive(Debug, Clone, Copy)]
struct FastAlu {
    op: LaneOp,
    sat: bool,
    /// every source word is flushed (`crate::analysis::flushed`): the row kernel is
    /// [`LaneOp::flushed_rows`]
    flushed: bool,
    /// the destination is dead wherever a lane inactive here resumes
    /// (`crate::analysis::liveness`): a partial warp's lanes are written unblended
    unmasked: bool,
    /// destination components: `comps[..n].dst`; a dot product's terms'
    /// sources are `comps[..op.dot].src[..2]`
    n: u8,
    comps: [FastComp; 4],
}

/// Where a warp's rows lie in its arena (`Warp::regs`), in words: the
/// register file (`temps`·4 rows) first, then the system values (`sys`:
/// vThreadID.xyz, vThreadIDInGroup.xyz, vThreadGroupID.xyz,
/// vThreadIDInGroupFlattened), the immediate rows of the fast ALU
/// instructions (`imm`), and [`SCRATCH_ROWS`] scratch rows (`scratch`):
/// every operand of a [`RowAlu`] is a row of one slice.
#[derive(Debug, Clone, Copy)]
struct Arena {
    w: usize,
    sys: usize,
    imm: usize,
    scratch: usize,
    len: usize,
}

/// Scratch rows in a warp's arena: four for constant-buffer words, four
/// for results computed before any is written, and the row kernels' spare
/// row ([`RowArgs::spare`]).
const SCRATCH_ROWS: usize = 9;

impl Arena {
    fn new(prog: &Program, w: usize, imm_words: usize) -> Self {
        let sys = prog.temps as usize * 4 * w;
        let imm = sys + 10 * w;
        let scratch = imm + imm_words;
        Arena {
            w,
            sys,
            imm,
            scratch,
            len: scratch + SCRATCH_ROWS * w,
        }
    }
}

/// A [`FastAlu`] lowered onto a warp's [`Arena`]: its row kernel and the
/// [`RowArgs`] of each row it computes.
#[derive(Debug, Clone, Copy)]
struct RowAlu {
    rows: RowKernel,
    /// the rows computed: one per destination component, or a dot
    /// product's one sum
    comps: [RowArgs; 4],
    n: u8,
    /// `comps[k].out` is destination component k's row: no component
    /// reads a destination row written before it (and a dot product has
    /// one destination). Else they are scratch rows, moved to the
    /// destinations by `moves` once all are computed.
    direct: bool,
    moves: [RowArgs; 4],
    n_moves: u8,
    /// the `mov` row kernel
    mov: RowKernel,
    /// [`FastAlu::unmasked`]
    unmasked: bool,
    /// constant-buffer words to fill scratch rows with first: (row, slot,
    /// word, modifier)
    splats: [(u32, u32, u64, SrcMod); 4],
    n_splats: u8,
}

/// The bits of a source modifier ([`SrcBits`]); `None` for the integer
/// absolute value, which they cannot express.
fn src_bits(m: SrcMod) -> Option<SrcBits> {
    let (and, xor, add) = match m {
        SrcMod::FNeg => (!0, 0x8000_0000, 0),
        SrcMod::FAbs => (0x7fff_ffff, 0, 0),
        SrcMod::FAbsNeg => (0x7fff_ffff, 0x8000_0000, 0),
        SrcMod::INeg => (!0, !0, 1),
        SrcMod::IAbs | SrcMod::IAbsNeg => return None,
        // the double modifiers never reach a fast instruction
        SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg => (!0, 0, 0),
    };
    Some(SrcBits { and, xor, add })
}

/// Whether an operand of `prog` (or one of its relative indices) is
/// vThreadGroupID: else the executor does not keep its rows.
fn reads_group_id(prog: &Program) -> bool {
    fn any(o: &crate::ir::Operand) -> bool {
        o.ty == crate::ir::OperandType::InputThreadGroupId
            || o.indices.iter().filter_map(|i| i.rel.as_deref()).any(any)
    }
    prog.decoded
        .instructions
        .iter()
        .any(|i| i.operands.iter().any(any))
}

/// Which of vThreadID.xyz (bits 0–2) and vThreadGroupID.xyz (bits 3–5)
/// the fast ALU instructions read: the arena rows a new batch refreshes.
fn per_batch_rows(fast: &[Option<FastAlu>]) -> u8 {
    let mut used = 0;
    for f in fast.iter().flatten() {
        let (comps, arity) = match f.op.dot {
            0 => (&f.comps[..f.n as usize], f.op.arity as usize),
            d => (&f.comps[..d as usize], 2),
        };
        for s in comps.iter().flat_map(|c| &c.src[..arity]) {
            match s.row {
                Row::Tid(k) => used |= 1 << k,
                Row::Group(k) => used |= 8 << k,
                _ => {}
            }
        }
    }
    used
}

/// `f` on the rows of arena `l`; `None` when it needs more than four
/// constant-buffer rows, a source has an integer `abs` modifier, or an
/// offset does not fit in 32 bits.
fn lower(f: &FastAlu, l: &Arena) -> Option<RowAlu> {
    let w = l.w;
    let row = |i: usize| u32::try_from(i).ok();
    let mut splats = [(0, 0, 0, SrcMod::None); 4];
    let mut n_splats = 0;
    let mut place = |s: &FastSrc| -> Option<(u32, SrcBits)> {
        let at = match s.row {
            Row::Temp(o) => o as usize,
            Row::Imm(o) => l.imm + o as usize,
            Row::Tid(k) => l.sys + k as usize * w,
            Row::Tig(k) => l.sys + (3 + k as usize) * w,
            Row::Group(k) => l.sys + (6 + k as usize) * w,
            Row::Flat => l.sys + 9 * w,
            Row::Cb { slot, word } => {
                let key = (slot, word, s.modifier);
                let found = splats[..n_splats]
                    .iter()
                    .position(|&(_, sl, wd, m)| (sl, wd, m) == key);
                let k = match found {
                    Some(k) => k,
                    None if n_splats < 4 => {
                        let r = row(l.scratch + n_splats * w)?;
                        splats[n_splats] = (r, slot, word, s.modifier);
                        n_splats += 1;
                        n_splats - 1
                    }
                    None => return None,
                };
                // the modifier is applied when filling the row
                return Some((splats[k].0, SrcBits::NONE));
            }
        };
        Some((row(at)?, src_bits(s.modifier)?))
    };
    let none = RowArgs {
        out: 0,
        spare: row(l.scratch + 8 * w)?,
        src: [0; 8],
        mods: [SrcBits::NONE; 8],
        modified: false,
        sat: f.sat,
    };
    let arity = f.op.arity as usize;
    let dot = f.op.dot as usize;
    let n = f.n as usize;
    let mut comps = [none; 4];
    let computed = if dot > 0 { 1 } else { n };
    for (k, a) in comps.iter_mut().enumerate().take(computed) {
        let srcs: Vec<&FastSrc> = if dot > 0 {
            f.comps[..dot].iter().flat_map(|c| &c.src[..2]).collect()
        } else {
            f.comps[k].src[..arity].iter().collect()
        };
        for (i, s) in srcs.into_iter().enumerate() {
            let (o, bits) = place(s)?;
            a.src[i] = o;
            a.mods[i] = bits;
            a.modified |= bits != SrcBits::NONE;
        }
    }
    // a source 1 that is the destination row and commutes with source 0
    // becomes source 0: the row kernels read it through the destination's
    // slice then (`lanes::row_body`), without a copy
    if dot == 0 && f.op.commutes && f.op.arity >= 2 {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            if a.src[1] == f.comps[k].dst && a.src[0] != a.src[1] {
                a.src.swap(0, 1);
                a.mods.swap(0, 1);
            }
        }
    }
    let dst = |k: usize| f.comps[k].dst;
    // component k reads none of the destination rows written before it
    // (its own it may read: a row kernel reads a lane before writing it)
    let reads_no_earlier = |k: usize| {
        let written: Vec<u32> = (0..k).map(dst).collect();
        comps[k].src[..arity].iter().all(|o| !written.contains(o))
    };
    let direct = if dot > 0 {
        n == 1
    } else {
        (0..n).all(reads_no_earlier)
    };
    let mut moves = [none; 4];
    let mut n_moves = 0;
    if direct {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            a.out = dst(k);
        }
    } else {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            a.out = row(l.scratch + (4 + k) * w)?;
        }
        for (k, m) in moves.iter_mut().enumerate().take(n) {
            m.out = dst(k);
            m.src[0] = comps[if dot > 0 { 0 } else { k }].out;
            m.sat = false;
        }
        n_moves = n as u8;
    }
    Some(RowAlu {
        rows: if f.flushed {
            f.op.flushed_rows
        } else {
            f.op.rows
        },
        comps,
        n: computed as u8,
        direct,
        moves,
        n_moves,
        mov: lane_op(AluOp::Mov).rows,
        unmasked: f.unmasked,
        splats,
        n_splats: n_splats as u8,
    })
}

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

/// [`modify`] on every lane (one loop per modifier, so that each vectorises).
#[inline(always)]
fn apply_modifier(o: &mut [u32], m: SrcMod) {
    match m {
        SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg => {}
        SrcMod::FNeg => o.iter_mut().for_each(|v| *v ^= 0x8000_0000),
        SrcMod::FAbs => o.iter_mut().for_each(|v| *v &= 0x7fff_ffff),
        SrcMod::FAbsNeg => o.iter_mut().for_each(|v| *v |= 0x8000_0000),
        SrcMod::INeg => o.iter_mut().for_each(|v| *v = v.wrapping_neg()),
        SrcMod::IAbs => o.iter_mut().for_each(|v| *v = (*v as i32).unsigned_abs()),
        SrcMod::IAbsNeg => o
            .iter_mut()
            .for_each(|v| *v = (*v as i32).unsigned_abs().wrapping_neg()),
    }
}

/// `(p[l], q[l]) = f(x[l], y[l])` for every lane: the lane loop of a
/// two-result instruction.
#[inline(always)]
fn lanes2(p: &mut [u32], q: &mut [u32], x: &[u32], y: &[u32], f: impl Fn(u32, u32) -> (u32, u32)) {
    for (((p, q), &x), &y) in p.iter_mut().zip(q).zip(x).zip(y) {
        (*p, *q) = f(x, y);
    }
}

/// The pre-resolved ALU instructions of `prog` for warps of `w` lanes: per
/// pc, the [`FastAlu`] form of an instruction that has one (else `None`),
/// and the immediate rows they read (W copies of each distinct value).
fn resolve_fast(prog: &Program, w: usize) -> (Vec<Option<FastAlu>>, Vec<u32>) {
    let mut imm: Vec<u32> = Vec::new();
    let mut seen: HashMap<u32, u32> = HashMap::new();
    let mut fast = Vec::with_capacity(prog.code.len());
    let facts = prog.info();
    let (flushed, unmasked) = (&facts.flushed, &facts.liveness.unmasked);
    for ((op, &flushed), &unmasked) in prog.code.iter().zip(flushed).zip(unmasked) {
        let f = resolve_alu(prog, op, w, flushed, &mut |v| {
            let o = *seen.entry(v).or_insert_with(|| imm.len() as u32);
            if o as usize == imm.len() {
                imm.extend(std::iter::repeat_n(v, w));
            }
            o
        });
        fast.push(f.map(|f| FastAlu { unmasked, ..f }));
    }
    (fast, imm)
}

/// The [`FastAlu`] form of `op`, if it has one; `flushed` says that every
/// source word it reads is flushed ([`crate::analysis::flushed::flushed_sources`]), `imm_row` gives
/// the offset of an immediate's row.
fn resolve_alu(
    prog: &Program,
    op: &Op,
    w: usize,
    flushed: bool,
    imm_row: &mut impl FnMut(u32) -> u32,
) -> Option<FastAlu> {
    let OpKind::Alu {
        op,
        ref dst,
        ref src,
        sat,
    } = op.kind
    else {
        return None;
    };
    let lane = lane_op(op);
    let dot = lane.dot as usize;
    let DstKind::Temp(r) = dst.kind else {
        return None;
    };
    if r >= prog.temps {
        return None;
    }
    let unused = FastSrc {
        row: Row::Flat,
        modifier: SrcMod::None,
    };
    let mut comps = [FastComp {
        dst: 0,
        src: [unused; 4],
    }; 4];
    let mut n = 0;
    if dot > 0 {
        // the terms' sources; destinations below
        for (c, comp) in comps.iter_mut().enumerate().take(dot) {
            comp.src[0] = resolve_src(prog, &src[0], c, w, imm_row)?;
            comp.src[1] = resolve_src(prog, &src[1], c, w, imm_row)?;
        }
    }
    for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
        let d = u32::try_from((r as usize * 4 + c) * w).ok()?;
        if dot > 0 {
            comps[n].dst = d;
        } else {
            let mut s = [unused; 4];
            for (i, s) in s.iter_mut().enumerate().take(lane.arity as usize) {
                *s = resolve_src(prog, &src[i], c, w, imm_row)?;
            }
            comps[n] = FastComp { dst: d, src: s };
        }
        n += 1;
    }
    (n > 0).then_some(FastAlu {
        op: lane,
        sat,
        flushed,
        unmasked: false,
        n: n as u8,
        comps,
    })
}

/// Destination component `c`'s view of `s` as a [`FastSrc`], if it has one.
fn resolve_src(
    prog: &Program,
    s: &Src,
    c: usize,
    w: usize,
    imm_row: &mut impl FnMut(u32) -> u32,
) -> Option<FastSrc> {
    let sc = s.swz[c] as usize;
    let modifier = s.modifier;
    if matches!(modifier, SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg) {
        return None;
    }
    // an immediate (or a missing system-value component, which reads 0)
    let imm = |v: u32, imm_row: &mut dyn FnMut(u32) -> u32| FastSrc {
        row: Row::Imm(imm_row(modify(v, modifier))),
        modifier: SrcMod::None,
    };
    let row = match s.kind {
        SrcKind::Temp(r) if r < prog.temps => {
            Row::Temp(u32::try_from((r as usize * 4 + sc) * w).ok()?)
        }
        SrcKind::Imm(v) => return Some(imm(*v.get(sc)?, imm_row)),
        SrcKind::ThreadId if sc < 3 => Row::Tid(sc as u8),
        SrcKind::ThreadIdInGroup if sc < 3 => Row::Tig(sc as u8),
        SrcKind::GroupId if sc < 3 => Row::Group(sc as u8),
        SrcKind::ThreadId | SrcKind::ThreadIdInGroup | SrcKind::GroupId => {
            return Some(imm(0, imm_row))
        }
        SrcKind::Flattened => Row::Flat,
        SrcKind::Cb { slot, index } if index.rel.is_none() => Row::Cb {
            slot,
            word: index.imm as u64 * 4 + sc as u64,
        },
        _ => return None,
    };
    Some(FastSrc { row, modifier })
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
    /// the concurrency checker, when checking (`None` in a plain run)
    check: Option<Box<Checker>>,
    /// per warp, the barrier it parked at in this round (checking only)
    round: Vec<Option<u32>>,
    /// interleaving warps ([`GroupExecutor::run_group_interleaved`]): a warp
    /// then yields when `until_check` runs out instead of consulting the watchdog
    interleave: bool,
    /// throughput counters, when profiling (`None` in a plain run)
    prof: Option<Box<Profile>>,
    /// per pc, the pre-resolved form of a fast ALU instruction
    fast: Vec<Option<RowAlu>>,
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
    /// per pc, what `crate::analysis::affine` knows: the steps per lane of a memory
    /// instruction's address operands, whether a condition is uniform
    facts: &'p [PcFacts],
    /// per pc, at an `endloop`: whether its loop has a `continue`
    /// (`crate::analysis::liveness::loop_continues`, in `Program::facts`)
    loop_continues: &'p [bool],
    /// `udiv`'s lane loop for this CPU
    udiv_rows: UdivRows,
    /// `udiv`'s lane loop by one divisor for this CPU
    udiv_by_rows: UdivByRows,
    /// ([`fused_leaves`])
    fused: &'p [Option<Leave>],
    /// per pc, at a `loop`, the compare-exchange retry loop it begins
    /// (`crate::analysis::cas_loop`), which [`GroupExecutor::cas_loop`] runs at once
    cas_loops: &'p [Option<CasLoop>],
    /// the fast paths switched on ([`GroupExecutor::with_fast_paths`])
    fast_paths: FastPaths,
    /// the components of vThreadID (bits 0–2) an operand reads
    /// ([`thread_id_comps`]): a batch computes only those
    tid_comps: u8,
    /// whether a batch starts with its register file zeroed: only when a
    /// lane may read a temp before writing it (`crate::analysis::liveness`)
    zero_regs: bool,
}

/// The most groups a packed executor runs at once for `prog`
/// ([`GroupExecutor::packed`]) in a plain run: 1 when its groups could
/// observe one another in one warp — it declares TGSM or has a group
/// barrier (`sync_*_t`) — or when it has a compare-exchange that returns
/// the old value outside a retry loop the executor runs at once
/// (`crate::analysis::cas_loop`: a lock, say, where the lanes of one warp that meet
/// on a word succeed one per pass); else as many as give about
/// [`PACKED_LANES`] lanes, within 1024 lanes and a register file (temps
/// and indexable temps) of at most [`PACKED_REGISTER_BYTES`], so that it
/// stays in the L1 cache. A retry loop's lanes that meet on a word run as
/// one chain at once (`GroupExecutor::cas_loop`), so packing those
/// groups pays (cas_float_add's, eight to a warp: 1.9 times faster at one
/// thread, session 14).
pub fn packed_groups_limit(prog: &Program) -> u32 {
    groups_limit(prog, false)
}

/// [`packed_groups_limit`] where compare-exchange retry loops run in
/// lockstep (under a profile): 1 for any compare-exchange that returns the
/// old value, as each pass of a lockstep loop lets one lane per word
/// succeed (packing cas_float_add's groups four to a warp made it 1.8
/// times slower in lockstep).
pub fn lockstep_packed_groups_limit(prog: &Program) -> u32 {
    groups_limit(prog, true)
}

fn groups_limit(prog: &Program, lockstep: bool) -> u32 {
    let n = prog.threads_per_group().max(1) as usize;
    let in_loop = |pc: usize| {
        !lockstep
            && prog
                .info()
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
    if !prog.tgsm.is_empty() || !apart {
        return 1;
    }
    let xwords: usize = prog
        .indexable_temps
        .iter()
        .map(|x| x.size as usize * 4)
        .sum();
    let words_per_lane = (prog.temps as usize * 4 + xwords).max(1);
    let by_regs = PACKED_REGISTER_BYTES / (4 * words_per_lane * n);
    let lanes = PACKED_LANES.min(1024);
    (lanes / n).min(by_regs).max(1) as u32
}

/// The lanes a packed warp aims at ([`packed_groups_limit`]): on
/// mandelbrot's 8×8 groups, 256 lanes took 0.22 s where 64 took 0.41 s
/// (1 thread, a 2-vCPU Xeon VM); since session 10's
/// unblended writes, 512 run it in 12% fewer instructions than 256
/// (callgrind, 256² pixels: 149.0M → 131.4M; 128 lanes: 181.9M) and
/// 0.091 s where 256 took 0.103 s (1 thread, medians; 2 threads 0.045 s
/// and 0.054 s); 1024 (640 lanes within the register budget) gained
/// nothing more.
pub const PACKED_LANES: usize = 512;

/// The largest register file, in bytes, a packed warp may have.
pub const PACKED_REGISTER_BYTES: usize = 32 << 10;

/// The largest buffer, in 32-bit words, whose atomics an executor gathers
/// in words of its own (256 KiB: a histogram's bins, not a frame).
pub const PRIVATE_ATOMICS_MAX_WORDS: usize = 1 << 16;

/// One UAV's atomics gathered by an executor.
#[derive(Debug)]
struct PrivateUav {
    /// u#
    slot: u32,
    /// the one kind of atomic the program applies to it
    kind: AtomicKind,
    /// address of the bound buffer's words (which buffer the words are for)
    buffer: usize,
    /// per word of the buffer, the operations so far combined, from the
    /// kind's identity
    words: Vec<u32>,
    /// whether some operation has been gathered since the last flush
    dirty: bool,
}

/// Address of a buffer view's words: which buffer it is.
fn buffer_address(v: &BufferView<'_>) -> usize {
    v.buffer().words().as_ptr().addr()
}

/// Bytes of one element of a typed buffer view (16 when unknown).
fn typed_bytes(view: Option<BufferView<'_>>) -> u64 {
    match view.map(|v| v.kind()) {
        Some(ViewKind::Typed { format }) => format.size_bytes() as u64,
        _ => 16,
    }
}

/// (some lane set, every lane set), in one pass that vectorises.
#[inline]
fn any_all(m: &[u32]) -> (bool, bool) {
    let (or, and) = m.iter().fold((0, !0), |(o, a), &x| (o | x, a & x));
    (or != 0, and != 0)
}

fn dmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

fn dmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

/// `_sat` on a double: clamp to [0, 1], NaN → 0, −0 → +0.
fn dsat(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else {
        x.min(1.0)
    }
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
        if !paths.contains(FastPaths::ROW_ALU) {
            self.fast = Vec::new();
        }
        if !paths.contains(FastPaths::FUSED_LEAVE) {
            self.fused = &[];
        }
        if !paths.contains(FastPaths::CAS_LOOP) {
            self.cas_loops = &[];
        }
        if !paths.contains(FastPaths::LOOP_WITHOUT_CONTINUE) {
            self.loop_continues = &[];
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
    /// packed: `groups` is capped by [`packed_groups_limit`], which is 1
    /// (an ordinary executor with a warp per group) for a program with TGSM
    /// or a group barrier. Every system value stays each thread's own, and
    /// what the groups do to memory is what one execution of them side by
    /// side may do (`reference/compute-model.md` §6.1: a dispatch orders no
    /// two groups): their stores land as if the groups ran one after
    /// another in lane order, but a load of one group may come before
    /// another group's earlier store. Attaching a checker turns the executor back into an
    /// ordinary one ([`GroupExecutor::set_checker`]).
    pub fn packed(prog: &'p Program, groups: u32) -> Self {
        let pack = groups.clamp(1, packed_groups_limit(prog));
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
        let (fast, fast_imm) = resolve_fast(prog, w);
        let arena = Arena::new(prog, w, fast_imm.len());
        let warps = (0..n.div_ceil(w))
            .map(|wi| {
                let mut tig = [vec![0; w], vec![0; w], vec![0; w]];
                let mut flat = vec![0; w];
                let mut batch = vec![0; w];
                let mut exists = vec![0; w];
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
                        let mut a = vec![0; arena.len];
                        a[arena.imm..arena.scratch].copy_from_slice(&fast_imm);
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
        let batch_rows = per_batch_rows(&fast);
        let fast = fast
            .iter()
            .map(|f| f.as_ref().and_then(|f| lower(f, &arena)))
            .collect();
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
            },
            pack,
            stats: ExecStats::default(),
            until_check: WATCHDOG_INTERVAL,
            interval: WATCHDOG_INTERVAL,
            watchdog_id: 0,
            check: None,
            round: Vec::new(),
            interleave: false,
            prof: None,
            fast,
            arena,
            batch_rows,
            group_rows: reads_group_id(prog),
            first: [0; 3],
            dp_acc: dp_acc_kernel(),
            isa: crate::lanes::isa(),
            private: Vec::new(),
            facts: if pack > 1 {
                &prog.info().packed_pcs
            } else {
                &prog.info().pcs
            },
            loop_continues: &prog.info().loop_continues,
            udiv_rows: udiv_rows_kernel(),
            udiv_by_rows: udiv_by_rows_kernel(),
            fused: &prog.info().fused,
            cas_loops: &prog.info().cas_loops,
            tid_comps: prog.info().thread_id_comps | batch_rows & 7,
            fast_paths: FastPaths::ALL,
            zero_regs: prog.info().liveness.reads_unwritten,
        }
    }

    /// Gather the atomics on the UAVs that no instruction of the program
    /// reads in words of this executor's own, instead of applying each to
    /// the bound buffer: plain operations on memory only this worker
    /// touches, without cache-line contention between workers. Such a UAV
    /// is one the program changes only with atomics that return nothing,
    /// all of one commutative kind (`atomic_iadd`, `atomic_umax`, …): no
    /// thread can observe its words during the dispatch, and its words after
    /// the dispatch are the same in any order of the operations
    /// (`reference/compute-model.md` §6.1 items 2 and 7, §6.3: atomics on
    /// one word are serialized in some order no shader can rely on, and all
    /// of a dispatch's UAV accesses complete before the next dispatch).
    /// It must also be
    /// bound to a raw, structured or typed buffer view of at most
    /// [`PRIVATE_ATOMICS_MAX_WORDS`] words that no other bound SRV or UAV
    /// views. With a checker attached nothing is gathered.
    ///
    /// The caller must apply the gathered words with
    /// [`GroupExecutor::flush_atomics`], with these same `bindings`, before
    /// the dispatch counts as done (`sim_sched::dispatch` flushes when a
    /// worker's share of the groups ends). Returns whether gathering was
    /// set up afresh: `false`, and nothing changes, while words gathered
    /// earlier are not yet flushed (they are never dropped).
    pub fn privatize_atomics(&mut self, bindings: &Bindings<'_>) -> bool {
        if self.private.iter().any(|p| p.dirty) {
            return false;
        }
        self.private.clear();
        if self.check.is_some() {
            return true;
        }
        for &(slot, kind) in &self.prog.info().write_only_atomic_uavs {
            let Some(view) = bindings.uav(slot) else {
                continue;
            };
            let n = view.buffer().words().len();
            let address = buffer_address(&view);
            let srvs = bindings.srvs.iter().flatten();
            let other_uavs = (bindings.uavs.iter().enumerate())
                .filter(|&(u, _)| u != slot as usize)
                .filter_map(|(_, v)| v.as_ref());
            let aliased = srvs.chain(other_uavs).any(|v| buffer_address(v) == address);
            if n == 0 || n > PRIVATE_ATOMICS_MAX_WORDS || aliased {
                continue;
            }
            self.private.push(PrivateUav {
                slot,
                kind,
                buffer: address,
                words: vec![kind.identity(); n],
                dirty: false,
            });
        }
        true
    }

    /// Apply the atomics gathered since [`GroupExecutor::privatize_atomics`]
    /// (or the last flush) to the buffers of `bindings`, one atomic
    /// operation per word that changed, and start gathering afresh.
    /// `bindings` must bind the same buffers as when gathering began; a slot
    /// now bound to another buffer keeps its words (and a later flush with
    /// the right bindings applies them).
    pub fn flush_atomics(&mut self, bindings: &Bindings<'_>) {
        for p in self.private.iter_mut().filter(|p| p.dirty) {
            let Some(view) = bindings.uav(p.slot) else {
                continue;
            };
            if buffer_address(&view) != p.buffer {
                continue;
            }
            let identity = p.kind.identity();
            for (x, word) in p.words.iter_mut().zip(view.buffer().words()) {
                if *x != identity {
                    p.kind.op(*x, 0).apply(word);
                    *x = identity;
                }
            }
            p.dirty = false;
        }
    }

    /// Attach a concurrency checker (or detach it with `None`): from now on
    /// every group this executor runs reports its memory accesses, `sync`s
    /// and barriers to it. The caller brackets each dispatch with
    /// [`Checker::begin_dispatch`] and [`Checker::end_dispatch`]
    /// (`sim_sched::dispatch_checked` does all of this).
    ///
    /// A packed executor ([`GroupExecutor::packed`]) becomes an ordinary
    /// one with a warp per group first, keeping its counters, profile and
    /// gathered atomics: the checker follows one group at a time.
    pub fn set_checker(&mut self, checker: Option<Box<Checker>>) {
        if checker.is_some() && self.pack > 1 {
            let mut one = Self::new(self.prog, usize::MAX);
            one.stats = self.stats;
            one.prof = self.prof.take();
            one.private = std::mem::take(&mut self.private);
            *self = one;
        }
        self.check = checker;
    }

    /// Take the attached checker back.
    pub fn take_checker(&mut self) -> Option<Box<Checker>> {
        self.check.take()
    }

    /// Switch throughput profiling on (fresh counters) or off.
    pub fn set_profiling(&mut self, on: bool) {
        self.prof = on.then(|| Box::new(Profile::new(self.prog)));
    }

    /// The profile gathered since profiling was switched on (None when off).
    pub fn profile(&self) -> Option<&Profile> {
        self.prof.as_deref()
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
        if let Some(ck) = self.check.as_deref_mut() {
            ck.begin_group(group, self.w);
        }
        // The warps leave `self` for the group, so each runs in place.
        let mut warps = std::mem::take(&mut self.warps);
        let outcome = self.run_rounds(&mut warps, bindings, watchdog);
        self.warps = warps;
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
        if let Some(ck) = self.check.as_deref_mut() {
            ck.end_group();
        }
        Ok(())
    }

    /// Barrier rounds: every unfinished warp runs until it parks at a
    /// barrier or finishes; a round in which none parked ends the group.
    fn run_rounds(
        &mut self,
        warps: &mut [Warp],
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Result<(), Runaway> {
        let checking = self.check.is_some();
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
                let exit = self.run_warp(warp, bindings, watchdog);
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
            if let Some(ck) = self.check.as_deref_mut() {
                ck.barrier_round(&self.round);
            }
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
        let checker = self.check.take();
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
            let exit = self.run_warp(&mut warp, bindings, watchdog);
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
        self.check = checker;
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
        let mnemonic = self.mnemonic_at(token);
        Runaway {
            reason,
            group: self.first,
            lane: 0,
            mnemonic,
            token,
        }
    }

    /// The mnemonic of the instruction at dword `token` ("?" if none).
    fn mnemonic_at(&self, token: u32) -> String {
        self.prog
            .decoded
            .instructions
            .iter()
            .find(|i| i.offset == token)
            .map_or_else(|| "?".to_string(), crate::disasm::mnemonic)
    }

    fn runaway(&self, warp: &Warp, reason: StopReason) -> Runaway {
        let lane = warp.active.iter().position(|&a| a != 0).unwrap_or(0);
        let token = self.prog.code.get(warp.pc).map_or(0, |op| op.token);
        let mnemonic = self.mnemonic_at(token);
        Runaway {
            reason,
            group: {
                let [x, y, z] = self.first;
                [x.wrapping_add(warp.batch[lane]), y, z]
            },
            lane: warp.flat[lane],
            mnemonic,
            token,
        }
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

    /// A pre-resolved ALU instruction, lowered onto the warp's arena
    /// ([`RowAlu`]): its constant-buffer rows filled, then each row
    /// computed by the row kernel — straight into the destination rows
    /// when [`RowAlu::direct`], else into scratch rows then moved — for
    /// every lane of a full warp, or blended under the active lanes of a
    /// partial one, over the [`CHUNK`]-lane steps that hold its active
    /// lanes.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn run_fast(&self, warp: &mut Warp, b: &Bindings<'_>, f: &RowAlu) {
        let w = self.w;
        let Warp {
            regs,
            active,
            full,
            span,
            splats,
            ..
        } = warp;
        // splat k is the arena's scratch row k (`lower`); a row that holds
        // the value already, from this instruction's last run in a loop,
        // is not filled again
        for (&(row, slot, word, m), held) in f.splats[..f.n_splats as usize].iter().zip(splats) {
            let v = modify(self.cb_word(b, slot, word), m);
            if *held != Some(v) {
                regs[row as usize..row as usize + w].fill(v);
                *held = Some(v);
            }
        }
        let (lanes, mask) = if *full {
            (0..w, None)
        } else {
            let start = span.start / CHUNK * CHUNK;
            let end = span.end.div_ceil(CHUNK) * CHUNK;
            let mask = (!f.unmasked).then_some(&active[..]);
            (start..end.min(w), mask)
        };
        let comps = &f.comps[..f.n as usize];
        // SAFETY: `lane_op` returns row kernels compiled for an instruction
        // set the CPU runs (`isa`) or the baseline's; `lower` placed every
        // row inside the arena, and `lanes` and `active` are within W.
        unsafe {
            if f.direct {
                for a in comps {
                    (f.rows)(regs, a, lanes.clone(), mask);
                }
            } else {
                for a in comps {
                    (f.rows)(regs, a, lanes.clone(), None);
                }
                for m in &f.moves[..f.n_moves as usize] {
                    (f.mov)(regs, m, lanes.clone(), mask);
                }
            }
        }
    }

    /// The pre-resolved ALU instructions that follow one ([`run_fast`]),
    /// run in a row without going back through the interpreter loop's
    /// dispatch: an ALU instruction changes no mask and ends no lane, so
    /// the loop's checks between them would find nothing new. Each is
    /// counted as the loop counts it (statistics, profile, watchdog); the
    /// run stops one instruction before the watchdog's next check is due,
    /// so that the loop makes that check (and yields, when interleaving)
    /// exactly where it would have.
    ///
    /// [`run_fast`]: GroupExecutor::run_fast
    #[inline(always)]
    fn run_fast_after(&mut self, warp: &mut Warp, b: &Bindings<'_>) {
        while let Some(Some(f)) = self.fast.get(warp.pc) {
            if self.until_check <= 1 {
                return;
            }
            self.until_check -= 1;
            Self::step(&mut self.stats, self.prof.as_deref_mut(), self.w, warp);
            self.run_fast(warp, b, f);
        }
    }

    /// Moves `warp` past the instruction at its pc, counting it: in the
    /// statistics, and in the profile when one is kept. (A function of the
    /// fields it changes, so that a caller may hold the fast forms.)
    #[inline(always)]
    fn step(stats: &mut ExecStats, prof: Option<&mut Profile>, w: usize, warp: &mut Warp) {
        warp.pc += 1;
        stats.warp_instructions += 1;
        if let Some(p) = prof {
            let n = warp.active_count();
            p.lanes_by_pc[warp.pc - 1] += n;
            p.warp_instructions += 1;
            p.active_lanes += n;
            p.lane_slots += w as u64;
        }
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

    fn frame_masks(&mut self, warp: &mut Warp) -> usize {
        let need = (warp.frames.len() + 1) * 4 * self.w;
        if warp.masks.len() < need {
            warp.masks.resize(need, 0);
        }
        (warp.frames.len()) * 4 * self.w
    }

    fn mask<'a>(&self, warp: &'a mut Warp, depth: usize, k: usize) -> &'a mut [u32] {
        let start = (depth * 4 + k) * self.w;
        &mut warp.masks[start..start + self.w]
    }

    /// `out[lane]` = all ones where component 0 of `src` is nonzero (`nz`)
    /// or zero (`!nz`), else 0 (W words).
    #[inline(always)]
    fn condition(&mut self, warp: &Warp, b: &Bindings<'_>, src: &Src, nz: bool, out: &mut [u32]) {
        let mut buf = std::mem::take(&mut self.sc.s[0]);
        let c = self.operand(warp, b, src, 0, &mut buf);
        for (o, &c) in out.iter_mut().zip(c) {
            *o = bool_mask((c != 0) == nz);
        }
        self.sc.s[0] = buf;
    }

    /// The lanes a `break`/`continue`/`ret`/`call`, conditional when `cond`
    /// is given, applies to: `active & condition` (W words into `out`).
    #[inline(always)]
    fn leaving(
        &mut self,
        warp: &Warp,
        b: &Bindings<'_>,
        cond: &Option<(Src, bool)>,
        out: &mut [u32],
    ) {
        match cond {
            None => out.copy_from_slice(&warp.active),
            Some((src, nz)) => {
                // the condition and the active lanes in one pass
                let mut buf = std::mem::take(&mut self.sc.s[0]);
                let c = self.operand(warp, b, src, 0, &mut buf);
                let nz = *nz;
                for ((o, &c), &a) in out.iter_mut().zip(c).zip(&warp.active) {
                    *o = bool_mask((c != 0) == nz) & a;
                }
                self.sc.s[0] = buf;
            }
        }
    }

    /// Note whether every lane is active; if none is, jump to the next
    /// instruction that can revive lanes.
    #[inline]
    fn settle(&self, warp: &mut Warp) {
        if !warp.note_active() {
            self.revive(warp);
        }
    }

    /// `settle` when no lane is active: resume a caller whose lanes have all
    /// returned, else jump to where lanes can come back.
    #[inline(never)]
    fn revive(&self, warp: &mut Warp) {
        while let Some(&Frame::Call { return_pc }) = warp.frames.last() {
            // Every lane of the call has returned: resume the caller with
            // them and with the lanes that skipped a conditional call.
            let base = (warp.frames.len() - 1) * 4 * self.w;
            for l in 0..self.w {
                warp.active[l] = warp.masks[base + l] | warp.masks[base + self.w + l];
            }
            warp.frames.pop();
            warp.pc = return_pc as usize;
            if warp.note_active() {
                return;
            }
        }
        match warp.frames.last() {
            None => warp.done = true,
            Some(Frame::Call { .. }) => {} // handled above
            Some(Frame::If {
                else_pc: Some(e),
                in_else: false,
                ..
            }) => warp.pc = *e as usize,
            Some(Frame::If { endif_pc, .. }) => warp.pc = *endif_pc as usize,
            Some(Frame::Loop { end_pc, .. }) => warp.pc = *end_pc as usize,
            Some(Frame::Switch { id }) => {
                let labels = &self.prog.switches[*id as usize].labels;
                let next = labels.iter().find(|&&p| p as usize >= warp.pc);
                // endswitch is always the last label, so `next` exists
                warp.pc = next.copied().unwrap_or(u32::MAX) as usize;
            }
        }
    }

    /// Remove `lanes` (in scratch r) from the masks of frames `from..` and from `active`.
    #[inline(always)]
    fn retire_lanes(&self, warp: &mut Warp, from: usize, lanes: &[u32]) {
        let w = self.w;
        for d in from..warp.frames.len() {
            for k in 0..3 {
                let start = (d * 4 + k) * w;
                for (m, &l) in warp.masks[start..start + w].iter_mut().zip(lanes) {
                    *m &= !l;
                }
            }
        }
        for (a, &l) in warp.active.iter_mut().zip(lanes) {
            *a &= !l;
        }
    }

    /// `break`, `continue` and `ret` (conditional when `cond` is given): the
    /// lanes `active & cond` leave `active`, are cleared from every frame
    /// between here and the target, and join the target's collecting mask
    /// (loop/switch break mask, loop continue mask) or, for `ret`, die.
    #[inline(always)]
    fn leave(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        cond: &Option<(Src, bool)>,
        kind: Leave,
    ) {
        let w = self.w;
        // a condition the same for every active lane: one lane decides
        if let Some((src, nz)) = cond {
            match self.uniform_condition(warp, b, src, *nz) {
                Some(false) => return,
                Some(true) => return self.leave(warp, b, &None, kind),
                None => {}
            }
            if self.leave_innermost(warp, src, *nz, kind).is_some() {
                return;
            }
        }
        let mut lanes = std::mem::take(&mut self.sc.lanes);
        self.leaving(warp, b, cond, &mut lanes[..w]);
        if any_all(&lanes[..w]).0 {
            let target = match kind {
                Leave::Ret => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Call { .. })),
                Leave::Break => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. })),
                Leave::Continue => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Loop { .. })),
            };
            match (kind, target) {
                // `ret` in a subroutine: the lanes wait in the call frame.
                (Leave::Ret, Some(t)) => {
                    self.retire_lanes(warp, t + 1, &lanes[..w]);
                    let m = self.mask(warp, t, 0);
                    m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m |= l);
                }
                // `ret` in the main program: the lanes end.
                (Leave::Ret, None) => {
                    self.retire_lanes(warp, 0, &lanes[..w]);
                    for (a, &l) in warp.alive.iter_mut().zip(&lanes) {
                        *a &= !l;
                    }
                }
                (_, Some(t)) => {
                    self.retire_lanes(warp, t + 1, &lanes[..w]);
                    let k = if kind == Leave::Break { 0 } else { 1 };
                    let m = self.mask(warp, t, k);
                    m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m |= l);
                }
                // Validation guarantees a target; should it ever be missing,
                // stop the warp rather than loop forever.
                (_, None) => warp.done = true,
            }
            self.settle(warp);
        }
        self.sc.lanes = lanes;
    }

    /// [`GroupExecutor::leave`] in one pass over the active span, for its
    /// most common form: a `breakc` or `continuec` directly in its loop (or
    /// a `breakc` directly in its switch), on an unmodified temp. The lanes
    /// whose condition holds leave `active` and join the frame's break or
    /// continue mask, as the general path does (no frame lies between, so
    /// no other mask holds them). Returns whether some lane left; `None`,
    /// having done nothing, when the form is another.
    #[inline(always)]
    fn leave_innermost(
        &mut self,
        warp: &mut Warp,
        src: &Src,
        nz: bool,
        kind: Leave,
    ) -> Option<bool> {
        let w = self.w;
        let k = match (kind, warp.frames.last()) {
            (Leave::Break, Some(Frame::Loop { .. } | Frame::Switch { .. })) => 0,
            (Leave::Continue, Some(Frame::Loop { .. })) => 1,
            _ => return None,
        };
        let (SrcKind::Temp(r), SrcMod::None) = (src.kind, src.modifier) else {
            return None;
        };
        let t = warp.frames.len() - 1;
        let row = (r as usize * 4 + src.swz[0] as usize) * w;
        let span = warp.span.clone();
        let Warp {
            regs,
            active,
            masks,
            ..
        } = &mut *warp;
        let (Some(c), Some(m)) = (
            regs.get(row + span.start..row + span.end),
            masks.get_mut((t * 4 + k) * w + span.start..(t * 4 + k) * w + span.end),
        ) else {
            return None;
        };
        let (mut left, mut some, mut all) = (0u32, 0u32, !0u32);
        for ((a, m), &c) in active[span.clone()].iter_mut().zip(m).zip(c) {
            // one load and one store of each word: reading `*a` back after
            // storing it stalls on store forwarding of wide vectors
            let was = *a;
            let leaving = bool_mask((c != 0) == nz) & was;
            let now = was & !leaving;
            *a = now;
            *m |= leaving;
            left |= leaving;
            some |= now;
            all &= now;
        }
        if left != 0 {
            let all = all != 0 && span == (0..w);
            if !warp.note_any_all(some != 0, all) {
                self.revive(warp);
            }
        }
        Some(left != 0)
    }

    /// `if_nz c` / `break` (or `continue`) / `endif` ([`fused_leaves`]) as
    /// one `breakc_nz c` (`continuec_nz c`) directly in its loop
    /// ([`GroupExecutor::leave_innermost`]): the lanes it leaves with, the
    /// lanes it goes on with, and where, are those of the three
    /// instructions. Called with the `if` counted; the `break` (when some
    /// lane takes it) and the `endif` are counted as the loop would have
    /// counted them, in the statistics, the profile (the `break` issues
    /// with the lanes that take it, the `endif` with none: no lane comes
    /// through the branch to it) and the watchdog, which must have room for them
    /// (else the loop runs the three, so that its checks fall where they
    /// would). Returns false, having done nothing, when the form is
    /// another. (Inlined into the interpreter loop, so that its lane loop
    /// is compiled for the loop's instruction set.)
    #[inline(always)]
    fn leave_fused(
        &mut self,
        warp: &mut Warp,
        (cond, nz): (&Src, bool),
        kind: Leave,
        endif_pc: u32,
    ) -> bool {
        if self.until_check <= 3 {
            return false;
        }
        let before = if self.prof.is_some() {
            warp.active_count()
        } else {
            0
        };
        let at = warp.pc;
        // past the `endif`, unless every lane leaves (then `revive` sends
        // the warp to the loop's end, as the `endif` would have)
        warp.pc = endif_pc as usize + 1;
        let Some(left) = self.leave_innermost(warp, cond, nz, kind) else {
            warp.pc = at;
            return false;
        };
        let n = 1 + u64::from(left);
        self.stats.warp_instructions += n;
        self.until_check -= n as u32;
        if let Some(p) = self.prof.as_deref_mut() {
            // the `break` issues with the lanes that take it; the `endif`
            // with none, as no lane comes through the branch to it
            let took = before - warp.active_count();
            p.lanes_by_pc[at] += took;
            p.warp_instructions += n;
            p.active_lanes += took;
            p.lane_slots += n * self.w as u64;
        }
        true
    }

    // -- the interpreter loop -----------------------------------------

    /// Run `warp` until it is done, parks (barrier), yields or is stopped:
    /// [`GroupExecutor::run_warp_body`] in the copy compiled for the widest
    /// instruction set this CPU runs (`lanes::isa`), so that the lane loops
    /// inlined into it (masks, blends, copies, conditions) use its vectors.
    /// The copies are the same code; `tests/it/cli.rs` compares their results.
    #[allow(unsafe_code)]
    fn run_warp(&mut self, warp: &mut Warp, b: &Bindings<'_>, watchdog: &Watchdog) -> Exit {
        #[cfg(target_arch = "x86_64")]
        match self.isa {
            // SAFETY: `isa()` is never wider than what the CPU reports
            // (runtime detection; `SM5SIM_ISA` can only lower it).
            Isa::Avx512 => return unsafe { self.run_warp_avx512(warp, b, watchdog) },
            // SAFETY: as above.
            Isa::Avx2 => return unsafe { self.run_warp_avx2(warp, b, watchdog) },
            Isa::Baseline => {}
        }
        self.run_warp_body(warp, b, watchdog)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx2(&mut self, warp: &mut Warp, b: &Bindings<'_>, w: &Watchdog) -> Exit {
        self.run_warp_body(warp, b, w)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx512(&mut self, warp: &mut Warp, b: &Bindings<'_>, w: &Watchdog) -> Exit {
        self.run_warp_body(warp, b, w)
    }

    /// The interpreter loop: one instruction of `warp` after another.
    #[inline(always)]
    fn run_warp_body(&mut self, warp: &mut Warp, b: &Bindings<'_>, watchdog: &Watchdog) -> Exit {
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
            }
            Self::step(&mut self.stats, self.prof.as_deref_mut(), w, warp);
            match op.kind {
                OpKind::Alu {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => match self.fast.get(warp.pc - 1) {
                    Some(Some(f)) => {
                        self.run_fast(warp, b, f);
                        self.run_fast_after(warp, b);
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
                    if let Some(Some(kind)) = self.fused.get(warp.pc - 1) {
                        if self.leave_fused(warp, (cond, nz), *kind, endif_pc) {
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
                    let loops = self.cas_loops;
                    if let Some(Some(cl)) = loops.get(warp.pc - 1) {
                        match self.cas_loop(warp, b, cl, watchdog) {
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
                    let d = warp.frames.len() - 1;
                    let (brk, cont) = ((d * 4) * w, (d * 4 + 1) * w);
                    // the lanes that continued rejoin (a loop without a
                    // `continue` has none: its mask stays all zeros)
                    if self.loop_continues.get(warp.pc - 1) != Some(&false) {
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
                OpKind::Break { ref cond } => self.leave(warp, b, cond, Leave::Break),
                OpKind::Continue { ref cond } => self.leave(warp, b, cond, Leave::Continue),
                OpKind::Ret { ref cond } => self.leave(warp, b, cond, Leave::Ret),
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
                    if let Some(ck) = self.check.as_deref_mut() {
                        ck.sync(warp.pc as u32 - 1, &warp.active, &warp.exists, &warp.flat);
                    }
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
                }
                OpKind::Abort => {
                    // The active lanes end wherever they are, even inside a subroutine.
                    let lanes = warp.active.clone();
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
                } => self.load(warp, b, dst, addr, None, res, swz),
                OpKind::LdStructured {
                    ref dst,
                    ref index,
                    ref offset,
                    res,
                    swz,
                } => self.load(warp, b, dst, index, Some(offset), res, swz),
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
                    if self.check.is_some() {
                        self.check_mem(warp, res, view, MemOp::Read, &sa, None, &[0], None);
                    }
                    if self.prof.is_some() {
                        let bytes = typed_bytes(view);
                        self.profile_mem(warp, res, bytes, false, false);
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
                    if self.check.is_some() {
                        let view = Self::view(b, res);
                        self.check_mem(warp, res, view, MemOp::Write, &sa, None, &[0], Some(&sv));
                    }
                    if self.prof.is_some() {
                        let bytes = typed_bytes(Self::view(b, res));
                        self.profile_mem(warp, res, bytes, true, false);
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
                } => self.store(warp, b, res, count, addr, None, value),
                OpKind::StoreStructured {
                    res,
                    count,
                    ref index,
                    ref offset,
                    ref value,
                } => self.store(warp, b, res, count, index, Some(offset), value),
                OpKind::Atomic {
                    kind,
                    ref ret,
                    res,
                    structured,
                    ref addr,
                    ref a,
                    b: ref bsrc,
                } => self.atomic(
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
                    if let Some(ck) = self.check.as_deref_mut() {
                        ck.counter(&warp.active, &warp.flat);
                    }
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
                    self.texture(warp, b, &prog.tex_ops[index as usize]);
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

    // -- memory ---------------------------------------------------------

    /// Profiling: `bytes` per active lane read (`write` false) or written
    /// at `res`, and `atomics` per active lane (an atomic reads and writes 4).
    fn profile_mem(&mut self, warp: &Warp, res: Res, bytes: u64, write: bool, atomic: bool) {
        let Some(p) = self.prof.as_deref_mut() else {
            return;
        };
        let n = warp.active_count();
        let (r, wr) = if atomic {
            p.atomics += n;
            (n * 4, n * 4)
        } else if write {
            (0, n * bytes)
        } else {
            (n * bytes, 0)
        };
        match res {
            Res::Tgsm(_) => {
                p.tgsm_read += r;
                p.tgsm_written += wr;
            }
            Res::Srv(_) | Res::SrvTexture(_) => p.srv_read += r,
            _ => {
                p.uav_read += r;
                p.uav_written += wr;
            }
        }
    }

    fn view<'b>(b: &Bindings<'b>, res: Res) -> Option<BufferView<'b>> {
        match res {
            Res::Srv(s) => b.srv(s),
            Res::Uav(s) => b.uav(s),
            _ => None,
        }
    }

    fn texture_view<'b>(b: &Bindings<'b>, res: Res) -> Option<TextureView<'b>> {
        match res {
            Res::SrvTexture(s) => b.srv_texture(s),
            Res::UavTexture(s) => b.uav_texture(s),
            _ => None,
        }
    }

    /// A texture instruction (`reference/sm5-compute-isa.md` §10–11; FS
    /// §22.4): per active lane, the address or coordinate and the extras are
    /// read, the texture is loaded, sampled or queried through
    /// [`sim_mem::TextureView`] and [`sim_mem::sampling`], and the result is
    /// swizzled by the resource operand. An unbound texture or sampler reads 0.
    fn texture(&mut self, warp: &mut Warp, b: &Bindings<'_>, op: &TexOp) {
        let w = self.w;
        let mut sa = std::mem::take(&mut self.sc.s[0]);
        let mut s1 = std::mem::take(&mut self.sc.s[1]);
        let mut s2 = std::mem::take(&mut self.sc.s[2]);
        let mut r = std::mem::take(&mut self.sc.r);
        let view = Self::texture_view(b, op.res);
        // an unbound sampler slot samples with the default state (FS §7.18.17)
        let sampler = b.sampler(op.sampler).copied().unwrap_or_default();
        self.fetch(warp, b, &op.addr, 0b1111, &mut sa);
        let has_extras = matches!(
            op.kind,
            TexKind::Store
                | TexKind::LdMs
                | TexKind::SampleL
                | TexKind::SampleCLz
                | TexKind::SampleD
                | TexKind::Gather { .. }
        );
        if has_extras {
            self.fetch(warp, b, &op.extra[0], 0b1111, &mut s1);
            self.fetch(warp, b, &op.extra[1], 0b1111, &mut s2);
        }
        if self.check.is_some() {
            if let (Res::UavTexture(u), TexKind::Ld | TexKind::Store) = (op.res, op.kind) {
                let (mop, values) = if op.kind == TexKind::Store {
                    (MemOp::Write, Some(&s1[..]))
                } else {
                    (MemOp::Read, None)
                };
                self.check_texture(warp, u, view, mop, &sa, values);
            }
        }
        let off = op.offset.map(|o| o as i32);
        let get = |v: &[u32], c: usize, l: usize| v[c * w + l];
        let getf = |v: &[u32], c: usize, l: usize| f32::from_bits(v[c * w + l]);
        for l in 0..w {
            if warp.active[l] == 0 {
                continue;
            }
            let addr = [
                get(&sa, 0, l),
                get(&sa, 1, l),
                get(&sa, 2, l),
                get(&sa, 3, l),
            ];
            let coord = addr.map(f32::from_bits);
            let texel: [u32; 4] = match (op.kind, view) {
                (TexKind::Store, Some(v)) => {
                    let value = [
                        get(&s1, 0, l),
                        get(&s1, 1, l),
                        get(&s1, 2, l),
                        get(&s1, 3, l),
                    ];
                    v.store([addr[0], addr[1], addr[2]], value);
                    continue;
                }
                (TexKind::Store, None) => continue,
                (TexKind::Ld, Some(v)) => {
                    let a = offset_address(v.dimension(), addr, off);
                    if v.is_uav() {
                        v.load(a, 0, 0)
                    } else {
                        v.load(a, addr[3], 0)
                    }
                }
                (TexKind::LdMs, Some(v)) => {
                    v.load(offset_address(v.dimension(), addr, off), 0, get(&s1, 0, l))
                }
                (TexKind::SampleL, Some(v)) => sampling::sample(
                    &v,
                    &sampler,
                    coord,
                    sampling::Lod::Explicit(getf(&s1, 0, l)),
                    off,
                    None,
                ),
                (TexKind::SampleD, Some(v)) => sampling::sample(
                    &v,
                    &sampler,
                    coord,
                    sampling::Lod::Gradients {
                        ddx: [getf(&s1, 0, l), getf(&s1, 1, l), getf(&s1, 2, l)],
                        ddy: [getf(&s2, 0, l), getf(&s2, 1, l), getf(&s2, 2, l)],
                    },
                    off,
                    None,
                ),
                (TexKind::SampleCLz, Some(v)) => sampling::sample(
                    &v,
                    &sampler,
                    coord,
                    sampling::Lod::Zero,
                    off,
                    Some(getf(&s1, 0, l)),
                ),
                (
                    TexKind::Gather {
                        channel,
                        po,
                        compare,
                    },
                    Some(v),
                ) => {
                    let o = if po {
                        [get(&s1, 0, l) as i32, get(&s1, 1, l) as i32]
                    } else {
                        [off[0], off[1]]
                    };
                    let reference = compare.then(|| getf(&s2, 0, l));
                    sampling::gather(&v, &sampler, coord, o, channel as usize, reference)
                }
                (TexKind::Resinfo { mode }, Some(v)) => {
                    let info = v.resinfo(addr[0]);
                    resinfo_result(v.dimension(), info, mode)
                }
                (TexKind::Resinfo { mode }, None) => {
                    resinfo_result(sim_mem::ViewDimension::Texture2D, [0; 4], mode)
                }
                (TexKind::SampleInfo { uint }, v) => {
                    let n = v.map_or(0, |v| v.sample_count());
                    if uint {
                        [n, 0, 0, 0]
                    } else {
                        [(n as f32).to_bits(), 0, 0, 0]
                    }
                }
                (TexKind::SamplePos, v) => {
                    let n = v.map_or(0, |v| v.sample_count());
                    let [x, y] = sampling::sample_position(n, addr[0]);
                    [x.to_bits(), y.to_bits(), 0, 0]
                }
                (_, None) => [0; 4],
            };
            for c in 0..4 {
                r[c * w + l] = texel[op.swz[c] as usize];
            }
        }
        if !matches!(op.kind, TexKind::Store) {
            self.write(warp, &op.dst, &r);
        }
        self.sc.s[0] = sa;
        self.sc.s[1] = s1;
        self.sc.s[2] = s2;
        self.sc.r = r;
    }

    /// Report a texture UAV access (`ld_uav_typed`, `store_uav_typed`, an
    /// atomic) to the checker: for each active lane, the texel at address
    /// (`a[lane]`, `a[W + lane]`, `a[2W + lane]`), shadowed per element of the
    /// texture's storage ([`sim_mem::TextureView::uav_element`]); `values`
    /// holds the stored x components. An unbound slot is not tracked.
    #[cold]
    fn check_texture(
        &mut self,
        warp: &Warp,
        slot: u32,
        view: Option<TextureView<'_>>,
        op: MemOp,
        a: &[u32],
        values: Option<&[u32]>,
    ) {
        let w = self.w;
        let pc = warp.pc as u32 - 1;
        let (Some(ck), Some(v)) = (self.check.as_deref_mut(), view) else {
            return;
        };
        for l in 0..w {
            if warp.active[l] == 0 {
                continue;
            }
            let addr = [a[l], a[w + l], a[2 * w + l]];
            let value = values.map_or(0, |v| v[l]);
            ck.access(
                pc,
                Space::Uav(slot),
                op,
                warp.flat[l],
                v.uav_element(addr),
                (addr[0], addr[1], 0),
                value,
            );
        }
    }

    /// Report a memory instruction's accesses to the checker: for each
    /// active lane, dwords `ks` at address (`a`, `b`) — byte offset; or
    /// structure index and byte offset; or a typed element — with the values
    /// stored (`values[i·W + lane]` for dword `ks[i]`). SRVs are read-only;
    /// texture UAVs go through [`Self::check_texture`].
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn check_mem(
        &mut self,
        warp: &Warp,
        res: Res,
        view: Option<BufferView<'_>>,
        op: MemOp,
        a: &[u32],
        b: Option<&[u32]>,
        ks: &[u32],
        values: Option<&[u32]>,
    ) {
        let w = self.w;
        let pc = warp.pc as u32 - 1;
        let Some(ck) = self.check.as_deref_mut() else {
            return;
        };
        let space = match (res, view) {
            (Res::Tgsm(g), _) => Space::Tgsm(g),
            (Res::Uav(u), Some(_)) => Space::Uav(u),
            _ => return,
        };
        for l in 0..w {
            if warp.active[l] == 0 {
                continue;
            }
            let (x, y) = (a[l], b.map_or(0, |b| b[l]));
            for (i, &k) in ks.iter().enumerate() {
                let word = match (res, view) {
                    (Res::Tgsm(g), _) => self.tgsm.word_index(g, x, y, k),
                    (_, Some(v)) => match v.kind() {
                        // typed views are shadowed per element
                        ViewKind::Typed { .. } => (k == 0 && x < v.bufinfo()).then_some(x as usize),
                        _ => v.word_index(x, y, k),
                    },
                    (_, None) => None,
                };
                let value = values.map_or(0, |v| v[i * w + l]);
                ck.access(pc, space, op, warp.flat[l], word, (x, y, k), value);
            }
        }
    }

    /// What the analysis knows of the current instruction (`crate::analysis::affine`),
    /// less what the switched-off fast paths would use.
    #[inline]
    fn facts_here(&self, warp: &Warp) -> PcFacts {
        let mut f = self
            .facts
            .get(warp.pc.wrapping_sub(1))
            .copied()
            .unwrap_or_default();
        if !self.fast_paths.contains(FastPaths::MEMORY_LINES) {
            f.addr = Default::default();
        }
        if !self.fast_paths.contains(FastPaths::UNIFORM_IF) {
            f.uniform_cond = false;
        }
        f
    }

    /// Whether the current instruction's condition `src` (true when
    /// nonzero, for `nz`) holds, when the analysis knows it is the same for
    /// every active lane: read from the first active lane only. `None` when
    /// it is not known uniform or no lane is active.
    fn uniform_condition(
        &mut self,
        warp: &Warp,
        b: &Bindings<'_>,
        src: &Src,
        nz: bool,
    ) -> Option<bool> {
        let l0 = warp.span.start;
        if !self.facts_here(warp).uniform_cond || warp.span.is_empty() {
            return None;
        }
        let mut buf = std::mem::take(&mut self.sc.s[0]);
        let c = self.operand(warp, b, src, 0, &mut buf);
        let taken = (c[l0] != 0) == nz;
        debug_assert!(
            warp.span
                .clone()
                .all(|l| warp.active[l] == 0 || (c[l] != 0) == (c[l0] != 0)),
            "a uniform condition differs between lanes"
        );
        self.sc.s[0] = buf;
        Some(taken)
    }

    /// The bounds of a raw or structured access to `res`: its TGSM region's
    /// or its raw/structured `view`'s (None: undeclared region, unbound or
    /// typed view).
    fn bounds(&self, res: Res, view: Option<BufferView<'_>>) -> Option<Extent> {
        match res {
            Res::Tgsm(g) => self.tgsm.region(g).map(|(e, _)| e),
            _ => view.and_then(|v| v.extent()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn load(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        dst: &Dst,
        a: &Src,
        off: Option<&Src>,
        res: Res,
        swz: [u8; 4],
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut self.sc.s[0]);
        let mut bb = std::mem::take(&mut self.sc.s[1]);
        let mut r = std::mem::take(&mut self.sc.r);
        let wr: &Warp = warp;
        let sa = self.operand(wr, b, a, 0, &mut ba);
        let sb: &[u32] = match off {
            Some(off) => self.operand(wr, b, off, 0, &mut bb),
            None => zeros(w, &mut bb),
        };
        // The memory kind and bounds are decided once per instruction, not per lane.
        let view = Self::view(b, res);
        if self.check.is_some() {
            let mut ks = [0u32; 4];
            let mut n = 0;
            for c in 0..4 {
                if dst.mask & (1 << c) != 0 {
                    ks[n] = swz[c] as u32;
                    n += 1;
                }
            }
            self.check_mem(wr, res, view, MemOp::Read, sa, Some(sb), &ks[..n], None);
        }
        if self.prof.is_some() {
            let bytes = 4 * (dst.mask & 0xf).count_ones() as u64;
            self.profile_mem(wr, res, bytes, false, false);
        }
        let active = &wr.active;
        // A coalesced or uniform access (every lane, active or not, on one
        // line of words in bounds) is read without per-lane bounds arithmetic;
        // the inactive lanes' values are dropped by `write`.
        let k_max = (0..4)
            .filter(|c| dst.mask & (1 << c) != 0)
            .map(|c| swz[c] as u32)
            .max()
            .unwrap_or(0);
        let tgsm = match res {
            Res::Tgsm(g) => self.tgsm.region(g),
            _ => None,
        };
        let ext = self.bounds(res, view);
        let row = self.prog.thread_group[0] as usize;
        let steps = self.facts_here(wr).addr;
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                k_max,
                row,
                steps,
            )
        });
        // A full warp reading a buffer on one line of words into a temp:
        // straight into the register file, lane by lane over the words.
        if let (Some(line), true, DstKind::Temp(reg), Some(v), false) =
            (&line, wr.full, dst.kind, view, matches!(res, Res::Tgsm(_)))
        {
            // (not for one lane: a warp of one lane takes the general path,
            // which tests compare this one with)
            if (2..=line.p).contains(&line.lanes.len()) && reg < self.prog.temps {
                let words = v.buffer().words();
                let n = line.lanes.len();
                let rows = &mut warp.regs[reg as usize * 4 * w..(reg as usize * 4 + 4) * w];
                load_line(words, line.first, line.step, n, dst.mask, swz, rows, w);
                self.sc.s[0] = ba;
                self.sc.s[1] = bb;
                self.sc.r = r;
                return;
            }
        }
        for c in 0..4 {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            let k = swz[c] as u32;
            let out = &mut r[c * w..(c + 1) * w];
            match (res, view) {
                (Res::Tgsm(_), _) => {
                    let Some((ext, words)) = tgsm else {
                        out.fill(0);
                        continue;
                    };
                    if let Some(line) = &line {
                        let (k, step) = (k as usize, line.step);
                        for (base, out) in line.rows(&mut out[line.lanes.clone()]) {
                            let base = base + k;
                            match step {
                                1 => out.copy_from_slice(&words[base..base + out.len()]),
                                0 => out.fill(words[base]),
                                _ => {
                                    for (c, o) in out.iter_mut().enumerate() {
                                        *o = words[base + step * c];
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    for (l, o) in out.iter_mut().enumerate() {
                        if active[l] != 0 {
                            let i = ext.word_index(sa[l], sb[l], k);
                            *o = i.and_then(|i| words.get(i)).copied().unwrap_or(0);
                        }
                    }
                }
                (_, Some(v)) => match ext {
                    Some(ext) => {
                        let words = v.buffer().words();
                        if let Some(line) = &line {
                            let (k, step) = (k as usize, line.step);
                            for (base, out) in line.rows(&mut out[line.lanes.clone()]) {
                                for (c, o) in out.iter_mut().enumerate() {
                                    *o = words[base + k + step * c]
                                        .load(sim_mem::sync::Ordering::Relaxed);
                                }
                            }
                            continue;
                        }
                        for (l, o) in out.iter_mut().enumerate() {
                            if active[l] != 0 {
                                let i = ext.word_index(sa[l], sb[l], k);
                                *o = i
                                    .and_then(|i| words.get(i))
                                    .map_or(0, |x| x.load(sim_mem::sync::Ordering::Relaxed));
                            }
                        }
                    }
                    None => {
                        for (l, o) in out.iter_mut().enumerate() {
                            if active[l] != 0 {
                                *o = v.load(v.word_index(sa[l], sb[l], k));
                            }
                        }
                    }
                },
                (_, None) => out.fill(0),
            }
        }
        self.write(warp, dst, &r);
        self.sc.s[0] = ba;
        self.sc.s[1] = bb;
        self.sc.r = r;
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        res: Res,
        count: u8,
        a: &Src,
        off: Option<&Src>,
        value: &Src,
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut self.sc.s[0]);
        let mut bb = std::mem::take(&mut self.sc.s[1]);
        let mut sv = std::mem::take(&mut self.sc.s[2]);
        let wr: &Warp = warp;
        let sa = self.operand(wr, b, a, 0, &mut ba);
        let sb: &[u32] = match off {
            Some(off) => self.operand(wr, b, off, 0, &mut bb),
            None => zeros(w, &mut bb),
        };
        let view = Self::view(b, res);
        if self.prof.is_some() {
            self.profile_mem(wr, res, 4 * count as u64, true, false);
        }
        // A coalesced or uniform store skips the per-lane bounds arithmetic
        // (`line`); the order stays lane by lane, each lane's dwords in
        // order, so a later lane wins a collision.
        let full = wr.full;
        let ext = self.bounds(res, view);
        let row = self.prog.thread_group[0] as usize;
        let steps = self.facts_here(wr).addr;
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                count as u32 - 1,
                row,
                steps,
            )
        });
        // A full warp storing a temp's first components, in order and
        // unmodified, to a buffer on one line of words whose lanes' dwords
        // do not overlap: straight from the register file.
        let in_order = value.swz.iter().zip(0..count).all(|(&s, c)| s == c);
        let direct = match value.kind {
            SrcKind::Temp(reg)
                if reg < self.prog.temps && value.modifier == SrcMod::None && in_order =>
            {
                Some(reg as usize)
            }
            _ => None,
        };
        if let (Some(line), Some(v), Some(reg), true, None) =
            (&line, view, direct, full, self.check.as_ref())
        {
            let (n, count) = (line.lanes.len(), count as usize);
            if !matches!(res, Res::Tgsm(_)) && (2..=line.p).contains(&n) && line.step >= count {
                let rows = &wr.regs[reg * 4 * w..(reg * 4 + count) * w];
                store_line(v.buffer().words(), line.first, line.step, n, rows, w);
                self.sc.s[0] = ba;
                self.sc.s[1] = bb;
                self.sc.s[2] = sv;
                return;
            }
        }
        self.fetch(wr, b, value, (1u8 << count) - 1, &mut sv);
        if self.check.is_some() {
            let ks = [0, 1, 2, 3];
            let ks = &ks[..count as usize];
            self.check_mem(wr, res, view, MemOp::Write, sa, Some(sb), ks, Some(&sv));
        }
        let active = &wr.active;
        match (res, view) {
            (Res::Tgsm(g), _) => {
                if let Some((ext, words)) = self.tgsm.region_mut(g) {
                    if let Some(line) = line {
                        let one_row = line.lanes.len() <= line.p;
                        if line.step == 1 && count == 1 && (one_row || line.row_step >= line.p) {
                            // one word per lane, rows apart: no collisions, a
                            // (masked) copy per row
                            let (v, m) = (&sv[line.lanes.clone()], &active[line.lanes.clone()]);
                            let mut i = 0;
                            for r in 0..line.lanes.len().div_ceil(line.p) {
                                let base = line.first + line.row_step * r;
                                let n = line.p.min(line.lanes.len() - i);
                                let d = &mut words[base..base + n];
                                let (v, m) = (&v[i..i + n], &m[i..i + n]);
                                if full {
                                    d.copy_from_slice(v);
                                } else {
                                    blend(d, v, m);
                                }
                                i += n;
                            }
                        } else {
                            line.each(|l, word| {
                                if active[l] != 0 {
                                    for k in 0..count as usize {
                                        words[word + k] = sv[k * w + l];
                                    }
                                }
                            });
                        }
                    } else {
                        for l in 0..w {
                            if active[l] == 0 {
                                continue;
                            }
                            for k in 0..count as usize {
                                let i = ext.word_index(sa[l], sb[l], k as u32);
                                if let Some(x) = i.and_then(|i| words.get_mut(i)) {
                                    *x = sv[k * w + l];
                                }
                            }
                        }
                    }
                }
            }
            (_, Some(view)) => {
                let apart = |l: &Line| full && l.lanes.len() <= l.p && l.step >= count as usize;
                if let Some(line) = line.as_ref().filter(|l| apart(l)) {
                    // a full warp whose lanes' dwords do not overlap, in one
                    // row: lane by lane over one slice of the buffer
                    let words = view.buffer().words();
                    let (n, count) = (line.lanes.len(), count as usize);
                    let region = &words[line.first..line.first + line.step * (n - 1) + count];
                    let chunks = region.chunks(line.step.max(1));
                    for (l, lane) in line.lanes.clone().zip(chunks) {
                        for (k, x) in lane[..count].iter().enumerate() {
                            x.store(sv[k * w + l], sim_mem::sync::Ordering::Relaxed);
                        }
                    }
                } else if let Some(line) = line {
                    let words = view.buffer().words();
                    line.each(|l, word| {
                        if active[l] != 0 {
                            for k in 0..count as usize {
                                words[word + k]
                                    .store(sv[k * w + l], sim_mem::sync::Ordering::Relaxed);
                            }
                        }
                    });
                } else {
                    for l in 0..w {
                        if active[l] == 0 {
                            continue;
                        }
                        for k in 0..count as usize {
                            view.store(view.word_index(sa[l], sb[l], k as u32), sv[k * w + l]);
                        }
                    }
                }
            }
            (_, None) => {}
        }
        self.sc.s[0] = ba;
        self.sc.s[1] = bb;
        self.sc.s[2] = sv;
    }

    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        kind: AtomicKind,
        ret: Option<&Dst>,
        (res, structured): (Res, bool),
        addr: &Src,
        a: &Src,
        bsrc: &Src,
    ) {
        let w = self.w;
        let mut sa_buf = std::mem::take(&mut self.sc.s[0]);
        let mut sv_buf = std::mem::take(&mut self.sc.s[1]);
        let mut sw_buf = std::mem::take(&mut self.sc.s[2]);
        let mut sw2 = std::mem::take(&mut self.sc.s[3]);
        let mut r = std::mem::take(&mut self.sc.r);
        // address: .x = byte offset (raw) or index, .y = byte offset
        // (structured); a texture's coordinates: .xyz (fetched together);
        // the operands' rows are the registers' own where no copy is needed
        // (`operand`)
        let texture = matches!(res, Res::UavTexture(_));
        if texture {
            self.fetch(warp, b, addr, 0b111, &mut sa_buf);
        }
        let wr: &Warp = warp;
        let (sx, sy_fetched, sa): (&[u32], Option<&[u32]>, &[u32]) = if texture {
            (&sa_buf[..w], None, &sa_buf[..])
        } else {
            let (x, rest) = sa_buf.split_at_mut(w);
            let y = structured.then(|| self.operand(wr, b, addr, 1, &mut rest[..w]));
            (self.operand(wr, b, addr, 0, x), y, &[][..])
        };
        let sv = self.operand(wr, b, a, 0, &mut sv_buf);
        let sw = self.operand(wr, b, bsrc, 0, &mut sw_buf);
        // a profile's failed compare-exchanges: the returned word is not
        // the compared one
        let profiling_cas = self.prof.is_some() && kind == AtomicKind::CmpExch;
        let cas_failed = |r: &[u32]| -> u64 {
            if !profiling_cas {
                return 0;
            }
            (0..w)
                .filter(|&l| wr.active[l] != 0 && r[l] != sv[l])
                .count() as u64
        };

        let view = Self::view(b, res);
        let tex = Self::texture_view(b, res);
        // this executor's own words of a UAV that nothing reads
        // (`privatize_atomics`), out of `self` while the lanes run
        let private = match (res, view) {
            (Res::Uav(u), Some(v)) if ret.is_none() => self
                .private
                .iter()
                .position(|p| p.slot == u && p.kind == kind && p.buffer == buffer_address(&v)),
            _ => None,
        };
        let mut private_words = private.map(|i| std::mem::take(&mut self.private[i].words));
        if self.check.is_some() {
            let op = MemOp::Atomic {
                cas: kind == AtomicKind::CmpExch,
            };
            match res {
                Res::UavTexture(u) => self.check_texture(wr, u, tex, op, sa, None),
                _ => self.check_mem(wr, res, view, op, sx, sy_fetched, &[0], None),
            }
        }
        // a TGSM region's bounds and words, set up once
        let mut tgsm = match res {
            Res::Tgsm(g) => self.tgsm.region_mut(g),
            _ => None,
        };
        // address components: x, and y for a structured access
        let sy = match sy_fetched {
            Some(y) => y,
            None => zeros(w, &mut sw2),
        };
        let active = &wr.active;
        let no_ret = ret.is_none();
        // The lane loops, instantiated per kind of operation (`mk` makes a
        // lane's AtomicOp from its operands), so that no lane matches on
        // the kind.
        macro_rules! lane_loops {
            ($mk:expr) => {{
                let mk = $mk;
                let lane_op = |l: usize| {
                    let op: AtomicOp = mk(sv[l], sw[l]);
                    // without a returned value, an operation that cannot
                    // change the word (add 0, or 0, and !0, …) is skipped
                    (!no_ret || !op.is_identity()).then_some(op)
                };
                // lane by lane, in lane order; the old value goes to r[l] (out of
                // bounds: nothing written, the returned value is 0, §12)
                match (res, view) {
                    (Res::Tgsm(_), _) => {
                        let Some((ext, words)) = tgsm.as_mut() else {
                            r[..w].fill(0);
                            let failed = cas_failed(&r);
                            let bufs = [sa_buf, sv_buf, sw_buf, sw2, r];
                            return self.atomic_done(warp, kind, ret, res, bufs, failed);
                        };
                        // zipped over the span: no per-lane bounds checks
                        // on the operand rows (a histogram's per-key loop)
                        let span = warp.span.clone();
                        let addr = (active[span.clone()].iter().zip(&sx[span.clone()]))
                            .zip(&sy[span.clone()]);
                        let values =
                            (sv[span.clone()].iter().zip(&sw[span.clone()])).zip(&mut r[span]);
                        for (((&a, &x), &y), ((&v, &v2), r)) in addr.zip(values) {
                            if a != 0 {
                                let i = ext.word_index(x, y, 0);
                                *r = i
                                    .and_then(|i| words.get_mut(i))
                                    .map_or(0, |w| mk(v, v2).apply_plain(w));
                            }
                        }
                    }
                    (Res::UavTexture(_), _) => {
                        for l in (0..w).filter(|&l| active[l] != 0) {
                            if let Some(op) = lane_op(l) {
                                let c = [sa[l], sa[w + l], sa[2 * w + l]];
                                r[l] = tex.and_then(|t| t.atomic(c, op)).unwrap_or(0);
                            }
                        }
                    }
                    (_, Some(view)) => {
                        // on a line of words in bounds: no per-lane index arithmetic
                        let row = self.prog.thread_group[0] as usize;
                        let ext = self.bounds(res, Some(view));
                        let steps = self.facts_here(warp).addr;
                        let line = ext.and_then(|e| {
                            line_of(
                                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                                warp,
                                e,
                                (sx, sy),
                                0,
                                row,
                                steps,
                            )
                        });
                        let words = view.buffer().words();
                        match (line, ext, private_words.as_deref_mut()) {
                            // plain operations on this worker's words
                            // (no test for identity operations: on this
                            // worker's words they cost no more than others,
                            // and a test of values such as a histogram's
                            // counts, a third of them 0, is a branch
                            // mispredicted every other lane)
                            // consecutive words of one row: a branch-free
                            // loop (a blend under the mask) that vectorises
                            // (global_histogram's merge of its bins)
                            (Some(line), _, Some(own))
                                if line.step == 1 && line.lanes.len() <= line.p =>
                            {
                                let l = line.lanes.clone();
                                let own = &mut own[line.first..line.first + l.len()];
                                let (sv, sw) = (&sv[l.clone()], &sw[l.clone()]);
                                let it = own.iter_mut().zip(&active[l]).zip(sv.iter().zip(sw));
                                for ((o, &a), (&v, &v2)) in it {
                                    let new = mk(v, v2).combine(*o);
                                    *o = (new & a) | (*o & !a);
                                }
                            }
                            (Some(line), _, Some(own)) => {
                                line.each(|l, word| {
                                    if active[l] != 0 {
                                        mk(sv[l], sw[l]).apply_plain(&mut own[word]);
                                    }
                                });
                            }
                            (None, Some(ext), Some(own)) if ext.stride == 0 => {
                                // raw: lane l's word is sx[l] / 4 when below
                                // the view's last whole word (raw_word_index)
                                let n = usize::try_from(ext.size_bytes / 4).unwrap_or(usize::MAX);
                                let n = n.min(own.len());
                                let own = &mut own[..n];
                                let span = warp.span.clone();
                                let lanes = (active[span.clone()].iter().zip(&sx[span.clone()]))
                                    .zip(sv[span.clone()].iter().zip(&sw[span]));
                                for ((&a, &x), (&v, &v2)) in lanes {
                                    let i = (x / 4) as usize;
                                    if a != 0 && i < own.len() {
                                        own[i] = mk(v, v2).combine(own[i]);
                                    }
                                }
                            }
                            (None, _, Some(own)) => {
                                for l in warp.span.clone().filter(|&l| active[l] != 0) {
                                    let i = view.word_index(sx[l], sy[l], 0);
                                    if let Some(x) = i.and_then(|i| own.get_mut(i)) {
                                        mk(sv[l], sw[l]).apply_plain(x);
                                    }
                                }
                            }
                            // one row of words at a step: the lanes zipped
                            // with their words, without an index per lane
                            // (cas_float_add's compare-exchanges)
                            (Some(line), _, None)
                                if line.step >= 1 && line.lanes.len() <= line.p =>
                            {
                                let l = line.lanes.clone();
                                let at = words[line.first..].iter().step_by(line.step);
                                let ops = sv[l.clone()].iter().zip(&sw[l.clone()]);
                                let it = active[l.clone()].iter().zip(ops).zip(&mut r[l]);
                                for (((&a, (&v, &v2)), r), word) in it.zip(at) {
                                    let op: AtomicOp = mk(v, v2);
                                    if a != 0 && (!no_ret || !op.is_identity()) {
                                        *r = op.apply(word);
                                    }
                                }
                            }
                            (Some(line), _, None) => {
                                line.each(|l, word| {
                                    if active[l] != 0 {
                                        if let Some(op) = lane_op(l) {
                                            r[l] = op.apply(&words[word]);
                                        }
                                    }
                                });
                            }
                            // raw or structured: the bounds set up once
                            (None, Some(ext), None) => {
                                for l in (0..w).filter(|&l| active[l] != 0) {
                                    if let Some(op) = lane_op(l) {
                                        let i = ext.word_index(sx[l], sy[l], 0);
                                        r[l] =
                                            i.and_then(|i| words.get(i)).map_or(0, |x| op.apply(x));
                                    }
                                }
                            }
                            (None, None, None) => {
                                for l in (0..w).filter(|&l| active[l] != 0) {
                                    if let Some(op) = lane_op(l) {
                                        r[l] = view
                                            .atomic(view.word_index(sx[l], sy[l], 0), op)
                                            .unwrap_or(0);
                                    }
                                }
                            }
                        }
                    }
                    (_, None) => r[..w].fill(0),
                }
            }};
        }
        match kind {
            AtomicKind::And => lane_loops!(|v, _| AtomicOp::And(v)),
            AtomicKind::Or => lane_loops!(|v, _| AtomicOp::Or(v)),
            AtomicKind::Xor => lane_loops!(|v, _| AtomicOp::Xor(v)),
            AtomicKind::Add => lane_loops!(|v, _| AtomicOp::Add(v)),
            AtomicKind::IMax => lane_loops!(|v, _| AtomicOp::IMax(v)),
            AtomicKind::IMin => lane_loops!(|v, _| AtomicOp::IMin(v)),
            AtomicKind::UMax => lane_loops!(|v, _| AtomicOp::UMax(v)),
            AtomicKind::UMin => lane_loops!(|v, _| AtomicOp::UMin(v)),
            AtomicKind::Exch => lane_loops!(|v, _| AtomicOp::Exchange(v)),
            AtomicKind::CmpExch => lane_loops!(|v, w| AtomicOp::CompareExchange {
                compare: v,
                value: w,
            }),
        }
        if let (Some(i), Some(words)) = (private, private_words) {
            self.private[i].words = words;
            self.private[i].dirty = true;
        }
        let failed = cas_failed(&r);
        self.atomic_done(
            warp,
            kind,
            ret,
            res,
            [sa_buf, sv_buf, sw_buf, sw2, r],
            failed,
        );
    }

    /// The end of [`GroupExecutor::atomic`]: profile counters (`failed`:
    /// the compare-exchanges that failed), the returned value (`r[..W]`, to
    /// every component of the destination), scratch back.
    fn atomic_done(
        &mut self,
        warp: &mut Warp,
        kind: AtomicKind,
        ret: Option<&Dst>,
        res: Res,
        [sa, sv, sw, sw2, mut r]: [Vec<u32>; 5],
        failed: u64,
    ) {
        let w = self.w;
        if self.prof.is_some() {
            self.profile_mem(warp, res, 4, true, true);
            if kind == AtomicKind::CmpExch {
                let n = warp.active.iter().filter(|&&a| a != 0).count() as u64;
                if let Some(p) = self.prof.as_deref_mut() {
                    p.compare_exchanges += n;
                    p.cas_failures += failed;
                }
            }
        }
        if let Some(d) = ret {
            for c in 1..4 {
                if d.mask & (1 << c) != 0 {
                    r.copy_within(..w, c * w);
                }
            }
            self.write(warp, d, &r);
        }
        self.sc.s[0] = sa;
        self.sc.s[1] = sv;
        self.sc.s[2] = sw;
        self.sc.s[3] = sw2;
        self.sc.r = r;
    }

    // -- ALU ------------------------------------------------------------

    #[allow(unsafe_code)]
    fn alu(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        op: AluOp,
        dst: &Dst,
        src: &[Src; 4],
        saturate: bool,
    ) {
        use AluOp::*;
        let w = self.w;
        // one scratch vector: result (4·W), then one W-word buffer per source
        let mut buf = std::mem::take(&mut self.sc.alu);
        let (r, rest) = buf.split_at_mut(4 * w);
        let (s0, rest) = rest.split_at_mut(w);
        let (s1, rest) = rest.split_at_mut(w);
        let (s2, rest) = rest.split_at_mut(w);
        let s3 = &mut rest[..w];

        let wr: &Warp = warp;

        // Each destination component is computed from operand slices that
        // point straight into the register file when no copy is needed;
        // all sources are read before `write` changes any register.
        macro_rules! each {
            (|$comp:ident| $body:block) => {
                for $comp in 0..4 {
                    if dst.mask & (1 << $comp) != 0 {
                        $body
                    }
                }
            };
        }
        match op {
            Dp2 | Dp3 | Dp4 => {
                // products rounded, then summed left to right, each sum rounded
                let (acc, rest) = r.split_at_mut(w);
                let mul = lane_op(op);
                for comp in 0..mul.dot as usize {
                    let x = self.operand(wr, b, &src[0], comp, s0);
                    let y = self.operand(wr, b, &src[1], comp, s1);
                    let k = if comp == 0 { mul.kernel } else { self.dp_acc };
                    // SAFETY: `lane_op` and `dp_acc_kernel` return wide
                    // kernels only for an instruction set the CPU runs.
                    unsafe { k(acc, x, y, x, x) };
                }
                for comp in 1..4 {
                    if dst.mask & (1 << comp) != 0 {
                        rest[(comp - 1) * w..comp * w].copy_from_slice(acc);
                    }
                }
            }
            _ => {
                let k = lane_op(op);
                each!(|comp| {
                    let x = self.operand(wr, b, &src[0], comp, s0);
                    let y = match k.arity {
                        1 => x,
                        _ => self.operand(wr, b, &src[1], comp, s1),
                    };
                    let z = match k.arity {
                        3 | 4 => self.operand(wr, b, &src[2], comp, s2),
                        _ => x,
                    };
                    let u = match k.arity {
                        4 => self.operand(wr, b, &src[3], comp, s3),
                        _ => x,
                    };
                    let out = &mut r[comp * w..(comp + 1) * w];
                    // SAFETY: `lane_op` returns a wide kernel only for an
                    // instruction set the CPU runs; a baseline kernel has no
                    // precondition.
                    unsafe { (k.kernel)(out, x, y, z, u) };
                })
            }
        }
        if saturate {
            for comp in 0..4 {
                if dst.mask & (1 << comp) != 0 {
                    r[comp * w..(comp + 1) * w]
                        .iter_mut()
                        .for_each(|x| *x = sat(*x));
                }
            }
        }
        self.write(warp, dst, r);
        self.sc.alu = buf;
    }

    /// Double-precision instructions. A double occupies a component pair, x
    /// (low) y (high) or z w. Mappings, as fxc encodes them:
    /// - 64 → 64 bits: destination pair p (xy = 0, zw = 1) reads each source
    ///   double from its swizzled components (2p, 2p+1); `dmovc`'s k-th
    ///   destination double is selected by the condition's k-th component;
    /// - 64 → 32 bits (`dtof`, `dtoi`, `dtou`, comparisons): the k-th set
    ///   component of the mask receives the result of double k, read from
    ///   swizzled components (2k, 2k+1);
    /// - 32 → 64 bits (`ftod`, `itod`, `utod`): the k-th destination double
    ///   converts swizzled component k.
    ///
    /// Doubles keep denormals; `dfma` is fused; min/max return the non-NaN
    /// operand; conversions to integers truncate and saturate, NaN → 0.
    fn double(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        op: DoubleOp,
        dst: &Dst,
        src: &[Src; 3],
        sat: bool,
    ) {
        use DoubleOp::*;
        let w = self.w;
        let nsrc = match op {
            Fma | Movc => 3,
            Add | Mul | Min | Max | Div | Eq | Ge | Lt | Ne => 2,
            _ => 1,
        };
        let mut s = std::mem::take(&mut self.sc.s);
        let mut r = std::mem::take(&mut self.sc.r);
        for (i, src) in src.iter().enumerate().take(nsrc) {
            self.fetch(warp, b, src, 0b1111, &mut s[i]);
        }
        let dbl = |s: &[u32], modifier: SrcMod, c: usize, l: usize| -> f64 {
            let bits = s[c * w + l] as u64 | (s[(c + 1) * w + l] as u64) << 32;
            let sign = 1u64 << 63;
            f64::from_bits(match modifier {
                SrcMod::DNeg => bits ^ sign,
                SrcMod::DAbs => bits & !sign,
                SrcMod::DAbsNeg => bits | sign,
                _ => bits,
            })
        };
        // destination pairs (xy = 0, zw = 1) and set components, in order
        let (mut pairs, mut npairs) = ([0usize; 2], 0);
        for p in 0..2 {
            if dst.mask & (0b11 << (2 * p)) != 0 {
                pairs[npairs] = p;
                npairs += 1;
            }
        }
        let (mut set, mut nset) = ([0usize; 4], 0);
        for c in 0..4 {
            if dst.mask & (1 << c) != 0 {
                set[nset] = c;
                nset += 1;
            }
        }
        let (pairs, set) = (&pairs[..npairs], &set[..nset]);
        for l in 0..w {
            match op {
                ToF32 | ToI32 | ToU32 | Eq | Ge | Lt | Ne => {
                    for (k, &c) in set.iter().enumerate().take(2) {
                        let a = dbl(&s[0], src[0].modifier, 2 * k, l);
                        let bv = if nsrc > 1 {
                            dbl(&s[1], src[1].modifier, 2 * k, l)
                        } else {
                            0.0
                        };
                        r[c * w + l] = match op {
                            ToF32 => (a as f32).to_bits(),
                            ToI32 => a as i32 as u32,
                            ToU32 => a as u32,
                            Eq => bool_mask(a == bv),
                            Ge => bool_mask(a >= bv),
                            Lt => bool_mask(a < bv),
                            _ => bool_mask(a != bv),
                        };
                    }
                }
                _ => {
                    for (k, &p) in pairs.iter().enumerate() {
                        let c = 2 * p;
                        let v = match op {
                            FromF32 => f32::from_bits(s[0][k * w + l]) as f64,
                            FromI32 => s[0][k * w + l] as i32 as f64,
                            FromU32 => s[0][k * w + l] as f64,
                            Movc => {
                                if s[0][k * w + l] != 0 {
                                    dbl(&s[1], src[1].modifier, c, l)
                                } else {
                                    dbl(&s[2], src[2].modifier, c, l)
                                }
                            }
                            _ => {
                                let a = dbl(&s[0], src[0].modifier, c, l);
                                let bv = if nsrc > 1 {
                                    dbl(&s[1], src[1].modifier, c, l)
                                } else {
                                    0.0
                                };
                                match op {
                                    Add => a + bv,
                                    Mul => a * bv,
                                    Min => dmin(a, bv),
                                    Max => dmax(a, bv),
                                    Div => a / bv,
                                    Fma => a.mul_add(bv, dbl(&s[2], src[2].modifier, c, l)),
                                    Rcp => 1.0 / a,
                                    _ => a, // dmov
                                }
                            }
                        };
                        let v = if sat { dsat(v) } else { v };
                        let bits = v.to_bits();
                        r[c * w + l] = bits as u32;
                        r[(c + 1) * w + l] = (bits >> 32) as u32;
                    }
                }
            }
        }
        self.write(warp, dst, &r);
        self.sc.s = s;
        self.sc.r = r;
    }

    #[allow(unsafe_code)]
    fn alu2(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        op: Alu2Op,
        dst: &[Dst; 2],
        src: &[Src; 3],
    ) {
        use Alu2Op::*;
        let w = self.w;
        let comps = dst[0].mask | dst[1].mask;
        let mut buf = std::mem::take(&mut self.sc.alu);
        let (r, rest) = buf.split_at_mut(4 * w);
        let (r2, rest) = rest.split_at_mut(4 * w);
        let (s0, rest) = rest.split_at_mut(w);
        let (s1, rest) = rest.split_at_mut(w);
        let s2 = &mut rest[..w];

        let wr: &Warp = warp;

        for comp in 0..4 {
            if comps & (1 << comp) == 0 {
                continue;
            }
            let xs = self.operand(wr, b, &src[0], comp, s0);
            // one divisor in every lane (a constant buffer's slot count,
            // a literal): a multiplication instead of a division per lane
            if op == Udiv
                && src[1].modifier == SrcMod::None
                && self.fast_paths.contains(FastPaths::UDIV_BY_ONE)
            {
                if let Some(d) = self.uniform_word(b, &src[1], comp) {
                    let p = &mut r[comp * w..(comp + 1) * w];
                    let q = &mut r2[comp * w..(comp + 1) * w];
                    // SAFETY: `udiv_by_rows_kernel` returns the loop
                    // compiled for an instruction set the CPU runs (`isa`)
                    // or the baseline's
                    unsafe { (self.udiv_by_rows)(p, q, xs, UdivBy::new(d)) };
                    continue;
                }
            }
            let ys: &[u32] = if op == Sincos {
                xs
            } else {
                self.operand(wr, b, &src[1], comp, s1)
            };
            let zs: &[u32] = if op == Swapc {
                self.operand(wr, b, &src[2], comp, s2)
            } else {
                xs
            };
            let p = &mut r[comp * w..(comp + 1) * w];
            let q = &mut r2[comp * w..(comp + 1) * w];
            // one loop per operation, so that each vectorises
            match op {
                Imul => lanes2(p, q, xs, ys, |x, y| {
                    let v = (x as i32 as i64).wrapping_mul(y as i32 as i64) as u64;
                    ((v >> 32) as u32, v as u32)
                }),
                Umul => lanes2(p, q, xs, ys, |x, y| {
                    let v = x as u64 * y as u64;
                    ((v >> 32) as u32, v as u32)
                }),
                // SAFETY: `udiv_rows_kernel` returns the loop compiled for
                // an instruction set the CPU runs (`isa`) or the baseline's
                Udiv => unsafe { (self.udiv_rows)(p, q, xs, ys) },
                Uaddc => lanes2(p, q, xs, ys, |x, y| {
                    let (v, c) = x.overflowing_add(y);
                    (v, c as u32)
                }),
                Usubb => lanes2(p, q, xs, ys, |x, y| {
                    let (v, c) = x.overflowing_sub(y);
                    (v, c as u32)
                }),
                Sincos => lanes2(p, q, xs, ys, |x, _| {
                    let f = fin(x);
                    (fout(f.sin()), fout(f.cos()))
                }),
                Swapc => {
                    for ((((p, q), &x), &y), &z) in p.iter_mut().zip(q).zip(xs).zip(ys).zip(zs) {
                        (*p, *q) = if x != 0 { (z, y) } else { (y, z) };
                    }
                }
            }
        }
        // all sources were read before either destination is written (§1)
        self.write(warp, &dst[0], r);
        self.write(warp, &dst[1], r2);
        self.sc.alu = buf;
    }
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
            regs: Vec::new(),
            xregs: Vec::new(),
            tig: [Vec::new(), Vec::new(), Vec::new()],
            flat: Vec::new(),
            tid: [Vec::new(), Vec::new(), Vec::new()],
            gid: [Vec::new(), Vec::new(), Vec::new()],
            batch: Vec::new(),
            x_offset: Vec::new(),
            exists: Vec::new(),
            alive: Vec::new(),
            active: Vec::new(),
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

/// Texel axes of a mip of `dim` (1, 2 or 3; a cube face has 2): the
/// coordinates `_aoffimmi` offsets and the sizes `resinfo_rcpFloat` inverts.
fn texel_axes(dim: ViewDimension) -> usize {
    match dim {
        ViewDimension::Texture1D | ViewDimension::Texture1DArray => 1,
        ViewDimension::Texture3D => 3,
        _ => 2,
    }
}

/// Add `_aoffimmi` offsets to the texel coordinates of an `ld`/`ldms`
/// address (not to the slice or mip), wrapping: a negative result becomes a
/// huge unsigned coordinate, out of range (`sm5-compute-isa.md` §10).
fn offset_address(dim: ViewDimension, a: [u32; 4], off: [i32; 3]) -> [u32; 3] {
    let n = texel_axes(dim);
    let mut out = [a[0], a[1], a[2]];
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = o.wrapping_add(off[k] as u32);
    }
    out
}

/// `resinfo`'s result from the view's integer sizes (FS §22.4.14): `_uint`
/// integers; the default, floats; `_rcpFloat`, reciprocals of the sizes
/// (width, height, depth, not array sizes) and the rest as floats.
fn resinfo_result(dim: ViewDimension, info: [u32; 4], mode: u8) -> [u32; 4] {
    match mode {
        2 => info,
        1 => {
            let sizes = texel_axes(dim);
            let mut out = info.map(|v| (v as f32).to_bits());
            for v in out.iter_mut().take(sizes) {
                *v = (1.0 / f32::from_bits(*v)).to_bits();
            }
            out
        }
        _ => info.map(|v| (v as f32).to_bits()),
    }
}

mod cas;
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
