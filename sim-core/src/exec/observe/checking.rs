//! The concurrency checker as an observer (`crate::check`): memory
//! accesses, `sync`s, barrier rounds, counters and compare-exchange
//! outcomes go to its shadow state; a screening pass first where the
//! checker screens (`FastPaths::CHECK_SCREEN`).

use crate::check::{Checker, MemOp, Space};
use crate::exec::kernels::{affine_words, ZEROS};
use crate::exec::observe::{CasLoopRun, Mem, MemKind, Observer};
use crate::exec::warp::Warp;
use crate::ir::lowered::Res;
use sim_mem::{Extent, ViewKind};

/// The checker and the scratch rows its reports use.
#[derive(Debug)]
pub(in crate::exec) struct Checking {
    /// The checker (moved in and out by the dispatcher).
    pub checker: Box<Checker>,
    /// The screen's accesses with a bounds finding: (lane, dword index).
    slow: Vec<(u32, u32)>,
    /// An instruction's (thread, word) accesses.
    items: Vec<(u32, u32)>,
    /// The lanes' first words (`sim_mem::lane_words`).
    words: Vec<u32>,
}

impl Checking {
    /// Observe with `checker`.
    pub fn new(checker: Box<Checker>) -> Self {
        Checking {
            checker,
            slow: Vec::new(),
            items: Vec::new(),
            words: Vec::new(),
        }
    }

    /// Report a memory instruction's accesses to the checker (`m`: a
    /// buffer, TGSM region or typed buffer), each lane `l`'s made
    /// `times[l]` times (None: once). SRVs are read-only; texture UAVs go
    /// through [`Checking::texture`].
    #[cold]
    fn buffer(&mut self, m: &Mem<'_, '_>, times: Option<&[u32]>) {
        let Mem {
            warp,
            pc,
            op,
            res,
            view,
            tgsm,
            a,
            b,
            ks,
            values,
            ..
        } = *m;
        let w = warp.active.len();
        let ck = &mut *self.checker;
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
            (Res::Tgsm(g), _, _) => match tgsm.placement(g) {
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
                    let mut items = std::mem::take(&mut self.items);
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
                    self.items = items;
                }
                let done = lanes.finish();
                ck.screen_done(done);
                return;
            }
            // no line, but every active lane clean and in bounds: the
            // lanes' first words at once (a loop that vectorises), then the
            // shadow lane by lane (matmul's tiles, read by rows and columns)
            let mut words = std::mem::take(&mut self.words);
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
                    let mut items = std::mem::take(&mut self.items);
                    let mut attempts = 0;
                    for l in span.clone() {
                        if warp.active[l] != 0 && times[l] != 0 {
                            for &k in ks {
                                items.push((warp.flat[l], word0(l) + k));
                            }
                            attempts += u64::from(times[l]);
                        }
                    }
                    let total = attempts * ks.len() as u64;
                    lanes.access_all(&items);
                    lanes.count_writes(total - items.len() as u64);
                    items.clear();
                    self.items = items;
                } else if lanes.direct() {
                    lanes.access_lanes(span.clone(), &warp.active, &warp.flat, ks, word0);
                } else {
                    let mut items = std::mem::take(&mut self.items);
                    for l in span.clone() {
                        if warp.active[l] != 0 {
                            for &k in ks {
                                items.push((warp.flat[l], word0(l) + k));
                            }
                        }
                    }
                    lanes.access_all(&items);
                    items.clear();
                    self.items = items;
                }
                self.words = words;
                let done = lanes.finish();
                ck.screen_done(done);
                return;
            }
            self.words = words;
            let mut slow = std::mem::take(&mut self.slow);
            let mut items = std::mem::take(&mut self.items);
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
            self.items = items;
            let done = lanes.finish();
            ck.screen_done(done);
            for &(l, i) in &slow {
                let (l, k) = (l as usize, ks[i as usize]);
                let (x, y) = (a[l], b.map_or(0, |b| b[l]));
                let value = values.map_or(0, |v| v[i as usize * w + l]);
                ck.access_prepared(&prep, op, warp.flat[l], word_at(x, y, k), (x, y, k), value);
            }
            slow.clear();
            self.slow = slow;
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

    /// Report a texture UAV access (`ld_uav_typed`, `store_uav_typed`, an
    /// atomic) to the checker: for each active lane, the texel at address
    /// (`a[lane]`, `a[W + lane]`, `a[2W + lane]`), shadowed per element of the
    /// texture's storage ([`sim_mem::TextureView::uav_element`]); `values`
    /// holds the stored x components. An unbound slot is not tracked.
    #[cold]
    fn texture(&mut self, m: &Mem<'_, '_>, slot: u32) {
        let Mem {
            warp,
            pc,
            op,
            texture,
            a,
            values,
            ..
        } = *m;
        let w = warp.active.len();
        let ck = &mut *self.checker;
        let Some(v) = texture else {
            return;
        };
        let prep = ck.prepare(pc, Space::Uav(slot));
        for l in warp.span.clone() {
            if warp.active[l] == 0 {
                continue;
            }
            let addr = [a[l], a[w + l], a[2 * w + l]];
            let value = values.map_or(0, |v| v[l]);
            let word = v.uav_element(addr);
            ck.access_prepared(&prep, op, warp.flat[l], word, (addr[0], addr[1], 0), value);
        }
    }
}

impl Observer for Checking {
    const ON: bool = true;
    const CHECKS: bool = true;
    const COUNTS_FLOW: bool = false;

    fn begin_group(&mut self, group: [u32; 3], w: usize) {
        self.checker.begin_group(group, w);
    }

    fn end_group(&mut self) {
        self.checker.end_group();
    }

    fn barrier_round(&mut self, round: &[Option<u32>]) {
        self.checker.barrier_round(round);
    }

    fn stalled(&self) -> bool {
        self.checker.stalled()
    }

    #[inline(always)]
    fn wants_accesses(&self) -> bool {
        true
    }

    fn memory(&mut self, m: &Mem<'_, '_>) {
        match (m.kind, m.res) {
            (MemKind::Texture | MemKind::Atomic, Res::UavTexture(u)) => self.texture(m, u),
            (MemKind::Texture, _) => {}
            _ => self.buffer(m, None),
        }
    }

    fn cas_outcome(&mut self, pc: u32, warp: &Warp, returned: &[u32], compared: &[u32]) {
        let w = warp.active.len();
        let (active, flat) = (&warp.active, &warp.flat);
        self.checker
            .cas_outcome(pc, active, flat, &returned[..w], &compared[..w]);
    }

    fn tracks_cas_attempts(&mut self, _cas_pc: usize) -> bool {
        true
    }

    fn cas_loop(&mut self, run: &CasLoopRun<'_, '_>) {
        // each lane's compare-exchanges on its word, as many as lockstep
        // makes
        let m = Mem {
            warp: run.warp,
            pc: run.cl.cas_pc as u32,
            kind: MemKind::Atomic,
            op: MemOp::Atomic { cas: true },
            res: run.res,
            view: Some(run.view),
            texture: None,
            tgsm: run.tgsm,
            a: run.x,
            b: run.y,
            ks: &[0],
            values: None,
        };
        self.buffer(&m, Some(run.per_lane));
    }

    fn sync(&mut self, pc: u32, warp: &Warp) {
        self.checker
            .sync(pc, &warp.active, &warp.exists, &warp.flat);
    }

    fn counter(&mut self, pc: u32, uav: u32, alloc: bool, warp: &Warp) {
        self.checker
            .counter(pc, uav, alloc, &warp.active, &warp.flat);
    }
}

/// One instruction's active lanes and address operands, for the screen's
/// per-lane loop ([`Checking::buffer`]).
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
