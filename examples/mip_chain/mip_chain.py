#!/usr/bin/env python3
"""mip_chain.toml's pipeline through the Python API (docs/python.md).

    pip install .                                      # from the repository's root
    python3 examples/mip_chain/mip_chain.py

A 64x64 R32G32B32A32_FLOAT texture with its full chain of 7 mips; mip 0 is
input.npy. One kernel of downsample.dxbc runs 6 times, each with `Src`
bound to a view of mip k alone (an SRV) and `Dst` to mip k+1 (a UAV) of
the same texture, `MipParams.dst_size` set to mip k+1's size. Mips 1 ... 6
must equal mip1.npy ... mip6.npy exactly. Exit status 0 when they do.
"""

import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

import sm5sim

HERE = Path(__file__).resolve().parent
SIZE = 64
MIPS = 7  # 64, 32, 16, 8, 4, 2, 1


def run(**options: Any) -> Dict[str, Any]:
    """Run the 6 dispatches; `options` are Kernel.dispatch's (threads=2, ...)."""
    tex = sm5sim.Resource.empty_texture("R32G32B32A32_FLOAT", SIZE, SIZE, mip_levels=0)
    tex.write_subresource(0, 0, np.load(HERE / "input.npy"))  # mip 0, slice 0
    k = sm5sim.Kernel(sm5sim.Shader.load(HERE / "downsample.dxbc"))
    group = k.shader.thread_group[0]  # 8x8 threads, one per destination texel
    for mip in range(MIPS - 1):
        size = SIZE >> (mip + 1)
        k.bind("Src", tex, mip=mip, mip_count=1)  # a view of mip k alone
        k.bind("Dst", tex, mip=mip + 1, mip_count=1)
        k.set_constants("MipParams", {"dst_size": [size, size]})
        groups = -(-size // group)
        k.dispatch((groups, groups), **options)
    return {"mips": [tex.read_subresource(m) for m in range(MIPS)]}


def check(r: Dict[str, Any]) -> List[str]:
    """What differs from mip1.npy ... mip6.npy (empty: all matches)."""
    wrong = []
    if not np.array_equal(r["mips"][0], np.load(HERE / "input.npy")):
        wrong.append("mip 0 is not input.npy")
    for m in range(1, MIPS):
        want = np.load(HERE / f"mip{m}.npy")
        got = r["mips"][m]
        if got.shape != want.shape or not np.array_equal(got, want):
            wrong.append(f"mip {m}: {got.shape} differs from mip{m}.npy {want.shape}")
    return wrong


def main() -> int:
    r = run(threads=2)
    wrong = check(r)
    for w in wrong:
        print(f"FAIL: {w}", file=sys.stderr)
    if not wrong:
        print(f"ok: mips 1 ... {MIPS - 1} as expected; mip {MIPS - 1} = {r['mips'][-1][0, 0].tolist()}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
