//! Address arithmetic and bounds rules for raw and structured accesses, shared
//! by UAVs, SRVs and TGSM regions.
//!
//! Rules (`reference/sm5-compute-isa.md` §11.1, §14), with the deterministic
//! choices this simulator makes where D3D says "undefined":
//! - Addresses are computed in 64 bits, so no index can wrap into range.
//! - The low two bits of a byte offset are ignored (what hardware does for
//!   unaligned raw/structured addresses; D3D calls the contents undefined).
//! - Bounds are checked per dword against the view (or TGSM region): a dword
//!   outside reads 0 and its write is dropped, while the in-range dwords of
//!   the same access proceed.
//! - Structured, `index ≥ number of structures`: every dword reads 0 and no
//!   write happens (defined by D3D).
//! - Structured, index in range but `byte offset + 4k ≥ stride`: D3D makes the
//!   whole resource undefined. We choose DXVK's and vkd3d's robust-access
//!   behaviour: the dword is accessed at its flat address
//!   `stride·index + offset + 4k` when that lies inside the view, else it
//!   reads 0 / is dropped. Nothing outside the view or region is ever touched.

/// Word index (relative to the view or region start) of dword `k` of a raw
/// access at `byte_offset`, or `None` when that dword lies outside the
/// `size_bytes`-byte view.
#[inline]
pub fn raw_word_index(size_bytes: u64, byte_offset: u32, k: u32) -> Option<usize> {
    let addr = (byte_offset & !3) as u64 + 4 * k as u64;
    (addr + 4 <= size_bytes).then_some((addr / 4) as usize)
}

/// Word index of dword `k` of a structured access to structure `index` at
/// `byte_offset` within it, or `None` when the access reads 0 / is dropped.
/// `stride` is in bytes (a nonzero multiple of 4); the view holds
/// `size_bytes / stride` structures.
#[inline]
pub fn structured_word_index(
    size_bytes: u64,
    stride: u32,
    index: u32,
    byte_offset: u32,
    k: u32,
) -> Option<usize> {
    // index < size / stride, without a division: (index + 1)·stride ≤ size
    if stride == 0 || (index as u64 + 1) * stride as u64 > size_bytes {
        return None;
    }
    let addr = stride as u64 * index as u64 + (byte_offset & !3) as u64 + 4 * k as u64;
    (addr + 4 <= size_bytes).then_some((addr / 4) as usize)
}

/// The bounds of a raw view or region (`stride` 0) or a structured one, so
/// that the per-lane address arithmetic of an access can be set up once per
/// instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// Size in bytes.
    pub size_bytes: u64,
    /// Structure stride in bytes; 0 for raw.
    pub stride: u32,
}

impl Extent {
    /// Word index of dword `k` at (`a`, `b`): [`raw_word_index`] of byte
    /// offset `a` for a raw extent, [`structured_word_index`] of structure
    /// `a` at byte offset `b` for a structured one.
    #[inline]
    pub fn word_index(self, a: u32, b: u32, k: u32) -> Option<usize> {
        if self.stride == 0 {
            raw_word_index(self.size_bytes, a, k)
        } else {
            structured_word_index(self.size_bytes, self.stride, a, b, k)
        }
    }
}

/// When the word indices of an access by lanes `0..n` at (`a[l]`, `b[l]`)
/// (as for [`Extent::word_index`]) lie on a line, `first + step·l` with
/// `step ≥ 0` words, and every dword `0..=k_max` of every lane is in bounds,
/// returns `(first, step)`: the lanes' dword `k` is then word
/// `first + step·l + k`, exactly as [`Extent::word_index`] would give. `None`
/// otherwise (the caller goes lane by lane). One pass over the lanes; this is
/// how a coalesced or uniform access skips the per-lane bounds arithmetic.
#[inline(always)]
pub fn affine_words(ext: Extent, a: &[u32], b: &[u32], k_max: u32) -> Option<(usize, usize)> {
    let n = a.len().min(b.len());
    if n == 0 {
        return None;
    }
    let (a, b) = (&a[..n], &b[..n]);
    let raw = ext.stride == 0;
    let lo = if raw { !3 } else { !0 };
    // Each of a (masked for raw) and b & !3 must be a0 + da·l without
    // wrapping: checked in u32 (a loop that vectorises), then the ends in u64.
    let (a0, b0) = (a[0] & lo, b[0] & !3);
    let (da, db) = if n > 1 {
        ((a[1] & lo).wrapping_sub(a0), (b[1] & !3).wrapping_sub(b0))
    } else {
        (0, 0)
    };
    // scattered accesses usually fail on the last lane: no pass for them
    let span32 = (n - 1) as u32;
    if (a[n - 1] & lo) != a0.wrapping_add(da.wrapping_mul(span32))
        || (!raw && (b[n - 1] & !3) != b0.wrapping_add(db.wrapping_mul(span32)))
    {
        return None;
    }
    // the bits by which the lanes are off the line, or-ed: one loop per
    // kind of extent, without a branch, so that each vectorises
    let mut off = 0u32;
    let (mut ai, mut bi) = (a0, b0);
    if raw {
        for &x in a {
            off |= (x & lo) ^ ai;
            ai = ai.wrapping_add(da);
        }
    } else {
        for (&x, &y) in a.iter().zip(b) {
            off |= (x ^ ai) | ((y & !3) ^ bi);
            ai = ai.wrapping_add(da);
            bi = bi.wrapping_add(db);
        }
    }
    if off != 0 {
        return None;
    }
    affine_line(ext, (a0, da), (b0, db), n, k_max)
}

/// Each lane's word of dword 0, for lanes that lie on no line: for every
/// lane `l` with `active[l] != 0`, `out[l]` becomes the word index that
/// [`Extent::word_index`]`(a[l], b[l], 0)` gives (dword `k` is then word
/// `out[l] + k`), when every such lane's dwords `0..=k_max` are in bounds
/// and, for a structured extent, within the lane's structure. Returns
/// `false` otherwise, and `out` is then unspecified (the caller goes lane
/// by lane); the other lanes' entries are unspecified too. The slices are
/// taken as long as the shortest. One pass of compares or-ed together (a
/// loop that vectorises); a structured access whose dwords pass its
/// structure's end, which [`Extent::word_index`] may still place in the
/// next structure, gets `false`.
#[inline]
pub fn lane_words(
    ext: Extent,
    a: &[u32],
    b: &[u32],
    active: &[u32],
    k_max: u32,
    out: &mut [u32],
) -> bool {
    let n = a.len().min(b.len()).min(active.len()).min(out.len());
    let (a, b, active, out) = (&a[..n], &b[..n], &active[..n], &mut out[..n]);
    let tail = 4 * k_max as u64 + 4;
    // every word index below 2^32
    if ext.size_bytes / 4 > u32::MAX as u64 + 1 {
        return false;
    }
    let mut bad = 0u32;
    if ext.stride == 0 {
        // dword 0 at (x & !3) / 4 for x ≤ lim
        let Some(lim) = ext.size_bytes.checked_sub(tail) else {
            return false;
        };
        let lim = lim.min(u32::MAX as u64) as u32;
        for ((&x, &on), o) in a.iter().zip(active).zip(out.iter_mut()) {
            let x = x & !3;
            bad |= u32::from(on != 0) & u32::from(x > lim);
            *o = x >> 2;
        }
        return bad == 0;
    }
    let stride = ext.stride as u64;
    if !stride.is_multiple_of(4) || stride < tail {
        return false;
    }
    // structure x < count, its dwords at offsets (y & !3) ≤ y_lim
    let count = (ext.size_bytes / stride).min(u32::MAX as u64) as u32;
    let (per, y_lim) = (ext.stride / 4, (stride - tail) as u32);
    for (((&x, &y), &on), o) in a.iter().zip(b).zip(active).zip(out.iter_mut()) {
        let y = y & !3;
        bad |= u32::from(on != 0) & (u32::from(x >= count) | u32::from(y > y_lim));
        *o = x.wrapping_mul(per).wrapping_add(y >> 2);
    }
    bad == 0
}

/// [`affine_words`] for lanes whose values are known to lie on a line:
/// lane `l` of `0..n` (`n ≥ 1`) accesses (`a0 + da·l`, `b0 + db·l`), each
/// computed in u32, where `a0` (for a raw extent) and `b0` have their low two
/// bits clear and `da`, `db` are their steps. Returns `(first, step)` as
/// `affine_words` would for these lanes; `None` when a value wraps past
/// `u32::MAX` along the line or a dword `0..=k_max` of some lane is out of
/// bounds. O(1): the executor uses it when it has derived an address
/// operand's line from the program (`sim_core`'s lane-linear forms) instead
/// of checking the lanes one by one.
pub fn affine_line(
    ext: Extent,
    (a0, da): (u32, u32),
    (b0, db): (u32, u32),
    n: usize,
    k_max: u32,
) -> Option<(usize, usize)> {
    let raw = ext.stride == 0;
    let span = n.checked_sub(1)? as u64;
    let a_last = a0 as u64 + da as u64 * span;
    let b_last = b0 as u64 + db as u64 * span;
    if a_last > u32::MAX as u64 || (!raw && b_last > u32::MAX as u64) {
        return None;
    }
    // a and b never decrease along the lanes, so the last lane has the
    // largest structure index and the largest address
    let (first, step) = match ext.size_bytes.checked_div(ext.stride as u64) {
        None => (a0 as u64, da as u64),
        Some(count) if a_last < count => (
            ext.stride as u64 * a0 as u64 + b0 as u64,
            ext.stride as u64 * da as u64 + db as u64,
        ),
        Some(_) => return None,
    };
    let last = first + step * span + 4 * k_max as u64;
    (last + 4 <= ext.size_bytes).then_some(((first / 4) as usize, (step / 4) as usize))
}

/// [`affine_words`] for lanes in rows of `p` (a 2-D thread group's rows of
/// `p` threads, e.g. a 16×16 tile): when lane `r·p + c`'s word indices lie on
/// the grid `first + step·c + row_step·r` with `step, row_step ≥ 0` words and
/// every dword `0..=k_max` of every lane is in bounds, returns
/// `(first, step, row_step)`, exactly as [`Extent::word_index`] would give.
/// Needs at least two rows of `p ≥ 2` lanes (`n` a multiple of `p`);
/// `None` otherwise, or when the lanes are off the grid. One pass.
#[inline(always)]
pub fn affine_words_2d(
    ext: Extent,
    a: &[u32],
    b: &[u32],
    k_max: u32,
    p: usize,
) -> Option<(usize, usize, usize)> {
    let n = a.len().min(b.len());
    if p < 2 || n <= p || !n.is_multiple_of(p) {
        return None;
    }
    let rows = n / p;
    let (a, b) = (&a[..n], &b[..n]);
    let raw = ext.stride == 0;
    let lo = if raw { !3 } else { !0 };
    let (a0, b0) = (a[0] & lo, b[0] & !3);
    let (da, db) = ((a[1] & lo).wrapping_sub(a0), (b[1] & !3).wrapping_sub(b0));
    let (ra, rb) = ((a[p] & lo).wrapping_sub(a0), (b[p] & !3).wrapping_sub(b0));
    // scattered accesses usually fail on the last lane: no pass for them
    let (c_last, r_last) = ((p - 1) as u32, (rows - 1) as u32);
    if (a[n - 1] & lo)
        != a0
            .wrapping_add(da.wrapping_mul(c_last))
            .wrapping_add(ra.wrapping_mul(r_last))
        || (!raw
            && (b[n - 1] & !3)
                != b0
                    .wrapping_add(db.wrapping_mul(c_last))
                    .wrapping_add(rb.wrapping_mul(r_last)))
    {
        return None;
    }
    // the bits by which the lanes are off the grid, or-ed: the first row
    // against its line, then every later lane against the lane a row
    // before it plus the row's step (by induction, the grid), one flat
    // loop per kind of extent, without a branch, so that each vectorises
    let mut off = 0u32;
    let (mut ai, mut bi) = (a0, b0);
    for (&x, &y) in a[..p].iter().zip(&b[..p]) {
        off |= ((x & lo) ^ ai) | (((y & !3) ^ bi) & if raw { 0 } else { !0 });
        ai = ai.wrapping_add(da);
        bi = bi.wrapping_add(db);
    }
    if raw {
        for (&x, &u) in a[p..].iter().zip(&a[..n - p]) {
            off |= (x & lo).wrapping_sub(u & lo) ^ ra;
        }
    } else {
        let (a1, b1) = (
            a[p..].iter().zip(&b[p..]),
            a[..n - p].iter().zip(&b[..n - p]),
        );
        for ((&x, &y), (&u, &v)) in a1.zip(b1) {
            off |= (x.wrapping_sub(u) ^ ra) | ((y & !3).wrapping_sub(v & !3) ^ rb);
        }
    }
    if off != 0 {
        return None;
    }
    affine_grid(ext, (a0, da, ra), (b0, db, rb), p, rows, k_max)
}

/// [`affine_words_2d`] for lanes whose values are known to lie on a grid:
/// lane `r·p + c` of `rows` rows of `p` lanes accesses (`a0 + da·c + ra·r`,
/// `b0 + db·c + rb·r`), each computed in u32, where `a0` (for a raw extent)
/// and `b0` have their low two bits clear, and so have the steps that
/// apply to them. Returns `(first, step, row_step)` as `affine_words_2d`
/// would for these lanes; `None` when a value wraps past `u32::MAX` (a
/// step read as a large positive number does) or a dword `0..=k_max` of
/// some lane is out of bounds. O(1): the executor uses it when it has
/// derived the address operands' steps from the program (`sim_core`'s
/// affine analysis) instead of checking the lanes one by one.
pub fn affine_grid(
    ext: Extent,
    (a0, da, ra): (u32, u32, u32),
    (b0, db, rb): (u32, u32, u32),
    p: usize,
    rows: usize,
    k_max: u32,
) -> Option<(usize, usize, usize)> {
    let raw = ext.stride == 0;
    let (cs, rs) = ((p.checked_sub(1)?) as u64, (rows.checked_sub(1)?) as u64);
    // with non-negative steps the last corner is the largest: if it does
    // not exceed u32::MAX, no lane's value wrapped
    let a_last = a0 as u64 + da as u64 * cs + ra as u64 * rs;
    let b_last = b0 as u64 + db as u64 * cs + rb as u64 * rs;
    if a_last > u32::MAX as u64 || (!raw && b_last > u32::MAX as u64) {
        return None;
    }
    let s = ext.stride as u64;
    let (first, step, row_step) = match ext.size_bytes.checked_div(s) {
        None => (a0 as u64, da as u64, ra as u64),
        Some(count) if a_last < count => (
            s * a0 as u64 + b0 as u64,
            s * da as u64 + db as u64,
            s * ra as u64 + rb as u64,
        ),
        Some(_) => return None,
    };
    let last = first + step * cs + row_step * rs + 4 * k_max as u64;
    (last + 4 <= ext.size_bytes).then_some((
        (first / 4) as usize,
        (step / 4) as usize,
        (row_step / 4) as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random words (a 64-bit LCG's high bits) for the
    /// randomized tests.
    fn words(mut seed: u64) -> impl FnMut() -> u32 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        }
    }

    /// Every lane's dwords `0..=k_max` are where `word_index` puts them:
    /// lane `l`'s dword `k` at `word(l) + k`.
    fn assert_words(ext: Extent, a: &[u32], b: &[u32], k_max: u32, word: impl Fn(usize) -> usize) {
        for l in 0..a.len() {
            for k in 0..=k_max {
                assert_eq!(
                    ext.word_index(a[l], b[l], k),
                    Some(word(l) + k as usize),
                    "{ext:?} a={a:?} b={b:?} lane {l} dword {k}"
                );
            }
        }
    }

    #[test]
    fn raw_bounds_are_per_dword() {
        assert_eq!(raw_word_index(16, 0, 0), Some(0));
        assert_eq!(raw_word_index(16, 12, 0), Some(3));
        assert_eq!(raw_word_index(16, 12, 1), None);
        assert_eq!(raw_word_index(16, 13, 0), Some(3), "low bits ignored");
        assert_eq!(raw_word_index(16, u32::MAX, 3), None, "no wrap");
    }

    #[test]
    fn structured_index_out_of_range_drops_everything() {
        // 4 structures of 8 bytes.
        assert_eq!(structured_word_index(32, 8, 3, 4, 0), Some(7));
        assert_eq!(structured_word_index(32, 8, 4, 0, 0), None);
        assert_eq!(structured_word_index(32, 8, u32::MAX, 0, 0), None);
        assert_eq!(structured_word_index(32, 0, 0, 0, 0), None);
    }

    #[test]
    fn structured_offset_past_stride_uses_flat_address_inside_view() {
        // offset 8 in an 8-byte struct: struct 1's first dword.
        assert_eq!(structured_word_index(32, 8, 0, 8, 0), Some(2));
        // the last struct's overflow leaves the view: dropped.
        assert_eq!(structured_word_index(32, 8, 3, 8, 0), None);
        assert_eq!(structured_word_index(32, 8, 3, u32::MAX, 0), None);
    }

    /// `affine_words` agrees with `Extent::word_index` on every lane and
    /// dword whenever it answers, and answers for coalesced and uniform
    /// accesses.
    #[test]
    fn affine_words_agree_with_word_index() {
        let mut next = words(7);
        let mut answered = 0;
        for case in 0..20_000 {
            let stride = [0, 4, 8, 12, 16][case % 5];
            let ext = Extent {
                size_bytes: 4 * (1 + next() % 64) as u64,
                stride,
            };
            let n = 1 + next() as usize % 8;
            let (a0, b0) = (next() % 40, next() % 24);
            // steps of 0, 1, 2 and −1 structures (raw: bytes), 0, 4 and −4 bytes
            let da = [0, 1, 2, 4, u32::MAX][next() as usize % 5];
            let db = [0, 4, 4u32.wrapping_neg()][next() as usize % 3];
            let line = |x0: u32, d: u32, l: u32| x0.wrapping_add(d.wrapping_mul(l));
            let mut a: Vec<u32> = (0..n as u32).map(|l| line(a0, da, l)).collect();
            let mut b: Vec<u32> = (0..n as u32).map(|l| line(b0, db, l)).collect();
            // off the line, sometimes
            match next() % 8 {
                0 => a[next() as usize % n] = next() % 64,
                1 => b[next() as usize % n] = next() % 32,
                _ => {}
            }
            let k_max = next() % 4;
            if let Some((first, step)) = affine_words(ext, &a, &b, k_max) {
                answered += 1;
                assert_words(ext, &a, &b, k_max, |l| first + step * l);
            }
        }
        assert!(answered > 1000, "only {answered} answered");
        let ext = Extent {
            size_bytes: 256,
            stride: 4,
        };
        let lanes: Vec<u32> = (0..32).collect();
        assert_eq!(
            affine_words(ext, &lanes, &[0; 32], 0),
            Some((0, 1)),
            "coalesced"
        );
        assert_eq!(
            affine_words(ext, &[5; 32], &[0; 32], 0),
            Some((5, 0)),
            "uniform"
        );
        assert_eq!(
            affine_words(ext, &[64; 32], &[0; 32], 0),
            None,
            "index out of range"
        );
    }

    /// `affine_words_2d` agrees with `Extent::word_index` on every lane of
    /// random grids (steps of 0, 1, 2, 4 and −1 along a row and between
    /// rows, lanes off the grid sometimes, rows of 2–8 lanes).
    /// `affine_line` on lines of any start and step (wrapping ones
    /// included) gives what `word_index` gives lane by lane, and answers
    /// exactly when `affine_words` on the lanes' values does.
    #[test]
    fn affine_line_agrees_with_word_index_and_affine_words() {
        let mut next = words(0x7e57_a1f1_0e5c_a1ed);
        let mut answered = 0;
        for case in 0..20_000 {
            let stride = [0, 4, 8, 16, 64][case % 5];
            let ext = Extent {
                size_bytes: 4 * (1 + next() % 256) as u64,
                stride,
            };
            let n = 1 + next() as usize % 40;
            let big = u32::MAX - next() % 64;
            let a0 = [next() % 40, big][usize::from(next().is_multiple_of(8))];
            let b0 = next() % 24;
            let da = [0, 1, 2, 4, 8, 12, u32::MAX - 3][next() as usize % 7];
            let db: u32 = [0, 4, 8][next() as usize % 3];
            let a: Vec<u32> = (0..n as u32)
                .map(|l| a0.wrapping_add(da.wrapping_mul(l)))
                .collect();
            let b: Vec<u32> = (0..n as u32)
                .map(|l| b0.wrapping_add(db.wrapping_mul(l)))
                .collect();
            let k_max = next() % 4;
            let lo = if stride == 0 { !3 } else { !0 };
            let line = affine_line(ext, (a0 & lo, da), (b0 & !3, db), n, k_max);
            if stride != 0 || da % 4 == 0 {
                // (one lane has no step: affine_words says 0)
                let line = line.map(|(f, s)| (f, if n == 1 { 0 } else { s }));
                assert_eq!(
                    line,
                    affine_words(ext, &a, &b, k_max),
                    "{ext:?} a={a:?} b={b:?}"
                );
            }
            if stride == 0 && da % 4 != 0 {
                continue; // masking the low bits does not keep such a line
            }
            if let Some((first, step)) = line {
                answered += 1;
                assert_words(ext, &a, &b, k_max, |l| first + step * l);
            }
        }
        assert!(answered > 2000, "only {answered} answered");
    }

    #[test]
    fn affine_words_2d_agree_with_word_index() {
        let mut next = words(0x0123_4567_89ab_cdef);
        let mut answered = 0;
        for case in 0..20_000 {
            let stride = [0, 4, 8, 16, 64][case % 5];
            let ext = Extent {
                size_bytes: 4 * (1 + next() % 256) as u64,
                stride,
            };
            let p = 2 + next() as usize % 7;
            let n = p * (2 + next() as usize % 3);
            let (a0, b0) = (next() % 20, next() % 24);
            let steps = [0, 1, 2, 4, u32::MAX];
            let (da, ra) = (steps[next() as usize % 5], steps[next() as usize % 5]);
            let (db, rb) = (
                [0, 4, 8][next() as usize % 3],
                [0, 4, 16][next() as usize % 3],
            );
            let at = |x0: u32, d: u32, r: u32, l: usize| {
                let (c, row) = ((l % p) as u32, (l / p) as u32);
                x0.wrapping_add(d.wrapping_mul(c))
                    .wrapping_add(r.wrapping_mul(row))
            };
            let mut a: Vec<u32> = (0..n).map(|l| at(a0, da, ra, l)).collect();
            let mut b: Vec<u32> = (0..n).map(|l| at(b0, db, rb, l)).collect();
            match next() % 8 {
                0 => a[next() as usize % n] = next() % 64,
                1 => b[next() as usize % n] = next() % 32,
                _ => {}
            }
            let k_max = next() % 4;
            if let Some((first, step, row_step)) = affine_words_2d(ext, &a, &b, k_max, p) {
                answered += 1;
                assert_words(ext, &a, &b, k_max, |l| {
                    first + step * (l % p) + row_step * (l / p)
                });
            }
        }
        assert!(answered > 1000, "only {answered} answered");
        // a 16×16 tile reading row y of a 64-byte structure per lane: no
        // 1-D line, one grid
        let ext = Extent {
            size_bytes: 16 * 64,
            stride: 64,
        };
        let rows: Vec<u32> = (0..256).map(|l| l / 16).collect();
        assert_eq!(affine_words(ext, &rows, &[0; 256], 3), None);
        assert_eq!(
            affine_words_2d(ext, &rows, &[0; 256], 3, 16),
            Some((0, 0, 16))
        );
    }

    #[test]
    fn lane_words_agree_with_word_index_on_active_lanes() {
        let mut next = words(0x5eed_1a4e_0000_0001);
        let (mut answered, mut refused) = (0, 0);
        for case in 0..20_000 {
            let stride = [0, 4, 8, 16, 64][case % 5];
            let ext = Extent {
                size_bytes: 4 * (1 + next() % 256) as u64,
                stride,
            };
            let n = 1 + next() as usize % 40;
            let k_max = next() % 4;
            // half the cases with every address inside (a structure's
            // dwords within it), half anywhere, some huge
            let inside = case % 2 == 0;
            let (words, tail) = (ext.size_bytes as u32 / 4, 4 * k_max + 4);
            let (a_range, b_range) = match (stride, inside) {
                (0, true) => ((4 * words).saturating_sub(tail - 4).max(1), 4),
                (0, false) => (1100, 4),
                (_, true) => (
                    (4 * words / stride).max(1),
                    stride.saturating_sub(tail - 4).max(1),
                ),
                (_, false) => (70, stride),
            };
            let mut pick = |range: u32| match next() % 64 {
                0 if !inside => u32::MAX - next() % 8,
                _ => next() % range,
            };
            let a: Vec<u32> = (0..n).map(|_| pick(a_range)).collect();
            let b: Vec<u32> = (0..n).map(|_| pick(b_range)).collect();
            let active: Vec<u32> = (0..n)
                .map(|_| u32::from(!next().is_multiple_of(4)))
                .collect();
            let mut out = vec![0; n];
            if lane_words(ext, &a, &b, &active, k_max, &mut out) {
                answered += 1;
                for l in (0..n).filter(|&l| active[l] != 0) {
                    for k in 0..=k_max {
                        assert_eq!(
                            ext.word_index(a[l], b[l], k),
                            Some(out[l] as usize + k as usize),
                            "{ext:?} a={a:?} b={b:?} active={active:?} lane {l} dword {k}"
                        );
                    }
                }
            } else {
                refused += 1;
            }
        }
        assert!(answered > 1000 && refused > 1000, "{answered} / {refused}");
        // an inactive lane far out of bounds does not matter; an active one
        // does
        let ext = Extent {
            size_bytes: 64,
            stride: 0,
        };
        let a = [0, 4, u32::MAX, 12];
        let mut out = [0; 4];
        assert!(lane_words(ext, &a, &[0; 4], &[1, 1, 0, 1], 0, &mut out));
        assert_eq!((out[0], out[1], out[3]), (0, 1, 3));
        assert!(!lane_words(ext, &a, &[0; 4], &[1, 1, 1, 1], 0, &mut out));
    }
}
