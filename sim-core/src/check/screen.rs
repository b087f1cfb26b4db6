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
//! Shadow per word: 8 bytes for TGSM and for a UAV word (in pages of
//! 4,096 entries allocated on first touch), and a bit per suspect word;
//! against 112 and 56 bytes plus a per-group record in the exact pass. A
//! UAV that only atomics touch has no shadow ([`atomic_only_uavs`]), and
//! one accessed only by whole structures one entry per structure
//! ([`uav_granules`]).

use crate::check::{
    Acc, Checker, Finding, FindingKind, FxMap, MemOp, Prepared, Space, Suppressed, NONE,
};
use crate::ir::lowered::{AtomicKind, OpKind};
use sim_mem::{Bindings, ViewKind};
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
/// (a group has at most 1,024 threads, so this fits the packed words'
/// 12-bit owner field)
const SHARED: u16 = 0x7ff;

/// A TGSM word's accesses in the current epoch of its group, in 8 bytes
/// (a `u64`):
/// the group (`Checker::gen`, bits 32–63), the epoch, truncated (16–31: a
/// wrap only merges two epochs, which gives more suspects, never fewer),
/// whether a thread of the group wrote it in any epoch (15), the epoch's
/// kinds of access (`READ | WRITE | ATOMIC`, 12–14), and the epoch's one
/// thread or `SHARED` (0–11).
#[derive(Debug, Clone, Copy)]
struct Epochal;

/// [`Epochal`]'s written bit
const WRITTEN: u64 = 1 << 15;

impl Epochal {
    /// A word no thread of the group touched yet
    const EMPTY: u64 = (NONE as u64) << 32;

    /// The group and epoch part of an [`Epochal`] for epoch `epoch` of
    /// group `gen`.
    #[inline(always)]
    fn key(gen: u32, epoch: u32) -> u64 {
        u64::from(gen) << 32 | u64::from(epoch as u16) << 16
    }

    /// Thread `t`'s access `o` in the epoch and group of `key`
    /// ([`Epochal::key`]), with the uninitialised-read rule: whether it
    /// may be part of a finding (it may conflict with another thread's in
    /// the epoch: two threads, other than all reading or all using
    /// atomics; or it reads before any write of the group).
    #[inline(always)]
    fn screen(word: &mut u64, key: u64, t: u16, o: u8) -> bool {
        match o {
            READ => Epochal::access::<READ>(word, key, u32::from(t)),
            WRITE => Epochal::access::<WRITE>(word, key, u32::from(t)),
            _ => Epochal::access::<ATOMIC>(word, key, u32::from(t)),
        }
    }

    /// [`Epochal::screen`] for access `O`.
    #[inline(always)]
    fn access<const O: u8>(word: &mut u64, key: u64, t: u32) -> bool {
        // a word that several threads read in this epoch, after a write of
        // the group: a read changes nothing (matmul's tiles)
        const SHARED_READ: u64 = WRITTEN | (READ as u64) << 12 | SHARED as u64;
        if O == READ && *word == key | SHARED_READ {
            return false;
        }
        let (new, flag) = tgsm_step::<O>(*word, key, u64::from(t));
        *word = new;
        flag
    }
}

/// [`Epochal::screen`] for access `O` on word state `old`, without a
/// branch (selects, so that a run of words vectorises): the new state, and
/// whether the access may be part of a finding. On a possible conflict the
/// state keeps the epoch's owner and kinds (the word is a suspect from
/// then on, so they no longer matter).
#[inline(always)]
fn tgsm_step<const O: u8>(old: u64, key: u64, t: u64) -> (u64, bool) {
    let o = u64::from(O);
    let same_key = old & !0xffff == key;
    let same_gen = old >> 32 == key >> 32;
    let (owner, ops) = (old & 0xfff, (old >> 12) & 7);
    let own = owner == t;
    let all = ops | o;
    let shared = all == u64::from(READ) || all == u64::from(ATOMIC);
    let race = same_key & !own & !shared;
    let written = if same_gen { old & WRITTEN } else { 0 };
    let (owner, ops) = match (same_key, own) {
        (false, _) => (t, o),
        (true, true) => (t, all),
        (true, false) => (u64::from(SHARED), all),
    };
    let mut new = if race {
        old
    } else {
        key | written | ops << 12 | owner
    };
    let uninit = new & WRITTEN == 0 && O != WRITE;
    if O != READ {
        new |= WRITTEN;
    }
    (new, race | uninit)
}

/// A UAV word's screen for the dispatch, in 8 bytes (0 before any
/// access): the last group to touch it, as its seq + 1 (bits 32–63), the
/// epoch, truncated (21–31: a wrap only merges two epochs, which gives
/// more suspects, never fewer), every earlier group's kinds of access
/// (18–20), the last group's (15–17), the epoch's (12–14), and the epoch's
/// one thread or `SHARED` (0–11).
#[derive(Debug, Clone, Copy)]
struct UavWord;

impl UavWord {
    /// The group and epoch part of a UAV word's screen for epoch `epoch`
    /// of the group with seq `seq`.
    #[inline(always)]
    fn key(seq: u32, epoch: u32) -> u64 {
        u64::from(seq.wrapping_add(1)) << 32 | u64::from(epoch & 0x7ff) << 21
    }

    /// Thread `t`'s access `o` to the word whose screen is `word`, in the
    /// group and epoch of `key` ([`UavWord::key`]): whether it may be part
    /// of a finding (as [`Epochal::screen`] within the group; across
    /// groups, a plain access after another group's plain write or atomic,
    /// or a plain write or atomic after another group's plain access).
    #[inline(always)]
    fn screen(word: &mut u64, key: u64, t: u16, o: u8) -> bool {
        let (new, flag) = match o {
            READ => uav_step::<READ>(*word, key, u64::from(t)),
            WRITE => uav_step::<WRITE>(*word, key, u64::from(t)),
            _ => uav_step::<ATOMIC>(*word, key, u64::from(t)),
        };
        *word = new;
        flag
    }
}

/// [`UavWord::screen`] for access `O` on word state `old`, without a
/// branch: the new state, and whether the access may be part of a
/// finding. On a possible conflict within the group the state keeps the
/// epoch's owner and kinds.
#[inline(always)]
fn uav_step<const O: u8>(old: u64, key: u64, t: u64) -> (u64, bool) {
    let o = u64::from(O);
    let same_group = old >> 32 == key >> 32;
    let same_epoch = old & !0x1f_ffff == key;
    let (owner, ops) = (old & 0xfff, (old >> 12) & 7);
    let (group_ops, earlier) = ((old >> 15) & 7, (old >> 18) & 7);
    // a new group: the last group's accesses become earlier ones
    let (group_ops, earlier) = match same_group {
        true => (group_ops | o, earlier),
        false => (o, earlier | group_ops),
    };
    let own = owner == t;
    let all = ops | o;
    let shared = all == u64::from(READ) || all == u64::from(ATOMIC);
    let race = same_epoch & !own & !shared;
    let (owner, ops) = match (same_epoch, own, race) {
        (false, _, _) => (t, o),
        (true, _, true) => (owner, ops),
        (true, true, false) => (t, all),
        (true, false, false) => (u64::from(SHARED), all),
    };
    let new = key | earlier << 18 | group_ops << 15 | ops << 12 | owner;
    let across = match O {
        READ => earlier & u64::from(WRITE | ATOMIC) != 0,
        WRITE => earlier != 0,
        _ => earlier & u64::from(READ | WRITE) != 0,
    };
    (new, race | across)
}

/// One access `O` by each active lane to a run of consecutive words, one
/// a lane: lane `i` (thread `flat[i]`, active when `active[i] != 0`) on
/// `words[i]`, by the TGSM rule ([`tgsm_step`]) or, with `UAV`, the UAV
/// rule ([`uav_step`]), in the group and epoch of `key`. `flags[i]`
/// becomes 1 where the access may be part of a finding (else 0). Returns
/// whether any may. The slices are taken as long as the shortest.
#[inline(always)]
fn screen_run<const O: u8, const UAV: bool>(
    words: &mut [u64],
    flat: &[u32],
    active: &[u32],
    key: u64,
    flags: &mut [u8],
) -> bool {
    let mut any = 0u8;
    let lanes = (words.iter_mut().zip(flags.iter_mut()))
        .zip(flat)
        .zip(active);
    for (((s, f), &t), &a) in lanes {
        let on = a != 0;
        let (new, flag) = match UAV {
            true => uav_step::<O>(*s, key, u64::from(t)),
            false => tgsm_step::<O>(*s, key, u64::from(t)),
        };
        *s = if on { new } else { *s };
        *f = u8::from(on & flag);
        any |= *f;
    }
    any != 0
}

/// [`screen_run`] for access `o` (`uav`: by the UAV rule), compiled for
/// the widest instruction set the CPU runs (`crate::isa::cpu::isa`): eight
/// words at a time with AVX-512.
fn screen_run_isa(
    (o, uav): (u8, bool),
    words: &mut [u64],
    flat: &[u32],
    active: &[u32],
    key: u64,
    flags: &mut [u8],
) -> bool {
    /// The run for (o, uav), as each instruction set compiles it.
    macro_rules! runs {
        ($o:expr, $uav:expr, $args:expr) => {{
            let (w, f, a, key, fl) = $args;
            match ($o, $uav) {
                (READ, false) => screen_run::<READ, false>(w, f, a, key, fl),
                (WRITE, false) => screen_run::<WRITE, false>(w, f, a, key, fl),
                (_, false) => screen_run::<ATOMIC, false>(w, f, a, key, fl),
                (READ, true) => screen_run::<READ, true>(w, f, a, key, fl),
                (WRITE, true) => screen_run::<WRITE, true>(w, f, a, key, fl),
                (_, true) => screen_run::<ATOMIC, true>(w, f, a, key, fl),
            }
        }};
    }
    type Args<'a> = (&'a mut [u64], &'a [u32], &'a [u32], u64, &'a mut [u8]);
    let args: Args<'_> = (words, flat, active, key, flags);
    #[cfg(target_arch = "x86_64")]
    {
        use crate::isa::cpu::{isa, Isa};
        /// [`screen_run`] compiled for AVX2.
        #[target_feature(enable = "avx2")]
        fn avx2(k: (u8, bool), args: Args<'_>) -> bool {
            runs!(k.0, k.1, args)
        }
        /// [`screen_run`] compiled for AVX-512.
        #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
        fn avx512(k: (u8, bool), args: Args<'_>) -> bool {
            runs!(k.0, k.1, args)
        }
        #[allow(unsafe_code)]
        match isa() {
            // SAFETY: `isa` is at most what this CPU runs
            Isa::Avx512 => unsafe { avx512((o, uav), args) },
            // SAFETY: as above
            Isa::Avx2 => unsafe { avx2((o, uav), args) },
            Isa::Baseline => runs!(o, uav, args),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        runs!(o, uav, args)
    }
}

/// [`ScreenLanes::access_lanes`] for accesses `O`: lane `i` (thread
/// `flat[i]`, active when `active[i] != 0`) on words `lane(i) + k`, `k` of
/// `ks`, their suspects to `marks`.
#[inline(always)]
fn shadow_lanes<const O: u8>(
    shadow: &mut Shadow<'_>,
    marks: &mut Vec<u32>,
    active: &[u32],
    flat: &[u32],
    ks: &[u32],
    lane: impl Fn(usize) -> u32,
) {
    match shadow {
        Shadow::Tgsm(words, key) => {
            let key = *key;
            for (i, (&on, &t)) in active.iter().zip(flat).enumerate() {
                if on == 0 {
                    continue;
                }
                let w0 = lane(i);
                for &k in ks {
                    let w = w0 + k;
                    if let Some(e) = words.get_mut(w as usize) {
                        if Epochal::access::<O>(e, key, t) {
                            marks.push(w);
                        }
                    }
                }
            }
        }
        Shadow::Uav(pages, key, shift) => {
            let (key, shift) = (*key, *shift);
            // every entry on one page (a histogram's bins): the page looked
            // up once
            let k_max = ks.iter().copied().max().unwrap_or(0);
            let (lo, hi) = (active.iter().enumerate())
                .filter(|&(_, &on)| on != 0)
                .map(|(i, _)| lane(i))
                .fold((u32::MAX, 0), |(lo, hi), w| (lo.min(w), hi.max(w)));
            let (lo, hi) = (lo >> shift >> PAGE_BITS, (hi + k_max) >> shift >> PAGE_BITS);
            if lo == hi {
                let page = uav_page(pages, lo as usize);
                for (i, (&on, &t)) in active.iter().zip(flat).enumerate() {
                    if on == 0 {
                        continue;
                    }
                    let w0 = lane(i);
                    for &k in ks {
                        let (w, e) = (w0 + k, (w0 + k) >> shift);
                        let word = &mut page[(e & ((1 << PAGE_BITS) - 1)) as usize];
                        let (new, flag) = uav_step::<O>(*word, key, u64::from(t));
                        *word = new;
                        if flag {
                            mark_granule(marks, w, shift);
                        }
                    }
                }
                return;
            }
            let mut at: Option<(u32, &mut [u64])> = None;
            for (i, (&on, &t)) in active.iter().zip(flat).enumerate() {
                if on == 0 {
                    continue;
                }
                let w0 = lane(i);
                for &k in ks {
                    let (w, e) = (w0 + k, (w0 + k) >> shift);
                    let p = e >> PAGE_BITS;
                    let page = match at.take() {
                        Some((q, page)) if q == p => page,
                        _ => uav_page(pages, p as usize),
                    };
                    let word = &mut page[(e & ((1 << PAGE_BITS) - 1)) as usize];
                    let (new, flag) = uav_step::<O>(*word, key, u64::from(t));
                    *word = new;
                    if flag {
                        mark_granule(marks, w, shift);
                    }
                    at = Some((p, page));
                }
            }
        }
        Shadow::Nothing => {}
    }
}

/// Mark word `w` a suspect, with the rest of its granule of `2^shift`
/// words (a UAV kept by granules, [`uav_granules`]).
#[inline]
fn mark_granule(marks: &mut Vec<u32>, w: u32, shift: u32) {
    let first = w >> shift << shift;
    marks.extend(first..first + (1 << shift));
}

/// The UAV slots that the program touches only with atomics (an
/// `atomic_*` or `imm_atomic_*` on the slot's words, no store of them, no
/// load but a compare-exchange loop's guess ([`guess_loads`]: a load of a
/// slot some `imm_atomic_cmp_exch` targets), and no texture instruction on
/// the slot). The screen's rules see a guess as an atomic, so no word of
/// such a UAV can be marked by its shadow (atomics never race with
/// atomics, and there is no plain access to meet one): the screen keeps
/// no shadow for it. Its guesses' rule (one left unvalidated makes its
/// word a suspect), spin reads, bounds and counters are checked as any
/// other's.
pub(super) fn atomic_only_uavs(
    code: &[crate::ir::lowered::Op],
    tex_ops: &[crate::ir::lowered::TexOp],
) -> Vec<u32> {
    use crate::ir::lowered::Res;
    let guessed: Vec<u32> = (code.iter())
        .filter_map(|op| match op.kind {
            OpKind::Atomic {
                kind: AtomicKind::CmpExch,
                res: Res::Uav(u),
                ..
            } => Some(u),
            _ => None,
        })
        .collect();
    let mut atomics: Vec<u32> = Vec::new();
    let mut other: Vec<u32> = Vec::new();
    for op in code {
        match op.kind {
            OpKind::Atomic {
                res: Res::Uav(u), ..
            } => atomics.push(u),
            OpKind::Atomic {
                res: Res::UavTexture(u),
                ..
            } => other.push(u),
            // a compare-exchange loop's guess
            OpKind::LdRaw {
                res: Res::Uav(u), ..
            }
            | OpKind::LdStructured {
                res: Res::Uav(u), ..
            }
            | OpKind::LdTyped {
                res: Res::Uav(u), ..
            } if guessed.contains(&u) => {}
            OpKind::LdRaw { res, .. }
            | OpKind::LdStructured { res, .. }
            | OpKind::LdTyped { res, .. }
            | OpKind::StoreRaw { res, .. }
            | OpKind::StoreStructured { res, .. }
            | OpKind::StoreTyped { res, .. } => match res {
                Res::Uav(u) | Res::UavTexture(u) => other.push(u),
                _ => {}
            },
            _ => {}
        }
    }
    other.extend(tex_ops.iter().filter_map(|t| match t.res {
        Res::Uav(u) | Res::UavTexture(u) => Some(u),
        _ => None,
    }));
    atomics.sort_unstable();
    atomics.dedup();
    atomics.retain(|u| !other.contains(u));
    atomics
}

/// Per UAV slot that the program accesses only by whole structures of 2
/// or 4 dwords (every `ld_structured` and `store_structured` on it at a
/// literal byte offset 0, reading or writing dwords `0..G` exactly, and no
/// other kind of access to its words): (slot, G). Bound to a structured
/// view of stride `4·G`, such a UAV's words go in granules of `G`, whose
/// words every access reaches together, each by the same thread in the
/// same way, so the screen keeps one entry per granule and flags exactly
/// what it would flag per word (saxpy's `float4` elements).
pub(super) fn uav_granules(code: &[crate::ir::lowered::Op]) -> Vec<(u32, u32)> {
    use crate::ir::lowered::{Res, Src, SrcKind, SrcMod};
    let zero = |s: &Src| match s.kind {
        SrcKind::Imm(v) => s.modifier == SrcMod::None && v[s.swz[0] as usize & 3] == 0,
        _ => false,
    };
    // per slot, the granule its accesses so far allow (0: none)
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut allow = |u: u32, g: u32| match seen.iter_mut().find(|(s, _)| *s == u) {
        Some((_, x)) => *x = if *x == g { g } else { 0 },
        None => seen.push((u, g)),
    };
    for op in code {
        match op.kind {
            OpKind::LdStructured {
                dst,
                ref offset,
                res: Res::Uav(u),
                swz,
                ..
            } => {
                let ks = (0..4)
                    .filter(|c| dst.mask & (1 << c) != 0)
                    .map(|c| u32::from(swz[c]));
                let mut set = 0u32;
                let mut n = 0;
                for k in ks {
                    set |= 1 << k;
                    n += 1;
                }
                let g = set.count_ones();
                let whole = zero(offset) && set == (1 << g) - 1 && n == g;
                allow(u, if whole { g } else { 0 });
            }
            OpKind::StoreStructured {
                res: Res::Uav(u),
                count,
                ref offset,
                ..
            } => allow(u, if zero(offset) { u32::from(count) } else { 0 }),
            OpKind::LdRaw {
                res: Res::Uav(u), ..
            }
            | OpKind::LdTyped {
                res: Res::Uav(u), ..
            }
            | OpKind::StoreRaw {
                res: Res::Uav(u), ..
            }
            | OpKind::StoreTyped {
                res: Res::Uav(u), ..
            }
            | OpKind::Atomic {
                res: Res::Uav(u), ..
            } => allow(u, 0),
            _ => {}
        }
    }
    seen.retain(|&(_, g)| g == 2 || g == 4);
    seen
}

const PAGE_BITS: u32 = 12;

/// Page `p` of a UAV's screen, allocated (zeroed: no word accessed) on
/// first touch.
fn uav_page(pages: &mut Vec<Option<Box<[u64]>>>, p: usize) -> &mut [u64] {
    if pages.len() <= p {
        pages.resize(p + 1, None);
    }
    pages[p].get_or_insert_with(|| vec![0u64; 1 << PAGE_BITS].into_boxed_slice())
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
    suppressed: Vec<Suppressed>,
}

/// The screening pass's state.
#[derive(Debug, Default)]
pub(super) struct Screen {
    /// the group's TGSM words ([`Epochal`])
    tgsm: Vec<u64>,
    /// per UAV slot, pages of words (of granules: `uav_shift`)
    uav: Vec<Vec<Option<Box<[u64]>>>>,
    /// per UAV slot, log2 of the words a shadow entry stands for
    /// ([`uav_granules`], for the view bound)
    uav_shift: Vec<u32>,
    /// per UAV slot, whether it is a buffer the program touches only with
    /// atomics ([`atomic_only_uavs`]): no shadow
    uav_quiet: Vec<bool>,
    sus_tgsm: Words,
    sus_uav: Vec<Words>,
    any: bool,
    saved: Saved,
    /// an instruction's suspects, before they are marked (kept for its
    /// allocation)
    marks: Vec<u32>,
    /// [`screen_run`]'s per-word flags, and [`ScreenLanes::access_run`]'s
    /// lanes a copy per word (kept for their allocations)
    flags: Vec<u8>,
    each: Vec<u32>,
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
    /// the group's TGSM words, and the group and TGSM epoch
    /// ([`Epochal::key`])
    Tgsm(&'c mut [u64], u64),
    /// a UAV's pages, the group and UAV epoch ([`UavWord::key`]), and the
    /// UAV's granule: one entry per `2^shift` words ([`uav_granules`])
    Uav(&'c mut Vec<Option<Box<[u64]>>>, u64, u32),
    /// an SRV's, an unbound slot's, or a UAV's that only atomics touch
    /// ([`atomic_only_uavs`])
    Nothing,
}

/// One instruction's accesses in the screening pass
/// ([`Checker::screen_lanes`]).
pub(crate) struct ScreenLanes<'c> {
    shadow: Shadow<'c>,
    space: Space,
    o: u8,
    writes: u64,
    marks: Vec<u32>,
    /// [`screen_run`]'s per-word flags
    flags: &'c mut Vec<u8>,
    /// [`ScreenLanes::access_run`]'s lanes' activity and threads, a copy
    /// per word
    each: &'c mut Vec<u32>,
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
        // (the rule chosen once for the instruction)
        if self.guess {
            for &(t, w) in items {
                self.validate::<true>(t, w);
            }
        } else if self.cas {
            for &(t, w) in items {
                self.validate::<false>(t, w);
            }
        }
        // a guess is an atomic to the shadow
        let o = if self.guess { ATOMIC } else { self.o };
        self.shadow(items, o);
    }

    /// Whether [`ScreenLanes::access_lanes`] may take the instruction's
    /// accesses (no guess or compare-exchange: they go through
    /// [`ScreenLanes::access_all`], which keeps the guess rule).
    #[inline]
    pub(crate) fn direct(&self) -> bool {
        !(self.guess | self.cas)
    }

    /// Each lane `l` of `lanes` with `active[l] != 0`: thread `flat[l]`'s
    /// accesses to words `word0(l) + k` for each `k` of `ks` (all in
    /// bounds), in lane order, as [`ScreenLanes::access_all`] takes them,
    /// without a list of them. Only where [`ScreenLanes::direct`].
    #[inline(always)]
    pub(crate) fn access_lanes(
        &mut self,
        lanes: std::ops::Range<usize>,
        active: &[u32],
        flat: &[u32],
        ks: &[u32],
        word0: impl Fn(usize) -> u32,
    ) {
        debug_assert!(self.direct());
        let o = self.o;
        let (active, flat) = (&active[lanes.clone()], &flat[lanes.clone()]);
        let lane = |i: usize| word0(lanes.start + i);
        if o != READ {
            let n = active.iter().filter(|&&a| a != 0).count();
            self.writes += (n * ks.len()) as u64;
        }
        let (shadow, marks) = (&mut self.shadow, &mut self.marks);
        match o {
            READ => shadow_lanes::<READ>(shadow, marks, active, flat, ks, lane),
            WRITE => shadow_lanes::<WRITE>(shadow, marks, active, flat, ks, lane),
            _ => shadow_lanes::<ATOMIC>(shadow, marks, active, flat, ks, lane),
        }
    }

    /// Each lane `l` of `lanes` with `active[l] != 0`: thread `flat[l]`'s
    /// accesses to words `first + per·(l - lanes.start) + k` for each `k`
    /// of `0..per` (all in bounds, `per` 1 to 4), as
    /// [`ScreenLanes::access_lanes`] takes them: a run of consecutive
    /// entries of the shadow, which goes through [`screen_run_isa`] (a
    /// lane's thread and activity repeated for each of its entries; a UAV
    /// run cut at its pages). A UAV kept by granules of `per` words takes
    /// one entry a lane. Only where [`ScreenLanes::direct`].
    #[inline]
    pub(crate) fn access_run(
        &mut self,
        first: u32,
        per: usize,
        lanes: std::ops::Range<usize>,
        active: &[u32],
        flat: &[u32],
    ) {
        const KS: [u32; 4] = [0, 1, 2, 3];
        let (o, start) = (self.o, lanes.start);
        // the run's first entry, its entries a lane, and whether it fits
        if matches!(self.shadow, Shadow::Nothing) {
            // (an SRV's, or a UAV that only atomics touch: the writes
            // still count for the forward-progress rule)
            let n = active[lanes].iter().filter(|&&a| a != 0).count();
            return self.count_writes((n * per) as u64);
        }
        let (shift, entry, each, fits) = match &self.shadow {
            Shadow::Tgsm(words, _) => {
                let fits = first as usize + lanes.len() * per <= words.len();
                (0, first as usize, per, fits)
            }
            Shadow::Uav(_, _, 0) => (0, first as usize, per, true),
            Shadow::Uav(_, _, shift) => {
                let whole = per == 1 << shift && first.is_multiple_of(per as u32);
                (*shift, (first >> shift) as usize, 1, whole)
            }
            Shadow::Nothing => return,
        };
        if !(fits && (1..=4).contains(&per)) {
            let word0 = |l: usize| first + (per * (l - start)) as u32;
            return self.access_lanes(lanes, active, flat, &KS[..per.min(4)], word0);
        }
        let n = lanes.len() * each;
        let (mut active, mut flat) = (&active[lanes.clone()], &flat[lanes]);
        if o != READ {
            self.writes += (active.iter().filter(|&&a| a != 0).count() * per) as u64;
        }
        if each > 1 {
            let copies = &mut *self.each;
            copies.resize(2 * n, 0);
            let (a, t) = copies.split_at_mut(n);
            for ((a, t), (&x, &y)) in (a.chunks_exact_mut(each).zip(t.chunks_exact_mut(each)))
                .zip(active.iter().zip(flat))
            {
                a.fill(x);
                t.fill(y);
            }
            (active, flat) = copies.split_at(n);
        }
        self.flags.clear();
        self.flags.resize(n, 0);
        let mut any = false;
        match &mut self.shadow {
            Shadow::Tgsm(words, key) => {
                let words = &mut words[entry..entry + n];
                any = screen_run_isa((o, false), words, flat, active, *key, self.flags);
            }
            Shadow::Uav(pages, key, _) => {
                // a page at a time
                let mut i = 0;
                while i < n {
                    let e = entry + i;
                    let off = e & ((1 << PAGE_BITS) - 1);
                    let here = (n - i).min((1 << PAGE_BITS) - off);
                    let page = uav_page(pages, e >> PAGE_BITS);
                    any |= screen_run_isa(
                        (o, true),
                        &mut page[off..off + here],
                        &flat[i..i + here],
                        &active[i..i + here],
                        *key,
                        &mut self.flags[i..i + here],
                    );
                    i += here;
                }
            }
            Shadow::Nothing => {}
        }
        if any {
            let flagged = self.flags.iter().enumerate().filter(|(_, &f)| f != 0);
            for (j, _) in flagged {
                mark_granule(&mut self.marks, ((entry + j) << shift) as u32, shift);
            }
        }
    }

    /// `n` more accesses of the instruction's kind counted for the
    /// forward-progress rule (those that [`ScreenLanes::access_all`] took
    /// once for several: a compare-exchange loop's attempts; those of a
    /// run with no shadow).
    #[inline]
    pub(crate) fn count_writes(&mut self, n: u64) {
        if self.o != READ {
            self.writes += n;
        }
    }

    /// The guess rule for thread `t`'s access to `word`: a guess waits
    /// for its thread's compare-exchange on the word (the thread's guess
    /// before it is lost); a compare-exchange validates its thread's guess
    /// on the word.
    #[inline(always)]
    fn validate<const GUESS: bool>(&mut self, t: u32, word: u32) {
        let at = Some((self.space, word));
        match self.guesses.get_mut(t as usize) {
            Some(g) if GUESS => self.lost.extend(g.replace((self.space, word))),
            Some(g) if *g == at => *g = None,
            _ if GUESS => self.lost.extend(at),
            _ => {}
        }
    }

    /// The shadow's rules for accesses of kind `o`; suspects to `marks`.
    #[inline(always)]
    fn shadow(&mut self, items: &[(u32, u32)], o: u8) {
        match &mut self.shadow {
            Shadow::Tgsm(words, key) => {
                for &(t, w) in items {
                    if words
                        .get_mut(w as usize)
                        .is_some_and(|e| Epochal::screen(e, *key, t as u16, o))
                    {
                        self.marks.push(w);
                    }
                }
            }
            Shadow::Uav(pages, key, shift) => {
                // the page of the last word, looked up again only when
                // the words move to another
                let mut at: Option<(u32, &mut [u64])> = None;
                for &(t, w) in items {
                    let e = w >> *shift;
                    let p = e >> PAGE_BITS;
                    let page = match at.take() {
                        Some((q, page)) if q == p => page,
                        _ => uav_page(pages, p as usize),
                    };
                    let word = &mut page[(e & ((1 << PAGE_BITS) - 1)) as usize];
                    if UavWord::screen(word, *key, t as u16, o) {
                        mark_granule(&mut self.marks, w, *shift);
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
                suppressed: self.suppressed.clone(),
            },
            ..Screen::default()
        };
        self.pass = Pass::Screen;
        self.begin_dispatch(bindings, groups);
        self.screen.uav_shift = (self.uavs.iter().enumerate())
            .map(|(u, info)| {
                let g = self.granules.iter().find(|&&(s, _)| s as usize == u);
                match (g, info.map(|i| i.kind)) {
                    (Some(&(_, g)), Some(ViewKind::Structured { stride })) if stride == 4 * g => {
                        g.trailing_zeros()
                    }
                    _ => 0,
                }
            })
            .collect();
        self.screen.uav_quiet = (0..self.uavs.len())
            .map(|u| {
                let texture = self.texels.get(u).is_some_and(Option::is_some);
                !texture && self.atomic_only.contains(&(u as u32))
            })
            .collect();
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
        self.suppressed = saved.suppressed;
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
            uav_shift,
            uav_quiet,
            marks,
            flags,
            each,
            guesses,
            lost,
            ..
        } = &mut self.screen;
        let shadow = match prep.space {
            Space::Tgsm(_) => Shadow::Tgsm(tgsm, Epochal::key(gen, self.tgsm_epoch)),
            Space::Uav(u) if uav_quiet.get(u as usize) == Some(&true) => Shadow::Nothing,
            Space::Uav(u) => match uav.get_mut(u as usize) {
                Some(pages) => Shadow::Uav(
                    pages,
                    UavWord::key(seq, self.uav_epoch),
                    uav_shift.get(u as usize).copied().unwrap_or(0),
                ),
                None => Shadow::Nothing,
            },
            Space::Srv(_) => Shadow::Nothing,
        };
        Some(ScreenLanes {
            shadow,
            space: prep.space,
            o,
            writes: 0,
            marks: std::mem::take(marks),
            flags,
            each,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Thread `t`'s access `o` in an epoch whose accesses so far were by
    /// `owner` (one thread, or `SHARED`) of kinds `ops`: the epoch's new
    /// (owner, kinds), or None when it may conflict with another thread's
    /// (two threads, other than all reading or all using atomics).
    fn same_epoch(owner: u16, ops: u8, t: u16, o: u8) -> Option<(u16, u8)> {
        if owner == t {
            return Some((t, ops | o));
        }
        let all = ops | o;
        (all == READ || all == ATOMIC).then_some((SHARED, all))
    }

    /// The screen's TGSM rule written plainly (full epochs, fields apart):
    /// the model that [`Epochal`] packs.
    #[derive(Debug, Clone, Copy)]
    struct Model {
        gen: u32,
        epoch: u32,
        owner: u16,
        ops: u8,
        written: bool,
    }

    impl Model {
        fn screen(&mut self, gen: u32, epoch: u32, t: u16, o: u8) -> bool {
            let race = if self.gen != gen {
                *self = Model {
                    gen,
                    epoch,
                    owner: t,
                    ops: o,
                    written: false,
                };
                false
            } else if self.epoch != epoch {
                (self.epoch, self.owner, self.ops) = (epoch, t, o);
                false
            } else {
                match same_epoch(self.owner, self.ops, t, o) {
                    Some((owner, ops)) => {
                        (self.owner, self.ops) = (owner, ops);
                        false
                    }
                    None => true,
                }
            };
            let uninit = !self.written && o != WRITE;
            self.written |= o != READ;
            race || uninit
        }
    }

    /// The screen's UAV rule written plainly (full epochs, fields apart):
    /// the model that [`UavWord`] packs.
    #[derive(Debug, Clone, Copy, Default)]
    struct UavModel {
        /// the last group, as its seq + 1 (0: none)
        last: u32,
        epoch: u32,
        owner: u16,
        ops: u8,
        /// the last group's kinds of access, and every earlier group's
        group_ops: u8,
        earlier: u8,
    }

    impl UavModel {
        fn screen(&mut self, seq: u32, epoch: u32, t: u16, o: u8) -> bool {
            let g = seq + 1;
            let race = if self.last != g {
                self.earlier |= self.group_ops;
                (self.last, self.epoch, self.owner, self.ops, self.group_ops) = (g, epoch, t, o, o);
                false
            } else {
                self.group_ops |= o;
                let next = match self.epoch != epoch {
                    true => Some((t, o)),
                    false => same_epoch(self.owner, self.ops, t, o),
                };
                self.epoch = epoch;
                match next {
                    Some((owner, ops)) => {
                        (self.owner, self.ops) = (owner, ops);
                        false
                    }
                    None => true,
                }
            };
            let across = match o {
                READ => self.earlier & (WRITE | ATOMIC) != 0,
                WRITE => self.earlier != 0,
                _ => self.earlier & (READ | WRITE) != 0,
            };
            race || across
        }
    }

    /// As [`packed_tgsm_words_flag_what_the_model_flags`] for UAV words
    /// over several groups, one dword a lane and four.
    #[test]
    fn packed_uav_words_flag_what_the_model_flags() {
        let mut next = numbers(0x0a5e_55ed_0000_0002);
        let mut tally = Tally::default();
        for case in 0..8_000 {
            const WORDS: usize = 8;
            let per = [1, 4][case % 2];
            let mut model = [UavModel::default(); WORDS];
            let mut one = [0u64; WORDS];
            let mut run = [0u64; WORDS];
            let mut flagged = [false; WORDS];
            let (mut seq, mut epoch) = (0, 0);
            for _ in 0..40 {
                match next(6) {
                    0 => (seq, epoch) = (seq + 1, 0),
                    1 => epoch += 1,
                    _ => {}
                }
                let o = [READ, WRITE, ATOMIC][next(3) as usize];
                let per = if o == ATOMIC { 1 } else { per };
                let key = UavWord::key(seq, epoch);
                let lanes = WORDS / per;
                let flat: Vec<u32> = (0..lanes).map(|_| next(3)).collect();
                let active: Vec<u32> = (0..lanes).map(|_| next(2)).collect();
                let mut flags = vec![9; WORDS];
                // the lanes' threads and activity a copy per word, as
                // `access_run` gives them
                let each = |v: &[u32]| -> Vec<u32> {
                    v.iter()
                        .flat_map(|&x| std::iter::repeat_n(x, per))
                        .collect()
                };
                let (flat_w, active_w) = (each(&flat), each(&active));
                screen_run_isa((o, true), &mut run, &flat_w, &active_w, key, &mut flags);
                for w in 0..WORDS {
                    let l = w / per;
                    if active[l] == 0 {
                        assert_eq!(flags[w], 0, "an inactive lane is never flagged");
                        continue;
                    }
                    let t = flat[l] as u16;
                    let expected = model[w].screen(seq, epoch, t, o);
                    let got = UavWord::screen(&mut one[w], key, t, o);
                    tally.record(w, &mut flagged[w], (got, flags[w], expected));
                }
            }
        }
        tally.enough();
    }

    /// What a model test compared: accesses, and those flagged.
    #[derive(Default)]
    struct Tally {
        compared: usize,
        flags_seen: usize,
    }

    impl Tally {
        /// One access to word `w` whose model flag is `expected`: the
        /// packed word's (`got`) and the run's (`run`) agree with it until
        /// the word's first flag (then a suspect, its state no longer
        /// matters; `flagged` keeps that).
        fn record(&mut self, w: usize, flagged: &mut bool, (got, run, expected): (bool, u8, bool)) {
            if !*flagged {
                assert_eq!(got, expected, "word {w}");
                assert_eq!(run != 0, expected, "run, word {w}");
                self.compared += 1;
                self.flags_seen += usize::from(expected);
            }
            *flagged |= expected;
        }

        fn enough(&self) {
            assert!(
                self.compared > 80_000 && self.flags_seen > 5_000,
                "{} {}",
                self.compared,
                self.flags_seen
            );
        }
    }

    /// A UAV goes in granules only where every access to it is a whole
    /// structure of 2 or 4 dwords at offset 0.
    #[test]
    fn uav_granules_are_whole_structures_only() {
        let granules = |listing: &str| {
            let program = crate::Program::from_listing(listing).unwrap();
            uav_granules(&program.code)
        };
        // float4 loads and stores of whole elements
        let whole = include_str!("../../../tests/races/uav_float4_waw_ok.asm");
        assert_eq!(granules(whole), vec![(0, 4)]);
        // a load of .xy only, an offset other than 0, or an atomic on the
        // words: per word
        let part = whole.replace("l(0), u0.xyzw", "l(0), u0.xyxx").replace(
            "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r1.xyzw",
            "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r1.xy",
        );
        assert_ne!(part, whole);
        assert_eq!(granules(&part), vec![]);
        let offset = whole.replace(
            "store_structured u0.xyzw, r0.x, l(0)",
            "store_structured u0.xyzw, r0.x, l(16)",
        );
        assert_ne!(offset, whole);
        assert_eq!(granules(&offset), vec![]);
        // one-dword structures, and raw buffers with atomics
        let words = include_str!("../../../tests/races/uav_waw_across_groups_ok.asm");
        assert_eq!(granules(words), vec![]);
        let atomics = include_str!("../../../examples/histogram/histogram.asm");
        assert_eq!(granules(atomics), vec![]);
    }

    /// Only a UAV whose words nothing but atomics touch goes unshadowed.
    #[test]
    fn atomic_only_uavs_have_no_load_or_store() {
        let quiet = |listing: &str| {
            let program = crate::Program::from_listing(listing).unwrap();
            atomic_only_uavs(&program.code, &program.tex_ops)
        };
        // atomics only (a histogram's bins)
        let bins = include_str!("../../../examples/global_histogram/global_histogram.asm");
        assert_eq!(quiet(bins), vec![0]);
        // a compare-exchange loop's guess is an atomic to the screen
        let cas = include_str!("../../../examples/cas_float_add/cas_float_add.asm");
        assert_eq!(quiet(cas), vec![0]);
        // a store of the words besides (a reset)
        let reset = cas.replace(
            "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.z, r0.y, u0.xxxx",
            "store_raw u0.x, r0.y, r0.y",
        );
        assert_ne!(reset, cas);
        assert_eq!(quiet(&reset), vec![]);
        // plain loads and stores only
        let saxpy = include_str!("../../../examples/saxpy_structured/saxpy_structured.asm");
        assert_eq!(quiet(saxpy), vec![]);
    }

    /// Deterministic pseudo-random numbers (a 64-bit LCG's high bits).
    fn numbers(mut seed: u64) -> impl FnMut(u32) -> u32 {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as u32) % n
        }
    }

    /// Random accesses to a few words by a few threads over groups and
    /// epochs: the packed word flags exactly what the model flags until
    /// the word's first flag (after which the word is a suspect and its
    /// state no longer matters), one access at a time and as runs.
    #[test]
    fn packed_tgsm_words_flag_what_the_model_flags() {
        let mut next = numbers(0x7e57_5c2e_e000_0001);
        let mut tally = Tally::default();
        for _ in 0..8_000 {
            const WORDS: usize = 8;
            let mut model = [Model {
                gen: NONE,
                epoch: 0,
                owner: SHARED,
                ops: 0,
                written: false,
            }; WORDS];
            let mut one = [Epochal::EMPTY; WORDS];
            let mut run = [Epochal::EMPTY; WORDS];
            let mut flagged = [false; WORDS];
            let (mut gen, mut epoch) = (0, 0);
            for _ in 0..40 {
                match next(8) {
                    0 => (gen, epoch) = (gen + 1, 0),
                    1 => epoch += 1,
                    _ => {}
                }
                let o = [READ, WRITE, ATOMIC][next(3) as usize];
                let key = Epochal::key(gen, epoch);
                // one instruction: each lane a thread of 3 on its own word
                let flat: Vec<u32> = (0..WORDS).map(|_| next(3)).collect();
                let active: Vec<u32> = (0..WORDS).map(|_| next(2)).collect();
                let mut flags = vec![9; WORDS];
                screen_run_isa((o, false), &mut run, &flat, &active, key, &mut flags);
                for w in (0..WORDS).filter(|&w| active[w] != 0) {
                    let t = flat[w] as u16;
                    let expected = model[w].screen(gen, epoch, t, o);
                    let got = Epochal::screen(&mut one[w], key, t, o);
                    tally.record(w, &mut flagged[w], (got, flags[w], expected));
                }
                for w in (0..WORDS).filter(|&w| active[w] == 0) {
                    assert_eq!(flags[w], 0, "an inactive lane is never flagged");
                }
            }
        }
        tally.enough();
    }
}
