//! `udiv`'s lane loops, compiled for baseline x86-64, AVX2 and AVX-512: by
//! any divisors, through an f64 division that vectorises
//! (`crate::isa::lanes::udiv`), and by one divisor in every lane, as a
//! multiplication ([`UdivBy`], Granlund and Montgomery). Both give the
//! quotient and remainder of FS §22.12.9 (`reference/sm5-compute-isa.md`),
//! 0xFFFFFFFF twice for a divisor of 0.

#[cfg(target_arch = "x86_64")]
use crate::isa::cpu::isa;
use crate::isa::lanes::udiv;

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
/// `unsafe fn` for the same reason as [`Kernel`](super::Kernel).
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
/// the CPU runs): an `unsafe fn` for the same reason as
/// [`Kernel`](super::Kernel).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::lanes::tests::Rng;

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
}
