//! The general (lockstep) ALU path: component-wise, double and two-result
//! instructions lane by lane through the kernels of `crate::exec::kernels`
//! (the lane functions of `crate::isa::lanes`).
use crate::exec::context::Cx;
use crate::exec::fast::FastPaths;
use crate::exec::kernels::{lane_op, UdivBy};
use crate::exec::warp::{Scratch, Warp};
use crate::ir::lowered::{Dst, Src, SrcMod};
use crate::isa::lanes::{bool_mask, fin, fout, sat};
use crate::isa::opcodes::{Alu2Op, AluOp, DoubleOp};

/// `(p[l], q[l]) = f(x[l], y[l])` for every lane: the lane loop of a
/// two-result instruction.
#[inline(always)]
pub(in crate::exec) fn lanes2(
    p: &mut [u32],
    q: &mut [u32],
    x: &[u32],
    y: &[u32],
    f: impl Fn(u32, u32) -> (u32, u32),
) {
    for (((p, q), &x), &y) in p.iter_mut().zip(q).zip(x).zip(y) {
        (*p, *q) = f(x, y);
    }
}

pub(in crate::exec) fn dmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

pub(in crate::exec) fn dmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

/// `_sat` on a double: clamp to [0, 1], NaN → 0, −0 → +0.
pub(in crate::exec) fn dsat(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else {
        x.min(1.0)
    }
}

impl Cx<'_, '_> {
    #[allow(unsafe_code)]
    pub(in crate::exec) fn alu(
        &self,
        sc: &mut Scratch,
        warp: &mut Warp,
        op: AluOp,
        dst: &Dst,
        src: &[Src; 4],
        saturate: bool,
    ) {
        use AluOp::*;
        let w = self.w;
        // one scratch vector: result (4·W), then one W-word buffer per source
        let mut buf = std::mem::take(&mut sc.alu);
        let (r, rest) = buf.split_at_mut(4 * w);
        let (s0, rest) = rest.split_at_mut(w);
        let (s1, rest) = rest.split_at_mut(w);
        let (s2, rest) = rest.split_at_mut(w);
        let s3 = &mut rest[..w];

        let wr: &Warp = warp;

        // Each destination component is computed from operand slices that
        // point straight into the register file when no copy is needed;
        // all sources are read before `write` changes any register.
        macro_rules! each {
            (|$comp:ident| $body:block) => {
                for $comp in 0..4 {
                    if dst.mask & (1 << $comp) != 0 {
                        $body
                    }
                }
            };
        }
        match op {
            Dp2 | Dp3 | Dp4 => {
                // products rounded, then summed left to right, each sum rounded
                let (acc, rest) = r.split_at_mut(w);
                let mul = lane_op(op);
                for comp in 0..mul.dot as usize {
                    let x = self.operand(wr, &src[0], comp, s0);
                    let y = self.operand(wr, &src[1], comp, s1);
                    let k = if comp == 0 {
                        mul.kernel
                    } else {
                        self.kernels.dp_acc
                    };
                    // SAFETY: `lane_op` and `dp_acc_kernel` return wide
                    // kernels only for an instruction set the CPU runs.
                    unsafe { k(acc, x, y, x, x) };
                }
                for comp in 1..4 {
                    if dst.mask & (1 << comp) != 0 {
                        rest[(comp - 1) * w..comp * w].copy_from_slice(acc);
                    }
                }
            }
            _ => {
                let k = lane_op(op);
                each!(|comp| {
                    let x = self.operand(wr, &src[0], comp, s0);
                    let y = match k.arity {
                        1 => x,
                        _ => self.operand(wr, &src[1], comp, s1),
                    };
                    let z = match k.arity {
                        3 | 4 => self.operand(wr, &src[2], comp, s2),
                        _ => x,
                    };
                    let u = match k.arity {
                        4 => self.operand(wr, &src[3], comp, s3),
                        _ => x,
                    };
                    let out = &mut r[comp * w..(comp + 1) * w];
                    // SAFETY: `lane_op` returns a wide kernel only for an
                    // instruction set the CPU runs; a baseline kernel has no
                    // precondition.
                    unsafe { (k.kernel)(out, x, y, z, u) };
                })
            }
        }
        if saturate {
            for comp in 0..4 {
                if dst.mask & (1 << comp) != 0 {
                    r[comp * w..(comp + 1) * w]
                        .iter_mut()
                        .for_each(|x| *x = sat(*x));
                }
            }
        }
        self.write(warp, dst, r);
        sc.alu = buf;
    }

    /// Double-precision instructions. A double occupies a component pair, x
    /// (low) y (high) or z w. Mappings, as fxc encodes them:
    /// - 64 → 64 bits: destination pair p (xy = 0, zw = 1) reads each source
    ///   double from its swizzled components (2p, 2p+1); `dmovc`'s k-th
    ///   destination double is selected by the condition's k-th component;
    /// - 64 → 32 bits (`dtof`, `dtoi`, `dtou`, comparisons): the k-th set
    ///   component of the mask receives the result of double k, read from
    ///   swizzled components (2k, 2k+1);
    /// - 32 → 64 bits (`ftod`, `itod`, `utod`): the k-th destination double
    ///   converts swizzled component k.
    ///
    /// Doubles keep denormals; `dfma` is fused; min/max return the non-NaN
    /// operand; conversions to integers truncate and saturate, NaN → 0.
    pub(in crate::exec) fn double(
        &self,
        sc: &mut Scratch,
        warp: &mut Warp,
        op: DoubleOp,
        dst: &Dst,
        src: &[Src; 3],
        sat: bool,
    ) {
        use DoubleOp::*;
        let w = self.w;
        let nsrc = match op {
            Fma | Movc => 3,
            Add | Mul | Min | Max | Div | Eq | Ge | Lt | Ne => 2,
            _ => 1,
        };
        let mut s = std::mem::take(&mut sc.s);
        let mut r = std::mem::take(&mut sc.r);
        for (i, src) in src.iter().enumerate().take(nsrc) {
            self.fetch(warp, src, 0b1111, &mut s[i]);
        }
        let dbl = |s: &[u32], modifier: SrcMod, c: usize, l: usize| -> f64 {
            let bits = s[c * w + l] as u64 | (s[(c + 1) * w + l] as u64) << 32;
            let sign = 1u64 << 63;
            f64::from_bits(match modifier {
                SrcMod::DNeg => bits ^ sign,
                SrcMod::DAbs => bits & !sign,
                SrcMod::DAbsNeg => bits | sign,
                _ => bits,
            })
        };
        // destination pairs (xy = 0, zw = 1) and set components, in order
        let (mut pairs, mut npairs) = ([0usize; 2], 0);
        for p in 0..2 {
            if dst.mask & (0b11 << (2 * p)) != 0 {
                pairs[npairs] = p;
                npairs += 1;
            }
        }
        let (mut set, mut nset) = ([0usize; 4], 0);
        for c in 0..4 {
            if dst.mask & (1 << c) != 0 {
                set[nset] = c;
                nset += 1;
            }
        }
        let (pairs, set) = (&pairs[..npairs], &set[..nset]);
        for l in 0..w {
            match op {
                ToF32 | ToI32 | ToU32 | Eq | Ge | Lt | Ne => {
                    for (k, &c) in set.iter().enumerate().take(2) {
                        let a = dbl(&s[0], src[0].modifier, 2 * k, l);
                        let bv = if nsrc > 1 {
                            dbl(&s[1], src[1].modifier, 2 * k, l)
                        } else {
                            0.0
                        };
                        r[c * w + l] = match op {
                            ToF32 => (a as f32).to_bits(),
                            ToI32 => a as i32 as u32,
                            ToU32 => a as u32,
                            Eq => bool_mask(a == bv),
                            Ge => bool_mask(a >= bv),
                            Lt => bool_mask(a < bv),
                            _ => bool_mask(a != bv),
                        };
                    }
                }
                _ => {
                    for (k, &p) in pairs.iter().enumerate() {
                        let c = 2 * p;
                        let v = match op {
                            FromF32 => f32::from_bits(s[0][k * w + l]) as f64,
                            FromI32 => s[0][k * w + l] as i32 as f64,
                            FromU32 => s[0][k * w + l] as f64,
                            Movc => {
                                if s[0][k * w + l] != 0 {
                                    dbl(&s[1], src[1].modifier, c, l)
                                } else {
                                    dbl(&s[2], src[2].modifier, c, l)
                                }
                            }
                            _ => {
                                let a = dbl(&s[0], src[0].modifier, c, l);
                                let bv = if nsrc > 1 {
                                    dbl(&s[1], src[1].modifier, c, l)
                                } else {
                                    0.0
                                };
                                match op {
                                    Add => a + bv,
                                    Mul => a * bv,
                                    Min => dmin(a, bv),
                                    Max => dmax(a, bv),
                                    Div => a / bv,
                                    Fma => a.mul_add(bv, dbl(&s[2], src[2].modifier, c, l)),
                                    Rcp => 1.0 / a,
                                    _ => a, // dmov
                                }
                            }
                        };
                        let v = if sat { dsat(v) } else { v };
                        let bits = v.to_bits();
                        r[c * w + l] = bits as u32;
                        r[(c + 1) * w + l] = (bits >> 32) as u32;
                    }
                }
            }
        }
        self.write(warp, dst, &r);
        sc.s = s;
        sc.r = r;
    }

    #[allow(unsafe_code)]
    pub(in crate::exec) fn alu2(
        &self,
        sc: &mut Scratch,
        warp: &mut Warp,
        op: Alu2Op,
        dst: &[Dst; 2],
        src: &[Src; 3],
    ) {
        use Alu2Op::*;
        let w = self.w;
        let comps = dst[0].mask | dst[1].mask;
        let mut buf = std::mem::take(&mut sc.alu);
        let (r, rest) = buf.split_at_mut(4 * w);
        let (r2, rest) = rest.split_at_mut(4 * w);
        let (s0, rest) = rest.split_at_mut(w);
        let (s1, rest) = rest.split_at_mut(w);
        let s2 = &mut rest[..w];

        let wr: &Warp = warp;

        for comp in 0..4 {
            if comps & (1 << comp) == 0 {
                continue;
            }
            let xs = self.operand(wr, &src[0], comp, s0);
            // one divisor in every lane (a constant buffer's slot count,
            // a literal): a multiplication instead of a division per lane
            if op == Udiv
                && src[1].modifier == SrcMod::None
                && self.fast_paths.contains(FastPaths::UDIV_BY_ONE)
            {
                if let Some(d) = self.uniform_word(&src[1], comp) {
                    let p = &mut r[comp * w..(comp + 1) * w];
                    let q = &mut r2[comp * w..(comp + 1) * w];
                    // SAFETY: `udiv_by_rows_kernel` returns the loop
                    // compiled for an instruction set the CPU runs (`isa`)
                    // or the baseline's
                    unsafe { (self.kernels.udiv_by_rows)(p, q, xs, UdivBy::new(d)) };
                    continue;
                }
            }
            let ys: &[u32] = if op == Sincos {
                xs
            } else {
                self.operand(wr, &src[1], comp, s1)
            };
            let zs: &[u32] = if op == Swapc {
                self.operand(wr, &src[2], comp, s2)
            } else {
                xs
            };
            let p = &mut r[comp * w..(comp + 1) * w];
            let q = &mut r2[comp * w..(comp + 1) * w];
            // one loop per operation, so that each vectorises
            match op {
                Imul => lanes2(p, q, xs, ys, |x, y| {
                    let v = (x as i32 as i64).wrapping_mul(y as i32 as i64) as u64;
                    ((v >> 32) as u32, v as u32)
                }),
                Umul => lanes2(p, q, xs, ys, |x, y| {
                    let v = x as u64 * y as u64;
                    ((v >> 32) as u32, v as u32)
                }),
                // SAFETY: `udiv_rows_kernel` returns the loop compiled for
                // an instruction set the CPU runs (`isa`) or the baseline's
                Udiv => unsafe { (self.kernels.udiv_rows)(p, q, xs, ys) },
                Uaddc => lanes2(p, q, xs, ys, |x, y| {
                    let (v, c) = x.overflowing_add(y);
                    (v, c as u32)
                }),
                Usubb => lanes2(p, q, xs, ys, |x, y| {
                    let (v, c) = x.overflowing_sub(y);
                    (v, c as u32)
                }),
                Sincos => lanes2(p, q, xs, ys, |x, _| {
                    let f = fin(x);
                    (fout(f.sin()), fout(f.cos()))
                }),
                Swapc => {
                    for ((((p, q), &x), &y), &z) in p.iter_mut().zip(q).zip(xs).zip(ys).zip(zs) {
                        (*p, *q) = if x != 0 { (z, y) } else { (y, z) };
                    }
                }
            }
        }
        // all sources were read before either destination is written (§1)
        self.write(warp, &dst[0], r);
        self.write(warp, &dst[1], r2);
        sc.alu = buf;
    }
}
