"""The eight example workloads run from Python against NumPy references of
the same algorithms (as tests/it/api.rs does against Rust references).

Integer results are exact; float results are exact where the operation
order is fixed (matmul accumulates in the shader's order, saxpy and
mandelbrot are elementwise: sm5sim evaluates `mad` unfused, as the
references write `a * b + c` in float32); cas_float_add adds in a
schedule-dependent order, so its values are multiples of 1/4 whose every
partial sum is exact.
"""

import numpy as np
import pytest

import sm5sim
from conftest import kernel


def groups_for(n: int, per_group: int) -> int:
    return -(-n // per_group)


@pytest.mark.parametrize("name,n,seed", [("histogram", 20_003, 1), ("global_histogram", 10_001, 2)])
def test_histogram(name: str, n: int, seed: int, config: dict) -> None:
    keys = np.random.default_rng(seed).integers(0, 2**32, n, dtype=np.uint32)
    reference = np.bincount(keys & 255, minlength=256).astype(np.uint32)
    k = kernel(name)
    k.bind("keys", keys).bind("bins", np.zeros(256, np.uint32))
    k.set_constants("Params", {"key_count": n})
    groups = groups_for(n, k.shader.thread_group[0])
    d = k.dispatch(groups, **config)
    assert d.stats.groups == groups
    bins = k.read("bins")
    assert bins.dtype == np.uint32 and bins.shape == (256,)
    np.testing.assert_array_equal(bins, reference)


def test_reduce(config: dict) -> None:
    n = 30_000
    values = np.random.default_rng(3).integers(0, 2**32, n, dtype=np.uint32)
    reference = np.uint32(values.sum(dtype=np.uint64) & 0xFFFFFFFF)
    k = kernel("reduce")
    total = sm5sim.Resource.zeros(4)
    k.bind("values", values).bind("total", total)
    k.set_constants("Params", {"value_count": n})
    k.dispatch(groups_for(n, 256), **config)
    # a resource made without an array reads as the declaration's words
    assert total.read()[0] == reference
    # again from zero, through the kernel's own read-back
    total.write(np.zeros(1, np.uint32))
    k.dispatch(groups_for(n, 256), **config)
    assert k.read("total", dtype=np.uint32).tolist() == [reference]


def test_scan(config: dict) -> None:
    groups = 6
    n = groups * 512
    data = np.random.default_rng(4).integers(0, 1 << 20, n, dtype=np.uint32)
    reference = np.cumsum(data.reshape(groups, 512), axis=1, dtype=np.uint32).ravel()
    k = kernel("scan")
    # by slot name as well as by HLSL name
    k.bind("t0", data).bind("output", np.zeros(n, np.uint32))
    k.dispatch((groups, 1, 1), **config)
    np.testing.assert_array_equal(k.read("output"), reference)


def test_matmul(config: dict) -> None:
    n = 32
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    # the shader's order: c[r][c] = sum over i of a[r][i] * b[i][c], i ascending
    reference = np.zeros((n, n), np.float32)
    for i in range(n):
        reference += a[:, i : i + 1] * b[i : i + 1, :]
    k = kernel("matmul")
    k.bind("A", a).bind("B", b).bind("C", np.zeros((n, n), np.float32))
    k.set_constants("Params", {"n": n})
    k.dispatch((n // 16, n // 16), **config)
    c = k.read("C")
    assert c.shape == (n, n) and c.dtype == np.float32
    np.testing.assert_array_equal(c, reference)


def test_saxpy_structured(config: dict) -> None:
    n = 1_001  # float4 elements, not a multiple of the group
    rng = np.random.default_rng(7)
    x = rng.uniform(-10, 10, (n, 4)).astype(np.float32)
    y = rng.uniform(-10, 10, (n, 4)).astype(np.float32)
    a = np.float32(1.7)
    reference = a * x + y
    k = kernel("saxpy_structured")
    k.bind("x", x).bind("y", y)
    k.set_constants("Params", {"a": a, "element_count": n})
    k.dispatch(groups_for(n, 128), **config)
    out = k.read("y")
    assert out.shape == (n, 4) and out.dtype == np.float32
    np.testing.assert_array_equal(out, reference)
    # the array bound was copied: the caller's y is unchanged
    assert not np.array_equal(y, out)


def test_saxpy_structured_dtype(config: dict) -> None:
    # a structured dtype whose itemsize is the stride binds too
    n = 300
    f4 = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("w", "<f4")])
    x = np.zeros(n, f4)
    y = np.zeros(n, f4)
    for i, f in enumerate("xyzw"):
        x[f] = np.arange(n, dtype=np.float32) + i
        y[f] = 1.0
    k = kernel("saxpy_structured")
    k.bind("x", x).bind("y", y)
    k.set_constants("Params", {"a": 2.0, "element_count": n})
    k.dispatch(groups_for(n, 128), **config)
    out = k.read("y")
    assert out.dtype == f4 and out.shape == (n,)
    np.testing.assert_array_equal(out["z"], 2 * (np.arange(n, dtype=np.float32) + 2) + 1)


def test_cas_float_add(config: dict) -> None:
    n, slots = 5_000, 7
    # quarters from 0 to 2: every partial sum is exact in float32
    values = np.random.default_rng(9).integers(0, 9, n).astype(np.float32) * 0.25
    reference = np.zeros(slots, np.float32)
    np.add.at(reference, np.arange(n) % slots, values)
    k = kernel("cas_float_add")
    k.bind("values", values).bind("sums", np.zeros(slots, np.float32))
    k.set_constants("Params", {"value_count": n, "slot_count": slots})
    k.dispatch(groups_for(n, 64), **config)
    np.testing.assert_array_equal(k.read("sums"), reference)


def mandelbrot_reference(w: int, h: int, max_iter: int) -> np.ndarray:
    f = np.float32
    x, y = np.meshgrid(np.arange(w, dtype=f), np.arange(h, dtype=f))
    cx = (x * f(3.0)) / f(w) + f(-2.0)
    cy = (y * f(3.0)) / f(h) + f(-1.5)
    zx = np.zeros_like(cx)
    zy = np.zeros_like(cy)
    it = np.zeros((h, w), np.uint32)
    for _ in range(max_iter):
        live = zx * zx + zy * zy < f(4.0)
        if not live.any():
            break
        t = zx * zx - zy * zy + cx
        zy = np.where(live, f(2.0) * zx * zy + cy, zy)
        zx = np.where(live, t, zx)
        it += live
    return it


def test_mandelbrot(config: dict) -> None:
    w, h, max_iter = 50, 37, 100  # not multiples of 8
    reference = mandelbrot_reference(w, h, max_iter)
    k = kernel("mandelbrot")
    k.bind("iterations", np.zeros((h, w), np.uint32))
    k.set_constants("Params", {"width": w, "height": h, "max_iter": max_iter})
    d = k.dispatch((groups_for(w, 8), groups_for(h, 8)), profile=True, **config)
    assert d.profile is not None
    assert d.profile.warp_instructions == d.stats.warp_instructions
    assert d.profile.opcodes and all(isinstance(m, str) for m, _ in d.profile.opcodes)
    assert d.profile.as_dict()["lane_instructions"] == d.profile.lane_instructions
    np.testing.assert_array_equal(k.read("iterations"), reference)
