//! The read-modify-write operations of the `atomic_*` / `imm_atomic_*`
//! instructions (`reference/sm5-compute-isa.md` §12), on UAV words
//! ([`AtomicU32`]) and on plain TGSM words.

use crate::sync::{AtomicU32, Ordering};

/// One atomic operation with its operand(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    /// m & v
    And(u32),
    /// m | v
    Or(u32),
    /// m ^ v
    Xor(u32),
    /// m + v (wrapping)
    Add(u32),
    /// signed max
    IMax(u32),
    /// signed min
    IMin(u32),
    /// unsigned max
    UMax(u32),
    /// unsigned min
    UMin(u32),
    /// m = v
    Exchange(u32),
    /// if m == compare (bit equality) then m = value
    CompareExchange {
        /// compared with the memory word
        compare: u32,
        /// stored on equality
        value: u32,
    },
}

impl AtomicOp {
    /// The new value of a word holding `old`.
    #[inline(always)]
    pub fn combine(self, old: u32) -> u32 {
        match self {
            AtomicOp::And(v) => old & v,
            AtomicOp::Or(v) => old | v,
            AtomicOp::Xor(v) => old ^ v,
            AtomicOp::Add(v) => old.wrapping_add(v),
            AtomicOp::IMax(v) => (old as i32).max(v as i32) as u32,
            AtomicOp::IMin(v) => (old as i32).min(v as i32) as u32,
            AtomicOp::UMax(v) => old.max(v),
            AtomicOp::UMin(v) => old.min(v),
            AtomicOp::Exchange(v) => v,
            AtomicOp::CompareExchange { compare, value } => {
                if old == compare {
                    value
                } else {
                    old
                }
            }
        }
    }

    /// True when the operation leaves every word as it was (add or xor 0,
    /// or 0, and all ones, max with the type's minimum, min with its
    /// maximum): without a returned value such an atomic is unobservable
    /// (D3D atomics imply no fence, `sm5-compute-isa.md` §12).
    #[inline]
    pub fn is_identity(self) -> bool {
        match self {
            AtomicOp::And(v) => v == !0,
            AtomicOp::Or(v) | AtomicOp::Xor(v) | AtomicOp::Add(v) | AtomicOp::UMax(v) => v == 0,
            AtomicOp::IMax(v) => v == i32::MIN as u32,
            AtomicOp::IMin(v) => v == i32::MAX as u32,
            AtomicOp::UMin(v) => v == !0,
            AtomicOp::Exchange(_) | AtomicOp::CompareExchange { .. } => false,
        }
    }

    /// Apply to a shared word in one atomic step; returns the value before.
    ///
    /// Ordering: `Relaxed`. D3D atomics imply no fence (§12 "Atomics imply no
    /// fence"); atomicity on the word is all they promise.
    #[inline]
    pub fn apply(self, word: &AtomicU32) -> u32 {
        let r = Ordering::Relaxed;
        match self {
            AtomicOp::And(v) => word.fetch_and(v, r),
            AtomicOp::Or(v) => word.fetch_or(v, r),
            AtomicOp::Xor(v) => word.fetch_xor(v, r),
            AtomicOp::Add(v) => word.fetch_add(v, r),
            AtomicOp::UMax(v) => word.fetch_max(v, r),
            AtomicOp::UMin(v) => word.fetch_min(v, r),
            AtomicOp::Exchange(v) => word.swap(v, r),
            AtomicOp::CompareExchange { compare, value } => {
                match word.compare_exchange(compare, value, r, r) {
                    Ok(old) | Err(old) => old,
                }
            }
            AtomicOp::IMax(_) | AtomicOp::IMin(_) => {
                match word.fetch_update(r, r, |old| Some(self.combine(old))) {
                    Ok(old) | Err(old) => old,
                }
            }
        }
    }

    /// Apply to a plain word (TGSM, owned by one OS thread); returns the value before.
    #[inline]
    pub fn apply_plain(self, word: &mut u32) -> u32 {
        let old = *word;
        *word = self.combine(old);
        old
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn signed_and_unsigned_forms_differ() {
        let w = AtomicU32::new(0xffff_ffff); // -1
        assert_eq!(AtomicOp::IMax(1).apply(&w), 0xffff_ffff);
        assert_eq!(w.load(Ordering::Relaxed), 1);
        let w = AtomicU32::new(0xffff_ffff);
        AtomicOp::UMax(1).apply(&w);
        assert_eq!(w.load(Ordering::Relaxed), 0xffff_ffff);
        let mut p = 5u32;
        assert_eq!(AtomicOp::IMin(-3i32 as u32).apply_plain(&mut p), 5);
        assert_eq!(p, -3i32 as u32);
    }

    #[test]
    fn compare_exchange_returns_the_original_either_way() {
        let w = AtomicU32::new(7);
        let op = AtomicOp::CompareExchange {
            compare: 7,
            value: 9,
        };
        assert_eq!(op.apply(&w), 7);
        assert_eq!(w.load(Ordering::Relaxed), 9);
        assert_eq!(op.apply(&w), 9, "unequal compare returns the current value");
        assert_eq!(w.load(Ordering::Relaxed), 9, "and writes nothing");
        // Bit equality, not float equality: +0.0 vs -0.0 differ.
        let w = AtomicU32::new(0x8000_0000);
        AtomicOp::CompareExchange {
            compare: 0,
            value: 1,
        }
        .apply(&w);
        assert_eq!(w.load(Ordering::Relaxed), 0x8000_0000);
    }
}
