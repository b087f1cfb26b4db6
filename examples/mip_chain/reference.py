#!/usr/bin/env python3
"""Input and expected outputs of mip_chain.toml, computed with plain NumPy.

    python3 reference.py     # writes input.npy and mip1.npy ... mip6.npy

Needs numpy. Not run by the tests; the job file uses the committed files.

* input.npy: mip 0, float32 [64, 64, 4] (RGBA), a deterministic pattern: a
  radial gradient (R), a checkerboard of 3x3 cells that does not line up
  with the 2x2 blocks (G), integer-hash noise (B) and diagonal stripes with
  a ramp (A). Its values are not multiples of a power of two, so the
  averages round.
* mipK.npy: float32 [64 >> K, 64 >> K, 4], the 2x2 box average of mip K-1,
  computed in float32 in the shader's order (see downsample.asm: three
  `add`s, then a `mul`): ((top left + top right) + (bottom left + bottom
  right)) * 0.25, each operation rounded to float32. No value is denormal,
  so D3D's flush of denormals does not act, and * 0.25 is exact.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 64
f32 = np.float32


def hash_u32(x):
    """Integer hash (lowbias32): deterministic noise without an RNG."""
    x = x.astype(np.uint32)
    with np.errstate(over="ignore"):
        x ^= x >> np.uint32(16)
        x *= np.uint32(0x7FEB352D)
        x ^= x >> np.uint32(15)
        x *= np.uint32(0x846CA68B)
        x ^= x >> np.uint32(16)
    return x


def make_input():
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    img = np.empty((SIZE, SIZE, 4))
    img[..., 0] = 1.0 - np.hypot(x - 20.3, y - 41.7) / 60.0
    img[..., 1] = np.where(((x // 3) + (y // 3)) % 2 == 0, 0.9, 0.1)
    img[..., 2] = (hash_u32(y * SIZE + x) >> np.uint32(8)) * 2.0 ** -24
    img[..., 3] = 0.3 + 0.5 * (((x + 2 * y) % 7) / 7.0) + x / 640.0
    return img.astype(f32)


def downsample(m):
    a = m[0::2, 0::2]     # top left
    b = m[0::2, 1::2]     # top right
    c = m[1::2, 0::2]     # bottom left
    d = m[1::2, 1::2]     # bottom right
    out = ((a + b) + (c + d)) * f32(0.25)
    assert out.dtype == f32
    return out


def main():
    mip = make_input()
    np.save(os.path.join(HERE, "input.npy"), mip)
    k = 0
    while mip.shape[0] > 1:
        mip = downsample(mip)
        k += 1
        tiny = (mip != 0) & (np.abs(mip) < np.finfo(f32).tiny)
        assert not tiny.any(), "denormal values"
        np.save(os.path.join(HERE, f"mip{k}.npy"), mip)
    print(f"input.npy {SIZE}x{SIZE}; mip{k}.npy (1x1) = {mip[0, 0].tolist()}")


if __name__ == "__main__":
    main()
