//! Running a dispatch: the entry points ([`dispatch`], [`dispatch_with`])
//! and the run of its groups in each [`Mode`](crate::Mode), down into
//! `sim_core`'s executor.

use crate::batching::{cores, groups_per_batch, in_pool_of, max_threads, pool, MAX_CHUNK_BATCHES};
use crate::options::{DispatchOptions, Mode, MAX_GROUPS_PER_DIMENSION, WARP_WIDTH_GROUP};
use crate::outcome::{
    finish_messages, with_messages, DispatchError, DispatchStats, Dispatched, GroupSpan,
    ProfileSum, MAX_TRACE_SPANS,
};
use crate::progress::Progress;
use crate::schedule::Schedule;
use rayon::prelude::*;
use sim_core::check::Checker;
use sim_core::exec::{ExecStats, FastPaths, GroupExecutor, Runaway, Shape, Watchdog};
use sim_core::messages::MessageLog;
use sim_core::Program;
use sim_mem::{Bindings, Buffer, Contents};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Run `Dispatch(groups[0], groups[1], groups[2])` in the mode
/// `options.schedule` asks for ([`DispatchOptions::mode`]): [`dispatch_with`]
/// less the profile.
///
/// # Errors
/// As [`dispatch_with`].
pub fn dispatch(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
) -> Result<DispatchStats, DispatchError> {
    dispatch_with(program, bindings, groups, options, options.mode()).map(|d| d.stats)
}

/// Run `Dispatch(groups[0], groups[1], groups[2])` in `mode`: the one
/// entry point of every dispatch. The limits D3D sets are checked, the
/// watchdog made (`options.max_warp_instructions`, `timeout`, `cancel`)
/// and the progress told, then the mode runs the groups. A profile
/// (`options.profile`) observes the run in any mode without changing it.
///
/// A zero in any dimension runs nothing and is not an error (FS §18.6.2).
///
/// # Errors
/// [`DispatchError`] when the group counts break D3D's limits, the
/// threads asked for are too many or the worker pool cannot start
/// (nothing has run then), or the watchdog stopped the dispatch.
pub fn dispatch_with(
    program: &Program,
    bindings: &Bindings<'_>,
    groups: [u32; 3],
    options: &DispatchOptions,
    mode: Mode<'_>,
) -> Result<Dispatched, DispatchError> {
    let threads = match options.threads {
        0 => rayon::current_num_threads(),
        t => {
            let cores = cores();
            let max = max_threads(cores);
            if t > max {
                return Err(DispatchError::TooManyThreads {
                    threads: t,
                    max,
                    cores,
                });
            }
            t
        }
    };
    let total = admit(program, groups)?;
    if total == 0 {
        return Ok(Dispatched::default());
    }
    let watchdog = Watchdog::new(
        options.max_warp_instructions,
        options.timeout,
        options.cancel.clone(),
    );
    // a token set before the dispatch stops it before any group runs
    if let Some(reason) = watchdog.stopped_at_start() {
        return Err(Runaway::at_start(program, reason).into());
    }
    if let Some(p) = &options.progress {
        p.begin(total);
    }
    let run = Run {
        program,
        bindings,
        groups,
        total,
        options,
        watchdog: &watchdog,
    };
    match mode {
        Mode::Parallel => run.parallel(threads),
        Mode::Scheduled(schedule) => run.scheduled(schedule),
        Mode::Checked(checker) => run.checked(checker),
    }
}

/// One dispatch, set up by [`dispatch_with`].
pub(crate) struct Run<'r, 'p, 'b> {
    program: &'p Program,
    bindings: &'r Bindings<'b>,
    groups: [u32; 3],
    total: u64,
    options: &'r DispatchOptions,
    watchdog: &'r Watchdog,
}

impl Run<'_, '_, '_> {
    /// [`Mode::Parallel`].
    fn parallel(&self, threads: usize) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            watchdog,
        } = *self;
        let [x, y, z] = groups;
        let _span = tracing::debug_span!("dispatch", x, y, z, total).entered();
        let progress = options.progress.as_deref();
        let sum = Mutex::new((ExecStats::default(), Duration::ZERO));
        let messages = Mutex::new(MessageLog::new(options.message_limit));
        let profile = options.profile.then(|| Mutex::new(ProfileSum::default()));
        let spans_kept = std::sync::atomic::AtomicUsize::new(0);
        let start = Instant::now();
        let pack = match options.warp_width {
            _ if !options.fast_paths.contains(FastPaths::PACKED_GROUPS) => 1,
            // (a profile runs the plan a plain run does: the same packing)
            WARP_WIDTH_GROUP => groups_per_batch(program, groups, threads),
            _ => 1,
        };
        // batches of `pack` groups along x; a row of x groups ends a batch
        let per_row = x.div_ceil(pack) as u64;
        let batches = per_row * y as u64 * z as u64;
        let init = || {
            // (this worker's executor of the last dispatch, when it was of
            // this program in this shape)
            let shape = match pack {
                1 => Shape::Warps(options.warp_width),
                k => Shape::Packed(k),
            };
            let mut exec = GroupExecutor::pooled(program, shape, options.fast_paths);
            exec.set_compile_after(options.compile_after);
            exec.set_profiling(profile.is_some());
            exec.set_memory_profiling(options.profile_memory);
            exec.set_message_limit(options.message_limit);
            exec.set_break_at_debug_break(options.break_at_debug_break);
            if options.fast_paths.contains(FastPaths::PRIVATE_ATOMICS) {
                exec.privatize_atomics(bindings);
            }
            Collect {
                exec,
                bindings,
                sum: &sum,
                messages: &messages,
                profile: profile.as_ref().map(|p| WorkerProfile {
                    sum: p,
                    worker: rayon::current_thread_index().unwrap_or(0),
                    busy: Duration::ZERO,
                    spans: Vec::new(),
                    kept: &spans_kept,
                    dropped: 0,
                    trace: options.trace,
                    start,
                    began: Instant::now(),
                }),
                progress,
                unreported: 0,
                step: progress_step(total),
            }
        };
        let one = |c: &mut Collect<'_, '_, '_>, b: u64| {
            let (row, i) = (b / per_row, (b % per_row) as u32);
            let first = group_id(row * x as u64 + (i * pack) as u64, groups);
            let count = pack.min(x - first[0]);
            let r = match &mut c.profile {
                Some(p) if p.trace => {
                    let t0 = Instant::now();
                    let r = c.exec.run_groups_watched(first, count, bindings, watchdog);
                    p.record(first, count, t0, Instant::now());
                    r
                }
                _ => c.exec.run_groups_watched(first, count, bindings, watchdog),
            };
            c.groups_done(count);
            r
        };
        // One executor per worker, made once per dispatch whatever the number
        // of groups (rayon's splits of a range would each make one, and with
        // them their scratch: allocations and page faults that grow with the
        // groups). The workers take batches from a shared counter in chunks
        // that shrink as the work runs out (guided scheduling), so that they
        // finish together.
        let workers = (threads as u64).min(batches).max(1);
        let next = AtomicU64::new(0);
        let work = |_worker: u64| -> Result<(), Runaway> {
            // (made when there is a batch to run)
            let mut c = None;
            let outcome = (|| loop {
                // another worker stopped the dispatch: its error is the one
                // returned, and no more groups start
                if watchdog.stopped() {
                    return Ok(());
                }
                let left = batches.saturating_sub(next.load(Ordering::Relaxed));
                let chunk = (left / (4 * workers)).clamp(1, MAX_CHUNK_BATCHES);
                let first = next.fetch_add(chunk, Ordering::Relaxed);
                if first >= batches {
                    return Ok(());
                }
                let c = c.get_or_insert_with(init);
                for b in first..(first + chunk).min(batches) {
                    one(c, b)?;
                }
            })();
            // also after an error, so that no operation a group made is lost
            if let Some(c) = c {
                c.finish();
            }
            outcome
        };
        let run = || (0..workers).into_par_iter().try_for_each(work);
        let outcome = if batches == 1 {
            // One group runs on the calling thread: handing it to the pool and
            // waiting for it to come back would cost more than many small groups.
            let mut c = init();
            let r = one(&mut c, 0);
            c.finish();
            r
        } else if options.threads == 0 || in_pool_of(options.threads) {
            // (already on a worker of a pool of this size: `in_pool`)
            run()
        } else if options.threads == 1 {
            // One worker is the calling thread: dispatches from several
            // threads at once (Python threads, a suite's jobs) each run on
            // their own, where a one-thread pool made them take turns.
            work(0)
        } else {
            pool(options.threads)?.install(run)
        };
        let wall = start.elapsed();
        let messages = messages
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        let messages = finish_messages(program, messages);
        let messages = with_messages(outcome, messages)?;
        let (s, compiling) = sum
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        let profile = profile.map(|p| {
            p.into_inner()
                .unwrap_or_else(|poison| poison.into_inner())
                .finish(program, wall)
        });
        Ok(Dispatched {
            stats: DispatchStats::of(program, &s, compiling),
            profile,
            messages,
        })
    }

    /// [`Mode::Scheduled`].
    fn scheduled(&self, schedule: &Schedule) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            watchdog,
        } = *self;
        let _span =
            tracing::debug_span!("dispatch_scheduled", total, seed = schedule.seed).entered();
        let n = program.threads_per_group() as usize;
        let mut sum = ExecStats::default();
        let mut compiling = Duration::ZERO;
        let mut messages = MessageLog::new(options.message_limit);
        // one executor per warp width: a group with a new lane order gets a new one
        let mut fixed_exec: Option<GroupExecutor<'_>> = None;
        let mut outcome = Ok(());
        let mut profile = options.profile.then(ProfileSum::default);
        let start = Instant::now();
        for g in schedule.group_order(total) {
            let gid = group_id(g, groups);
            let plan = schedule.group_plan(g, n, options.warp_width);
            let mut fresh;
            let exec = match &plan.lane_order {
                None => fixed_exec.get_or_insert_with(|| {
                    GroupExecutor::pooled(
                        program,
                        Shape::Warps(plan.warp_width),
                        options.fast_paths,
                    )
                }),
                Some(order) => {
                    fresh = GroupExecutor::with_lane_order(program, plan.warp_width, Some(order))
                        .with_fast_paths(options.fast_paths);
                    &mut fresh
                }
            };
            let before = exec.stats();
            let compiled_before = exec.compile_time();
            exec.set_compile_after(options.compile_after);
            exec.set_message_limit(options.message_limit);
            exec.set_break_at_debug_break(options.break_at_debug_break);
            if profile.is_some() {
                exec.set_profiling(true);
                exec.set_memory_profiling(options.profile_memory);
            }
            let t0 = Instant::now();
            outcome = match plan.interleave {
                None => exec.run_group_watched(gid, bindings, watchdog),
                Some(seed) => exec.run_group_interleaved(gid, bindings, watchdog, seed),
            };
            if let Some(p) = &options.progress {
                p.group_done();
            }
            if let Some(p) = &mut profile {
                let t1 = Instant::now();
                p.add_busy(0, t1 - t0);
                if options.trace && p.spans.len() >= MAX_TRACE_SPANS {
                    p.spans_dropped += 1;
                } else if options.trace {
                    p.spans.push(GroupSpan {
                        group: gid,
                        groups: 1,
                        worker: 0,
                        start: t0 - start,
                        duration: t1 - t0,
                    });
                }
                if let Some(e) = exec.profile() {
                    p.exec.merge(e);
                }
            }
            let s = exec.stats();
            sum.groups += s.groups - before.groups;
            sum.warp_instructions += s.warp_instructions - before.warp_instructions;
            sum.barriers += s.barriers - before.barriers;
            sum.aborted_threads += s.aborted_threads - before.aborted_threads;
            sum.debug_breaks += s.debug_breaks - before.debug_breaks;
            compiling += exec.compile_time() - compiled_before;
            messages.merge(&mut exec.take_messages());
            if outcome.is_err() {
                break;
            }
        }
        let wall = start.elapsed();
        if let Some(e) = fixed_exec {
            e.recycle();
        }
        let messages = with_messages(outcome, finish_messages(program, messages))?;
        Ok(Dispatched {
            stats: DispatchStats::of(program, &sum, compiling),
            profile: profile.map(|p| p.finish(program, wall)),
            messages,
        })
    }

    /// [`Mode::Checked`]: the groups one after another in their linear
    /// order. With `FastPaths::CHECK_SCREEN`, in two passes (`sim_core::check`'s
    /// two-pass checking): a screening pass, then, when some word could be
    /// part of a finding or the pass stopped, a second from the memory the
    /// dispatch began with.
    fn checked(&self, checker: &mut Checker) -> Result<Dispatched, DispatchError> {
        let total = self.total;
        let _span = tracing::debug_span!("dispatch_checked", total).entered();
        let (bindings, groups) = (self.bindings, self.groups);
        if !self.options.fast_paths.contains(FastPaths::CHECK_SCREEN) {
            checker.begin_dispatch(bindings, groups);
            let run = self.checked_pass(checker, self.watchdog);
            checker.end_dispatch();
            return run;
        }
        let start = Snapshot::take(bindings);
        checker.begin_screened_dispatch(bindings, groups);
        let first = self.checked_pass(checker, self.watchdog);
        let cancelled = self
            .options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || !checker.end_screening(bindings, groups, first.is_err()) {
            checker.end_dispatch();
            return first;
        }
        start.restore();
        let watchdog = Watchdog::new(
            self.options.max_warp_instructions,
            self.options.timeout,
            self.options.cancel.clone(),
        );
        if let Some(p) = &self.options.progress {
            p.begin_second_pass();
        }
        let run = self.checked_pass(checker, &watchdog);
        checker.end_dispatch();
        run
    }

    /// One pass of [`Run::checked`] over every group, with the checker's
    /// dispatch (or pass) begun, counting each group on the progress.
    fn checked_pass(
        &self,
        checker: &mut Checker,
        watchdog: &Watchdog,
    ) -> Result<Dispatched, DispatchError> {
        let Run {
            program,
            bindings,
            groups,
            total,
            options,
            ..
        } = *self;
        let mut exec = GroupExecutor::pooled(
            program,
            Shape::Warps(options.warp_width),
            options.fast_paths,
        );
        exec.set_profiling(options.profile);
        exec.set_memory_profiling(options.profile_memory);
        exec.set_checker(Some(Box::new(std::mem::take(checker))));
        exec.set_compile_after(options.compile_after);
        exec.set_message_limit(options.message_limit);
        exec.set_break_at_debug_break(options.break_at_debug_break);
        if options.fast_paths.contains(FastPaths::PRIVATE_ATOMICS) {
            exec.privatize_atomics(bindings);
        }
        let start = Instant::now();
        let mut outcome = Ok(());
        for g in 0..total {
            let gid = group_id(g, groups);
            outcome = exec.run_group_watched(gid, bindings, watchdog);
            if let Some(p) = &options.progress {
                p.group_done();
            }
            if outcome.is_err() {
                break;
            }
        }
        // (a stopped pass's memory is as a plain run's stop leaves it)
        exec.flush_atomics(bindings);
        let wall = start.elapsed();
        if let Some(c) = exec.take_checker() {
            *checker = *c;
        }
        let outcome = with_messages(outcome, finish_messages(program, exec.take_messages()));
        let messages = match outcome {
            Ok(m) => m,
            Err(e) => {
                exec.recycle();
                return Err(e.into());
            }
        };
        let profile = exec.profile().map(|e| {
            let mut p = ProfileSum::default();
            p.exec.merge(e);
            p.add_busy(0, wall);
            p.finish(program, wall)
        });
        let stats = DispatchStats::of(program, &exec.stats(), exec.compile_time());
        exec.recycle();
        Ok(Dispatched {
            stats,
            profile,
            messages,
        })
    }
}

/// The words and hidden counters of the UAVs a dispatch binds, as it
/// found them: two-pass checking runs the dispatch again from them.
pub(crate) struct Snapshot<'b> {
    buffers: Vec<(&'b Buffer, Contents)>,
}

impl<'b> Snapshot<'b> {
    fn take(bindings: &Bindings<'b>) -> Self {
        let views = bindings.uavs.iter().flatten().map(|v| v.buffer());
        let textures = bindings
            .uav_textures
            .iter()
            .flatten()
            .map(|t| t.texture().data());
        let mut buffers: Vec<(&'b Buffer, Contents)> = Vec::new();
        for b in views.chain(textures) {
            if !buffers.iter().any(|(x, _)| std::ptr::eq(*x, b)) {
                buffers.push((b, b.contents()));
            }
        }
        Self { buffers }
    }

    fn restore(&self) {
        for (b, contents) in &self.buffers {
            b.restore(contents);
        }
    }
}

/// Refuse a dispatch D3D would not run; else the number of groups.
pub(crate) fn admit(program: &Program, groups: [u32; 3]) -> Result<u64, DispatchError> {
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

/// `SV_GroupID` of linear group `g` of a dispatch of `groups` (x fastest).
pub(crate) fn group_id(g: u64, [x, y, _]: [u32; 3]) -> [u32; 3] {
    let (x, y) = (x as u64, y as u64);
    [(g % x) as u32, ((g / x) % y) as u32, (g / (x * y)) as u32]
}

/// A worker's executor, which adds its counters to the dispatch total when
/// the worker is done ([`Collect::finish`]).
pub(crate) struct Collect<'a, 'p, 'b> {
    exec: GroupExecutor<'p>,
    /// the dispatch's bindings, to apply the executor's gathered atomics to
    bindings: &'a Bindings<'b>,
    /// the dispatch's counters and time spent compiling
    sum: &'a Mutex<(ExecStats, Duration)>,
    /// the dispatch's records (`sim_core::messages`)
    messages: &'a Mutex<MessageLog>,
    profile: Option<WorkerProfile<'a>>,
    /// the display's progress, with the groups this worker finished and
    /// has not yet counted there, and how many it counts at once
    /// ([`progress_step`])
    progress: Option<&'a Progress>,
    unreported: u64,
    step: u64,
}

/// How many finished groups a worker counts in a dispatch's [`Progress`]
/// at once: a thousandth of the dispatch's `groups` (at least 1), finer
/// than a progress bar shows. Each count is an atomic add on a word all
/// workers share; one per group made the CLI's `run` of cas_float_add
/// (62,500 groups of 64 threads) spend about 8% of its time at 2 threads
/// waiting for that word's cache line (perf); one add per 62 groups
/// there took about 1%.
pub(crate) fn progress_step(groups: u64) -> u64 {
    (groups / 1000).max(1)
}

impl Collect<'_, '_, '_> {
    /// Count `n` more finished groups: in the [`Progress`] once at
    /// least [`Collect::step`] have gathered since the last count there.
    fn groups_done(&mut self, n: u32) {
        if let Some(p) = self.progress {
            self.unreported += u64::from(n);
            if self.unreported >= self.step {
                p.groups_done(self.unreported);
                self.unreported = 0;
            }
        }
    }
}

/// A profiling worker's time inside groups: with `trace`, each batch's span
/// (recorded in `spans` and summed in `busy`); without, the time from
/// `began` (its share of the batches taken, its executor set up) until it
/// stops, so that a plain profile reads the clock twice per share, not per
/// batch (two reads per batch were 5% of cas_float_add's profiled run at
/// 1 thread, 62,500 one-group batches: perf, `__vdso_clock_gettime`).
pub(crate) struct WorkerProfile<'a> {
    sum: &'a Mutex<ProfileSum>,
    worker: usize,
    busy: Duration,
    spans: Vec<GroupSpan>,
    /// spans kept by every worker of the dispatch, against [`MAX_TRACE_SPANS`]
    kept: &'a std::sync::atomic::AtomicUsize,
    /// spans past `span_cap`, not kept
    dropped: u64,
    trace: bool,
    start: Instant,
    began: Instant,
}

impl WorkerProfile<'_> {
    fn record(&mut self, group: [u32; 3], groups: u32, t0: Instant, t1: Instant) {
        self.busy += t1 - t0;
        if !self.trace {
        } else if self.kept.fetch_add(1, Ordering::Relaxed) >= MAX_TRACE_SPANS {
            self.dropped += 1;
        } else {
            self.spans.push(GroupSpan {
                group,
                groups,
                worker: self.worker,
                start: t0 - self.start,
                duration: t1 - t0,
            });
        }
    }
}

impl Collect<'_, '_, '_> {
    /// This worker's share of the groups is done (or stopped): its gathered
    /// atomics go to the buffers, its counters and profile to the
    /// dispatch's, and its executor is parked for the next dispatch
    /// ([`GroupExecutor::recycle`]).
    fn finish(mut self) {
        if let Some(p) = self.profile.as_mut().filter(|p| !p.trace) {
            p.busy += p.began.elapsed();
        }
        self.exec.flush_atomics(self.bindings);
        if let (Some(p), n @ 1..) = (self.progress, self.unreported) {
            p.groups_done(n);
        }
        if let Some(p) = &mut self.profile {
            let mut sum = p.sum.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = self.exec.profile() {
                sum.exec.merge(e);
            }
            sum.add_busy(p.worker, p.busy);
            sum.spans.append(&mut p.spans);
            sum.spans_dropped += p.dropped;
        }
        let s = self.exec.stats();
        let mut sum = self.sum.lock().unwrap_or_else(|p| p.into_inner());
        sum.1 += self.exec.compile_time();
        let total = &mut sum.0;
        total.groups += s.groups;
        total.warp_instructions += s.warp_instructions;
        total.barriers += s.barriers;
        total.aborted_threads += s.aborted_threads;
        total.debug_breaks += s.debug_breaks;
        drop(sum);
        let mut mine = self.exec.take_messages();
        if !mine.is_empty() {
            let mut all = self.messages.lock().unwrap_or_else(|p| p.into_inner());
            all.merge(&mut mine);
        }
        self.exec.recycle();
    }
}
