//! [`affine_words`]: `sim_mem::affine_words`, the memory lines' check that
//! the lanes' addresses lie on one line of words in bounds
//! (`crate::exec::lines`), compiled for the widest instruction set the CPU
//! runs, so that its check of every lane vectorises as the kernels' loops
//! do. The rule is `sim_mem`'s (its own docs); only the code is wider.

#[cfg(target_arch = "x86_64")]
use crate::isa::cpu::{isa, Isa};

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

/// [`sim_mem::affine_words_2d`] (whether the lanes' addresses, in rows of
/// `p` lanes, lie on one grid of words in bounds: a 2-D group's tile
/// accesses) compiled for the widest instruction set the CPU runs, as
/// [`affine_words`] is.
pub(crate) fn affine_words_2d(
    ext: sim_mem::Extent,
    a: &[u32],
    b: &[u32],
    k_max: u32,
    p: usize,
) -> Option<(usize, usize, usize)> {
    #[cfg(target_arch = "x86_64")]
    {
        type Grid = Option<(usize, usize, usize)>;
        /// [`sim_mem::affine_words_2d`] compiled for AVX2.
        #[target_feature(enable = "avx2")]
        fn avx2(ext: sim_mem::Extent, a: &[u32], b: &[u32], k: u32, p: usize) -> Grid {
            sim_mem::affine_words_2d(ext, a, b, k, p)
        }
        /// [`sim_mem::affine_words_2d`] compiled for AVX-512.
        #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
        fn avx512(ext: sim_mem::Extent, a: &[u32], b: &[u32], k: u32, p: usize) -> Grid {
            sim_mem::affine_words_2d(ext, a, b, k, p)
        }
        match isa() {
            // SAFETY: `isa` is at most what this CPU runs
            Isa::Avx512 => unsafe { avx512(ext, a, b, k_max, p) },
            // SAFETY: as above
            Isa::Avx2 => unsafe { avx2(ext, a, b, k_max, p) },
            Isa::Baseline => sim_mem::affine_words_2d(ext, a, b, k_max, p),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        sim_mem::affine_words_2d(ext, a, b, k_max, p)
    }
}
