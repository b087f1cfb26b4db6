//! A dispatch under a debugger ([`Debugger`]): the groups in their linear
//! order, each group's warps in the order the group runner runs them
//! (`group.rs`, `run_rounds`: a warp until it parks at a barrier or
//! finishes, then the next; barrier rounds), one instruction at a time or
//! in quanta, with every lane's registers open to view between
//! instructions.
//!
//! A step is one call of the interpreter loop with a budget of one
//! instruction (`Budget::interleave`, as `run_group_interleaved` uses it):
//! the loop yields before the next instruction, so the plain loop is the
//! one that runs and a plain run pays nothing for the debugger. The
//! multi-instruction fast paths (row runs, fused leaves, compare-exchange
//! loops) honour that budget and run one instruction at a time.
//!
//! Run to its end, a debugged dispatch leaves memory as the deterministic
//! mode does (`sim_sched::Schedule::fixed`: linear group order, warps in
//! order, no lane order): the same warp width gives the same order of
//! every memory operation.

use crate::check::{Checker, Finding};
use crate::exec::executor::GroupExecutor;
use crate::exec::fast::FastPaths;
use crate::exec::observe::{Both, LastWrite, Observer, Recording, WordSpace};
use crate::exec::profile::ExecStats;
use crate::exec::warp::Exit;
use crate::exec::watchdog::{Runaway, StopReason, Watchdog};
use crate::Program;
use sim_mem::{Bindings, Tgsm};

/// How a [`Debugger`] runs the dispatch.
#[derive(Debug, Clone)]
pub struct DebugOptions {
    /// Lanes per warp (clamped to 1..=threads per group, as
    /// [`GroupExecutor::new`] does).
    pub warp_width: usize,
    /// The fast paths taken ([`FastPaths`]); [`FastPaths::PACKED_GROUPS`]
    /// and [`FastPaths::PRIVATE_ATOMICS`] are never used (one group at a
    /// time, every atomic on the bound words, so views show them).
    pub fast_paths: FastPaths,
    /// Stop after this many warp-instructions (`None`: no limit).
    pub max_warp_instructions: Option<u64>,
}

impl Default for DebugOptions {
    fn default() -> Self {
        DebugOptions {
            warp_width: 32,
            fast_paths: FastPaths::ALL,
            max_warp_instructions: None,
        }
    }
}

/// What one call of [`Debugger::run_quantum`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// Where it started: group, warp, instruction index.
    pub from: Position,
    /// Warp-instructions executed (0 only when the dispatch had ended).
    pub instructions: u64,
    /// The warp parked at a barrier or finished, and the cursor moved on.
    pub warp_left: bool,
    /// The group ended (and the cursor is at the next one's start).
    pub group_ended: bool,
    /// A barrier round completed (every unfinished warp had arrived).
    pub barrier: bool,
}

/// The place of the next instruction to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// `SV_GroupID` of the group.
    pub group: [u32; 3],
    /// The warp (lanes `warp·W ..`).
    pub warp: usize,
    /// The instruction's index in [`Program::code`].
    pub pc: usize,
}

/// One lane of a warp, as the debugger shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneState {
    /// `SV_GroupThreadID`.
    pub thread: [u32; 3],
    /// `SV_GroupIndex`.
    pub index: u32,
    /// `SV_DispatchThreadID`.
    pub dispatch_thread: [u32; 3],
    /// The lane runs a thread (the last warp may be partial).
    pub exists: bool,
    /// The thread has not returned.
    pub alive: bool,
    /// The lane executes the next instruction (under the masks of the
    /// branches and loops it is in).
    pub active: bool,
}

/// A dispatch being debugged: see the module docs. The caller keeps the
/// bindings and passes them to each call.
#[derive(Debug)]
pub struct Debugger<'p> {
    exec: GroupExecutor<'p>,
    groups: [u32; 3],
    total: u64,
    /// the linear index of the group in progress
    next: u64,
    /// the warp the cursor is on
    cur: usize,
    /// per warp: the barrier it parked at in this round
    round: Vec<Option<u32>>,
    /// the dispatch has ended
    finished: bool,
    watchdog: Watchdog,
    /// dispatch-wide counters (the executor's, as a dispatch reports them)
    before: ExecStats,
    /// the counters of the groups skipped on a packed executor
    skipped: ExecStats,
    /// the fast paths asked for
    fast_paths: FastPaths,
    /// who wrote each word, since the first stepped group began
    recording: Box<Recording>,
}

impl<'p> Debugger<'p> {
    /// Start debugging a dispatch of `groups` thread groups of `prog`
    /// against `bindings`, under `checker` when given (it is told the
    /// dispatch begins; [`Debugger::finish`] gives it back). The groups
    /// before linear index `skip` (x fastest, then y, then z) run first at
    /// full speed, without stops (without a checker, packed several to a
    /// warp as `sm5sim run` runs them: a program whose result depends on
    /// the order of its groups' atomics may then differ from the
    /// deterministic mode); the cursor is then at the first instruction of
    /// group `skip` (or the dispatch has ended).
    ///
    /// # Errors
    /// [`Runaway`] when the instruction budget runs out in the groups run
    /// at full speed.
    pub fn start(
        prog: &'p Program,
        bindings: &Bindings<'_>,
        groups: [u32; 3],
        options: &DebugOptions,
        checker: Option<Checker>,
        skip: u64,
    ) -> Result<Self, Runaway> {
        let paths = (options.fast_paths)
            .without(FastPaths::PACKED_GROUPS)
            .without(FastPaths::PRIVATE_ATOMICS);
        let mut exec = GroupExecutor::new(prog, options.warp_width).with_fast_paths(paths);
        if let Some(mut c) = checker {
            c.begin_dispatch(bindings, groups);
            exec.set_checker(Some(Box::new(c)));
        }
        let total = groups.iter().map(|&g| u64::from(g)).product::<u64>();
        let budget = options.max_warp_instructions.unwrap_or(u64::MAX);
        let watchdog = Watchdog::new(budget, None, None);
        let mut d = Debugger {
            round: vec![None; exec.warps.len()],
            exec,
            groups,
            total,
            next: 0,
            cur: 0,
            finished: total == 0,
            watchdog,
            before: ExecStats::default(),
            skipped: ExecStats::default(),
            fast_paths: options.fast_paths,
            recording: Box::default(),
        };
        d.before = d.exec.stats();
        d.run_skipped(prog, bindings, skip.min(total), paths)?;
        d.begin_group();
        Ok(d)
    }

    /// Run groups `0..skip` at full speed, with no stops: under the
    /// checker on the debugger's own executor, else on a packed one (as
    /// `sm5sim run` packs small groups, its gathered atomics flushed at
    /// the end), row by row.
    fn run_skipped(
        &mut self,
        prog: &'p Program,
        bindings: &Bindings<'_>,
        skip: u64,
        paths: FastPaths,
    ) -> Result<(), Runaway> {
        if self.under_checker() {
            while self.next < skip {
                let g = self.group_of(self.next);
                self.exec.run_group_watched(g, bindings, &self.watchdog)?;
                self.next += 1;
            }
            return Ok(());
        }
        if skip == 0 {
            return Ok(());
        }
        let mut fast = GroupExecutor::packed(prog, u32::MAX).with_fast_paths(paths);
        let gather = self.fast_paths.contains(FastPaths::PRIVATE_ATOMICS);
        if gather {
            fast.privatize_atomics(bindings);
        }
        let x = u64::from(self.groups[0].max(1));
        let mut outcome = Ok(());
        while self.next < skip {
            let first = self.group_of(self.next);
            // the rest of this row, or up to the group skipped to
            let count = (x - u64::from(first[0])).min(skip - self.next);
            outcome = fast.run_groups_watched(first, count as u32, bindings, &self.watchdog);
            if outcome.is_err() {
                break;
            }
            self.next += count;
        }
        if gather {
            fast.flush_atomics(bindings);
        }
        self.skipped = fast.stats();
        outcome
    }

    /// `SV_GroupID` of the group with linear index `g`.
    fn group_of(&self, g: u64) -> [u32; 3] {
        let [x, y, _] = self.groups.map(|c| u64::from(c.max(1)));
        [(g % x) as u32, (g / x % y) as u32, (g / (x * y)) as u32]
    }

    /// Start group `next` (or end the dispatch when there is none).
    fn begin_group(&mut self) {
        if self.next >= self.total {
            self.finished = true;
            return;
        }
        let g = self.group_of(self.next);
        self.exec.start_batch(g, 1);
        self.exec.budget.interleave = true;
        let w = self.exec.w;
        if let Some(c) = self.exec.observers.check.as_deref_mut() {
            c.begin_group(g, w);
        }
        self.recording.begin_group(g, w);
        self.cur = 0;
        self.round.iter_mut().for_each(|r| *r = None);
        self.settle();
    }

    /// Move the cursor past finished warps: to the next warp of the round
    /// that has not finished or parked, completing a barrier round or the
    /// group as the group runner does. Returns (barrier completed, group
    /// ended).
    fn settle(&mut self) -> (bool, bool) {
        let mut barrier = false;
        loop {
            while self.cur < self.exec.warps.len() && self.exec.warps[self.cur].done {
                self.cur += 1;
            }
            if self.cur < self.exec.warps.len() {
                return (barrier, false);
            }
            if self.round.iter().any(Option::is_some) {
                // every unfinished warp has arrived: the barrier completes
                if let Some(c) = self.exec.observers.check.as_deref_mut() {
                    c.barrier_round(&self.round);
                }
                self.exec.stats.barriers += 1;
                self.round.iter_mut().for_each(|r| *r = None);
                self.cur = 0;
                barrier = true;
                continue;
            }
            if let Some(c) = self.exec.observers.check.as_deref_mut() {
                c.end_group();
            }
            self.next += 1;
            self.begin_group();
            return (barrier, true);
        }
    }

    /// Run up to `quantum` (at least 1) instructions of the warp at the
    /// cursor, stopping early where it parks at a barrier or finishes; then
    /// move the cursor on (to the next warp, round or group) when it did.
    ///
    /// # Errors
    /// [`Runaway`] when the instruction budget runs out, a `debug_break`
    /// stops the dispatch ([`Debugger::set_break_at_debug_break`]) or the
    /// checker finds the warp spinning with no other thread able to
    /// change the word (forward progress).
    pub fn run_quantum(&mut self, bindings: &Bindings<'_>, quantum: u32) -> Result<Ran, Runaway> {
        let from = self.cursor().unwrap_or(Position {
            group: [0; 3],
            warp: 0,
            pc: 0,
        });
        let mut ran = Ran {
            from,
            instructions: 0,
            warp_left: false,
            group_ended: false,
            barrier: false,
        };
        if self.finished {
            return Ok(ran);
        }
        let before = self.exec.stats.warp_instructions;
        // a quantum of `until_check - 1` instructions (`interleave`)
        self.exec.budget.until_check = quantum.clamp(1, u32::MAX - 1) + 1;
        let mut observers = std::mem::take(&mut self.exec.observers);
        let mut warps = std::mem::take(&mut self.exec.warps);
        let warp = &mut warps[self.cur];
        let rec = &mut *self.recording;
        let exit = match observers.check.as_deref_mut() {
            Some(c) => (self.exec).run_warp(&mut Both(rec, c), warp, bindings, &self.watchdog),
            None => self.exec.run_warp(rec, warp, bindings, &self.watchdog),
        };
        let stalled = observers.check.as_deref().is_some_and(|c| c.stalled());
        self.exec.warps = warps;
        self.exec.observers = observers;
        ran.instructions = self.exec.stats.warp_instructions - before;
        let mut stop = match exit {
            Exit::Stopped(reason) => Some(reason),
            _ if stalled => Some(StopReason::NoProgress),
            _ => None,
        };
        if stop.is_none() && ran.instructions > 0 {
            stop = self.watchdog.check(ran.instructions);
        }
        if let Some(reason) = stop {
            self.exec.settled = false;
            return Err(self.exec.runaway(&self.exec.warps[self.cur], reason));
        }
        match exit {
            Exit::Barrier => {
                self.round[self.cur] = Some(self.exec.warps[self.cur].pc as u32 - 1);
                self.cur += 1;
                ran.warp_left = true;
            }
            Exit::Done => {
                self.cur += 1;
                ran.warp_left = true;
            }
            _ => {}
        }
        (ran.barrier, ran.group_ended) = self.settle();
        Ok(ran)
    }

    /// Stop at the first `debug_break` a thread executes (an error of
    /// [`Debugger::run_quantum`]), or record it and go on (the default).
    pub fn set_break_at_debug_break(&mut self, on: bool) {
        self.exec.set_break_at_debug_break(on);
    }

    /// Whether the dispatch runs under a checker.
    pub fn under_checker(&self) -> bool {
        self.exec.observers.check.is_some()
    }

    /// Whether the dispatch has ended (every group ran).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The next instruction to run (None once the dispatch has ended).
    pub fn cursor(&self) -> Option<Position> {
        if self.finished {
            return None;
        }
        Some(Position {
            group: self.exec.first,
            warp: self.cur,
            pc: self.exec.warps[self.cur].pc,
        })
    }

    /// The linear index of the group in progress (the dispatch's group
    /// count once it has ended).
    pub fn group_index(&self) -> u64 {
        self.next
    }

    /// The dispatch's group counts.
    pub fn groups(&self) -> [u32; 3] {
        self.groups
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.exec.prog
    }

    /// Lanes per warp.
    pub fn warp_width(&self) -> usize {
        self.exec.w
    }

    /// Warps per group.
    pub fn warp_count(&self) -> usize {
        self.exec.warps.len()
    }

    /// Whether warp `warp` of the group has finished.
    pub fn warp_done(&self, warp: usize) -> bool {
        self.exec.warps.get(warp).is_none_or(|w| w.done)
    }

    /// The instruction warp `warp` runs next (its index in
    /// [`Program::code`]; past a barrier's `sync` when parked there).
    pub fn warp_pc(&self, warp: usize) -> Option<usize> {
        self.exec.warps.get(warp).map(|w| w.pc)
    }

    /// Whether warp `warp` is parked at a barrier in this round.
    pub fn warp_parked(&self, warp: usize) -> bool {
        self.round.get(warp).is_some_and(Option::is_some)
    }

    /// Lane `lane` of warp `warp` in the group in progress (None past the
    /// warp's lanes).
    pub fn lane(&self, warp: usize, lane: usize) -> Option<LaneState> {
        let w = self.exec.warps.get(warp)?;
        if lane >= self.exec.w {
            return None;
        }
        let thread = [w.tig[0][lane], w.tig[1][lane], w.tig[2][lane]];
        let tg = self.exec.prog.thread_group;
        let group = self.exec.first;
        Some(LaneState {
            thread,
            index: w.flat[lane],
            dispatch_thread: std::array::from_fn(|c| {
                group[c].wrapping_mul(tg[c]).wrapping_add(thread[c])
            }),
            exists: w.exists[lane] != 0,
            alive: w.alive[lane] != 0,
            active: w.active[lane] != 0,
        })
    }

    /// The warp and lane that run the thread with `SV_GroupIndex` `index`.
    pub fn lane_of(&self, index: u32) -> Option<(usize, usize)> {
        let w = self.exec.w;
        (self.exec.warps.iter().enumerate()).find_map(|(wi, warp)| {
            (0..w)
                .find(|&l| warp.exists[l] != 0 && warp.flat[l] == index)
                .map(|l| (wi, l))
        })
    }

    /// Component `comp` (0–3) of temp `r{reg}` in lane `lane` of warp
    /// `warp` (None past the declared temps).
    pub fn temp(&self, warp: usize, lane: usize, reg: u32, comp: u32) -> Option<u32> {
        let w = self.exec.w;
        if reg >= self.exec.prog.temps || comp > 3 || lane >= w {
            return None;
        }
        let warp = self.exec.warps.get(warp)?;
        Some(warp.regs[(reg as usize * 4 + comp as usize) * w + lane])
    }

    /// Component `comp` of element `element` of indexable temp
    /// `x{array}[]` in lane `lane` of warp `warp` (None past its size).
    pub fn indexable_temp(
        &self,
        warp: usize,
        lane: usize,
        array: u32,
        element: u32,
        comp: u32,
    ) -> Option<u32> {
        let w = self.exec.w;
        let (base, size) = (*self.exec.prog.xtemp_layout.get(array as usize)?)?;
        if element >= size || comp > 3 || lane >= w {
            return None;
        }
        let warp = self.exec.warps.get(warp)?;
        warp.xregs
            .get(((base + element * 4) as usize + comp as usize) * w + lane)
            .copied()
    }

    /// The declared indexable temps: (array number, elements).
    pub fn indexable_temps(&self) -> Vec<(u32, u32)> {
        (self.exec.prog.xtemp_layout.iter().enumerate())
            .filter_map(|(x, l)| l.map(|(_, size)| (x as u32, size)))
            .collect()
    }

    /// The group's TGSM as it stands.
    pub fn tgsm(&self) -> &Tgsm {
        &self.exec.mem.tgsm
    }

    /// The last write of word `word` of `space` (a TGSM region's word, a
    /// UAV view's word or typed element) since the first stepped group
    /// began: the thread, the instruction and the value (None: no stepped
    /// instruction wrote it; the groups skipped at the start are not
    /// recorded, and a group's TGSM record starts afresh with the group).
    pub fn last_write(&self, space: WordSpace, word: usize) -> Option<LastWrite> {
        self.recording.last_write(space, word)
    }

    /// The checker's findings so far (empty without a checker).
    pub fn findings(&self) -> &[Finding] {
        match self.exec.observers.check.as_deref() {
            Some(c) => c.checker.findings(),
            None => &[],
        }
    }

    /// Counters of the dispatch so far.
    pub fn stats(&self) -> ExecStats {
        let (s, b, k) = (self.exec.stats(), self.before, self.skipped);
        ExecStats {
            groups: s.groups - b.groups + k.groups,
            warp_instructions: s.warp_instructions - b.warp_instructions + k.warp_instructions,
            barriers: s.barriers - b.barriers + k.barriers,
            aborted_threads: s.aborted_threads - b.aborted_threads + k.aborted_threads,
            debug_breaks: s.debug_breaks - b.debug_breaks + k.debug_breaks,
        }
    }

    /// The `printf`/`errorf`/`abort`/`debug_break` records so far, by
    /// kind (printf, errorf, abort, debug_break).
    pub fn message_counts(&self) -> [u64; 4] {
        self.exec.messages.log.counts()
    }

    /// The message records not taken yet ([`GroupExecutor::take_messages`]).
    pub fn take_messages(&mut self) -> crate::messages::MessageLog {
        self.exec.take_messages()
    }

    /// End the session: the checker's dispatch ends (when there is one) and
    /// it is given back. What has not run does not run.
    pub fn finish(mut self) -> Option<Checker> {
        self.exec.budget.interleave = false;
        self.exec.take_checker().map(|mut c| {
            c.end_dispatch();
            *c
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::tests::{program, random_loop_shader, random_memory_shader};
    use crate::isa::lanes::tests::Rng;
    use sim_mem::BufferView;

    /// A dispatch stepped one instruction at a time leaves what the group
    /// runner leaves running the groups in their linear order (the
    /// deterministic mode), with the same counts; each step is one
    /// warp-instruction: random shaders with loops, lane-dependent
    /// branches, TGSM and barriers, in warps of 8 and 40 lanes.
    #[test]
    fn a_stepped_dispatch_equals_the_group_runner() {
        let mut rng = Rng(0x0dd_ba11_5eed_cafe);
        let cb: Vec<u32> = vec![0x3f80_0000, 3, 0x8000_0001, 0xc040_0000, 7, 0xfff0, 9, 0];
        let input: Vec<u32> = (0..50u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        for case in 0..24 {
            let text = match case % 2 {
                0 => random_memory_shader(&mut rng, case % 4 == 0),
                _ => random_loop_shader(&mut rng),
            };
            let prog = program(&text);
            let groups = [2, 1, 1];
            for w in [8, 40] {
                let run = |debugged: bool| {
                    let out = sim_mem::Buffer::zeroed(16384).unwrap();
                    let inp = sim_mem::Buffer::from_words(&input);
                    let b = Bindings {
                        constant_buffers: vec![Some(&cb[..])],
                        uavs: vec![
                            Some(BufferView::raw(&out)),
                            Some(BufferView::structured(&inp, 4).unwrap()),
                        ],
                        ..Default::default()
                    };
                    let stats = if debugged {
                        let options = DebugOptions {
                            warp_width: w,
                            ..Default::default()
                        };
                        let mut d = Debugger::start(&prog, &b, groups, &options, None, 0).unwrap();
                        while !d.finished() {
                            let ran = d.run_quantum(&b, 1).unwrap();
                            assert_eq!(ran.instructions, 1, "case {case}: {ran:?}");
                        }
                        d.stats()
                    } else {
                        let mut ex = GroupExecutor::new(&prog, w);
                        ex.run_group([0, 0, 0], &b);
                        ex.run_group([1, 0, 0], &b);
                        ex.stats()
                    };
                    (out.to_words(), stats)
                };
                let (want, want_stats) = run(false);
                let (got, got_stats) = run(true);
                assert_eq!(got, want, "case {case}, w {w}\n{text}");
                assert_eq!(got_stats, want_stats, "case {case}, w {w}");
            }
        }
    }

    /// Between steps the registers hold what the program wrote so far, per
    /// lane; a barrier parks each warp in turn; skipped groups run first.
    #[test]
    fn registers_lanes_and_barriers_are_open_between_steps() {
        let prog = program(
            "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_input vThreadID.x\ndcl_temps 1\ndcl_tgsm_raw g0, 256\n\
             dcl_thread_group 64, 1, 1\n\
             imul null, r0.x, vThreadIDInGroupFlattened.x, l(3)\n\
             ishl r0.y, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw g0.x, r0.y, r0.x\n\
             sync_g_t\n\
             ishl r0.z, vThreadID.x, l(2)\n\
             store_raw u0.x, r0.z, r0.x\n\
             ret\n",
        );
        let out = sim_mem::Buffer::zeroed(4 * 64 * 3).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let options = DebugOptions {
            warp_width: 16,
            ..Default::default()
        };
        let mut d = Debugger::start(&prog, &b, [3, 1, 1], &options, None, 1).unwrap();
        // group 0 ran at full speed; the cursor is at group 1's start
        assert_eq!(out.to_words()[63], 63 * 3);
        assert_eq!(out.to_words()[64], 0);
        let at = d.cursor().unwrap();
        assert_eq!((at.group, at.warp, at.pc), ([1, 0, 0], 0, 0));
        assert_eq!(d.warp_count(), 4);
        d.run_quantum(&b, 1).unwrap();
        for lane in 0..16 {
            assert_eq!(d.temp(0, lane, 0, 0), Some(3 * lane as u32));
        }
        // warp 1 has not run
        assert_eq!(d.warp_pc(1), Some(0));
        let lane = d.lane(1, 5).unwrap();
        assert_eq!((lane.index, lane.dispatch_thread), (21, [64 + 21, 0, 0]));
        assert_eq!(d.lane_of(21), Some((1, 5)));
        // warp 0 runs to its barrier and parks; the cursor moves to warp 1
        let ran = d.run_quantum(&b, 100).unwrap();
        assert!(
            ran.warp_left && !ran.barrier && ran.instructions == 3,
            "{ran:?}"
        );
        assert!(d.warp_parked(0));
        assert_eq!(d.cursor().unwrap().warp, 1);
        for _ in 0..3 {
            d.run_quantum(&b, 100).unwrap();
        }
        // the last warp parked: the round completed, back at warp 0
        let at = d.cursor().unwrap();
        assert_eq!((at.warp, at.pc), (0, 4));
        assert_eq!(d.tgsm().words()[10], 30);
        assert!(d.temp(0, 0, 7, 0).is_none());
        while !d.finished() {
            d.run_quantum(&b, 1).unwrap();
        }
        let words = out.to_words();
        assert!((0..192).all(|i| words[i] == (i as u32 % 64) * 3));
        assert_eq!(d.stats().groups, 3);
    }
}
