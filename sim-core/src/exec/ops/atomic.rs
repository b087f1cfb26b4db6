//! Atomics on UAVs and TGSM (FS §7.14.5), one lane after another in lane
//! order, and the gathered atomics of `FastPaths::PRIVATE_ATOMICS`.

use crate::check::MemOp;
use crate::exec::context::{Cx, GroupMemory};
use crate::exec::fast::FastPaths;
use crate::exec::lines::{bounds, line_of};
use crate::exec::observe::{Mem, MemKind, Observer};
use crate::exec::ops::memory::buffer_address;
use crate::exec::warp::{zeros, Scratch, Warp};
use crate::ir::lowered::{AtomicKind, Dst, Res, Src};
use sim_mem::AtomicOp;
/// A relaxed compare-exchange of `word` from `e` to `n`: the word found.
#[inline(always)]
pub(in crate::exec) fn cas(word: &sim_mem::sync::AtomicU32, e: u32, n: u32) -> u32 {
    sim_mem::AtomicOp::CompareExchange {
        compare: e,
        value: n,
    }
    .apply(word)
}

/// One UAV's atomics gathered by an executor.
#[derive(Debug)]
pub(in crate::exec) struct PrivateUav {
    /// u#
    pub(in crate::exec) slot: u32,
    /// the one kind of atomic the program applies to it
    pub(in crate::exec) kind: AtomicKind,
    /// address of the bound buffer's words (which buffer the words are for)
    pub(in crate::exec) buffer: usize,
    /// per word of the buffer, the operations so far combined, from the
    /// kind's identity
    pub(in crate::exec) words: Vec<u32>,
    /// whether some operation has been gathered since the last flush
    pub(in crate::exec) dirty: bool,
}

impl Cx<'_, '_> {
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn atomic<O: Observer>(
        &self,
        sc: &mut Scratch,
        mem: &mut GroupMemory,
        obs: &mut O,
        warp: &mut Warp,
        kind: AtomicKind,
        ret: Option<&Dst>,
        (res, structured): (Res, bool),
        addr: &Src,
        a: &Src,
        bsrc: &Src,
    ) {
        let w = self.w;
        let mut sa_buf = std::mem::take(&mut sc.s[0]);
        let mut sv_buf = std::mem::take(&mut sc.s[1]);
        let mut sw_buf = std::mem::take(&mut sc.s[2]);
        let mut sw2 = std::mem::take(&mut sc.s[3]);
        let mut r = std::mem::take(&mut sc.r);
        // address: .x = byte offset (raw) or index, .y = byte offset
        // (structured); a texture's coordinates: .xyz (fetched together);
        // the operands' rows are the registers' own where no copy is needed
        // (`operand`)
        let texture = matches!(res, Res::UavTexture(_));
        if texture {
            self.fetch(warp, addr, 0b111, &mut sa_buf);
        }
        let wr: &Warp = warp;
        let (sx, sy_fetched, sa): (&[u32], Option<&[u32]>, &[u32]) = if texture {
            (&sa_buf[..w], None, &sa_buf[..])
        } else {
            let (x, rest) = sa_buf.split_at_mut(w);
            let y = structured.then(|| self.operand(wr, addr, 1, &mut rest[..w]));
            (self.operand(wr, addr, 0, x), y, &[][..])
        };
        let sv = self.operand(wr, a, 0, &mut sv_buf);
        let sw = self.operand(wr, bsrc, 0, &mut sw_buf);
        let pc = wr.pc as u32 - 1;

        let view = self.view(res);
        let tex = self.texture_view(res);
        // this executor's own words of a UAV that nothing reads
        // (`privatize_atomics`), out of `self` while the lanes run
        let private = match (res, view) {
            (Res::Uav(u), Some(v)) if ret.is_none() => mem
                .private
                .iter()
                .position(|p| p.slot == u && p.kind == kind && p.buffer == buffer_address(&v)),
            _ => None,
        };
        let mut private_words = private.map(|i| std::mem::take(&mut mem.private[i].words));
        let op = MemOp::Atomic {
            cas: kind == AtomicKind::CmpExch,
        };
        if O::ON {
            obs.traffic(wr, res, op, 4);
        }
        if O::ON && obs.wants_accesses() {
            obs.memory(&Mem {
                warp: wr,
                pc,
                kind: MemKind::Atomic,
                op,
                res,
                view,
                texture: tex,
                tgsm: &mem.tgsm,
                a: if texture { sa } else { sx },
                b: sy_fetched,
                ks: &[0],
                values: None,
            });
        }
        // address components: x, and y for a structured access
        let sy = match sy_fetched {
            Some(y) => y,
            None => zeros(w, &mut sw2),
        };
        // a TGSM region's bounds and words, set up once
        let mut tgsm = match res {
            Res::Tgsm(g) => mem.tgsm.region_mut(g),
            _ => None,
        };
        let active = &wr.active;
        let no_ret = ret.is_none();
        // The lane loops, instantiated per kind of operation (`mk` makes a
        // lane's AtomicOp from its operands), so that no lane matches on
        // the kind.
        macro_rules! lane_loops {
            ($mk:expr) => {{
                let mk = $mk;
                let lane_op = |l: usize| {
                    let op: AtomicOp = mk(sv[l], sw[l]);
                    // without a returned value, an operation that cannot
                    // change the word (add 0, or 0, and !0, …) is skipped
                    (!no_ret || !op.is_identity()).then_some(op)
                };
                // lane by lane, in lane order; the old value goes to r[l] (out of
                // bounds: nothing written, the returned value is 0, §12)
                match (res, view) {
                    (Res::Tgsm(_), _) => {
                        let Some((ext, words)) = tgsm.as_mut() else {
                            r[..w].fill(0);
                            if kind == AtomicKind::CmpExch {
                                obs.cas_outcome(pc, wr, &r[..w], &sv[..w]);
                            }
                            let bufs = [sa_buf, sv_buf, sw_buf, sw2, r];
                            return self.atomic_done(sc, warp, ret, bufs);
                        };
                        // zipped over the span: no per-lane bounds checks
                        // on the operand rows (a histogram's per-key loop)
                        let span = warp.span.clone();
                        let addr = (active[span.clone()].iter().zip(&sx[span.clone()]))
                            .zip(&sy[span.clone()]);
                        let values =
                            (sv[span.clone()].iter().zip(&sw[span.clone()])).zip(&mut r[span]);
                        for (((&a, &x), &y), ((&v, &v2), r)) in addr.zip(values) {
                            if a != 0 {
                                let i = ext.word_index(x, y, 0);
                                *r = i
                                    .and_then(|i| words.get_mut(i))
                                    .map_or(0, |w| mk(v, v2).apply_plain(w));
                            }
                        }
                    }
                    (Res::UavTexture(_), _) => {
                        for l in (0..w).filter(|&l| active[l] != 0) {
                            if let Some(op) = lane_op(l) {
                                let c = [sa[l], sa[w + l], sa[2 * w + l]];
                                r[l] = tex.and_then(|t| t.atomic(c, op)).unwrap_or(0);
                            }
                        }
                    }
                    (_, Some(view)) => {
                        // on a line of words in bounds: no per-lane index arithmetic
                        let row = self.prog.thread_group[0] as usize;
                        let ext = bounds(&mem.tgsm, res, Some(view));
                        let steps = self.facts_here(warp).addr;
                        let line = ext.and_then(|e| {
                            line_of(
                                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                                warp,
                                e,
                                (sx, sy),
                                0,
                                row,
                                steps,
                                None,
                            )
                        });
                        let words = view.words();
                        match (line, ext, private_words.as_deref_mut()) {
                            // plain operations on this worker's words
                            // (no test for identity operations: on this
                            // worker's words they cost no more than others,
                            // and a test of values such as a histogram's
                            // counts, a third of them 0, is a branch
                            // mispredicted every other lane)
                            // consecutive words of one row: a branch-free
                            // loop (a blend under the mask) that vectorises
                            // (global_histogram's merge of its bins)
                            (Some(line), _, Some(own))
                                if line.step == 1 && line.lanes.len() <= line.p =>
                            {
                                let l = line.lanes.clone();
                                let own = &mut own[line.first..line.first + l.len()];
                                let (sv, sw) = (&sv[l.clone()], &sw[l.clone()]);
                                let it = own.iter_mut().zip(&active[l]).zip(sv.iter().zip(sw));
                                for ((o, &a), (&v, &v2)) in it {
                                    let new = mk(v, v2).combine(*o);
                                    *o = (new & a) | (*o & !a);
                                }
                            }
                            (Some(line), _, Some(own)) => {
                                line.each(|l, word| {
                                    if active[l] != 0 {
                                        mk(sv[l], sw[l]).apply_plain(&mut own[word]);
                                    }
                                });
                            }
                            (None, Some(ext), Some(own)) if ext.stride == 0 => {
                                // raw: lane l's word is sx[l] / 4 when below
                                // the view's last whole word (raw_word_index)
                                let n = usize::try_from(ext.size_bytes / 4).unwrap_or(usize::MAX);
                                let n = n.min(own.len());
                                let own = &mut own[..n];
                                let span = warp.span.clone();
                                let lanes = (active[span.clone()].iter().zip(&sx[span.clone()]))
                                    .zip(sv[span.clone()].iter().zip(&sw[span]));
                                for ((&a, &x), (&v, &v2)) in lanes {
                                    let i = (x / 4) as usize;
                                    if a != 0 && i < own.len() {
                                        own[i] = mk(v, v2).combine(own[i]);
                                    }
                                }
                            }
                            (None, _, Some(own)) => {
                                for l in warp.span.clone().filter(|&l| active[l] != 0) {
                                    let i = view.word_index(sx[l], sy[l], 0);
                                    if let Some(x) = i.and_then(|i| own.get_mut(i)) {
                                        mk(sv[l], sw[l]).apply_plain(x);
                                    }
                                }
                            }
                            // one row of words at a step: the lanes zipped
                            // with their words, without an index per lane
                            // (cas_float_add's compare-exchanges)
                            (Some(line), _, None)
                                if line.step >= 1 && line.lanes.len() <= line.p =>
                            {
                                let l = line.lanes.clone();
                                let at = words[line.first..].iter().step_by(line.step);
                                let ops = sv[l.clone()].iter().zip(&sw[l.clone()]);
                                let it = active[l.clone()].iter().zip(ops).zip(&mut r[l]);
                                for (((&a, (&v, &v2)), r), word) in it.zip(at) {
                                    let op: AtomicOp = mk(v, v2);
                                    if a != 0 && (!no_ret || !op.is_identity()) {
                                        *r = op.apply(word);
                                    }
                                }
                            }
                            (Some(line), _, None) => {
                                line.each(|l, word| {
                                    if active[l] != 0 {
                                        if let Some(op) = lane_op(l) {
                                            r[l] = op.apply(&words[word]);
                                        }
                                    }
                                });
                            }
                            // raw or structured: the bounds set up once
                            (None, Some(ext), None) => {
                                for l in (0..w).filter(|&l| active[l] != 0) {
                                    if let Some(op) = lane_op(l) {
                                        let i = ext.word_index(sx[l], sy[l], 0);
                                        r[l] =
                                            i.and_then(|i| words.get(i)).map_or(0, |x| op.apply(x));
                                    }
                                }
                            }
                            (None, None, None) => {
                                for l in (0..w).filter(|&l| active[l] != 0) {
                                    if let Some(op) = lane_op(l) {
                                        r[l] = view
                                            .atomic(view.word_index(sx[l], sy[l], 0), op)
                                            .unwrap_or(0);
                                    }
                                }
                            }
                        }
                    }
                    (_, None) => r[..w].fill(0),
                }
            }};
        }
        match kind {
            AtomicKind::And => lane_loops!(|v, _| AtomicOp::And(v)),
            AtomicKind::Or => lane_loops!(|v, _| AtomicOp::Or(v)),
            AtomicKind::Xor => lane_loops!(|v, _| AtomicOp::Xor(v)),
            AtomicKind::Add => lane_loops!(|v, _| AtomicOp::Add(v)),
            AtomicKind::IMax => lane_loops!(|v, _| AtomicOp::IMax(v)),
            AtomicKind::IMin => lane_loops!(|v, _| AtomicOp::IMin(v)),
            AtomicKind::UMax => lane_loops!(|v, _| AtomicOp::UMax(v)),
            AtomicKind::UMin => lane_loops!(|v, _| AtomicOp::UMin(v)),
            AtomicKind::Exch => lane_loops!(|v, _| AtomicOp::Exchange(v)),
            AtomicKind::CmpExch => lane_loops!(|v, w| AtomicOp::CompareExchange {
                compare: v,
                value: w,
            }),
        }
        if let (Some(i), Some(words)) = (private, private_words) {
            mem.private[i].words = words;
            mem.private[i].dirty = true;
        }
        if kind == AtomicKind::CmpExch {
            obs.cas_outcome(pc, wr, &r[..w], &sv[..w]);
        }
        self.atomic_done(sc, warp, ret, [sa_buf, sv_buf, sw_buf, sw2, r]);
    }

    /// The end of [`Cx::atomic`]: the returned value (`r[..W]`,
    /// to every component of the destination), scratch back.
    pub(in crate::exec) fn atomic_done(
        &self,
        sc: &mut Scratch,
        warp: &mut Warp,
        ret: Option<&Dst>,
        [sa, sv, sw, sw2, mut r]: [Vec<u32>; 5],
    ) {
        let w = self.w;
        if let Some(d) = ret {
            for c in 1..4 {
                if d.mask & (1 << c) != 0 {
                    r.copy_within(..w, c * w);
                }
            }
            self.write(warp, d, &r);
        }
        sc.s[0] = sa;
        sc.s[1] = sv;
        sc.s[2] = sw;
        sc.s[3] = sw2;
        sc.r = r;
    }
}
