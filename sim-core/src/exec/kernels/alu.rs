//! The kernel table: for every component-wise ALU instruction, its lane
//! kernel (`o[l] = f(a[l], …)` over slices, [`Kernel`]) and its row kernels
//! (over rows of a warp's arena, [`RowKernel`], in three variants), each
//! compiled for baseline x86-64, AVX2 and AVX-512; [`lane_op`] hands out
//! those of the instruction set the CPU runs, and [`dp_acc_kernel`] the dot
//! products' running sum.
//!
//! The kernels are instantiated from the lane functions' table,
//! `crate::isa::lanes::for_each_lane_op!` (`lane_kernels!`), with the lane
//! function inlined into each loop: they compute what
//! `crate::isa::lanes::lane_value` computes lane by lane
//! (`reference/sm5-compute-isa.md`, `reference/compute-model.md` §8), only
//! wider. The row kernels' loops are `super::rows`'s.

use crate::exec::kernels::rows::{
    dot_body, lanes_blend, lanes_first_out, row_body, run_dot, sat_rows, split_rows, RowArgs,
    RowKernel,
};
use crate::isa::cpu::isa;
use crate::isa::lanes::{commutes, fin_flushed, for_each_lane_op, fout_blind, lane_arity};
use crate::isa::opcodes::AluOp;

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

/// The loop of a lane kernel: `o[l] = e` for every lane `l` of `o`, the
/// lane function `|v…| e` of the words `a[l]`, `b[l]`, … (as many sources
/// as it has; the others are ignored). Also a row kernel's plain pass
/// (`super::rows`'s `row_body`).
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

/// What the executor makes of the lane-function table
/// (`crate::isa::lanes::for_each_lane_op!`): the kernels of every
/// instruction in every instruction set, the table of them ([`lane_op`]),
/// and, for the tests, lists of them. The table's `imports` (the functions
/// its lane functions call) are imported here, where the generated kernel
/// modules take them from.
macro_rules! lane_kernels {
    (
        imports { $($import:item)* }
        $($op:ident $([$($fact:ident)*])? => |$($v:ident),+| $e:expr,)*
    ) => {
        $($import)*

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
                    arity: lane_arity!($($v),+),
                    dot: 0,
                },)*
                AluOp::Dp2 => dot(2, row_sets_dot!(dot::<4>)),
                AluOp::Dp3 => dot(3, row_sets_dot!(dot::<6>)),
                AluOp::Dp4 => dot(4, row_sets_dot!(dot::<8>)),
            }
        }

        /// Every lane kernel: opcode, arity, its baseline, AVX2 and AVX-512 versions.
        #[cfg(test)]
        pub(crate) fn all_kernels() -> Vec<(AluOp, u8, [Kernel; 3])> {
            vec![$((
                AluOp::$op,
                lane_arity!($($v),+),
                sets!(Kernel, kernels, kernels_avx2, kernels_avx512, $op),
            ),)*]
        }

        /// Every row kernel: opcode, arity, which variant (0: any
        /// sources, 1: flushed sources, 2: flushed sources and NaN
        /// results left as the CPU makes them), baseline, AVX2 and AVX-512
        /// versions (the dot products with arity 4, 6 and 8).
        #[cfg(test)]
        pub(crate) fn all_row_kernels() -> Vec<(AluOp, u8, usize, [RowKernel; 3])> {
            let mut v = vec![$((AluOp::$op, lane_arity!($($v),+), 0, row_sets!($op)),)*];
            v.extend([$((AluOp::$op, lane_arity!($($v),+), 1, row_sets_f!($op)),)*]);
            v.extend([$((AluOp::$op, lane_arity!($($v),+), 2, row_sets_b!($op)),)*]);
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
/// [`Isa`](crate::isa::cpu::Isa); off x86-64, where the wide modules do not
/// exist, the baseline's item three times.
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

// (the table's `imports`, the lane functions' helpers, are imported here
// with the kernels: `dp_acc` below uses their `fin` and `fout`)
for_each_lane_op!(lane_kernels);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::cpu::{cpu_isa, Isa};
    use crate::isa::lanes::tests::Rng;
    use crate::isa::lanes::{arity, dot_terms, sat, SrcBits, CANONICAL_NAN};

    /// The kernel table's facts are the lane functions' table's: each
    /// instruction's arity, terms and commutation in [`lane_op`] are what
    /// `crate::isa::lanes` (which the analyses read) says of it.
    #[test]
    fn lane_op_agrees_with_the_lane_semantics() {
        let ops = all_kernels().into_iter().map(|(op, arity, _)| (op, arity));
        let dots = [(AluOp::Dp2, 2), (AluOp::Dp3, 2), (AluOp::Dp4, 2)];
        for (op, n) in ops.chain(dots) {
            let k = lane_op(op);
            assert_eq!((k.arity, arity(op)), (n, n), "{op:?}");
            assert_eq!(k.dot, dot_terms(op), "{op:?}");
            assert_eq!(k.commutes, commutes(op), "{op:?}");
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
