//! Executors kept between dispatches: each worker thread parks the
//! executors it ran (their warps, register files, TGSM arena, scratch,
//! plan and gathered-atomic words) and takes them up again for the next
//! dispatch of the same program in the same shape, so that a steady run of
//! dispatches builds nothing and hands no memory back to the allocator.

use crate::exec::context::{Budget, GroupMemory, Kernels};
use crate::exec::executor::{GroupExecutor, Shape};
use crate::exec::fast::plan::Step;
use crate::exec::fast::rows::Arena;
use crate::exec::fast::FastPaths;
use crate::exec::observe::Observers;
use crate::exec::ops::message::MessageSink;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{Scratch, Warp};
use crate::Program;
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
    mem: GroupMemory,
    sc: Scratch,
    pack: u32,
    round: Vec<Option<u32>>,
    plan: Arc<Vec<Step>>,
    arena: Arena,
    batch_rows: u8,
    group_rows: bool,
    kernels: Kernels,
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
            mem,
            sc,
            pack,
            stats: _,
            budget: _,
            observers,
            round,
            plan,
            arena,
            batch_rows,
            first: _,
            group_rows,
            kernels,
            fast_paths,
            tid_comps,
            zero_regs,
            lane_ordered,
            settled,
            messages: _,
            // (the dispatcher's to set again: `set_compile_after`)
            compile_after: _,
            compile_time: _,
        } = self;
        let reusable = observers.check.is_none()
            && !lane_ordered
            && settled
            && mem.private.iter().all(|p| !p.dirty);
        reusable.then(|| Parked {
            info: prog.info.clone(),
            thread_group: prog.thread_group,
            w,
            warps,
            mem,
            sc,
            pack,
            round,
            plan,
            arena,
            batch_rows,
            group_rows,
            kernels,
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
            mem: p.mem,
            sc: p.sc,
            pack: p.pack,
            stats: ExecStats::default(),
            budget: Budget::new(),
            observers: Observers::default(),
            round: p.round,
            plan: p.plan,
            arena: p.arena,
            batch_rows: p.batch_rows,
            first: [0; 3],
            group_rows: p.group_rows,
            kernels: p.kernels,
            fast_paths: p.fast_paths,
            tid_comps: p.tid_comps,
            zero_regs: p.zero_regs,
            lane_ordered: false,
            settled: true,
            messages: MessageSink::default(),
            compile_after: None,
            compile_time: std::time::Duration::ZERO,
        }
    }
}

/// How many executors this thread has parked (for tests).
pub fn parked_on_this_thread() -> usize {
    PARKED.with(|p| p.borrow().len())
}
