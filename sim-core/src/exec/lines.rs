//! Memory lines: the words a warp's active lanes access when their
//! addresses step by a known stride (a coalesced, uniform or tiled access),
//! moved as a whole ([`FastPaths::MEMORY_LINES`](super::FastPaths::MEMORY_LINES)) instead of one word per
//! lane; packed 16-byte structures four lanes at a time in SSE2 registers.

use crate::analysis::affine::{AddressSteps, GridSteps};
use crate::exec::warp::Warp;
use crate::ir::lowered::Res;
use sim_mem::{BufferView, Extent, Tgsm, ViewKind};

/// The words of a coalesced, uniform or tiled access by the active lanes, in
/// bounds: lane `lanes.start + i`'s dword `k` is word
/// `first + step·c + row_step·r + k` for `i = r·p + c` (one row of all the
/// lanes for a 1-D line; [`Line::each`]).
#[derive(Debug, Clone)]
pub(super) struct Line {
    pub(super) first: usize,
    pub(super) step: usize,
    pub(super) row_step: usize,
    /// lanes per row
    pub(super) p: usize,
    /// from the first to the last active lane (inactive ones between them
    /// included: their words are in bounds too, and their values unused)
    pub(super) lanes: std::ops::Range<usize>,
}

impl Line {
    /// `f(lane, word of its dword 0)` for every lane of `lanes`, in lane
    /// order, row by row (no division per lane).
    #[inline(always)]
    pub(super) fn each(&self, mut f: impl FnMut(usize, usize)) {
        let mut row = self.first;
        let mut l = self.lanes.start;
        while l < self.lanes.end {
            let end = (l + self.p).min(self.lanes.end);
            let mut word = row;
            for lane in l..end {
                f(lane, word);
                word += self.step;
            }
            row += self.row_step;
            l = end;
        }
    }

    /// Row by row: the row's first word and its lanes' part of `xs`
    /// (indexed like `lanes`).
    #[inline]
    pub(super) fn rows<'a, T>(
        &self,
        xs: &'a mut [T],
    ) -> impl Iterator<Item = (usize, &'a mut [T])> {
        let (first, row_step) = (self.first, self.row_step);
        xs.chunks_mut(self.p)
            .enumerate()
            .map(move |(r, x)| (first + row_step * r, x))
    }
}

/// The [`Line`] of an access at (`a[l]`, `b[l]`) by `warp`'s active lanes,
/// dwords `0..=k_max`: [`sim_mem::affine_words`] over the lanes from the
/// first active one to the last; failing that, for a full warp,
/// [`sim_mem::affine_words_2d`] in rows of `row` lanes (the thread group's
/// width, so that a 2-D group's tile accesses qualify). `None` when neither
/// holds, or no lane is active.
///
/// With `steps` (the address operands' steps per `SV_GroupIndex`,
/// `crate::analysis::affine`) on a warp whose lanes are in `SV_GroupIndex` order, the
/// line comes from the first active lane's address and the steps in O(1)
/// ([`sim_mem::affine_line`]) instead of from every lane's values; with
/// `grid` (the steps per `SV_GroupThreadID.x` and `.y` of a 2-D group's
/// access, `crate::analysis::affine`) on a full warp of whole rows in that
/// order, the grid comes from the first lane's address in O(1)
/// ([`sim_mem::affine_grid`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn line_of(
    on: bool,
    warp: &Warp,
    ext: Extent,
    (a, b): (&[u32], &[u32]),
    k_max: u32,
    row: usize,
    steps: Option<AddressSteps>,
    grid: Option<GridSteps>,
) -> Option<Line> {
    let lanes = if !on {
        // the fast path is switched off (`FastPaths::MEMORY_LINES`)
        return None;
    } else if warp.full {
        0..a.len()
    } else if warp.span.is_empty() {
        return None;
    } else {
        warp.span.clone()
    };
    if let Some((da, db)) = steps.filter(|_| warp.linear) {
        let (a0, b0) = (a[lanes.start], b[lanes.start]);
        debug_assert!(
            lanes.clone().zip(0u32..).all(|(l, i)| warp.active[l] == 0
                || (a[l] == a0.wrapping_add(da.wrapping_mul(i))
                    && b[l] == b0.wrapping_add(db.wrapping_mul(i)))),
            "an address operand is off its lane-linear form"
        );
        let raw = ext.stride == 0;
        // dropping the low two bits keeps a line whose step is whole dwords
        if (!raw || da.is_multiple_of(4)) && (raw || db.is_multiple_of(4)) {
            let a0 = if raw { a0 & !3 } else { a0 };
            let n = lanes.len();
            if let Some((first, step)) =
                sim_mem::affine_line(ext, (a0, da), (b0 & !3, db), n, k_max)
            {
                return Some(Line {
                    first,
                    step,
                    row_step: 0,
                    p: n,
                    lanes,
                });
            }
        }
    }
    let n = a.len();
    if let Some(((ax, ay), (bx, by))) =
        grid.filter(|_| warp.full && warp.linear && row >= 2 && n > row && n.is_multiple_of(row))
    {
        let (a0, b0) = (a[0], b[0]);
        debug_assert!(
            (0..n).all(|l| {
                let (c, r) = ((l % row) as u32, (l / row) as u32);
                a[l] == a0
                    .wrapping_add(ax.wrapping_mul(c))
                    .wrapping_add(ay.wrapping_mul(r))
                    && b[l]
                        == b0
                            .wrapping_add(bx.wrapping_mul(c))
                            .wrapping_add(by.wrapping_mul(r))
            }),
            "an address operand is off its grid"
        );
        let raw = ext.stride == 0;
        // dropping the low two bits keeps a grid whose steps are whole dwords
        let whole = |x: u32, y: u32| x.is_multiple_of(4) && y.is_multiple_of(4);
        if (!raw || whole(ax, ay)) && (raw || whole(bx, by)) {
            let a0 = if raw { a0 & !3 } else { a0 };
            if let Some((first, step, row_step)) =
                sim_mem::affine_grid(ext, (a0, ax, ay), (b0 & !3, bx, by), row, n / row, k_max)
            {
                return Some(Line {
                    first,
                    step,
                    row_step,
                    p: row,
                    lanes,
                });
            }
        }
    }
    let (sa, sb) = (&a[lanes.clone()], &b[lanes.clone()]);
    if let Some((first, step)) = crate::exec::kernels::affine_words(ext, sa, sb, k_max) {
        let p = lanes.len();
        return Some(Line {
            first,
            step,
            row_step: 0,
            p,
            lanes,
        });
    }
    if !warp.full {
        return None;
    }
    let (first, step, row_step) = crate::exec::kernels::affine_words_2d(ext, sa, sb, k_max, row)?;
    Some(Line {
        first,
        step,
        row_step,
        p: row,
        lanes,
    })
}

/// Four lanes' 16-byte structures at a time between a buffer and four rows,
/// transposed in SSE2 registers (x86-64's baseline): a vector load or store
/// per lane and eight shuffles per four lanes, where word by word it is four
/// loads and four stores per lane.
///
/// The buffer's words are `AtomicU32`s other threads may access at the same
/// time, so a compiler's vector load of them would be a data race; the
/// loads and stores here are inline assembly instead, whose effect is that
/// of the x86 instruction. The Intel SDM (vol. 3A, "Guaranteed Atomic
/// Operations") makes an aligned doubleword access atomic and lets an SSE
/// access wider than a quadword be carried out as several accesses; x86
/// processors split such an access at element or cache-line boundaries,
/// both 4-byte aligned here, never inside a doubleword. So each movdqu is
/// four relaxed atomic loads (stores) of the four words, in some order,
/// which is what the word-by-word code does: lanes here never share a word
/// (step 4, or step 1 for one component), and relaxed accesses to
/// different words have no order to keep. This is the one place
/// `sim-core` relies on the hardware beyond Rust's memory model; the loom build (`--cfg loom`) and other
/// architectures take the word-by-word code.
#[cfg(all(target_arch = "x86_64", not(loom)))]
mod quad {
    use sim_mem::sync::AtomicU32;
    use std::arch::asm;
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
        _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    };

    /// The four doublewords of `q` as four relaxed atomic loads (see the module).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn load(q: &[AtomicU32; 4]) -> __m128i {
        let v: __m128i;
        // SAFETY: `q` is a live reference to 16 bytes of `AtomicU32`s, each
        // 4-byte aligned; the block only reads them (`readonly`), touches no
        // stack and no flags, and each doubleword it reads is one atomic
        // access, as a relaxed `AtomicU32::load` is (module docs).
        unsafe {
            asm!(
                "movdqu {v}, xmmword ptr [{p}]",
                p = in(reg) q.as_ptr(),
                v = lateout(xmm_reg) v,
                options(nostack, preserves_flags, readonly, pure),
            );
        }
        v
    }

    /// `v`'s four doublewords into `q` as four relaxed atomic stores.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn store(q: &[AtomicU32; 4], v: __m128i) {
        // SAFETY: as in `load`: `q` is a live reference to four 4-byte-aligned
        // `AtomicU32`s (shared references permit atomic stores), and each
        // doubleword written is one atomic access, as a relaxed
        // `AtomicU32::store` is.
        unsafe {
            asm!(
                "movdqu xmmword ptr [{p}], {v}",
                p = in(reg) q.as_ptr(),
                v = in(xmm_reg) v,
                options(nostack, preserves_flags),
            );
        }
    }

    /// `[x, y, z, w]` of four lanes ↔ four lanes' `x`, `y`, `z`, `w`: the
    /// transpose is its own inverse.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn transpose(a: __m128i, b: __m128i, c: __m128i, d: __m128i) -> [__m128i; 4] {
        // SAFETY: SSE2 is part of x86-64's baseline, so its shuffles run on
        // every CPU this code is compiled for.
        unsafe {
            let (t0, t1) = (_mm_unpacklo_epi32(a, b), _mm_unpacklo_epi32(c, d));
            let (t2, t3) = (_mm_unpackhi_epi32(a, b), _mm_unpackhi_epi32(c, d));
            [
                _mm_unpacklo_epi64(t0, t1),
                _mm_unpackhi_epi64(t0, t1),
                _mm_unpacklo_epi64(t2, t3),
                _mm_unpackhi_epi64(t2, t3),
            ]
        }
    }

    /// Lanes `0..4k` (the whole fours of `quads`) into the rows; returns
    /// `4k`, the lanes done.
    #[allow(unsafe_code)]
    pub(super) fn load_rows(quads: &[[AtomicU32; 4]], rows: [&mut [u32]; 4]) -> usize {
        let n = quads.len() / 4 * 4;
        let [r0, r1, r2, r3] = rows;
        let (r0, r1, r2, r3) = (&mut r0[..n], &mut r1[..n], &mut r2[..n], &mut r3[..n]);
        for (l, q) in quads[..n].chunks_exact(4).enumerate() {
            let t = transpose(load(&q[0]), load(&q[1]), load(&q[2]), load(&q[3]));
            let at = 4 * l;
            for (row, v) in [&mut *r0, &mut *r1, &mut *r2, &mut *r3].into_iter().zip(t) {
                let out = &mut row[at..at + 4];
                // SAFETY: `out` is four exclusively borrowed `u32`s (16
                // bytes; `storeu` needs no alignment); SSE2 is baseline.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) };
            }
        }
        n
    }

    /// Consecutive words, four at a time: `quads`' words into `row` (as
    /// long as `quads` has words); returns the words done.
    #[allow(unsafe_code)]
    pub(super) fn load_words(quads: &[[AtomicU32; 4]], row: &mut [u32]) -> usize {
        let n = quads.len().min(row.len() / 4);
        for (q, out) in quads[..n].iter().zip(row.chunks_exact_mut(4)) {
            // SAFETY: `out` is four exclusively borrowed `u32`s (16 bytes;
            // `storeu` needs no alignment); SSE2 is baseline.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), load(q)) };
        }
        4 * n
    }

    /// The rows' lanes `0..4k` (the whole fours of `quads`) into `quads`;
    /// returns `4k`, the lanes done.
    #[allow(unsafe_code)]
    pub(super) fn store_rows(quads: &[[AtomicU32; 4]], rows: [&[u32]; 4]) -> usize {
        let n = quads.len() / 4 * 4;
        let row = |r: &[u32], at: usize| {
            let r = &r[at..at + 4];
            // SAFETY: `r` is four `u32`s (16 bytes, no alignment needed);
            // SSE2 is baseline.
            unsafe { _mm_loadu_si128(r.as_ptr().cast()) }
        };
        for (l, q) in quads[..n].chunks_exact(4).enumerate() {
            let at = 4 * l;
            let [r0, r1, r2, r3] = rows;
            let t = transpose(row(r0, at), row(r1, at), row(r2, at), row(r3, at));
            for (q, v) in q.iter().zip(t) {
                store(q, v);
            }
        }
        n
    }
}

/// Elsewhere (other architectures, the loom build) no lane is done four at
/// a time: the callers go word by word.
#[cfg(not(all(target_arch = "x86_64", not(loom))))]
mod quad {
    use sim_mem::sync::AtomicU32;

    pub(super) fn load_rows(_: &[[AtomicU32; 4]], _: [&mut [u32]; 4]) -> usize {
        0
    }

    pub(super) fn load_words(_: &[[AtomicU32; 4]], _: &mut [u32]) -> usize {
        0
    }

    pub(super) fn store_rows(_: &[[AtomicU32; 4]], _: [&[u32]; 4]) -> usize {
        0
    }
}

/// `out.len()` consecutive words of `words` from its first into `out`,
/// four at a time where SSE2 is there (`quad::load_words`), then word by
/// word: one row of a line whose step is one word.
pub(super) fn load_row(words: &[sim_mem::sync::AtomicU32], out: &mut [u32]) {
    let words = &words[..out.len()];
    let done = quad::load_words(words.as_chunks::<4>().0, out);
    for (o, x) in out[done..].iter_mut().zip(&words[done..]) {
        *o = x.load(sim_mem::sync::Ordering::Relaxed);
    }
}

/// Dwords `swz[c]` of `n` lanes' accesses at words `first + step·l` of
/// `words`, into the `w`-word rows `c` of `rows` (a temp's four components)
/// for the components `c` in `mask`; every word in bounds (a [`Line`]). With
/// all four components in order and `step ≥ 4`, one pass lane by lane; at
/// `step` 4 (packed 16-byte structures) four lanes at a time (`quad`); at
/// `step` 1 (a word per lane, consecutive) a component four lanes at a
/// time (`quad::load_words`).
#[allow(clippy::too_many_arguments)]
pub(super) fn load_line(
    words: &[sim_mem::sync::AtomicU32],
    first: usize,
    step: usize,
    n: usize,
    mask: u8,
    swz: [u8; 4],
    rows: &mut [u32],
    w: usize,
) {
    use sim_mem::sync::Ordering::Relaxed;
    let k_max = swz.iter().copied().max().unwrap_or(0) as usize;
    let region = &words[first..first + step * (n - 1) + k_max + 1];
    if mask & 0xf == 0xf && swz == [0, 1, 2, 3] && step >= 4 {
        let (r0, rest) = rows.split_at_mut(w);
        let (r1, rest) = rest.split_at_mut(w);
        let (r2, r3) = rest.split_at_mut(w);
        let (r0, r1, r2, r3) = (&mut r0[..n], &mut r1[..n], &mut r2[..n], &mut r3[..n]);
        // packed 16-byte structures: four lanes at a time, then lane by lane
        let done = match step {
            4 => quad::load_rows(region.as_chunks::<4>().0, [r0, r1, r2, r3]),
            _ => 0,
        };
        for (l, q) in region.chunks(step).enumerate().skip(done) {
            let q = &q[..4];
            (r0[l], r1[l], r2[l], r3[l]) = (
                q[0].load(Relaxed),
                q[1].load(Relaxed),
                q[2].load(Relaxed),
                q[3].load(Relaxed),
            );
        }
        return;
    }
    for c in (0..4).filter(|c| mask & (1 << c) != 0) {
        let row = &mut rows[c * w..c * w + n];
        let words = &region[swz[c] as usize..];
        match step {
            0 => row.fill(words[0].load(Relaxed)),
            1 => load_row(words, row),
            _ => {
                for (o, q) in row.iter_mut().zip(words.chunks(step)) {
                    *o = q[0].load(Relaxed);
                }
            }
        }
    }
}

/// Store `rows.len() / w` dwords per lane for `n` lanes, dword `k` of lane
/// `l` from `rows[k·w + l]`, at words `first + step·l + k` of `words`
/// (`step` ≥ the dwords per lane, so that lanes do not overlap; every word in
/// bounds: a [`Line`]), lane by lane; packed 16-byte structures four lanes
/// at a time (`quad`).
pub(super) fn store_line(
    words: &[sim_mem::sync::AtomicU32],
    first: usize,
    step: usize,
    n: usize,
    rows: &[u32],
    w: usize,
) {
    use sim_mem::sync::Ordering::Relaxed;
    let count = rows.len() / w;
    let region = &words[first..first + step * (n - 1) + count];
    match count {
        4 => {
            let (r0, rest) = rows.split_at(w);
            let (r1, rest) = rest.split_at(w);
            let (r2, r3) = rest.split_at(w);
            let (r0, r1, r2, r3) = (&r0[..n], &r1[..n], &r2[..n], &r3[..n]);
            // packed 16-byte structures: four lanes at a time, then lane by lane
            let done = match step {
                4 => quad::store_rows(region.as_chunks::<4>().0, [r0, r1, r2, r3]),
                _ => 0,
            };
            for (l, q) in region.chunks(step).enumerate().skip(done) {
                let q = &q[..4];
                q[0].store(r0[l], Relaxed);
                q[1].store(r1[l], Relaxed);
                q[2].store(r2[l], Relaxed);
                q[3].store(r3[l], Relaxed);
            }
        }
        1 => {
            for (q, &x) in region.chunks(step).zip(&rows[..n]) {
                q[0].store(x, Relaxed);
            }
        }
        _ => {
            for (l, q) in region.chunks(step).enumerate().take(n) {
                for (k, x) in q[..count].iter().enumerate() {
                    x.store(rows[k * w + l], Relaxed);
                }
            }
        }
    }
}

/// Bytes of one element of a typed buffer view (16 when unknown).
pub(super) fn typed_bytes(view: Option<BufferView<'_>>) -> u64 {
    match view.map(|v| v.kind()) {
        Some(ViewKind::Typed { format }) => format.size_bytes() as u64,
        _ => 16,
    }
}

/// The shortest period `p` (a power of two below the warp's width that
/// divides it) with which a full warp's addresses repeat: lane `l + p`'s
/// (`a`, `b`) are lane `l`'s for every lane. None for a partial warp, or
/// where none repeats.
pub(super) fn address_period(warp: &Warp, (a, b): (&[u32], &[u32])) -> Option<usize> {
    let n = a.len();
    if !warp.full || n < 2 {
        return None;
    }
    let mut p = 1;
    while p < n {
        if n % p == 0 && (p..n).all(|l| a[l] == a[l - p] && b[l] == b[l - p]) {
            return Some(p);
        }
        p *= 2;
    }
    None
}

/// The bounds of a raw or structured access to `res`: its TGSM region's or
/// its raw/structured `view`'s (None: undeclared region, unbound or typed
/// view).
pub(in crate::exec) fn bounds(
    tgsm: &Tgsm,
    res: Res,
    view: Option<BufferView<'_>>,
) -> Option<Extent> {
    match res {
        Res::Tgsm(g) => tgsm.region(g).map(|(e, _)| e),
        _ => view.and_then(|v| v.extent()),
    }
}
