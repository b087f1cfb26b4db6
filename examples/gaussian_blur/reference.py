#!/usr/bin/env python3
"""Reference for gaussian_blur.hlsl: computes expected.png from input.png.

    python3 reference.py               # input.png -> expected.png
    python3 reference.py --make-input  # (re)generate input.png first, then expected.png

Needs numpy and pillow (pip install numpy pillow). Not run by the tests; the
committed input.png and expected.png are what the job file uses.

What it models, following the shader and fxc's listing (gaussian_blur.asm)
line by line:

* Load from R8G8B8A8_UNORM: texel byte c -> float32(c / 255), correctly rounded.
* Clamp-to-edge: the shader clamps every load coordinate to [0, size - 1], so
  the tile (apron included) holds the edge-replicated image; the blur equals a
  convolution of the image padded by edge replication (numpy 'edge' mode).
* Separable 9-tap binomial kernel 1 8 28 56 70 56 28 8 1 / 256, horizontal
  pass first (over the apron rows too), then vertical. Every multiply and add
  is rounded to float32 separately (sm5sim's `mad` is unfused) and in the
  order fxc emitted them:
      s = a1 * W3                 (mul)
      s = a0 * W4 + s             (mad)
      s = a2 * W2 + s, ..., s = a8 * W4 + s
* Store to R8G8B8A8_UNORM: clamp to [0, 1], x * 255 (float32), + 0.5 (float32),
  truncate.
"""
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 512, 512
R = 4
f32 = np.float32
WEIGHTS = [f32(c / 256.0) for c in (1, 8, 28, 56, 70, 56, 28, 8, 1)]  # exact


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
    """A photo-like synthetic scene: sky gradient, sun, hills, a striped
    building, a checkerboard floor, fine noise and a few sharp edges."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    u, v = x / (W - 1), y / (H - 1)
    img = np.zeros((H, W, 3))
    # sky: blue to orange towards the horizon
    img[..., 0] = 0.25 + 0.65 * v
    img[..., 1] = 0.45 + 0.30 * v
    img[..., 2] = 0.95 - 0.55 * v
    # sun with a soft halo
    d = np.hypot(x - 380, y - 120)
    halo = np.clip(1.0 - d / 140.0, 0, 1) ** 2
    img += halo[..., None] * np.array([0.6, 0.5, 0.2])
    img[d < 34] = [1.0, 0.97, 0.85]
    # rolling hills
    hill = 300 + 40 * np.sin(u * 7.0) + 18 * np.sin(u * 23.0 + 1.0)
    ground = y > hill
    shade = np.clip((y - hill) / 200.0, 0, 1)
    img[ground] = (np.stack([0.20 + 0.25 * shade, 0.45 - 0.15 * shade, 0.15 + 0.05 * shade], -1))[ground]
    # a building with window stripes (high frequency, sharp edges)
    bx = (x > 70) & (x < 190) & (y > 150) & (y < 360)
    img[bx] = [0.55, 0.52, 0.50]
    win = bx & ((x.astype(int) // 6) % 3 == 0) & ((y.astype(int) // 9) % 2 == 0) & (y < 345)
    img[win] = [0.95, 0.85, 0.35]
    # checkerboard floor in perspective at the bottom
    floor = y > 420
    yf = np.maximum(y, 420.0)                     # only the floor rows matter
    depth = (yf - 410) / 100.0
    cx = np.floor((x - W / 2) / (14 + 40 * depth)).astype(int)
    cy = np.floor(np.log(yf - 405) * 6).astype(int)
    check = ((cx + cy) & 1) == 0
    img[floor & check] = [0.85, 0.85, 0.82]
    img[floor & ~check] = [0.10, 0.10, 0.12]
    # coloured discs, one with a thin ring
    for (cxp, cyp, rad, col) in [(300, 380, 40, (0.9, 0.15, 0.2)), (430, 330, 28, (0.2, 0.3, 0.95))]:
        d = np.hypot(x - cxp, y - cyp)
        img[d < rad] = col
        img[np.abs(d - rad - 5) < 1.0] = [1.0, 1.0, 1.0]
    # fine grain noise (sensor-like), stronger on the ground
    n = hash_u32((y * W + x).astype(np.uint32)).astype(np.float64) / 2**32 - 0.5
    img += n[..., None] * np.where(ground, 0.10, 0.03)[..., None]
    rgba = np.empty((H, W, 4), np.uint8)
    rgba[..., :3] = np.clip(np.round(img * 255), 0, 255).astype(np.uint8)
    rgba[..., 3] = 255
    Image.fromarray(rgba, "RGBA").save(os.path.join(HERE, "input.png"), optimize=True)


def blur9(taps):
    """The shader's blur9 in fxc's operation order, float32 throughout."""
    w = WEIGHTS
    s = taps[1] * w[1]
    s = taps[0] * w[0] + s
    for k in range(2, 9):
        s = taps[k] * w[k] + s
    return s


def unorm8(x):
    x = np.clip(x, f32(0), f32(1)).astype(f32)
    return np.floor((x * f32(255)).astype(f32) + f32(0.5)).astype(np.uint8)


def main():
    if "--make-input" in sys.argv[1:]:
        make_input()
    img = np.asarray(Image.open(os.path.join(HERE, "input.png")).convert("RGBA"))
    assert img.shape == (H, W, 4), img.shape
    src = img.astype(f32) / f32(255)                      # UNORM8 -> float32
    pad = np.pad(src, ((R, R), (R, R), (0, 0)), mode="edge")
    with np.errstate(all="raise"):
        hpass = blur9([pad[:, k:k + W] for k in range(9)])     # (H + 8) x W
        vpass = blur9([hpass[k:k + H] for k in range(9)])      # H x W
    assert hpass.dtype == f32 and vpass.dtype == f32
    out = unorm8(vpass)
    Image.fromarray(out, "RGBA").save(os.path.join(HERE, "expected.png"), optimize=True)
    print(f"expected.png: {W}x{H}, mean {out[..., :3].mean():.2f}")


if __name__ == "__main__":
    main()
