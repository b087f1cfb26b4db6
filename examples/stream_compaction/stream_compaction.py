#!/usr/bin/env python3
"""stream_compaction.toml's pipeline through the Python API (docs/python.md).

    pip install .                                      # from the repository's root
    python3 examples/stream_compaction/stream_compaction.py

Three kernels share five resources (a Resource bound to several kernels is
one buffer; an array would be copied at each bind):

1. compact.dxbc appends every input that is a multiple of 3 to `list`, an
   AppendStructuredBuffer<uint> whose hidden counter ends up the count;
2. CopyStructureCount copies that counter into `count`;
3. make_args.dxbc (one thread) writes [ceil(count / 64), 1, 1] to `args`;
4. process.dxbc, dispatched indirectly from `args`, adds each listed value's
   square, 1 and the maximum into `totals` with atomics.

The results are checked against args.npy and totals.npy (reference.py's),
and the list against NumPy's compaction as a multiset (its order depends on
the schedule). Exit status 0 when everything matches.
"""

import importlib.util
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

import sm5sim

HERE = Path(__file__).resolve().parent
N = 16384  # inputs (the job's `elements`)
SEED = 21  # the job's random_u32 seed
DIVISOR = 3


def reference() -> Any:
    """reference.py, loaded by path (its random_u32 is the job's input)."""
    spec = importlib.util.spec_from_file_location("stream_compaction_reference", HERE / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(**options: Any) -> Dict[str, Any]:
    """Run the pipeline; `options` are Kernel.dispatch's (threads=2, ...)."""
    data = reference().random_u32(SEED, N)

    def kernel(name: str) -> sm5sim.Kernel:
        return sm5sim.Kernel(sm5sim.Shader.load(HERE / f"{name}.dxbc"))

    compact, make_args, process = kernel("compact"), kernel("make_args"), kernel("process")

    # the device's resources: shared by every kernel they are bound to
    values = sm5sim.Resource.buffer(data)
    listed = sm5sim.Resource.zeros(4 * N)  # hidden counter 0
    count = sm5sim.Resource.zeros(4)
    args = sm5sim.Resource.zeros(12)
    totals = sm5sim.Resource.zeros(12)

    compact.bind("input", values).bind("list", listed)  # t0, u0 (append)
    compact.set_constants("CompactParams", {"element_count": N, "divisor": DIVISOR})
    compact.dispatch(N // compact.shader.thread_group[0], **options)

    count.copy_structure_count(listed)  # CopyStructureCount(count, 0, list's UAV)

    make_args.bind("count", count).bind("args", args)
    make_args.dispatch(1, **options)

    process.bind("list", listed).bind("count", count).bind("totals", totals)  # list is t0 here
    done = process.dispatch_indirect(args, 0, **options)

    n = listed.counter
    return {
        "input": data,
        "counter": n,
        "list": listed.read(np.uint32)[:n],
        "count": int(count.read(np.uint32)[0]),
        "args": args.read(np.uint32),
        "groups": done.groups,
        "totals": totals.read(np.uint32),
    }


def check(r: Dict[str, Any]) -> List[str]:
    """What differs from the expected outputs (empty: all matches)."""
    data = r["input"]
    kept = data[data % DIVISOR == 0]
    args = np.load(HERE / "args.npy")
    totals = np.load(HERE / "totals.npy")
    wrong = []
    if r["counter"] != len(kept) or r["count"] != len(kept):
        wrong.append(f"counter {r['counter']}, count {r['count']}; expected {len(kept)}")
    if not np.array_equal(np.sort(r["list"]), np.sort(kept)):
        wrong.append("list is not the multiples of 3 of the input (as a multiset)")
    if not np.array_equal(r["args"], args) or r["groups"] != tuple(args.tolist()):
        wrong.append(f"args {r['args'].tolist()}, dispatched {r['groups']}; expected {args.tolist()}")
    if not np.array_equal(r["totals"], totals):
        wrong.append(f"totals {r['totals'].tolist()}; expected {totals.tolist()}")
    return wrong


def main() -> int:
    r = run(threads=2)
    wrong = check(r)
    for w in wrong:
        print(f"FAIL: {w}", file=sys.stderr)
    if not wrong:
        print(f"ok: kept {r['counter']} of {N}, args {r['args'].tolist()}, totals {r['totals'].tolist()}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
