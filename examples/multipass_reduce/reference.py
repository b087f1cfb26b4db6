#!/usr/bin/env python3
"""Expected sum of multipass_reduce.toml, computed with plain NumPy.

    python3 reference.py     # prints the sum and the passes

Needs numpy. Not run by the tests; the job file holds the printed figures
(the sum is a single word, checked with `u32 = [SUM]`, so no .npy file).

The input is the job's `init = { random_u32 = { seed = 31, min = 0, max = 1000 } }`
on 1,000,000 words, reproduced with SplitMix64 as docs/job-files.md
specifies. The sum (at most 10^9) fits in a uint32, so no pass wraps.
"""
import numpy as np

N = 1000000
SEED = 31


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
    values = random_u32(SEED, N, 0, 1000)
    total = int(values.sum(dtype=np.uint64))
    assert total < 2**32
    print(f"{N} values in [0, 1000], seed {SEED}: sum {total}")
    # The passes: each turns `count` values into ceil(count / 512) partial sums.
    count, passes = N, []
    while count > 1:
        groups = (count + 511) // 512
        passes.append((count, groups))
        count = groups
    for i, (c, g) in enumerate(passes, 1):
        print(f"pass {i}: count = {c}, dispatch [{g}, 1, 1]")


if __name__ == "__main__":
    main()
