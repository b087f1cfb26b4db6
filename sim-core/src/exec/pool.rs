//! Executors kept between dispatches: each worker thread parks the
//! executors it ran (their warps, register files, TGSM arena, scratch,
//! plan and gathered-atomic words) and takes them up again for the next
//! dispatch of the same program in the same shape, so that a steady run of
//! dispatches builds nothing and hands no memory back to the allocator.

use crate::exec::executor::{GroupExecutor, Shape};
use crate::exec::fast::plan::Step;
use crate::exec::fast::rows::Arena;
use crate::exec::fast::FastPaths;
use crate::exec::observe::Observers;
use crate::exec::ops::atomic::PrivateUav;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{Scratch, Warp};
use crate::exec::watchdog::WATCHDOG_INTERVAL;
use crate::isa::lanes::{Kernel, UdivByRows, UdivRows};
use crate::{Isa, Program};
use sim_mem::Tgsm;
use std::cell::RefCell;
use std::sync::Arc;

/// The most executors a thread keeps parked (those of its latest
/// dispatches; the oldest goes first).
pub const MAX_PARKED_PER_THREAD: usize = 4;

/// An executor's storage between dispatches, apart from its program: what
/// [`GroupExecutor::build`] made, for the program whose analyses are `info`
/// (the same `Arc`: a clone of the program shares it, and
/// `Program::bind_class_instances`, which changes the code, replaces it).
struct Parked {
    info: Arc<crate::analysis::ProgramInfo>,
    thread_group: [u32; 3],
    w: usize,
    warps: Vec<Warp>,
    tgsm: Tgsm,
    sc: Scratch,
    pack: u32,
    round: Vec<Option<u32>>,
    plan: Arc<Vec<Step>>,
    arena: Arena,
    batch_rows: u8,
    group_rows: bool,
    dp_acc: Kernel,
    isa: Isa,
    private: Vec<PrivateUav>,
    udiv_rows: UdivRows,
    udiv_by_rows: UdivByRows,
    fast_paths: FastPaths,
    tid_comps: u8,
    zero_regs: bool,
}

thread_local! {
    /// This thread's parked executors, oldest first.
    static PARKED: RefCell<Vec<Parked>> = const { RefCell::new(Vec::new()) };
}

impl<'p> GroupExecutor<'p> {
    /// An executor of `prog` in `shape` taking only `paths` — what
    /// `GroupExecutor::new` (or `packed`) and then
    /// [`GroupExecutor::with_fast_paths`] make — taken up from this
    /// thread's parked executors when one of this program in this shape is
    /// there ([`GroupExecutor::recycle`]), else built. A parked executor
    /// comes back with fresh counters and no profile, checker or watchdog
    /// count: only its storage and its gathered-atomic words (all at the
    /// operation's identity, [`GroupExecutor::privatize_atomics`]) carry
    /// over, and the groups it runs do the same as a new one's (the
    /// contents of TGSM and of registers a thread has not written are
    /// undefined at a group's start either way, FS §7.14.4).
    pub fn pooled(prog: &'p Program, shape: Shape, paths: FastPaths) -> Self {
        let (w, pack) = shape.resolve(prog);
        let found = PARKED.with(|parked| {
            let mut parked = parked.borrow_mut();
            let i = parked.iter().rposition(|p| {
                Arc::ptr_eq(&p.info, &prog.info)
                    && p.thread_group == prog.thread_group
                    && (p.w, p.pack, p.fast_paths) == (w, pack, paths)
            })?;
            Some(parked.remove(i))
        });
        match found {
            Some(p) => Self::resume(prog, p),
            None => Self::build(prog, w, None, pack).with_fast_paths(paths),
        }
    }

    /// Park this executor on this thread for [`GroupExecutor::pooled`] to
    /// take up again, or drop it where it cannot serve another dispatch as
    /// a new one would: a checker is attached, it was made with a lane
    /// order, its last group did not run to the end (the watchdog stopped
    /// it), or it holds gathered atomics not yet flushed.
    pub fn recycle(self) {
        let Some(p) = self.park() else {
            return;
        };
        PARKED.with(|parked| {
            let mut parked = parked.borrow_mut();
            if parked.len() >= MAX_PARKED_PER_THREAD {
                parked.remove(0);
            }
            parked.push(p);
        });
    }

    /// The storage of a reusable executor (see [`GroupExecutor::recycle`]).
    fn park(self) -> Option<Parked> {
        // (every field named: a new one must be placed here and in `resume`)
        let GroupExecutor {
            prog,
            w,
            warps,
            tgsm,
            sc,
            pack,
            stats: _,
            until_check: _,
            interval: _,
            watchdog_id: _,
            observers,
            round,
            interleave: _,
            plan,
            arena,
            batch_rows,
            first: _,
            group_rows,
            dp_acc,
            isa,
            private,
            udiv_rows,
            udiv_by_rows,
            fast_paths,
            tid_comps,
            zero_regs,
            lane_ordered,
            settled,
            messages: _,
            message_seq: _,
            break_at_debug_break: _,
        } = self;
        let reusable = observers.check.is_none()
            && !lane_ordered
            && settled
            && private.iter().all(|p| !p.dirty);
        reusable.then(|| Parked {
            info: prog.info.clone(),
            thread_group: prog.thread_group,
            w,
            warps,
            tgsm,
            sc,
            pack,
            round,
            plan,
            arena,
            batch_rows,
            group_rows,
            dp_acc,
            isa,
            private,
            udiv_rows,
            udiv_by_rows,
            fast_paths,
            tid_comps,
            zero_regs,
        })
    }

    /// A parked executor of `prog` ready for a new dispatch.
    fn resume(prog: &'p Program, p: Parked) -> Self {
        Self {
            prog,
            w: p.w,
            warps: p.warps,
            tgsm: p.tgsm,
            sc: p.sc,
            pack: p.pack,
            stats: ExecStats::default(),
            until_check: WATCHDOG_INTERVAL,
            interval: WATCHDOG_INTERVAL,
            watchdog_id: 0,
            observers: Observers::default(),
            round: p.round,
            interleave: false,
            plan: p.plan,
            arena: p.arena,
            batch_rows: p.batch_rows,
            first: [0; 3],
            group_rows: p.group_rows,
            dp_acc: p.dp_acc,
            isa: p.isa,
            private: p.private,
            udiv_rows: p.udiv_rows,
            udiv_by_rows: p.udiv_by_rows,
            fast_paths: p.fast_paths,
            tid_comps: p.tid_comps,
            zero_regs: p.zero_regs,
            lane_ordered: false,
            settled: true,
            messages: Default::default(),
            message_seq: 0,
            break_at_debug_break: false,
        }
    }
}

/// How many executors this thread has parked (for tests).
pub fn parked_on_this_thread() -> usize {
    PARKED.with(|p| p.borrow().len())
}
