"""Per-dispatch speed of the eight example workloads from Python against the
command line (issue #33: within 10%, copies in and out not counted).

    python tools/python_speed.py [--threads N] [--repeat R] [--back-to-back] [--cli target/release/sm5sim]

Each workload gets the resources its job file (examples/<w>/<w>.toml)
describes, made from NumPy arrays, and its dispatches run R times from
Python after one warm-up. The command line runs a copy of the job file
whose steps are the same dispatches R + 1 times over (no expectations, as
the results accumulate), with `--json`; its first round is its warm-up.
The table gives, per workload, the median seconds per dispatch of each
(Python: `Dispatched.elapsed`, the dispatch alone as the command line's
`seconds` is; and the wall time around `Kernel.dispatch`, which adds the
call from Python) and the ratios, and the command line's first (cold)
dispatch for reference. The two alternate so that load from elsewhere
falls on both. This script only reports; nothing here is a timed
assertion.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import sm5sim

ROOT = Path(__file__).resolve().parents[1]


def setup(name: str) -> tuple[sm5sim.Kernel, list[tuple[int, int, int]]]:
    """The kernel bound as examples/<name>/<name>.toml binds it, and its dispatches."""
    k = sm5sim.Kernel(sm5sim.Shader.load(ROOT / "examples" / name / f"{name}.dxbc"))
    rng = np.random.default_rng(7)
    u32 = np.uint32
    if name in ("histogram", "global_histogram"):
        n = 16_000_000 if name == "histogram" else 4_000_000
        k.bind("keys", rng.integers(0, 2**32, n, dtype=u32)).bind("bins", np.zeros(256, u32))
        k.set_constants("Params", {"key_count": n})
        return k, [(62500, 1, 1)]
    if name == "reduce":
        n = 1_000_000
        k.bind("values", rng.integers(0, 1000, n, dtype=u32)).bind("total", np.zeros(1, u32))
        k.set_constants("Params", {"value_count": n})
        return k, [(3907, 1, 1), (3907, 1, 1)]
    if name == "scan":
        n = 1_048_576
        k.bind("input", rng.integers(0, 100, n, dtype=u32)).bind("output", np.zeros(n, u32))
        return k, [(2048, 1, 1)]
    if name == "matmul":
        n = 256
        k.bind("A", np.full((n, n), 0.5, np.float32)).bind("B", np.full((n, n), 2.0, np.float32))
        k.bind("C", np.zeros((n, n), np.float32))
        k.set_constants("Params", {"n": n})
        return k, [(16, 16, 1)]
    if name == "saxpy_structured":
        n = 1_000_000
        x = np.repeat(np.arange(n, dtype=np.float32)[:, None], 4, axis=1)
        k.bind("x", x).bind("y", np.ones((n, 4), np.float32))
        k.set_constants("Params", {"a": 2, "element_count": n})
        return k, [(7813, 1, 1)]
    if name == "cas_float_add":
        n = 1_000_000
        k.bind("values", np.full(n, 0.5, np.float32)).bind("sums", np.zeros(16, np.float32))
        k.set_constants("Params", {"value_count": n, "slot_count": 16})
        return k, [(15625, 1, 1)]
    if name == "mandelbrot":
        k.bind("iterations", np.zeros(512 * 512, u32))
        k.set_constants("Params", {"width": 512, "height": 512, "max_iter": 256})
        return k, [(64, 64, 1)]
    raise ValueError(name)


WORKLOADS = [
    "histogram",
    "global_histogram",
    "reduce",
    "scan",
    "matmul",
    "saxpy_structured",
    "cas_float_add",
    "mandelbrot",
]


def python_run(k: sm5sim.Kernel, groups: list, threads: int) -> tuple[list[float], list[float]]:
    elapsed, wall = [], []
    for g in groups:
        t0 = time.perf_counter()
        d = k.dispatch(g, threads=threads)
        wall.append(time.perf_counter() - t0)
        elapsed.append(d.elapsed)
    return elapsed, wall


def cli_run(cli: str, name: str, groups: list, threads: int, rounds: int) -> list[float]:
    """Seconds of each dispatch of the job with its dispatches `rounds` times over."""
    src = ROOT / "examples" / name / f"{name}.toml"
    head = src.read_text().split("[[steps]]")[0]
    head = re.sub(r'(?m)^shader = "(.*)"$', lambda m: f'shader = "{(src.parent / m.group(1)).as_posix()}"', head)
    steps = "".join(f"[[steps]]\ndispatch = [{x}, {y}, {z}]\n" for _ in range(rounds) for (x, y, z) in groups)
    with tempfile.TemporaryDirectory() as d:
        job = Path(d) / f"{name}.toml"
        job.write_text(head + steps)
        out = subprocess.run(
            [cli, "run", str(job), "--threads", str(threads), "--json"],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout
    doc = json.loads(out)
    return [s["seconds"] for s in doc["steps"] if s.get("kind") == "dispatch"]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeat", type=int, default=10, help="command-line processes (and Python rounds)")
    p.add_argument("--rounds", type=int, default=4, help="warm dispatches per process and per Python round")
    p.add_argument("--cli", default=str(ROOT / "target" / "release" / "sm5sim"))
    p.add_argument(
        "--back-to-back",
        action="store_true",
        help="one command-line process of repeat x rounds dispatches, then as many from Python,"
        " instead of alternating (a memory-bound dispatch from Python right after a"
        " command-line process measures the other process's effect on the memory system)",
    )
    p.add_argument("workloads", nargs="*", default=WORKLOADS)
    a = p.parse_args()
    print(
        f"threads {a.threads}; {a.repeat} command-line processes of {a.rounds} warm rounds,"
        f" as many dispatches from Python; seconds per dispatch, median (and minimum)"
    )
    print("| workload | CLI | Python (elapsed) | Python (wall) | elapsed / CLI | wall / CLI | CLI first (cold) |")
    print("|---|---|---|---|---|---|---|")
    for name in a.workloads:
        k, groups = setup(name)
        python_run(k, groups, a.threads)  # warm-up
        cli, cold, el, wall = [], [], [], []
        if a.back_to_back:
            # one long command-line run, then as many dispatches from Python
            secs = cli_run(a.cli, name, groups, a.threads, 1 + a.repeat * a.rounds)
            cold += secs[: len(groups)]
            cli += secs[len(groups) :]
            for _ in range(a.repeat * a.rounds):
                e, w = python_run(k, groups, a.threads)
                el += e
                wall += w
        for _ in range(0 if a.back_to_back else a.repeat):
            secs = cli_run(a.cli, name, groups, a.threads, 1 + a.rounds)
            cold += secs[: len(groups)]
            cli += secs[len(groups) :]
            for _ in range(a.rounds):
                e, w = python_run(k, groups, a.threads)
                el += e
                wall += w
        med = statistics.median
        c, e, w, f = med(cli), med(el), med(wall), med(cold)
        print(
            f"| {name} | {c:.4f} ({min(cli):.4f}) | {e:.4f} ({min(el):.4f}) | {w:.4f} ({min(wall):.4f})"
            f" | {e / c:.2f} ({min(el) / min(cli):.2f}) | {w / c:.2f} ({min(wall) / min(cli):.2f}) | {f:.4f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
