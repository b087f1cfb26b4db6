//! One memory instruction's accesses as the checker sees them
//! ([`Checker::prepare`]) and the bounds rules on their addresses.

use crate::check::Space;
/// One memory instruction's accesses as the checker sees them, looked
/// up once per instruction ([`Checker::prepare`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prepared {
    pub(super) pc: u32,
    pub(super) space: Space,
    /// the bounds rules' layout, when bounds are checked: the structure
    /// stride (0 for raw) and how many structures the view or region holds
    pub(super) layout: Option<(u32, u64)>,
    /// a spin read (`crate::analysis::spin`)
    pub(super) spin: bool,
    /// a plain load of a resource the program compare-exchanges on: a
    /// compare-exchange loop's guess, perhaps (the screen's rule)
    pub(super) guess: bool,
}

impl Prepared {
    /// The bounds rules on one access's address operands (as
    /// [`Checker::access_prepared`] takes them), from the instruction's
    /// layout: (a misaligned byte address, a structure's byte offset past
    /// its stride — the executor writes a dword still inside the view, as
    /// DXVK and vkd3d do).
    /// Whether no access of a line of lanes at (`a[l]`, `b[l]`), dwords
    /// `0..=k_max`, all in bounds, has a bounds finding
    /// ([`Prepared::bounds_flags`] false for every lane): one pass of
    /// folds over the lanes (an OR of the low bits, a maximum of the byte
    /// offsets), then the lane-by-lane rule only where a structure's
    /// offset may pass its stride. `b` is as long as `a` (false otherwise).
    #[inline]
    pub(crate) fn line_clean(&self, a: &[u32], b: &[u32], k_max: u32) -> bool {
        match self.layout {
            None => true,
            Some((0, _)) => a.iter().fold(0, |m, &x| m | x) & 3 == 0,
            Some((stride, _)) => {
                let (low, high) = b.iter().fold((0, 0), |(m, h), &y| (m | y, h.max(y & !3)));
                a.len() == b.len()
                    && low & 3 == 0
                    && (u64::from(high) + 4 * u64::from(k_max) + 4 <= u64::from(stride)
                        || a.iter()
                            .zip(b)
                            .all(|(&x, &y)| self.bounds_flags((x, y, k_max)) == (false, false)))
            }
        }
    }

    #[inline(always)]
    pub(crate) fn bounds_flags(&self, (a, b, k): (u32, u32, u32)) -> (bool, bool) {
        match self.layout {
            Some((0, _)) => (a & 3 != 0, false),
            Some((stride, structures)) => (
                b & 3 != 0,
                (a as u64) < structures
                    && u64::from(b & !3) + 4 * u64::from(k) + 4 > u64::from(stride),
            ),
            None => (false, false),
        }
    }
}
