//! Loads and stores on UAVs, SRVs and TGSM (FS §7.14; `reference/sm5-compute-isa.md`):
//! lane by lane in lane order, or as lines (`FastPaths::MEMORY_LINES`,
//! `lines.rs`), with bounds as each view defines them.

use crate::check::MemOp;
use crate::exec::context::Cx;
use crate::exec::fast::rows::NO_ROW;
use crate::exec::fast::FastPaths;
use crate::exec::lines::{bounds, line_of, load_line, load_row, store_line, Line};
use crate::exec::observe::{Mem, MemKind, Observer};
use crate::exec::warp::{blend, zeros, Scratch, Warp};
use crate::ir::lowered::{Dst, DstKind, Res, Src, SrcKind, SrcMod};
use sim_mem::{BufferView, Tgsm};
/// Address of a buffer view's first word: which buffer (and range) it is.
pub(in crate::exec) fn buffer_address(v: &BufferView<'_>) -> usize {
    v.words().as_ptr().addr()
}

impl<'b> Cx<'_, 'b> {
    /// The raw, structured or typed buffer view bound at `res` (None: TGSM,
    /// a texture or unbound).
    pub(in crate::exec) fn view(&self, res: Res) -> Option<BufferView<'b>> {
        match res {
            Res::Srv(s) => self.b.srv(s),
            Res::Uav(s) => self.b.uav(s),
            _ => None,
        }
    }
}

/// The observers' view of a raw or structured access (or TGSM): dwords
/// `ks` at (`a[l]`, `b[l]`) per lane, `values[i·W + l]` stored for dword
/// `ks[i]`.
#[allow(clippy::too_many_arguments)]
pub(in crate::exec) fn buffer_access<'a, 'b>(
    tgsm: &'a Tgsm,
    warp: &'a Warp,
    res: Res,
    view: Option<BufferView<'b>>,
    op: MemOp,
    (a, b): (&'a [u32], &'a [u32]),
    ks: &'a [u32],
    values: Option<&'a [u32]>,
) -> Mem<'a, 'b> {
    Mem {
        warp,
        pc: warp.pc as u32 - 1,
        kind: MemKind::Buffer,
        op,
        res,
        view,
        texture: None,
        tgsm,
        a,
        b: Some(b),
        ks,
        values,
    }
}

/// The observers' view of a typed buffer access (`ld_uav_typed`,
/// `store_uav_typed` on a buffer): element `idx[l]` per lane, the stored
/// values (4·W words) for a write.
pub(in crate::exec) fn typed_access<'a, 'b>(
    tgsm: &'a Tgsm,
    warp: &'a Warp,
    res: Res,
    view: Option<BufferView<'b>>,
    op: MemOp,
    idx: &'a [u32],
    values: Option<&'a [u32]>,
) -> Mem<'a, 'b> {
    Mem {
        warp,
        pc: warp.pc as u32 - 1,
        kind: MemKind::Typed,
        op,
        res,
        view,
        texture: None,
        tgsm,
        a: idx,
        b: None,
        ks: &[0],
        values,
    }
}

impl Cx<'_, '_> {
    /// Component 0 of a load's or store's address operands, `a` (the
    /// address or structure index) and `off` (a structured offset; none:
    /// zeros): an immediate's row of the warp's arena where the plan has
    /// one (`Step::imm_rows`, `FastPaths::ROW_ALU`), else [`Cx::operand`]
    /// (a register's row, or the operand filled into `ba` or `bb`).
    #[inline(always)]
    fn address<'a>(
        &self,
        warp: &'a Warp,
        a: &Src,
        off: Option<&Src>,
        (ba, bb): (&'a mut [u32], &'a mut [u32]),
    ) -> (&'a [u32], &'a [u32]) {
        let w = self.w;
        let [ra, rb] = self.plan[warp.pc - 1].imm_rows;
        let row = |r: u32| &warp.regs[r as usize..r as usize + w];
        let sa = match ra {
            NO_ROW => self.operand(warp, a, 0, ba),
            r => row(r),
        };
        let sb = match (off, rb) {
            (Some(off), NO_ROW) => self.operand(warp, off, 0, bb),
            (Some(_), r) => row(r),
            (None, _) => zeros(w, bb),
        };
        (sa, sb)
    }

    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn load<O: Observer>(
        &self,
        sc: &mut Scratch,
        tgsm: &Tgsm,
        obs: &mut O,
        warp: &mut Warp,
        dst: &Dst,
        a: &Src,
        off: Option<&Src>,
        res: Res,
        swz: [u8; 4],
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut sc.s[0]);
        let mut bb = std::mem::take(&mut sc.s[1]);
        let mut r = std::mem::take(&mut sc.r);
        let wr: &Warp = warp;
        let (sa, sb) = self.address(wr, a, off, (&mut ba, &mut bb));
        // The memory kind and bounds are decided once per instruction, not per lane.
        let view = self.view(res);
        if O::ON {
            let mut ks = [0u32; 4];
            let mut n = 0;
            for c in 0..4 {
                if dst.mask & (1 << c) != 0 {
                    ks[n] = swz[c] as u32;
                    n += 1;
                }
            }
            obs.traffic(wr, res, MemOp::Read, 4 * n as u64);
            if obs.wants_accesses() {
                let ks = &ks[..n];
                let m = buffer_access(tgsm, wr, res, view, MemOp::Read, (sa, sb), ks, None);
                obs.memory(&m);
            }
        }
        let active = &wr.active;
        // A coalesced or uniform access (every lane, active or not, on one
        // line of words in bounds) is read without per-lane bounds arithmetic;
        // the inactive lanes' values are dropped by `write`.
        let k_max = (0..4)
            .filter(|c| dst.mask & (1 << c) != 0)
            .map(|c| swz[c] as u32)
            .max()
            .unwrap_or(0);
        let region = match res {
            Res::Tgsm(g) => tgsm.region(g),
            _ => None,
        };
        let ext = bounds(tgsm, res, view);
        let row = self.prog.thread_group[0] as usize;
        let facts = self.facts_here(wr);
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                k_max,
                row,
                facts.addr,
                facts.grid,
            )
        });
        // A full warp reading a buffer on one line of words into a temp:
        // straight into the register file, lane by lane over the words.
        if let (Some(line), true, DstKind::Temp(reg), Some(v), false) =
            (&line, wr.full, dst.kind, view, matches!(res, Res::Tgsm(_)))
        {
            // (not for one lane: a warp of one lane takes the general path,
            // which tests compare this one with)
            if (2..=line.p).contains(&line.lanes.len()) && reg < self.prog.temps {
                let words = v.words();
                let n = line.lanes.len();
                let rows = &mut warp.regs[reg as usize * 4 * w..(reg as usize * 4 + 4) * w];
                load_line(words, line.first, line.step, n, dst.mask, swz, rows, w);
                sc.s[0] = ba;
                sc.s[1] = bb;
                sc.r = r;
                return;
            }
        }
        // A full warp reading TGSM on a line or grid of words into a temp:
        // straight into the register file, row by row.
        if let (Some(line), true, DstKind::Temp(reg), Some((_, words))) =
            (&line, wr.full, dst.kind, region)
        {
            if line.lanes == (0..w) && reg < self.prog.temps {
                for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                    let base = (reg as usize * 4 + c) * w;
                    let out = &mut warp.regs[base..base + w];
                    tgsm_rows(words, line, swz[c] as usize, out);
                }
                sc.s[0] = ba;
                sc.s[1] = bb;
                sc.r = r;
                return;
            }
        }
        // A partial warp reading TGSM on one line of consecutive words into
        // a temp: blended into the register file under the active lanes,
        // from the words themselves (a TGSM tree's narrowing steps: reduce,
        // scan), as `write` would blend them from a copy.
        if let (Some(line), false, DstKind::Temp(reg), Some((_, words))) =
            (&line, wr.full, dst.kind, region)
        {
            let n = line.lanes.len();
            if line.step == 1 && n <= line.p && reg < self.prog.temps {
                let Warp { regs, active, .. } = &mut *warp;
                let m = &active[line.lanes.clone()];
                for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                    let base = (reg as usize * 4 + c) * w;
                    let d = &mut regs[base + line.lanes.start..base + line.lanes.end];
                    let from = line.first + swz[c] as usize;
                    blend(d, &words[from..from + n], m);
                }
                sc.s[0] = ba;
                sc.s[1] = bb;
                sc.r = r;
                return;
            }
        }
        for c in 0..4 {
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            let k = swz[c] as u32;
            let out = &mut r[c * w..(c + 1) * w];
            match (res, view) {
                (Res::Tgsm(_), _) => {
                    let Some((ext, words)) = region else {
                        out.fill(0);
                        continue;
                    };
                    if let Some(line) = &line {
                        tgsm_rows(words, line, k as usize, &mut out[line.lanes.clone()]);
                        continue;
                    }
                    for (l, o) in out.iter_mut().enumerate() {
                        if active[l] != 0 {
                            let i = ext.word_index(sa[l], sb[l], k);
                            *o = i.and_then(|i| words.get(i)).copied().unwrap_or(0);
                        }
                    }
                }
                (_, Some(v)) => match ext {
                    Some(ext) => {
                        let words = v.words();
                        if let Some(line) = &line {
                            let (k, step) = (k as usize, line.step);
                            for (base, out) in line.rows(&mut out[line.lanes.clone()]) {
                                if step == 1 {
                                    load_row(&words[base + k..], out);
                                    continue;
                                }
                                for (c, o) in out.iter_mut().enumerate() {
                                    *o = words[base + k + step * c]
                                        .load(sim_mem::sync::Ordering::Relaxed);
                                }
                            }
                            continue;
                        }
                        for (l, o) in out.iter_mut().enumerate() {
                            if active[l] != 0 {
                                let i = ext.word_index(sa[l], sb[l], k);
                                *o = i
                                    .and_then(|i| words.get(i))
                                    .map_or(0, |x| x.load(sim_mem::sync::Ordering::Relaxed));
                            }
                        }
                    }
                    None => {
                        for (l, o) in out.iter_mut().enumerate() {
                            if active[l] != 0 {
                                *o = v.load(v.word_index(sa[l], sb[l], k));
                            }
                        }
                    }
                },
                (_, None) => out.fill(0),
            }
        }
        self.write(warp, dst, &r);
        sc.s[0] = ba;
        sc.s[1] = bb;
        sc.r = r;
    }

    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn store<O: Observer>(
        &self,
        sc: &mut Scratch,
        tgsm: &mut Tgsm,
        obs: &mut O,
        warp: &mut Warp,
        res: Res,
        count: u8,
        a: &Src,
        off: Option<&Src>,
        value: &Src,
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut sc.s[0]);
        let mut bb = std::mem::take(&mut sc.s[1]);
        let mut sv = std::mem::take(&mut sc.s[2]);
        let wr: &Warp = warp;
        let (sa, sb) = self.address(wr, a, off, (&mut ba, &mut bb));
        let view = self.view(res);
        // A coalesced or uniform store skips the per-lane bounds arithmetic
        // (`line`); the order stays lane by lane, each lane's dwords in
        // order, so a later lane wins a collision.
        let full = wr.full;
        let ext = bounds(tgsm, res, view);
        let row = self.prog.thread_group[0] as usize;
        let facts = self.facts_here(wr);
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                count as u32 - 1,
                row,
                facts.addr,
                facts.grid,
            )
        });
        // A full warp storing a temp's first components, in order and
        // unmodified, to a buffer on one line of words whose lanes' dwords
        // do not overlap: straight from the register file.
        let in_order = value.swz.iter().zip(0..count).all(|(&s, c)| s == c);
        let direct = match value.kind {
            SrcKind::Temp(reg)
                if reg < self.prog.temps && value.modifier == SrcMod::None && in_order =>
            {
                Some(reg as usize)
            }
            _ => None,
        };
        if let (Some(line), Some(v), Some(reg), true, None) =
            (&line, view, direct, full, O::CHECKS.then_some(()))
        {
            let (n, count) = (line.lanes.len(), count as usize);
            if !matches!(res, Res::Tgsm(_)) && (2..=line.p).contains(&n) && line.step >= count {
                let rows = &wr.regs[reg * 4 * w..(reg * 4 + count) * w];
                store_line(v.words(), line.first, line.step, n, rows, w);
                if O::ON {
                    // (a profile: the checker sees the values, below)
                    obs.traffic(wr, res, MemOp::Write, 4 * count as u64);
                }
                if O::ON && obs.wants_accesses() {
                    let ks = &[0, 1, 2, 3][..count];
                    obs.memory(&buffer_access(
                        tgsm,
                        wr,
                        res,
                        view,
                        MemOp::Write,
                        (sa, sb),
                        ks,
                        None,
                    ));
                }
                sc.s[0] = ba;
                sc.s[1] = bb;
                sc.s[2] = sv;
                return;
            }
        }
        // the values: one component straight from its row where it needs
        // no copy (`operand`: a temp unmodified), else fetched (4·W words)
        let vals: &[u32] = if count == 1 {
            self.operand(wr, value, 0, &mut sv)
        } else {
            self.fetch(wr, value, (1u8 << count) - 1, &mut sv);
            &sv
        };
        if O::ON {
            obs.traffic(wr, res, MemOp::Write, 4 * count as u64);
        }
        if O::ON && obs.wants_accesses() {
            let ks = &[0, 1, 2, 3][..count as usize];
            let m = buffer_access(tgsm, wr, res, view, MemOp::Write, (sa, sb), ks, Some(vals));
            obs.memory(&m);
        }
        let active = &wr.active;
        match (res, view) {
            (Res::Tgsm(g), _) => {
                if let Some((ext, words)) = tgsm.region_mut(g) {
                    if let Some(line) = line {
                        let one_row = line.lanes.len() <= line.p;
                        if line.step == 1 && count == 1 && (one_row || line.row_step >= line.p) {
                            // one word per lane, rows apart: no collisions, a
                            // (masked) copy per row
                            let (v, m) = (&vals[line.lanes.clone()], &active[line.lanes.clone()]);
                            let mut i = 0;
                            for r in 0..line.lanes.len().div_ceil(line.p) {
                                let base = line.first + line.row_step * r;
                                let n = line.p.min(line.lanes.len() - i);
                                let d = &mut words[base..base + n];
                                let (v, m) = (&v[i..i + n], &m[i..i + n]);
                                if full {
                                    d.copy_from_slice(v);
                                } else {
                                    blend(d, v, m);
                                }
                                i += n;
                            }
                        } else {
                            line.each(|l, word| {
                                if active[l] != 0 {
                                    for k in 0..count as usize {
                                        words[word + k] = vals[k * w + l];
                                    }
                                }
                            });
                        }
                    } else {
                        for l in 0..w {
                            if active[l] == 0 {
                                continue;
                            }
                            for k in 0..count as usize {
                                let i = ext.word_index(sa[l], sb[l], k as u32);
                                if let Some(x) = i.and_then(|i| words.get_mut(i)) {
                                    *x = vals[k * w + l];
                                }
                            }
                        }
                    }
                }
            }
            (_, Some(view)) => {
                let apart = |l: &Line| full && l.lanes.len() <= l.p && l.step >= count as usize;
                if let Some(line) = line.as_ref().filter(|l| apart(l)) {
                    // a full warp whose lanes' dwords do not overlap, in one
                    // row: lane by lane over one slice of the buffer
                    let words = view.words();
                    let (n, count) = (line.lanes.len(), count as usize);
                    let region = &words[line.first..line.first + line.step * (n - 1) + count];
                    let chunks = region.chunks(line.step.max(1));
                    for (l, lane) in line.lanes.clone().zip(chunks) {
                        for (k, x) in lane[..count].iter().enumerate() {
                            x.store(vals[k * w + l], sim_mem::sync::Ordering::Relaxed);
                        }
                    }
                } else if let Some(line) = line {
                    let words = view.words();
                    line.each(|l, word| {
                        if active[l] != 0 {
                            for k in 0..count as usize {
                                words[word + k]
                                    .store(vals[k * w + l], sim_mem::sync::Ordering::Relaxed);
                            }
                        }
                    });
                } else {
                    // a packed warp's groups, each on its own line (a 2-D
                    // group's rows), group after group; else lane by lane
                    let n = match self.pack {
                        1 => w,
                        _ => self.prog.threads_per_group() as usize,
                    };
                    let words = view.words();
                    let per_group = ext.filter(|_| {
                        full && n < w && self.fast_paths.contains(FastPaths::MEMORY_LINES)
                    });
                    for seg in (0..w).step_by(n.max(1)) {
                        let r = seg..(seg + n).min(w);
                        let line = per_group.and_then(|e| {
                            let (a, b) = (&sa[r.clone()], &sb[r.clone()]);
                            crate::exec::kernels::affine_words_2d(e, a, b, count as u32 - 1, row)
                        });
                        match line {
                            Some((first, step, row_step)) => Line {
                                first,
                                step,
                                row_step,
                                p: row,
                                lanes: r,
                            }
                            .each(|l, word| {
                                for k in 0..count as usize {
                                    words[word + k]
                                        .store(vals[k * w + l], sim_mem::sync::Ordering::Relaxed);
                                }
                            }),
                            None => {
                                for l in r.filter(|&l| active[l] != 0) {
                                    for k in 0..count as usize {
                                        let i = view.word_index(sa[l], sb[l], k as u32);
                                        view.store(i, vals[k * w + l]);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            (_, None) => {}
        }
        sc.s[0] = ba;
        sc.s[1] = bb;
        sc.s[2] = sv;
    }
}

/// Dword `k` of the accesses of `line`'s lanes into `out` (indexed like
/// `line.lanes`), from TGSM's `words`, row by row: a row on consecutive
/// words as one copy, a row on one word as one fill. Rows of 8, 16 or 32
/// lanes (a 2-D group's) go by [`tgsm_rows_of`].
fn tgsm_rows(words: &[u32], line: &Line, k: usize, out: &mut [u32]) {
    let done = match line.p {
        8 => tgsm_rows_of::<8>(words, line, k, out),
        16 => tgsm_rows_of::<16>(words, line, k, out),
        32 => tgsm_rows_of::<32>(words, line, k, out),
        _ => false,
    };
    if done {
        return;
    }
    let step = line.step;
    for (base, out) in line.rows(out) {
        let base = base + k;
        match step {
            1 => out.copy_from_slice(&words[base..base + out.len()]),
            0 => out.fill(words[base]),
            _ => {
                for (c, o) in out.iter_mut().enumerate() {
                    *o = words[base + step * c];
                }
            }
        }
    }
}

/// [`tgsm_rows`] for whole rows of `P` lanes, each row a fixed-size array
/// (a few vector moves, where a copy of a row of unknown length is a call
/// to `memcpy`, and this code is compiled for the baseline instruction
/// set); when every row reads the same words (`row_step` 0: matmul's
/// `g1[k][x]`, read alike by each row of the tile), that row is read
/// once. False, having done nothing, when `out` is not whole rows.
#[inline(always)]
fn tgsm_rows_of<const P: usize>(words: &[u32], line: &Line, k: usize, out: &mut [u32]) -> bool {
    let (rows, rest) = out.as_chunks_mut::<P>();
    if !rest.is_empty() {
        return false;
    }
    let (step, base) = (line.step, line.first + k);
    match (line.row_step, step) {
        (0, _) => {
            let r = row_at::<P>(words, base, step);
            rows.iter_mut().for_each(|o| *o = r);
        }
        (rs, 0) => {
            for (i, o) in rows.iter_mut().enumerate() {
                *o = [words[base + rs * i]; P];
            }
        }
        (rs, 1) => {
            for (i, o) in rows.iter_mut().enumerate() {
                o.copy_from_slice(&words[base + rs * i..base + rs * i + P]);
            }
        }
        (rs, _) => {
            for (i, o) in rows.iter_mut().enumerate() {
                *o = row_at::<P>(words, base + rs * i, step);
            }
        }
    }
    true
}

/// The `P` words from `words[base]` on, `step` apart. (The general loop's
/// form in `tgsm_rows`, a copy into a row's slice, is not shared with this:
/// on rows of `P` it compiled to a `memcpy` call per row, 1.27 times
/// matmul's instructions; as a closure, not inlined, 1.38 times.)
#[inline(always)]
fn row_at<const P: usize>(words: &[u32], base: usize, step: usize) -> [u32; P] {
    match step {
        1 => {
            let mut r = [0; P];
            r.copy_from_slice(&words[base..base + P]);
            r
        }
        0 => [words[base]; P],
        _ => std::array::from_fn(|c| words[base + step * c]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tgsm_rows` (its fixed-size rows and its general loop) reads, for
    /// every lane, the word a lane-by-lane walk of the line reads: rows of
    /// 8, 16 and 32 lanes and of other widths, rows on one row of words
    /// (`row_step` 0) or on rows of their own, words consecutive, one word
    /// per row or strided, for each dword of a structure.
    #[test]
    fn tgsm_rows_read_each_lanes_word() {
        let words: Vec<u32> = (0..4096u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        let mut cases = 0;
        for p in [3, 8, 16, 32, 40] {
            for rows in [1, 2, 5] {
                for (step, row_step) in [(1, 0), (0, 0), (1, 64), (0, 16), (3, 0), (3, 128)] {
                    for k in [0, 2] {
                        let n = p * rows;
                        let line = Line {
                            first: 7,
                            step,
                            row_step,
                            p,
                            lanes: 0..n,
                        };
                        let mut want = vec![0; n];
                        line.each(|l, word| want[l] = words[word + k]);
                        let mut got = vec![!0; n];
                        tgsm_rows(&words, &line, k, &mut got);
                        assert_eq!(
                            got, want,
                            "p {p}, {rows} rows, step {step}, row step {row_step}, dword {k}"
                        );
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, 5 * 3 * 6 * 2);
    }
}
