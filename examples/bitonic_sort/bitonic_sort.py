#!/usr/bin/env python3
"""bitonic_sort.toml's pipeline through the Python API (docs/python.md).

    pip install .                                      # from the repository's root
    python3 examples/bitonic_sort/bitonic_sort.py

Sorts 16384 random uints with two kernels, sort.dxbc (the steps of a
bitonic level inside rows of 512, in groupshared memory) and transpose.dxbc
(32x512 <-> 512x32), on two Resources, `data` and `tmp`, that both kernels
share: levels 2 ... 512 are one sort each; each level 1024 ... 16384 is
transpose, sort, transpose back, sort (README.md). The state after the
first phase is checked against rows.npy, the result against expected.npy.
Exit status 0 when both match.
"""

import importlib.util
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

import sm5sim

HERE = Path(__file__).resolve().parent
N = 16384
ROW = 512  # sort.dxbc's thread group: one row
ROWS = N // ROW  # 32
TILE = 16  # transpose.dxbc's tile
SEED = 11


def reference() -> Any:
    """reference.py, loaded by path (its random_u32 is the job's input)."""
    spec = importlib.util.spec_from_file_location("bitonic_sort_reference", HERE / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(**options: Any) -> Dict[str, Any]:
    """Run the 29 dispatches; `options` are Kernel.dispatch's (threads=2, ...)."""
    data = sm5sim.Resource.buffer(reference().random_u32(SEED, N))
    tmp = sm5sim.Resource.zeros(4 * N)
    sort = sm5sim.Kernel(sm5sim.Shader.load(HERE / "sort.dxbc"))
    transpose = sm5sim.Kernel(sm5sim.Shader.load(HERE / "transpose.dxbc"))

    def sort_rows(buf: sm5sim.Resource, level: int, level_mask: int) -> None:
        sort.bind("Data", buf).set_constants("SortParams", {"level": level, "level_mask": level_mask})
        sort.dispatch(ROWS, **options)

    def transposed(src: sm5sim.Resource, dst: sm5sim.Resource, width: int, height: int) -> None:
        transpose.bind("Input", src).bind("Output", dst)
        transpose.set_constants("TransposeParams", {"width": width, "height": height})
        transpose.dispatch((width // TILE, height // TILE), **options)

    level = 2
    while level <= ROW:  # every step inside a row
        sort_rows(data, level, level)
        level *= 2
    rows = data.read(np.uint32)
    while level <= N:
        transposed(data, tmp, ROW, ROWS)  # 32x512 -> 512x32
        sort_rows(tmp, level // ROW, level // ROW if level < N else 0)  # steps level/2 ... 512
        transposed(tmp, data, ROWS, ROW)  # and back
        sort_rows(data, ROW, level)  # steps 256 ... 1
        level *= 2
    return {"rows": rows, "sorted": data.read(np.uint32)}


def check(r: Dict[str, Any]) -> List[str]:
    """What differs from rows.npy and expected.npy (empty: all matches)."""
    wrong = []
    for key, file in (("rows", "rows.npy"), ("sorted", "expected.npy")):
        want = np.load(HERE / file)
        if not np.array_equal(r[key], want):
            bad = np.flatnonzero(r[key] != want)
            wrong.append(f"{key}: {len(bad)} of {N} words differ from {file} (first at {bad[0]})")
    return wrong


def main() -> int:
    r = run(threads=2)
    wrong = check(r)
    for w in wrong:
        print(f"FAIL: {w}", file=sys.stderr)
    if not wrong:
        print(f"ok: {N} words sorted, min {r['sorted'][0]} max {r['sorted'][-1]}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
