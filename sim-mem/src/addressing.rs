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

#[cfg(test)]
mod tests {
    use super::*;

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
}
