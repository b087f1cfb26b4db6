//! Lane semantics of the component-wise ALU instructions, and their lane
//! kernels: one function per opcode that applies the instruction to every
//! lane of one destination component.
//!
//! The rules are those of `reference/sm5-compute-isa.md` and the float rules
//! of `reference/compute-model.md` §8: 32-bit float inputs and outputs are
//! flushed to zero when denormal (sign kept); `mad` is unfused (the product
//! rounded); `min`/`max` return the non-NaN operand and order −0 below +0;
//! float-to-integer conversions truncate (Rust's saturating `as`, NaN → 0);
//! a float result that is NaN is the canonical quiet NaN ([`fout`]).
//!
//! The kernels are the one place where these lane functions are applied to
//! whole warps: the general path of `exec::Cx::alu` and the
//! pre-resolved path of its fast ALU instructions both call them, so the two
//! cannot disagree. Each kernel is a plain loop over zipped slices, written
//! so that it vectorises, compiled for baseline x86-64, AVX2 and AVX-512
//! (chosen at run time by [`isa`]; `SM5SIM_ISA` lowers the choice). Calling a
//! kernel, and `exec`'s interpreter loop compiled for the same sets, are the
//! `unsafe` of `sim-core`: each needs the CPU to run its instruction set.

use crate::isa::opcodes::AluOp;
use sim_mem::format::{f16_to_f32, f32_to_f16_rtz};

#[inline]
pub(crate) fn ftz(x: u32) -> u32 {
    // zero exponent (a denormal or zero): keep only the sign. Branch-free,
    // so that the lane loops around it vectorise.
    let zero_exp = ((x & 0x7f80_0000 == 0) as u32).wrapping_neg();
    x & !(zero_exp & 0x7fff_ffff)
}

#[inline]
pub(crate) fn fin(x: u32) -> f32 {
    f32::from_bits(ftz(x))
}

/// [`fin`] of a word known to be flushed already (`crate::analysis::flushed`): the
/// `fin` of the row kernels for flushed sources.
#[inline]
pub(crate) fn fin_flushed(x: u32) -> f32 {
    f32::from_bits(x)
}

/// The quiet NaN every float result that is NaN becomes.
pub(crate) const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// A float result as stored: denormals flushed (sign kept), and any NaN the
/// canonical one. NaN payloads are unspecified (`reference/compute-model.md`
/// §8), but the one x86 produces follows the operand order the compiler
/// chose, which differs between a kernel's vector and scalar code; so
/// without this a result's bits would depend on the warp width, the active
/// lanes and the CPU. Branch-free (a compare and a blend per vector).
#[inline]
pub(crate) fn fout(x: f32) -> u32 {
    let nan = bool_mask(x.is_nan());
    (CANONICAL_NAN & nan) | (ftz(x.to_bits()) & !nan)
}

/// [`fout`] without the canonical NaN: a NaN result keeps the payload the
/// CPU gave it. The result of the row kernels for results whose NaN
/// payload no instruction observes (`crate::analysis::payload`), where any
/// NaN is as good as the canonical one.
#[inline]
pub(crate) fn fout_blind(x: f32) -> u32 {
    ftz(x.to_bits())
}

#[inline]
pub(crate) fn bool_mask(b: bool) -> u32 {
    // branch-free (0 → 0, 1 → all ones), so that lane loops vectorise
    (b as u32).wrapping_neg()
}

pub(crate) fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else if b < a {
        b
    } else if a.is_sign_negative() {
        a
    } else {
        b
    }
}

pub(crate) fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else if b > a {
        b
    } else if a.is_sign_positive() {
        a
    } else {
        b
    }
}

pub(crate) fn ubfe(w: u32, o: u32, v: u32) -> u32 {
    let (w, o) = (w & 31, o & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (v << (32 - w - o)) >> (32 - w)
    } else {
        v >> o
    }
}

pub(crate) fn ibfe(w: u32, o: u32, v: u32) -> u32 {
    let (w, o) = (w & 31, o & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (((v << (32 - w - o)) as i32) >> (32 - w)) as u32
    } else {
        ((v as i32) >> o) as u32
    }
}

pub(crate) fn bfi(w: u32, o: u32, ins: u32, base: u32) -> u32 {
    let (w, o) = (w & 31, o & 31);
    let mask = (((1u64 << w) - 1) << o) as u32;
    ((ins << o) & mask) | (base & !mask)
}

pub(crate) fn firstbit_hi(v: u32) -> u32 {
    if v == 0 {
        !0
    } else {
        v.leading_zeros()
    }
}

pub(crate) fn firstbit_shi(v: u32) -> u32 {
    let v = if (v as i32) < 0 { !v } else { v };
    firstbit_hi(v)
}

/// `udiv`: the quotient and remainder of `n / d`; division by zero gives
/// 0xFFFFFFFF in both (FS §22.12.9, `reference/sm5-compute-isa.md`).
///
/// Through an f64 division, which vectorises where an integer division
/// does not: for `n < 2³²` and `d ≥ 1` the correctly rounded f64 quotient
/// `x̂` of `x = n / d` truncates to `q = ⌊x⌋` exactly. `x̂ ≥ q` because `q`
/// is an f64 and rounding is monotone; and `x ≤ q + 1 − 1/d` (as `n ≤
/// (q + 1)·d − 1`), while rounding moves `x` by at most half an ulp of
/// `q + 1`, `(q + 1)·2⁻⁵³ < 2³³/d · 2⁻⁵³ < 1/d` (as `(q + 1)·d ≤ n + d <
/// 2³³`), so `x̂ < q + 1`. `udiv_matches_integer_division` checks it.
///
/// The truncated quotient (an integer below 2³²) is read from the bits of
/// `q + 2⁵²`, whose low 32 bits of mantissa it then is: a float-to-integer
/// `as` saturates, which compiled to scalar code lane by lane.
#[inline(always)]
pub(crate) fn udiv(n: u32, d: u32) -> (u32, u32) {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    let q = ((n as f64 / d as f64).trunc() + TWO_52).to_bits() as u32;
    if d == 0 {
        (!0, !0)
    } else {
        (q, n.wrapping_sub(q.wrapping_mul(d)))
    }
}

pub(crate) fn msad(r: u32, s: u32, acc: u32) -> u32 {
    let mut acc = acc;
    for i in 0..4 {
        let a = (r >> (8 * i)) & 0xff;
        let b = (s >> (8 * i)) & 0xff;
        if a != 0 {
            acc = acc.wrapping_add(a.abs_diff(b));
        }
    }
    acc
}

pub(crate) fn sat(x: u32) -> u32 {
    let f = fin(x);
    if f.is_nan() || f <= 0.0 {
        0
    } else if f >= 1.0 {
        1.0f32.to_bits()
    } else {
        ftz(x)
    }
}

/// A lane kernel: `o[l] = f(a[l], b[l], c[l], d[l])` for every lane `l` of `o`.
/// Sources the instruction does not have are ignored (pass any slice); the
/// sources must be at least as long as `o`.
///
/// An `unsafe fn` because a kernel may be compiled for AVX2 or AVX-512:
/// [`lane_op`] hands out only those of [`isa`] (runtime detection, never
/// wider than the CPU), and then calling any kernel it returns is sound.
pub(crate) type Kernel = unsafe fn(&mut [u32], &[u32], &[u32], &[u32], &[u32]);

/// An ALU instruction's kernel and its number of sources (1–4). For a dot
/// product (`dot` = 2–4 terms: `dp2`–`dp4`) the kernel is `mul`, for the
/// first term; each further term adds its product with [`dp_acc_kernel`].
/// `rows` is the same instruction as a [`RowKernel`] (a dot product's
/// whole sum).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LaneOp {
    pub kernel: Kernel,
    pub rows: RowKernel,
    /// `rows` for sources that are all flushed words (no denormal bit
    /// patterns: `crate::analysis::flushed`), which skips the input flushes; the
    /// same results as `rows` on such sources
    pub flushed_rows: RowKernel,
    /// `flushed_rows` whose float result, when NaN, keeps the CPU's payload
    /// ([`fout_blind`]): for results whose payload no instruction observes
    /// (`crate::analysis::payload`); otherwise the same bits
    pub blind_rows: RowKernel,
    /// sources 0 and 1 may be swapped ([`commutes`])
    pub commutes: bool,
    pub arity: u8,
    pub dot: u8,
}

/// A source modifier as bit operations on a lane's word:
/// `((v & and) ^ xor) + add` (wrapping): `-x` flips the sign bit, `|x|`
/// clears it, `-|x|` sets it, and the integer `-x` is `!x + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SrcBits {
    pub and: u32,
    pub xor: u32,
    pub add: u32,
}

impl SrcBits {
    /// No modifier.
    pub const NONE: SrcBits = SrcBits {
        and: !0,
        xor: 0,
        add: 0,
    };

    #[inline(always)]
    pub(crate) fn apply(self, v: u32) -> u32 {
        ((v & self.and) ^ self.xor).wrapping_add(self.add)
    }
}

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
/// reason as [`Kernel`].
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

/// `_sat` on a row kernel's result: `o[l]` clamped to [0, 1] ([`sat`])
/// where the mask word `m[l]` is all ones. A pass of its own after the
/// kernel's loop, so that the loops of the kernels (and of the many
/// instructions without `_sat`) carry no test for it.
#[inline(always)]
fn sat_rows(o: &mut [u32], m: &[u32]) {
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
fn split_rows<'a, const N: usize>(
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
/// then [`dp_acc`] evaluate it, lane by lane; the sources modified when
/// `M`, the sum blended under `mask` unless `P` (plain: no mask), then
/// saturated when asked; with `F`, the sources are taken to be flushed
/// words (no input flush); without `C`, a NaN sum keeps its payload
/// ([`fout_blind`]).
#[inline(always)]
fn run_dot<const N: usize, const M: bool, const P: bool, const F: bool, const C: bool>(
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

macro_rules! lanes {
    ($o:ident, $a:ident, $b:ident, $c:ident, $d:ident, |$x:ident| $e:expr) => {{
        let _ = ($b, $c, $d);
        for (o, &$x) in $o.iter_mut().zip($a) {
            *o = $e;
        }
    }};
    ($o:ident, $a:ident, $b:ident, $c:ident, $d:ident, |$x:ident, $y:ident| $e:expr) => {{
        let _ = ($c, $d);
        for ((o, &$x), &$y) in $o.iter_mut().zip($a).zip($b) {
            *o = $e;
        }
    }};
    ($o:ident, $a:ident, $b:ident, $c:ident, $d:ident, |$x:ident, $y:ident, $z:ident| $e:expr) => {{
        let _ = $d;
        for (((o, &$x), &$y), &$z) in $o.iter_mut().zip($a).zip($b).zip($c) {
            *o = $e;
        }
    }};
    (
        $o:ident, $a:ident, $b:ident, $c:ident, $d:ident,
        |$x:ident, $y:ident, $z:ident, $u:ident| $e:expr
    ) => {{
        // indexed: see `lanes_blend`'s three and four sources
        let n = $o.len();
        let (a, b, c, d) = (&$a[..n], &$b[..n], &$c[..n], &$d[..n]);
        for (l, o) in $o.iter_mut().enumerate() {
            let ($x, $y, $z, $u) = (a[l], b[l], c[l], d[l]);
            *o = $e;
        }
    }};
}

macro_rules! arity {
    ($x:ident) => {
        1
    };
    ($x:ident, $y:ident) => {
        2
    };
    ($x:ident, $y:ident, $z:ident) => {
        3
    };
    ($x:ident, $y:ident, $z:ident, $u:ident) => {
        4
    };
}

/// The body of the row kernel of `|v…| e`: one plain pass over the rows
/// when it writes every lane and reads no modified source; else
/// [`lanes_blend`]. An unmodified source 0 that is the destination row
/// (and no other source is: an accumulator, `iadd r1.x, r1.x, l(1)`) is
/// read through the destination's slice ([`lanes_first_out`]) rather than
/// a copy. `_sat` is a pass of its own afterwards ([`sat_rows`]).
macro_rules! row_body {
    ($arena:ident, $a:ident, $lanes:ident, $mask:ident, |$($v:ident),+| $e:expr) => {{
        const N: usize = arity!($($v),+);
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

/// A module `$name` of the row kernels (`dot::<N>` for the dot products),
/// compiled for the baseline or with the target features `$features`; the
/// items `$extra` are its first (`FLUSHED` and `CANONICAL`, and the `fin`
/// of the flushed variants and the `fout` of the blind ones).
macro_rules! row_kernels {
    ($name:ident, [$($extra:tt)*], $($op:ident => |$($v:ident),+| $e:expr,)*) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            $($extra)*
            $(
                pub(super) fn $op(
                    arena: &mut [u32],
                    a: &RowArgs,
                    lanes: std::ops::Range<usize>,
                    mask: Option<&[u32]>,
                ) {
                    row_body!(arena, a, lanes, mask, |$($v),+| $e)
                }
            )*

            pub(super) fn dot<const N: usize>(
                arena: &mut [u32],
                a: &RowArgs,
                lanes: std::ops::Range<usize>,
                mask: Option<&[u32]>,
            ) {
                dot_body!(arena, a, lanes, mask)
            }
        }
    };
    (
        $name:ident, $features:literal, [$($extra:tt)*],
        $($op:ident => |$($v:ident),+| $e:expr,)*
    ) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            $($extra)*
            $(
                #[target_feature(enable = $features)]
                pub(super) unsafe fn $op(
                    arena: &mut [u32],
                    a: &RowArgs,
                    lanes: std::ops::Range<usize>,
                    mask: Option<&[u32]>,
                ) {
                    row_body!(arena, a, lanes, mask, |$($v),+| $e)
                }
            )*

            #[target_feature(enable = $features)]
            pub(super) unsafe fn dot<const N: usize>(
                arena: &mut [u32],
                a: &RowArgs,
                lanes: std::ops::Range<usize>,
                mask: Option<&[u32]>,
            ) {
                dot_body!(arena, a, lanes, mask)
            }
        }
    };
}

/// A module `$name` of the kernels compiled with the target features
/// `$features` (each an `unsafe fn`: callable only where the CPU has them).
macro_rules! wide_kernels {
    ($name:ident, $features:literal, $($op:ident => |$($v:ident),+| $e:expr,)*) => {
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            $(
                #[target_feature(enable = $features)]
                pub(super) unsafe fn $op(
                    o: &mut [u32],
                    a: &[u32],
                    b: &[u32],
                    c: &[u32],
                    d: &[u32],
                ) {
                    lanes!(o, a, b, c, d, |$($v),+| $e)
                }
            )*
        }
    };
}

/// A lane function applied to the words `$s[0..arity]` ([`lane_value`]).
macro_rules! lane_call {
    ($s:ident, |$x:ident| $e:expr) => {{
        let $x = $s[0];
        $e
    }};
    ($s:ident, |$x:ident, $y:ident| $e:expr) => {{
        let ($x, $y) = ($s[0], $s[1]);
        $e
    }};
    ($s:ident, |$x:ident, $y:ident, $z:ident| $e:expr) => {{
        let ($x, $y, $z) = ($s[0], $s[1], $s[2]);
        $e
    }};
    ($s:ident, |$x:ident, $y:ident, $z:ident, $u:ident| $e:expr) => {{
        let ($x, $y, $z, $u) = ($s[0], $s[1], $s[2], $s[3]);
        $e
    }};
}

/// Whether a fact named in a `lane_ops!` entry is the one asked for.
macro_rules! fact_is {
    (commutes, commutes) => {
        true
    };
    (flushed, flushed) => {
        true
    };
    ($fact:ident, $asked:ident) => {
        false
    };
}

macro_rules! lane_ops {
    ($($op:ident $([$($fact:ident)*])? => |$($v:ident),+| $e:expr,)*) => {
        /// Whether swapping sources 0 and 1 of `op` changes no result bit
        /// (`commutes` in its `lane_ops!` entry): the commutative
        /// arithmetic (a float NaN result is the canonical one whatever the
        /// operand order, [`fout`]; `min`/`max` treat their operands
        /// alike), comparisons for equality, bitwise operations, and `mad`'s
        /// two factors.
        pub(crate) fn commutes(op: AluOp) -> bool {
            match op {
                $(AluOp::$op => false $($(|| fact_is!($fact, commutes))*)?,)*
                AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4 => false,
            }
        }

        /// Whether an ALU result is flushed whatever its sources (`flushed`
        /// in its `lane_ops!` entry): it passes through [`fout`], or is a
        /// comparison's 0 or all ones (`crate::analysis::flushed`).
        pub(crate) fn result_flushed(op: AluOp) -> bool {
            match op {
                $(AluOp::$op => false $($(|| fact_is!($fact, flushed))*)?,)*
                AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4 => true,
            }
        }

        /// The kernels for the baseline instruction set.
        #[allow(non_snake_case)]
        mod kernels {
            use super::*;
            $(
                pub(super) fn $op(o: &mut [u32], a: &[u32], b: &[u32], c: &[u32], d: &[u32]) {
                    lanes!(o, a, b, c, d, |$($v),+| $e)
                }
            )*
        }

        // The same kernels compiled for AVX2 (eight lanes per vector
        // instruction instead of four) and for AVX-512 (sixteen): the lane
        // functions are inlined into each, so they are the same code, only
        // wider.
        #[cfg(target_arch = "x86_64")]
        wide_kernels!(kernels_avx2, "avx2", $($op => |$($v),+| $e,)*);
        #[cfg(target_arch = "x86_64")]
        wide_kernels!(
            kernels_avx512,
            "avx512f,avx512bw,avx512dq,avx512vl,avx2",
            $($op => |$($v),+| $e,)*
        );

        // the row kernels, likewise, and their variants for flushed
        // sources, whose `fin` flushes nothing ([`fin_flushed`])
        row_kernels!(rows_base, [const FLUSHED: bool = false; const CANONICAL: bool = true;], $($op => |$($v),+| $e,)*);
        row_kernels!(
            rows_base_f,
            [const FLUSHED: bool = true; const CANONICAL: bool = true; use super::fin_flushed as fin;],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx2,
            "avx2",
            [const FLUSHED: bool = false; const CANONICAL: bool = true;],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx2_f,
            "avx2",
            [const FLUSHED: bool = true; const CANONICAL: bool = true; use super::fin_flushed as fin;],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx512,
            "avx512f,avx512bw,avx512dq,avx512vl,avx2",
            [const FLUSHED: bool = false; const CANONICAL: bool = true;],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx512_f,
            "avx512f,avx512bw,avx512dq,avx512vl,avx2",
            [const FLUSHED: bool = true; const CANONICAL: bool = true; use super::fin_flushed as fin;],
            $($op => |$($v),+| $e,)*
        );

        // and the variants for flushed sources whose NaN results keep the
        // CPU's payload ([`fout_blind`])
        row_kernels!(
            rows_base_b,
            [
                const FLUSHED: bool = true; const CANONICAL: bool = false;
                use super::fin_flushed as fin; use super::fout_blind as fout;
            ],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx2_b,
            "avx2",
            [
                const FLUSHED: bool = true; const CANONICAL: bool = false;
                use super::fin_flushed as fin; use super::fout_blind as fout;
            ],
            $($op => |$($v),+| $e,)*
        );
        #[cfg(target_arch = "x86_64")]
        row_kernels!(
            rows_avx512_b,
            "avx512f,avx512bw,avx512dq,avx512vl,avx2",
            [
                const FLUSHED: bool = true; const CANONICAL: bool = false;
                use super::fin_flushed as fin; use super::fout_blind as fout;
            ],
            $($op => |$($v),+| $e,)*
        );

        /// The kernel of an ALU instruction (the widest the CPU runs:
        /// AVX-512, AVX2 or the baseline); every opcode has one (the match
        /// is exhaustive).
        pub(crate) fn lane_op(op: AluOp) -> LaneOp {
            let i = isa() as usize;
            let dot = |dot, [rows, flushed_rows, blind_rows]: [[RowKernel; 3]; 3]| LaneOp {
                kernel: sets!(Kernel, kernels, kernels_avx2, kernels_avx512, Mul)[i],
                rows: rows[i],
                flushed_rows: flushed_rows[i],
                blind_rows: blind_rows[i],
                commutes: false,
                arity: 2,
                dot,
            };
            match op {
                $(AluOp::$op => LaneOp {
                    kernel: sets!(Kernel, kernels, kernels_avx2, kernels_avx512, $op)[i],
                    rows: row_sets!($op)[i],
                    flushed_rows: row_sets_f!($op)[i],
                    blind_rows: row_sets_b!($op)[i],
                    commutes: commutes(AluOp::$op),
                    arity: arity!($($v),+),
                    dot: 0,
                },)*
                AluOp::Dp2 => dot(2, row_sets_dot!(dot::<4>)),
                AluOp::Dp3 => dot(3, row_sets_dot!(dot::<6>)),
                AluOp::Dp4 => dot(4, row_sets_dot!(dot::<8>)),
            }
        }

        /// One lane of an ALU instruction: the lane function every kernel of
        /// `op` applies, on the lane's source words `s[..arity]` (modifiers
        /// applied), for code that runs one lane at a time
        /// (`crate::analysis::cas_loop`). `None` for the dot products, which have no
        /// lane function (their kernels combine components).
        #[inline(always)]
        pub(crate) fn lane_value(op: AluOp, s: [u32; 4]) -> Option<u32> {
            match op {
                $(AluOp::$op => Some(lane_call!(s, |$($v),+| $e)),)*
                AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4 => None,
            }
        }

        /// Every lane kernel: opcode, arity, its baseline, AVX2 and AVX-512 versions.
        #[cfg(test)]
        pub(crate) fn all_kernels() -> Vec<(AluOp, u8, [Kernel; 3])> {
            vec![$((
                AluOp::$op,
                arity!($($v),+),
                sets!(Kernel, kernels, kernels_avx2, kernels_avx512, $op),
            ),)*]
        }

        /// Every row kernel: opcode, arity, which variant (0: any
        /// sources, 1: flushed sources, 2: flushed sources and NaN
        /// results left as the CPU makes them), baseline, AVX2 and AVX-512
        /// versions (the dot products with arity 4, 6 and 8).
        #[cfg(test)]
        pub(crate) fn all_row_kernels() -> Vec<(AluOp, u8, usize, [RowKernel; 3])> {
            let mut v = vec![$((AluOp::$op, arity!($($v),+), 0, row_sets!($op)),)*];
            v.extend([$((AluOp::$op, arity!($($v),+), 1, row_sets_f!($op)),)*]);
            v.extend([$((AluOp::$op, arity!($($v),+), 2, row_sets_b!($op)),)*]);
            for f in 0..3 {
                v.push((AluOp::Dp2, 4, f, row_sets_dot!(dot::<4>)[f]));
                v.push((AluOp::Dp3, 6, f, row_sets_dot!(dot::<6>)[f]));
                v.push((AluOp::Dp4, 8, f, row_sets_dot!(dot::<8>)[f]));
            }
            v
        }
    };
}

/// `[$base::item, $avx2::item, $avx512::item]` as `[$ty; 3]`, indexed by
/// [`Isa`]; off x86-64, where the wide modules do not exist, the baseline's
/// item three times.
#[cfg(target_arch = "x86_64")]
macro_rules! sets {
    ($ty:ty, $base:ident, $avx2:ident, $avx512:ident, $($item:tt)+) => {
        [$base::$($item)+ as $ty, $avx2::$($item)+, $avx512::$($item)+]
    };
}

#[cfg(not(target_arch = "x86_64"))]
macro_rules! sets {
    ($ty:ty, $base:ident, $avx2:ident, $avx512:ident, $($item:tt)+) => {
        [$base::$($item)+ as $ty; 3]
    };
}

/// The row kernel `item` in the three sets ([`sets`]).
macro_rules! row_sets {
    ($($item:tt)+) => {
        sets!(RowKernel, rows_base, rows_avx2, rows_avx512, $($item)+)
    };
}

/// The variant for flushed sources of the row kernel `item` in the three
/// sets ([`sets`]).
macro_rules! row_sets_f {
    ($($item:tt)+) => {
        sets!(RowKernel, rows_base_f, rows_avx2_f, rows_avx512_f, $($item)+)
    };
}

/// The variant for flushed sources and NaN results with the CPU's
/// payload of the row kernel `item` in the three sets ([`sets`]).
macro_rules! row_sets_b {
    ($($item:tt)+) => {
        sets!(RowKernel, rows_base_b, rows_avx2_b, rows_avx512_b, $($item)+)
    };
}

/// A dot product's row kernel `item` in its three variants (any sources,
/// flushed sources, flushed sources and the CPU's NaN), each in the three
/// sets ([`sets`]).
macro_rules! row_sets_dot {
    ($($item:tt)+) => {
        [row_sets!($($item)+), row_sets_f!($($item)+), row_sets_b!($($item)+)]
    };
}

/// A vector instruction set the kernels and the interpreter loop are
/// compiled for, narrowest first (the discriminant indexes the kernel sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]

pub enum Isa {
    /// baseline x86-64 (SSE2), or any other architecture
    Baseline,
    /// AVX2
    Avx2,
    /// AVX-512 F, BW, DQ and VL (with AVX2)
    Avx512,
}

/// The environment variable that lowers the instruction set the executor
/// uses below what the CPU has: `baseline` or `avx2` (`avx512` changes
/// nothing). For comparing the compiled variants, which must give the same
/// bits; any other value is ignored here ([`isa_override`] says whether it
/// is valid).
pub const ISA_ENV: &str = "SM5SIM_ISA";

/// The instruction set that [`ISA_ENV`] asks for: `Ok(None)` when it is not
/// set, `Err(value)` when its value is none of `baseline`, `avx2`, `avx512`.
pub fn isa_override() -> Result<Option<Isa>, String> {
    match std::env::var(ISA_ENV) {
        Err(_) => Ok(None),
        Ok(v) => match v.as_str() {
            "baseline" => Ok(Some(Isa::Baseline)),
            "avx2" => Ok(Some(Isa::Avx2)),
            "avx512" => Ok(Some(Isa::Avx512)),
            _ => Err(v),
        },
    }
}

/// The [`Isa`] the executor uses: this CPU's widest, lowered by
/// [`ISA_ENV`] (never raised; detected once per process).
pub(crate) fn isa() -> Isa {
    static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
    *ISA.get_or_init(|| {
        let cpu = cpu_isa();
        match isa_override() {
            Ok(Some(asked)) => cpu.min(asked),
            _ => cpu,
        }
    })
}

/// This CPU's widest [`Isa`].
fn cpu_isa() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl") {
            Isa::Avx512
        } else if has!("avx2") {
            Isa::Avx2
        } else {
            Isa::Baseline
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Isa::Baseline
    }
}

lane_ops! {
    Add [commutes flushed] => |x, y| fout(fin(x) + fin(y)),
    Mul [commutes flushed] => |x, y| fout(fin(x) * fin(y)),
    // the product is rounded and flushed, not fused; a NaN product stays NaN
    // through the add, so only the result needs the canonical NaN
    Mad [commutes flushed] => |x, y, z| fout(f32::from_bits(ftz((fin(x) * fin(y)).to_bits())) + fin(z)),
    Div [flushed] => |x, y| fout(fin(x) / fin(y)),
    Min [commutes flushed] => |x, y| fout(fmin(fin(x), fin(y))),
    Max [commutes flushed] => |x, y| fout(fmax(fin(x), fin(y))),
    Exp [flushed] => |x| fout(fin(x).exp2()),
    Log [flushed] => |x| fout(fin(x).log2()),
    Frc [flushed] => |x| frc(x),
    RoundNe [flushed] => |x| fout(fin(x).round_ties_even()),
    RoundNi [flushed] => |x| fout(fin(x).floor()),
    RoundPi [flushed] => |x| fout(fin(x).ceil()),
    RoundZ [flushed] => |x| fout(fin(x).trunc()),
    Rcp [flushed] => |x| fout(1.0 / fin(x)),
    Rsq [flushed] => |x| fout(1.0 / fin(x).sqrt()),
    Sqrt [flushed] => |x| fout(fin(x).sqrt()),
    Eq [commutes flushed] => |x, y| bool_mask(fin(x) == fin(y)),
    Ne [commutes flushed] => |x, y| bool_mask(fin(x) != fin(y)),
    Lt [flushed] => |x, y| bool_mask(fin(x) < fin(y)),
    Ge [flushed] => |x, y| bool_mask(fin(x) >= fin(y)),
    Mov => |x| x,
    Movc => |c, x, y| if c != 0 { x } else { y },
    Iadd [commutes] => |x, y| x.wrapping_add(y),
    Imad [commutes] => |x, y, z| x.wrapping_mul(y).wrapping_add(z),
    Imax [commutes] => |x, y| (x as i32).max(y as i32) as u32,
    Imin [commutes] => |x, y| (x as i32).min(y as i32) as u32,
    Umax [commutes] => |x, y| x.max(y),
    Umin [commutes] => |x, y| x.min(y),
    Ineg => |x| x.wrapping_neg(),
    Ieq [commutes flushed] => |x, y| bool_mask(x == y),
    Ine [commutes flushed] => |x, y| bool_mask(x != y),
    Ilt [flushed] => |x, y| bool_mask((x as i32) < (y as i32)),
    Ige [flushed] => |x, y| bool_mask((x as i32) >= (y as i32)),
    Ult [flushed] => |x, y| bool_mask(x < y),
    Uge [flushed] => |x, y| bool_mask(x >= y),
    Msad => |x, y, z| msad(x, y, z),
    And [commutes] => |x, y| x & y,
    Or [commutes] => |x, y| x | y,
    Xor [commutes] => |x, y| x ^ y,
    Not => |x| !x,
    Ishl => |x, y| x << (y & 31),
    Ishr => |x, y| ((x as i32) >> (y & 31)) as u32,
    Ushr => |x, y| x >> (y & 31),
    Ubfe => |x, y, z| ubfe(x, y, z),
    Ibfe => |x, y, z| ibfe(x, y, z),
    Bfi => |x, y, z, u| bfi(x, y, z, u),
    Bfrev => |x| x.reverse_bits(),
    Countbits => |x| x.count_ones(),
    FirstbitHi => |x| firstbit_hi(x),
    FirstbitLo => |x| if x == 0 { !0 } else { x.trailing_zeros() },
    FirstbitShi => |x| firstbit_shi(x),
    Ftoi => |x| fin(x) as i32 as u32,
    Ftou => |x| fin(x) as u32,
    Itof [flushed] => |x| fout(x as i32 as f32),
    Utof [flushed] => |x| fout(x as f32),
    F16tof32 => |x| f16_to_f32(x),
    F32tof16 => |x| f32_to_f16_rtz(x),
}

/// The running sum of `dp2`–`dp4`: `o[l] += a[l]·b[l]`, the product
/// rounded (and flushed), then the sum (`c` and `d` are ignored). With the `mul`
/// kernel for the first term this evaluates a dot product left to right,
/// unfused (`reference/compute-model.md` §8).
fn dp_acc(o: &mut [u32], a: &[u32], b: &[u32], _c: &[u32], _d: &[u32]) {
    for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
        *o = fout(fin(*o) + fin(fout(fin(x) * fin(y))));
    }
}

/// [`dp_acc`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dp_acc_avx2(o: &mut [u32], a: &[u32], b: &[u32], _c: &[u32], _d: &[u32]) {
    for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
        *o = fout(fin(*o) + fin(fout(fin(x) * fin(y))));
    }
}

/// [`dp_acc`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
unsafe fn dp_acc_avx512(o: &mut [u32], a: &[u32], b: &[u32], _c: &[u32], _d: &[u32]) {
    for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
        *o = fout(fin(*o) + fin(fout(fin(x) * fin(y))));
    }
}

/// The running-sum kernel of the dot products (the widest the CPU runs):
/// `o` is read and written, so it must not alias a source.
pub(crate) fn dp_acc_kernel() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    {
        [dp_acc as Kernel, dp_acc_avx2, dp_acc_avx512][isa() as usize]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        dp_acc
    }
}

/// The lanes of `udiv`: `(q[l], r[l]) = udiv(n[l], d[l])` ([`udiv`]), for
/// as many lanes as the shortest slice has.
fn udiv_rows(q: &mut [u32], r: &mut [u32], n: &[u32], d: &[u32]) {
    for (((q, r), &n), &d) in q.iter_mut().zip(r).zip(n).zip(d) {
        (*q, *r) = udiv(n, d);
    }
}

/// [`udiv_rows`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn udiv_rows_avx2(q: &mut [u32], r: &mut [u32], n: &[u32], d: &[u32]) {
    for (((q, r), &n), &d) in q.iter_mut().zip(r).zip(n).zip(d) {
        (*q, *r) = udiv(n, d);
    }
}

/// [`udiv_rows`] compiled for AVX-512 (which converts u32 to f64 and back
/// in one instruction each).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
unsafe fn udiv_rows_avx512(q: &mut [u32], r: &mut [u32], n: &[u32], d: &[u32]) {
    for (((q, r), &n), &d) in q.iter_mut().zip(r).zip(n).zip(d) {
        (*q, *r) = udiv(n, d);
    }
}

/// The lane loop of `udiv` ([`udiv_rows`], the widest the CPU runs): an
/// `unsafe fn` for the same reason as [`Kernel`].
pub(crate) type UdivRows = unsafe fn(&mut [u32], &mut [u32], &[u32], &[u32]);

/// [`udiv_rows`] in the widest instruction set the CPU runs ([`isa`]).
pub(crate) fn udiv_rows_kernel() -> UdivRows {
    #[cfg(target_arch = "x86_64")]
    {
        [udiv_rows as UdivRows, udiv_rows_avx2, udiv_rows_avx512][isa() as usize]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        udiv_rows
    }
}

/// [`sim_mem::affine_words`] (whether the lanes' addresses lie on one line
/// of words in bounds) compiled for the widest instruction set the CPU
/// runs ([`isa`]): its check of every lane is a loop that vectorises, eight
/// or sixteen lanes at a time there where the baseline takes four.
pub(crate) fn affine_words(
    ext: sim_mem::Extent,
    a: &[u32],
    b: &[u32],
    k_max: u32,
) -> Option<(usize, usize)> {
    #[cfg(target_arch = "x86_64")]
    {
        /// [`sim_mem::affine_words`] compiled for AVX2.
        #[target_feature(enable = "avx2")]
        fn avx2(ext: sim_mem::Extent, a: &[u32], b: &[u32], k: u32) -> Option<(usize, usize)> {
            sim_mem::affine_words(ext, a, b, k)
        }
        /// [`sim_mem::affine_words`] compiled for AVX-512.
        #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
        fn avx512(ext: sim_mem::Extent, a: &[u32], b: &[u32], k: u32) -> Option<(usize, usize)> {
            sim_mem::affine_words(ext, a, b, k)
        }
        match isa() {
            // SAFETY: `isa` is at most what this CPU runs
            Isa::Avx512 => unsafe { avx512(ext, a, b, k_max) },
            // SAFETY: as above
            Isa::Avx2 => unsafe { avx2(ext, a, b, k_max) },
            Isa::Baseline => sim_mem::affine_words(ext, a, b, k_max),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        sim_mem::affine_words(ext, a, b, k_max)
    }
}

/// `udiv` by one divisor `d` in every lane, as a multiplication: the
/// round-up method of Granlund and Montgomery ("Division by invariant
/// integers using multiplication", PLDI 1994, §4, figure 4.1), with
/// `ℓ = ⌈log₂ d⌉` and the 33-bit multiplier `2³² + m`, where
/// `m = ⌊2³²·(2^ℓ − d)/d⌋ + 1` (below 2³² for every `d ≥ 1`: it reaches
/// 2³² only where `2^ℓ = 2d`, which `ℓ`'s definition excludes):
/// `t = ⌊m·n / 2³²⌋` and `q = (t + ((n − t) ≫ s₁)) ≫ s₂` with
/// `s₁ = min(ℓ, 1)` and `s₂ = ℓ − s₁` (the sum cannot wrap: `t ≤ n`). For
/// `d = 1`, `m = 1` and both shifts are 0, so `q = n`. `d = 0` has no
/// multiplier: its lanes get 0xFFFFFFFF twice, as [`udiv`]'s do.
/// `udiv_by_matches_integer_division` checks it against `/` and `%`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UdivBy {
    d: u32,
    m: u32,
    s1: u32,
    s2: u32,
}

impl UdivBy {
    pub(crate) fn new(d: u32) -> Self {
        if d == 0 {
            return UdivBy {
                d,
                m: 0,
                s1: 0,
                s2: 0,
            };
        }
        let l = 32 - (d - 1).leading_zeros();
        // 2^ℓ − d < d ≤ 2³², so the product is below 2⁶⁴
        let m = (((1u64 << l) - d as u64) << 32) / d as u64 + 1;
        let s1 = l.min(1);
        UdivBy {
            d,
            m: m as u32,
            s1,
            s2: l - s1,
        }
    }

    /// `(n / d, n % d)`; for `d = 0`, `(0xFFFFFFFF, 0xFFFFFFFF)`.
    #[inline(always)]
    pub(crate) fn div_rem(self, n: u32) -> (u32, u32) {
        if self.d == 0 {
            return (!0, !0);
        }
        let t = ((n as u64 * self.m as u64) >> 32) as u32;
        let q = (t + ((n - t) >> self.s1)) >> self.s2;
        (q, n.wrapping_sub(q.wrapping_mul(self.d)))
    }
}

/// The lanes of `udiv` by one divisor: `(q[l], r[l]) = by.div_rem(n[l])`
/// ([`UdivBy`]), for as many lanes as the shortest slice has.
#[inline(always)]
fn udiv_by_rows_in(q: &mut [u32], r: &mut [u32], n: &[u32], by: UdivBy) {
    if by.d == 0 {
        q.fill(!0);
        r.fill(!0);
        return;
    }
    for ((q, r), &n) in q.iter_mut().zip(r).zip(n) {
        (*q, *r) = by.div_rem(n);
    }
}

fn udiv_by_rows(q: &mut [u32], r: &mut [u32], n: &[u32], by: UdivBy) {
    udiv_by_rows_in(q, r, n, by)
}

/// [`udiv_by_rows`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn udiv_by_rows_avx2(q: &mut [u32], r: &mut [u32], n: &[u32], by: UdivBy) {
    udiv_by_rows_in(q, r, n, by)
}

/// [`udiv_by_rows`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
unsafe fn udiv_by_rows_avx512(q: &mut [u32], r: &mut [u32], n: &[u32], by: UdivBy) {
    udiv_by_rows_in(q, r, n, by)
}

/// The lane loop of `udiv` by one divisor ([`udiv_by_rows`], the widest
/// the CPU runs): an `unsafe fn` for the same reason as [`Kernel`].
pub(crate) type UdivByRows = unsafe fn(&mut [u32], &mut [u32], &[u32], UdivBy);

/// [`udiv_by_rows`] in the widest instruction set the CPU runs ([`isa`]).
pub(crate) fn udiv_by_rows_kernel() -> UdivByRows {
    #[cfg(target_arch = "x86_64")]
    {
        [
            udiv_by_rows as UdivByRows,
            udiv_by_rows_avx2,
            udiv_by_rows_avx512,
        ][isa() as usize]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        udiv_by_rows
    }
}

/// `frc`: x − floor(x) in [0, 1); ±inf → NaN; −0 → +0.
pub(crate) fn frc(x: u32) -> u32 {
    let f = fin(x);
    if f.is_infinite() {
        CANONICAL_NAN
    } else {
        // results just below 1 round to 1 in f32: clamp to [0, 1)
        let v = f - f.floor();
        fout(if v >= 1.0 {
            1.0 - f32::EPSILON / 2.0
        } else {
            v + 0.0
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A deterministic xorshift generator for the randomized tests.
    pub(crate) struct Rng(pub u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(crate) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        pub(crate) fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
            xs[self.below(xs.len())]
        }
    }

    /// Every row kernel, in each instruction set this CPU runs, computes
    /// what the lane kernels compute lane by lane: on random rows of an
    /// arena, its destination row among its sources or not, with source
    /// modifiers, `_sat`, a mask or none, and lane ranges with and without
    /// a remainder; the lanes outside the range or the mask keep their
    /// words. The variants for flushed sources do so on flushed words
    /// (under the float modifiers, which keep them flushed).
    #[test]
    fn row_kernels_match_lane_kernels() {
        let sets = match cpu_isa() {
            Isa::Baseline => 1,
            Isa::Avx2 => 2,
            Isa::Avx512 => 3,
        };
        let mods = [
            SrcBits::NONE,
            SrcBits {
                and: !0,
                xor: 0x8000_0000,
                add: 0,
            },
            SrcBits {
                and: 0x7fff_ffff,
                xor: 0,
                add: 0,
            },
            SrcBits {
                and: 0x7fff_ffff,
                xor: 0x8000_0000,
                add: 0,
            },
            SrcBits {
                and: !0,
                xor: !0,
                add: 1,
            },
        ];
        let lane_kernels = all_kernels();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for (op, arity, variant, rows) in all_row_kernels() {
            let (flushed, blind) = (variant > 0, variant == 2);
            let n = arity as usize;
            // the reference: the baseline lane kernel on one lane (a dot
            // product: mul, then dp_acc per further term)
            let lane = |s: &[u32]| -> u32 {
                let mut o = [0];
                let dot = matches!(op, AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4);
                if dot {
                    kernels::Mul(&mut o, &s[0..1], &s[1..2], &[0], &[0]);
                    for t in 1..n / 2 {
                        dp_acc(
                            &mut o,
                            &s[2 * t..2 * t + 1],
                            &s[2 * t + 1..2 * t + 2],
                            &[0],
                            &[0],
                        );
                    }
                } else {
                    let k = lane_kernels.iter().find(|k| k.0 == op).unwrap().2[0];
                    let at = |i: usize| &s[i.min(n - 1)..i.min(n - 1) + 1];
                    // SAFETY: a baseline kernel has no precondition
                    unsafe { k(&mut o, at(0), at(1), at(2), at(3)) };
                }
                o[0]
            };
            for (set, &kernel) in rows.iter().enumerate().take(sets) {
                for case in 0..60 {
                    let w = [1usize, 7, 16, 40, 64][case % 5];
                    let nrows = 10;
                    // the rows, then the spare row (clobbered: not compared)
                    // (the variants for flushed sources get flushed words)
                    let arena0: Vec<u32> = (0..(nrows + 1) * w)
                        .map(|_| {
                            let r = rng.next();
                            let v = match r % 4 {
                                0 => [0, 0x8000_0000, 1, 0x7f80_0000, 0x7fc0_0001, 0x3f80_0000]
                                    [(r >> 8) as usize % 6],
                                1 => (r >> 40) as u32 % 5,
                                _ => (r >> 16) as u32,
                            };
                            if flushed {
                                ftz(v)
                            } else {
                                v
                            }
                        })
                        .collect();
                    let row = |rng: &mut Rng| (rng.below(nrows) * w) as u32;
                    let mut a = RowArgs {
                        out: row(&mut rng),
                        spare: (nrows * w) as u32,
                        src: [0; 8],
                        mods: [SrcBits::NONE; 8],
                        modified: false,
                        sat: rng.below(4) == 0,
                    };
                    for k in 0..n {
                        a.src[k] = if rng.below(3) == 0 {
                            a.out
                        } else {
                            row(&mut rng)
                        };
                        if rng.below(3) == 0 {
                            // a flushed word stays so under the float
                            // modifiers only (the last is the integer `-`)
                            let n_mods = mods.len() - usize::from(flushed);
                            a.mods[k] = mods[rng.below(n_mods)];
                            a.modified |= a.mods[k] != SrcBits::NONE;
                        }
                    }
                    let start = rng.below(w);
                    let lanes = start..start + rng.below(w - start + 1);
                    let mask: Vec<u32> = (0..w).map(|_| bool_mask(rng.below(3) > 0)).collect();
                    let masked = rng.below(2) == 0;
                    let mut arena = arena0.clone();
                    let m = masked.then_some(&mask[..]);
                    // SAFETY: `sets` counts only the instruction sets this
                    // CPU runs; every row lies in the arena
                    unsafe { kernel(&mut arena, &a, lanes.clone(), m) };
                    let mut want = arena0.clone();
                    for l in lanes.clone() {
                        let s: Vec<u32> = (0..n)
                            .map(|k| a.mods[k].apply(arena0[a.src[k] as usize + l]))
                            .collect();
                        let v = lane(&s);
                        let v = if a.sat { sat(v) } else { v };
                        if !masked || mask[l] != 0 {
                            want[a.out as usize + l] = v;
                        }
                    }
                    if blind {
                        // any NaN result will do: the destination row's
                        // NaNs compared as the canonical one
                        for v in [&mut arena, &mut want] {
                            for o in &mut v[a.out as usize..a.out as usize + w] {
                                if f32::from_bits(*o).is_nan() {
                                    *o = CANONICAL_NAN;
                                }
                            }
                        }
                    }
                    assert_eq!(
                        arena[..nrows * w],
                        want[..nrows * w],
                        "set {set} {op:?} variant {variant}, {a:?}, lanes {lanes:?}, \
                         masked {masked}"
                    );
                }
            }
        }
    }

    /// [`udiv`]'s f64 quotient is the integer one, with its remainder, on
    /// edge values (0, 1, powers of two and their neighbours, u32::MAX, a
    /// multiple of the divisor less one) and random pairs; by zero both are
    /// 0xFFFFFFFF.
    #[test]
    fn udiv_matches_integer_division() {
        let mut edge = vec![
            0u32,
            1,
            2,
            3,
            7,
            10,
            0xffff,
            0x1_0000,
            u32::MAX,
            u32::MAX - 1,
        ];
        for k in 1..32 {
            edge.extend([(1u32 << k) - 1, 1 << k, (1 << k) + 1]);
        }
        let mut rng = Rng(0x243f_6a88_85a3_08d3);
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for &n in &edge {
            for &d in &edge {
                pairs.push((n, d));
                // n = q·d − 1 for the largest q that fits
                if d > 1 {
                    let q = u32::MAX / d;
                    pairs.push((q * d - 1, d));
                    pairs.push((q * d, d));
                }
            }
        }
        for _ in 0..200_000 {
            let r = rng.next();
            let d = match r % 3 {
                0 => (r >> 32) as u32 % 1000,
                1 => (r >> 40) as u32,
                _ => (r >> 32) as u32,
            };
            pairs.push(((rng.next() >> 32) as u32, d));
        }
        for (n, d) in pairs {
            let want = match (n.checked_div(d), n.checked_rem(d)) {
                (Some(q), Some(r)) => (q, r),
                _ => (!0, !0),
            };
            assert_eq!(udiv(n, d), want, "{n} / {d}");
        }
    }

    /// [`UdivBy`]'s multiply-and-shift quotient is the integer one, with
    /// its remainder, for every divisor below 2¹² and every power of two
    /// and its neighbours (each with edge and random numerators), and for
    /// random divisors; the row kernels agree with it at every width.
    #[test]
    fn udiv_by_matches_integer_division() {
        let mut rng = Rng(0x1319_8a2e_0370_7344);
        let mut divisors: Vec<u32> = (0..4096).collect();
        for k in 12..32 {
            divisors.extend([(1u32 << k) - 1, 1 << k, (1 << k) + 1]);
        }
        divisors.extend([u32::MAX, u32::MAX - 1, 0x8000_0001, 0xAAAA_AAAB]);
        for _ in 0..20_000 {
            let r = rng.next();
            divisors.push((r >> (32 + (r & 31))) as u32);
        }
        for &d in &divisors {
            let by = UdivBy::new(d);
            let mut ns = vec![0u32, 1, 2, u32::MAX, u32::MAX - 1, d, d.wrapping_sub(1)];
            if d > 1 {
                let q = u32::MAX / d;
                ns.extend([q * d - 1, q * d, (q - q / 2) * d - 1]);
            }
            for _ in 0..16 {
                ns.push((rng.next() >> 32) as u32);
            }
            for n in ns {
                let want = match (n.checked_div(d), n.checked_rem(d)) {
                    (Some(q), Some(r)) => (q, r),
                    _ => (!0, !0),
                };
                assert_eq!(by.div_rem(n), want, "{n} / {d}");
            }
        }
        let n: Vec<u32> = (0..67).map(|_| (rng.next() >> 32) as u32).collect();
        for d in [0u32, 1, 3, 64, 1000, 0x8000_0001] {
            let by = UdivBy::new(d);
            for len in [1, 15, 16, 17, 64, 67] {
                let (mut q, mut r) = (vec![7u32; len], vec![7u32; len]);
                // SAFETY: the kernel is compiled for an instruction set
                // this CPU runs (`isa`)
                unsafe { udiv_by_rows_kernel()(&mut q, &mut r, &n[..len], by) };
                for l in 0..len {
                    assert_eq!((q[l], r[l]), udiv(n[l], d), "{} / {d}", n[l]);
                }
            }
        }
    }

    /// The AVX2 and AVX-512 kernels compute what the baseline ones compute,
    /// bit for bit, lane for lane, on special values (zeros, denormals, NaNs,
    /// infinities, integer extremes) and random words, at lengths with and
    /// without a remainder. Each wide set runs where the CPU has it.
    #[test]
    fn wide_kernels_match_baseline() {
        let isa = cpu_isa();
        if isa == Isa::Baseline {
            eprintln!("no AVX2 on this CPU: only the baseline kernels run here");
            return;
        }
        if isa < Isa::Avx512 {
            eprintln!("no AVX-512 on this CPU: the AVX-512 kernels are not compared");
        }
        let special = [
            0u32,
            0x8000_0000,
            1,
            0x807f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f7f_ffff,
            0x4f00_0000,
            0xcf00_0001,
            0x7fff_ffff,
            0xffff_ffff,
            31,
            32,
            0x3c00,
        ];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut kernels = all_kernels();
        #[cfg(target_arch = "x86_64")]
        kernels.push((AluOp::Dp4, 3, [dp_acc, dp_acc_avx2, dp_acc_avx512]));
        let wide_sets = kernels
            .into_iter()
            .flat_map(|(op, arity, [base, avx2, avx512])| {
                let avx512 = (isa >= Isa::Avx512).then_some((op, arity, base, avx512, "AVX-512"));
                std::iter::once((op, arity, base, avx2, "AVX2")).chain(avx512)
            });
        for (op, arity, base, wide, set) in wide_sets {
            for len in [1usize, 7, 8, 16, 32, 45, 77] {
                for _ in 0..40 {
                    let mut word = || {
                        let r = rng.next();
                        if r.is_multiple_of(3) {
                            special[(r >> 8) as usize % special.len()]
                        } else {
                            (r >> 16) as u32
                        }
                    };
                    let a: Vec<u32> = (0..len).map(|_| word()).collect();
                    let b: Vec<u32> = (0..len).map(|_| word()).collect();
                    let c: Vec<u32> = (0..len).map(|_| word()).collect();
                    let d: Vec<u32> = (0..len).map(|_| word()).collect();
                    // the output starts as `c` (the running sum of `dp_acc`)
                    let (mut o1, mut o2) = (c.clone(), c.clone());
                    // SAFETY: the baseline kernel has no precondition; a
                    // wide one runs only where `isa()` found its set.
                    unsafe {
                        base(&mut o1, &a, &b, &c, &d);
                        wide(&mut o2, &a, &b, &c, &d);
                    }
                    // bit for bit, NaNs included (`fout` makes them canonical)
                    assert_eq!(
                        o1, o2,
                        "{set} {op:?} (arity {arity}) on {a:x?} {b:x?} {c:x?} {d:x?}"
                    );
                }
            }
        }
    }
}
