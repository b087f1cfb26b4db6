//! Throughput profiling as an observer (`--profile`): per instruction the
//! lanes and warps that issued it, branches that diverged, and with memory
//! profiling each buffer access's bytes and distinct 64-byte lines and the
//! contention sample of atomics ([`Profile`]).

use crate::check::MemOp;
use crate::exec::kernels::ZEROS;
use crate::exec::observe::{CasLoopRun, Mem, MemKind, Observer};
use crate::exec::profile::{Profile, SampleCounts};
use crate::exec::warp::Warp;
use crate::ir::lowered::Res;
use crate::program::Program;

/// The profile being gathered and the scratch its counting uses.
#[derive(Debug)]
pub(in crate::exec) struct Profiling {
    /// The counters.
    pub profile: Profile,
    /// Count memory instructions' bytes and lines too (`--profile-memory`).
    pub lines: bool,
    /// The 64-byte lines (or words) an instruction touched.
    lines_seen: Vec<usize>,
    /// A bit per word of a small buffer or region.
    word_bits: Vec<u64>,
    /// The compare-exchange loop about to run is in the contention sample.
    sampled: bool,
}

/// The largest buffer or region, in words, whose atomics' words a memory
/// profile marks in a bit per word (8 KiB of bits); past it, in a sorted
/// list.
const BITSET_MAX_WORDS: usize = 1 << 16;

/// Append `x` to `v` unless it repeats the last entry (lanes in lane order
/// mostly meet a line or word in runs); `ascending` stays true while the
/// entries strictly ascend.
#[inline]
fn push_run(v: &mut Vec<usize>, x: usize, ascending: &mut bool) {
    match v.last() {
        Some(&last) if last == x => {}
        Some(&last) => {
            *ascending &= last < x;
            v.push(x);
        }
        None => v.push(x),
    }
}

/// How many distinct entries [`push_run`] left in `v`: its length when they
/// ascended, else after sorting it (lanes that repeat a few words, a
/// histogram's bins, leave a short list).
fn distinct_runs(v: &mut Vec<usize>, ascending: bool) -> u64 {
    if !ascending {
        v.sort_unstable();
        v.dedup();
    }
    v.len() as u64
}

/// The distinct 64-byte lines (16 words) of the words `first + step·l + k`
/// for lanes `l` in `0..n` and `k` in `k0..=k1` (`k1 − k0` ≤ 3: a lane's
/// words lie in at most two lines, those of `k0` and `k1`, and the lines
/// ascend with the lanes).
fn affine_lines(first: usize, step: usize, n: usize, k0: usize, k1: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    if step <= 16 {
        // consecutive lanes' lowest words are at most a line apart: every
        // line from the first to the last is hit
        let last = (first + step * (n - 1) + k1) / 16;
        return (last - (first + k0) / 16 + 1) as u64;
    }
    let (mut last, mut distinct) = (usize::MAX, 0u64);
    for l in 0..n {
        let base = first + step * l;
        for line in [(base + k0) / 16, (base + k1) / 16] {
            distinct += u64::from(line != last);
            last = line;
        }
    }
    distinct
}

impl Profiling {
    /// Fresh counters for `prog`; memory lines counted when `lines`.
    pub fn new(prog: &Program, lines: bool) -> Self {
        Profiling {
            profile: Profile::new(prog),
            lines,
            lines_seen: Vec::new(),
            word_bits: Vec::new(),
            sampled: false,
        }
    }

    /// The profile of a compare-exchange loop run at once (`cas_loop`),
    /// counted as lockstep counts it: `n` warp-instructions, and per
    /// instruction the lanes that issue it, from the active lanes `A` and
    /// their attempts summed `S` (each lane runs the operation, the
    /// compare-exchange, the test and the exit once per attempt, leaves
    /// once by the `break`, and copies the word it found and loops back
    /// once per failed attempt; the `endif` after the `break` issues with
    /// no lane, as every lane that entered its branch left).
    ///
    /// Per instruction, the warp issues it once a pass (`most` passes):
    /// the `break` in the passes where some lane leaves (`took`: bit k − 1
    /// for a pass k some lane leaves in, bit 63 for the passes past 63),
    /// the `mov` in every pass but the last, and the `endloop` also once
    /// more at the end, with no lane, where the lanes that left rejoin.
    fn cas_loop_counts(&mut self, run: &CasLoopRun<'_, '_>) {
        let CasLoopRun {
            warp,
            cl,
            res,
            n,
            most,
            took,
            attempts,
            ..
        } = *run;
        let a = warp.active_count();
        let s = attempts;
        let w = warp.active.len() as u64;
        // the compare-exchanges' traffic on their UAV, as the lockstep
        // passes would have counted it: `s` atomics, 4 bytes each way
        let p = &mut self.profile;
        if let Res::Uav(slot) = res {
            let t = p.traffic('u', slot);
            t.bytes_read += 4 * s;
            t.bytes_written += 4 * s;
            t.atomics += s;
        }
        let most = u64::from(most);
        // whether some lane leaves in pass k
        let leaves_in = |k: u64| k >= 64 || took & (1 << (k - 1)) != 0;
        let leaves = (1..=most).filter(|&k| leaves_in(k)).count() as u64;
        let mut issue = |pc: usize, lanes: u64, warps: u64| {
            p.lanes_by_pc[pc] += lanes;
            p.warps_by_pc[pc] += warps;
            p.active_lanes += lanes;
        };
        issue(cl.op_pc, s, most);
        issue(cl.cas_pc, s, most);
        issue(cl.cas_pc + 1, s, most);
        issue(cl.cas_pc + 2, s, most);
        if cl.if_exit {
            issue(cl.cas_pc + 3, a, leaves);
            issue(cl.cas_pc + 4, 0, most);
        }
        issue(cl.end_pc - 1, s - a, most - 1);
        issue(cl.end_pc, s - a, most);
        // the exit diverged in the passes where some lanes left and some
        // stayed: every pass but the last that some lane left in
        p.diverged_by_pc[cl.cas_pc + 2] += leaves - u64::from(leaves_in(most));
        p.warp_instructions += n;
        p.lane_slots += n * w;
        p.atomics += s;
        p.compare_exchanges += s;
        p.cas_failures += s - a;
        p.failed_by_pc[cl.cas_pc] += s - a;
        p.uav_read += 4 * s;
        p.uav_written += 4 * s;
    }

    /// Profiling: what a buffer load or store of the active lanes touches —
    /// dwords `ks` at (`a`, `b`) of a UAV or SRV with extent `ext` — its
    /// bytes in bounds and its distinct 64-byte lines.
    #[cold]
    fn buffer_lines(&mut self, m: &Mem<'_, '_>) {
        let Mem {
            warp, res, a, ks, ..
        } = *m;
        let ext = m.ext();
        let w = warp.active.len();
        let Some(b) = m.b.or(ZEROS.get(..w)) else {
            return;
        };
        let (Some(ext), Res::Uav(_) | Res::Srv(_)) = (ext, res) else {
            return;
        };
        let p = &mut self.profile;
        let pc = warp.pc - 1;
        // Every lane active, on words `first + step·l + k` all in bounds (a
        // coalesced, strided or uniform access): a lane's words lie in at
        // most two lines, those of its lowest and highest `k`, and the
        // lines ascend with the lanes, so counting the changes counts them.
        if let (true, Some(&k0), Some(&k1)) = (warp.full, ks.iter().min(), ks.iter().max()) {
            // (or addresses that repeat every `p` lanes, `slot = i % p`:
            // the lines of the first `p` lanes)
            let n = match sim_mem::addressing::affine_words(ext, &a[..w], &b[..w], k1) {
                Some(_) => Some(w),
                None => crate::exec::lines::address_period(warp, (&a[..w], &b[..w])),
            };
            let line = n.and_then(|n| {
                let (first, step) = sim_mem::addressing::affine_words(ext, &a[..n], &b[..n], k1)?;
                Some(affine_lines(first, step, n, k0 as usize, k1 as usize))
            });
            if let Some(distinct) = line {
                p.bytes_by_pc[pc] += 4 * (w * ks.len()) as u64;
                p.lines_by_pc[pc] += distinct;
                return;
            }
        }
        let lines = &mut self.lines_seen;
        lines.clear();
        let (mut words, mut ascending) = (0u64, true);
        for l in (0..w).filter(|&l| warp.active[l] != 0) {
            for &k in ks {
                if let Some(i) = ext.word_index(a[l], b[l], k) {
                    words += 1;
                    push_run(lines, i / 16, &mut ascending);
                }
            }
        }
        p.bytes_by_pc[pc] += 4 * words;
        p.lines_by_pc[pc] += distinct_runs(lines, ascending);
    }

    /// Profiling with memory: a typed buffer load or store (`ld_uav_typed`,
    /// `store_uav_typed`) of the active lanes at elements `idx` of `view`:
    /// its bytes in bounds and the distinct 64-byte lines they lie on.
    #[cold]
    fn typed_lines(&mut self, m: &Mem<'_, '_>) {
        let Mem {
            warp, view, a: idx, ..
        } = *m;
        let Some(view) = view else {
            return;
        };
        let p = &mut self.profile;
        let size = crate::exec::lines::typed_bytes(Some(view));
        let count = u64::from(view.bufinfo());
        let lines = &mut self.lines_seen;
        lines.clear();
        let (mut bytes, mut ascending) = (0u64, true);
        for l in (0..warp.active.len()).filter(|&l| warp.active[l] != 0) {
            let i = u64::from(idx[l]);
            if i >= count {
                continue;
            }
            bytes += size;
            let (first, last) = (i * size / 64, (i * size + size - 1) / 64);
            for line in first..=last {
                push_run(lines, line as usize, &mut ascending);
            }
        }
        let pc = warp.pc - 1;
        p.bytes_by_pc[pc] += bytes;
        p.lines_by_pc[pc] += distinct_runs(lines, ascending);
    }

    /// Profiling with memory: the distinct words in bounds of extent `ext`
    /// that an atomic's active lanes touch at (`a`, `b`) (dword 0).
    #[cold]
    fn atomic_words(&mut self, m: &Mem<'_, '_>) {
        let Mem { warp, a, .. } = *m;
        let ext = m.ext();
        let w = warp.active.len();
        let Some(b) = m.b.or(ZEROS.get(..w)) else {
            return;
        };
        let Some(ext) = ext else {
            return;
        };
        let p = &mut self.profile;
        let pc = warp.pc - 1;
        if !p.sample_atomic(pc) {
            return;
        }
        let n_words = (ext.size_bytes / 4) as usize;
        let mut lanes = 0u64;
        let distinct = if n_words <= BITSET_MAX_WORDS {
            // a small buffer or region: a bit per word, counted over the
            // span of words the lanes touched, then cleared
            let bits = &mut self.word_bits;
            if bits.len() < n_words.div_ceil(64) {
                bits.resize(n_words.div_ceil(64), 0);
            }
            let (mut lo, mut hi) = (usize::MAX, 0);
            for l in 0..w {
                if warp.active[l] != 0 {
                    if let Some(i) = ext.word_index(a[l], b[l], 0) {
                        lanes += 1;
                        bits[i / 64] |= 1 << (i % 64);
                        lo = lo.min(i / 64);
                        hi = hi.max(i / 64);
                    }
                }
            }
            if lo > hi {
                0
            } else {
                bits[lo..=hi]
                    .iter_mut()
                    .map(|b| u64::from(std::mem::take(b).count_ones()))
                    .sum()
            }
        } else {
            let words = &mut self.lines_seen;
            words.clear();
            let mut ascending = true;
            for l in (0..w).filter(|&l| warp.active[l] != 0) {
                if let Some(i) = ext.word_index(a[l], b[l], 0) {
                    lanes += 1;
                    push_run(words, i, &mut ascending);
                }
            }
            distinct_runs(words, ascending)
        };
        p.sampled_atomic_words_by_pc[pc] += distinct;
        p.sampled_atomic_lanes_by_pc[pc] += lanes;
    }

    /// Profiling: `bytes` per active lane read (`write` false) or written
    /// at `res`, and `atomics` per active lane (an atomic reads and writes 4).
    fn count_traffic(&mut self, warp: &Warp, res: Res, bytes: u64, write: bool, atomic: bool) {
        let p = &mut self.profile;
        let n = warp.active_count();
        let (r, wr) = if atomic {
            p.atomics += n;
            (n * 4, n * 4)
        } else if write {
            (0, n * bytes)
        } else {
            (n * bytes, 0)
        };
        let (register, slot) = match res {
            Res::Uav(s) | Res::UavTexture(s) => ('u', s),
            Res::Srv(s) | Res::SrvTexture(s) => ('t', s),
            Res::Tgsm(s) => ('g', s),
        };
        let t = p.traffic(register, slot);
        t.bytes_read += r;
        t.bytes_written += wr;
        if atomic {
            t.atomics += n;
        }
        match res {
            Res::Tgsm(_) => {
                p.tgsm_read += r;
                p.tgsm_written += wr;
            }
            Res::Srv(_) | Res::SrvTexture(_) => p.srv_read += r,
            _ => {
                p.uav_read += r;
                p.uav_written += wr;
            }
        }
    }
}

impl Observer for Profiling {
    const ON: bool = true;
    const CHECKS: bool = false;
    const COUNTS_FLOW: bool = true;

    #[inline(always)]
    fn instruction(&mut self, warp: &Warp) {
        let p = &mut self.profile;
        let n = warp.active_count();
        let pc = warp.pc - 1;
        p.lanes_by_pc[pc] += n;
        p.warps_by_pc[pc] += 1;
        p.warp_instructions += 1;
        p.active_lanes += n;
        p.lane_slots += warp.active.len() as u64;
    }

    #[inline]
    fn divergence(&mut self, pc: usize, diverged: bool) {
        self.profile.diverged_by_pc[pc] += u64::from(diverged);
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
        // the `break` issues with the lanes that take it; the `endif`
        // with none, as no lane comes through the branch to it
        let p = &mut self.profile;
        p.lanes_by_pc[at] += took;
        p.warps_by_pc[at] += u64::from(left);
        p.warps_by_pc[endif_pc as usize] += 1;
        p.warp_instructions += n;
        p.active_lanes += took;
        p.lane_slots += n * warp.active.len() as u64;
    }

    #[inline]
    fn traffic(&mut self, warp: &Warp, res: Res, op: MemOp, bytes: u64) {
        let atomic = matches!(op, MemOp::Atomic { .. });
        self.count_traffic(warp, res, bytes, op == MemOp::Write, atomic);
    }

    #[inline(always)]
    fn wants_accesses(&self) -> bool {
        self.lines
    }

    /// (the lines of UAV and SRV accesses and atomics alone: `memory`)
    #[inline(always)]
    fn wants_tgsm_reads(&self) -> bool {
        false
    }

    fn memory(&mut self, m: &Mem<'_, '_>) {
        if !self.lines {
            return;
        }
        match m.kind {
            MemKind::Texture => {}
            MemKind::Atomic => {
                if !matches!(m.res, Res::UavTexture(_)) {
                    self.atomic_words(m);
                }
            }
            MemKind::Typed => self.typed_lines(m),
            MemKind::Buffer => self.buffer_lines(m),
        }
    }

    fn texture_traffic(&mut self, register: char, slot: u32, texels: (u64, u64), s: SampleCounts) {
        if texels != (0, 0) || s.total() > 0 {
            let t = self.profile.traffic(register, slot);
            t.texels_read += texels.0;
            t.texels_written += texels.1;
            t.samples += s;
        }
    }

    fn cas_outcome(&mut self, pc: u32, warp: &Warp, returned: &[u32], compared: &[u32]) {
        // failed: the returned word is not the compared one
        let (mut n, mut failed) = (0u64, 0u64);
        for l in 0..warp.active.len() {
            if warp.active[l] != 0 {
                n += 1;
                failed += u64::from(returned[l] != compared[l]);
            }
        }
        let p = &mut self.profile;
        p.compare_exchanges += n;
        p.cas_failures += failed;
        p.failed_by_pc[pc as usize] += failed;
    }

    fn tracks_cas_attempts(&mut self, cas_pc: usize) -> bool {
        self.sampled = self.lines && self.profile.sample_atomic(cas_pc);
        self.sampled
    }

    fn counts_cas_word_passes(&self) -> bool {
        self.sampled
    }

    fn cas_loop(&mut self, run: &CasLoopRun<'_, '_>) {
        self.cas_loop_counts(run);
        if self.sampled {
            let p = &mut self.profile;
            p.sampled_atomic_words_by_pc[run.cl.cas_pc] += run.word_passes;
            p.sampled_atomic_lanes_by_pc[run.cl.cas_pc] += run.lane_attempts;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::affine_lines;

    /// The lines counted without listing the words, against a set of them,
    /// over strides from uniform (0) past a line (40 words), unaligned
    /// starts and every span of words a lane may touch.
    #[test]
    fn affine_lines_are_the_distinct_lines_of_the_words() {
        for first in [0usize, 1, 7, 15, 16, 33] {
            for step in 0..40 {
                for n in [1usize, 2, 5, 32, 64] {
                    for k0 in 0..4 {
                        for k1 in k0..4 {
                            let mut set = std::collections::BTreeSet::new();
                            for l in 0..n {
                                for k in k0..=k1 {
                                    set.insert((first + step * l + k) / 16);
                                }
                            }
                            assert_eq!(
                                affine_lines(first, step, n, k0, k1),
                                set.len() as u64,
                                "first {first} step {step} n {n} k {k0}..={k1}"
                            );
                        }
                    }
                }
            }
        }
    }
}
