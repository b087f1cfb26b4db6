#!/usr/bin/env python3
"""Expected outputs of bitonic_sort.toml, computed with plain NumPy.

    python3 reference.py     # writes expected.npy and rows.npy

Needs numpy. Not run by the tests; the job file uses the committed files.

* The input is the job's `init = { random_u32 = { seed = 11 } }` on 16384
  words, reproduced here with SplitMix64 as docs/job-files.md specifies.
* expected.npy: np.sort of the input (uint32, ascending).
* rows.npy: the state after the first phase (levels 2 ... 512, all inside
  rows of 512): each row sorted, ascending for even rows and descending for
  odd ones, as bit 9 of the index selects the direction at level 512.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N = 16384          # elements: a power of two, at least 512 * 16, at most 512 * 512
ROW = 512          # sort.hlsl's row (thread group) size
SEED = 11


def random_u32(seed, n, lo=0, hi=0xFFFFFFFF):
    """docs/job-files.md "Random inputs": SplitMix64, one step per word."""
    with np.errstate(over="ignore"):
        state = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        u = z >> np.uint64(32)
        # (u * (hi - lo + 1)) >> 32 fits in 64 bits: u < 2^32, the range <= 2^32
        return (np.uint64(lo) + ((u * np.uint64(hi - lo + 1)) >> np.uint64(32))).astype(np.uint32)


def main():
    data = random_u32(SEED, N)
    expected = np.sort(data)
    rows = np.sort(data.reshape(-1, ROW), axis=1)
    rows[1::2] = rows[1::2, ::-1]
    np.save(os.path.join(HERE, "expected.npy"), expected)
    np.save(os.path.join(HERE, "rows.npy"), rows.reshape(-1))
    print(f"{N} words, seed {SEED}: first {data[:4].tolist()}, "
          f"sorted min {expected[0]} max {expected[-1]}, sum (mod 2^32) {int(data.sum(dtype=np.uint64)) % 2**32}")


if __name__ == "__main__":
    main()
