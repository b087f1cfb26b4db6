//! Loads and stores on UAVs, SRVs and TGSM (FS §7.14; `reference/sm5-compute-isa.md`):
//! lane by lane in lane order, or as lines (`FastPaths::MEMORY_LINES`,
//! `lines.rs`), with bounds as each view defines them.

use super::*;

/// Address of a buffer view's first word: which buffer (and range) it is.
pub(super) fn buffer_address(v: &BufferView<'_>) -> usize {
    v.words().as_ptr().addr()
}

/// Bytes of one element of a typed buffer view (16 when unknown).
pub(super) fn typed_bytes(view: Option<BufferView<'_>>) -> u64 {
    match view.map(|v| v.kind()) {
        Some(ViewKind::Typed { format }) => format.size_bytes() as u64,
        _ => 16,
    }
}

impl<'p> GroupExecutor<'p> {
    pub(super) fn view<'b>(b: &Bindings<'b>, res: Res) -> Option<BufferView<'b>> {
        match res {
            Res::Srv(s) => b.srv(s),
            Res::Uav(s) => b.uav(s),
            _ => None,
        }
    }

    /// Report a memory instruction's accesses to the checker: for each
    /// active lane, dwords `ks` at address (`a`, `b`) — byte offset; or
    /// structure index and byte offset; or a typed element — with the values
    /// stored (`values[i·W + lane]` for dword `ks[i]`). SRVs are read-only;
    /// texture UAVs go through [`Self::check_texture`].
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_mem(
        &mut self,
        warp: &Warp,
        res: Res,
        view: Option<BufferView<'_>>,
        op: MemOp,
        a: &[u32],
        b: Option<&[u32]>,
        ks: &[u32],
        values: Option<&[u32]>,
    ) {
        let pc = warp.pc as u32 - 1;
        self.check_mem_at(pc, warp, res, view, op, a, b, ks, values, None);
    }

    /// [`GroupExecutor::check_mem`] for the instruction at `pc`, each lane
    /// `l`'s access made `times[l]` times (None: once).
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_mem_at(
        &mut self,
        pc: u32,
        warp: &Warp,
        res: Res,
        view: Option<BufferView<'_>>,
        op: MemOp,
        a: &[u32],
        b: Option<&[u32]>,
        ks: &[u32],
        values: Option<&[u32]>,
        times: Option<&[u32]>,
    ) {
        let w = self.w;
        let Some(ck) = self.check.as_deref_mut() else {
            return;
        };
        let space = match (res, view) {
            (Res::Tgsm(g), _) => Space::Tgsm(g),
            (Res::Uav(u), Some(_)) => Space::Uav(u),
            (Res::Srv(t), Some(_)) => Space::Srv(t),
            _ => return,
        };
        let prep = ck.prepare(pc, space);
        // how a lane's address operands give its word, set up once: typed
        // views are shadowed per element
        #[derive(Clone, Copy)]
        enum WordOf {
            Tgsm(usize, Extent),
            Element(u32),
            View(Extent),
            Nothing,
        }
        let typed = view.filter(|v| matches!(v.kind(), ViewKind::Typed { .. }));
        let word_of = match (res, typed, view) {
            (Res::Tgsm(g), _, _) => match self.tgsm.placement(g) {
                Some((base, e)) => WordOf::Tgsm(base, e),
                None => WordOf::Nothing,
            },
            (_, Some(v), _) => WordOf::Element(v.bufinfo()),
            (_, None, Some(v)) => v.extent().map_or(WordOf::Nothing, WordOf::View),
            (_, None, None) => WordOf::Nothing,
        };
        let word_at = |x: u32, y: u32, k: u32| match word_of {
            WordOf::Tgsm(base, e) => e.word_index(x, y, k).map(|w| base + w),
            WordOf::Element(n) => (k == 0 && x < n).then_some(x as usize),
            WordOf::View(e) => e.word_index(x, y, k),
            WordOf::Nothing => None,
        };
        // the screening pass: accesses in bounds with no bounds finding go
        // to the screen at once; the others, after, in lane order. A
        // compare-exchange loop's attempts (`times`): each lane's
        // `times[l]` of them, one after another
        let screen = match ck.screening() {
            true => ck.screen_lanes(&prep, op),
            false => None,
        };
        if let Some(mut lanes) = screen {
            let span = warp.span.clone();
            let k_max = ks.iter().copied().max().unwrap_or(0);
            let bs = match b {
                Some(b) => b.get(span.clone()),
                None => ZEROS.get(..span.len()),
            };
            let sa = a.get(span.clone());
            let extent = match word_of {
                WordOf::Tgsm(base, e) => Some((base, e)),
                WordOf::View(e) => Some((0, e)),
                _ => None,
            };
            // a line: every lane's dwords in bounds at first + step·lane +
            // k, with no bounds finding (an SRV's accesses then need
            // nothing more)
            let line = match (extent, sa, bs, times) {
                (Some((base, e)), Some(sa), Some(bs), None) => affine_words(e, sa, bs, k_max)
                    .filter(|_| prep.line_clean(sa, bs, k_max))
                    .map(|(first, step)| (base + first, step)),
                _ => None,
            };
            if let Some((first, step)) = line {
                if matches!(space, Space::Srv(_)) {
                } else if lanes.direct()
                    && !ks.is_empty()
                    && step == ks.len()
                    && ks.iter().enumerate().all(|(j, &k)| k == ks[0] + j as u32)
                {
                    // consecutive words, `step` a lane (a float4 a lane)
                    let first = (first + ks[0] as usize) as u32;
                    lanes.access_run(first, step, span.clone(), &warp.active, &warp.flat);
                } else if lanes.direct() {
                    let start = span.start;
                    lanes.access_lanes(span.clone(), &warp.active, &warp.flat, ks, |l| {
                        (first + step * (l - start)) as u32
                    });
                } else {
                    let mut items = std::mem::take(&mut self.sc.check_items);
                    for l in span.clone() {
                        if warp.active[l] != 0 {
                            let at = first + step * (l - span.start);
                            for &k in ks {
                                items.push((warp.flat[l], (at + k as usize) as u32));
                            }
                        }
                    }
                    lanes.access_all(&items);
                    items.clear();
                    self.sc.check_items = items;
                }
                let done = lanes.finish();
                ck.screen_done(done);
                return;
            }
            // no line, but every active lane clean and in bounds: the
            // lanes' first words at once (a loop that vectorises), then the
            // shadow lane by lane (matmul's tiles, read by rows and columns)
            let mut words = std::mem::take(&mut self.sc.check_words);
            words.resize(w, 0);
            let table = match (extent, sa, bs) {
                (Some((base, e)), Some(sa), Some(bs)) => {
                    let found = prep.line_clean(sa, bs, k_max)
                        && sim_mem::lane_words(
                            e,
                            sa,
                            bs,
                            &warp.active[span.clone()],
                            k_max,
                            &mut words[span.clone()],
                        );
                    found.then_some(base as u32)
                }
                _ => None,
            };
            if let Some(base) = table {
                let word0 = |l: usize| base.wrapping_add(words[l]);
                if matches!(space, Space::Srv(_)) {
                } else if let Some(times) = times {
                    // a thread's access again, with no other between,
                    // changes nothing the screen keeps: once a lane, and
                    // the attempts counted for the forward-progress rule
                    let mut items = std::mem::take(&mut self.sc.check_items);
                    let mut total = 0;
                    for l in span.clone() {
                        if warp.active[l] != 0 && times[l] != 0 {
                            for &k in ks {
                                items.push((warp.flat[l], word0(l) + k));
                            }
                            total += u64::from(times[l]) * ks.len() as u64;
                        }
                    }
                    lanes.access_all(&items);
                    lanes.count_writes(total - items.len() as u64);
                    items.clear();
                    self.sc.check_items = items;
                } else if lanes.direct() {
                    lanes.access_lanes(span.clone(), &warp.active, &warp.flat, ks, word0);
                } else {
                    let mut items = std::mem::take(&mut self.sc.check_items);
                    for l in span.clone() {
                        if warp.active[l] != 0 {
                            for &k in ks {
                                items.push((warp.flat[l], word0(l) + k));
                            }
                        }
                    }
                    lanes.access_all(&items);
                    items.clear();
                    self.sc.check_items = items;
                }
                self.sc.check_words = words;
                let done = lanes.finish();
                ck.screen_done(done);
                return;
            }
            self.sc.check_words = words;
            let mut slow = std::mem::take(&mut self.sc.check_slow);
            let mut items = std::mem::take(&mut self.sc.check_items);
            // the lanes' words, with the address arithmetic chosen once: a
            // loop compiled per kind of address (`word_at` in one loop is
            // 15% slower on matmul's check)
            let lanes_in = LanesIn {
                span: warp.span.clone(),
                active: &warp.active,
                flat: &warp.flat,
                a,
                b,
                ks,
                times,
                prep: &prep,
            };
            let total = match word_of {
                WordOf::Tgsm(base, e) => lanes_in.words(&mut items, &mut slow, |x, y, k| {
                    e.word_index(x, y, k).map(|w| base + w)
                }),
                WordOf::Element(n) => lanes_in.words(&mut items, &mut slow, |x, _, k| {
                    (k == 0 && x < n).then_some(x as usize)
                }),
                WordOf::View(e) => {
                    lanes_in.words(&mut items, &mut slow, |x, y, k| e.word_index(x, y, k))
                }
                WordOf::Nothing => lanes_in.words(&mut items, &mut slow, |_, _, _| None),
            };
            lanes.access_all(&items);
            lanes.count_writes(total - items.len() as u64);
            items.clear();
            self.sc.check_items = items;
            let done = lanes.finish();
            ck.screen_done(done);
            for &(l, i) in &slow {
                let (l, k) = (l as usize, ks[i as usize]);
                let (x, y) = (a[l], b.map_or(0, |b| b[l]));
                let value = values.map_or(0, |v| v[i as usize * w + l]);
                ck.access_prepared(&prep, op, warp.flat[l], word_at(x, y, k), (x, y, k), value);
            }
            slow.clear();
            self.sc.check_slow = slow;
            return;
        }
        // the active lanes lie in the span
        for l in warp.span.clone() {
            if warp.active[l] == 0 {
                continue;
            }
            let (x, y) = (a[l], b.map_or(0, |b| b[l]));
            let n = times.map_or(1, |t| t[l]);
            for _ in 0..n {
                for (i, &k) in ks.iter().enumerate() {
                    let value = values.map_or(0, |v| v[i * w + l]);
                    let word = word_at(x, y, k);
                    ck.access_prepared(&prep, op, warp.flat[l], word, (x, y, k), value);
                }
            }
        }
    }

    /// The bounds of a raw or structured access to `res`: its TGSM region's
    /// or its raw/structured `view`'s (None: undeclared region, unbound or
    /// typed view).
    pub(super) fn bounds(&self, res: Res, view: Option<BufferView<'_>>) -> Option<Extent> {
        match res {
            Res::Tgsm(g) => self.tgsm.region(g).map(|(e, _)| e),
            _ => view.and_then(|v| v.extent()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn load(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        dst: &Dst,
        a: &Src,
        off: Option<&Src>,
        res: Res,
        swz: [u8; 4],
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut self.sc.s[0]);
        let mut bb = std::mem::take(&mut self.sc.s[1]);
        let mut r = std::mem::take(&mut self.sc.r);
        let wr: &Warp = warp;
        let sa = self.operand(wr, b, a, 0, &mut ba);
        let sb: &[u32] = match off {
            Some(off) => self.operand(wr, b, off, 0, &mut bb),
            None => zeros(w, &mut bb),
        };
        // The memory kind and bounds are decided once per instruction, not per lane.
        let view = Self::view(b, res);
        if self.check.is_some() {
            let mut ks = [0u32; 4];
            let mut n = 0;
            for c in 0..4 {
                if dst.mask & (1 << c) != 0 {
                    ks[n] = swz[c] as u32;
                    n += 1;
                }
            }
            self.check_mem(wr, res, view, MemOp::Read, sa, Some(sb), &ks[..n], None);
        }
        if self.prof.is_some() {
            let bytes = 4 * (dst.mask & 0xf).count_ones() as u64;
            self.profile_mem(wr, res, bytes, false, false);
            if self.prof_lines {
                let mut ks = [0u32; 4];
                let mut n = 0;
                for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                    ks[n] = swz[c] as u32;
                    n += 1;
                }
                let ext = self.bounds(res, view);
                self.profile_lines(wr, res, ext, sa, sb, &ks[..n]);
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
        let tgsm = match res {
            Res::Tgsm(g) => self.tgsm.region(g),
            _ => None,
        };
        let ext = self.bounds(res, view);
        let row = self.prog.thread_group[0] as usize;
        let steps = self.facts_here(wr).addr;
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                k_max,
                row,
                steps,
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
                self.sc.s[0] = ba;
                self.sc.s[1] = bb;
                self.sc.r = r;
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
                    let Some((ext, words)) = tgsm else {
                        out.fill(0);
                        continue;
                    };
                    if let Some(line) = &line {
                        let (k, step) = (k as usize, line.step);
                        for (base, out) in line.rows(&mut out[line.lanes.clone()]) {
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
        self.sc.s[0] = ba;
        self.sc.s[1] = bb;
        self.sc.r = r;
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        warp: &mut Warp,
        b: &Bindings<'_>,
        res: Res,
        count: u8,
        a: &Src,
        off: Option<&Src>,
        value: &Src,
    ) {
        let w = self.w;
        let mut ba = std::mem::take(&mut self.sc.s[0]);
        let mut bb = std::mem::take(&mut self.sc.s[1]);
        let mut sv = std::mem::take(&mut self.sc.s[2]);
        let wr: &Warp = warp;
        let sa = self.operand(wr, b, a, 0, &mut ba);
        let sb: &[u32] = match off {
            Some(off) => self.operand(wr, b, off, 0, &mut bb),
            None => zeros(w, &mut bb),
        };
        let view = Self::view(b, res);
        if self.prof.is_some() {
            self.profile_mem(wr, res, 4 * count as u64, true, false);
            if self.prof_lines {
                let ext = self.bounds(res, view);
                let ks = [0, 1, 2, 3];
                self.profile_lines(wr, res, ext, sa, sb, &ks[..count as usize]);
            }
        }
        // A coalesced or uniform store skips the per-lane bounds arithmetic
        // (`line`); the order stays lane by lane, each lane's dwords in
        // order, so a later lane wins a collision.
        let full = wr.full;
        let ext = self.bounds(res, view);
        let row = self.prog.thread_group[0] as usize;
        let steps = self.facts_here(wr).addr;
        let line = ext.and_then(|e| {
            line_of(
                self.fast_paths.contains(FastPaths::MEMORY_LINES),
                wr,
                e,
                (sa, sb),
                count as u32 - 1,
                row,
                steps,
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
            (&line, view, direct, full, self.check.as_ref())
        {
            let (n, count) = (line.lanes.len(), count as usize);
            if !matches!(res, Res::Tgsm(_)) && (2..=line.p).contains(&n) && line.step >= count {
                let rows = &wr.regs[reg * 4 * w..(reg * 4 + count) * w];
                store_line(v.words(), line.first, line.step, n, rows, w);
                self.sc.s[0] = ba;
                self.sc.s[1] = bb;
                self.sc.s[2] = sv;
                return;
            }
        }
        self.fetch(wr, b, value, (1u8 << count) - 1, &mut sv);
        if self.check.is_some() {
            let ks = [0, 1, 2, 3];
            let ks = &ks[..count as usize];
            self.check_mem(wr, res, view, MemOp::Write, sa, Some(sb), ks, Some(&sv));
        }
        let active = &wr.active;
        match (res, view) {
            (Res::Tgsm(g), _) => {
                if let Some((ext, words)) = self.tgsm.region_mut(g) {
                    if let Some(line) = line {
                        let one_row = line.lanes.len() <= line.p;
                        if line.step == 1 && count == 1 && (one_row || line.row_step >= line.p) {
                            // one word per lane, rows apart: no collisions, a
                            // (masked) copy per row
                            let (v, m) = (&sv[line.lanes.clone()], &active[line.lanes.clone()]);
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
                                        words[word + k] = sv[k * w + l];
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
                                    *x = sv[k * w + l];
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
                            x.store(sv[k * w + l], sim_mem::sync::Ordering::Relaxed);
                        }
                    }
                } else if let Some(line) = line {
                    let words = view.words();
                    line.each(|l, word| {
                        if active[l] != 0 {
                            for k in 0..count as usize {
                                words[word + k]
                                    .store(sv[k * w + l], sim_mem::sync::Ordering::Relaxed);
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
                            sim_mem::affine_words_2d(e, a, b, count as u32 - 1, row)
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
                                        .store(sv[k * w + l], sim_mem::sync::Ordering::Relaxed);
                                }
                            }),
                            None => {
                                for l in r.filter(|&l| active[l] != 0) {
                                    for k in 0..count as usize {
                                        let i = view.word_index(sa[l], sb[l], k as u32);
                                        view.store(i, sv[k * w + l]);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            (_, None) => {}
        }
        self.sc.s[0] = ba;
        self.sc.s[1] = bb;
        self.sc.s[2] = sv;
    }
}

/// One instruction's active lanes and address operands, for the screen's
/// per-lane loop ([`GroupExecutor::check_mem_at`]).
struct LanesIn<'a> {
    span: std::ops::Range<usize>,
    active: &'a [u32],
    flat: &'a [u32],
    a: &'a [u32],
    b: Option<&'a [u32]>,
    ks: &'a [u32],
    /// a compare-exchange loop's attempts per lane
    times: Option<&'a [u32]>,
    prep: &'a crate::check::Prepared,
}

impl LanesIn<'_> {
    /// Each active lane's (thread, word) for dwords `ks` by `word_at`, in
    /// lane order, into `items`; a (lane, dword index) with a bounds finding
    /// or no word into `slow`. With `times` (a compare-exchange loop's
    /// attempts), a lane's access in bounds goes in once (the screen's
    /// rules give the same for a thread's access again, with no other
    /// access between), one with a bounds finding `times[l]` times, and a
    /// lane with no attempt not at all. Returns how many accesses in
    /// bounds `items` stands for.
    #[inline(always)]
    fn words(
        &self,
        items: &mut Vec<(u32, u32)>,
        slow: &mut Vec<(u32, u32)>,
        word_at: impl Fn(u32, u32, u32) -> Option<usize>,
    ) -> u64 {
        // no lane with a bounds finding (folds over the span): only the
        // words out of bounds go the slow way
        let k_max = self.ks.iter().copied().max().unwrap_or(0);
        let bs = match self.b {
            Some(b) => b.get(self.span.clone()),
            None => ZEROS.get(..self.span.len()),
        };
        let clean =
            bs.is_some_and(|bs| self.prep.line_clean(&self.a[self.span.clone()], bs, k_max));
        let mut total = 0;
        for l in self.span.clone() {
            let n = self.times.map_or(1, |t| t[l]);
            if self.active[l] == 0 || n == 0 {
                continue;
            }
            let (x, y) = (self.a[l], self.b.map_or(0, |b| b[l]));
            for (i, &k) in self.ks.iter().enumerate() {
                match word_at(x, y, k) {
                    Some(word) if clean || self.prep.bounds_flags((x, y, k)) == (false, false) => {
                        items.push((self.flat[l], word as u32));
                        total += u64::from(n);
                    }
                    _ => slow.extend(std::iter::repeat_n((l as u32, i as u32), n as usize)),
                }
            }
        }
        total
    }
}
