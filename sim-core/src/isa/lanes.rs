//! Lane semantics of the component-wise ALU instructions: one lane
//! function per opcode, written once in the table [`for_each_lane_op!`],
//! and the scalar helpers they call.
//!
//! The rules are those of `reference/sm5-compute-isa.md` and the float rules
//! of `reference/compute-model.md` §8: 32-bit float inputs and outputs are
//! flushed to zero when denormal (sign kept); `mad` is unfused (the product
//! rounded); `min`/`max` return the non-NaN operand and order −0 below +0;
//! float-to-integer conversions truncate (Rust's saturating `as`, NaN → 0);
//! a float result that is NaN is the canonical quiet NaN ([`fout`]).
//!
//! The table's static facts and one lane at a time are here ([`commutes`],
//! [`result_flushed`], [`arity`], [`dot_terms`], [`lane_value`]: what the
//! analyses read, which run before the executor); the executor's kernels
//! that apply these lane functions to whole warps, compiled per CPU
//! instruction set, are instantiated from the same table in
//! `crate::exec::kernels` (the general path `crate::exec::Cx::alu` and the
//! row kernels of the fast ALU instructions both call them, so the two
//! cannot disagree).

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

/// The number of sources of a lane function `|v…| e` (its parameters).
macro_rules! lane_arity {
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
pub(crate) use lane_arity;

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

/// Whether a fact named in a [`for_each_lane_op!`] entry is the one asked
/// for.
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

/// What this module makes of the lane-function table
/// ([`for_each_lane_op!`]): the static facts of each instruction and its
/// lane function one lane at a time (the kernels are
/// `crate::exec::kernels`'s).
macro_rules! lane_semantics {
    (
        imports { $($import:item)* }
        $($op:ident $([$($fact:ident)*])? => |$($v:ident),+| $e:expr,)*
    ) => {
        /// Whether swapping sources 0 and 1 of `op` changes no result bit
        /// (`commutes` in its [`for_each_lane_op!`] entry): the commutative
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
        /// in its [`for_each_lane_op!`] entry): it passes through [`fout`],
        /// or is a comparison's 0 or all ones (`crate::analysis::flushed`).
        pub(crate) fn result_flushed(op: AluOp) -> bool {
            match op {
                $(AluOp::$op => false $($(|| fact_is!($fact, flushed))*)?,)*
                AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4 => true,
            }
        }

        /// An ALU instruction's number of sources (1–4): its lane
        /// function's; a dot product's 2 (the two vectors whose terms
        /// [`dot_terms`] counts). Its kernel's too
        /// (`crate::exec::kernels::LaneOp::arity`).
        pub(crate) fn arity(op: AluOp) -> u8 {
            match op {
                $(AluOp::$op => lane_arity!($($v),+),)*
                AluOp::Dp2 | AluOp::Dp3 | AluOp::Dp4 => 2,
            }
        }

        /// The terms of a dot product (`dp2`–`dp4`: 2–4, each the product
        /// of one component of sources 0 and 1); 0 for the other
        /// instructions, whose lane function applies to each destination
        /// component alone. Its kernel's too
        /// (`crate::exec::kernels::LaneOp::dot`).
        pub(crate) fn dot_terms(op: AluOp) -> u8 {
            match op {
                $(AluOp::$op => 0,)*
                AluOp::Dp2 => 2,
                AluOp::Dp3 => 3,
                AluOp::Dp4 => 4,
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
    };
}

/// The lane function of every component-wise ALU instruction, written
/// once: `for_each_lane_op!(callback)` is `callback! { imports { … } Op
/// [facts] => |x, …| e, … }`, one entry per [`AluOp`] but the dot products
/// (whose kernels combine components), with its static facts in brackets
/// (`commutes`: swapping sources 0 and 1 changes no bit; `flushed`: the
/// result is flushed whatever the sources) and its lane function of the
/// source words (1–4 of them). This module makes the facts and
/// [`lane_value`] of it ([`lane_semantics!`]); `crate::exec::kernels` makes
/// the lane, vector and row kernels for each instruction set, which inline
/// the lane function into their loops. `imports` are the functions the
/// lane functions call, which a callback that compiles them outside this
/// module imports (add a helper there when a lane function calls a new
/// one).
macro_rules! for_each_lane_op {
    ($callback:ident) => {
        $callback! {
            imports {
                use crate::isa::lanes::{
                    bfi, bool_mask, fin, firstbit_hi, firstbit_shi, fmax, fmin, fout, frc, ftz,
                    ibfe, msad, ubfe,
                };
                use sim_mem::format::{f16_to_f32, f32_to_f16_rtz};
            }
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
            // (a select of bits, which vectorises; `if c != 0 { x } else { y }` compiled to a scalar loop)
            Movc => |c, x, y| { let m = bool_mask(c != 0); (x & m) | (y & !m) },
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
    };
}
pub(crate) use for_each_lane_op;

for_each_lane_op!(lane_semantics);

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
}
