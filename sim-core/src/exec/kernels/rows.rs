//! The row kernels' parts: what a row kernel reads and writes ([`RowArgs`],
//! rows of one warp's arena), the rows of a call split into slices, and the
//! loops of its body (`row_body!`): one plain pass when it writes every lane
//! and reads no modified source, blended under the active mask otherwise,
//! an accumulator read through the destination's slice, `_sat` as a pass of
//! its own, and the dot products' sums (`dot_body!`, [`run_dot`]).
//! `super::alu` instantiates them, per instruction and instruction set,
//! from the lane functions' table.
//!
//! A row kernel writes what the lane kernel of its instruction writes lane
//! by lane, with the source modifiers of `reference/sm5-compute-isa.md` as
//! bit operations ([`SrcBits`]), and `dp2`–`dp4` evaluated unfused in
//! component order (`reference/compute-model.md` §8).

use crate::isa::lanes::{fin, fin_flushed, fout, fout_blind, sat, SrcBits};

/// What a [`RowKernel`] reads and writes: word offsets of rows (one word per
/// lane) in one warp's arena, its register file followed by the rows of
/// system values, immediates and scratch. Lane `l` of a row at `o` is
/// `arena[o + l]`. A destination row may be a source row too: each lane's
/// sources are read before its result is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RowArgs {
    /// the destination row
    pub out: u32,
    /// a row the kernel may overwrite, none of the others: where it copies
    /// the destination row's lanes first when a source is the destination
    /// row (so that its loops read sources and write the destination
    /// through separate slices)
    pub spare: u32,
    /// the source rows: `src[..arity]`; a dot product's terms are
    /// `(src[2t], src[2t + 1])`
    pub src: [u32; 8],
    /// each source's modifier
    pub mods: [SrcBits; 8],
    /// some source has a modifier
    pub modified: bool,
    /// `_sat`: the result clamped to [0, 1] ([`sat`])
    pub sat: bool,
}

/// A row kernel: `arena[out + l] = f(arena[src[0] + l], …)` for the lanes
/// `l` in `lanes`, written only where `mask[l]` is all ones when a mask is
/// given (the others keep their word); `spare`'s lanes are clobbered when a
/// source is the destination row. Rows must lie in the arena for every
/// lane of `lanes`, and a mask must cover them. An `unsafe fn` for the same
/// reason as [`Kernel`](super::Kernel).
pub(crate) type RowKernel =
    unsafe fn(arena: &mut [u32], a: &RowArgs, lanes: std::ops::Range<usize>, mask: Option<&[u32]>);

/// Words in one AVX-512 vector: a partial warp runs a row kernel over its
/// active span widened to multiples of this, so that the kernel's vector
/// loop has no remainder (the lanes added are inactive: masked off).
pub(crate) const CHUNK: usize = 16;

/// The body of every row kernel but the plain one: `o[l] = f(sources of
/// lane l)` with the sources' modifiers applied when `$m_on`, and blended
/// under the mask word `m[l]` unless `$p` (no mask: every lane written).
/// `_sat` is applied afterwards, by [`sat_rows`].
macro_rules! lanes_blend {
    (@src $v:expr, $k:expr, $mods:ident, $m_on:ident) => {{
        let v = $v;
        if $m_on {
            $mods[$k].apply(v)
        } else {
            v
        }
    }};
    (@put $o:ident, $m:ident, $v:expr) => {{
        let v = $v;
        *$o = (v & $m) | (*$o & !$m);
    }};
    (@put $o:ident, $m:ident, $p:ident, $v:expr) => {{
        if $p {
            *$o = $v;
        } else {
            lanes_blend!(@put $o, $m, $v)
        }
    }};
    ($o:ident, $mask:ident, $s:ident, $mods:ident, $m_on:ident, $p:ident, |$x:ident| $e:expr) => {
        for ((o, &m), &$x) in $o.iter_mut().zip($mask).zip($s[0]) {
            let $x = lanes_blend!(@src $x, 0, $mods, $m_on);
            lanes_blend!(@put o, m, $p, $e);
        }
    };
    ($o:ident, $mask:ident, $s:ident, $mods:ident, $m_on:ident, $p:ident, |$x:ident, $y:ident| $e:expr) => {
        for (((o, &m), &$x), &$y) in $o.iter_mut().zip($mask).zip($s[0]).zip($s[1]) {
            let $x = lanes_blend!(@src $x, 0, $mods, $m_on);
            let $y = lanes_blend!(@src $y, 1, $mods, $m_on);
            lanes_blend!(@put o, m, $p, $e);
        }
    };
    // (three and four sources: indexed loops over rows cut to one length,
    // as a zip of five or more slices compiled to a vector loop that left
    // its last 16 lanes to scalar code)
    ($o:ident, $mask:ident, $s:ident, $mods:ident, $m_on:ident, $p:ident,
     |$x:ident, $y:ident, $z:ident| $e:expr) => {{
        let n = $o.len();
        let (m, s0, s1, s2) = (&$mask[..n], &$s[0][..n], &$s[1][..n], &$s[2][..n]);
        for l in 0..n {
            let $x = lanes_blend!(@src (s0[l]), 0, $mods, $m_on);
            let $y = lanes_blend!(@src (s1[l]), 1, $mods, $m_on);
            let $z = lanes_blend!(@src (s2[l]), 2, $mods, $m_on);
            let (o, m) = (&mut $o[l], m[l]);
            lanes_blend!(@put o, m, $p, $e);
        }
    }};
    ($o:ident, $mask:ident, $s:ident, $mods:ident, $m_on:ident, $p:ident,
     |$x:ident, $y:ident, $z:ident, $u:ident| $e:expr) => {{
        let n = $o.len();
        let (m, s0, s1) = (&$mask[..n], &$s[0][..n], &$s[1][..n]);
        let (s2, s3) = (&$s[2][..n], &$s[3][..n]);
        for l in 0..n {
            let $x = lanes_blend!(@src (s0[l]), 0, $mods, $m_on);
            let $y = lanes_blend!(@src (s1[l]), 1, $mods, $m_on);
            let $z = lanes_blend!(@src (s2[l]), 2, $mods, $m_on);
            let $u = lanes_blend!(@src (s3[l]), 3, $mods, $m_on);
            let (o, m) = (&mut $o[l], m[l]);
            lanes_blend!(@put o, m, $p, $e);
        }
    }};
}
pub(super) use lanes_blend;

/// The loops of a row kernel whose source 0 is its destination row (read
/// through `o`, before the lane's result is written) and whose sources are
/// unmodified: plain when `$plain`, else blended under the mask words `m`.
macro_rules! lanes_first_out {
    ($o:ident, $m:ident, $s:ident, $plain:ident, |$x:ident| $e:expr) => {{
        let _ = ($s, $m);
        if $plain {
            for o in $o.iter_mut() {
                *o = {
                    let $x = *o;
                    $e
                };
            }
        } else {
            for (o, &m) in $o.iter_mut().zip($m) {
                let $x = *o;
                lanes_blend!(@put o, m, $e);
            }
        }
    }};
    ($o:ident, $m:ident, $s:ident, $plain:ident, |$x:ident, $y:ident| $e:expr) => {{
        if $plain {
            for (o, &$y) in $o.iter_mut().zip($s[1]) {
                let $x = *o;
                *o = $e;
            }
        } else {
            for ((o, &m), &$y) in $o.iter_mut().zip($m).zip($s[1]) {
                let $x = *o;
                lanes_blend!(@put o, m, $e);
            }
        }
    }};
    ($o:ident, $m:ident, $s:ident, $plain:ident, |$x:ident, $y:ident, $z:ident| $e:expr) => {{
        if $plain {
            for ((o, &$y), &$z) in $o.iter_mut().zip($s[1]).zip($s[2]) {
                let $x = *o;
                *o = $e;
            }
        } else {
            for (((o, &m), &$y), &$z) in $o.iter_mut().zip($m).zip($s[1]).zip($s[2]) {
                let $x = *o;
                lanes_blend!(@put o, m, $e);
            }
        }
    }};
    (
        $o:ident, $m:ident, $s:ident, $plain:ident,
        |$x:ident, $y:ident, $z:ident, $u:ident| $e:expr
    ) => {{
        // indexed: see `lanes_blend`'s three and four sources
        let n = $o.len();
        let (m, s1, s2, s3) = (&$m[..n], &$s[1][..n], &$s[2][..n], &$s[3][..n]);
        for l in 0..n {
            let ($y, $z, $u) = (s1[l], s2[l], s3[l]);
            let (o, m) = (&mut $o[l], m[l]);
            let $x = *o;
            if $plain {
                *o = $e;
            } else {
                lanes_blend!(@put o, m, $e);
            }
        }
    }};
}
pub(super) use lanes_first_out;

/// `_sat` on a row kernel's result: `o[l]` clamped to [0, 1] ([`sat`])
/// where the mask word `m[l]` is all ones. A pass of its own after the
/// kernel's loop, so that the loops of the kernels (and of the many
/// instructions without `_sat`) carry no test for it.
#[inline(always)]
pub(super) fn sat_rows(o: &mut [u32], m: &[u32]) {
    for (o, &m) in o.iter_mut().zip(m) {
        *o = (sat(*o) & m) | (*o & !m);
    }
}

/// The most lanes a warp has: a thread group has at most 1024 threads (FS
/// §18.6.6; the loader refuses more) and a packed warp at most 1024 lanes.
pub(crate) const MAX_WARP: usize = 1024;

/// All ones and all zeros for up to the largest warp: the mask of a row
/// kernel that writes every lane, the stand-in slice of a source that is
/// the destination row, and the executor's `l(0)` operand.
static ONES: [u32; MAX_WARP] = [!0; MAX_WARP];
pub(crate) static ZEROS: [u32; MAX_WARP] = [0; MAX_WARP];

/// `arena[to..to + len] = arena[from..from + len]` for two rows that do
/// not overlap, inlined into the kernel (as vector moves of its instruction
/// set) rather than a call to `memmove`, which cost more than the copy here.
#[inline(always)]
fn copy_row(arena: &mut [u32], from: usize, to: usize, len: usize) {
    let (d, s) = if to < from {
        let (lo, hi) = arena.split_at_mut(from);
        (&mut lo[to..to + len], &hi[..len])
    } else {
        let (lo, hi) = arena.split_at_mut(to);
        (&mut hi[..len], &lo[from..from + len])
    };
    for (d, &s) in d.iter_mut().zip(s) {
        *d = s;
    }
}

/// The rows of a row kernel's call: the destination row's `lanes`
/// (mutable) and the `N` source rows' (a source that is the destination
/// row reads `spare`, where the destination's lanes are copied first; but
/// with `first_is_out` source 0 is the destination row, read through the
/// destination's slice by the caller, and its slice here is zeros), the
/// mask's (all ones when none), and the modifiers.
#[allow(clippy::type_complexity)]
#[inline(always)]
pub(super) fn split_rows<'a, const N: usize>(
    arena: &'a mut [u32],
    a: &RowArgs,
    lanes: std::ops::Range<usize>,
    mask: Option<&'a [u32]>,
    first_is_out: bool,
) -> (&'a mut [u32], [&'a [u32]; N], &'a [u32], [SrcBits; N]) {
    let (start, len) = (lanes.start, lanes.len());
    let out = a.out as usize + start;
    // rows are W-aligned in the arena: a source row is the destination
    // row or lies wholly before or after it
    // (loops rather than `array::from_fn`, which did not inline here)
    let mut src = [0usize; N];
    let mut copied = false;
    for (k, (s, &row)) in src.iter_mut().zip(&a.src).enumerate() {
        *s = row as usize;
        if row == a.out && !(k == 0 && first_is_out) {
            let spare = a.spare as usize;
            if !copied {
                copy_row(arena, out, spare + start, len);
                copied = true;
            }
            *s = spare;
        }
    }
    let (lo, rest) = arena.split_at_mut(out);
    let (o, hi) = rest.split_at_mut(len);
    let (lo, hi): (&'a [u32], &'a [u32]) = (lo, hi);
    let mut rows: [&[u32]; N] = [&ZEROS[..0]; N];
    for k in 0..N {
        let s = src[k] + start;
        rows[k] = if k == 0 && first_is_out {
            // read through the destination slice instead: no row here
            &ZEROS[..len]
        } else if s < out {
            &lo[s..s + len]
        } else {
            &hi[s - out - len..s - out]
        };
    }
    let mut mods = [SrcBits::NONE; N];
    mods.copy_from_slice(&a.mods[..N]);
    let m = match mask {
        Some(m) => &m[start..start + len],
        // `len` ≤ W ≤ MAX_WARP, so ONES covers it
        None => &ONES[..len],
    };
    (o, rows, m, mods)
}

/// The sum of a dot product of `N / 2` terms (`s[2t]·s[2t + 1]`), as `mul`
/// then `super::alu`'s `dp_acc` evaluate it, lane by lane; the
/// sources modified when `M`, the sum blended under `mask` unless `P`
/// (plain: no mask), then saturated when asked; with `F`, the sources are
/// taken to be flushed words (no input flush); without `C`, a NaN sum
/// keeps its payload ([`fout_blind`]).
#[inline(always)]
pub(super) fn run_dot<
    const N: usize,
    const M: bool,
    const P: bool,
    const F: bool,
    const C: bool,
>(
    arena: &mut [u32],
    a: &RowArgs,
    lanes: std::ops::Range<usize>,
    mask: Option<&[u32]>,
) {
    let (o, s, m, mods) = split_rows::<N>(arena, a, lanes, mask, false);
    // with `F`, the sources are flushed already ([`fin_flushed`])
    let fi = |x: u32| if F { fin_flushed(x) } else { fin(x) };
    // The products and the partial sums are flushed but keep a NaN as it
    // comes: a NaN among them makes the last sum NaN, which `fout` makes
    // the canonical one, so the result's bits are those of `fout` at every
    // step (the general path's `dp_acc`), at one test fewer per step.
    let mul = |x: u32, y: u32| fin((fi(x) * fi(y)).to_bits());
    let acc = |acc: f32, x: u32, y: u32| fin((acc + mul(x, y)).to_bits());
    let last = |acc: f32, x: u32, y: u32| {
        if C {
            fout(acc + mul(x, y))
        } else {
            fout_blind(acc + mul(x, y))
        }
    };
    macro_rules! src {
        ($v:ident, $k:expr) => {
            lanes_blend!(@src $v, $k, mods, M)
        };
    }
    macro_rules! put {
        ($o:ident, $m:ident, $v:expr) => {
            if P {
                *$o = $v;
            } else {
                lanes_blend!(@put $o, $m, $v)
            }
        };
    }
    // indexed, over rows cut to one length: a zip of six or more slices
    // compiled to a vector loop that left its last 16 lanes to scalar code
    let n = o.len();
    let m = &m[..n];
    let r: [&[u32]; N] = std::array::from_fn(|k| &s[k][..n]);
    match N {
        4 => {
            for l in 0..n {
                let (x0, y0, x1, y1) = (r[0][l], r[1][l], r[2][l], r[3][l]);
                let (x0, y0, x1, y1) = (src!(x0, 0), src!(y0, 1), src!(x1, 2), src!(y1, 3));
                let (o, m) = (&mut o[l], m[l]);
                put!(o, m, last(mul(x0, y0), x1, y1));
            }
        }
        6 => {
            for l in 0..n {
                let (x0, y0, x1, y1) = (r[0][l], r[1][l], r[2][l], r[3][l]);
                let (x2, y2) = (r[4][l], r[5][l]);
                let (x0, y0, x1, y1) = (src!(x0, 0), src!(y0, 1), src!(x1, 2), src!(y1, 3));
                let (x2, y2) = (src!(x2, 4), src!(y2, 5));
                let (o, m) = (&mut o[l], m[l]);
                put!(o, m, last(acc(mul(x0, y0), x1, y1), x2, y2));
            }
        }
        _ => {
            for l in 0..n {
                let (x0, y0, x1, y1) = (r[0][l], r[1][l], r[2][l], r[3][l]);
                let (x2, y2, x3, y3) = (r[4][l], r[5][l], r[6][l], r[7 % N][l]);
                let (x0, y0, x1, y1) = (src!(x0, 0), src!(y0, 1), src!(x1, 2), src!(y1, 3));
                let (x2, y2, x3, y3) = (src!(x2, 4), src!(y2, 5), src!(x3, 6), src!(y3, 7 % N));
                let (o, m) = (&mut o[l], m[l]);
                put!(o, m, last(acc(acc(mul(x0, y0), x1, y1), x2, y2), x3, y3));
            }
        }
    }
    if a.sat {
        sat_rows(o, m);
    }
}

/// The body of the row kernel of `|v…| e`: one plain pass over the rows
/// when it writes every lane and reads no modified source; else
/// [`lanes_blend`]. An unmodified source 0 that is the destination row
/// (and no other source is: an accumulator, `iadd r1.x, r1.x, l(1)`) is
/// read through the destination's slice ([`lanes_first_out`]) rather than
/// a copy. `_sat` is a pass of its own afterwards ([`sat_rows`]).
macro_rules! row_body {
    ($arena:ident, $a:ident, $lanes:ident, $mask:ident, |$($v:ident),+| $e:expr) => {{
        const N: usize = lane_arity!($($v),+);
        let plain = !$a.modified && $mask.is_none();
        let first_is_out = !$a.modified
            && $a.src[0] == $a.out
            && !$a.src[1..N].contains(&$a.out);
        let (o, s, m, mods) = split_rows::<N>($arena, $a, $lanes, $mask, first_is_out);
        if first_is_out {
            lanes_first_out!(o, m, s, plain, |$($v),+| $e)
        } else if plain {
            let (a, b, c, d) = (s[0], s[1.min(N - 1)], s[2.min(N - 1)], s[3.min(N - 1)]);
            lanes!(o, a, b, c, d, |$($v),+| $e)
        } else if $a.modified && $mask.is_none() {
            let (m_on, p) = (true, true);
            lanes_blend!(o, m, s, mods, m_on, p, |$($v),+| $e)
        } else if $a.modified {
            let (m_on, p) = (true, false);
            lanes_blend!(o, m, s, mods, m_on, p, |$($v),+| $e)
        } else {
            let (m_on, p) = (false, false);
            lanes_blend!(o, m, s, mods, m_on, p, |$($v),+| $e)
        }
        if $a.sat {
            sat_rows(o, m);
        }
    }};
}
pub(super) use row_body;

/// The body of the `dp2`–`dp4` row kernel of `N` = 4, 6 or 8 sources.
macro_rules! dot_body {
    ($arena:ident, $a:ident, $lanes:ident, $mask:ident) => {
        match ($a.modified, $mask.is_none()) {
            (true, _) => run_dot::<N, true, false, FLUSHED, CANONICAL>($arena, $a, $lanes, $mask),
            (false, true) => {
                run_dot::<N, false, true, FLUSHED, CANONICAL>($arena, $a, $lanes, $mask)
            }
            (false, false) => {
                run_dot::<N, false, false, FLUSHED, CANONICAL>($arena, $a, $lanes, $mask)
            }
        }
    };
}
pub(super) use dot_body;
