#!/usr/bin/env python3
"""Reference for downsample_tonemap.hlsl: computes expected.png from input_rgba16f.bin.

    python3 reference.py               # input_rgba16f.bin -> expected.png
    python3 reference.py --make-input  # (re)generate input_rgba16f.bin first
    python3 reference.py --preview     # also write preview_input.png (not committed)

Needs numpy and pillow (pip install numpy pillow). Not run by the tests; the
committed input_rgba16f.bin and expected.png are what the job file uses.

What it models, following the shader and fxc's listing (downsample_tonemap.asm)
line by line:

* Input: 512x256 R16G16B16A16_FLOAT, rows tightly packed, little-endian halves.
  Every value is 0 or a normal half (no half denormals, no inf/NaN).
* uv = (float2(x, y) + 0.5) * (1/256, 1/128): exact in float32. The sampler maps
  it to texel space as uv * (512, 256) - 0.5 = (2x + 0.5, 2y + 0.5): texels
  2x, 2x+1 and 2y, 2y+1 with weights exactly 0.5 each (also after D3D's
  quantisation of filter weights to 8 fraction bits), and no texel outside the
  image, so CLAMP never acts. The bilinear result is the average of the 2x2
  block; computed here exactly (in float64, which holds any sum of four halves
  exactly) and rounded once to float32.
* Then, each step rounded to float32 as the listing does it (sm5sim's `mad` is
  unfused: rounded after the multiply and after the add):
      x  = s * exposure                                  mul
      n  = x * (x * 2.51 + 0.03)                         mad, mul
      dd = x * (x * 2.43 + 0.59) + 0.14                  mad, mad
      m  = saturate(n / dd)                              div_sat
      g  = exp2(log2(m) * 0x3ee8ba2f)                    log, mul, exp
  The literals are the float32 values fxc stored (checked against the .dxbc);
  1/2.2 was folded by fxc in double precision and rounded: 0x3ee8ba2f.
  log2 and exp2 are taken correctly rounded (float64, then rounded to float32);
  log2(0) = -inf, exp2(-inf) = 0.
* Store to R8G8B8A8_UNORM: clamp to [0, 1], x * 255 (float32), + 0.5 (float32),
  truncate. Alpha is 1.0 -> 255.
"""
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SW, SH = 512, 256            # source (HDR) size
DW, DH = SW // 2, SH // 2    # destination size
EXPOSURE = 0.6               # the job file's Params.exposure
f32 = np.float32
INPUT = os.path.join(HERE, "input_rgba16f.bin")


def hash_u32(x):
    """Integer hash (lowbias32): deterministic noise without an RNG library."""
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    return x


def make_input():
    """A synthetic HDR dusk scene in linear light: bright sky and sun (up to
    ~40), clouds, dark ground, a street of lamps (~10-20), neon signs, fine
    noise. Many values are above 1.0."""
    y, x = np.mgrid[0:SH, 0:SW].astype(np.float64)
    u, v = x / (SW - 1), y / (SH - 1)
    img = np.zeros((SH, SW, 3))
    # sky: bright near the horizon, deeper blue at the top
    img[..., 0] = 0.15 + 1.6 * v ** 2
    img[..., 1] = 0.25 + 1.0 * v ** 2
    img[..., 2] = 0.80 + 0.4 * v
    # clouds: banded sine noise lit from below
    cl = np.sin(u * 19 + np.sin(v * 7) * 2) * np.sin(v * 23 + u * 5) + 0.3 * np.sin(u * 61 + v * 17)
    cl = np.clip(cl, 0, None) * np.clip(1 - v * 1.6, 0, 1)
    img += cl[..., None] * np.array([1.4, 1.1, 0.9])
    # the sun: a disk of ~40 with a wide glow
    d = np.hypot(x - 360, y - 110)
    img += (3.0 * np.exp(-d / 30.0))[..., None] * np.array([1.0, 0.8, 0.5])
    img[d < 10] = [42.0, 38.0, 30.0]
    # ground: dark, slightly bluish, with a gradient
    horizon = 150 + 6 * np.sin(u * 9)
    ground = y > horizon
    g = np.stack([0.03 + 0.05 * v, 0.035 + 0.04 * v, 0.05 + 0.02 * v], -1)
    img[ground] = g[ground]
    # buildings: dark silhouettes with lit windows
    for (x0, x1, top) in [(20, 90, 70), (110, 150, 100), (170, 250, 55), (430, 500, 85)]:
        b = (x >= x0) & (x < x1) & (y >= top) & ~ground
        img[b] = [0.02, 0.02, 0.025]
        win = b & ((x.astype(int) - x0) % 7 < 3) & ((y.astype(int) - top) % 10 < 4) & (y > top + 3)
        lit = (hash_u32((x // 7 * 131 + y // 10 * 977).astype(np.uint32)) % 3) != 0
        img[win & lit] = [4.0, 3.2, 1.6]
    # street lamps: small very bright disks with a halo on the ground
    for k in range(8):
        lx, ly = 40 + k * 62, 200 + (k % 2) * 12
        dl = np.hypot(x - lx, y - ly)
        img += (1.5 * np.exp(-dl / 8.0))[..., None] * np.array([1.0, 0.7, 0.3])
        img[dl < 2.5] = [20.0, 15.0, 8.0]
    # neon signs: thin lines of saturated colour
    img[(np.abs(y - 120) < 1.0) & (x > 180) & (x < 240)] = [0.2, 6.0, 8.0]
    img[(np.abs(x - 100) < 1.0) & (y > 110) & (y < 140)] = [9.0, 0.3, 4.0]
    # fine multiplicative grain
    n = hash_u32((y * SW + x).astype(np.uint32)).astype(np.float64) / 2**32
    img *= (0.92 + 0.16 * n)[..., None]
    # keep every value a normal half (no denormals), then store
    img = np.clip(img, 1.0 / 1024, 60000)
    rgba = np.empty((SH, SW, 4), np.float16)
    rgba[..., :3] = img.astype(np.float16)
    rgba[..., 3] = 1.0
    rgba.astype("<f2").tofile(INPUT)


def read_input():
    h = np.fromfile(INPUT, dtype="<f2")
    assert h.size == SW * SH * 4, h.size
    h = h.reshape(SH, SW, 4)
    assert np.all(np.isfinite(h))
    nz = np.abs(h[h != 0]).astype(np.float64)
    assert nz.size == 0 or nz.min() >= 2.0 ** -14, "half denormals in the input"
    return h


def unorm8(x):
    x = np.clip(x, f32(0), f32(1)).astype(f32)
    return np.floor((x * f32(255)).astype(f32) + f32(0.5)).astype(np.uint8)


def reference(h):
    t = h[..., :3].astype(np.float64)
    # bilinear at the shared corner of each 2x2 block = its average, exact, then float32
    s = ((t[0::2, 0::2] + t[0::2, 1::2]) + (t[1::2, 0::2] + t[1::2, 1::2])) * 0.25
    s = s.astype(f32)
    x = s * f32(EXPOSURE)                                      # mul (exposure)
    n = x * (x * f32(2.51) + f32(0.03))                        # mad, mul
    dd = x * (x * f32(2.43) + f32(0.59)) + f32(0.14)           # mad, mad
    m = np.clip(n / dd, f32(0), f32(1))                        # div_sat
    gamma = np.array([0x3EE8BA2F], np.uint32).view(f32)[0]     # 1/2.2 as fxc folded it
    with np.errstate(divide="ignore"):
        lg = np.log2(m.astype(np.float64)).astype(f32)         # log
    g = np.exp2((lg * gamma).astype(np.float64)).astype(f32)   # mul, exp
    for a in (x, n, dd, m, lg, g):
        assert a.dtype == f32
    out = np.empty((DH, DW, 4), np.uint8)
    out[..., :3] = unorm8(g)
    out[..., 3] = 255
    return out


def main():
    if "--make-input" in sys.argv[1:]:
        make_input()
    h = read_input()
    out = reference(h)
    Image.fromarray(out, "RGBA").save(os.path.join(HERE, "expected.png"), optimize=True)
    if "--preview" in sys.argv[1:]:
        # input, naively clamped to [0, 1] and gamma-encoded, for a look at it
        p = np.clip(h[..., :3].astype(np.float64), 0, 1) ** (1 / 2.2)
        Image.fromarray((p * 255 + 0.5).astype(np.uint8), "RGB").save(os.path.join(HERE, "preview_input.png"))
    hi = (h[..., :3] > 1).mean()
    print(f"input: {SW}x{SH}, max {float(h[..., :3].max()):.1f}, {100 * hi:.1f}% of values > 1.0; "
          f"expected.png: {DW}x{DH}, mean {out[..., :3].mean():.2f}")


if __name__ == "__main__":
    main()
