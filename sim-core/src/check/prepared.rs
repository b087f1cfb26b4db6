//! One memory instruction's accesses as the checker sees them
//! ([`Checker::prepare`]) and the bounds rules on their addresses.

use super::*;

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
