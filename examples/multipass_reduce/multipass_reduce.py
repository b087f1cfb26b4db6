#!/usr/bin/env python3
"""multipass_reduce.toml's pipeline through the Python API (docs/python.md).

    pip install .                                      # from the repository's root
    python3 examples/multipass_reduce/multipass_reduce.py

One kernel of reduce_pass.dxbc runs three times, ping-ponging between two
buffers `a` and `b` (Resources, so each pass reads what the last one wrote):
1,000,000 values in `a` -> 1954 partial sums in `b` -> 4 in `a` -> 1 in
`b`. Between passes `set_constants` changes `ReduceParams.count`. Every
pass's partial sums must add up to NumPy's sum of the input, 500047590
(reference.py). Exit status 0 when they do.
"""

import importlib.util
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

import sm5sim

HERE = Path(__file__).resolve().parent
N = 1_000_000
SEED = 31  # the job's random_u32 = { seed = 31, min = 0, max = 1000 }
PER_GROUP = 512  # elements each group reduces (256 threads, 2 each)
TOTAL = 500047590  # reference.py's sum


def reference() -> Any:
    """reference.py, loaded by path (its random_u32 is the job's input)."""
    spec = importlib.util.spec_from_file_location("multipass_reduce_reference", HERE / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(**options: Any) -> Dict[str, Any]:
    """Run the passes; `options` are Kernel.dispatch's (threads=2, ...)."""
    data = reference().random_u32(SEED, N, 0, 1000)
    a = sm5sim.Resource.buffer(data)
    b = sm5sim.Resource.zeros(4 * -(-N // PER_GROUP))  # 1954 uints
    k = sm5sim.Kernel(sm5sim.Shader.load(HERE / "reduce_pass.dxbc"))

    passes = []  # (count, groups, the partial sums)
    count, src, dst = N, a, b
    while count > 1:
        groups = -(-count // PER_GROUP)
        k.bind("In", src).bind("Out", dst).set_constants("ReduceParams", {"count": count})
        k.dispatch(groups, **options)
        passes.append((count, groups, dst.read(np.uint32)[:groups]))
        count, src, dst = groups, dst, src
    return {"input": data, "passes": passes, "total": int(src.read(np.uint32)[0])}


def check(r: Dict[str, Any]) -> List[str]:
    """What differs from the expected sums (empty: all matches)."""
    wrong = []
    total = int(r["input"].sum(dtype=np.uint64))
    if total != TOTAL:
        wrong.append(f"the input sums to {total}, not {TOTAL}: not the job's input")
    if [(c, g) for c, g, _ in r["passes"]] != [(1000000, 1954), (1954, 4), (4, 1)]:
        wrong.append(f"passes {[(c, g) for c, g, _ in r['passes']]}")
    for i, (count, groups, sums) in enumerate(r["passes"], 1):
        got = int(sums.sum(dtype=np.uint64))
        if got != TOTAL:
            wrong.append(f"pass {i} ({count} -> {groups}): partial sums add up to {got}, not {TOTAL}")
    if r["total"] != TOTAL:
        wrong.append(f"total {r['total']}, expected {TOTAL}")
    return wrong


def main() -> int:
    r = run(threads=2)
    wrong = check(r)
    for w in wrong:
        print(f"FAIL: {w}", file=sys.stderr)
    if not wrong:
        print(f"ok: {len(r['passes'])} passes, total {r['total']}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
