//! Two-pass checking (`FastPaths::CHECK_SCREEN`): a screening pass with a
//! few bytes of shadow per word finds the words that could be part of a
//! finding, and a second pass, from the same memory, checks only those
//! words exactly.
//!
//! The checked run is deterministic (groups one after another, in their
//! linear order, on one OS thread), so the second pass makes exactly the
//! accesses the first made. The screen is conservative: a word is a
//! *suspect* when, in one epoch of one group, two threads touched it other
//! than all reading or all by atomics; when a plain access of one group
//! meets another group's plain write or its atomic (or an atomic meets
//! another group's plain access); on a TGSM read before any write of the
//! group; and on any spin read (`crate::analysis::spin`). A plain load of a
//! resource the program compare-exchanges on counts as an atomic (a
//! compare-exchange loop's guess, which one exact pass excuses against
//! atomics once its thread's compare-exchange on the word validates it)
//! when its thread compare-exchanges the word next; a guess left
//! unvalidated when its group ends, or followed by another, makes its word
//! a suspect. Every finding of
//! the per-word rules needs one of these, so a word that is no suspect has
//! none, and the exact pass (`Pass::Replay`) skips its word state while
//! keeping every thread's state (its locks, last read and last atomic,
//! whether it acquired) as the full checker does. When nothing is a
//! suspect the screening pass's findings (barriers, bounds, counters) are
//! the dispatch's, and there is no second pass.
//!
//! Shadow per word: 12 bytes for TGSM, 12 for a UAV word (in pages of
//! 4,096 words allocated on first touch), and a bit per suspect word;
//! against 112 and 56 bytes plus a per-group record in the exact pass.

use super::*;

/// Which pass of a dispatch the checker is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Pass {
    /// every word exactly (one pass)
    #[default]
    Full,
    /// the screen: compact shadow, suspects marked, word findings none
    Screen,
    /// the second pass: the suspects exactly, the other words' accesses
    /// only for their threads' state
    Replay,
}

const READ: u8 = 1;
const WRITE: u8 = 2;
const ATOMIC: u8 = 4;
/// The epoch's thread when several threads all read, or all used atomics
/// (a group has at most 1,024 threads, so this fits the UAV word's 11 bits)
const SHARED: u16 = 0x7ff;

/// Thread `t`'s access `o` in an epoch whose accesses so far were by
/// `owner` (one thread, or `SHARED`) of kinds `ops`: the epoch's new
/// (owner, kinds), or None when it may conflict with another thread's
/// (two threads, other than all reading or all using atomics).
#[inline(always)]
fn same_epoch(owner: u16, ops: u8, t: u16, o: u8) -> Option<(u16, u8)> {
    if owner == t {
        return Some((t, ops | o));
    }
    let all = ops | o;
    (all == READ || all == ATOMIC).then_some((SHARED, all))
}

/// A word's accesses in the current epoch of one group.
#[derive(Debug, Clone, Copy)]
struct Epochal {
    /// `Checker::gen` of the group
    gen: u32,
    epoch: u32,
    /// the one thread that accessed it in the epoch, or `SHARED`
    owner: u16,
    /// the kinds of access in the epoch (`READ | WRITE | ATOMIC`)
    ops: u8,
    /// a thread of the group wrote it (TGSM: any epoch)
    written: bool,
}

impl Epochal {
    const EMPTY: Epochal = Epochal {
        gen: NONE,
        epoch: 0,
        owner: SHARED,
        ops: 0,
        written: false,
    };

    /// Thread `t`'s access `o` in epoch `epoch` of group `gen`: whether it
    /// may conflict with another thread's in the epoch.
    #[inline(always)]
    fn step(&mut self, gen: u32, epoch: u32, t: u16, o: u8) -> bool {
        if self.gen != gen {
            *self = Epochal {
                gen,
                epoch,
                owner: t,
                ops: o,
                written: false,
            };
            return false;
        }
        if self.epoch != epoch {
            self.epoch = epoch;
            self.owner = t;
            self.ops = o;
            return false;
        }
        match same_epoch(self.owner, self.ops, t, o) {
            Some((owner, ops)) => {
                (self.owner, self.ops) = (owner, ops);
                false
            }
            None => true,
        }
    }

    /// [`Epochal::step`] for a TGSM word, with the uninitialised-read rule:
    /// whether the access may be part of a finding.
    #[inline(always)]
    fn screen(&mut self, gen: u32, epoch: u32, t: u16, o: u8) -> bool {
        let race = self.step(gen, epoch, t, o);
        let uninit = !self.written && o != WRITE;
        self.written |= o != READ;
        race || uninit
    }
}

/// A UAV word's screen for the dispatch, in 12 bytes.
#[derive(Debug, Clone, Copy)]
struct UavWord {
    /// the last group to touch it, as its seq + 1 (0: none)
    last: u32,
    /// the epoch's one thread or `SHARED` (bits 0–10), the epoch's
    /// kinds of access (11–13), the last group's (14–16), and every
    /// earlier group's (17–19)
    bits: u32,
    /// the epoch, truncated (a wrap only merges two epochs: more suspects,
    /// never fewer)
    epoch: u16,
}

impl UavWord {
    const EMPTY: UavWord = UavWord {
        last: 0,
        bits: 0,
        epoch: 0,
    };

    /// Thread `t`'s access `o` in epoch `epoch` of group `g`: whether it
    /// may be part of a finding (as [`Epochal::step`] within the group;
    /// across groups, a plain access after another group's plain write
    /// or atomic, or a plain write or atomic after another group's plain
    /// access).
    #[inline(always)]
    fn step(&mut self, g: u32, epoch: u32, t: u16, o: u8) -> bool {
        let (g, e, o32) = (g.wrapping_add(1), epoch as u16, u32::from(o));
        let race = if self.last != g {
            // a new group: the last group's accesses become earlier ones
            let earlier = (self.bits >> 17 | self.bits >> 14) & 7;
            self.last = g;
            self.epoch = e;
            self.bits = u32::from(t) | o32 << 11 | o32 << 14 | earlier << 17;
            false
        } else {
            self.bits |= o32 << 14;
            let (owner, ops) = ((self.bits & 0x7ff) as u16, ((self.bits >> 11) & 7) as u8);
            let next = match self.epoch != e {
                true => Some((t, o)),
                false => same_epoch(owner, ops, t, o),
            };
            self.epoch = e;
            match next {
                Some((owner, ops)) => {
                    self.bits = (self.bits & !0x3fff) | u32::from(owner) | u32::from(ops) << 11;
                    false
                }
                None => true,
            }
        };
        let earlier = (self.bits >> 17) & 7;
        let across = match o {
            READ => earlier & u32::from(WRITE | ATOMIC) != 0,
            WRITE => earlier != 0,
            _ => earlier & u32::from(READ | WRITE) != 0,
        };
        race || across
    }
}

const PAGE_BITS: u32 = 12;

/// Page `p` of a UAV's screen, allocated on first touch.
fn uav_page(pages: &mut Vec<Option<Box<[UavWord]>>>, p: usize) -> &mut [UavWord] {
    if pages.len() <= p {
        pages.resize(p + 1, None);
    }
    pages[p].get_or_insert_with(|| vec![UavWord::EMPTY; 1 << PAGE_BITS].into_boxed_slice())
}

/// A set of words, as a bitmap.
#[derive(Debug, Clone, Default)]
struct Words(Vec<u64>);

impl Words {
    fn insert(&mut self, w: u32) {
        let i = (w / 64) as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] |= 1 << (w % 64);
    }

    #[inline]
    fn contains(&self, w: u32) -> bool {
        self.0
            .get((w / 64) as usize)
            .is_some_and(|b| b & (1 << (w % 64)) != 0)
    }
}

/// The findings and notes as they were when a screened dispatch began.
#[derive(Debug, Clone, Default)]
struct Saved {
    findings: Vec<Finding>,
    index: FxMap<(FindingKind, u32, u32, u32), usize>,
    notes: Vec<String>,
}

/// The screening pass's state.
#[derive(Debug, Default)]
pub(super) struct Screen {
    tgsm: Vec<Epochal>,
    /// per UAV slot, pages of words
    uav: Vec<Vec<Option<Box<[UavWord]>>>>,
    sus_tgsm: Words,
    sus_uav: Vec<Words>,
    any: bool,
    saved: Saved,
    /// an instruction's suspects, before they are marked (kept for its
    /// allocation)
    marks: Vec<u32>,
    /// per thread of the group, the word of its unvalidated guess
    guesses: Vec<Option<(Space, u32)>>,
    /// the words of guesses left unvalidated
    lost: Vec<(Space, u32)>,
}

impl Screen {
    /// Whether the exact pass checks `word` of `space`.
    #[inline]
    pub(super) fn suspect(&self, space: Space, word: u32) -> bool {
        match space {
            Space::Tgsm(_) => self.sus_tgsm.contains(word),
            Space::Uav(u) => self
                .sus_uav
                .get(u as usize)
                .is_some_and(|s| s.contains(word)),
            Space::Srv(_) => false,
        }
    }

    #[cold]
    fn mark(&mut self, space: Space, word: u32) {
        self.any = true;
        match space {
            Space::Tgsm(_) => self.sus_tgsm.insert(word),
            Space::Uav(u) => {
                let u = u as usize;
                if self.sus_uav.len() <= u {
                    self.sus_uav.resize(u + 1, Words::default());
                }
                self.sus_uav[u].insert(word);
            }
            Space::Srv(_) => {}
        }
    }
}

/// Per pc, whether it is a plain load (`ld_raw`, `ld_structured`,
/// `ld_uav_typed`) of a UAV or TGSM region that some
/// `imm_atomic_cmp_exch` of the program targets ([`Prepared::guess`]).
pub(super) fn guess_loads(code: &[crate::ir::lowered::Op]) -> Vec<bool> {
    let cas: Vec<crate::ir::lowered::Res> = code
        .iter()
        .filter_map(|op| match op.kind {
            OpKind::Atomic {
                kind: AtomicKind::CmpExch,
                res,
                ..
            } => Some(res),
            _ => None,
        })
        .collect();
    code.iter()
        .map(|op| match op.kind {
            OpKind::LdRaw { res, .. }
            | OpKind::LdStructured { res, .. }
            | OpKind::LdTyped { res, .. } => cas.contains(&res),
            _ => false,
        })
        .collect()
}

/// The shadow one instruction's accesses go to.
enum Shadow<'c> {
    /// the group's TGSM words, and the TGSM epoch
    Tgsm(&'c mut [Epochal], u32),
    /// a UAV's pages, and the UAV epoch
    Uav(&'c mut Vec<Option<Box<[UavWord]>>>, u32),
    /// an SRV's or unbound slot's
    Nothing,
}

/// One instruction's accesses in the screening pass
/// ([`Checker::screen_lanes`]).
pub(crate) struct ScreenLanes<'c> {
    shadow: Shadow<'c>,
    space: Space,
    o: u8,
    gen: u32,
    seq: u32,
    writes: u64,
    marks: Vec<u32>,
    /// a guess ([`Prepared::guess`]); a compare-exchange
    guess: bool,
    cas: bool,
    /// each thread's unvalidated guess
    guesses: &'c mut [Option<(Space, u32)>],
    /// guesses left unvalidated (their words are suspects)
    lost: &'c mut Vec<(Space, u32)>,
}

impl ScreenLanes<'_> {
    /// Thread `thread`'s access to word `word` (in bounds).
    #[inline(always)]
    pub(crate) fn access(&mut self, thread: u32, word: usize) {
        self.access_all(&[(thread, word as u32)]);
    }

    /// Each (thread, word)'s access (in bounds), in order.
    #[inline]
    pub(crate) fn access_all(&mut self, items: &[(u32, u32)]) {
        if self.o != READ {
            self.writes += items.len() as u64;
        }
        if self.guess | self.cas {
            for &(t, w) in items {
                self.validate(t, w);
            }
        }
        // a guess is an atomic to the shadow
        let o = if self.guess { ATOMIC } else { self.o };
        self.shadow(items, o);
    }

    /// The guess rule for thread `t`'s access to `word`: a guess waits
    /// for its thread's compare-exchange on the word (the thread's guess
    /// before it is lost); a compare-exchange validates its thread's guess
    /// on the word.
    fn validate(&mut self, t: u32, word: u32) {
        let at = Some((self.space, word));
        match self.guesses.get_mut(t as usize) {
            Some(g) if self.guess => self.lost.extend(g.replace((self.space, word))),
            Some(g) if *g == at => *g = None,
            _ if self.guess => self.lost.extend(at),
            _ => {}
        }
    }

    /// The shadow's rules for accesses of kind `o`; suspects to `marks`.
    #[inline(always)]
    fn shadow(&mut self, items: &[(u32, u32)], o: u8) {
        let (gen, seq) = (self.gen, self.seq);
        match &mut self.shadow {
            Shadow::Tgsm(words, epoch) => {
                for &(t, w) in items {
                    if words
                        .get_mut(w as usize)
                        .is_some_and(|e| e.screen(gen, *epoch, t as u16, o))
                    {
                        self.marks.push(w);
                    }
                }
            }
            Shadow::Uav(pages, epoch) => {
                // the page of the last word, looked up again only when
                // the words move to another
                let mut at: Option<(u32, &mut [UavWord])> = None;
                for &(t, w) in items {
                    let p = w >> PAGE_BITS;
                    let page = match at.take() {
                        Some((q, page)) if q == p => page,
                        _ => uav_page(pages, p as usize),
                    };
                    if page[(w & ((1 << PAGE_BITS) - 1)) as usize].step(seq, *epoch, t as u16, o) {
                        self.marks.push(w);
                    }
                    at = Some((p, page));
                }
            }
            Shadow::Nothing => {}
        }
    }

    /// What [`Checker::screen_done`] takes.
    pub(crate) fn finish(self) -> (Space, u64, Vec<u32>) {
        (self.space, self.writes, self.marks)
    }
}

impl Checker {
    /// Begin a dispatch checked in two passes: this is the screening
    /// pass; [`Checker::end_screening`] says whether a second is needed.
    /// Otherwise as [`Checker::begin_dispatch`].
    pub fn begin_screened_dispatch(&mut self, bindings: &Bindings<'_>, groups: [u32; 3]) {
        self.screen = Screen {
            saved: Saved {
                findings: self.findings.clone(),
                index: self.index.clone(),
                notes: self.notes.clone(),
            },
            ..Screen::default()
        };
        self.pass = Pass::Screen;
        self.begin_dispatch(bindings, groups);
    }

    /// The screening pass begun by [`Checker::begin_screened_dispatch`]
    /// has run (`failed`: it stopped on an error). Returns whether the
    /// dispatch must run again, from the memory it began with: when some
    /// word is a suspect (the second pass checks those exactly), or when
    /// the pass failed (the second pass checks every word: a stop that
    /// came from a wall-clock watchdog may come elsewhere). The findings
    /// of the screening pass are then dropped; otherwise they are the
    /// dispatch's, and [`Checker::end_dispatch`] follows at once.
    pub fn end_screening(
        &mut self,
        bindings: &Bindings<'_>,
        groups: [u32; 3],
        failed: bool,
    ) -> bool {
        if !self.screen.any && !failed {
            self.pass = Pass::Full;
            self.screen = Screen::default();
            return false;
        }
        let saved = std::mem::take(&mut self.screen.saved);
        self.findings = saved.findings;
        self.index = saved.index;
        self.notes = saved.notes;
        self.screen.tgsm = Vec::new();
        self.screen.uav = Vec::new();
        self.pass = if failed { Pass::Full } else { Pass::Replay };
        self.begin_dispatch(bindings, groups);
        true
    }

    /// The screening pass's access: thread `thread`'s access `op` to word
    /// `word` of the instruction `prep` (one at a time; the executor's
    /// per-lane loop uses [`Checker::screen_lanes`]).
    pub(crate) fn screen_access(&mut self, prep: &Prepared, op: MemOp, thread: u32, word: usize) {
        match self.screen_lanes(prep, op) {
            Some(mut lanes) => {
                lanes.access(thread, word);
                let done = lanes.finish();
                self.screen_done(done);
            }
            None => {
                self.spin_screen(prep, op, thread, word);
                self.screen.mark(prep.space, word as u32);
            }
        }
    }

    /// One instruction's accesses in the screening pass, set up once
    /// ([`ScreenLanes::access`] per lane, then [`Checker::screen_done`]);
    /// None for a spin read, whose accesses go one by one through
    /// [`Checker::screen_access`].
    #[inline]
    pub(crate) fn screen_lanes(&mut self, prep: &Prepared, op: MemOp) -> Option<ScreenLanes<'_>> {
        if prep.spin {
            return None;
        }
        let o = match op {
            MemOp::Read => READ,
            MemOp::Write => WRITE,
            MemOp::Atomic { .. } => ATOMIC,
        };
        let (gen, seq) = (self.gen, self.seq);
        let Screen {
            tgsm,
            uav,
            marks,
            guesses,
            lost,
            ..
        } = &mut self.screen;
        let shadow = match prep.space {
            Space::Tgsm(_) => Shadow::Tgsm(tgsm, self.tgsm_epoch),
            Space::Uav(u) => match uav.get_mut(u as usize) {
                Some(pages) => Shadow::Uav(pages, self.uav_epoch),
                None => Shadow::Nothing,
            },
            Space::Srv(_) => Shadow::Nothing,
        };
        Some(ScreenLanes {
            shadow,
            space: prep.space,
            o,
            gen,
            seq,
            writes: 0,
            marks: std::mem::take(marks),
            guess: prep.guess && !matches!(prep.space, Space::Srv(_)),
            cas: op == (MemOp::Atomic { cas: true }),
            guesses,
            lost,
        })
    }

    /// The end of an instruction's [`Checker::screen_lanes`]: its writes
    /// counted for the forward-progress rule, its suspects marked.
    #[inline]
    pub(crate) fn screen_done(&mut self, (space, writes, mut marks): (Space, u64, Vec<u32>)) {
        self.group_writes += writes;
        for &w in &marks {
            self.screen.mark(space, w);
        }
        marks.clear();
        self.screen.marks = marks;
        self.mark_lost();
    }

    /// Mark the words of guesses left unvalidated.
    fn mark_lost(&mut self) {
        while let Some((space, word)) = self.screen.lost.pop() {
            self.screen.mark(space, word);
        }
    }

    /// The group has ended in the screening pass: its guesses still
    /// unvalidated make their words suspects.
    pub(super) fn screen_end_group(&mut self) {
        let Screen { guesses, lost, .. } = &mut self.screen;
        lost.extend(guesses.drain(..).flatten());
        self.mark_lost();
    }

    /// A spin read in the screening pass: the forward-progress rule, on the
    /// thread's state.
    #[cold]
    fn spin_screen(&mut self, prep: &Prepared, op: MemOp, thread: u32, word: usize) {
        let Some(ts) = self.threads.get(thread as usize).copied() else {
            return;
        };
        if self.opts.barriers && !matches!(prep.space, Space::Srv(_)) {
            let acc = Acc {
                thread: thread as u16,
                pc: prep.pc,
                syncs: ts.syncs,
                value: 0,
                lock: ts.lock,
            };
            self.spin_read(prep.space, word as u32, op, acc);
        }
    }

    /// Size the screen's TGSM shadow (a group begins) and its UAV pages.
    pub(super) fn screen_group(&mut self) {
        if self.screen.tgsm.len() != self.tgsm.len() {
            self.screen.tgsm = vec![Epochal::EMPTY; self.tgsm.len()];
        }
        if self.screen.uav.len() != self.uavs.len() {
            self.screen.uav.resize(self.uavs.len(), Vec::new());
        }
        self.screen.guesses.clear();
        self.screen.guesses.resize(self.threads_per_group, None);
    }
}
