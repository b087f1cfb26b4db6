//! The group runner: a group or a batch of groups from start to end,
//! warps run until they park at a barrier (or interleaved, for a
//! schedule), barrier rounds, the watchdog; it picks the observers of a
//! batch and runs the interpreter (`interp`) monomorphised for them.

use crate::exec::executor::GroupExecutor;
use crate::exec::observe::{Both, Observer, Plain};
use crate::exec::warp::{Exit, Warp};
use crate::exec::watchdog::{Runaway, StopReason, Watchdog};
use crate::isa::lanes::bool_mask;
use sim_mem::Bindings;

impl GroupExecutor<'_> {
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
    pub(super) fn run_batch(
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
    pub(super) fn run_observed<O: Observer>(
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
            let pending = self.budget.interval - self.budget.until_check;
            self.budget.until_check = self.budget.interval;
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
    pub(super) fn run_rounds<O: Observer>(
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
    pub(super) fn interleave<O: Observer>(
        &mut self,
        obs: &mut O,
        bindings: &Bindings<'_>,
        watchdog: &Watchdog,
        draw: &mut impl FnMut(usize) -> usize,
    ) -> Result<(), Runaway> {
        self.budget.interleave = true;
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
            self.budget.until_check = draw(8) as u32 + 2;
            if self.budget.interval == 1 {
                let left = watchdog.left();
                if left == 0 {
                    // the next instruction would pass the budget
                    let reason = watchdog.check(1);
                    let warp = &self.warps[wi];
                    outcome =
                        Err(self.runaway(warp, reason.unwrap_or(StopReason::InstructionBudget(0))));
                    break;
                }
                self.budget.until_check = self.budget.until_check.min((left + 1).min(9) as u32);
            }
            let before = self.stats.warp_instructions;
            let mut warp = std::mem::replace(&mut self.warps[wi], Warp::empty());
            let exit = self.run_warp(obs, &mut warp, bindings, watchdog);
            unaccounted += self.stats.warp_instructions - before;
            let mut stop = None;
            if unaccounted >= u64::from(self.budget.interval) {
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
        self.budget.interleave = false;
        self.budget.until_check = self.budget.interval;
        if outcome.is_err() {
            self.settled = false;
        }
        outcome
    }

    /// Reset registers, masks and TGSM for the `count` groups (at most
    /// `pack`, consecutive along x) from `first`.
    pub(super) fn start_batch(&mut self, first: [u32; 3], count: u32) {
        self.first = first;
        // Empty slices are skipped: glibc's AVX-512 memset clears a short
        // tail with a masked store, and on the dangling pointer of an empty
        // Vec that store takes a microcode assist (perf: ~12% of
        // global_histogram's dispatch went to two empty fills per group).
        self.mem.tgsm.reset();
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
    pub(super) fn watch(&mut self, watchdog: &Watchdog) {
        let interval = watchdog.interval();
        if interval != self.budget.interval || watchdog.id() != self.budget.watchdog_id {
            self.budget.interval = interval;
            self.budget.until_check = interval;
            self.budget.watchdog_id = watchdog.id();
        }
    }

    /// The [`Runaway`] of a batch that finished but whose last count passed
    /// the budget: its first group, lane 0, at the program's last instruction.
    pub(super) fn runaway_after(&self, reason: StopReason) -> Runaway {
        let token = self.prog.code.last().map_or(0, |op| op.token);
        Runaway::at(self.prog, reason, self.first, 0, token)
    }

    pub(super) fn runaway(&self, warp: &Warp, reason: StopReason) -> Runaway {
        let lane = warp.active.iter().position(|&a| a != 0).unwrap_or(0);
        let token = self.prog.code.get(warp.pc).map_or(0, |op| op.token);
        let [x, y, z] = self.first;
        let group = [x.wrapping_add(warp.batch[lane]), y, z];
        Runaway::at(self.prog, reason, group, warp.flat[lane], token)
    }
}
