//! The groupshared (TGSM) arena of one thread group.
//!
//! Each `dcl_tgsm_raw g#, bytes` / `dcl_tgsm_structured g#, stride, count`
//! declaration is its own region, bounds-checked on its own
//! (`reference/compute-model.md` §5): an access outside its region reads 0 or
//! is dropped and never reaches another region. The arena is plain memory: a
//! group runs on one OS thread, and its lanes run one after another.
//! Contents start at zero for every group (D3D leaves them undefined).

use crate::addressing::Extent;

/// The most TGSM a cs_5_x group may declare, in bytes (FS §18.6.6; cs_4_x: 16384).
pub const MAX_TGSM_BYTES: u32 = 32768;

/// One g# region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TgsmRegion {
    /// First word of the region in the arena.
    pub base_word: usize,
    /// Size in bytes.
    pub size_bytes: u32,
    /// Structure stride in bytes; 0 for a raw region.
    pub stride: u32,
}

/// The arena: all regions of a group, back to back.
#[derive(Debug, Clone, Default)]
pub struct Tgsm {
    words: Vec<u32>,
    regions: Vec<Option<TgsmRegion>>,
}

impl Tgsm {
    /// An arena for these regions, indexed by g# number (`None` = not declared).
    /// The caller checks the total against [`MAX_TGSM_BYTES`].
    pub fn new(regions: Vec<Option<TgsmRegion>>) -> Self {
        let words = regions
            .iter()
            .flatten()
            .map(|r| r.base_word + r.size_bytes as usize / 4)
            .max()
            .unwrap_or(0);
        Self {
            words: vec![0; words],
            regions,
        }
    }

    /// Zero the arena for the next group.
    pub fn reset(&mut self) {
        // not on an empty arena: see `GroupExecutor::start_group` on glibc's
        // masked-store memset and dangling pointers
        if !self.words.is_empty() {
            self.words.fill(0);
        }
    }

    /// Arena word of dword `k` of an access to `g#` at (`a`, `b`) — byte
    /// offset for raw regions; structure index and byte offset for structured
    /// ones — or `None` when out of the region (or the region is not declared).
    #[inline]
    pub fn word_index(&self, g: u32, a: u32, b: u32, k: u32) -> Option<usize> {
        let r = self.regions.get(g as usize).copied().flatten()?;
        Some(r.base_word + Self::extent(r).word_index(a, b, k)?)
    }

    /// Region `g#`'s first word in the arena and its bounds, so that
    /// [`Tgsm::word_index`] can be set up once per instruction: the word is
    /// the first plus the extent's [`Extent::word_index`]. `None` when `g#`
    /// is not declared.
    #[inline]
    pub fn placement(&self, g: u32) -> Option<(usize, Extent)> {
        let r = self.regions.get(g as usize).copied().flatten()?;
        Some((r.base_word, Self::extent(r)))
    }

    /// Region `g#`: its bounds and its words (indexed as
    /// [`Extent::word_index`] gives them); `None` when `g#` is not declared.
    #[inline]
    pub fn region(&self, g: u32) -> Option<(Extent, &[u32])> {
        let r = self.regions.get(g as usize).copied().flatten()?;
        let words = self
            .words
            .get(r.base_word..r.base_word + r.size_bytes as usize / 4)?;
        Some((Self::extent(r), words))
    }

    /// [`Tgsm::region`], writable.
    #[inline]
    pub fn region_mut(&mut self, g: u32) -> Option<(Extent, &mut [u32])> {
        let r = self.regions.get(g as usize).copied().flatten()?;
        let words = self
            .words
            .get_mut(r.base_word..r.base_word + r.size_bytes as usize / 4)?;
        Some((Self::extent(r), words))
    }

    fn extent(r: TgsmRegion) -> Extent {
        Extent {
            size_bytes: r.size_bytes as u64,
            stride: r.stride,
        }
    }

    /// The whole arena, every region back to back.
    pub fn words(&self) -> &[u32] {
        &self.words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_bounded_separately() {
        let mut t = Tgsm::new(vec![
            Some(TgsmRegion {
                base_word: 0,
                size_bytes: 8,
                stride: 4,
            }),
            Some(TgsmRegion {
                base_word: 2,
                size_bytes: 16,
                stride: 0,
            }),
        ]);
        // g0 has 2 structures; index 2 is out and must not reach g1.
        assert_eq!(t.word_index(0, 2, 0, 0), None);
        let (e0, w0) = t.region_mut(0).unwrap();
        assert_eq!((e0.word_index(2, 0, 0), w0.len()), (None, 2));
        w0[1] = 9;
        assert_eq!(t.words(), &[0, 9, 0, 0, 0, 0]);
        let (e1, w1) = t.region_mut(1).unwrap();
        w1[e1.word_index(12, 0, 0).unwrap()] = 7;
        assert_eq!(t.words()[5], 7);
        assert_eq!(t.word_index(1, 12, 0, 0), Some(5));
        assert_eq!(t.word_index(1, 16, 0, 0), None);
        assert_eq!(t.word_index(2, 0, 0, 0), None, "undeclared g2");
        assert!(t.region(2).is_none());
    }
}
