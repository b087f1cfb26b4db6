//! The group executor's state ([`GroupExecutor`]): built once per worker
//! and program (with its plan, `fast::plan`), reused for many groups; its
//! public settings (fast paths, lane order, checker, profiling).

use crate::check::Checker;
use crate::exec::context::{Budget, GroupMemory, Kernels};
use crate::exec::fast::cas::WordCounts;
use crate::exec::fast::compiled::regions;
use crate::exec::fast::plan::{plan, restrict, Planned, Step};
use crate::exec::fast::rows::{
    lower, per_batch_rows, reads_group_id, resolve_fast, AlignedWords, Arena, NO_ROW,
};
use crate::exec::fast::FastPaths;
use crate::exec::observe::{Checking, Observers, Profiling};
use crate::exec::ops::atomic::PrivateUav;
use crate::exec::ops::memory::buffer_address;
use crate::exec::ops::message::MessageSink;
use crate::exec::profile::{ExecStats, Profile};
use crate::exec::warp::{Scratch, Warp};
use crate::ir::lowered::{AtomicKind, OpKind};
use crate::messages::MessageLog;
use crate::Program;
use sim_mem::{Bindings, Tgsm};
use std::sync::Arc;

/// Executes thread groups of one program, one at a time; create one per
/// worker thread and reuse it for many groups.
#[derive(Debug)]
pub struct GroupExecutor<'p> {
    pub(super) prog: &'p Program,
    pub(super) w: usize,
    pub(super) warps: Vec<Warp>,
    /// the group's TGSM and gathered atomics' words
    pub(super) mem: GroupMemory,
    pub(super) sc: Scratch,
    /// thread groups per batch: consecutive along x, their threads one
    /// after another in the lanes (1 unless [`GroupExecutor::packed`])
    pub(super) pack: u32,
    pub(super) stats: ExecStats,
    /// the instruction budget before the next look at the watchdog
    pub(super) budget: Budget,
    /// the profile and the checker, when kept (none in a plain run): the
    /// observers of the run (`observe.rs`)
    pub(super) observers: Observers,
    /// per warp, the barrier it parked at in this round (checking only)
    pub(super) round: Vec<Option<u32>>,
    /// per pc, what the interpreter runs there (`plan.rs`)
    pub(super) plan: Arc<Vec<Step>>,
    /// where the rows of each warp's arena (`Warp::regs`) lie
    pub(super) arena: Arena,
    /// the arena rows of system values that change per batch and that the
    /// fast instructions read ([`per_batch_rows`])
    pub(super) batch_rows: u8,
    /// `SV_GroupID` of the running batch's first group
    pub(super) first: [u32; 3],
    /// the program reads vThreadGroupID ([`reads_group_id`]): `Warp::gid`
    /// is kept (else it is left alone)
    pub(super) group_rows: bool,
    /// the lane loops chosen for this CPU
    pub(super) kernels: Kernels,
    /// the fast paths switched on ([`GroupExecutor::with_fast_paths`])
    pub(super) fast_paths: FastPaths,
    /// the components of vThreadID (bits 0–2) an operand reads
    /// ([`thread_id_comps`](crate::analysis::fusion::thread_id_comps)): a batch computes only those
    pub(super) tid_comps: u8,
    /// whether a batch starts with its register file zeroed: only when a
    /// lane may read a temp before writing it (`crate::analysis::liveness`)
    pub(super) zero_regs: bool,
    /// made with a lane order ([`GroupExecutor::with_lane_order`]): never
    /// parked ([`GroupExecutor::recycle`])
    pub(super) lane_ordered: bool,
    /// no batch has been stopped mid-way by the watchdog (false after one
    /// was: the executor is then never parked)
    pub(super) settled: bool,
    /// `printf`/`errorf`/`abort`/`debug_break` records not yet taken
    /// ([`GroupExecutor::take_messages`])
    pub(super) messages: MessageSink,
    /// lane-instructions of a compiled tier's region interpreted before
    /// it is compiled ([`GroupExecutor::set_compile_after`])
    pub(super) compile_after: Option<u64>,
    /// time this executor spent compiling regions
    /// ([`GroupExecutor::compile_time`])
    pub(super) compile_time: std::time::Duration,
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
    /// one chain (`Cx::cas_loop`), so those groups pack.
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

/// How an executor lays out a group's threads: what [`GroupExecutor::new`]
/// or [`GroupExecutor::packed`] is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Warps of this many lanes over one group ([`GroupExecutor::new`]).
    Warps(usize),
    /// Up to this many groups as one warp ([`GroupExecutor::packed`]).
    Packed(u32),
}

impl Shape {
    /// The warp width and groups per batch an executor of `prog` in this
    /// shape has (the clamping of [`GroupExecutor::new`] and
    /// [`GroupExecutor::packed`]).
    pub(super) fn resolve(self, prog: &Program) -> (usize, u32) {
        let per_group = prog.threads_per_group() as usize;
        match self {
            Shape::Warps(w) => (w.clamp(1, per_group.max(1)), 1),
            Shape::Packed(groups) => {
                let p = packing(prog);
                let most = match p.allowed {
                    true => (MAX_PACKED_LANES / p.threads_per_group as usize).max(1) as u32,
                    false => 1,
                };
                let pack = groups.clamp(1, most);
                ((per_group * pack as usize).max(1), pack)
            }
        }
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
    pub(super) fn build(
        prog: &'p Program,
        warp_width: usize,
        lane_order: Option<&[u32]>,
        pack: u32,
    ) -> Self {
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
            let (fast, imm, addr) = resolve_fast(prog, w, n.div_ceil(w));
            let arena = Arena::new(prog, w, imm.len());
            let batch_rows = per_batch_rows(&fast);
            // (the row forms are made again for the plan, one at a time:
            // kept all at once beside the plan's steps, they took about
            // 350 bytes per instruction at its peak)
            let lowered: Vec<bool> = fast
                .iter()
                .map(|f| f.as_ref().is_some_and(|f| lower(f, &arena).is_some()))
                .collect();
            let facts = (pack == 1).then(|| &prog.info().pcs[..]);
            let regions = regions(prog, &fast, &lowered, &arena, &imm, facts);
            let rows = fast
                .iter()
                .map(|f| f.as_ref().and_then(|f| lower(f, &arena)));
            // the address rows' offsets in the arena (a row past `u32`'s
            // reach is none)
            let imm_rows: Vec<[u32; 2]> = addr
                .iter()
                .map(|r| {
                    r.map(|o| match o {
                        NO_ROW => NO_ROW,
                        o => u32::try_from(arena.imm + o as usize).unwrap_or(NO_ROW),
                    })
                })
                .collect();
            Planned {
                steps: Arc::new(plan(prog, rows, regions, &imm_rows, pack)),
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
            mem: GroupMemory {
                tgsm: Tgsm::new(prog.tgsm_regions()),
                private: Vec::new(),
            },
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
            budget: Budget::new(),
            observers: Observers::default(),
            round: Vec::new(),
            plan: planned.steps.clone(),
            arena,
            batch_rows,
            group_rows: reads_group_id(prog),
            first: [0; 3],
            kernels: Kernels::detect(),
            tid_comps: prog.info().thread_id_comps | batch_rows & 7,
            fast_paths: FastPaths::ALL,
            zero_regs: prog.info().liveness.reads_unwritten,
            lane_ordered: lane_order.is_some(),
            settled: true,
            messages: MessageSink::default(),
            compile_after: None,
            compile_time: std::time::Duration::ZERO,
        }
    }

    /// Compile a region of the compiled tier (`FastPaths::COMPILED`) once
    /// it has run `work` lane-instructions interpreted (its instructions ×
    /// the lanes of each run), on any CPU: `Some(0)` compiles it at its
    /// first run. `None` (the default) compiles after
    /// [`COMPILE_AFTER`](crate::exec::COMPILE_AFTER) where the code
    /// generator that serves the region beats the interpreter's row
    /// kernels on this CPU (AVX-512 code against AVX-512 kernels, with a
    /// warp width that is a multiple of 16; Cranelift's against baseline
    /// kernels), and never elsewhere. The count is the region's, over
    /// every executor of the program at this shape, whose plan it belongs
    /// to; its code is kept there too, so a later dispatch pays no compile.
    pub fn set_compile_after(&mut self, work: Option<u64>) {
        self.compile_after = work;
    }

    /// Time this executor has spent compiling regions of the compiled
    /// tier, summed over the groups it ran (regions compiled by another
    /// executor, or by an earlier dispatch, cost it nothing).
    pub fn compile_time(&self) -> std::time::Duration {
        self.compile_time
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
            one.mem.private = std::mem::take(&mut self.mem.private);
            one.messages = std::mem::take(&mut self.messages);
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
        self.observers.profile.as_deref().map(|p| &p.profile)
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
        &self.mem.tgsm
    }
}

/// Gathered atomics (`FastPaths::PRIVATE_ATOMICS`, `ops/atomic.rs`) and
/// messages (`ops/message.rs`): what the dispatcher sets and takes.
impl GroupExecutor<'_> {
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
    /// views. A checker attached sees every atomic as it would without
    /// gathering (its accesses are reported before the operation, and no
    /// instruction reads the words, so no value it reports differs).
    ///
    /// The caller must apply the gathered words with
    /// [`GroupExecutor::flush_atomics`], with these same `bindings`, before
    /// the dispatch counts as done (`sim_sched::dispatch` flushes when a
    /// worker's share of the groups ends). Returns whether gathering was
    /// set up afresh: `false`, and nothing changes, while words gathered
    /// earlier are not yet flushed (they are never dropped).
    pub fn privatize_atomics(&mut self, bindings: &Bindings<'_>) -> bool {
        if self.mem.private.iter().any(|p| p.dirty) {
            return false;
        }
        // words of an earlier dispatch, each at its kind's identity (a
        // flush leaves every word it applied so), reused where a UAV of the
        // same size and kind is gathered again
        let mut spare = std::mem::take(&mut self.mem.private);
        for &(slot, kind) in &self.prog.info().write_only_atomic_uavs {
            let Some(view) = bindings.uav(slot) else {
                continue;
            };
            let n = view.words().len();
            let address = buffer_address(&view);
            let srvs = bindings.srvs.iter().flatten();
            let other_uavs = (bindings.uavs.iter().enumerate())
                .filter(|&(u, _)| u != slot as usize)
                .filter_map(|(_, v)| v.as_ref());
            // (any other view of the same buffer, whatever its range)
            let aliased = (srvs.chain(other_uavs)).any(|v| std::ptr::eq(v.buffer(), view.buffer()));
            if n == 0 || n > PRIVATE_ATOMICS_MAX_WORDS || aliased {
                continue;
            }
            let words = match spare
                .iter()
                .position(|p| p.kind == kind && p.words.len() == n)
            {
                Some(i) => spare.swap_remove(i).words,
                None => vec![kind.identity(); n],
            };
            self.mem.private.push(PrivateUav {
                slot,
                kind,
                buffer: address,
                words,
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
        for p in self.mem.private.iter_mut().filter(|p| p.dirty) {
            let Some(view) = bindings.uav(p.slot) else {
                continue;
            };
            if buffer_address(&view) != p.buffer {
                continue;
            }
            let identity = p.kind.identity();
            for (x, word) in p.words.iter_mut().zip(view.words()) {
                if *x != identity {
                    p.kind.op(*x, 0).apply(word);
                    *x = identity;
                }
            }
            p.dirty = false;
        }
    }

    /// Stop the dispatch at the first `debug_break` a thread executes
    /// ([`crate::exec::StopReason::DebugBreak`], naming the group, the thread
    /// and the instruction), or not (the default: it is recorded and the
    /// thread goes on).
    pub fn set_break_at_debug_break(&mut self, on: bool) {
        self.messages.break_at_debug_break = on;
    }

    /// Keep at most `limit` records (from now on; the default is
    /// [`crate::messages::DEFAULT_MESSAGE_LIMIT`]).
    pub fn set_message_limit(&mut self, limit: usize) {
        let log = &mut self.messages.log;
        if limit != log.limit() {
            let mut fresh = MessageLog::new(limit);
            fresh.merge(log);
            *log = fresh;
        }
    }

    /// The records since the last call (or since the executor was made),
    /// leaving an empty log with the same limit.
    pub fn take_messages(&mut self) -> MessageLog {
        let limit = self.messages.log.limit();
        std::mem::replace(&mut self.messages.log, MessageLog::new(limit))
    }
}
