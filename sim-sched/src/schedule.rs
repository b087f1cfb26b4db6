//! Seeded schedules ([`Schedule`]): the order, warp width, lane order and
//! warp interleaving a scheduled dispatch draws from one seed.

/// One SplitMix64 step: advance `state` and return the next 64-bit output.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in `0..n` (n ≥ 1) from one SplitMix64 output.
pub(crate) fn below(state: &mut u64, n: u64) -> u64 {
    ((splitmix64(state) >> 32) * n) >> 32
}

/// A single-threaded, reproducible order of execution for a dispatch.
///
/// A seeded schedule draws, from SplitMix64 streams derived from its seed
/// and the dispatch's group count:
/// - the order of the groups (a Fisher–Yates permutation of 0..groups);
/// - per group (by linear group index, so independent of the order), the
///   warp width, one of 1, 2, 4, 8, 16, 32 and the group size (clamped to
///   the group size);
/// - per group, the mapping of threads to lane slots (a permutation of the
///   group's threads: which threads share a warp, and the order in which a
///   warp's lanes perform their memory operations and atomics; system values
///   stay each thread's own);
/// - per group, the interleaving of its warps: a random runnable warp runs
///   a random quantum of 1 to 8 instructions, then another is drawn
///   (barriers still hold every warp until all have arrived).
///
/// [`Schedule::fixed`] is the deterministic mode: linear group order,
/// `DispatchOptions::warp_width`, identity lanes, each warp run until it
/// parks (as `dispatch` runs a group), so the output is the same on every run
/// and machine.
///
/// Several dispatches under one schedule draw from the same seed; a
/// dispatch with a different group count draws a different group order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Schedule {
    pub(crate) seed: u64,
    pub(crate) fixed: bool,
}

/// How one group runs under a [`Schedule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupPlan {
    /// lanes per warp
    pub warp_width: usize,
    /// thread (`SV_GroupIndex`) in each lane slot; None = identity
    pub lane_order: Option<Vec<u32>>,
    /// the interleaving's seed; None = each warp runs until it parks
    pub interleave: Option<u64>,
}

impl Schedule {
    /// The schedule drawn from `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self { seed, fixed: false }
    }

    /// The deterministic mode's fixed schedule (seed 0, nothing drawn).
    pub fn fixed() -> Self {
        Self {
            seed: 0,
            fixed: true,
        }
    }

    /// The `i`-th schedule seed derived from `base`: output `i` (from 0) of
    /// SplitMix64 seeded with `base` (what `sm5sim check --schedules N
    /// --seed S` runs).
    pub fn derive_seed(base: u64, i: u64) -> u64 {
        let mut state = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        splitmix64(&mut state)
    }

    /// The seed (0 for the fixed schedule).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether this is the deterministic mode's fixed schedule.
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }

    /// The order in which the `total` groups of a dispatch run (linear
    /// indices, x fastest).
    pub fn group_order(&self, total: u64) -> Vec<u64> {
        let mut order: Vec<u64> = (0..total).collect();
        if !self.fixed {
            let mut st = self.seed ^ 0x6772_6f75_7073_0000 ^ total.rotate_left(17);
            for i in (1..order.len()).rev() {
                let j = below(&mut st, i as u64 + 1) as usize;
                order.swap(i, j);
            }
        }
        order
    }

    /// How group `g` (linear index) of a program with `threads` threads per
    /// group runs; `warp_width` is the options' width (the fixed schedule's).
    pub fn group_plan(&self, g: u64, threads: usize, warp_width: usize) -> GroupPlan {
        let n = threads.max(1);
        if self.fixed {
            return GroupPlan {
                warp_width: warp_width.clamp(1, n),
                lane_order: None,
                interleave: None,
            };
        }
        let mut st = self.seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03);
        splitmix64(&mut st);
        let widths = [1, 2, 4, 8, 16, 32, n];
        let w = widths[below(&mut st, widths.len() as u64) as usize].min(n);
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = below(&mut st, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        GroupPlan {
            warp_width: w,
            lane_order: Some(order),
            interleave: Some(splitmix64(&mut st)),
        }
    }
}
