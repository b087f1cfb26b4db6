//! [`affine_words`] and [`affine_words_2d`]: `sim_mem`'s checks that the
//! lanes' addresses lie on one line (or, in rows, one grid) of words in
//! bounds (`crate::exec::lines`), compiled for the widest instruction set
//! the CPU runs, so that their checks of every lane vectorise as the
//! kernels' loops do. The rules are `sim_mem`'s (their own docs); only the
//! code is wider.

#[cfg(target_arch = "x86_64")]
use crate::isa::cpu::{isa, Isa};

/// `pub(crate) fn $name($args) -> $ret`: `sim_mem::$name` compiled for
/// AVX-512, AVX2 and the baseline, called at the widest the CPU runs
/// ([`isa`]). `sim_mem`'s function is `#[inline(always)]`, so each copy is
/// its loop compiled for that instruction set.
macro_rules! widest {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        $(#[$doc])*
        pub(crate) fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    sim_mem::$name($($arg),*)
                }
                #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
                fn avx512($($arg: $ty),*) -> $ret {
                    sim_mem::$name($($arg),*)
                }
                match isa() {
                    // SAFETY: `isa` is at most what this CPU runs
                    Isa::Avx512 => unsafe { avx512($($arg),*) },
                    // SAFETY: as above
                    Isa::Avx2 => unsafe { avx2($($arg),*) },
                    Isa::Baseline => sim_mem::$name($($arg),*),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                sim_mem::$name($($arg),*)
            }
        }
    };
}

widest! {
    /// [`sim_mem::affine_words`] (whether the lanes' addresses lie on one
    /// line of words in bounds): its check of every lane is a loop that
    /// vectorises, eight or sixteen lanes at a time where the baseline
    /// takes four.
    fn affine_words(ext: sim_mem::Extent, a: &[u32], b: &[u32], k_max: u32) -> Option<(usize, usize)>
}

widest! {
    /// [`sim_mem::affine_words_2d`] (whether the lanes' addresses, in rows
    /// of `p` lanes, lie on one grid of words in bounds: a 2-D group's tile
    /// accesses).
    fn affine_words_2d(
        ext: sim_mem::Extent,
        a: &[u32],
        b: &[u32],
        k_max: u32,
        p: usize
    ) -> Option<(usize, usize, usize)>
}
