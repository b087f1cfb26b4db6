//! A compare-exchange retry loop run at once ([`FastPaths::CAS_LOOP`](super::FastPaths::CAS_LOOP)):
//! every lane's iterations in lane order, as lockstep settles them, with the
//! counts lockstep issues.

use crate::analysis::cas_loop::{CasLoop, Val};
use crate::exec::context::{Budget, Cx};
use crate::exec::fast::rows::src_bits;
use crate::exec::fast::FastPaths;
use crate::exec::kernels::lane_op;
use crate::exec::lines::{address_period, line_of};
use crate::exec::observe::{CasLoopRun, Observer};
use crate::exec::ops::atomic::cas;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{commit, zeros, Scratch, Warp, CHAIN_WORDS};
use crate::exec::watchdog::{StopReason, Watchdog};
use crate::ir::lowered::{OpKind, Res};
use crate::isa::lanes::{lane_value, sat, SrcBits};
use sim_mem::Tgsm;
/// Counts per buffer word of a warp's compare-exchange loop (how many lanes
/// so far changed it): a small open-addressing table of word indices,
/// emptied through the list of the slots it used, so a loop pays for the
/// words it touched only.
#[derive(Debug, Clone, Default)]
pub(in crate::exec) struct WordCounts {
    keys: Vec<usize>,
    counts: Vec<u32>,
    used: Vec<usize>,
}

impl WordCounts {
    const EMPTY: usize = usize::MAX;

    /// Room for the words of `lanes` lanes: at least twice as many slots.
    fn reserve(&mut self, lanes: usize) {
        let cap = (2 * lanes).next_power_of_two().max(8);
        if self.keys.len() < cap {
            self.keys = vec![Self::EMPTY; cap];
            self.counts = vec![0; cap];
            self.used.clear();
        }
    }

    /// The count of word `i` (not `usize::MAX`), after [`WordCounts::reserve`].
    #[inline]
    fn get(&mut self, i: usize) -> &mut u32 {
        debug_assert_ne!(i, Self::EMPTY);
        let mask = self.keys.len() - 1;
        let mut h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7 & mask;
        loop {
            if self.keys[h] == i {
                return &mut self.counts[h];
            }
            if self.keys[h] == Self::EMPTY {
                self.keys[h] = i;
                self.counts[h] = 0;
                self.used.push(h);
                return &mut self.counts[h];
            }
            h = (h + 1) & mask;
        }
    }

    /// The counts of every word, summed.
    fn sum(&self) -> u64 {
        self.used.iter().map(|&h| u64::from(self.counts[h])).sum()
    }

    /// Forget every word.
    fn clear(&mut self) {
        for &h in &self.used {
            self.keys[h] = Self::EMPTY;
        }
        self.used.clear();
    }
}

impl Cx<'_, '_> {
    /// A compare-exchange retry loop (`crate::analysis::cas_loop`) run at once, at its
    /// `loop`: each active lane, in lane order, runs its iterations until
    /// its compare-exchange succeeds (`n = op(…e…)`, `o = cas(word, e, n)`,
    /// `e = o` while `o ≠ e`), and is left with the registers its last
    /// iteration leaves (`n`, `o = e`, `t = 0xFFFFFFFF`); the warp goes on
    /// past the `endloop` with the lanes it came with. A word out of bounds
    /// returns 0 and is not written (§12), as in lockstep.
    ///
    /// Lanes that meet on words lying on a line per row of lanes (every
    /// lane on one word; packed groups' rows, or a 2-D group's, on one row
    /// of words) run as chains: one word's lanes back to back in lane
    /// order, each attempt reading the value the lane before left, the
    /// operation a row of lanes at a time in its vector kernel, and one
    /// compare-exchange per word for the whole chain (run again from the
    /// word found, where another thread wrote it meanwhile).
    ///
    /// The statistics count the warp-instructions lockstep would issue for
    /// the lanes' attempts (`CasLoop`'s passes): the same as lockstep's
    /// wherever lockstep's lanes take as many attempts: lanes that meet on a
    /// word of scattered words are counted as lockstep settles them, the
    /// `k`th to change it taking `k` attempts. They differ only where a
    /// chain's or a word's lanes read different values of their word
    /// before the loop (another thread wrote it between their loads:
    /// lockstep's order of success may then differ from lane order, and
    /// with it a float sum; both are executions the memory model allows).
    ///
    /// Returns false, having done nothing, where the warp takes the loop
    /// in lockstep instead: under interleaving (which may switch warps
    /// between any two instructions), with an exact watchdog budget, and
    /// on a view other than a raw, structured or typed buffer of 32-bit
    /// elements (a typed one's element is its word).
    /// Where the loop's count passes the watchdog's next look, the
    /// watchdog looks after it: the error is its reason to stop.
    ///
    /// A profile observes the loop without changing how it runs: its
    /// counts are lockstep's (`Profiling::cas_loop`). So does the checker: it
    /// sees each lane's compare-exchanges on its word, as many as the
    /// lane's attempts in lockstep, so its findings and their counts are
    /// lockstep's.
    ///
    /// Each lane ends: a compare-exchange fails only where another thread
    /// changed the word since this lane read it, so each failure is
    /// another thread's success (lock-free progress).
    #[allow(unsafe_code, clippy::too_many_arguments)]
    pub(in crate::exec) fn cas_loop<O: Observer>(
        &self,
        sc: &mut Scratch,
        tgsm: &Tgsm,
        (budget, stats): (&mut Budget, &mut ExecStats),
        obs: &mut O,
        warp: &mut Warp,
        cl: &CasLoop,
        watchdog: &Watchdog,
    ) -> Result<bool, StopReason> {
        // (an exact budget counts the loop's instructions one by one)
        if budget.interleave || budget.interval == 1 || warp.span.is_empty() {
            return Ok(false);
        }
        let code = &self.prog.code;
        let (
            OpKind::Atomic {
                res: res @ Res::Uav(_),
                structured,
                ref addr,
                ..
            },
            OpKind::Alu {
                dst: ref n_dst,
                src: ref op_src,
                ..
            },
        ) = (&code[cl.cas_pc].kind, &code[cl.op_pc].kind)
        else {
            return Ok(false);
        };
        let Some((view, ext)) = self.view(*res).and_then(|v| Some((v, v.word_extent()?))) else {
            return Ok(false);
        };
        // the operation's sources that are `e`: their modifiers as bits
        let mut bits = [SrcBits::NONE; 4];
        let mut is_e = [false; 4];
        for (k, o) in cl.src[..cl.arity as usize].iter().enumerate() {
            if o.val == Val::Expected {
                let Some(m) = src_bits(o.modifier) else {
                    return Ok(false);
                };
                (is_e[k], bits[k]) = (true, m);
            }
        }
        let w = self.w;
        let mut sa = std::mem::take(&mut sc.s[0]);
        let mut sb = std::mem::take(&mut sc.s[1]);
        let mut buf = std::mem::take(&mut sc.alu);
        // rows: the operation's sources (4·W), `n` (W), `e` (W)
        let (rows, rest) = buf.split_at_mut(4 * w);
        let (nb, rest) = rest.split_at_mut(w);
        let eb = &mut rest[..w];
        let wr: &Warp = warp;
        let comp = n_dst.mask.trailing_zeros() as usize;
        eb.copy_from_slice(&wr.regs[cl.e as usize * w..(cl.e as usize + 1) * w]);
        // the sources, modifiers applied: `e`'s from its row, the others
        // as the operation reads them (the same in every iteration)
        for k in 0..cl.arity as usize {
            let (row, rest) = rows[k * w..].split_at_mut(w);
            if is_e[k] {
                for (r, &e) in row.iter_mut().zip(eb.iter()) {
                    *r = bits[k].apply(e);
                }
                continue;
            }
            let tmp = if rest.len() >= w {
                &mut rest[..w]
            } else {
                &mut nb[..]
            };
            let v = self.operand(wr, &op_src[k], comp, tmp);
            row.copy_from_slice(v);
        }
        let x = self.operand(wr, addr, 0, &mut sa);
        let y = if *structured {
            self.operand(wr, addr, 1, &mut sb)
        } else {
            zeros(w, &mut sb)
        };
        let words = view.words();
        // a line of words in bounds: no index arithmetic per lane
        let row = self.prog.thread_group[0] as usize;
        // (the compare-exchange's facts: the warp is at the `loop`)
        let steps = self.plan[cl.cas_pc].facts.addr;
        // one row of words, or rows of lanes on one row of words
        let lines = self.fast_paths.contains(FastPaths::MEMORY_LINES);
        let line = line_of(lines, wr, ext, (x, y), 0, row, steps, None)
            .filter(|l| l.row_step == 0)
            .or_else(|| {
                // rows shorter than the group's: lanes whose addresses
                // repeat every `p` lanes (`slot = i % p`, a packed warp's
                // groups on one set of words), rows of `p` on one row
                let p = address_period(wr, (x, y))?;
                line_of(lines, wr, ext, (x, y), 0, p, None, None).filter(|l| l.row_step == 0)
            });
        // lanes that meet on words (every lane on one word, or rows of
        // lanes on one row of words: packed groups, a 2-D group's rows)
        // run as chains, below
        let chained = line
            .as_ref()
            .filter(|l| l.lanes.len() > if l.step == 0 { 1 } else { l.p });
        // the first iteration's `n` for every lane, in the operation's
        // vector kernel (a chain computes its own, row by row)
        let kernel = lane_op(cl.op).kernel;
        if chained.is_none() {
            let r = |k: usize| &rows[k * w..(k + 1) * w];
            // SAFETY: `lane_op` hands out kernels of an instruction set
            // this CPU runs (`isa`); every row is W words
            unsafe { kernel(nb, r(0), r(1), r(2), r(3)) };
            if cl.sat {
                for n in nb.iter_mut() {
                    *n = sat(*n);
                }
            }
        }
        let active = &wr.active;
        let lanes = if wr.full { 0..w } else { wr.span.clone() };
        // lane l's `n` from `e`, one lane at a time
        let rows = &*rows;
        let value = |l: usize, e: u32| {
            let mut s = [rows[l], rows[w + l], rows[2 * w + l], rows[3 * w + l]];
            for j in 0..4 {
                if is_e[j] {
                    s[j] = bits[j].apply(e);
                }
            }
            // (never `None`: `cas_loop::analyze` takes no dot product)
            let v = lane_value(cl.op, s).unwrap_or(0);
            if cl.sat {
                sat(v)
            } else {
                v
            }
        };
        // a lane's further iterations, after its compare-exchange found `o`
        let retry = |l: usize, mut e: u32, word: Option<&sim_mem::sync::AtomicU32>| {
            let mut k = 1u32;
            loop {
                k += 1;
                let n = value(l, e);
                let o = word.map_or(0, |word| cas(word, e, n));
                if o == e {
                    return (n, e, k);
                }
                e = o;
            }
        };
        // lane l's word: on the line, or by its own index
        let word_of = |l: usize| match &line {
            Some(line) => words.get(line.first + line.step * (l - line.lanes.start)),
            None => ext.word_index(x[l], y[l], 0).and_then(|i| words.get(i)),
        };
        // every active lane's first compare-exchange, in lane order; the
        // lanes that failed and the words they found, in `failed`
        let mut failed = std::mem::take(&mut sc.lanes);
        let (mut nf, mut singles) = (0, 0);
        macro_rules! first {
            ($l:expr, $e:expr, $n:expr, $word:expr) => {{
                let (e, word): (u32, Option<&sim_mem::sync::AtomicU32>) = ($e, $word);
                let o = word.map_or(0, |word| cas(word, e, $n));
                singles += 1;
                if o != e {
                    failed[2 * nf] = $l as u32;
                    failed[2 * nf + 1] = o;
                    nf += 1;
                }
            }};
        }
        // (attempts: the most, and which counts some lane took, bit k − 1
        // for k ≤ 64, bit 63 for more)
        let (mut most, mut took) = (1u32, 0u64);
        // (the lanes' attempts summed, as lockstep counts them: for the
        // profile, which counts per thread)
        let mut attempts = 0u64;
        let profiling = O::ON;
        // (each lane's attempts, for the checker, which sees every attempt
        // as lockstep makes it, 1 where a lane's first one succeeds; and
        // for a memory profile's contention sample, which counts each
        // pass's words)
        let track = O::ON && obs.tracks_cas_attempts(cl.cas_pc);
        let mut per_lane = std::mem::take(&mut sc.attempts);
        if track {
            per_lane.clear();
            per_lane.resize(w, 1);
        }
        match &line {
            // chains: below
            _ if chained.is_some() => {}
            // consecutive words (cas_float_add's): the rows zipped with them
            Some(line) if line.step == 1 => {
                let l = line.lanes.clone();
                let at = &words[line.first..line.first + l.len()];
                let it = (active[l.clone()].iter().zip(&eb[l.clone()])).zip(&nb[l.clone()]);
                for ((((&a, &e), &n), word), l) in it.zip(at).zip(l) {
                    if a != 0 {
                        first!(l, e, n, Some(word));
                    }
                }
            }
            // other lines (a word per lane) and scattered words: lane by
            // lane
            _ => {
                for l in lanes.clone().filter(|&l| active[l] != 0) {
                    first!(l, eb[l], nb[l], word_of(l));
                }
            }
        }
        // The lanes on one word run back to back in lane order, a chain,
        // from the value the word holds now: each lane's attempt reads the
        // value the lane before it left (the first lane's, the word's;
        // its own `e`, when not that, fails first and reads it), and one
        // compare-exchange of the word from that value to the last lane's
        // `n` stands for them all, as no other thread saw the values
        // between. With `cols` words, lane `start + r·cols + j` on word
        // `j`, row after row: the operation runs for a row at once in its
        // vector kernel, on the values the row before left.
        if let Some(line) = chained {
            let cols = if line.step == 0 { 1 } else { line.p };
            let (start, rows_n) = (line.lanes.start, line.lanes.len() / cols);
            debug_assert_eq!(line.lanes.len() % cols, 0);
            let mut tmp = std::mem::take(&mut sc.r);
            // a block of words at a time (`CHAIN_WORDS`), so that little
            // time passes between reading a word and writing it
            for c0 in (0..cols).step_by(CHAIN_WORDS) {
                let bw = (cols - c0).min(CHAIN_WORDS);
                // per word: whether a lane has reached it; the value it
                // held, the value the chain leaves; the lanes that changed
                // it, those before the chain's last lane; whether the first
                // lane's `e` was not the word's (1 or 0)
                let mut have = [0u32; CHAIN_WORDS];
                let mut base = [0u32; CHAIN_WORDS];
                let mut changes = [0u32; CHAIN_WORDS];
                let mut before_tail = [0u32; CHAIN_WORDS];
                let mut stale = [0u32; CHAIN_WORDS];
                // per word: the chain's restarts (for the attempts)
                let mut restarts_of = [0u32; CHAIN_WORDS];
                let first = line.first + line.step * c0;
                for (j, b) in base[..bw].iter_mut().enumerate() {
                    *b = words[first + line.step * j].load(sim_mem::sync::Ordering::Relaxed);
                }
                let mut cur = base;
                for r in 0..rows_n {
                    let at = start + r * cols + c0;
                    let (eb, nb) = (&mut eb[at..at + bw], &mut nb[at..at + bw]);
                    let a = &active[at..at + bw];
                    // the row's `e`: the value its word holds by now
                    let it = (eb.iter_mut().zip(a)).zip(have.iter().zip(&cur));
                    for (((e, &a), (&h, &c)), st) in it.zip(stale.iter_mut()) {
                        *st |= a & !h & u32::from(*e != c);
                        *e = c;
                    }
                    for (k, t) in tmp.chunks_exact_mut(bw).enumerate().take(cl.arity as usize) {
                        if is_e[k] {
                            for (t, &e) in t.iter_mut().zip(&*eb) {
                                *t = bits[k].apply(e);
                            }
                        }
                    }
                    let src = |k: usize| {
                        if k >= cl.arity as usize {
                            &rows[..bw]
                        } else if is_e[k] {
                            &tmp[k * bw..(k + 1) * bw]
                        } else {
                            &rows[k * w + at..k * w + at + bw]
                        }
                    };
                    // SAFETY: as for the first iteration's kernel above
                    unsafe { kernel(nb, src(0), src(1), src(2), src(3)) };
                    if cl.sat {
                        for n in nb.iter_mut() {
                            *n = sat(*n);
                        }
                    }
                    // each active lane joins its word's chain
                    let it = (a.iter().zip(&*eb).zip(&*nb))
                        .zip(have.iter_mut().zip(before_tail.iter_mut()))
                        .zip(changes.iter_mut().zip(cur.iter_mut()));
                    for ((((&a, &e), &n), (h, tail)), (changes, cur)) in it {
                        *tail = (*tail & !a) | (*changes & a & *h);
                        *changes += a & u32::from(n != e);
                        *cur = (*cur & !a) | (n & a);
                        *h |= a;
                    }
                }
                for j in (0..bw).filter(|&j| have[j] != 0) {
                    let word = &words[first + line.step * j];
                    let mut restarts = stale[j];
                    loop {
                        let o = cas(word, base[j], cur[j]);
                        if o == base[j] {
                            break;
                        }
                        // another thread wrote the word meanwhile: the
                        // chain again from the value found
                        restarts += 1;
                        let mut v = o;
                        changes[j] = 0;
                        for l in (0..rows_n).map(|r| start + r * cols + c0 + j) {
                            if active[l] != 0 {
                                let n = value(l, v);
                                before_tail[j] = changes[j];
                                changes[j] += u32::from(n != v);
                                (eb[l], nb[l], v) = (v, n, n);
                            }
                        }
                        (base[j], cur[j]) = (o, v);
                    }
                    // the chain's attempts as lockstep counts them: 1 +
                    // the restarts + the changes before a lane, for each
                    // lane, so every count from the first lane's to the
                    // last's
                    restarts_of[j] = restarts;
                    let (lo, hi) = (1 + restarts, 1 + restarts + before_tail[j]);
                    most = most.max(hi);
                    let (lo, hi) = (lo.min(64) - 1, hi.min(64) - 1);
                    took |= (!0u64 >> (63 - hi)) & (!0u64 << lo);
                }
                // the attempts summed where every lane of a word's chain
                // changed it (the `i`th lane then takes 1 + restarts + i):
                // from the lanes per word, without a pass per lane
                let mut lanes_on = [0u32; CHAIN_WORDS];
                if profiling && !track {
                    for r in 0..rows_n {
                        let at = start + r * cols + c0;
                        for (n, &a) in lanes_on[..bw].iter_mut().zip(&active[at..at + bw]) {
                            *n += a & 1;
                        }
                    }
                }
                let every_lane_changed =
                    profiling && !track && (0..bw).all(|j| changes[j] == lanes_on[j]);
                if every_lane_changed {
                    for j in 0..bw {
                        let n = u64::from(lanes_on[j]);
                        attempts += n * u64::from(1 + restarts_of[j]) + n * n.saturating_sub(1) / 2;
                    }
                } else if profiling || track {
                    // each lane's attempts: 1 + its word's restarts + the
                    // lanes before it that changed the word (row by row,
                    // so that the lanes are read in order)
                    let mut changed = [0u32; CHAIN_WORDS];
                    for r in 0..rows_n {
                        let at = start + r * cols + c0;
                        for j in 0..bw {
                            let l = at + j;
                            if active[l] != 0 {
                                let k = 1 + restarts_of[j] + changed[j];
                                attempts += u64::from(k);
                                if track {
                                    per_lane[l] = k;
                                }
                                changed[j] += u32::from(nb[l] != eb[l]);
                            }
                        }
                    }
                }
            }
            sc.r = tmp;
        }
        // then each failed lane's further iterations, lane after lane. In
        // lockstep, lanes that read one value of a word succeed on it one a
        // pass, in lane order: a lane's attempts are 1 + the lanes before it
        // that changed its word, which its own retries here would not show.
        // A lane failed because its word changed (by the first pass's
        // winner on it, or by another thread, which lockstep counts alike):
        // 2 + the failed lanes before it that changed the word.
        took |= u64::from(nf < singles);
        attempts += (singles - nf) as u64;
        let mut counts = std::mem::take(&mut sc.words);
        counts.reserve(w);
        // a word's key: its address (out of bounds: none, as no lane
        // changes it)
        let index = |word: Option<&sim_mem::sync::AtomicU32>| {
            word.map(|x| (x as *const sim_mem::sync::AtomicU32).addr() / 4)
        };
        for f in failed[..2 * nf].chunks_exact(2) {
            let l = f[0] as usize;
            let word = word_of(l);
            let (n, e, k) = retry(l, f[1], word);
            (nb[l], eb[l]) = (n, e);
            let k = match index(word) {
                Some(i) if chained.is_none() => {
                    let c = counts.get(i);
                    let lockstep = 2 + *c;
                    *c += u32::from(n != e);
                    k.max(lockstep)
                }
                _ => k,
            };
            most = most.max(k);
            attempts += u64::from(k);
            if track {
                per_lane[l] = k;
            }
            took |= 1 << (k.min(64) - 1);
        }
        counts.clear();
        // a memory profile's words: lockstep's passes touch a word while
        // some lane on it is still trying, as many passes as its lanes'
        // most attempts
        let (mut word_passes, mut lane_attempts) = (0u64, 0u64);
        if track && obs.counts_cas_word_passes() {
            for l in lanes.clone().filter(|&l| active[l] != 0) {
                if let Some(i) = ext.word_index(x[l], y[l], 0) {
                    let c = counts.get(i);
                    *c = (*c).max(per_lane[l]);
                    lane_attempts += u64::from(per_lane[l]);
                }
            }
            word_passes = counts.sum();
            counts.clear();
        }
        sc.words = counts;
        sc.lanes = failed;
        // what lockstep issues: the `loop`; in each pass the operation,
        // the compare-exchange, the test and the exit (`if` or `breakc`),
        // with an `if` its `endif` and, when some lane leaves, the `break`;
        // when some lane stays, the `mov` and the `endloop`
        let mut n = 1u64;
        for p in 1..=most {
            let leave = p >= 64 || took & (1 << (p - 1)) != 0;
            let stay = p < most;
            n += 4 + 2 * u64::from(stay);
            if cl.if_exit {
                n += 1 + u64::from(leave);
            }
        }
        if O::ON {
            obs.cas_loop(&CasLoopRun {
                warp: wr,
                cl,
                res: *res,
                view,
                tgsm,
                x,
                y: structured.then_some(y),
                per_lane: &per_lane,
                n,
                most,
                took,
                attempts,
                word_passes,
                lane_attempts,
            });
        }
        sc.attempts = per_lane;
        // the registers the last iteration leaves: n, o = e, t = true, e;
        // those a lane may read after the loop (`crate::analysis::liveness`)
        let (full, span) = (warp.full, warp.span.clone());
        let Warp { regs, active, .. } = &mut *warp;
        let liveness = &self.prog.info().liveness;
        let mut put = |r: u32, v: &[u32]| {
            if liveness.live_at(cl.end_pc + 1, r) {
                commit(
                    &mut regs[r as usize * w..(r as usize + 1) * w],
                    v,
                    active,
                    full,
                    &span,
                );
            }
        };
        // (`n` first: it may be `o`, which the loop writes after it)
        put(cl.n, nb);
        put(cl.o, eb);
        put(cl.e, eb);
        nb.fill(!0);
        put(cl.t, nb);
        sc.s[0] = sa;
        sc.s[1] = sb;
        sc.alu = buf;
        stats.warp_instructions += n;
        warp.pc = cl.end_pc + 1;
        // the watchdog's looks the count passed, taken now, with the counts
        // lockstep would give them (a look every WATCHDOG_INTERVAL
        // warp-instructions, the next where lockstep's would be)
        match n.checked_sub(u64::from(budget.until_check)) {
            None => budget.until_check -= n as u32,
            Some(past) => {
                let interval = u64::from(budget.interval);
                budget.until_check = budget.interval - (past % interval) as u32;
                if let Some(reason) = watchdog.check((1 + past / interval) * interval) {
                    return Err(reason);
                }
            }
        }
        Ok(true)
    }
}
