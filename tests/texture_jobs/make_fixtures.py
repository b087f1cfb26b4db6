#!/usr/bin/env python3
"""Writes the PNG fixtures of tests/texture_jobs.rs (deterministic; run from
this directory). A minimal PNG writer, so 16-bit images come out as written."""
import struct
import zlib


def png(path, width, height, channels, bits, pixels):
    """pixels: rows of `width * channels` ints."""
    color = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    raw = b""
    for row in pixels:
        raw += b"\0" + b"".join(
            v.to_bytes(bits // 8, "big") for v in row
        )

    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c))

    ihdr = struct.pack(">IIBBBBB", width, height, bits, color, 0, 0, 0)
    data = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
    open(path, "wb").write(data)


def lcg(seed):
    s = seed
    while True:
        s = (s * 1103515245 + 12345) % (1 << 31)
        yield s >> 8


def image(seed, width, height, channels, maxv):
    g = lcg(seed)
    return [[next(g) % (maxv + 1) for _ in range(width * channels)] for _ in range(height)]


rgba8 = image(1, 8, 4, 4, 255)
png("rgba8.png", 8, 4, 4, 8, rgba8)
# rgba8 with G of texel (2, 1) raised by 3 (or lowered, at the top)
off = [row[:] for row in rgba8]
i = 2 * 4 + 1
off[1][i] = off[1][i] + 3 if off[1][i] <= 252 else off[1][i] - 3
png("rgba8_off.png", 8, 4, 4, 8, off)
png("rgb8.png", 4, 2, 3, 8, image(2, 4, 2, 3, 255))
png("gray16.png", 5, 3, 1, 16, image(3, 5, 3, 1, 65535))
png("rgba16.png", 4, 4, 4, 16, image(4, 4, 4, 4, 65535))

# 16x16 RGBA8 source and its 2x2 box average (round half up), for the
# SampleLevel tests.
src = image(5, 16, 16, 4, 255)
png("src16.png", 16, 16, 4, 8, src)
half = []
for y in range(8):
    row = []
    for x in range(8):
        for c in range(4):
            s = sum(src[2 * y + dy][(2 * x + dx) * 4 + c] for dy in (0, 1) for dx in (0, 1))
            row.append((s * 2 + 4) // 8)  # s / 4, rounded half up
    half.append(row)
png("half8.png", 8, 8, 4, 8, half)
