#!/usr/bin/env python3
"""Expected outputs of stream_compaction.toml, computed with plain NumPy.

    python3 reference.py     # writes args.npy and totals.npy, prints the figures

Needs numpy. Not run by the tests; the job file uses the committed files and
the numbers printed here.

* The input is the job's `init = { random_u32 = { seed = 21 } }` on 16384
  words, reproduced with SplitMix64 as docs/job-files.md specifies.
* The compacted list is input[input % 3 == 0]; its order on the device
  depends on the schedule, so only order-independent results are checked:
  - its length n (list's hidden counter, and `count` after
    CopyStructureCount);
  - the wrapping uint32 sum of its elements (`list` holds 16384 words, the
    ones past n stay 0, so sum_u32 of the whole buffer is that sum);
  - args.npy: uint32 [ceil(n / 64), 1, 1], the indirect dispatch arguments;
  - totals.npy: uint32 [sum of v*v (both wrapping mod 2^32), n, max].
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N = 16384
SEED = 21
DIVISOR = 3
GROUP = 64          # process.hlsl's numthreads


def random_u32(seed, n, lo=0, hi=0xFFFFFFFF):
    """docs/job-files.md "Random inputs": SplitMix64, one step per word."""
    with np.errstate(over="ignore"):
        state = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        u = z >> np.uint64(32)
        return (np.uint64(lo) + ((u * np.uint64(hi - lo + 1)) >> np.uint64(32))).astype(np.uint32)


def main():
    data = random_u32(SEED, N)
    kept = data[data % DIVISOR == 0].astype(np.uint64)
    n = len(kept)
    mask = np.uint64(0xFFFFFFFF)
    sum_kept = int(kept.sum()) % 2**32
    sum_sq = int(((kept * kept) & mask).sum()) % 2**32     # v*v wraps in the shader too
    args = np.array([(n + GROUP - 1) // GROUP, 1, 1], np.uint32)
    totals = np.array([sum_sq, n, int(kept.max())], np.uint32)
    np.save(os.path.join(HERE, "args.npy"), args)
    np.save(os.path.join(HERE, "totals.npy"), totals)
    print(f"kept {n} of {N} (value % {DIVISOR} == 0); sum of kept (mod 2^32) {sum_kept}; "
          f"args {args.tolist()}; totals [sum of squares, processed, max] {totals.tolist()}")


if __name__ == "__main__":
    main()
