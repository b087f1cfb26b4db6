//! The observer seam: what watches an executor run, apart from the run.
//!
//! The interpreter loop and the handlers it calls take an [`Observer`] as
//! a type parameter and report to it once per instruction, memory access,
//! branch, barrier and compare-exchange loop. Four observers exist:
//! [`Plain`] (a plain run: every call is empty and `Plain::ON` is false, so
//! the reporting compiles away), [`Profiling`] (`--profile`), [`Checking`]
//! (the concurrency checker, `sm5sim check`) and [`Both`]. Observation
//! never changes what the shader computes; the checker alone may stop a
//! run that makes no progress ([`Observer::stalled`]).
//!
//! The executor keeps its observers in [`Observers`] between batches and
//! picks the matching monomorphized loop once per batch
//! ([`GroupExecutor::run_batch`](super::GroupExecutor)). A new observer (a
//! debugger, a trace) is a type implementing [`Observer`] and an arm in
//! that choice.

mod checking;
mod profiling;
mod recording;

pub(super) use checking::Checking;
pub(super) use profiling::Profiling;
pub(super) use recording::Recording;
pub use recording::{LastWrite, WordSpace};

use crate::analysis::cas_loop::CasLoop;
use crate::check::MemOp;
use crate::exec::lines::bounds;
use crate::exec::warp::Warp;
use crate::ir::lowered::Res;
use sim_mem::{BufferView, Extent, TextureView, Tgsm};

/// What a memory instruction is, for the observers: the checker shadows
/// buffers and TGSM per word and texture UAVs per element; the profile
/// counts bytes (buffers, TGSM), atomics, or, for textures, texels
/// (reported by [`Observer::texture_traffic`] instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MemKind {
    /// `ld_raw`, `ld_structured`, `store_raw`, `store_structured` on a
    /// UAV, SRV or TGSM region.
    Buffer,
    /// `ld_uav_typed`/`store_uav_typed` on a typed buffer view.
    Typed,
    /// An atomic (`atomic_*`, `imm_atomic_*`) on a buffer, TGSM or a
    /// texture UAV.
    Atomic,
    /// `ld_uav_typed`/`store_uav_typed` on a texture UAV.
    Texture,
}

/// One memory instruction of a warp's active lanes, as observers see it:
/// lane `l` accesses dwords `ks` at address (`a[l]`, `b[l]`) — a byte
/// offset; a structure index and byte offset; a typed element; or, for
/// textures, the texel (`a[l]`, `a[W + l]`, `a[2W + l]`).
pub(super) struct Mem<'a, 'b> {
    /// The warp, at the instruction (its pc just past it).
    pub warp: &'a Warp,
    /// The instruction's program counter.
    pub pc: u32,
    /// What it is.
    pub kind: MemKind,
    /// Read, write or atomic.
    pub op: MemOp,
    /// Its resource.
    pub res: Res,
    /// The buffer view bound there (None: TGSM, a texture or unbound).
    pub view: Option<BufferView<'b>>,
    /// The texture view bound there ([`MemKind::Texture`], texture atomics).
    pub texture: Option<TextureView<'b>>,
    /// The group's TGSM (where its regions lie).
    pub tgsm: &'a Tgsm,
    /// First address operand, W words.
    pub a: &'a [u32],
    /// Second address operand (structured byte offset), W words.
    pub b: Option<&'a [u32]>,
    /// The dwords each lane accesses at its address.
    pub ks: &'a [u32],
    /// Stored values, `values[i·W + l]` for dword `ks[i]` (writes).
    pub values: Option<&'a [u32]>,
}

impl Mem<'_, '_> {
    /// The raw or structured bounds of `res` (a TGSM region's or the
    /// view's; None: undeclared, unbound, typed or a texture): worked out
    /// when an observer asks (a memory profile's lines), not for every
    /// access.
    pub fn ext(&self) -> Option<Extent> {
        match self.kind {
            MemKind::Typed | MemKind::Texture => None,
            MemKind::Buffer | MemKind::Atomic => bounds(self.tgsm, self.res, self.view),
        }
    }
}

/// A compare-exchange retry loop run at once (`FastPaths::CAS_LOOP`), as
/// lockstep would have issued it.
pub(super) struct CasLoopRun<'a, 'b> {
    /// The warp, before its pc leaves the loop.
    pub warp: &'a Warp,
    /// The loop.
    pub cl: &'a CasLoop,
    /// The compare-exchange's UAV.
    pub res: Res,
    /// Its view.
    pub view: BufferView<'b>,
    /// The group's TGSM.
    pub tgsm: &'a Tgsm,
    /// Address operands (index or byte offset; structured byte offset).
    pub x: &'a [u32],
    /// The structured byte offset, when structured.
    pub y: Option<&'a [u32]>,
    /// Each lane's attempts (valid when [`Observer::tracks_cas_attempts`]
    /// said so).
    pub per_lane: &'a [u32],
    /// Warp-instructions lockstep issues for the loop.
    pub n: u64,
    /// The most attempts a lane made.
    pub most: u32,
    /// Bit k − 1: some lane left in pass k (bit 63: past 63).
    pub took: u64,
    /// The lanes' attempts summed.
    pub attempts: u64,
    /// With counted word passes ([`Observer::counts_cas_word_passes`], else 0): lockstep's passes summed over the words (a
    /// word is touched in each pass while a lane on it still tries).
    pub word_passes: u64,
    /// With counted word passes (else 0): the attempts of lanes in bounds.
    pub lane_attempts: u64,
}

/// What watches a run (module docs). Every method has an empty default;
/// `#[inline(always)]` on [`Plain`]'s use of them lets a plain run drop
/// the calls and whatever only they read.
pub(super) trait Observer {
    /// Whether anything observes: false only for [`Plain`]. Handlers
    /// prepare what only observers read (dword lists, counts) under it.
    const ON: bool;
    /// Whether the checker is among the observers: it reads every stored
    /// value, so stores do not bypass the operand rows.
    const CHECKS: bool;
    /// Whether it counts control flow ([`Observer::divergence`],
    /// [`Observer::fused_leave`]: the profile): the handlers count the
    /// lanes that leave or take a branch only under it.
    const COUNTS_FLOW: bool;

    /// Group `group` begins on warps of `w` lanes.
    #[inline(always)]
    fn begin_group(&mut self, _group: [u32; 3], _w: usize) {}
    /// The group ended.
    #[inline(always)]
    fn end_group(&mut self) {}
    /// A barrier round ended: per warp, the pc of the `sync` it parked at
    /// (None: finished).
    #[inline(always)]
    fn barrier_round(&mut self, _round: &[Option<u32>]) {}
    /// Whether the run should stop: no thread can make progress.
    #[inline(always)]
    fn stalled(&self) -> bool {
        false
    }
    /// `warp` issued the instruction before its pc.
    #[inline(always)]
    fn instruction(&mut self, _warp: &Warp) {}
    /// The branch at `pc` diverged (some active lanes took it, some not)
    /// or not.
    #[inline(always)]
    fn divergence(&mut self, _pc: usize, _diverged: bool) {}
    /// A fused `if` + leave + `endif` at `at` (`FastPaths::FUSED_LEAVE`):
    /// `n` warp-instructions, `took` lanes left, the `break` issued when
    /// `left`.
    #[inline(always)]
    fn fused_leave(
        &mut self,
        _warp: &Warp,
        _at: usize,
        _endif_pc: u32,
        _left: bool,
        _n: u64,
        _took: u64,
    ) {
    }
    /// A memory instruction's traffic: `bytes` per active lane of `warp`
    /// read, written, or for an atomic (4) both, at `res`. Every buffer,
    /// TGSM and atomic instruction reports it, then its record
    /// ([`Observer::memory`]) to an observer that wants one; a texture
    /// instruction reports [`Observer::texture_traffic`] instead.
    #[inline(always)]
    fn traffic(&mut self, _warp: &Warp, _res: Res, _op: MemOp, _bytes: u64) {}
    /// Whether it reads each access's record ([`Observer::memory`]: the
    /// lanes' addresses and values): the handlers build one only then, so
    /// that an observer of traffic alone (a profile without
    /// `--profile-lines`) costs a call with a few words per access.
    #[inline(always)]
    fn wants_accesses(&self) -> bool {
        false
    }
    /// Whether its [`Observer::memory`] reads the records of TGSM loads
    /// (by default, whether it wants any access's): the compiled tier runs
    /// a region with TGSM loads compiled, reporting their traffic alone,
    /// only where none does (`fast::compiled`).
    #[inline(always)]
    fn wants_tgsm_reads(&self) -> bool {
        self.wants_accesses()
    }
    /// A memory instruction's accesses (only when
    /// [`Observer::wants_accesses`]).
    #[inline(always)]
    fn memory(&mut self, _m: &Mem<'_, '_>) {}
    /// A texture instruction's texels read and written and samples, per
    /// resource (`register` `t` or `u`).
    #[inline(always)]
    fn texture_traffic(
        &mut self,
        _register: char,
        _slot: u32,
        _texels: (u64, u64),
        _samples: super::SampleCounts,
    ) {
    }
    /// A compare-exchange at `pc` returned `returned` where the lanes
    /// compared `compared` (W words each).
    #[inline(always)]
    fn cas_outcome(&mut self, _pc: u32, _warp: &Warp, _returned: &[u32], _compared: &[u32]) {}
    /// A compare-exchange loop at `cas_pc` is about to run at once: whether
    /// each lane's attempts should be kept for [`Observer::cas_loop`].
    #[inline(always)]
    fn tracks_cas_attempts(&mut self, _cas_pc: usize) -> bool {
        false
    }
    /// After [`Observer::tracks_cas_attempts`] said yes: whether the run
    /// should also count, per word, the passes lockstep makes over it
    /// ([`CasLoopRun::word_passes`], a memory profile's contention sample;
    /// a pass over the lanes and a hash per word, which the checker does
    /// not need).
    #[inline(always)]
    fn counts_cas_word_passes(&self) -> bool {
        false
    }
    /// A compare-exchange loop ran at once.
    #[inline(always)]
    fn cas_loop(&mut self, _run: &CasLoopRun<'_, '_>) {}
    /// A `sync` at `pc`.
    #[inline(always)]
    fn sync(&mut self, _pc: u32, _warp: &Warp) {}
    /// An `imm_atomic_alloc` (`alloc`) or `imm_atomic_consume` at `pc` on
    /// UAV `uav`'s hidden counter.
    #[inline(always)]
    fn counter(&mut self, _pc: u32, _uav: u32, _alloc: bool, _warp: &Warp) {}
}

/// No observer: a plain run.
pub(super) struct Plain;

impl Observer for Plain {
    const ON: bool = false;
    const CHECKS: bool = false;
    const COUNTS_FLOW: bool = false;
}

/// Two observers, each told everything (a checked run with `--profile`).
pub(super) struct Both<'x, A, B>(pub &'x mut A, pub &'x mut B);

impl<A: Observer, B: Observer> Observer for Both<'_, A, B> {
    const ON: bool = A::ON || B::ON;
    const CHECKS: bool = A::CHECKS || B::CHECKS;
    const COUNTS_FLOW: bool = A::COUNTS_FLOW || B::COUNTS_FLOW;

    fn begin_group(&mut self, group: [u32; 3], w: usize) {
        self.0.begin_group(group, w);
        self.1.begin_group(group, w);
    }
    fn end_group(&mut self) {
        self.0.end_group();
        self.1.end_group();
    }
    fn barrier_round(&mut self, round: &[Option<u32>]) {
        self.0.barrier_round(round);
        self.1.barrier_round(round);
    }
    fn stalled(&self) -> bool {
        self.0.stalled() || self.1.stalled()
    }
    fn instruction(&mut self, warp: &Warp) {
        self.0.instruction(warp);
        self.1.instruction(warp);
    }
    fn divergence(&mut self, pc: usize, diverged: bool) {
        self.0.divergence(pc, diverged);
        self.1.divergence(pc, diverged);
    }
    fn fused_leave(
        &mut self,
        warp: &Warp,
        at: usize,
        endif_pc: u32,
        left: bool,
        n: u64,
        took: u64,
    ) {
        self.0.fused_leave(warp, at, endif_pc, left, n, took);
        self.1.fused_leave(warp, at, endif_pc, left, n, took);
    }
    fn traffic(&mut self, warp: &Warp, res: Res, op: MemOp, bytes: u64) {
        self.0.traffic(warp, res, op, bytes);
        self.1.traffic(warp, res, op, bytes);
    }
    fn wants_accesses(&self) -> bool {
        self.0.wants_accesses() || self.1.wants_accesses()
    }
    fn wants_tgsm_reads(&self) -> bool {
        self.0.wants_tgsm_reads() || self.1.wants_tgsm_reads()
    }
    fn memory(&mut self, m: &Mem<'_, '_>) {
        if self.0.wants_accesses() {
            self.0.memory(m);
        }
        if self.1.wants_accesses() {
            self.1.memory(m);
        }
    }
    fn texture_traffic(
        &mut self,
        register: char,
        slot: u32,
        texels: (u64, u64),
        samples: super::SampleCounts,
    ) {
        self.0.texture_traffic(register, slot, texels, samples);
        self.1.texture_traffic(register, slot, texels, samples);
    }
    fn cas_outcome(&mut self, pc: u32, warp: &Warp, returned: &[u32], compared: &[u32]) {
        self.0.cas_outcome(pc, warp, returned, compared);
        self.1.cas_outcome(pc, warp, returned, compared);
    }
    fn tracks_cas_attempts(&mut self, cas_pc: usize) -> bool {
        // both asked: each may keep count of its questions (sampling)
        let a = self.0.tracks_cas_attempts(cas_pc);
        let b = self.1.tracks_cas_attempts(cas_pc);
        a || b
    }
    fn counts_cas_word_passes(&self) -> bool {
        self.0.counts_cas_word_passes() || self.1.counts_cas_word_passes()
    }
    fn cas_loop(&mut self, run: &CasLoopRun<'_, '_>) {
        self.0.cas_loop(run);
        self.1.cas_loop(run);
    }
    fn sync(&mut self, pc: u32, warp: &Warp) {
        self.0.sync(pc, warp);
        self.1.sync(pc, warp);
    }
    fn counter(&mut self, pc: u32, uav: u32, alloc: bool, warp: &Warp) {
        self.0.counter(pc, uav, alloc, warp);
        self.1.counter(pc, uav, alloc, warp);
    }
}

/// The observers an executor keeps between batches (none in a plain run).
#[derive(Debug, Default)]
pub(super) struct Observers {
    /// Throughput counters, when profiling.
    pub profile: Option<Box<Profiling>>,
    /// The concurrency checker, when checking.
    pub check: Option<Box<Checking>>,
    /// With a profile: count memory instructions' bytes and lines too.
    pub lines: bool,
}
